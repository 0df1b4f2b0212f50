-- kept_session_places: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.kept_counts_drift()
  RETURNS TABLE (
    kept       text,
    difference text,
    item       jsonb
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET jit TO 'off'
  AS $function$
declare
  v_thing record;
  v_organisation uuid;
begin
  if (select auth.uid()) is null then
    raise exception 'The kept counts are checked as a signed-in caller (the status rule counts no one for a visitor)'
      using errcode = '42501';
  end if;
  for v_thing in
    select t.name, t.kept_rows, t.live_rows from (values
      ('private.course_counts',
       'select c.status, c.service, c.courses from private.course_counts c where c.courses <> 0',
       'select * from private.course_counts_live()'),
      ('private.course_enrolment_figures',
       'select f.course_id, f.slot, f.enrolled, f.pending, f.completed, f.progress_sum
        from private.course_enrolment_figures f where (f.enrolled, f.pending, f.completed, f.progress_sum) <> (0, 0, 0, 0)',
       'select * from private.course_enrolment_figures_live()'),
      ('private.instructor_learners',
       'select l.author_id, l.user_id, l.enrolments from private.instructor_learners l',
       'select * from private.instructor_learners_live()'),
      ('private.instructor_figures',
       'select i.author_id, i.slot, i.learners from private.instructor_figures i where i.learners <> 0',
       'select * from private.instructor_figures_live()'),
      -- 25_classroom_sessions.sql comes later: these run by name when the check does.
      ('public.classroom_sessions.places_taken',
       'select s.id, s.places_taken from public.classroom_sessions s where s.places_taken <> 0',
       'select * from private.session_places_live()')
    ) t(name, kept_rows, live_rows)
  loop
    return query select * from private.kept_vs_live(v_thing.name, v_thing.kept_rows, v_thing.live_rows);
  end loop;
  insert into private.compliance_refreshes (transaction_id) values (pg_current_xact_id());
  for v_organisation in
    select s.organisation_id from private.compliance_summary_scopes s order by 1
  loop
    continue when not private.compliance_summary_is_current(v_organisation);
    return query select * from private.kept_vs_live('private.compliance_summary_counts', format(
      'select k.organisation_id, k.service, k.course_id, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
       from private.compliance_summary_counts k where k.organisation_id = %L', v_organisation), format(
      'select %1$L::uuid, l.service, l.course_id, l.people, l.compliant, l.due_soon, l.overdue, l.in_progress
       from private.compliance_summary_counts_live(%1$L) l', v_organisation));
    return query select * from private.kept_vs_live('private.compliance_person_counts', format(
      'select k.organisation_id, k.user_id, k.overdue, k.due_soon, k.in_progress, k.done
       from private.compliance_person_counts k where k.organisation_id = %L', v_organisation), format(
      'select %1$L::uuid, l.user_id, l.overdue, l.due_soon, l.in_progress, l.done
       from private.compliance_person_counts_live(%1$L) l', v_organisation));
  end loop;
  delete from private.compliance_refreshes r where r.transaction_id = pg_current_xact_id();
end;
$function$;

CREATE OR REPLACE FUNCTION private.session_places_live()
  RETURNS TABLE (
    session_id   uuid,
    places_taken integer
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return query
    select b.session_id, count(*)::integer from public.session_bookings b
    where b.status in ('requested', 'booked', 'offered') group by b.session_id;
end;
$function$;

COMMENT ON FUNCTION "private"."kept_counts_drift"() IS 'Every kept count (the catalogue''s, the instructors'' figures, the classroom sessions'' places taken, each current organisation''s compliance counts) against its live rule: one row per difference, none when all hold. For tests and for checking a deployment; not granted.';

COMMENT ON FUNCTION "private"."session_places_live"() IS 'Internal: classroom_sessions.places_taken computed from session_bookings (requested, booked and offered bookings per date).';

REVOKE ALL ON FUNCTION "private"."session_places_live"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."session_places_live"() TO "postgres";
