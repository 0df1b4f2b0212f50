-- organisation_screens: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."issue_certificate"(uuid, uuid);

DROP FUNCTION "private"."verify_certificate"(text);

ALTER TABLE "public"."certificates"
  ADD COLUMN "organisation_name" text;

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
  insert into public.certificates (user_id, course_id, cycle, learner_name, organisation_name, course_title, service, template, expires_at)
  select p.id, c.id, e.cycle, p.name, o.name, c.title, c.service,
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

CREATE OR REPLACE FUNCTION private.verify_certificate (
  p_code text
)
  RETURNS TABLE (
    verification_code text,
    learner_name      text,
    organisation_name text,
    course_title      text,
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
  select c.verification_code, c.learner_name, c.organisation_name, c.course_title, c.service, c.template, c.issued_at,
         c.expires_at, c.revoked_at, private.certificate_state(c.expires_at, c.revoked_at)
  from public.certificates c
  where c.verification_code = upper(btrim(p_code))
$function$;

COMMENT ON COLUMN "public"."certificates"."organisation_name" IS 'The learner''s organisation at issue (null for a learner of none): verification shows the organisation the certificate was earned in, even after the person moves; a reissue keeps it.';

COMMENT ON FUNCTION "private"."issue_certificate"(uuid, uuid) IS 'Internal: issues the certificate of the enrolment''s current cycle, with a snapshot of learner name, organisation name, course title, service and template, and its expiry.';

COMMENT ON FUNCTION "private"."verify_certificate"(text) IS 'Anyone: the certificate with this verification code (snapshot with the organisation at issue, validity and state; never the revocation reason), or no row.';

REVOKE ALL ON FUNCTION "private"."issue_certificate"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."issue_certificate"(uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."verify_certificate"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."verify_certificate"(text) TO "anon", "authenticated", "postgres", "service_role";
