-- one_compliance_scope: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."compliance_practicals_organisation"(uuid, uuid);

CREATE OR REPLACE FUNCTION private.compliance_practical_people (
  p_organisation_id uuid    DEFAULT NULL::uuid,
  p_unit_id         uuid    DEFAULT NULL::uuid,
  p_state           text    DEFAULT NULL::text,
  p_limit           integer DEFAULT 20,
  p_offset          integer DEFAULT 0
)
  RETURNS TABLE (
    user_id         uuid,
    username        text,
    name            text,
    unit_name       text,
    course_id       uuid,
    course_title    text,
    course_title_cy text,
    module_id       uuid,
    module_title    text,
    module_title_cy text,
    signed_off_at   timestamp with time zone,
    valid_until     timestamp with time zone,
    state           text,
    total           bigint
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
#variable_conflict use_column
declare
  v_organisation uuid;
begin
  if p_state is not null and p_state not in ('overdue', 'due', 'awaiting-sign-off', 'valid') then
    raise exception 'State must be overdue, due, awaiting-sign-off or valid' using errcode = '22023';
  end if;
  v_organisation := private.compliance_scope(p_organisation_id, p_unit_id, 'Only administrators can see practical assessments in compliance');
  return query
    with people as materialized (
      select p.id, p.username, p.name, u.name as unit_name
      from public.profiles p
      left join public.units u on u.id = p.unit_id
      where p.deactivated_at is null
        and (v_organisation is null or p.organisation_id = v_organisation)
        and (p_unit_id is null or p.unit_id in (select private.unit_subtree(p_unit_id)))
    ),
    chosen as (
      select st.*, count(*) over () as total
      from private.practical_states(array(select pe.id from people pe), now()) st
      where p_state is null or st.state = p_state
    )
    select ch.user_id, pe.username, pe.name, pe.unit_name, ch.course_id, ch.course_title, ch.course_title_cy,
           ch.module_id, ch.module_title, ch.module_title_cy, ch.signed_off_at, ch.valid_until, ch.state, ch.total
    from chosen ch
    join people pe on pe.id = ch.user_id
    order by private.practical_state_rank(ch.state), ch.valid_until nulls first, pe.name, ch.user_id, ch.course_title, ch.module_id
    limit least(greatest(coalesce(p_limit, 20), 0), 100000) offset greatest(coalesce(p_offset, 0), 0);
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_practicals (
  p_organisation_id uuid DEFAULT NULL::uuid,
  p_unit_id         uuid DEFAULT NULL::uuid
)
  RETURNS TABLE (
    organisation_id uuid,
    unit_id         uuid,
    name            text,
    has_units       boolean,
    people          bigint,
    practicals      bigint,
    valid           bigint,
    due             bigint,
    overdue         bigint,
    awaiting        bigint
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
#variable_conflict use_column
declare
  v_organisation uuid := private.compliance_scope(p_organisation_id, p_unit_id, 'Only administrators can see practical assessments in compliance');
  v_now timestamptz := now();
begin
  if v_organisation is null then
    return query
      with st as materialized (
        select * from private.practical_states(array(
          select p.id from public.profiles p where p.deactivated_at is null), v_now)
      )
      select p.organisation_id, null::uuid, o.name,
             exists (select 1 from public.units u where u.organisation_id = p.organisation_id),
             count(distinct st.user_id), count(*),
             count(*) filter (where st.state = 'valid'), count(*) filter (where st.state = 'due'),
             count(*) filter (where st.state = 'overdue'), count(*) filter (where st.state = 'awaiting-sign-off')
      from st
      join public.profiles p on p.id = st.user_id
      left join public.organisations o on o.id = p.organisation_id
      group by p.organisation_id, o.name
      order by p.organisation_id is null, o.name, p.organisation_id;
    return;
  end if;
  return query
    with groups as (
      select ch.id as group_id, s.unit as unit_id
      from public.units ch
      cross join lateral private.unit_subtree(ch.id) s(unit)
      where ch.organisation_id = v_organisation and ch.parent_id is not distinct from p_unit_id
      union all
      select p_unit_id, p_unit_id where p_unit_id is not null
    ),
    placed as materialized (
      select p.id, g.group_id
      from public.profiles p
      left join groups g on g.unit_id = p.unit_id
      where p.organisation_id = v_organisation and p.deactivated_at is null
        and (p_unit_id is null or g.group_id is not null)
    ),
    st as materialized (
      select * from private.practical_states(array(select pl.id from placed pl), v_now)
    )
    select v_organisation, pl.group_id, u.name,
           pl.group_id is distinct from p_unit_id and exists (select 1 from public.units d where d.parent_id = pl.group_id),
           count(distinct st.user_id), count(*),
           count(*) filter (where st.state = 'valid'), count(*) filter (where st.state = 'due'),
           count(*) filter (where st.state = 'overdue'), count(*) filter (where st.state = 'awaiting-sign-off')
    from st
    join placed pl on pl.id = st.user_id
    left join public.units u on u.id = pl.group_id
    group by pl.group_id, u.name
    order by pl.group_id is not distinct from p_unit_id desc, pl.group_id is null, u.name, pl.group_id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_scope (
  p_organisation_id uuid,
  p_unit_id         uuid,
  p_refusal         text
)
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_national boolean;
  v_organisation uuid;
begin
  perform private.require_compliance_viewer();
  v_national := private.is_admin();
  if not v_national and private.administered_organisation_id() is null then
    raise exception '%', p_refusal using errcode = '42501';
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
  return v_organisation;
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
  v_organisation := private.compliance_scope(p_organisation_id, p_unit_id, 'Only administrators can see compliance by unit');
  v_national := private.is_admin();
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

COMMENT ON FUNCTION "private"."compliance_scope"(uuid, uuid, text) IS 'The organisation a by-unit view of compliance reads (null: national, all): administrators only (42501, p_refusal), their own organisation unless national (P0002 otherwise, and for a unit not of it).';

REVOKE ALL ON FUNCTION "private"."compliance_scope"(uuid, uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_scope"(uuid, uuid, text) TO "authenticated", "postgres", "service_role";
