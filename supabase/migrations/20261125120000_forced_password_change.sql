-- Forced password change (issue 15): a person given a temporary password (created by an admin, or
-- imported from a CSV file) must choose a new one at their first sign-in before anything else.
--
-- The flag is profiles.must_change_password. No API role holds a column privilege on it
-- (authenticated may update only username, email, name, role and services), so only the trusted
-- path writes it: the sign-up trigger below (from the Auth user's app_metadata, which only the
-- service role can write, or from a row staged by private.import_users) and the service role
-- (the function clears it after a successful password change). While it is set:
--   * the api function answers 403 {code: 'password_change_required'} on every route except the
--     password change, sign-out, the current user and the public settings;
--   * the database refuses the person's own profile changes (name, email) made straight through
--     the database API (42501), so a temporary password cannot be used to take over the account's
--     contact address before the person has chosen their own password.

alter table public.profiles add column must_change_password boolean not null default false;
comment on column public.profiles.must_change_password is
  'True while the person still signs in with a temporary password given by an administrator; written only by the sign-up trigger and the service role.';

-- Set at birth, before the profile row is written: the Auth user carries app_metadata
-- {must_change_password: true} (admin create), or the row was staged by an import.
create function private.profile_password_change_at_birth() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if exists (select 1 from private.user_import_rows r where r.user_id = new.id)
     or exists (
       select 1 from auth.users u
       where u.id = new.id and coalesce(u.raw_app_meta_data ->> 'must_change_password', '') = 'true'
     ) then
    new.must_change_password := true;
  elsif current_user in ('anon', 'authenticated') then
    new.must_change_password := false;
  end if;
  return new;
end;
$$;
comment on function private.profile_password_change_at_birth() is
  'Before-insert trigger on profiles: must_change_password is true for a user created by an admin with app_metadata.must_change_password or by private.import_users.';
revoke all on function private.profile_password_change_at_birth() from public;

create trigger profiles_password_change_at_birth
  before insert on public.profiles
  for each row execute function private.profile_password_change_at_birth();

-- The caller still has to choose a password.
create function private.password_change_pending() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce((select p.must_change_password from public.profiles p where p.id = (select auth.uid())), false)
$$;
comment on function private.password_change_pending() is
  'True when the caller (auth.uid()) still signs in with a temporary password and must choose a new one.';
revoke all on function private.password_change_pending() from public;
grant execute on function private.password_change_pending() to authenticated, service_role;

-- A person with a pending change may not edit their own profile through the database API; an
-- admin editing someone else's profile is not affected (unless the admin has a pending change).
create function private.guard_profile_pending_password() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and private.password_change_pending() then
    raise exception 'Choose a new password before changing anything else' using errcode = '42501';
  end if;
  if current_user in ('anon', 'authenticated')
     and new.must_change_password is distinct from old.must_change_password then
    raise exception 'Only the password change may clear must_change_password' using errcode = '42501';
  end if;
  return new;
end;
$$;
comment on function private.guard_profile_pending_password() is
  'Before-update trigger on profiles: an API caller who must still choose a new password changes no profile (42501); no API caller changes must_change_password.';
revoke all on function private.guard_profile_pending_password() from public;

create trigger profiles_guard_pending_password
  before update on public.profiles
  for each row execute function private.guard_profile_pending_password();
