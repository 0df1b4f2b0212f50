-- SCORM packages: a module of kind 'scorm' plays an uploaded SCORM 1.2 or 2004 package.
--
-- * scorm_packages: one row per scorm module, what the api function read from the package's
--   imsmanifest.xml (version, title, the SCOs in the organisation's order with their launch files)
--   and where its files lie in the public bucket scorm-content (`<module_id>/<revision>/`).
-- * The package is untrusted: the api function checks the zip (docs/SECURITY.md) and unpacks it
--   with the service role; only then does private.save_scorm_package record it, for a caller who may
--   edit the module (the rule of the course_modules update policy). A replacement bumps the revision;
--   learners' records are keyed by the module, so they outlive a replacement.
-- * file_hashes: the SHA-256 of each file as the api function inflated and stored it, which the
--   offline answer signs (a manifest the content origin's service worker checks cached files by:
--   every package shares that origin, so any package could write its Cache Storage).
-- * Everyone who may read the module reads its package row (the course_modules select policies);
--   authors change the completion rule through private.set_scorm_settings. Nobody writes the table
--   directly through the API roles.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

-- (used by scorm_packages' check, so made before it)
create function private.is_scorm_file_hashes(p_hashes jsonb, p_file_count integer)
returns boolean
language sql immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_hashes) <> 'object' then false else
    (select count(*) from jsonb_each(p_hashes)) = p_file_count
    and not exists (
      select 1 from jsonb_each(p_hashes) e
      where e.key = '' or jsonb_typeof(e.value) <> 'string' or (e.value #>> '{}') !~ '^[0-9a-f]{64}$'
    ) end
$$;
comment on function private.is_scorm_file_hashes(jsonb, integer) is
  'True for a package''s file hashes: an object of exactly p_file_count paths, each a lowercase hex SHA-256.';
revoke all on function private.is_scorm_file_hashes(jsonb, integer) from public;
-- (a check constraint runs it as whoever writes the row)
grant execute on function private.is_scorm_file_hashes(jsonb, integer) to authenticated, service_role;

create table public.scorm_packages (
  module_id uuid primary key references public.course_modules (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  version text not null,
  edition text,
  title text not null,
  scos jsonb not null,
  revision integer not null default 1,
  storage_prefix text not null,
  file_count integer not null,
  unpacked_bytes bigint not null,
  file_hashes jsonb,
  completion_rule text not null default 'completed-or-passed',
  score_is_quiz_score boolean not null default false,
  min_seconds integer not null default 0,
  uploaded_by uuid references public.profiles (id) on delete set null,
  uploaded_at timestamptz not null default now(),
  constraint scorm_packages_version check (version in ('1.2', '2004')),
  constraint scorm_packages_edition check (
    (version = '1.2' and edition is null) or (version = '2004' and edition in ('2nd', '3rd', '4th'))
  ),
  constraint scorm_packages_title_length check (char_length(title) between 1 and 500),
  constraint scorm_packages_scos_shape check (jsonb_typeof(scos) = 'array' and jsonb_array_length(scos) >= 1),
  constraint scorm_packages_revision_positive check (revision >= 1),
  constraint scorm_packages_storage_prefix_shape check (storage_prefix = module_id::text || '/' || revision::text || '/'),
  constraint scorm_packages_file_count_positive check (file_count >= 1),
  constraint scorm_packages_unpacked_bytes_positive check (unpacked_bytes >= 0),
  constraint scorm_packages_file_hashes_shape check (file_hashes is null or private.is_scorm_file_hashes(file_hashes, file_count)),
  constraint scorm_packages_completion_rule check (completion_rule in ('completed', 'passed', 'completed-or-passed')),
  constraint scorm_packages_min_seconds_range check (min_seconds between 0 and 86400)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.scorm_packages is
  'The SCORM package of a module of kind scorm, as checked and unpacked by the api function; one per module.';

comment on column public.scorm_packages.course_id is
  'The module''s course, copied by private.save_scorm_package so that the select policies need no join.';

comment on column public.scorm_packages.edition is
  'SCORM 2004 edition (2nd, 3rd or 4th); null for 1.2.';

comment on column public.scorm_packages.scos is
  'The SCOs in the default organisation''s order: [{"id", "title", "href"}], href relative to the package root with the item''s parameters appended.';

comment on column public.scorm_packages.revision is
  '1 for the first upload, bumped on each replacement; part of storage_prefix.';

comment on column public.scorm_packages.storage_prefix is
  'Object-name prefix of the unpacked files in bucket scorm-content: <module_id>/<revision>/.';

comment on column public.scorm_packages.file_hashes is
  'SHA-256 (lowercase hex) of each stored file by its path under storage_prefix, computed by the api function as it stored them; written only by private.save_scorm_package. Null for a revision stored before hashes were kept (it cannot be kept offline).';

comment on column public.scorm_packages.completion_rule is
  'What completes the module: completed, passed, or either (completed-or-passed).';

comment on column public.scorm_packages.score_is_quiz_score is
  'True when the package''s reported score counts as the module''s quiz score.';

comment on column public.scorm_packages.min_seconds is
  'The author''s minimum time: an attempt meets the completion rule only once its sessions have lasted this long by the server''s clock (0: no minimum).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

-- A course's packages (the select policies and the delete cascade from courses).
create index scorm_packages_course_id_idx on public.scorm_packages (course_id);

create index scorm_packages_uploaded_by_idx on public.scorm_packages (uploaded_by);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.scorm_packages enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- The same rule as the course_modules select policies: whoever sees the course sees its modules.
create policy "visitors read packages of visible courses"
  on public.scorm_packages for select to anon
  using (exists (select 1 from public.courses c where c.id = scorm_packages.course_id));

create policy "users read packages of visible courses"
  on public.scorm_packages for select to authenticated
  using (exists (select 1 from public.courses c where c.id = scorm_packages.course_id));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.scorm_packages from anon, authenticated, service_role;
grant select on public.scorm_packages to anon, authenticated;
grant all on public.scorm_packages to service_role;

-- ---------------------------------------------------------------------------
-- Storage
-- ---------------------------------------------------------------------------

-- Public for reading by URL (the learner's browser loads the package's files); only the service
-- role writes, after the api function's checks. No type list: a package holds any kind of file.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('scorm-content', 'scorm-content', true, null, null)
on conflict (id) do nothing;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- True when the caller may change the module (the rule of the policy "authors update modules of
-- their courses and admins any").
create function private.may_edit_module(p_module_id uuid)
returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.course_modules m
    where m.id = p_module_id
      and ((select private.is_admin()) or m.course_id in (select private.authored_course_ids()))
  )
$$;
comment on function private.may_edit_module(uuid) is
  'True when the caller may change the module: an admin, or an author of its course.';
revoke all on function private.may_edit_module(uuid) from public;
grant execute on function private.may_edit_module(uuid) to authenticated, service_role;

-- Records an unpacked package for a scorm module. p_revision must be the next revision (1, or the
-- current one + 1): the files were stored under it before this call, so a concurrent replacement
-- that got there first is refused (55000) and the caller removes its files. Returns the storage
-- prefix of the revision it replaced (null for a first upload) for the caller to remove.
-- p_file_hashes: each stored file's SHA-256 by its path under the prefix (scorm_packages_file_hashes_shape).
-- 42501 when the caller may not change the module, 22023 when it is not a scorm module.
create function private.save_scorm_package(
  p_module_id uuid, p_revision integer, p_version text, p_edition text, p_title text, p_scos jsonb,
  p_file_count integer, p_unpacked_bytes bigint, p_file_hashes jsonb
)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_course_id uuid;
  v_kind text;
  v_old public.scorm_packages%rowtype;
begin
  select m.course_id, m.kind into v_course_id, v_kind from public.course_modules m
  where m.id = p_module_id
    and ((select private.is_admin()) or m.course_id in (select private.authored_course_ids()))
  for update;
  if not found then
    raise exception 'You may not change this module' using errcode = '42501';
  end if;
  if v_kind <> 'scorm' then
    raise exception 'This module is not a SCORM package module' using errcode = '22023';
  end if;
  -- Every new revision carries its hashes (only a revision stored before them has none).
  if p_file_hashes is null then
    raise exception 'The package''s file hashes are missing' using errcode = '23502';
  end if;
  select * into v_old from public.scorm_packages p where p.module_id = p_module_id for update;
  if coalesce(v_old.revision, 0) + 1 <> p_revision then
    raise exception 'The package was replaced meanwhile: upload it again' using errcode = '55000';
  end if;
  insert into public.scorm_packages as p (module_id, course_id, version, edition, title, scos, revision,
    storage_prefix, file_count, unpacked_bytes, file_hashes, uploaded_by, uploaded_at)
  values (p_module_id, v_course_id, p_version, p_edition, p_title, p_scos, p_revision,
    p_module_id::text || '/' || p_revision::text || '/', p_file_count, p_unpacked_bytes, p_file_hashes, (select auth.uid()), now())
  on conflict (module_id) do update set
    course_id = excluded.course_id, version = excluded.version, edition = excluded.edition,
    title = excluded.title, scos = excluded.scos, revision = excluded.revision,
    storage_prefix = excluded.storage_prefix, file_count = excluded.file_count,
    unpacked_bytes = excluded.unpacked_bytes, file_hashes = excluded.file_hashes, uploaded_by = excluded.uploaded_by,
    uploaded_at = excluded.uploaded_at;
  update public.course_modules set updated_at = now() where id = p_module_id;
  return v_old.storage_prefix;
end;
$$;
comment on function private.save_scorm_package(uuid,integer,text,text,text,jsonb,integer,bigint,jsonb) is
  'The only writer of scorm_packages rows: for a caller who may change the scorm module, records the next revision with its files'' hashes; returns the replaced storage prefix.';
revoke all on function private.save_scorm_package(uuid,integer,text,text,text,jsonb,integer,bigint,jsonb) from public;
grant execute on function private.save_scorm_package(uuid,integer,text,text,text,jsonb,integer,bigint,jsonb) to authenticated;

-- Sets what completes a scorm module, whether its score is the quiz score, and the minimum time an
-- attempt must last (server clock) to count (null keeps it). 42501 when the caller may not change the module,
-- P0002 when it has no package yet.
create function private.set_scorm_settings(p_module_id uuid, p_completion_rule text, p_score_is_quiz_score boolean, p_min_seconds integer default null)
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if not private.may_edit_module(p_module_id) then
    raise exception 'You may not change this module' using errcode = '42501';
  end if;
  update public.scorm_packages
  set completion_rule = p_completion_rule, score_is_quiz_score = p_score_is_quiz_score, min_seconds = coalesce(p_min_seconds, min_seconds)
  where module_id = p_module_id;
  if not found then
    raise exception 'Upload a package first' using errcode = 'P0002';
  end if;
end;
$$;
comment on function private.set_scorm_settings(uuid,text,boolean,integer) is
  'For a caller who may change the module: its completion rule, whether the package''s score is the quiz score, and the minimum time in seconds (null: kept).';
revoke all on function private.set_scorm_settings(uuid,text,boolean,integer) from public;
grant execute on function private.set_scorm_settings(uuid,text,boolean,integer) to authenticated;
