-- Foundations shared by every later migration: the vocabularies of the specification (§3-4,
-- DESIGN.md §3) as enums, and the `private` schema for security-definer helpers and trigger
-- functions. `private` is not exposed by the API (config.toml exposes only public), so nothing in it
-- can be called over HTTP; the roles get usage on it and execute only on what they need.

create type public.service_code as enum ('UKPS', 'UKAS', 'UKFRS', 'UKHW', 'AUX', 'MISC');
comment on type public.service_code is
  'The six emergency-service categories: police, ambulance, fire and rescue, highways, auxiliary, miscellaneous.';

create type public.user_role as enum ('ADMIN', 'INSTRUCTOR', 'STUDENT');
comment on type public.user_role is 'What a user may do (specification §6).';

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

create schema if not exists private;
comment on schema private is
  'Security-definer helpers and trigger functions; not exposed by the API. Execute is granted per function.';
grant usage on schema private to anon, authenticated, service_role;

-- Functions are executable by PUBLIC by default: here nothing is, unless granted by name.
alter default privileges in schema private revoke execute on functions from public;

-- Row-level security does not govern TRUNCATE, REFERENCES or TRIGGER: the API roles get none of them.
alter default privileges in schema public revoke truncate, references, trigger on tables from anon, authenticated;

-- Shared trigger function: every table with updated_at keeps it current.
create function private.set_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
comment on function private.set_updated_at() is 'Before-update trigger: stamps updated_at.';
revoke all on function private.set_updated_at() from public;
