-- Administration (issue 5): an audit trail written only by triggers, last-admin protection, the
-- role × service matrix computed in SQL, bulk role services in one statement, user deletion in one
-- transaction, the contact email for signed-in users, and indexes for the admin user search.

-- ---------------------------------------------------------------- audit trail

create table public.audit_events (
  id bigint generated always as identity primary key,
  occurred_at timestamptz not null default now(),
  -- No foreign key: the trail outlives the people and rows it names.
  actor_id uuid,
  actor_name text,
  actor_username text,
  action text not null,
  target_type text not null,
  target_id uuid,
  target_label text,
  old_data jsonb,
  new_data jsonb
);
comment on table public.audit_events is
  'Who changed what and when: written by triggers only (role/services, users created/deleted, settings, course deletions); read by admins.';
comment on column public.audit_events.actor_id is 'auth.uid() of the caller; for accounts created through the Auth admin API, app_metadata.created_by.';
comment on column public.audit_events.actor_name is 'The actor''s name when the event happened (kept after the actor is deleted).';

create index audit_events_occurred_at_idx on public.audit_events (occurred_at desc, id desc);
create index audit_events_target_id_idx on public.audit_events (target_id);

alter table public.audit_events enable row level security;
revoke all on public.audit_events from anon, authenticated;
grant select on public.audit_events to authenticated;

create policy "admins read the audit trail"
  on public.audit_events for select to authenticated
  using ((select private.is_admin()));

create function private.write_audit(
  p_action text, p_target_type text, p_target_id uuid, p_target_label text,
  p_old jsonb, p_new jsonb, p_actor uuid default null
) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_actor uuid := coalesce(p_actor, auth.uid());
  v_name text;
  v_username text;
begin
  if v_actor is not null then
    select p.name, p.username into v_name, v_username from public.profiles p where p.id = v_actor;
  end if;
  insert into public.audit_events (actor_id, actor_name, actor_username, action, target_type, target_id, target_label, old_data, new_data)
  values (v_actor, v_name, v_username, p_action, p_target_type, p_target_id, p_target_label, p_old, p_new);
end;
$$;
comment on function private.write_audit(text, text, uuid, text, jsonb, jsonb, uuid) is 'Appends one audit event; the actor defaults to auth.uid().';
revoke all on function private.write_audit(text, text, uuid, text, jsonb, jsonb, uuid) from public;

-- Profiles created: by sign-up (actor = the new user, or nobody) or by an admin through the Auth
-- admin API, which the function stamps with app_metadata.created_by (only the service role can).
create function private.audit_profile_insert() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_created_by uuid;
begin
  begin
    select nullif(u.raw_app_meta_data ->> 'created_by', '')::uuid into v_created_by
    from auth.users u where u.id = new.id;
  exception when invalid_text_representation then
    v_created_by := null;
  end;
  perform private.write_audit('user.created', 'user', new.id, new.username, null,
    jsonb_build_object('username', new.username, 'email', new.email, 'name', new.name, 'role', new.role, 'services', new.services),
    coalesce(auth.uid(), v_created_by));
  return null;
end;
$$;
revoke all on function private.audit_profile_insert() from public;
create trigger profiles_audit_insert
  after insert on public.profiles
  for each row execute function private.audit_profile_insert();

create function private.audit_profile_delete() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.write_audit('user.deleted', 'user', old.id, old.username,
    jsonb_build_object('username', old.username, 'email', old.email, 'name', old.name, 'role', old.role, 'services', old.services),
    null);
  return null;
end;
$$;
revoke all on function private.audit_profile_delete() from public;
create trigger profiles_audit_delete
  after delete on public.profiles
  for each row execute function private.audit_profile_delete();

-- Role/services changes, per statement: one event per user for a single edit, one summary event for
-- a bulk update (a role's services set for 100,000 students must not write 100,000 events).
create function private.audit_profile_update() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_count integer;
  v_one record;
begin
  select count(*) into v_count
  from new_rows n join old_rows o on o.id = n.id
  where n.role is distinct from o.role or n.services is distinct from o.services;
  if v_count = 0 then
    return null;
  end if;
  if v_count = 1 then
    select n.id, n.username, o.role as old_role, o.services as old_services, n.role as new_role, n.services as new_services
      into v_one
    from new_rows n join old_rows o on o.id = n.id
    where n.role is distinct from o.role or n.services is distinct from o.services;
    perform private.write_audit('user.permissions_changed', 'user', v_one.id, v_one.username,
      jsonb_build_object('role', v_one.old_role, 'services', v_one.old_services),
      jsonb_build_object('role', v_one.new_role, 'services', v_one.new_services));
  else
    perform private.write_audit('users.permissions_changed', 'users', null, v_count::text || ' users',
      (select jsonb_build_object('roles', jsonb_agg(distinct o.role), 'services', jsonb_agg(distinct o.services))
         from new_rows n join old_rows o on o.id = n.id
         where n.role is distinct from o.role or n.services is distinct from o.services),
      (select jsonb_build_object('roles', jsonb_agg(distinct n.role), 'services', jsonb_agg(distinct n.services), 'count', v_count)
         from new_rows n join old_rows o on o.id = n.id
         where n.role is distinct from o.role or n.services is distinct from o.services));
  end if;
  return null;
end;
$$;
revoke all on function private.audit_profile_update() from public;
create trigger profiles_audit_update
  after update on public.profiles
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.audit_profile_update();

-- Settings: only the fields that changed.
create function private.audit_settings_update() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_old jsonb := to_jsonb(old) - 'id' - 'created_at' - 'updated_at';
  v_new jsonb := to_jsonb(new) - 'id' - 'created_at' - 'updated_at';
  v_key text;
  v_old_changed jsonb := '{}'::jsonb;
  v_new_changed jsonb := '{}'::jsonb;
begin
  for v_key in select jsonb_object_keys(v_new) loop
    if v_old -> v_key is distinct from v_new -> v_key then
      v_old_changed := v_old_changed || jsonb_build_object(v_key, v_old -> v_key);
      v_new_changed := v_new_changed || jsonb_build_object(v_key, v_new -> v_key);
    end if;
  end loop;
  if v_new_changed <> '{}'::jsonb then
    perform private.write_audit('settings.updated', 'settings', null, 'System settings', v_old_changed, v_new_changed);
  end if;
  return null;
end;
$$;
revoke all on function private.audit_settings_update() from public;
create trigger settings_audit_update
  after update on public.settings
  for each row execute function private.audit_settings_update();

create function private.audit_course_delete() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.write_audit('course.deleted', 'course', old.id, old.title,
    jsonb_build_object('title', old.title, 'service', old.service, 'status', old.status, 'authorId', old.author_id),
    null);
  return null;
end;
$$;
revoke all on function private.audit_course_delete() from public;
create trigger courses_audit_delete
  after delete on public.courses
  for each row execute function private.audit_course_delete();

-- ---------------------------------------------------------------- last administrator

-- Whoever asks (an admin through the API, the Auth service deleting a user, a migration), the last
-- ADMIN may be neither demoted nor deleted. The advisory lock serialises two admins demoting each
-- other at once.
create function private.guard_last_admin() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if old.role <> 'ADMIN' or (tg_op = 'UPDATE' and new.role = 'ADMIN') then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  perform pg_advisory_xact_lock(hashtext('public.profiles last admin'));
  if not exists (select 1 from public.profiles p where p.role = 'ADMIN' and p.id <> old.id) then
    raise exception 'The last administrator cannot be demoted or deleted'
      using errcode = 'P0409', hint = 'Make another user an administrator first.';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;
comment on function private.guard_last_admin() is
  'Before update/delete on profiles: refuses (P0409) to demote or delete the only ADMIN.';
revoke all on function private.guard_last_admin() from public;
create trigger profiles_guard_last_admin
  before update of role or delete on public.profiles
  for each row execute function private.guard_last_admin();

-- ---------------------------------------------------------------- admin operations

-- Deletes a user's Auth account (profile, enrolments and progress cascade; certificates keep their
-- snapshot) in the caller's transaction, so the audit event names the admin who did it.
create function private.delete_user(p_user_id uuid) returns boolean
language plpgsql security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may delete users' using errcode = '42501';
  end if;
  delete from auth.users where id = p_user_id;
  return found;
end;
$$;
comment on function private.delete_user(uuid) is 'Admins only: deletes the auth.users row (cascading to the profile); false when there is none.';
revoke all on function private.delete_user(uuid) from public;
grant execute on function private.delete_user(uuid) to authenticated;

-- Replaces the services of every user holding a role, in one statement, under the caller's RLS
-- (only admins may change services: the guard trigger refuses anyone else).
create function private.set_role_services(p_role public.user_role, p_services public.service_code[]) returns integer
language plpgsql security invoker
set search_path = ''
as $$
declare
  v_count integer;
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may change role services' using errcode = '42501';
  end if;
  update public.profiles
  set services = (select coalesce(array_agg(distinct s order by s), '{}') from unnest(p_services) s)
  where role = p_role;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
comment on function private.set_role_services(public.user_role, public.service_code[]) is
  'Admins only: sets the services of every user with the role; returns how many users it changed.';
revoke all on function private.set_role_services(public.user_role, public.service_code[]) from public;
grant execute on function private.set_role_services(public.user_role, public.service_code[]) to authenticated;

-- The role × service matrix: per role, how many users and how many hold each service. One scan.
create function private.role_service_matrix()
returns table (role public.user_role, users bigint, service public.service_code, holders bigint)
language plpgsql stable security invoker
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may read the permission matrix' using errcode = '42501';
  end if;
  return query
  with counts as (
    select p.role, count(*) as users,
      count(*) filter (where 'UKPS' = any (p.services)) as ukps,
      count(*) filter (where 'UKAS' = any (p.services)) as ukas,
      count(*) filter (where 'UKFRS' = any (p.services)) as ukfrs,
      count(*) filter (where 'UKHW' = any (p.services)) as ukhw,
      count(*) filter (where 'AUX' = any (p.services)) as aux,
      count(*) filter (where 'MISC' = any (p.services)) as misc
    from public.profiles p
    group by p.role
  )
  select r.role, coalesce(c.users, 0),
    s.service,
    coalesce(case s.service
      when 'UKPS' then c.ukps when 'UKAS' then c.ukas when 'UKFRS' then c.ukfrs
      when 'UKHW' then c.ukhw when 'AUX' then c.aux else c.misc end, 0)
  from unnest(enum_range(null::public.user_role)) as r(role)
  cross join unnest(enum_range(null::public.service_code)) as s(service)
  left join counts c on c.role = r.role
  order by r.role, s.service;
end;
$$;
comment on function private.role_service_matrix() is
  'Admins only: for each role and service, the users of the role and how many of them hold the service.';
revoke all on function private.role_service_matrix() from public;
grant execute on function private.role_service_matrix() to authenticated;

-- The contact shown to signed-in users (footer). Visitors get null: the address is not published to
-- the open web, and only admins read admin_email itself through GET /api/settings.
create function private.contact_email() returns text
language sql stable security definer
set search_path = ''
as $$
  select case when (select auth.uid()) is not null
    then (select s.admin_email from public.settings s where s.id) end
$$;
comment on function private.contact_email() is 'settings.admin_email for a signed-in caller, null for a visitor.';
revoke all on function private.contact_email() from public;
grant execute on function private.contact_email() to anon, authenticated;

-- ---------------------------------------------------------------- user search indexes

-- Paging newest first, and the service filter (services @> array[...]).
create index profiles_created_at_idx on public.profiles (created_at desc, id desc);
create index profiles_services_idx on public.profiles using gin (services);

-- Substring search over name, username and email: a trigram index serves `like '%term%'`.
-- pg_trgm is available on hosted Supabase, on Postgres with contrib, and in the local PGlite.
create extension if not exists pg_trgm with schema extensions;
create index profiles_search_trgm_idx on public.profiles using gin
  (lower(name || ' ' || username || ' ' || email) extensions.gin_trgm_ops);
