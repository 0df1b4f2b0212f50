-- Courses with learner history are archived, never deleted.
--
-- A force keeps its training records for years. A course that anyone ever enrolled on, studied, was
-- tested in or was certified in therefore keeps its learners' history: a delete of such a course is
-- refused (23503) whoever sends it (the API, an administrator's SQL in the dashboard, the service
-- role or a superuser), and the course is archived instead (status ARCHIVED): it leaves the catalogue
-- and no one new can enrol, while its enrolments, progress, attempts, certificates, learning records
-- and compliance history stay. Only a course nobody ever started can be deleted.
--
-- No one new joins an archived course: a direct enrolment or the approval of a pending one is refused
-- (55000); the automatic enrolments of required training (a rule changed, a person placed or
-- reactivated), which run as the functions' owner, pass the course by. An archived course's
-- required-training rules stay as the record of what was required, but assign no one and leave the
-- compliance figures (which read the rules of published courses only); restoring the course makes it
-- a draft, and publishing it brings its rules back.

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.course_has_learner_records(p_course_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (select 1 from public.enrollments e where e.course_id = p_course_id)
    or exists (select 1 from public.certificates c where c.course_id = p_course_id)
    or exists (select 1 from public.course_modules m
               join public.user_module_progress p on p.module_id = m.id
               where m.course_id = p_course_id)
    or exists (select 1 from public.course_modules m
               join public.quizzes q on q.module_id = m.id
               join public.quiz_attempts a on a.quiz_id = q.id
               where m.course_id = p_course_id)
    or exists (select 1 from public.course_modules m
               join public.scorm_attempts a on a.module_id = m.id
               where m.course_id = p_course_id);
end;
$$;
comment on function private.course_has_learner_records(uuid) is
  'True when anyone ever enrolled on the course (pending included), studied a module, attempted a quiz or a SCORM package, or holds a certificate of it: the course can then only be archived. Not for the API roles (private.course_deletable answers them).';
revoke all on function private.course_has_learner_records(uuid) from public;

create function private.course_deletable(p_course_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  -- Only those who may delete the course (the rule of the courses delete policy) learn the answer.
  if not exists (
    select 1 from public.courses c
    where c.id = p_course_id
      and (private.is_admin()
           or (c.author_id = (select auth.uid()) and private.current_role() = 'INSTRUCTOR'
               and (c.organisation_id is null or c.organisation_id = private.current_organisation_id()))
           or c.organisation_id = private.administered_organisation_id())
  ) then
    raise exception 'You may not delete this course' using errcode = '42501';
  end if;
  return not private.course_has_learner_records(p_course_id);
end;
$$;
comment on function private.course_deletable(uuid) is
  'For those who may delete the course: true when it has no learner records (it can be deleted), false when it can only be archived; 42501 for anyone else.';
revoke all on function private.course_deletable(uuid) from public;
grant execute on function private.course_deletable(uuid) to authenticated, service_role;

create function private.keep_course_learner_records()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if private.course_has_learner_records(old.id) then
    raise exception 'This course has learner records, so it cannot be deleted: archive it instead'
      using errcode = '23503',
            detail = format('Enrolments, progress, attempts or certificates of course %s are kept as training records.', old.id),
            hint = 'Set its status to ARCHIVED: it leaves the catalogue and no one new can enrol; its records are kept.';
  end if;
  return old;
end;
$$;
comment on function private.keep_course_learner_records() is
  'Before-delete trigger on courses: refuses (23503) the delete of a course with learner records, from any role, superuser included.';
revoke all on function private.keep_course_learner_records() from public;

create function private.erase_course(p_course_id uuid)
returns boolean
language plpgsql security definer
set search_path = ''
as $$
begin
  -- What deleting a course did before records were kept: its enrolments, progress and attempts go
  -- (the modules' cascades) and its certificates stay without it, with their snapshots.
  update public.certificates set course_id = null where course_id = p_course_id;
  delete from public.enrollments where course_id = p_course_id;
  delete from public.user_module_progress p using public.course_modules m
  where m.id = p.module_id and m.course_id = p_course_id;
  delete from public.quiz_attempts a using public.quizzes q, public.course_modules m
  where a.quiz_id = q.id and q.module_id = m.id and m.course_id = p_course_id;
  delete from public.scorm_attempts a using public.course_modules m
  where a.module_id = m.id and m.course_id = p_course_id;
  delete from public.courses where id = p_course_id;
  return found;
end;
$$;
comment on function private.erase_course(uuid) is
  'The database owner''s deliberate erasure of a course with its learners'' history (certificates stay, without the course): for test fixtures and erasure requests, never granted to the API roles.';
revoke all on function private.erase_course(uuid) from public;

create function private.course_is_archived(p_course_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (select 1 from public.courses c where c.id = p_course_id and c.status = 'ARCHIVED');
end;
$$;
comment on function private.course_is_archived(uuid) is
  'True when the course is archived (whether or not the caller can see it).';
revoke all on function private.course_is_archived(uuid) from public;
grant execute on function private.course_is_archived(uuid) to authenticated, service_role;

-- Security invoker, so that current_user tells a client's statement (refused with a reason) from the
-- automatic enrolment of the security-definer required-training functions (the course passed by).
create function private.close_archived_course()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and not (old.status = 'PENDING' and new.status = 'ACTIVE') then
    return new;
  end if;
  if not private.course_is_archived(new.course_id) then
    return new;
  end if;
  if current_user in ('anon', 'authenticated', 'service_role') then
    raise exception 'This course is archived: no one new can enrol' using errcode = '55000';
  end if;
  return null;
end;
$$;
comment on function private.close_archived_course() is
  'Before insert / approval on enrollments: no one new joins an archived course. A client''s enrolment or approval is refused (55000); the automatic enrolments of required training skip the course.';
revoke all on function private.close_archived_course() from public;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger courses_keep_learner_records
  before delete on public.courses
  for each row execute function private.keep_course_learner_records();

create trigger enrollments_closed_when_archived
  before insert or update of status on public.enrollments
  for each row execute function private.close_archived_course();
