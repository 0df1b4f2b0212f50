-- faster_scim_patch: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.scim_department_unit (
  p_organisation_id uuid,
  p_department      text
)
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_unit uuid;
begin
  if p_department is null or btrim(p_department) = '' then
    return null;
  end if;
  -- Each unit of the name climbs to its root one parent at a time, each parent read by its primary
  -- key (a join here was planned as a hash of every unit of the platform, twice); the row left at
  -- the root carries the unit's depth.
  with recursive depth(id, created_at, parent_id, n) as (
    select u.id, u.created_at, u.parent_id, 0 from public.units u
    where u.organisation_id = p_organisation_id and lower(u.name) = lower(btrim(p_department))
    union all
    select d.id, d.created_at, (select a.parent_id from public.units a where a.id = d.parent_id), d.n + 1
    from depth d where d.parent_id is not null and d.n < 64
  )
  select d.id into v_unit from depth d where d.parent_id is null
  order by d.n, d.created_at, d.id limit 1;
  if v_unit is null then
    raise exception 'No unit of the organisation is named "%"', left(btrim(p_department), 200)
      using errcode = '22023', hint = 'department';
  end if;
  return v_unit;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_user_page (
  p_organisation_id uuid,
  p_id              uuid,
  p_user_name       text,
  p_external_id     text,
  p_offset          integer,
  p_limit           integer
)
  RETURNS jsonb
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  SET plan_cache_mode TO 'force_generic_plan'
  AS $function$
declare
  v_offset integer := greatest(coalesce(p_offset, 0), 0);
  v_limit integer := least(greatest(coalesce(p_limit, 100), 0), 200);
  v_total integer;
  v_ids uuid[];
  v_items jsonb;
begin
  if p_id is not null then
    v_ids := array(select s.profile_id from private.scim_users s
                   where s.profile_id = p_id and s.organisation_id = p_organisation_id);
  elsif p_user_name is not null then
    v_ids := array(select s.profile_id from private.scim_users s
                   where s.organisation_id = p_organisation_id and lower(s.user_name) = lower(p_user_name));
  elsif p_external_id is not null then
    v_ids := array(select s.profile_id from private.scim_users s
                   where s.organisation_id = p_organisation_id and s.external_id = p_external_id);
  end if;
  if v_ids is not null then
    v_total := cardinality(v_ids);
    v_ids := v_ids[v_offset + 1 : v_offset + v_limit];
  else
    select count(*) into v_total from private.scim_users s where s.organisation_id = p_organisation_id;
    v_ids := array(select s.profile_id from private.scim_users s where s.organisation_id = p_organisation_id
                   order by s.created_at, s.profile_id offset v_offset limit v_limit);
  end if;
  select coalesce(jsonb_agg(r.item order by r.n), '[]'::jsonb) into v_items from (
    select x.n, jsonb_strip_nulls(jsonb_build_object(
      'id', p.id,
      'externalId', s.external_id,
      'userName', s.user_name,
      'displayName', p.name,
      'name', jsonb_build_object('formatted', p.name, 'givenName', s.given_name, 'familyName', s.family_name),
      'active', p.deactivated_at is null,
      'emails', case when p.email <> '' then jsonb_build_array(jsonb_build_object('value', p.email, 'type', 'work', 'primary', true)) end,
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User', jsonb_build_object(
        'department', u.name,
        'manager', case when p.manager_id is not null then jsonb_build_object('value', p.manager_id, 'displayName', m.name) end),
      'meta', jsonb_build_object('resourceType', 'User', 'created', s.created_at,
                                 'lastModified', greatest(s.updated_at, p.updated_at))
    )) as item
    from unnest(v_ids) with ordinality as x(id, n)
    join private.scim_users s on s.profile_id = x.id and s.organisation_id = p_organisation_id
    join public.profiles p on p.id = s.profile_id and p.organisation_id = p_organisation_id
    left join public.units u on u.id = p.unit_id
    left join public.profiles m on m.id = p.manager_id
  ) r;
  return jsonb_build_object('total', v_total, 'items', v_items);
end;
$function$;
