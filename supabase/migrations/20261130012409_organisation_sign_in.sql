-- organisation_sign_in: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP POLICY "audit trail: national admins all, administrators their people's" ON "public"."audit_events";

CREATE TABLE "public"."organisation_domains" (
  "domain"          text                     NOT NULL,
  "organisation_id" uuid                     NOT NULL,
  "created_at"      timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "organisation_domains_domain_pattern"
    CHECK (((char_length(domain) <= 253) AND (domain ~ '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$'::text))),
  CONSTRAINT "organisation_domains_pkey" PRIMARY KEY (DOMAIN)
);

ALTER TABLE "public"."organisation_domains"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."organisation_sign_in" (
  "organisation_id"     uuid                     NOT NULL,
  "oidc_tenant_id"      uuid,
  "saml_metadata_url"   text,
  "saml_provider_id"    uuid,
  "attribute_mapping"   jsonb                    NOT NULL DEFAULT '{}'::jsonb,
  "new_person_role"     public.user_role         NOT NULL DEFAULT 'STUDENT'::public.user_role,
  "new_person_services" public.service_code[]    NOT NULL DEFAULT '{}'::public.service_code[],
  "enabled"             boolean                  NOT NULL DEFAULT false,
  "password_sign_in"    boolean                  NOT NULL DEFAULT true,
  "tested_at"           timestamp with time zone,
  "updated_at"          timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "organisation_sign_in_enabled_tested" CHECK (((NOT enabled) OR (tested_at IS NOT NULL))),
  CONSTRAINT "organisation_sign_in_metadata_url"
    CHECK (((saml_metadata_url IS NULL) OR ((char_length(saml_metadata_url) <= 2000) AND (saml_metadata_url ~ '^https?://[^\s]+$'::text)))),
  CONSTRAINT "organisation_sign_in_password_off" CHECK ((password_sign_in OR enabled)),
  CONSTRAINT "organisation_sign_in_pkey" PRIMARY KEY (organisation_id),
  CONSTRAINT "organisation_sign_in_role" CHECK ((new_person_role = ANY (ARRAY['STUDENT'::public.user_role, 'INSTRUCTOR'::public.user_role])))
);

ALTER TABLE "public"."organisation_sign_in"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."sign_in_tests" (
  "id"              uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "organisation_id" uuid                     NOT NULL,
  "email"           text                     NOT NULL,
  "received"        jsonb                    NOT NULL,
  "mapped"          jsonb                    NOT NULL,
  "passed"          boolean                  NOT NULL,
  "created_at"      timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "sign_in_tests_pkey" PRIMARY KEY (id)
);

ALTER TABLE "public"."sign_in_tests"
  ENABLE ROW LEVEL SECURITY;

ALTER TABLE "public"."profiles"
  ADD COLUMN "employee_number" text;

CREATE TYPE "public"."sign_in_protocol" AS ENUM (
  'oidc',
  'saml'
);

ALTER TABLE "public"."organisation_sign_in"
  ADD COLUMN "protocol" public.sign_in_protocol NOT NULL;

ALTER TABLE "public"."sign_in_tests"
  ADD COLUMN "protocol" public.sign_in_protocol NOT NULL;

CREATE OR REPLACE FUNCTION private.audit_profile_insert()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_created_by uuid;
begin
  if exists (select 1 from private.user_import_rows r where r.user_id = new.id) then
    return null;
  end if;
  -- A person an identity provider signed in is audited by private.handle_new_user, with its source.
  if exists (select 1 from auth.users u where u.id = new.id
             and (u.raw_app_meta_data ->> 'provider' = 'azure' or u.raw_app_meta_data ->> 'provider' like 'sso:%')) then
    return null;
  end if;
  begin
    select nullif(u.raw_app_meta_data ->> 'created_by', '')::uuid into v_created_by
    from auth.users u where u.id = new.id;
  exception when invalid_text_representation then
    v_created_by := null;
  end;
  perform private.write_audit('user.created', 'user', new.id, new.username, null,
    jsonb_build_object('username', new.username, 'email', new.email, 'name', new.name, 'role', new.role, 'services', new.services),
    coalesce(auth.uid(), v_created_by));
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.before_user_created (
  event jsonb
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_meta jsonb := case when jsonb_typeof(event -> 'user' -> 'user_metadata') = 'object'
                       then event -> 'user' -> 'user_metadata' else '{}'::jsonb end;
  v_username text := nullif(btrim(v_meta ->> 'username'), '');
  v_name text := nullif(btrim(normalize(coalesce(v_meta ->> 'name', v_meta ->> 'full_name'), NFC)), '');
  v_provider text := event -> 'user' -> 'app_metadata' ->> 'provider';
  v_problem text;
begin
  if v_username is not null and v_username !~ '^[A-Za-z0-9_.-]{3,50}$' then
    v_problem := 'Username may contain only letters, numbers, dots, dashes and underscores';
  elsif v_name is not null and private.has_invisible_characters(v_name) then
    v_problem := 'Name may not contain invisible or control characters';
  elsif v_name is not null and char_length(v_name) > 200 then
    v_problem := 'Name must be at most 200 characters';
  end if;
  if v_problem is not null then
    return jsonb_build_object('error', jsonb_build_object('http_code', 400, 'message', v_problem));
  end if;
  if v_provider = 'azure' or v_provider like 'sso:%' then
    return private.sign_in_before_user_created(v_provider, event -> 'user' ->> 'email', v_meta);
  end if;
  return '{}'::jsonb;
end;
$function$;

CREATE OR REPLACE FUNCTION private.custom_access_token (
  event jsonb
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_user uuid;
  v_profile public.profiles%rowtype;
  v_setting public.organisation_sign_in%rowtype;
  v_method text := event ->> 'authentication_method';
  v_through_provider boolean;
begin
  begin
    v_user := (event ->> 'user_id')::uuid;
  exception when invalid_text_representation then
    return jsonb_build_object('claims', event -> 'claims');
  end;
  select * into v_profile from public.profiles where id = v_user;
  if not found then
    return jsonb_build_object('claims', event -> 'claims');
  end if;
  if v_method in ('oauth', 'sso/saml') then
    perform private.write_audit('sign_in.succeeded', 'user', v_user, v_profile.username, null,
      jsonb_build_object('source', case when v_method = 'oauth' then 'OpenID Connect' else 'SAML' end), v_user);
  end if;
  if v_profile.organisation_id is null or v_profile.role = 'ADMIN' then
    return jsonb_build_object('claims', event -> 'claims');
  end if;
  select * into v_setting from public.organisation_sign_in s where s.organisation_id = v_profile.organisation_id;
  v_through_provider := exists (
    select 1 from jsonb_array_elements(case when jsonb_typeof(event -> 'claims' -> 'amr') = 'array' then event -> 'claims' -> 'amr' else '[]'::jsonb end) a
    where a ->> 'method' in ('oauth', 'sso/saml'));
  if v_setting.enabled and not v_setting.password_sign_in and not v_through_provider then
    return jsonb_build_object('error', jsonb_build_object('http_code', 403, 'message',
      format('%s signs its people in through its own identity provider. Use "Sign in with your organisation".',
        (select o.name from public.organisations o where o.id = v_profile.organisation_id))));
  end if;
  return jsonb_build_object('claims', event -> 'claims');
end;
$function$;

CREATE OR REPLACE FUNCTION private.guard_profile_update()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
declare
  v_org uuid;
begin
  -- Only the API roles are checked; the service role and migrations manage accounts freely.
  if current_user in ('anon', 'authenticated') then
    -- Nobody places themselves: organisation, unit and manager are set by an administrator.
    if new.id = (select auth.uid())
       and (new.organisation_id is distinct from old.organisation_id
            or new.unit_id is distinct from old.unit_id
            or new.manager_id is distinct from old.manager_id) then
      raise exception 'You cannot change your own organisation, unit or manager'
        using errcode = '42501';
    end if;
    if not private.is_admin() then
      v_org := private.administered_organisation_id();
      -- An organisation's administrator: role, services, username, unit and manager of their own
      -- people (not their own role or services), never the organisation. The roles they give stay
      -- inside the organisation (its people can never be national), and the services only the
      -- organisation's own: a person's service decides which rules and courses reach them.
      if v_org is not null and old.organisation_id = v_org then
        if new.organisation_id is distinct from old.organisation_id then
          raise exception 'Only a national administrator may change a person''s organisation'
            using errcode = '42501';
        end if;
        if new.id = (select auth.uid())
           and (new.role is distinct from old.role or new.services is distinct from old.services) then
          raise exception 'You cannot change your own role or services' using errcode = '42501';
        end if;
        if new.services is distinct from old.services
           and not (new.services <@ array(select o.service from public.organisations o where o.id = v_org)) then
          raise exception 'An organisation''s administrator may give only their organisation''s service'
            using errcode = '42501', hint = 'services';
        end if;
      elsif new.role is distinct from old.role
         or new.services is distinct from old.services
         or new.username is distinct from old.username
         or new.employee_number is distinct from old.employee_number
         or new.organisation_id is distinct from old.organisation_id
         or new.unit_id is distinct from old.unit_id
         or new.manager_id is distinct from old.manager_id then
        raise exception 'Only an administrator may change role, services or username'
          using errcode = '42501';
      end if;
    end if;
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.handle_new_user()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  v_username text := nullif(btrim(v_meta ->> 'username'), '');
  -- (an identity provider's name arrives as full_name, as Supabase Auth stores Entra ID's)
  v_name text := nullif(btrim(normalize(coalesce(v_meta ->> 'name', v_meta ->> 'full_name'), NFC)), '');
  v_role public.user_role := 'STUDENT';
  v_services public.service_code[] := '{}';
  v_provider text := new.raw_app_meta_data ->> 'provider';
  v_place jsonb;
begin
  if v_username is not null and v_username !~ '^[A-Za-z0-9_.-]{3,50}$' then
    raise exception 'Username may contain only letters, numbers, dots, dashes and underscores (3 to 50)'
      using errcode = '23514', hint = 'username_invalid';
  end if;
  if v_name is not null and (private.has_invisible_characters(v_name) or char_length(v_name) > 200) then
    raise exception 'Name may not contain invisible or control characters, and at most 200 characters'
      using errcode = '23514', hint = 'name_invalid';
  end if;
  select r.role, r.services into v_role, v_services
  from private.user_import_rows r where r.user_id = new.id;
  if not found then
    v_role := 'STUDENT';
    v_services := '{}';
  end if;
  if v_username is null then
    -- Fallback: the email's local part, made long enough and unique.
    v_username := left(regexp_replace(split_part(coalesce(new.email, ''), '@', 1), '[^A-Za-z0-9._-]', '', 'g'), 40);
    if char_length(v_username) < 3 then
      v_username := v_username || 'user';
    end if;
    if exists (select 1 from public.profiles p where lower(p.username) = lower(v_username)) then
      v_username := v_username || '-' || left(replace(new.id::text, '-', ''), 8);
    end if;
  end if;
  -- A person an organisation's identity provider signed in belongs to that organisation, or nowhere.
  if v_provider = 'azure' or v_provider like 'sso:%' then
    v_place := private.sign_in_placement(v_provider, v_meta, new.email);
    if not (v_place ->> 'ok')::boolean or not (v_place ->> 'enabled')::boolean then
      raise exception '%', coalesce(v_place ->> 'problem', 'This organisation''s sign-in is not switched on')
        using errcode = '42501', hint = 'sign_in_not_placed';
    end if;
    v_role := (v_place ->> 'role')::public.user_role;
    v_services := array(select jsonb_array_elements_text(v_place -> 'services'))::public.service_code[];
  end if;
  insert into public.profiles (id, username, email, name, role, services, organisation_id, unit_id, manager_id, employee_number)
  values (new.id, v_username, coalesce(new.email, ''), coalesce(v_place ->> 'name', v_name, v_username), v_role, v_services,
          (v_place ->> 'organisation_id')::uuid, (v_place ->> 'unit_id')::uuid, (v_place ->> 'manager_id')::uuid,
          v_place ->> 'employee_number');
  if v_place is not null then
    perform private.write_sign_in_audit('user.created', v_place, 'user', new.id, v_username,
      jsonb_build_object('source', case when v_provider = 'azure' then 'OpenID Connect' else 'SAML' end,
        'username', v_username, 'email', new.email, 'name', coalesce(v_place ->> 'name', v_name, v_username),
        'role', v_role, 'services', v_services, 'unit', v_place ->> 'unit', 'manager', v_place ->> 'manager'));
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.identity_linked()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_place jsonb;
  v_profile public.profiles%rowtype;
begin
  if not (new.provider = 'azure' or new.provider like 'sso:%')
     or not exists (select 1 from auth.identities i where i.user_id = new.user_id and i.id <> new.id) then
    return null;
  end if;
  select * into v_profile from public.profiles where id = new.user_id;
  v_place := private.sign_in_placement(new.provider, new.identity_data, new.identity_data ->> 'email');
  if not (v_place ->> 'ok')::boolean then
    raise exception '%', v_place ->> 'problem' using errcode = '42501', hint = 'sign_in_not_linked';
  end if;
  if not (v_place ->> 'enabled')::boolean or v_profile.organisation_id is distinct from (v_place ->> 'organisation_id')::uuid then
    raise exception 'Only a person of % can link its sign-in, once it is switched on.', v_place ->> 'organisation'
      using errcode = '42501', hint = 'sign_in_not_linked';
  end if;
  perform private.write_audit('sign_in.linked', 'user', new.user_id, v_profile.username, null,
    jsonb_build_object('source', case when new.provider = 'azure' then 'OpenID Connect' else 'SAML' end,
      'email', new.identity_data ->> 'email'), new.user_id);
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.identity_signed_in()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if new.provider = 'azure' or new.provider like 'sso:%' then
    perform private.update_signed_in_person(new.user_id, new.provider, new.identity_data,
      coalesce(new.identity_data ->> 'email', (select u.email from auth.users u where u.id = new.user_id)));
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.is_attribute_mapping (
  p_mapping jsonb
)
  RETURNS boolean
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  select jsonb_typeof(p_mapping) = 'object'
    and not exists (
      select 1 from jsonb_each(p_mapping) e
      where e.key not in ('name', 'unit', 'manager', 'employee_number')
         or jsonb_typeof(e.value) <> 'string'
         or char_length(e.value #>> '{}') not between 1 and 200
    );
$function$;

CREATE OR REPLACE FUNCTION private.organisation_sign_in_changed()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
begin
  -- tested_at is not granted to the API roles; the hook writes it with the provider unchanged.
  if tg_op = 'UPDATE' and (new.protocol, new.oidc_tenant_id, new.saml_provider_id)
     is distinct from (old.protocol, old.oidc_tenant_id, old.saml_provider_id) then
    new.tested_at := null;
    new.enabled := false;
    new.password_sign_in := true;
  end if;
  if new.protocol = 'oidc' then
    new.saml_provider_id := null;
    new.saml_metadata_url := null;
  else
    new.oidc_tenant_id := null;
  end if;
  if not (new.new_person_services <@ array(select o.service from public.organisations o where o.id = new.organisation_id)) then
    raise exception 'New people can be given only the organisation''s own service' using errcode = '23514', hint = 'services';
  end if;
  new.updated_at := now();
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.organisation_sign_in_for (
  p_email text
)
  RETURNS TABLE (
    protocol          public.sign_in_protocol,
    organisation_name text,
    domain            text,
    password_sign_in  boolean
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select s.protocol, o.name, d.domain, s.password_sign_in
  from public.organisation_domains d
  join public.organisation_sign_in s on s.organisation_id = d.organisation_id and s.enabled
  join public.organisations o on o.id = d.organisation_id
  where d.domain = split_part(lower(btrim(p_email)), '@', 2);
$function$;

CREATE OR REPLACE FUNCTION private.record_saml_provider (
  p_organisation_id uuid,
  p_provider_id     uuid,
  p_metadata_url    text
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  update public.organisation_sign_in
  set saml_provider_id = p_provider_id, saml_metadata_url = p_metadata_url
  where organisation_id = p_organisation_id and protocol = 'saml';
  if not found then
    raise exception 'The organisation has no SAML sign-in' using errcode = 'P0002';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION private.sign_in_attribute (
  p_protocol public.sign_in_protocol,
  p_mapping  jsonb,
  p_claims   jsonb,
  p_field    text
)
  RETURNS text
  LANGUAGE plpgsql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
declare
  v_value jsonb;
  v_claim text := p_mapping ->> p_field;
begin
  if p_protocol = 'saml' then
    v_value := coalesce(p_claims -> p_field, p_claims -> 'custom_claims' -> p_field);
  elsif v_claim is not null then
    v_value := coalesce(p_claims -> v_claim, p_claims -> 'custom_claims' -> v_claim);
  elsif p_field = 'name' then
    v_value := p_claims -> 'full_name';
  end if;
  if jsonb_typeof(v_value) = 'array' then
    v_value := v_value -> 0;
  end if;
  if v_value is null or jsonb_typeof(v_value) not in ('string', 'number') then
    return null;
  end if;
  return nullif(btrim(normalize(v_value #>> '{}', NFC)), '');
end;
$function$;

CREATE OR REPLACE FUNCTION private.sign_in_before_user_created (
  p_provider text,
  p_email    text,
  p_claims   jsonb
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_place jsonb := private.sign_in_placement(p_provider, p_claims, p_email);
  v_org uuid := (v_place ->> 'organisation_id')::uuid;
  v_source text := case when p_provider = 'azure' then 'OpenID Connect' else 'SAML' end;
begin
  if v_org is not null and not (v_place ->> 'enabled')::boolean then
    insert into public.sign_in_tests (organisation_id, protocol, email, received, mapped, passed)
    values (v_org, case when p_provider = 'azure' then 'oidc' else 'saml' end::public.sign_in_protocol,
            left(coalesce(p_email, ''), 320), coalesce(p_claims, '{}'::jsonb), v_place, (v_place ->> 'ok')::boolean);
    delete from public.sign_in_tests t
    where t.organisation_id = v_org
      and t.id not in (select k.id from public.sign_in_tests k where k.organisation_id = v_org order by k.created_at desc limit 20);
    if (v_place ->> 'ok')::boolean then
      update public.organisation_sign_in set tested_at = now() where organisation_id = v_org;
    end if;
    perform private.write_sign_in_audit('sign_in.tested', v_place, 'organisation', v_org, v_place ->> 'organisation',
      jsonb_build_object('source', v_source, 'email', p_email, 'passed', (v_place ->> 'ok')::boolean, 'problem', v_place ->> 'problem'));
    return jsonb_build_object('error', jsonb_build_object('http_code', 403, 'message',
      format('%s''s sign-in is being tested and is not switched on yet; your administrator can now see what it sent.', v_place ->> 'organisation')));
  end if;
  if not (v_place ->> 'ok')::boolean then
    if v_org is not null then
      perform private.write_sign_in_audit('sign_in.refused', v_place, 'organisation', v_org, v_place ->> 'organisation',
        jsonb_build_object('source', v_source, 'email', p_email, 'problem', v_place ->> 'problem'));
    end if;
    return jsonb_build_object('error', jsonb_build_object('http_code', 403, 'message', v_place ->> 'problem'));
  end if;
  -- An address that is already an account's stays that account's: a provider never takes it over.
  if exists (select 1 from public.profiles p where lower(p.email) = lower(btrim(p_email))) then
    perform private.write_sign_in_audit('sign_in.refused', v_place, 'organisation', v_org, v_place ->> 'organisation',
      jsonb_build_object('source', v_source, 'email', p_email, 'problem', 'address already has an account'));
    return jsonb_build_object('error', jsonb_build_object('http_code', 403, 'message',
      'An account with this email address already exists here. Sign in with its password, then link your organisation''s sign-in from your profile.'));
  end if;
  return '{}'::jsonb;
end;
$function$;

CREATE OR REPLACE FUNCTION private.sign_in_placement (
  p_provider text,
  p_claims   jsonb,
  p_email    text
)
  RETURNS jsonb
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_domain text := split_part(lower(btrim(coalesce(p_email, ''))), '@', 2);
  v_tenant text;
  v_saml text;
  v_setting public.organisation_sign_in%rowtype;
  v_org public.organisations%rowtype;
  v_name text;
  v_unit_name text;
  v_unit uuid;
  v_manager_ref text;
  v_manager uuid;
  v_employee text;
  v_notes text[] := '{}';
begin
  if p_provider = 'azure' then
    v_tenant := p_claims -> 'custom_claims' ->> 'tid';
    if v_tenant !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      return jsonb_build_object('ok', false, 'problem', 'The identity provider did not say which Microsoft Entra ID tenant it signed in.');
    end if;
    select s.* into v_setting from public.organisation_sign_in s
    where s.protocol = 'oidc' and s.oidc_tenant_id = v_tenant::uuid
      and exists (select 1 from public.organisation_domains d where d.organisation_id = s.organisation_id and d.domain = v_domain);
    if not found then
      select s.* into v_setting from public.organisation_sign_in s
      where s.protocol = 'oidc' and s.oidc_tenant_id = v_tenant::uuid limit 1;
    end if;
  elsif p_provider like 'sso:%' then
    v_saml := substr(p_provider, 5);
    if v_saml ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      select s.* into v_setting from public.organisation_sign_in s where s.saml_provider_id = v_saml::uuid;
    end if;
  else
    return jsonb_build_object('ok', false, 'problem', 'Not a sign-in through an organisation''s identity provider.');
  end if;
  if v_setting.organisation_id is null then
    return jsonb_build_object('ok', false, 'problem',
      'No organisation here signs its people in through this identity provider. Sign in with your email and password, or ask your administrator.');
  end if;
  select o.* into v_org from public.organisations o where o.id = v_setting.organisation_id;
  if v_email !~ '^[^@\s]+@[^@\s]+$'
     or not exists (select 1 from public.organisation_domains d where d.organisation_id = v_org.id and d.domain = v_domain) then
    return jsonb_build_object('ok', false, 'organisation_id', v_org.id, 'organisation', v_org.name, 'enabled', v_setting.enabled,
      'problem', format('The address %s is not at one of %s''s email domains.', coalesce(nullif(v_email, ''), '(none)'), v_org.name));
  end if;

  v_name := left(private.sign_in_attribute(v_setting.protocol, v_setting.attribute_mapping, p_claims, 'name'), 200);
  if v_name is not null and private.has_invisible_characters(v_name) then
    v_notes := v_notes || 'The name has invisible characters: the email''s first part is used instead.'::text;
    v_name := null;
  end if;
  v_unit_name := private.sign_in_attribute(v_setting.protocol, v_setting.attribute_mapping, p_claims, 'unit');
  if v_unit_name is not null then
    begin
      v_unit := private.scim_department_unit(v_org.id, v_unit_name);
    exception when invalid_parameter_value then
      v_notes := v_notes || format('No unit of %s is named "%s": the person is left without a unit.', v_org.name, left(v_unit_name, 200));
    end;
  end if;
  v_manager_ref := private.sign_in_attribute(v_setting.protocol, v_setting.attribute_mapping, p_claims, 'manager');
  if v_manager_ref is not null then
    select p.id into v_manager from public.profiles p
    where p.organisation_id = v_org.id
      and (lower(p.email) = lower(v_manager_ref) or p.employee_number = v_manager_ref)
    order by (lower(p.email) = lower(v_manager_ref)) desc limit 1;
    if v_manager is null then
      v_notes := v_notes || format('No one of %s is "%s": the person is left without a manager.', v_org.name, left(v_manager_ref, 200));
    end if;
  end if;
  v_employee := left(private.sign_in_attribute(v_setting.protocol, v_setting.attribute_mapping, p_claims, 'employee_number'), 64);

  return jsonb_build_object(
    'ok', true, 'organisation_id', v_org.id, 'organisation', v_org.name, 'enabled', v_setting.enabled,
    'password_sign_in', v_setting.password_sign_in, 'protocol', v_setting.protocol,
    'email', v_email, 'name', v_name,
    'unit_id', v_unit, 'unit', (select u.name from public.units u where u.id = v_unit),
    'manager_id', v_manager, 'manager', (select p.name from public.profiles p where p.id = v_manager),
    'employee_number', v_employee,
    'role', v_setting.new_person_role, 'services', to_jsonb(v_setting.new_person_services),
    'notes', to_jsonb(v_notes));
end;
$function$;

CREATE OR REPLACE FUNCTION private.update_signed_in_person (
  p_user_id  uuid,
  p_provider text,
  p_claims   jsonb,
  p_email    text
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_place jsonb := private.sign_in_placement(p_provider, p_claims, p_email);
  v_profile public.profiles%rowtype;
  v_after public.profiles%rowtype;
begin
  select * into v_profile from public.profiles where id = p_user_id;
  if not found or not (v_place ->> 'ok')::boolean or not (v_place ->> 'enabled')::boolean
     or v_profile.organisation_id is distinct from (v_place ->> 'organisation_id')::uuid then
    return;
  end if;
  update public.profiles p set
    name = coalesce(v_place ->> 'name', p.name),
    unit_id = coalesce((v_place ->> 'unit_id')::uuid, p.unit_id),
    manager_id = coalesce((v_place ->> 'manager_id')::uuid, p.manager_id),
    employee_number = coalesce(v_place ->> 'employee_number', p.employee_number)
  where p.id = p_user_id
    and (p.name, p.unit_id, p.manager_id, p.employee_number) is distinct from
        (coalesce(v_place ->> 'name', p.name), coalesce((v_place ->> 'unit_id')::uuid, p.unit_id),
         coalesce((v_place ->> 'manager_id')::uuid, p.manager_id), coalesce(v_place ->> 'employee_number', p.employee_number))
  returning * into v_after;
  if found then
    perform private.write_sign_in_audit('user.updated', v_place, 'user', p_user_id, v_after.username,
      jsonb_build_object('source', case when p_provider = 'azure' then 'OpenID Connect' else 'SAML' end,
        'name', v_after.name, 'unit', v_place ->> 'unit', 'manager', v_place ->> 'manager', 'employee_number', v_after.employee_number));
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION private.write_sign_in_audit (
  p_action       text,
  p_placement    jsonb,
  p_target_type  text,
  p_target_id    uuid,
  p_target_label text,
  p_data         jsonb
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  insert into public.audit_events (actor_id, actor_name, actor_username, action, target_type, target_id, target_label, new_data)
  values (null, coalesce(p_placement ->> 'organisation', 'An identity provider') || ' sign-in', 'sign-in', p_action,
          p_target_type, p_target_id, p_target_label, p_data);
end;
$function$;

ALTER TABLE "public"."organisation_domains"
  ADD CONSTRAINT "organisation_domains_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id) ON DELETE CASCADE;

ALTER TABLE "public"."organisation_sign_in"
  ADD CONSTRAINT "organisation_sign_in_enabled_saml" CHECK (((NOT enabled) OR (protocol <> 'saml'::public.sign_in_protocol) OR (saml_provider_id IS NOT NULL)));

ALTER TABLE "public"."organisation_sign_in"
  ADD CONSTRAINT "organisation_sign_in_oidc_tenant" CHECK (((protocol <> 'oidc'::public.sign_in_protocol) OR (oidc_tenant_id IS NOT NULL)));

ALTER TABLE "public"."organisation_sign_in"
  ADD CONSTRAINT "organisation_sign_in_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id) ON DELETE CASCADE;

ALTER TABLE "public"."profiles"
  ADD CONSTRAINT "profiles_employee_number_length" CHECK (((employee_number IS NULL) OR ((char_length(employee_number) >= 1) AND (char_length(employee_number) <= 64))));

ALTER TABLE "public"."sign_in_tests"
  ADD CONSTRAINT "sign_in_tests_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id) ON DELETE CASCADE;

CREATE INDEX organisation_domains_organisation_idx ON public.organisation_domains USING btree (organisation_id);

CREATE UNIQUE INDEX organisation_sign_in_saml_provider_key ON public.organisation_sign_in USING btree (saml_provider_id)
  WHERE (saml_provider_id IS NOT NULL);

CREATE INDEX organisation_sign_in_tenant_idx ON public.organisation_sign_in USING btree (oidc_tenant_id)
  WHERE (oidc_tenant_id IS NOT NULL);

CREATE INDEX profiles_employee_number_idx ON public.profiles USING btree (organisation_id, employee_number)
  WHERE (employee_number IS NOT NULL);

CREATE INDEX sign_in_tests_organisation_idx ON public.sign_in_tests USING btree (organisation_id, created_at DESC);

CREATE TRIGGER on_auth_identity_linked
  AFTER INSERT ON auth.identities
  FOR EACH ROW
  EXECUTE FUNCTION private.identity_linked();

CREATE TRIGGER on_auth_identity_signed_in
  AFTER UPDATE OF identity_data ON auth.identities
  FOR EACH ROW
  WHEN ((old.identity_data IS DISTINCT FROM new.identity_data))
  EXECUTE FUNCTION private.identity_signed_in();

CREATE TRIGGER organisation_sign_in_changed
  BEFORE INSERT OR UPDATE ON public.organisation_sign_in
  FOR EACH ROW
  EXECUTE FUNCTION private.organisation_sign_in_changed();

CREATE POLICY "audit trail: national admins all, administrators their people's" ON "public"."audit_events"
  FOR SELECT
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR (actor_id IN ( SELECT private.people_i_administer() AS people_i_administer)) OR ((target_type = 'user'::text) AND (target_id IN (
    SELECT private.people_i_administer() AS people_i_administer))) OR
    ((target_type = 'organisation'::text) AND (target_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id)))));

CREATE POLICY "national admins give domains" ON "public"."organisation_domains"
  FOR INSERT
  TO "authenticated"
  WITH CHECK (( SELECT private.is_admin() AS is_admin));

CREATE POLICY "national admins take domains away" ON "public"."organisation_domains"
  FOR DELETE
  TO "authenticated"
  USING (( SELECT private.is_admin() AS is_admin));

CREATE POLICY "organisation admins read their domains, national admins all" ON "public"."organisation_domains"
  FOR SELECT
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "organisation admins change their sign-in, national admins any" ON "public"."organisation_sign_in"
  FOR UPDATE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))))
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "organisation admins read their sign-in, national admins all" ON "public"."organisation_sign_in"
  FOR SELECT
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "organisation admins remove their sign-in, national admins any" ON "public"."organisation_sign_in"
  FOR DELETE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "organisation admins set up their sign-in, national admins any" ON "public"."organisation_sign_in"
  FOR INSERT
  TO "authenticated"
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "organisation admins read their sign-in tests, national admins a" ON "public"."sign_in_tests"
  FOR SELECT
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

COMMENT ON COLUMN "public"."organisation_sign_in"."attribute_mapping" IS 'Which claim (OpenID Connect) or attribute (SAML) holds each of name, unit, manager (an email or employee number) and employee_number; a missing key uses the provider''s usual one (name) or leaves the field alone.';

COMMENT ON COLUMN "public"."organisation_sign_in"."tested_at" IS 'When a test sign-in through the current provider last passed; cleared when the provider changes (private.organisation_sign_in_changed), written only by private.before_user_created.';

COMMENT ON COLUMN "public"."profiles"."employee_number" IS 'The person''s number in their organisation''s HR system, as their identity provider sends it; written by sign-in and administrators.';

COMMENT ON FUNCTION "private"."before_user_created"(jsonb) IS 'Auth''s before-user-created hook: {} to allow, or {error: {http_code: 400, message}} when user_metadata''s username or name breaks the profile''s rules (those of private.handle_new_user); a person coming through an organisation''s identity provider is checked by private.sign_in_before_user_created.';

COMMENT ON FUNCTION "private"."custom_access_token"(jsonb) IS 'Auth''s custom access token hook: {claims} unchanged, or {error: {http_code: 403, message}} for a person (not an administrator) of an organisation whose sign-in is on with password sign-in off, when the session was not opened through an identity provider (amr oauth or sso/saml); a session opened through one (authentication_method oauth or sso/saml) is audited as sign_in.succeeded.';

COMMENT ON FUNCTION "private"."guard_profile_update"() IS 'Before-update trigger on profiles: a non-admin API caller may not change role, services, username, employee number, organisation, unit or manager (42501); an organisation administrator may change those of their own people but not the organisation, nor their own role or services, and gives only the organisation''s service (42501, hint services); nobody changes their own organisation, unit or manager.';

COMMENT ON FUNCTION "private"."handle_new_user"() IS 'After-insert trigger on auth.users: creates the profile from raw_user_meta_data {username, name} under the registration rules (23514 otherwise), falling back to the email''s local part; STUDENT without services, or the role and services staged by private.import_users; a person an organisation''s identity provider signed in is placed where private.sign_in_placement says (42501 when nowhere), audited as that organisation''s sign-in.';

COMMENT ON FUNCTION "private"."identity_linked"() IS 'After-insert trigger on auth.identities: an organisation''s provider linked to an existing account (Auth''s manual linking) only for a person of that organisation, its sign-in switched on, at one of its domains (42501 otherwise); audited as sign_in.linked.';

COMMENT ON FUNCTION "private"."identity_signed_in"() IS 'After-update trigger on auth.identities: a later sign-in through an organisation''s provider brings the person''s name, unit, manager and employee number up to date.';

COMMENT ON FUNCTION "private"."is_attribute_mapping"(jsonb) IS 'True for an attribute mapping: an object whose keys are among name, unit, manager and employee_number, each naming a claim or attribute of 1 to 200 characters.';

COMMENT ON FUNCTION "private"."organisation_sign_in_changed"() IS 'Before insert or update on organisation_sign_in: a new or changed provider (protocol, tenant, SAML provider) clears tested_at and switches sign-in off (password sign-in back on) until a test passes; tested_at is written only by Auth''s hook; new people get only the organisation''s service (23514).';

COMMENT ON FUNCTION "private"."organisation_sign_in_for"(text) IS 'The sign-in of the organisation that owns an address''s domain, when switched on: its protocol, name, the domain and whether its people may use a password; no row otherwise. For visitors (anon).';

COMMENT ON FUNCTION "private"."record_saml_provider"(uuid, uuid, text) IS 'The Auth SSO provider (and metadata URL) of an organisation''s SAML sign-in, written by the api function once Auth has registered it; P0002 without a SAML sign-in.';

COMMENT ON FUNCTION "private"."sign_in_attribute"(public.sign_in_protocol, jsonb, jsonb, text) IS 'Internal: the mapped attribute (name, unit, manager, employee_number) of what a provider sent, as trimmed text; the first of several values; null when absent.';

COMMENT ON FUNCTION "private"."sign_in_before_user_created"(text, text, jsonb) IS 'Internal, from private.before_user_created: {} to let a provider''s new person be created, or {error: {http_code: 403, message}} when no organisation would place them, their address is already an account''s, or the organisation''s sign-in is still being tested (the attempt is kept in sign_in_tests, and a passed one sets tested_at).';

COMMENT ON FUNCTION "private"."sign_in_placement"(text, jsonb, text) IS 'Internal: where a sign-in through an identity provider (Auth''s provider name: azure or sso:<id>) places the person, from the provider''s claims and email: {ok, organisation_id, organisation, enabled, name, unit_id, unit, manager_id, manager, employee_number, role, services, notes} or {ok: false, problem}. Only the organisation that configured that tenant or SSO provider, and owns the email''s domain, can receive the person.';

COMMENT ON FUNCTION "private"."update_signed_in_person"(uuid, text, jsonb, text) IS 'Internal: at a later sign-in through an organisation''s provider, the person''s name, unit, manager and employee number as private.sign_in_placement maps them (each only when found), audited as that organisation''s sign-in; nothing when the organisation no longer places them or they were moved to another.';

COMMENT ON FUNCTION "private"."write_sign_in_audit"(text, jsonb, text, uuid, text, jsonb) IS 'Internal: an audit event acted by an organisation''s identity provider ("<organisation> sign-in").';

COMMENT ON TABLE "public"."organisation_domains" IS 'Email domains of an organisation (lower case, each one organisation''s): a person signing in through the organisation''s provider must have an address in one of them. Given and taken away by national administrators, who confirm the organisation owns the domain; read by the organisation''s administrators.';

COMMENT ON TABLE "public"."organisation_sign_in" IS 'An organisation''s sign-in through its identity provider: the protocol, its Entra ID tenant (OpenID Connect) or Auth SSO provider (SAML, written only by the api function once Auth has registered it), the attribute mapping, the role and services new people get, whether it is switched on (only after a passed test) and whether its people may still sign in with a password (administrators always may). Read and written by the organisation''s administrators and national admins.';

COMMENT ON TABLE "public"."sign_in_tests" IS 'Sign-ins through an organisation''s provider while it is not switched on: what the provider sent, how it maps and whether it would have placed the person. The newest 20 per organisation are kept. Read by the organisation''s administrators and national admins; written only by Auth''s hook.';

COMMENT ON TYPE "public"."sign_in_protocol" IS 'How an organisation''s people sign in through its identity provider: OpenID Connect (Microsoft Entra ID through Auth''s azure provider) or SAML 2.0 (an Auth SSO provider).';

REVOKE ALL ON FUNCTION "private"."custom_access_token"(jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."custom_access_token"(jsonb) TO "postgres", "supabase_auth_admin";

REVOKE ALL ON FUNCTION "private"."identity_linked"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."identity_linked"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."identity_signed_in"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."identity_signed_in"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."is_attribute_mapping"(jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."is_attribute_mapping"(jsonb) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."organisation_sign_in_changed"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."organisation_sign_in_changed"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."organisation_sign_in_for"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."organisation_sign_in_for"(text) TO "anon", "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."record_saml_provider"(uuid, uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."record_saml_provider"(uuid, uuid, text) TO "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."sign_in_attribute"(public.sign_in_protocol, jsonb, jsonb, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."sign_in_attribute"(public.sign_in_protocol, jsonb, jsonb, text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."sign_in_before_user_created"(text, text, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."sign_in_before_user_created"(text, text, jsonb) TO "postgres";

REVOKE ALL ON FUNCTION "private"."sign_in_placement"(text, jsonb, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."sign_in_placement"(text, jsonb, text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."update_signed_in_person"(uuid, text, jsonb, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."update_signed_in_person"(uuid, text, jsonb, text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."write_sign_in_audit"(text, jsonb, text, uuid, text, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."write_sign_in_audit"(text, jsonb, text, uuid, text, jsonb) TO "postgres";

-- As the schema file has it: the table-wide revoke first (pg-delta lists it after the column grants,
-- which it would take away), none for anon whatever the server's defaults, all for service_role.
revoke all on public.organisation_domains from anon, authenticated, service_role;

REVOKE ALL ("domain") ON TABLE "public"."organisation_domains" FROM "authenticated";

GRANT INSERT ("domain") ON TABLE "public"."organisation_domains" TO "authenticated";

REVOKE ALL ("organisation_id") ON TABLE "public"."organisation_domains" FROM "authenticated";

GRANT INSERT ("organisation_id") ON TABLE "public"."organisation_domains" TO "authenticated";

GRANT DELETE, SELECT ON TABLE "public"."organisation_domains" TO "authenticated";

grant all on public.organisation_domains to service_role;

-- As the schema file has it: the table-wide revoke first (pg-delta lists it after the column grants,
-- which it would take away), none for anon whatever the server's defaults, all for service_role.
revoke all on public.organisation_sign_in from anon, authenticated, service_role;

REVOKE ALL ("attribute_mapping") ON TABLE "public"."organisation_sign_in" FROM "authenticated";

GRANT INSERT ("attribute_mapping"), UPDATE ("attribute_mapping") ON TABLE "public"."organisation_sign_in" TO "authenticated";

REVOKE ALL ("enabled") ON TABLE "public"."organisation_sign_in" FROM "authenticated";

GRANT INSERT ("enabled"), UPDATE ("enabled") ON TABLE "public"."organisation_sign_in" TO "authenticated";

REVOKE ALL ("new_person_role") ON TABLE "public"."organisation_sign_in" FROM "authenticated";

GRANT INSERT ("new_person_role"), UPDATE ("new_person_role") ON TABLE "public"."organisation_sign_in" TO "authenticated";

REVOKE ALL ("new_person_services") ON TABLE "public"."organisation_sign_in" FROM "authenticated";

GRANT INSERT ("new_person_services"), UPDATE ("new_person_services") ON TABLE "public"."organisation_sign_in" TO "authenticated";

REVOKE ALL ("oidc_tenant_id") ON TABLE "public"."organisation_sign_in" FROM "authenticated";

GRANT INSERT ("oidc_tenant_id"), UPDATE ("oidc_tenant_id") ON TABLE "public"."organisation_sign_in" TO "authenticated";

REVOKE ALL ("organisation_id") ON TABLE "public"."organisation_sign_in" FROM "authenticated";

GRANT INSERT ("organisation_id") ON TABLE "public"."organisation_sign_in" TO "authenticated";

REVOKE ALL ("password_sign_in") ON TABLE "public"."organisation_sign_in" FROM "authenticated";

GRANT INSERT ("password_sign_in"), UPDATE ("password_sign_in") ON TABLE "public"."organisation_sign_in" TO "authenticated";

REVOKE ALL ("protocol") ON TABLE "public"."organisation_sign_in" FROM "authenticated";

GRANT INSERT ("protocol"), UPDATE ("protocol") ON TABLE "public"."organisation_sign_in" TO "authenticated";

GRANT DELETE, SELECT ON TABLE "public"."organisation_sign_in" TO "authenticated";

grant all on public.organisation_sign_in to service_role;

-- As the schema file has it: the table-wide revoke first (pg-delta lists it after the column grants,
-- which it would take away), none for anon whatever the server's defaults, all for service_role.
revoke all on public.sign_in_tests from anon, authenticated, service_role;

GRANT SELECT ON TABLE "public"."sign_in_tests" TO "authenticated";

grant all on public.sign_in_tests to service_role;

GRANT USAGE ON TYPE "public"."sign_in_protocol" TO "postgres";

ALTER TABLE "public"."organisation_sign_in"
  ADD CONSTRAINT "organisation_sign_in_mapping" CHECK (private.is_attribute_mapping(attribute_mapping));
