-- people_i_administer_and_policy_names: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP POLICY "admins read the audit trail" ON "public"."audit_events";

DROP POLICY "users read own certificates, authors their courses', admins all" ON "public"."certificates";

DROP POLICY "authors add modules to their courses and admins any" ON "public"."course_modules";

DROP POLICY "authors delete modules of their courses and admins any" ON "public"."course_modules";

DROP POLICY "authors update modules of their courses and admins any" ON "public"."course_modules";

DROP POLICY "authors delete their own courses and admins any" ON "public"."courses";

DROP POLICY "authors update their own courses and admins any" ON "public"."courses";

DROP POLICY "instructors create courses in their services and admins any" ON "public"."courses";

DROP POLICY "users read published courses, authors their own, admins all" ON "public"."courses";

DROP POLICY "learners read their own CPD entries and admins all" ON "public"."cpd_entries";

DROP POLICY "authors approve enrolments on their courses and admins any" ON "public"."enrollments";

DROP POLICY "users enrol themselves in visible published courses" ON "public"."enrollments";

DROP POLICY "users read own enrolments, authors their courses', admins all" ON "public"."enrollments";

DROP POLICY "users unenrol themselves, authors and admins remove" ON "public"."enrollments";

DROP POLICY "people read their own notices, administrators their people's" ON "public"."notifications";

DROP POLICY "admins delete profiles" ON "public"."profiles";

DROP POLICY "users read own profile, authors their learners', admins all" ON "public"."profiles";

DROP POLICY "users update their own profile and admins update any" ON "public"."profiles";

DROP POLICY "users read own attempts, authors their quizzes', admins all" ON "public"."quiz_attempts";

DROP POLICY "authors add questions to their quizzes and admins any" ON "public"."quiz_questions";

DROP POLICY "authors delete questions of their quizzes and admins any" ON "public"."quiz_questions";

DROP POLICY "authors read questions of their quizzes and admins all" ON "public"."quiz_questions";

DROP POLICY "authors update questions of their quizzes and admins any" ON "public"."quiz_questions";

DROP POLICY "authors add quizzes to their modules and admins any" ON "public"."quizzes";

DROP POLICY "authors delete quizzes of their modules and admins any" ON "public"."quizzes";

DROP POLICY "authors update quizzes of their modules and admins any" ON "public"."quizzes";

DROP POLICY "learners read own SCORM attempts, authors their modules', admin" ON "public"."scorm_attempts";

DROP POLICY "learners read own SCORM sessions, admins all" ON "public"."scorm_sessions";

DROP POLICY "admins update the settings" ON "public"."settings";

DROP POLICY "users read own progress, authors their courses', admins all" ON "public"."user_module_progress";

DROP POLICY "administrators list course covers and module images" ON "storage"."objects";

DROP FUNCTION "private"."administered_person_ids"();

CREATE OR REPLACE FUNCTION private.administers (
  p_person_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return private.is_admin()
      or exists (select 1 from private.people_i_administer() a where a = p_person_id);
end;
$function$;

CREATE OR REPLACE FUNCTION private.delete_user (
  p_user_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if not private.is_admin() and not private.is_org_admin() then
    raise exception 'Only an administrator may delete users' using errcode = '42501';
  end if;
  -- Only the people the caller administers (anyone else is "no such person").
  if not private.administers(p_user_id) then
    return false;
  end if;
  delete from auth.users where id = p_user_id;
  return found;
end;
$function$;

CREATE OR REPLACE FUNCTION private.learning_record (
  p_user_id uuid
)
  RETURNS TABLE (
    certificate_id    uuid,
    course_id         uuid,
    course_title      text,
    service           text,
    cycle             integer,
    completed_at      timestamp with time zone,
    hours             integer,
    score             integer,
    verification_code text,
    expires_at        timestamp with time zone,
    revoked_at        timestamp with time zone,
    state             text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  if p_user_id is distinct from (select auth.uid()) and not private.administers(p_user_id) then
    raise exception 'Only the learner and administrators may read a learning record' using errcode = '42501';
  end if;
  return query
    with history as (
      select c.*,
             lag(c.issued_at) over (partition by c.course_id order by c.issued_at) as previous_issued_at
      from public.certificates c
      where c.user_id = p_user_id
    )
    select h.id, h.course_id, h.course_title, h.service::text, h.cycle, h.issued_at, co.duration,
           s.score, h.verification_code, h.expires_at, h.revoked_at,
           private.certificate_state(h.expires_at, h.revoked_at)
    from history h
    left join public.courses co on co.id = h.course_id
    left join lateral (
      select round(avg(best.pct))::integer as score
      from (
        select max(round(100.0 * a.score / nullif(a.max_score, 0))) as pct
        from public.course_modules m
        join public.quizzes q on q.module_id = m.id
        join public.quiz_attempts a on a.quiz_id = q.id and a.user_id = p_user_id
        where m.course_id = h.course_id
          and a.passed
          and a.completed_at <= h.issued_at
          and (h.previous_issued_at is null or a.completed_at > h.previous_issued_at)
        group by q.id
        union all
        -- A SCORM package whose score counts as the module's quiz score (19_scorm_runtime.sql):
        -- the best attempt that met the module's rule in the same period.
        select max(round(100.0 * a.score))
        from public.course_modules m
        join public.scorm_packages p on p.module_id = m.id and p.score_is_quiz_score
        join public.scorm_attempts a on a.module_id = m.id and a.user_id = p_user_id
        where m.course_id = h.course_id
          and a.met_at is not null and a.score is not null
          and a.met_at <= h.issued_at
          and (h.previous_issued_at is null or a.met_at > h.previous_issued_at)
        group by m.id
      ) best
    ) s on true
    order by h.issued_at desc, h.id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.people_i_administer()
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 100
  SET search_path TO ''
  AS $function$
begin
  if private.is_admin() then
    return query select p.id from public.profiles p;
    return;
  end if;
  return query
    select p.id from public.profiles p
    where p.organisation_id = private.administered_organisation_id();
end;
$function$;

CREATE OR REPLACE FUNCTION private.resend_notification_email (
  p_id uuid
)
  RETURNS text
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_row public.notifications;
  v_name text;
begin
  select n.* into v_row from public.notifications n where n.id = p_id for update;
  if not found or not private.administers(v_row.recipient_id) then
    raise exception 'Notification not found' using errcode = 'P0002';
  end if;
  if v_row.email_status not in ('sent', 'failed') then
    raise exception 'Only a sent or failed email can be sent again' using errcode = '55000';
  end if;
  update public.notifications n set
    email_status = 'queued', email_attempts = 0, email_next_attempt_at = null, email_last_error = null,
    email_sent_at = null, email_resends = n.email_resends + 1
  where n.id = p_id;
  select p.name into v_name from public.profiles p where p.id = v_row.recipient_id;
  perform private.write_audit('notification.resent', 'user', v_row.recipient_id, v_name,
    jsonb_build_object('emailStatus', v_row.email_status, 'attempts', v_row.email_attempts),
    jsonb_build_object('notificationId', v_row.id, 'kind', v_row.kind, 'title', v_row.title));
  return 'queued';
end;
$function$;

CREATE OR REPLACE FUNCTION private.reset_password_flag (
  p_user_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_actor uuid := (select auth.uid());
  v_target public.profiles;
  v_sessions integer;
begin
  if v_actor is null or (not private.is_admin() and not private.is_org_admin()) then
    raise exception 'Only an administrator may reset a password' using errcode = '42501';
  end if;
  if p_user_id = v_actor then
    raise exception 'Change your own password from your profile page' using errcode = 'P0409';
  end if;
  select * into v_target from public.profiles p where p.id = p_user_id for update;
  -- Only the people the caller administers (anyone else is unknown to them).
  if not found or not private.administers(p_user_id) then
    raise exception 'User not found' using errcode = 'P0002';
  end if;

  update public.profiles p set must_change_password = true where p.id = p_user_id;
  delete from auth.sessions s where s.user_id = p_user_id;
  get diagnostics v_sessions = row_count;

  insert into public.audit_events (actor_id, actor_name, actor_username, action, target_type, target_id, target_label, old_data, new_data)
  select v_actor, a.name, a.username, 'password.reset', 'user', v_target.id,
         v_target.username,
         jsonb_build_object('mustChangePassword', v_target.must_change_password),
         jsonb_build_object('mustChangePassword', true, 'sessionsEnded', v_sessions)
  from (select 1) one
  left join public.profiles a on a.id = v_actor;
  return true;
end;
$function$;

CREATE OR REPLACE FUNCTION private.set_user_active (
  p_user_id uuid,
  p_active  boolean
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_profile public.profiles%rowtype;
begin
  if not private.is_admin() and not private.is_org_admin() then
    raise exception 'Only an administrator may deactivate or reactivate users' using errcode = '42501';
  end if;
  if p_user_id = auth.uid() and not p_active then
    raise exception 'You cannot deactivate your own account' using errcode = 'P0403';
  end if;
  select * into v_profile from public.profiles where id = p_user_id for update;
  -- Only the people the caller administers (anyone else is "no such person").
  if not found or not private.administers(p_user_id) then
    return false;
  end if;
  if p_active = (v_profile.deactivated_at is null) then
    return true; -- already so: nothing to record
  end if;
  if not p_active and v_profile.role = 'ADMIN' and v_profile.organisation_id is null then
    perform pg_advisory_xact_lock(hashtext('public.profiles last admin'));
    if not exists (select 1 from public.profiles p
                   where p.role = 'ADMIN' and p.organisation_id is null
                     and p.id <> p_user_id and p.deactivated_at is null) then
      raise exception 'The last administrator cannot be deactivated'
        using errcode = 'P0409', hint = 'Make another user an administrator first.';
    end if;
  end if;
  update public.profiles set deactivated_at = case when p_active then null else now() end
  where id = p_user_id;
  if p_active then
    update auth.users set banned_until = null, updated_at = now() where id = p_user_id;
    -- Back in the required training they match (skipped while deactivated).
    insert into public.enrollments (user_id, course_id, status)
    select distinct v_profile.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from public.required_training r
    where (r.role is null or r.role = v_profile.role)
      and (r.service is null or v_profile.services @> array[r.service])
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
  else
    update auth.users set banned_until = '2999-12-31 00:00:00+00', updated_at = now() where id = p_user_id;
    delete from auth.sessions where user_id = p_user_id;
  end if;
  perform private.write_audit(
    case when p_active then 'user.reactivated' else 'user.deactivated' end,
    'user', v_profile.id, v_profile.username,
    jsonb_build_object('status', case when p_active then 'deactivated' else 'active' end, 'name', v_profile.name),
    jsonb_build_object('status', case when p_active then 'active' else 'deactivated' end, 'name', v_profile.name));
  return true;
end;
$function$;

CREATE POLICY "audit trail: national admins all, administrators their people's" ON "public"."audit_events"
  FOR SELECT
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR (actor_id IN ( SELECT private.people_i_administer() AS people_i_administer)) OR ((target_type = 'user'::text) AND (target_id IN (
    SELECT private.people_i_administer() AS people_i_administer)))));

CREATE POLICY "certificates: self, authors, administrators and managers read" ON "public"."certificates"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids)) OR
    (user_id IN ( SELECT private.people_i_administer() AS people_i_administer)) OR (user_id IN ( SELECT private.managed_person_ids() AS managed_person_ids))));

CREATE POLICY "modules: course authors and national admins add" ON "public"."course_modules"
  FOR INSERT
  TO "authenticated"
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids))));

CREATE POLICY "modules: course authors and national admins delete" ON "public"."course_modules"
  FOR DELETE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids))));

CREATE POLICY "modules: course authors and national admins update" ON "public"."course_modules"
  FOR UPDATE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids))))
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids))));

CREATE POLICY "courses: instructors in their services and administrators add" ON "public"."courses"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    ((( SELECT private.is_admin() AS is_admin) OR ((( SELECT private."current_role"() AS "current_role") = 'INSTRUCTOR'::public.user_role) AND (author_id = ( SELECT auth.uid() AS
    uid)) AND (service IN ( SELECT unnest(private.current_services()) AS unnest)) AND
    (NOT (organisation_id IS DISTINCT FROM ( SELECT private.current_organisation_id() AS current_organisation_id)))) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "courses: people read published; authors, administrators theirs" ON "public"."courses"
  FOR SELECT
  TO "authenticated"
  USING
    ((((status = ANY (( SELECT private.visible_course_statuses() AS visible_course_statuses)::public.course_status[])) OR (author_id = ( SELECT auth.uid() AS uid)) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))) AND
    ((organisation_id IS NULL) OR ( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.current_organisation_id() AS current_organisation_id)))));

CREATE POLICY "courses: their authors and administrators delete" ON "public"."courses"
  FOR DELETE
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR ((author_id = ( SELECT auth.uid() AS uid)) AND (( SELECT private."current_role"() AS "current_role") =
    'INSTRUCTOR'::public.user_role) AND ((organisation_id IS NULL) OR (organisation_id = ( SELECT private.current_organisation_id() AS current_organisation_id)))) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "courses: their authors and administrators update" ON "public"."courses"
  FOR UPDATE
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR ((author_id = ( SELECT auth.uid() AS uid)) AND (( SELECT private."current_role"() AS "current_role") =
    'INSTRUCTOR'::public.user_role) AND ((organisation_id IS NULL) OR (organisation_id = ( SELECT private.current_organisation_id() AS current_organisation_id)))) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))))
  WITH
    CHECK
    ((( SELECT private.is_admin() AS is_admin) OR ((( SELECT private."current_role"() AS "current_role") = 'INSTRUCTOR'::public.user_role) AND (author_id = ( SELECT auth.uid() AS
    uid)) AND (service IN ( SELECT unnest(private.current_services()) AS unnest)) AND
    (NOT (organisation_id IS DISTINCT FROM ( SELECT private.current_organisation_id() AS current_organisation_id)))) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "CPD entries: self and administrators read" ON "public"."cpd_entries"
  FOR SELECT
  TO "authenticated"
  USING (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (user_id IN ( SELECT private.people_i_administer() AS people_i_administer))));

CREATE POLICY "enrolments: course authors and administrators update" ON "public"."enrollments"
  FOR UPDATE
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids)) OR (user_id IN ( SELECT
    private.people_i_administer() AS people_i_administer))))
  WITH
    CHECK
    ((( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids)) OR (user_id IN ( SELECT
    private.people_i_administer() AS people_i_administer))));

CREATE POLICY "enrolments: self and their administrators add" ON "public"."enrollments"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    (((progress = 0) AND (NOT completed) AND (( SELECT private.is_admin() AS is_admin) OR (((user_id = ( SELECT auth.uid() AS uid)) OR (user_id IN ( SELECT
    private.people_i_administer() AS people_i_administer))) AND (EXISTS ( SELECT 1
   FROM public.courses c
  WHERE ((c.id = enrollments.course_id) AND (c.status = 'ACTIVE'::public.course_status))))))));

CREATE POLICY "enrolments: self, authors, administrators and managers read" ON "public"."enrollments"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids)) OR
    (user_id IN ( SELECT private.people_i_administer() AS people_i_administer)) OR (user_id IN ( SELECT private.managed_person_ids() AS managed_person_ids))));

CREATE POLICY "enrolments: self, course authors and administrators remove" ON "public"."enrollments"
  FOR DELETE
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids)) OR
    (user_id IN ( SELECT private.people_i_administer() AS people_i_administer))));

CREATE POLICY "people read their own notices, administrators their people's" ON "public"."notifications"
  FOR SELECT
  TO "authenticated"
  USING
    (((recipient_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (recipient_id IN ( SELECT private.people_i_administer() AS people_i_administer))));

CREATE POLICY "profiles: self and their administrators update" ON "public"."profiles"
  FOR UPDATE
  TO "authenticated"
  USING (((id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (id IN ( SELECT private.people_i_administer() AS people_i_administer))))
  WITH CHECK (((id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (id IN ( SELECT private.people_i_administer() AS people_i_administer))));

CREATE POLICY "profiles: self, their authors, administrators and managers read" ON "public"."profiles"
  FOR SELECT
  TO "authenticated"
  USING
    (((id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (id IN ( SELECT private.learner_ids_of_authored_courses() AS
    learner_ids_of_authored_courses)) OR (id IN ( SELECT private.people_i_administer() AS people_i_administer)) OR
    (id IN ( SELECT private.managed_person_ids() AS managed_person_ids))));

CREATE POLICY "profiles: their administrators delete" ON "public"."profiles"
  FOR DELETE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (id IN ( SELECT private.people_i_administer() AS people_i_administer))));

CREATE POLICY "quiz attempts: self, quiz authors and administrators read" ON "public"."quiz_attempts"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (quiz_id IN ( SELECT private.authored_quiz_ids() AS authored_quiz_ids)) OR (user_id IN
    ( SELECT private.people_i_administer() AS people_i_administer))));

CREATE POLICY "quiz questions: quiz authors and national admins add" ON "public"."quiz_questions"
  FOR INSERT
  TO "authenticated"
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (quiz_id IN ( SELECT private.authored_quiz_ids() AS authored_quiz_ids))));

CREATE POLICY "quiz questions: quiz authors and national admins delete" ON "public"."quiz_questions"
  FOR DELETE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (quiz_id IN ( SELECT private.authored_quiz_ids() AS authored_quiz_ids))));

CREATE POLICY "quiz questions: quiz authors and national admins read" ON "public"."quiz_questions"
  FOR SELECT
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (quiz_id IN ( SELECT private.authored_quiz_ids() AS authored_quiz_ids))));

CREATE POLICY "quiz questions: quiz authors and national admins update" ON "public"."quiz_questions"
  FOR UPDATE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (quiz_id IN ( SELECT private.authored_quiz_ids() AS authored_quiz_ids))))
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (quiz_id IN ( SELECT private.authored_quiz_ids() AS authored_quiz_ids))));

CREATE POLICY "quizzes: module authors and national admins add" ON "public"."quizzes"
  FOR INSERT
  TO "authenticated"
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))));

CREATE POLICY "quizzes: module authors and national admins delete" ON "public"."quizzes"
  FOR DELETE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))));

CREATE POLICY "quizzes: module authors and national admins update" ON "public"."quizzes"
  FOR UPDATE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))))
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))));

CREATE POLICY "SCORM attempts: self, module authors and administrators read" ON "public"."scorm_attempts"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids)) OR
    (user_id IN ( SELECT private.people_i_administer() AS people_i_administer))));

CREATE POLICY "SCORM sessions: self and national admins read" ON "public"."scorm_sessions"
  FOR SELECT
  TO "authenticated"
  USING (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin)));

CREATE POLICY "settings: national admins update" ON "public"."settings"
  FOR UPDATE
  TO "authenticated"
  USING (( SELECT private.is_admin() AS is_admin))
  WITH CHECK (( SELECT private.is_admin() AS is_admin));

CREATE POLICY "progress: self, authors, administrators and managers read" ON "public"."user_module_progress"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids)) OR
    (user_id IN ( SELECT private.people_i_administer() AS people_i_administer)) OR (user_id IN ( SELECT private.managed_person_ids() AS managed_person_ids))));

CREATE POLICY "course covers and module images: national admins list" ON "storage"."objects"
  FOR SELECT
  TO "authenticated"
  USING (((bucket_id = ANY (ARRAY['course-covers'::text, 'module-images'::text])) AND ( SELECT private.is_admin() AS is_admin)));

COMMENT ON FUNCTION "private"."administers"(uuid) IS 'True when the caller administers the person: a national administrator everyone, an organisation''s administrator their organisation''s people (private.people_i_administer).';

COMMENT ON FUNCTION "private"."people_i_administer"() IS 'The people the caller administers: everyone for a national administrator, their organisation''s people for an organisation''s administrator, nobody for anyone else. Use as (select private.is_admin()) or x in (select private.people_i_administer()).';

REVOKE ALL ON FUNCTION "private"."administers"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."administers"(uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."people_i_administer"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."people_i_administer"() TO "authenticated", "postgres", "service_role";
