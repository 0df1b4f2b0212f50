-- learner_session_dates_by_index: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.module_sessions (
  p_module_id uuid,
  p_now       timestamp with time zone DEFAULT now(),
  p_limit     integer                  DEFAULT 12
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
  v_limit integer := least(greatest(coalesce(p_limit, 12), 1), 100);
  v_course_id uuid;
  v_course_org uuid;
  v_author boolean;
  v_enrolled boolean;
  v_can_add boolean;
  v_runs boolean;
  v_booking json;
  v_booked_session uuid;
  v_sessions json;
  v_more boolean;
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
  v_can_add := coalesce((v_admin or v_author or v_admin_org is not null) and private.may_manage_sessions(v_course_id, v_course_org), false);
  v_enrolled := exists (select 1 from public.enrollments e
                        where e.user_id = v_uid and e.course_id = v_course_id and e.status = 'ACTIVE');
  -- Keeping a date's register: admins, its trainers, the author (of their organisation's dates when
  -- they have one), an organisation's administrator (of that organisation's dates).
  v_runs := v_admin or v_can_add
    or exists (select 1 from public.session_trainers t join public.classroom_sessions s on s.id = t.session_id
               where t.trainer_id = v_uid and s.module_id = p_module_id)
    or ((v_author or v_admin_org is not null) and exists (
          select 1 from public.classroom_sessions s
          where s.module_id = p_module_id
            and ((v_author and (v_org is null or s.organisation_id = v_org)) or s.organisation_id = v_admin_org)));

  select row_to_json(x), x."sessionId"::uuid
    into v_booking, v_booked_session
  from (
    select b.id, b.session_id as "sessionId", b.module_id as "moduleId", b.user_id as "userId", b.cycle, b.status,
           to_char(b.waiting_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "waitingSince",
           to_char(b.offered_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "offeredUntil",
           b.attendance, b.walk_in as "walkIn", b.sequence,
           to_char(b.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
           to_char(b.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt"
    from public.session_bookings b
    where b.module_id = p_module_id and b.user_id = v_uid
    order by b.status in ('requested', 'booked', 'waiting', 'offered') desc, b.updated_at desc, b.id
    limit 1
  ) x;

  if not v_runs then
    -- A learner: the dates of their reach (enrolled: live ones, national or their organisation's; any
    -- they booked), the next v_limit not over and not cancelled, and their booking's date.
    -- Each source is read in start order by an index and stops after v_limit + 1 rows: the national
    -- dates and the organisation's (classroom_sessions_module_org_idx), and the dates the learner
    -- booked; other organisations' dates are never read.
    with upcoming as (
      select u.id, u.starts_at from (
        (select s.id, s.starts_at from public.classroom_sessions s
         where v_enrolled and s.module_id = p_module_id and s.organisation_id is null
           and s.cancelled_at is null and s.ends_at > p_now
         order by s.starts_at, s.id limit v_limit + 1)
        union
        (select s.id, s.starts_at from public.classroom_sessions s
         where v_enrolled and v_org is not null and s.module_id = p_module_id and s.organisation_id = v_org
           and s.cancelled_at is null and s.ends_at > p_now
         order by s.starts_at, s.id limit v_limit + 1)
        union
        (select s.id, s.starts_at from public.session_bookings b join public.classroom_sessions s on s.id = b.session_id
         where b.user_id = v_uid and b.module_id = p_module_id and s.cancelled_at is null and s.ends_at > p_now)
      ) u
      order by u.starts_at, u.id
      limit v_limit + 1
    ), listed as (
      select s.* from public.classroom_sessions s
      where s.id = any (array(select u.id from upcoming u order by u.starts_at, u.id limit v_limit) || v_booked_session)
    )
    select coalesce(json_agg(d order by d."startsAt", d.id), '[]'::json), (select count(*) > v_limit from upcoming)
      into v_sessions, v_more
    from (
      select l.id,
             to_char(l.starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "startsAt",
             to_char(l.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "endsAt",
             l.venue_name as "venueName", l.venue_address as "venueAddress", l.online_url as "onlineUrl",
             greatest(l.capacity - l.places_taken, 0) as "placesLeft",
             p_now < l.booking_closes_at and l.cancelled_at is null as "bookingOpen",
             l.note,
             to_char(l.cancelled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "cancelledAt",
             array(select pr.name from public.session_trainers t join public.profiles pr on pr.id = t.trainer_id
                   where t.session_id = l.id order by pr.name, t.trainer_id) as trainers
      from listed l
    ) d;
    return json_build_object('view', 'learner', 'moduleId', p_module_id, 'courseId', v_course_id,
                             'sessions', v_sessions, 'more', v_more, 'myBooking', v_booking);
  end if;

  with reach as (
    select s.*,
           v_admin
             or exists (select 1 from public.session_trainers t where t.session_id = s.id and t.trainer_id = v_uid)
             or (v_author and (v_org is null or s.organisation_id = v_org))
             or (v_admin_org is not null and s.organisation_id = v_admin_org) as keeps,
           s.id in (select b.session_id from public.session_bookings b where b.user_id = v_uid and b.module_id = p_module_id) as booked
    from public.classroom_sessions s
    where s.module_id = p_module_id
  ), listed as (
    select r.* from reach r
    where r.keeps or r.booked
       or (v_enrolled and r.cancelled_at is null and (r.organisation_id is null or r.organisation_id = v_org))
    order by r.starts_at, r.id
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

  return json_build_object('view', 'manage', 'moduleId', p_module_id, 'courseId', v_course_id,
                           'sessions', v_sessions, 'myBooking', v_booking, 'canAdd', v_can_add);
end;
$function$;

CREATE INDEX classroom_sessions_module_org_idx ON public.classroom_sessions USING btree (module_id, organisation_id, starts_at, id);

CREATE STATISTICS public.classroom_sessions_module_org_stats (mcv) ON module_id, organisation_id FROM public.classroom_sessions;
