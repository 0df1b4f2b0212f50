-- Phase 1: people. {{users}} accounts as Supabase Auth stores them (auth.users + auth.identities) and
-- their profiles, written straight (the profile trigger, the audit trigger and auto-enrolment do not
-- fire under session_replication_role = replica; the generator writes what they would).
-- Roles: 1 % ADMIN (all six services), 4 % INSTRUCTOR, 95 % STUDENT. Every account has the password
-- whose bcrypt hash is {{password_hash}}.

create temp table scale_users on commit drop as
with names as (
  select
    array['Oliver','George','Harry','Jack','Jacob','Noah','Charlie','Muhammad','Thomas','Oscar','William','James',
          'Henry','Leo','Alfie','Joshua','Freddie','Archie','Ethan','Isaac','Alexander','Joseph','Edward','Samuel',
          'Max','Daniel','Arthur','Lucas','Mohammed','Logan','Theo','Harrison','Benjamin','Mason','Sebastian','Finley',
          'Adam','Dylan','Zachary','Riley','Ryan','Callum','Liam','Connor','Owen','Rhys','Dafydd','Ewan','Fraser','Aidan',
          'Olivia','Amelia','Isla','Ava','Emily','Isabella','Mia','Poppy','Ella','Lily','Jessica','Sophie','Grace',
          'Evie','Sophia','Ruby','Charlotte','Daisy','Freya','Chloe','Alice','Phoebe','Florence','Ellie','Matilda',
          'Scarlett','Harper','Lucy','Sienna','Eleanor','Rosie','Holly','Hannah','Megan','Bethan','Niamh','Aisha',
          'Priya','Zara','Fatima','Amira','Eilidh','Caitlin','Catrin','Siobhan','Rachel','Laura','Sarah','Emma','Kate'] as first,
    array['Smith','Jones','Williams','Taylor','Brown','Davies','Evans','Wilson','Thomas','Johnson','Roberts','Robinson',
          'Thompson','Wright','Walker','White','Edwards','Hughes','Green','Hall','Lewis','Harris','Clarke','Patel',
          'Jackson','Wood','Turner','Martin','Cooper','Hill','Ward','Morris','Moore','Clark','Lee','King','Baker',
          'Harrison','Morgan','Allen','James','Scott','Phillips','Watson','Davis','Parker','Price','Bennett','Young',
          'Griffiths','Mitchell','Kelly','Cook','Carter','Richardson','Bailey','Collins','Bell','Shaw','Murphy',
          'Miller','Cox','Richards','Khan','Marshall','Anderson','Simpson','Ellis','Adams','Singh','Begum','Wilkinson',
          'Foster','Chapman','Powell','Webb','Rogers','Gray','Mason','Ali','Hunt','Hussain','Campbell','Matthews',
          'Owen','Palmer','Holmes','Mills','Barnes','Knight','Lloyd','Butler','Russell','Barker','Fisher','Stevens',
          'Jenkins','Murray','Dixon','Harvey','MacDonald','Fraser','Stewart','Reid','O''Brien','Byrne','Kaur'] as last
),
people as (
  select i,
         -- A cheap, well-spread hash of i: the same account gets the same name and service on every run.
         (((i::bigint * 2654435761) % 4294967296) / 4294967296.0) as h1,
         (((i::bigint * 40503 + 12345) * 2246822519 % 4294967296) / 4294967296.0) as h2,
         (((i::bigint * 97 + 7) * 3266489917 % 4294967296) / 4294967296.0) as h3
  from generate_series(1, {{users}}) as i
)
select p.i,
       (lpad(to_hex(p.i), 8, '0') || '-5ca1-4000-8000-000000000001')::uuid as id,
       n.first[1 + floor(p.h1 * array_length(n.first, 1))::int] as first_name,
       n.last[1 + floor(p.h2 * array_length(n.last, 1))::int] as last_name,
       case when p.i % 100 = 0 then 'ADMIN' when p.i % 100 <= 4 then 'INSTRUCTOR' else 'STUDENT' end::public.user_role as role,
       -- Primary service: police 35 %, ambulance 20 %, fire and rescue 20 %, highways 10 %, auxiliary 10 %, other 5 %.
       case when p.h3 < 0.35 then 'UKPS' when p.h3 < 0.55 then 'UKAS' when p.h3 < 0.75 then 'UKFRS'
            when p.h3 < 0.85 then 'UKHW' when p.h3 < 0.95 then 'AUX' else 'MISC' end::public.service_code as service,
       -- Joined over the last three years, oldest first.
       now() - interval '1095 days' + (p.i::float8 / {{users}}) * interval '1090 days' as created_at
from people p, names n;

alter table scale_users add column username text, add column email text, add column name text,
  add column services public.service_code[];
update scale_users u set
  username = lower(regexp_replace(u.first_name || '.' || u.last_name, '[^A-Za-z.]', '', 'g')) || u.i,
  name = u.first_name || ' ' || u.last_name,
  services = case
    when u.role = 'ADMIN' then '{UKPS,UKAS,UKFRS,UKHW,AUX,MISC}'::public.service_code[]
    -- One learner in ten and one instructor in three work across two services.
    when u.i % (case when u.role = 'INSTRUCTOR' then 3 else 10 end) = 1
      then array[u.service, case when u.service = 'MISC' then 'AUX' else 'MISC' end::public.service_code]
    else array[u.service] end;
update scale_users u set email = u.username || '@' || case u.service
    when 'UKPS' then 'police.example.uk' when 'UKAS' then 'ambulance.example.uk' when 'UKFRS' then 'fire.example.uk'
    when 'UKHW' then 'highways.example.uk' when 'AUX' then 'auxiliary.example.uk' else 'example.uk' end;
analyze scale_users;

insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email, '{{password_hash}}',
       u.created_at, '', '', '', '', '{"provider":"email","providers":["email"]}'::jsonb,
       jsonb_build_object('username', u.username, 'name', u.name), u.created_at, u.created_at
from scale_users u order by u.i;

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email), 'email', null, u.created_at, u.created_at
from scale_users u order by u.i;

insert into public.profiles (id, username, email, name, role, services, created_at, updated_at)
select u.id, u.username, u.email, u.name, u.role, u.services, u.created_at, u.created_at
from scale_users u order by u.i;

-- The words of the admin user search, as the profiles' statement trigger writes them
-- (private.index_profile_words).
insert into private.profile_search_words (word, profile_id, created_at)
select t.word, u.id, u.created_at
from scale_users u
cross join lateral private.profile_words(u.name, u.username, u.email) t(word);
