-- SCORM run-time data: what a package's content reports through the run-time API, saved as it goes.
--
-- One attempt per learner, module, SCO and attempt number holds the saved data model elements
-- (cmi, validated by the function against the package's version: _shared/scorm-data-model.ts) and
-- the statuses read from them. A session is one sitting of an attempt: the player opens it
-- (private.scorm_open_session) and saves through it in order (private.scorm_save: seq strictly
-- increasing; nothing after finish). Learners read their own rows and write none: only these
-- security-definer functions write, for the signed-in learner, so a status the content never
-- reported through an open session of that learner cannot be saved. The server decides completion
-- (private.scorm_module_met, by the package's completion_rule, every SCO) and completes the module
-- through private.mark_module_read -> settle_module -> refresh_enrollment, as a read module does.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.scorm_attempts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  module_id uuid not null references public.course_modules (id) on delete cascade,
  sco_id text not null,
  attempt integer not null default 1,
  cmi jsonb not null default '{}'::jsonb,
  completion_status text not null default 'not attempted',
  success_status text not null default 'unknown',
  score numeric,
  total_seconds numeric not null default 0,
  server_seconds numeric not null default 0,
  suspended boolean not null default false,
  met_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint scorm_attempts_key unique (user_id, module_id, sco_id, attempt),
  constraint scorm_attempts_attempt_positive check (attempt >= 1),
  constraint scorm_attempts_sco_id_length check (char_length(sco_id) between 1 and 255),
  constraint scorm_attempts_cmi_object check (jsonb_typeof(cmi) = 'object'),
  constraint scorm_attempts_completion_values check (completion_status in ('not attempted', 'unknown', 'incomplete', 'completed')),
  constraint scorm_attempts_success_values check (success_status in ('unknown', 'passed', 'failed')),
  constraint scorm_attempts_score_range check (score is null or score between 0 and 1),
  constraint scorm_attempts_total_seconds_range check (total_seconds >= 0),
  constraint scorm_attempts_server_seconds_range check (server_seconds >= 0)
);

create table public.scorm_sessions (
  id uuid primary key default gen_random_uuid(),
  attempt_id uuid not null references public.scorm_attempts (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  seq integer not null default 0,
  session_time text,
  server_seconds numeric not null default 0,
  started_at timestamptz not null default now(),
  saved_at timestamptz,
  finished_at timestamptz,
  constraint scorm_sessions_seq_range check (seq >= 0),
  constraint scorm_sessions_server_seconds_range check (server_seconds >= 0)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.scorm_attempts is
  'A learner''s attempt at one SCO of a SCORM module: the saved data model elements and the statuses read from them. Written only by private.scorm_save.';
comment on column public.scorm_attempts.cmi is
  'The saved writable elements, {"cmi.<element>": "<string>"}, validated against the package''s version.';
comment on column public.scorm_attempts.completion_status is
  'SCORM 2004 cmi.completion_status; for 1.2 read from cmi.core.lesson_status (passed, completed, failed: completed; incomplete, browsed: incomplete).';
comment on column public.scorm_attempts.success_status is
  'SCORM 2004 cmi.success_status; for 1.2 passed or failed from cmi.core.lesson_status.';
comment on column public.scorm_attempts.score is
  'The score as a fraction 0-1: cmi.score.scaled (2004), else raw / max (max 100 when not reported).';
comment on column public.scorm_attempts.total_seconds is
  'Total time: the session times of the attempt''s finished sessions.';
comment on column public.scorm_attempts.server_seconds is
  'The time its sessions really lasted by the server''s clock (each from its opening to its last save), beside the package''s own total_seconds.';
comment on column public.scorm_attempts.suspended is
  'The content last exited with suspend: the next session resumes it (entry resume).';
comment on column public.scorm_attempts.met_at is
  'When this attempt first met the module''s completion rule.';
comment on table public.scorm_sessions is
  'One sitting of a SCORM attempt: saves arrive with seq strictly increasing; finished sessions accept nothing.';
comment on column public.scorm_sessions.session_time is
  'The session time the package last reported (cmi.core.session_time / cmi.session_time).';
comment on column public.scorm_sessions.server_seconds is
  'How long the sitting really lasted by the server''s clock: from its opening to its last save.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

-- The learner's latest attempt at a SCO, and every attempt of a module (player, completion, instructor).
create index scorm_attempts_module_user_idx on public.scorm_attempts (module_id, user_id, sco_id, attempt desc);
create index scorm_sessions_attempt_id_idx on public.scorm_sessions (attempt_id);
create index scorm_sessions_user_id_idx on public.scorm_sessions (user_id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.scorm_attempts enable row level security;
alter table public.scorm_sessions enable row level security;

create policy "SCORM attempts: self, module authors and administrators read"
  on public.scorm_attempts for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or module_id in (select private.authored_module_ids())
    or user_id in (select private.people_i_administer())
  );

create policy "SCORM sessions: self and national admins read"
  on public.scorm_sessions for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- ---------------------------------------------------------------------------
-- Grants: read only; writes go through the functions below.
-- ---------------------------------------------------------------------------

revoke all on public.scorm_attempts from anon, authenticated, service_role;
grant select on public.scorm_attempts to authenticated;
grant all on public.scorm_attempts to service_role;

revoke all on public.scorm_sessions from anon, authenticated, service_role;
grant select on public.scorm_sessions to authenticated;
grant all on public.scorm_sessions to service_role;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- Whether an attempt's statuses meet a completion rule. 1.2's lesson_status is stored as the 2004
-- pair (see the columns), so one rule serves both: 'completed' = completed and not failed (1.2:
-- completed or passed); 'passed' = passed; 'completed-or-passed' = either.
create function private.scorm_rule_met(p_rule text, p_completion text, p_success text)
returns boolean
language plpgsql immutable
set search_path = ''
as $$
begin
  return case p_rule
    when 'passed' then p_success = 'passed'
    when 'completed-or-passed' then p_success = 'passed' or (p_completion = 'completed' and p_success <> 'failed')
    else p_completion = 'completed' and p_success <> 'failed'
  end;
end;
$$;
comment on function private.scorm_rule_met(text,text,text) is
  'True when the statuses meet the completion rule (completed, passed, completed-or-passed).';
revoke all on function private.scorm_rule_met(text,text,text) from public;
grant execute on function private.scorm_rule_met(text,text,text) to authenticated, service_role;

-- The module is met for the learner when every SCO of its package has an attempt that met the rule.
create function private.scorm_module_met(p_user_id uuid, p_module_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (select 1 from public.scorm_packages p where p.module_id = p_module_id)
     and not exists (
       select 1
       from public.scorm_packages p
       cross join lateral jsonb_array_elements(p.scos) s(sco)
       where p.module_id = p_module_id
         and not exists (
           select 1 from public.scorm_attempts a
           where a.user_id = p_user_id and a.module_id = p_module_id and a.sco_id = s.sco ->> 'id'
             and private.scorm_rule_met(p.completion_rule, a.completion_status, a.success_status)));
end;
$$;
comment on function private.scorm_module_met(uuid,uuid) is
  'Internal: every SCO of the module''s package has an attempt of the learner meeting the package''s completion rule.';
revoke all on function private.scorm_module_met(uuid,uuid) from public;

-- Opens a session on the SCO for the signed-in learner: resumes the latest attempt unless it met the
-- rule (then a new attempt), and ends the learner's sittings of the SCO left open (their time counted).
-- Returns what the player initialises the run-time with.
create function private.scorm_open_session(p_module_id uuid, p_sco_id text)
returns table(
  session_id uuid,
  attempt integer,
  version text,
  entry text,
  cmi jsonb,
  total_seconds numeric,
  learner_id uuid,
  learner_name text
)
language plpgsql security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_uid uuid := (select auth.uid());
  v_package public.scorm_packages;
  v_attempt public.scorm_attempts;
  v_entry text;
  v_session uuid;
begin
  select p.* into v_package from public.scorm_packages p where p.module_id = p_module_id;
  if not found or not private.can_study_course(v_package.course_id) then
    raise exception 'You may not study this module' using errcode = '42501';
  end if;
  if not exists (select 1 from public.enrollments e where e.user_id = v_uid and e.course_id = v_package.course_id and e.status = 'ACTIVE') then
    raise exception 'Enrol in this course to keep your progress' using errcode = '42501', hint = 'scorm_not_enrolled';
  end if;
  if not exists (select 1 from jsonb_array_elements(v_package.scos) s(sco) where s.sco ->> 'id' = p_sco_id) then
    raise exception 'No such SCO in this package' using errcode = 'P0002';
  end if;
  -- One opening per learner and SCO at a time, so two openings do not both start attempt n + 1.
  perform pg_advisory_xact_lock(hashtextextended('scorm:' || v_uid::text || ':' || p_module_id::text || ':' || p_sco_id, 0));
  -- A sitting left without Finish (the tab closed, the page reloaded) ends when the next one opens:
  -- the session time it last reported counts towards its attempt's time, as a finished one's does.
  with left_open as (
    update public.scorm_sessions s set finished_at = now()
    from public.scorm_attempts a
    where a.id = s.attempt_id and a.user_id = v_uid and a.module_id = p_module_id and a.sco_id = p_sco_id
      and s.finished_at is null
    returning s.attempt_id, s.session_time
  ), per_attempt as (
    select l.attempt_id, sum(extract(epoch from l.session_time::interval)) as seconds
    from left_open l where l.session_time is not null
    group by l.attempt_id
  )
  update public.scorm_attempts a set total_seconds = a.total_seconds + p.seconds
  from per_attempt p where a.id = p.attempt_id;
  select a.* into v_attempt from public.scorm_attempts a
  where a.module_id = p_module_id and a.user_id = v_uid and a.sco_id = p_sco_id
  order by a.attempt desc limit 1;
  if not found or v_attempt.met_at is not null then
    insert into public.scorm_attempts (user_id, module_id, sco_id, attempt)
    values (v_uid, p_module_id, p_sco_id, coalesce(v_attempt.attempt, 0) + 1)
    returning * into v_attempt;
    v_entry := 'ab-initio';
  elsif v_attempt.suspended then
    v_entry := 'resume';
  else
    v_entry := '';
  end if;
  insert into public.scorm_sessions (attempt_id, user_id) values (v_attempt.id, v_uid)
  returning id into v_session;
  return query
    select v_session, v_attempt.attempt, v_package.version, v_entry, v_attempt.cmi, v_attempt.total_seconds,
           pr.id, pr.name
    from public.profiles pr where pr.id = v_uid;
end;
$$;
comment on function private.scorm_open_session(uuid,text) is
  'Learner (enrolled): opens a session on a SCO of the module''s package, resuming the latest attempt unless it met the rule, and ends the learner''s sittings of the SCO left open (their reported time counted). 42501 not allowed or not enrolled (hint scorm_not_enrolled), P0002 no such SCO.';
revoke all on function private.scorm_open_session(uuid,text) from public;
grant execute on function private.scorm_open_session(uuid,text) to authenticated;

-- A 1.2 lesson_status as the 2004 pair (completion, success).
create function private.scorm_12_statuses(p_lesson_status text)
returns text[]
language plpgsql immutable
set search_path = ''
as $$
begin
  return case p_lesson_status
    when 'passed' then array['completed', 'passed']
    when 'failed' then array['completed', 'failed']
    when 'completed' then array['completed', 'unknown']
    when 'incomplete' then array['incomplete', 'unknown']
    when 'browsed' then array['incomplete', 'unknown']
    else array['not attempted', 'unknown']
  end;
end;
$$;
comment on function private.scorm_12_statuses(text) is
  'SCORM 1.2 lesson_status as {completion_status, success_status}.';
revoke all on function private.scorm_12_statuses(text) from public;

-- Whether the content may write the element in the version, and its value fits what the database
-- reads from it. The function checks the whole data model first (_shared/scorm-data-model.ts); this
-- is the database's own check, so a caller that skips the function's cannot save another version's
-- elements or values the statuses, score and time are read from. Indexes 0 to 249.
create function private.scorm_value_valid(p_version text, p_element text, p_value text)
returns boolean
language plpgsql immutable
set search_path = ''
as $$
declare
  n constant text := '([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9])';
  dec constant text := '^-?[0-9]{1,10}(\.[0-9]{1,10})?$';
begin
  if p_value is null then
    return false;
  end if;
  if p_version = '1.2' then
    return case
      when p_element = 'cmi.core.lesson_status' then p_value in ('passed', 'completed', 'failed', 'incomplete', 'browsed')
      when p_element = 'cmi.core.exit' then p_value in ('time-out', 'suspend', 'logout', '')
      when p_element in ('cmi.core.score.raw', 'cmi.core.score.min', 'cmi.core.score.max')
        then p_value = '' or (p_value ~ dec and p_value::numeric between 0 and 100)
      when p_element = 'cmi.core.session_time' then p_value ~ '^[0-9]{2,4}:[0-5][0-9]:[0-5][0-9](\.[0-9]{1,2})?$'
      when p_element = 'cmi.core.lesson_location' then char_length(p_value) <= 255
      when p_element in ('cmi.suspend_data', 'cmi.comments') then char_length(p_value) <= 4096
      when p_element ~ '^cmi\.student_preference\.(audio|language|speed|text)$' then char_length(p_value) <= 255
      when p_element ~ ('^cmi\.objectives\.' || n || '\.(id|score\.raw|score\.min|score\.max|status)$') then char_length(p_value) <= 255
      when p_element ~ ('^cmi\.interactions\.' || n || '\.(id|objectives\.' || n || '\.id|time|type|correct_responses\.' || n
                        || '\.pattern|weighting|student_response|result|latency)$') then char_length(p_value) <= 255
      else false
    end;
  end if;
  return case
    when p_element = 'cmi.completion_status' then p_value in ('completed', 'incomplete', 'not attempted', 'unknown')
    when p_element = 'cmi.success_status' then p_value in ('passed', 'failed', 'unknown')
    when p_element = 'cmi.exit' then p_value in ('time-out', 'suspend', 'logout', 'normal', '')
    when p_element = 'cmi.score.scaled' then p_value ~ dec and p_value::numeric between -1 and 1
    when p_element in ('cmi.score.raw', 'cmi.score.min', 'cmi.score.max') then p_value ~ dec
    when p_element = 'cmi.progress_measure' then p_value ~ dec and p_value::numeric between 0 and 1
    when p_element = 'cmi.session_time'
      then p_value ~ '^P(?!$)([0-9]+Y)?([0-9]+M)?([0-9]+D)?(T(?=[0-9])([0-9]+H)?([0-9]+M)?([0-9]+(\.[0-9]{1,2})?S)?)?$'
    when p_element = 'cmi.location' then char_length(p_value) <= 1000
    when p_element = 'cmi.suspend_data' then char_length(p_value) <= 64000
    when p_element ~ '^cmi\.learner_preference\.(audio_level|language|delivery_speed|audio_captioning)$' then char_length(p_value) <= 250
    when p_element ~ ('^cmi\.comments_from_learner\.' || n || '\.(comment|location|timestamp)$') then char_length(p_value) <= 4000
    when p_element ~ ('^cmi\.objectives\.' || n
                      || '\.(id|score\.scaled|score\.raw|score\.min|score\.max|success_status|completion_status|progress_measure|description)$')
      then char_length(p_value) <= 4000
    when p_element ~ ('^cmi\.interactions\.' || n || '\.(id|type|objectives\.' || n || '\.id|timestamp|correct_responses\.' || n
                      || '\.pattern|weighting|learner_response|result|latency|description)$') then char_length(p_value) <= 4000
    else false
  end;
end;
$$;
comment on function private.scorm_value_valid(text,text,text) is
  'True when the content may write the element in the SCORM version (1.2 or 2004) and the value fits what the database reads from it.';
revoke all on function private.scorm_value_valid(text,text,text) from public;

-- The SCO's statuses as the LMS derives them from the manifest (SCORM 2004 RTE 4.2.4.1 and 4.2.21.1;
-- SCORM 1.2's mastery score), as the run-time tells the content: 2004 success_status is passed or
-- failed by cmi.score.scaled against the passing score (primary objective's minNormalizedMeasure),
-- completion_status completed or incomplete by cmi.progress_measure against the completion
-- threshold; 1.2's completed, passed or failed becomes passed or failed by score.raw against
-- adlcp:masteryscore. Without the score or measure, what the content reported stands.
create function private.scorm_derived_statuses(p_version text, p_sco jsonb, p_cmi jsonb)
returns text[]
language plpgsql immutable
set search_path = ''
as $$
declare
  v_pair text[];
  v_number numeric;
begin
  if p_version = '1.2' then
    v_pair := private.scorm_12_statuses(p_cmi ->> 'cmi.core.lesson_status');
    v_number := nullif(p_cmi ->> 'cmi.core.score.raw', '')::numeric;
    if v_pair[1] = 'completed' and v_number is not null and p_sco ? 'masteryScore' then
      v_pair[2] := case when v_number >= (p_sco ->> 'masteryScore')::numeric then 'passed' else 'failed' end;
    end if;
    return v_pair;
  end if;
  v_pair := array[coalesce(p_cmi ->> 'cmi.completion_status', 'unknown'), coalesce(p_cmi ->> 'cmi.success_status', 'unknown')];
  v_number := nullif(p_cmi ->> 'cmi.progress_measure', '')::numeric;
  if v_number is not null and p_sco ? 'completionThreshold' then
    v_pair[1] := case when v_number >= (p_sco ->> 'completionThreshold')::numeric then 'completed' else 'incomplete' end;
  end if;
  v_number := nullif(p_cmi ->> 'cmi.score.scaled', '')::numeric;
  if v_number is not null and p_sco ? 'passingScore' then
    v_pair[2] := case when v_number >= (p_sco ->> 'passingScore')::numeric then 'passed' else 'failed' end;
  end if;
  return v_pair;
end;
$$;
comment on function private.scorm_derived_statuses(text,jsonb,jsonb) is
  'The {completion_status, success_status} of saved values, derived from the SCO''s manifest passing score, completion threshold or mastery score when the content reported the score or measure.';
revoke all on function private.scorm_derived_statuses(text,jsonb,jsonb) from public;

-- Saves what the content reported through the session, in one transaction: the values (checked by
-- the function against the data model, and here again: private.scorm_value_valid), the statuses
-- (as the manifest derives them) and score read from them, the session time into the total on
-- finish, the time the session really lasted by the server's clock, and the module's completion
-- when the rule is met and the attempt has lasted the package's minimum time.
create function private.scorm_save(
  p_session_id uuid,
  p_seq integer,
  p_values jsonb,
  p_finish boolean
)
returns table(
  seq integer,
  completion_status text,
  success_status text,
  module_completed boolean,
  enrollment_id uuid,
  progress integer,
  seconds_to_minimum integer
)
language plpgsql security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_uid uuid := (select auth.uid());
  v_session public.scorm_sessions;
  v_attempt public.scorm_attempts;
  v_package public.scorm_packages;
  v_sco jsonb;
  v_cmi jsonb;
  v_pair text[];
  v_raw numeric;
  v_max numeric;
  v_min numeric;
  v_score numeric;
  v_exit text;
  v_time text;
  v_server numeric;
  v_rule_met boolean;
  v_met boolean;
  v_done boolean;
  v_enrollment public.enrollments;
begin
  select s.* into v_session from public.scorm_sessions s where s.id = p_session_id for update;
  if not found or v_session.user_id is distinct from v_uid then
    raise exception 'Session not found' using errcode = 'P0002';
  end if;
  if v_session.finished_at is not null then
    raise exception 'This session has finished' using errcode = '55000', hint = 'scorm_finished';
  end if;
  if p_seq is null or p_seq <= v_session.seq then
    raise exception 'Out of order' using errcode = '55000', hint = 'scorm_seq';
  end if;
  if p_values is null or jsonb_typeof(p_values) <> 'object' or exists (
       select 1 from jsonb_each(p_values) v
       where v.key !~ '^cmi\.[a-z_0-9.]{1,200}$' or jsonb_typeof(v.value) <> 'string'
          or char_length(v.value #>> '{}') > 64000) then
    raise exception 'Values must be data model elements with string values' using errcode = '22023';
  end if;
  select a.* into v_attempt from public.scorm_attempts a where a.id = v_session.attempt_id for update;
  select p.* into v_package from public.scorm_packages p where p.module_id = v_attempt.module_id;
  if not found or not private.can_study_course(v_package.course_id) then
    raise exception 'You may not study this module' using errcode = '42501';
  end if;
  -- Every element must be one the content may write in the package's version, with a value the
  -- statuses, score and time can be read from: checked here, whatever the caller checked.
  if exists (select 1 from jsonb_each_text(p_values) v where not private.scorm_value_valid(v_package.version, v.key, v.value)) then
    raise exception 'The values do not fit the package''s SCORM version' using errcode = '22023',
      hint = 'scorm_values', detail = v_package.version;
  end if;
  select s.sco into v_sco from jsonb_array_elements(v_package.scos) s(sco) where s.sco ->> 'id' = v_attempt.sco_id;

  -- session_time is the sitting's, not the attempt's: kept on the session, added on finish.
  v_time := coalesce(p_values ->> (case v_package.version when '1.2' then 'cmi.core.session_time' else 'cmi.session_time' end),
                     v_session.session_time);
  v_cmi := v_attempt.cmi || (p_values - 'cmi.core.session_time' - 'cmi.session_time');
  -- The server's clock: the sitting has lasted from its opening to this save.
  v_server := greatest(extract(epoch from now() - v_session.started_at), 0);

  v_pair := private.scorm_derived_statuses(v_package.version, coalesce(v_sco, '{}'::jsonb), v_cmi);
  if v_package.version = '1.2' then
    v_raw := nullif(v_cmi ->> 'cmi.core.score.raw', '')::numeric;
    v_max := nullif(v_cmi ->> 'cmi.core.score.max', '')::numeric;
    v_min := nullif(v_cmi ->> 'cmi.core.score.min', '')::numeric;
    v_exit := v_cmi ->> 'cmi.core.exit';
  else
    v_raw := nullif(v_cmi ->> 'cmi.score.raw', '')::numeric;
    v_max := nullif(v_cmi ->> 'cmi.score.max', '')::numeric;
    v_min := nullif(v_cmi ->> 'cmi.score.min', '')::numeric;
    v_exit := v_cmi ->> 'cmi.exit';
    v_score := nullif(v_cmi ->> 'cmi.score.scaled', '')::numeric;
  end if;
  if v_score is null and v_raw is not null then
    v_score := (v_raw - coalesce(v_min, 0)) / nullif(coalesce(v_max, 100) - coalesce(v_min, 0), 0);
  end if;
  -- No score reported stays no score (never 0 %).
  if v_score is not null then
    v_score := least(greatest(v_score, 0), 1);
  end if;
  v_rule_met := private.scorm_rule_met(v_package.completion_rule, v_pair[1], v_pair[2]);
  -- The attempt meets the rule only once its sittings have lasted the author's minimum time.
  v_met := v_rule_met and v_attempt.server_seconds - v_session.server_seconds + v_server >= v_package.min_seconds;

  update public.scorm_attempts a
  set cmi = v_cmi,
      completion_status = v_pair[1],
      success_status = v_pair[2],
      score = v_score,
      suspended = coalesce(v_exit = 'suspend', false),
      total_seconds = a.total_seconds + case when p_finish and v_time is not null
                                             then extract(epoch from v_time::interval) else 0 end,
      server_seconds = a.server_seconds - v_session.server_seconds + v_server,
      met_at = coalesce(a.met_at, case when v_met then now() end),
      updated_at = now()
  where a.id = v_attempt.id
  returning * into v_attempt;

  update public.scorm_sessions s
  set seq = p_seq, session_time = v_time, server_seconds = v_server, saved_at = now(),
      finished_at = case when p_finish then now() end
  where s.id = p_session_id;

  -- The module completes exactly as a read module does once every SCO has met the rule.
  v_done := false;
  if v_met and private.scorm_module_met(v_uid, v_attempt.module_id) then
    v_enrollment := private.mark_module_read(v_attempt.module_id);
  else
    select e.* into v_enrollment from public.enrollments e
    where e.user_id = v_uid and e.course_id = v_package.course_id;
  end if;
  select coalesce(bool_or(ump.completed), false) into v_done from public.user_module_progress ump
  where ump.user_id = v_uid and ump.module_id = v_attempt.module_id;

  return query select p_seq, v_attempt.completion_status, v_attempt.success_status, v_done,
                      v_enrollment.id, v_enrollment.progress,
                      case when v_rule_met and v_attempt.met_at is null
                           then ceil(v_package.min_seconds - v_attempt.server_seconds)::integer end;
end;
$$;
comment on function private.scorm_save(uuid,integer,jsonb,boolean) is
  'Learner: saves the values the content reported through their open session (seq strictly increasing), the statuses (derived from the manifest), score, reported and server-clock time, and completes the module when the package''s rule is met for every SCO and the attempt lasted the package''s minimum time. seconds_to_minimum: the rule is met but the minimum time is not yet. P0002 not their session; 55000 hint scorm_seq / scorm_finished; 22023 bad values (hint scorm_values, detail the package''s version).';
revoke all on function private.scorm_save(uuid,integer,jsonb,boolean) from public;
grant execute on function private.scorm_save(uuid,integer,jsonb,boolean) to authenticated;

-- The instructor's view of a SCORM module: the course's active learners (by name, paged), each with
-- every SCO's latest status, best score, reported and server-clock time over attempts, whether it was
-- met far below the typical time, attempts and last activity.
-- Invoker: the caller's policies decide what is read; checked first that the caller manages the course.
create function private.scorm_module_learners(p_module_id uuid, p_limit integer default 20, p_offset integer default 0)
returns table(
  user_id uuid,
  name text,
  username text,
  module_completed boolean,
  scos jsonb,
  total bigint
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_course_id uuid;
begin
  perform private.require_instructor();
  select m.course_id into v_course_id from public.course_modules m where m.id = p_module_id;
  if v_course_id is null or v_course_id not in (select private.managed_course_ids()) then
    raise exception 'You can only see learners of courses you manage' using errcode = '42501';
  end if;
  return query
    with learners as (
      select e.user_id, p.name, p.username, count(*) over () as total
      from public.enrollments e
      join public.profiles p on p.id = e.user_id
      where e.course_id = v_course_id and e.status = 'ACTIVE'
      order by p.name, e.user_id
      limit greatest(least(p_limit, 100), 0) offset greatest(p_offset, 0)
    ), typical as (
      -- The package's typical time per SCO: the median server-clock time of the attempts that met
      -- the rule, once at least three have.
      select a.sco_id, percentile_cont(0.5) within group (order by a.server_seconds) as typical_seconds
      from public.scorm_attempts a
      where a.module_id = p_module_id and a.met_at is not null
      group by a.sco_id
      having count(*) >= 3
    )
    select l.user_id, l.name, l.username,
           coalesce((select u.completed from public.user_module_progress u
                     where u.user_id = l.user_id and u.module_id = p_module_id), false),
           coalesce((
             select jsonb_agg(jsonb_build_object(
                      'scoId', s.sco_id,
                      'completionStatus', s.completion_status,
                      'successStatus', s.success_status,
                      'score', s.best_score,
                      'totalSeconds', s.total_seconds,
                      'serverSeconds', s.server_seconds,
                      'typicalSeconds', t.typical_seconds,
                      -- Met far sooner than the package usually takes (a quarter of the learners'
                      -- median), or than the package itself reported: the content may not have run.
                      'quick', coalesce(s.met_server_seconds < t.typical_seconds / 4, false)
                               or coalesce(s.met_server_seconds < s.met_total_seconds / 4, false),
                      'attempts', s.attempts,
                      'lastActivity', s.last_activity) order by s.sco_id)
             from (
               select a.sco_id,
                      -- The latest attempt's status, unless an earlier one met the rule (as the player shows it).
                      (array_agg(a.completion_status order by a.met_at is not null desc, a.attempt desc))[1] as completion_status,
                      (array_agg(a.success_status order by a.met_at is not null desc, a.attempt desc))[1] as success_status,
                      max(a.score) as best_score,
                      sum(a.total_seconds) as total_seconds,
                      sum(a.server_seconds) as server_seconds,
                      min(a.server_seconds) filter (where a.met_at is not null) as met_server_seconds,
                      (array_agg(a.total_seconds order by a.server_seconds) filter (where a.met_at is not null))[1] as met_total_seconds,
                      count(*) as attempts,
                      max(a.updated_at) as last_activity
               from public.scorm_attempts a
               where a.module_id = p_module_id and a.user_id = l.user_id
               group by a.sco_id
             ) s
             left join typical t on t.sco_id = s.sco_id), '[]'::jsonb),
           l.total
    from learners l
    order by l.name, l.user_id;
end;
$$;
comment on function private.scorm_module_learners(uuid,integer,integer) is
  'Instructor or admin managing the course: each active learner''s SCORM attempts at the module, per SCO, paged by name. 42501 otherwise.';
revoke all on function private.scorm_module_learners(uuid,integer,integer) from public;
grant execute on function private.scorm_module_learners(uuid,integer,integer) to authenticated;
