-- national_summary_kept: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

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
  v_national boolean;
  v_each uuid;
begin
  perform private.require_compliance_viewer();
  v_organisation := private.compliance_organisation(p_organisation_id);
  v_national := private.is_admin();
  -- A national administrator's national summary: every organisation's kept counts (each computed
  -- again first when out of date) added up, with the people of no organisation counted by the rule.
  -- Everyone belongs to at most one organisation, so the sums are the national figures. (A refresh
  -- needs a snapshot per statement: in a transaction of one snapshot the whole is computed.)
  if v_national and v_organisation is null and p_role is null and p_unit_id is null
     and current_setting('transaction_isolation') = 'read committed' then
    for v_each in select o.id from public.organisations o order by o.id loop
      if not private.compliance_summary_is_current(v_each) then
        perform private.refresh_compliance_summary(v_each);
      end if;
    end loop;
    return query
      with parts as (
        select k.service, k.course_id, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
        from private.compliance_summary_counts k
        where k.organisation_id in (select o.id from public.organisations o)
          and (p_service is null or k.service = p_service)
          and (p_course_id is null or k.course_id = p_course_id)
        union all
        select r.service, r.course_id, r.people, r.compliant, r.due_soon, r.overdue, r.in_progress
        from private.compliance_summary_rows(p_service, null, p_course_id, '00000000-0000-0000-0000-000000000000'::uuid,
                                             null, true, false) r
      )
      select s.service, s.course_id, c.title, sum(s.people)::bigint, sum(s.compliant)::bigint,
             sum(s.due_soon)::bigint, sum(s.overdue)::bigint, sum(s.in_progress)::bigint
      from parts s
      join public.courses c on c.id = s.course_id
      group by s.service, s.course_id, c.title
      order by s.service nulls last, c.title, s.course_id;
    return;
  end if;
  if v_organisation is not null and p_role is null and p_unit_id is null
     and (v_national or v_organisation = private.administered_organisation_id())
     and exists (select 1 from public.organisations o where o.id = v_organisation) then
    return query
      select k.service, k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
      from private.compliance_summary_of_organisation(v_organisation) k
      join public.courses c on c.id = k.course_id
      where (p_service is null or k.service = p_service)
        and (p_course_id is null or k.course_id = p_course_id)
      order by k.service nulls last, c.title, k.course_id;
    return;
  end if;
  return query
    select r.service, r.course_id, r.course_title, r.people, r.compliant, r.due_soon, r.overdue, r.in_progress
    from private.compliance_summary_rows(p_service, p_role, p_course_id, v_organisation, p_unit_id, v_national, false) r;
end;
$function$;

CREATE OR REPLACE FUNCTION private.required_training_states_query()
  RETURNS text
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$ select $q$
  with me as materialized (
    -- an organisation's kept states are of all its people, whoever's request refreshes them
    select (select auth.uid()) as uid, private.is_admin() or private.compliance_refresh_running() as admin,
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
      -- the nil uuid: the people of no organisation (the national summary counts them apart)
      and ($5::uuid is null or p.organisation_id = $5
           or ($5 = '00000000-0000-0000-0000-000000000000'::uuid and p.organisation_id is null))
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
