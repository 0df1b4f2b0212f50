-- account_welcome: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

ALTER TABLE "public"."notifications"
  DROP CONSTRAINT "notifications_kind_known";

CREATE OR REPLACE FUNCTION private.write_account_welcome()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  insert into public.notifications (recipient_id, kind, person_id, occasion, title, body, data, link_path)
  select n.id, 'account-welcome', n.id, (now() at time zone 'Europe/London')::date,
         'Welcome to ' || s.site_name,
         'Your account has been created. Use the link in the email we sent to choose your password.',
         jsonb_build_object('siteName', s.site_name, 'username', n.username, 'name', n.name),
         null
  from new_rows n
  cross join (select st.site_name from public.settings st where st.id) s
  where n.must_change_password
  on conflict on constraint notifications_once do nothing;
  return null;
end;
$function$;

ALTER TABLE "public"."notifications"
  ADD CONSTRAINT "notifications_kind_known"
    CHECK
    ((kind = ANY (ARRAY['training-assigned'::text, 'training-due-soon'::text, 'training-overdue'::text, 'manager-escalation'::text, 'certificate-expiring'::text,
    'certificate-expired'::text, 'certificate-issued'::text, 'enrolment-approved'::text, 'enrolment-declined'::text, 'account-welcome'::text])));

CREATE TRIGGER profiles_account_welcome
  AFTER INSERT ON public.profiles REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.write_account_welcome();

COMMENT ON FUNCTION "private"."write_account_welcome"() IS 'After-insert statement trigger on profiles: an ''account-welcome'' notice for each new person born with must_change_password (added by an administrator or imported), in the transaction that creates them.';

REVOKE ALL ON FUNCTION "private"."write_account_welcome"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."write_account_welcome"() TO "postgres";
