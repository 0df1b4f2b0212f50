-- profile_name_from_identity_provider: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.before_user_created (
  event jsonb
)
  RETURNS jsonb
  LANGUAGE plpgsql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
declare
  v_meta jsonb := case when jsonb_typeof(event -> 'user' -> 'user_metadata') = 'object'
                       then event -> 'user' -> 'user_metadata' else '{}'::jsonb end;
  v_username text := nullif(btrim(v_meta ->> 'username'), '');
  v_name text := nullif(btrim(normalize(coalesce(v_meta ->> 'name', v_meta ->> 'full_name'), NFC)), '');
  v_problem text;
begin
  if v_username is not null and v_username !~ '^[A-Za-z0-9_.-]{3,50}$' then
    v_problem := 'Username may contain only letters, numbers, dots, dashes and underscores';
  elsif v_name is not null and private.has_invisible_characters(v_name) then
    v_problem := 'Name may not contain invisible or control characters';
  elsif v_name is not null and char_length(v_name) > 200 then
    v_problem := 'Name must be at most 200 characters';
  end if;
  if v_problem is null then
    return '{}'::jsonb;
  end if;
  return jsonb_build_object('error', jsonb_build_object('http_code', 400, 'message', v_problem));
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
  insert into public.profiles (id, username, email, name, role, services)
  values (new.id, v_username, coalesce(new.email, ''), coalesce(v_name, v_username), v_role, v_services);
  return new;
end;
$function$;
