-- scim_statistics_kept_while_filling: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

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
    jsonb_build_object('username', v_username, 'name', v_name), false, now(), now(), false);
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

CREATE OR REPLACE FUNCTION private.scim_keep_statistics()
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if pg_relation_size('private.scim_users') / current_setting('block_size')::bigint
       > 2 * greatest((select c.relpages from pg_catalog.pg_class c where c.oid = 'private.scim_users'::regclass), 4)
     and pg_try_advisory_xact_lock(hashtext('private.scim_users statistics')) then
    analyze private.scim_users;
  end if;
end;
$function$;

COMMENT ON FUNCTION "private"."scim_keep_statistics"() IS 'Internal: analyses private.scim_users when it has grown to twice the pages of its statistics (one request at a time), so that no plan is made as if it were empty while a synchronisation fills it.';

REVOKE ALL ON FUNCTION "private"."scim_keep_statistics"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_keep_statistics"() TO "postgres";
