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
-- (profiles keeps `id = auth.uid() or is_admin() or id in (learners of my courses)`: its last arm is a
-- hashed set of the caller's own learners, built once per statement and probed per row; an
-- index-servable `id = any(array of them)` would be compared element by element, row by row, which
-- took an instructor with 28,000 learners 14 s. Reads of profiles go by primary key, or, for the
-- admin user search, through the ids of the matches below.)
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

-- ---------------------------------------------------------------- text search through the trigram indexes

-- Both run their query with EXECUTE, so it is planned for the pattern given (a parameter of a plain
-- SQL function is planned blind, and the planner then read all 10,000 courses rather than trust the
-- trigram index with an unknown pattern).
create function private.course_search_ids(p_pattern text) returns setof uuid
language plpgsql stable security definer
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

create function private.user_search_ids(p_pattern text) returns setof uuid
language plpgsql stable security definer
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
