-- scorm_runtime_records_real_packages: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."scorm_save"(uuid, integer, jsonb, boolean, text[]);

DROP FUNCTION "private"."set_scorm_settings"(uuid, text, boolean);

ALTER TABLE "public"."scorm_attempts"
  ADD COLUMN "server_seconds" numeric NOT NULL DEFAULT 0;

ALTER TABLE "public"."scorm_packages"
  ADD COLUMN "min_seconds" integer NOT NULL DEFAULT 0;

ALTER TABLE "public"."scorm_sessions"
  ADD COLUMN "server_seconds" numeric NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION private.scorm_derived_statuses (
  p_version text,
  p_sco     jsonb,
  p_cmi     jsonb
)
  RETURNS text[]
  LANGUAGE plpgsql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.scorm_module_learners (
  p_module_id uuid,
  p_limit     integer DEFAULT 20,
  p_offset    integer DEFAULT 0
)
  RETURNS TABLE (
    user_id          uuid,
    name             text,
    username         text,
    module_completed boolean,
    scos             jsonb,
    total            bigint
  )
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.scorm_save (
  p_session_id uuid,
  p_seq        integer,
  p_values     jsonb,
  p_finish     boolean
)
  RETURNS TABLE (
    seq                integer,
    completion_status  text,
    success_status     text,
    module_completed   boolean,
    enrollment_id      uuid,
    progress           integer,
    seconds_to_minimum integer
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.scorm_value_valid (
  p_version text,
  p_element text,
  p_value   text
)
  RETURNS boolean
  LANGUAGE plpgsql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.set_scorm_settings (
  p_module_id           uuid,
  p_completion_rule     text,
  p_score_is_quiz_score boolean,
  p_min_seconds         integer DEFAULT NULL::integer
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if not private.may_edit_module(p_module_id) then
    raise exception 'You may not change this module' using errcode = '42501';
  end if;
  update public.scorm_packages
  set completion_rule = p_completion_rule, score_is_quiz_score = p_score_is_quiz_score, min_seconds = coalesce(p_min_seconds, min_seconds)
  where module_id = p_module_id;
  if not found then
    raise exception 'Upload a package first' using errcode = 'P0002';
  end if;
end;
$function$;

ALTER TABLE "public"."scorm_attempts"
  ADD CONSTRAINT "scorm_attempts_server_seconds_range" CHECK ((server_seconds >= (0)::numeric));

ALTER TABLE "public"."scorm_packages"
  ADD CONSTRAINT "scorm_packages_min_seconds_range" CHECK (((min_seconds >= 0) AND (min_seconds <= 86400)));

ALTER TABLE "public"."scorm_sessions"
  ADD CONSTRAINT "scorm_sessions_server_seconds_range" CHECK ((server_seconds >= (0)::numeric));

COMMENT ON COLUMN "public"."scorm_attempts"."server_seconds" IS 'The time its sessions really lasted by the server''s clock (each from its opening to its last save), beside the package''s own total_seconds.';

COMMENT ON COLUMN "public"."scorm_packages"."min_seconds" IS 'The author''s minimum time: an attempt meets the completion rule only once its sessions have lasted this long by the server''s clock (0: no minimum).';

COMMENT ON COLUMN "public"."scorm_sessions"."server_seconds" IS 'How long the sitting really lasted by the server''s clock: from its opening to its last save.';

COMMENT ON COLUMN "public"."scorm_sessions"."session_time" IS 'The session time the package last reported (cmi.core.session_time / cmi.session_time).';

COMMENT ON FUNCTION "private"."scorm_derived_statuses"(text, jsonb, jsonb) IS 'The {completion_status, success_status} of saved values, derived from the SCO''s manifest passing score, completion threshold or mastery score when the content reported the score or measure.';

COMMENT ON FUNCTION "private"."scorm_save"(uuid, integer, jsonb, boolean) IS 'Learner: saves the values the content reported through their open session (seq strictly increasing), the statuses (derived from the manifest), score, reported and server-clock time, and completes the module when the package''s rule is met for every SCO and the attempt lasted the package''s minimum time. seconds_to_minimum: the rule is met but the minimum time is not yet. P0002 not their session; 55000 hint scorm_seq / scorm_finished; 22023 bad values (hint scorm_values, detail the package''s version).';

COMMENT ON FUNCTION "private"."scorm_value_valid"(text, text, text) IS 'True when the content may write the element in the SCORM version (1.2 or 2004) and the value fits what the database reads from it.';

COMMENT ON FUNCTION "private"."set_scorm_settings"(uuid, text, boolean, integer) IS 'For a caller who may change the module: its completion rule, whether the package''s score is the quiz score, and the minimum time in seconds (null: kept).';

REVOKE ALL ON FUNCTION "private"."scorm_derived_statuses"(text, jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_derived_statuses"(text, jsonb, jsonb) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scorm_save"(uuid, integer, jsonb, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_save"(uuid, integer, jsonb, boolean) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."scorm_value_valid"(text, text, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_value_valid"(text, text, text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."set_scorm_settings"(uuid, text, boolean, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."set_scorm_settings"(uuid, text, boolean, integer) TO "authenticated", "postgres";

-- Data: sittings saved before server_seconds existed get it from their own timestamps (opening to
-- last save), summed on their attempts, so that earlier completions are not flagged as quick.
update public.scorm_sessions
set server_seconds = greatest(extract(epoch from coalesce(saved_at, started_at) - started_at), 0)
where server_seconds = 0 and saved_at is not null;

update public.scorm_attempts a
set server_seconds = s.seconds
from (select attempt_id, sum(server_seconds) as seconds from public.scorm_sessions group by attempt_id) s
where s.attempt_id = a.id and a.server_seconds = 0;

-- Data: an attempt that never reported a score was saved with 0; it has no score.
update public.scorm_attempts
set score = null
where score = 0
  and coalesce(nullif(cmi ->> 'cmi.core.score.raw', ''), nullif(cmi ->> 'cmi.score.raw', ''), nullif(cmi ->> 'cmi.score.scaled', '')) is null;
