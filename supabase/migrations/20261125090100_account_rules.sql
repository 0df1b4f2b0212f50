-- The registration rules hold for every account, whatever route created it (security findings
-- 16.2 and 16.5). `POST /auth/v1/signup` with the anon key reaches Auth without `/api/register`, and
-- with it private.handle_new_user, which took `data.username` and `data.name` as they came: a
-- username equal to someone else's email (sign-in then resolved it as a username and the email's
-- owner was refused), one with a zero-width space that looks like `admin`, markup or a formula.
-- Now:
-- - profiles.username matches the pattern and length of /api/register (letters, digits, dot, dash,
--   underscore; 3 to 50), so it never holds an `@` and never equals an email; it stays unique
--   without regard to case (profiles_username_lower_key);
-- - profiles.name holds no control, zero-width or bidirectional-override character and is in NFC;
-- - a new account's user metadata is at most 2 KB, and so is any later change to it;
-- - private.login_email matches an identifier with `@` against emails only, and any other against
--   usernames only;
-- - profiles.email follows auth.users.email and nothing else: no API role may write it.

-- ---------------------------------------------------------------- profiles: what a row may hold

-- Characters a name may not hold: C0 and C1 controls, soft hyphen, zero-width and joiners,
-- directional marks, line and paragraph separators, embeddings and overrides, invisible operators,
-- isolates, the byte-order mark.
create function private.has_invisible_characters(p_text text) returns boolean
language sql immutable
set search_path = ''
as $$
  select p_text ~ '[\u0001-\u001F\u007F-\u009F\u00AD\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]'
$$;
comment on function private.has_invisible_characters(text) is
  'True when the text holds a control, zero-width, directional or other invisible formatting character.';
revoke all on function private.has_invisible_characters(text) from public, anon;
grant execute on function private.has_invisible_characters(text) to authenticated, service_role;

alter table public.profiles
  add constraint profiles_username_pattern check (username ~ '^[A-Za-z0-9_.-]{3,50}$'),
  add constraint profiles_name_visible check (not private.has_invisible_characters(name) and name = normalize(name, NFC));
comment on constraint profiles_username_pattern on public.profiles is
  'The username rule of /api/register: letters, digits, dot, dash and underscore, 3 to 50 (so never an email).';
comment on constraint profiles_name_visible on public.profiles is
  'No control, zero-width or bidirectional-override character; normalised to NFC.';

-- ---------------------------------------------------------------- new accounts

create or replace function private.handle_new_user() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  v_username text := nullif(btrim(v_meta ->> 'username'), '');
  v_name text := nullif(btrim(normalize(v_meta ->> 'name', NFC)), '');
  v_role public.user_role := 'STUDENT';
  v_services public.service_code[] := '{}';
begin
  if v_username is not null and v_username !~ '^[A-Za-z0-9_.-]{3,50}$' then
    raise exception 'Username may contain only letters, numbers, dots, dashes and underscores (3 to 50)'
      using errcode = '23514', hint = 'username_invalid';
  end if;
  if v_name is not null and (private.has_invisible_characters(v_name) or char_length(v_name) > 100) then
    raise exception 'Name may not contain invisible or control characters, and at most 100 characters'
      using errcode = '23514', hint = 'name_invalid';
  end if;
  select r.role, r.services into v_role, v_services
  from private.user_import_rows r where r.user_id = new.id;
  if not found then
    v_role := 'STUDENT';
    v_services := '{}';
  end if;
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
  values (new.id, v_username, coalesce(new.email, ''), coalesce(v_name, v_username), v_role, v_services);
  return new;
end;
$$;
comment on function private.handle_new_user() is
  'After-insert trigger on auth.users: creates the profile from raw_user_meta_data {username, name} under the registration rules (23514 otherwise), falling back to the email''s local part; STUDENT without services, or the role and services staged by private.import_users.';

-- Metadata is copied into no other column after sign-up, but a client may write it at sign-up and
-- through `PUT /auth/v1/user`: keep it small.
create function private.guard_user_metadata() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if octet_length(coalesce(new.raw_user_meta_data, '{}'::jsonb)::text) > 2048 then
    raise exception 'User metadata is limited to 2 KB' using errcode = '23514', hint = 'metadata_too_large';
  end if;
  return new;
end;
$$;
comment on function private.guard_user_metadata() is
  'Before-insert and update trigger on auth.users: raw_user_meta_data at most 2 KB (23514).';
revoke all on function private.guard_user_metadata() from public, anon, authenticated;

create trigger on_auth_user_metadata_guard
  before insert or update of raw_user_meta_data on auth.users
  for each row execute function private.guard_user_metadata();

-- ---------------------------------------------------------------- sign-in

create or replace function private.login_email(p_identifier text) returns text
language sql stable security definer
set search_path = ''
as $$
  select case
    when position('@' in p_identifier) > 0 then
      (select u.email from auth.users u where lower(u.email) = lower(btrim(p_identifier)) limit 1)
    else
      (select u.email from public.profiles p join auth.users u on u.id = p.id
        where lower(p.username) = lower(btrim(p_identifier)) limit 1)
  end
$$;
comment on function private.login_email(text) is
  'The sign-in email for an email (an identifier with @, matched against emails only) or a username (matched against usernames only, ignoring case); null when none.';

-- ---------------------------------------------------------------- profiles.email follows Auth

-- private.sync_profile_email (after update of auth.users.email) is the only writer now, so the
-- guard that checked API callers' own writes has nothing left to guard.
revoke update (email) on public.profiles from authenticated;
drop trigger profiles_guard_email on public.profiles;
drop function private.guard_profile_email();
