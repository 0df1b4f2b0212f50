-- Performance at scale (issue 6): row-level security that an index can serve, so that what an
-- endpoint costs follows what it returns, not how many rows the table holds. Proven by
-- supabase/tests/query-plans.test.ts, which runs the api's real routes and explains every statement.
--
-- Under row-level security Postgres may use a condition of the query itself as an index condition
-- only when its operator is leakproof; enum equality, ILIKE, LIKE and array containment are not. So
-- the policies' own conditions must be able to drive an index. Three shapes could not:
--
-- 1. courses (signed in): `status = 'ACTIVE' or author_id = auth.uid() or is_admin()`. The is_admin()
--    arm matches no index, so every statement that read courses other than by id read all of them.
--    Now `status = any(private.visible_course_statuses()) or author_id = auth.uid()`: every status
--    for an admin, ACTIVE for anyone else, the same rows as before, and both arms are indexed
--    (courses_status_idx, courses_author_id_idx).
-- 2. course_modules and quizzes (and enrolling): `course_id in (select c.id from public.courses c)` is
--    planned, inside a policy, as a hashed subplan of every visible course (and, for quizzes, of
--    every visible module): a read of one course's modules built a set of all 10,000 courses first.
--    A correlated EXISTS checks each row's own course through its primary key instead. Same rows.
-- 3. profiles (signed in): `id = auth.uid() or is_admin() or id in (learners of my courses)`. As 1.:
--    `id = auth.uid() or role = any(private.visible_profile_roles()) or id = any(learners of my
--    courses)`, each arm an index condition (profiles_pkey, profiles_role_idx).
--
-- Text search cannot use its trigram indexes under row-level security (ILIKE and LIKE are not
-- leakproof), so the catalogue search and the admin user search ask a security-definer function for
-- the ids that match (through the trigram indexes); the query then reads those rows, by primary key,
-- under the caller's row-level security as before. Neither tells more than the caller may see: the
-- course search returns only courses the caller can see, the user search answers only admins.

-- ---------------------------------------------------------------- 1. courses

create function private.visible_course_statuses() returns public.course_status[]
language sql stable security definer
set search_path = ''
as $$
  select case when private.is_admin() then enum_range(null::public.course_status)
              else array['ACTIVE'::public.course_status] end
$$;
comment on function private.visible_course_statuses() is
  'The course statuses the caller sees regardless of authorship: all for an admin, ACTIVE for anyone else.';
revoke all on function private.visible_course_statuses() from public;
grant execute on function private.visible_course_statuses() to authenticated, service_role;

drop policy "users read published courses, authors their own, admins all" on public.courses;
create policy "users read published courses, authors their own, admins all"
  on public.courses for select to authenticated
  using (
    status = any ((select private.visible_course_statuses())::public.course_status[])
    or author_id = (select auth.uid())
  );

-- ---------------------------------------------------------------- 2. course_modules, quizzes

drop policy "visitors read modules of visible courses" on public.course_modules;
create policy "visitors read modules of visible courses"
  on public.course_modules for select to anon
  using (exists (select 1 from public.courses c where c.id = course_modules.course_id));

drop policy "users read modules of visible courses" on public.course_modules;
create policy "users read modules of visible courses"
  on public.course_modules for select to authenticated
  using (exists (select 1 from public.courses c where c.id = course_modules.course_id));

drop policy "visitors read quizzes of visible modules" on public.quizzes;
create policy "visitors read quizzes of visible modules"
  on public.quizzes for select to anon
  using (exists (select 1 from public.course_modules m where m.id = quizzes.module_id));

drop policy "users read quizzes of visible modules" on public.quizzes;
create policy "users read quizzes of visible modules"
  on public.quizzes for select to authenticated
  using (exists (select 1 from public.course_modules m where m.id = quizzes.module_id));

-- Enrolling checked the course against a hashed set of every published course; now against its own
-- row. Same rule.
drop policy "users enrol themselves in visible published courses" on public.enrollments;
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

-- ---------------------------------------------------------------- 3. profiles

create function private.visible_profile_roles() returns public.user_role[]
language sql stable security definer
set search_path = ''
as $$
  select case when private.is_admin() then enum_range(null::public.user_role) else '{}'::public.user_role[] end
$$;
comment on function private.visible_profile_roles() is
  'The roles whose profiles the caller reads in full: every role for an admin, none for anyone else.';
revoke all on function private.visible_profile_roles() from public;
grant execute on function private.visible_profile_roles() to authenticated, service_role;

drop policy "users read own profile, authors their learners', admins all" on public.profiles;
create policy "users read own profile, authors their learners', admins all"
  on public.profiles for select to authenticated
  using (
    id = (select auth.uid())
    or role = any ((select private.visible_profile_roles())::public.user_role[])
    or id = any (array(select private.learner_ids_of_authored_courses()))
  );

-- ---------------------------------------------------------------- text search through the trigram indexes

create function private.course_search_ids(p_pattern text) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select c.id from public.courses c
  where (c.title ilike p_pattern or c.description ilike p_pattern)
    and private.can_view_course(c.id)
$$;
comment on function private.course_search_ids(text) is
  'Ids of the courses the caller can see whose title or description matches the ILIKE pattern (trigram indexes); the caller then reads the rows under its own row-level security.';
revoke all on function private.course_search_ids(text) from public;
grant execute on function private.course_search_ids(text) to anon, authenticated, service_role;

create function private.user_search_ids(p_pattern text) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select p.id from public.profiles p
  where private.is_admin()
    and lower(p.name || ' ' || p.username || ' ' || p.email) like p_pattern
$$;
comment on function private.user_search_ids(text) is
  'Admins only (no rows for anyone else): ids of the profiles whose name, username or email matches the lowercase LIKE pattern (profiles_search_trgm_idx).';
revoke all on function private.user_search_ids(text) from public;
grant execute on function private.user_search_ids(text) to authenticated, service_role;

-- ---------------------------------------------------------------- row estimates of the id functions

-- A set-returning function is assumed to return 1,000 rows, so a join with one (an author's courses,
-- the matches of a search) was planned as a scan of the whole other table. What they return is
-- bounded by one person's courses or one search's matches: say so.
alter function private.authored_course_ids() rows 20;
alter function private.authored_module_ids() rows 200;
alter function private.authored_quiz_ids() rows 10;
alter function private.managed_course_ids() rows 20;
alter function private.course_search_ids(text) rows 50;
alter function private.user_search_ids(text) rows 50;
