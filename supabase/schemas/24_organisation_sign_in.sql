-- Sign-in with an organisation's own identity provider (docs/decisions/organisation-sign-in.md).
--
-- Supabase Auth does the protocol work: OpenID Connect through its azure provider (one
-- multi-tenant app registration for the project) and SAML 2.0 through the SSO providers its admin
-- API registers per domain. What Auth cannot know is which organisation a person belongs to; that
-- is decided here, from what only the provider can have written:
--   * OpenID Connect: the identity's Entra ID tenant (custom_claims.tid) must be the one the
--     organisation configured, and the email's domain one of the organisation's domains;
--   * SAML: the Auth SSO provider the person came through (app_metadata.provider = 'sso:<id>') must
--     be the one registered for the organisation, and the email's domain one of its domains.
-- A domain is given to an organisation by a national administrator (who confirms it is theirs), so
-- no organisation can claim another's people, whatever its provider asserts.
--
-- Until an organisation's sign-in is switched on, every sign-in through its provider is a test:
-- refused, and what the provider sent and how it maps kept for the administrators to read. Only a
-- passed test lets them switch it on. With it on, the first sign-in creates the person (role and
-- services from the settings, unit, manager and employee number from the mapped attributes) and a
-- later one brings name, unit, manager and employee number up to date.

-- ---------------------------------------------------------------------------
-- Types and tables
-- ---------------------------------------------------------------------------

create type public.sign_in_protocol as enum ('oidc', 'saml');
comment on type public.sign_in_protocol is
  'How an organisation''s people sign in through its identity provider: OpenID Connect (Microsoft Entra ID through Auth''s azure provider) or SAML 2.0 (an Auth SSO provider).';

-- (used by organisation_sign_in's check, so made before it)
create function private.is_attribute_mapping(p_mapping jsonb)
returns boolean
language sql immutable
set search_path = ''
as $$
  select jsonb_typeof(p_mapping) = 'object'
    and not exists (
      select 1 from jsonb_each(p_mapping) e
      where e.key not in ('name', 'unit', 'manager', 'employee_number')
         or jsonb_typeof(e.value) <> 'string'
         or char_length(e.value #>> '{}') not between 1 and 200
    );
$$;
comment on function private.is_attribute_mapping(jsonb) is
  'True for an attribute mapping: an object whose keys are among name, unit, manager and employee_number, each naming a claim or attribute of 1 to 200 characters.';
revoke all on function private.is_attribute_mapping(jsonb) from public;
-- (a check constraint runs it as whoever writes the row)
grant execute on function private.is_attribute_mapping(jsonb) to authenticated, service_role;

alter table public.profiles add column employee_number text;
alter table public.profiles add constraint profiles_employee_number_length
  check (employee_number is null or char_length(employee_number) between 1 and 64);
comment on column public.profiles.employee_number is
  'The person''s number in their organisation''s HR system, as their identity provider sends it; written by sign-in and administrators.';

create table public.organisation_domains (
  domain text primary key,
  organisation_id uuid not null references public.organisations (id) on delete cascade,
  created_at timestamptz not null default now(),
  constraint organisation_domains_domain_pattern
    check (char_length(domain) <= 253 and domain ~ '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$')
);

create table public.organisation_sign_in (
  organisation_id uuid primary key references public.organisations (id) on delete cascade,
  protocol public.sign_in_protocol not null,
  oidc_tenant_id uuid,
  saml_metadata_url text,
  saml_provider_id uuid,
  attribute_mapping jsonb not null default '{}'::jsonb,
  new_person_role public.user_role not null default 'STUDENT',
  new_person_services public.service_code[] not null default '{}',
  enabled boolean not null default false,
  password_sign_in boolean not null default true,
  tested_at timestamptz,
  updated_at timestamptz not null default now(),
  constraint organisation_sign_in_oidc_tenant check (protocol <> 'oidc' or oidc_tenant_id is not null),
  constraint organisation_sign_in_metadata_url
    check (saml_metadata_url is null or (char_length(saml_metadata_url) <= 2000 and saml_metadata_url ~ '^https?://[^\s]+$')),
  constraint organisation_sign_in_role check (new_person_role in ('STUDENT', 'INSTRUCTOR')),
  constraint organisation_sign_in_mapping check (private.is_attribute_mapping(attribute_mapping)),
  constraint organisation_sign_in_enabled_tested check (not enabled or tested_at is not null),
  constraint organisation_sign_in_enabled_saml check (not enabled or protocol <> 'saml' or saml_provider_id is not null),
  constraint organisation_sign_in_password_off check (password_sign_in or enabled)
);

create table public.sign_in_tests (
  id uuid primary key default gen_random_uuid(),
  organisation_id uuid not null references public.organisations (id) on delete cascade,
  protocol public.sign_in_protocol not null,
  email text not null,
  received jsonb not null,
  mapped jsonb not null,
  passed boolean not null,
  created_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.organisation_domains is
  'Email domains of an organisation (lower case, each one organisation''s): a person signing in through the organisation''s provider must have an address in one of them. Given and taken away by national administrators, who confirm the organisation owns the domain; read by the organisation''s administrators.';

comment on table public.organisation_sign_in is
  'An organisation''s sign-in through its identity provider: the protocol, its Entra ID tenant (OpenID Connect) or Auth SSO provider (SAML, written only by the api function once Auth has registered it), the attribute mapping, the role and services new people get, whether it is switched on (only after a passed test) and whether its people may still sign in with a password (administrators always may). Read and written by the organisation''s administrators and national admins.';

comment on column public.organisation_sign_in.attribute_mapping is
  'Which claim (OpenID Connect) or attribute (SAML) holds each of name, unit, manager (an email or employee number) and employee_number; a missing key uses the provider''s usual one (name) or leaves the field alone.';

comment on column public.organisation_sign_in.tested_at is
  'When a test sign-in through the current provider last passed; cleared when the provider changes (private.organisation_sign_in_changed), written only by private.before_user_created.';

comment on table public.sign_in_tests is
  'Sign-ins through an organisation''s provider while it is not switched on: what the provider sent, how it maps and whether it would have placed the person. The newest 20 per organisation are kept. Read by the organisation''s administrators and national admins; written only by Auth''s hook.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index organisation_domains_organisation_idx on public.organisation_domains (organisation_id);

create index organisation_sign_in_tenant_idx on public.organisation_sign_in (oidc_tenant_id) where oidc_tenant_id is not null;

create unique index organisation_sign_in_saml_provider_key on public.organisation_sign_in (saml_provider_id) where saml_provider_id is not null;

create index sign_in_tests_organisation_idx on public.sign_in_tests (organisation_id, created_at desc);

-- A manager named by employee number (the mapped manager attribute, when it is not an address).
create index profiles_employee_number_idx on public.profiles (organisation_id, employee_number) where employee_number is not null;

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.organisation_domains enable row level security;

alter table public.organisation_sign_in enable row level security;

alter table public.sign_in_tests enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "organisation admins read their domains, national admins all"
  on public.organisation_domains for select to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "national admins give domains"
  on public.organisation_domains for insert to authenticated
  with check ((select private.is_admin()));

create policy "national admins take domains away"
  on public.organisation_domains for delete to authenticated
  using ((select private.is_admin()));

create policy "organisation admins read their sign-in, national admins all"
  on public.organisation_sign_in for select to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "organisation admins set up their sign-in, national admins any"
  on public.organisation_sign_in for insert to authenticated
  with check ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "organisation admins change their sign-in, national admins any"
  on public.organisation_sign_in for update to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()))
  with check ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "organisation admins remove their sign-in, national admins any"
  on public.organisation_sign_in for delete to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "organisation admins read their sign-in tests, national admins all"
  on public.sign_in_tests for select to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.organisation_domains from anon, authenticated, service_role;
grant select, delete on public.organisation_domains to authenticated;
grant insert (domain, organisation_id) on public.organisation_domains to authenticated;
grant all on public.organisation_domains to service_role;

-- The SAML provider and its metadata URL are the api function's to write (service role), once Auth
-- has registered them; tested_at is the hook's.
revoke all on public.organisation_sign_in from anon, authenticated, service_role;
grant select, delete on public.organisation_sign_in to authenticated;
grant insert (organisation_id, protocol, oidc_tenant_id, attribute_mapping, new_person_role, new_person_services, enabled, password_sign_in)
  on public.organisation_sign_in to authenticated;
grant update (protocol, oidc_tenant_id, attribute_mapping, new_person_role, new_person_services, enabled, password_sign_in)
  on public.organisation_sign_in to authenticated;
grant all on public.organisation_sign_in to service_role;

revoke all on public.sign_in_tests from anon, authenticated, service_role;
grant select on public.sign_in_tests to authenticated;
grant all on public.sign_in_tests to service_role;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- One attribute as text: a SAML attribute arrives as GoTrue maps it (under our key: at the top for a
-- standard claim such as name, else among custom_claims; possibly a list of values); an OpenID
-- Connect claim under its own name, at the top or among custom_claims.
create function private.sign_in_attribute(p_protocol public.sign_in_protocol, p_mapping jsonb, p_claims jsonb, p_field text)
returns text
language plpgsql immutable
set search_path = ''
as $$
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
$$;
comment on function private.sign_in_attribute(public.sign_in_protocol,jsonb,jsonb,text) is
  'Internal: the mapped attribute (name, unit, manager, employee_number) of what a provider sent, as trimmed text; the first of several values; null when absent.';
revoke all on function private.sign_in_attribute(public.sign_in_protocol,jsonb,jsonb,text) from public;

-- Which organisation a provider's sign-in belongs to, and how its attributes map. Never raises: a
-- refusal is {ok: false, problem}; the fields that could not be mapped are listed in notes and left
-- alone (a person is better placed without a unit than refused for HR's typo).
create function private.sign_in_placement(p_provider text, p_claims jsonb, p_email text)
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.sign_in_placement(text,jsonb,text) is
  'Internal: where a sign-in through an identity provider (Auth''s provider name: azure or sso:<id>) places the person, from the provider''s claims and email: {ok, organisation_id, organisation, enabled, name, unit_id, unit, manager_id, manager, employee_number, role, services, notes} or {ok: false, problem}. Only the organisation that configured that tenant or SSO provider, and owns the email''s domain, can receive the person.';
revoke all on function private.sign_in_placement(text,jsonb,text) from public;

-- The Activity list names who acted; a provider's sign-in is acted by "<organisation> sign-in".
create function private.write_sign_in_audit(p_action text, p_placement jsonb, p_target_type text, p_target_id uuid,
  p_target_label text, p_data jsonb)
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.audit_events (actor_id, actor_name, actor_username, action, target_type, target_id, target_label, new_data)
  values (null, coalesce(p_placement ->> 'organisation', 'An identity provider') || ' sign-in', 'sign-in', p_action,
          p_target_type, p_target_id, p_target_label, p_data);
end;
$$;
comment on function private.write_sign_in_audit(text,jsonb,text,uuid,text,jsonb) is
  'Internal: an audit event acted by an organisation''s identity provider ("<organisation> sign-in").';
revoke all on function private.write_sign_in_audit(text,jsonb,text,uuid,text,jsonb) from public;

-- Auth's before-user-created hook, for a new person coming through an identity provider: refuses
-- one no organisation placed ({error} with 403 and the reason), and while the organisation's sign-in
-- is not switched on keeps the attempt as a test and refuses it.
create function private.sign_in_before_user_created(p_provider text, p_email text, p_claims jsonb)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.sign_in_before_user_created(text,text,jsonb) is
  'Internal, from private.before_user_created: {} to let a provider''s new person be created, or {error: {http_code: 403, message}} when no organisation would place them, their address is already an account''s, or the organisation''s sign-in is still being tested (the attempt is kept in sign_in_tests, and a passed one sets tested_at).';
revoke all on function private.sign_in_before_user_created(text,text,jsonb) from public;

-- A later sign-in brings what the provider says up to date: name, unit, manager, employee number
-- (each only when mapped and found). A person the organisation no longer places, or whom an
-- administrator moved to another organisation, is left as they are.
create function private.update_signed_in_person(p_user_id uuid, p_provider text, p_claims jsonb, p_email text)
returns void
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.update_signed_in_person(uuid,text,jsonb,text) is
  'Internal: at a later sign-in through an organisation''s provider, the person''s name, unit, manager and employee number as private.sign_in_placement maps them (each only when found), audited as that organisation''s sign-in; nothing when the organisation no longer places them or they were moved to another.';
revoke all on function private.update_signed_in_person(uuid,text,jsonb,text) from public;

-- A later sign-in: Auth rewrites the identity's data with what the provider sent (the identity,
-- unlike user_metadata, is not the person's to edit).
create function private.identity_signed_in()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.provider = 'azure' or new.provider like 'sso:%' then
    perform private.update_signed_in_person(new.user_id, new.provider, new.identity_data,
      coalesce(new.identity_data ->> 'email', (select u.email from auth.users u where u.id = new.user_id)));
  end if;
  return null;
end;
$$;
comment on function private.identity_signed_in() is
  'After-update trigger on auth.identities: a later sign-in through an organisation''s provider brings the person''s name, unit, manager and employee number up to date.';
revoke all on function private.identity_signed_in() from public;

-- A person linking their organisation's sign-in to the account they already have (Auth's manual
-- linking: they are signed in, so they proved their password): only the provider of their own
-- organisation, switched on, for an address at one of its domains. A new person's first identity
-- (made with them) is not a link.
create function private.identity_linked()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.identity_linked() is
  'After-insert trigger on auth.identities: an organisation''s provider linked to an existing account (Auth''s manual linking) only for a person of that organisation, its sign-in switched on, at one of its domains (42501 otherwise); audited as sign_in.linked.';
revoke all on function private.identity_linked() from public;

-- Changing the provider (protocol, tenant, SAML provider) needs a new test before it is on again.
create function private.organisation_sign_in_changed()
returns trigger
language plpgsql
set search_path = ''
as $$
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
$$;
comment on function private.organisation_sign_in_changed() is
  'Before insert or update on organisation_sign_in: a new or changed provider (protocol, tenant, SAML provider) clears tested_at and switches sign-in off (password sign-in back on) until a test passes; tested_at is written only by Auth''s hook; new people get only the organisation''s service (23514).';
revoke all on function private.organisation_sign_in_changed() from public;

-- The organisation's SAML provider as Auth registered it: the api function's, after checking the
-- caller administers the organisation (the service role only).
create function private.record_saml_provider(p_organisation_id uuid, p_provider_id uuid, p_metadata_url text)
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.organisation_sign_in
  set saml_provider_id = p_provider_id, saml_metadata_url = p_metadata_url
  where organisation_id = p_organisation_id and protocol = 'saml';
  if not found then
    raise exception 'The organisation has no SAML sign-in' using errcode = 'P0002';
  end if;
end;
$$;
comment on function private.record_saml_provider(uuid,uuid,text) is
  'The Auth SSO provider (and metadata URL) of an organisation''s SAML sign-in, written by the api function once Auth has registered it; P0002 without a SAML sign-in.';
revoke all on function private.record_saml_provider(uuid,uuid,text) from public;
grant execute on function private.record_saml_provider(uuid,uuid,text) to service_role;

-- The sign-in page: which way a work address signs in (its organisation's provider, switched on).
create function private.organisation_sign_in_for(p_email text)
returns table (protocol public.sign_in_protocol, organisation_name text, domain text, password_sign_in boolean)
language sql stable security definer
set search_path = ''
as $$
  select s.protocol, o.name, d.domain, s.password_sign_in
  from public.organisation_domains d
  join public.organisation_sign_in s on s.organisation_id = d.organisation_id and s.enabled
  join public.organisations o on o.id = d.organisation_id
  where d.domain = split_part(lower(btrim(p_email)), '@', 2);
$$;
comment on function private.organisation_sign_in_for(text) is
  'The sign-in of the organisation that owns an address''s domain, when switched on: its protocol, name, the domain and whether its people may use a password; no row otherwise. For visitors (anon).';
revoke all on function private.organisation_sign_in_for(text) from public;
grant execute on function private.organisation_sign_in_for(text) to anon, authenticated, service_role;

-- Auth's custom access token hook: a person of an organisation that signs its people in through
-- its provider, with password sign-in off, gets no token for a session opened any other way
-- (administrators keep their password, to mend a broken provider). A session opened through a
-- provider is audited once, when it opens.
create function private.custom_access_token(event jsonb)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.custom_access_token(jsonb) is
  'Auth''s custom access token hook: {claims} unchanged, or {error: {http_code: 403, message}} for a person (not an administrator) of an organisation whose sign-in is on with password sign-in off, when the session was not opened through an identity provider (amr oauth or sso/saml); a session opened through one (authentication_method oauth or sso/saml) is audited as sign_in.succeeded.';
revoke all on function private.custom_access_token(jsonb) from public;
grant execute on function private.custom_access_token(jsonb) to supabase_auth_admin;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger organisation_sign_in_changed
  before insert or update on public.organisation_sign_in
  for each row execute function private.organisation_sign_in_changed();

create trigger on_auth_identity_linked
  after insert on auth.identities
  for each row execute function private.identity_linked();

create trigger on_auth_identity_signed_in
  after update of identity_data on auth.identities
  for each row when (old.identity_data is distinct from new.identity_data)
  execute function private.identity_signed_in();
