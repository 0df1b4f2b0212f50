-- The instructor dashboard: figures and learner lists for the courses an instructor manages (their
-- own; every course for an admin), computed in SQL; instructors and admins only.
--
-- The Overview's enrolment figures (private.instructor_stats) are kept counts
-- (docs/decisions/kept-counts.md): per course, and per author's learners, split over 16 rows by
-- learner (slot) so that concurrent enrolments seldom wait for one another's row; statement-level
-- triggers on public.enrollments shift them by each statement's changes, and row-level ones on
-- public.courses move an author's learners when a course changes hands or is deleted.

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

-- The figures of the enrolments given: those in p_old out, those in p_new in, as one change per
-- course and slot, then per author and learner (set-based, in key order: two writers never wait for
-- each other's rows in opposite orders). A course being deleted is skipped: its figures go with it,
-- and private.forget_course_figures has taken its learners out of its author's.
create function private.shift_enrolment_figures(p_old public.enrollments[], p_new public.enrollments[])
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_gone bigint;
begin
  if coalesce(cardinality(p_old), 0) + coalesce(cardinality(p_new), 0) = 0 then
    return;
  end if;
  insert into private.course_enrolment_figures as f (course_id, slot, enrolled, pending, completed, progress_sum)
  select d.course_id, d.slot, d.enrolled, d.pending, d.completed, d.progress_sum
  from (
    select x.course_id, private.enrolment_figures_slot(x.user_id) as slot,
           coalesce(sum(x.sign) filter (where x.status = 'ACTIVE'), 0)::integer as enrolled,
           coalesce(sum(x.sign) filter (where x.status = 'PENDING'), 0)::integer as pending,
           coalesce(sum(x.sign) filter (where x.status = 'ACTIVE' and x.completed), 0)::integer as completed,
           coalesce(sum(x.sign * x.progress) filter (where x.status = 'ACTIVE'), 0)::bigint as progress_sum
    from (
      select o.course_id, o.user_id, o.status, o.completed, o.progress, -1 as sign from unnest(p_old) o
      union all
      select n.course_id, n.user_id, n.status, n.completed, n.progress, 1 from unnest(p_new) n
    ) x
    where exists (select 1 from public.courses c where c.id = x.course_id)
    group by 1, 2
  ) d
  where (d.enrolled, d.pending, d.completed, d.progress_sum) <> (0, 0, 0, 0)
  order by 1, 2
  on conflict (course_id, slot) do update
    set enrolled = f.enrolled + excluded.enrolled, pending = f.pending + excluded.pending,
        completed = f.completed + excluded.completed, progress_sum = f.progress_sum + excluded.progress_sum;
  -- The learners' standing with the authors: approved on how many of each author's courses; an
  -- author's count of learners changes when a learner's first comes or last goes.
  with changed as (
    select c.author_id, x.user_id, sum(x.sign)::integer as n
    from (
      select o.course_id, o.user_id, -1 as sign from unnest(p_old) o where o.status = 'ACTIVE'
      union all
      select n.course_id, n.user_id, 1 from unnest(p_new) n where n.status = 'ACTIVE'
    ) x
    join public.courses c on c.id = x.course_id
    where c.author_id is not null
    group by 1, 2
    having sum(x.sign) <> 0
  ),
  kept as (
    insert into private.instructor_learners as l (author_id, user_id, enrolments)
    select ch.author_id, ch.user_id, ch.n from changed ch order by 1, 2
    on conflict (author_id, user_id) do update set enrolments = l.enrolments + excluded.enrolments
    returning l.author_id, l.user_id, l.enrolments
  ),
  counted as (
    insert into private.instructor_figures as f (author_id, slot, learners)
    select k.author_id, private.enrolment_figures_slot(k.user_id),
           sum(case when k.enrolments > 0 and k.enrolments - ch.n <= 0 then 1
                    when k.enrolments <= 0 and k.enrolments - ch.n > 0 then -1 else 0 end)
    from kept k
    join changed ch on ch.author_id = k.author_id and ch.user_id = k.user_id
    group by 1, 2
    having sum(case when k.enrolments > 0 and k.enrolments - ch.n <= 0 then 1
                    when k.enrolments <= 0 and k.enrolments - ch.n > 0 then -1 else 0 end) <> 0
    order by 1, 2
    on conflict (author_id, slot) do update set learners = f.learners + excluded.learners
  )
  select count(*) into v_gone from kept k where k.enrolments <= 0;
  -- Learners no longer approved on any of an author's courses leave (their rows at 0).
  if v_gone = 0 then
    return;
  end if;
  delete from private.instructor_learners l
  where l.enrolments <= 0 and (l.author_id, l.user_id) in (
    select c.author_id, x.user_id
    from unnest(p_old || p_new) x join public.courses c on c.id = x.course_id
    where x.status = 'ACTIVE');
end;
$$;
comment on function private.shift_enrolment_figures(public.enrollments[],public.enrollments[]) is
  'Internal: takes the enrolments p_old out of private.course_enrolment_figures and the authors'' learners (private.instructor_learners, private.instructor_figures) and puts p_new in.';
revoke all on function private.shift_enrolment_figures(public.enrollments[],public.enrollments[]) from public;

-- After each statement on public.enrollments: its rows' old figures out, their new ones in. An
-- update that changes none of the columns the figures are made of (opening a module) stops after
-- one query.
create function private.count_enrolment_figures()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_old public.enrollments[];
  v_new public.enrollments[];
begin
  if tg_op = 'INSERT' then
    perform private.shift_enrolment_figures('{}', array(select row(n.*)::public.enrollments from new_rows n));
  elsif tg_op = 'DELETE' then
    perform private.shift_enrolment_figures(array(select row(o.*)::public.enrollments from old_rows o), '{}');
  else
    select array_agg(row(o.*)::public.enrollments), array_agg(row(n.*)::public.enrollments)
    into v_old, v_new
    from old_rows o
    join new_rows n on n.id = o.id
    where (o.status, o.progress, o.completed, o.course_id, o.user_id)
          is distinct from (n.status, n.progress, n.completed, n.course_id, n.user_id);
    if v_old is not null then
      perform private.shift_enrolment_figures(v_old, v_new);
    end if;
  end if;
  return null;
end;
$$;
comment on function private.count_enrolment_figures() is
  'After-trigger on enrollments (per statement: insert, delete, update): keeps private.course_enrolment_figures and the authors'' learners in step.';
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

-- The counters worked out from the tables: what the kept tables must hold (private.recount_enrolment_figures
-- writes them; private.kept_counts_drift compares them).
create function private.course_enrolment_figures_live()
returns table(course_id uuid, slot smallint, enrolled integer, pending integer, completed integer, progress_sum bigint)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select e.course_id, private.enrolment_figures_slot(e.user_id),
           (count(*) filter (where e.status = 'ACTIVE'))::integer,
           (count(*) filter (where e.status = 'PENDING'))::integer,
           (count(*) filter (where e.status = 'ACTIVE' and e.completed))::integer,
           coalesce(sum(e.progress) filter (where e.status = 'ACTIVE'), 0)::bigint
    from public.enrollments e
    group by 1, 2;
end;
$$;
comment on function private.course_enrolment_figures_live() is
  'Internal: private.course_enrolment_figures computed from public.enrollments.';
revoke all on function private.course_enrolment_figures_live() from public;

create function private.instructor_learners_live()
returns table(author_id uuid, user_id uuid, enrolments integer)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select c.author_id, e.user_id, count(*)::integer
    from public.enrollments e join public.courses c on c.id = e.course_id
    where e.status = 'ACTIVE' and c.author_id is not null
    group by c.author_id, e.user_id;
end;
$$;
comment on function private.instructor_learners_live() is
  'Internal: private.instructor_learners computed from public.enrollments and public.courses.';
revoke all on function private.instructor_learners_live() from public;

create function private.instructor_figures_live()
returns table(author_id uuid, slot smallint, learners integer)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select l.author_id, private.enrolment_figures_slot(l.user_id), count(*)::integer
    from private.instructor_learners_live() l
    group by 1, 2;
end;
$$;
comment on function private.instructor_figures_live() is
  'Internal: private.instructor_figures computed from public.enrollments and public.courses.';
revoke all on function private.instructor_figures_live() from public;

-- Every counter written afresh: the migration that brought them in, and npm run seed:scale (which
-- writes with the triggers off), call it.
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
  select * from private.course_enrolment_figures_live();
  insert into private.instructor_learners (author_id, user_id, enrolments)
  select * from private.instructor_learners_live();
  insert into private.instructor_figures (author_id, slot, learners)
  select * from private.instructor_figures_live();
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
  referencing new table as new_rows
  for each statement execute function private.count_enrolment_figures();

create trigger enrollments_count_figures_delete
  after delete on public.enrollments
  referencing old table as old_rows
  for each statement execute function private.count_enrolment_figures();

-- Every update (a trigger with transition tables takes no column list): the function stops at once
-- when no figure's column changed.
create trigger enrollments_count_figures_update
  after update on public.enrollments
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.count_enrolment_figures();

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
