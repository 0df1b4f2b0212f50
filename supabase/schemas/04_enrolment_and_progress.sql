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

-- The enrolments of the required courses that the compliance status reads (private.
-- required_training_states_query), answered from the index alone.
create index enrollments_course_user_idx on public.enrollments (course_id, user_id) include (id, progress, created_at);

create index user_module_progress_module_id_idx on public.user_module_progress (module_id);

create index user_module_progress_last_attempt_id_idx on public.user_module_progress (last_attempt_id);

-- A person's last activity (the manager's team page, 14_my_team.sql) from indexes alone: the newest
-- progress row first, and every enrolment's dates, rather than each row of theirs from the table.
create index user_module_progress_user_activity_idx on public.user_module_progress (user_id, updated_at desc);

create index enrollments_user_activity_idx on public.enrollments (user_id) include (created_at, started_at, completed_at);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.enrollments enable row level security;

alter table public.user_module_progress enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- enrollments
create policy "enrolments: self, authors, administrators and managers read"
  on public.enrollments for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or course_id in (select private.authored_course_ids())
    or user_id in (select private.people_i_administer())
    or user_id in (select private.managed_person_ids())
  );

create policy "enrolments: course authors and administrators update"
  on public.enrollments for update to authenticated
  using (
    (select private.is_admin()) or course_id in (select private.authored_course_ids())
    or user_id in (select private.people_i_administer())
  )
  with check (
    (select private.is_admin()) or course_id in (select private.authored_course_ids())
    or user_id in (select private.people_i_administer())
  );

create policy "enrolments: self, course authors and administrators remove"
  on public.enrollments for delete to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or course_id in (select private.authored_course_ids())
    or user_id in (select private.people_i_administer())
  );

create policy "enrolments: self and their administrators add"
  on public.enrollments for insert to authenticated
  with check (
    progress = 0
    and not completed
    and (
      (select private.is_admin())
      or (
        (user_id = (select auth.uid()) or user_id in (select private.people_i_administer()))
        and exists (select 1 from public.courses c where c.id = enrollments.course_id and c.status = 'ACTIVE')
      )
    )
  );

create policy "progress: self, authors, administrators and managers read"
  on public.user_module_progress for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or module_id in (select private.authored_module_ids())
    or user_id in (select private.people_i_administer())
    or user_id in (select private.managed_person_ids())
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

-- An organisation's course is for its people only, whoever enrols them (a learner, an author, an
-- administrator, a rule's trigger).
create function private.check_enrolment_organisation()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_course_organisation uuid;
begin
  select c.organisation_id into v_course_organisation from public.courses c where c.id = new.course_id;
  if v_course_organisation is not null and not exists (
    select 1 from public.profiles p where p.id = new.user_id and p.organisation_id = v_course_organisation
  ) then
    raise exception 'An organisation''s course is for its people only'
      using errcode = '42501', hint = 'organisation_id';
  end if;
  return new;
end;
$$;
comment on function private.check_enrolment_organisation() is
  'Before insert or update of user_id / course_id on enrollments: a course of an organisation enrols only people of that organisation (42501, hint organisation_id).';
revoke all on function private.check_enrolment_organisation() from public;

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

-- Internal: is the module complete for the user (read, and its quiz passed when it has one)? A
-- SCORM module also needs its package's completion rule met for every SCO
-- (private.scorm_module_met, 19_scorm_runtime.sql), a classroom session the register's "attended"
-- (private.session_attended, 25_classroom_sessions.sql) and a practical assessment its signed-off
-- record (private.assessment_signed_off, 26_practical_assessments.sql), so marking any of them read
-- alone never completes it.
-- plpgsql, because it reads what later schema files create.
create function private.settle_module(p_user_id uuid, p_module_id uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_kind text := (select m.kind from public.course_modules m where m.id = p_module_id);
begin
  -- Each kind's own rule, checked (and planned) only for a module of that kind.
  case v_kind
    when 'scorm' then
      if not private.scorm_module_met(p_user_id, p_module_id) then return; end if;
    when 'session' then
      if not private.session_attended(p_user_id, p_module_id) then return; end if;
    when 'assessment' then
      if not private.assessment_signed_off(p_user_id, p_module_id) then return; end if;
    else null;
  end case;
  update public.user_module_progress ump
  set completed = true, completed_at = now()
  where ump.user_id = p_user_id and ump.module_id = p_module_id and not ump.completed
    and ump.read_at is not null
    and (ump.quiz_passed or not exists (select 1 from public.quizzes q where q.module_id = p_module_id));
end;
$$;
comment on function private.settle_module(uuid,uuid) is
  'Internal: marks the module complete when read and its quiz (if any) passed; a SCORM module also when its package''s rule is met for every SCO, a session when the learner attended, an assessment when it is signed off.';
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
      and (c.organisation_id is null or c.organisation_id = new.organisation_id)
    on conflict (user_id, course_id) do nothing;
  end if;
  return new;
end;
$$;
comment on function private.auto_enrol_new_user() is
  'After-insert trigger on profiles: with auto_enrollment on, enrols the new user in every featured published course they can see (national, or of their organisation).';
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
-- count), what is left and when the next attempt may start. It reads only the caller's own attempts
-- and enrolment, and a quiz of a course the caller can see (private.can_view_course, the rule of
-- the policies that would otherwise hide it; a service_role caller, which bypasses them, sees all).
-- plpgsql and security definer, so that its plan is made once per connection: a SQL
-- function with a SET clause is never inlined and planned its query again on every call, and a plan
-- that row-level security shaped was made again whenever the role changed, between the api's call
-- (authenticated) and private.check_quiz_attempt_allowed's (inside the security-definer start and
-- submission): four plans for each quiz opened and submitted.
create function private.quiz_attempt_status(p_quiz_id uuid)
returns table(
  attempts_used integer,
  max_attempts integer,
  attempts_remaining integer,
  next_attempt_at timestamp with time zone,
  show_correct_answers text,
  retry_wait_minutes integer
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  with quiz as (
    select q.id, q.max_attempts, q.retry_wait_minutes, q.show_correct_answers, m.course_id
    from public.quizzes q join public.course_modules m on m.id = q.module_id
    where q.id = p_quiz_id
      and ((select auth.role()) = 'service_role' or private.can_view_course(m.course_id))
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
  from quiz q cross join counted c;
end;
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

create trigger enrollments_organisation
  before insert or update of user_id, course_id on public.enrollments
  for each row execute function private.check_enrolment_organisation();

create trigger profiles_auto_enrol
  after insert on public.profiles
  for each row execute function private.auto_enrol_new_user();

create trigger enrollments_continue_cycle
  before insert on public.enrollments
  for each row execute function private.continue_enrolment_cycle();
