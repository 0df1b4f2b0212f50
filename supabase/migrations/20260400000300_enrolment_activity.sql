-- Issue 6: a learner's enrolments and the instructor's overview read the same few rows whatever
-- the size of the platform.
--
-- 1. A learner's enrolments counted each enrolment's completed modules under row-level security:
--    every progress row joined its module, whose policy looks up the module's course, so the cost
--    followed the number of modules per course (ten at national size against about three in the
--    demo seed). private.enrolment_activity gives the learner's completed modules and latest
--    activity per course in one pass over their own progress rows (the primary key's user_id
--    range), with the rules of both policies (user_module_progress's and course_modules') stated
--    once per statement. supabase/tests/enrolment-activity.test.ts proves it equal to the same
--    figures read under row-level security, for every persona and learner.
-- 2. private.instructor_stats read each of the instructor's active enrolments from the table, with
--    the enrolments policy checked per row. Its courses are the caller's own and it refuses anyone
--    but an instructor or admin first (private.require_instructor), so row-level security adds
--    nothing there: it now runs as its owner, and the enrolments it reads (course, status, learner,
--    progress) all come from one index (an index-only scan).

create function private.enrolment_activity(p_user_id uuid)
returns table (course_id uuid, done integer, last_read timestamptz, last_completed timestamptz)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select a.course_id, a.done, a.last_read, a.last_completed
    from (
      select m.course_id,
             (count(*) filter (where p.completed))::integer as done,
             max(p.read_at) as last_read,
             max(p.completed_at) as last_completed
      from public.user_module_progress p
      join public.course_modules m on m.id = p.module_id
      where p.user_id = p_user_id
      group by m.course_id
    ) a
    -- Both policies depend only on the module's course, so they are checked once per course. The
    -- course is looked up by its key for each of the learner's courses (a lateral subquery with a
    -- LIMIT is never merged into a join), so no plan reads the courses' index from end to end.
    cross join lateral (
      select x.status, x.author_id from public.courses x where x.id = a.course_id limit 1
    ) c
    where
      -- The progress policy: one's own, an admin, or the author (instructor or admin) of the course.
      (
        p_user_id = (select auth.uid())
        or (select private.is_admin())
        or (c.author_id = (select auth.uid()) and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN'))
      )
      -- The modules policy: the module's course is one the caller can see (private.can_view_course).
      and (
        (c.status = 'ACTIVE' and ((select auth.uid()) is not null or (select private.course_access()) <> 'login-browse'))
        or (c.author_id = (select auth.uid()) and (select auth.uid()) is not null)
        or (select private.is_admin())
      );
end;
$$;
comment on function private.enrolment_activity(uuid) is
  'Per course, over the progress rows of the given learner that the caller may read under the policies of user_module_progress and course_modules: completed modules, latest read and latest completion.';
alter function private.enrolment_activity(uuid) rows 10;
revoke all on function private.enrolment_activity(uuid) from public;
grant execute on function private.enrolment_activity(uuid) to authenticated, service_role;

-- The enrolments an instructor's overview reads, answered from the index alone.
create index enrollments_course_status_learner_idx on public.enrollments (course_id, status) include (user_id, progress);
drop index public.enrollments_course_id_status_idx;

alter function private.instructor_stats() security definer;
