-- person_language: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

ALTER TABLE "public"."profiles"
  ADD COLUMN "language" text NOT NULL DEFAULT 'en-GB'::text;

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
  -- The language an administrator, an import or SCIM chose for the person; English otherwise.
  v_language text := case when v_meta ->> 'language' = 'cy' then 'cy' else 'en-GB' end;
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
  insert into public.profiles (id, username, email, name, role, services, organisation_id, unit_id, manager_id, employee_number, language)
  values (new.id, v_username, coalesce(new.email, ''), coalesce(v_place ->> 'name', v_name, v_username), v_role, v_services,
          (v_place ->> 'organisation_id')::uuid, (v_place ->> 'unit_id')::uuid, (v_place ->> 'manager_id')::uuid,
          v_place ->> 'employee_number', v_language);
  if v_place is not null then
    perform private.write_sign_in_audit('user.created', v_place, 'user', new.id, v_username,
      jsonb_build_object('source', case when v_provider = 'azure' then 'OpenID Connect' else 'SAML' end,
        'username', v_username, 'email', new.email, 'name', coalesce(v_place ->> 'name', v_name, v_username),
        'role', v_role, 'services', v_services, 'unit', v_place ->> 'unit', 'manager', v_place ->> 'manager'));
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.sync_profile_language()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  update auth.users
  set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || jsonb_build_object('language', new.language)
  where id = new.id and raw_user_meta_data ->> 'language' is distinct from new.language;
  return new;
end;
$function$;

ALTER TABLE "public"."profiles"
  ADD CONSTRAINT "profiles_language_known" CHECK ((language = ANY (ARRAY['en-GB'::text, 'cy'::text])));

CREATE TRIGGER profiles_language_to_auth
  AFTER UPDATE OF LANGUAGE ON public.profiles
  FOR EACH ROW
  WHEN ((new.language IS DISTINCT FROM old.language))
  EXECUTE FUNCTION private.sync_profile_language();

COMMENT ON COLUMN "public"."profiles"."language" IS 'The language the person reads the platform in: en-GB (English) or cy (Cymraeg). The server writes their emails, certificates, learning record and CSV headers in it; the person changes it themselves (PUT /api/profile/language, or directly under the own-row policy).';

COMMENT ON FUNCTION "private"."handle_new_user"() IS 'After-insert trigger on auth.users: creates the profile from raw_user_meta_data {username, name, language} under the registration rules (23514 otherwise), falling back to the email''s local part; STUDENT without services, or the role and services staged by private.import_users; a person an organisation''s identity provider signed in is placed where private.sign_in_placement says (42501 when nowhere), audited as that organisation''s sign-in.';

COMMENT ON FUNCTION "private"."sync_profile_language"() IS 'After-update trigger on profiles: copies profiles.language into auth.users.raw_user_meta_data.language, which Auth''s email templates read as .Data.language.';

REVOKE ALL ON FUNCTION "private"."sync_profile_language"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."sync_profile_language"() TO "postgres";

REVOKE ALL ("language") ON TABLE "public"."profiles" FROM "authenticated";

GRANT UPDATE ("language") ON TABLE "public"."profiles" TO "authenticated";
