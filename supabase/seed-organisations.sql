-- Local demo data for organisations, applied after seed.sql on a new database by
-- `npm start` (platform/db.mjs seedOrganisations, when DEMO_ORGANISATIONS=1, which scripts/start.mjs
-- sets). Not part of config.toml's seed: the database, function and browser tests build on seed.sql
-- alone and count its people, so they meet the same single-organisation world as before; the
-- organisation tests make their own organisations.
-- Organisations: a police force and an ambulance trust, each with a three-level unit
-- tree; an organisation administrator (orgadmin) and a line manager (manager) of the police force
-- with their reports; a paramedic of the trust whom neither sees, and the trust's administrator
-- (trustadmin). All with the password password123.
-- Each signs its people in through its own identity provider too (the local ones `npm start` runs,
-- platform/idp/): the force through OpenID Connect (switched on here), the trust through SAML
-- (registered with Auth and switched on by platform/start.mjs, once Auth is up). Password sign-in
-- stays on for both, so that every demo account above keeps working.
-- admin, instructor and student belong to no organisation: admin is the national administrator.
--   organisations  90000000-0000-4000-a000-0000000000NN (01 police, 02 ambulance)
--   units          91000000-0000-4000-a000-0000000000NN
--   users          00000000-0000-4000-a000-0000000000NN, NN = 04..11
insert into public.organisations (id, name, code, service)
values ('90000000-0000-4000-a000-000000000001', 'Northshire Police', 'NSP', 'UKPS'),
       ('90000000-0000-4000-a000-000000000002', 'Southshire Ambulance Service NHS Trust', 'SSAS', 'UKAS');

insert into public.units (id, organisation_id, parent_id, name)
values ('91000000-0000-4000-a000-000000000001', '90000000-0000-4000-a000-000000000001', null, 'North Area'),
       ('91000000-0000-4000-a000-000000000002', '90000000-0000-4000-a000-000000000001', '91000000-0000-4000-a000-000000000001', 'Central Station'),
       ('91000000-0000-4000-a000-000000000003', '90000000-0000-4000-a000-000000000001', '91000000-0000-4000-a000-000000000002', 'Response Team 1'),
       ('91000000-0000-4000-a000-000000000004', '90000000-0000-4000-a000-000000000001', '91000000-0000-4000-a000-000000000002', 'Response Team 2'),
       ('91000000-0000-4000-a000-000000000005', '90000000-0000-4000-a000-000000000001', '91000000-0000-4000-a000-000000000001', 'Harbour Station'),
       ('91000000-0000-4000-a000-000000000006', '90000000-0000-4000-a000-000000000002', null, 'East Division'),
       ('91000000-0000-4000-a000-000000000007', '90000000-0000-4000-a000-000000000002', '91000000-0000-4000-a000-000000000006', 'Riverside Station'),
       ('91000000-0000-4000-a000-000000000008', '90000000-0000-4000-a000-000000000002', '91000000-0000-4000-a000-000000000007', 'Blue Watch');

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', v.id, 'authenticated', 'authenticated', v.email,
  extensions.crypt('password123', extensions.gen_salt('bf')), now(), '', '', '', '',
  '{"provider":"email","providers":["email"]}', jsonb_build_object('username', v.username, 'name', v.name), now(), now()
from (values
  ('00000000-0000-4000-a000-000000000004'::uuid, 'orgadmin@northshire-police.example.uk', 'orgadmin', 'Priya Shah'),
  ('00000000-0000-4000-a000-000000000005'::uuid, 'manager@northshire-police.example.uk', 'manager', 'Tom Walsh'),
  ('00000000-0000-4000-a000-000000000006'::uuid, 'sergeant@northshire-police.example.uk', 'sergeant', 'Dana Cole'),
  ('00000000-0000-4000-a000-000000000007'::uuid, 'constable1@northshire-police.example.uk', 'constable1', 'Ellis Grant'),
  ('00000000-0000-4000-a000-000000000008'::uuid, 'constable2@northshire-police.example.uk', 'constable2', 'Farah Iqbal'),
  ('00000000-0000-4000-a000-000000000009'::uuid, 'harbour@northshire-police.example.uk', 'harbour', 'Gareth Lloyd'),
  ('00000000-0000-4000-a000-000000000010'::uuid, 'paramedic@southshire-ambulance.example.uk', 'paramedic', 'Hannah Okafor'),
  ('00000000-0000-4000-a000-000000000011'::uuid, 'trustadmin@southshire-ambulance.example.uk', 'trustadmin', 'Kemi Adeyemi')
) v(id, email, username, name);
insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email), 'email', now(), now(), now()
from auth.users u where u.id between '00000000-0000-4000-a000-000000000004' and '00000000-0000-4000-a000-000000000011';

-- orgadmin administers the police force; manager manages the sergeant directly and the two
-- constables through the sergeant; harbour, an instructor of the force (the author of its own
-- courses), is in another station with no manager.
update public.profiles p set role = v.role::public.user_role, services = v.services::public.service_code[],
  organisation_id = v.org::uuid, unit_id = v.unit::uuid
from (values
  ('00000000-0000-4000-a000-000000000004', 'ADMIN', '{UKPS}', '90000000-0000-4000-a000-000000000001', null),
  ('00000000-0000-4000-a000-000000000005', 'STUDENT', '{UKPS}', '90000000-0000-4000-a000-000000000001', '91000000-0000-4000-a000-000000000002'),
  ('00000000-0000-4000-a000-000000000006', 'STUDENT', '{UKPS}', '90000000-0000-4000-a000-000000000001', '91000000-0000-4000-a000-000000000003'),
  ('00000000-0000-4000-a000-000000000007', 'STUDENT', '{UKPS}', '90000000-0000-4000-a000-000000000001', '91000000-0000-4000-a000-000000000003'),
  ('00000000-0000-4000-a000-000000000008', 'STUDENT', '{UKPS}', '90000000-0000-4000-a000-000000000001', '91000000-0000-4000-a000-000000000004'),
  ('00000000-0000-4000-a000-000000000009', 'INSTRUCTOR', '{UKPS}', '90000000-0000-4000-a000-000000000001', '91000000-0000-4000-a000-000000000005'),
  ('00000000-0000-4000-a000-000000000010', 'STUDENT', '{UKAS}', '90000000-0000-4000-a000-000000000002', '91000000-0000-4000-a000-000000000008'),
  ('00000000-0000-4000-a000-000000000011', 'ADMIN', '{UKAS}', '90000000-0000-4000-a000-000000000002', null)
) v(id, role, services, org, unit)
where p.id = v.id::uuid;
update public.profiles set manager_id = '00000000-0000-4000-a000-000000000005' where id = '00000000-0000-4000-a000-000000000006';
update public.profiles set manager_id = '00000000-0000-4000-a000-000000000006'
where id in ('00000000-0000-4000-a000-000000000007', '00000000-0000-4000-a000-000000000008');


-- The site's automatic enrolment (settings.auto_enrollment) enrolled these accounts in the featured
-- courses when they were made: taken back, so that the instructor's figures and lists stay those of
-- seed.sql (the function and browser tests compare them).
delete from public.enrollments
where user_id between '00000000-0000-4000-a000-000000000004' and '00000000-0000-4000-a000-000000000011';

-- Required training for the demo: Northshire Police requires "Conflict Resolution and
-- De-escalation" of Central Station and its response teams within 45 days, a rule made 50 days ago.
-- Its trigger enrols them now; two enrolments are then dated back so that the manager's team shows
-- each state: constable1 overdue (enrolled 50 days ago), the sergeant due soon (enrolled 20 days
-- ago, due in 25), constable2 and the manager in progress (due in 45 days).
insert into public.required_training (id, course_id, organisation_id, unit_id, due_within_days, created_by, created_at)
values ('92000000-0000-4000-a000-000000000001', '10000000-0000-4000-a000-000000000002',
        '90000000-0000-4000-a000-000000000001', '91000000-0000-4000-a000-000000000002', 45,
        '00000000-0000-4000-a000-000000000004', now() - interval '50 days');
update public.enrollments set created_at = now() - interval '50 days'
where user_id = '00000000-0000-4000-a000-000000000007' and course_id = '10000000-0000-4000-a000-000000000002';
update public.enrollments set created_at = now() - interval '20 days'
where user_id = '00000000-0000-4000-a000-000000000006' and course_id = '10000000-0000-4000-a000-000000000002';

-- Sign-in through the organisations' identity providers (supabase/schemas/24_organisation_sign_in.sql).
insert into public.organisation_domains (domain, organisation_id)
values ('northshire-police.example.uk', '90000000-0000-4000-a000-000000000001'),
       ('northshire.police.example', '90000000-0000-4000-a000-000000000001'),
       ('southshire-ambulance.example.uk', '90000000-0000-4000-a000-000000000002');
insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id, attribute_mapping, new_person_services, tested_at)
values ('90000000-0000-4000-a000-000000000001', 'oidc', '6f1c2b7e-3d4a-4e8b-9c21-5a7d0e4f8b13',
        '{"unit": "department", "manager": "manager", "employee_number": "employeeid"}', '{UKPS}', now());
update public.organisation_sign_in set enabled = true where organisation_id = '90000000-0000-4000-a000-000000000001';

-- A practical assessment for the demo: "Breathing Apparatus Entry Control" (course 7, national, fire
-- and rescue) ends with the wearer's annual practical, signed by an assessor and countersigned by a
-- verifier, valid 12 months (supabase/schemas/26_practical_assessments.sql). Westshire Fire and
-- Rescue Service names its watch manager (watchmanager) assessor of the course; its firefighter
-- (firefighter, the watch manager's report) enrols and is assessed by the watch manager and a
-- national fire instructor or the admin as verifier. Nobody is enrolled here, so that course 7's
-- figures stay those of seed.sql.
insert into public.organisations (id, name, code, service)
values ('90000000-0000-4000-a000-000000000003', 'Westshire Fire and Rescue Service', 'WFRS', 'UKFRS');
insert into public.units (id, organisation_id, parent_id, name)
values ('91000000-0000-4000-a000-000000000009', '90000000-0000-4000-a000-000000000003', null, 'Central Fire Station');

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', v.id, 'authenticated', 'authenticated', v.email,
  extensions.crypt('password123', extensions.gen_salt('bf')), now(), '', '', '', '',
  '{"provider":"email","providers":["email"]}', jsonb_build_object('username', v.username, 'name', v.name), now(), now()
from (values
  ('00000000-0000-4000-a000-000000000012'::uuid, 'watchmanager@westshire-fire.example.uk', 'watchmanager', 'Rhys Morgan'),
  ('00000000-0000-4000-a000-000000000013'::uuid, 'firefighter@westshire-fire.example.uk', 'firefighter', 'Siân Evans')
) v(id, email, username, name);
insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email), 'email', now(), now(), now()
from auth.users u where u.id between '00000000-0000-4000-a000-000000000012' and '00000000-0000-4000-a000-000000000013';
update public.profiles set role = 'STUDENT', services = '{UKFRS}', organisation_id = '90000000-0000-4000-a000-000000000003',
  unit_id = '91000000-0000-4000-a000-000000000009'
where id between '00000000-0000-4000-a000-000000000012' and '00000000-0000-4000-a000-000000000013';
update public.profiles set manager_id = '00000000-0000-4000-a000-000000000012' where id = '00000000-0000-4000-a000-000000000013';
delete from public.enrollments
where user_id between '00000000-0000-4000-a000-000000000012' and '00000000-0000-4000-a000-000000000013';

insert into public.course_modules (id, course_id, title, content, order_index, duration, kind)
values ('20000000-0000-4000-a000-000007000004', '10000000-0000-4000-a000-000000000007', 'Breathing apparatus: annual practical',
  'Your annual practical with an assessor on the drill ground: pre-use checks, start-up, entry, communications with entry control, an emergency and the shut-down. Bring your own set and your tally.',
  4, 90, 'assessment');
insert into public.assessment_settings (module_id, needs_verifier, valid_months)
values ('20000000-0000-4000-a000-000007000004', true, 12);
insert into public.assessment_criteria (module_id, order_index, title, guidance, critical)
values
  ('20000000-0000-4000-a000-000007000004', 1, 'Carries out the pre-use checks of the set',
   'Cylinder contents at least 80 %, high-pressure leak test, low-pressure warning whistle sounds, face mask seal checked.', true),
  ('20000000-0000-4000-a000-000007000004', 2, 'Starts up and hands the tally in correctly',
   'Tally completed with name and cylinder pressure and handed to the entry control operative before entry.', true),
  ('20000000-0000-4000-a000-000007000004', 3, 'Works safely with a partner inside the risk area',
   'Stays in contact with the partner, uses a guideline or wall search, and keeps to the search pattern.', false),
  ('20000000-0000-4000-a000-000007000004', 4, 'Communicates with entry control',
   'Regular radio messages using the correct procedure; reports conditions and progress.', false),
  ('20000000-0000-4000-a000-000007000004', 5, 'Responds to a low-pressure warning or emergency',
   'Withdraws at once with the partner, gives a priority message, and knows the distress signal procedure.', true),
  ('20000000-0000-4000-a000-000007000004', 6, 'Shuts down, collects the tally and reports defects',
   'Shuts the set down correctly, collects the tally and records any defect for servicing.', false);
insert into public.course_assessors (course_id, person_id, organisation_id, named_by)
values ('10000000-0000-4000-a000-000000000007', '00000000-0000-4000-a000-000000000012',
        '90000000-0000-4000-a000-000000000003', '00000000-0000-4000-a000-000000000001');

-- Classroom sessions for the demo (supabase/schemas/25_classroom_sessions.sql): "Emergency First Aid
-- at Work: Practical Day", a national course of the instructor's whose second module is a session
-- of four dates, at London wall-clock times counted from the day this runs: the 7th and the 21st of
-- next month, the 7th of the month after, and the Monday after the clocks next change (last Sunday
-- of March or October), so that dates either side of a change show their own times. The first
-- date has two places, both taken by the constables, and shows Full; the student has a place on the
-- second. The instructor runs every date. (npm start only: the instructor's figures gain three
-- enrolments here, which no test counts.)
--   course      10000000-0000-4000-a000-000000000021, modules 20000000-0000-4000-a000-000021000001/2
--   sessions    a1000000-0000-4000-a000-0000000000NN (01..04), bookings a2000000-0000-4000-a000-0000000000NN
insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000021', 'Emergency First Aid at Work: Practical Day',
  'The practical day of emergency first aid at work: primary survey, CPR and the defibrillator, the recovery position, choking and bleeding, practised on manikins with a trainer. Read the preparation, then book a date.',
  'MISC', '00000000-0000-4000-a000-000000000002', 7, 'BEGINNER', false, true, 'ACTIVE', now() - interval '30 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz, kind)
values ('20000000-0000-4000-a000-000021000001', '10000000-0000-4000-a000-000000000021', 'Before the practical day', '# Before the practical day

The day is spent on the floor with manikins: wear clothes you can kneel in, and tell the trainer of
any injury that stops you doing chest compressions.

- **Primary survey**: danger, response, airway, breathing (DRAB), then call 999 or 112.
- **CPR**: 30 compressions to 2 rescue breaths, 100 to 120 compressions a minute, 5 to 6 cm deep.
- **Defibrillator**: switch it on and follow its voice prompts.', 1, 20, false, 'content'),
  ('20000000-0000-4000-a000-000021000002', '10000000-0000-4000-a000-000000000021', 'Practical session', '', 2, 360, false, 'session');

insert into public.classroom_sessions (id, module_id, course_id, starts_at, ends_at, venue_name, venue_address,
  capacity, booking_closes_at, note, created_by, created_at)
select v.id, '20000000-0000-4000-a000-000021000002', '10000000-0000-4000-a000-000000000021',
  (v.day + time '09:30') at time zone 'Europe/London', (v.day + time '16:30') at time zone 'Europe/London',
  v.venue, v.address, v.capacity, ((v.day - 2) + time '17:00') at time zone 'Europe/London',
  'Bring photo ID. Lunch is provided; tell the trainer of any dietary needs.', '00000000-0000-4000-a000-000000000002', now() - interval '30 days'
from (
  select (date_trunc('month', now() at time zone 'Europe/London') + interval '1 month')::date as next_month,
         (select min(d) from (
            select (make_date(y, m, 1) + interval '1 month - 1 day')::date
                   - extract(dow from make_date(y, m, 1) + interval '1 month - 1 day')::int as d
            from generate_series(extract(year from now() at time zone 'Europe/London')::int,
                                 extract(year from now() at time zone 'Europe/London')::int + 1) y,
                 unnest(array[3, 10]) m
          ) changes where d > (now() at time zone 'Europe/London')::date + 7) as clocks_change
) t
cross join lateral (values
  ('a1000000-0000-4000-a000-000000000001'::uuid, t.next_month + 6, 'Northshire Training Centre', 'Unit 4, Riverside Business Park, Northshire NS1 4TR', 2),
  ('a1000000-0000-4000-a000-000000000002'::uuid, t.next_month + 20, 'Northshire Training Centre', 'Unit 4, Riverside Business Park, Northshire NS1 4TR', 12),
  ('a1000000-0000-4000-a000-000000000003'::uuid, (t.next_month + interval '1 month')::date + 6, 'Harbour Station', 'Quay Road, Northshire NS4 2HB', 12),
  ('a1000000-0000-4000-a000-000000000004'::uuid, t.clocks_change + 1, 'Northshire Training Centre', 'Unit 4, Riverside Business Park, Northshire NS1 4TR', 12)
) v(id, day, venue, address, capacity);
insert into public.session_trainers (session_id, trainer_id)
select s.id, '00000000-0000-4000-a000-000000000002' from public.classroom_sessions s
where s.module_id = '20000000-0000-4000-a000-000021000002';

insert into public.enrollments (user_id, course_id, status, started_at)
values ('00000000-0000-4000-a000-000000000003', '10000000-0000-4000-a000-000000000021', 'ACTIVE', now() - interval '6 days'),
       ('00000000-0000-4000-a000-000000000007', '10000000-0000-4000-a000-000000000021', 'ACTIVE', now() - interval '12 days'),
       ('00000000-0000-4000-a000-000000000008', '10000000-0000-4000-a000-000000000021', 'ACTIVE', now() - interval '11 days');
-- Booked as private.book_session books a free place; the trigger counts the places taken.
insert into public.session_bookings (id, session_id, user_id, status, created_at)
values ('a2000000-0000-4000-a000-000000000001', 'a1000000-0000-4000-a000-000000000001', '00000000-0000-4000-a000-000000000007', 'booked', now() - interval '12 days'),
       ('a2000000-0000-4000-a000-000000000002', 'a1000000-0000-4000-a000-000000000001', '00000000-0000-4000-a000-000000000008', 'booked', now() - interval '11 days'),
       ('a2000000-0000-4000-a000-000000000003', 'a1000000-0000-4000-a000-000000000002', '00000000-0000-4000-a000-000000000003', 'booked', now() - interval '6 days');

-- Recognition when people move (supabase/schemas/29_recognition.sql): Eastshire Ambulance Service,
-- Southshire's neighbour, requires its own blue-light driving course of its people and accepts
-- Southshire's as equivalent: it trusts Southshire's issuer (its profile URL on the local platform
-- that `npm start` runs; the certificates earned here count by the course, whatever the port) and
-- counts the achievement of Southshire's course. A Southshire paramedic who completes Southshire's
-- course and moves to Eastshire shows "recognised" there. eastadmin administers Eastshire.
--   organisation 90000000-0000-4000-a000-000000000010, user 00000000-0000-4000-a000-000000000030
--   courses      10000000-0000-4000-a000-000000000030 (Southshire's), ...031 (Eastshire's)
insert into public.organisations (id, name, code, service)
values ('90000000-0000-4000-a000-000000000010', 'Eastshire Ambulance Service NHS Trust', 'ESAS', 'UKAS');
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('00000000-0000-0000-0000-000000000000', '00000000-0000-4000-a000-000000000030', 'authenticated', 'authenticated',
  'eastadmin@eastshire-ambulance.example.uk', extensions.crypt('password123', extensions.gen_salt('bf')), now(), '', '', '', '',
  '{"provider":"email","providers":["email"]}', '{"username":"eastadmin","name":"Nia Roberts"}', now(), now());
insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email), 'email', now(), now(), now()
from auth.users u where u.id = '00000000-0000-4000-a000-000000000030';
update public.profiles set role = 'ADMIN', services = '{UKAS}', organisation_id = '90000000-0000-4000-a000-000000000010'
where id = '00000000-0000-4000-a000-000000000030';
delete from public.enrollments where user_id = '00000000-0000-4000-a000-000000000030';

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status,
  organisation_id, certificate_valid_months, created_at)
values ('10000000-0000-4000-a000-000000000030', 'Emergency Driving: Blue Light Response',
  'Southshire''s emergency driving course: the law on exemptions, hazard perception at speed, and the system of car control on a blue-light response.',
  'UKAS', '00000000-0000-4000-a000-000000000011', 30, 'INTERMEDIATE', false, false, 'ACTIVE',
  '90000000-0000-4000-a000-000000000002', 36, now() - interval '30 days'),
  ('10000000-0000-4000-a000-000000000031', 'Blue Light Driving Standards',
  'Eastshire''s standard for driving under blue lights: exemptions, risk on approach to junctions, and when to stand down.',
  'UKAS', '00000000-0000-4000-a000-000000000030', 30, 'INTERMEDIATE', false, false, 'ACTIVE',
  '90000000-0000-4000-a000-000000000010', 36, now() - interval '30 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz, kind)
values ('20000000-0000-4000-a000-000030000001', '10000000-0000-4000-a000-000000000030', 'Exemptions and the system of car control',
  '# Exemptions and the system of car control

- **Exemptions**: what an emergency vehicle may do, and what it may never do.
- **The system**: information, position, speed, gear, acceleration.', 1, 30, false, 'content'),
  ('20000000-0000-4000-a000-000031000001', '10000000-0000-4000-a000-000000000031', 'Driving under blue lights',
  '# Driving under blue lights

- **Junctions**: the risk on approach, and how to make your intention clear.
- **Standing down**: when to switch off and drive as normal.', 1, 30, false, 'content');
insert into public.required_training (id, course_id, organisation_id, due_within_days, created_by)
values ('92000000-0000-4000-a000-000000000010', '10000000-0000-4000-a000-000000000031',
        '90000000-0000-4000-a000-000000000010', 90, '00000000-0000-4000-a000-000000000030');
insert into public.trusted_issuers (organisation_id, issuer_id, name, platform_issuer, created_by)
values ('90000000-0000-4000-a000-000000000010',
        'http://127.0.0.1:54321/functions/v1/api/issuers/90000000-0000-4000-a000-000000000002',
        'Southshire Ambulance Service NHS Trust', '90000000-0000-4000-a000-000000000002', '00000000-0000-4000-a000-000000000030');
insert into public.recognition_equivalences (organisation_id, course_id, issuer_id, achievement_id, achievement_name,
  platform_course_id, created_by)
values ('90000000-0000-4000-a000-000000000010', '10000000-0000-4000-a000-000000000031',
        'http://127.0.0.1:54321/functions/v1/api/issuers/90000000-0000-4000-a000-000000000002',
        'http://127.0.0.1:54321/functions/v1/api/courses/10000000-0000-4000-a000-000000000030/achievement',
        'Emergency Driving: Blue Light Response', '10000000-0000-4000-a000-000000000030', '00000000-0000-4000-a000-000000000030');
