-- Per-course approval (issue 15): a course may require approval of its enrolments on its own
-- ("Login and Approval Required" for this course), or waive it, whatever the site-wide course-access
-- rule says. courses.requires_approval is null to follow the site-wide rule (approval under
-- login-approval), true to require approval, false to enrol straight away. The rule is enforced by
-- the before-insert trigger on enrollments, so a learner calling the database API directly gets a
-- pending enrolment too. Admins enrol without approval, as before.

alter table public.courses add column requires_approval boolean;
comment on column public.courses.requires_approval is
  'Enrolment approval for this course: null follows the site-wide course access (approval under login-approval), true requires approval, false enrols at once.';

-- Authors and admins set it like the other content columns (the row policies decide which rows).
grant insert (requires_approval), update (requires_approval) on public.courses to authenticated;

-- Whether an enrolment on the course starts pending: the course's own setting, else the site rule.
-- Read under the caller's row-level security: a learner who cannot see the course cannot enrol
-- on it either (the insert policy), so the site rule used then changes nothing.
create or replace function private.prepare_enrollment() returns trigger
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
