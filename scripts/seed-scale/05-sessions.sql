-- Phase 5: classroom sessions. The last module (without a quiz) of about one published course in
-- fifty becomes a session module, and so does that of the national course most taken outside the
-- required-training rules, the national one that many learners book dates of: 24 national dates (two
-- a month) and eight for each organisation, across the year from a month ago, 16 places each. Every
-- other session module has six dates (national, or its organisation's). The learners enrolled
-- (ACTIVE) who have not done the module hold a place on a date they may see, until a date is four
-- fifths full; those who have done it keep their progress row, with no register entry. The trigger that keeps places_taken is off here (session_replication_role), so the counts are written
-- at the end, as private.count_session_places keeps them.

create temp table scale_session_courses on commit drop as
with candidates as (
  select f.course_id, f.j, f.organisation_id, f.modules,
         (select m.id from public.course_modules m where m.course_id = f.course_id and m.order_index = f.modules) as module_id,
         (select count(*) from public.enrollments e where e.course_id = f.course_id and e.status = 'ACTIVE') as learners
  from scale_gen.course_facts f
  where f.status = 'ACTIVE' and f.modules >= 2 and f.j > 20
    and f.course_id not in (select r.course_id from public.required_training r)
),
usable as (
  select c.* from candidates c
  join public.course_modules m on m.id = c.module_id and not m.has_quiz
),
flagship as (
  select u.course_id from usable u where u.organisation_id is null order by u.learners desc, u.j limit 1
)
select u.course_id, u.module_id, u.organisation_id, u.j, u.course_id = (select course_id from flagship) as flagship
from usable u
where u.j % 50 = 17 or u.course_id = (select course_id from flagship);

update public.course_modules m set kind = 'session', content = ''
from scale_session_courses c where m.id = c.module_id;

-- Dates: the flagship's national and per-organisation ones, every other module's six.
create temp table scale_session_dates on commit drop as
select c.course_id, c.module_id, null::uuid as organisation_id, k,
       date_trunc('day', now()) - interval '30 days' + (k * 15) * interval '1 day' + interval '9 hours' as starts_at
from scale_session_courses c cross join generate_series(0, 23) k
where c.flagship
union all
select c.course_id, c.module_id, o.id, k,
       date_trunc('day', now()) - interval '30 days' + (k * 45 + o.n % 40) * interval '1 day' + interval '9 hours 30 minutes'
from scale_session_courses c
cross join (select id, row_number() over (order by id) as n from public.organisations) o
cross join generate_series(0, 7) k
where c.flagship
union all
select c.course_id, c.module_id, c.organisation_id, k,
       date_trunc('day', now()) - interval '30 days' + (k * 60 + c.j % 50) * interval '1 day' + interval '9 hours'
from scale_session_courses c cross join generate_series(0, 5) k
where not c.flagship;

create temp table scale_sessions on commit drop as
select (lpad(to_hex(row_number() over (order by d.course_id, d.organisation_id nulls first, d.k)), 8, '0')
        || '-5ca1-4000-8000-00000000000d')::uuid as id, d.*
from scale_session_dates d;

insert into public.classroom_sessions (id, module_id, course_id, organisation_id, starts_at, ends_at, venue_name, venue_address,
  capacity, booking_closes_at, note, created_by, created_at, updated_at)
select s.id, s.module_id, s.course_id, s.organisation_id, s.starts_at, s.starts_at + interval '7 hours',
       coalesce(o.name || ' training centre', 'National training centre'), 'Training Centre, 1 Station Road',
       16, s.starts_at - interval '2 days', case when s.k % 3 = 0 then 'Bring your kit and photo ID.' end,
       c.author_id, now() - interval '60 days', now() - interval '60 days'
from scale_sessions s
join public.courses c on c.id = s.course_id
left join public.organisations o on o.id = s.organisation_id
order by s.id;

-- The course's author runs its dates.
insert into public.session_trainers (session_id, trainer_id, created_at)
select s.id, c.author_id, now() - interval '60 days'
from scale_sessions s join public.courses c on c.id = s.course_id;

-- Places: each learner still to do the module on one future date they may see (their
-- organisation's or a national one), chosen by their number, until it is four fifths full.
insert into public.session_bookings (id, session_id, module_id, user_id, cycle, status, created_at, updated_at)
select gen_random_uuid(), p.session_id, p.module_id, p.user_id, p.cycle, 'booked', now() - interval '20 days', now() - interval '20 days'
from (
  select x.*, row_number() over (partition by x.session_id order by x.user_id) as place
  from (
    select distinct on (e.user_id, c.module_id) e.user_id, e.cycle, c.module_id, s.id as session_id
    from scale_session_courses c
    join public.enrollments e on e.course_id = c.course_id and e.status = 'ACTIVE'
    join public.profiles pr on pr.id = e.user_id
    join scale_sessions s on s.module_id = c.module_id and s.starts_at > now() + interval '3 days'
      and (s.organisation_id is null or s.organisation_id = pr.organisation_id)
    where not exists (select 1 from public.user_module_progress u where u.user_id = e.user_id and u.module_id = c.module_id and u.completed)
    order by e.user_id, c.module_id, abs(hashtext(e.user_id::text || s.id::text))
  ) x
) p
where p.place <= 12;

update public.classroom_sessions s set places_taken = b.n
from (select session_id, count(*)::int as n from public.session_bookings
      where status in ('requested', 'booked', 'offered') group by session_id) b
where b.session_id = s.id;
