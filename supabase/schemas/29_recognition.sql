-- Recognition of credentials when people move: an organisation's administrators list the issuers
-- they trust (public.trusted_issuers) and which of those issuers' achievements they accept as
-- equivalent to a course of their own (public.recognition_equivalences). A person's credential
-- that matches counts for that organisation's required training of the course until its
-- validUntil: THE status rule (private.required_training_states_query, 07) reads it as status
-- "recognised" with its origin. Two kinds of credential count:
-- * uploaded (public.held_credentials): a credential JSON the holder uploaded, verified by the api
--   function (proof, issuer key, status list, dates, and that its hashed email is the holder's)
--   and written only through private.record_held_credential, which only the function's
--   service_role may call; the holder may delete it, administrators of their organisation read it;
-- * earned here: the person's latest certificate (not revoked, not expired) of a course of this
--   platform that an equivalence names (platform_course_id): it counts without upload, whichever
--   organisation the person belongs to now, and its revocation stops the recognition at once.
-- Every write here notes a change for the kept compliance counts (20_compliance_summary_counts.sql).
-- Why: docs/decisions/recognition-of-credentials.md.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.trusted_issuers (
  id uuid primary key default gen_random_uuid(),
  organisation_id uuid not null references public.organisations (id) on delete cascade,
  issuer_id text not null,
  name text not null,
  platform_issuer text,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  constraint trusted_issuers_issuer_key unique (organisation_id, issuer_id),
  constraint trusted_issuers_issuer_id_length check (char_length(issuer_id) between 8 and 2000),
  -- An HTTPS URL (http only for a local address) or a DID, without spaces.
  constraint trusted_issuers_issuer_id_shape check (issuer_id
    ~ '^(https://[^[:space:]]+|http://(localhost|127[.]0[.]0[.]1)(:[0-9]+)?/[^[:space:]]*|did:[a-z0-9]+:[^[:space:]]+)$'),
  constraint trusted_issuers_name_length check (char_length(btrim(name)) between 1 and 200),
  -- An issuer of this platform: the organisation's id, or 'national', the last part of its URL.
  constraint trusted_issuers_platform_issuer_shape check (platform_issuer is null
    or (platform_issuer = 'national' or platform_issuer ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')
       and right(issuer_id, char_length(platform_issuer) + 9) = '/issuers/' || platform_issuer)
);

create table public.recognition_equivalences (
  id uuid primary key default gen_random_uuid(),
  organisation_id uuid not null,
  course_id uuid not null references public.courses (id) on delete cascade,
  issuer_id text not null,
  achievement_id text not null,
  achievement_name text not null,
  platform_course_id uuid references public.courses (id) on delete cascade,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  constraint recognition_equivalences_issuer_fkey foreign key (organisation_id, issuer_id)
    references public.trusted_issuers (organisation_id, issuer_id) on delete cascade,
  constraint recognition_equivalences_key unique (organisation_id, issuer_id, achievement_id, course_id),
  constraint recognition_equivalences_achievement_id_length check (char_length(achievement_id) between 1 and 2000),
  constraint recognition_equivalences_achievement_name_length check (char_length(btrim(achievement_name)) between 1 and 300),
  constraint recognition_equivalences_other_course check (platform_course_id is distinct from course_id)
);

create table public.held_credentials (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  credential jsonb not null,
  credential_hash text not null,
  issuer_id text not null,
  issuer_name text not null,
  achievement_id text not null,
  achievement_name text not null,
  valid_from timestamptz,
  valid_until timestamptz,
  verified boolean not null,
  verification jsonb not null,
  verified_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  constraint held_credentials_once unique (user_id, credential_hash),
  constraint held_credentials_hash_shape check (credential_hash ~ '^[0-9a-f]{64}$'),
  constraint held_credentials_issuer_id_length check (char_length(issuer_id) between 1 and 2000),
  constraint held_credentials_issuer_name_length check (char_length(issuer_name) between 1 and 300),
  constraint held_credentials_achievement_id_length check (char_length(achievement_id) between 1 and 2000),
  constraint held_credentials_achievement_name_length check (char_length(achievement_name) between 1 and 300),
  constraint held_credentials_credential_size check (pg_column_size(credential) <= 1048576),
  constraint held_credentials_verification_shape check (jsonb_typeof(verification) = 'object')
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.trusted_issuers is
  'Issuers of credentials an organisation trusts (its administrators''): only their credentials can be recognised there.';

comment on column public.trusted_issuers.issuer_id is
  'The issuer''s id as its credentials name it: an HTTPS profile URL or a DID.';

comment on column public.trusted_issuers.name is
  'The issuer''s name as the organisation shows it (the origin of a recognised credential).';

comment on column public.trusted_issuers.platform_issuer is
  'When the issuer is one of this platform''s (an organisation''s id, or national): the last part of its profile URL; null for others.';

comment on table public.recognition_equivalences is
  'An achievement of a trusted issuer an organisation accepts as equivalent to its required course.';

comment on column public.recognition_equivalences.course_id is
  'The organisation''s own course (or a national one) the achievement counts for.';

comment on column public.recognition_equivalences.achievement_id is
  'The achievement''s id as credentials name it (credentialSubject.achievement.id).';

comment on column public.recognition_equivalences.platform_course_id is
  'When the achievement is of a course of this platform: that course, whose certificates then count without upload.';

comment on table public.held_credentials is
  'Credentials people uploaded, as the api function verified them (written only by private.record_held_credential).';

comment on column public.held_credentials.credential is
  'The signed credential JSON as uploaded.';

comment on column public.held_credentials.credential_hash is
  'sha256 (hex) of the uploaded text: the same credential is held once.';

comment on column public.held_credentials.verified is
  'Every check passed on upload (proof, issuer key, status, dates, holder): only then can it be recognised.';

comment on column public.held_credentials.verification is
  'The verifier''s outcome on upload: per-check results and machine codes.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index trusted_issuers_created_by_idx on public.trusted_issuers (created_by);

create index recognition_equivalences_course_idx on public.recognition_equivalences (course_id);

create index recognition_equivalences_platform_course_idx on public.recognition_equivalences (platform_course_id);

create index recognition_equivalences_created_by_idx on public.recognition_equivalences (created_by);

create index held_credentials_match_idx on public.held_credentials (issuer_id, achievement_id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.trusted_issuers enable row level security;

alter table public.recognition_equivalences enable row level security;

alter table public.held_credentials enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "administrators read their organisation's trusted issuers"
  on public.trusted_issuers for select to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "administrators add trusted issuers to their organisation"
  on public.trusted_issuers for insert to authenticated
  with check ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "administrators remove their organisation's trusted issuers"
  on public.trusted_issuers for delete to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "administrators read their organisation's equivalences"
  on public.recognition_equivalences for select to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "administrators add equivalences to their organisation"
  on public.recognition_equivalences for insert to authenticated
  with check ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "administrators remove their organisation's equivalences"
  on public.recognition_equivalences for delete to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "holders and administrators read held credentials"
  on public.held_credentials for select to authenticated
  using (user_id = (select auth.uid()) or user_id in (select private.people_i_administer()));

create policy "holders remove their held credentials"
  on public.held_credentials for delete to authenticated
  using (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.trusted_issuers from anon, authenticated, service_role;
grant select, delete on public.trusted_issuers to authenticated;
grant insert (organisation_id, issuer_id, name, platform_issuer) on public.trusted_issuers to authenticated;
grant all on public.trusted_issuers to service_role;

revoke all on public.recognition_equivalences from anon, authenticated, service_role;
grant select, delete on public.recognition_equivalences to authenticated;
grant insert (organisation_id, course_id, issuer_id, achievement_id, achievement_name, platform_course_id)
  on public.recognition_equivalences to authenticated;
grant all on public.recognition_equivalences to service_role;

-- No insert or update for any client: only the function that verified a credential records it.
revoke all on public.held_credentials from anon, authenticated, service_role;
grant select, delete on public.held_credentials to authenticated;
grant all on public.held_credentials to service_role;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- A trusted issuer's name trimmed; created_by the API caller.
create function private.prepare_trusted_issuer()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.name := btrim(new.name);
  if current_user in ('anon', 'authenticated') then
    new.created_by := (select auth.uid());
  end if;
  return new;
end;
$$;
comment on function private.prepare_trusted_issuer() is
  'Before insert on trusted_issuers: trims the name; created_by is the API caller.';
revoke all on function private.prepare_trusted_issuer() from public;

-- An equivalence counts for a course the organisation can require (its own or a national one); an
-- achievement of a course of this platform is of that course's issuer (the trusted issuer's
-- platform_issuer) and names the course in its id.
create function private.prepare_recognition_equivalence()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_course_organisation uuid;
  v_platform_issuer text;
  v_source_organisation uuid;
begin
  new.achievement_name := btrim(new.achievement_name);
  if current_user in ('anon', 'authenticated') then
    new.created_by := (select auth.uid());
  end if;
  select c.organisation_id into v_course_organisation from public.courses c where c.id = new.course_id;
  if not found or v_course_organisation is not null and v_course_organisation <> new.organisation_id then
    raise exception 'The course must be of the organisation or a national one'
      using errcode = '22023', hint = 'courseId';
  end if;
  if new.platform_course_id is not null then
    select t.platform_issuer into v_platform_issuer
    from public.trusted_issuers t where t.organisation_id = new.organisation_id and t.issuer_id = new.issuer_id;
    select c.organisation_id into v_source_organisation from public.courses c where c.id = new.platform_course_id;
    if not found or v_platform_issuer is distinct from coalesce(v_source_organisation::text, 'national')
       or strpos(new.achievement_id, new.platform_course_id::text) = 0 then
      raise exception 'The achievement is not of that issuer''s course'
        using errcode = '22023', hint = 'achievementId';
    end if;
  end if;
  return new;
end;
$$;
comment on function private.prepare_recognition_equivalence() is
  'Before insert on recognition_equivalences: the course is the organisation''s or national (22023, hint courseId); a platform course''s achievement is of the trusted issuer''s organisation and names the course (22023, hint achievementId); created_by is the API caller.';
revoke all on function private.prepare_recognition_equivalence() from public;

-- Trusted issuers and equivalences (per statement): their organisations' kept compliance counts.
create function private.note_compliance_change_of_recognition()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.note_compliance_change(array(select distinct n.organisation_id from new_rows n));
  else
    perform private.note_compliance_change(array(select distinct o.organisation_id from old_rows o));
  end if;
  return null;
end;
$$;
comment on function private.note_compliance_change_of_recognition() is
  'After insert / delete of trusted_issuers or recognition_equivalences (per statement): notes a change for their organisations.';
revoke all on function private.note_compliance_change_of_recognition() from public;

-- The audit record of a trusted issuer or an equivalence added or removed, on its organisation.
create function private.audit_recognition()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
  v_value jsonb;
  v_action text;
begin
  if tg_table_name = 'trusted_issuers' then
    v_value := jsonb_build_object('issuerId', v_row ->> 'issuer_id', 'name', v_row ->> 'name');
    v_action := case when tg_op = 'DELETE' then 'trusted_issuer.removed' else 'trusted_issuer.added' end;
  else
    v_value := jsonb_build_object('courseId', v_row ->> 'course_id', 'issuerId', v_row ->> 'issuer_id',
      'achievementId', v_row ->> 'achievement_id', 'achievementName', v_row ->> 'achievement_name');
    v_action := case when tg_op = 'DELETE' then 'recognition_equivalence.removed' else 'recognition_equivalence.added' end;
  end if;
  perform private.write_audit(v_action, 'organisation', (v_row ->> 'organisation_id')::uuid,
    (select o.name from public.organisations o where o.id = (v_row ->> 'organisation_id')::uuid),
    case when tg_op = 'DELETE' then v_value end, case when tg_op = 'INSERT' then v_value end);
  return null;
end;
$$;
comment on function private.audit_recognition() is
  'After insert / delete of a trusted issuer or an equivalence: records trusted_issuer.added / .removed or recognition_equivalence.added / .removed on its organisation.';
revoke all on function private.audit_recognition() from public;

-- The only way a held credential is written: by the api function (service_role) after it verified
-- the credential and that its subject's hashed email is the holder's. The same credential again
-- updates its outcome (a later upload may verify what an earlier one could not).
create function private.record_held_credential(
  p_user_id uuid,
  p_credential jsonb,
  p_credential_hash text,
  p_issuer_id text,
  p_issuer_name text,
  p_achievement_id text,
  p_achievement_name text,
  p_valid_from timestamptz,
  p_valid_until timestamptz,
  p_verified boolean,
  p_verification jsonb
)
returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_id uuid;
begin
  if not exists (select 1 from public.profiles p where p.id = p_user_id and p.deactivated_at is null) then
    raise exception 'Person not found' using errcode = 'P0002';
  end if;
  insert into public.held_credentials as h (user_id, credential, credential_hash, issuer_id, issuer_name,
    achievement_id, achievement_name, valid_from, valid_until, verified, verification)
  values (p_user_id, p_credential, p_credential_hash, p_issuer_id, left(p_issuer_name, 300), p_achievement_id,
    left(p_achievement_name, 300), p_valid_from, p_valid_until, p_verified, p_verification)
  on conflict (user_id, credential_hash) do update
    set verified = excluded.verified, verification = excluded.verification, verified_at = now()
  returning h.id into v_id;
  return v_id;
end;
$$;
comment on function private.record_held_credential(uuid,jsonb,text,text,text,text,text,timestamptz,timestamptz,boolean,jsonb) is
  'The api function (service_role) records a credential a person uploaded, with its verification outcome; the same credential again updates the outcome. Returns its id.';
revoke all on function
  private.record_held_credential(uuid,jsonb,text,text,text,text,text,timestamptz,timestamptz,boolean,jsonb) from public;
grant execute on function
  private.record_held_credential(uuid,jsonb,text,text,text,text,text,timestamptz,timestamptz,boolean,jsonb) to service_role;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger trusted_issuers_prepare
  before insert on public.trusted_issuers
  for each row execute function private.prepare_trusted_issuer();

create trigger recognition_equivalences_prepare
  before insert on public.recognition_equivalences
  for each row execute function private.prepare_recognition_equivalence();

create trigger trusted_issuers_audit
  after insert or delete on public.trusted_issuers
  for each row execute function private.audit_recognition();

create trigger recognition_equivalences_audit
  after insert or delete on public.recognition_equivalences
  for each row execute function private.audit_recognition();

create trigger trusted_issuers_compliance_insert
  after insert on public.trusted_issuers
  referencing new table as new_rows
  for each statement execute function private.note_compliance_change_of_recognition();

create trigger trusted_issuers_compliance_delete
  after delete on public.trusted_issuers
  referencing old table as old_rows
  for each statement execute function private.note_compliance_change_of_recognition();

create trigger recognition_equivalences_compliance_insert
  after insert on public.recognition_equivalences
  referencing new table as new_rows
  for each statement execute function private.note_compliance_change_of_recognition();

create trigger recognition_equivalences_compliance_delete
  after delete on public.recognition_equivalences
  referencing old table as old_rows
  for each statement execute function private.note_compliance_change_of_recognition();

create trigger held_credentials_compliance_insert
  after insert on public.held_credentials
  referencing new table as new_rows
  for each statement execute function private.note_compliance_change_of_people();

create trigger held_credentials_compliance_delete
  after delete on public.held_credentials
  referencing old table as old_rows
  for each statement execute function private.note_compliance_change_of_people();

create trigger held_credentials_compliance_update
  after update on public.held_credentials
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.note_compliance_change_of_people();
