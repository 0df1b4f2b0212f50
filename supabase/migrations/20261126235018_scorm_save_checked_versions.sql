-- scorm_save_checked_versions: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."scorm_save"(uuid, integer, jsonb, boolean);

CREATE OR REPLACE FUNCTION private.scorm_save (
  p_session_id uuid,
  p_seq        integer,
  p_values     jsonb,
  p_finish     boolean,
  p_versions   text[]  DEFAULT NULL::text[]
)
  RETURNS TABLE (
    seq               integer,
    completion_status text,
    success_status    text,
    module_completed  boolean,
    enrollment_id     uuid,
    progress          integer
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
  v_cmi jsonb;
  v_pair text[];
  v_raw numeric;
  v_max numeric;
  v_min numeric;
  v_score numeric;
  v_exit text;
  v_time text;
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
  -- The function checked the values against the data model of these versions before it knew the
  -- session's (one round trip a save): another version's values are refused, naming this one.
  if p_versions is not null and not (v_package.version = any (p_versions)) then
    raise exception 'The values were checked for another SCORM version' using errcode = '22023',
      hint = 'scorm_version', detail = v_package.version;
  end if;

  -- session_time is the sitting's, not the attempt's: kept on the session, added on finish.
  v_time := coalesce(p_values ->> (case v_package.version when '1.2' then 'cmi.core.session_time' else 'cmi.session_time' end),
                     v_session.session_time);
  v_cmi := v_attempt.cmi || (p_values - 'cmi.core.session_time' - 'cmi.session_time');

  if v_package.version = '1.2' then
    v_pair := private.scorm_12_statuses(v_cmi ->> 'cmi.core.lesson_status');
    v_raw := nullif(v_cmi ->> 'cmi.core.score.raw', '')::numeric;
    v_max := nullif(v_cmi ->> 'cmi.core.score.max', '')::numeric;
    v_min := nullif(v_cmi ->> 'cmi.core.score.min', '')::numeric;
    v_exit := v_cmi ->> 'cmi.core.exit';
  else
    v_pair := array[coalesce(v_cmi ->> 'cmi.completion_status', 'unknown'), coalesce(v_cmi ->> 'cmi.success_status', 'unknown')];
    v_raw := nullif(v_cmi ->> 'cmi.score.raw', '')::numeric;
    v_max := nullif(v_cmi ->> 'cmi.score.max', '')::numeric;
    v_min := nullif(v_cmi ->> 'cmi.score.min', '')::numeric;
    v_exit := v_cmi ->> 'cmi.exit';
    v_score := nullif(v_cmi ->> 'cmi.score.scaled', '')::numeric;
  end if;
  if v_score is null and v_raw is not null then
    v_score := (v_raw - coalesce(v_min, 0)) / nullif(coalesce(v_max, 100) - coalesce(v_min, 0), 0);
  end if;
  v_score := least(greatest(v_score, 0), 1);
  v_met := private.scorm_rule_met(v_package.completion_rule, v_pair[1], v_pair[2]);

  update public.scorm_attempts a
  set cmi = v_cmi,
      completion_status = v_pair[1],
      success_status = v_pair[2],
      score = v_score,
      suspended = coalesce(v_exit = 'suspend', false),
      total_seconds = a.total_seconds + case when p_finish and v_time is not null
                                             then extract(epoch from v_time::interval) else 0 end,
      met_at = coalesce(a.met_at, case when v_met then now() end),
      updated_at = now()
  where a.id = v_attempt.id
  returning * into v_attempt;

  update public.scorm_sessions s
  set seq = p_seq, session_time = v_time, saved_at = now(),
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
                      v_enrollment.id, v_enrollment.progress;
end;
$function$;

COMMENT ON FUNCTION "private"."scorm_save"(uuid, integer, jsonb, boolean, text[]) IS 'Learner: saves the values the content reported through their open session (seq strictly increasing), the statuses, score and total time, and completes the module when the package''s rule is met for every SCO. p_versions: the SCORM versions whose data model the values were checked against (null: not checked). P0002 not their session; 55000 hint scorm_seq / scorm_finished; 22023 bad values (hint scorm_version, detail the package''s version, when p_versions does not hold it).';

REVOKE ALL ON FUNCTION "private"."scorm_save"(uuid, integer, jsonb, boolean, text[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_save"(uuid, integer, jsonb, boolean, text[]) TO "authenticated", "postgres";
