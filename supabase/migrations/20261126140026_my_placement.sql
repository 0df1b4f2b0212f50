-- my_placement: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.my_placement()
  RETURNS TABLE (
    organisation_id   uuid,
    organisation_name text,
    organisation_code text,
    unit_id           uuid,
    unit_name         text,
    manager_id        uuid,
    manager_name      text,
    has_reports       boolean
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select o.id, o.name, o.code, u.id, u.name, m.id, m.name,
         exists (select 1 from public.profiles r where r.manager_id = p.id)
  from public.profiles p
  left join public.organisations o on o.id = p.organisation_id
  left join public.units u on u.id = p.unit_id
  left join public.profiles m on m.id = p.manager_id
  where p.id = (select auth.uid())
$function$;

COMMENT ON FUNCTION "private"."my_placement"() IS 'The caller''s organisation, unit and manager (ids and names) and whether anyone reports to them.';

REVOKE ALL ON FUNCTION "private"."my_placement"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."my_placement"() TO "authenticated", "postgres", "service_role";
