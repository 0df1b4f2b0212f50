-- Issue 6: a learner's enrolments read each course once and its modules from one index.
--
-- The enrolments list read each course under row-level security and took its figures from two
-- functions: private.course_summaries for each course's number of modules (the course again, its
-- author's profile and a count over the modules' rows) and private.enrolment_activity for the
-- modules done (each progress row joined to its module by the module's key: four pages per row). At
-- national size, with ten modules a course, those were most of the statement's cost.
-- private.enrolled_courses gives the course's details and figures in one pass, driven by the
-- learner's enrolments:
--   - each enrolled course once (its key), for its details and the rules of the policies;
--   - its modules' ids from course_modules_course_id_order_idx, which now carries the id, so the
--     module count and the join need no table row (an index-only scan);
--   - the learner's progress rows read once and matched to those modules by hash.
-- The rules are those of the policies of user_module_progress, courses and course_modules (the last
-- two are private.can_view_course), stated once per statement. supabase/tests/enrolled-courses.test.ts
-- proves the rows equal to the same join and aggregate read under row-level security, for every
-- persona.

create function private.enrolled_courses(p_user_id uuid)
returns table (course_id uuid, title text, description text, service public.service_code, duration integer,
               modules integer, done integer, last_read timestamptz, last_completed timestamptz)
language plpgsql stable security definer
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
alter function private.enrolled_courses(uuid) rows 10;
revoke all on function private.enrolled_courses(uuid) from public;
grant execute on function private.enrolled_courses(uuid) to authenticated, service_role;

drop function private.enrolment_activity(uuid);

-- The modules of a course in order, with their ids: counting them and joining them to progress
-- reads the index alone.
create index course_modules_course_id_order_id_idx on public.course_modules (course_id, order_index) include (id);
drop index public.course_modules_course_id_order_idx;
alter index public.course_modules_course_id_order_id_idx rename to course_modules_course_id_order_idx;
