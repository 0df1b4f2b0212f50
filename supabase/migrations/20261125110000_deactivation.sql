-- Leavers (issue 15.3): an admin deactivates a person instead of deleting them.
--
-- private.set_user_active(id, active), admins only, in one transaction:
-- - profiles.deactivated_at is set (or cleared); no API role may write that column directly;
-- - the Auth account is banned (auth.users.banned_until far in the future), so Auth refuses the
--   password grant and the refresh grant (user_banned) for any client, the app or one calling
--   /auth/v1 itself; reactivation lifts the ban;
-- - every session of the person is deleted, so their access tokens are refused at once by the
--   function (it checks auth.sessions on every request) and by Storage;
-- - the audit trail records 'user.deactivated' / 'user.reactivated'.
-- A deactivated person keeps their enrolments, progress and certificates (still verifiable), drops
-- out of the compliance views (private.required_training_status) and is not enrolled by required
-- training rules; on reactivation they are enrolled in the rules they match.

alter table public.profiles add column deactivated_at timestamptz;
comment on column public.profiles.deactivated_at is
  'When an admin deactivated the person (a leaver): they cannot sign in; null while active. Written only by private.set_user_active.';

-- Deactivated people are few: the status filter of the Users list reads them by this index.
create index profiles_deactivated_idx on public.profiles (created_at desc, id desc) where deactivated_at is not null;

-- The column is not in the authenticated role's column grant (username, email, name, role,
-- services), so no one writes it except through the function below.

create function private.set_user_active(p_user_id uuid, p_active boolean) returns boolean
language plpgsql security definer
set search_path = ''
as $$
declare
  v_profile public.profiles%rowtype;
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may deactivate or reactivate users' using errcode = '42501';
  end if;
  if p_user_id = auth.uid() and not p_active then
    raise exception 'You cannot deactivate your own account' using errcode = 'P0403';
  end if;
  select * into v_profile from public.profiles where id = p_user_id for update;
  if not found then
    return false;
  end if;
  if p_active = (v_profile.deactivated_at is null) then
    return true; -- already so: nothing to record
  end if;
  if not p_active and v_profile.role = 'ADMIN' then
    perform pg_advisory_xact_lock(hashtext('public.profiles last admin'));
    if not exists (select 1 from public.profiles p
                   where p.role = 'ADMIN' and p.id <> p_user_id and p.deactivated_at is null) then
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
$$;
comment on function private.set_user_active(uuid, boolean) is
  'Admins only: deactivates (bans in Auth, ends every session) or reactivates a person, and records it in the audit trail. '
  'False when there is no such person; 42501 for a non-admin; P0403 for deactivating oneself; P0409 for the last active admin.';
revoke all on function private.set_user_active(uuid, boolean) from public;
grant execute on function private.set_user_active(uuid, boolean) to authenticated;

-- A ban may not be lifted behind the profile's back: while the profile is deactivated, Auth's
-- banned_until stays in the future whoever writes auth.users (the Auth admin API included).
create function private.keep_deactivated_banned() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if (new.banned_until is null or new.banned_until < '2999-01-01')
     and exists (select 1 from public.profiles p where p.id = new.id and p.deactivated_at is not null) then
    new.banned_until := '2999-12-31 00:00:00+00';
  end if;
  return new;
end;
$$;
comment on function private.keep_deactivated_banned() is
  'Before update of auth.users.banned_until: a deactivated person stays banned until private.set_user_active reactivates them.';
revoke all on function private.keep_deactivated_banned() from public;
create trigger users_keep_deactivated_banned
  before update of banned_until on auth.users
  for each row execute function private.keep_deactivated_banned();

-- Required training: a new or changed rule enrols active people only.
create or replace function private.enrol_for_required_rule() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.enrollments (user_id, course_id, status)
  select p.id, new.course_id, 'ACTIVE'
  from public.profiles p
  where (new.role is null or p.role = new.role)
    and (new.service is null or p.services @> array[new.service])
    and p.deactivated_at is null
  on conflict (user_id, course_id) do update set status = 'ACTIVE'
    where public.enrollments.status = 'PENDING';
  return null;
end;
$$;

create or replace function private.enrol_profiles_in_required_training() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.enrollments (user_id, course_id, status)
    select distinct n.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from new_rows n
    join public.required_training r
      on (r.role is null or r.role = n.role) and (r.service is null or n.services @> array[r.service])
    where n.deactivated_at is null
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
  else
    insert into public.enrollments (user_id, course_id, status)
    select distinct n.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from new_rows n
    join old_rows o on o.id = n.id
    join public.required_training r
      on (r.role is null or r.role = n.role) and (r.service is null or n.services @> array[r.service])
    where (n.role is distinct from o.role or n.services is distinct from o.services)
      and n.deactivated_at is null
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
  end if;
  return null;
end;
$$;

-- Compliance: THE status rule leaves deactivated people out (the summary, the people list, their CSV
-- and the dashboards all read it).
create or replace function private.required_training_status(
  p_user_id uuid default null,
  p_service public.service_code default null,
  p_role public.user_role default null,
  p_course_id uuid default null
)
returns table (
  user_id uuid,
  username text,
  name text,
  email text,
  role public.user_role,
  services public.service_code[],
  course_id uuid,
  course_title text,
  course_service public.service_code,
  enrollment_id uuid,
  progress integer,
  due_at timestamptz,
  status text,
  certificate_id uuid,
  certificate_expires_at timestamptz,
  certificate_state text
)
language sql stable security definer
set search_path = ''
as $$
  with me as (
    select (select auth.uid()) as uid, private.is_admin() as admin,
           private.current_role() as role, private.current_services() as services
  ),
  required as (
    select p.id as user_id, r.course_id,
           min(greatest(r.created_at, coalesce(e.created_at, p.created_at))
               + make_interval(days => r.due_within_days)) as first_due,
           max(r.renew_before_days) as renew_before_days
    from me
    cross join public.required_training r
    join public.courses c on c.id = r.course_id and c.status = 'ACTIVE'
    -- One person (the dashboard, the header notice) by primary key; everyone otherwise. Two branches
    -- gated on the parameter, so the one-person call never scans profiles whatever the plan.
    join (
      select pp.* from public.profiles pp where p_user_id is not null and pp.id = p_user_id
      union all
      select pa.* from public.profiles pa where p_user_id is null
    ) p
      on (r.role is null or p.role = r.role) and (r.service is null or p.services @> array[r.service])
    left join public.enrollments e on e.user_id = p.id and e.course_id = r.course_id
    where me.uid is not null
      and p.deactivated_at is null
      and (me.admin or p.id = me.uid or (me.role = 'INSTRUCTOR' and p.services && me.services))
      and (p_role is null or p.role = p_role)
      and (p_service is null or p.services @> array[p_service])
      and (p_course_id is null or r.course_id = p_course_id)
    group by p.id, r.course_id
  ),
  judged as (
    select q.*, p.username, p.name, case when me.admin or p.id = me.uid then p.email end as email,
           p.role, p.services, c.title, c.service as course_service,
           e.id as enrollment_id, coalesce(e.progress, 0) as progress,
           cert.id as certificate_id, cert.expires_at as certificate_expires_at,
           case when cert.id is not null then private.certificate_state(cert.expires_at, cert.revoked_at) end
             as certificate_state,
           case
             when cert.id is null then q.first_due
             when cert.expires_at is null then null
             when cert.expires_at <= now() then cert.expires_at
             else cert.expires_at - make_interval(days => q.renew_before_days)
           end as due_at
    from required q
    cross join me
    join public.profiles p on p.id = q.user_id
    join public.courses c on c.id = q.course_id
    left join public.enrollments e on e.user_id = q.user_id and e.course_id = q.course_id
    left join lateral (
      select ct.id, ct.expires_at, ct.revoked_at from public.certificates ct
      where ct.user_id = q.user_id and ct.course_id = q.course_id and ct.revoked_at is null
      order by ct.issued_at desc
      limit 1
    ) cert on true
  )
  select j.user_id, j.username, j.name, j.email, j.role, j.services, j.course_id, j.title, j.course_service,
         j.enrollment_id, j.progress, j.due_at,
         case
           when j.certificate_state in ('valid', 'expiring') then
             case when j.due_at is null
                    or j.due_at > now() + make_interval(days => private.required_training_due_soon_days())
                  then 'done' else 'due-soon' end
           when j.due_at <= now() then 'overdue'
           when j.due_at <= now() + make_interval(days => private.required_training_due_soon_days()) then 'due-soon'
           else 'in-progress'
         end,
         j.certificate_id, j.certificate_expires_at, j.certificate_state
  from judged j
$$;
