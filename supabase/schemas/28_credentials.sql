-- Open Badges 3.0 credentials: every certificate issued or reissued (05_certificates.sql) also
-- becomes an OpenBadgeCredential signed by its issuer's Ed25519 key. Design:
-- docs/decisions/open-badges-credentials.md.
--
-- * private.issuer_keys: each issuer's signing keys (an organisation's id, or 'national' for
--   national courses). The secret is granted to no API role and read only by the function's own
--   service_role connection; the public part is read through private.issuer_public_keys.
--   Rotation retires the current key (kept for verification) and adds a new one.
-- * private.credential_status_lists: each issuer's Bitstring Status Lists (revocation) and the
--   next free index of each; a list's bits are the credentials of revoked certificates.
-- * public.course_achievements: a course's achievement (name, description, criteria, image,
--   alignments); a course without a row issues one made of its title and description.
-- * public.credentials: one per certificate issue and reissue, made pending (credential null) by
--   the trigger on certificates and signed by the function right after the request that issued
--   it, or on its first read. The holder reads their own and changes only share_enabled.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table private.issuer_keys (
  id uuid primary key default gen_random_uuid(),
  issuer_id text not null,
  public_key_multibase text not null,
  secret_key_multibase text not null,
  created_at timestamptz not null default now(),
  retired_at timestamptz,
  constraint issuer_keys_issuer_shape
    check (issuer_id = 'national' or issuer_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
  constraint issuer_keys_public_shape check (public_key_multibase ~ '^z[1-9A-HJ-NP-Za-km-z]{40,60}$'),
  constraint issuer_keys_secret_shape check (secret_key_multibase ~ '^z[1-9A-HJ-NP-Za-km-z]{40,100}$')
);

create table private.credential_status_lists (
  id uuid primary key default gen_random_uuid(),
  issuer_id text not null,
  size integer not null default 131072,
  next_index integer not null default 0,
  created_at timestamptz not null default now(),
  constraint credential_status_lists_size check (size between 8 and 1048576),
  constraint credential_status_lists_size_bytes check (size % 8 = 0),
  constraint credential_status_lists_next_index check (next_index between 0 and size)
);

create table public.course_achievements (
  course_id uuid primary key references public.courses (id) on delete cascade,
  name text not null,
  description text not null,
  criteria text not null,
  image_url text,
  alignments jsonb not null default '[]'::jsonb,
  updated_at timestamptz not null default now(),
  constraint course_achievements_name_length check (char_length(btrim(name)) between 1 and 200),
  constraint course_achievements_description_length check (char_length(btrim(description)) between 1 and 2000),
  constraint course_achievements_criteria_length check (char_length(btrim(criteria)) between 1 and 2000),
  constraint course_achievements_image_url_shape
    check (image_url is null or (image_url ~ '^https?://[^\s]+$' and char_length(image_url) <= 2000)),
  constraint course_achievements_alignments_shape
    check (jsonb_typeof(alignments) = 'array' and jsonb_array_length(alignments) <= 20)
);

create table public.credentials (
  id uuid primary key default gen_random_uuid(),
  certificate_id uuid not null references public.certificates (id) on delete cascade,
  user_id uuid references public.profiles (id) on delete set null,
  issuer_id text not null,
  key_id uuid references private.issuer_keys (id),
  status_list_id uuid not null references private.credential_status_lists (id),
  status_index integer not null,
  credential jsonb,
  created_at timestamptz not null default now(),
  signed_at timestamptz,
  share_enabled boolean not null default false,
  share_id text not null default encode(extensions.gen_random_bytes(16), 'hex'),
  constraint credentials_share_id_key unique (share_id),
  constraint credentials_status_entry_key unique (status_list_id, status_index),
  constraint credentials_signed_complete check ((credential is null) = (signed_at is null) and (credential is null) = (key_id is null))
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table private.issuer_keys is
  'Issuers'' Ed25519 signing keys (Multikey, multibase). The secret is read only by the function''s service_role connection; no API role has any grant. A retired key stays for verification.';
comment on column private.issuer_keys.issuer_id is
  'The organisation''s id, or national for national courses.';
comment on column private.issuer_keys.retired_at is
  'When rotation replaced it; null = the key that signs now (one per issuer).';

comment on table private.credential_status_lists is
  'Bitstring Status Lists (revocation) per issuer: size bits, next_index the next free entry. The bits are computed from the certificates'' revoked_at when the list is served.';

comment on table public.course_achievements is
  'The Open Badges achievement of a course''s certificate. Readable where the course is; written by those who may edit the course.';
comment on column public.course_achievements.criteria is
  'The criteria in words (Criteria.narrative).';
comment on column public.course_achievements.alignments is
  'Up to 20 alignments [{targetFramework, targetCode, targetName, targetUrl}] to a framework such as the Core Skills Training Framework or a National Occupational Standard.';

comment on table public.credentials is
  'An OpenBadgeCredential per certificate issue and reissue. credential is the signed JSON, null while pending (the function signs it). The holder reads their own and changes only share_enabled.';
comment on column public.credentials.user_id is
  'The holder (the certificate''s learner).';
comment on column public.credentials.share_id is
  'Unguessable id of the public share link, answered only while share_enabled.';
comment on column public.credentials.status_index is
  'The credential''s entry in its status list (BitstringStatusListEntry.statusListIndex).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create unique index issuer_keys_current_key on private.issuer_keys (issuer_id) where retired_at is null;
create index issuer_keys_issuer_idx on private.issuer_keys (issuer_id, created_at);
create index credential_status_lists_issuer_idx on private.credential_status_lists (issuer_id, created_at);
create index credentials_certificate_idx on public.credentials (certificate_id, created_at desc);
create index credentials_user_idx on public.credentials (user_id, created_at desc);
create index credentials_key_idx on public.credentials (key_id);
create index credentials_pending_idx on public.credentials (created_at) where credential is null;

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table private.issuer_keys enable row level security;
alter table private.credential_status_lists enable row level security;
alter table public.course_achievements enable row level security;
alter table public.credentials enable row level security;

-- The policies' helper (before them, as they use it).
-- Mirrors the courses update policy (02_courses_and_modules.sql): a national administrator, the
-- course's instructor author, or the administrator of the course's organisation.
create function private.may_edit_course(p_course_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.courses c
    where c.id = p_course_id
      and (
        private.is_admin()
        or (c.author_id = (select auth.uid()) and private."current_role"() = 'INSTRUCTOR'
            and (c.organisation_id is null or c.organisation_id = private.current_organisation_id()))
        or (c.organisation_id is not null and c.organisation_id = private.administered_organisation_id())
      )
  );
end;
$$;
comment on function private.may_edit_course(uuid) is
  'True when the caller may edit the course (mirrors the courses update policy).';
revoke all on function private.may_edit_course(uuid) from public;
grant execute on function private.may_edit_course(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "issuer keys: the function's service role only" on private.issuer_keys
  for all to service_role using (true) with check (true);

create policy "status lists: the function's service role only" on private.credential_status_lists
  for all to service_role using (true) with check (true);

create policy "achievements: visitors read where the course is" on public.course_achievements
  for select to anon
  using ((select private.can_view_course(course_id)));

create policy "achievements: people read where the course is" on public.course_achievements
  for select to authenticated
  using ((select private.can_view_course(course_id)));

create policy "achievements: those who may edit the course add" on public.course_achievements
  for insert to authenticated
  with check ((select private.may_edit_course(course_id)));

create policy "achievements: those who may edit the course change" on public.course_achievements
  for update to authenticated
  using ((select private.may_edit_course(course_id)))
  with check ((select private.may_edit_course(course_id)));

create policy "achievements: those who may edit the course remove" on public.course_achievements
  for delete to authenticated
  using ((select private.may_edit_course(course_id)));

create policy "credentials: the holder reads" on public.credentials
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "credentials: the holder switches sharing" on public.credentials
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on private.issuer_keys from public, anon, authenticated, service_role;
grant select, insert, update on private.issuer_keys to service_role;

revoke all on private.credential_status_lists from public, anon, authenticated, service_role;
grant select, insert, update on private.credential_status_lists to service_role;

revoke all on public.course_achievements from anon, authenticated, service_role;
grant select on public.course_achievements to anon, authenticated;
grant insert (course_id, name, description, criteria, image_url, alignments),
  update (name, description, criteria, image_url, alignments), delete
  on public.course_achievements to authenticated;
grant all on public.course_achievements to service_role;

revoke all on public.credentials from anon, authenticated, service_role;
grant select on public.credentials to authenticated;
grant update (share_enabled) on public.credentials to authenticated;
grant all on public.credentials to service_role;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- The issuer of a course's credentials: its organisation, or national.
create function private.course_issuer_id(p_course_id uuid)
returns text
language sql stable security definer
set search_path = ''
as $$
  select coalesce((select c.organisation_id::text from public.courses c where c.id = p_course_id), 'national')
$$;
comment on function private.course_issuer_id(uuid) is
  'The issuer of the course''s credentials: its organisation''s id, or national (also for a deleted course).';
revoke all on function private.course_issuer_id(uuid) from public;

-- The next free entry of the issuer's status list (a new list when the last is full).
create function private.take_status_entry(p_issuer_id text, out list_id uuid, out entry integer)
language plpgsql security definer
set search_path = ''
as $$
begin
  update private.credential_status_lists l
  set next_index = l.next_index + 1
  where l.id = (select s.id from private.credential_status_lists s
                where s.issuer_id = p_issuer_id and s.next_index < s.size
                order by s.created_at limit 1 for update)
  returning l.id, l.next_index - 1 into list_id, entry;
  if list_id is null then
    insert into private.credential_status_lists (issuer_id, next_index) values (p_issuer_id, 1)
    returning id, 0 into list_id, entry;
  end if;
end;
$$;
comment on function private.take_status_entry(text) is
  'Internal: takes the next free entry of the issuer''s status list, making a new list when the last is full.';
revoke all on function private.take_status_entry(text) from public;

-- After a certificate is issued, and after each reissue: a pending credential for the function to sign.
create function private.add_pending_credential()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_issuer text := private.course_issuer_id(new.course_id);
  v_entry record;
begin
  if tg_op = 'UPDATE' and new.reissued_at is not distinct from old.reissued_at then
    return null;
  end if;
  select * into v_entry from private.take_status_entry(v_issuer);
  insert into public.credentials (certificate_id, user_id, issuer_id, status_list_id, status_index)
  values (new.id, new.user_id, v_issuer, v_entry.list_id, v_entry.entry);
  return null;
end;
$$;
comment on function private.add_pending_credential() is
  'After insert of a certificate and after a reissue: adds its pending credential (issuer, status list entry) for the function to sign.';
revoke all on function private.add_pending_credential() from public;

create trigger course_achievements_updated_at
  before update on public.course_achievements
  for each row execute function private.set_updated_at();

create trigger certificates_add_credential
  after insert on public.certificates
  for each row execute function private.add_pending_credential();

create trigger certificates_reissue_credential
  after update of reissued_at on public.certificates
  for each row execute function private.add_pending_credential();

-- The public part of an issuer's keys, current and retired, for its profile and key documents.
create function private.issuer_public_keys(p_issuer_id text)
returns table(id uuid, public_key_multibase text, created_at timestamptz, retired_at timestamptz)
language sql stable security definer
set search_path = ''
as $$
  select k.id, k.public_key_multibase, k.created_at, k.retired_at
  from private.issuer_keys k
  where k.issuer_id = p_issuer_id
  order by k.created_at
$$;
comment on function private.issuer_public_keys(text) is
  'Anyone: the public keys of the issuer (current and retired), never the secret.';
revoke all on function private.issuer_public_keys(text) from public;
grant execute on function private.issuer_public_keys(text) to anon, authenticated, service_role;

-- An issuer's public profile: the organisation's name, or the site's for national.
create function private.issuer_profile(p_issuer_id text)
returns table(issuer_id text, name text)
language sql stable security definer
set search_path = ''
as $$
  select p_issuer_id, s.site_name from public.settings s where p_issuer_id = 'national' and s.id
  union all
  select o.id::text, o.name from public.organisations o
  where p_issuer_id <> 'national' and o.id::text = p_issuer_id
$$;
comment on function private.issuer_profile(text) is
  'Anyone: the issuer''s name (an organisation''s, or the site''s for national); no row for an unknown issuer.';
revoke all on function private.issuer_profile(text) from public;
grant execute on function private.issuer_profile(text) to anon, authenticated, service_role;

-- The revoked entries of a status list: the credentials of revoked certificates.
create function private.status_list_revoked(p_list_id uuid)
returns table(issuer_id text, size integer, revoked integer[])
language sql stable security definer
set search_path = ''
as $$
  select l.issuer_id, l.size,
         coalesce((select array_agg(cr.status_index order by cr.status_index)
                   from public.credentials cr
                   join public.certificates c on c.id = cr.certificate_id
                   where cr.status_list_id = l.id and c.revoked_at is not null), '{}')
  from private.credential_status_lists l
  where l.id = p_list_id
$$;
comment on function private.status_list_revoked(uuid) is
  'Anyone: the status list''s issuer, size and revoked entries (credentials of revoked certificates); no row for an unknown list.';
revoke all on function private.status_list_revoked(uuid) from public;
grant execute on function private.status_list_revoked(uuid) to anon, authenticated, service_role;

-- A credential its holder shares: only while sharing is on and it is signed.
create function private.shared_credential(p_share_id text)
returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select cr.credential from public.credentials cr
  where cr.share_id = p_share_id and cr.share_enabled and cr.credential is not null
$$;
comment on function private.shared_credential(text) is
  'Anyone: the signed credential with this share id while its holder shares it, else null.';
revoke all on function private.shared_credential(text) from public;
grant execute on function private.shared_credential(text) to anon, authenticated, service_role;
