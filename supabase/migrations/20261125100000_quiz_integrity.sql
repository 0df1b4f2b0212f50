-- Quiz integrity for compliance training (issue 15): a failed attempt showed every correct answer
-- and allowed an immediate retry. Each quiz now says
--   show_correct_answers  NEVER | AFTER_PASSING (default) | ALWAYS: when an attempt's review carries
--                         the correct answers, each question's right/wrong mark and the explanations;
--   max_attempts          scored attempts allowed per learner (per recertification cycle), null = unlimited;
--   retry_wait_minutes    minutes from one scored attempt until the next may start (0 = none).
-- The database enforces them whatever the route: private.start_quiz_attempt refuses to open an
-- attempt beyond the maximum or before the wait has passed, private.finish_quiz_attempt refuses to
-- score one (in case an attempt was opened before the settings changed, or two were raced), and
-- private.quiz_attempt_review returns the correct answers only when the setting allows. Learners
-- cannot read quiz_questions at all (authors and admins only), so the review is their only way to
-- the answers. Existing quizzes take the defaults.

alter table public.quizzes
  add column show_correct_answers text not null default 'AFTER_PASSING',
  add column max_attempts integer,
  add column retry_wait_minutes integer not null default 0,
  add constraint quizzes_show_correct_answers_values check (show_correct_answers in ('NEVER', 'AFTER_PASSING', 'ALWAYS')),
  add constraint quizzes_max_attempts_range check (max_attempts is null or max_attempts between 1 and 100),
  add constraint quizzes_retry_wait_range check (retry_wait_minutes between 0 and 43200);
comment on column public.quizzes.show_correct_answers is
  'When a learner''s attempt review includes the correct answers, right/wrong marks and explanations: NEVER, AFTER_PASSING (the attempt passed) or ALWAYS.';
comment on column public.quizzes.max_attempts is 'Scored attempts allowed per learner and recertification cycle, 1 to 100, or null for unlimited.';
comment on column public.quizzes.retry_wait_minutes is 'Minutes after a scored attempt before the next may start, 0 (none) to 43200 (30 days).';

-- Authors write the new settings as they write the others (column grants of the security hardening).
grant insert (show_correct_answers, max_attempts, retry_wait_minutes),
      update (show_correct_answers, max_attempts, retry_wait_minutes)
  on public.quizzes to authenticated;

-- Counting the caller's attempts filters on (user_id, quiz_id): quiz_attempts_user_id_quiz_id_idx.

-- The caller's standing on a quiz: scored attempts in the current cycle (a recertifying learner
-- starts again: attempts before the cycle's start do not count), what is left and when the next
-- attempt may start. Security invoker: reads only the caller's own attempts and enrolment.
create function private.quiz_attempt_status(p_quiz_id uuid)
returns table (attempts_used integer, max_attempts integer, attempts_remaining integer,
               next_attempt_at timestamptz, show_correct_answers text, retry_wait_minutes integer)
language sql stable security invoker
set search_path = ''
as $$
  with quiz as (
    select q.id, q.max_attempts, q.retry_wait_minutes, q.show_correct_answers, m.course_id
    from public.quizzes q join public.course_modules m on m.id = q.module_id
    where q.id = p_quiz_id
  ), counted as (
    select count(*)::int as used, max(a.completed_at) as last_completed
    from quiz, public.quiz_attempts a
    where a.user_id = (select auth.uid()) and a.quiz_id = quiz.id and a.completed_at is not null
      and not exists (select 1 from public.enrollments e
                      where e.user_id = a.user_id and e.course_id = quiz.course_id
                        and e.cycle > 1 and a.completed_at < e.started_at)
  )
  select c.used,
         q.max_attempts,
         case when q.max_attempts is null then null else greatest(q.max_attempts - c.used, 0) end,
         case when q.max_attempts is not null and c.used >= q.max_attempts then null
              when q.retry_wait_minutes > 0 and c.last_completed is not null
                   and c.last_completed + make_interval(mins => q.retry_wait_minutes) > now()
                then c.last_completed + make_interval(mins => q.retry_wait_minutes)
              else null end,
         q.show_correct_answers,
         q.retry_wait_minutes
  from quiz q cross join counted c
$$;
comment on function private.quiz_attempt_status(uuid) is
  'The caller''s scored attempts at the quiz in the current cycle, the maximum, the attempts left (null = unlimited), when the next may start when waiting (else null) and the answer-display setting.';
revoke all on function private.quiz_attempt_status(uuid) from public;
grant execute on function private.quiz_attempt_status(uuid) to authenticated, service_role;

-- Refuses when the caller may not open or score another attempt now (errcode 55000, hint
-- quiz_no_attempts_left or quiz_retry_wait; the detail of the wait is the time it ends, ISO 8601).
create function private.check_quiz_attempt_allowed(p_quiz_id uuid, p_started_at timestamptz default null)
returns void
language plpgsql stable security invoker
set search_path = ''
as $$
declare
  v_status record;
  v_last timestamptz;
begin
  select * into v_status from private.quiz_attempt_status(p_quiz_id);
  if not found then
    return;
  end if;
  if v_status.max_attempts is not null and v_status.attempts_used >= v_status.max_attempts then
    raise exception 'You have used all % attempts at this quiz', v_status.max_attempts
      using errcode = '55000', hint = 'quiz_no_attempts_left';
  end if;
  if v_status.next_attempt_at is not null and p_started_at is null then
    raise exception 'The next attempt at this quiz may start at %', v_status.next_attempt_at
      using errcode = '55000', hint = 'quiz_retry_wait', detail = to_char(v_status.next_attempt_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
  end if;
  if p_started_at is not null and v_status.retry_wait_minutes > 0 then
    -- Scoring: the running attempt must have started once the wait after the last scored one was over.
    select max(a.completed_at) into v_last from public.quiz_attempts a
    where a.user_id = (select auth.uid()) and a.quiz_id = p_quiz_id and a.completed_at is not null;
    if v_last is not null and p_started_at < v_last + make_interval(mins => v_status.retry_wait_minutes) then
      raise exception 'This attempt started before the wait after your last attempt was over'
        using errcode = '55000', hint = 'quiz_retry_wait',
              detail = to_char(coalesce(v_status.next_attempt_at, now()) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
    end if;
  end if;
end;
$$;
comment on function private.check_quiz_attempt_allowed(uuid, timestamptz) is
  'Raises 55000 (hint quiz_no_attempts_left / quiz_retry_wait) when the caller may not start (p_started_at null) or score (p_started_at = the running attempt''s start) an attempt now.';
-- Called only from start_quiz_attempt and finish_quiz_attempt (as their owner).
revoke all on function private.check_quiz_attempt_allowed(uuid, timestamptz) from public, anon, authenticated;

create or replace function private.start_quiz_attempt(p_quiz_id uuid) returns public.quiz_attempts
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quiz public.quizzes;
  v_course_id uuid;
  v_open public.quiz_attempts;
  v_has_open boolean;
  v_last timestamptz;
begin
  select q.* into v_quiz from public.quizzes q where q.id = p_quiz_id;
  select m.course_id into v_course_id from public.course_modules m where m.id = v_quiz.module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  -- One start per learner and quiz at a time, so two starts cannot both pass the checks below.
  perform pg_advisory_xact_lock(hashtextextended('quiz_attempt:' || v_uid::text || ':' || p_quiz_id::text, 0));
  select a.* into v_open from public.quiz_attempts a
  where a.user_id = v_uid and a.quiz_id = p_quiz_id and a.completed_at is null
  order by a.started_at desc
  limit 1
  for update;
  v_has_open := found;
  select max(a.completed_at) into v_last from public.quiz_attempts a
  where a.user_id = v_uid and a.quiz_id = p_quiz_id and a.completed_at is not null;
  -- A running attempt still within its time limit was allowed when it started: reloading the page
  -- returns it (and does not restart the clock). One that started before the last scored attempt
  -- or within the wait after it (not written by this function) could never be scored: it is
  -- restarted below, once the checks allow.
  if v_has_open and (v_quiz.time_limit is null
                     or v_open.started_at + make_interval(mins => v_quiz.time_limit) > now())
     and (v_last is null or v_open.started_at >= v_last + make_interval(mins => v_quiz.retry_wait_minutes)) then
    return v_open;
  end if;
  perform private.check_quiz_attempt_allowed(p_quiz_id, null);
  if v_has_open then
    update public.quiz_attempts a set started_at = now() where a.id = v_open.id returning * into v_open;
    return v_open;
  end if;
  insert into public.quiz_attempts (user_id, quiz_id) values (v_uid, p_quiz_id) returning * into v_open;
  return v_open;
end;
$$;
comment on function private.start_quiz_attempt(uuid) is
  'Learner: the running attempt of the quiz (completed_at null), started now unless one is still within the time limit; 55000 (hint quiz_no_attempts_left / quiz_retry_wait) when no new attempt may start.';

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
  v_has_open boolean;
  -- The caller does not choose how late is too late: at most 30 seconds of grace.
  v_grace integer := least(greatest(coalesce(p_grace_seconds, 30), 0), 30);
  v_attempt public.quiz_attempts;
begin
  select q.* into v_quiz from public.quizzes q where q.id = p_quiz_id;
  select m.course_id into v_course_id from public.course_modules m where m.id = v_quiz.module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('quiz_attempt:' || v_uid::text || ':' || p_quiz_id::text, 0));
  -- Waits for a concurrent submission of the same attempt; once that one has committed, the row
  -- is gone and this one finds no running attempt.
  select a.* into v_open from public.quiz_attempts a
  where a.user_id = v_uid and a.quiz_id = p_quiz_id and a.completed_at is null
  order by a.started_at desc
  limit 1
  for update;
  v_has_open := found;
  -- The maximum and the wait hold at scoring too (settings changed since the start, or a race), and
  -- are what a learner with no attempt left is told, rather than to start the quiz.
  perform private.check_quiz_attempt_allowed(p_quiz_id, case when v_has_open then v_open.started_at else now() end);
  if not v_has_open then
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
  'Learner: scores the answers of the running attempt (private.submit_quiz_attempt), once: 22023 hint quiz_not_started / quiz_time_up; 55000 hint quiz_no_attempts_left / quiz_retry_wait when the quiz''s maximum or wait forbids it.';

-- The review now says whether the answers are shown; when not, the correct answers, the options'
-- isCorrect and the explanations are null.
drop function private.quiz_attempt_review(uuid);
create function private.quiz_attempt_review(p_attempt_id uuid)
returns table (question_id uuid, correct_answers jsonb, options jsonb, explanation text, answers_shown boolean)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_attempt public.quiz_attempts;
  v_setting text;
  v_shown boolean;
begin
  select a.* into v_attempt from public.quiz_attempts a
  where a.id = p_attempt_id and a.user_id = (select auth.uid()) and a.completed_at is not null;
  if not found then
    raise exception 'No such attempt of yours' using errcode = '42501';
  end if;
  select q.show_correct_answers into v_setting from public.quizzes q where q.id = v_attempt.quiz_id;
  v_shown := v_setting = 'ALWAYS' or (v_setting = 'AFTER_PASSING' and v_attempt.passed);
  return query
    select qq.id,
           case when v_shown then qq.correct_answers end,
           case when v_shown then qq.options
                else coalesce((select jsonb_agg(jsonb_build_object('text', o.value ->> 'text') order by o.ordinality)
                               from jsonb_array_elements(qq.options) with ordinality o), '[]'::jsonb) end,
           case when v_shown then qq.explanation end,
           v_shown
    from public.quiz_questions qq
    where qq.quiz_id = v_attempt.quiz_id
    order by qq.order_index, qq.id;
end;
$$;
comment on function private.quiz_attempt_review(uuid) is
  'Learner: the questions of their own submitted attempt; the correct answers, isCorrect marks and explanations only when the quiz''s show_correct_answers allows (ALWAYS, or AFTER_PASSING and the attempt passed), else null with answers_shown false.';
revoke all on function private.quiz_attempt_review(uuid) from public;
grant execute on function private.quiz_attempt_review(uuid) to authenticated;
