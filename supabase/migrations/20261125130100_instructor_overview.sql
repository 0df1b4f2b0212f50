-- The instructor's Overview (issue 15): "Average Completion" showed the mean progress. The overview
-- now gives both figures, each under its own name, and the number of enrolment requests waiting
-- for the instructor's approval:
--   completion_rate   completed enrolments / enrolments on the caller's own courses, in percent
--                     (rounded; 0 with none);
--   average_progress  mean progress of those enrolments (rounded; 0 with none);
--   pending_requests  PENDING enrolments on the caller's own courses (awaiting approval).
-- average_completion is kept, equal to average_progress, for clients that still read it.
-- Enrolments are the ACTIVE ones, as before: a pending request is not yet an enrolment.

drop function private.instructor_stats();
create function private.instructor_stats()
returns table (
  total_courses integer,
  total_students integer,
  average_completion integer,
  total_course_hours integer,
  recently_updated jsonb,
  completion_rate integer,
  average_progress integer,
  completed_enrolments integer,
  total_enrolments integer,
  pending_requests integer
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- Checked first and explicitly: a guard inside the query could be planned away.
  perform private.require_instructor();
  return query
  with mine as (
    select c.id, c.title, c.service, c.status, c.duration, c.updated_at
    from public.courses c
    where c.author_id = (select auth.uid())
  ),
  requests as (
    select e.user_id, e.progress, e.completed, e.status
    from public.enrollments e
    where e.course_id in (select m.id from mine m)
  ),
  enrolled as (
    select r.user_id, r.progress, r.completed from requests r where r.status = 'ACTIVE'
  ),
  figures as (
    select count(*)::integer as total,
           (count(*) filter (where en.completed))::integer as done,
           coalesce(round(avg(en.progress)), 0)::integer as progress
    from enrolled en
  )
  select
    (select count(*) from mine)::integer,
    (select count(distinct en.user_id) from enrolled en)::integer,
    f.progress,
    coalesce((select sum(m.duration) from mine m), 0)::integer,
    coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', r.id, 'title', r.title, 'service', r.service, 'status', r.status, 'updatedAt', r.updated_at)
             order by r.updated_at desc, r.id)
      from (select * from mine m order by m.updated_at desc, m.id limit 3) r
    ), '[]'::jsonb),
    case when f.total = 0 then 0 else round(100.0 * f.done / f.total)::integer end,
    f.progress,
    f.done,
    f.total,
    (select count(*) from requests r where r.status = 'PENDING')::integer
  from figures f;
end;
$$;
comment on function private.instructor_stats() is
  'Overview of the caller''s own courses: count, distinct enrolled learners, completion rate (completed / active enrolments, %), average progress (%), completed and active enrolments, pending enrolment requests, hours, 3 most recently updated. average_completion = average_progress (kept for old clients).';
revoke all on function private.instructor_stats() from public;
grant execute on function private.instructor_stats() to authenticated;
