-- Phase 3: {{enrollments}} enrolments in published courses. Each account draws 0 to {{per_user_span}} - 1
-- courses, four in five from its own service; popular courses are taken far more
-- often than others (the rank within the service is drawn as u^2). An organisation's course is
-- taken only by its own people (a draw that lands on another organisation's course is dropped with
-- the duplicates). How far each learner got is decided here and written consistently: progress =
-- round(100 x completed modules / modules), a course without modules steps by 20, completed exactly
-- at 100, 1 % still pending approval.

create temp table scale_active on commit drop as
select f.course_id, f.service, f.created_at, f.modules, f.organisation_id,
       row_number() over (partition by f.service order by f.j) as rn_service,
       row_number() over (order by f.j) as rn_all
from scale_gen.course_facts f
where f.status = 'ACTIVE';
create index on scale_active (service, rn_service);
create index on scale_active (rn_all);
analyze scale_active;
create temp table scale_active_counts on commit drop as
select service, count(*) as n from scale_active group by service;

-- Required training: one national rule per service (any role), on the service's most taken published
-- national course with modules and a 12-month certificate. Everyone the rule matches is enrolled in
-- its course, as private.enrol_for_required_rule does when a rule is made (never pending), and the
-- random draws below leave those courses out; the draws make up the rest of the {{enrollments}}.
create temp table scale_rules on commit drop as
select row_number() over (order by r.service) as k, r.service, r.course_id
from (
  select distinct on (a.service) a.service, a.course_id
  from scale_active a join scale_gen.course_facts f on f.course_id = a.course_id
  where a.organisation_id is null and a.modules > 0 and f.j > 20 and f.j % 10 < 3
  order by a.service, a.rn_service
) r;

insert into public.required_training (id, course_id, role, service, due_within_days, renew_before_days, created_by,
  created_at, updated_at)
select (lpad(to_hex(r.k), 8, '0') || '-5ca1-4000-8000-00000000000c')::uuid, r.course_id, null, r.service, 30, 30, null,
       now() - interval '400 days', now() - interval '400 days'
from scale_rules r order by r.k;

create temp table scale_rule_pairs on commit drop as
select distinct p.id as user_id, r.course_id, p.created_at as user_created_at
from public.profiles p join scale_rules r on p.services @> array[r.service]
where p.deactivated_at is null;

create temp table scale_candidates on commit drop as
with takers as (
  select p.id as user_id, p.created_at, p.services[1] as service, p.organisation_id,
         row_number() over (order by p.id) as ui
  from public.profiles p
  where p.id::text like '%-5ca1-4000-8000-000000000001'
),
picks as (
  select t.user_id, t.created_at as user_created_at, t.service, t.organisation_id, t.ui, k,
         random() as u_own, random() as u_rank
  from takers t
  cross join lateral generate_series(1, (t.ui * 2654435761 % {{per_user_span}})::int) as k
)
select p.user_id, p.user_created_at, p.organisation_id, p.ui, p.k,
       case when p.u_own < 0.8 and coalesce(ac.n, 0) > 0
            then (select a.course_id from scale_active a
                  where a.service = p.service and a.rn_service = 1 + floor(p.u_rank * p.u_rank * ac.n)::int)
            else (select a.course_id from scale_active a
                  where a.rn_all = 1 + floor(p.u_rank * p.u_rank * (select count(*) from scale_active))::int) end as course_id
from picks p left join scale_active_counts ac on ac.service = p.service;
analyze scale_candidates;

create table scale_gen.enrollments as
with unique_pairs as (
  select distinct on (c.user_id, c.course_id) c.user_id, c.course_id, c.user_created_at, c.ui, c.k
  from scale_candidates c
  join scale_active a on a.course_id = c.course_id
  where (a.organisation_id is null or a.organisation_id = c.organisation_id)
    and c.course_id not in (select course_id from scale_rules)
  order by c.user_id, c.course_id, c.k
),
drawn as (
  -- A little more was drawn than needed: a random surplus goes, so every account keeps its share.
  select u.*, row_number() over (order by md5(u.user_id::text || u.course_id::text)) as r
  from unique_pairs u
),
kept as (
  -- The required training's and the draws', numbered by learner, so the enrolments' keys are
  -- written in index order.
  select x.*, row_number() over (order by x.user_id, x.course_id) as en
  from (
    select d.user_id, d.course_id, d.user_created_at, false as required from drawn d
    where d.r <= {{enrollments}} - (select count(*) from scale_rule_pairs)
    union all
    select rp.user_id, rp.course_id, rp.user_created_at, true from scale_rule_pairs rp
  ) x
),
shaped as (
  select k.en, k.user_id, k.course_id, k.required, a.modules,
         greatest(k.user_created_at, a.created_at) as earliest,
         random() as u_state, random() as u_done, random() as u_time
  from kept k join scale_active a on a.course_id = k.course_id
)
select s.en,
       (lpad(to_hex(s.en), 8, '0') || '-5ca1-4000-8000-000000000006')::uuid as id,
       s.user_id, s.course_id, s.modules,
       -- done: modules completed (or, without modules, 20 % steps taken).
       -- 1 % pending approval (never a required course's), 24 % not started, 15 % completed, the
       -- rest part way (most learners who stall do so early: the share done is drawn as u^3).
       case when s.u_state < 0.01 and not s.required then -1
            when s.u_state < 0.25 then 0
            when s.u_state < 0.40 then greatest(s.modules, 0) + case when s.modules = 0 then 5 else 0 end
            else case when s.modules > 1 then 1 + floor(s.u_done * s.u_done * s.u_done * (s.modules - 1))::int
                      when s.modules = 0 then 1 + floor(s.u_done * 4)::int
                      else 0 end end as done,
       s.earliest + (now() - s.earliest) * (s.u_time * 0.7) as started_at,
       s.u_time, f.j
from shaped s join scale_gen.course_facts f on f.course_id = s.course_id
order by s.en;
create index on scale_gen.enrollments (course_id, done);
analyze scale_gen.enrollments;

insert into public.enrollments (id, user_id, course_id, status, progress, completed, started_at, completed_at,
  last_accessed_module_id, created_at, updated_at)
select e.id, e.user_id, e.course_id,
       case when e.done < 0 then 'PENDING' else 'ACTIVE' end::public.enrollment_status,
       p.progress, p.progress = 100,
       e.started_at,
       case when p.progress = 100 then e.started_at + (now() - e.started_at) * 0.5 end,
       -- The module to continue from (ids as phase 2 makes them: course number, then position).
       case when e.modules > 0 and e.done > 0
            then (lpad(to_hex(e.j), 6, '0') || lpad(to_hex(least(e.done + 1, e.modules)), 2, '0')
                  || '-5ca1-4000-8000-000000000003')::uuid end,
       e.started_at, e.started_at + (now() - e.started_at) * 0.5
from scale_gen.enrollments e
cross join lateral (
  select case when e.done <= 0 then 0
              when e.modules = 0 then least(100, 20 * e.done)
              else round(100.0 * e.done / e.modules)::int end as progress
) p
order by e.en;
