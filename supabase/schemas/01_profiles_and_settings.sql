-- People and the site's settings.
--
-- * profiles: one row per auth.users user (made by the sign-up trigger on auth.users). A user
--   reads and edits their own profile (name, language); only admins change role, services or username or deactivate
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
  organisation_id uuid,
  unit_id uuid,
  manager_id uuid,
  language text not null default 'en-GB',
  constraint profiles_username_length check (char_length(username) between 3 and 50),
  constraint profiles_username_trimmed check (username = btrim(username)),
  constraint profiles_name_length check (char_length(btrim(name)) between 1 and 200),
  constraint profiles_email_length check (char_length(email) <= 255),
  constraint profiles_username_pattern check (username ~ '^[A-Za-z0-9_.-]{3,50}$'),
  constraint profiles_name_visible check (not private.has_invisible_characters(name) and name = normalize(name, NFC)),
  constraint profiles_unit_needs_organisation check (unit_id is null or organisation_id is not null),
  constraint profiles_manager_not_self check (manager_id is null or manager_id <> id),
  constraint profiles_manager_needs_organisation check (manager_id is null or organisation_id is not null),
  constraint profiles_language_known check (language in ('en-GB', 'cy'))
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
  notify_due_soon_days integer[] not null default '{14,3}',
  notify_expiry_days integer[] not null default '{60,30,7}',
  notify_overdue_every_days integer not null default 7,
  notify_escalation_days integer not null default 7,
  scorm_max_upload_mb integer not null default 200,
  session_offer_hours integer not null default 48,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint settings_single_row check (id),
  -- Day lists: 1 to 5 whole days of 1 to 365, distinct and stored largest first (the first is the
  -- earliest notice; the API sorts them).
  constraint settings_notify_due_soon_days_shape check ((array_ndims(notify_due_soon_days) = 1 and array_lower(notify_due_soon_days, 1) = 1 and cardinality(notify_due_soon_days) between 1 and 5
    and array_position(notify_due_soon_days, null) is null and notify_due_soon_days[1] <= 365 and notify_due_soon_days[cardinality(notify_due_soon_days)] >= 1
    and (cardinality(notify_due_soon_days) < 2 or notify_due_soon_days[1] > notify_due_soon_days[2]) and (cardinality(notify_due_soon_days) < 3 or notify_due_soon_days[2] > notify_due_soon_days[3])
    and (cardinality(notify_due_soon_days) < 4 or notify_due_soon_days[3] > notify_due_soon_days[4]) and (cardinality(notify_due_soon_days) < 5 or notify_due_soon_days[4] > notify_due_soon_days[5]))),
  constraint settings_notify_expiry_days_shape check ((array_ndims(notify_expiry_days) = 1 and array_lower(notify_expiry_days, 1) = 1 and cardinality(notify_expiry_days) between 1 and 5
    and array_position(notify_expiry_days, null) is null and notify_expiry_days[1] <= 365 and notify_expiry_days[cardinality(notify_expiry_days)] >= 1
    and (cardinality(notify_expiry_days) < 2 or notify_expiry_days[1] > notify_expiry_days[2]) and (cardinality(notify_expiry_days) < 3 or notify_expiry_days[2] > notify_expiry_days[3])
    and (cardinality(notify_expiry_days) < 4 or notify_expiry_days[3] > notify_expiry_days[4]) and (cardinality(notify_expiry_days) < 5 or notify_expiry_days[4] > notify_expiry_days[5]))),
  constraint settings_notify_overdue_every_days_range check (notify_overdue_every_days between 1 and 365),
  constraint settings_notify_escalation_days_range check (notify_escalation_days between 1 and 365),
  -- 1,024 at most: a package may unpack to at most 1 GB (supabase/functions/api/lib/scorm/zip.ts).
  constraint settings_scorm_max_upload_mb_range check (scorm_max_upload_mb between 1 and 1024),
  -- A freed place offered to the first on a waiting list is theirs to accept for this long (1 hour to 14 days).
  constraint settings_session_offer_hours_range check (session_offer_hours between 1 and 336),
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

comment on column public.profiles.organisation_id is
  'The person''s organisation (supabase/schemas/13_organisations.sql); null for none. An ADMIN with null is national. Changed only by a national administrator.';

comment on column public.profiles.unit_id is
  'The person''s unit, of their organisation; null for none. Changed by a national administrator or their organisation''s, never by the person.';

comment on column public.profiles.manager_id is
  'The person''s line manager, of the same organisation, never themselves, no cycle; null for none. Changed by a national administrator or their organisation''s, never by the person.';

comment on column public.profiles.language is
  'The language the person reads the platform in: en-GB (English) or cy (Cymraeg). The server writes their emails, certificates, learning record and CSV headers in it; the person changes it themselves (PUT /api/profile/language, or directly under the own-row policy).';

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

comment on column public.settings.notify_due_soon_days is
  'Default days before a required course''s due date when "due soon" notices go (largest first); a rule may override.';

comment on column public.settings.notify_expiry_days is
  'Days before a certificate expires when "expiring" notices go (largest first).';

comment on column public.settings.notify_overdue_every_days is
  'An overdue notice goes on the due date, then every this many days.';

comment on column public.settings.notify_escalation_days is
  'Default days overdue after which the line manager is told; a rule may override.';

comment on column public.settings.scorm_max_upload_mb is
  'The largest SCORM package (zip) an author may upload, in MB (1 to 1,024); the api function refuses a larger one with 413 before reading it whole.';

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

-- The people of an organisation, of a unit, and a manager's reports.
create index profiles_organisation_idx on public.profiles (organisation_id) where organisation_id is not null;

create index profiles_unit_idx on public.profiles (unit_id, organisation_id) where unit_id is not null;

create index profiles_manager_idx on public.profiles (manager_id) where manager_id is not null;

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

-- An administrator's people are private.people_i_administer (00_foundations_and_roles.sql), the
-- rule every policy on people's data shares.
create policy "profiles: self and their administrators update"
  on public.profiles for update to authenticated
  using (
    id = (select auth.uid()) or (select private.is_admin())
    or id in (select private.people_i_administer())
  )
  with check (
    id = (select auth.uid()) or (select private.is_admin())
    or id in (select private.people_i_administer())
  );

create policy "profiles: their administrators delete"
  on public.profiles for delete to authenticated
  using ((select private.is_admin()) or id in (select private.people_i_administer()));

create policy "profiles: self, their authors, administrators and managers read"
  on public.profiles for select to authenticated
  using (
    id = (select auth.uid())
    or (select private.is_admin())
    or id in (select private.learner_ids_of_authored_courses())
    or id in (select private.people_i_administer())
    or id in (select private.managed_person_ids())
  );

create policy "everyone reads the settings"
  on public.settings for select to anon
  using (true);

create policy "signed-in users read the settings"
  on public.settings for select to authenticated
  using (true);

create policy "settings: national admins update"
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
grant update (username, name, language, role, services, organisation_id, unit_id, manager_id) on public.profiles to authenticated;

revoke all on public.settings from anon, authenticated, service_role;
grant all on public.settings to service_role;
grant select (id, site_name, course_access, certificate_template, footer_text, enable_analytics,
  auto_enrollment, notify_due_soon_days, notify_expiry_days, notify_overdue_every_days,
  notify_escalation_days, scorm_max_upload_mb, session_offer_hours, created_at, updated_at) on public.settings to anon, authenticated;
grant update (site_name, admin_email, course_access, certificate_template, footer_text,
  enable_analytics, auto_enrollment, notify_due_soon_days, notify_expiry_days, notify_overdue_every_days,
  notify_escalation_days, scorm_max_upload_mb, session_offer_hours) on public.settings to authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.guard_profile_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_org uuid;
begin
  -- Only the API roles are checked; the service role and migrations manage accounts freely.
  if current_user in ('anon', 'authenticated') then
    -- Nobody places themselves: organisation, unit and manager are set by an administrator.
    if new.id = (select auth.uid())
       and (new.organisation_id is distinct from old.organisation_id
            or new.unit_id is distinct from old.unit_id
            or new.manager_id is distinct from old.manager_id) then
      raise exception 'You cannot change your own organisation, unit or manager'
        using errcode = '42501';
    end if;
    if not private.is_admin() then
      v_org := private.administered_organisation_id();
      -- An organisation's administrator: role, services, username, unit and manager of their own
      -- people (not their own role or services), never the organisation. The roles they give stay
      -- inside the organisation (its people can never be national), and the services only the
      -- organisation's own: a person's service decides which rules and courses reach them.
      if v_org is not null and old.organisation_id = v_org then
        if new.organisation_id is distinct from old.organisation_id then
          raise exception 'Only a national administrator may change a person''s organisation'
            using errcode = '42501';
        end if;
        if new.id = (select auth.uid())
           and (new.role is distinct from old.role or new.services is distinct from old.services) then
          raise exception 'You cannot change your own role or services' using errcode = '42501';
        end if;
        if new.services is distinct from old.services
           and not (new.services <@ array(select o.service from public.organisations o where o.id = v_org)) then
          raise exception 'An organisation''s administrator may give only their organisation''s service'
            using errcode = '42501', hint = 'services';
        end if;
      elsif new.role is distinct from old.role
         or new.services is distinct from old.services
         or new.username is distinct from old.username
         or new.employee_number is distinct from old.employee_number
         or new.organisation_id is distinct from old.organisation_id
         or new.unit_id is distinct from old.unit_id
         or new.manager_id is distinct from old.manager_id then
        raise exception 'Only an administrator may change role, services or username'
          using errcode = '42501';
      end if;
    end if;
  end if;
  return new;
end;
$$;
comment on function private.guard_profile_update() is
  'Before-update trigger on profiles: a non-admin API caller may not change role, services, username, employee number, organisation, unit or manager (42501); an organisation administrator may change those of their own people but not the organisation, nor their own role or services, and gives only the organisation''s service (42501, hint services); nobody changes their own organisation, unit or manager.';
revoke all on function private.guard_profile_update() from public;

create function private.handle_new_user()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  v_username text := nullif(btrim(v_meta ->> 'username'), '');
  -- (an identity provider's name arrives as full_name, as Supabase Auth stores Entra ID's)
  v_name text := nullif(btrim(normalize(coalesce(v_meta ->> 'name', v_meta ->> 'full_name'), NFC)), '');
  v_role public.user_role := 'STUDENT';
  v_services public.service_code[] := '{}';
  v_provider text := new.raw_app_meta_data ->> 'provider';
  v_place jsonb;
  -- The language an administrator, an import or SCIM chose for the person; English otherwise.
  v_language text := case when v_meta ->> 'language' = 'cy' then 'cy' else 'en-GB' end;
begin
  if v_username is not null and v_username !~ '^[A-Za-z0-9_.-]{3,50}$' then
    raise exception 'Username may contain only letters, numbers, dots, dashes and underscores (3 to 50)'
      using errcode = '23514', hint = 'username_invalid';
  end if;
  if v_name is not null and (private.has_invisible_characters(v_name) or char_length(v_name) > 200) then
    raise exception 'Name may not contain invisible or control characters, and at most 200 characters'
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
  -- A person an organisation's identity provider signed in belongs to that organisation, or nowhere.
  if v_provider = 'azure' or v_provider like 'sso:%' then
    v_place := private.sign_in_placement(v_provider, v_meta, new.email);
    if not (v_place ->> 'ok')::boolean or not (v_place ->> 'enabled')::boolean then
      raise exception '%', coalesce(v_place ->> 'problem', 'This organisation''s sign-in is not switched on')
        using errcode = '42501', hint = 'sign_in_not_placed';
    end if;
    v_role := (v_place ->> 'role')::public.user_role;
    v_services := array(select jsonb_array_elements_text(v_place -> 'services'))::public.service_code[];
  end if;
  insert into public.profiles (id, username, email, name, role, services, organisation_id, unit_id, manager_id, employee_number, language)
  values (new.id, v_username, coalesce(new.email, ''), coalesce(v_place ->> 'name', v_name, v_username), v_role, v_services,
          (v_place ->> 'organisation_id')::uuid, (v_place ->> 'unit_id')::uuid, (v_place ->> 'manager_id')::uuid,
          v_place ->> 'employee_number', v_language);
  if v_place is not null then
    perform private.write_sign_in_audit('user.created', v_place, 'user', new.id, v_username,
      jsonb_build_object('source', case when v_provider = 'azure' then 'OpenID Connect' else 'SAML' end,
        'username', v_username, 'email', new.email, 'name', coalesce(v_place ->> 'name', v_name, v_username),
        'role', v_role, 'services', v_services, 'unit', v_place ->> 'unit', 'manager', v_place ->> 'manager'));
  end if;
  return new;
end;
$$;
comment on function private.handle_new_user() is
  'After-insert trigger on auth.users: creates the profile from raw_user_meta_data {username, name, language} under the registration rules (23514 otherwise), falling back to the email''s local part; STUDENT without services, or the role and services staged by private.import_users; a person an organisation''s identity provider signed in is placed where private.sign_in_placement says (42501 when nowhere), audited as that organisation''s sign-in.';
revoke all on function private.handle_new_user() from public;

-- Supabase Auth's before-user-created hook (supabase/config.toml [auth.hook.before_user_created]):
-- a sign-up or admin create whose username or name breaks the profile's rules is refused with 400
-- and the rule's message before anything is written. The profile trigger checks the same, but its
-- refusal could only reach the client as Auth's 500 "Database error saving new user".
create function private.before_user_created(event jsonb)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  v_meta jsonb := case when jsonb_typeof(event -> 'user' -> 'user_metadata') = 'object'
                       then event -> 'user' -> 'user_metadata' else '{}'::jsonb end;
  v_username text := nullif(btrim(v_meta ->> 'username'), '');
  v_name text := nullif(btrim(normalize(coalesce(v_meta ->> 'name', v_meta ->> 'full_name'), NFC)), '');
  v_provider text := event -> 'user' -> 'app_metadata' ->> 'provider';
  v_problem text;
begin
  if v_username is not null and v_username !~ '^[A-Za-z0-9_.-]{3,50}$' then
    v_problem := 'Username may contain only letters, numbers, dots, dashes and underscores';
  elsif v_name is not null and private.has_invisible_characters(v_name) then
    v_problem := 'Name may not contain invisible or control characters';
  elsif v_name is not null and char_length(v_name) > 200 then
    v_problem := 'Name must be at most 200 characters';
  end if;
  if v_problem is not null then
    return jsonb_build_object('error', jsonb_build_object('http_code', 400, 'message', v_problem));
  end if;
  if v_provider = 'azure' or v_provider like 'sso:%' then
    return private.sign_in_before_user_created(v_provider, event -> 'user' ->> 'email', v_meta);
  end if;
  return '{}'::jsonb;
end;
$$;
comment on function private.before_user_created(jsonb) is
  'Auth''s before-user-created hook: {} to allow, or {error: {http_code: 400, message}} when user_metadata''s username or name breaks the profile''s rules (those of private.handle_new_user); a person coming through an organisation''s identity provider is checked by private.sign_in_before_user_created.';
revoke all on function private.before_user_created(jsonb) from public;
grant usage on schema private to supabase_auth_admin;
grant execute on function private.before_user_created(jsonb) to supabase_auth_admin;

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

-- Supabase Auth's own emails (invite, recovery, magic link) are Go templates that see the person's
-- user_metadata as .Data, not their profile: the profile's language is copied there whenever it
-- changes, by this trigger alone (docs/decisions/bilingual-server-output.md).
create function private.sync_profile_language()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update auth.users
  set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || jsonb_build_object('language', new.language)
  where id = new.id and raw_user_meta_data ->> 'language' is distinct from new.language;
  return new;
end;
$$;
comment on function private.sync_profile_language() is
  'After-update trigger on profiles: copies profiles.language into auth.users.raw_user_meta_data.language, which Auth''s email templates read as .Data.language.';
revoke all on function private.sync_profile_language() from public;

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
  -- Only national administrators (no organisation) count: an organisation's administrator
  -- administers nothing else.
  if old.role <> 'ADMIN' or old.organisation_id is not null
     or (tg_op = 'UPDATE' and new.role = 'ADMIN' and new.organisation_id is null) then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  perform pg_advisory_xact_lock(hashtext('public.profiles last admin'));
  if not exists (select 1 from public.profiles p
                 where p.role = 'ADMIN' and p.organisation_id is null and p.id <> old.id) then
    raise exception 'The last administrator cannot be demoted or deleted'
      using errcode = 'P0409', hint = 'Make another user an administrator first.';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;
comment on function private.guard_last_admin() is
  'Before update/delete on profiles: refuses (P0409) to demote (or place in an organisation) or delete the only national ADMIN.';
revoke all on function private.guard_last_admin() from public;

-- Deletes a user's Auth account (profile, enrolments and progress cascade; certificates keep their
-- snapshot) in the caller's transaction, so the audit event names the admin who did it.
create function private.delete_user(p_user_id uuid)
returns boolean
language plpgsql security definer
set search_path = ''
as $$
begin
  if not private.is_admin() and not private.is_org_admin() then
    raise exception 'Only an administrator may delete users' using errcode = '42501';
  end if;
  -- Only the people the caller administers (anyone else is "no such person").
  if not private.administers(p_user_id) then
    return false;
  end if;
  delete from auth.users where id = p_user_id;
  return found;
end;
$$;
comment on function private.delete_user(uuid) is
  'Admins only: deletes the auth.users row (cascading to the profile); false when there is none. An organisation''s administrator deletes only its people (false for anyone else).';
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

-- The one way a person is deactivated or reactivated, whoever asks (an administrator through
-- private.set_user_active, an organisation's identity system through SCIM): the caller has checked
-- its right first. Deactivating bans the person in Auth and ends every session at once.
create function private.switch_user_active(p_user_id uuid, p_active boolean)
returns boolean
language plpgsql security definer
set search_path = ''
as $$
declare
  v_profile public.profiles%rowtype;
begin
  select * into v_profile from public.profiles where id = p_user_id for update;
  if not found or p_active = (v_profile.deactivated_at is null) then
    return false; -- no such person, or already so: nothing to record
  end if;
  if not p_active and v_profile.role = 'ADMIN' and v_profile.organisation_id is null then
    perform pg_advisory_xact_lock(hashtext('public.profiles last admin'));
    if not exists (select 1 from public.profiles p
                   where p.role = 'ADMIN' and p.organisation_id is null
                     and p.id <> p_user_id and p.deactivated_at is null) then
      raise exception 'The last administrator cannot be deactivated'
        using errcode = 'P0409', hint = 'Make another user an administrator first.';
    end if;
  end if;
  update public.profiles set deactivated_at = case when p_active then null else now() end
  where id = p_user_id;
  if p_active then
    update auth.users set banned_until = null, updated_at = now() where id = p_user_id;
    -- Back in the required training they match (skipped while deactivated): by role, services,
    -- organisation and unit, as every rule is matched.
    insert into public.enrollments (user_id, course_id, status)
    select distinct v_profile.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from public.required_training r
    where private.required_rule_matches(r, v_profile.role, v_profile.services, v_profile.organisation_id, v_profile.unit_id)
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
comment on function private.switch_user_active(uuid,boolean) is
  'Internal, granted to no API role: deactivates (bans in Auth, ends every session) or reactivates a person and records it in the audit trail, for a caller that has checked its right (private.set_user_active, the SCIM functions). True when it changed something; P0409 for the last active national admin.';
revoke all on function private.switch_user_active(uuid,boolean) from public;

create function private.set_user_active(p_user_id uuid, p_active boolean)
returns boolean
language plpgsql security definer
set search_path = ''
as $$
begin
  if not private.is_admin() and not private.is_org_admin() then
    raise exception 'Only an administrator may deactivate or reactivate users' using errcode = '42501';
  end if;
  if p_user_id = auth.uid() and not p_active then
    raise exception 'You cannot deactivate your own account' using errcode = 'P0403';
  end if;
  -- Only the people the caller administers (anyone else is "no such person").
  if not exists (select 1 from public.profiles where id = p_user_id) or not private.administers(p_user_id) then
    return false;
  end if;
  perform private.switch_user_active(p_user_id, p_active);
  return true;
end;
$$;
comment on function private.set_user_active(uuid,boolean) is
  'Admins only (an organisation''s administrator: its people only): deactivates (bans in Auth, ends every session) or reactivates a person, and records it in the audit trail. False when there is no such person or they are not the caller''s to administer; 42501 for a non-admin; P0403 for deactivating oneself; P0409 for the last active admin.';
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
  if v_actor is null or (not private.is_admin() and not private.is_org_admin()) then
    raise exception 'Only an administrator may reset a password' using errcode = '42501';
  end if;
  if p_user_id = v_actor then
    raise exception 'Change your own password from your profile page' using errcode = 'P0409';
  end if;
  select * into v_target from public.profiles p where p.id = p_user_id for update;
  -- Only the people the caller administers (anyone else is unknown to them).
  if not found or not private.administers(p_user_id) then
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
  'Admins only (an organisation''s administrator: its people only), not for their own account (P0409): flags the person to choose a new password, ends their sessions and records password.reset in audit_events. 42501 for non-admins, P0002 for an unknown person or one of another organisation.';
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

create trigger profiles_language_to_auth
  after update of language on public.profiles
  for each row when (new.language is distinct from old.language)
  execute function private.sync_profile_language();

create trigger settings_set_updated_at
  before update on public.settings
  for each row execute function private.set_updated_at();

create trigger profiles_guard_last_admin
  before update of role, organisation_id or delete on public.profiles
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
