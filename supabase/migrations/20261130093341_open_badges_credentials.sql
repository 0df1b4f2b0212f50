-- open_badges_credentials: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE TABLE "private"."credential_status_lists" (
  "id"         uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "issuer_id"  text                     NOT NULL,
  "size"       integer                  NOT NULL DEFAULT 131072,
  "next_index" integer                  NOT NULL DEFAULT 0,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "credential_status_lists_next_index" CHECK (((next_index >= 0) AND (next_index <= size))),
  CONSTRAINT "credential_status_lists_pkey" PRIMARY KEY (id),
  CONSTRAINT "credential_status_lists_size" CHECK (((size >= 8) AND (size <= 1048576))),
  CONSTRAINT "credential_status_lists_size_bytes" CHECK (((size % 8) = 0))
);

ALTER TABLE "private"."credential_status_lists"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "private"."issuer_keys" (
  "id"                   uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "issuer_id"            text                     NOT NULL,
  "public_key_multibase" text                     NOT NULL,
  "secret_key_multibase" text                     NOT NULL,
  "created_at"           timestamp with time zone NOT NULL DEFAULT now(),
  "retired_at"           timestamp with time zone,
  CONSTRAINT "issuer_keys_issuer_shape" CHECK (((issuer_id = 'national'::text) OR (issuer_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text))),
  CONSTRAINT "issuer_keys_pkey" PRIMARY KEY (id),
  CONSTRAINT "issuer_keys_public_shape" CHECK ((public_key_multibase ~ '^z[1-9A-HJ-NP-Za-km-z]{40,60}$'::text)),
  CONSTRAINT "issuer_keys_secret_shape" CHECK ((secret_key_multibase ~ '^z[1-9A-HJ-NP-Za-km-z]{40,100}$'::text))
);

ALTER TABLE "private"."issuer_keys"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."course_achievements" (
  "course_id"   uuid                     NOT NULL,
  "name"        text                     NOT NULL,
  "description" text                     NOT NULL,
  "criteria"    text                     NOT NULL,
  "image_url"   text,
  "alignments"  jsonb                    NOT NULL DEFAULT '[]'::jsonb,
  "updated_at"  timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "course_achievements_alignments_shape" CHECK (((jsonb_typeof(alignments) = 'array'::text) AND (jsonb_array_length(alignments) <= 20))),
  CONSTRAINT "course_achievements_criteria_length" CHECK (((char_length(btrim(criteria)) >= 1) AND (char_length(btrim(criteria)) <= 2000))),
  CONSTRAINT "course_achievements_description_length" CHECK (((char_length(btrim(description)) >= 1) AND (char_length(btrim(description)) <= 2000))),
  CONSTRAINT "course_achievements_image_url_shape" CHECK (((image_url IS NULL) OR ((image_url ~ '^https?://[^\s]+$'::text) AND (char_length(image_url) <= 2000)))),
  CONSTRAINT "course_achievements_name_length" CHECK (((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 200))),
  CONSTRAINT "course_achievements_pkey" PRIMARY KEY (course_id)
);

ALTER TABLE "public"."course_achievements"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."credentials" (
  "id"             uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "certificate_id" uuid                     NOT NULL,
  "user_id"        uuid,
  "issuer_id"      text                     NOT NULL,
  "key_id"         uuid,
  "status_list_id" uuid                     NOT NULL,
  "status_index"   integer                  NOT NULL,
  "credential"     jsonb,
  "created_at"     timestamp with time zone NOT NULL DEFAULT now(),
  "signed_at"      timestamp with time zone,
  "share_enabled"  boolean                  NOT NULL DEFAULT false,
  "share_id"       text                     NOT NULL DEFAULT encode(extensions.gen_random_bytes(16), 'hex'::text),
  CONSTRAINT "credentials_pkey" PRIMARY KEY (id),
  CONSTRAINT "credentials_share_id_key" UNIQUE (share_id),
  CONSTRAINT "credentials_signed_complete" CHECK ((((credential IS NULL) = (signed_at IS NULL)) AND ((credential IS NULL) = (key_id IS NULL)))),
  CONSTRAINT "credentials_status_entry_key" UNIQUE (status_list_id, status_index)
);

ALTER TABLE "public"."credentials"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION private.add_pending_credential()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.course_issuer_id (
  p_course_id uuid
)
  RETURNS text
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select coalesce((select c.organisation_id::text from public.courses c where c.id = p_course_id), 'national')
$function$;

CREATE OR REPLACE FUNCTION private.issuer_profile (
  p_issuer_id text
)
  RETURNS TABLE (
    issuer_id text,
    name      text
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select p_issuer_id, s.site_name from public.settings s where p_issuer_id = 'national' and s.id
  union all
  select o.id::text, o.name from public.organisations o
  where p_issuer_id <> 'national' and o.id::text = p_issuer_id
$function$;

CREATE OR REPLACE FUNCTION private.issuer_public_keys (
  p_issuer_id text
)
  RETURNS TABLE (
    id                   uuid,
    public_key_multibase text,
    created_at           timestamp with time zone,
    retired_at           timestamp with time zone
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select k.id, k.public_key_multibase, k.created_at, k.retired_at
  from private.issuer_keys k
  where k.issuer_id = p_issuer_id
  order by k.created_at
$function$;

CREATE OR REPLACE FUNCTION private.may_edit_course (
  p_course_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.shared_credential (
  p_share_id text
)
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select cr.credential from public.credentials cr
  where cr.share_id = p_share_id and cr.share_enabled and cr.credential is not null
$function$;

CREATE OR REPLACE FUNCTION private.status_list_revoked (
  p_list_id uuid
)
  RETURNS TABLE (
    issuer_id text,
    size      integer,
    revoked   integer[]
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select l.issuer_id, l.size,
         coalesce((select array_agg(cr.status_index order by cr.status_index)
                   from public.credentials cr
                   join public.certificates c on c.id = cr.certificate_id
                   where cr.status_list_id = l.id and c.revoked_at is not null), '{}')
  from private.credential_status_lists l
  where l.id = p_list_id
$function$;

CREATE OR REPLACE FUNCTION private.take_status_entry (
  p_issuer_id text,
  OUT         list_id uuid,
  OUT         entry integer
)
  RETURNS record
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

ALTER TABLE "public"."course_achievements"
  ADD CONSTRAINT "course_achievements_course_id_fkey" FOREIGN KEY (course_id) REFERENCES public.courses(id) ON DELETE CASCADE;

ALTER TABLE "public"."credentials"
  ADD CONSTRAINT "credentials_certificate_id_fkey" FOREIGN KEY (certificate_id) REFERENCES public.certificates(id) ON DELETE CASCADE;

ALTER TABLE "public"."credentials"
  ADD CONSTRAINT "credentials_key_id_fkey" FOREIGN KEY (key_id) REFERENCES private.issuer_keys(id);

ALTER TABLE "public"."credentials"
  ADD CONSTRAINT "credentials_status_list_id_fkey" FOREIGN KEY (status_list_id) REFERENCES private.credential_status_lists(id);

ALTER TABLE "public"."credentials"
  ADD CONSTRAINT "credentials_user_id_fkey" FOREIGN KEY (user_id) REFERENCES public.profiles(id) ON DELETE SET NULL;

CREATE INDEX credential_status_lists_issuer_idx ON private.credential_status_lists USING btree (issuer_id, created_at);

CREATE UNIQUE INDEX issuer_keys_current_key ON private.issuer_keys USING btree (issuer_id)
  WHERE (retired_at IS NULL);

CREATE INDEX issuer_keys_issuer_idx ON private.issuer_keys USING btree (issuer_id, created_at);

CREATE INDEX credentials_certificate_idx ON public.credentials USING btree (certificate_id, created_at DESC);

CREATE INDEX credentials_key_idx ON public.credentials USING btree (key_id);

CREATE INDEX credentials_pending_idx ON public.credentials USING btree (created_at)
  WHERE (credential IS NULL);

CREATE INDEX credentials_user_idx ON public.credentials USING btree (user_id, created_at DESC);

CREATE TRIGGER certificates_add_credential
  AFTER INSERT ON public.certificates
  FOR EACH ROW
  EXECUTE FUNCTION private.add_pending_credential();

CREATE TRIGGER certificates_reissue_credential
  AFTER UPDATE OF reissued_at ON public.certificates
  FOR EACH ROW
  EXECUTE FUNCTION private.add_pending_credential();

CREATE TRIGGER course_achievements_updated_at
  BEFORE UPDATE ON public.course_achievements
  FOR EACH ROW
  EXECUTE FUNCTION private.set_updated_at();

CREATE POLICY "status lists: the function's service role only" ON "private"."credential_status_lists"
  FOR ALL
  TO "service_role"
  USING (true)
  WITH CHECK (true);

CREATE POLICY "issuer keys: the function's service role only" ON "private"."issuer_keys"
  FOR ALL
  TO "service_role"
  USING (true)
  WITH CHECK (true);

CREATE POLICY "achievements: visitors read where the course is" ON "public"."course_achievements"
  FOR SELECT
  TO "anon"
  USING (( SELECT private.can_view_course(course_achievements.course_id) AS can_view_course));

CREATE POLICY "achievements: people read where the course is" ON "public"."course_achievements"
  FOR SELECT
  TO "authenticated"
  USING (( SELECT private.can_view_course(course_achievements.course_id) AS can_view_course));

CREATE POLICY "achievements: those who may edit the course add" ON "public"."course_achievements"
  FOR INSERT
  TO "authenticated"
  WITH CHECK (( SELECT private.may_edit_course(course_achievements.course_id) AS may_edit_course));

CREATE POLICY "achievements: those who may edit the course change" ON "public"."course_achievements"
  FOR UPDATE
  TO "authenticated"
  USING (( SELECT private.may_edit_course(course_achievements.course_id) AS may_edit_course))
  WITH CHECK (( SELECT private.may_edit_course(course_achievements.course_id) AS may_edit_course));

CREATE POLICY "achievements: those who may edit the course remove" ON "public"."course_achievements"
  FOR DELETE
  TO "authenticated"
  USING (( SELECT private.may_edit_course(course_achievements.course_id) AS may_edit_course));

CREATE POLICY "credentials: the holder reads" ON "public"."credentials"
  FOR SELECT
  TO "authenticated"
  USING ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "credentials: the holder switches sharing" ON "public"."credentials"
  FOR UPDATE
  TO "authenticated"
  USING ((user_id = ( SELECT auth.uid() AS uid)))
  WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

COMMENT ON COLUMN "private"."issuer_keys"."issuer_id" IS 'The organisation''s id, or national for national courses.';

COMMENT ON COLUMN "private"."issuer_keys"."retired_at" IS 'When rotation replaced it; null = the key that signs now (one per issuer).';

COMMENT ON COLUMN "public"."course_achievements"."alignments" IS 'Up to 20 alignments [{targetFramework, targetCode, targetName, targetUrl}] to a framework such as the Core Skills Training Framework or a National Occupational Standard.';

COMMENT ON COLUMN "public"."course_achievements"."criteria" IS 'The criteria in words (Criteria.narrative).';

COMMENT ON COLUMN "public"."credentials"."share_id" IS 'Unguessable id of the public share link, answered only while share_enabled.';

COMMENT ON COLUMN "public"."credentials"."status_index" IS 'The credential''s entry in its status list (BitstringStatusListEntry.statusListIndex).';

COMMENT ON COLUMN "public"."credentials"."user_id" IS 'The holder (the certificate''s learner).';

COMMENT ON FUNCTION "private"."add_pending_credential"() IS 'After insert of a certificate and after a reissue: adds its pending credential (issuer, status list entry) for the function to sign.';

COMMENT ON FUNCTION "private"."course_issuer_id"(uuid) IS 'The issuer of the course''s credentials: its organisation''s id, or national (also for a deleted course).';

COMMENT ON FUNCTION "private"."issuer_profile"(text) IS 'Anyone: the issuer''s name (an organisation''s, or the site''s for national); no row for an unknown issuer.';

COMMENT ON FUNCTION "private"."issuer_public_keys"(text) IS 'Anyone: the public keys of the issuer (current and retired), never the secret.';

COMMENT ON FUNCTION "private"."may_edit_course"(uuid) IS 'True when the caller may edit the course (mirrors the courses update policy).';

COMMENT ON FUNCTION "private"."shared_credential"(text) IS 'Anyone: the signed credential with this share id while its holder shares it, else null.';

COMMENT ON FUNCTION "private"."status_list_revoked"(uuid) IS 'Anyone: the status list''s issuer, size and revoked entries (credentials of revoked certificates); no row for an unknown list.';

COMMENT ON FUNCTION "private"."take_status_entry"(text) IS 'Internal: takes the next free entry of the issuer''s status list, making a new list when the last is full.';

COMMENT ON TABLE "private"."credential_status_lists" IS 'Bitstring Status Lists (revocation) per issuer: size bits, next_index the next free entry. The bits are computed from the certificates'' revoked_at when the list is served.';

COMMENT ON TABLE "private"."issuer_keys" IS 'Issuers'' Ed25519 signing keys (Multikey, multibase). The secret is read only by the function''s service_role connection; no API role has any grant. A retired key stays for verification.';

COMMENT ON TABLE "public"."course_achievements" IS 'The Open Badges achievement of a course''s certificate. Readable where the course is; written by those who may edit the course.';

COMMENT ON TABLE "public"."credentials" IS 'An OpenBadgeCredential per certificate issue and reissue. credential is the signed JSON, null while pending (the function signs it). The holder reads their own and changes only share_enabled.';

REVOKE ALL ON FUNCTION "private"."add_pending_credential"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."add_pending_credential"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."course_issuer_id"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."course_issuer_id"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."issuer_profile"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."issuer_profile"(text) TO "anon", "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."issuer_public_keys"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."issuer_public_keys"(text) TO "anon", "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."may_edit_course"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."may_edit_course"(uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."shared_credential"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."shared_credential"(text) TO "anon", "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."status_list_revoked"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."status_list_revoked"(uuid) TO "anon", "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."take_status_entry"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."take_status_entry"(text) TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."credential_status_lists" TO "postgres";

GRANT INSERT, SELECT, UPDATE ON TABLE "private"."credential_status_lists" TO "service_role";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."issuer_keys" TO "postgres";

GRANT INSERT, SELECT, UPDATE ON TABLE "private"."issuer_keys" TO "service_role";

REVOKE ALL ON TABLE "public"."course_achievements" FROM "anon";

GRANT SELECT ON TABLE "public"."course_achievements" TO "anon";

-- The table-wide revoke first: it would take the column grants below with it.
REVOKE ALL ON TABLE "public"."course_achievements" FROM "authenticated";

GRANT DELETE, SELECT ON TABLE "public"."course_achievements" TO "authenticated";

REVOKE ALL ("alignments") ON TABLE "public"."course_achievements" FROM "authenticated";

GRANT INSERT ("alignments"), UPDATE ("alignments") ON TABLE "public"."course_achievements" TO "authenticated";

REVOKE ALL ("course_id") ON TABLE "public"."course_achievements" FROM "authenticated";

GRANT INSERT ("course_id") ON TABLE "public"."course_achievements" TO "authenticated";

REVOKE ALL ("criteria") ON TABLE "public"."course_achievements" FROM "authenticated";

GRANT INSERT ("criteria"), UPDATE ("criteria") ON TABLE "public"."course_achievements" TO "authenticated";

REVOKE ALL ("description") ON TABLE "public"."course_achievements" FROM "authenticated";

GRANT INSERT ("description"), UPDATE ("description") ON TABLE "public"."course_achievements" TO "authenticated";

REVOKE ALL ("image_url") ON TABLE "public"."course_achievements" FROM "authenticated";

GRANT INSERT ("image_url"), UPDATE ("image_url") ON TABLE "public"."course_achievements" TO "authenticated";

REVOKE ALL ("name") ON TABLE "public"."course_achievements" FROM "authenticated";

GRANT INSERT ("name"), UPDATE ("name") ON TABLE "public"."course_achievements" TO "authenticated";


GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."course_achievements" TO "postgres", "service_role";

-- The table-wide revoke first: it would take the column grants below with it.
REVOKE ALL ON TABLE "public"."credentials" FROM "authenticated";

GRANT SELECT ON TABLE "public"."credentials" TO "authenticated";

REVOKE ALL ON TABLE "public"."credentials" FROM "anon";

REVOKE ALL ("share_enabled") ON TABLE "public"."credentials" FROM "authenticated";

GRANT UPDATE ("share_enabled") ON TABLE "public"."credentials" TO "authenticated";


GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."credentials" TO "postgres", "service_role";

-- Certificates issued before credentials existed: a pending credential each (in the order they were
-- issued), which the function signs on its first read.
DO $$
DECLARE
  v_certificate record;
  v_entry record;
BEGIN
  FOR v_certificate IN SELECT c.id, c.user_id, c.course_id FROM public.certificates c ORDER BY c.issued_at, c.id LOOP
    SELECT * INTO v_entry FROM private.take_status_entry(private.course_issuer_id(v_certificate.course_id));
    INSERT INTO public.credentials (certificate_id, user_id, issuer_id, status_list_id, status_index)
    VALUES (v_certificate.id, v_certificate.user_id, private.course_issuer_id(v_certificate.course_id), v_entry.list_id, v_entry.entry);
  END LOOP;
END
$$;
