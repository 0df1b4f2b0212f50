-- Phase 1: organisations, their units, and people. {{organisations}} organisations (police forces,
-- ambulance trusts, fire and rescue services, a highways authority, voluntary bodies and other
-- bodies), {{units}} units in three levels (area -> station -> watch, or its equivalent), and
-- {{users}} accounts as Supabase Auth stores them (auth.users + auth.identities) with their profiles,
-- written straight (the profile triggers, the audit trigger and auto-enrolment do not fire under
-- session_replication_role = replica; the generator writes what they would, and what the placement
-- trigger private.check_profile_placement would refuse it never writes).
--
-- Every generated person belongs to an organisation (drawn by the organisations' weights; their
-- primary service is the organisation's) and to a unit of it, and every one but the head of each
-- organisation has a line manager of the same organisation:
--   head (in the first area)  <- area commanders (one per area, in it)
--                             <- station managers (one per station, in it)
--                             <- watch managers (one per watch, in it)
--                             <- the watch's people, shared between the watch manager and, in a
--                                watch of more than 20, crew managers (in the watch, reporting to
--                                the watch manager), about 20 each.
-- Each organisation has at least 40 units: 3 or more areas, at least three stations per area and
-- three watches per station, so every manager has between 3 and 40 direct reports (checked at the
-- end of this phase). The rest of the {{units}} units go to the organisations by their size.
-- Roles: in each organisation every 400th person of the watches (from the 38th) is its
-- administrator (ADMIN of the organisation); 4 % are INSTRUCTOR; the rest STUDENT. National
-- administrators are the seed's (`admin`). Every account has the password whose bcrypt hash is
-- {{password_hash}}.

create temp table scale_orgs on commit drop as
with listed(k, name, code, service, weight) as (values
  -- In an order where any first six cover the six services (the small preset takes six).
  (1, 'Westmoor Police', 'WMRP', 'UKPS', 25),
  (2, 'Westmoor Ambulance Service NHS Trust', 'WMRAS', 'UKAS', 25),
  (3, 'Westmoor Fire and Rescue Service', 'WMRFRS', 'UKFRS', 20),
  (4, 'Central Highways Authority', 'CHA', 'UKHW', 100),
  (5, 'Moorland Search and Rescue', 'MSAR', 'AUX', 25),
  (6, 'Northern Emergency Planning Partnership', 'NEPP', 'MISC', 17),
  (7, 'Eastvale Constabulary', 'EVC', 'UKPS', 31),
  (8, 'Eastvale and Fenwick Ambulance Service NHS Trust', 'EFAS', 'UKAS', 30),
  (9, 'Eastvale Fire and Rescue Service', 'EVFRS', 'UKFRS', 24),
  (10, 'Northfold Police', 'NFP', 'UKPS', 18),
  (11, 'Lowland Rescue Volunteers', 'LRV', 'AUX', 22),
  (12, 'Northfold Fire and Rescue Service', 'NFFRS', 'UKFRS', 16),
  (13, 'Southmere Constabulary', 'SMC', 'UKPS', 27),
  (14, 'Midshire Ambulance Service NHS Trust', 'MSAS', 'UKAS', 22),
  (15, 'Southmere Fire and Rescue Service', 'SMFRS', 'UKFRS', 21),
  (16, 'Highcombe Police', 'HCP', 'UKPS', 22),
  (17, 'Joint Emergency Communications Centre', 'JECC', 'MISC', 18),
  (18, 'Highcombe Fire and Rescue Service', 'HCFRS', 'UKFRS', 19),
  (19, 'Lowlands Constabulary', 'LLC', 'UKPS', 26),
  (20, 'Caldermoor Ambulance Service NHS Trust', 'CMAS', 'UKAS', 24),
  (21, 'Lowlands Fire and Rescue Service', 'LLFRS', 'UKFRS', 23),
  (22, 'Ashdown Police', 'ADP', 'UKPS', 20),
  (23, 'Coastal Lifeboat Volunteers', 'CLV', 'AUX', 28),
  (24, 'Ashdown Fire and Rescue Service', 'ADFRS', 'UKFRS', 18),
  (25, 'Bramshire Constabulary', 'BSC', 'UKPS', 29),
  (26, 'Highcombe and Ashdown Ambulance Service NHS Trust', 'HAAS', 'UKAS', 27),
  (27, 'Dunholme Fire and Rescue Service', 'DHFRS', 'UKFRS', 22),
  (28, 'Caldermoor Police', 'CMP', 'UKPS', 24),
  (29, 'Regional Resilience Forum', 'RRF', 'MISC', 16),
  (30, 'Elmshire Fire and Rescue Service', 'ESFRS', 'UKFRS', 20),
  (31, 'Dunholme Constabulary', 'DHC', 'UKPS', 23),
  (32, 'Bramshire Ambulance Service NHS Trust', 'BSAS', 'UKAS', 23),
  (33, 'Harrowdale Fire and Rescue Service', 'HDFRS', 'UKFRS', 17),
  (34, 'Elmshire Police', 'ESP', 'UKPS', 25),
  (35, 'St Brigid Ambulance Volunteers', 'SBAV', 'AUX', 25),
  (36, 'Fenwick Constabulary', 'FWC', 'UKPS', 21),
  (37, 'Greystone Ambulance Service NHS Trust', 'GSAS', 'UKAS', 24),
  (38, 'Greystone Police', 'GSP', 'UKPS', 30),
  (39, 'Harrowdale Constabulary', 'HDC', 'UKPS', 28),
  (40, 'Westmoor Special Constabulary Support', 'WMSCS', 'UKPS', 10)
),
kept as (select * from listed where k <= {{organisations}})
select l.k,
       (lpad(to_hex(l.k), 8, '0') || '-5ca1-4000-8000-00000000000a')::uuid as id,
       l.name, l.code, l.service::public.service_code as service,
       -- The share of the people: [lo, hi) of a uniform draw.
       (sum(l.weight) over (order by l.k) - l.weight)::float8 / sum(l.weight) over () as lo,
       sum(l.weight) over (order by l.k)::float8 / sum(l.weight) over () as hi
from kept l;

create temp table scale_people on commit drop as
with people as (
  select i,
         -- A cheap, well-spread hash of i: the same account gets the same name and organisation on every run.
         (((i::bigint * 2654435761) % 4294967296) / 4294967296.0) as h1,
         (((i::bigint * 40503 + 12345) * 2246822519 % 4294967296) / 4294967296.0) as h2,
         (((i::bigint * 97 + 7) * 3266489917 % 4294967296) / 4294967296.0) as h3
  from generate_series(1, {{users}}) as i
)
select p.i, p.h1, p.h2, o.k as org_k, o.id as organisation_id, o.service,
       row_number() over (partition by o.k order by p.i) as rn
from people p join scale_orgs o on p.h3 >= o.lo and p.h3 < o.hi;

-- Each organisation's shape: n people, u units (at least 40, the rest by size), a areas, s stations
-- and w watches; m people in the watches.
create temp table scale_shape on commit drop as
with sized as (
  select o.k, o.id, o.service, count(p.i)::int as n
  from scale_orgs o left join scale_people p on p.org_k = o.k
  group by o.k, o.id, o.service
),
spread as (
  select s.*,
         40 + (round(({{units}} - 40 * count(*) over ())::numeric * sum(s.n) over (order by s.k) / sum(s.n) over ())
             - round(({{units}} - 40 * count(*) over ())::numeric * (sum(s.n) over (order by s.k) - s.n) / sum(s.n) over ()))::int as u
  from sized s
),
levels as (
  select s.*, greatest(3, round(s.u * 0.05))::int as a from spread s
)
select l.k, l.id, l.service, l.n, l.u, l.a,
       (l.u - l.a) / 4 as s,
       l.u - l.a - (l.u - l.a) / 4 as w,
       l.n - 1 - l.a - (l.u - l.a) / 4 as m,
       (sum(l.u) over (order by l.k) - l.u)::int as unit_base
from levels l;

do $$
begin
  if exists (select 1 from scale_shape where u < 40 or m < 4 * w) then
    raise exception 'seed:scale: too few units or people for three levels in every organisation (at least 40 units each, 4 people a watch)';
  end if;
end;
$$;

insert into public.organisations (id, name, code, service, created_at)
select o.id, o.name, o.code, o.service, now() - interval '1100 days' from scale_orgs o order by o.k;

create temp table scale_units on commit drop as
with numbered as (
  select s.k as org_k, s.id as organisation_id, s.service, s.a, s.s, s.unit_base, x as uk,
         case when x <= s.a then 1 when x <= s.a + s.s then 2 else 3 end as level,
         case when x <= s.a then null
              when x <= s.a + s.s then 1 + (x - s.a - 1) % s.a
              else s.a + 1 + (x - s.a - s.s - 1) % s.s end as parent_uk,
         -- The position among the parent's children (areas: among the organisation's; stations:
         -- numbered across the organisation, so their names are unique in it).
         case when x <= s.a then x - 1
              when x <= s.a + s.s then x - s.a - 1
              else (x - s.a - s.s - 1) / s.s end as idx
  from scale_shape s cross join generate_series(1, s.u) as x
)
select n.*, (lpad(to_hex(n.unit_base + n.uk), 8, '0') || '-5ca1-4000-8000-00000000000b')::uuid as id,
       case n.level
         when 1 then (array['North','South','East','West','Central','North East','North West','South East','South West','Coastal'])[1 + n.idx % 10]
                     || ' ' || case n.service when 'UKPS' then 'Division' when 'UKAS' then 'Operational Area' when 'UKFRS' then 'Area'
                                              when 'UKHW' then 'Region' when 'AUX' then 'Region' else 'Directorate' end
                     || case when n.idx >= 10 then ' ' || (n.idx / 10 + 1) else '' end
         when 2 then (array['Ashford','Barnbrook','Carrow','Dunmere','Eastwick','Fairlea','Garside','Holbeck','Ingleby','Jarrow Cross',
                            'Kettlebridge','Langmoor','Millbrook','Netherton','Oakhampstead','Pendle Vale','Quarry Bank','Redhill','Saltmarsh','Thornbury',
                            'Upton Heath','Valebridge','Whitmore','Yarwood','Alderley','Brackenfield','Coldstream','Denholm','Elsworth','Foxhollow',
                            'Greenhithe','Hartwell','Ivybridge','Kingsmere','Lowther','Marshfield','Northgate','Orchard Lea','Priorsfield','Ravensworth',
                            'Stanbury','Tidemouth','Underwood','Westerleigh','Ashcombe','Broadwater','Crossgates','Dalby','Edgecote','Fernhill',
                            'Gorsley','Hillmorton','Ironbridge Road','Kilnsey','Larkfield','Moorside','Newhaven Quay','Oldfield','Pinewood','Rookley'])[1 + (n.idx + n.org_k * 7) % 60]
                     || case n.service when 'UKPS' then ' Police Station' when 'UKAS' then ' Ambulance Station' when 'UKFRS' then ' Fire Station'
                                       when 'UKHW' then ' Outstation' when 'AUX' then ' Team' else ' Office' end
                     || case when n.idx >= 60 then ' ' || (n.idx / 60 + 1) else '' end
         else case n.service
                when 'UKFRS' then (array['Red','White','Blue','Green','Amber'])[1 + n.idx % 5] || ' Watch'
                                  || case when n.idx >= 5 then ' ' || (n.idx / 5 + 1) else '' end
                when 'UKPS' then 'Response Team ' || (n.idx + 1)
                when 'UKAS' then 'Crew Rota ' || (n.idx + 1)
                when 'UKHW' then 'Traffic Officer Team ' || (n.idx + 1)
                when 'AUX' then 'Search Team ' || (n.idx + 1)
                else 'Duty Team ' || (n.idx + 1) end end as name
from numbered n;
create index on scale_units (org_k, uk);
analyze scale_units;

insert into public.units (id, organisation_id, parent_id, name, created_at)
select u.id, u.organisation_id, p.id, u.name, now() - interval '1100 days'
from scale_units u left join scale_units p on p.org_k = u.org_k and p.uk = u.parent_uk
order by u.org_k, u.uk;

-- Each person's place: unit (by its number in the organisation) and manager (by their rn).
create temp table scale_places on commit drop as
with placed as (
  select p.i, p.org_k, p.rn, s.a, s.s, s.w, s.m,
         p.rn - 2 - s.a - s.s as q -- position among the watches' people (0-based)
  from scale_people p join scale_shape s on s.k = p.org_k
),
watches as (
  select x.*, x.q % x.w as wi, x.q / x.w as t,
         -- People in this watch, and its leaders (the watch manager and its crew managers).
         (x.m - 1 - x.q % x.w) / x.w + 1 as pw
  from placed x
)
select x.i, x.org_k, x.rn, x.q,
       case when x.rn = 1 then 1
            when x.rn <= 1 + x.a + x.s then x.rn - 1
            else x.a + x.s + 1 + x.wi end as uk,
       case when x.rn = 1 then null
            when x.rn <= 1 + x.a then 1
            when x.rn <= 1 + x.a + x.s then 2 + (x.rn - 2 - x.a) % x.a
            when x.t = 0 then x.a + 2 + x.wi % x.s
            when x.t < (x.pw + 19) / 20 then 2 + x.a + x.s + x.wi
            else 2 + x.a + x.s + ((x.t - (x.pw + 19) / 20) % ((x.pw + 19) / 20)) * x.w + x.wi end as manager_rn
from watches x;
create index on scale_places (org_k, rn);
analyze scale_places;

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
  select p.i, p.h1, p.h2, p.service, p.organisation_id, p.org_k, pl.q, u.id as unit_id, mp.i as manager_i
  from scale_people p
  join scale_places pl on pl.i = p.i
  join scale_units u on u.org_k = p.org_k and u.uk = pl.uk
  left join scale_places mp on mp.org_k = pl.org_k and mp.rn = pl.manager_rn
)
select p.i,
       (lpad(to_hex(p.i), 8, '0') || '-5ca1-4000-8000-000000000001')::uuid as id,
       n.first[1 + floor(p.h1 * array_length(n.first, 1))::int] as first_name,
       n.last[1 + floor(p.h2 * array_length(n.last, 1))::int] as last_name,
       case when p.q >= 0 and p.q % 400 = 37 then 'ADMIN' when p.i % 100 between 1 and 4 then 'INSTRUCTOR'
            else 'STUDENT' end::public.user_role as role,
       p.service, p.organisation_id, p.unit_id,
       (lpad(to_hex(p.manager_i), 8, '0') || '-5ca1-4000-8000-000000000001')::uuid as manager_id,
       -- Joined over the last three years, oldest first.
       now() - interval '1095 days' + (p.i::float8 / {{users}}) * interval '1090 days' as created_at
from people p, names n;

alter table scale_users add column username text, add column email text, add column name text,
  add column services public.service_code[];
update scale_users u set
  username = lower(regexp_replace(u.first_name || '.' || u.last_name, '[^A-Za-z.]', '', 'g')) || u.i,
  name = u.first_name || ' ' || u.last_name,
  services = case
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

insert into public.profiles (id, username, email, name, role, services, organisation_id, unit_id, manager_id,
  created_at, updated_at)
select u.id, u.username, u.email, u.name, u.role, u.services, u.organisation_id, u.unit_id, u.manager_id,
  u.created_at, u.created_at
from scale_users u order by u.i;

-- The words of the admin user search, as the profiles' statement trigger writes them
-- (private.index_profile_words).
insert into private.profile_search_words (word, profile_id, created_at)
select t.word, u.id, u.created_at
from scale_users u
cross join lateral private.profile_words(u.name, u.username, u.email) t(word);
