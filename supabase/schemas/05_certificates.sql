-- Certificates: issued when an enrolment is completed, with a snapshot of the learner's name and the
-- course title, a public verification code and, for courses that need renewal, an expiry date.
-- Learners read their own; authors the certificates of their courses; admins all, and only admins
-- revoke or reissue. Anyone may verify a code through private.verify_certificate.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.certificates (
  id uuid primary key default gen_random_uuid(),
  verification_code text not null default upper(encode(extensions.gen_random_bytes(8), 'hex')),
  user_id uuid references public.profiles (id) on delete set null,
  course_id uuid references public.courses (id) on delete set null,
  learner_name text not null,
  organisation_name text,
  course_title text not null,
  course_title_cy text,
  service public.service_code,
  template public.certificate_template not null default 'standard',
  issued_at timestamptz not null default now(),
  cycle integer not null default 1,
  expires_at timestamptz,
  revoked_at timestamptz,
  revoked_reason text,
  revoked_by uuid references public.profiles (id) on delete set null,
  reissued_at timestamptz,
  constraint certificates_verification_code_key unique (verification_code),
  constraint certificates_user_course_cycle_key unique (user_id, course_id, cycle),
  constraint certificates_verification_code_shape check (verification_code ~ '^[A-Z0-9]{8,32}$'),
  constraint certificates_expires_after_issue check (expires_at is null or expires_at > issued_at),
  constraint certificates_revocation_complete check ((revoked_at is null) = (revoked_reason is null)),
  constraint certificates_revoked_reason_length
    check (revoked_reason is null or char_length(btrim(revoked_reason)) between 1 and 500)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.certificates is
  'Issued when an enrolment completes. Keeps a snapshot of learner name and course title, so it survives deletion of either (ids set null).';

comment on column public.certificates.verification_code is
  'Public code anyone may verify with private.verify_certificate.';

comment on column public.certificates.learner_name is
  'The learner''s name at issue.';

comment on column public.certificates.organisation_name is
  'The learner''s organisation at issue (null for a learner of none): verification shows the organisation the certificate was earned in, even after the person moves; a reissue keeps it.';

comment on column public.certificates.course_title is
  'The course title at issue.';

comment on column public.certificates.course_title_cy is
  'The course''s Welsh title at issue (courses.title_cy); null when the course had none.';

comment on column public.certificates.service is
  'The course''s service at issue (for the Service-Specific template).';

comment on column public.certificates.template is
  'The settings'' certificate template at issue.';

comment on column public.certificates.cycle is
  'The enrolment cycle that earned it (1 = first completion).';

comment on column public.certificates.expires_at is
  'The earliest of the issued date plus the course''s validity and each practical assessment''s sign-off plus its validity, at issue; null = never expires.';

comment on column public.certificates.revoked_at is
  'When an admin revoked it; a revoked certificate fails verification.';

comment on column public.certificates.revoked_reason is
  'Why it was revoked (required with revoked_at).';

comment on column public.certificates.revoked_by is
  'The admin who revoked it.';

comment on column public.certificates.reissued_at is
  'When an administrator last reissued the certificate (same verification code, new snapshot); null if never.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index certificates_course_id_idx on public.certificates (course_id);

-- The learner's certificates newest first, and a learner's latest certificate per course.
create index certificates_user_course_issued_idx on public.certificates (user_id, course_id, issued_at desc);

create index certificates_revoked_by_idx on public.certificates (revoked_by);

-- Compliance reports scan by course and expiry.
create index certificates_course_expires_idx on public.certificates (course_id, expires_at);

-- Newest first for the admin list, and substring search over learner name and code.
create index certificates_issued_at_idx on public.certificates (issued_at desc, id desc);

create index certificates_search_trgm_idx on public.certificates using gin
  (lower(learner_name || ' ' || verification_code) extensions.gin_trgm_ops);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.certificates enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "certificates: self, authors, administrators and managers read"
  on public.certificates for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or course_id in (select private.authored_course_ids())
    or user_id in (select private.people_i_administer())
    or user_id in (select private.managed_person_ids())
  );

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.certificates from anon, authenticated, service_role;
grant select on public.certificates to anon, authenticated;
grant all on public.certificates to service_role;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- Issue the certificate of the enrolment's current cycle, with its expiry (once per cycle): the
-- earliest of the course's validity and each practical assessment's (sign-off + valid_months). plpgsql,
-- because it reads public.organisations and the practicals, created later (13_organisations.sql,
-- 26_practical_assessments.sql).
create function private.issue_certificate(p_user_id uuid, p_course_id uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.certificates (user_id, course_id, cycle, learner_name, organisation_name, course_title, course_title_cy, service, template, expires_at)
  select p.id, c.id, e.cycle, p.name, o.name, c.title, c.title_cy, c.service,
         coalesce((select s.certificate_template from public.settings s where s.id), 'standard'),
         -- The earliest of the course's validity and its practicals' (26_practical_assessments.sql);
         -- a practical already run out still gives a certificate that expires after it was issued.
         (select case when x.until is not null then greatest(x.until, now() + interval '1 day') end
          from (select least(case when c.certificate_valid_months is not null
                                  then now() + make_interval(months => c.certificate_valid_months) end,
                             private.practical_valid_until(p.id, c.id)) as until) x)
  from public.profiles p
  join public.enrollments e on e.user_id = p.id and e.course_id = p_course_id
  join public.courses c on c.id = e.course_id
  left join public.organisations o on o.id = p.organisation_id
  where p.id = p_user_id
  on conflict (user_id, course_id, cycle) do nothing;
end;
$$;
comment on function private.issue_certificate(uuid,uuid) is
  'Internal: issues the certificate of the enrolment''s current cycle, with a snapshot of learner name, organisation name, course title (English and Welsh), service and template, and its expiry: the earliest of the course''s validity from now and each practical assessment''s sign-off + valid_months (at least a day after issue).';
revoke all on function private.issue_certificate(uuid,uuid) from public;

-- The one definition of a certificate's state: revoked, expired, expiring (within 60 days) or valid.
create function private.certificate_state(
  p_expires_at timestamp with time zone,
  p_revoked_at timestamp with time zone
)
returns text
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
comment on function private.certificate_state(timestamp with time zone,timestamp with time zone) is
  'revoked | expired | expiring (expires within 60 days) | valid: the rule every screen, report and verification uses.';
revoke all on function private.certificate_state(timestamp with time zone,timestamp with time zone)
  from public;
grant execute on function private.certificate_state(timestamp with time zone,timestamp with time
  zone) to authenticated, service_role;

create function private.start_recertification(p_course_id uuid)
returns public.enrollments
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_enrollment public.enrollments;
  v_certificate public.certificates;
  v_state text;
begin
  if v_uid is null then
    raise exception 'Sign in to recertify' using errcode = '42501';
  end if;
  if not private.can_view_course(p_course_id) then
    raise exception 'Course not found' using errcode = 'P0002';
  end if;
  select * into v_enrollment from public.enrollments e
  where e.user_id = v_uid and e.course_id = p_course_id
  for update;
  if not found then
    raise exception 'You are not enrolled in this course' using errcode = 'P0002';
  end if;
  -- The current certificate: the latest issued.
  select * into v_certificate from public.certificates c
  where c.user_id = v_uid and c.course_id = p_course_id
  order by c.issued_at desc, c.cycle desc
  limit 1;
  if not found then
    raise exception 'You have no certificate of this course to renew' using errcode = 'P0409';
  end if;
  if v_enrollment.cycle > v_certificate.cycle then
    raise exception 'You have already started recertification for this course' using errcode = 'P0409';
  end if;
  v_state := private.certificate_state(v_certificate.expires_at, v_certificate.revoked_at);
  if v_state = 'revoked' then
    raise exception 'This certificate was revoked and cannot be renewed. Contact an administrator.' using errcode = 'P0409';
  end if;
  if v_state = 'valid' then
    raise exception '%', case when v_certificate.expires_at is null
        then 'This certificate does not expire, so it needs no recertification'
        else 'This certificate is still valid: recertification opens 60 days before it expires' end
      using errcode = 'P0409';
  end if;

  update public.enrollments e
  set cycle = e.cycle + 1, progress = 0, completed = false, completed_at = null,
      started_at = now(), last_accessed_module_id = null
  where e.id = v_enrollment.id
  returning * into v_enrollment;
  -- Fresh module and quiz progress; attempts and certificates stay in the learner's history.
  delete from public.user_module_progress ump
  using public.course_modules m
  where m.id = ump.module_id and m.course_id = p_course_id and ump.user_id = v_uid;
  return v_enrollment;
end;
$$;
comment on function private.start_recertification(uuid) is
  'Learner: from an expiring or expired current certificate of the course, starts the enrolment''s next cycle at 0 % with fresh module and quiz progress (P0409 otherwise; P0002 not enrolled).';
revoke all on function private.start_recertification(uuid) from public;
grant execute on function private.start_recertification(uuid) to authenticated;

create function private.revoke_certificate(p_certificate_id uuid, p_reason text)
returns public.certificates
language plpgsql security definer
set search_path = ''
as $$
declare
  v_reason text := btrim(p_reason);
  v_certificate public.certificates;
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may revoke certificates' using errcode = '42501';
  end if;
  if v_reason is null or char_length(v_reason) not between 1 and 500 then
    raise exception 'Give a reason of 1 to 500 characters' using errcode = '22023';
  end if;
  select * into v_certificate from public.certificates c where c.id = p_certificate_id for update;
  if not found then
    raise exception 'Certificate not found' using errcode = 'P0002';
  end if;
  if v_certificate.revoked_at is not null then
    raise exception 'This certificate is already revoked' using errcode = 'P0409';
  end if;
  update public.certificates c
  set revoked_at = now(), revoked_reason = v_reason, revoked_by = (select auth.uid())
  where c.id = p_certificate_id
  returning * into v_certificate;
  return v_certificate;
end;
$$;
comment on function private.revoke_certificate(uuid,text) is
  'Admins only: revokes the certificate with a reason (1-500 characters); the audit trigger records it. P0409 when already revoked.';
revoke all on function private.revoke_certificate(uuid,text) from public;
grant execute on function private.revoke_certificate(uuid,text) to authenticated;

-- The organisation shown is the certificate's snapshot (organisation_name, written at issue), not the
-- learner's organisation today: a person who later moves keeps a true record of where they earned it,
-- and the public check reads no profile. Nothing else of the organisation is shown.
create function private.verify_certificate(p_code text)
returns table(
  verification_code text,
  learner_name text,
  organisation_name text,
  course_title text,
  course_title_cy text,
  service public.service_code,
  template public.certificate_template,
  issued_at timestamp with time zone,
  expires_at timestamp with time zone,
  revoked_at timestamp with time zone,
  state text
)
language sql stable security definer
set search_path = ''
as $$
  select c.verification_code, c.learner_name, c.organisation_name, c.course_title, c.course_title_cy, c.service, c.template, c.issued_at,
         c.expires_at, c.revoked_at, private.certificate_state(c.expires_at, c.revoked_at)
  from public.certificates c
  where c.verification_code = upper(btrim(p_code))
$$;
comment on function private.verify_certificate(text) is
  'Anyone: the certificate with this verification code (snapshot with the organisation at issue, validity and state; never the revocation reason), or no row.';
revoke all on function private.verify_certificate(text) from public;
grant execute on function private.verify_certificate(text) to anon, authenticated, service_role;

create function private.reissue_certificate(p_certificate_id uuid)
returns public.certificates
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.reissue_certificate(uuid) is
  'Admins only: reissues the certificate under the same verification code with the learner''s name, course title and service as they are now, and records certificate.reissued in audit_events. P0409 when revoked.';
revoke all on function private.reissue_certificate(uuid) from public;
grant execute on function private.reissue_certificate(uuid) to authenticated;
