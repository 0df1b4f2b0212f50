-- Courses and their content: modules, quizzes and quiz questions (specification §3, DESIGN.md §3).
-- Visibility: only ACTIVE courses are visible to learners and visitors (none to visitors under
-- login-browse); drafts and archived courses to their author and admins. Instructors create courses
-- only in their own services and change or delete only their own; admins do anything. Modules and
-- quizzes are read when their course is visible; quiz questions hold the answers, so only the
-- course's author and admins read them (learners get them without answers from
-- private.quiz_questions_for_learner).

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
  constraint courses_title_length check (char_length(btrim(title)) between 3 and 200),
  constraint courses_description_length check (char_length(btrim(description)) between 10 and 5000),
  constraint courses_duration_positive check (duration >= 1)
);
comment on table public.courses is 'A training course in one service. Visible to learners and visitors only when ACTIVE.';
comment on column public.courses.author_id is 'The instructor or admin who owns the course; set null when that user is deleted (admins then manage it).';
comment on column public.courses.duration is 'Length in whole hours, at least 1.';
comment on column public.courses.cover_image is 'Public URL (or storage path) of the cover in bucket course-covers.';
comment on column public.courses.featured is 'Listed first with a Featured mark; auto-enrolment uses featured published courses.';
comment on column public.courses.requires_enrollment is 'False: anyone who can see the course may read its modules without enrolling.';

create index courses_status_idx on public.courses (status);
create index courses_service_idx on public.courses (service);
create index courses_author_id_idx on public.courses (author_id);
create index courses_featured_idx on public.courses (featured) where featured;

create trigger courses_set_updated_at
  before update on public.courses
  for each row execute function private.set_updated_at();

alter table public.courses enable row level security;
revoke truncate, references, trigger on public.courses from anon, authenticated;

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
comment on table public.course_modules is 'A unit of a course, worked in order_index order. Deleted with its course.';
comment on column public.course_modules.content is 'Markdown body of the module.';
comment on column public.course_modules.order_index is 'Position in the course, from 1.';
comment on column public.course_modules.duration is 'Reading time in minutes, at least 1.';
comment on column public.course_modules.has_quiz is 'True when the module ends with a quiz that must be passed to complete it.';
comment on column public.course_modules.image is 'Public URL (or storage path) of an image in bucket module-images.';

create index course_modules_course_id_order_idx on public.course_modules (course_id, order_index);

create trigger course_modules_set_updated_at
  before update on public.course_modules
  for each row execute function private.set_updated_at();

alter table public.course_modules enable row level security;
revoke truncate, references, trigger on public.course_modules from anon, authenticated;

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
  constraint quizzes_module_id_key unique (module_id),
  constraint quizzes_title_length check (char_length(btrim(title)) between 3 and 200),
  constraint quizzes_passing_score_range check (passing_score between 1 and 100),
  constraint quizzes_time_limit_positive check (time_limit is null or time_limit >= 1)
);
comment on table public.quizzes is 'The quiz at the end of a module (at most one per module). Deleted with its module.';
comment on column public.quizzes.passing_score is 'Percentage of points needed to pass, 1 to 100.';
comment on column public.quizzes.time_limit is 'Minutes allowed, or null for no limit.';
comment on column public.quizzes.randomize_questions is 'Serve the questions in random order.';

create trigger quizzes_set_updated_at
  before update on public.quizzes
  for each row execute function private.set_updated_at();

alter table public.quizzes enable row level security;
revoke truncate, references, trigger on public.quizzes from anon, authenticated;

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
  constraint quiz_questions_correct_answers_array check (jsonb_typeof(correct_answers) = 'array')
);
comment on table public.quiz_questions is 'A question of a quiz, with its answers: read only by the course author and admins.';
comment on column public.quiz_questions.options is 'JSON array of {"text": string, "isCorrect": boolean}, at least two.';
comment on column public.quiz_questions.correct_answers is 'JSON array of the 0-based indexes of the correct options (the scoring key).';
comment on column public.quiz_questions.explanation is 'Shown to the learner after submitting.';

create index quiz_questions_quiz_id_order_idx on public.quiz_questions (quiz_id, order_index);

create trigger quiz_questions_set_updated_at
  before update on public.quiz_questions
  for each row execute function private.set_updated_at();

alter table public.quiz_questions enable row level security;
revoke truncate, references, trigger on public.quiz_questions from anon, authenticated;

-- Helpers: what the caller authors. Security definer, so they read past RLS without recursion; an
-- author must still be an INSTRUCTOR (or ADMIN) to count, so a demoted author loses access.
create function private.authored_course_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select c.id from public.courses c
  where c.author_id = (select auth.uid())
    and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN')
$$;
comment on function private.authored_course_ids() is 'Ids of the courses the caller authors (as instructor or admin).';

create function private.authored_module_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select m.id from public.course_modules m
  where m.course_id in (select private.authored_course_ids())
$$;
comment on function private.authored_module_ids() is 'Ids of the modules of the courses the caller authors.';

create function private.authored_quiz_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select q.id from public.quizzes q
  where q.module_id in (select private.authored_module_ids())
$$;
comment on function private.authored_quiz_ids() is 'Ids of the quizzes of the courses the caller authors.';

revoke all on function private.authored_course_ids(), private.authored_module_ids(), private.authored_quiz_ids() from public;
grant execute on function private.authored_course_ids(), private.authored_module_ids(), private.authored_quiz_ids()
  to authenticated, service_role;

-- courses
create policy "visitors read published courses unless login-browse"
  on public.courses for select to anon
  using (status = 'ACTIVE' and (select private.course_access()) <> 'login-browse');

create policy "users read published courses, authors their own, admins all"
  on public.courses for select to authenticated
  using (
    status = 'ACTIVE'
    or author_id = (select auth.uid())
    or (select private.is_admin())
  );

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

-- course_modules: readable with their course (the courses policies apply inside the subquery).
create policy "visitors read modules of visible courses"
  on public.course_modules for select to anon
  using (course_id in (select c.id from public.courses c));

create policy "users read modules of visible courses"
  on public.course_modules for select to authenticated
  using (course_id in (select c.id from public.courses c));

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

-- quizzes: readable with their module (settings such as passing score and time limit, no answers).
create policy "visitors read quizzes of visible modules"
  on public.quizzes for select to anon
  using (module_id in (select m.id from public.course_modules m));

create policy "users read quizzes of visible modules"
  on public.quizzes for select to authenticated
  using (module_id in (select m.id from public.course_modules m));

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

-- Columns the API roles never write.
revoke insert, update, delete on public.courses, public.course_modules, public.quizzes, public.quiz_questions from anon;
