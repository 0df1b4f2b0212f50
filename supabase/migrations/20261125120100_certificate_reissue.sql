-- Certificate reissue (issue 15): after an administrator corrects a learner's name, the certificate
-- is issued again under the same verification code with a new snapshot (the learner's name, the
-- course title and service as they are now). Only private.reissue_certificate writes it (the API
-- roles hold no privilege to update certificates); the audit trail records each reissue as
-- 'certificate.reissued' with the snapshot before and after.

alter table public.certificates add column reissued_at timestamptz;
comment on column public.certificates.reissued_at is
  'When an administrator last reissued the certificate (same verification code, new snapshot); null if never.';

create function private.reissue_certificate(p_certificate_id uuid) returns public.certificates
language plpgsql volatile security definer
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
