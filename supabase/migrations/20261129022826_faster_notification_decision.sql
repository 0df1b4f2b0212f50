-- faster_notification_decision: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

ALTER TABLE "public"."notifications"
  DROP CONSTRAINT "notifications_course_id_fkey";

ALTER TABLE "public"."notifications"
  DROP CONSTRAINT "notifications_person_id_fkey";

ALTER TABLE "public"."notifications"
  DROP CONSTRAINT "notifications_recipient_id_fkey";

CREATE OR REPLACE FUNCTION private.check_notification_reference_change()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  perform 1 from public.profiles p where p.id in (new.recipient_id, new.person_id) for key share of p;
  perform 1 from public.courses c where c.id = new.course_id for key share of c;
  if not exists (select 1 from public.profiles p where p.id = new.recipient_id)
     or (new.person_id is not null and not exists (select 1 from public.profiles p where p.id = new.person_id))
     or (new.course_id is not null and not exists (select 1 from public.courses c where c.id = new.course_id)) then
    raise exception 'update on table "notifications" refers to a person or course that does not exist'
      using errcode = 'foreign_key_violation';
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.check_notification_references()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '32MB'
  AS $function$
declare
  v_missing bigint;
begin
  -- The transition table holds whole rows (their texts and data), so it is read once.
  with ids as materialized (
    select distinct x.id, x.is_person
    from added a
    cross join lateral (values (a.recipient_id, true), (a.person_id, true), (a.course_id, false)) x (id, is_person)
    where x.id is not null
  ),
  people as (
    select 1 from public.profiles p where p.id in (select i.id from ids i where i.is_person) for key share of p
  ),
  courses as (
    select 1 from public.courses c where c.id in (select i.id from ids i where not i.is_person) for key share of c
  )
  select (select count(*) from ids) - (select count(*) from people) - (select count(*) from courses)
  into v_missing;
  if v_missing > 0 then
    raise exception 'insert into table "notifications" refers to a person or course that does not exist'
      using errcode = 'foreign_key_violation';
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.delete_notifications_of_courses()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  delete from public.notifications n where n.course_id in (select g.id from gone g);
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.delete_notifications_of_people()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  delete from public.notifications n where n.recipient_id in (select g.id from gone g);
  delete from public.notifications n where n.person_id in (select g.id from gone g);
  return null;
end;
$function$;

CREATE TRIGGER courses_delete_notifications
  AFTER DELETE ON public.courses REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.delete_notifications_of_courses();

CREATE TRIGGER notifications_check_references_insert
  AFTER INSERT ON public.notifications REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.check_notification_references();

CREATE TRIGGER notifications_check_references_update
  AFTER UPDATE OF recipient_id, person_id, course_id ON public.notifications
  FOR EACH ROW
  WHEN (((new.recipient_id IS DISTINCT FROM old.recipient_id) OR (new.person_id IS DISTINCT FROM old.person_id) OR (new.course_id IS DISTINCT FROM old.course_id)))
  EXECUTE FUNCTION private.check_notification_reference_change();

CREATE TRIGGER profiles_delete_notifications
  AFTER DELETE ON public.profiles REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.delete_notifications_of_people();

COMMENT ON FUNCTION "private"."check_notification_reference_change"() IS 'After update of a notice''s recipient_id, person_id or course_id: the same check as private.check_notification_references, for that row.';

COMMENT ON FUNCTION "private"."check_notification_references"() IS 'After insert into notifications (per statement): every recipient_id and person_id is a profile and every course_id a course, the rows locked for key share (a foreign key''s check, once per statement).';

COMMENT ON FUNCTION "private"."delete_notifications_of_courses"() IS 'After delete of courses (per statement): deletes the notices about them (the cascade of notifications.course_id).';

COMMENT ON FUNCTION "private"."delete_notifications_of_people"() IS 'After delete of profiles (per statement): deletes the notices to or about them (the cascade of notifications.recipient_id and person_id).';

REVOKE ALL ON FUNCTION "private"."check_notification_reference_change"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."check_notification_reference_change"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."check_notification_references"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."check_notification_references"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."delete_notifications_of_courses"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."delete_notifications_of_courses"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."delete_notifications_of_people"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."delete_notifications_of_people"() TO "postgres";
