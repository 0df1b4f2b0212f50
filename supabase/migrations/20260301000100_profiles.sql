-- User profiles: the public face of auth.users (specification §3 User, docs/CONTRACTS.md). A profile
-- is created by trigger when Supabase Auth inserts a user, always as STUDENT; only admins change
-- role and services (a trigger refuses anyone else with 42501, whatever the UI does). The role
-- helpers used by every policy live here too, in schema private.

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username text not null,
  email text not null default '',
  name text not null,
  role public.user_role not null default 'STUDENT',
  services public.service_code[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint profiles_username_length check (char_length(username) between 3 and 50),
  constraint profiles_username_trimmed check (username = btrim(username)),
  constraint profiles_name_length check (char_length(btrim(name)) between 1 and 200),
  constraint profiles_email_length check (char_length(email) <= 255)
);
comment on table public.profiles is 'One row per auth.users user: username, name, role and services. Deleted with the user.';
comment on column public.profiles.username is 'Sign-in name, unique case-insensitively (profiles_username_lower_key).';
comment on column public.profiles.email is 'Copy of auth.users.email, kept in step by trigger.';
comment on column public.profiles.role is 'ADMIN, INSTRUCTOR or STUDENT; STUDENT at sign-up; changed only by admins.';
comment on column public.profiles.services is 'The services the user works in; instructors author courses only in these. Changed only by admins.';

create unique index profiles_username_lower_key on public.profiles (lower(username));
create index profiles_role_idx on public.profiles (role);

create trigger profiles_set_updated_at
  before update on public.profiles
  for each row execute function private.set_updated_at();

alter table public.profiles enable row level security;

-- Role helpers, evaluated once per statement when wrapped as (select private.x()).
create function private.is_admin() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.profiles p
    where p.id = (select auth.uid()) and p.role = 'ADMIN'
  )
$$;
comment on function private.is_admin() is 'True when the caller (auth.uid()) is an ADMIN.';

create function private.current_role() returns public.user_role
language sql stable security definer
set search_path = ''
as $$
  select p.role from public.profiles p where p.id = (select auth.uid())
$$;
comment on function private.current_role() is 'The caller''s role, or null for a visitor.';

create function private.current_services() returns public.service_code[]
language sql stable security definer
set search_path = ''
as $$
  select coalesce((select p.services from public.profiles p where p.id = (select auth.uid())), '{}')
$$;
comment on function private.current_services() is 'The caller''s services, empty for a visitor.';

revoke all on function private.is_admin(), private.current_role(), private.current_services() from public;
grant execute on function private.is_admin(), private.current_role(), private.current_services()
  to anon, authenticated, service_role;

-- Column privileges: id and timestamps are never written by API roles; the trigger below guards
-- role, services and username.
revoke insert, update on public.profiles from anon, authenticated;
grant update (username, email, name, role, services) on public.profiles to authenticated;

create function private.guard_profile_update() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- Only the API roles are checked; the service role and migrations manage accounts freely.
  if current_user in ('anon', 'authenticated') and not private.is_admin() then
    if new.role is distinct from old.role
       or new.services is distinct from old.services
       or new.username is distinct from old.username then
      raise exception 'Only an administrator may change role, services or username'
        using errcode = '42501';
    end if;
  end if;
  return new;
end;
$$;
comment on function private.guard_profile_update() is
  'Before-update trigger on profiles: a non-admin API caller may not change role, services or username (42501).';
revoke all on function private.guard_profile_update() from public;

create trigger profiles_guard_update
  before update on public.profiles
  for each row execute function private.guard_profile_update();

-- Sign-up: Supabase Auth inserts auth.users; the profile follows from raw_user_meta_data.
create function private.handle_new_user() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  v_username text := nullif(btrim(v_meta ->> 'username'), '');
  v_name text := nullif(btrim(v_meta ->> 'name'), '');
begin
  if v_username is null then
    -- Fallback: the email's local part, made long enough and unique.
    v_username := left(regexp_replace(split_part(coalesce(new.email, ''), '@', 1), '[^A-Za-z0-9._-]', '', 'g'), 40);
    if char_length(v_username) < 3 then
      v_username := v_username || 'user';
    end if;
    if exists (select 1 from public.profiles p where lower(p.username) = lower(v_username)) then
      v_username := v_username || '-' || left(replace(new.id::text, '-', ''), 8);
    end if;
  end if;
  insert into public.profiles (id, username, email, name, role, services)
  values (new.id, v_username, coalesce(new.email, ''), coalesce(v_name, v_username), 'STUDENT', '{}');
  return new;
end;
$$;
comment on function private.handle_new_user() is
  'After-insert trigger on auth.users: creates the STUDENT profile from raw_user_meta_data {username, name}, falling back to the email''s local part.';
revoke all on function private.handle_new_user() from public;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_user();

create function private.sync_profile_email() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.profiles set email = coalesce(new.email, '') where id = new.id;
  return new;
end;
$$;
comment on function private.sync_profile_email() is 'After-update trigger on auth.users: keeps profiles.email equal to the sign-in email.';
revoke all on function private.sync_profile_email() from public;

create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row when (new.email is distinct from old.email)
  execute function private.sync_profile_email();

-- Policies. Reading: a user reads their own profile, admins read all (instructors also read their
-- learners' profiles: that policy is completed in the enrolments migration).
create policy "users read their own profile and admins read all"
  on public.profiles for select to authenticated
  using (id = (select auth.uid()) or (select private.is_admin()));

create policy "users update their own profile and admins update any"
  on public.profiles for update to authenticated
  using (id = (select auth.uid()) or (select private.is_admin()))
  with check (id = (select auth.uid()) or (select private.is_admin()));

create policy "admins delete profiles"
  on public.profiles for delete to authenticated
  using ((select private.is_admin()));
