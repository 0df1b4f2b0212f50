-- Certificate validity and recertification (issue 8): the columns and the one rule every screen,
-- report and verification shares. A course may say how many months its certificate stays valid;
-- a certificate records its expiry when issued. Each pass through a course is a cycle of its
-- enrolment: recertification starts the next cycle, and each cycle may issue one certificate, so
-- earlier certificates stay in the learner's history. An admin may revoke a certificate.

alter table public.courses
  add column certificate_valid_months integer,
  add constraint courses_certificate_valid_months_range
    check (certificate_valid_months is null or certificate_valid_months between 1 and 120);
comment on column public.courses.certificate_valid_months is
  'How many months a certificate of this course stays valid; null means it never expires.';

alter table public.enrollments
  add column cycle integer not null default 1,
  add constraint enrollments_cycle_positive check (cycle >= 1);
comment on column public.enrollments.cycle is
  'Which pass through the course this is: 1 at enrolment, +1 each time the learner recertifies.';

alter table public.certificates
  add column cycle integer not null default 1,
  add column expires_at timestamptz,
  add column revoked_at timestamptz,
  add column revoked_reason text,
  add column revoked_by uuid references public.profiles (id) on delete set null,
  drop constraint certificates_user_course_key,
  add constraint certificates_user_course_cycle_key unique (user_id, course_id, cycle),
  add constraint certificates_expires_after_issue check (expires_at is null or expires_at > issued_at),
  add constraint certificates_revocation_complete check ((revoked_at is null) = (revoked_reason is null)),
  add constraint certificates_revoked_reason_length
    check (revoked_reason is null or char_length(btrim(revoked_reason)) between 1 and 500);
comment on column public.certificates.cycle is 'The enrolment cycle that earned it (1 = first completion).';
comment on column public.certificates.expires_at is 'Issued date plus the course''s validity at issue; null = never expires.';
comment on column public.certificates.revoked_at is 'When an admin revoked it; a revoked certificate fails verification.';
comment on column public.certificates.revoked_reason is 'Why it was revoked (required with revoked_at).';
comment on column public.certificates.revoked_by is 'The admin who revoked it.';

-- The learner's certificates newest first, and a learner's latest certificate per course.
create index certificates_user_course_issued_idx on public.certificates (user_id, course_id, issued_at desc);
create index certificates_revoked_by_idx on public.certificates (revoked_by);
-- Compliance reports scan by course and expiry.
create index certificates_course_expires_idx on public.certificates (course_id, expires_at);

-- The one definition of a certificate's state: revoked, expired, expiring (within 60 days) or valid.
create function private.certificate_state(p_expires_at timestamptz, p_revoked_at timestamptz) returns text
language sql stable
set search_path = ''
as $$
  select case
    when p_revoked_at is not null then 'revoked'
    when p_expires_at is not null and p_expires_at <= now() then 'expired'
    when p_expires_at is not null and p_expires_at <= now() + interval '60 days' then 'expiring'
    else 'valid'
  end
$$;
comment on function private.certificate_state(timestamptz, timestamptz) is
  'revoked | expired | expiring (expires within 60 days) | valid: the rule every screen, report and verification uses.';
revoke all on function private.certificate_state(timestamptz, timestamptz) from public;
grant execute on function private.certificate_state(timestamptz, timestamptz) to authenticated, service_role;

-- Issue the certificate of the enrolment's current cycle, with its expiry (once per cycle).
create or replace function private.issue_certificate(p_user_id uuid, p_course_id uuid) returns void
language sql volatile security definer
set search_path = ''
as $$
  insert into public.certificates (user_id, course_id, cycle, learner_name, course_title, service, template, expires_at)
  select p.id, c.id, e.cycle, p.name, c.title, c.service,
         coalesce((select s.certificate_template from public.settings s where s.id), 'standard'),
         case when c.certificate_valid_months is not null
              then now() + make_interval(months => c.certificate_valid_months) end
  from public.profiles p
  join public.enrollments e on e.user_id = p.id and e.course_id = p_course_id
  join public.courses c on c.id = e.course_id
  where p.id = p_user_id
  on conflict (user_id, course_id, cycle) do nothing
$$;
comment on function private.issue_certificate(uuid, uuid) is
  'Internal: issues the certificate of the enrolment''s current cycle, with a snapshot of learner name, course title, service and template, and its expiry.';
