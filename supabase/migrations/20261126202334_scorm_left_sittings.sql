-- scorm_left_sittings: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.scorm_open_session (
  p_module_id uuid,
  p_sco_id    text
)
  RETURNS TABLE (
    session_id    uuid,
    attempt       integer,
    version       text,
    entry         text,
    cmi           jsonb,
    total_seconds numeric,
    learner_id    uuid,
    learner_name  text
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

COMMENT ON FUNCTION "private"."scorm_open_session"(uuid, text) IS 'Learner (enrolled): opens a session on a SCO of the module''s package, resuming the latest attempt unless it met the rule, and ends the learner''s sittings of the SCO left open (their reported time counted). 42501 not allowed or not enrolled (hint scorm_not_enrolled), P0002 no such SCO.';
