-- scorm_packages: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE TABLE "public"."scorm_packages" (
  "module_id"           uuid                     NOT NULL,
  "course_id"           uuid                     NOT NULL,
  "version"             text                     NOT NULL,
  "edition"             text,
  "title"               text                     NOT NULL,
  "scos"                jsonb                    NOT NULL,
  "revision"            integer                  NOT NULL DEFAULT 1,
  "storage_prefix"      text                     NOT NULL,
  "file_count"          integer                  NOT NULL,
  "unpacked_bytes"      bigint                   NOT NULL,
  "completion_rule"     text                     NOT NULL DEFAULT 'completed-or-passed'::text,
  "score_is_quiz_score" boolean                  NOT NULL DEFAULT false,
  "uploaded_by"         uuid,
  "uploaded_at"         timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "scorm_packages_completion_rule" CHECK ((completion_rule = ANY (ARRAY['completed'::text, 'passed'::text, 'completed-or-passed'::text]))),
  CONSTRAINT "scorm_packages_edition"
    CHECK ((((version = '1.2'::text) AND (edition IS NULL)) OR ((version = '2004'::text) AND (edition = ANY (ARRAY['2nd'::text, '3rd'::text, '4th'::text]))))),
  CONSTRAINT "scorm_packages_file_count_positive" CHECK ((file_count >= 1)),
  CONSTRAINT "scorm_packages_pkey" PRIMARY KEY (module_id),
  CONSTRAINT "scorm_packages_revision_positive" CHECK ((revision >= 1)),
  CONSTRAINT "scorm_packages_scos_shape" CHECK (((jsonb_typeof(scos) = 'array'::text) AND (jsonb_array_length(scos) >= 1))),
  CONSTRAINT "scorm_packages_storage_prefix_shape" CHECK ((storage_prefix = ((((module_id)::text || '/'::text) || (revision)::text) || '/'::text))),
  CONSTRAINT "scorm_packages_title_length" CHECK (((char_length(title) >= 1) AND (char_length(title) <= 500))),
  CONSTRAINT "scorm_packages_unpacked_bytes_positive" CHECK ((unpacked_bytes >= 0)),
  CONSTRAINT "scorm_packages_version" CHECK ((version = ANY (ARRAY['1.2'::text, '2004'::text])))
);

ALTER TABLE "public"."scorm_packages"
  ENABLE ROW LEVEL SECURITY;

ALTER TABLE "public"."course_modules"
  ADD COLUMN "kind" text NOT NULL DEFAULT 'content'::text;

ALTER TABLE "public"."settings"
  ADD COLUMN "scorm_max_upload_mb" integer NOT NULL DEFAULT 200;

CREATE OR REPLACE FUNCTION private.may_edit_module (
  p_module_id uuid
)
  RETURNS boolean
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select exists (
    select 1 from public.course_modules m
    where m.id = p_module_id
      and ((select private.is_admin()) or m.course_id in (select private.authored_course_ids()))
  )
$function$;

CREATE OR REPLACE FUNCTION private.save_scorm_package (
  p_module_id      uuid,
  p_revision       integer,
  p_version        text,
  p_edition        text,
  p_title          text,
  p_scos           jsonb,
  p_file_count     integer,
  p_unpacked_bytes bigint
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
  select * into v_old from public.scorm_packages p where p.module_id = p_module_id for update;
  if coalesce(v_old.revision, 0) + 1 <> p_revision then
    raise exception 'The package was replaced meanwhile: upload it again' using errcode = '55000';
  end if;
  insert into public.scorm_packages as p (module_id, course_id, version, edition, title, scos, revision,
    storage_prefix, file_count, unpacked_bytes, uploaded_by, uploaded_at)
  values (p_module_id, v_course_id, p_version, p_edition, p_title, p_scos, p_revision,
    p_module_id::text || '/' || p_revision::text || '/', p_file_count, p_unpacked_bytes, (select auth.uid()), now())
  on conflict (module_id) do update set
    course_id = excluded.course_id, version = excluded.version, edition = excluded.edition,
    title = excluded.title, scos = excluded.scos, revision = excluded.revision,
    storage_prefix = excluded.storage_prefix, file_count = excluded.file_count,
    unpacked_bytes = excluded.unpacked_bytes, uploaded_by = excluded.uploaded_by,
    uploaded_at = excluded.uploaded_at;
  update public.course_modules set updated_at = now() where id = p_module_id;
  return v_old.storage_prefix;
end;
$function$;

CREATE OR REPLACE FUNCTION private.set_scorm_settings (
  p_module_id           uuid,
  p_completion_rule     text,
  p_score_is_quiz_score boolean
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if not private.may_edit_module(p_module_id) then
    raise exception 'You may not change this module' using errcode = '42501';
  end if;
  update public.scorm_packages
  set completion_rule = p_completion_rule, score_is_quiz_score = p_score_is_quiz_score
  where module_id = p_module_id;
  if not found then
    raise exception 'Upload a package first' using errcode = 'P0002';
  end if;
end;
$function$;

ALTER TABLE "public"."course_modules"
  ADD CONSTRAINT "course_modules_kind" CHECK ((kind = ANY (ARRAY['content'::text, 'scorm'::text])));

ALTER TABLE "public"."scorm_packages"
  ADD CONSTRAINT "scorm_packages_course_id_fkey" FOREIGN KEY (course_id) REFERENCES public.courses(id) ON DELETE CASCADE;

ALTER TABLE "public"."scorm_packages"
  ADD CONSTRAINT "scorm_packages_module_id_fkey" FOREIGN KEY (module_id) REFERENCES public.course_modules(id) ON DELETE CASCADE;

ALTER TABLE "public"."scorm_packages"
  ADD CONSTRAINT "scorm_packages_uploaded_by_fkey" FOREIGN KEY (uploaded_by) REFERENCES public.profiles(id) ON DELETE SET NULL;

ALTER TABLE "public"."settings"
  ADD CONSTRAINT "settings_scorm_max_upload_mb_range" CHECK (((scorm_max_upload_mb >= 1) AND (scorm_max_upload_mb <= 2048)));

CREATE INDEX scorm_packages_course_id_idx ON public.scorm_packages USING btree (course_id);

CREATE INDEX scorm_packages_uploaded_by_idx ON public.scorm_packages USING btree (uploaded_by);

CREATE POLICY "users read packages of visible courses" ON "public"."scorm_packages"
  FOR SELECT
  TO "authenticated"
  USING ((EXISTS ( SELECT 1
   FROM public.courses c
  WHERE (c.id = scorm_packages.course_id))));

CREATE POLICY "visitors read packages of visible courses" ON "public"."scorm_packages"
  FOR SELECT
  TO "anon"
  USING ((EXISTS ( SELECT 1
   FROM public.courses c
  WHERE (c.id = scorm_packages.course_id))));

COMMENT ON COLUMN "public"."course_modules"."kind" IS 'content: a Markdown body (and perhaps a quiz); scorm: a SCORM package (public.scorm_packages), content stays empty.';

COMMENT ON COLUMN "public"."scorm_packages"."completion_rule" IS 'What completes the module: completed, passed, or either (completed-or-passed).';

COMMENT ON COLUMN "public"."scorm_packages"."course_id" IS 'The module''s course, copied by private.save_scorm_package so that the select policies need no join.';

COMMENT ON COLUMN "public"."scorm_packages"."edition" IS 'SCORM 2004 edition (2nd, 3rd or 4th); null for 1.2.';

COMMENT ON COLUMN "public"."scorm_packages"."revision" IS '1 for the first upload, bumped on each replacement; part of storage_prefix.';

COMMENT ON COLUMN "public"."scorm_packages"."score_is_quiz_score" IS 'True when the package''s reported score counts as the module''s quiz score.';

COMMENT ON COLUMN "public"."scorm_packages"."scos" IS 'The SCOs in the default organisation''s order: [{"id", "title", "href"}], href relative to the package root with the item''s parameters appended.';

COMMENT ON COLUMN "public"."scorm_packages"."storage_prefix" IS 'Object-name prefix of the unpacked files in bucket scorm-content: <module_id>/<revision>/.';

COMMENT ON FUNCTION "private"."may_edit_module"(uuid) IS 'True when the caller may change the module: an admin, or an author of its course.';

COMMENT ON FUNCTION "private"."save_scorm_package"(uuid, integer, text, text, text, jsonb, integer, bigint) IS 'The only writer of scorm_packages rows: for a caller who may change the scorm module, records the next revision; returns the replaced storage prefix.';

COMMENT ON FUNCTION "private"."set_scorm_settings"(uuid, text, boolean) IS 'For a caller who may change the module: its completion rule and whether the package''s score is the quiz score.';

COMMENT ON TABLE "public"."scorm_packages" IS 'The SCORM package of a module of kind scorm, as checked and unpacked by the api function; one per module.';

REVOKE ALL ON FUNCTION "private"."may_edit_module"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."may_edit_module"(uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."save_scorm_package"(uuid, integer, text, text, text, jsonb, integer, bigint) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."save_scorm_package"(uuid, integer, text, text, text, jsonb, integer, bigint) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."set_scorm_settings"(uuid, text, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."set_scorm_settings"(uuid, text, boolean) TO "authenticated", "postgres";

REVOKE ALL ("kind") ON TABLE "public"."course_modules" FROM "anon";

GRANT SELECT ("kind") ON TABLE "public"."course_modules" TO "anon";

REVOKE ALL ("kind") ON TABLE "public"."course_modules" FROM "authenticated";

GRANT INSERT ("kind"), SELECT ("kind") ON TABLE "public"."course_modules" TO "authenticated";

REVOKE ALL ON TABLE "public"."scorm_packages" FROM "anon";

GRANT SELECT ON TABLE "public"."scorm_packages" TO "anon";

REVOKE ALL ON TABLE "public"."scorm_packages" FROM "authenticated";

GRANT SELECT ON TABLE "public"."scorm_packages" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."scorm_packages" TO "postgres", "service_role";

REVOKE ALL ("scorm_max_upload_mb") ON TABLE "public"."settings" FROM "anon";

GRANT SELECT ("scorm_max_upload_mb") ON TABLE "public"."settings" TO "anon";

REVOKE ALL ("scorm_max_upload_mb") ON TABLE "public"."settings" FROM "authenticated";

GRANT SELECT ("scorm_max_upload_mb"), UPDATE ("scorm_max_upload_mb") ON TABLE "public"."settings" TO "authenticated";

-- By hand (pg-delta compares definitions, not rows): the bucket of the unpacked packages.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('scorm-content', 'scorm-content', true, null, null)
on conflict (id) do nothing;
