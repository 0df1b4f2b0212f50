-- Issue 6: a learner's enrolments read each course's modules once, from one index.
--
-- The enrolments list took its figures from two functions: private.course_summaries for each
-- course's number of modules (the course, its author's profile and a count over the modules' rows)
-- and private.enrolment_activity for the modules done (each progress row joined to its module by
-- the module's key: four pages per row). At national size, with ten modules a course, those two were
-- half the statement's cost. private.enrolment_progress gives both in one pass, driven by the
-- learner's enrolments:
--   - each enrolled course once (its key), for the rules of the policies;
--   - its modules' ids from course_modules_course_id_order_idx, which now carries the id, so the
--     module count and the join need no table row (an index-only scan);
--   - the learner's progress rows read once and matched to those modules by hash.
-- The rules are those of private.enrolment_activity (the policies of user_module_progress and
-- course_modules, stated once per statement). supabase/tests/enrolment-activity.test.ts proves the
-- figures equal to the same aggregate read under row-level security, for every persona.

create function private.enrolment_progress(p_user_id uuid)
returns table (course_id uuid, modules integer, done integer, last_read timestamptz, last_completed timestamptz)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with enrolled as materialized (
      -- The course is looked up by its key (a lateral subquery with a LIMIT is never merged into a
      -- join), so no plan reads the courses' index from end to end.
      select e.course_id, c.status, c.author_id
      from public.enrollments e
      cross join lateral (
        select x.status, x.author_id from public.courses x where x.id = e.course_id limit 1
      ) c
      where e.user_id = p_user_id
    ),
    progress as materialized (
      select p.module_id, p.completed, p.read_at, p.completed_at
      from public.user_module_progress p
      where p.user_id = p_user_id
    )
    select enrolled.course_id, count(*)::integer, (count(*) filter (where progress.completed))::integer,
           max(progress.read_at), max(progress.completed_at)
    from enrolled
    join public.course_modules m on m.course_id = enrolled.course_id
    left join progress on progress.module_id = m.id
    where
      -- The progress policy: one's own, an admin, or the author (instructor or admin) of the course.
      (
        p_user_id = (select auth.uid())
        or (select private.is_admin())
        or (enrolled.author_id = (select auth.uid()) and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN'))
      )
      -- The modules policy: the course is one the caller can see (private.can_view_course).
      and (
        (enrolled.status = 'ACTIVE' and ((select auth.uid()) is not null or (select private.course_access()) <> 'login-browse'))
        or (enrolled.author_id = (select auth.uid()) and (select auth.uid()) is not null)
        or (select private.is_admin())
      )
    group by enrolled.course_id;
end;
$$;
comment on function private.enrolment_progress(uuid) is
  'For each of the given learner''s enrolled courses that has modules, where the caller may read the learner''s progress and the course''s modules (the policies of user_module_progress and course_modules): the number of modules, the modules completed, the latest read and the latest completion.';
alter function private.enrolment_progress(uuid) rows 10;
revoke all on function private.enrolment_progress(uuid) from public;
grant execute on function private.enrolment_progress(uuid) to authenticated, service_role;

drop function private.enrolment_activity(uuid);

-- The modules of a course in order, with their ids: counting them and joining them to progress
-- reads the index alone.
create index course_modules_course_id_order_id_idx on public.course_modules (course_id, order_index) include (id);
drop index public.course_modules_course_id_order_idx;
alter index public.course_modules_course_id_order_id_idx rename to course_modules_course_id_order_idx;
