-- SCIM 2.0 provisioning (RFC 7643/7644) per organisation: an organisation's identity system
-- (Microsoft Entra ID, say) creates, updates and deactivates its people through /api/scim/v2 with
-- a bearer token of that organisation (docs/decisions/scim-provisioning.md).
--
-- The token is the credential, and it is checked here, not in the function: every SCIM function
-- takes the raw token first, finds a live token by its sha256 and acts only within the token's
-- organisation. An id of another organisation's person or unit is simply not found (P0002).
-- The API calls them as anon: nothing else is granted to that role, and row-level security still
-- holds on every table the functions do not write themselves.
--
-- Mapping: a SCIM User is a profile linked through private.scim_users (userName and externalId,
-- unique within the organisation); a SCIM Group is a unit of the organisation (displayName = the
-- unit's name, members = the provisioned people placed in it). The enterprise extension's
-- department places the person in the unit of that name, its manager sets the line manager.
-- DELETE never erases a person (their training records are kept): it deactivates them and removes
-- the SCIM link.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.scim_tokens (
  id uuid primary key default gen_random_uuid(),
  organisation_id uuid not null references public.organisations (id) on delete cascade,
  label text not null,
  token_hash bytea not null,
  token_hint text not null,
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  constraint scim_tokens_token_hash_key unique (token_hash),
  constraint scim_tokens_label_length check (char_length(label) between 1 and 80),
  constraint scim_tokens_label_trimmed check (label = btrim(label)),
  constraint scim_tokens_label_visible check (not private.has_invisible_characters(label)),
  constraint scim_tokens_hash_length check (octet_length(token_hash) = 32),
  constraint scim_tokens_hint_pattern check (token_hint ~ '^[0-9a-f]{4}$')
);

create table private.scim_users (
  profile_id uuid primary key references public.profiles (id) on delete cascade,
  organisation_id uuid not null references public.organisations (id) on delete cascade,
  user_name text not null,
  external_id text,
  given_name text,
  family_name text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint scim_users_user_name_length check (char_length(user_name) between 1 and 255),
  constraint scim_users_user_name_trimmed check (user_name = btrim(user_name)),
  constraint scim_users_external_id_length check (external_id is null or char_length(external_id) between 1 and 255),
  constraint scim_users_given_name_length check (given_name is null or char_length(given_name) <= 200),
  constraint scim_users_family_name_length check (family_name is null or char_length(family_name) <= 200)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.scim_tokens is
  'Bearer tokens of an organisation''s SCIM provisioning: only the sha256 of each is kept (the token is shown once), with its last four characters to tell them apart; revoked, never deleted. Read by the organisation''s administrators and national admins (not token_hash); written only by private.create_scim_token and private.revoke_scim_token.';

comment on column public.scim_tokens.last_used_at is
  'The latest use, written at most once a minute (private.scim_token_organisation), so that many concurrent requests do not queue on this row.';

comment on table private.scim_users is
  'The SCIM identity of a provisioned person: their userName and externalId, unique within the organisation, and the name parts SCIM reads back. A person without a row is not SCIM''s (a GET by id answers 404).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index scim_tokens_organisation_idx on public.scim_tokens (organisation_id, created_at desc);

create index scim_tokens_created_by_idx on public.scim_tokens (created_by) where created_by is not null;

-- The filters Entra sends (userName eq, externalId eq), each within the organisation.
create unique index scim_users_user_name_key on private.scim_users (organisation_id, lower(user_name));

create unique index scim_users_external_id_key on private.scim_users (organisation_id, external_id)
  where external_id is not null;

-- Lists page through the organisation's provisioned people in a stable order.
create index scim_users_organisation_idx on private.scim_users (organisation_id, created_at, profile_id);

-- Groups by displayName and departments by name: units of the organisation, ignoring case.
create index units_organisation_name_idx on public.units (organisation_id, lower(name));

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.scim_tokens enable row level security;

alter table private.scim_users enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- People's SCIM identities are read and written only by the SCIM functions (their owner).
create policy "no direct access" on private.scim_users as restrictive for all to public
  using (false) with check (false);

create policy "scim tokens: administrators read their organisation's"
  on public.scim_tokens for select to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

-- No API role writes tokens, nor reads their hashes.
revoke all on public.scim_tokens from anon, authenticated, service_role;
grant all on public.scim_tokens to service_role;
grant select (id, organisation_id, label, token_hint, created_by, created_at, last_used_at, revoked_at)
  on public.scim_tokens to authenticated;

revoke all on private.scim_users from anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Functions: tokens
-- ---------------------------------------------------------------------------

-- Checks the caller administers the organisation (a national admin: any), 42501 otherwise; an
-- organisation that does not exist, or one the caller does not administer, reads alike.
create function private.check_administers_organisation(p_organisation_id uuid)
returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.is_admin() and private.administered_organisation_id() is distinct from p_organisation_id then
    raise exception 'Only the organisation''s administrators may manage its SCIM tokens' using errcode = '42501';
  end if;
  if not exists (select 1 from public.organisations o where o.id = p_organisation_id) then
    raise exception 'Organisation not found' using errcode = 'P0002';
  end if;
end;
$$;
comment on function private.check_administers_organisation(uuid) is
  'Internal: 42501 unless the caller is a national admin or the organisation''s administrator; P0002 when it does not exist.';
revoke all on function private.check_administers_organisation(uuid) from public;

create function private.create_scim_token(p_organisation_id uuid, p_label text)
returns table(token text, id uuid, organisation_id uuid, label text, token_hint text, created_by uuid,
              created_at timestamptz, last_used_at timestamptz, revoked_at timestamptz)
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.create_scim_token(uuid,text) is
  'The organisation''s administrators and national admins: a new SCIM token for the organisation, returned once with its row (only its sha256 is kept); audited. 42501 for anyone else, P0002 for no such organisation, 22023 for a bad label.';
revoke all on function private.create_scim_token(uuid,text) from public;
grant execute on function private.create_scim_token(uuid,text) to authenticated;

create function private.revoke_scim_token(p_id uuid)
returns table(id uuid, organisation_id uuid, label text, token_hint text, created_by uuid,
              created_at timestamptz, last_used_at timestamptz, revoked_at timestamptz)
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.revoke_scim_token(uuid) is
  'The organisation''s administrators and national admins: revokes a SCIM token at once (its next use is refused); audited once. 42501 for a non-administrator, P0002 for no such token or another organisation''s.';
revoke all on function private.revoke_scim_token(uuid) from public;
grant execute on function private.revoke_scim_token(uuid) to authenticated;

-- The live token of a raw bearer token, and its organisation: 28000 (401) for anything else. The
-- use is noted at most once a minute, skipping the row when another request holds it, so a burst
-- of requests never waits on this row.
create function private.scim_token_organisation(p_token text)
returns uuid
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_token_organisation(text) is
  'Internal: the organisation of a live SCIM token (by its sha256), 28000 for a malformed, unknown or revoked one; notes the use (at most once a minute) and names the token for the transaction''s audit events.';
revoke all on function private.scim_token_organisation(text) from public;

create function private.scim_audit_actor()
returns text
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_id text := nullif(current_setting('esl.scim_token_id', true), '');
begin
  if v_id is null or v_id !~ '^[0-9a-f-]{36}$' then
    return null;
  end if;
  return (select 'SCIM: ' || t.label from public.scim_tokens t where t.id = v_id::uuid);
end;
$$;
comment on function private.scim_audit_actor() is
  'Internal: "SCIM: <token label>" inside a SCIM request (the token private.scim_token_organisation checked), else null; the actor name of its audit events.';
revoke all on function private.scim_audit_actor() from public;

-- ---------------------------------------------------------------------------
-- Functions: users
-- ---------------------------------------------------------------------------

-- The SCIM User resources of an organisation's provisioned people: one filter at most (id,
-- userName or externalId), each read by its own index (one branch each, so that a generic plan
-- never falls back to the whole organisation), then the page's resources in one statement.
-- Every request of SCIM reads its person through here (a PATCH twice), and its plans are the
-- generic ones: left to choose, Postgres planned the resources' five-table join again on every
-- call (the generic plan's guess of an array's length looks dearer than a plan for one id), which
-- was most of a GET's database time. The generic plans are proven index-bound by
-- supabase/tests/query-plans.test.ts; the function calls no other of ours, so the setting stays here.
create function private.scim_user_page(p_organisation_id uuid, p_id uuid, p_user_name text, p_external_id text,
                                       p_offset integer, p_limit integer)
returns jsonb
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
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
$$;
comment on function private.scim_user_page(uuid,uuid,text,text,integer,integer) is
  'Internal: a page of an organisation''s SCIM User resources (optionally one id, userName or externalId, each by its index) with the total.';
revoke all on function private.scim_user_page(uuid,uuid,text,text,integer,integer) from public;

-- The unit a department names in the organisation: ignoring case, the one nearest the root (then
-- the oldest, then the first by id, so that the same name always finds the same unit) when names
-- repeat under different parents. An unknown department is refused (400)
-- rather than guessed or created: a typo in HR's data must not make units, and Entra shows the
-- refusal in its provisioning log until the unit exists.
create function private.scim_department_unit(p_organisation_id uuid, p_department text)
returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_department_unit(uuid,text) is
  'Internal: the organisation''s unit named by a department (ignoring case, nearest the root); null for none given; 22023 when no unit has the name.';
revoke all on function private.scim_department_unit(uuid,text) from public;

-- A manager of the same organisation, by id: anything else reads as no such person (400, never a
-- hint that the id exists elsewhere).
create function private.scim_manager_id(p_organisation_id uuid, p_manager text)
returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_manager_id(uuid,text) is
  'Internal: the manager id when it names a person of the organisation; null for none; 22023 otherwise.';
revoke all on function private.scim_manager_id(uuid,text) from public;

-- userName and email are each one person's: 23505 (409 uniqueness) when another has them.
create function private.scim_check_unique(p_organisation_id uuid, p_profile_id uuid, p_user_name text,
                                          p_external_id text, p_email text)
returns void
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_check_unique(uuid,uuid,text,text,text) is
  'Internal: 23505 (hint userName, externalId or email) when another person of the organisation has the userName or externalId, or anyone has the email.';
revoke all on function private.scim_check_unique(uuid,uuid,text,text,text) from public;

-- A person's display name from SCIM's parts: given and family names, else the formatted name or
-- displayName, else the userName.
create function private.scim_person_name(p_user jsonb, p_given text, p_family text, p_user_name text)
returns text
language plpgsql immutable
set search_path = ''
as $$
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
$$;
comment on function private.scim_person_name(jsonb,text,text,text) is
  'Internal: the display name of a SCIM user from its given and family names, formatted name, displayName or userName; 22023 when too long or invisible.';
revoke all on function private.scim_person_name(jsonb,text,text,text) from public;

-- Writes what a SCIM request changed on one provisioned person (p_user: the keys present are set,
-- a null clears; userName, externalId, givenName, familyName, formatted, displayName, email,
-- active, department, manager, preferredLanguage: cy or anything else for English), then audits the fields that really changed: an update that
-- changes nothing writes nothing.
create function private.scim_write_user(p_organisation_id uuid, p_profile_id uuid, p_user jsonb)
returns void
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_write_user(uuid,uuid,jsonb) is
  'Internal: sets the given SCIM attributes of one provisioned person of the organisation (P0002 otherwise), refusing a taken userName, externalId or email (23505), an unknown department or a manager of elsewhere (22023); audits only real changes; active goes through private.switch_user_active.';
revoke all on function private.scim_write_user(uuid,uuid,jsonb) from public;

create function private.scim_list_users(p_token text, p_user_name text, p_external_id text,
                                        p_offset integer, p_limit integer)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
begin
  return private.scim_user_page(private.scim_token_organisation(p_token), null, p_user_name, p_external_id, p_offset, p_limit);
end;
$$;
comment on function private.scim_list_users(text,text,text,integer,integer) is
  'SCIM (the token checked here): a page of the token''s organisation''s provisioned people, optionally by userName or externalId; {total, items}. 28000 for a bad token.';
revoke all on function private.scim_list_users(text,text,text,integer,integer) from public;
grant execute on function private.scim_list_users(text,text,text,integer,integer) to anon;

create function private.scim_get_user(p_token text, p_id uuid)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  v_page jsonb := private.scim_user_page(private.scim_token_organisation(p_token), p_id, null, null, 0, 1);
begin
  if p_id is null or jsonb_array_length(v_page -> 'items') = 0 then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  return v_page -> 'items' -> 0;
end;
$$;
comment on function private.scim_get_user(text,uuid) is
  'SCIM: one provisioned person of the token''s organisation as a User resource; P0002 for any other id (another organisation''s person included), 28000 for a bad token.';
revoke all on function private.scim_get_user(text,uuid) from public;
grant execute on function private.scim_get_user(text,uuid) to anon;

-- A first synchronisation fills private.scim_users from empty within a minute or two, faster than
-- autovacuum analyses it again. Plans made while its statistics said empty (every index then looks
-- as cheap as any other, and a connection keeps its plans) read all of an organisation's
-- provisioned people on each request: 30 ms of database CPU a PATCH at 5,000 people, where its keys
-- take a fraction of a millisecond. So when the table has grown to twice the pages its statistics
-- were taken at, the create that sees it analyses it (one at a time; the others go on), and every
-- connection plans its statements on the table again: about ten times from empty to 100,000 people.
create function private.scim_keep_statistics()
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if pg_relation_size('private.scim_users') / current_setting('block_size')::bigint
       > 2 * greatest((select c.relpages from pg_catalog.pg_class c where c.oid = 'private.scim_users'::regclass), 4)
     and pg_try_advisory_xact_lock(hashtext('private.scim_users statistics')) then
    analyze private.scim_users;
  end if;
end;
$$;
comment on function private.scim_keep_statistics() is
  'Internal: analyses private.scim_users when it has grown to twice the pages of its statistics (one request at a time), so that no plan is made as if it were empty while a synchronisation fills it.';
revoke all on function private.scim_keep_statistics() from public;

-- A new person of the token's organisation: an Auth user without a password (they sign in through
-- their organisation, or choose a password with "Forgot password"), its profile (the sign-up
-- trigger) placed in the organisation as a STUDENT of its service, and the SCIM link.
create function private.scim_create_user(p_token text, p_user jsonb)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_create_user(text,jsonb) is
  'SCIM: creates a person of the token''s organisation (Auth user without a password, STUDENT of the organisation''s service, placed by department and manager) and its SCIM link, or links again and reactivates a leaver SCIM removed who comes back with the same email; audited with the token as the actor. 23505 for a taken userName, externalId or email; 22023 for bad values; 28000 for a bad token.';
revoke all on function private.scim_create_user(text,jsonb) from public;
grant execute on function private.scim_create_user(text,jsonb) to anon;

create function private.scim_replace_user(p_token text, p_id uuid, p_user jsonb)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_replace_user(text,uuid,jsonb) is
  'SCIM PUT: replaces a provisioned person''s attributes (absent ones cleared) within the token''s organisation; P0002 for another id.';
revoke all on function private.scim_replace_user(text,uuid,jsonb) from public;
grant execute on function private.scim_replace_user(text,uuid,jsonb) to anon;

create function private.scim_patch_user(p_token text, p_id uuid, p_changes jsonb)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  v_org uuid := private.scim_token_organisation(p_token);
begin
  perform private.scim_write_user(v_org, p_id, coalesce(p_changes, '{}'::jsonb));
  return private.scim_user_page(v_org, p_id, null, null, 0, 1) -> 'items' -> 0;
end;
$$;
comment on function private.scim_patch_user(text,uuid,jsonb) is
  'SCIM PATCH: sets the attributes the PatchOp changed (computed by the API from the current resource) on a provisioned person of the token''s organisation; P0002 for another id.';
revoke all on function private.scim_patch_user(text,uuid,jsonb) from public;
grant execute on function private.scim_patch_user(text,uuid,jsonb) to anon;

-- Emergency services keep training records: a DELETE deactivates the person (as an administrator
-- would) and removes the SCIM link, so SCIM no longer finds them; the profile and its records stay.
create function private.scim_delete_user(p_token text, p_id uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_delete_user(text,uuid) is
  'SCIM DELETE: deactivates a provisioned person of the token''s organisation and removes their SCIM link (their records are kept); audited. P0002 for another id.';
revoke all on function private.scim_delete_user(text,uuid) from public;
grant execute on function private.scim_delete_user(text,uuid) to anon;

-- ---------------------------------------------------------------------------
-- Functions: groups (the organisation's units)
-- ---------------------------------------------------------------------------

-- Group resources of the organisation's units, optionally one id or one displayName (each by its
-- index), with their provisioned members unless p_members is false (Entra asks without them).
create function private.scim_group_page(p_organisation_id uuid, p_id uuid, p_display_name text,
                                        p_offset integer, p_limit integer, p_members boolean)
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_group_page(uuid,uuid,text,integer,integer,boolean) is
  'Internal: a page of an organisation''s units as SCIM Group resources (optionally one id or displayName), members being its provisioned people placed in the unit.';
revoke all on function private.scim_group_page(uuid,uuid,text,integer,integer,boolean) from public;

-- Moves provisioned people of the organisation into a unit (or out of it: p_unit null, only those
-- in p_from), audited as a user update each, in one statement each. An id that is not a
-- provisioned person of the organisation refuses the whole request (22023).
create function private.scim_place_members(p_organisation_id uuid, p_members uuid[], p_unit uuid, p_from uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_place_members(uuid,uuid[],uuid,uuid) is
  'Internal: places provisioned people of the organisation in a unit (or takes those of p_from out), one statement, audited per person; 22023 when an id is not one of them.';
revoke all on function private.scim_place_members(uuid,uuid[],uuid,uuid) from public;

create function private.scim_list_groups(p_token text, p_display_name text, p_offset integer, p_limit integer,
                                         p_members boolean)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
begin
  return private.scim_group_page(private.scim_token_organisation(p_token), null, p_display_name, p_offset, p_limit, p_members);
end;
$$;
comment on function private.scim_list_groups(text,text,integer,integer,boolean) is
  'SCIM: a page of the token''s organisation''s units as Groups, optionally by displayName; {total, items}. 28000 for a bad token.';
revoke all on function private.scim_list_groups(text,text,integer,integer,boolean) from public;
grant execute on function private.scim_list_groups(text,text,integer,integer,boolean) to anon;

create function private.scim_get_group(p_token text, p_id uuid, p_members boolean)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  v_page jsonb := private.scim_group_page(private.scim_token_organisation(p_token), p_id, null, 0, 1, p_members);
begin
  if p_id is null or jsonb_array_length(v_page -> 'items') = 0 then
    raise exception 'Group not found' using errcode = 'P0002';
  end if;
  return v_page -> 'items' -> 0;
end;
$$;
comment on function private.scim_get_group(text,uuid,boolean) is
  'SCIM: one unit of the token''s organisation as a Group; P0002 for any other id.';
revoke all on function private.scim_get_group(text,uuid,boolean) from public;
grant execute on function private.scim_get_group(text,uuid,boolean) to anon;

-- A new Group is a new top-level unit of the organisation; its members are moved there.
create function private.scim_create_group(p_token text, p_display_name text, p_members uuid[])
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_create_group(text,text,uuid[]) is
  'SCIM: creates a top-level unit of the token''s organisation (displayName = its name) and moves the given provisioned people there; audited. 23505 for a name already at the top, 22023 for bad values.';
revoke all on function private.scim_create_group(text,text,uuid[]) from public;
grant execute on function private.scim_create_group(text,text,uuid[]) to anon;

-- A change to a Group: a new name (null: unchanged), members added and removed, or (PUT) the
-- members replaced by p_set (null: not replaced). Removing moves the person out of the unit
-- (unplaced); a person placed elsewhere is left where they are.
create function private.scim_patch_group(p_token text, p_id uuid, p_display_name text, p_add uuid[],
                                         p_remove uuid[], p_set uuid[])
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_patch_group(text,uuid,text,uuid[],uuid[],uuid[]) is
  'SCIM PATCH and PUT of a Group: renames the unit, adds and removes provisioned members (or replaces them); audited; P0002 for another organisation''s unit, 23505 for a name taken beside it, 22023 for a member not of the organisation.';
revoke all on function private.scim_patch_group(text,uuid,text,uuid[],uuid[],uuid[]) from public;
grant execute on function private.scim_patch_group(text,uuid,text,uuid[],uuid[],uuid[]) to anon;

-- Only an empty unit goes: people, sub-units and required-training rules of a unit are the
-- organisation's administrators' to move first (a unit's rules would go with it, unnoticed).
create function private.scim_delete_group(p_token text, p_id uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.scim_delete_group(text,uuid) is
  'SCIM DELETE of a Group: removes the unit only when it has no people, sub-units or required training (55000 otherwise); audited; P0002 for another organisation''s unit.';
revoke all on function private.scim_delete_group(text,uuid) from public;
grant execute on function private.scim_delete_group(text,uuid) to anon;
