-- The instructor dashboard: figures and learner lists for the courses an instructor manages (their
-- own; every course for an admin), computed in SQL; instructors and admins only.
--
-- The Overview's enrolment figures (private.instructor_stats) are read from counters that triggers
-- on public.enrollments and public.courses keep in the same transaction as each write, so the
-- Overview costs the same however many learners an instructor has: per course, the
-- approved and pending enrolments, the completed ones and the sum of their progress; per instructor,
-- on how many of their courses each learner is approved, and how many learners that makes. A
-- course's counters, and an author's count of learners, are split over 16 rows by learner (slot), so
-- that learners enrolling on or progressing through one course, or one author's courses, at the same
-- moment seldom wait for each other's row.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table private.course_enrolment_figures (
  course_id uuid not null references public.courses (id) on delete cascade,
  slot smallint not null,
  enrolled integer not null default 0,
  pending integer not null default 0,
  completed integer not null default 0,
  progress_sum bigint not null default 0,
  primary key (course_id, slot),
  constraint course_enrolment_figures_slot_range check (slot between 0 and 15)
);

create table private.instructor_learners (
  author_id uuid not null,
  user_id uuid not null,
  enrolments integer not null,
  primary key (author_id, user_id)
);

create table private.instructor_figures (
  author_id uuid not null,
  slot smallint not null,
  learners integer not null default 0,
  primary key (author_id, slot),
  constraint instructor_figures_slot_range check (slot between 0 and 15)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table private.course_enrolment_figures is
  'Per course with enrolments and slot (private.enrolment_figures_slot of the learner): approved (ACTIVE) and pending enrolments, completed approved ones and the sum of the approved ones'' progress, kept by the triggers on public.enrollments. A course''s figures are the sum of its slots. Read by private.instructor_stats.';

comment on table private.instructor_learners is
  'Per course author and learner: on how many of the author''s courses the learner''s enrolment is approved (rows at 0 are deleted). Kept by the triggers on public.enrollments and public.courses.';

comment on table private.instructor_figures is
  'Per course author and slot (private.enrolment_figures_slot of the learner): the distinct learners approved on their courses (the rows of private.instructor_learners), changed only when a learner''s first or last approved enrolment with the author comes or goes. An author''s learners are the sum of their slots.';

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table private.course_enrolment_figures enable row level security;

alter table private.instructor_learners enable row level security;

alter table private.instructor_figures enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "no direct access" on private.course_enrolment_figures as restrictive for all to public
  using (false) with check (false);

create policy "no direct access" on private.instructor_learners as restrictive for all to public
  using (false) with check (false);

create policy "no direct access" on private.instructor_figures as restrictive for all to public
  using (false) with check (false);

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

-- The learners given became approved on one more of the author's courses. Taken in key order, so
-- two writers never wait for each other's rows in opposite orders.
create function private.add_instructor_learners(p_author_id uuid, p_user_ids uuid[])
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if p_author_id is null or coalesce(cardinality(p_user_ids), 0) = 0 then
    return;
  end if;
  with added as (
    insert into private.instructor_learners as l (author_id, user_id, enrolments)
    select p_author_id, u.id, 1 from unnest(p_user_ids) u(id) order by u.id
    on conflict (author_id, user_id) do update set enrolments = l.enrolments + 1
    returning l.user_id, l.enrolments
  )
  insert into private.instructor_figures as f (author_id, slot, learners)
  select p_author_id, private.enrolment_figures_slot(a.user_id), count(*)
  from added a where a.enrolments = 1
  group by 2 order by 2
  on conflict (author_id, slot) do update set learners = f.learners + excluded.learners;
end;
$$;
comment on function private.add_instructor_learners(uuid,uuid[]) is
  'Internal: each learner given is approved on one more of the author''s courses (private.instructor_learners, and private.instructor_figures for a learner new to the author).';
revoke all on function private.add_instructor_learners(uuid,uuid[]) from public;

-- The learners given are approved on one course of the author fewer.
create function private.drop_instructor_learners(p_author_id uuid, p_user_ids uuid[])
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if p_author_id is null or coalesce(cardinality(p_user_ids), 0) = 0 then
    return;
  end if;
  with dropped as (
    update private.instructor_learners l set enrolments = l.enrolments - 1
    where l.author_id = p_author_id and l.user_id = any (p_user_ids)
    returning l.user_id, l.enrolments
  ),
  gone as (
    select private.enrolment_figures_slot(d.user_id) as slot, count(*) as learners
    from dropped d where d.enrolments <= 0
    group by 1
  )
  update private.instructor_figures f set learners = f.learners - g.learners
  from gone g where f.author_id = p_author_id and f.slot = g.slot;
  delete from private.instructor_learners l
  where l.author_id = p_author_id and l.user_id = any (p_user_ids) and l.enrolments <= 0;
end;
$$;
comment on function private.drop_instructor_learners(uuid,uuid[]) is
  'Internal: each learner given is approved on one course of the author fewer (private.instructor_learners, and private.instructor_figures for a learner the author no longer has).';
revoke all on function private.drop_instructor_learners(uuid,uuid[]) from public;

-- Which of a course's (and an author's) 16 rows of counters a learner's enrolment is counted in.
create function private.enrolment_figures_slot(p_user_id uuid)
returns smallint
language plpgsql immutable
set search_path = ''
as $$
begin
  return (hashtextextended(p_user_id::text, 0) & 15)::smallint;
end;
$$;
comment on function private.enrolment_figures_slot(uuid) is
  'Internal: the slot (0 to 15) of private.course_enrolment_figures that counts the learner''s enrolments.';
revoke all on function private.enrolment_figures_slot(uuid) from public;

-- The author of a course, for the learners' standing. None while the course is being deleted: its
-- enrolments go by cascade after private.forget_course_figures has taken their learners out.
create function private.course_author(p_course_id uuid)
returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (select c.author_id from public.courses c where c.id = p_course_id);
end;
$$;
comment on function private.course_author(uuid) is
  'Internal: the course''s author_id (null when there is none, or the course is gone).';
revoke all on function private.course_author(uuid) from public;

-- After a row of public.enrollments is written: its old figures out of its course's counters, its
-- new ones in (one update when the course and learner are the same), and the learner's standing with
-- the course's author when the enrolment became or stopped being approved.
create function private.count_enrolment_figures()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_was boolean := tg_op <> 'INSERT' and old.status = 'ACTIVE';
  v_is boolean := tg_op <> 'DELETE' and new.status = 'ACTIVE';
  v_same boolean := tg_op = 'UPDATE' and old.course_id = new.course_id and old.user_id = new.user_id;
begin
  if v_same then
    update private.course_enrolment_figures f
    set enrolled = f.enrolled + v_is::integer - v_was::integer,
        pending = f.pending + (new.status = 'PENDING')::integer - (old.status = 'PENDING')::integer,
        completed = f.completed + (v_is and new.completed)::integer - (v_was and old.completed)::integer,
        progress_sum = f.progress_sum + case when v_is then new.progress else 0 end
                                      - case when v_was then old.progress else 0 end
    where f.course_id = new.course_id and f.slot = private.enrolment_figures_slot(new.user_id);
  else
    if tg_op <> 'INSERT' then
      -- No row when the course is being deleted (its rows go with it).
      update private.course_enrolment_figures f
      set enrolled = f.enrolled - v_was::integer,
          pending = f.pending - (old.status = 'PENDING')::integer,
          completed = f.completed - (v_was and old.completed)::integer,
          progress_sum = f.progress_sum - case when v_was then old.progress else 0 end
      where f.course_id = old.course_id and f.slot = private.enrolment_figures_slot(old.user_id);
    end if;
    if tg_op <> 'DELETE' then
      insert into private.course_enrolment_figures as f (course_id, slot, enrolled, pending, completed, progress_sum)
      values (new.course_id, private.enrolment_figures_slot(new.user_id), v_is::integer,
              (new.status = 'PENDING')::integer, (v_is and new.completed)::integer,
              case when v_is then new.progress else 0 end)
      on conflict (course_id, slot) do update
        set enrolled = f.enrolled + excluded.enrolled, pending = f.pending + excluded.pending,
            completed = f.completed + excluded.completed, progress_sum = f.progress_sum + excluded.progress_sum;
    end if;
  end if;
  if v_was and not (v_same and v_is) then
    perform private.drop_instructor_learners(private.course_author(old.course_id), array[old.user_id]);
  end if;
  if v_is and not (v_same and v_was) then
    perform private.add_instructor_learners(private.course_author(new.course_id), array[new.user_id]);
  end if;
  return null;
end;
$$;
comment on function private.count_enrolment_figures() is
  'After-trigger on enrollments (insert, delete, and updates of status, progress, completed, course or learner): keeps private.course_enrolment_figures and the author''s learners in step.';
revoke all on function private.count_enrolment_figures() from public;

create function private.clear_enrolment_figures()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from private.course_enrolment_figures;
  delete from private.instructor_learners;
  delete from private.instructor_figures;
  return null;
end;
$$;
comment on function private.clear_enrolment_figures() is
  'After-truncate trigger on enrollments: no enrolment, no figures.';
revoke all on function private.clear_enrolment_figures() from public;

-- Before a course is deleted (its enrolments and counters go with it, by cascade): its approved
-- learners leave its author's, while the course can still be read.
create function private.forget_course_figures()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.drop_instructor_learners(old.author_id, array(
    select e.user_id from public.enrollments e where e.course_id = old.id and e.status = 'ACTIVE'));
  return old;
end;
$$;
comment on function private.forget_course_figures() is
  'Before-delete trigger on courses: removes the course''s approved learners from its author''s (private.instructor_learners).';
revoke all on function private.forget_course_figures() from public;

-- A course changes hands (or loses its author, deleted): its approved learners move with it.
create function private.move_course_figures()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_learners uuid[] := array(
    select e.user_id from public.enrollments e where e.course_id = new.id and e.status = 'ACTIVE');
begin
  perform private.drop_instructor_learners(old.author_id, v_learners);
  perform private.add_instructor_learners(new.author_id, v_learners);
  return null;
end;
$$;
comment on function private.move_course_figures() is
  'After-update trigger on courses.author_id: the course''s approved learners move to the new author.';
revoke all on function private.move_course_figures() from public;

-- Every counter worked out afresh from the tables: the migration that brought them in, and
-- npm run seed:scale (which writes with the triggers off), call it.
create function private.recount_enrolment_figures()
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from private.course_enrolment_figures;
  delete from private.instructor_learners;
  delete from private.instructor_figures;
  insert into private.course_enrolment_figures (course_id, slot, enrolled, pending, completed, progress_sum)
  select e.course_id, private.enrolment_figures_slot(e.user_id),
         count(*) filter (where e.status = 'ACTIVE'),
         count(*) filter (where e.status = 'PENDING'),
         count(*) filter (where e.status = 'ACTIVE' and e.completed),
         coalesce(sum(e.progress) filter (where e.status = 'ACTIVE'), 0)
  from public.enrollments e
  group by 1, 2;
  insert into private.instructor_learners (author_id, user_id, enrolments)
  select c.author_id, e.user_id, count(*)
  from public.enrollments e join public.courses c on c.id = e.course_id
  where e.status = 'ACTIVE' and c.author_id is not null
  group by c.author_id, e.user_id;
  insert into private.instructor_figures (author_id, slot, learners)
  select l.author_id, private.enrolment_figures_slot(l.user_id), count(*)
  from private.instructor_learners l group by 1, 2;
end;
$$;
comment on function private.recount_enrolment_figures() is
  'Internal: recomputes private.course_enrolment_figures, private.instructor_learners and private.instructor_figures from public.enrollments and public.courses.';
revoke all on function private.recount_enrolment_figures() from public;

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
  -- The counters the triggers keep (private.count_enrolment_figures), at most 16 rows per course:
  -- the same figures as counting the enrolments, at the cost of the instructor's courses.
  figures as (
    select coalesce(sum(f.enrolled), 0)::integer as total,
           coalesce(sum(f.completed), 0)::integer as done,
           coalesce(sum(f.pending), 0)::integer as pending,
           sum(f.progress_sum) as progress_sum
    from private.course_enrolment_figures f
    where f.course_id in (select m.id from mine m)
  )
  select
    (select count(*) from mine)::integer,
    coalesce((select sum(i.learners) from private.instructor_figures i where i.author_id = (select auth.uid())), 0)::integer,
    -- round(avg(progress)) as it was: the same numeric division of the sum by the count.
    case when f.total = 0 then 0 else round(f.progress_sum / f.total)::integer end,
    coalesce((select sum(m.duration) from mine m), 0)::integer,
    coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', r.id, 'title', r.title, 'service', r.service, 'status', r.status, 'updatedAt', r.updated_at)
             order by r.updated_at desc, r.id)
      from (select * from mine m order by m.updated_at desc, m.id limit 3) r
    ), '[]'::jsonb),
    case when f.total = 0 then 0 else round(100.0 * f.done / f.total)::integer end,
    case when f.total = 0 then 0 else round(f.progress_sum / f.total)::integer end,
    f.done,
    f.total,
    f.pending
  from figures f;
end;
$$;
comment on function private.instructor_stats() is
  'Overview of the caller''s own courses: count, distinct enrolled learners, completion rate (completed / active enrolments, %), average progress (%), completed and active enrolments, pending enrolment requests, hours, 3 most recently updated. average_completion = average_progress (kept for old clients).';
revoke all on function private.instructor_stats() from public;
grant execute on function private.instructor_stats() to authenticated;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger enrollments_count_figures_insert
  after insert on public.enrollments
  for each row execute function private.count_enrolment_figures();

create trigger enrollments_count_figures_delete
  after delete on public.enrollments
  for each row execute function private.count_enrolment_figures();

-- Only the columns the figures are made of (not, say, the module last opened).
create trigger enrollments_count_figures_update
  after update of status, progress, completed, course_id, user_id on public.enrollments
  for each row
  when (old.status is distinct from new.status or old.progress is distinct from new.progress
        or old.completed is distinct from new.completed or old.course_id is distinct from new.course_id
        or old.user_id is distinct from new.user_id)
  execute function private.count_enrolment_figures();

create trigger enrollments_count_figures_truncate
  after truncate on public.enrollments
  for each statement execute function private.clear_enrolment_figures();

create trigger courses_forget_figures
  before delete on public.courses
  for each row execute function private.forget_course_figures();

create trigger courses_move_figures
  after update of author_id on public.courses
  for each row
  when (old.author_id is distinct from new.author_id)
  execute function private.move_course_figures();
