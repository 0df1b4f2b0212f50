-- scorm_file_hashes: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."save_scorm_package"(uuid, integer, text, text, text, jsonb, integer, bigint);

ALTER TABLE "public"."scorm_packages"
  ADD COLUMN "file_hashes" jsonb;

CREATE OR REPLACE FUNCTION private.is_scorm_file_hashes (
  p_hashes     jsonb,
  p_file_count integer
)
  RETURNS boolean
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  select case when jsonb_typeof(p_hashes) <> 'object' then false else
    (select count(*) from jsonb_each(p_hashes)) = p_file_count
    and not exists (
      select 1 from jsonb_each(p_hashes) e
      where e.key = '' or jsonb_typeof(e.value) <> 'string' or (e.value #>> '{}') !~ '^[0-9a-f]{64}$'
    ) end
$function$;

CREATE OR REPLACE FUNCTION private.save_scorm_package (
  p_module_id      uuid,
  p_revision       integer,
  p_version        text,
  p_edition        text,
  p_title          text,
  p_scos           jsonb,
  p_file_count     integer,
  p_unpacked_bytes bigint,
  p_file_hashes    jsonb
)
  RETURNS text
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

COMMENT ON COLUMN "public"."scorm_packages"."file_hashes" IS 'SHA-256 (lowercase hex) of each stored file by its path under storage_prefix, computed by the api function as it stored them; written only by private.save_scorm_package. Null for a revision stored before hashes were kept (it cannot be kept offline).';

COMMENT ON FUNCTION "private"."is_scorm_file_hashes"(jsonb, integer) IS 'True for a package''s file hashes: an object of exactly p_file_count paths, each a lowercase hex SHA-256.';

COMMENT ON FUNCTION "private"."save_scorm_package"(uuid, integer, text, text, text, jsonb, integer, bigint, jsonb) IS 'The only writer of scorm_packages rows: for a caller who may change the scorm module, records the next revision with its files'' hashes; returns the replaced storage prefix.';

REVOKE ALL ON FUNCTION "private"."is_scorm_file_hashes"(jsonb, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."is_scorm_file_hashes"(jsonb, integer) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."save_scorm_package"(uuid, integer, text, text, text, jsonb, integer, bigint, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."save_scorm_package"(uuid, integer, text, text, text, jsonb, integer, bigint, jsonb) TO "authenticated", "postgres";

ALTER TABLE "public"."scorm_packages"
  ADD CONSTRAINT "scorm_packages_file_hashes_shape" CHECK (((file_hashes IS NULL) OR private.is_scorm_file_hashes(file_hashes, file_count)));
