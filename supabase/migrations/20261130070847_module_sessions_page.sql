-- module_sessions_page: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.module_sessions (
  p_module_id uuid,
  p_now       timestamp with time zone DEFAULT now()
)
  RETURNS json
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_admin boolean := coalesce(private.is_admin(), false);
  v_org uuid := private.current_organisation_id();
  v_admin_org uuid := private.administered_organisation_id();
  v_course_id uuid;
  v_course_org uuid;
  v_author boolean;
  v_enrolled boolean;
  v_can_add boolean;
  v_booking json;
  v_sessions json;
begin
  select c.id, c.author_id = v_uid and private."current_role"() in ('INSTRUCTOR', 'ADMIN'), coalesce(c.organisation_id, v_org)
    into v_course_id, v_author, v_course_org
  from public.course_modules m join public.courses c on c.id = m.course_id
  where m.id = p_module_id;
  if not found then
    raise exception 'Module not found' using errcode = 'P0002';
  end if;
  v_author := coalesce(v_author, false);
  -- Only an admin, the author or an organisation's administrator may add dates: a learner's request
  -- (the common one) does not ask.
  v_can_add := (v_admin or v_author or v_admin_org is not null) and private.may_manage_sessions(v_course_id, v_course_org);
  v_enrolled := exists (select 1 from public.enrollments e
                        where e.user_id = v_uid and e.course_id = v_course_id and e.status = 'ACTIVE');

  select json_build_object('id', b.id, 'sessionId', b.session_id, 'moduleId', b.module_id, 'userId', b.user_id,
           'cycle', b.cycle, 'status', b.status,
           'waitingSince', to_char(b.waiting_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'offeredUntil', to_char(b.offered_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'attendance', b.attendance, 'walkIn', b.walk_in, 'sequence', b.sequence,
           'createdAt', to_char(b.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'updatedAt', to_char(b.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    into v_booking
  from public.session_bookings b
  where b.module_id = p_module_id and b.user_id = v_uid
  order by b.status in ('requested', 'booked', 'waiting', 'offered') desc, b.updated_at desc, b.id
  limit 1;

  with reach as (
    select s.*,
           v_admin
             or exists (select 1 from public.session_trainers t where t.session_id = s.id and t.trainer_id = v_uid)
             or (v_author and (v_org is null or s.organisation_id = v_org))
             or (v_admin_org is not null and s.organisation_id = v_admin_org) as keeps,
           s.id in (select b.session_id from public.session_bookings b where b.user_id = v_uid and b.module_id = p_module_id) as booked
    from public.classroom_sessions s
    where s.module_id = p_module_id
  ), seen as (
    select r.* from reach r
    where r.keeps or r.booked
       or (v_enrolled and r.cancelled_at is null and (r.organisation_id is null or r.organisation_id = v_org))
  ), page as (
    select v.*, v_admin or v_can_add or bool_or(v.keeps) over () as runs from seen v
  ), listed as (
    select p.* from page p
    where p.runs or p.ends_at > p_now or p.booked
    order by p.starts_at, p.id
    limit 500
  ), managed as (
    select o.organisation_id, private.may_manage_sessions(v_course_id, o.organisation_id) as can
    from (select distinct l.organisation_id from listed l where l.keeps) o
  )
  select coalesce(json_agg(json_build_object(
           'id', l.id, 'moduleId', l.module_id, 'courseId', l.course_id, 'organisationId', l.organisation_id,
           'startsAt', to_char(l.starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'endsAt', to_char(l.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'venueName', l.venue_name, 'venueAddress', l.venue_address, 'onlineUrl', l.online_url,
           'capacity', l.capacity, 'placesTaken', l.places_taken, 'placesLeft', greatest(l.capacity - l.places_taken, 0),
           'bookingClosesAt', to_char(l.booking_closes_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'bookingOpen', p_now < l.booking_closes_at and l.cancelled_at is null,
           'note', l.note,
           'cancelledAt', to_char(l.cancelled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'cancelledReason', l.cancelled_reason, 'sequence', l.sequence,
           'trainers', coalesce(tr.list, '[]'::json),
           'canManage', coalesce(mg.can, false),
           'keepsRegister', l.keeps,
           'counts', case when l.keeps then json_build_object('booked', coalesce(ct.booked, 0), 'requested', coalesce(ct.requested, 0),
                       'offered', coalesce(ct.offered, 0), 'waiting', coalesce(ct.waiting, 0), 'attended', coalesce(ct.attended, 0)) end)
           order by l.starts_at, l.id), '[]'::json)
    into v_sessions
  from listed l
  left join managed mg on mg.organisation_id is not distinct from l.organisation_id
  left join lateral (
    select json_agg(json_build_object('id', t.trainer_id, 'name', pr.name) order by pr.name, t.trainer_id) as list
    from public.session_trainers t join public.profiles pr on pr.id = t.trainer_id
    where t.session_id = l.id
  ) tr on true
  left join lateral (
    select count(*) filter (where b.status = 'booked')::int as booked,
           count(*) filter (where b.status = 'requested')::int as requested,
           count(*) filter (where b.status = 'offered')::int as offered,
           count(*) filter (where b.status = 'waiting')::int as waiting,
           count(*) filter (where b.attendance = 'attended')::int as attended
    from public.session_bookings b
    where l.keeps and b.session_id = l.id
  ) ct on true;

  return json_build_object('sessions', v_sessions, 'myBooking', v_booking, 'canAdd', coalesce(v_can_add, false));
end;
$function$;

COMMENT ON FUNCTION "private"."module_sessions"(uuid, timestamp with time zone) IS 'GET /api/modules/:moduleId/sessions as JSON: the module''s dates the caller sees (a learner: not yet over, or booked by them) with trainers, places, canManage, keepsRegister and the register keepers'' counts; the caller''s booking of the module (live, else latest); canAdd. P0002 when there is no such module.';

REVOKE ALL ON FUNCTION "private"."module_sessions"(uuid, timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."module_sessions"(uuid, timestamp WITH time zone) TO "authenticated", "postgres";
