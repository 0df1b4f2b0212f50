-- Local demo data (never run on hosted Supabase): three accounts with the password password123,
-- a catalogue across all six services, and a learner at 0 %, part way and complete. Fixed ids so
-- that tests and demos can refer to them:
--   users       admin 00000000-0000-4000-a000-000000000001 (ADMIN, all services),
--               instructor ...0002 (INSTRUCTOR, UKPS+MISC), student ...0003 (STUDENT, MISC)
--   courses     10000000-0000-4000-a000-0000000000NN, NN = 01..17 (15, 16 DRAFT; 17 ARCHIVED;
--               14 ACTIVE without modules)
--   modules     20000000-0000-4000-a000-<course:6><module:6>
--   quizzes     30000000-0000-4000-a000-<course:6><module:6>
--   questions   40000000-0000-4000-a000-<course:4><module:4><question:4>
--   enrolments  50000000-0000-4000-a000-0000000000NN, attempts 70000000-..., certificate 60000000-...01


-- Accounts, as Supabase Auth stores them; the profile trigger creates the profiles.
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('00000000-0000-0000-0000-000000000000', '00000000-0000-4000-a000-000000000001', 'authenticated', 'authenticated', 'admin@example.uk',
  extensions.crypt('password123', extensions.gen_salt('bf')), now(), '', '', '', '',
  '{"provider":"email","providers":["email"]}', '{"username": "admin", "name": "Alex Morgan"}', now(), now());
insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
values ('00000000-0000-4000-a000-000000000001', '00000000-0000-4000-a000-000000000001', '{"sub": "00000000-0000-4000-a000-000000000001", "email": "admin@example.uk"}', 'email', now(), now(), now());

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('00000000-0000-0000-0000-000000000000', '00000000-0000-4000-a000-000000000002', 'authenticated', 'authenticated', 'instructor@example.uk',
  extensions.crypt('password123', extensions.gen_salt('bf')), now(), '', '', '', '',
  '{"provider":"email","providers":["email"]}', '{"username": "instructor", "name": "Jordan Hughes"}', now(), now());
insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
values ('00000000-0000-4000-a000-000000000002', '00000000-0000-4000-a000-000000000002', '{"sub": "00000000-0000-4000-a000-000000000002", "email": "instructor@example.uk"}', 'email', now(), now(), now());

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('00000000-0000-0000-0000-000000000000', '00000000-0000-4000-a000-000000000003', 'authenticated', 'authenticated', 'student@example.uk',
  extensions.crypt('password123', extensions.gen_salt('bf')), now(), '', '', '', '',
  '{"provider":"email","providers":["email"]}', '{"username": "student", "name": "Sam Patel"}', now(), now());
insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
values ('00000000-0000-4000-a000-000000000003', '00000000-0000-4000-a000-000000000003', '{"sub": "00000000-0000-4000-a000-000000000003", "email": "student@example.uk"}', 'email', now(), now(), now());

update public.profiles set role = 'ADMIN', services = '{UKPS,UKAS,UKFRS,UKHW,AUX,MISC}' where id = '00000000-0000-4000-a000-000000000001';
update public.profiles set role = 'INSTRUCTOR', services = '{UKPS,MISC}' where id = '00000000-0000-4000-a000-000000000002';
update public.profiles set role = 'STUDENT', services = '{MISC}' where id = '00000000-0000-4000-a000-000000000003';

insert into public.settings (id, site_name, admin_email, course_access, certificate_template, footer_text,
  enable_analytics, auto_enrollment)
values (true, 'Emergency Services Learning v3', 'admin@emergency-services-learning.uk', 'public-login', 'standard',
  '© 2026 Emergency Services Learning. All rights reserved.', true, false)
on conflict (id) do update set site_name = excluded.site_name, admin_email = excluded.admin_email,
  course_access = excluded.course_access, certificate_template = excluded.certificate_template,
  footer_text = excluded.footer_text, enable_analytics = excluded.enable_analytics,
  auto_enrollment = excluded.auto_enrollment;

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000001', 'JESIP Joint Doctrine: Working Together at Major Incidents', 'The Joint Emergency Services Interoperability Principles for police, fire and ambulance commanders: the five principles, the Joint Decision Model, METHANE and shared situational awareness.', 'UKPS', '00000000-0000-4000-a000-000000000002', 4, 'INTERMEDIATE', true, true, 'ACTIVE', now() - interval '59 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000001000001', '10000000-0000-4000-a000-000000000001', 'Why JESIP exists', '# Why JESIP exists

Public inquiries into incidents such as the 7/7 London bombings, the Cumbria shootings and the Hillsborough disaster found the same failings again and again: agencies arrived, set up their own command, and did not share what they knew. The **Joint Emergency Services Interoperability Programme (JESIP)** was created in 2012 to fix that.

JESIP is not a new command structure. It is a way of working that lets the police, fire and rescue and ambulance services (and increasingly the wider responder community under the Civil Contingencies Act 2004) make decisions *together*.

## What the doctrine covers

- The five **principles for joint working**
- The **Joint Decision Model (JDM)**
- **M/ETHANE**, the common model for passing incident information
- Shared terminology, so that words mean the same thing to everyone

By the end of this course you should be able to apply each of these at the scene and in a control room.', 1, 30, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000001000002', '10000000-0000-4000-a000-000000000001', 'The five principles for joint working', '# The five principles for joint working

The doctrine is built on five principles. Commanders are expected to apply them from the moment the first resources arrive.

1. **Co-locate** – commanders meet at a single, safe, known location as soon as practicable. Face-to-face contact builds trust faster than any radio channel.
2. **Communicate** – use plain English, avoid service-specific jargon and acronyms, and check that messages have been understood.
3. **Co-ordinate** – agree the lead service, priorities, resources and timescales, and avoid duplicating effort.
4. **Jointly understand risk** – share what each service knows about threats and hazards so that control measures can be agreed together.
5. **Shared situational awareness** – a common understanding of what has happened, what is happening now and what might happen next.

## Putting them into practice

Co-location is usually the hardest principle at a dynamic scene. Agree a Forward Command Post early and tell every control room where it is. Record joint decisions, with the rationale, in a decision log.', 2, 40, true);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000001000003', '10000000-0000-4000-a000-000000000001', 'The Joint Decision Model', '# The Joint Decision Model

The **Joint Decision Model (JDM)** gives commanders from different services a common structure for making decisions when information is incomplete and time is short.

At its centre are the **working together, saving lives, reducing harm** aims. Around them sit five stages:

- **Gather information and intelligence**
- **Assess risks and develop a working strategy**
- **Consider powers, policies and procedures**
- **Identify options and contingencies**
- **Take action and review what happened**

The model is a cycle: as soon as action is taken, new information arrives and the cycle starts again.

## Using the JDM well

Say out loud which stage you are in during a joint meeting. It keeps the discussion focused and helps a commander arriving late to catch up. Decisions, and the reasons for them, should be logged so that they can be explained later at a debrief or inquiry.', 3, 40, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000001000004', '10000000-0000-4000-a000-000000000001', 'M/ETHANE: sharing incident information', '# M/ETHANE

**M/ETHANE** is the agreed structure for passing information about an incident between services and control rooms.

| Letter | Meaning |
|---|---|
| M | Major incident declared or standby |
| E | Exact location |
| T | Type of incident |
| H | Hazards, present and potential |
| A | Access and egress routes |
| N | Number, type and severity of casualties |
| E | Emergency services present and required |

If a major incident has not been declared, the message starts at **ETHANE**. The first resources on scene should send a M/ETHANE message as soon as possible, and update it as the picture changes.

## Tips

- Give grid references or what3words alongside the street address.
- Be explicit about hazards that other services might not expect, such as a gas leak or an unstable structure.', 4, 30, false);
insert into public.quizzes (id, module_id, title, description, passing_score, time_limit, randomize_questions)
values ('30000000-0000-4000-a000-000001000002', '20000000-0000-4000-a000-000001000002', 'JESIP principles check', 'Check your understanding of this module.', 70, 10, false);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000100020001', '30000000-0000-4000-a000-000001000002', 'Which of these is one of the five JESIP principles for joint working?', 'MULTIPLE_CHOICE', 1, 1, '[{"text": "Co-locate", "isCorrect": true}, {"text": "Delegate", "isCorrect": false}, {"text": "Escalate", "isCorrect": false}, {"text": "Isolate", "isCorrect": false}]', '[0]', 'Co-locate, communicate, co-ordinate, jointly understand risk and shared situational awareness.');
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000100020002', '30000000-0000-4000-a000-000001000002', 'JESIP principles apply only to declared major incidents.', 'TRUE_FALSE', 2, 1, '[{"text": "True", "isCorrect": false}, {"text": "False", "isCorrect": true}]', '[1]', 'They apply to any incident where services work together.');
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000100020003', '30000000-0000-4000-a000-000001000002', 'What should commanders record alongside each joint decision?', 'MULTIPLE_CHOICE', 3, 1, '[{"text": "The rationale", "isCorrect": true}, {"text": "Their collar number only", "isCorrect": false}, {"text": "The weather", "isCorrect": false}, {"text": "Nothing: decisions are verbal", "isCorrect": false}]', '[0]', 'A decision log records the decision and the reason for it.');

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000002', 'Conflict Resolution and De-escalation', 'Practical skills for recognising escalating behaviour, using the National Decision Model and communicating to calm confrontations safely.', 'UKPS', '00000000-0000-4000-a000-000000000002', 3, 'BEGINNER', false, true, 'ACTIVE', now() - interval '58 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000002000001', '10000000-0000-4000-a000-000000000002', 'Understanding conflict', '# Understanding conflict

Most confrontations that officers and staff face do not begin as violence. They grow out of fear, frustration, pain, intoxication or a sense of being treated unfairly. Recognising the early signs gives you the best chance of resolving the situation without force.

## Common triggers

- Long waits and poor information
- Perceived disrespect or unfairness
- Alcohol, drugs or a mental health crisis
- Pain, shock or grief

## Warning signs

Watch for changes in **posture**, **voice** and **proximity**: clenched fists, pacing, shouting, invading personal space, or a sudden silence. Any one sign on its own may be innocent; a cluster of them is a warning.', 1, 25, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000002000002', '10000000-0000-4000-a000-000000000002', 'Communication that calms', '# Communication that calms

Your words, tone and body language can lower tension or raise it.

## Do

- Introduce yourself and explain what you are doing and why.
- Use the person''s name, keep your voice calm and lower than theirs.
- Listen actively: summarise what you have heard so they feel understood.
- Offer genuine choices where you can.

## Avoid

- Arguing about facts while emotions are high
- Threats you cannot or should not carry out
- Standing square-on and too close; keep a reactionary gap of at least two arm''s lengths

Remember the **LEAPS** approach: Listen, Empathise, Ask, Paraphrase, Summarise.', 2, 30, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000002000003', '10000000-0000-4000-a000-000000000002', 'The National Decision Model in conflict', '# The National Decision Model in conflict

The **National Decision Model (NDM)** used by UK police puts the **Code of Ethics** at its centre and asks you to work through:

1. Gather information and intelligence
2. Assess threat and risk and develop a working strategy
3. Consider powers and policy
4. Identify options and contingencies
5. Take action and review

In a conflict situation the cycle may run in seconds. Any use of force must be **necessary, proportionate and lawful**, and you must be able to explain your decision afterwards.

## After the incident

Record what happened, including the de-escalation you attempted. Check on colleagues: exposure to aggression has a cumulative effect, and welfare support is available through your occupational health team.', 3, 30, true);
insert into public.quizzes (id, module_id, title, description, passing_score, time_limit, randomize_questions)
values ('30000000-0000-4000-a000-000002000003', '20000000-0000-4000-a000-000002000003', 'De-escalation check', 'Check your understanding of this module.', 70, 10, false);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000200030001', '30000000-0000-4000-a000-000002000003', 'Under the National Decision Model, what sits at the centre?', 'MULTIPLE_CHOICE', 1, 1, '[{"text": "The Code of Ethics", "isCorrect": true}, {"text": "The custody record", "isCorrect": false}, {"text": "The use of force form", "isCorrect": false}, {"text": "The duty inspector", "isCorrect": false}]', '[0]', null);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000200030002', '30000000-0000-4000-a000-000002000003', 'Any use of force must be necessary, proportionate and lawful.', 'TRUE_FALSE', 2, 1, '[{"text": "True", "isCorrect": true}, {"text": "False", "isCorrect": false}]', '[0]', null);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000200030003', '30000000-0000-4000-a000-000002000003', 'Which is good de-escalation practice?', 'MULTIPLE_CHOICE', 3, 1, '[{"text": "Raising your voice above theirs", "isCorrect": false}, {"text": "Arguing the facts", "isCorrect": false}, {"text": "Listening and paraphrasing", "isCorrect": true}, {"text": "Standing square-on and close", "isCorrect": false}]', '[2]', 'Active listening shows the person they are heard.');

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000003', 'Airwave Radio Voice Procedure', 'Clear, concise radio communication on the Airwave network: call signs, the phonetic alphabet, prowords and priority messages.', 'UKPS', '00000000-0000-4000-a000-000000000002', 2, 'BEGINNER', false, true, 'ACTIVE', now() - interval '57 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000003000001', '10000000-0000-4000-a000-000000000003', 'Radio discipline and the Airwave network', '# Radio discipline and the Airwave network

**Airwave** is the secure TETRA digital radio network used by the UK emergency services. Talkgroups are shared by many users, so every transmission takes airtime from someone who may have an urgent message.

## Before you press the button

- **Think** about what you need to say.
- **Listen** to make sure the channel is free.
- **Press** the pressel and wait a moment before speaking.
- **Speak** clearly, at a steady pace, with the radio a few centimetres from your mouth.

Keep messages short. If a message is long, break it into parts and let the receiver acknowledge each one.', 1, 20, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000003000002', '10000000-0000-4000-a000-000000000003', 'The phonetic alphabet and numbers', '# The phonetic alphabet and numbers

Letters are easily misheard over radio, so the **NATO phonetic alphabet** is used: Alpha, Bravo, Charlie, Delta, Echo, Foxtrot, Golf, Hotel, India, Juliet, Kilo, Lima, Mike, November, Oscar, Papa, Quebec, Romeo, Sierra, Tango, Uniform, Victor, Whiskey, X-ray, Yankee, Zulu.

## Vehicle registrations

Read a registration letter by letter and digit by digit: *AB12 CDE* becomes "Alpha Bravo One Two Charlie Delta Echo".

## Numbers

Say each digit separately ("one five zero", not "one hundred and fifty"), and say **"niner"** for nine when the line is poor.', 2, 20, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000003000003', '10000000-0000-4000-a000-000000000003', 'Prowords and priority messages', '# Prowords and priority messages

**Prowords** are short words with an agreed meaning that save airtime:

- **Over** – I have finished, I expect a reply.
- **Out** – I have finished, no reply expected. Never "over and out".
- **Received** – I have heard and understood your message.
- **Say again** – repeat your last message.
- **Wait** – I need a moment; do not transmit.

## Urgent assistance

The **emergency button** gives you priority on the talkgroup and opens your microphone. Use it only when life is at risk. Your control room will clear the channel; give your location first, then what you need.', 3, 25, true);
insert into public.quizzes (id, module_id, title, description, passing_score, time_limit, randomize_questions)
values ('30000000-0000-4000-a000-000003000003', '20000000-0000-4000-a000-000003000003', 'Voice procedure check', 'Check your understanding of this module.', 70, 10, false);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000300030001', '30000000-0000-4000-a000-000003000003', 'Which proword means you have finished and expect no reply?', 'MULTIPLE_CHOICE', 1, 1, '[{"text": "Over", "isCorrect": false}, {"text": "Out", "isCorrect": true}, {"text": "Wait", "isCorrect": false}, {"text": "Received", "isCorrect": false}]', '[1]', '"Over and out" is a contradiction and is never used.');
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000300030002', '30000000-0000-4000-a000-000003000003', 'How is the letter J given in the phonetic alphabet?', 'MULTIPLE_CHOICE', 2, 1, '[{"text": "Jack", "isCorrect": false}, {"text": "Jupiter", "isCorrect": false}, {"text": "Juliet", "isCorrect": true}, {"text": "Jigsaw", "isCorrect": false}]', '[2]', null);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000300030003', '30000000-0000-4000-a000-000003000003', 'The emergency button should be used whenever the channel is busy.', 'TRUE_FALSE', 3, 1, '[{"text": "True", "isCorrect": false}, {"text": "False", "isCorrect": true}]', '[1]', 'It is for situations where life is at risk.');

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000004', 'Major Incident Triage: Sieve and Sort', 'Prioritising casualties at a mass casualty incident using the NHS Ten Second Triage, the triage sieve and the triage sort, with casualty clearing and labelling.', 'UKAS', '00000000-0000-4000-a000-000000000001', 4, 'ADVANCED', true, true, 'ACTIVE', now() - interval '56 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000004000001', '10000000-0000-4000-a000-000000000004', 'Principles of major incident triage', '# Principles of major incident triage

At a mass casualty incident the number of patients exceeds the resources available. The aim shifts from doing the best for each individual to doing **the most good for the most people**.

Triage is **dynamic**: a casualty''s priority changes as their condition changes, so triage is repeated at every stage – at the scene, at the casualty clearing station and at hospital.

## Priorities

- **P1 – Immediate**: life-threatening, needs intervention now
- **P2 – Urgent**: needs treatment within a few hours
- **P3 – Delayed**: walking wounded
- **Dead**: confirmed deceased, recorded but not moved unnecessarily

Priorities are shown with triage cards or labels so that anyone arriving later can see them at a glance.', 1, 30, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000004000002', '10000000-0000-4000-a000-000000000004', 'The triage sieve', '# The triage sieve

The **triage sieve** is a rapid first look, taking less than thirty seconds per casualty.

1. **Catastrophic haemorrhage?** Control it (tourniquet or packing): P1.
2. **Walking?** Direct to a safe point: P3.
3. **Breathing?** If not, open the airway once. Still not breathing: dead. Breathing now: P1.
4. **Respiratory rate** under 10 or 30 and above: P1.
5. **Pulse** over 120 or capillary refill over two seconds: P1.
6. Otherwise: P2.

The **NHS Ten Second Triage (TST)** is used by all responders, including police and fire, before clinicians arrive. It follows the same logic in a simplified form.', 2, 40, true);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000004000003', '10000000-0000-4000-a000-000000000004', 'The triage sort', '# The triage sort

At the **casualty clearing station** clinicians re-triage with the **triage sort**, based on physiological scores:

- Respiratory rate
- Systolic blood pressure
- Glasgow Coma Scale

Each is scored and the total gives the priority. The sort takes longer than the sieve but is more accurate, and it helps decide the order of evacuation to receiving hospitals.

## Record keeping

Every casualty should have a unique identifier on their label. Record the time and priority at each triage so that deterioration can be spotted.', 3, 35, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000004000004', '10000000-0000-4000-a000-000000000004', 'Casualty clearing and evacuation', '# Casualty clearing and evacuation

The **casualty clearing station (CCS)** is set up in a safe area with good access for ambulances. The **Ambulance Incident Commander** and the **Medical Incident Adviser** manage the flow of patients.

## Key points

- One way in, one way out for vehicles
- Separate areas for P1, P2 and P3
- A loading point with a loading officer
- Hospitals informed through the Emergency Operations Centre before patients arrive

Spread casualties across receiving hospitals so that no single emergency department is overwhelmed.', 4, 30, false);
insert into public.quizzes (id, module_id, title, description, passing_score, time_limit, randomize_questions)
values ('30000000-0000-4000-a000-000004000002', '20000000-0000-4000-a000-000004000002', 'Triage sieve check', 'Check your understanding of this module.', 75, 10, false);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000400020001', '30000000-0000-4000-a000-000004000002', 'A casualty is walking. What priority does the sieve give?', 'MULTIPLE_CHOICE', 1, 1, '[{"text": "P1", "isCorrect": false}, {"text": "P2", "isCorrect": false}, {"text": "P3", "isCorrect": true}, {"text": "Dead", "isCorrect": false}]', '[2]', null);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000400020002', '30000000-0000-4000-a000-000004000002', 'A casualty with catastrophic haemorrhage is P1 after the bleeding is controlled.', 'TRUE_FALSE', 2, 1, '[{"text": "True", "isCorrect": true}, {"text": "False", "isCorrect": false}]', '[0]', null);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000400020003', '30000000-0000-4000-a000-000004000002', 'Which respiratory rate makes a casualty P1 in the sieve?', 'MULTIPLE_CHOICE', 3, 1, '[{"text": "16 a minute", "isCorrect": false}, {"text": "22 a minute", "isCorrect": false}, {"text": "34 a minute", "isCorrect": true}, {"text": "12 a minute", "isCorrect": false}]', '[2]', 'Under 10 or 30 and above is P1.');
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000400020004', '30000000-0000-4000-a000-000004000002', 'Triage is done once, at the scene.', 'TRUE_FALSE', 4, 1, '[{"text": "True", "isCorrect": false}, {"text": "False", "isCorrect": true}]', '[1]', 'Triage is dynamic and repeated.');

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000005', 'Manual Handling for Ambulance Crews', 'Safe moving and handling of patients and equipment under the Manual Handling Operations Regulations 1992, using TILE risk assessment and modern handling aids.', 'UKAS', '00000000-0000-4000-a000-000000000001', 2, 'BEGINNER', false, true, 'ACTIVE', now() - interval '55 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000005000001', '10000000-0000-4000-a000-000000000005', 'The law and your back', '# The law and your back

Musculoskeletal injuries are one of the biggest causes of sickness absence in the ambulance service. The **Manual Handling Operations Regulations 1992** require employers to:

- **Avoid** hazardous manual handling so far as is reasonably practicable
- **Assess** any that cannot be avoided
- **Reduce** the risk of injury

You have duties too: follow safe systems of work, use the equipment provided and report problems.', 1, 20, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000005000002', '10000000-0000-4000-a000-000000000005', 'TILE: assessing the risk', '# TILE: assessing the risk

Before any lift, think **TILE**:

- **Task** – does it involve twisting, stooping, reaching or carrying a long way?
- **Individual** – are you and your crewmate capable? Any injuries?
- **Load** – how heavy, unstable or unpredictable is it? A patient is a load that can move.
- **Environment** – stairs, narrow hallways, poor lighting, wet ground

A few seconds of dynamic assessment can prevent a career-ending injury.', 2, 25, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000005000003', '10000000-0000-4000-a000-000000000005', 'Using handling aids', '# Using handling aids

Modern ambulances carry aids that remove most lifting:

- **Carry chairs** with tracks for stairs
- **Lifting cushions** for patients who have fallen
- **Slide sheets** for lateral transfers
- **Powered stretchers and loading systems**

Check equipment before each shift, follow the manufacturer''s instructions and never improvise a lift when an aid is available. If the risk is too high, call for further resources – the fire and rescue service can assist with bariatric or complex extractions.', 3, 25, false);

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000006', 'Road Traffic Collision Extrication', 'Safe, patient-centred extrication at road traffic collisions: scene safety, stabilisation, glass management, space creation and working with ambulance clinicians.', 'UKFRS', '00000000-0000-4000-a000-000000000001', 6, 'ADVANCED', false, true, 'ACTIVE', now() - interval '54 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000006000001', '10000000-0000-4000-a000-000000000006', 'Scene assessment and safety', '# Scene assessment and safety

A road traffic collision (RTC) is a dangerous workplace. Before approaching any vehicle, the incident commander carries out a **360-degree survey**.

## Look for

- Traffic hazards and the need for a protected work area
- Fuel leaks, fire and electric or hybrid vehicle markings
- Undeployed airbags and other supplemental restraint systems
- Number and position of casualties

Set up **inner and outer cordons** and a tool staging area. Everyone inside the inner cordon wears full PPE, including eye protection.', 1, 30, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000006000002', '10000000-0000-4000-a000-000000000006', 'Vehicle stabilisation', '# Vehicle stabilisation

Stabilisation stops the vehicle moving while crews work, protecting the casualty from further spinal movement.

- **Chock** the wheels and apply step blocks under the sills
- Use **struts** for vehicles on their side or roof
- Release tyre pressure only when stable contact points exist
- Isolate the battery when it is safe and accessible; note that hybrid and electric vehicles need their own procedure

Check stabilisation again after every major cut.', 2, 30, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000006000003', '10000000-0000-4000-a000-000000000006', 'Glass management', '# Glass management

Glass is a major source of injury to casualties and crews.

- **Laminated** glass (windscreens) is cut with a glass saw.
- **Toughened** glass (side and rear windows) is broken with a spring-loaded centre punch after taping, with a soft protection over the casualty.

Always tell the casualty before breaking glass, and have a crew member inside the vehicle with them where possible.', 3, 25, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000006000004', '10000000-0000-4000-a000-000000000006', 'Creating space', '# Creating space

The aim is to create space around the casualty rather than move them to fit the space available.

## Common techniques

1. **Roof removal** – full or flapped, giving the best access for clinicians
2. **Door removal** – hinge or latch side first
3. **B-post rip** – opens the whole side of the vehicle
4. **Dash roll or dash lift** – frees trapped legs

The plan should include a **Plan A** (controlled release) and a **Plan B** (immediate release if the casualty deteriorates).', 4, 40, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000006000005', '10000000-0000-4000-a000-000000000006', 'Working with clinicians', '# Working with clinicians

Extrication is **casualty-led**. The ambulance clinician decides how quickly the casualty must be released; fire crews decide how the space is made.

Agree the extrication plan jointly, in line with JESIP principles. Keep the **golden hour** in mind: prolonged entrapment worsens outcomes, and self-extrication may be appropriate for casualties who are able to move.', 5, 25, false);

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000007', 'Breathing Apparatus Entry Control', 'Entry control procedures for firefighters wearing breathing apparatus: entry control boards, time of whistle, communications and emergency procedures.', 'UKFRS', '00000000-0000-4000-a000-000000000001', 3, 'INTERMEDIATE', false, true, 'ACTIVE', now() - interval '53 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000007000001', '10000000-0000-4000-a000-000000000007', 'Roles at entry control', '# Roles at entry control

Every breathing apparatus (BA) wearer who enters a hazardous area is logged by an **Entry Control Operative (ECO)** at an **Entry Control Point (ECP)**.

The ECO records:

- Each wearer''s name and tally
- Cylinder pressure at entry
- Time of entry and calculated **time of whistle**
- The task and the team''s location

The ECO never leaves the board unattended.', 1, 25, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000007000002', '10000000-0000-4000-a000-000000000007', 'Calculating time of whistle', '# Calculating time of whistle

The **time of whistle** is when the low-pressure warning will sound. The ECO calculates it from the cylinder pressure at entry using the duration chart on the board.

Teams should plan to be **back at the ECP before whistle time**. If a team has not reported by then, the ECO informs the entry control supervisor immediately.

## Communication

Teams report at agreed intervals and whenever their situation changes: progress, conditions, and air remaining.', 2, 25, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000007000003', '10000000-0000-4000-a000-000000000007', 'Emergency procedures', '# Emergency procedures

If a wearer is in distress, they activate their **distress signal unit**. The ECO informs the incident commander and deploys the **emergency team**, who must be rigged and ready at every ECP.

A **BA emergency** is declared by radio with the priority message "BA emergency", giving the team, their last known location and time of whistle. All other traffic stops until the emergency is resolved.', 3, 30, false);

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000008', 'Roadside Safety on Smart Motorways', 'Working safely on all lane running and dynamic hard shoulder motorways: emergency areas, red X signals, stopped vehicle detection and protecting the scene.', 'UKHW', '00000000-0000-4000-a000-000000000001', 2, 'BEGINNER', true, true, 'ACTIVE', now() - interval '52 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000008000001', '10000000-0000-4000-a000-000000000008', 'How smart motorways work', '# How smart motorways work

**Smart motorways** use technology to manage traffic. On **all lane running** stretches the hard shoulder is a permanent running lane; on **dynamic hard shoulder** stretches it opens only at busy times.

## Key features

- **Emergency areas** roughly every mile (a maximum of 1.5 miles apart on newer schemes), marked with blue signs and an SOS telephone
- Overhead **variable message signs** and speed limits
- **Stopped vehicle detection** radar on all lane running sections
- Regional operations centres that can close lanes remotely', 1, 25, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000008000002', '10000000-0000-4000-a000-000000000008', 'Red X signals and lane closures', '# Red X signals and lane closures

A **red X** above a lane means the lane is closed. Driving in a lane closed by a red X is an offence and endangers anyone working ahead.

When attending a breakdown or collision:

1. Ask the regional operations centre to set **red X** signals upstream.
2. Wait for confirmation that the signals are set.
3. Position your vehicle in **fend-off** to protect the scene.
4. Use rear-facing lighting and, where trained, deploy cones.

Never assume that drivers will obey the signals: keep a lookout at all times.', 2, 25, true);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000008000003', '10000000-0000-4000-a000-000000000008', 'Working at the roadside', '# Working at the roadside

- Wear high-visibility clothing to at least **class 3** standard.
- Exit the vehicle on the side away from traffic where possible.
- Get casualties and motorists behind the barrier, never standing between vehicles.
- Keep your back to the traffic for as little time as possible.

If the scene cannot be made safe, withdraw and wait for traffic management to arrive.', 3, 20, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000008000004', '10000000-0000-4000-a000-000000000008', 'Recovery and reopening', '# Recovery and reopening

Once casualties are cared for and vehicles recovered, the scene is cleared of debris and fluids. The highways traffic officer or police decide when lanes can reopen, and the operations centre removes red X signals in sequence.

Debrief any near misses: they are reported so that the network''s safety can be improved.', 4, 20, false);
insert into public.quizzes (id, module_id, title, description, passing_score, time_limit, randomize_questions)
values ('30000000-0000-4000-a000-000008000002', '20000000-0000-4000-a000-000008000002', 'Smart motorway safety check', 'Check your understanding of this module.', 70, 10, false);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000800020001', '30000000-0000-4000-a000-000008000002', 'What does a red X above a lane mean?', 'MULTIPLE_CHOICE', 1, 1, '[{"text": "Reduce speed", "isCorrect": false}, {"text": "The lane is closed", "isCorrect": true}, {"text": "Roadworks ahead", "isCorrect": false}, {"text": "Emergency area ahead", "isCorrect": false}]', '[1]', null);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000800020002', '30000000-0000-4000-a000-000008000002', 'Emergency areas are marked with blue signs.', 'TRUE_FALSE', 2, 1, '[{"text": "True", "isCorrect": true}, {"text": "False", "isCorrect": false}]', '[0]', null);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-000800020003', '30000000-0000-4000-a000-000008000002', 'What should you do before working in a live lane?', 'MULTIPLE_CHOICE', 3, 1, '[{"text": "Switch on hazard lights only", "isCorrect": false}, {"text": "Wait for confirmation that red X signals are set", "isCorrect": true}, {"text": "Phone the driver", "isCorrect": false}, {"text": "Nothing: the hard shoulder is always closed", "isCorrect": false}]', '[1]', null);

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000009', 'Traffic Management at Incidents', 'Temporary traffic management for incidents on the strategic road network: Chapter 8 principles, cone tapers, rolling roadblocks and handover to contractors.', 'UKHW', '00000000-0000-4000-a000-000000000001', 2, 'INTERMEDIATE', false, true, 'ACTIVE', now() - interval '51 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000009000001', '10000000-0000-4000-a000-000000000009', 'Chapter 8 principles', '# Chapter 8 principles

**Chapter 8 of the Traffic Signs Manual** sets out how temporary traffic management should be laid out. Its aim is to warn, inform and guide drivers safely past an obstruction.

- Advance warning signs at the right distances for the speed limit
- A lead-in **taper** of cones
- A **safety zone** between the taper and the work area
- A clear exit back into the running lanes', 1, 25, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000009000002', '10000000-0000-4000-a000-000000000009', 'Rolling roadblocks', '# Rolling roadblocks

A **rolling roadblock** slows traffic behind marked vehicles to create a gap for a short task, such as removing debris. It is carried out by trained officers only, coordinated with the operations centre, and never for longer than necessary.', 2, 20, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000009000003', '10000000-0000-4000-a000-000000000009', 'Handover to contractors', '# Handover to contractors

For long closures, traffic management contractors replace emergency cones with a full **Chapter 8** layout. Agree the handover face-to-face, confirm what hazards remain and record the time. The incident is not closed until the handover is complete.', 3, 20, false);

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000010', 'Volunteer Search and Rescue Fundamentals', 'An introduction for lowland and mountain rescue volunteers: search planning, search techniques, navigation and working with police search advisers.', 'AUX', '00000000-0000-4000-a000-000000000001', 3, 'BEGINNER', false, true, 'ACTIVE', now() - interval '50 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000010000001', '10000000-0000-4000-a000-000000000010', 'The role of volunteer search teams', '# The role of volunteer search teams

Lowland rescue, mountain rescue and cave rescue teams are **volunteer organisations** called out by the police (and by the Coastguard or ambulance service). In most missing-person searches the police remain in charge, guided by a **Police Search Adviser (PolSA)**.

Volunteers bring local knowledge, specialist skills and large numbers of trained searchers.', 1, 20, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000010000002', '10000000-0000-4000-a000-000000000010', 'Search planning', '# Search planning

Search managers use the **missing person behaviour** statistics for the person''s category (for example, dementia, despondent, child) to decide where to search first.

- Define the **search area** and divide it into segments
- Assign **probability of area** to each segment
- Task teams to the segments with the highest probability
- Record the **probability of detection** achieved', 2, 30, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000010000003', '10000000-0000-4000-a000-000000000010', 'Search techniques', '# Search techniques

- **Hasty search** – fast checks of likely spots, paths and hazards
- **Sweep search** – searchers in line, spaced according to terrain and visibility
- **Sound and light** line – calling and listening at night

Every clue found is marked, photographed and reported without disturbing it: it may be evidence.', 3, 30, false);

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000011', 'Supporting Rest Centres in Emergencies', 'How auxiliary and voluntary sector responders support local authority rest centres after evacuation: set-up, registration, welfare and safeguarding.', 'AUX', '00000000-0000-4000-a000-000000000001', 2, 'INTERMEDIATE', false, true, 'ACTIVE', now() - interval '49 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000011000001', '10000000-0000-4000-a000-000000000011', 'What a rest centre is', '# What a rest centre is

When people are evacuated from their homes, the **local authority** opens a **rest centre**, often in a leisure centre or school. Voluntary organisations such as the British Red Cross, WRVS and faith groups support it.

A rest centre provides shelter, food and drink, information and emotional support.', 1, 20, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000011000002', '10000000-0000-4000-a000-000000000011', 'Registration and welfare', '# Registration and welfare

Everyone arriving is **registered** so that families can be reunited and the police casualty bureau can account for people.

- Ask about medical needs, medication and mobility
- Identify vulnerable people early
- Keep personal data secure under UK GDPR', 2, 25, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000011000003', '10000000-0000-4000-a000-000000000011', 'Closing the rest centre', '# Closing the rest centre

When it is safe, evacuees return home or move to temporary accommodation. Make sure every person registered is accounted for, hand records to the local authority and debrief the volunteers.', 3, 20, false);

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000012', 'Safeguarding Children and Adults at Risk', 'Recognising abuse and neglect, responding to disclosures and making referrals under the Children Act 1989 and the Care Act 2014, for every emergency service role.', 'MISC', '00000000-0000-4000-a000-000000000002', 3, 'BEGINNER', true, true, 'ACTIVE', now() - interval '48 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000012000001', '10000000-0000-4000-a000-000000000012', 'Why safeguarding is everyone''s business', '# Why safeguarding is everyone''s business

Emergency service staff go into homes and meet people at moments of crisis. You may be the only professional to see signs that a child or adult is being harmed.

The **Children Act 1989** and the **Care Act 2014** place duties on agencies to protect people at risk of abuse or neglect. Every service has a safeguarding lead and a referral route.

## Types of abuse

- Physical, emotional and sexual abuse
- Neglect and self-neglect
- Financial and material abuse
- Domestic abuse, including coercive control
- Modern slavery and exploitation', 1, 20, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000012000002', '10000000-0000-4000-a000-000000000012', 'Recognising signs of abuse', '# Recognising signs of abuse

Signs are often subtle and rarely prove abuse on their own. Look for:

- Injuries that do not match the explanation given
- Delays in seeking help
- A person who seems frightened of someone in the household
- Poor hygiene, malnutrition or unsafe living conditions
- Someone else always answering for the person

Trust your professional curiosity: ask open questions and record what you see and hear.', 2, 30, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000012000003', '10000000-0000-4000-a000-000000000012', 'Responding to a disclosure', '# Responding to a disclosure

If someone tells you they are being harmed:

1. **Listen** calmly and take them seriously.
2. **Do not promise confidentiality** – explain that you may need to share the information to keep them safe.
3. **Do not ask leading questions** or investigate yourself.
4. **Record** what was said in the person''s own words, with the date and time.
5. **Report** through your service''s safeguarding route the same day.

If there is immediate danger, call the police on 999.', 3, 25, true);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000012000004', '10000000-0000-4000-a000-000000000012', 'Making a referral', '# Making a referral

Referrals go to the local authority''s **children''s social care** or **adult social care**, usually through your service''s safeguarding hub. Include:

- Who you are concerned about and where they are
- What you saw or were told
- Any immediate risks
- What action you have already taken

You will not always hear the outcome, but your referral may be one piece of a bigger picture.', 4, 20, false);
insert into public.quizzes (id, module_id, title, description, passing_score, time_limit, randomize_questions)
values ('30000000-0000-4000-a000-000012000003', '20000000-0000-4000-a000-000012000003', 'Responding to disclosures check', 'Check your understanding of this module.', 70, 10, false);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-001200030001', '30000000-0000-4000-a000-000012000003', 'Should you promise to keep a disclosure secret?', 'MULTIPLE_CHOICE', 1, 1, '[{"text": "Yes, always", "isCorrect": false}, {"text": "Only for adults", "isCorrect": false}, {"text": "No, explain you may need to share it", "isCorrect": true}, {"text": "Only if asked", "isCorrect": false}]', '[2]', null);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-001200030002', '30000000-0000-4000-a000-000012000003', 'You should record a disclosure in the person''s own words.', 'TRUE_FALSE', 2, 1, '[{"text": "True", "isCorrect": true}, {"text": "False", "isCorrect": false}]', '[0]', null);
insert into public.quiz_questions (id, quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
values ('40000000-0000-4000-a000-001200030003', '30000000-0000-4000-a000-000012000003', 'Which Act sets out safeguarding duties for adults at risk?', 'MULTIPLE_CHOICE', 3, 1, '[{"text": "The Care Act 2014", "isCorrect": true}, {"text": "The Road Traffic Act 1988", "isCorrect": false}, {"text": "The Fire Safety Order 2005", "isCorrect": false}, {"text": "The Data Protection Act 2018", "isCorrect": false}]', '[0]', null);

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000013', 'Mental Health and Resilience for Responders', 'Looking after yourself and your colleagues: stress, trauma and post-traumatic stress, TRiM peer support and where to get help.', 'MISC', '00000000-0000-4000-a000-000000000002', 2, 'BEGINNER', false, true, 'ACTIVE', now() - interval '47 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000013000001', '10000000-0000-4000-a000-000000000013', 'Stress and trauma in emergency work', '# Stress and trauma in emergency work

Responders are exposed to distressing events far more often than the general public. Most people recover well, but repeated exposure can lead to **burnout**, **anxiety**, **depression** or **post-traumatic stress disorder (PTSD)**.

Early signs include poor sleep, irritability, withdrawal from colleagues and increased use of alcohol.', 1, 20, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000013000002', '10000000-0000-4000-a000-000000000013', 'Peer support and TRiM', '# Peer support and TRiM

**Trauma Risk Management (TRiM)** is a peer-support system used across UK emergency services. Trained colleagues hold structured conversations after traumatic incidents, at around 72 hours and again after a month, to identify who might need further help.

TRiM is not therapy: it is about noticing, listening and signposting.', 2, 20, false);
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000013000003', '10000000-0000-4000-a000-000000000013', 'Getting help', '# Getting help

- Your **occupational health** service and employee assistance programme
- Charities such as **Mind''s Blue Light programme**, **The Fire Fighters Charity**, **Police Care UK** and **The Ambulance Staff Charity (TASC)**
- Your GP, or NHS 111 (option 2 for urgent mental health support in England)

Asking for help is a sign of strength, not weakness.', 3, 15, false);

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000014', 'Data Protection and UK GDPR Essentials', 'A short briefing on handling personal data lawfully under UK GDPR and the Data Protection Act 2018, including Part 3 law enforcement processing.', 'MISC', '00000000-0000-4000-a000-000000000002', 1, 'BEGINNER', false, true, 'ACTIVE', now() - interval '46 days');

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000015', 'Stop and Search: PACE Code A in Practice', 'Draft: lawful, fair and effective stop and search under PACE Code A, including reasonable grounds, GOWISELY and body-worn video.', 'UKPS', '00000000-0000-4000-a000-000000000002', 2, 'INTERMEDIATE', false, true, 'DRAFT', now() - interval '45 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000015000001', '10000000-0000-4000-a000-000000000015', 'Reasonable grounds', '# Reasonable grounds

A search under **section 1 PACE** requires **reasonable grounds for suspicion** based on objective facts, information or intelligence – never on personal characteristics alone.

Use **GOWISELY** to explain the search: Grounds, Object, Warrant card, Identity, Station, Entitlement to a record, Legal power, You are detained.', 1, 20, false);

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000016', 'Advanced Airway Management', 'Draft: supraglottic airway devices, capnography and the difficult airway for paramedics, in line with JRCALC guidance.', 'UKAS', '00000000-0000-4000-a000-000000000001', 4, 'ADVANCED', false, true, 'DRAFT', now() - interval '44 days');

insert into public.courses (id, title, description, service, author_id, duration, level, featured, requires_enrollment, status, created_at)
values ('10000000-0000-4000-a000-000000000017', 'Fire Safety Order Briefing (2019 edition)', 'Archived: the 2019 briefing on the Regulatory Reform (Fire Safety) Order 2005, replaced after the Fire Safety Act 2021 and the Building Safety Act 2022.', 'UKFRS', '00000000-0000-4000-a000-000000000001', 1, 'BEGINNER', false, true, 'ARCHIVED', now() - interval '43 days');
insert into public.course_modules (id, course_id, title, content, order_index, duration, has_quiz)
values ('20000000-0000-4000-a000-000017000001', '10000000-0000-4000-a000-000000000017', 'The responsible person', '# The responsible person

Under the **Regulatory Reform (Fire Safety) Order 2005** the **responsible person** must carry out a fire risk assessment and put in place general fire precautions. This briefing has been replaced; see the current fire safety course.', 1, 20, false);

-- Welsh versions (docs/welsh-glossary.md) of three courses, complete, so that a Welsh-speaking
-- learner can go from the catalogue to the certificate in Welsh: Airwave (3), Rest Centres (11),
-- Safeguarding (12). Every other course stays English-only. courses.available_in_welsh follows
-- from the triggers.
update public.courses set title_cy = 'Trefn Llais Radio Airwave',
  description_cy = 'Cyfathrebu clir a chryno dros y radio ar rwydwaith Airwave: arwyddion galw, yr wyddor ffonetig, geiriau trefn a negeseuon blaenoriaeth.'
where id = '10000000-0000-4000-a000-000000000003';
update public.course_modules set title_cy = 'Disgyblaeth radio a rhwydwaith Airwave', content_cy = $cy$# Disgyblaeth radio a rhwydwaith Airwave

**Airwave** yw'r rhwydwaith radio digidol TETRA diogel y mae gwasanaethau brys y DU yn ei ddefnyddio. Mae llawer o ddefnyddwyr yn rhannu pob grŵp siarad, felly mae pob darllediad yn cymryd amser darlledu oddi wrth rywun a allai fod â neges frys.

## Cyn i chi bwyso'r botwm

- **Meddyliwch** am yr hyn sydd angen i chi ei ddweud.
- **Gwrandewch** i wneud yn siŵr bod y sianel yn rhydd.
- **Pwyswch** y botwm siarad ac arhoswch eiliad cyn siarad.
- **Siaradwch** yn glir, ar gyflymder cyson, gyda'r radio ychydig gentimetrau o'ch ceg.

Cadwch negeseuon yn fyr. Os yw neges yn hir, rhannwch hi'n rhannau a gadewch i'r derbynnydd gadarnhau pob un.$cy$
where id = '20000000-0000-4000-a000-000003000001';
update public.course_modules set title_cy = 'Yr wyddor ffonetig a rhifau', content_cy = $cy$# Yr wyddor ffonetig a rhifau

Mae'n hawdd camglywed llythrennau dros y radio, felly defnyddir **gwyddor ffonetig NATO**: Alpha, Bravo, Charlie, Delta, Echo, Foxtrot, Golf, Hotel, India, Juliet, Kilo, Lima, Mike, November, Oscar, Papa, Quebec, Romeo, Sierra, Tango, Uniform, Victor, Whiskey, X-ray, Yankee, Zulu.

## Rhifau cofrestru cerbydau

Darllenwch rif cofrestru fesul llythyren a fesul digid: mae *AB12 CDE* yn troi'n "Alpha Bravo One Two Charlie Delta Echo".

## Rhifau

Dywedwch bob digid ar wahân ("one five zero", nid "one hundred and fifty"), a dywedwch **"niner"** am naw pan fo'r llinell yn wael.$cy$
where id = '20000000-0000-4000-a000-000003000002';
update public.course_modules set title_cy = 'Geiriau trefn a negeseuon blaenoriaeth', content_cy = $cy$# Geiriau trefn a negeseuon blaenoriaeth

Mae **geiriau trefn** (*prowords*) yn eiriau byr ag ystyr gytûn sy'n arbed amser darlledu. Maen nhw'n cael eu dweud yn Saesneg ar y rhwydwaith:

- **Over** – rydw i wedi gorffen, ac rwy'n disgwyl ateb.
- **Out** – rydw i wedi gorffen, a dydw i ddim yn disgwyl ateb. Peidiwch byth â dweud "over and out".
- **Received** – rydw i wedi clywed a deall eich neges.
- **Say again** – ailadroddwch eich neges ddiwethaf.
- **Wait** – mae angen eiliad arnaf; peidiwch â darlledu.

## Cymorth brys

Mae'r **botwm argyfwng** yn rhoi blaenoriaeth i chi ar y grŵp siarad ac yn agor eich meicroffon. Defnyddiwch ef dim ond pan fo bywyd mewn perygl. Bydd eich ystafell reoli'n clirio'r sianel; rhowch eich lleoliad yn gyntaf, yna'r hyn sydd ei angen arnoch.$cy$
where id = '20000000-0000-4000-a000-000003000003';
update public.quizzes set title_cy = 'Gwirio trefn llais', description_cy = 'Gwiriwch eich dealltwriaeth o''r modiwl hwn.'
where id = '30000000-0000-4000-a000-000003000003';
update public.quiz_questions set question_text_cy = 'Pa air trefn sy''n golygu eich bod wedi gorffen ac nad ydych yn disgwyl ateb?',
  options_cy = '["Over", "Out", "Wait", "Received"]', explanation_cy = 'Mae "over and out" yn gwrth-ddweud ei hun, ac ni chaiff byth ei ddefnyddio.'
where id = '40000000-0000-4000-a000-000300030001';
update public.quiz_questions set question_text_cy = 'Sut mae rhoi''r llythyren J yn yr wyddor ffonetig?',
  options_cy = '["Jack", "Jupiter", "Juliet", "Jigsaw"]'
where id = '40000000-0000-4000-a000-000300030002';
update public.quiz_questions set question_text_cy = 'Dylid defnyddio''r botwm argyfwng pryd bynnag y mae''r sianel yn brysur.',
  options_cy = '["Gwir", "Gau"]', explanation_cy = 'Mae ar gyfer sefyllfaoedd lle mae bywyd mewn perygl.'
where id = '40000000-0000-4000-a000-000300030003';

update public.courses set title_cy = 'Cefnogi Canolfannau Gorffwys mewn Argyfyngau',
  description_cy = 'Sut mae ymatebwyr y gwasanaethau ategol a''r sector gwirfoddol yn cefnogi canolfannau gorffwys yr awdurdod lleol ar ôl symud pobl o''u cartrefi: sefydlu, cofrestru, lles a diogelu.'
where id = '10000000-0000-4000-a000-000000000011';
update public.course_modules set title_cy = 'Beth yw canolfan orffwys', content_cy = $cy$# Beth yw canolfan orffwys

Pan fydd pobl yn cael eu symud o'u cartrefi, mae'r **awdurdod lleol** yn agor **canolfan orffwys**, yn aml mewn canolfan hamdden neu ysgol. Mae sefydliadau gwirfoddol fel y Groes Goch Brydeinig, WRVS a grwpiau ffydd yn ei chefnogi.

Mae canolfan orffwys yn cynnig lloches, bwyd a diod, gwybodaeth a chymorth emosiynol.$cy$
where id = '20000000-0000-4000-a000-000011000001';
update public.course_modules set title_cy = 'Cofrestru a lles', content_cy = $cy$# Cofrestru a lles

Mae pawb sy'n cyrraedd yn cael eu **cofrestru**, er mwyn i deuluoedd gael eu haduno ac i swyddfa anafusion yr heddlu allu cyfrif am bawb.

- Gofynnwch am anghenion meddygol, meddyginiaeth a symudedd
- Nodwch bobl sy'n agored i niwed yn gynnar
- Cadwch ddata personol yn ddiogel o dan GDPR y DU$cy$
where id = '20000000-0000-4000-a000-000011000002';
update public.course_modules set title_cy = 'Cau''r ganolfan orffwys', content_cy = $cy$# Cau'r ganolfan orffwys

Pan fydd hi'n ddiogel, bydd y bobl a symudwyd yn mynd adref neu'n symud i lety dros dro. Gwnewch yn siŵr bod pawb a gofrestrwyd wedi'u cyfrif, trosglwyddwch y cofnodion i'r awdurdod lleol a chynhaliwch sesiwn ôl-drafod gyda'r gwirfoddolwyr.$cy$
where id = '20000000-0000-4000-a000-000011000003';

update public.courses set title_cy = 'Diogelu Plant ac Oedolion sy''n Wynebu Risg',
  description_cy = 'Adnabod cam-drin ac esgeulustod, ymateb i ddatgeliadau a gwneud atgyfeiriadau o dan Ddeddf Plant 1989 a Deddf Gofal 2014, ar gyfer pob rôl yn y gwasanaethau brys.'
where id = '10000000-0000-4000-a000-000000000012';
update public.course_modules set title_cy = 'Pam mae diogelu''n fusnes i bawb', content_cy = $cy$# Pam mae diogelu'n fusnes i bawb

Mae staff y gwasanaethau brys yn mynd i gartrefi ac yn cwrdd â phobl ar adegau o argyfwng. Efallai mai chi fydd yr unig weithiwr proffesiynol i weld arwyddion bod plentyn neu oedolyn yn cael ei niweidio.

Mae **Deddf Plant 1989** a **Deddf Gofal 2014** yn gosod dyletswyddau ar asiantaethau i amddiffyn pobl sy'n wynebu risg o gam-drin neu esgeulustod. Mae gan bob gwasanaeth arweinydd diogelu a llwybr atgyfeirio.

## Mathau o gam-drin

- Cam-drin corfforol, emosiynol a rhywiol
- Esgeulustod a hunanesgeulustod
- Cam-drin ariannol a materol
- Cam-drin domestig, gan gynnwys rheolaeth drwy orfodaeth
- Caethwasiaeth fodern a chamfanteisio$cy$
where id = '20000000-0000-4000-a000-000012000001';
update public.course_modules set title_cy = 'Adnabod arwyddion cam-drin', content_cy = $cy$# Adnabod arwyddion cam-drin

Mae arwyddion yn aml yn gynnil, ac anaml y maen nhw'n profi cam-drin ar eu pen eu hunain. Chwiliwch am:

- Anafiadau nad ydynt yn cyd-fynd â'r esboniad a roddwyd
- Oedi cyn gofyn am help
- Person sy'n ymddangos yn ofnus o rywun yn yr aelwyd
- Hylendid gwael, diffyg maeth neu amodau byw anniogel
- Rhywun arall sydd bob amser yn ateb dros y person

Ymddiriedwch yn eich chwilfrydedd proffesiynol: gofynnwch gwestiynau agored a chofnodwch yr hyn rydych chi'n ei weld a'i glywed.$cy$
where id = '20000000-0000-4000-a000-000012000002';
update public.course_modules set title_cy = 'Ymateb i ddatgeliad', content_cy = $cy$# Ymateb i ddatgeliad

Os bydd rhywun yn dweud wrthych eu bod yn cael eu niweidio:

1. **Gwrandewch** yn bwyllog a chymerwch nhw o ddifrif.
2. **Peidiwch ag addo cyfrinachedd** – esboniwch efallai y bydd angen i chi rannu'r wybodaeth i'w cadw'n ddiogel.
3. **Peidiwch â gofyn cwestiynau arweiniol**, a pheidiwch ag ymchwilio eich hun.
4. **Cofnodwch** yr hyn a ddywedwyd yng ngeiriau'r person ei hun, gyda'r dyddiad a'r amser.
5. **Rhowch wybod** drwy lwybr diogelu eich gwasanaeth ar yr un diwrnod.

Os oes perygl uniongyrchol, ffoniwch yr heddlu ar 999.$cy$
where id = '20000000-0000-4000-a000-000012000003';
update public.course_modules set title_cy = 'Gwneud atgyfeiriad', content_cy = $cy$# Gwneud atgyfeiriad

Mae atgyfeiriadau'n mynd i **wasanaethau cymdeithasol plant** neu **wasanaethau cymdeithasol oedolion** yr awdurdod lleol, fel arfer drwy ganolfan ddiogelu eich gwasanaeth. Cynhwyswch:

- Pwy sy'n peri pryder i chi a ble maen nhw
- Beth welsoch chi neu beth a ddywedwyd wrthych
- Unrhyw risgiau uniongyrchol
- Pa gamau rydych chi wedi'u cymryd eisoes

Fyddwch chi ddim bob amser yn clywed y canlyniad, ond gall eich atgyfeiriad fod yn un darn o ddarlun mwy.$cy$
where id = '20000000-0000-4000-a000-000012000004';
update public.quizzes set title_cy = 'Gwirio ymateb i ddatgeliadau', description_cy = 'Gwiriwch eich dealltwriaeth o''r modiwl hwn.'
where id = '30000000-0000-4000-a000-000012000003';
update public.quiz_questions set question_text_cy = 'A ddylech chi addo cadw datgeliad yn gyfrinach?',
  options_cy = '["Dylwn, bob amser", "Dim ond i oedolion", "Na ddylwn: esboniwch efallai y bydd angen i chi ei rannu", "Dim ond os gofynnir i chi"]'
where id = '40000000-0000-4000-a000-001200030001';
update public.quiz_questions set question_text_cy = 'Dylech gofnodi datgeliad yng ngeiriau''r person ei hun.',
  options_cy = '["Gwir", "Gau"]'
where id = '40000000-0000-4000-a000-001200030002';
update public.quiz_questions set question_text_cy = 'Pa Ddeddf sy''n nodi dyletswyddau diogelu ar gyfer oedolion sy''n wynebu risg?',
  options_cy = '["Deddf Gofal 2014", "Deddf Traffig Ffyrdd 1988", "Gorchymyn Diogelwch Tân 2005", "Deddf Diogelu Data 2018"]'
where id = '40000000-0000-4000-a000-001200030003';

-- The student: Safeguarding at 0 %, JESIP half way (2 of 4 modules, quiz passed), Airwave complete.
insert into public.enrollments (id, user_id, course_id, status, progress, completed, started_at)
values ('50000000-0000-4000-a000-000000000001', '00000000-0000-4000-a000-000000000003', '10000000-0000-4000-a000-000000000012', 'ACTIVE', 0, false, now() - interval '2 days');
insert into public.enrollments (id, user_id, course_id, status, progress, completed, started_at, last_accessed_module_id)
values ('50000000-0000-4000-a000-000000000002', '00000000-0000-4000-a000-000000000003', '10000000-0000-4000-a000-000000000001', 'ACTIVE', 50, false, now() - interval '10 days', '20000000-0000-4000-a000-000001000003');
insert into public.enrollments (id, user_id, course_id, status, progress, completed, started_at, completed_at, last_accessed_module_id)
values ('50000000-0000-4000-a000-000000000003', '00000000-0000-4000-a000-000000000003', '10000000-0000-4000-a000-000000000003', 'ACTIVE', 100, true, now() - interval '20 days', now() - interval '15 days', '20000000-0000-4000-a000-000003000003');
insert into public.quiz_attempts (id, user_id, quiz_id, score, max_score, passed, answers, started_at, completed_at)
values ('70000000-0000-4000-a000-000000000001', '00000000-0000-4000-a000-000000000003', '30000000-0000-4000-a000-000001000002', 3, 3, true, '{"40000000-0000-4000-a000-000100020001": [0], "40000000-0000-4000-a000-000100020002": [1], "40000000-0000-4000-a000-000100020003": [0]}', now() - interval '9 days', now() - interval '9 days'),
       ('70000000-0000-4000-a000-000000000002', '00000000-0000-4000-a000-000000000003', '30000000-0000-4000-a000-000003000003', 3, 3, true, '{"40000000-0000-4000-a000-000300030001": [1], "40000000-0000-4000-a000-000300030002": [2], "40000000-0000-4000-a000-000300030003": [1]}', now() - interval '15 days', now() - interval '15 days');
insert into public.user_module_progress (user_id, module_id, read_at, completed, completed_at, quiz_passed, last_attempt_id)
values ('00000000-0000-4000-a000-000000000003', '20000000-0000-4000-a000-000001000001', now() - interval '9 days', true, now() - interval '9 days', false, null),
       ('00000000-0000-4000-a000-000000000003', '20000000-0000-4000-a000-000001000002', now() - interval '9 days', true, now() - interval '9 days', true, '70000000-0000-4000-a000-000000000001'),
       ('00000000-0000-4000-a000-000000000003', '20000000-0000-4000-a000-000003000001', now() - interval '15 days', true, now() - interval '15 days', false, null),
       ('00000000-0000-4000-a000-000000000003', '20000000-0000-4000-a000-000003000002', now() - interval '15 days', true, now() - interval '15 days', false, null),
       ('00000000-0000-4000-a000-000000000003', '20000000-0000-4000-a000-000003000003', now() - interval '15 days', true, now() - interval '15 days', true, '70000000-0000-4000-a000-000000000002');
insert into public.certificates (id, verification_code, user_id, course_id, learner_name, course_title, service, template, issued_at)
values ('60000000-0000-4000-a000-000000000001', 'DEMO2026CERT0001', '00000000-0000-4000-a000-000000000003', '10000000-0000-4000-a000-000000000003', 'Sam Patel',
  'Airwave Radio Voice Procedure', 'UKPS', 'standard', now() - interval '15 days');
