-- faster_compliance_summary: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.compliance_people (
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid,
  p_status          text                DEFAULT NULL::text,
  p_limit           integer             DEFAULT 20,
  p_offset          integer             DEFAULT 0,
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    user_id                uuid,
    username               text,
    name                   text,
    email                  text,
    role                   public.user_role,
    services               public.service_code[],
    course_id              uuid,
    course_title           text,
    progress               integer,
    due_at                 timestamp with time zone,
    status                 text,
    certificate_expires_at timestamp with time zone,
    total                  bigint
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
declare
  v_national boolean;
  v_organisation uuid;
begin
  perform private.require_compliance_viewer();
  v_national := private.is_admin();
  v_organisation := private.compliance_organisation(p_organisation_id);
  perform private.required_training_join_by_hash(null, v_organisation, p_unit_id);
  -- Inside the status rule's own statement. Only the rows that can reach the page (up to it by
  -- urgency and due date, with ties) are named and sorted by name: the order over all rows decides
  -- among ties exactly as before, without every person's name and course title joined and sorted.
  return query execute private.required_training_states_query() || $q$,
  chosen as (
    select st.user_id, st.services, st.course_id, st.progress, st.due_at, st.status, st.certificate_expires_at,
           -- private.required_training_status_rank, written out (a function call per row costs at national size)
           case st.status when 'overdue' then 1 when 'due-soon' then 2 when 'in-progress' then 3 else 4 end as urgency,
           count(*) over () as total
    from statuses st
    where ($8::text is null or st.status = $8)
      and ($7 or private.compliance_in_scope($2, st.services, st.organisation_id))
  ),
  reaching as (
    select ch.* from chosen ch
    order by ch.urgency, ch.due_at nulls last
    fetch first ($9::bigint + $10) rows with ties
  )
  select r.user_id, p.username, p.name, case when me.admin or p.id = me.uid then p.email end, p.role, r.services,
         r.course_id, c.title, r.progress, r.due_at, r.status, r.certificate_expires_at, r.total
  from reaching r
  cross join me
  join public.profiles p on p.id = r.user_id
  join public.courses c on c.id = r.course_id
  order by r.urgency, r.due_at nulls last, p.name, r.user_id, c.title
  limit $9 offset $10 $q$
  using null::uuid, p_service, p_role, p_course_id, v_organisation, p_unit_id, v_national, p_status,
        greatest(p_limit, 0), greatest(p_offset, 0);
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_summary (
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid,
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    service      public.service_code,
    course_id    uuid,
    course_title text,
    people       bigint,
    compliant    bigint,
    due_soon     bigint,
    overdue      bigint,
    in_progress  bigint
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
declare
  v_organisation uuid;
begin
  perform private.require_compliance_viewer();
  v_organisation := private.compliance_organisation(p_organisation_id);
  perform private.required_training_join_by_hash(null, v_organisation, p_unit_id);
  -- Counted inside the status rule's own statement; the scope rule only for those who are not
  -- national administrators (who see everyone).
  -- The people are counted first by placement, course and status (grouped by a number, each status
  -- worked out once), then by what the counts depend on (services, organisation, course and status:
  -- a few hundred groups nationally, so that the scope is checked once per group), then each group
  -- is counted under each of its services.
  return query execute private.required_training_states_query() || $q$,
  grouped as (
    select k.services, k.organisation_id, g.course_id, g.status, sum(g.n)::bigint as n
    from (
      select st.placement, st.course_id, st.status, count(*) as n
      from statuses st
      group by st.placement, st.course_id, st.status
    ) g
    join placements k on k.placement = g.placement
    group by k.services, k.organisation_id, g.course_id, g.status
  ),
  counted as (
    select s.service, g.course_id,
           sum(g.n)::bigint as people,
           coalesce(sum(g.n) filter (where g.status = 'done'), 0)::bigint as compliant,
           coalesce(sum(g.n) filter (where g.status = 'due-soon'), 0)::bigint as due_soon,
           coalesce(sum(g.n) filter (where g.status = 'overdue'), 0)::bigint as overdue,
           coalesce(sum(g.n) filter (where g.status = 'in-progress'), 0)::bigint as in_progress
    from grouped g
    -- each of the people's services (one row of no service for people of none)
    cross join lateral unnest(case when cardinality(g.services) = 0 then array[null]::public.service_code[]
                                   else g.services end) s(service)
    where ($2::public.service_code is null or s.service = $2)
      and ($7 or private.compliance_in_scope($2, array_remove(array[s.service], null), g.organisation_id))
    group by s.service, g.course_id
  )
  select k.service, k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
  from counted k
  join public.courses c on c.id = k.course_id
  order by k.service nulls last, c.title, k.course_id $q$
  using null::uuid, p_service, p_role, p_course_id, v_organisation, p_unit_id, private.is_admin();
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_units (
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid,
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    organisation_id uuid,
    unit_id         uuid,
    name            text,
    has_units       boolean,
    course_id       uuid,
    course_title    text,
    people          bigint,
    compliant       bigint,
    due_soon        bigint,
    overdue         bigint,
    in_progress     bigint
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
declare
  v_national boolean;
  v_organisation uuid;
begin
  perform private.require_compliance_viewer();
  v_national := private.is_admin();
  if not v_national and private.administered_organisation_id() is null then
    raise exception 'Only administrators can see compliance by unit' using errcode = '42501';
  end if;
  v_organisation := private.compliance_organisation(p_organisation_id);
  if v_organisation is not null and not (v_national or v_organisation = private.administered_organisation_id())
     or v_organisation is not null and not exists (select 1 from public.organisations o where o.id = v_organisation) then
    raise exception 'Organisation not found' using errcode = 'P0002';
  end if;
  if p_unit_id is not null and not exists (
    select 1 from public.units u where u.id = p_unit_id and u.organisation_id = v_organisation
  ) then
    raise exception 'Unit not found' using errcode = 'P0002';
  end if;
  perform private.required_training_join_by_hash(null, v_organisation, p_unit_id);
  if v_organisation is null then
    return query execute private.required_training_states_query() || $q$,
    grouped as (
      select k.organisation_id, g.course_id, g.status, g.n
      from (
        select st.placement, st.course_id, st.status, count(*) as n
        from statuses st
        group by st.placement, st.course_id, st.status
      ) g
      join placements k on k.placement = g.placement
    ),
    counted as (
      select g.organisation_id as group_id, g.course_id,
             sum(g.n)::bigint as people,
             coalesce(sum(g.n) filter (where g.status = 'done'), 0)::bigint as compliant,
             coalesce(sum(g.n) filter (where g.status = 'due-soon'), 0)::bigint as due_soon,
             coalesce(sum(g.n) filter (where g.status = 'overdue'), 0)::bigint as overdue,
             coalesce(sum(g.n) filter (where g.status = 'in-progress'), 0)::bigint as in_progress
      from grouped g
      group by g.organisation_id, g.course_id
    )
    select k.group_id, null::uuid, o.name,
           exists (select 1 from public.units u where u.organisation_id = k.group_id),
           k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
    from counted k
    left join public.organisations o on o.id = k.group_id
    join public.courses c on c.id = k.course_id
    order by k.group_id is null, o.name, k.group_id, c.title, k.course_id $q$
    using null::uuid, p_service, p_role, p_course_id, null::uuid, null::uuid;
  else
    return query execute private.required_training_states_query() || $q$,
    groups as (
      select ch.id as group_id, s.unit as unit_id
      from public.units ch
      cross join lateral private.unit_subtree(ch.id) s(unit)
      where ch.organisation_id = $5 and ch.parent_id is not distinct from $6
      union all
      select $6, $6 where $6::uuid is not null
    ),
    grouped as (
      select k.unit_id, k.services, k.organisation_id, g.course_id, g.status, sum(g.n)::bigint as n
      from (
        select st.placement, st.course_id, st.status, count(*) as n
        from statuses st
        group by st.placement, st.course_id, st.status
      ) g
      join placements k on k.placement = g.placement
      group by k.unit_id, k.services, k.organisation_id, g.course_id, g.status
    ),
    counted as (
      select gr.group_id, st.course_id,
             sum(st.n)::bigint as people,
             coalesce(sum(st.n) filter (where st.status = 'done'), 0)::bigint as compliant,
             coalesce(sum(st.n) filter (where st.status = 'due-soon'), 0)::bigint as due_soon,
             coalesce(sum(st.n) filter (where st.status = 'overdue'), 0)::bigint as overdue,
             coalesce(sum(st.n) filter (where st.status = 'in-progress'), 0)::bigint as in_progress
      from grouped st
      left join groups gr on gr.unit_id = st.unit_id
      where ($7 or private.compliance_in_scope($2, st.services, st.organisation_id))
      group by gr.group_id, st.course_id
    )
    select $5, k.group_id, u.name,
           k.group_id is distinct from $6 and exists (select 1 from public.units d where d.parent_id = k.group_id),
           k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
    from counted k
    left join public.units u on u.id = k.group_id
    join public.courses c on c.id = k.course_id
    order by k.group_id is not distinct from $6 desc, k.group_id is null, u.name, k.group_id, c.title, k.course_id $q$
    using null::uuid, p_service, p_role, p_course_id, v_organisation, p_unit_id, v_national;
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION private.required_training_states_query()
  RETURNS text
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$ select $q$
  with me as materialized (
    select (select auth.uid()) as uid, private.is_admin() as admin,
           private.current_role() as role, private.current_services() as services,
           private.administered_organisation_id() as admin_org, private.current_organisation_id() as org
  ),
  rules as materialized (
    select r.course_id, r.role, r.service, r.organisation_id,
           case when r.unit_id is not null then array(select private.unit_subtree(r.unit_id)) end as units,
           r.created_at, r.due_within_days, r.renew_before_days
    from public.required_training r
    join public.courses c on c.id = r.course_id and c.status = 'ACTIVE'
    where ($4::uuid is null or r.course_id = $4)
  ),
  visible as materialized (
    select p.id, p.role, p.services, p.organisation_id, p.unit_id, p.created_at
    from public.profiles p
    cross join me
    where me.uid is not null and p.deactivated_at is null
      and ($1::uuid is null or p.id = $1)
      and ($5::uuid is null or p.organisation_id = $5)
      and ($3::public.user_role is null or p.role = $3)
      and ($2::public.service_code is null or p.services @> array[$2])
      and ($6::uuid is null or p.unit_id in (select private.unit_subtree($6)))
      and (me.admin or p.id = me.uid
           or (me.role = 'INSTRUCTOR' and p.services && me.services and (me.org is null or p.organisation_id = me.org))
           or p.organisation_id = me.admin_org
           or p.id in (select private.managed_person_ids()))
  ),
  -- The placements (role, services, organisation, unit) the people share, each given a number: a
  -- few thousand at national size, not 100,000 people.
  placements as materialized (
    select row_number() over () as placement, k.role, k.services, k.organisation_id, k.unit_id
    from (select distinct v.role, v.services, v.organisation_id, v.unit_id from visible v) k
  ),
  -- The rules are matched once per placement. Per placement and course: the rules' days to
  -- complete (one value in practice, then the earliest rule decides; else each rule's created_at and
  -- days, for the earliest due date per person) and the longest renewal period. The match is one
  -- CASE, which the planner counts as matching half the pairs (its own estimate of the ORs was one
  -- row, and it then built its hash tables on the people's side).
  placed as (
    select k.placement, r.course_id,
           min(r.due_within_days) = max(r.due_within_days) as same_days,
           min(r.created_at) + make_interval(days => min(r.due_within_days)) as first_rule_due,
           make_interval(days => min(r.due_within_days)) as due_within,
           make_interval(days => max(r.renew_before_days)) as renew_before,
           count(*) as rule_count,
           array_agg(r.created_at) as rule_created, array_agg(r.due_within_days) as rule_days
    from placements k
    join rules r
      on case when (r.role is null or k.role = r.role) and (r.service is null or k.services @> array[r.service])
                   and (r.organisation_id is null or k.organisation_id = r.organisation_id)
                   and (r.units is null or k.unit_id = any (r.units))
              then true else false end
    group by k.placement, r.course_id
  ),
  -- Two rules (a course required twice, with different periods), the common case of several:
  -- each rule's created_at and days as columns, so that a person's due date is one least() rather
  -- than a subquery per person.
  placed2 as (
    select pl.*,
           case when pl.rule_count = 2 then pl.rule_created[1] end as created_1,
           case when pl.rule_count = 2 then make_interval(days => pl.rule_days[1]) end as days_1,
           case when pl.rule_count = 2 then pl.rule_created[2] end as created_2,
           case when pl.rule_count = 2 then make_interval(days => pl.rule_days[2]) end as days_2
    from placed pl
  ),
  -- Each person with their placement's number: hashed by unit (else organisation) and role, the
  -- rest of the placement compared inside a CASE (so that the planner expects many people per
  -- placement: with every column a join key it expected one, and then built its hash tables on the
  -- people's side rather than on the enrolments' and certificates').
  people as (
    select p.id, p.services, p.organisation_id, p.unit_id, p.created_at, k.placement
    from visible p
    join placements k
      on coalesce(k.unit_id, k.organisation_id, '00000000-0000-0000-0000-000000000000'::uuid)
         = coalesce(p.unit_id, p.organisation_id, '00000000-0000-0000-0000-000000000000'::uuid)
         and k.role = p.role
         and case when k.services = p.services and k.organisation_id is not distinct from p.organisation_id
                       and k.unit_id is not distinct from p.unit_id
                  then true else false end
  ),
  -- The latest certificate not revoked of each person and required course.
  certs as (
    select distinct on (ct.user_id, ct.course_id) ct.user_id, ct.course_id, ct.id, ct.expires_at
    from public.certificates ct
    where ct.revoked_at is null
      and ct.course_id = any ((select array_agg(r.course_id) from rules r)::uuid[])
      and ($1::uuid is null or ct.user_id = $1)
    order by ct.user_id, ct.course_id, ct.issued_at desc
  ),
  judged as (
    select p.id as user_id, p.services, p.organisation_id, p.unit_id, m.course_id, p.placement,
           e.id as enrollment_id, coalesce(e.progress, 0) as progress,
           cert.id as certificate_id, cert.expires_at as certificate_expires_at,
           -- valid or expiring (private.certificate_state of a certificate not revoked)
           cert.id is not null and (cert.expires_at is null or cert.expires_at > now()) as certified,
           case
             -- the earliest of greatest(rule created, enrolled or joined) + the rule's days
             when cert.id is null then
               case when m.same_days
                    then greatest(m.first_rule_due, coalesce(e.created_at, p.created_at) + m.due_within)
                    when m.rule_count = 2
                    then least(greatest(m.created_1, coalesce(e.created_at, p.created_at)) + m.days_1,
                               greatest(m.created_2, coalesce(e.created_at, p.created_at)) + m.days_2)
                    else (select min(greatest(x.created_at, coalesce(e.created_at, p.created_at))
                                     + make_interval(days => x.days))
                          from unnest(m.rule_created, m.rule_days) x(created_at, days))
               end
             when cert.expires_at is null then null
             when cert.expires_at <= now() then cert.expires_at
             else cert.expires_at - m.renew_before
           end as due_at
    from people p
    join placed2 m on m.placement = p.placement
    left join (
      select en.id, en.user_id, en.course_id, en.progress, en.created_at from public.enrollments en
      where en.course_id = any ((select array_agg(rc.course_id) from rules rc)::uuid[])
        and ($1::uuid is null or en.user_id = $1)
        -- an organisation's or a unit's: only its people's (a few thousand to hash, not every enrolment)
        and ($5::uuid is null or en.user_id in (select v.id from visible v))
    ) e on e.user_id = p.id and e.course_id = m.course_id
    left join certs cert on cert.user_id = p.id and cert.course_id = m.course_id
    -- worked out once per row (not again in each use of due_at below)
    offset 0
  ),
  statuses as (
    select j.user_id, j.services, j.organisation_id, j.unit_id, j.course_id, j.placement, j.enrollment_id, j.progress,
           j.due_at,
           case
             when j.certified then
               case when j.due_at is null or j.due_at > now() + make_interval(days => private.required_training_due_soon_days())
                    then 'done' else 'due-soon' end
             when j.due_at <= now() then 'overdue'
             when j.due_at <= now() + make_interval(days => private.required_training_due_soon_days()) then 'due-soon'
             else 'in-progress'
           end as status,
           j.certificate_id, j.certificate_expires_at
    from judged j
  )
$q$ $function$;
