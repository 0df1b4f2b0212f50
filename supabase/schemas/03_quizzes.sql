-- Quizzes, their questions and the attempts at them.
--
-- A module has at most one quiz. The questions, with their correct answers, are readable only by
-- the quiz's authors and admins: a learner gets the questions without answers through
-- private.quiz_questions_for_learner, and submits through private.start_quiz_attempt /
-- private.finish_quiz_attempt, which score the attempt on the server, enforce the time limit, the
-- attempt limit and the cooling-off period, and record the module as passed.
-- Welsh versions sit beside the English (null: not translated): a question's Welsh options are the
-- same options in the same order (private.quiz_options_cy_is_valid), so scoring by index is the same
-- in either language.

-- ---------------------------------------------------------------------------
-- Used by a check constraint below, so defined first
-- ---------------------------------------------------------------------------

create function private.quiz_question_is_valid(
  p_type public.question_type,
  p_options jsonb,
  p_correct jsonb
)
returns boolean
language sql immutable
set search_path = ''
as $$
  -- CASE keeps the order: the key is cast to integers only once every part is known to be one.
  select case
    when jsonb_typeof(p_options) is distinct from 'array'
      or jsonb_array_length(p_options) not between 2 and 10
      or jsonb_typeof(p_correct) is distinct from 'array'
      or jsonb_array_length(p_correct) not between 1 and jsonb_array_length(p_options) then false
    -- every option an object with a non-empty text and a boolean isCorrect
    when exists (
      select 1 from jsonb_array_elements(p_options) o(value)
      where jsonb_typeof(o.value) <> 'object'
         or jsonb_typeof(o.value -> 'text') is distinct from 'string'
         or btrim(o.value ->> 'text') = ''
         or char_length(o.value ->> 'text') > 500
         or jsonb_typeof(o.value -> 'isCorrect') is distinct from 'boolean') then false
    -- every key a whole number that names an option
    when exists (
      select 1 from jsonb_array_elements(p_correct) c(value)
      where case when jsonb_typeof(c.value) <> 'number' or c.value::text !~ '^\d{1,2}$' then true
                 else c.value::text::int >= jsonb_array_length(p_options) end) then false
    when p_type = 'TRUE_FALSE' and (jsonb_array_length(p_options) <> 2 or jsonb_array_length(p_correct) <> 1) then false
    -- the key is exactly the options marked correct (which also makes its indexes distinct)
    else (select array_agg(c.value::text::int order by c.value::text::int) from jsonb_array_elements(p_correct) c(value))
      is not distinct from
         (select array_agg((o.ordinality - 1)::int order by o.ordinality)
            from jsonb_array_elements(p_options) with ordinality o(value, ordinality)
           where (o.value ->> 'isCorrect')::boolean)
  end
$$;
comment on function private.quiz_question_is_valid(public.question_type,jsonb,jsonb) is
  'True when a question''s options and scoring key are ones scoring can handle (see the check quiz_questions_scorable).';
revoke all on function private.quiz_question_is_valid(public.question_type,jsonb,jsonb) from public;
grant execute on function private.quiz_question_is_valid(public.question_type,jsonb,jsonb) to
  authenticated, service_role;

create function private.quiz_options_cy_is_valid(p_options jsonb, p_options_cy jsonb)
returns boolean
language sql immutable
set search_path = ''
as $$
  -- The Welsh options: none, or an array of texts as long as the options, each not blank and at most
  -- 500 characters (the rule of an option's text).
  select p_options_cy is null
    or (jsonb_typeof(p_options_cy) = 'array'
        and jsonb_typeof(p_options) = 'array'
        and jsonb_array_length(p_options_cy) = jsonb_array_length(p_options)
        and not exists (
          select 1 from jsonb_array_elements(p_options_cy) o(value)
          where jsonb_typeof(o.value) <> 'string'
             or btrim(o.value #>> '{}') = ''
             or char_length(o.value #>> '{}') > 500))
$$;
comment on function private.quiz_options_cy_is_valid(jsonb,jsonb) is
  'True when a question''s Welsh options are null or an array of non-blank texts (at most 500 characters) of the same length as its options (see the check quiz_questions_options_cy_match).';
revoke all on function private.quiz_options_cy_is_valid(jsonb,jsonb) from public;
grant execute on function private.quiz_options_cy_is_valid(jsonb,jsonb) to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.quizzes (
  id uuid primary key default gen_random_uuid(),
  module_id uuid not null references public.course_modules (id) on delete cascade,
  title text not null,
  description text,
  passing_score integer not null default 70,
  time_limit integer,
  randomize_questions boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  show_correct_answers text not null default 'AFTER_PASSING',
  max_attempts integer,
  retry_wait_minutes integer not null default 0,
  title_cy text,
  description_cy text,
  constraint quizzes_module_id_key unique (module_id),
  constraint quizzes_title_length check (char_length(btrim(title)) between 3 and 200),
  constraint quizzes_title_cy_length check (title_cy is null or char_length(btrim(title_cy)) between 3 and 200),
  constraint quizzes_description_cy_text check (description_cy is null or btrim(description_cy) <> ''),
  constraint quizzes_passing_score_range check (passing_score between 1 and 100),
  constraint quizzes_time_limit_positive check (time_limit is null or time_limit >= 1),
  constraint quizzes_show_correct_answers_values check (show_correct_answers in ('NEVER', 'AFTER_PASSING', 'ALWAYS')),
  constraint quizzes_max_attempts_range check (max_attempts is null or max_attempts between 1 and 100),
  constraint quizzes_retry_wait_range check (retry_wait_minutes between 0 and 43200)
);

create table public.quiz_questions (
  id uuid primary key default gen_random_uuid(),
  quiz_id uuid not null references public.quizzes (id) on delete cascade,
  question_text text not null,
  question_type public.question_type not null default 'MULTIPLE_CHOICE',
  order_index integer not null default 1,
  points integer not null default 1,
  options jsonb not null default '[]'::jsonb,
  correct_answers jsonb not null default '[]'::jsonb,
  explanation text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  question_text_cy text,
  options_cy jsonb,
  explanation_cy text,
  constraint quiz_questions_text_length check (char_length(btrim(question_text)) >= 5),
  constraint quiz_questions_text_cy_length check (question_text_cy is null or char_length(btrim(question_text_cy)) >= 5),
  constraint quiz_questions_options_cy_match check (private.quiz_options_cy_is_valid(options, options_cy)),
  constraint quiz_questions_explanation_cy_text check (explanation_cy is null or btrim(explanation_cy) <> ''),
  constraint quiz_questions_order_positive check (order_index >= 1),
  constraint quiz_questions_points_positive check (points >= 1),
  constraint quiz_questions_options_array check (jsonb_typeof(options) = 'array' and jsonb_array_length(options) >= 2),
  constraint quiz_questions_correct_answers_array check (jsonb_typeof(correct_answers) = 'array'),
  constraint quiz_questions_scorable check (private.quiz_question_is_valid(question_type, options, correct_answers))
);

create table public.quiz_attempts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  quiz_id uuid not null references public.quizzes (id) on delete cascade,
  score integer not null default 0,
  max_score integer not null default 0,
  passed boolean not null default false,
  answers jsonb not null default '{}'::jsonb,
  started_at timestamptz not null default now(),
  completed_at timestamptz,
  constraint quiz_attempts_score_range check (score >= 0 and max_score >= 0 and score <= max_score),
  constraint quiz_attempts_answers_object check (jsonb_typeof(answers) = 'object')
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.quizzes is
  'The quiz at the end of a module (at most one per module). Deleted with its module.';

comment on column public.quizzes.passing_score is
  'Percentage of points needed to pass, 1 to 100.';

comment on column public.quizzes.time_limit is
  'Minutes allowed, or null for no limit.';

comment on column public.quizzes.randomize_questions is
  'Serve the questions in random order.';

comment on column public.quizzes.show_correct_answers is
  'When a learner''s attempt review includes the correct answers, right/wrong marks and explanations: NEVER, AFTER_PASSING (the attempt passed) or ALWAYS.';

comment on column public.quizzes.max_attempts is
  'Scored attempts allowed per learner and recertification cycle, 1 to 100, or null for unlimited.';

comment on column public.quizzes.retry_wait_minutes is
  'Minutes after a scored attempt before the next may start, 0 (none) to 43200 (30 days).';

comment on constraint quiz_questions_scorable on public.quiz_questions is
  'Options and scoring key that scoring can handle (private.quiz_question_is_valid).';

comment on table public.quiz_questions is
  'A question of a quiz, with its answers: read only by the course author and admins.';

comment on column public.quiz_questions.options is
  'JSON array of {"text": string, "isCorrect": boolean}, at least two.';

comment on column public.quiz_questions.correct_answers is
  'JSON array of the 0-based indexes of the correct options (the scoring key).';

comment on column public.quiz_questions.explanation is
  'Shown to the learner after submitting.';

comment on column public.quizzes.title_cy is
  'The title in Welsh; null: not translated.';

comment on column public.quizzes.description_cy is
  'The description in Welsh; null: not translated.';

comment on column public.quiz_questions.question_text_cy is
  'The question in Welsh; null: not translated.';

comment on column public.quiz_questions.options_cy is
  'JSON array of the option texts in Welsh, as many as options and in the same order (scoring is by index); null: not translated.';

comment on column public.quiz_questions.explanation_cy is
  'The explanation in Welsh; null: not translated.';

comment on constraint quiz_questions_options_cy_match on public.quiz_questions is
  'The Welsh options are the options in the same order (private.quiz_options_cy_is_valid).';

comment on table public.quiz_attempts is
  'A scored quiz submission. Written only by private.submit_quiz_attempt.';

comment on column public.quiz_attempts.score is
  'Points earned (sum of the points of correctly answered questions).';

comment on column public.quiz_attempts.max_score is
  'Points available when the attempt was scored.';

comment on column public.quiz_attempts.answers is
  'The submitted answers: {"<question id>": [option indexes]}.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index quiz_questions_quiz_id_order_idx on public.quiz_questions (quiz_id, order_index);

create index quiz_attempts_user_id_quiz_id_idx on public.quiz_attempts (user_id, quiz_id);

create index quiz_attempts_quiz_id_idx on public.quiz_attempts (quiz_id);

-- A person's last activity (the manager's team page, 14_my_team.sql) from the index alone.
create index quiz_attempts_user_activity_idx on public.quiz_attempts (user_id) include (started_at, completed_at);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.quizzes enable row level security;

alter table public.quiz_questions enable row level security;

alter table public.quiz_attempts enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "quizzes: module authors and national admins add"
  on public.quizzes for insert to authenticated
  with check ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "quizzes: module authors and national admins update"
  on public.quizzes for update to authenticated
  using ((select private.is_admin()) or module_id in (select private.authored_module_ids()))
  with check ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "quizzes: module authors and national admins delete"
  on public.quizzes for delete to authenticated
  using ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "visitors read quizzes of visible modules"
  on public.quizzes for select to anon
  using (exists (select 1 from public.course_modules m where m.id = quizzes.module_id));

create policy "users read quizzes of visible modules"
  on public.quizzes for select to authenticated
  using (exists (select 1 from public.course_modules m where m.id = quizzes.module_id));

-- quiz_questions: no policy for visitors at all; signed-in authors and admins only.
create policy "quiz questions: quiz authors and national admins read"
  on public.quiz_questions for select to authenticated
  using ((select private.is_admin()) or quiz_id in (select private.authored_quiz_ids()));

create policy "quiz questions: quiz authors and national admins add"
  on public.quiz_questions for insert to authenticated
  with check ((select private.is_admin()) or quiz_id in (select private.authored_quiz_ids()));

create policy "quiz questions: quiz authors and national admins update"
  on public.quiz_questions for update to authenticated
  using ((select private.is_admin()) or quiz_id in (select private.authored_quiz_ids()))
  with check ((select private.is_admin()) or quiz_id in (select private.authored_quiz_ids()));

create policy "quiz questions: quiz authors and national admins delete"
  on public.quiz_questions for delete to authenticated
  using ((select private.is_admin()) or quiz_id in (select private.authored_quiz_ids()));

create policy "quiz attempts: self, quiz authors and administrators read"
  on public.quiz_attempts for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or quiz_id in (select private.authored_quiz_ids())
    or user_id in (select private.people_i_administer())
  );

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.quizzes from anon, authenticated, service_role;
grant select on public.quizzes to anon;
grant select, delete on public.quizzes to authenticated;
grant all on public.quizzes to service_role;
grant insert (module_id, title, description, passing_score, time_limit, randomize_questions,
  show_correct_answers, max_attempts, retry_wait_minutes, title_cy, description_cy) on public.quizzes to
  authenticated;
grant update (module_id, title, description, passing_score, time_limit, randomize_questions,
  show_correct_answers, max_attempts, retry_wait_minutes, title_cy, description_cy) on public.quizzes to
  authenticated;

revoke all on public.quiz_questions from anon, authenticated, service_role;
grant select on public.quiz_questions to anon;
grant select, delete on public.quiz_questions to authenticated;
grant all on public.quiz_questions to service_role;
grant insert (quiz_id, question_text, question_type, order_index, points, options, correct_answers,
  explanation, question_text_cy, options_cy, explanation_cy) on public.quiz_questions to authenticated;
grant update (quiz_id, question_text, question_type, order_index, points, options, correct_answers,
  explanation, question_text_cy, options_cy, explanation_cy) on public.quiz_questions to authenticated;

revoke all on public.quiz_attempts from anon, authenticated, service_role;
grant select on public.quiz_attempts to anon, authenticated;
grant all on public.quiz_attempts to service_role;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- Score a submission: answers {"<question id>": [option indexes] or index}. A question scores its
-- points when the chosen set equals the correct set.
create function private.submit_quiz_attempt(p_quiz_id uuid, p_answers jsonb)
returns public.quiz_attempts
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quiz public.quizzes;
  v_course_id uuid;
  v_score integer;
  v_max integer;
  v_passed boolean;
  v_attempt public.quiz_attempts;
begin
  select q.* into v_quiz from public.quizzes q where q.id = p_quiz_id;
  select m.course_id into v_course_id from public.course_modules m where m.id = v_quiz.module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  if p_answers is null or jsonb_typeof(p_answers) <> 'object' then
    raise exception 'Answers must be an object keyed by question id' using errcode = '22023';
  end if;
  select coalesce(sum(qq.points) filter (where
           (select coalesce(array_agg(distinct a.value::int order by a.value::int), '{}')
              from jsonb_array_elements_text(
                case jsonb_typeof(p_answers -> qq.id::text)
                  when 'array' then p_answers -> qq.id::text
                  when 'number' then jsonb_build_array(p_answers -> qq.id::text)
                  else '[]'::jsonb end) a
             where a.value ~ '^\d+$')
           = (select coalesce(array_agg(distinct c.value::int order by c.value::int), '{}')
                from jsonb_array_elements_text(qq.correct_answers) c)), 0),
         coalesce(sum(qq.points), 0)
    into v_score, v_max
  from public.quiz_questions qq
  where qq.quiz_id = p_quiz_id;
  v_passed := v_max > 0 and v_score * 100 >= v_quiz.passing_score * v_max;
  insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed, answers, completed_at)
  values (v_uid, p_quiz_id, v_score, v_max, v_passed, p_answers, now())
  returning * into v_attempt;
  if exists (select 1 from public.enrollments e where e.user_id = v_uid and e.course_id = v_course_id and e.status = 'ACTIVE') then
    insert into public.user_module_progress (user_id, module_id, quiz_passed, last_attempt_id)
    values (v_uid, v_quiz.module_id, v_passed, v_attempt.id)
    on conflict (user_id, module_id) do update
      set quiz_passed = public.user_module_progress.quiz_passed or excluded.quiz_passed,
          last_attempt_id = excluded.last_attempt_id;
    perform private.settle_module(v_uid, v_quiz.module_id);
    perform private.refresh_enrollment(v_uid, v_course_id);
  end if;
  return v_attempt;
end;
$$;
comment on function private.submit_quiz_attempt(uuid,jsonb) is
  'Learner: scores the answers on the server, records the attempt, updates module progress and the enrolment (when enrolled).';
revoke all on function private.submit_quiz_attempt(uuid,jsonb) from public;

create function private.start_quiz_attempt(p_quiz_id uuid)
returns public.quiz_attempts
language plpgsql security definer
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
revoke all on function private.start_quiz_attempt(uuid) from public;
grant execute on function private.start_quiz_attempt(uuid) to authenticated;

create function private.finish_quiz_attempt(
  p_quiz_id uuid,
  p_answers jsonb,
  p_grace_seconds integer default 30
)
returns public.quiz_attempts
language plpgsql security definer
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
comment on function private.finish_quiz_attempt(uuid,jsonb,integer) is
  'Learner: scores the answers of the running attempt (private.submit_quiz_attempt), once: 22023 hint quiz_not_started / quiz_time_up; 55000 hint quiz_no_attempts_left / quiz_retry_wait when the quiz''s maximum or wait forbids it.';
revoke all on function private.finish_quiz_attempt(uuid,jsonb,integer) from public;
grant execute on function private.finish_quiz_attempt(uuid,jsonb,integer) to authenticated;

-- has_quiz is true exactly when the module has a quiz. Security definer: the flag is bookkeeping
-- and must follow even a cascade delete started by someone who could not update the module.
create function private.sync_module_has_quiz()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    update public.course_modules m
    set has_quiz = exists (select 1 from public.quizzes q where q.module_id = old.module_id)
    where m.id = old.module_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update public.course_modules m set has_quiz = true where m.id = new.module_id and not m.has_quiz;
  end if;
  return null;
end;
$$;
comment on function private.sync_module_has_quiz() is
  'After-trigger on quizzes: keeps course_modules.has_quiz equal to "a quiz exists".';
revoke all on function private.sync_module_has_quiz() from public;

create function private.reorder_quiz_questions(p_quiz_id uuid, p_question_ids uuid[])
returns integer
language plpgsql
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
comment on function private.reorder_quiz_questions(uuid,uuid[]) is
  'Author/admin: sets the quiz''s question order to the given full list of ids (1..n), under RLS.';
revoke all on function private.reorder_quiz_questions(uuid,uuid[]) from public;
grant execute on function private.reorder_quiz_questions(uuid,uuid[]) to authenticated,
  service_role;

create function private.renumber_quiz_questions(p_quiz_id uuid)
returns void
language sql
set search_path = ''
as $$
  update public.quiz_questions q
  set order_index = r.position
  from (
    select x.id, row_number() over (order by x.order_index, x.created_at, x.id) as position
    from public.quiz_questions x where x.quiz_id = p_quiz_id
  ) r
  where q.id = r.id and q.order_index <> r.position
$$;
comment on function private.renumber_quiz_questions(uuid) is
  'Author/admin: closes the gaps in a quiz''s question order, under RLS.';
revoke all on function private.renumber_quiz_questions(uuid) from public;
grant execute on function private.renumber_quiz_questions(uuid) to authenticated, service_role;

create function private.quiz_questions_for_learner(p_quiz_id uuid)
returns table(
  id uuid,
  question_text text,
  question_type public.question_type,
  order_index integer,
  points integer,
  options jsonb,
  multiple_answers boolean,
  question_text_cy text,
  options_cy jsonb
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_course_id uuid;
  v_random boolean;
begin
  select m.course_id, q.randomize_questions into v_course_id, v_random
  from public.quizzes q join public.course_modules m on m.id = q.module_id
  where q.id = p_quiz_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  return query
    select qq.id, qq.question_text, qq.question_type, qq.order_index, qq.points,
           coalesce((select jsonb_agg(jsonb_build_object('text', o.value ->> 'text') order by o.ordinality)
                     from jsonb_array_elements(qq.options) with ordinality o), '[]'::jsonb),
           jsonb_array_length(qq.correct_answers) > 1,
           qq.question_text_cy, qq.options_cy
    from public.quiz_questions qq
    where qq.quiz_id = p_quiz_id
    order by case when v_random then random() end, qq.order_index, qq.id;
end;
$$;
comment on function private.quiz_questions_for_learner(uuid) is
  'The quiz''s questions with option texts only (no isCorrect, no correct_answers), with their Welsh text and option texts, and whether several options are correct (answered with checkboxes, all-or-nothing), for a caller who may study the course.';
revoke all on function private.quiz_questions_for_learner(uuid) from public;
grant execute on function private.quiz_questions_for_learner(uuid) to authenticated;

-- Refuses when the caller may not open or score another attempt now (errcode 55000, hint
-- quiz_no_attempts_left or quiz_retry_wait; the detail of the wait is the time it ends, ISO 8601).
create function private.check_quiz_attempt_allowed(
  p_quiz_id uuid,
  p_started_at timestamp with time zone default NULL::timestamp with time zone
)
returns void
language plpgsql stable
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
comment on function private.check_quiz_attempt_allowed(uuid,timestamp with time zone) is
  'Raises 55000 (hint quiz_no_attempts_left / quiz_retry_wait) when the caller may not start (p_started_at null) or score (p_started_at = the running attempt''s start) an attempt now.';
revoke all on function private.check_quiz_attempt_allowed(uuid,timestamp with time zone) from
  public;

create function private.quiz_attempt_review(p_attempt_id uuid)
returns table(
  question_id uuid,
  correct_answers jsonb,
  options jsonb,
  explanation text,
  answers_shown boolean,
  options_cy jsonb,
  explanation_cy text
)
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
           v_shown,
           qq.options_cy,
           case when v_shown then qq.explanation_cy end
    from public.quiz_questions qq
    where qq.quiz_id = v_attempt.quiz_id
    order by qq.order_index, qq.id;
end;
$$;
comment on function private.quiz_attempt_review(uuid) is
  'Learner: the questions of their own submitted attempt (with the Welsh option texts); the correct answers, isCorrect marks and explanations (English and Welsh) only when the quiz''s show_correct_answers allows (ALWAYS, or AFTER_PASSING and the attempt passed), else null with answers_shown false.';
revoke all on function private.quiz_attempt_review(uuid) from public;
grant execute on function private.quiz_attempt_review(uuid) to authenticated;

-- courses.available_in_welsh follows its quizzes and questions (02_courses_and_modules.sql).
create function private.note_quizzes_in_welsh()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- A quiz deleted with its module finds no module: the module's own trigger refreshes the course.
  if tg_op = 'INSERT' then
    perform private.refresh_courses_in_welsh(array(
      select distinct m.course_id from new_rows n join public.course_modules m on m.id = n.module_id));
  elsif tg_op = 'DELETE' then
    perform private.refresh_courses_in_welsh(array(
      select distinct m.course_id from old_rows o join public.course_modules m on m.id = o.module_id));
  else
    perform private.refresh_courses_in_welsh(array(
      select m.course_id from (select o.module_id from old_rows o union select n.module_id from new_rows n) x
      join public.course_modules m on m.id = x.module_id));
  end if;
  return null;
end;
$$;
comment on function private.note_quizzes_in_welsh() is
  'After insert, update or delete on quizzes (statement level): refreshes available_in_welsh of their courses.';
revoke all on function private.note_quizzes_in_welsh() from public;

create function private.note_questions_in_welsh()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.refresh_courses_in_welsh(array(
      select distinct m.course_id from new_rows n
      join public.quizzes q on q.id = n.quiz_id join public.course_modules m on m.id = q.module_id));
  elsif tg_op = 'DELETE' then
    perform private.refresh_courses_in_welsh(array(
      select distinct m.course_id from old_rows o
      join public.quizzes q on q.id = o.quiz_id join public.course_modules m on m.id = q.module_id));
  else
    perform private.refresh_courses_in_welsh(array(
      select m.course_id from (select o.quiz_id from old_rows o union select n.quiz_id from new_rows n) x
      join public.quizzes q on q.id = x.quiz_id join public.course_modules m on m.id = q.module_id));
  end if;
  return null;
end;
$$;
comment on function private.note_questions_in_welsh() is
  'After insert, update or delete on quiz_questions (statement level): refreshes available_in_welsh of their courses.';
revoke all on function private.note_questions_in_welsh() from public;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger quizzes_set_updated_at
  before update on public.quizzes
  for each row execute function private.set_updated_at();

create trigger quiz_questions_set_updated_at
  before update on public.quiz_questions
  for each row execute function private.set_updated_at();

create trigger quizzes_sync_module_has_quiz
  after insert or delete or update of module_id on public.quizzes
  for each row execute function private.sync_module_has_quiz();

create trigger quizzes_in_welsh_insert
  after insert on public.quizzes
  referencing new table as new_rows
  for each statement execute function private.note_quizzes_in_welsh();

create trigger quizzes_in_welsh_update
  after update on public.quizzes
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.note_quizzes_in_welsh();

create trigger quizzes_in_welsh_delete
  after delete on public.quizzes
  referencing old table as old_rows
  for each statement execute function private.note_quizzes_in_welsh();

create trigger quiz_questions_in_welsh_insert
  after insert on public.quiz_questions
  referencing new table as new_rows
  for each statement execute function private.note_questions_in_welsh();

create trigger quiz_questions_in_welsh_update
  after update on public.quiz_questions
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.note_questions_in_welsh();

create trigger quiz_questions_in_welsh_delete
  after delete on public.quiz_questions
  referencing old table as old_rows
  for each statement execute function private.note_questions_in_welsh();
