-- certificate_welsh_title: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."learning_record"(uuid);

DROP FUNCTION "private"."verify_certificate"(text);

ALTER TABLE "public"."certificates"
  ADD COLUMN "course_title_cy" text;

CREATE OR REPLACE FUNCTION private.issue_certificate (
  p_user_id   uuid,
  p_course_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  insert into public.certificates (user_id, course_id, cycle, learner_name, organisation_name, course_title, course_title_cy, service, template, expires_at)
  select p.id, c.id, e.cycle, p.name, o.name, c.title, c.title_cy, c.service,
         coalesce((select s.certificate_template from public.settings s where s.id), 'standard'),
         case when c.certificate_valid_months is not null
              then now() + make_interval(months => c.certificate_valid_months) end
  from public.profiles p
  join public.enrollments e on e.user_id = p.id and e.course_id = p_course_id
  join public.courses c on c.id = e.course_id
  left join public.organisations o on o.id = p.organisation_id
  where p.id = p_user_id
  on conflict (user_id, course_id, cycle) do nothing;
end;
$function$;

CREATE OR REPLACE FUNCTION private.learning_record (
  p_user_id uuid
)
  RETURNS TABLE (
    certificate_id    uuid,
    course_id         uuid,
    course_title      text,
    course_title_cy   text,
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
    select h.id, h.course_id, h.course_title, h.course_title_cy, h.service::text, h.cycle, h.issued_at, co.duration,
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

CREATE OR REPLACE FUNCTION private.reissue_certificate (
  p_certificate_id uuid
)
  RETURNS public.certificates
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_before public.certificates;
  v_after public.certificates;
  v_actor uuid := (select auth.uid());
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may reissue certificates' using errcode = '42501';
  end if;
  select * into v_before from public.certificates c where c.id = p_certificate_id for update;
  if not found then
    raise exception 'Certificate not found' using errcode = 'P0002';
  end if;
  if v_before.revoked_at is not null then
    raise exception 'A revoked certificate cannot be reissued' using errcode = 'P0409';
  end if;
  -- The snapshot as it is now; a deleted learner or course keeps the earlier one.
  update public.certificates c
  set learner_name = coalesce((select p.name from public.profiles p where p.id = c.user_id), c.learner_name),
      course_title = coalesce((select co.title from public.courses co where co.id = c.course_id), c.course_title),
      course_title_cy = case when c.course_id is null then c.course_title_cy
                             else (select co.title_cy from public.courses co where co.id = c.course_id) end,
      service = case when c.course_id is null then c.service
                     else coalesce((select co.service from public.courses co where co.id = c.course_id), c.service) end,
      reissued_at = now()
  where c.id = p_certificate_id
  returning * into v_after;

  insert into public.audit_events (actor_id, actor_name, actor_username, action, target_type, target_id, target_label, old_data, new_data)
  select v_actor, p.name, p.username, 'certificate.reissued', 'certificate', v_after.id,
         v_after.verification_code || ' (' || v_after.learner_name || ')',
         jsonb_build_object('learnerName', v_before.learner_name, 'courseTitle', v_before.course_title, 'service', v_before.service),
         jsonb_build_object('verificationCode', v_after.verification_code, 'learnerName', v_after.learner_name,
           'courseTitle', v_after.course_title, 'service', v_after.service, 'reissuedAt', v_after.reissued_at)
  from (select 1) one
  left join public.profiles p on p.id = v_actor;
  return v_after;
end;
$function$;

CREATE OR REPLACE FUNCTION private.verify_certificate (
  p_code text
)
  RETURNS TABLE (
    verification_code text,
    learner_name      text,
    organisation_name text,
    course_title      text,
    course_title_cy   text,
    service           public.service_code,
    template          public.certificate_template,
    issued_at         timestamp with time zone,
    expires_at        timestamp with time zone,
    revoked_at        timestamp with time zone,
    state             text
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select c.verification_code, c.learner_name, c.organisation_name, c.course_title, c.course_title_cy, c.service, c.template, c.issued_at,
         c.expires_at, c.revoked_at, private.certificate_state(c.expires_at, c.revoked_at)
  from public.certificates c
  where c.verification_code = upper(btrim(p_code))
$function$;

COMMENT ON COLUMN "public"."certificates"."course_title_cy" IS 'The course''s Welsh title at issue (courses.title_cy); null when the course had none.';

COMMENT ON FUNCTION "private"."issue_certificate"(uuid, uuid) IS 'Internal: issues the certificate of the enrolment''s current cycle, with a snapshot of learner name, organisation name, course title (English and Welsh), service and template, and its expiry.';

COMMENT ON FUNCTION "private"."learning_record"(uuid) IS 'The learner''s completed courses (every certificate, all cycles) with hours, service, quiz score, code, expiry and state. Caller must be the learner, a national admin or their organisation''s admin (else 42501).';

COMMENT ON FUNCTION "private"."verify_certificate"(text) IS 'Anyone: the certificate with this verification code (snapshot with the organisation at issue, validity and state; never the revocation reason), or no row.';

REVOKE ALL ON FUNCTION "private"."learning_record"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."learning_record"(uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."verify_certificate"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."verify_certificate"(text) TO "anon", "authenticated", "postgres", "service_role";
