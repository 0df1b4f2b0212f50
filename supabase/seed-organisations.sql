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
