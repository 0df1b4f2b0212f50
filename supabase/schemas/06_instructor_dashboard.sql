-- The instructor dashboard: figures and learner lists for the courses an instructor manages (their
-- own; every course for an admin), computed in SQL; instructors and admins only.

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- Refuses anyone who is neither INSTRUCTOR nor ADMIN (42501, answered 403 by the api).
create function private.require_instructor()
returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if coalesce((select private.current_role()) in ('INSTRUCTOR', 'ADMIN'), false) is false then
    raise exception 'You don''t have instructor permissions.' using errcode = '42501';
  end if;
end;
$$;
comment on function private.require_instructor() is
  'Raises 42501 unless the caller is an INSTRUCTOR or ADMIN.';
revoke all on function private.require_instructor() from public;
grant execute on function private.require_instructor() to authenticated;

-- The courses whose learners and figures the caller manages: their own, or every course for admins.
create function private.managed_course_ids()
returns setof uuid
language sql
 STABLE ROWS 20
set search_path = ''
as $$
  select c.id from public.courses c
  where (select private.is_admin()) or c.author_id = (select auth.uid())
$$;
comment on function private.managed_course_ids() is
  'Courses the caller manages: authored ones, all for admins (RLS applies).';
revoke all on function private.managed_course_ids() from public;
grant execute on function private.managed_course_ids() to authenticated;

-- Learners on the managed courses, one row per enrolment, paged; total is the unpaged count.
-- status: pending (awaiting approval), in-progress, completed. Last activity: the latest of
-- enrolling, reading a module, a quiz attempt and completing.
create function private.instructor_students(
  p_course_id uuid default NULL::uuid,
  p_status text default NULL::text,
  p_limit integer default 20,
  p_offset integer default 0
)
returns table(
  id uuid,
  user_id uuid,
  name text,
  username text,
  course_id uuid,
  course_title text,
  service public.service_code,
  progress integer,
  status text,
  started_at timestamp with time zone,
  completed_at timestamp with time zone,
  last_activity timestamp with time zone,
  total bigint
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- Checked first and explicitly: a guard inside the query could be planned away.
  perform private.require_instructor();
  return query
  with listed as (
    select e.id, e.user_id, p.name, p.username, c.id as course_id, c.title as course_title, c.service,
           e.progress,
           case when e.status = 'PENDING' then 'pending'
                when e.completed then 'completed'
                else 'in-progress' end as status,
           e.started_at, e.completed_at
    from public.enrollments e
    join public.courses c on c.id = e.course_id
    join public.profiles p on p.id = e.user_id
    where e.course_id in (select private.managed_course_ids())
      and (p_course_id is null or e.course_id = p_course_id)
  ),
  filtered as (
    select r.*, count(*) over () as total from listed r
    where p_status is null or r.status = p_status
    order by (r.status = 'pending') desc, r.started_at desc, r.id
    limit greatest(p_limit, 0) offset greatest(p_offset, 0)
  )
  select f.id, f.user_id, f.name, f.username, f.course_id, f.course_title, f.service, f.progress, f.status,
         f.started_at, f.completed_at,
         greatest(f.started_at, f.completed_at, activity.read_at, activity.attempted_at) as last_activity,
         f.total
  from filtered f
  -- Only the page's rows (at most p_limit) look up their activity, through the primary key of
  -- user_module_progress and the (user_id, quiz_id) index of quiz_attempts.
  left join lateral (
    select
      (select max(greatest(u.read_at, u.completed_at))
         from public.user_module_progress u
         join public.course_modules m on m.id = u.module_id
        where u.user_id = f.user_id and m.course_id = f.course_id) as read_at,
      (select max(coalesce(a.completed_at, a.started_at))
         from public.quiz_attempts a
         join public.quizzes q on q.id = a.quiz_id
         join public.course_modules m on m.id = q.module_id
        where a.user_id = f.user_id and m.course_id = f.course_id) as attempted_at
  ) activity on true
  order by (f.status = 'pending') desc, f.started_at desc, f.id;
end;
$$;
comment on function private.instructor_students(uuid,text,integer,integer) is
  'Enrolments on the caller''s managed courses with learner, course, progress, status and last activity; paged, with the total.';
revoke all on function private.instructor_students(uuid,text,integer,integer) from public;
grant execute on function private.instructor_students(uuid,text,integer,integer) to authenticated;

-- Per managed course: enrolments (approved), pending, completion rate and average progress of the
-- approved enrolments, and the pass rate of attempts on the course's quizzes (null with none).
create function private.instructor_analytics(p_limit integer default 20, p_offset integer default 0)
returns table(
  course_id uuid,
  title text,
  service public.service_code,
  status public.course_status,
  enrollments integer,
  pending integer,
  completed integer,
  completion_rate integer,
  average_progress integer,
  quiz_attempts integer,
  quiz_passed integer,
  quiz_pass_rate integer,
  total bigint
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- Checked first and explicitly: a guard inside the query could be planned away.
  perform private.require_instructor();
  return query
  with courses as (
    select c.id, c.title, c.service, c.status, c.created_at, count(*) over () as total
    from public.courses c
    where c.id in (select private.managed_course_ids())
    order by c.created_at desc, c.id
    limit greatest(p_limit, 0) offset greatest(p_offset, 0)
  ),
  enrolment_figures as (
    select e.course_id,
           count(*) filter (where e.status = 'ACTIVE') as enrolled,
           count(*) filter (where e.status = 'PENDING') as pending,
           count(*) filter (where e.status = 'ACTIVE' and e.completed) as completed,
           avg(e.progress) filter (where e.status = 'ACTIVE') as average_progress
    from public.enrollments e
    where e.course_id in (select c.id from courses c)
    group by e.course_id
  ),
  attempt_figures as (
    select m.course_id, count(*) as attempts, count(*) filter (where a.passed) as passed
    from public.quiz_attempts a
    join public.quizzes q on q.id = a.quiz_id
    join public.course_modules m on m.id = q.module_id
    -- an attempt opened but never submitted (timed quizzes) is not an attempt yet
    where m.course_id in (select c.id from courses c) and a.completed_at is not null
    group by m.course_id
  )
  select c.id, c.title, c.service, c.status,
         coalesce(ef.enrolled, 0)::integer,
         coalesce(ef.pending, 0)::integer,
         coalesce(ef.completed, 0)::integer,
         case when coalesce(ef.enrolled, 0) = 0 then 0
              else round(100.0 * ef.completed / ef.enrolled)::integer end,
         coalesce(round(ef.average_progress), 0)::integer,
         coalesce(af.attempts, 0)::integer,
         coalesce(af.passed, 0)::integer,
         case when coalesce(af.attempts, 0) = 0 then null
              else round(100.0 * af.passed / af.attempts)::integer end,
         c.total
  from courses c
  left join enrolment_figures ef on ef.course_id = c.id
  left join attempt_figures af on af.course_id = c.id
  order by c.created_at desc, c.id;
end;
$$;
comment on function private.instructor_analytics(integer,integer) is
  'Per managed course: approved and pending enrolments, completion rate, average progress, quiz attempts and pass rate (%, null without attempts); paged.';
revoke all on function private.instructor_analytics(integer,integer) from public;
grant execute on function private.instructor_analytics(integer,integer) to authenticated;

create function private.instructor_stats()
returns table(
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
