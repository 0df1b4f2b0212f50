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
      where p.id = (select auth.uid()) and p.role = 'ADMIN' and p.organisation_id is null
    )
  );
end;
$$;
comment on function private.is_admin() is
  'True when the caller (auth.uid()) is a national ADMIN (no organisation): the administrator of every policy and check. An ADMIN of an organisation is not one (private.administered_organisation_id).';
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

-- Organisations (supabase/schemas/13_organisations.sql): an ADMIN without an organisation is
-- national (private.is_admin); an ADMIN with one administers only its people, units and courses.
-- A manager is whoever has reports, directly or down the manager chain.

create function private.is_national_admin()
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return private.is_admin();
end;
$$;
comment on function private.is_national_admin() is
  'True when the caller is an ADMIN without an organisation (the same as private.is_admin).';
revoke all on function private.is_national_admin() from public;
grant execute on function private.is_national_admin() to authenticated, service_role;

create function private.current_organisation_id()
returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (select p.organisation_id from public.profiles p where p.id = (select auth.uid()));
end;
$$;
comment on function private.current_organisation_id() is
  'The caller''s organisation, or null (a visitor, or a person of no organisation).';
revoke all on function private.current_organisation_id() from public;
grant execute on function private.current_organisation_id() to authenticated, service_role;

create function private.administered_organisation_id()
returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select p.organisation_id from public.profiles p
    where p.id = (select auth.uid()) and p.role = 'ADMIN' and p.deactivated_at is null
  );
end;
$$;
comment on function private.administered_organisation_id() is
  'The organisation the caller administers (an ADMIN with an organisation), else null.';
revoke all on function private.administered_organisation_id() from public;
grant execute on function private.administered_organisation_id() to authenticated, service_role;

create function private.is_org_admin()
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return private.administered_organisation_id() is not null;
end;
$$;
comment on function private.is_org_admin() is
  'True when the caller is the administrator of an organisation (an ADMIN with an organisation).';
revoke all on function private.is_org_admin() from public;
grant execute on function private.is_org_admin() to authenticated, service_role;

-- The people the caller administers: the one rule of administrative isolation, which every policy
-- on people's data, every people function and the people routes read. A national administrator
-- administers everyone; an organisation's administrator the people of their organisation (by
-- profiles_organisation_idx); anyone else nobody. Callers put `(select private.is_admin()) or` in
-- front of `x in (select private.people_i_administer())`: an init plan, so that a national
-- administrator's statements never build the set of everyone (100,000 ids cost some 70 ms).
-- Policy names say whom they admit in these words: "administrators" are both kinds (each for the
-- people they administer), "national admins" the national ones only, "managers" a person's line
-- managers up the chain, "authors" those of the course, module or quiz.
create function private.people_i_administer()
returns setof uuid
language plpgsql
 STABLE SECURITY DEFINER ROWS 100
set search_path = ''
as $$
begin
  if private.is_admin() then
    return query select p.id from public.profiles p;
    return;
  end if;
  return query
    select p.id from public.profiles p
    where p.organisation_id = private.administered_organisation_id();
end;
$$;
comment on function private.people_i_administer() is
  'The people the caller administers: everyone for a national administrator, their organisation''s people for an organisation''s administrator, nobody for anyone else. Use as (select private.is_admin()) or x in (select private.people_i_administer()).';
revoke all on function private.people_i_administer() from public;
grant execute on function private.people_i_administer() to authenticated, service_role;

-- One person: whether the caller administers them (private.people_i_administer's rule), for the
-- functions and routes that act on one person.
create function private.administers(p_person_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return private.is_admin()
      or exists (select 1 from private.people_i_administer() a where a = p_person_id);
end;
$$;
comment on function private.administers(uuid) is
  'True when the caller administers the person: a national administrator everyone, an organisation''s administrator their organisation''s people (private.people_i_administer).';
revoke all on function private.administers(uuid) from public;
grant execute on function private.administers(uuid) to authenticated, service_role;

-- The manager chain is bounded (32 levels): deeper than any real organisation, and a guard against
-- a cycle that the profiles trigger would otherwise have refused. Level by level, each read by the
-- index on manager_id (a recursive join may read the whole index instead). Its plan is the generic
-- one: a custom plan for each level's array was planned again on every call (docs/PERFORMANCE.md).
create function private.managed_person_ids()
returns setof uuid
language plpgsql
 STABLE SECURITY DEFINER ROWS 40
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
declare
  v_me uuid := (select auth.uid());
  v_level uuid[];
  v_all uuid[] := '{}';
begin
  if v_me is null then
    return;
  end if;
  v_level := array[v_me];
  for i in 1..32 loop
    select array_agg(p.id) into v_level
    from public.profiles p
    where p.manager_id = any (v_level) and p.id <> v_me and not (p.id = any (v_all));
    exit when v_level is null;
    v_all := v_all || v_level;
  end loop;
  return query select unnest(v_all);
end;
$$;
comment on function private.managed_person_ids() is
  'The caller''s reports, direct and down the manager chain (at most 32 levels).';
revoke all on function private.managed_person_ids() from public;
grant execute on function private.managed_person_ids() to authenticated, service_role;

create function private.manages(p_person uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (select 1 from private.managed_person_ids() m where m = p_person);
end;
$$;
comment on function private.manages(uuid) is
  'True when the person is one of the caller''s reports, directly or down the manager chain.';
revoke all on function private.manages(uuid) from public;
grant execute on function private.manages(uuid) to authenticated, service_role;

-- A signed-in caller learns only the units of their own organisation (a national admin, and the
-- compliance refresh, any); the service role, cron and migrations (no auth.uid()) any. A tree
-- never leaves its organisation.
create function private.unit_subtree(p_unit_id uuid)
returns setof uuid
language plpgsql
 STABLE SECURITY DEFINER ROWS 20
set search_path = ''
as $$
begin
  return query
    with recursive tree(id) as (
      select u.id from public.units u
      where u.id = p_unit_id
        and ((select auth.uid()) is null or u.organisation_id = private.current_organisation_id()
             or private.is_admin() or private.compliance_refresh_running())
      union
      select u.id from tree t join public.units u on u.parent_id = t.id
    )
    select t.id from tree t;
end;
$$;
comment on function private.unit_subtree(uuid) is
  'The unit and every unit below it (none for an unknown unit, nor for a unit of another organisation than the signed-in caller''s unless they are a national admin).';
revoke all on function private.unit_subtree(uuid) from public;
grant execute on function private.unit_subtree(uuid) to authenticated, service_role;

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
declare
  v_org uuid := private.current_organisation_id();
begin
  if v_org is null then
    return query
      select e.user_id from public.courses c
      join public.enrollments e on e.course_id = c.id
      where c.author_id = (select auth.uid())
        and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN');
  else
    -- An author of an organisation sees only its people, whatever course they are on.
    return query
      select e.user_id from public.courses c
      join public.enrollments e on e.course_id = c.id
      join public.profiles p on p.id = e.user_id
      where c.author_id = (select auth.uid())
        and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN')
        and p.organisation_id = v_org;
  end if;
end;
$$;
comment on function private.learner_ids_of_authored_courses() is
  'Users enrolled on the courses the caller authors (of the caller''s organisation only, when they have one).';
revoke all on function private.learner_ids_of_authored_courses() from public;
grant execute on function private.learner_ids_of_authored_courses() to authenticated, service_role;

-- A national admin manages any rule; an organisation's administrator only rules of their own
-- organisation (never a national one), for a course their people can see (national or theirs); an
-- instructor rules of their own courses in their own services, of their own organisation when they
-- have one (a national rule is made by national people only).
create function private.manages_required_training(
  p_course_id uuid,
  p_service public.service_code,
  p_organisation_id uuid
)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select coalesce(
      private.is_admin()
      or (
        p_organisation_id is not null
        and p_organisation_id = private.administered_organisation_id()
        and exists (
          select 1 from public.courses c
          where c.id = p_course_id and (c.organisation_id is null or c.organisation_id = p_organisation_id)
        )
      )
      or (
        private.current_role() = 'INSTRUCTOR'
        and p_course_id in (select private.authored_course_ids())
        and p_service in (select unnest(private.current_services()))
        and p_organisation_id is not distinct from private.current_organisation_id()
      ),
      false)
  );
end;
$$;
comment on function private.manages_required_training(uuid,public.service_code,uuid) is
  'True when the caller may manage a required_training rule of this course, service and organisation (national admin: any; organisation admin: their organisation''s, for a course it can see; instructor: own course, own service, of their own organisation, national only for a national instructor).';
revoke all on function private.manages_required_training(uuid,public.service_code,uuid) from public;
grant execute on function private.manages_required_training(uuid,public.service_code,uuid) to
  authenticated, service_role;

-- The caller's unit and every unit above it: the units whose rules reach the caller.
create function private.my_unit_ancestors()
returns setof uuid
language plpgsql
 STABLE SECURITY DEFINER ROWS 5
set search_path = ''
as $$
begin
  return query
    with recursive up(id, parent_id, depth) as (
      select u.id, u.parent_id, 1 from public.profiles p
      join public.units u on u.id = p.unit_id
      where p.id = (select auth.uid())
      union all
      select u.id, u.parent_id, up.depth + 1 from up join public.units u on u.id = up.parent_id
      where up.depth < 64
    )
    select up.id from up;
end;
$$;
comment on function private.my_unit_ancestors() is
  'The caller''s unit and the units above it (none for a person of no unit).';
revoke all on function private.my_unit_ancestors() from public;
grant execute on function private.my_unit_ancestors() to authenticated, service_role;

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

-- Characters a name may not hold: C0 and C1 controls, soft hyphen, Arabic letter mark, Hangul
-- fillers, Mongolian vowel separator, zero-width and joiners, directional marks, line and paragraph
-- separators, embeddings and overrides, invisible operators, isolates, the byte-order mark (the
-- list of INVISIBLE_CHARACTERS in supabase/functions/_shared/schemas.ts).
create function private.has_invisible_characters(p_text text)
returns boolean
language sql immutable
set search_path = ''
as $$
  select p_text ~ '[\u0001-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0]'
$$;
comment on function private.has_invisible_characters(text) is
  'True when the text holds a control, zero-width, directional or other invisible formatting character.';
revoke all on function private.has_invisible_characters(text) from public;
grant execute on function private.has_invisible_characters(text) to authenticated, service_role;
