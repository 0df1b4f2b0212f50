-- Phase 2: {{courses}} courses across the six services, each written by an instructor of its service
-- (the first twenty by the demo instructor, in UKPS and MISC, so signing in as `instructor` shows a
-- full dashboard; one in twenty of the others its author's organisation's own course,
-- courses.organisation_id, the rest national); 85 % published (ACTIVE), 12 % DRAFT, 3 % ARCHIVED; about 3 % of the published
-- ones featured. Then {{modules}} modules (about 3 % of courses have none, the others 1 to 19), a
-- quiz on every 20th module ({{quizzes}} quizzes) with 4 to 6 questions each.

create temp table scale_courses on commit drop as
with topics as (
  select s.service, s.topics
  from (values
    ('UKPS'::public.service_code, array['Stop and Search','Custody Procedures','Public Order Tactics','Evidence Gathering',
      'Roads Policing','Safeguarding Vulnerable People','Domestic Abuse Response','Investigative Interviewing',
      'Conflict Management','Firearms Awareness','Missing Persons','Counter Terrorism Awareness','Cybercrime Basics',
      'Body Worn Video','Police Driving','Crime Scene Preservation','Hate Crime','County Lines']),
    ('UKAS'::public.service_code, array['Cardiac Arrest Management','Major Trauma','Airway Management','Stroke Recognition',
      'Paediatric Emergencies','Maternity Emergencies','Sepsis Screening','Mental Health Crisis','Medicines Management',
      'Patient Handling','Triage at Major Incidents','Clinical Documentation','End of Life Care','Falls in Older People',
      'Infection Prevention','Emergency Driving','Safeguarding Adults','Spinal Immobilisation']),
    ('UKFRS'::public.service_code, array['Breathing Apparatus','Compartment Fire Behaviour','Road Traffic Collisions',
      'Water Rescue','Working at Height','Hazardous Materials','High Rise Firefighting','Wildfire Response',
      'Fire Investigation','Pump Operations','Incident Command','Fire Safety Inspection','Urban Search and Rescue',
      'Casualty Care','Ladder Drills','Flooding Response','Safe Working in Confined Spaces','Home Fire Safety']),
    ('UKHW'::public.service_code, array['Traffic Management','Incident Clearance','Working on Live Carriageways',
      'Smart Motorways','Vehicle Recovery','Severe Weather Response','Road Closures','Emergency Areas',
      'Customer Care on the Network','Temporary Traffic Signals','Abnormal Loads','Debris Removal']),
    ('AUX'::public.service_code, array['Volunteer Induction','Radio Procedure','Search Techniques','Rest Centre Operations',
      'Casualty Bureau','Community Resilience','Mountain Rescue Basics','Lowland Search','Welfare Support',
      'Flood Warden Duties','Event Safety','Logistics Support']),
    ('MISC'::public.service_code, array['Manual Handling','Information Governance','Equality and Diversity',
      'Health and Safety at Work','Fire Marshal','First Aid at Work','Display Screen Equipment','Data Protection',
      'Lone Working','Resilience and Wellbeing','JESIP Principles','Airwave Radio','Leadership Essentials',
      'Report Writing','Business Continuity'])
  ) as s(service, topics)
),
numbered as (
  select j,
         (((j::bigint * 2654435761) % 4294967296) / 4294967296.0) as h1,
         (((j::bigint * 40503 + 999) * 2246822519 % 4294967296) / 4294967296.0) as h2,
         (((j::bigint * 131 + 3) * 3266489917 % 4294967296) / 4294967296.0) as h3
  from generate_series(1, {{courses}}) as j
),
placed as (
  select n.*,
         case when n.j <= 20 then (case when n.j % 2 = 0 then 'UKPS' else 'MISC' end)
              when n.h1 < 0.35 then 'UKPS' when n.h1 < 0.55 then 'UKAS' when n.h1 < 0.75 then 'UKFRS'
              when n.h1 < 0.85 then 'UKHW' when n.h1 < 0.95 then 'AUX' else 'MISC' end::public.service_code as service
  from numbered n
)
select p.j,
       (lpad(to_hex(p.j), 8, '0') || '-5ca1-4000-8000-000000000002')::uuid as id,
       p.service,
       t.topics[1 + floor(p.h2 * array_length(t.topics, 1))::int] as topic,
       (array['Foundations','Refresher','Advanced Practice','for Supervisors','Assessment and Review',
              'Essentials','in Practice','Update ' || (2024 + p.j % 3), 'Case Studies','Core Skills'])[1 + p.j % 10] as qualifier,
       (array['North West','London','Scotland','Wales','Yorkshire','the Midlands','the South West','the North East',
              'Northern Ireland','the East of England','Kent','Thames Valley'])[1 + (p.j / 10) % 12] as region,
       case when p.h3 < 0.85 then 'ACTIVE' when p.h3 < 0.97 then 'DRAFT' else 'ARCHIVED' end::public.course_status as status,
       (array['BEGINNER','INTERMEDIATE','ADVANCED'])[1 + p.j % 3]::public.course_level as level,
       1 + (p.j * 7) % 24 as duration,
       p.h2 as h2,
       now() - interval '1000 days' + (p.j::float8 / {{courses}}) * interval '990 days' as created_at
from placed p join topics t on t.service = p.service;

create temp table scale_authors on commit drop as
select p.id, s.service, row_number() over (partition by s.service order by p.id) as rn
from public.profiles p, unnest(p.services) as s(service)
where p.role = 'INSTRUCTOR' and p.id <> '00000000-0000-4000-a000-000000000002';
create index on scale_authors (service, rn);
analyze scale_authors;
create temp table scale_author_counts on commit drop as
select service, count(*) as n from scale_authors group by service;
analyze scale_courses;

-- Authors: an instructor of the course's service, spread evenly (round robin by course number).
-- One course in twenty (from the 21st) belongs to its author's organisation; the rest are national.
alter table scale_courses add column author_id uuid, add column organisation_id uuid;
update scale_courses c set author_id = case when c.j <= 20 then '00000000-0000-4000-a000-000000000002'::uuid
    else (select a.id from scale_authors a join scale_author_counts ac on ac.service = a.service
          where a.service = c.service and a.rn = 1 + (c.j % ac.n)) end;
update scale_courses c set organisation_id = p.organisation_id
from public.profiles p where p.id = c.author_id and c.j > 20 and c.j % 20 = 3;

insert into public.courses (id, title, description, service, cover_image, author_id, duration, level, featured,
  requires_enrollment, status, certificate_valid_months, organisation_id, created_at, updated_at)
select c.id,
       c.topic || ': ' || c.qualifier || case when c.j % 3 = 0 then ' (' || c.region || ')' else '' end,
       'A ' || lower(c.level::text) || ' course on ' || lower(c.topic) || ' for staff in ' || c.region || '. '
         || 'It covers the law and guidance that apply, the decisions you will face on shift, and how to record '
         || 'them; each module ends with a short check of what you have learnt.',
       c.service, null,
       c.author_id,
       c.duration, c.level,
       c.status = 'ACTIVE' and c.j % 33 = 0 and c.organisation_id is null,
       c.j % 20 <> 7,
       c.status,
       case when c.j % 10 < 3 then 12 when c.j % 10 = 3 then 24 end,
       c.organisation_id,
       c.created_at,
       c.created_at + (c.h2 * interval '30 days')
from scale_courses c order by c.j;

-- The catalogue's totals, as the courses' statement triggers keep them (private.count_courses).
insert into private.course_counts as cc (status, service, courses)
select c.status, c.service, count(*) from scale_courses c where c.organisation_id is null group by 1, 2 order by 1, 2
on conflict (status, service) do update set courses = cc.courses + excluded.courses;

-- Modules: about 3 % of courses have none; the others 1..19, topped up so the total is exact.
create temp table scale_module_counts on commit drop as
with base as (
  select c.j, c.id as course_id,
         case when c.j % 37 = 0 then 0 else 1 + (c.j * 7919) % 19 end as n
  from scale_courses c
),
ranked as (
  select b.*, sum(b.n) over () as total,
         row_number() over (order by case when b.n > 0 then 0 else 1 end, b.j) as rn,
         count(*) filter (where b.n > 0) over () as nonzero
  from base b
)
select r.j, r.course_id,
       case when r.n = 0 then 0
            else r.n + ({{modules}} - r.total) / r.nonzero
                 + case when r.rn <= ({{modules}} - r.total) % r.nonzero then 1 else 0 end end as n
from ranked r;

insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz, image, created_at, updated_at)
select (lpad(to_hex(mc.j), 6, '0') || lpad(to_hex(k), 2, '0') || '-5ca1-4000-8000-000000000003')::uuid,
       mc.course_id,
       'Part ' || k || ': ' || (array['Why it matters','The law and guidance','Assessing the situation','Making the decision',
         'Working with partners','Recording and reporting','Common pitfalls','Case study','Looking after yourself',
         'Putting it together'])[1 + (k - 1) % 10],
       '# Part ' || k || E'\n\nThis part explains what you need to know and do. Read it through, then work through '
         || E'the points below with a colleague if you can.\n\n- Know the guidance that applies\n- Recognise the signs early\n'
         || E'- Act within your role and training\n- Record what you did and why\n\n> Take your time: you can come back to '
         || 'any part of the course later.',
       k, 5 + (k * 7) % 26,
       -- Every 20th module has a quiz (numbered over the whole catalogue).
       false, null, c.created_at, c.created_at
from scale_module_counts mc
join scale_courses c on c.j = mc.j
cross join lateral generate_series(1, mc.n) as k
order by mc.j, k;

create temp table scale_quiz_modules on commit drop as
select m.id as module_id, m.course_id, m.order_index,
       row_number() over (order by m.id) as qn
from public.course_modules m
where m.course_id in (select id from scale_courses);
delete from scale_quiz_modules where qn % ({{modules}} / {{quizzes}}) <> 0;
analyze scale_quiz_modules;

insert into public.quizzes (id, module_id, title, description, passing_score, time_limit, randomize_questions, created_at, updated_at)
select (lpad(to_hex(q.qn), 8, '0') || '-5ca1-4000-8000-000000000004')::uuid, q.module_id,
       'Check your understanding', 'A short quiz on this part of the course.',
       (array[70, 75, 80])[1 + q.qn % 3], case when q.qn % 4 = 0 then 10 + (q.qn % 3) * 5 end, q.qn % 5 = 0, now(), now()
from scale_quiz_modules q order by q.qn;

update public.course_modules m set has_quiz = true
from scale_quiz_modules q where q.module_id = m.id;

insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation,
  created_at, updated_at)
select (lpad(to_hex(q.qn), 8, '0') || '-5ca1-4' || lpad(to_hex(k), 3, '0') || '-8000-000000000005')::uuid,
       (lpad(to_hex(q.qn), 8, '0') || '-5ca1-4000-8000-000000000004')::uuid,
       case when k % 3 = 0 then 'True or false: you should record your decision and the reason for it straight away.'
            else 'Question ' || k || ': which of these is the right first step?' end,
       case when k % 3 = 0 then 'TRUE_FALSE' else 'MULTIPLE_CHOICE' end::public.question_type,
       k, 1,
       case when k % 3 = 0 then '[{"text":"True","isCorrect":true},{"text":"False","isCorrect":false}]'::jsonb
            else jsonb_build_array(
              jsonb_build_object('text', 'Make the scene safe and assess', 'isCorrect', k % 4 = 1),
              jsonb_build_object('text', 'Wait for a supervisor before doing anything', 'isCorrect', k % 4 = 2),
              jsonb_build_object('text', 'Follow the guidance for your role', 'isCorrect', k % 4 in (0, 3)),
              jsonb_build_object('text', 'Leave it for the next shift', 'isCorrect', false)) end,
       case when k % 3 = 0 then '[0]'::jsonb when k % 4 = 1 then '[0]'::jsonb when k % 4 = 2 then '[1]'::jsonb else '[2]'::jsonb end,
       'The guidance for your role sets out the first step.',
       now(), now()
from scale_quiz_modules q
cross join lateral generate_series(1, 4 + (q.qn::int % 3)) as k;

-- Kept for the next phases in the generator's own schema (dropped at the end).
create table scale_gen.course_facts as
select c.id as course_id, c.service, c.status, c.created_at, mc.n as modules, c.j, c.organisation_id
from scale_courses c join scale_module_counts mc on mc.j = c.j;
