-- scim_preferred_language: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.scim_create_user (
  p_token text,
  p_user  jsonb
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_org uuid := private.scim_token_organisation(p_token);
  v_service public.service_code;
  v_id uuid := gen_random_uuid();
  v_user_name text := nullif(btrim(p_user ->> 'userName'), '');
  v_external_id text := nullif(p_user ->> 'externalId', '');
  v_given text := nullif(btrim(p_user ->> 'givenName'), '');
  v_family text := nullif(btrim(p_user ->> 'familyName'), '');
  v_email text := nullif(lower(btrim(p_user ->> 'email')), '');
  v_name text;
  v_username text;
  v_unit uuid;
  v_manager uuid;
  v_returning uuid;
begin
  if v_user_name is null or char_length(v_user_name) > 255 then
    raise exception 'userName is required (at most 255 characters)' using errcode = '22023', hint = 'userName';
  end if;
  if char_length(v_external_id) > 255 then
    raise exception 'externalId must be at most 255 characters' using errcode = '22023', hint = 'externalId';
  end if;
  if v_email is not null and (char_length(v_email) > 255 or v_email !~ '^[^@\s]+@[^@\s]+$') then
    raise exception 'The email is not a valid address' using errcode = '22023', hint = 'email';
  end if;
  v_name := private.scim_person_name(p_user, v_given, v_family, v_user_name);
  -- Serialises creates of one userName in the organisation, so two at once cannot both pass the check.
  perform pg_advisory_xact_lock(hashtext('scim user ' || v_org::text || ' ' || lower(v_user_name)));
  -- A leaver SCIM removed (DELETE keeps the person, deactivated and unlinked) who comes back with
  -- the same email is the same person: linked again and reactivated with their training records,
  -- not made a second account.
  if v_email is not null then
    select p.id into v_returning from public.profiles p
    where lower(p.email) = v_email and p.organisation_id = v_org and p.deactivated_at is not null
      and not exists (select 1 from private.scim_users s where s.profile_id = p.id)
    limit 1;
  end if;
  if v_returning is not null then
    perform private.scim_check_unique(v_org, v_returning, v_user_name, v_external_id, v_email);
    insert into private.scim_users (profile_id, organisation_id, user_name, external_id, given_name, family_name)
    values (v_returning, v_org, v_user_name, v_external_id, v_given, v_family);
    perform private.scim_keep_statistics();
    perform private.scim_write_user(v_org, v_returning,
      p_user || jsonb_build_object('active', (p_user -> 'active') is distinct from 'false'::jsonb));
    return private.scim_user_page(v_org, v_returning, null, null, 0, 1) -> 'items' -> 0;
  end if;
  perform private.scim_check_unique(v_org, null, v_user_name, v_external_id, v_email);
  v_unit := private.scim_department_unit(v_org, p_user ->> 'department');
  v_manager := private.scim_manager_id(v_org, p_user ->> 'manager');
  select o.service into v_service from public.organisations o where o.id = v_org;

  -- The sign-in name: the userName's local part as the profile's rules allow, made unique.
  v_username := left(regexp_replace(split_part(v_user_name, '@', 1), '[^A-Za-z0-9._-]', '', 'g'), 40);
  if char_length(v_username) < 3 then
    v_username := v_username || 'user';
  end if;
  if exists (select 1 from public.profiles p where lower(p.username) = lower(v_username)) then
    v_username := v_username || '-' || left(replace(v_id::text, '-', ''), 8);
  end if;

  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
    confirmation_token, recovery_token, email_change_token_new, email_change,
    raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at, is_anonymous)
  values ('00000000-0000-0000-0000-000000000000'::uuid, v_id, 'authenticated', 'authenticated', v_email,
    null, case when v_email is not null then now() end, '', '', '', '',
    jsonb_build_object('provider', 'email', 'providers', jsonb_build_array('email'), 'scim', true),
    jsonb_build_object('username', v_username, 'name', v_name)
      || case when p_user ->> 'preferredLanguage' = 'cy' then '{"language": "cy"}'::jsonb else '{}'::jsonb end,
    false, now(), now(), false);
  if v_email is not null then
    insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
    values (v_id::text, v_id,
      jsonb_build_object('sub', v_id::text, 'email', v_email, 'email_verified', true, 'phone_verified', false),
      'email', null, now(), now());
  end if;
  -- The required-training triggers enrol them as they are placed.
  update public.profiles p
  set organisation_id = v_org, unit_id = v_unit, manager_id = v_manager, services = array[v_service]
  where p.id = v_id;
  insert into private.scim_users (profile_id, organisation_id, user_name, external_id, given_name, family_name)
  values (v_id, v_org, v_user_name, v_external_id, v_given, v_family);
  perform private.scim_keep_statistics();
  if (p_user -> 'active') = 'false'::jsonb then
    perform private.switch_user_active(v_id, false);
  end if;
  return private.scim_user_page(v_org, v_id, null, null, 0, 1) -> 'items' -> 0;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_replace_user (
  p_token text,
  p_id    uuid,
  p_user  jsonb
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_org uuid := private.scim_token_organisation(p_token);
  -- A replacement clears what it leaves out (but never the userName, which it must give).
  v_all jsonb := jsonb_build_object('externalId', null, 'givenName', null, 'familyName', null, 'formatted', null,
                                    'displayName', null, 'email', null, 'department', null, 'manager', null,
                                    'preferredLanguage', null);
begin
  if nullif(btrim(p_user ->> 'userName'), '') is null then
    raise exception 'userName is required' using errcode = '22023', hint = 'userName';
  end if;
  perform private.scim_write_user(v_org, p_id, v_all || p_user);
  return private.scim_user_page(v_org, p_id, null, null, 0, 1) -> 'items' -> 0;
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
      'preferredLanguage', p.language,
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

CREATE OR REPLACE FUNCTION private.scim_write_user (
  p_organisation_id uuid,
  p_profile_id      uuid,
  p_user            jsonb
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_link private.scim_users%rowtype;
  v_profile public.profiles%rowtype;
  v_user_name text;
  v_external_id text;
  v_given text;
  v_family text;
  v_name text;
  v_email text;
  v_unit uuid;
  v_manager uuid;
  v_language text;
  v_old jsonb;
  v_new jsonb;
begin
  select * into v_link from private.scim_users s
  where s.profile_id = p_profile_id and s.organisation_id = p_organisation_id for update;
  select * into v_profile from public.profiles p
  where p.id = p_profile_id and p.organisation_id = p_organisation_id for update;
  if v_link.profile_id is null or v_profile.id is null then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  v_user_name := case when p_user ? 'userName' then nullif(btrim(p_user ->> 'userName'), '') else v_link.user_name end;
  if v_user_name is null then
    raise exception 'userName is required' using errcode = '22023', hint = 'userName';
  end if;
  v_external_id := case when p_user ? 'externalId' then nullif(p_user ->> 'externalId', '') else v_link.external_id end;
  v_given := case when p_user ? 'givenName' then nullif(btrim(p_user ->> 'givenName'), '') else v_link.given_name end;
  v_family := case when p_user ? 'familyName' then nullif(btrim(p_user ->> 'familyName'), '') else v_link.family_name end;
  -- The name follows its parts when a request gives one; a new userName alone keeps it.
  v_name := case when p_user ?| array['givenName', 'familyName', 'formatted', 'displayName']
                 then private.scim_person_name(p_user, v_given, v_family, v_user_name) else v_profile.name end;
  v_email := case when p_user ? 'email' then nullif(lower(btrim(p_user ->> 'email')), '') else nullif(v_profile.email, '') end;
  v_unit := case when p_user ? 'department' then private.scim_department_unit(p_organisation_id, p_user ->> 'department')
                 else v_profile.unit_id end;
  v_manager := case when p_user ? 'manager' then private.scim_manager_id(p_organisation_id, p_user ->> 'manager')
                    else v_profile.manager_id end;
  if v_manager = p_profile_id then
    raise exception 'A person cannot be their own manager' using errcode = '22023', hint = 'manager';
  end if;
  -- preferredLanguage arrives as the API reads it (cy for any Welsh tag); anything else is English.
  v_language := case when p_user ? 'preferredLanguage'
                     then case when p_user ->> 'preferredLanguage' = 'cy' then 'cy' else 'en-GB' end
                     else v_profile.language end;
  perform private.scim_check_unique(p_organisation_id, p_profile_id, v_user_name, v_external_id, v_email);

  v_old := jsonb_strip_nulls(jsonb_build_object('userName', v_link.user_name, 'externalId', v_link.external_id,
    'name', v_profile.name, 'email', nullif(v_profile.email, ''), 'unitId', v_profile.unit_id, 'managerId', v_profile.manager_id,
    'givenName', v_link.given_name, 'familyName', v_link.family_name, 'language', v_profile.language));
  v_new := jsonb_strip_nulls(jsonb_build_object('userName', v_user_name, 'externalId', v_external_id,
    'name', v_name, 'email', v_email, 'unitId', v_unit, 'managerId', v_manager,
    'givenName', v_given, 'familyName', v_family, 'language', v_language));
  if v_old is distinct from v_new then
    update private.scim_users s
    set user_name = v_user_name, external_id = v_external_id, given_name = v_given, family_name = v_family, updated_at = now()
    where s.profile_id = p_profile_id;
    if v_name is distinct from v_profile.name or v_unit is distinct from v_profile.unit_id
       or v_manager is distinct from v_profile.manager_id or v_language is distinct from v_profile.language then
      update public.profiles p set name = v_name, unit_id = v_unit, manager_id = v_manager, language = v_language
      where p.id = p_profile_id;
    end if;
    if v_email is distinct from nullif(v_profile.email, '') then
      -- The sign-in email; the profile follows it (private.sync_profile_email).
      update auth.users a set email = v_email, updated_at = now() where a.id = p_profile_id;
      update auth.identities i set identity_data = i.identity_data || jsonb_build_object('email', v_email), updated_at = now()
      where i.user_id = p_profile_id and i.provider = 'email';
      if not found and v_email is not null then
        insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
        values (p_profile_id::text, p_profile_id,
          jsonb_build_object('sub', p_profile_id::text, 'email', v_email, 'email_verified', true, 'phone_verified', false),
          'email', null, now(), now());
      end if;
    end if;
    -- Only what changed, old beside new.
    perform private.write_audit('user.updated', 'user', p_profile_id, v_profile.username,
      (select jsonb_object_agg(o.key, o.value) from jsonb_each(v_old) o where o.value is distinct from v_new -> o.key),
      (select jsonb_object_agg(n.key, n.value) from jsonb_each(v_new) n where n.value is distinct from v_old -> n.key));
  end if;
  -- active left out or null leaves the person as they are.
  if jsonb_typeof(p_user -> 'active') = 'boolean' then
    perform private.switch_user_active(p_profile_id, (p_user ->> 'active')::boolean);
  elsif jsonb_typeof(p_user -> 'active') is distinct from 'null' and p_user ? 'active' then
    raise exception 'active must be true or false' using errcode = '22023', hint = 'active';
  end if;
end;
$function$;
