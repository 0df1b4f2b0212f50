-- Recertification, revocation and verification with validity (issue 8). Builds on
-- 20260360000000_certificate_validity.sql (expiry, cycles, private.certificate_state).
--
-- - private.start_recertification(course): the learner starts the next cycle of their enrolment
--   from an expiring or expired certificate: progress back to 0 and their module progress for the
--   course removed (so every module is read and every quiz passed again), in one transaction.
--   Earlier certificates and quiz attempts stay: they are the learner's history.
-- - An enrolment created again after the learner left the course continues after the cycles that
--   already earned certificates, so completing it again issues a new certificate.
-- - private.revoke_certificate(id, reason): admins only; the audit trail records it (trigger).
-- - private.verify_certificate(code) also answers expires_at, revoked_at and state.
-- - Admin certificate search by learner name or verification code (trigram index) and paging.
-- - Authors may set courses.certificate_valid_months (column privilege).

-- ---------------------------------------------------------------- authoring

grant insert (certificate_valid_months), update (certificate_valid_months) on public.courses to authenticated;

-- ---------------------------------------------------------------- enrolment cycles

-- A new enrolment starts after the last cycle that earned a certificate (the learner may have left
-- and rejoined the course); otherwise issue_certificate would find that cycle already certified.
create function private.continue_enrolment_cycle() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  new.cycle := greatest(coalesce(new.cycle, 1), 1 + coalesce((
    select max(c.cycle) from public.certificates c
    where c.user_id = new.user_id and c.course_id = new.course_id), 0));
  return new;
end;
$$;
comment on function private.continue_enrolment_cycle() is
  'Before-insert trigger on enrollments: the cycle follows the learner''s earlier certificates of the course.';
revoke all on function private.continue_enrolment_cycle() from public;

create trigger enrollments_continue_cycle
  before insert on public.enrollments
  for each row execute function private.continue_enrolment_cycle();

-- ---------------------------------------------------------------- recertification

create function private.start_recertification(p_course_id uuid) returns public.enrollments
language plpgsql volatile security definer
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

-- ---------------------------------------------------------------- revocation

create function private.revoke_certificate(p_certificate_id uuid, p_reason text) returns public.certificates
language plpgsql volatile security definer
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
comment on function private.revoke_certificate(uuid, text) is
  'Admins only: revokes the certificate with a reason (1-500 characters); the audit trigger records it. P0409 when already revoked.';
revoke all on function private.revoke_certificate(uuid, text) from public;
grant execute on function private.revoke_certificate(uuid, text) to authenticated;

-- The audit trail (private.write_audit, as the administration triggers): whoever revokes, however.
create function private.audit_certificate_revoke() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if old.revoked_at is null and new.revoked_at is not null then
    perform private.write_audit('certificate.revoked', 'certificate', new.id,
      new.verification_code || ' (' || new.learner_name || ')',
      jsonb_build_object('revokedAt', null),
      jsonb_build_object('verificationCode', new.verification_code, 'learnerName', new.learner_name,
        'courseTitle', new.course_title, 'reason', new.revoked_reason, 'revokedAt', new.revoked_at),
      new.revoked_by);
  end if;
  return null;
end;
$$;
comment on function private.audit_certificate_revoke() is 'After-update trigger on certificates: records a revocation in audit_events.';
revoke all on function private.audit_certificate_revoke() from public;
create trigger certificates_audit_revoke
  after update of revoked_at on public.certificates
  for each row execute function private.audit_certificate_revoke();

-- ---------------------------------------------------------------- verification

drop function private.verify_certificate(text);
create function private.verify_certificate(p_code text)
returns table (verification_code text, learner_name text, course_title text, service public.service_code,
               template public.certificate_template, issued_at timestamptz, expires_at timestamptz,
               revoked_at timestamptz, state text)
language sql stable security definer
set search_path = ''
as $$
  select c.verification_code, c.learner_name, c.course_title, c.service, c.template, c.issued_at,
         c.expires_at, c.revoked_at, private.certificate_state(c.expires_at, c.revoked_at)
  from public.certificates c
  where c.verification_code = upper(btrim(p_code))
$$;
comment on function private.verify_certificate(text) is
  'Anyone: the certificate with this verification code (snapshot, validity and state; never the revocation reason), or no row.';
revoke all on function private.verify_certificate(text) from public;
grant execute on function private.verify_certificate(text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------- admin search

-- Newest first for the admin list, and substring search over learner name and code.
create index certificates_issued_at_idx on public.certificates (issued_at desc, id desc);
create index certificates_search_trgm_idx on public.certificates using gin
  (lower(learner_name || ' ' || verification_code) extensions.gin_trgm_ops);
