-- scim_provisioning: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE TABLE "private"."scim_users" (
  "profile_id"      uuid                     NOT NULL,
  "organisation_id" uuid                     NOT NULL,
  "user_name"       text                     NOT NULL,
  "external_id"     text,
  "given_name"      text,
  "family_name"     text,
  "created_at"      timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at"      timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "scim_users_external_id_length" CHECK (((external_id IS NULL) OR ((char_length(external_id) >= 1) AND (char_length(external_id) <= 255)))),
  CONSTRAINT "scim_users_family_name_length" CHECK (((family_name IS NULL) OR (char_length(family_name) <= 200))),
  CONSTRAINT "scim_users_given_name_length" CHECK (((given_name IS NULL) OR (char_length(given_name) <= 200))),
  CONSTRAINT "scim_users_pkey" PRIMARY KEY (profile_id),
  CONSTRAINT "scim_users_user_name_length" CHECK (((char_length(user_name) >= 1) AND (char_length(user_name) <= 255))),
  CONSTRAINT "scim_users_user_name_trimmed" CHECK ((user_name = btrim(user_name)))
);

ALTER TABLE "private"."scim_users"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."scim_tokens" (
  "id"              uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "organisation_id" uuid                     NOT NULL,
  "label"           text                     NOT NULL,
  "token_hash"      bytea                    NOT NULL,
  "token_hint"      text                     NOT NULL,
  "created_by"      uuid,
  "created_at"      timestamp with time zone NOT NULL DEFAULT now(),
  "last_used_at"    timestamp with time zone,
  "revoked_at"      timestamp with time zone,
  CONSTRAINT "scim_tokens_hash_length" CHECK ((octet_length(token_hash) = 32)),
  CONSTRAINT "scim_tokens_hint_pattern" CHECK ((token_hint ~ '^[0-9a-f]{4}$'::text)),
  CONSTRAINT "scim_tokens_label_length" CHECK (((char_length(label) >= 1) AND (char_length(label) <= 80))),
  CONSTRAINT "scim_tokens_label_trimmed" CHECK ((label = btrim(label))),
  CONSTRAINT "scim_tokens_pkey" PRIMARY KEY (id),
  CONSTRAINT "scim_tokens_token_hash_key" UNIQUE (token_hash),
  CONSTRAINT "scim_tokens_label_visible" CHECK ((NOT private.has_invisible_characters(label)))
);

ALTER TABLE "public"."scim_tokens"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION private.check_administers_organisation (
  p_organisation_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if not private.is_admin() and private.administered_organisation_id() is distinct from p_organisation_id then
    raise exception 'Only the organisation''s administrators may manage its SCIM tokens' using errcode = '42501';
  end if;
  if not exists (select 1 from public.organisations o where o.id = p_organisation_id) then
    raise exception 'Organisation not found' using errcode = 'P0002';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION private.create_scim_token (
  p_organisation_id uuid,
  p_label           text
)
  RETURNS TABLE (
    token           text,
    id              uuid,
    organisation_id uuid,
    label           text,
    token_hint      text,
    created_by      uuid,
    created_at      timestamp with time zone,
    last_used_at    timestamp with time zone,
    revoked_at      timestamp with time zone
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
declare
  -- 256 random bits from pgcrypto (PGlite and Postgres alike), hex: nothing to escape in a header.
  v_token text := 'scim_' || encode(extensions.gen_random_bytes(32), 'hex');
  v_label text := btrim(coalesce(p_label, ''));
  v_row public.scim_tokens%rowtype;
begin
  perform private.check_administers_organisation(p_organisation_id);
  if char_length(v_label) not between 1 and 80 or private.has_invisible_characters(v_label) then
    raise exception 'The label must be 1 to 80 visible characters' using errcode = '22023', hint = 'label';
  end if;
  insert into public.scim_tokens (organisation_id, label, token_hash, token_hint, created_by)
  values (p_organisation_id, v_label, sha256(convert_to(v_token, 'UTF8')), right(v_token, 4), auth.uid())
  returning * into v_row;
  perform private.write_audit('scim_token.created', 'organisation', p_organisation_id, v_label, null,
    jsonb_build_object('tokenId', v_row.id, 'label', v_label, 'hint', v_row.token_hint));
  return query select v_token, v_row.id, v_row.organisation_id, v_row.label, v_row.token_hint, v_row.created_by,
                      v_row.created_at, v_row.last_used_at, v_row.revoked_at;
end;
$function$;

CREATE OR REPLACE FUNCTION private.revoke_scim_token (
  p_id uuid
)
  RETURNS TABLE (
    id              uuid,
    organisation_id uuid,
    label           text,
    token_hint      text,
    created_by      uuid,
    created_at      timestamp with time zone,
    last_used_at    timestamp with time zone,
    revoked_at      timestamp with time zone
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
declare
  v_row public.scim_tokens%rowtype;
begin
  select * into v_row from public.scim_tokens t where t.id = p_id for update;
  -- Another organisation's token reads as no token at all.
  if not found or not (private.is_admin() or v_row.organisation_id is not distinct from private.administered_organisation_id()) then
    if not private.is_admin() and not private.is_org_admin() then
      raise exception 'Only the organisation''s administrators may manage its SCIM tokens' using errcode = '42501';
    end if;
    raise exception 'Token not found' using errcode = 'P0002';
  end if;
  if v_row.revoked_at is null then
    update public.scim_tokens t set revoked_at = now() where t.id = p_id returning * into v_row;
    perform private.write_audit('scim_token.revoked', 'organisation', v_row.organisation_id, v_row.label, null,
      jsonb_build_object('tokenId', v_row.id, 'label', v_row.label, 'hint', v_row.token_hint));
  end if;
  -- Never the hash: only what the column grants let an administrator read.
  return query select v_row.id, v_row.organisation_id, v_row.label, v_row.token_hint, v_row.created_by,
                      v_row.created_at, v_row.last_used_at, v_row.revoked_at;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_audit_actor()
  RETURNS text
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_id text := nullif(current_setting('esl.scim_token_id', true), '');
begin
  if v_id is null or v_id !~ '^[0-9a-f-]{36}$' then
    return null;
  end if;
  return (select 'SCIM: ' || t.label from public.scim_tokens t where t.id = v_id::uuid);
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_check_unique (
  p_organisation_id uuid,
  p_profile_id      uuid,
  p_user_name       text,
  p_external_id     text,
  p_email           text
)
  RETURNS void
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if p_user_name is not null and exists (
    select 1 from private.scim_users s
    where s.organisation_id = p_organisation_id and lower(s.user_name) = lower(p_user_name)
      and s.profile_id is distinct from p_profile_id) then
    raise exception 'userName is already taken' using errcode = '23505', hint = 'userName';
  end if;
  if p_external_id is not null and exists (
    select 1 from private.scim_users s
    where s.organisation_id = p_organisation_id and s.external_id = p_external_id
      and s.profile_id is distinct from p_profile_id) then
    raise exception 'externalId is already taken' using errcode = '23505', hint = 'externalId';
  end if;
  -- An email signs in: one account each, whichever organisation holds it.
  if p_email is not null and (
       exists (select 1 from public.profiles p where lower(p.email) = p_email and p.id is distinct from p_profile_id)
       or exists (select 1 from auth.users a where a.email = p_email and a.is_sso_user = false
                  and a.id is distinct from p_profile_id)) then
    raise exception 'The email is already registered' using errcode = '23505', hint = 'email';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_create_group (
  p_token        text,
  p_display_name text,
  p_members      uuid[]
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_org uuid := private.scim_token_organisation(p_token);
  v_name text := btrim(normalize(coalesce(p_display_name, ''), NFC));
  v_id uuid;
begin
  if char_length(v_name) not between 1 and 200 or private.has_invisible_characters(v_name) then
    raise exception 'displayName must be 1 to 200 visible characters' using errcode = '22023', hint = 'displayName';
  end if;
  begin
    insert into public.units (organisation_id, parent_id, name) values (v_org, null, v_name) returning id into v_id;
  exception when unique_violation then
    raise exception 'A unit of that name is already there' using errcode = '23505', hint = 'displayName';
  end;
  perform private.write_audit('unit.created', 'unit', v_id, v_name, null, jsonb_build_object('name', v_name, 'organisationId', v_org));
  perform private.scim_place_members(v_org, p_members, v_id, null);
  return private.scim_group_page(v_org, v_id, null, 0, 1, true) -> 'items' -> 0;
end;
$function$;

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
  if (p_user -> 'active') = 'false'::jsonb then
    perform private.switch_user_active(v_id, false);
  end if;
  return private.scim_user_page(v_org, v_id, null, null, 0, 1) -> 'items' -> 0;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_delete_group (
  p_token text,
  p_id    uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_org uuid := private.scim_token_organisation(p_token);
  v_unit public.units%rowtype;
begin
  select * into v_unit from public.units u where u.id = p_id and u.organisation_id = v_org for update;
  if not found then
    raise exception 'Group not found' using errcode = 'P0002';
  end if;
  if exists (select 1 from public.profiles p where p.unit_id = p_id and p.organisation_id = v_org)
     or exists (select 1 from public.units c where c.parent_id = p_id and c.organisation_id = v_org)
     or exists (select 1 from public.required_training r where r.unit_id = p_id and r.organisation_id = v_org) then
    raise exception 'The unit still has people, sub-units or required training: an administrator must move them first'
      using errcode = '55000';
  end if;
  delete from public.units u where u.id = p_id;
  perform private.write_audit('unit.deleted', 'unit', p_id, v_unit.name, jsonb_build_object('name', v_unit.name), null);
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_delete_user (
  p_token text,
  p_id    uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_org uuid := private.scim_token_organisation(p_token);
  v_link private.scim_users%rowtype;
  v_username text;
begin
  delete from private.scim_users s
  where s.profile_id = p_id and s.organisation_id = v_org
    and exists (select 1 from public.profiles p where p.id = s.profile_id and p.organisation_id = v_org)
  returning * into v_link;
  if v_link.profile_id is null then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  perform private.switch_user_active(p_id, false);
  select p.username into v_username from public.profiles p where p.id = p_id;
  perform private.write_audit('user.unlinked', 'user', p_id, v_username,
    jsonb_build_object('userName', v_link.user_name, 'externalId', v_link.external_id), null);
end;
$function$;

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
  with recursive depth(id, parent_id, n) as (
    select u.id, u.parent_id, 0 from public.units u
    where u.organisation_id = p_organisation_id and lower(u.name) = lower(btrim(p_department))
    union all
    select d.id, u.parent_id, d.n + 1 from depth d join public.units u on u.id = d.parent_id where d.n < 64
  )
  select d.id into v_unit from depth d join public.units u on u.id = d.id
  group by d.id, u.created_at order by max(d.n), u.created_at limit 1;
  if v_unit is null then
    raise exception 'No unit of the organisation is named "%"', left(btrim(p_department), 200)
      using errcode = '22023', hint = 'department';
  end if;
  return v_unit;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_get_group (
  p_token   text,
  p_id      uuid,
  p_members boolean
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_page jsonb := private.scim_group_page(private.scim_token_organisation(p_token), p_id, null, 0, 1, p_members);
begin
  if p_id is null or jsonb_array_length(v_page -> 'items') = 0 then
    raise exception 'Group not found' using errcode = 'P0002';
  end if;
  return v_page -> 'items' -> 0;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_get_user (
  p_token text,
  p_id    uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_page jsonb := private.scim_user_page(private.scim_token_organisation(p_token), p_id, null, null, 0, 1);
begin
  if p_id is null or jsonb_array_length(v_page -> 'items') = 0 then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  return v_page -> 'items' -> 0;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_group_page (
  p_organisation_id uuid,
  p_id              uuid,
  p_display_name    text,
  p_offset          integer,
  p_limit           integer,
  p_members         boolean
)
  RETURNS jsonb
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_offset integer := greatest(coalesce(p_offset, 0), 0);
  v_limit integer := least(greatest(coalesce(p_limit, 100), 0), 200);
  v_total integer;
  v_ids uuid[];
  v_items jsonb;
begin
  if p_id is not null then
    v_ids := array(select u.id from public.units u where u.id = p_id and u.organisation_id = p_organisation_id);
  elsif p_display_name is not null then
    v_ids := array(select u.id from public.units u
                   where u.organisation_id = p_organisation_id and lower(u.name) = lower(p_display_name)
                   order by u.created_at, u.id);
  end if;
  if v_ids is not null then
    v_total := cardinality(v_ids);
    v_ids := v_ids[v_offset + 1 : v_offset + v_limit];
  else
    select count(*) into v_total from public.units u where u.organisation_id = p_organisation_id;
    v_ids := array(select u.id from public.units u where u.organisation_id = p_organisation_id
                   order by u.created_at, u.id offset v_offset limit v_limit);
  end if;
  select coalesce(jsonb_agg(r.item order by r.n), '[]'::jsonb) into v_items from (
    select x.n, jsonb_strip_nulls(jsonb_build_object(
      'id', u.id,
      'displayName', u.name,
      'members', case when p_members then coalesce(mm.members, '[]'::jsonb) end,
      'meta', jsonb_build_object('resourceType', 'Group', 'created', u.created_at)
    )) as item
    from unnest(v_ids) with ordinality as x(id, n)
    join public.units u on u.id = x.id
    -- Members of the page's units at once (profiles_unit_idx), never a query per unit.
    left join (
      select p.unit_id, jsonb_agg(jsonb_build_object('value', p.id, 'display', p.name, 'type', 'User') order by p.name, p.id) as members
      from public.profiles p join private.scim_users s on s.profile_id = p.id and s.organisation_id = p_organisation_id
      where p_members and p.unit_id = any (v_ids) and p.organisation_id = p_organisation_id
      group by p.unit_id
    ) mm on mm.unit_id = u.id
  ) r;
  return jsonb_build_object('total', v_total, 'items', v_items);
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_list_groups (
  p_token        text,
  p_display_name text,
  p_offset       integer,
  p_limit        integer,
  p_members      boolean
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return private.scim_group_page(private.scim_token_organisation(p_token), null, p_display_name, p_offset, p_limit, p_members);
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_list_users (
  p_token       text,
  p_user_name   text,
  p_external_id text,
  p_offset      integer,
  p_limit       integer
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return private.scim_user_page(private.scim_token_organisation(p_token), null, p_user_name, p_external_id, p_offset, p_limit);
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_manager_id (
  p_organisation_id uuid,
  p_manager         text
)
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if p_manager is null or btrim(p_manager) = '' then
    return null;
  end if;
  if btrim(p_manager) !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     or not exists (select 1 from public.profiles p where p.id = btrim(p_manager)::uuid and p.organisation_id = p_organisation_id) then
    raise exception 'The manager must be a person of the organisation' using errcode = '22023', hint = 'manager';
  end if;
  return btrim(p_manager)::uuid;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_patch_group (
  p_token        text,
  p_id           uuid,
  p_display_name text,
  p_add          uuid[],
  p_remove       uuid[],
  p_set          uuid[]
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_org uuid := private.scim_token_organisation(p_token);
  v_unit public.units%rowtype;
  v_name text := btrim(normalize(p_display_name, NFC));
begin
  select * into v_unit from public.units u where u.id = p_id and u.organisation_id = v_org for update;
  if not found then
    raise exception 'Group not found' using errcode = 'P0002';
  end if;
  if v_name is not null and v_name is distinct from v_unit.name then
    if char_length(v_name) not between 1 and 200 or private.has_invisible_characters(v_name) then
      raise exception 'displayName must be 1 to 200 visible characters' using errcode = '22023', hint = 'displayName';
    end if;
    begin
      update public.units u set name = v_name where u.id = p_id;
    exception when unique_violation then
      raise exception 'A unit of that name is already there' using errcode = '23505', hint = 'displayName';
    end;
    perform private.write_audit('unit.renamed', 'unit', p_id, v_name,
      jsonb_build_object('name', v_unit.name), jsonb_build_object('name', v_name));
  end if;
  if p_set is not null then
    perform private.scim_place_members(v_org,
      array(select s.profile_id from private.scim_users s join public.profiles p on p.id = s.profile_id
            where s.organisation_id = v_org and p.unit_id = p_id and not (s.profile_id = any (p_set))),
      null, p_id);
    perform private.scim_place_members(v_org, p_set, p_id, null);
  end if;
  perform private.scim_place_members(v_org, p_remove, null, p_id);
  perform private.scim_place_members(v_org, p_add, p_id, null);
  return private.scim_group_page(v_org, p_id, null, 0, 1, true) -> 'items' -> 0;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_patch_user (
  p_token   text,
  p_id      uuid,
  p_changes jsonb
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_org uuid := private.scim_token_organisation(p_token);
begin
  perform private.scim_write_user(v_org, p_id, coalesce(p_changes, '{}'::jsonb));
  return private.scim_user_page(v_org, p_id, null, null, 0, 1) -> 'items' -> 0;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_person_name (
  p_user      jsonb,
  p_given     text,
  p_family    text,
  p_user_name text
)
  RETURNS text
  LANGUAGE plpgsql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
declare
  v_name text := nullif(btrim(normalize(concat_ws(' ', nullif(btrim(p_given), ''), nullif(btrim(p_family), '')), NFC)), '');
begin
  v_name := coalesce(v_name, nullif(btrim(normalize(p_user ->> 'formatted', NFC)), ''),
                     nullif(btrim(normalize(p_user ->> 'displayName', NFC)), ''), p_user_name);
  if char_length(v_name) > 200 or private.has_invisible_characters(v_name) then
    raise exception 'The name must be at most 200 visible characters' using errcode = '22023', hint = 'name';
  end if;
  return v_name;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_place_members (
  p_organisation_id uuid,
  p_members         uuid[],
  p_unit            uuid,
  p_from            uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_actor text := private.scim_audit_actor();
begin
  if coalesce(cardinality(p_members), 0) = 0 then
    return;
  end if;
  if exists (select 1 from unnest(p_members) m(id)
             where m.id is null or not exists (
               select 1 from private.scim_users s join public.profiles p on p.id = s.profile_id
               where s.profile_id = m.id and s.organisation_id = p_organisation_id and p.organisation_id = p_organisation_id)) then
    raise exception 'Every member must be a provisioned user of the organisation' using errcode = '22023', hint = 'members';
  end if;
  with moved as (
    select p.id, p.username, p.unit_id as old_unit from public.profiles p
    where p.id = any (p_members) and p.unit_id is distinct from p_unit
      and (p_from is null or p.unit_id = p_from)
    for update
  ), changed as (
    update public.profiles p set unit_id = p_unit from moved where p.id = moved.id
    returning p.id, moved.username, moved.old_unit
  )
  insert into public.audit_events (actor_id, actor_name, actor_username, action, target_type, target_id, target_label, old_data, new_data)
  select null, v_actor, 'scim', 'user.updated', 'user', c.id, c.username,
         jsonb_strip_nulls(jsonb_build_object('unitId', c.old_unit)), jsonb_strip_nulls(jsonb_build_object('unitId', p_unit))
  from changed c;
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
                                    'displayName', null, 'email', null, 'department', null, 'manager', null);
begin
  if nullif(btrim(p_user ->> 'userName'), '') is null then
    raise exception 'userName is required' using errcode = '22023', hint = 'userName';
  end if;
  perform private.scim_write_user(v_org, p_id, v_all || p_user);
  return private.scim_user_page(v_org, p_id, null, null, 0, 1) -> 'items' -> 0;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scim_token_organisation (
  p_token text
)
  RETURNS uuid
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_token public.scim_tokens%rowtype;
begin
  if p_token is null or p_token !~ '^scim_[0-9a-f]{64}$' then
    raise exception 'Invalid SCIM token' using errcode = '28000';
  end if;
  select * into v_token from public.scim_tokens t
  where t.token_hash = sha256(convert_to(p_token, 'UTF8')) and t.revoked_at is null;
  if not found then
    raise exception 'Invalid SCIM token' using errcode = '28000';
  end if;
  if v_token.last_used_at is null or v_token.last_used_at < now() - interval '1 minute' then
    update public.scim_tokens t set last_used_at = now()
    where t.id in (select x.id from public.scim_tokens x
                   where x.id = v_token.id and (x.last_used_at is null or x.last_used_at < now() - interval '1 minute')
                   for update skip locked);
  end if;
  -- Audit events of this transaction name the token (private.scim_audit_actor).
  perform set_config('esl.scim_token_id', v_token.id::text, true);
  return v_token.organisation_id;
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
  perform private.scim_check_unique(p_organisation_id, p_profile_id, v_user_name, v_external_id, v_email);

  v_old := jsonb_strip_nulls(jsonb_build_object('userName', v_link.user_name, 'externalId', v_link.external_id,
    'name', v_profile.name, 'email', nullif(v_profile.email, ''), 'unitId', v_profile.unit_id, 'managerId', v_profile.manager_id,
    'givenName', v_link.given_name, 'familyName', v_link.family_name));
  v_new := jsonb_strip_nulls(jsonb_build_object('userName', v_user_name, 'externalId', v_external_id,
    'name', v_name, 'email', v_email, 'unitId', v_unit, 'managerId', v_manager,
    'givenName', v_given, 'familyName', v_family));
  if v_old is distinct from v_new then
    update private.scim_users s
    set user_name = v_user_name, external_id = v_external_id, given_name = v_given, family_name = v_family, updated_at = now()
    where s.profile_id = p_profile_id;
    if v_name is distinct from v_profile.name or v_unit is distinct from v_profile.unit_id
       or v_manager is distinct from v_profile.manager_id then
      update public.profiles p set name = v_name, unit_id = v_unit, manager_id = v_manager where p.id = p_profile_id;
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

CREATE OR REPLACE FUNCTION private.set_user_active (
  p_user_id uuid,
  p_active  boolean
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if not private.is_admin() and not private.is_org_admin() then
    raise exception 'Only an administrator may deactivate or reactivate users' using errcode = '42501';
  end if;
  if p_user_id = auth.uid() and not p_active then
    raise exception 'You cannot deactivate your own account' using errcode = 'P0403';
  end if;
  -- Only the people the caller administers (anyone else is "no such person").
  if not exists (select 1 from public.profiles where id = p_user_id) or not private.administers(p_user_id) then
    return false;
  end if;
  perform private.switch_user_active(p_user_id, p_active);
  return true;
end;
$function$;

CREATE OR REPLACE FUNCTION private.switch_user_active (
  p_user_id uuid,
  p_active  boolean
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_profile public.profiles%rowtype;
begin
  select * into v_profile from public.profiles where id = p_user_id for update;
  if not found or p_active = (v_profile.deactivated_at is null) then
    return false; -- no such person, or already so: nothing to record
  end if;
  if not p_active and v_profile.role = 'ADMIN' and v_profile.organisation_id is null then
    perform pg_advisory_xact_lock(hashtext('public.profiles last admin'));
    if not exists (select 1 from public.profiles p
                   where p.role = 'ADMIN' and p.organisation_id is null
                     and p.id <> p_user_id and p.deactivated_at is null) then
      raise exception 'The last administrator cannot be deactivated'
        using errcode = 'P0409', hint = 'Make another user an administrator first.';
    end if;
  end if;
  update public.profiles set deactivated_at = case when p_active then null else now() end
  where id = p_user_id;
  if p_active then
    update auth.users set banned_until = null, updated_at = now() where id = p_user_id;
    -- Back in the required training they match (skipped while deactivated).
    insert into public.enrollments (user_id, course_id, status)
    select distinct v_profile.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from public.required_training r
    where (r.role is null or r.role = v_profile.role)
      and (r.service is null or v_profile.services @> array[r.service])
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
  else
    update auth.users set banned_until = '2999-12-31 00:00:00+00', updated_at = now() where id = p_user_id;
    delete from auth.sessions where user_id = p_user_id;
  end if;
  perform private.write_audit(
    case when p_active then 'user.reactivated' else 'user.deactivated' end,
    'user', v_profile.id, v_profile.username,
    jsonb_build_object('status', case when p_active then 'deactivated' else 'active' end, 'name', v_profile.name),
    jsonb_build_object('status', case when p_active then 'active' else 'deactivated' end, 'name', v_profile.name));
  return true;
end;
$function$;

CREATE OR REPLACE FUNCTION private.trigger_audit_kinds()
  RETURNS text[]
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  select array[
    'user.created', 'user.deleted', 'user.permissions_changed', 'users.permissions_changed', 'users.imported',
    'user.deactivated', 'user.reactivated', 'settings.updated',
    'course.created', 'course.published', 'course.unpublished', 'course.archived', 'course.deleted',
    'enrollment.approved', 'enrollment.declined', 'certificate.revoked',
    'required_training.added', 'required_training.changed', 'required_training.removed',
    'user.updated', 'user.unlinked', 'unit.created', 'unit.renamed', 'unit.deleted',
    'scim_token.created', 'scim_token.revoked'
  ]
$function$;

CREATE OR REPLACE FUNCTION private.write_audit (
  p_action       text,
  p_target_type  text,
  p_target_id    uuid,
  p_target_label text,
  p_old          jsonb,
  p_new          jsonb,
  p_actor        uuid  DEFAULT NULL::uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_actor uuid := coalesce(p_actor, auth.uid());
  v_name text;
  v_username text;
begin
  if v_actor is not null then
    select p.name, p.username into v_name, v_username from public.profiles p where p.id = v_actor;
  else
    -- A change no person made in this transaction: an organisation's identity system through SCIM
    -- names itself by its token's label (private.scim_token_organisation sets it, transaction-local).
    v_name := private.scim_audit_actor();
    if v_name is not null then
      v_username := 'scim';
    end if;
  end if;
  insert into public.audit_events (actor_id, actor_name, actor_username, action, target_type, target_id, target_label, old_data, new_data)
  values (v_actor, v_name, v_username, p_action, p_target_type, p_target_id, p_target_label, p_old, p_new);
end;
$function$;

ALTER TABLE "private"."scim_users"
  ADD CONSTRAINT "scim_users_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id) ON DELETE CASCADE;

ALTER TABLE "private"."scim_users"
  ADD CONSTRAINT "scim_users_profile_id_fkey" FOREIGN KEY (profile_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

ALTER TABLE "public"."scim_tokens"
  ADD CONSTRAINT "scim_tokens_created_by_fkey" FOREIGN KEY (created_by) REFERENCES public.profiles(id) ON DELETE SET NULL;

ALTER TABLE "public"."scim_tokens"
  ADD CONSTRAINT "scim_tokens_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id) ON DELETE CASCADE;

CREATE UNIQUE INDEX scim_users_external_id_key ON private.scim_users USING btree (organisation_id, external_id)
  WHERE (external_id IS NOT NULL);

CREATE INDEX scim_users_organisation_idx ON private.scim_users USING btree (organisation_id, created_at, profile_id);

CREATE UNIQUE INDEX scim_users_user_name_key ON private.scim_users USING btree (organisation_id, lower(user_name));

CREATE INDEX scim_tokens_created_by_idx ON public.scim_tokens USING btree (created_by)
  WHERE (created_by IS NOT NULL);

CREATE INDEX scim_tokens_organisation_idx ON public.scim_tokens USING btree (organisation_id, created_at DESC);

CREATE INDEX units_organisation_name_idx ON public.units USING btree (organisation_id, lower(name));

CREATE POLICY "no direct access" ON "private"."scim_users"
  AS RESTRICTIVE
  FOR ALL
  TO PUBLIC
  USING (false)
  WITH CHECK (false);

CREATE POLICY "scim tokens: administrators read their organisation's" ON "public"."scim_tokens"
  FOR SELECT
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

COMMENT ON COLUMN "public"."scim_tokens"."last_used_at" IS 'The latest use, written at most once a minute (private.scim_token_organisation), so that many concurrent requests do not queue on this row.';

COMMENT ON FUNCTION "private"."check_administers_organisation"(uuid) IS 'Internal: 42501 unless the caller is a national admin or the organisation''s administrator; P0002 when it does not exist.';

COMMENT ON FUNCTION "private"."create_scim_token"(uuid, text) IS 'The organisation''s administrators and national admins: a new SCIM token for the organisation, returned once with its row (only its sha256 is kept); audited. 42501 for anyone else, P0002 for no such organisation, 22023 for a bad label.';

COMMENT ON FUNCTION "private"."revoke_scim_token"(uuid) IS 'The organisation''s administrators and national admins: revokes a SCIM token at once (its next use is refused); audited once. 42501 for a non-administrator, P0002 for no such token or another organisation''s.';

COMMENT ON FUNCTION "private"."scim_audit_actor"() IS 'Internal: "SCIM: <token label>" inside a SCIM request (the token private.scim_token_organisation checked), else null; the actor name of its audit events.';

COMMENT ON FUNCTION "private"."scim_check_unique"(uuid, uuid, text, text, text) IS 'Internal: 23505 (hint userName, externalId or email) when another person of the organisation has the userName or externalId, or anyone has the email.';

COMMENT ON FUNCTION "private"."scim_create_group"(text, text, uuid[]) IS 'SCIM: creates a top-level unit of the token''s organisation (displayName = its name) and moves the given provisioned people there; audited. 23505 for a name already at the top, 22023 for bad values.';

COMMENT ON FUNCTION "private"."scim_create_user"(text, jsonb) IS 'SCIM: creates a person of the token''s organisation (Auth user without a password, STUDENT of the organisation''s service, placed by department and manager) and its SCIM link, or links again and reactivates a leaver SCIM removed who comes back with the same email; audited with the token as the actor. 23505 for a taken userName, externalId or email; 22023 for bad values; 28000 for a bad token.';

COMMENT ON FUNCTION "private"."scim_delete_group"(text, uuid) IS 'SCIM DELETE of a Group: removes the unit only when it has no people, sub-units or required training (55000 otherwise); audited; P0002 for another organisation''s unit.';

COMMENT ON FUNCTION "private"."scim_delete_user"(text, uuid) IS 'SCIM DELETE: deactivates a provisioned person of the token''s organisation and removes their SCIM link (their records are kept); audited. P0002 for another id.';

COMMENT ON FUNCTION "private"."scim_department_unit"(uuid, text) IS 'Internal: the organisation''s unit named by a department (ignoring case, nearest the root); null for none given; 22023 when no unit has the name.';

COMMENT ON FUNCTION "private"."scim_get_group"(text, uuid, boolean) IS 'SCIM: one unit of the token''s organisation as a Group; P0002 for any other id.';

COMMENT ON FUNCTION "private"."scim_get_user"(text, uuid) IS 'SCIM: one provisioned person of the token''s organisation as a User resource; P0002 for any other id (another organisation''s person included), 28000 for a bad token.';

COMMENT ON FUNCTION "private"."scim_group_page"(uuid, uuid, text, integer, integer, boolean) IS 'Internal: a page of an organisation''s units as SCIM Group resources (optionally one id or displayName), members being its provisioned people placed in the unit.';

COMMENT ON FUNCTION "private"."scim_list_groups"(text, text, integer, integer, boolean) IS 'SCIM: a page of the token''s organisation''s units as Groups, optionally by displayName; {total, items}. 28000 for a bad token.';

COMMENT ON FUNCTION "private"."scim_list_users"(text, text, text, integer, integer) IS 'SCIM (the token checked here): a page of the token''s organisation''s provisioned people, optionally by userName or externalId; {total, items}. 28000 for a bad token.';

COMMENT ON FUNCTION "private"."scim_manager_id"(uuid, text) IS 'Internal: the manager id when it names a person of the organisation; null for none; 22023 otherwise.';

COMMENT ON FUNCTION "private"."scim_patch_group"(text, uuid, text, uuid[], uuid[], uuid[]) IS 'SCIM PATCH and PUT of a Group: renames the unit, adds and removes provisioned members (or replaces them); audited; P0002 for another organisation''s unit, 23505 for a name taken beside it, 22023 for a member not of the organisation.';

COMMENT ON FUNCTION "private"."scim_patch_user"(text, uuid, jsonb) IS 'SCIM PATCH: sets the attributes the PatchOp changed (computed by the API from the current resource) on a provisioned person of the token''s organisation; P0002 for another id.';

COMMENT ON FUNCTION "private"."scim_person_name"(jsonb, text, text, text) IS 'Internal: the display name of a SCIM user from its given and family names, formatted name, displayName or userName; 22023 when too long or invisible.';

COMMENT ON FUNCTION "private"."scim_place_members"(uuid, uuid[], uuid, uuid) IS 'Internal: places provisioned people of the organisation in a unit (or takes those of p_from out), one statement, audited per person; 22023 when an id is not one of them.';

COMMENT ON FUNCTION "private"."scim_replace_user"(text, uuid, jsonb) IS 'SCIM PUT: replaces a provisioned person''s attributes (absent ones cleared) within the token''s organisation; P0002 for another id.';

COMMENT ON FUNCTION "private"."scim_token_organisation"(text) IS 'Internal: the organisation of a live SCIM token (by its sha256), 28000 for a malformed, unknown or revoked one; notes the use (at most once a minute) and names the token for the transaction''s audit events.';

COMMENT ON FUNCTION "private"."scim_user_page"(uuid, uuid, text, text, integer, integer) IS 'Internal: a page of an organisation''s SCIM User resources (optionally one id, userName or externalId, each by its index) with the total.';

COMMENT ON FUNCTION "private"."scim_write_user"(uuid, uuid, jsonb) IS 'Internal: sets the given SCIM attributes of one provisioned person of the organisation (P0002 otherwise), refusing a taken userName, externalId or email (23505), an unknown department or a manager of elsewhere (22023); audits only real changes; active goes through private.switch_user_active.';

COMMENT ON FUNCTION "private"."switch_user_active"(uuid, boolean) IS 'Internal, granted to no API role: deactivates (bans in Auth, ends every session) or reactivates a person and records it in the audit trail, for a caller that has checked its right (private.set_user_active, the SCIM functions). True when it changed something; P0409 for the last active national admin.';

COMMENT ON FUNCTION "private"."write_audit"(text, text, uuid, text, jsonb, jsonb, uuid) IS 'Appends one audit event; the actor defaults to auth.uid(); without one, a SCIM request names its token (private.scim_audit_actor).';

COMMENT ON TABLE "private"."scim_users" IS 'The SCIM identity of a provisioned person: their userName and externalId, unique within the organisation, and the name parts SCIM reads back. A person without a row is not SCIM''s (a GET by id answers 404).';

COMMENT ON TABLE "public"."scim_tokens" IS 'Bearer tokens of an organisation''s SCIM provisioning: only the sha256 of each is kept (the token is shown once), with its last four characters to tell them apart; revoked, never deleted. Read by the organisation''s administrators and national admins (not token_hash); written only by private.create_scim_token and private.revoke_scim_token.';

REVOKE ALL ON FUNCTION "private"."check_administers_organisation"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."check_administers_organisation"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."create_scim_token"(uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."create_scim_token"(uuid, text) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."revoke_scim_token"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."revoke_scim_token"(uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_audit_actor"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_audit_actor"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."scim_check_unique"(uuid, uuid, text, text, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_check_unique"(uuid, uuid, text, text, text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scim_create_group"(text, text, uuid[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_create_group"(text, text, uuid[]) TO "anon", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_create_user"(text, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_create_user"(text, jsonb) TO "anon", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_delete_group"(text, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_delete_group"(text, uuid) TO "anon", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_delete_user"(text, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_delete_user"(text, uuid) TO "anon", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_department_unit"(uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_department_unit"(uuid, text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scim_get_group"(text, uuid, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_get_group"(text, uuid, boolean) TO "anon", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_get_user"(text, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_get_user"(text, uuid) TO "anon", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_group_page"(uuid, uuid, text, integer, integer, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_group_page"(uuid, uuid, text, integer, integer, boolean) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scim_list_groups"(text, text, integer, integer, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_list_groups"(text, text, integer, integer, boolean) TO "anon", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_list_users"(text, text, text, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_list_users"(text, text, text, integer, integer) TO "anon", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_manager_id"(uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_manager_id"(uuid, text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scim_patch_group"(text, uuid, text, uuid[], uuid[], uuid[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_patch_group"(text, uuid, text, uuid[], uuid[], uuid[]) TO "anon", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_patch_user"(text, uuid, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_patch_user"(text, uuid, jsonb) TO "anon", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_person_name"(jsonb, text, text, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_person_name"(jsonb, text, text, text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scim_place_members"(uuid, uuid[], uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_place_members"(uuid, uuid[], uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scim_replace_user"(text, uuid, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_replace_user"(text, uuid, jsonb) TO "anon", "postgres";

REVOKE ALL ON FUNCTION "private"."scim_token_organisation"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_token_organisation"(text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scim_user_page"(uuid, uuid, text, text, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_user_page"(uuid, uuid, text, text, integer, integer) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scim_write_user"(uuid, uuid, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scim_write_user"(uuid, uuid, jsonb) TO "postgres";

REVOKE ALL ON FUNCTION "private"."switch_user_active"(uuid, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."switch_user_active"(uuid, boolean) TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."scim_users" TO "postgres";

REVOKE ALL ("created_at") ON TABLE "public"."scim_tokens" FROM "authenticated";

GRANT SELECT ("created_at") ON TABLE "public"."scim_tokens" TO "authenticated";

REVOKE ALL ("created_by") ON TABLE "public"."scim_tokens" FROM "authenticated";

GRANT SELECT ("created_by") ON TABLE "public"."scim_tokens" TO "authenticated";

REVOKE ALL ("id") ON TABLE "public"."scim_tokens" FROM "authenticated";

GRANT SELECT ("id") ON TABLE "public"."scim_tokens" TO "authenticated";

REVOKE ALL ("label") ON TABLE "public"."scim_tokens" FROM "authenticated";

GRANT SELECT ("label") ON TABLE "public"."scim_tokens" TO "authenticated";

REVOKE ALL ("last_used_at") ON TABLE "public"."scim_tokens" FROM "authenticated";

GRANT SELECT ("last_used_at") ON TABLE "public"."scim_tokens" TO "authenticated";

REVOKE ALL ("organisation_id") ON TABLE "public"."scim_tokens" FROM "authenticated";

GRANT SELECT ("organisation_id") ON TABLE "public"."scim_tokens" TO "authenticated";

REVOKE ALL ("revoked_at") ON TABLE "public"."scim_tokens" FROM "authenticated";

GRANT SELECT ("revoked_at") ON TABLE "public"."scim_tokens" TO "authenticated";

REVOKE ALL ("token_hint") ON TABLE "public"."scim_tokens" FROM "authenticated";

GRANT SELECT ("token_hint") ON TABLE "public"."scim_tokens" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."scim_tokens" TO "postgres", "service_role";


-- Table privileges by hand, in the order that keeps them (pg-delta lists a table's REVOKE ALL after
-- its column grants, which it would take away), and none for anon whatever the server's defaults.
revoke all on public.scim_tokens from anon, authenticated, service_role;
grant all on public.scim_tokens to service_role;
grant select (id, organisation_id, label, token_hint, created_by, created_at, last_used_at, revoked_at)
  on public.scim_tokens to authenticated;

revoke all on private.scim_users from anon, authenticated, service_role;
