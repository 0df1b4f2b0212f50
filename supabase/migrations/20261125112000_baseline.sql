-- Baseline: the whole schema as supabase/schemas/*.sql held it on 25 November 2026, those files
-- concatenated in order. It replaces the 49 migrations that built the schema before anything was
-- deployed (a database built from them and one built from this file have no difference). Later
-- changes are new migrations written by `npm run db:diff -- <name>` (supabase/schemas/README.md).

-- ===========================================================================
-- supabase/schemas/00_foundations_and_roles.sql
-- ===========================================================================

-- Foundations: what every other file builds on.
--
-- * The vocabularies as enums (services, roles, course states, access rules, templates).
-- * The `private` schema for security-definer helpers and trigger functions. config.toml exposes
--   only `public` to the API, so nothing in `private` can be called over HTTP; the API roles get
--   usage on the schema and execute only on the functions granted by name.
-- * The policy helpers the row-level security policies call (who is an admin, which courses the
--   caller authored, and so on). Security definer, so they read the tables without recursing into
--   the policies that call them; the policies wrap them in `(select ...)` so that each runs once
--   per statement, not once per row. PL/pgSQL rather than SQL: a security-definer function is
--   never inlined, and PL/pgSQL keeps its plan for the connection where SQL would plan its body
--   again in every statement (docs/PERFORMANCE.md).
--
-- The API roles (anon, authenticated, service_role) and the auth and storage schemas come with
-- Supabase (platform/bootstrap.sql creates the same for the local platform and the tests).

create schema if not exists private;
comment on schema private is
  'Security-definer helpers and trigger functions; not exposed by the API. Execute is granted per function.';
grant usage on schema private to anon, authenticated, service_role;

-- Fuzzy search (trigram indexes) for the course, user, certificate and audit searches.
create extension if not exists pg_trgm with schema extensions;

-- Functions are executable by PUBLIC by default (a schema's default privileges cannot take that
-- away), so every function below revokes it and grants execute by name to the roles that need it.

-- Row-level security does not govern TRUNCATE, REFERENCES or TRIGGER: the API roles get none of them.
alter default privileges in schema public revoke truncate, references, trigger on tables from anon, authenticated;

-- ---------------------------------------------------------------------------
-- Types
-- ---------------------------------------------------------------------------

create type public.service_code as enum ('UKPS', 'UKAS', 'UKFRS', 'UKHW', 'AUX', 'MISC');
comment on type public.service_code is
  'The six emergency-service categories: police, ambulance, fire and rescue, highways, auxiliary, miscellaneous.';

create type public.user_role as enum ('ADMIN', 'INSTRUCTOR', 'STUDENT');
comment on type public.user_role is 'What a user may do: administer, author courses, or learn.';

create type public.course_status as enum ('DRAFT', 'ACTIVE', 'ARCHIVED');
comment on type public.course_status is 'ACTIVE is shown as Published; only ACTIVE courses are visible to learners and visitors.';

create type public.course_level as enum ('BEGINNER', 'INTERMEDIATE', 'ADVANCED');
comment on type public.course_level is 'Shown as Beginner, Intermediate, Advanced.';

create type public.question_type as enum ('MULTIPLE_CHOICE', 'TRUE_FALSE');
comment on type public.question_type is 'How a quiz question is answered.';

create type public.course_access as enum ('public-login', 'public-enroll', 'login-browse', 'login-approval');
comment on type public.course_access is
  'Site-wide access rule: public-login (default), public-enroll, login-browse (visitors see no course), login-approval (enrolments start pending).';

create type public.certificate_template as enum ('standard', 'professional', 'service', 'custom');
comment on type public.certificate_template is 'Look of the certificate PDF; service is shown as Service-Specific.';

create type public.enrollment_status as enum ('PENDING', 'ACTIVE');
comment on type public.enrollment_status is
  'PENDING: waiting for an instructor of the course or an admin to approve (course access login-approval); ACTIVE: enrolled.';

-- ---------------------------------------------------------------------------
-- Policy helpers and shared functions
-- ---------------------------------------------------------------------------

-- Shared trigger function: every table with updated_at keeps it current.
create function private.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
comment on function private.set_updated_at() is
  'Before-update trigger: stamps updated_at.';
revoke all on function private.set_updated_at() from public;

create function private.is_admin()
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select exists (
      select 1 from public.profiles p
      where p.id = (select auth.uid()) and p.role = 'ADMIN'
    )
  );
end;
$$;
comment on function private.is_admin() is
  'True when the caller (auth.uid()) is an ADMIN.';
revoke all on function private.is_admin() from public;
grant execute on function private.is_admin() to anon, authenticated, service_role;

create function private."current_role"()
returns public.user_role
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select p.role from public.profiles p where p.id = (select auth.uid())
  );
end;
$$;
comment on function private."current_role"() is
  'The caller''s role, or null for a visitor.';
revoke all on function private."current_role"() from public;
grant execute on function private."current_role"() to anon, authenticated, service_role;

create function private.current_services()
returns public.service_code[]
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select coalesce((select p.services from public.profiles p where p.id = (select auth.uid())), '{}')
  );
end;
$$;
comment on function private.current_services() is
  'The caller''s services, empty for a visitor.';
revoke all on function private.current_services() from public;
grant execute on function private.current_services() to anon, authenticated, service_role;

create function private.course_access()
returns public.course_access
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select coalesce(
      (select s.course_access from public.settings s where s.id),
      'public-login'::public.course_access
    )
  );
end;
$$;
comment on function private.course_access() is
  'The current course-access rule (public-login when no settings row).';
revoke all on function private.course_access() from public;
grant execute on function private.course_access() to anon, authenticated, service_role;

create function private.authored_course_ids()
returns setof uuid
language plpgsql
 STABLE SECURITY DEFINER ROWS 20
set search_path = ''
as $$
begin
  return query
    select c.id from public.courses c
    where c.author_id = (select auth.uid())
      and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN');
end;
$$;
comment on function private.authored_course_ids() is
  'Ids of the courses the caller authors (as instructor or admin).';
revoke all on function private.authored_course_ids() from public;
grant execute on function private.authored_course_ids() to authenticated, service_role;

create function private.authored_module_ids()
returns setof uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  -- Joined through courses.author_id rather than `in (select private.authored_course_ids())`, whose
  -- row count the planner cannot know: a plan kept for the connection must suit every instructor.
  return query
    select m.id from public.courses c
    join public.course_modules m on m.course_id = c.id
    where c.author_id = (select auth.uid())
      and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN');
end;
$$;
comment on function private.authored_module_ids() is
  'Ids of the modules of the courses the caller authors.';
revoke all on function private.authored_module_ids() from public;
grant execute on function private.authored_module_ids() to authenticated, service_role;

create function private.authored_quiz_ids()
returns setof uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select q.id from public.courses c
    join public.course_modules m on m.course_id = c.id
    join public.quizzes q on q.module_id = m.id
    where c.author_id = (select auth.uid())
      and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN');
end;
$$;
comment on function private.authored_quiz_ids() is
  'Ids of the quizzes of the courses the caller authors.';
revoke all on function private.authored_quiz_ids() from public;
grant execute on function private.authored_quiz_ids() to authenticated, service_role;

create function private.learner_ids_of_authored_courses()
returns setof uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select e.user_id from public.courses c
    join public.enrollments e on e.course_id = c.id
    where c.author_id = (select auth.uid())
      and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN');
end;
$$;
comment on function private.learner_ids_of_authored_courses() is
  'Users enrolled on the courses the caller authors.';
revoke all on function private.learner_ids_of_authored_courses() from public;
grant execute on function private.learner_ids_of_authored_courses() to authenticated, service_role;

create function private.manages_required_training(p_course_id uuid, p_service public.service_code)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select coalesce(
      private.is_admin()
      or (
        private.current_role() = 'INSTRUCTOR'
        and p_course_id in (select private.authored_course_ids())
        and p_service in (select unnest(private.current_services()))
      ),
      false)
  );
end;
$$;
comment on function private.manages_required_training(uuid,public.service_code) is
  'True when the caller may manage a required_training rule of this course and service (admin; or instructor, own course, own service).';
revoke all on function private.manages_required_training(uuid,public.service_code) from public;
grant execute on function private.manages_required_training(uuid,public.service_code) to
  authenticated, service_role;

create function private.visible_course_statuses()
returns public.course_status[]
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select case when private.is_admin() then enum_range(null::public.course_status)
                else array['ACTIVE'::public.course_status] end
  );
end;
$$;
comment on function private.visible_course_statuses() is
  'The course statuses the caller sees regardless of authorship: all for an admin, ACTIVE for anyone else.';
revoke all on function private.visible_course_statuses() from public;
grant execute on function private.visible_course_statuses() to authenticated, service_role;

-- Characters a name may not hold: C0 and C1 controls, soft hyphen, zero-width and joiners,
-- directional marks, line and paragraph separators, embeddings and overrides, invisible operators,
-- isolates, the byte-order mark.
create function private.has_invisible_characters(p_text text)
returns boolean
language sql immutable
set search_path = ''
as $$
  select p_text ~ '[\u0001-\u001F\u007F-\u009F\u00AD\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]'
$$;
comment on function private.has_invisible_characters(text) is
  'True when the text holds a control, zero-width, directional or other invisible formatting character.';
revoke all on function private.has_invisible_characters(text) from public;
grant execute on function private.has_invisible_characters(text) to authenticated, service_role;

-- ===========================================================================
-- supabase/schemas/01_profiles_and_settings.sql
-- ===========================================================================

-- People and the site's settings.
--
-- * profiles: one row per auth.users user (made by the sign-up trigger on auth.users). A user
--   reads and edits their own profile; only admins change role, services or username or deactivate
--   a person (private.set_user_active), and only the trusted path (the sign-up trigger and the
--   service role) sets must_change_password.
-- * settings: one row, readable by everyone (the site name, footer and course-access rule shape
--   every screen) except admin_email, which only admins see (column privileges hide it).
-- * The admin user search: each profile's words in private.profile_search_words, kept by
--   statement triggers, so a search reads an index instead of scanning every profile.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username text not null,
  email text not null default '',
  name text not null,
  role public.user_role not null default 'STUDENT',
  services public.service_code[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deactivated_at timestamptz,
  must_change_password boolean not null default false,
  constraint profiles_username_length check (char_length(username) between 3 and 50),
  constraint profiles_username_trimmed check (username = btrim(username)),
  constraint profiles_name_length check (char_length(btrim(name)) between 1 and 200),
  constraint profiles_email_length check (char_length(email) <= 255),
  constraint profiles_username_pattern check (username ~ '^[A-Za-z0-9_.-]{3,50}$'),
  constraint profiles_name_visible check (not private.has_invisible_characters(name) and name = normalize(name, NFC))
);

create table public.settings (
  id boolean primary key default true,
  site_name text not null default 'Emergency Services Learning v3',
  admin_email text not null default 'admin@emergency-services-learning.uk',
  course_access public.course_access not null default 'public-login',
  certificate_template public.certificate_template not null default 'standard',
  footer_text text not null default '© 2026 Emergency Services Learning. All rights reserved.',
  enable_analytics boolean not null default true,
  auto_enrollment boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint settings_single_row check (id),
  constraint settings_site_name_present check (char_length(btrim(site_name)) between 1 and 200),
  constraint settings_admin_email_shape check (admin_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$')
);

create table private.profile_search_words (
  word text collate "C" not null,
  profile_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null,
  primary key (word, profile_id) include (created_at)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on constraint profiles_name_visible on public.profiles is
  'No control, zero-width or bidirectional-override character; normalised to NFC.';

comment on constraint profiles_username_pattern on public.profiles is
  'The username rule of /api/register: letters, digits, dot, dash and underscore, 3 to 50 (so never an email).';

comment on table public.profiles is
  'One row per auth.users user: username, name, role and services. Deleted with the user.';

comment on column public.profiles.username is
  'Sign-in name, unique case-insensitively (profiles_username_lower_key).';

comment on column public.profiles.email is
  'Copy of auth.users.email, kept in step by trigger.';

comment on column public.profiles.role is
  'ADMIN, INSTRUCTOR or STUDENT; STUDENT at sign-up; changed only by admins.';

comment on column public.profiles.services is
  'The services the user works in; instructors author courses only in these. Changed only by admins.';

comment on column public.profiles.deactivated_at is
  'When an admin deactivated the person (a leaver): they cannot sign in; null while active. Written only by private.set_user_active.';

comment on column public.profiles.must_change_password is
  'True while the person still signs in with a temporary password given by an administrator; written only by the sign-up trigger and the service role.';

comment on table public.settings is
  'The single row of system settings (id is always true).';

comment on column public.settings.id is
  'Always true: the primary key allows one row only.';

comment on column public.settings.admin_email is
  'Administrator contact; hidden from non-admins (column privilege), read via private.admin_email().';

comment on column public.settings.course_access is
  'Who may browse and enrol: enforced by the course and enrolment policies.';

comment on column public.settings.certificate_template is
  'Template used for certificates issued from now on.';

comment on column public.settings.enable_analytics is
  'When off, analytics views say so instead of showing figures.';

comment on column public.settings.auto_enrollment is
  'When on, a newly registered user is enrolled in every featured published course.';

comment on table private.profile_search_words is
  'Each profile''s words (runs of letters and digits of lower(name || '' '' || username || '' '' || email)) with its created_at, kept by the triggers on public.profiles; read by private.user_search_page.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create unique index profiles_username_lower_key on public.profiles (lower(username));

create index profiles_role_idx on public.profiles (role);

-- Paging newest first, and the service filter (services @> array[...]).
create index profiles_created_at_idx on public.profiles (created_at desc, id desc);

create index profiles_services_idx on public.profiles using gin (services);

create index profiles_search_trgm_idx on public.profiles using gin
  (lower(name || ' ' || username || ' ' || email) extensions.gin_trgm_ops);

-- The admin clash checks and private.email_taken compare lower(profiles.email): an index for them.
create index profiles_email_lower_idx on public.profiles (lower(email));

-- Deactivated people are few: the status filter of the Users list reads them by this index.
create index profiles_deactivated_idx on public.profiles (created_at desc, id desc) where deactivated_at is not null;

-- A profile's words are found by its id when it changes or goes.
create index profile_search_words_profile_id_idx on private.profile_search_words (profile_id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.profiles enable row level security;

alter table public.settings enable row level security;

alter table private.profile_search_words enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "users update their own profile and admins update any"
  on public.profiles for update to authenticated
  using (id = (select auth.uid()) or (select private.is_admin()))
  with check (id = (select auth.uid()) or (select private.is_admin()));

create policy "admins delete profiles"
  on public.profiles for delete to authenticated
  using ((select private.is_admin()));

create policy "users read own profile, authors their learners', admins all"
  on public.profiles for select to authenticated
  using (
    id = (select auth.uid())
    or (select private.is_admin())
    or id in (select private.learner_ids_of_authored_courses())
  );

create policy "everyone reads the settings"
  on public.settings for select to anon
  using (true);

create policy "signed-in users read the settings"
  on public.settings for select to authenticated
  using (true);

create policy "admins update the settings"
  on public.settings for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy "no direct access" on private.profile_search_words as restrictive for all to public
  using (false) with check (false);

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.profiles from anon, authenticated, service_role;
grant select, delete on public.profiles to anon, authenticated;
grant all on public.profiles to service_role;
grant update (username, name, role, services) on public.profiles to authenticated;

revoke all on public.settings from anon, authenticated, service_role;
grant all on public.settings to service_role;
grant select (id, site_name, course_access, certificate_template, footer_text, enable_analytics,
  auto_enrollment, created_at, updated_at) on public.settings to anon, authenticated;
grant update (site_name, admin_email, course_access, certificate_template, footer_text,
  enable_analytics, auto_enrollment) on public.settings to authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.guard_profile_update()
returns trigger
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

create function private.handle_new_user()
returns trigger
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
revoke all on function private.handle_new_user() from public;

create function private.sync_profile_email()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.profiles set email = coalesce(new.email, '') where id = new.id;
  return new;
end;
$$;
comment on function private.sync_profile_email() is
  'After-update trigger on auth.users: keeps profiles.email equal to the sign-in email.';
revoke all on function private.sync_profile_email() from public;

create function private.admin_email()
returns text
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may read the admin email' using errcode = '42501';
  end if;
  return (select s.admin_email from public.settings s where s.id);
end;
$$;
comment on function private.admin_email() is
  'settings.admin_email for admins; 42501 for anyone else (the service role reads the table directly).';
revoke all on function private.admin_email() from public;
grant execute on function private.admin_email() to authenticated;

create function private.login_email(p_identifier text)
returns text
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
revoke all on function private.login_email(text) from public;
grant execute on function private.login_email(text) to service_role;

create function private.username_taken(p_username text)
returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from public.profiles p where lower(p.username) = lower(btrim(p_username)))
$$;
comment on function private.username_taken(text) is
  'True when a profile already has this username, ignoring case.';
revoke all on function private.username_taken(text) from public;
grant execute on function private.username_taken(text) to service_role;

create function private.email_taken(p_email text)
returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from auth.users u where lower(u.email) = lower(btrim(p_email)))
      or exists (select 1 from public.profiles p where lower(p.email) = lower(btrim(p_email)))
$$;
comment on function private.email_taken(text) is
  'True when a user already has this email, ignoring case.';
revoke all on function private.email_taken(text) from public;
grant execute on function private.email_taken(text) to service_role;

-- Whoever asks (an admin through the API, the Auth service deleting a user, a migration), the last
-- ADMIN may be neither demoted nor deleted. The advisory lock serialises two admins demoting each
-- other at once.
create function private.guard_last_admin()
returns trigger
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

-- Deletes a user's Auth account (profile, enrolments and progress cascade; certificates keep their
-- snapshot) in the caller's transaction, so the audit event names the admin who did it.
create function private.delete_user(p_user_id uuid)
returns boolean
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
comment on function private.delete_user(uuid) is
  'Admins only: deletes the auth.users row (cascading to the profile); false when there is none.';
revoke all on function private.delete_user(uuid) from public;
grant execute on function private.delete_user(uuid) to authenticated;

create function private.set_role_services(p_role public.user_role, p_services public.service_code[])
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_count integer;
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may change role services' using errcode = '42501';
  end if;
  -- Saves for one role wait for each other instead of racing (and deadlocking) row by row.
  perform pg_advisory_xact_lock(hashtext('private.set_role_services'), hashtext(p_role::text));
  update public.profiles
  set services = (select coalesce(array_agg(distinct s order by s), '{}') from unnest(p_services) s)
  where role = p_role;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
comment on function private.set_role_services(public.user_role,public.service_code[]) is
  'Admins only: sets the services of every user with the role; returns how many users it changed.';
revoke all on function private.set_role_services(public.user_role,public.service_code[]) from
  public;
grant execute on function private.set_role_services(public.user_role,public.service_code[]) to
  authenticated;

-- The role × service matrix: per role, how many users and how many hold each service. One scan.
create function private.role_service_matrix()
returns table(role public.user_role, users bigint, service public.service_code, holders bigint)
language plpgsql stable
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
create function private.contact_email()
returns text
language sql stable security definer
set search_path = ''
as $$
  select case when (select auth.uid()) is not null
    then (select s.admin_email from public.settings s where s.id) end
$$;
comment on function private.contact_email() is
  'settings.admin_email for a signed-in caller, null for a visitor.';
revoke all on function private.contact_email() from public;
grant execute on function private.contact_email() to anon, authenticated;

create function private.user_search_ids(p_pattern text)
returns setof uuid
language plpgsql
 STABLE SECURITY DEFINER ROWS 50
set search_path = ''
as $$
begin
  if not private.is_admin() then
    return;
  end if;
  return query execute
    'select p.id from public.profiles p
     where lower(p.name || '' '' || p.username || '' '' || p.email) like $1'
    using p_pattern;
end;
$$;
comment on function private.user_search_ids(text) is
  'Admins only (no rows for anyone else): ids of the profiles whose name, username or email matches the lowercase LIKE pattern (profiles_search_trgm_idx).';
revoke all on function private.user_search_ids(text) from public;
grant execute on function private.user_search_ids(text) to authenticated, service_role;

-- A profile's words: the distinct runs of letters and digits of the text the search matches.
create function private.profile_words(p_name text, p_username text, p_email text)
returns setof text
language sql immutable parallel safe strict
set search_path = ''
as $$
  select distinct w
  from regexp_split_to_table(lower(p_name || ' ' || p_username || ' ' || p_email), '[^[:alnum:]]+') w
  where w <> ''
$$;
comment on function private.profile_words(text,text,text) is
  'The words private.profile_search_words holds for a profile: distinct runs of letters and digits of lower(name || '' '' || username || '' '' || email).';
revoke all on function private.profile_words(text,text,text) from public;

create function private.index_profile_words()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- On an update, only the profiles whose searched text (or creation time) changed. old_rows /
  -- new_rows exist only for their events.
  if tg_op = 'UPDATE' then
    delete from private.profile_search_words w
    using old_rows o join new_rows n on n.id = o.id
    where w.profile_id = o.id
      and (o.name, o.username, o.email, o.created_at) is distinct from (n.name, n.username, n.email, n.created_at);
    insert into private.profile_search_words (word, profile_id, created_at)
    select t.word, n.id, n.created_at
    from old_rows o
    join new_rows n on n.id = o.id
    cross join lateral private.profile_words(n.name, n.username, n.email) t(word)
    where (o.name, o.username, o.email, o.created_at) is distinct from (n.name, n.username, n.email, n.created_at);
  elsif tg_op = 'INSERT' then
    insert into private.profile_search_words (word, profile_id, created_at)
    select t.word, n.id, n.created_at
    from new_rows n
    cross join lateral private.profile_words(n.name, n.username, n.email) t(word);
  end if;
  return null;
end;
$$;
comment on function private.index_profile_words() is
  'Keeps private.profile_search_words in step with public.profiles (statement-level triggers; a deleted profile''s words go by the foreign key).';
revoke all on function private.index_profile_words() from public;

create function private.user_search_page(
  p_pattern text,
  p_word text,
  p_service public.service_code,
  p_role public.user_role,
  p_limit integer,
  p_offset integer,
  p_match_limit integer
)
returns table(id uuid, total integer, more boolean)
language plpgsql
 STABLE SECURITY DEFINER ROWS 100
set search_path = ''
as $$
#variable_conflict use_column
begin
  if not private.is_admin() then
    return;
  end if;
  -- A one-word search without filters: the people of the first words that begin with it. Answered
  -- here only when they are more than the limit; a page past the end gives one row with a null id,
  -- the total and `more`.
  if p_word is not null and p_word <> '' and p_service is null and p_role is null then
    return query
      with hits as materialized (
        select w.profile_id, w.created_at from private.profile_search_words w
        where w.word >= p_word and w.word < p_word || chr(1114111)
        order by w.word, w.profile_id
        limit p_match_limit + 1
      ),
      t as (select count(distinct h.profile_id)::integer as people from hits h)
      select pg.id, p_match_limit, true
      from t
      left join lateral (
        select kept.id, kept.created_at
        from (select h.profile_id as id, h.created_at from hits h limit p_match_limit) kept
        order by kept.created_at desc, kept.id desc limit p_limit offset p_offset
      ) pg on true
      where t.people > p_match_limit
      order by pg.created_at desc, pg.id desc;
    if found then
      return;
    end if;
  end if;
  -- Static SQL, so its plan is kept for the connection: the materialised CTE keeps the trigram
  -- index in use whatever the pattern. Always one row at least: a page past the end gives one row
  -- with a null id, the total and `more`.
  return query
    with m as materialized (
      select p.id, p.created_at from public.profiles p
      where lower(p.name || ' ' || p.username || ' ' || p.email) like p_pattern
        and (p_service is null or p.services @> array[p_service])
        and (p_role is null or p.role = p_role)
    ),
    found as (select m.id, m.created_at from m limit p_match_limit + 1),
    kept as (select found.id, found.created_at from found limit p_match_limit),
    t as (select count(*)::integer as n from found)
    select pg.id, least(t.n, p_match_limit), t.n > p_match_limit
    from t
    left join lateral (
      select kept.id, kept.created_at from kept order by kept.created_at desc, kept.id desc limit p_limit offset p_offset
    ) pg on true
    order by pg.created_at desc, pg.id desc;
end;
$$;
comment on function private.user_search_page(text,text,public.service_code,public.user_role,integer,integer,integer) is
  'Admins only (no rows for anyone else): profiles whose name, username or email matches the lowercase LIKE pattern, optionally of a service and role. Keeps at most p_match_limit matches: their number, whether more match, and one page of them, newest first (a null id when the page is past the end). p_word, the search when it is one word of letters and digits, lets a common word be answered from private.profile_search_words.';
revoke all on function
  private.user_search_page(text,text,public.service_code,public.user_role,integer,integer,integer)
  from public;
grant execute on function
  private.user_search_page(text,text,public.service_code,public.user_role,integer,integer,integer)
  to authenticated, service_role;

-- Metadata is copied into no other column after sign-up, but a client may write it at sign-up and
-- through `PUT /auth/v1/user`: keep it small.
create function private.guard_user_metadata()
returns trigger
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
revoke all on function private.guard_user_metadata() from public;

create function private.set_user_active(p_user_id uuid, p_active boolean)
returns boolean
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
comment on function private.set_user_active(uuid,boolean) is
  'Admins only: deactivates (bans in Auth, ends every session) or reactivates a person, and records it in the audit trail. False when there is no such person; 42501 for a non-admin; P0403 for deactivating oneself; P0409 for the last active admin.';
revoke all on function private.set_user_active(uuid,boolean) from public;
grant execute on function private.set_user_active(uuid,boolean) to authenticated;

-- A ban may not be lifted behind the profile's back: while the profile is deactivated, Auth's
-- banned_until stays in the future whoever writes auth.users (the Auth admin API included).
create function private.keep_deactivated_banned()
returns trigger
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

-- Set at birth, before the profile row is written: the Auth user carries app_metadata
-- {must_change_password: true} (admin create), or the row was staged by an import.
create function private.profile_password_change_at_birth()
returns trigger
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

-- The caller still has to choose a password.
create function private.password_change_pending()
returns boolean
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
create function private.guard_profile_pending_password()
returns trigger
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

create function private.reset_password_flag(p_user_id uuid)
returns boolean
language plpgsql security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
  v_target public.profiles;
  v_sessions integer;
begin
  if v_actor is null or not private.is_admin() then
    raise exception 'Only an administrator may reset a password' using errcode = '42501';
  end if;
  if p_user_id = v_actor then
    raise exception 'Change your own password from your profile page' using errcode = 'P0409';
  end if;
  select * into v_target from public.profiles p where p.id = p_user_id for update;
  if not found then
    raise exception 'User not found' using errcode = 'P0002';
  end if;

  update public.profiles p set must_change_password = true where p.id = p_user_id;
  delete from auth.sessions s where s.user_id = p_user_id;
  get diagnostics v_sessions = row_count;

  insert into public.audit_events (actor_id, actor_name, actor_username, action, target_type, target_id, target_label, old_data, new_data)
  select v_actor, a.name, a.username, 'password.reset', 'user', v_target.id,
         v_target.username,
         jsonb_build_object('mustChangePassword', v_target.must_change_password),
         jsonb_build_object('mustChangePassword', true, 'sessionsEnded', v_sessions)
  from (select 1) one
  left join public.profiles a on a.id = v_actor;
  return true;
end;
$$;
comment on function private.reset_password_flag(uuid) is
  'Admins only, not for their own account (P0409): flags the person to choose a new password, ends their sessions and records password.reset in audit_events. 42501 for non-admins, P0002 for an unknown person.';
revoke all on function private.reset_password_flag(uuid) from public;
grant execute on function private.reset_password_flag(uuid) to authenticated;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger profiles_set_updated_at
  before update on public.profiles
  for each row execute function private.set_updated_at();

create trigger profiles_guard_update
  before update on public.profiles
  for each row execute function private.guard_profile_update();

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_user();

create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row when (new.email is distinct from old.email)
  execute function private.sync_profile_email();

create trigger settings_set_updated_at
  before update on public.settings
  for each row execute function private.set_updated_at();

create trigger profiles_guard_last_admin
  before update of role or delete on public.profiles
  for each row execute function private.guard_last_admin();

create trigger profiles_search_words_insert
  after insert on public.profiles
  referencing new table as new_rows
  for each statement execute function private.index_profile_words();

create trigger profiles_search_words_update
  after update on public.profiles
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.index_profile_words();

create trigger on_auth_user_metadata_guard
  before insert or update of raw_user_meta_data on auth.users
  for each row execute function private.guard_user_metadata();

create trigger users_keep_deactivated_banned
  before update of banned_until on auth.users
  for each row execute function private.keep_deactivated_banned();

create trigger profiles_password_change_at_birth
  before insert on public.profiles
  for each row execute function private.profile_password_change_at_birth();

create trigger profiles_guard_pending_password
  before update on public.profiles
  for each row execute function private.guard_profile_pending_password();

-- ---------------------------------------------------------------------------
-- Rows the application needs
-- ---------------------------------------------------------------------------

-- The one settings row, with the defaults above.
insert into public.settings (id) values (true) on conflict (id) do nothing;

-- ===========================================================================
-- supabase/schemas/02_courses_and_modules.sql
-- ===========================================================================

-- Courses and their modules.
--
-- Who sees a course: learners and visitors see published (ACTIVE) courses, subject to the site's
-- course-access rule (settings.course_access); an instructor also sees the courses they author; an
-- admin sees all. Instructors create courses only in their own services and edit only their own;
-- admins edit any. A module's body is read through private.module_body/course_module_bodies, which
-- apply the enrolment rule of the course, not by a direct select of the column.
-- private.course_counts keeps the number of courses so that a page of the catalogue need not count
-- every row.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.courses (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  description text not null,
  service public.service_code not null,
  cover_image text,
  author_id uuid references public.profiles (id) on delete set null,
  duration integer not null default 1,
  level public.course_level not null default 'BEGINNER',
  featured boolean not null default false,
  requires_enrollment boolean not null default true,
  status public.course_status not null default 'DRAFT',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  certificate_valid_months integer,
  requires_approval boolean,
  constraint courses_title_length check (char_length(btrim(title)) between 3 and 200),
  constraint courses_description_length check (char_length(btrim(description)) between 10 and 5000),
  constraint courses_duration_positive check (duration >= 1),
  constraint courses_certificate_valid_months_range
    check (certificate_valid_months is null or certificate_valid_months between 1 and 120)
);

create table public.course_modules (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  title text not null,
  content text not null default '',
  order_index integer not null default 1,
  duration integer not null default 15,
  has_quiz boolean not null default false,
  image text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint course_modules_title_length check (char_length(btrim(title)) between 3 and 200),
  constraint course_modules_order_positive check (order_index >= 1),
  constraint course_modules_duration_positive check (duration >= 1)
);

create table private.course_counts (
  status public.course_status not null,
  service public.service_code not null,
  courses bigint not null default 0,
  primary key (status, service)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.courses is
  'A training course in one service. Visible to learners and visitors only when ACTIVE.';

comment on column public.courses.cover_image is
  'Public URL (or storage path) of the cover in bucket course-covers.';

comment on column public.courses.author_id is
  'The instructor or admin who owns the course; set null when that user is deleted (admins then manage it).';

comment on column public.courses.duration is
  'Length in whole hours, at least 1.';

comment on column public.courses.featured is
  'Listed first with a Featured mark; auto-enrolment uses featured published courses.';

comment on column public.courses.requires_enrollment is
  'False: anyone who can see the course may read its modules without enrolling.';

comment on column public.courses.certificate_valid_months is
  'How many months a certificate of this course stays valid; null means it never expires.';

comment on column public.courses.requires_approval is
  'Enrolment approval for this course: null follows the site-wide course access (approval under login-approval), true requires approval, false enrols at once.';

comment on table public.course_modules is
  'A unit of a course, worked in order_index order. Deleted with its course.';

comment on column public.course_modules.content is
  'Markdown body of the module.';

comment on column public.course_modules.order_index is
  'Position in the course, from 1.';

comment on column public.course_modules.duration is
  'Reading time in minutes, at least 1.';

comment on column public.course_modules.has_quiz is
  'True when the module ends with a quiz that must be passed to complete it.';

comment on column public.course_modules.image is
  'Public URL (or storage path) of an image in bucket module-images.';

comment on table private.course_counts is
  'Number of courses per status and service, kept by the triggers on public.courses; read through private.visible_course_count.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index courses_status_idx on public.courses (status);

create index courses_service_idx on public.courses (service);

create index courses_author_id_idx on public.courses (author_id);

create index courses_featured_idx on public.courses (featured) where featured;

create index courses_featured_created_at_idx on public.courses (featured desc, created_at desc);

-- An author's courses by last update.
create index courses_author_id_updated_at_idx on public.courses (author_id, updated_at desc);

create index courses_title_trgm_idx on public.courses using gin (title extensions.gin_trgm_ops);

create index courses_description_trgm_idx on public.courses using gin (description extensions.gin_trgm_ops);

-- The modules of a course in order, with their ids: counting them and joining them to progress
-- reads the index alone.
create index course_modules_course_id_order_idx on public.course_modules (course_id, order_index) include (id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.courses enable row level security;

alter table public.course_modules enable row level security;

alter table private.course_counts enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- courses
create policy "visitors read published courses unless login-browse"
  on public.courses for select to anon
  using (status = 'ACTIVE' and (select private.course_access()) <> 'login-browse');

create policy "instructors create courses in their services and admins any"
  on public.courses for insert to authenticated
  with check (
    (select private.is_admin())
    or (
      (select private.current_role()) = 'INSTRUCTOR'
      and author_id = (select auth.uid())
      and service in (select unnest(private.current_services()))
    )
  );

create policy "authors update their own courses and admins any"
  on public.courses for update to authenticated
  using (
    (select private.is_admin())
    or (author_id = (select auth.uid()) and (select private.current_role()) = 'INSTRUCTOR')
  )
  with check (
    (select private.is_admin())
    or (
      (select private.current_role()) = 'INSTRUCTOR'
      and author_id = (select auth.uid())
      and service in (select unnest(private.current_services()))
    )
  );

create policy "authors delete their own courses and admins any"
  on public.courses for delete to authenticated
  using (
    (select private.is_admin())
    or (author_id = (select auth.uid()) and (select private.current_role()) = 'INSTRUCTOR')
  );

create policy "users read published courses, authors their own, admins all"
  on public.courses for select to authenticated
  using (
    status = any ((select private.visible_course_statuses())::public.course_status[])
    or author_id = (select auth.uid())
  );

create policy "authors add modules to their courses and admins any"
  on public.course_modules for insert to authenticated
  with check ((select private.is_admin()) or course_id in (select private.authored_course_ids()));

create policy "authors update modules of their courses and admins any"
  on public.course_modules for update to authenticated
  using ((select private.is_admin()) or course_id in (select private.authored_course_ids()))
  with check ((select private.is_admin()) or course_id in (select private.authored_course_ids()));

create policy "authors delete modules of their courses and admins any"
  on public.course_modules for delete to authenticated
  using ((select private.is_admin()) or course_id in (select private.authored_course_ids()));

create policy "visitors read modules of visible courses"
  on public.course_modules for select to anon
  using (exists (select 1 from public.courses c where c.id = course_modules.course_id));

create policy "users read modules of visible courses"
  on public.course_modules for select to authenticated
  using (exists (select 1 from public.courses c where c.id = course_modules.course_id));

create policy "no direct access" on private.course_counts as restrictive for all to public
  using (false) with check (false);

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.courses from anon, authenticated, service_role;
grant select on public.courses to anon;
grant select, delete on public.courses to authenticated;
grant all on public.courses to service_role;
grant insert (title, description, service, author_id, duration, level, featured,
  requires_enrollment, status, certificate_valid_months, requires_approval) on public.courses to
  authenticated;
grant update (title, description, service, author_id, duration, level, featured,
  requires_enrollment, status, certificate_valid_months, requires_approval) on public.courses to
  authenticated;

revoke all on public.course_modules from anon, authenticated, service_role;
grant delete on public.course_modules to authenticated;
grant all on public.course_modules to service_role;
grant select (id, course_id, title, order_index, duration, has_quiz, created_at, updated_at) on
  public.course_modules to anon, authenticated;
grant insert (course_id, title, content, order_index, duration, has_quiz) on public.course_modules
  to authenticated;
grant update (course_id, title, content, order_index, duration, has_quiz) on public.course_modules
  to authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.can_view_course(p_course_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select exists (
      select 1 from public.courses c
      where c.id = p_course_id
        and (
          (c.status = 'ACTIVE' and ((select auth.uid()) is not null or private.course_access() <> 'login-browse'))
          or (c.author_id = (select auth.uid()) and (select auth.uid()) is not null)
          or private.is_admin()
        )
    )
  );
end;
$$;
comment on function private.can_view_course(uuid) is
  'True when the caller may see the course (mirrors the courses select policies).';
revoke all on function private.can_view_course(uuid) from public;
grant execute on function private.can_view_course(uuid) to anon, authenticated, service_role;

create function private.course_authors(p_course_ids uuid[])
returns table(course_id uuid, author_id uuid, username text, name text)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select c.id, p.id, p.username, p.name
    from public.courses c
    join public.profiles p on p.id = c.author_id
    where c.id = any (p_course_ids)
      and private.can_view_course(c.id);
end;
$$;
comment on function private.course_authors(uuid[]) is
  'Name and username of the authors of the given courses, for the courses the caller can see; no email.';
revoke all on function private.course_authors(uuid[]) from public;
grant execute on function private.course_authors(uuid[]) to anon, authenticated, service_role;

create function private.reorder_modules(p_course_id uuid, p_module_ids uuid[])
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_current uuid[];
  v_given uuid[];
  v_count integer;
  v_expected integer;
begin
  -- One reorder of a course at a time; the reads below then see the previous one's result.
  perform 1 from public.course_modules m where m.course_id = p_course_id order by m.id for update;
  select coalesce(array_agg(m.id order by m.id), '{}') into v_current
  from public.course_modules m where m.course_id = p_course_id;
  select coalesce(array_agg(x order by x), '{}') into v_given from unnest(coalesce(p_module_ids, '{}')) x;
  if v_given is distinct from v_current then
    raise exception 'The module ids must be exactly the modules of the course, each once' using errcode = '22023';
  end if;
  select count(*) into v_expected
  from unnest(p_module_ids) with ordinality as t(id, position)
  join public.course_modules m on m.id = t.id where m.order_index <> t.position;
  update public.course_modules m
  set order_index = t.position
  from unnest(p_module_ids) with ordinality as t(id, position)
  where m.id = t.id and m.course_id = p_course_id and m.order_index <> t.position;
  get diagnostics v_count = row_count;
  if v_count < v_expected then
    raise exception 'You may not reorder the modules of this course' using errcode = '42501';
  end if;
  return cardinality(p_module_ids);
end;
$$;
comment on function private.reorder_modules(uuid,uuid[]) is
  'Author/admin: sets the course''s module order to the given full list of ids (1..n), in one statement, under RLS.';
revoke all on function private.reorder_modules(uuid,uuid[]) from public;
grant execute on function private.reorder_modules(uuid,uuid[]) to authenticated, service_role;

-- After a delete: the remaining modules become 1..n, keeping their order.
create function private.renumber_modules(p_course_id uuid)
returns void
language sql
set search_path = ''
as $$
  update public.course_modules m
  set order_index = r.position
  from (
    select x.id, row_number() over (order by x.order_index, x.created_at, x.id) as position
    from public.course_modules x where x.course_id = p_course_id
  ) r
  where m.id = r.id and m.order_index <> r.position
$$;
comment on function private.renumber_modules(uuid) is
  'Author/admin: closes the gaps in a course''s module order (1..n), under RLS.';
revoke all on function private.renumber_modules(uuid) from public;
grant execute on function private.renumber_modules(uuid) to authenticated, service_role;

create function private.module_body(p_module_id uuid)
returns table(content text, image text)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select m.content, m.image
    from public.course_modules m
    join public.courses c on c.id = m.course_id
    where m.id = p_module_id
      and (
        private.can_study_course(m.course_id)
        or (not c.requires_enrollment and private.can_view_course(m.course_id))
      );
end;
$$;
comment on function private.module_body(uuid) is
  'Content and image of the module when the caller may read it (can_study_course, or enrolment not required and the course visible); no row otherwise. The API roles cannot select these columns directly.';
revoke all on function private.module_body(uuid) from public;
grant execute on function private.module_body(uuid) to anon, authenticated, service_role;

-- Both run their query with EXECUTE, so it is planned for the pattern given (a parameter of a plain
-- SQL function is planned blind, and the planner then read all 10,000 courses rather than trust the
-- trigram index with an unknown pattern).
create function private.course_search_ids(p_pattern text)
returns setof uuid
language plpgsql
 STABLE SECURITY DEFINER ROWS 50
set search_path = ''
as $$
begin
  -- Only courses the caller can see: the rule of private.can_view_course, evaluated once per
  -- statement rather than called for each match.
  return query execute
    'select c.id from public.courses c
     where (c.title ilike $1 or c.description ilike $1)
       and ((c.status = ''ACTIVE''
             and ((select auth.uid()) is not null or (select private.course_access()) <> ''login-browse''))
            or (c.author_id = (select auth.uid()) and (select auth.uid()) is not null)
            or (select private.is_admin()))'
    using p_pattern;
end;
$$;
comment on function private.course_search_ids(text) is
  'Ids of the courses the caller can see whose title or description matches the ILIKE pattern (trigram indexes); the caller then reads the rows under its own row-level security.';
revoke all on function private.course_search_ids(text) from public;
grant execute on function private.course_search_ids(text) to anon, authenticated, service_role;

create function private.course_module_bodies(p_course_id uuid)
returns table(module_id uuid, content text, image text)
language plpgsql
 STABLE SECURITY DEFINER ROWS 20
set search_path = ''
as $$
begin
  if not (
    private.can_study_course(p_course_id)
    or (
      private.can_view_course(p_course_id)
      and exists (select 1 from public.courses c where c.id = p_course_id and not c.requires_enrollment)
    )
  ) then
    return;
  end if;
  return query
    select m.id, m.content, m.image
    from public.course_modules m
    where m.course_id = p_course_id;
end;
$$;
comment on function private.course_module_bodies(uuid) is
  'Content and image of every module of the course when the caller may read it (the rule of private.module_body, checked once per course); no row otherwise. The API roles cannot select these columns directly.';
revoke all on function private.course_module_bodies(uuid) from public;
grant execute on function private.course_module_bodies(uuid) to anon, authenticated, service_role;

create function private.count_courses()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- One upsert per (status, service) that changed, taken in key order (two statements never wait
  -- for each other's rows in opposite orders). old_rows / new_rows exist only for their events.
  if tg_op = 'INSERT' then
    insert into private.course_counts as cc (status, service, courses)
    select n.status, n.service, count(*) from new_rows n group by 1, 2 order by 1, 2
    on conflict (status, service) do update set courses = cc.courses + excluded.courses;
  elsif tg_op = 'DELETE' then
    insert into private.course_counts as cc (status, service, courses)
    select o.status, o.service, -count(*) from old_rows o group by 1, 2 order by 1, 2
    on conflict (status, service) do update set courses = cc.courses + excluded.courses;
  elsif tg_op = 'UPDATE' then
    insert into private.course_counts as cc (status, service, courses)
    select d.status, d.service, sum(d.delta)
    from (
      select o.status, o.service, -1 as delta from old_rows o
      union all
      select n.status, n.service, 1 from new_rows n
    ) d
    group by 1, 2
    having sum(d.delta) <> 0
    order by 1, 2
    on conflict (status, service) do update set courses = cc.courses + excluded.courses;
  elsif tg_op = 'TRUNCATE' then
    delete from private.course_counts;
  end if;
  return null;
end;
$$;
comment on function private.count_courses() is
  'Keeps private.course_counts in step with public.courses (statement-level triggers).';
revoke all on function private.count_courses() from public;

create function private.visible_course_count(
  p_service public.service_code,
  p_status public.course_status
)
returns integer
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    with counts as (
      select cc.status, cc.courses from private.course_counts cc
      where (p_service is null or cc.service = p_service)
        and (p_status is null or cc.status = p_status)
    )
    select (case
      when (select auth.uid()) is null then
        case when private.course_access() = 'login-browse' then 0
             else (select coalesce(sum(courses), 0) from counts where status = 'ACTIVE') end
      when private.is_admin() then (select coalesce(sum(courses), 0) from counts)
      else (select coalesce(sum(courses), 0) from counts where status = 'ACTIVE')
         + (select count(*) from public.courses c
            where c.author_id = (select auth.uid()) and c.status <> 'ACTIVE'
              and (p_service is null or c.service = p_service)
              and (p_status is null or c.status = p_status))
    end)::integer
  );
end;
$$;
comment on function private.visible_course_count(public.service_code,public.course_status) is
  'How many courses the caller can see (the rule of the courses select policies), optionally of one service and/or status, from private.course_counts: the catalogue''s total without counting the courses.';
revoke all on function private.visible_course_count(public.service_code,public.course_status) from
  public;
grant execute on function private.visible_course_count(public.service_code,public.course_status) to
  anon, authenticated, service_role;

create function private.course_summaries(p_course_ids uuid[])
returns table(course_id uuid, modules integer, author_id uuid, username text, name text)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select c.id,
           (select count(*)::integer from public.course_modules m where m.course_id = c.id),
           p.id, p.username, p.name
    from public.courses c
    left join public.profiles p on p.id = c.author_id
    where c.id = any (p_course_ids)
      -- private.can_view_course, with its function calls made once per statement.
      and (
        (c.status = 'ACTIVE' and ((select auth.uid()) is not null or (select private.course_access()) <> 'login-browse'))
        or (c.author_id = (select auth.uid()) and (select auth.uid()) is not null)
        or (select private.is_admin())
      );
end;
$$;
comment on function private.course_summaries(uuid[]) is
  'For the given courses that the caller can see (the rule of private.can_view_course): the number of modules and the author''s id, name and username (no email). The catalogue''s page reads it once.';
revoke all on function private.course_summaries(uuid[]) from public;
grant execute on function private.course_summaries(uuid[]) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger courses_set_updated_at
  before update on public.courses
  for each row execute function private.set_updated_at();

create trigger course_modules_set_updated_at
  before update on public.course_modules
  for each row execute function private.set_updated_at();

create trigger courses_count_insert
  after insert on public.courses
  referencing new table as new_rows
  for each statement execute function private.count_courses();

create trigger courses_count_update
  after update on public.courses
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.count_courses();

create trigger courses_count_delete
  after delete on public.courses
  referencing old table as old_rows
  for each statement execute function private.count_courses();

create trigger courses_count_truncate
  after truncate on public.courses
  for each statement execute function private.count_courses();

-- ===========================================================================
-- supabase/schemas/03_quizzes.sql
-- ===========================================================================

-- Quizzes, their questions and the attempts at them.
--
-- A module has at most one quiz. The questions, with their correct answers, are readable only by
-- the quiz's authors and admins: a learner gets the questions without answers through
-- private.quiz_questions_for_learner, and submits through private.start_quiz_attempt /
-- private.finish_quiz_attempt, which score the attempt on the server, enforce the time limit, the
-- attempt limit and the cooling-off period, and record the module as passed.

-- ---------------------------------------------------------------------------
-- Used by a check constraint below, so defined first
-- ---------------------------------------------------------------------------

create function private.quiz_question_is_valid(
  p_type public.question_type,
  p_options jsonb,
  p_correct jsonb
)
returns boolean
language sql immutable
set search_path = ''
as $$
  -- CASE keeps the order: the key is cast to integers only once every part is known to be one.
  select case
    when jsonb_typeof(p_options) is distinct from 'array'
      or jsonb_array_length(p_options) not between 2 and 10
      or jsonb_typeof(p_correct) is distinct from 'array'
      or jsonb_array_length(p_correct) not between 1 and jsonb_array_length(p_options) then false
    -- every option an object with a non-empty text and a boolean isCorrect
    when exists (
      select 1 from jsonb_array_elements(p_options) o(value)
      where jsonb_typeof(o.value) <> 'object'
         or jsonb_typeof(o.value -> 'text') is distinct from 'string'
         or btrim(o.value ->> 'text') = ''
         or char_length(o.value ->> 'text') > 500
         or jsonb_typeof(o.value -> 'isCorrect') is distinct from 'boolean') then false
    -- every key a whole number that names an option
    when exists (
      select 1 from jsonb_array_elements(p_correct) c(value)
      where case when jsonb_typeof(c.value) <> 'number' or c.value::text !~ '^\d{1,2}$' then true
                 else c.value::text::int >= jsonb_array_length(p_options) end) then false
    when p_type = 'TRUE_FALSE' and (jsonb_array_length(p_options) <> 2 or jsonb_array_length(p_correct) <> 1) then false
    -- the key is exactly the options marked correct (which also makes its indexes distinct)
    else (select array_agg(c.value::text::int order by c.value::text::int) from jsonb_array_elements(p_correct) c(value))
      is not distinct from
         (select array_agg((o.ordinality - 1)::int order by o.ordinality)
            from jsonb_array_elements(p_options) with ordinality o(value, ordinality)
           where (o.value ->> 'isCorrect')::boolean)
  end
$$;
comment on function private.quiz_question_is_valid(public.question_type,jsonb,jsonb) is
  'True when a question''s options and scoring key are ones scoring can handle (see the check quiz_questions_scorable).';
revoke all on function private.quiz_question_is_valid(public.question_type,jsonb,jsonb) from public;
grant execute on function private.quiz_question_is_valid(public.question_type,jsonb,jsonb) to
  authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.quizzes (
  id uuid primary key default gen_random_uuid(),
  module_id uuid not null references public.course_modules (id) on delete cascade,
  title text not null,
  description text,
  passing_score integer not null default 70,
  time_limit integer,
  randomize_questions boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  show_correct_answers text not null default 'AFTER_PASSING',
  max_attempts integer,
  retry_wait_minutes integer not null default 0,
  constraint quizzes_module_id_key unique (module_id),
  constraint quizzes_title_length check (char_length(btrim(title)) between 3 and 200),
  constraint quizzes_passing_score_range check (passing_score between 1 and 100),
  constraint quizzes_time_limit_positive check (time_limit is null or time_limit >= 1),
  constraint quizzes_show_correct_answers_values check (show_correct_answers in ('NEVER', 'AFTER_PASSING', 'ALWAYS')),
  constraint quizzes_max_attempts_range check (max_attempts is null or max_attempts between 1 and 100),
  constraint quizzes_retry_wait_range check (retry_wait_minutes between 0 and 43200)
);

create table public.quiz_questions (
  id uuid primary key default gen_random_uuid(),
  quiz_id uuid not null references public.quizzes (id) on delete cascade,
  question_text text not null,
  question_type public.question_type not null default 'MULTIPLE_CHOICE',
  order_index integer not null default 1,
  points integer not null default 1,
  options jsonb not null default '[]'::jsonb,
  correct_answers jsonb not null default '[]'::jsonb,
  explanation text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint quiz_questions_text_length check (char_length(btrim(question_text)) >= 5),
  constraint quiz_questions_order_positive check (order_index >= 1),
  constraint quiz_questions_points_positive check (points >= 1),
  constraint quiz_questions_options_array check (jsonb_typeof(options) = 'array' and jsonb_array_length(options) >= 2),
  constraint quiz_questions_correct_answers_array check (jsonb_typeof(correct_answers) = 'array'),
  constraint quiz_questions_scorable check (private.quiz_question_is_valid(question_type, options, correct_answers))
);

create table public.quiz_attempts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  quiz_id uuid not null references public.quizzes (id) on delete cascade,
  score integer not null default 0,
  max_score integer not null default 0,
  passed boolean not null default false,
  answers jsonb not null default '{}'::jsonb,
  started_at timestamptz not null default now(),
  completed_at timestamptz,
  constraint quiz_attempts_score_range check (score >= 0 and max_score >= 0 and score <= max_score),
  constraint quiz_attempts_answers_object check (jsonb_typeof(answers) = 'object')
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.quizzes is
  'The quiz at the end of a module (at most one per module). Deleted with its module.';

comment on column public.quizzes.passing_score is
  'Percentage of points needed to pass, 1 to 100.';

comment on column public.quizzes.time_limit is
  'Minutes allowed, or null for no limit.';

comment on column public.quizzes.randomize_questions is
  'Serve the questions in random order.';

comment on column public.quizzes.show_correct_answers is
  'When a learner''s attempt review includes the correct answers, right/wrong marks and explanations: NEVER, AFTER_PASSING (the attempt passed) or ALWAYS.';

comment on column public.quizzes.max_attempts is
  'Scored attempts allowed per learner and recertification cycle, 1 to 100, or null for unlimited.';

comment on column public.quizzes.retry_wait_minutes is
  'Minutes after a scored attempt before the next may start, 0 (none) to 43200 (30 days).';

comment on constraint quiz_questions_scorable on public.quiz_questions is
  'Options and scoring key that scoring can handle (private.quiz_question_is_valid).';

comment on table public.quiz_questions is
  'A question of a quiz, with its answers: read only by the course author and admins.';

comment on column public.quiz_questions.options is
  'JSON array of {"text": string, "isCorrect": boolean}, at least two.';

comment on column public.quiz_questions.correct_answers is
  'JSON array of the 0-based indexes of the correct options (the scoring key).';

comment on column public.quiz_questions.explanation is
  'Shown to the learner after submitting.';

comment on table public.quiz_attempts is
  'A scored quiz submission. Written only by private.submit_quiz_attempt.';

comment on column public.quiz_attempts.score is
  'Points earned (sum of the points of correctly answered questions).';

comment on column public.quiz_attempts.max_score is
  'Points available when the attempt was scored.';

comment on column public.quiz_attempts.answers is
  'The submitted answers: {"<question id>": [option indexes]}.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index quiz_questions_quiz_id_order_idx on public.quiz_questions (quiz_id, order_index);

create index quiz_attempts_user_id_quiz_id_idx on public.quiz_attempts (user_id, quiz_id);

create index quiz_attempts_quiz_id_idx on public.quiz_attempts (quiz_id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.quizzes enable row level security;

alter table public.quiz_questions enable row level security;

alter table public.quiz_attempts enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "authors add quizzes to their modules and admins any"
  on public.quizzes for insert to authenticated
  with check ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "authors update quizzes of their modules and admins any"
  on public.quizzes for update to authenticated
  using ((select private.is_admin()) or module_id in (select private.authored_module_ids()))
  with check ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "authors delete quizzes of their modules and admins any"
  on public.quizzes for delete to authenticated
  using ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "visitors read quizzes of visible modules"
  on public.quizzes for select to anon
  using (exists (select 1 from public.course_modules m where m.id = quizzes.module_id));

create policy "users read quizzes of visible modules"
  on public.quizzes for select to authenticated
  using (exists (select 1 from public.course_modules m where m.id = quizzes.module_id));

-- quiz_questions: no policy for visitors at all; signed-in authors and admins only.
create policy "authors read questions of their quizzes and admins all"
  on public.quiz_questions for select to authenticated
  using ((select private.is_admin()) or quiz_id in (select private.authored_quiz_ids()));

create policy "authors add questions to their quizzes and admins any"
  on public.quiz_questions for insert to authenticated
  with check ((select private.is_admin()) or quiz_id in (select private.authored_quiz_ids()));

create policy "authors update questions of their quizzes and admins any"
  on public.quiz_questions for update to authenticated
  using ((select private.is_admin()) or quiz_id in (select private.authored_quiz_ids()))
  with check ((select private.is_admin()) or quiz_id in (select private.authored_quiz_ids()));

create policy "authors delete questions of their quizzes and admins any"
  on public.quiz_questions for delete to authenticated
  using ((select private.is_admin()) or quiz_id in (select private.authored_quiz_ids()));

-- quiz_attempts, user_module_progress, certificates: read-only for the API roles.
create policy "users read own attempts, authors their quizzes', admins all"
  on public.quiz_attempts for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or quiz_id in (select private.authored_quiz_ids())
  );

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.quizzes from anon, authenticated, service_role;
grant select on public.quizzes to anon;
grant select, delete on public.quizzes to authenticated;
grant all on public.quizzes to service_role;
grant insert (module_id, title, description, passing_score, time_limit, randomize_questions,
  show_correct_answers, max_attempts, retry_wait_minutes) on public.quizzes to authenticated;
grant update (module_id, title, description, passing_score, time_limit, randomize_questions,
  show_correct_answers, max_attempts, retry_wait_minutes) on public.quizzes to authenticated;

revoke all on public.quiz_questions from anon, authenticated, service_role;
grant select on public.quiz_questions to anon;
grant select, delete on public.quiz_questions to authenticated;
grant all on public.quiz_questions to service_role;
grant insert (quiz_id, question_text, question_type, order_index, points, options, correct_answers,
  explanation) on public.quiz_questions to authenticated;
grant update (quiz_id, question_text, question_type, order_index, points, options, correct_answers,
  explanation) on public.quiz_questions to authenticated;

revoke all on public.quiz_attempts from anon, authenticated, service_role;
grant select on public.quiz_attempts to anon, authenticated;
grant all on public.quiz_attempts to service_role;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- Score a submission: answers {"<question id>": [option indexes] or index}. A question scores its
-- points when the chosen set equals the correct set.
create function private.submit_quiz_attempt(p_quiz_id uuid, p_answers jsonb)
returns public.quiz_attempts
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quiz public.quizzes;
  v_course_id uuid;
  v_score integer;
  v_max integer;
  v_passed boolean;
  v_attempt public.quiz_attempts;
begin
  select q.* into v_quiz from public.quizzes q where q.id = p_quiz_id;
  select m.course_id into v_course_id from public.course_modules m where m.id = v_quiz.module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  if p_answers is null or jsonb_typeof(p_answers) <> 'object' then
    raise exception 'Answers must be an object keyed by question id' using errcode = '22023';
  end if;
  select coalesce(sum(qq.points) filter (where
           (select coalesce(array_agg(distinct a.value::int order by a.value::int), '{}')
              from jsonb_array_elements_text(
                case jsonb_typeof(p_answers -> qq.id::text)
                  when 'array' then p_answers -> qq.id::text
                  when 'number' then jsonb_build_array(p_answers -> qq.id::text)
                  else '[]'::jsonb end) a
             where a.value ~ '^\d+$')
           = (select coalesce(array_agg(distinct c.value::int order by c.value::int), '{}')
                from jsonb_array_elements_text(qq.correct_answers) c)), 0),
         coalesce(sum(qq.points), 0)
    into v_score, v_max
  from public.quiz_questions qq
  where qq.quiz_id = p_quiz_id;
  v_passed := v_max > 0 and v_score * 100 >= v_quiz.passing_score * v_max;
  insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed, answers, completed_at)
  values (v_uid, p_quiz_id, v_score, v_max, v_passed, p_answers, now())
  returning * into v_attempt;
  if exists (select 1 from public.enrollments e where e.user_id = v_uid and e.course_id = v_course_id and e.status = 'ACTIVE') then
    insert into public.user_module_progress (user_id, module_id, quiz_passed, last_attempt_id)
    values (v_uid, v_quiz.module_id, v_passed, v_attempt.id)
    on conflict (user_id, module_id) do update
      set quiz_passed = public.user_module_progress.quiz_passed or excluded.quiz_passed,
          last_attempt_id = excluded.last_attempt_id;
    perform private.settle_module(v_uid, v_quiz.module_id);
    perform private.refresh_enrollment(v_uid, v_course_id);
  end if;
  return v_attempt;
end;
$$;
comment on function private.submit_quiz_attempt(uuid,jsonb) is
  'Learner: scores the answers on the server, records the attempt, updates module progress and the enrolment (when enrolled).';
revoke all on function private.submit_quiz_attempt(uuid,jsonb) from public;

create function private.start_quiz_attempt(p_quiz_id uuid)
returns public.quiz_attempts
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quiz public.quizzes;
  v_course_id uuid;
  v_open public.quiz_attempts;
  v_has_open boolean;
  v_last timestamptz;
begin
  select q.* into v_quiz from public.quizzes q where q.id = p_quiz_id;
  select m.course_id into v_course_id from public.course_modules m where m.id = v_quiz.module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  -- One start per learner and quiz at a time, so two starts cannot both pass the checks below.
  perform pg_advisory_xact_lock(hashtextextended('quiz_attempt:' || v_uid::text || ':' || p_quiz_id::text, 0));
  select a.* into v_open from public.quiz_attempts a
  where a.user_id = v_uid and a.quiz_id = p_quiz_id and a.completed_at is null
  order by a.started_at desc
  limit 1
  for update;
  v_has_open := found;
  select max(a.completed_at) into v_last from public.quiz_attempts a
  where a.user_id = v_uid and a.quiz_id = p_quiz_id and a.completed_at is not null;
  -- A running attempt still within its time limit was allowed when it started: reloading the page
  -- returns it (and does not restart the clock). One that started before the last scored attempt
  -- or within the wait after it (not written by this function) could never be scored: it is
  -- restarted below, once the checks allow.
  if v_has_open and (v_quiz.time_limit is null
                     or v_open.started_at + make_interval(mins => v_quiz.time_limit) > now())
     and (v_last is null or v_open.started_at >= v_last + make_interval(mins => v_quiz.retry_wait_minutes)) then
    return v_open;
  end if;
  perform private.check_quiz_attempt_allowed(p_quiz_id, null);
  if v_has_open then
    update public.quiz_attempts a set started_at = now() where a.id = v_open.id returning * into v_open;
    return v_open;
  end if;
  insert into public.quiz_attempts (user_id, quiz_id) values (v_uid, p_quiz_id) returning * into v_open;
  return v_open;
end;
$$;
comment on function private.start_quiz_attempt(uuid) is
  'Learner: the running attempt of the quiz (completed_at null), started now unless one is still within the time limit; 55000 (hint quiz_no_attempts_left / quiz_retry_wait) when no new attempt may start.';
revoke all on function private.start_quiz_attempt(uuid) from public;
grant execute on function private.start_quiz_attempt(uuid) to authenticated;

create function private.finish_quiz_attempt(
  p_quiz_id uuid,
  p_answers jsonb,
  p_grace_seconds integer default 30
)
returns public.quiz_attempts
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quiz public.quizzes;
  v_course_id uuid;
  v_open public.quiz_attempts;
  v_has_open boolean;
  -- The caller does not choose how late is too late: at most 30 seconds of grace.
  v_grace integer := least(greatest(coalesce(p_grace_seconds, 30), 0), 30);
  v_attempt public.quiz_attempts;
begin
  select q.* into v_quiz from public.quizzes q where q.id = p_quiz_id;
  select m.course_id into v_course_id from public.course_modules m where m.id = v_quiz.module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('quiz_attempt:' || v_uid::text || ':' || p_quiz_id::text, 0));
  -- Waits for a concurrent submission of the same attempt; once that one has committed, the row
  -- is gone and this one finds no running attempt.
  select a.* into v_open from public.quiz_attempts a
  where a.user_id = v_uid and a.quiz_id = p_quiz_id and a.completed_at is null
  order by a.started_at desc
  limit 1
  for update;
  v_has_open := found;
  -- The maximum and the wait hold at scoring too (settings changed since the start, or a race), and
  -- are what a learner with no attempt left is told, rather than to start the quiz.
  perform private.check_quiz_attempt_allowed(p_quiz_id, case when v_has_open then v_open.started_at else now() end);
  if not v_has_open then
    raise exception 'Start the quiz before submitting your answers' using errcode = '22023', hint = 'quiz_not_started';
  end if;
  if v_quiz.time_limit is not null
     and now() > v_open.started_at + make_interval(mins => v_quiz.time_limit, secs => v_grace) then
    raise exception 'Time is up' using errcode = '22023', hint = 'quiz_time_up';
  end if;
  v_attempt := private.submit_quiz_attempt(p_quiz_id, p_answers);
  -- The scored row keeps the real start; the running row has served its purpose.
  update public.quiz_attempts a set started_at = v_open.started_at where a.id = v_attempt.id returning * into v_attempt;
  delete from public.quiz_attempts a where a.id = v_open.id;
  return v_attempt;
end;
$$;
comment on function private.finish_quiz_attempt(uuid,jsonb,integer) is
  'Learner: scores the answers of the running attempt (private.submit_quiz_attempt), once: 22023 hint quiz_not_started / quiz_time_up; 55000 hint quiz_no_attempts_left / quiz_retry_wait when the quiz''s maximum or wait forbids it.';
revoke all on function private.finish_quiz_attempt(uuid,jsonb,integer) from public;
grant execute on function private.finish_quiz_attempt(uuid,jsonb,integer) to authenticated;

-- has_quiz is true exactly when the module has a quiz. Security definer: the flag is bookkeeping
-- and must follow even a cascade delete started by someone who could not update the module.
create function private.sync_module_has_quiz()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    update public.course_modules m
    set has_quiz = exists (select 1 from public.quizzes q where q.module_id = old.module_id)
    where m.id = old.module_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update public.course_modules m set has_quiz = true where m.id = new.module_id and not m.has_quiz;
  end if;
  return null;
end;
$$;
comment on function private.sync_module_has_quiz() is
  'After-trigger on quizzes: keeps course_modules.has_quiz equal to "a quiz exists".';
revoke all on function private.sync_module_has_quiz() from public;

create function private.reorder_quiz_questions(p_quiz_id uuid, p_question_ids uuid[])
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_current uuid[];
  v_given uuid[];
  v_count integer;
  v_expected integer;
begin
  -- One reorder of a quiz at a time; the reads below then see the previous one's result.
  perform 1 from public.quiz_questions q where q.quiz_id = p_quiz_id order by q.id for update;
  select coalesce(array_agg(q.id order by q.id), '{}') into v_current
  from public.quiz_questions q where q.quiz_id = p_quiz_id;
  select coalesce(array_agg(x order by x), '{}') into v_given from unnest(coalesce(p_question_ids, '{}')) x;
  if v_given is distinct from v_current then
    raise exception 'The question ids must be exactly the questions of the quiz, each once' using errcode = '22023';
  end if;
  select count(*) into v_expected
  from unnest(p_question_ids) with ordinality as t(id, position)
  join public.quiz_questions q on q.id = t.id where q.order_index <> t.position;
  update public.quiz_questions q
  set order_index = t.position
  from unnest(p_question_ids) with ordinality as t(id, position)
  where q.id = t.id and q.quiz_id = p_quiz_id and q.order_index <> t.position;
  get diagnostics v_count = row_count;
  if v_count < v_expected then
    raise exception 'You may not reorder the questions of this quiz' using errcode = '42501';
  end if;
  return cardinality(p_question_ids);
end;
$$;
comment on function private.reorder_quiz_questions(uuid,uuid[]) is
  'Author/admin: sets the quiz''s question order to the given full list of ids (1..n), under RLS.';
revoke all on function private.reorder_quiz_questions(uuid,uuid[]) from public;
grant execute on function private.reorder_quiz_questions(uuid,uuid[]) to authenticated,
  service_role;

create function private.renumber_quiz_questions(p_quiz_id uuid)
returns void
language sql
set search_path = ''
as $$
  update public.quiz_questions q
  set order_index = r.position
  from (
    select x.id, row_number() over (order by x.order_index, x.created_at, x.id) as position
    from public.quiz_questions x where x.quiz_id = p_quiz_id
  ) r
  where q.id = r.id and q.order_index <> r.position
$$;
comment on function private.renumber_quiz_questions(uuid) is
  'Author/admin: closes the gaps in a quiz''s question order, under RLS.';
revoke all on function private.renumber_quiz_questions(uuid) from public;
grant execute on function private.renumber_quiz_questions(uuid) to authenticated, service_role;

create function private.quiz_questions_for_learner(p_quiz_id uuid)
returns table(
  id uuid,
  question_text text,
  question_type public.question_type,
  order_index integer,
  points integer,
  options jsonb,
  multiple_answers boolean
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_course_id uuid;
  v_random boolean;
begin
  select m.course_id, q.randomize_questions into v_course_id, v_random
  from public.quizzes q join public.course_modules m on m.id = q.module_id
  where q.id = p_quiz_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  return query
    select qq.id, qq.question_text, qq.question_type, qq.order_index, qq.points,
           coalesce((select jsonb_agg(jsonb_build_object('text', o.value ->> 'text') order by o.ordinality)
                     from jsonb_array_elements(qq.options) with ordinality o), '[]'::jsonb),
           jsonb_array_length(qq.correct_answers) > 1
    from public.quiz_questions qq
    where qq.quiz_id = p_quiz_id
    order by case when v_random then random() end, qq.order_index, qq.id;
end;
$$;
comment on function private.quiz_questions_for_learner(uuid) is
  'The quiz''s questions with option texts only (no isCorrect, no correct_answers) and whether several options are correct (answered with checkboxes, all-or-nothing), for a caller who may study the course.';
revoke all on function private.quiz_questions_for_learner(uuid) from public;
grant execute on function private.quiz_questions_for_learner(uuid) to authenticated;

-- Refuses when the caller may not open or score another attempt now (errcode 55000, hint
-- quiz_no_attempts_left or quiz_retry_wait; the detail of the wait is the time it ends, ISO 8601).
create function private.check_quiz_attempt_allowed(
  p_quiz_id uuid,
  p_started_at timestamp with time zone default NULL::timestamp with time zone
)
returns void
language plpgsql stable
set search_path = ''
as $$
declare
  v_status record;
  v_last timestamptz;
begin
  select * into v_status from private.quiz_attempt_status(p_quiz_id);
  if not found then
    return;
  end if;
  if v_status.max_attempts is not null and v_status.attempts_used >= v_status.max_attempts then
    raise exception 'You have used all % attempts at this quiz', v_status.max_attempts
      using errcode = '55000', hint = 'quiz_no_attempts_left';
  end if;
  if v_status.next_attempt_at is not null and p_started_at is null then
    raise exception 'The next attempt at this quiz may start at %', v_status.next_attempt_at
      using errcode = '55000', hint = 'quiz_retry_wait', detail = to_char(v_status.next_attempt_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
  end if;
  if p_started_at is not null and v_status.retry_wait_minutes > 0 then
    -- Scoring: the running attempt must have started once the wait after the last scored one was over.
    select max(a.completed_at) into v_last from public.quiz_attempts a
    where a.user_id = (select auth.uid()) and a.quiz_id = p_quiz_id and a.completed_at is not null;
    if v_last is not null and p_started_at < v_last + make_interval(mins => v_status.retry_wait_minutes) then
      raise exception 'This attempt started before the wait after your last attempt was over'
        using errcode = '55000', hint = 'quiz_retry_wait',
              detail = to_char(coalesce(v_status.next_attempt_at, now()) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
    end if;
  end if;
end;
$$;
comment on function private.check_quiz_attempt_allowed(uuid,timestamp with time zone) is
  'Raises 55000 (hint quiz_no_attempts_left / quiz_retry_wait) when the caller may not start (p_started_at null) or score (p_started_at = the running attempt''s start) an attempt now.';
revoke all on function private.check_quiz_attempt_allowed(uuid,timestamp with time zone) from
  public;

create function private.quiz_attempt_review(p_attempt_id uuid)
returns table(
  question_id uuid,
  correct_answers jsonb,
  options jsonb,
  explanation text,
  answers_shown boolean
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_attempt public.quiz_attempts;
  v_setting text;
  v_shown boolean;
begin
  select a.* into v_attempt from public.quiz_attempts a
  where a.id = p_attempt_id and a.user_id = (select auth.uid()) and a.completed_at is not null;
  if not found then
    raise exception 'No such attempt of yours' using errcode = '42501';
  end if;
  select q.show_correct_answers into v_setting from public.quizzes q where q.id = v_attempt.quiz_id;
  v_shown := v_setting = 'ALWAYS' or (v_setting = 'AFTER_PASSING' and v_attempt.passed);
  return query
    select qq.id,
           case when v_shown then qq.correct_answers end,
           case when v_shown then qq.options
                else coalesce((select jsonb_agg(jsonb_build_object('text', o.value ->> 'text') order by o.ordinality)
                               from jsonb_array_elements(qq.options) with ordinality o), '[]'::jsonb) end,
           case when v_shown then qq.explanation end,
           v_shown
    from public.quiz_questions qq
    where qq.quiz_id = v_attempt.quiz_id
    order by qq.order_index, qq.id;
end;
$$;
comment on function private.quiz_attempt_review(uuid) is
  'Learner: the questions of their own submitted attempt; the correct answers, isCorrect marks and explanations only when the quiz''s show_correct_answers allows (ALWAYS, or AFTER_PASSING and the attempt passed), else null with answers_shown false.';
revoke all on function private.quiz_attempt_review(uuid) from public;
grant execute on function private.quiz_attempt_review(uuid) to authenticated;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger quizzes_set_updated_at
  before update on public.quizzes
  for each row execute function private.set_updated_at();

create trigger quiz_questions_set_updated_at
  before update on public.quiz_questions
  for each row execute function private.set_updated_at();

create trigger quizzes_sync_module_has_quiz
  after insert or delete or update of module_id on public.quizzes
  for each row execute function private.sync_module_has_quiz();

-- ===========================================================================
-- supabase/schemas/04_enrolment_and_progress.sql
-- ===========================================================================

-- Enrolment and progress through a course.
--
-- A learner enrols themselves in a course they can see (pending when the site or the course
-- requires approval; an instructor of the course or an admin approves). Progress is written only
-- by the security-definer functions here (private.mark_module_read, private.open_module and the
-- quiz functions), never directly by the API roles. Completing a module: private.mark_module_read
-- (or a passed quiz) -> private.settle_module marks the module complete once read and its quiz, if
-- any, passed -> private.refresh_enrollment recomputes the enrolment's progress and, at 100 %,
-- completes it and calls private.issue_certificate (05_certificates.sql).

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.enrollments (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  status public.enrollment_status not null default 'ACTIVE',
  progress integer not null default 0,
  completed boolean not null default false,
  started_at timestamptz not null default now(),
  completed_at timestamptz,
  last_accessed_module_id uuid references public.course_modules (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  cycle integer not null default 1,
  constraint enrollments_user_course_key unique (user_id, course_id),
  constraint enrollments_progress_range check (progress between 0 and 100),
  constraint enrollments_completed_at_100 check (completed = (progress = 100)),
  constraint enrollments_completed_at_set check (completed = (completed_at is not null)),
  constraint enrollments_pending_not_started check (status = 'ACTIVE' or progress = 0),
  constraint enrollments_cycle_positive check (cycle >= 1)
);

create table public.user_module_progress (
  user_id uuid not null references public.profiles (id) on delete cascade,
  module_id uuid not null references public.course_modules (id) on delete cascade,
  read_at timestamptz,
  completed boolean not null default false,
  completed_at timestamptz,
  quiz_passed boolean not null default false,
  last_attempt_id uuid references public.quiz_attempts (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (user_id, module_id),
  constraint user_module_progress_completed_at_set check (completed = (completed_at is not null))
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.enrollments is
  'A learner on a course. Deleted with the learner or the course.';

comment on column public.enrollments.status is
  'PENDING until approved (course access login-approval), else ACTIVE.';

comment on column public.enrollments.progress is
  'Percent 0-100, computed by the server only (private.complete_module, private.step_course_progress).';

comment on column public.enrollments.completed is
  'True exactly when progress is 100.';

comment on column public.enrollments.last_accessed_module_id is
  'The module the learner last opened, to continue from.';

comment on column public.enrollments.cycle is
  'Which pass through the course this is: 1 at enrolment, +1 each time the learner recertifies.';

comment on table public.user_module_progress is
  'Per learner and module: read, quiz passed, completed (read and, when the module has a quiz, passed). Server-written only.';

comment on column public.user_module_progress.read_at is
  'When the learner marked the module read.';

comment on column public.user_module_progress.last_attempt_id is
  'The latest quiz attempt for this module''s quiz.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index enrollments_course_id_idx on public.enrollments (course_id);

create index enrollments_last_accessed_module_id_idx on public.enrollments (last_accessed_module_id);

-- The enrolments an instructor's overview reads, answered from the index alone.
create index enrollments_course_status_learner_idx on public.enrollments (course_id, status) include (user_id, progress);

create index user_module_progress_module_id_idx on public.user_module_progress (module_id);

create index user_module_progress_last_attempt_id_idx on public.user_module_progress (last_attempt_id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.enrollments enable row level security;

alter table public.user_module_progress enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- enrollments
create policy "users read own enrolments, authors their courses', admins all"
  on public.enrollments for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or course_id in (select private.authored_course_ids())
  );

create policy "authors approve enrolments on their courses and admins any"
  on public.enrollments for update to authenticated
  using ((select private.is_admin()) or course_id in (select private.authored_course_ids()))
  with check ((select private.is_admin()) or course_id in (select private.authored_course_ids()));

create policy "users unenrol themselves, authors and admins remove"
  on public.enrollments for delete to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or course_id in (select private.authored_course_ids())
  );

create policy "users enrol themselves in visible published courses"
  on public.enrollments for insert to authenticated
  with check (
    progress = 0
    and not completed
    and (
      (select private.is_admin())
      or (
        user_id = (select auth.uid())
        and exists (select 1 from public.courses c where c.id = enrollments.course_id and c.status = 'ACTIVE')
      )
    )
  );

create policy "users read own progress, authors their courses', admins all"
  on public.user_module_progress for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or module_id in (select private.authored_module_ids())
  );

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.enrollments from anon, authenticated, service_role;
grant select on public.enrollments to anon;
grant select, delete on public.enrollments to authenticated;
grant all on public.enrollments to service_role;
grant insert (user_id, course_id, status, progress, completed) on public.enrollments to
  authenticated;
grant update (status) on public.enrollments to authenticated;

revoke all on public.user_module_progress from anon, authenticated, service_role;
grant select on public.user_module_progress to anon, authenticated;
grant all on public.user_module_progress to service_role;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- Whether an enrolment on the course starts pending: the course's own setting, else the site rule.
-- Read under the caller's row-level security: a learner who cannot see the course cannot enrol
-- on it either (the insert policy), so the site rule used then changes nothing.
create function private.prepare_enrollment()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_requires boolean;
begin
  if current_user in ('anon', 'authenticated') then
    select c.requires_approval into v_requires from public.courses c where c.id = new.course_id;
    new.status := case
      when not private.is_admin()
           and coalesce(v_requires, private.course_access() = 'login-approval') then 'PENDING'::public.enrollment_status
      else 'ACTIVE'::public.enrollment_status
    end;
    new.started_at := now();
    new.completed_at := null;
    new.last_accessed_module_id := null;
  end if;
  return new;
end;
$$;
comment on function private.prepare_enrollment() is
  'Before-insert trigger on enrollments: for API callers, PENDING when the course requires approval (courses.requires_approval, else site-wide login-approval) unless admin, else ACTIVE.';
revoke all on function private.prepare_enrollment() from public;

create function private.can_study_course(p_course_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select (select auth.uid()) is not null
      and private.can_view_course(p_course_id)
      and (
        private.is_admin()
        or exists (select 1 from public.courses c where c.id = p_course_id
                   and (not c.requires_enrollment or c.author_id = (select auth.uid())))
        or exists (select 1 from public.enrollments e where e.course_id = p_course_id
                   and e.user_id = (select auth.uid()) and e.status = 'ACTIVE')
      )
  );
end;
$$;
comment on function private.can_study_course(uuid) is
  'True when the signed-in caller may open the course''s modules and quizzes (enrolled and approved, or enrolment not required, or author/admin).';
revoke all on function private.can_study_course(uuid) from public;
grant execute on function private.can_study_course(uuid) to anon, authenticated, service_role;

create function private.refresh_enrollment(p_user_id uuid, p_course_id uuid)
returns public.enrollments
language plpgsql security definer
set search_path = ''
as $$
declare
  v_enrollment public.enrollments;
  v_total integer;
  v_done integer;
  v_progress integer;
begin
  select * into v_enrollment from public.enrollments e
  where e.user_id = p_user_id and e.course_id = p_course_id and e.status = 'ACTIVE'
  for update;
  if not found or v_enrollment.completed then
    return v_enrollment;
  end if;
  select count(*) into v_total from public.course_modules m where m.course_id = p_course_id;
  if v_total = 0 then
    return v_enrollment;
  end if;
  select count(*) into v_done
  from public.user_module_progress ump
  join public.course_modules m on m.id = ump.module_id
  where ump.user_id = p_user_id and m.course_id = p_course_id and ump.completed;
  v_progress := round(100.0 * least(v_done, v_total) / v_total);
  -- Unchanged progress (below 100, as a completed enrolment returned above): nothing to write.
  if v_progress = v_enrollment.progress then
    return v_enrollment;
  end if;
  update public.enrollments e
  set progress = v_progress,
      completed = (v_progress = 100),
      completed_at = case when v_progress = 100 then now() end
  where e.id = v_enrollment.id
  returning * into v_enrollment;
  if v_enrollment.completed then
    perform private.issue_certificate(p_user_id, p_course_id);
  end if;
  return v_enrollment;
end;
$$;
comment on function private.refresh_enrollment(uuid,uuid) is
  'Internal: progress = round(100 x completed / modules); completes and certifies at 100. A completed enrolment stays completed.';
revoke all on function private.refresh_enrollment(uuid,uuid) from public;

-- Internal: is the module complete for the user (read, and its quiz passed when it has one)?
create function private.settle_module(p_user_id uuid, p_module_id uuid)
returns void
language sql security definer
set search_path = ''
as $$
  update public.user_module_progress ump
  set completed = true, completed_at = now()
  where ump.user_id = p_user_id and ump.module_id = p_module_id and not ump.completed
    and ump.read_at is not null
    and (ump.quiz_passed or not exists (select 1 from public.quizzes q where q.module_id = p_module_id))
$$;
comment on function private.settle_module(uuid,uuid) is
  'Internal: marks the module complete when read and its quiz (if any) passed.';
revoke all on function private.settle_module(uuid,uuid) from public;

create function private.mark_module_read(p_module_id uuid)
returns public.enrollments
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_course_id uuid;
  v_enrollment public.enrollments;
begin
  select m.course_id into v_course_id from public.course_modules m where m.id = p_module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not study this module' using errcode = '42501';
  end if;
  if not exists (select 1 from public.enrollments e where e.user_id = v_uid and e.course_id = v_course_id and e.status = 'ACTIVE') then
    return null; -- progress is kept only for enrolled learners
  end if;
  -- The first reading is kept; a module read before is not written again.
  insert into public.user_module_progress (user_id, module_id, read_at)
  values (v_uid, p_module_id, now())
  on conflict (user_id, module_id) do update set read_at = now()
  where public.user_module_progress.read_at is null;
  perform private.settle_module(v_uid, p_module_id);
  update public.enrollments e set last_accessed_module_id = p_module_id
  where e.user_id = v_uid and e.course_id = v_course_id
    and e.last_accessed_module_id is distinct from p_module_id;
  v_enrollment := private.refresh_enrollment(v_uid, v_course_id);
  return v_enrollment;
end;
$$;
comment on function private.mark_module_read(uuid) is
  'Learner: marks the module read, completes it when its quiz (if any) is passed, recomputes progress. Null when not enrolled.';
revoke all on function private.mark_module_read(uuid) from public;
grant execute on function private.mark_module_read(uuid) to authenticated;

-- The learner opens a module: remembered to continue from.
create function private.open_module(p_module_id uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_course_id uuid;
begin
  select m.course_id into v_course_id from public.course_modules m where m.id = p_module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not study this module' using errcode = '42501';
  end if;
  update public.enrollments e set last_accessed_module_id = p_module_id
  where e.user_id = (select auth.uid()) and e.course_id = v_course_id;
end;
$$;
comment on function private.open_module(uuid) is
  'Learner: records the module as last accessed on their enrolment.';
revoke all on function private.open_module(uuid) from public;
grant execute on function private.open_module(uuid) to authenticated;

-- A course without modules: each press raises progress from 0 to 20, then by 20, capped at 100.
create function private.step_course_progress(p_enrollment_id uuid)
returns public.enrollments
language plpgsql security definer
set search_path = ''
as $$
declare
  v_enrollment public.enrollments;
  v_progress integer;
begin
  select * into v_enrollment from public.enrollments e
  where e.id = p_enrollment_id and e.user_id = (select auth.uid())
  for update;
  if not found then
    raise exception 'No such enrolment of yours' using errcode = '42501';
  end if;
  if v_enrollment.status <> 'ACTIVE' then
    raise exception 'The enrolment is waiting for approval' using errcode = '42501';
  end if;
  if exists (select 1 from public.course_modules m where m.course_id = v_enrollment.course_id) then
    raise exception 'Progress on this course follows its modules' using errcode = '22023';
  end if;
  if v_enrollment.completed then
    return v_enrollment;
  end if;
  v_progress := least(100, v_enrollment.progress + 20);
  update public.enrollments e
  set progress = v_progress,
      completed = (v_progress = 100),
      completed_at = case when v_progress = 100 then now() end
  where e.id = p_enrollment_id
  returning * into v_enrollment;
  if v_enrollment.completed then
    perform private.issue_certificate(v_enrollment.user_id, v_enrollment.course_id);
  end if;
  return v_enrollment;
end;
$$;
comment on function private.step_course_progress(uuid) is
  'Learner, course without modules: progress +20 (0 -> 20 -> ... -> 100); completes and certifies at 100.';
revoke all on function private.step_course_progress(uuid) from public;
grant execute on function private.step_course_progress(uuid) to authenticated;

-- Sign-up with auto-enrolment on: enrol the new user in every featured published course. A trigger
-- on the new profile, so the profile's own creation (private.handle_new_user) is defined once.
create function private.auto_enrol_new_user()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if coalesce((select s.auto_enrollment from public.settings s where s.id), false) then
    insert into public.enrollments (user_id, course_id, status)
    select new.id, c.id, 'ACTIVE' from public.courses c
    where c.featured and c.status = 'ACTIVE'
    on conflict (user_id, course_id) do nothing;
  end if;
  return new;
end;
$$;
comment on function private.auto_enrol_new_user() is
  'After-insert trigger on profiles: with auto_enrollment on, enrols the new user in every featured published course.';
revoke all on function private.auto_enrol_new_user() from public;

-- Approve or decline a pending enrolment: the caller must author the course (as instructor) or be
-- an admin. Runs under RLS: the update and delete policies on enrollments already allow exactly
-- that; the checks here only give a precise answer. P0002: not visible (404); 42501: visible but not
-- the caller's to decide, e.g. a learner's own (403); 55000: not pending (409).
create function private.check_enrollment_decision(p_enrollment_id uuid)
returns public.enrollments
language plpgsql stable
set search_path = ''
as $$
declare
  found_row public.enrollments;
begin
  select * into found_row from public.enrollments e where e.id = p_enrollment_id;
  if not found then
    raise exception 'Enrolment not found' using errcode = 'P0002';
  end if;
  if not ((select private.is_admin()) or found_row.course_id in (select private.authored_course_ids())) then
    raise exception 'Only the course''s instructor or an administrator may decide on this enrolment' using errcode = '42501';
  end if;
  if found_row.status <> 'PENDING' then
    raise exception 'This enrolment is not awaiting approval' using errcode = '55000';
  end if;
  return found_row;
end;
$$;
comment on function private.check_enrollment_decision(uuid) is
  'Internal: the pending enrolment the caller may approve or decline, else P0002 / 42501 / 55000.';
revoke all on function private.check_enrollment_decision(uuid) from public;
grant execute on function private.check_enrollment_decision(uuid) to authenticated;

create function private.approve_enrollment(p_enrollment_id uuid)
returns public.enrollments
language plpgsql
set search_path = ''
as $$
declare
  approved public.enrollments;
begin
  perform private.check_enrollment_decision(p_enrollment_id);
  update public.enrollments e set status = 'ACTIVE'
  where e.id = p_enrollment_id and e.status = 'PENDING'
  returning * into approved;
  if not found then
    raise exception 'This enrolment is not awaiting approval' using errcode = '55000';
  end if;
  return approved;
end;
$$;
comment on function private.approve_enrollment(uuid) is
  'Approves a pending enrolment (course author or admin; RLS applies).';
revoke all on function private.approve_enrollment(uuid) from public;
grant execute on function private.approve_enrollment(uuid) to authenticated;

create function private.decline_enrollment(p_enrollment_id uuid)
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform private.check_enrollment_decision(p_enrollment_id);
  delete from public.enrollments e where e.id = p_enrollment_id and e.status = 'PENDING';
  if not found then
    raise exception 'This enrolment is not awaiting approval' using errcode = '55000';
  end if;
end;
$$;
comment on function private.decline_enrollment(uuid) is
  'Declines (removes) a pending enrolment (course author or admin; RLS applies).';
revoke all on function private.decline_enrollment(uuid) from public;
grant execute on function private.decline_enrollment(uuid) to authenticated;

-- A new enrolment starts after the last cycle that earned a certificate (the learner may have left
-- and rejoined the course); otherwise issue_certificate would find that cycle already certified.
create function private.continue_enrolment_cycle()
returns trigger
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

create function private.enrolled_courses(p_user_id uuid)
returns table(
  course_id uuid,
  title text,
  description text,
  service public.service_code,
  duration integer,
  modules integer,
  done integer,
  last_read timestamp with time zone,
  last_completed timestamp with time zone
)
language plpgsql
 STABLE SECURITY DEFINER ROWS 10
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with enrolled as materialized (
      -- The course is looked up by its key (a lateral subquery with a LIMIT is never merged into a
      -- join), so no plan reads the courses' index from end to end.
      select e.course_id, c.title, c.description, c.service, c.duration, c.status, c.author_id
      from public.enrollments e
      cross join lateral (
        select x.title, x.description, x.service, x.duration, x.status, x.author_id
        from public.courses x where x.id = e.course_id limit 1
      ) c
      where e.user_id = p_user_id
    ),
    progress as materialized (
      select p.module_id, p.completed, p.read_at, p.completed_at
      from public.user_module_progress p
      where p.user_id = p_user_id
    )
    select enrolled.course_id, enrolled.title, enrolled.description, enrolled.service, enrolled.duration,
           count(m.id)::integer, (count(*) filter (where progress.completed))::integer,
           max(progress.read_at), max(progress.completed_at)
    from enrolled
    left join public.course_modules m on m.course_id = enrolled.course_id
    left join progress on progress.module_id = m.id
    where
      -- The progress policy: one's own, an admin, or the author (instructor or admin) of the course.
      (
        p_user_id = (select auth.uid())
        or (select private.is_admin())
        or (enrolled.author_id = (select auth.uid()) and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN'))
      )
      -- The courses and modules policies: a course the caller can see (private.can_view_course).
      and (
        (enrolled.status = 'ACTIVE' and ((select auth.uid()) is not null or (select private.course_access()) <> 'login-browse'))
        or (enrolled.author_id = (select auth.uid()) and (select auth.uid()) is not null)
        or (select private.is_admin())
      )
    group by enrolled.course_id, enrolled.title, enrolled.description, enrolled.service, enrolled.duration;
end;
$$;
comment on function private.enrolled_courses(uuid) is
  'For each of the given learner''s enrolled courses where the caller may read the learner''s progress and the course (the policies of user_module_progress, courses and course_modules): the course''s title, description, service and duration, its number of modules, the modules completed, the latest read and the latest completion.';
revoke all on function private.enrolled_courses(uuid) from public;
grant execute on function private.enrolled_courses(uuid) to authenticated, service_role;

-- The caller's standing on a quiz (it lives here, not in 03_quizzes.sql, because it reads the
-- enrolment's cycle, and public.enrollments is created after the quiz tables): scored attempts in
-- the current cycle (a recertifying learner starts again: attempts before the cycle's start do not
-- count), what is left and when the next attempt may start. Security invoker: reads only the caller's own attempts and enrolment.
create function private.quiz_attempt_status(p_quiz_id uuid)
returns table(
  attempts_used integer,
  max_attempts integer,
  attempts_remaining integer,
  next_attempt_at timestamp with time zone,
  show_correct_answers text,
  retry_wait_minutes integer
)
language sql stable
set search_path = ''
as $$
  with quiz as (
    select q.id, q.max_attempts, q.retry_wait_minutes, q.show_correct_answers, m.course_id
    from public.quizzes q join public.course_modules m on m.id = q.module_id
    where q.id = p_quiz_id
  ), counted as (
    select count(*)::int as used, max(a.completed_at) as last_completed
    from quiz, public.quiz_attempts a
    where a.user_id = (select auth.uid()) and a.quiz_id = quiz.id and a.completed_at is not null
      and not exists (select 1 from public.enrollments e
                      where e.user_id = a.user_id and e.course_id = quiz.course_id
                        and e.cycle > 1 and a.completed_at < e.started_at)
  )
  select c.used,
         q.max_attempts,
         case when q.max_attempts is null then null else greatest(q.max_attempts - c.used, 0) end,
         case when q.max_attempts is not null and c.used >= q.max_attempts then null
              when q.retry_wait_minutes > 0 and c.last_completed is not null
                   and c.last_completed + make_interval(mins => q.retry_wait_minutes) > now()
                then c.last_completed + make_interval(mins => q.retry_wait_minutes)
              else null end,
         q.show_correct_answers,
         q.retry_wait_minutes
  from quiz q cross join counted c
$$;
comment on function private.quiz_attempt_status(uuid) is
  'The caller''s scored attempts at the quiz in the current cycle, the maximum, the attempts left (null = unlimited), when the next may start when waiting (else null) and the answer-display setting.';
revoke all on function private.quiz_attempt_status(uuid) from public;
grant execute on function private.quiz_attempt_status(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger enrollments_set_updated_at
  before update on public.enrollments
  for each row execute function private.set_updated_at();

create trigger user_module_progress_set_updated_at
  before update on public.user_module_progress
  for each row execute function private.set_updated_at();

create trigger enrollments_prepare
  before insert on public.enrollments
  for each row execute function private.prepare_enrollment();

create trigger profiles_auto_enrol
  after insert on public.profiles
  for each row execute function private.auto_enrol_new_user();

create trigger enrollments_continue_cycle
  before insert on public.enrollments
  for each row execute function private.continue_enrolment_cycle();

-- ===========================================================================
-- supabase/schemas/05_certificates.sql
-- ===========================================================================

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
  course_title text not null,
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

comment on column public.certificates.course_title is
  'The course title at issue.';

comment on column public.certificates.service is
  'The course''s service at issue (for the Service-Specific template).';

comment on column public.certificates.template is
  'The settings'' certificate template at issue.';

comment on column public.certificates.cycle is
  'The enrolment cycle that earned it (1 = first completion).';

comment on column public.certificates.expires_at is
  'Issued date plus the course''s validity at issue; null = never expires.';

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

create policy "users read own certificates, authors their courses', admins all"
  on public.certificates for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or course_id in (select private.authored_course_ids())
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

-- Issue the certificate of the enrolment's current cycle, with its expiry (once per cycle).
create function private.issue_certificate(p_user_id uuid, p_course_id uuid)
returns void
language sql security definer
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
comment on function private.issue_certificate(uuid,uuid) is
  'Internal: issues the certificate of the enrolment''s current cycle, with a snapshot of learner name, course title, service and template, and its expiry.';
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

create function private.verify_certificate(p_code text)
returns table(
  verification_code text,
  learner_name text,
  course_title text,
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
  select c.verification_code, c.learner_name, c.course_title, c.service, c.template, c.issued_at,
         c.expires_at, c.revoked_at, private.certificate_state(c.expires_at, c.revoked_at)
  from public.certificates c
  where c.verification_code = upper(btrim(p_code))
$$;
comment on function private.verify_certificate(text) is
  'Anyone: the certificate with this verification code (snapshot, validity and state; never the revocation reason), or no row.';
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

-- ===========================================================================
-- supabase/schemas/06_instructor_dashboard.sql
-- ===========================================================================

-- The instructor dashboard: figures and learner lists for the courses an instructor manages (their
-- own; every course for an admin), computed in SQL; instructors and admins only.

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- Refuses anyone who is neither INSTRUCTOR nor ADMIN (42501, answered 403 by the api).
create function private.require_instructor()
returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if coalesce((select private.current_role()) in ('INSTRUCTOR', 'ADMIN'), false) is false then
    raise exception 'You don''t have instructor permissions.' using errcode = '42501';
  end if;
end;
$$;
comment on function private.require_instructor() is
  'Raises 42501 unless the caller is an INSTRUCTOR or ADMIN.';
revoke all on function private.require_instructor() from public;
grant execute on function private.require_instructor() to authenticated;

-- The courses whose learners and figures the caller manages: their own, or every course for admins.
create function private.managed_course_ids()
returns setof uuid
language sql
 STABLE ROWS 20
set search_path = ''
as $$
  select c.id from public.courses c
  where (select private.is_admin()) or c.author_id = (select auth.uid())
$$;
comment on function private.managed_course_ids() is
  'Courses the caller manages: authored ones, all for admins (RLS applies).';
revoke all on function private.managed_course_ids() from public;
grant execute on function private.managed_course_ids() to authenticated;

-- Learners on the managed courses, one row per enrolment, paged; total is the unpaged count.
-- status: pending (awaiting approval), in-progress, completed. Last activity: the latest of
-- enrolling, reading a module, a quiz attempt and completing.
create function private.instructor_students(
  p_course_id uuid default NULL::uuid,
  p_status text default NULL::text,
  p_limit integer default 20,
  p_offset integer default 0
)
returns table(
  id uuid,
  user_id uuid,
  name text,
  username text,
  course_id uuid,
  course_title text,
  service public.service_code,
  progress integer,
  status text,
  started_at timestamp with time zone,
  completed_at timestamp with time zone,
  last_activity timestamp with time zone,
  total bigint
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- Checked first and explicitly: a guard inside the query could be planned away.
  perform private.require_instructor();
  return query
  with listed as (
    select e.id, e.user_id, p.name, p.username, c.id as course_id, c.title as course_title, c.service,
           e.progress,
           case when e.status = 'PENDING' then 'pending'
                when e.completed then 'completed'
                else 'in-progress' end as status,
           e.started_at, e.completed_at
    from public.enrollments e
    join public.courses c on c.id = e.course_id
    join public.profiles p on p.id = e.user_id
    where e.course_id in (select private.managed_course_ids())
      and (p_course_id is null or e.course_id = p_course_id)
  ),
  filtered as (
    select r.*, count(*) over () as total from listed r
    where p_status is null or r.status = p_status
    order by (r.status = 'pending') desc, r.started_at desc, r.id
    limit greatest(p_limit, 0) offset greatest(p_offset, 0)
  )
  select f.id, f.user_id, f.name, f.username, f.course_id, f.course_title, f.service, f.progress, f.status,
         f.started_at, f.completed_at,
         greatest(f.started_at, f.completed_at, activity.read_at, activity.attempted_at) as last_activity,
         f.total
  from filtered f
  -- Only the page's rows (at most p_limit) look up their activity, through the primary key of
  -- user_module_progress and the (user_id, quiz_id) index of quiz_attempts.
  left join lateral (
    select
      (select max(greatest(u.read_at, u.completed_at))
         from public.user_module_progress u
         join public.course_modules m on m.id = u.module_id
        where u.user_id = f.user_id and m.course_id = f.course_id) as read_at,
      (select max(coalesce(a.completed_at, a.started_at))
         from public.quiz_attempts a
         join public.quizzes q on q.id = a.quiz_id
         join public.course_modules m on m.id = q.module_id
        where a.user_id = f.user_id and m.course_id = f.course_id) as attempted_at
  ) activity on true
  order by (f.status = 'pending') desc, f.started_at desc, f.id;
end;
$$;
comment on function private.instructor_students(uuid,text,integer,integer) is
  'Enrolments on the caller''s managed courses with learner, course, progress, status and last activity; paged, with the total.';
revoke all on function private.instructor_students(uuid,text,integer,integer) from public;
grant execute on function private.instructor_students(uuid,text,integer,integer) to authenticated;

-- Per managed course: enrolments (approved), pending, completion rate and average progress of the
-- approved enrolments, and the pass rate of attempts on the course's quizzes (null with none).
create function private.instructor_analytics(p_limit integer default 20, p_offset integer default 0)
returns table(
  course_id uuid,
  title text,
  service public.service_code,
  status public.course_status,
  enrollments integer,
  pending integer,
  completed integer,
  completion_rate integer,
  average_progress integer,
  quiz_attempts integer,
  quiz_passed integer,
  quiz_pass_rate integer,
  total bigint
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- Checked first and explicitly: a guard inside the query could be planned away.
  perform private.require_instructor();
  return query
  with courses as (
    select c.id, c.title, c.service, c.status, c.created_at, count(*) over () as total
    from public.courses c
    where c.id in (select private.managed_course_ids())
    order by c.created_at desc, c.id
    limit greatest(p_limit, 0) offset greatest(p_offset, 0)
  ),
  enrolment_figures as (
    select e.course_id,
           count(*) filter (where e.status = 'ACTIVE') as enrolled,
           count(*) filter (where e.status = 'PENDING') as pending,
           count(*) filter (where e.status = 'ACTIVE' and e.completed) as completed,
           avg(e.progress) filter (where e.status = 'ACTIVE') as average_progress
    from public.enrollments e
    where e.course_id in (select c.id from courses c)
    group by e.course_id
  ),
  attempt_figures as (
    select m.course_id, count(*) as attempts, count(*) filter (where a.passed) as passed
    from public.quiz_attempts a
    join public.quizzes q on q.id = a.quiz_id
    join public.course_modules m on m.id = q.module_id
    -- an attempt opened but never submitted (timed quizzes) is not an attempt yet
    where m.course_id in (select c.id from courses c) and a.completed_at is not null
    group by m.course_id
  )
  select c.id, c.title, c.service, c.status,
         coalesce(ef.enrolled, 0)::integer,
         coalesce(ef.pending, 0)::integer,
         coalesce(ef.completed, 0)::integer,
         case when coalesce(ef.enrolled, 0) = 0 then 0
              else round(100.0 * ef.completed / ef.enrolled)::integer end,
         coalesce(round(ef.average_progress), 0)::integer,
         coalesce(af.attempts, 0)::integer,
         coalesce(af.passed, 0)::integer,
         case when coalesce(af.attempts, 0) = 0 then null
              else round(100.0 * af.passed / af.attempts)::integer end,
         c.total
  from courses c
  left join enrolment_figures ef on ef.course_id = c.id
  left join attempt_figures af on af.course_id = c.id
  order by c.created_at desc, c.id;
end;
$$;
comment on function private.instructor_analytics(integer,integer) is
  'Per managed course: approved and pending enrolments, completion rate, average progress, quiz attempts and pass rate (%, null without attempts); paged.';
revoke all on function private.instructor_analytics(integer,integer) from public;
grant execute on function private.instructor_analytics(integer,integer) to authenticated;

create function private.instructor_stats()
returns table(
  total_courses integer,
  total_students integer,
  average_completion integer,
  total_course_hours integer,
  recently_updated jsonb,
  completion_rate integer,
  average_progress integer,
  completed_enrolments integer,
  total_enrolments integer,
  pending_requests integer
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- Checked first and explicitly: a guard inside the query could be planned away.
  perform private.require_instructor();
  return query
  with mine as (
    select c.id, c.title, c.service, c.status, c.duration, c.updated_at
    from public.courses c
    where c.author_id = (select auth.uid())
  ),
  requests as (
    select e.user_id, e.progress, e.completed, e.status
    from public.enrollments e
    where e.course_id in (select m.id from mine m)
  ),
  enrolled as (
    select r.user_id, r.progress, r.completed from requests r where r.status = 'ACTIVE'
  ),
  figures as (
    select count(*)::integer as total,
           (count(*) filter (where en.completed))::integer as done,
           coalesce(round(avg(en.progress)), 0)::integer as progress
    from enrolled en
  )
  select
    (select count(*) from mine)::integer,
    (select count(distinct en.user_id) from enrolled en)::integer,
    f.progress,
    coalesce((select sum(m.duration) from mine m), 0)::integer,
    coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', r.id, 'title', r.title, 'service', r.service, 'status', r.status, 'updatedAt', r.updated_at)
             order by r.updated_at desc, r.id)
      from (select * from mine m order by m.updated_at desc, m.id limit 3) r
    ), '[]'::jsonb),
    case when f.total = 0 then 0 else round(100.0 * f.done / f.total)::integer end,
    f.progress,
    f.done,
    f.total,
    (select count(*) from requests r where r.status = 'PENDING')::integer
  from figures f;
end;
$$;
comment on function private.instructor_stats() is
  'Overview of the caller''s own courses: count, distinct enrolled learners, completion rate (completed / active enrolments, %), average progress (%), completed and active enrolments, pending enrolment requests, hours, 3 most recently updated. average_completion = average_progress (kept for old clients).';
revoke all on function private.instructor_stats() from public;
grant execute on function private.instructor_stats() to authenticated;

-- ===========================================================================
-- supabase/schemas/07_mandatory_training_and_compliance.sql
-- ===========================================================================

-- Mandatory training and compliance.
--
-- A rule (public.required_training) says that a course is required for a role, a service or both,
-- to be completed within so many days and renewed so many days before the certificate expires.
-- People the rule applies to are enrolled automatically, now and when they join later. Compliance
-- (who is complete, due, overdue or expired) is computed by private.required_training_status and
-- read by admins and by instructors for their services.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.required_training (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  role public.user_role,
  service public.service_code,
  due_within_days integer not null default 30,
  renew_before_days integer not null default 30,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint required_training_role_or_service check (role is not null or service is not null),
  constraint required_training_due_within_days_range check (due_within_days between 1 and 365),
  constraint required_training_renew_before_days_range check (renew_before_days between 0 and 365),
  constraint required_training_course_role_service_key unique nulls not distinct (course_id, role, service)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.required_training is
  'A course required for a role and/or a service: matching users are enrolled automatically and tracked for compliance.';

comment on column public.required_training.role is
  'Users of this role must take the course (null: any role, then service is set).';

comment on column public.required_training.service is
  'Users in this service must take the course (null: any service, then role is set).';

comment on column public.required_training.due_within_days is
  'Days a person who has never held a certificate has to complete it, from the rule or their enrolment, whichever is later.';

comment on column public.required_training.renew_before_days is
  'For courses whose certificate expires: renewal is due this many days before expiry.';

comment on column public.required_training.created_by is
  'Who made the rule (set null when that user is deleted).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index required_training_created_by_idx on public.required_training (created_by);

create index required_training_service_idx on public.required_training (service);

create index required_training_role_idx on public.required_training (role);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.required_training enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "rules of my courses, my services or that apply to me; admins all"
  on public.required_training for select to authenticated
  using (
    (select private.is_admin())
    or course_id in (select private.authored_course_ids())
    or ((select private.current_role()) = 'INSTRUCTOR' and service in (select unnest(private.current_services())))
    or (
      (role is null or role = (select private.current_role()))
      and (service is null or service in (select unnest(private.current_services())))
    )
  );

create policy "instructors add rules for their courses in their services; admins any"
  on public.required_training for insert to authenticated
  with check (private.manages_required_training(course_id, service));

create policy "instructors change rules of their courses in their services; admins any"
  on public.required_training for update to authenticated
  using (private.manages_required_training(course_id, service))
  with check (private.manages_required_training(course_id, service));

create policy "instructors remove rules of their courses in their services; admins any"
  on public.required_training for delete to authenticated
  using (private.manages_required_training(course_id, service));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.required_training from anon, authenticated, service_role;
grant select, delete on public.required_training to authenticated;
grant all on public.required_training to service_role;
grant insert (course_id, role, service, due_within_days, renew_before_days) on
  public.required_training to authenticated;
grant update (role, service, due_within_days, renew_before_days) on public.required_training to
  authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- A rule needs a published course; created_by is the caller for API callers, whatever was sent.
create function private.prepare_required_training()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' and current_user in ('anon', 'authenticated') then
    new.created_by := (select auth.uid());
  end if;
  if tg_op = 'INSERT' and not exists (
    select 1 from public.courses c where c.id = new.course_id and c.status = 'ACTIVE'
  ) then
    raise exception 'Only a published course can be required' using errcode = '22023';
  end if;
  return new;
end;
$$;
comment on function private.prepare_required_training() is
  'Before-insert trigger on required_training: the course must be published (22023); created_by is the API caller.';
revoke all on function private.prepare_required_training() from public;

create function private.enrol_for_required_rule()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_enrolled integer := 0;
  v_title text;
  v_old jsonb;
  v_new jsonb := jsonb_build_object('role', new.role, 'service', new.service,
    'dueWithinDays', new.due_within_days, 'renewBeforeDays', new.renew_before_days);
begin
  if tg_op = 'INSERT' or new.role is distinct from old.role or new.service is distinct from old.service
     or new.course_id is distinct from old.course_id then
    insert into public.enrollments (user_id, course_id, status)
    select p.id, new.course_id, 'ACTIVE'
    from public.profiles p
    where (new.role is null or p.role = new.role)
      and (new.service is null or p.services @> array[new.service])
      and p.deactivated_at is null
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
    get diagnostics v_enrolled = row_count;
  end if;
  if tg_op = 'UPDATE' then
    v_old := jsonb_build_object('role', old.role, 'service', old.service,
      'dueWithinDays', old.due_within_days, 'renewBeforeDays', old.renew_before_days);
    if v_old = v_new then
      return null;
    end if;
  end if;
  select c.title into v_title from public.courses c where c.id = new.course_id;
  perform private.write_audit(
    case when tg_op = 'INSERT' then 'required_training.added' else 'required_training.changed' end,
    'required_training', new.id, v_title, v_old,
    v_new || jsonb_build_object('courseId', new.course_id, 'enrolled', v_enrolled));
  return null;
end;
$$;
comment on function private.enrol_for_required_rule() is
  'After insert/update of a required_training rule: enrols (ACTIVE) every active user it matches, in one statement, and records required_training.added / .changed with how many it enrolled.';
revoke all on function private.enrol_for_required_rule() from public;

create function private.enrol_profiles_in_required_training()
returns trigger
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
comment on function private.enrol_profiles_in_required_training() is
  'After insert / update of profiles (per statement): enrols the new or re-assigned users in the required courses they now match.';
revoke all on function private.enrol_profiles_in_required_training() from public;

-- Days before a due date when an item becomes "due soon".
create function private.required_training_due_soon_days()
returns integer
language sql immutable
set search_path = ''
as $$ select 30 $$;
comment on function private.required_training_due_soon_days() is
  'A required item is due soon within this many days of its due date.';
revoke all on function private.required_training_due_soon_days() from public;
grant execute on function private.required_training_due_soon_days() to authenticated, service_role;

-- Compliance: THE status rule leaves deactivated people out (the summary, the people list, their CSV
-- and the dashboards all read it).
create function private.required_training_status(
  p_user_id uuid default NULL::uuid,
  p_service public.service_code default NULL::public.service_code,
  p_role public.user_role default NULL::public.user_role,
  p_course_id uuid default NULL::uuid
)
returns table(
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
  due_at timestamp with time zone,
  status text,
  certificate_id uuid,
  certificate_expires_at timestamp with time zone,
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
comment on function private.required_training_status(uuid,public.service_code,public.user_role,uuid) is
  'THE status rule of required training: one row per person and required (published) course the caller may see (learner: self; instructor: people sharing a service, and self; admin: all), with due date and status overdue | due-soon | in-progress | done. Filters: person, service, role, course.';
revoke all on function
  private.required_training_status(uuid,public.service_code,public.user_role,uuid) from public;
grant execute on function
  private.required_training_status(uuid,public.service_code,public.user_role,uuid) to authenticated,
  service_role;

-- How a status sorts: the most urgent first.
create function private.required_training_status_rank(p_status text)
returns integer
language sql immutable
set search_path = ''
as $$
  select case p_status when 'overdue' then 1 when 'due-soon' then 2 when 'in-progress' then 3 else 4 end
$$;
comment on function private.required_training_status_rank(text) is
  'Sort order of statuses: overdue, due-soon, in-progress, done.';
revoke all on function private.required_training_status_rank(text) from public;
grant execute on function private.required_training_status_rank(text) to authenticated,
  service_role;

-- Refuses anyone but instructors and admins (the compliance view is theirs).
create function private.require_compliance_viewer()
returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if coalesce((select private.current_role()) in ('INSTRUCTOR', 'ADMIN'), false) is false then
    raise exception 'Only instructors and administrators can see compliance' using errcode = '42501';
  end if;
end;
$$;
comment on function private.require_compliance_viewer() is
  'Raises 42501 unless the caller is an INSTRUCTOR or ADMIN.';
revoke all on function private.require_compliance_viewer() from public;
grant execute on function private.require_compliance_viewer() to authenticated, service_role;

create function private.compliance_summary(
  p_service public.service_code default NULL::public.service_code,
  p_role public.user_role default NULL::public.user_role,
  p_course_id uuid default NULL::uuid
)
returns table(
  service public.service_code,
  course_id uuid,
  course_title text,
  people bigint,
  compliant bigint,
  due_soon bigint,
  overdue bigint,
  in_progress bigint
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_compliance_viewer();
  return query
  select s.service, st.course_id, st.course_title,
         count(*),
         count(*) filter (where st.status = 'done'),
         count(*) filter (where st.status = 'due-soon'),
         count(*) filter (where st.status = 'overdue'),
         count(*) filter (where st.status = 'in-progress')
  from private.required_training_status(null, p_service, p_role, p_course_id) st
  cross join lateral (
    select u.service from unnest(st.services) u(service)
    union all
    select null::public.service_code where cardinality(st.services) = 0
  ) s
  where (p_service is null or s.service = p_service)
    and private.compliance_in_scope(p_service, array_remove(array[s.service], null))
  group by s.service, st.course_id, st.course_title
  order by s.service nulls last, st.course_title, st.course_id;
end;
$$;
comment on function private.compliance_summary(public.service_code,public.user_role,uuid) is
  'Instructors and admins: per service and required course, people required, compliant (done), due soon, overdue, in progress.';
revoke all on function private.compliance_summary(public.service_code,public.user_role,uuid) from
  public;
grant execute on function private.compliance_summary(public.service_code,public.user_role,uuid) to
  authenticated, service_role;

create function private.compliance_people(
  p_service public.service_code default NULL::public.service_code,
  p_role public.user_role default NULL::public.user_role,
  p_course_id uuid default NULL::uuid,
  p_status text default NULL::text,
  p_limit integer default 20,
  p_offset integer default 0
)
returns table(
  user_id uuid,
  username text,
  name text,
  email text,
  role public.user_role,
  services public.service_code[],
  course_id uuid,
  course_title text,
  progress integer,
  due_at timestamp with time zone,
  status text,
  certificate_expires_at timestamp with time zone,
  total bigint
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_compliance_viewer();
  return query
  select st.user_id, st.username, st.name, st.email, st.role, st.services, st.course_id, st.course_title,
         st.progress, st.due_at, st.status, st.certificate_expires_at, count(*) over ()
  from private.required_training_status(null, p_service, p_role, p_course_id) st
  where (p_status is null or st.status = p_status)
    and private.compliance_in_scope(p_service, st.services)
  order by private.required_training_status_rank(st.status), st.due_at nulls last, st.name, st.user_id, st.course_title
  limit greatest(p_limit, 0) offset greatest(p_offset, 0);
end;
$$;
comment on function private.compliance_people(public.service_code,public.user_role,uuid,text,integer,integer) is
  'Instructors and admins: the people required to take courses, with status and due date, most urgent first, paged.';
revoke all on function
  private.compliance_people(public.service_code,public.user_role,uuid,text,integer,integer) from
  public;
grant execute on function
  private.compliance_people(public.service_code,public.user_role,uuid,text,integer,integer) to
  authenticated, service_role;

create function private.compliance_in_scope(
  p_service public.service_code,
  p_person_services public.service_code[]
)
returns boolean
language sql stable
set search_path = ''
as $$
  select (select private.is_admin())
      or (p_person_services && (select private.current_services())
          and (p_service is null or array[p_service] <@ (select private.current_services())))
$$;
comment on function private.compliance_in_scope(public.service_code,public.service_code[]) is
  'THE scope rule of compliance views: admins see everyone; instructors a person of one of their services (and, with a service filter, only a service of their own).';
revoke all on function private.compliance_in_scope(public.service_code,public.service_code[]) from
  public;
grant execute on function private.compliance_in_scope(public.service_code,public.service_code[]) to
  authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger required_training_set_updated_at
  before update on public.required_training
  for each row execute function private.set_updated_at();

create trigger required_training_prepare
  before insert on public.required_training
  for each row execute function private.prepare_required_training();

create trigger profiles_required_training_insert
  after insert on public.profiles
  referencing new table as new_rows
  for each statement execute function private.enrol_profiles_in_required_training();

create trigger profiles_required_training_update
  after update on public.profiles
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.enrol_profiles_in_required_training();

create trigger required_training_enrol
  after insert or update on public.required_training
  for each row execute function private.enrol_for_required_rule();

-- ===========================================================================
-- supabase/schemas/08_cpd.sql
-- ===========================================================================

-- Continuing professional development (CPD): entries a learner records themselves (activity,
-- date, hours, what they learnt, a reflection), and the learning record that joins them with completed courses and
-- certificates. A learner manages only their own entries; admins read all.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.cpd_entries (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  activity_date date not null,
  activity text not null,
  hours numeric(6, 2) not null,
  learnt text not null,
  reflection text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint cpd_entries_activity_length check (char_length(btrim(activity)) between 3 and 200),
  constraint cpd_entries_learnt_length check (char_length(btrim(learnt)) between 1 and 5000),
  constraint cpd_entries_reflection_length check (char_length(reflection) <= 5000),
  -- Quarter hours (15 minutes), from a quarter of an hour to 1,000 hours.
  constraint cpd_entries_hours_range check (hours between 0.25 and 1000),
  constraint cpd_entries_hours_quarters check (mod(hours * 4, 1) = 0),
  constraint cpd_entries_activity_date_floor check (activity_date >= date '1950-01-01')
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.cpd_entries is
  'A learner''s own CPD activity (outside the courses): read and written by the learner, read by admins. Deleted with the learner.';

comment on column public.cpd_entries.user_id is
  'The learner; always the caller (auth.uid()) when an API role inserts.';

comment on column public.cpd_entries.activity_date is
  'When the activity took place (a London calendar date, never in the future).';

comment on column public.cpd_entries.activity is
  'What the activity was, 3 to 200 characters.';

comment on column public.cpd_entries.hours is
  'Hours spent, in quarter hours from 0.25 to 1000.';

comment on column public.cpd_entries.learnt is
  'What the learner learnt (required, up to 5000 characters).';

comment on column public.cpd_entries.reflection is
  'How it changes their practice (optional, up to 5000 characters).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

-- The learner's entries newest first (and the foreign key's index).
create index cpd_entries_user_date_idx on public.cpd_entries (user_id, activity_date desc);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.cpd_entries enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "learners read their own CPD entries and admins all"
  on public.cpd_entries for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

create policy "learners add CPD entries for themselves"
  on public.cpd_entries for insert to authenticated
  with check (user_id = (select auth.uid()));

create policy "learners change their own CPD entries"
  on public.cpd_entries for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "learners delete their own CPD entries"
  on public.cpd_entries for delete to authenticated
  using (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.cpd_entries from anon, authenticated, service_role;
grant all on public.cpd_entries to service_role;
grant select, delete on public.cpd_entries to authenticated;
grant insert (activity_date, activity, hours, learnt, reflection) on public.cpd_entries to
  authenticated;
grant update (activity_date, activity, hours, learnt, reflection) on public.cpd_entries to
  authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- A CPD activity cannot be dated in the future (London's calendar). A check constraint may not use
-- the clock, so a trigger enforces it on every insert and on every change of the date.
create function private.cpd_entry_date_not_future()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.activity_date > (now() at time zone 'Europe/London')::date then
    raise exception 'The activity date cannot be in the future' using errcode = '23514';
  end if;
  return new;
end;
$$;
comment on function private.cpd_entry_date_not_future() is
  'Before insert/update of activity_date on cpd_entries: refuses a date after today in London (23514).';
revoke all on function private.cpd_entry_date_not_future() from public;

-- The completed-courses half of the learning record, in one query: every certificate of the learner
-- (all cycles, newest first) with the course's hours (courses.duration, whole hours; null once the
-- course is deleted), the service and title as issued, the certificate's code, expiry and state
-- (private.certificate_state), and the score where the course has a quiz.
-- Score: for each quiz of the course, the learner's best passed attempt (percent of points) in that
-- cycle's period, i.e. completed after the previous certificate of the course was issued and no later
-- than this one (the attempts that earned it); the course's score is the mean of those, rounded.
-- Null when the course has no quiz or no passed attempt falls in the period.
-- Security definer so that an archived or withdrawn course still shows its hours and quiz score,
-- which the learner can no longer read; it answers only for the caller themselves or an admin.
create function private.learning_record(p_user_id uuid)
returns table(
  certificate_id uuid,
  course_id uuid,
  course_title text,
  service text,
  cycle integer,
  completed_at timestamp with time zone,
  hours integer,
  score integer,
  verification_code text,
  expires_at timestamp with time zone,
  revoked_at timestamp with time zone,
  state text
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  if p_user_id is distinct from (select auth.uid()) and not (select private.is_admin()) then
    raise exception 'Only the learner and administrators may read a learning record' using errcode = '42501';
  end if;
  return query
    with history as (
      select c.*,
             lag(c.issued_at) over (partition by c.course_id order by c.issued_at) as previous_issued_at
      from public.certificates c
      where c.user_id = p_user_id
    )
    select h.id, h.course_id, h.course_title, h.service::text, h.cycle, h.issued_at, co.duration,
           s.score, h.verification_code, h.expires_at, h.revoked_at,
           private.certificate_state(h.expires_at, h.revoked_at)
    from history h
    left join public.courses co on co.id = h.course_id
    left join lateral (
      select round(avg(best.pct))::integer as score
      from (
        select max(round(100.0 * a.score / nullif(a.max_score, 0))) as pct
        from public.course_modules m
        join public.quizzes q on q.module_id = m.id
        join public.quiz_attempts a on a.quiz_id = q.id and a.user_id = p_user_id
        where m.course_id = h.course_id
          and a.passed
          and a.completed_at <= h.issued_at
          and (h.previous_issued_at is null or a.completed_at > h.previous_issued_at)
        group by q.id
      ) best
    ) s on true
    order by h.issued_at desc, h.id;
end;
$$;
comment on function private.learning_record(uuid) is
  'The learner''s completed courses (every certificate, all cycles) with hours, service, quiz score, code, expiry and state. Caller must be the learner or an admin (else 42501).';
revoke all on function private.learning_record(uuid) from public;
grant execute on function private.learning_record(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger cpd_entries_set_updated_at
  before update on public.cpd_entries
  for each row execute function private.set_updated_at();

create trigger cpd_entries_date_not_future
  before insert or update of activity_date on public.cpd_entries
  for each row execute function private.cpd_entry_date_not_future();

-- ===========================================================================
-- supabase/schemas/09_user_import.sql
-- ===========================================================================

-- Bulk user import by admins: the CSV's rows are staged in private.user_import_rows, checked for
-- clashes with existing usernames and emails, then private.import_users creates the Auth users
-- and profiles in one transaction. The staging table is not readable by any API role.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table private.user_import_rows (
  user_id uuid primary key,
  batch_id uuid not null,
  line integer not null,
  username text not null,
  email text not null,
  name text not null,
  role public.user_role not null,
  services public.service_code[] not null,
  problem_field text,
  problem text
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table private.user_import_rows is
  'Rows of the user import in progress, inside private.import_users''s transaction only (deleted before it returns).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index user_import_rows_batch_idx on private.user_import_rows (batch_id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table private.user_import_rows enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- No API role has any privilege on it either; the policy says so explicitly (and keeps the advisors quiet).
create policy "no API role reads import staging rows"
  on private.user_import_rows for select to anon, authenticated
  using (false);

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.user_import_clashes(p_usernames text[], p_emails text[])
returns table(field text, value text)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only administrators may import users' using errcode = '42501';
  end if;
  if coalesce(cardinality(p_usernames), 0) > 10000 or coalesce(cardinality(p_emails), 0) > 10000 then
    raise exception 'At most 10,000 usernames and emails per check' using errcode = '22023';
  end if;
  -- One statement for the whole file: index probes on profiles_username_lower_key,
  -- profiles_email_lower_idx and auth.users' users_email_partial_key (Auth stores emails lowercased).
  return query
    select 'username'::text, lower(btrim(u.value))
    from (select distinct lower(btrim(x)) as value from unnest(p_usernames) x) u
    where exists (select 1 from public.profiles p where lower(p.username) = u.value)
    union all
    select 'email'::text, e.value
    from (select distinct lower(btrim(x)) as value from unnest(p_emails) x) e
    where exists (select 1 from auth.users a where a.email = e.value and a.is_sso_user = false)
       or exists (select 1 from public.profiles p where lower(p.email) = e.value);
end;
$$;
comment on function private.user_import_clashes(text[],text[]) is
  'Admins: which of these usernames and emails (compared lowercased) are already taken; one statement for a whole import file.';
revoke all on function private.user_import_clashes(text[],text[]) from public;
grant execute on function private.user_import_clashes(text[],text[]) to authenticated;

create function private.import_users(p_import_id uuid, p_part integer, p_rows jsonb)
returns table(line integer, user_id uuid, field text, problem text)
language plpgsql security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_batch uuid := gen_random_uuid();
  v_actor uuid := auth.uid();
  v_total integer;
  v_created integer;
begin
  if not private.is_admin() then
    raise exception 'Only administrators may import users' using errcode = '42501';
  end if;
  if p_import_id is null or p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'An import id and an array of rows are required' using errcode = '22023';
  end if;
  v_total := jsonb_array_length(p_rows);
  if v_total > 1000 then
    raise exception 'At most 1,000 users per call' using errcode = '22023';
  end if;

  -- Stage. Casts and the NOT NULLs refuse malformed rows (22P02 / 23502: the whole call fails).
  insert into private.user_import_rows (user_id, batch_id, line, username, email, name, role, services)
  select gen_random_uuid(), v_batch, r.line, btrim(r.username), lower(btrim(r.email)), btrim(r.name),
         coalesce(r.role, 'STUDENT')::public.user_role, coalesce(r.services, '{}')::public.service_code[]
  from jsonb_to_recordset(p_rows) as r(line integer, username text, email text, name text, role text,
                                       services text[], password text);
  if (select count(distinct s.line) from private.user_import_rows s where s.batch_id = v_batch) <> v_total then
    raise exception 'Every row needs its own line number' using errcode = '22023';
  end if;
  if exists (
    select 1 from jsonb_to_recordset(p_rows) as r(password text)
    where r.password is null or char_length(r.password) not between 16 and 72
  ) then
    raise exception 'Every row needs a generated password of 16 to 72 characters' using errcode = '22023';
  end if;

  -- Taken now (re-checked here, never trusted from the preview), then repeats within the batch:
  -- the first line wins.
  update private.user_import_rows s
  set problem_field = 'username', problem = 'Username is already taken'
  where s.batch_id = v_batch
    and exists (select 1 from public.profiles p where lower(p.username) = lower(s.username));
  update private.user_import_rows s
  set problem_field = 'email', problem = 'Email is already registered'
  where s.batch_id = v_batch and s.problem is null
    and (exists (select 1 from auth.users a where a.email = s.email and a.is_sso_user = false)
         or exists (select 1 from public.profiles p where lower(p.email) = s.email));
  update private.user_import_rows s
  set problem_field = d.field, problem = d.message
  from (
    select x.user_id,
           case when x.username_rank > 1 then 'username' else 'email' end as field,
           case when x.username_rank > 1 then 'Username appears earlier in the file' else 'Email appears earlier in the file' end as message
    from (
      select t.user_id,
             row_number() over (partition by lower(t.username) order by t.line) as username_rank,
             row_number() over (partition by t.email order by t.line) as email_rank
      from private.user_import_rows t
      where t.batch_id = v_batch and t.problem is null
    ) x
    where x.username_rank > 1 or x.email_rank > 1
  ) d
  where s.user_id = d.user_id;

  -- The accounts, as Supabase Auth's admin create writes them (confirmed email, email identity).
  -- The temporary passwords are 20 random characters from a 67-letter alphabet (about 120 bits):
  -- a guess is hopeless whatever the hash cost, so bcrypt cost 4 (~1 ms) is as safe for them as
  -- cost 10 (~70 ms) and 10,000 of them hash in seconds. Supabase Auth (Go's bcrypt) and the local
  -- platform (bcryptjs) verify any cost from 4 up; a user's own new password is hashed at cost 10.
  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
    confirmation_token, recovery_token, email_change_token_new, email_change,
    raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at, is_anonymous)
  select '00000000-0000-0000-0000-000000000000'::uuid, s.user_id, 'authenticated', 'authenticated', s.email,
         extensions.crypt(r.password, extensions.gen_salt('bf', 4)), now(), '', '', '', '',
         jsonb_build_object('provider', 'email', 'providers', jsonb_build_array('email'), 'created_by', v_actor,
                            'import_id', p_import_id),
         jsonb_build_object('username', s.username, 'name', s.name), false, now(), now(), false
  from private.user_import_rows s
  join jsonb_to_recordset(p_rows) as r(line integer, password text) on r.line = s.line
  where s.batch_id = v_batch and s.problem is null;
  get diagnostics v_created = row_count;

  insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
  select s.user_id::text, s.user_id,
         jsonb_build_object('sub', s.user_id::text, 'email', s.email, 'email_verified', true, 'phone_verified', false),
         'email', null, now(), now()
  from private.user_import_rows s
  where s.batch_id = v_batch and s.problem is null;

  if v_created > 0 then
    perform private.write_audit('users.imported', 'users', null, v_created::text || ' users imported', null,
      jsonb_build_object(
        'importId', p_import_id, 'part', p_part, 'created', v_created, 'skipped', v_total - v_created,
        'roles', (select jsonb_object_agg(g.role, g.n) from (
                    select s.role, count(*) as n from private.user_import_rows s
                    where s.batch_id = v_batch and s.problem is null group by s.role) g)));
  end if;

  return query
    select s.line, case when s.problem is null then s.user_id end, s.problem_field, s.problem
    from private.user_import_rows s where s.batch_id = v_batch order by s.line;

  delete from private.user_import_rows s where s.batch_id = v_batch;
end;
$$;
comment on function private.import_users(uuid,integer,jsonb) is
  'Admins: creates the Auth users of up to 1,000 rows [{line, username, email, name, role, services, password}] in one transaction; returns each line with the new user id, or the field and reason it was skipped.';
revoke all on function private.import_users(uuid,integer,jsonb) from public;
grant execute on function private.import_users(uuid,integer,jsonb) to authenticated;

-- ===========================================================================
-- supabase/schemas/10_audit.sql
-- ===========================================================================

-- The audit trail: who did what to whom, and when. Written by triggers on the audited tables (so
-- no route can forget to write it) and by the security-definer functions that act for an admin;
-- read only by admins. The API roles cannot insert, update or delete events.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

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

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.audit_events is
  'Who changed what and when: written by triggers only (role/services, users created/deleted, settings, course deletions); read by admins.';

comment on column public.audit_events.actor_id is
  'auth.uid() of the caller; for accounts created through the Auth admin API, app_metadata.created_by.';

comment on column public.audit_events.actor_name is
  'The actor''s name when the event happened (kept after the actor is deleted).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index audit_events_occurred_at_idx on public.audit_events (occurred_at desc, id desc);

create index audit_events_target_id_idx on public.audit_events (target_id);

-- Filters of the Activity tab: by actor and by kind, newest first.
create index audit_events_actor_idx on public.audit_events (actor_id, occurred_at desc, id desc);

create index audit_events_action_idx on public.audit_events (action, occurred_at desc, id desc);

-- The Activity tab's search box (issue 15.2): words of the target, the actor's name or username,
-- matched anywhere (LIKE '%...%') through a trigram index on the same expression the api queries.
create index audit_events_search_idx on public.audit_events using gin
  (lower(coalesce(target_label, '') || ' ' || coalesce(actor_name, '') || ' ' || coalesce(actor_username, '')) extensions.gin_trgm_ops);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.audit_events enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "admins read the audit trail"
  on public.audit_events for select to authenticated
  using ((select private.is_admin()));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.audit_events from anon, authenticated, service_role;
grant all on public.audit_events to service_role;
grant select on public.audit_events to authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.write_audit(
  p_action text,
  p_target_type text,
  p_target_id uuid,
  p_target_label text,
  p_old jsonb,
  p_new jsonb,
  p_actor uuid default NULL::uuid
)
returns void
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
comment on function private.write_audit(text,text,uuid,text,jsonb,jsonb,uuid) is
  'Appends one audit event; the actor defaults to auth.uid().';
revoke all on function private.write_audit(text,text,uuid,text,jsonb,jsonb,uuid) from public;

-- A new profile is audited as a user created, except for imported users: their import writes one
-- event for the whole file.
create function private.audit_profile_insert()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_created_by uuid;
begin
  if exists (select 1 from private.user_import_rows r where r.user_id = new.id) then
    return null;
  end if;
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

create function private.audit_profile_delete()
returns trigger
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

-- Role/services changes, per statement: one event per user for a single edit, one summary event for
-- a bulk update (a role's services set for 100,000 students must not write 100,000 events).
create function private.audit_profile_update()
returns trigger
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

-- Settings: only the fields that changed.
create function private.audit_settings_update()
returns trigger
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

create function private.audit_course_delete()
returns trigger
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

-- The audit trail (private.write_audit, as the administration triggers): whoever revokes, however.
create function private.audit_certificate_revoke()
returns trigger
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
comment on function private.audit_certificate_revoke() is
  'After-update trigger on certificates: records a revocation in audit_events.';
revoke all on function private.audit_certificate_revoke() from public;

create function private.audit_course_insert()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.write_audit('course.created', 'course', new.id, new.title, null,
    jsonb_build_object('title', new.title, 'service', new.service, 'status', new.status, 'authorId', new.author_id));
  return null;
end;
$$;
comment on function private.audit_course_insert() is
  'After insert on courses: records course.created.';
revoke all on function private.audit_course_insert() from public;

create function private.audit_course_status()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.status is distinct from old.status then
    perform private.write_audit(
      case new.status when 'ACTIVE' then 'course.published' when 'ARCHIVED' then 'course.archived' else 'course.unpublished' end,
      'course', new.id, new.title,
      jsonb_build_object('status', old.status), jsonb_build_object('status', new.status));
  end if;
  return null;
end;
$$;
comment on function private.audit_course_status() is
  'After update of status on courses: records course.published / .archived / .unpublished.';
revoke all on function private.audit_course_status() from public;

-- Only a statement of the caller's own (pg_trigger_depth() = 1): a required-training rule that
-- activates a pending request, or a course deletion cascading to its enrolments, is not a decision.
-- A learner withdrawing their own request is not one either.
create function private.audit_enrollment_decision()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.enrollments := case when tg_op = 'DELETE' then old else new end;
  v_learner text;
  v_course text;
begin
  if pg_trigger_depth() > 1 or old.status <> 'PENDING' then
    return null;
  end if;
  if tg_op = 'UPDATE' and new.status is not distinct from old.status then
    return null;
  end if;
  if tg_op = 'DELETE' and old.user_id = auth.uid() then
    return null;
  end if;
  select p.name into v_learner from public.profiles p where p.id = v_row.user_id;
  select c.title into v_course from public.courses c where c.id = v_row.course_id;
  perform private.write_audit(
    case when tg_op = 'DELETE' then 'enrollment.declined' else 'enrollment.approved' end,
    'enrollment', v_row.id, coalesce(v_learner, '?') || ' – ' || coalesce(v_course, '?'),
    jsonb_build_object('status', 'PENDING', 'learner', v_learner, 'course', v_course, 'courseId', v_row.course_id, 'userId', v_row.user_id),
    case when tg_op = 'DELETE' then null
         else jsonb_build_object('status', new.status, 'learner', v_learner, 'course', v_course) end);
  return null;
end;
$$;
comment on function private.audit_enrollment_decision() is
  'After update of status / delete on enrollments: records enrollment.approved / .declined (a pending request decided by someone else, not by a trigger).';
revoke all on function private.audit_enrollment_decision() from public;

create function private.audit_required_training_delete()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_title text;
begin
  -- A course deleted takes its rules with it: course.deleted says so already.
  if pg_trigger_depth() > 1 then
    return null;
  end if;
  select c.title into v_title from public.courses c where c.id = old.course_id;
  perform private.write_audit('required_training.removed', 'required_training', old.id, v_title,
    jsonb_build_object('role', old.role, 'service', old.service, 'dueWithinDays', old.due_within_days,
      'renewBeforeDays', old.renew_before_days, 'courseId', old.course_id),
    null);
  return null;
end;
$$;
comment on function private.audit_required_training_delete() is
  'After delete on required_training: records required_training.removed.';
revoke all on function private.audit_required_training_delete() from public;

-- Kinds only the triggers write: no request may record one of them, so none can be forged.
create function private.trigger_audit_kinds()
returns text[]
language sql immutable
set search_path = ''
as $$
  select array[
    'user.created', 'user.deleted', 'user.permissions_changed', 'users.permissions_changed', 'users.imported',
    'user.deactivated', 'user.reactivated', 'settings.updated',
    'course.created', 'course.published', 'course.unpublished', 'course.archived', 'course.deleted',
    'enrollment.approved', 'enrollment.declined', 'certificate.revoked',
    'required_training.added', 'required_training.changed', 'required_training.removed'
  ]
$$;
comment on function private.trigger_audit_kinds() is
  'The audit kinds only triggers write (private.record_audit_event refuses them).';
revoke all on function private.trigger_audit_kinds() from public;

create function private.record_audit_event(
  p_action text,
  p_target_type text,
  p_target_id uuid,
  p_target_label text,
  p_old jsonb default NULL::jsonb,
  p_new jsonb default NULL::jsonb
)
returns bigint
language plpgsql security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may record audit events' using errcode = '42501';
  end if;
  if p_action is null or p_action !~ '^[a-z_]{2,40}\.[a-z_]{2,40}$' or p_action = any (private.trigger_audit_kinds()) then
    raise exception 'Not an audit kind a request may record: %', p_action using errcode = '22023';
  end if;
  if p_target_type is null or p_target_type !~ '^[a-z_]{2,40}$' then
    raise exception 'Not an audit target type: %', p_target_type using errcode = '22023';
  end if;
  perform private.write_audit(p_action, p_target_type, p_target_id, left(p_target_label, 300), p_old, p_new);
  return (select max(id) from public.audit_events where actor_id = auth.uid());
end;
$$;
comment on function private.record_audit_event(text,text,uuid,text,jsonb,jsonb) is
  'Admins only: records an event the triggers cannot see (e.g. password.reset, password.forced_change, certificate.reissued) in the caller''s transaction. Kind: word.word, never one of private.trigger_audit_kinds(). 42501 / 22023.';
revoke all on function private.record_audit_event(text,text,uuid,text,jsonb,jsonb) from public;
grant execute on function private.record_audit_event(text,text,uuid,text,jsonb,jsonb) to
  authenticated;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger profiles_audit_insert
  after insert on public.profiles
  for each row execute function private.audit_profile_insert();

create trigger profiles_audit_delete
  after delete on public.profiles
  for each row execute function private.audit_profile_delete();

create trigger profiles_audit_update
  after update on public.profiles
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.audit_profile_update();

create trigger settings_audit_update
  after update on public.settings
  for each row execute function private.audit_settings_update();

create trigger courses_audit_delete
  after delete on public.courses
  for each row execute function private.audit_course_delete();

create trigger certificates_audit_revoke
  after update of revoked_at on public.certificates
  for each row execute function private.audit_certificate_revoke();

create trigger courses_audit_insert
  after insert on public.courses
  for each row execute function private.audit_course_insert();

create trigger courses_audit_status
  after update of status on public.courses
  for each row execute function private.audit_course_status();

create trigger enrollments_audit_decision
  after update of status or delete on public.enrollments
  for each row execute function private.audit_enrollment_decision();

create trigger required_training_audit_delete
  after delete on public.required_training
  for each row execute function private.audit_required_training_delete();

-- ===========================================================================
-- supabase/schemas/11_rate_limits.sql
-- ===========================================================================

-- Sign-in and registration limits, counted per account and per address across every instance of
-- the api function. A device that has signed in to an account before is remembered (by a hash of
-- its token) so that an attacker's failures do not lock the owner out. Only the service role uses
-- these tables, through the two functions below.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table private.rate_limit_attempts (
  id bigint generated always as identity primary key,
  action text not null check (action in ('sign_in', 'register')),
  account text check (account is null or length(account) <= 320),
  address text not null default '' check (length(address) <= 100),
  attempted_at timestamptz not null default now(),
  device text check (device is null or device ~ '^[0-9a-f]{64}$')
);

create table private.sign_in_devices (
  device_hash text not null check (device_hash ~ '^[0-9a-f]{64}$'),
  account text not null check (length(account) <= 320),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  primary key (device_hash, account)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table private.rate_limit_attempts is
  'Counted sign-in and registration attempts (see private.rate_limit_take). Only the private functions touch it.';

comment on column private.rate_limit_attempts.device is
  'sha256 (hex) of the known-device token the attempt came with, when it was valid for the account.';

comment on table private.sign_in_devices is
  'Browsers where an account has signed in successfully: sha256 of the device token the function gave them, per account (lowercased email). Known for 90 days after the last success.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index rate_limit_attempts_account_idx on private.rate_limit_attempts (action, account, attempted_at)
  where account is not null;

create index rate_limit_attempts_address_idx on private.rate_limit_attempts (action, address, attempted_at);

create index rate_limit_attempts_time_idx on private.rate_limit_attempts (attempted_at);

create index rate_limit_attempts_device_idx on private.rate_limit_attempts (action, account, device, attempted_at)
  where device is not null;

create index sign_in_devices_seen_idx on private.sign_in_devices (last_seen_at);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table private.rate_limit_attempts enable row level security;

alter table private.sign_in_devices enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "no direct access" on private.rate_limit_attempts as restrictive for all to public
  using (false) with check (false);

create policy "no direct access" on private.sign_in_devices as restrictive for all to public
  using (false) with check (false);

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.rate_limit_take(
  p_action text,
  p_account text,
  p_address text,
  p_device text default NULL::text,
  OUT retry_after integer,
  OUT ticket bigint
)
returns record
language plpgsql security definer
set search_path = ''
as $$
declare
  v_window interval;
  v_account text := left(nullif(lower(btrim(coalesce(p_account, ''))), ''), 320);
  v_address text := left(btrim(coalesce(p_address, '')), 100);
  v_device text;
  v_wait integer := 0;

  -- Seconds until the oldest of `limit` counted rows leaves the window; 0 below the limit.
  v_count integer;
  v_oldest timestamptz;
begin
  case p_action
    when 'sign_in' then v_window := interval '15 minutes';
    when 'register' then v_window := interval '1 hour';
    else raise exception 'Unknown rate-limited action %', p_action using errcode = '22023';
  end case;

  -- A known device counts on its own (sign-in only).
  if p_action = 'sign_in' and v_account is not null and p_device ~ '^[0-9a-f]{64}$' then
    select d.device_hash into v_device from private.sign_in_devices d
    where d.device_hash = p_device and d.account = v_account and d.last_seen_at > now() - interval '90 days';
  end if;

  -- One lock per subject, always account before address: parallel attempts queue here.
  if v_account is not null then
    perform pg_advisory_xact_lock(hashtextextended('rate_limit:' || p_action || ':account:' || v_account, 0));
  end if;
  if v_device is null then
    perform pg_advisory_xact_lock(hashtextextended('rate_limit:' || p_action || ':address:' || v_address, 0));
  end if;

  if v_device is not null then
    select count(*), min(a.attempted_at) into v_count, v_oldest from private.rate_limit_attempts a
    where a.action = p_action and a.account = v_account and a.device = v_device and a.attempted_at > now() - v_window;
    if v_count >= 5 then v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer); end if;
  else
    if v_account is not null then
      if p_action = 'sign_in' then
        -- 5 per (account, address) ...
        select count(*), min(a.attempted_at) into v_count, v_oldest from private.rate_limit_attempts a
        where a.action = p_action and a.account = v_account and a.address = v_address and a.device is null
          and a.attempted_at > now() - v_window;
        if v_count >= 5 then v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer); end if;
        -- ... and 20 per account from every address that is not a known device.
        select count(*), min(a.attempted_at) into v_count, v_oldest from private.rate_limit_attempts a
        where a.action = p_action and a.account = v_account and a.device is null and a.attempted_at > now() - v_window;
        if v_count >= 20 then v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer); end if;
      else
        select count(*), min(a.attempted_at) into v_count, v_oldest from private.rate_limit_attempts a
        where a.action = p_action and a.account = v_account and a.attempted_at > now() - v_window;
        if v_count >= 5 then v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer); end if;
      end if;
    end if;
    select count(*), min(a.attempted_at) into v_count, v_oldest from private.rate_limit_attempts a
    where a.action = p_action and a.address = v_address and a.device is null and a.attempted_at > now() - v_window;
    if v_count >= (case p_action when 'sign_in' then 50 else 20 end) then
      v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer);
    end if;
  end if;

  delete from private.rate_limit_attempts a where a.attempted_at < now() - interval '1 hour';

  if v_wait > 0 then
    retry_after := greatest(v_wait, 1);
    ticket := null;
    return;
  end if;
  insert into private.rate_limit_attempts (action, account, address, device)
  values (p_action, v_account, v_address, v_device)
  returning id into ticket;
  retry_after := 0;
end;
$$;
comment on function private.rate_limit_take(text,text,text,text) is
  'Counts and records a sign_in or register attempt atomically; retry_after > 0 when a limit is reached. p_device: sha256 hex of the browser''s known-device token.';
revoke all on function private.rate_limit_take(text,text,text,text) from public;
grant execute on function private.rate_limit_take(text,text,text,text) to service_role;

-- A successful sign-in: its attempt no longer counts, nor do that account's failures, and the
-- browser's device token (sha256 hex) becomes known for the account.
create function private.rate_limit_succeeded(p_ticket bigint, p_device text default NULL::text)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row private.rate_limit_attempts;
begin
  delete from private.rate_limit_attempts a where a.id = p_ticket returning * into v_row;
  if v_row.action = 'sign_in' and v_row.account is not null then
    delete from private.rate_limit_attempts a where a.action = 'sign_in' and a.account = v_row.account;
    if p_device ~ '^[0-9a-f]{64}$' then
      insert into private.sign_in_devices (device_hash, account) values (p_device, v_row.account)
      on conflict (device_hash, account) do update set last_seen_at = now();
    end if;
  end if;
  delete from private.sign_in_devices d where d.last_seen_at < now() - interval '90 days';
end;
$$;
comment on function private.rate_limit_succeeded(bigint,text) is
  'Removes a successful sign-in''s attempt, clears that account''s sign-in failures and remembers the browser''s device token for the account.';
revoke all on function private.rate_limit_succeeded(bigint,text) from public;
grant execute on function private.rate_limit_succeeded(bigint,text) to service_role;

-- ===========================================================================
-- supabase/schemas/12_storage.sql
-- ===========================================================================

-- Storage: the image buckets for course covers and module images. Both are public for reading by
-- URL; nobody writes through the API roles: the api function checks the content and size and
-- uploads with the service role, then records the object's name through the functions below.

-- ---------------------------------------------------------------------------
-- Buckets
-- ---------------------------------------------------------------------------

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('course-covers', 'course-covers', true, 5242880, array['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  ('module-images', 'module-images', true, 5242880, array['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
on conflict (id) do nothing;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "administrators list course covers and module images"
  on storage.objects for select to authenticated
  using (bucket_id in ('course-covers', 'module-images') and (select private.is_admin()));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

-- Row-level security does not govern TRUNCATE, TRIGGER or REFERENCES: the API roles get none of
-- them on the storage tables either.
do $$
begin
  revoke truncate, trigger, references on storage.objects, storage.buckets from anon, authenticated;
exception when insufficient_privilege then
  -- Hosted Supabase: the storage schema belongs to supabase_storage_admin, which manages these.
  raise notice 'storage privileges left to the storage owner: %', sqlerrm;
end;
$$;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- The object name a URL of ours names in `bucket`, when it lies in `course_id`'s folder and exists.
create function private.course_object_name(p_bucket text, p_course_id uuid, p_url text)
returns text
language sql stable security definer
set search_path = ''
as $$
  select o.name from storage.objects o
  where o.bucket_id = p_bucket
    and o.name = p_course_id::text || '/' || substring(p_url from '/storage/v1/object/public/' || p_bucket || '/' || p_course_id::text || '/([A-Za-z0-9-]+\.(?:png|jpg|webp|gif))$')
$$;
comment on function private.course_object_name(text,uuid,text) is
  'The storage object a public URL names in the bucket, if it lies in the course''s own folder and exists; null otherwise.';
revoke all on function private.course_object_name(text,uuid,text) from public;

-- Sets a course's cover; returns the URL it replaced. 42501 when the caller may not change the
-- course, 22023 when the URL is not an existing file of this course's folder.
create function private.set_course_cover(p_course_id uuid, p_url text)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_old text;
begin
  -- The same rule as the policy "authors update their own courses and admins any".
  select c.cover_image into v_old from public.courses c
  where c.id = p_course_id
    and ((select private.is_admin())
         or (c.author_id = (select auth.uid()) and (select private.current_role()) = 'INSTRUCTOR'))
  for update;
  if not found then
    raise exception 'You may not change this course' using errcode = '42501';
  end if;
  if p_url is not null and private.course_object_name('course-covers', p_course_id, p_url) is null then
    raise exception 'The cover must be an uploaded image of this course' using errcode = '22023';
  end if;
  update public.courses set cover_image = p_url where id = p_course_id;
  return v_old;
end;
$$;
comment on function private.set_course_cover(uuid,text) is
  'The only writer of courses.cover_image: for an author or admin who may change the course, an uploaded file of its own folder (or null); returns the old URL.';
revoke all on function private.set_course_cover(uuid,text) from public;
grant execute on function private.set_course_cover(uuid,text) to authenticated;

create function private.set_module_image(p_module_id uuid, p_url text)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_course_id uuid;
  v_old text;
begin
  -- The same rule as the policy "authors update modules of their courses and admins any".
  select m.course_id, m.image into v_course_id, v_old from public.course_modules m
  where m.id = p_module_id
    and ((select private.is_admin()) or m.course_id in (select private.authored_course_ids()))
  for update;
  if not found then
    raise exception 'You may not change this module' using errcode = '42501';
  end if;
  if p_url is not null and private.course_object_name('module-images', v_course_id, p_url) is null then
    raise exception 'The image must be an uploaded image of this course' using errcode = '22023';
  end if;
  update public.course_modules set image = p_url where id = p_module_id;
  return v_old;
end;
$$;
comment on function private.set_module_image(uuid,text) is
  'The only writer of course_modules.image: for an author or admin who may change the module, an uploaded file of its course''s folder (or null); returns the old URL.';
revoke all on function private.set_module_image(uuid,text) from public;
grant execute on function private.set_module_image(uuid,text) to authenticated;

