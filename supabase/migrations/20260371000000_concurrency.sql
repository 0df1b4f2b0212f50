-- Concurrency (issue 7): the same request sent many times at once has exactly one effect, by
-- locks and constraints in the database rather than by the luck of timing.
--
-- 1. Quiz answers score exactly one attempt. An attempt is opened by fetching the quiz
--    (private.start_quiz_attempt) and finished once: the running row is locked FOR UPDATE and
--    deleted as it is scored, so a second submission of the same attempt (a double click, a retried
--    request, 50 at once) finds nothing to finish. Until now an untimed quiz also scored answers
--    without a running attempt, so every duplicate became one more scored attempt.
-- 2. Reordering modules or questions locks the rows it reorders, in id order, before it reads
--    them. Two reorders of one course at once used to read the order before the other committed,
--    then skip rows the other had already moved: a refusal (42501) for the second or a mixed order.
-- 3. Setting a role's services takes a transaction lock per role, so two saves (or a save and a
--    bulk update scanning the table from a different starting block) cannot deadlock on the rows.

create or replace function private.finish_quiz_attempt(p_quiz_id uuid, p_answers jsonb, p_grace_seconds integer default 30)
returns public.quiz_attempts
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quiz public.quizzes;
  v_course_id uuid;
  v_open public.quiz_attempts;
  -- The caller does not choose how late is too late: at most 30 seconds of grace.
  v_grace integer := least(greatest(coalesce(p_grace_seconds, 30), 0), 30);
  v_attempt public.quiz_attempts;
begin
  select q.* into v_quiz from public.quizzes q where q.id = p_quiz_id;
  select m.course_id into v_course_id from public.course_modules m where m.id = v_quiz.module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  -- Waits for a concurrent submission of the same attempt; once that one has committed, the row
  -- is gone and this one finds no running attempt.
  select a.* into v_open from public.quiz_attempts a
  where a.user_id = v_uid and a.quiz_id = p_quiz_id and a.completed_at is null
  order by a.started_at desc
  limit 1
  for update;
  if not found then
    raise exception 'Start the quiz before submitting your answers' using errcode = '22023', hint = 'quiz_not_started';
  end if;
  if v_quiz.time_limit is not null
     and now() > v_open.started_at + make_interval(mins => v_quiz.time_limit, secs => v_grace) then
    raise exception 'Time is up' using errcode = '22023', hint = 'quiz_time_up';
  end if;
  v_attempt := private.submit_quiz_attempt(p_quiz_id, p_answers);
  -- The scored row keeps the real start; the running row has served its purpose.
  update public.quiz_attempts a set started_at = v_open.started_at where a.id = v_attempt.id returning * into v_attempt;
  delete from public.quiz_attempts a where a.id = v_open.id;
  return v_attempt;
end;
$$;
comment on function private.finish_quiz_attempt(uuid, jsonb, integer) is
  'Learner: scores the answers of the running attempt (private.submit_quiz_attempt), once: 22023 hint quiz_not_started when there is none (never opened, or already submitted), hint quiz_time_up when a timed attempt is past time_limit + grace (grace capped at 30 s).';

create or replace function private.reorder_modules(p_course_id uuid, p_module_ids uuid[]) returns integer
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_current uuid[];
  v_given uuid[];
  v_count integer;
  v_expected integer;
begin
  -- One reorder of a course at a time; the reads below then see the previous one's result.
  perform 1 from public.course_modules m where m.course_id = p_course_id order by m.id for update;
  select coalesce(array_agg(m.id order by m.id), '{}') into v_current
  from public.course_modules m where m.course_id = p_course_id;
  select coalesce(array_agg(x order by x), '{}') into v_given from unnest(coalesce(p_module_ids, '{}')) x;
  if v_given is distinct from v_current then
    raise exception 'The module ids must be exactly the modules of the course, each once' using errcode = '22023';
  end if;
  select count(*) into v_expected
  from unnest(p_module_ids) with ordinality as t(id, position)
  join public.course_modules m on m.id = t.id where m.order_index <> t.position;
  update public.course_modules m
  set order_index = t.position
  from unnest(p_module_ids) with ordinality as t(id, position)
  where m.id = t.id and m.course_id = p_course_id and m.order_index <> t.position;
  get diagnostics v_count = row_count;
  if v_count < v_expected then
    raise exception 'You may not reorder the modules of this course' using errcode = '42501';
  end if;
  return cardinality(p_module_ids);
end;
$$;

create or replace function private.reorder_quiz_questions(p_quiz_id uuid, p_question_ids uuid[]) returns integer
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_current uuid[];
  v_given uuid[];
  v_count integer;
  v_expected integer;
begin
  -- One reorder of a quiz at a time; the reads below then see the previous one's result.
  perform 1 from public.quiz_questions q where q.quiz_id = p_quiz_id order by q.id for update;
  select coalesce(array_agg(q.id order by q.id), '{}') into v_current
  from public.quiz_questions q where q.quiz_id = p_quiz_id;
  select coalesce(array_agg(x order by x), '{}') into v_given from unnest(coalesce(p_question_ids, '{}')) x;
  if v_given is distinct from v_current then
    raise exception 'The question ids must be exactly the questions of the quiz, each once' using errcode = '22023';
  end if;
  select count(*) into v_expected
  from unnest(p_question_ids) with ordinality as t(id, position)
  join public.quiz_questions q on q.id = t.id where q.order_index <> t.position;
  update public.quiz_questions q
  set order_index = t.position
  from unnest(p_question_ids) with ordinality as t(id, position)
  where q.id = t.id and q.quiz_id = p_quiz_id and q.order_index <> t.position;
  get diagnostics v_count = row_count;
  if v_count < v_expected then
    raise exception 'You may not reorder the questions of this quiz' using errcode = '42501';
  end if;
  return cardinality(p_question_ids);
end;
$$;

create or replace function private.set_role_services(p_role public.user_role, p_services public.service_code[]) returns integer
language plpgsql security invoker
set search_path = ''
as $$
declare
  v_count integer;
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may change role services' using errcode = '42501';
  end if;
  -- Saves for one role wait for each other instead of racing (and deadlocking) row by row.
  perform pg_advisory_xact_lock(hashtext('private.set_role_services'), hashtext(p_role::text));
  update public.profiles
  set services = (select coalesce(array_agg(distinct s order by s), '{}') from unnest(p_services) s)
  where role = p_role;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
