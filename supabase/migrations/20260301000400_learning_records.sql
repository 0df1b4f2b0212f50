-- What learners do: enrolments, quiz attempts, module progress and certificates (specification §3-4,
-- DESIGN.md §3). A learner reads only their own records; an instructor reads those of their own
-- courses; admins read all. Progress, attempt scores and certificates are never written by users:
-- the API roles hold no insert/update/delete privilege on them, only the security-definer functions
-- of the next migration write them. A learner enrols themselves in a visible published course
-- (pending under login-approval, set by trigger; progress starts at 0) and may unenrol.

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
  constraint enrollments_user_course_key unique (user_id, course_id),
  constraint enrollments_progress_range check (progress between 0 and 100),
  constraint enrollments_completed_at_100 check (completed = (progress = 100)),
  constraint enrollments_completed_at_set check (completed = (completed_at is not null)),
  constraint enrollments_pending_not_started check (status = 'ACTIVE' or progress = 0)
);
comment on table public.enrollments is 'A learner on a course. Deleted with the learner or the course.';
comment on column public.enrollments.status is 'PENDING until approved (course access login-approval), else ACTIVE.';
comment on column public.enrollments.progress is 'Percent 0-100, computed by the server only (private.complete_module, private.step_course_progress).';
comment on column public.enrollments.completed is 'True exactly when progress is 100.';
comment on column public.enrollments.last_accessed_module_id is 'The module the learner last opened, to continue from.';

create index enrollments_course_id_idx on public.enrollments (course_id);
create index enrollments_last_accessed_module_id_idx on public.enrollments (last_accessed_module_id);

create trigger enrollments_set_updated_at
  before update on public.enrollments
  for each row execute function private.set_updated_at();

alter table public.enrollments enable row level security;

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
comment on table public.quiz_attempts is 'A scored quiz submission. Written only by private.submit_quiz_attempt.';
comment on column public.quiz_attempts.score is 'Points earned (sum of the points of correctly answered questions).';
comment on column public.quiz_attempts.max_score is 'Points available when the attempt was scored.';
comment on column public.quiz_attempts.answers is 'The submitted answers: {"<question id>": [option indexes]}.';

create index quiz_attempts_user_id_quiz_id_idx on public.quiz_attempts (user_id, quiz_id);
create index quiz_attempts_quiz_id_idx on public.quiz_attempts (quiz_id);

alter table public.quiz_attempts enable row level security;

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
comment on table public.user_module_progress is
  'Per learner and module: read, quiz passed, completed (read and, when the module has a quiz, passed). Server-written only.';
comment on column public.user_module_progress.read_at is 'When the learner marked the module read.';
comment on column public.user_module_progress.last_attempt_id is 'The latest quiz attempt for this module''s quiz.';

create index user_module_progress_module_id_idx on public.user_module_progress (module_id);
create index user_module_progress_last_attempt_id_idx on public.user_module_progress (last_attempt_id);

create trigger user_module_progress_set_updated_at
  before update on public.user_module_progress
  for each row execute function private.set_updated_at();

alter table public.user_module_progress enable row level security;

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
  constraint certificates_verification_code_key unique (verification_code),
  constraint certificates_user_course_key unique (user_id, course_id),
  constraint certificates_verification_code_shape check (verification_code ~ '^[A-Z0-9]{8,32}$')
);
comment on table public.certificates is
  'Issued when an enrolment completes. Keeps a snapshot of learner name and course title, so it survives deletion of either (ids set null).';
comment on column public.certificates.verification_code is 'Public code anyone may verify with private.verify_certificate.';
comment on column public.certificates.learner_name is 'The learner''s name at issue.';
comment on column public.certificates.course_title is 'The course title at issue.';
comment on column public.certificates.service is 'The course''s service at issue (for the Service-Specific template).';
comment on column public.certificates.template is 'The settings'' certificate template at issue.';

create index certificates_course_id_idx on public.certificates (course_id);

alter table public.certificates enable row level security;

-- Privileges: the API roles never write attempts, progress or certificates; on enrolments a
-- learner inserts and deletes, and course authors and admins change only the status (approval).
revoke insert, update, delete on public.quiz_attempts, public.user_module_progress, public.certificates
  from anon, authenticated;
revoke insert, update, delete on public.enrollments from anon;
revoke insert, update on public.enrollments from authenticated;
grant insert (user_id, course_id, status, progress, completed) on public.enrollments to authenticated;
grant update (status) on public.enrollments to authenticated;
revoke truncate, references, trigger on public.enrollments, public.quiz_attempts,
  public.user_module_progress, public.certificates from anon, authenticated;

create function private.learner_ids_of_authored_courses() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select e.user_id from public.enrollments e
  where e.course_id in (select private.authored_course_ids())
$$;
comment on function private.learner_ids_of_authored_courses() is 'Users enrolled on the courses the caller authors.';
revoke all on function private.learner_ids_of_authored_courses() from public;
grant execute on function private.learner_ids_of_authored_courses() to authenticated, service_role;

-- Enrolment by an API caller: the status follows the course-access rule, whatever was sent.
create function private.prepare_enrollment() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    new.status := case
      when private.course_access() = 'login-approval' and not private.is_admin() then 'PENDING'::public.enrollment_status
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
  'Before-insert trigger on enrollments: for API callers, PENDING under login-approval (unless admin), else ACTIVE.';
revoke all on function private.prepare_enrollment() from public;

create trigger enrollments_prepare
  before insert on public.enrollments
  for each row execute function private.prepare_enrollment();

-- enrollments
create policy "users read own enrolments, authors their courses', admins all"
  on public.enrollments for select to authenticated
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
        and course_id in (select c.id from public.courses c where c.status = 'ACTIVE')
      )
    )
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

-- quiz_attempts, user_module_progress, certificates: read-only for the API roles.
create policy "users read own attempts, authors their quizzes', admins all"
  on public.quiz_attempts for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or quiz_id in (select private.authored_quiz_ids())
  );

create policy "users read own progress, authors their courses', admins all"
  on public.user_module_progress for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or module_id in (select private.authored_module_ids())
  );

create policy "users read own certificates, authors their courses', admins all"
  on public.certificates for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or course_id in (select private.authored_course_ids())
  );

-- profiles: instructors also read the profiles of the learners on their courses.
drop policy "users read their own profile and admins read all" on public.profiles;
create policy "users read own profile, authors their learners', admins all"
  on public.profiles for select to authenticated
  using (
    id = (select auth.uid())
    or (select private.is_admin())
    or id in (select private.learner_ids_of_authored_courses())
  );
