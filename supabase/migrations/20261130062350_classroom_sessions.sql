-- classroom_sessions: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE TABLE "public"."classroom_sessions" (
  "id"                uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "module_id"         uuid                     NOT NULL,
  "course_id"         uuid                     NOT NULL,
  "organisation_id"   uuid,
  "starts_at"         timestamp with time zone NOT NULL,
  "ends_at"           timestamp with time zone NOT NULL,
  "venue_name"        text,
  "venue_address"     text,
  "online_url"        text,
  "capacity"          integer                  NOT NULL,
  "places_taken"      integer                  NOT NULL DEFAULT 0,
  "booking_closes_at" timestamp with time zone NOT NULL,
  "note"              text,
  "cancelled_at"      timestamp with time zone,
  "cancelled_reason"  text,
  "sequence"          integer                  NOT NULL DEFAULT 0,
  "created_by"        uuid,
  "created_at"        timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at"        timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "classroom_sessions_address_needs_venue" CHECK (((venue_address IS NULL) OR (venue_name IS NOT NULL))),
  CONSTRAINT "classroom_sessions_cancelled_reason" CHECK ((((cancelled_at IS NULL) AND (cancelled_reason IS NULL)) OR ((cancelled_at IS
    NOT NULL) AND ((char_length(btrim(cancelled_reason)) >= 1) AND (char_length(btrim(cancelled_reason)) <= 500))))),
  CONSTRAINT "classroom_sessions_capacity_range" CHECK (((capacity >= 1) AND (capacity <= 500))),
  CONSTRAINT "classroom_sessions_closes_by_start" CHECK ((booking_closes_at <= starts_at)),
  CONSTRAINT "classroom_sessions_ends_after_starts" CHECK ((ends_at > starts_at)),
  CONSTRAINT "classroom_sessions_not_too_long" CHECK (((ends_at - starts_at) <= '14 days'::interval)),
  CONSTRAINT "classroom_sessions_note_length" CHECK (((note IS NULL) OR (char_length(note) <= 2000))),
  CONSTRAINT "classroom_sessions_online_url_https" CHECK (((online_url IS NULL) OR ((online_url ~ '^https://[^\s/]+\S*$'::text) AND (char_length(online_url) <= 2000)))),
  CONSTRAINT "classroom_sessions_pkey" PRIMARY KEY (id),
  CONSTRAINT "classroom_sessions_place_given" CHECK (((venue_name IS NOT NULL) OR (online_url IS NOT NULL))),
  CONSTRAINT "classroom_sessions_places_taken_range" CHECK ((places_taken >= 0)),
  CONSTRAINT "classroom_sessions_sequence_range" CHECK ((sequence >= 0)),
  CONSTRAINT "classroom_sessions_venue_address_length"
    CHECK (((venue_address IS NULL) OR ((char_length(btrim(venue_address)) >= 1) AND (char_length(btrim(venue_address)) <= 500)))),
  CONSTRAINT "classroom_sessions_venue_name_length" CHECK (((venue_name IS NULL) OR ((char_length(btrim(venue_name)) >= 1) AND (char_length(btrim(venue_name)) <= 200))))
);

ALTER TABLE "public"."classroom_sessions"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."session_bookings" (
  "id"                   uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "session_id"           uuid                     NOT NULL,
  "module_id"            uuid                     NOT NULL,
  "user_id"              uuid                     NOT NULL,
  "cycle"                integer                  NOT NULL DEFAULT 1,
  "status"               text                     NOT NULL,
  "waiting_since"        timestamp with time zone,
  "offered_until"        timestamp with time zone,
  "attendance"           text,
  "attendance_marked_by" uuid,
  "attendance_marked_at" timestamp with time zone,
  "walk_in"              boolean                  NOT NULL DEFAULT false,
  "sequence"             integer                  NOT NULL DEFAULT 0,
  "reason"               text,
  "created_at"           timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at"           timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "session_bookings_attendance_known" CHECK (((attendance IS NULL) OR (attendance = ANY (ARRAY['attended'::text, 'no-show'::text, 'excused'::text])))),
  CONSTRAINT "session_bookings_attendance_of_booked" CHECK (((attendance IS NULL) OR (status = 'booked'::text))),
  CONSTRAINT "session_bookings_cycle_positive" CHECK ((cycle >= 1)),
  CONSTRAINT "session_bookings_offered_until_set" CHECK (((status = 'offered'::text) = (offered_until IS NOT NULL))),
  CONSTRAINT "session_bookings_pkey" PRIMARY KEY (id),
  CONSTRAINT "session_bookings_reason_length" CHECK (((reason IS NULL) OR (char_length(reason) <= 500))),
  CONSTRAINT "session_bookings_sequence_range" CHECK ((sequence >= 0)),
  CONSTRAINT "session_bookings_status_known"
    CHECK ((status = ANY (ARRAY['requested'::text, 'booked'::text, 'waiting'::text, 'offered'::text, 'cancelled'::text, 'declined'::text, 'lapsed'::text]))),
  CONSTRAINT "session_bookings_waiting_since_set" CHECK (((status <> 'waiting'::text) OR (waiting_since IS NOT NULL)))
);

ALTER TABLE "public"."session_bookings"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."session_trainers" (
  "session_id" uuid                     NOT NULL,
  "trainer_id" uuid                     NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "session_trainers_pkey" PRIMARY KEY (session_id, trainer_id)
);

ALTER TABLE "public"."session_trainers"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION private.add_walk_in (
  p_session_id uuid,
  p_user_id    uuid
)
  RETURNS public.session_bookings
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_s public.classroom_sessions;
  v_person public.profiles;
  v_cycle integer;
  v_b public.session_bookings;
  v_other uuid;
  v_was text;
begin
  select s.* into v_s from public.classroom_sessions s where s.id = p_session_id for update;
  if not found or not (private.is_admin() or v_s.id in (select private.run_session_ids())) then
    raise exception 'Session not found' using errcode = 'P0002';
  end if;
  if v_s.cancelled_at is not null then
    raise exception 'This session has been cancelled' using errcode = '55000', hint = 'session_cancelled';
  end if;
  select p.* into v_person from public.profiles p where p.id = p_user_id;
  if not found or v_person.deactivated_at is not null
     or (v_s.organisation_id is not null and v_person.organisation_id is distinct from v_s.organisation_id)
     or not (private.is_admin() or private.current_organisation_id() is null
             or v_person.organisation_id = private.current_organisation_id()) then
    raise exception 'This person cannot join this session' using errcode = '22023', hint = 'userId';
  end if;
  insert into public.enrollments (user_id, course_id, status) values (p_user_id, v_s.course_id, 'ACTIVE')
  on conflict (user_id, course_id) do update set status = 'ACTIVE' where public.enrollments.status = 'PENDING';
  select e.cycle into v_cycle from public.enrollments e where e.user_id = p_user_id and e.course_id = v_s.course_id;
  v_b := private.live_session_booking(p_user_id, v_s.module_id, v_cycle);
  if v_b.id is not null and v_b.session_id = p_session_id then
    if v_b.status <> 'booked' then
      update public.session_bookings b set status = 'booked', offered_until = null, updated_at = now()
      where b.id = v_b.id returning * into v_b;
    end if;
    return v_b;
  elsif v_b.id is not null then
    v_other := v_b.session_id;
    v_was := v_b.status;
    update public.session_bookings b set status = 'cancelled', offered_until = null,
      sequence = b.sequence + case when b.status = 'booked' then 1 else 0 end, updated_at = now()
    where b.id = v_b.id returning * into v_b;
    if v_was = 'booked' then
      perform private.write_session_notice('session-cancelled', v_b.user_id, v_b, 'CANCEL', now());
    end if;
  end if;
  insert into public.session_bookings (session_id, module_id, user_id, cycle, status, walk_in)
  values (p_session_id, v_s.module_id, p_user_id, v_cycle, 'booked', true)
  returning * into v_b;
  perform private.write_audit('session.walk_in_added', 'user', p_user_id, v_person.name, null,
    jsonb_build_object('sessionId', p_session_id, 'bookingId', v_b.id, 'startsAt', v_s.starts_at));
  if v_other is not null then
    perform private.offer_session_places(v_other, now());
  end if;
  return v_b;
end;
$function$;

CREATE OR REPLACE FUNCTION private.answer_offer (
  p_booking_id uuid,
  p_accept     boolean
)
  RETURNS public.session_bookings
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_b public.session_bookings := private.own_live_booking(p_booking_id);
begin
  if v_b.status <> 'offered' or v_b.offered_until <= now() then
    raise exception 'No place is offered to you on this booking' using errcode = '55000', hint = 'no_offer';
  end if;
  if p_accept then
    v_b := private.give_session_place(v_b.id, now());
  else
    update public.session_bookings b set status = 'declined', offered_until = null, updated_at = now()
    where b.id = v_b.id returning * into v_b;
    perform private.offer_session_places(v_b.session_id, now());
  end if;
  return v_b;
end;
$function$;

CREATE OR REPLACE FUNCTION private.book_session (
  p_session_id uuid
)
  RETURNS public.session_bookings
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_s public.classroom_sessions;
  v_cycle integer;
  v_b public.session_bookings;
begin
  select s.* into v_s from public.classroom_sessions s where s.id = p_session_id for update;
  if not found or not (v_s.id in (select private.learner_session_ids())) then
    raise exception 'Session not found' using errcode = 'P0002';
  end if;
  select e.cycle into v_cycle from public.enrollments e
  where e.user_id = v_uid and e.course_id = v_s.course_id and e.status = 'ACTIVE';
  if v_cycle is null then
    raise exception 'Enrol on the course to book a date' using errcode = '42501', hint = 'session_not_enrolled';
  end if;
  v_b := private.live_session_booking(v_uid, v_s.module_id, v_cycle);
  if v_b.id is not null and v_b.session_id = p_session_id then
    return v_b;
  elsif v_b.id is not null then
    raise exception 'You already have a booking for this session: move it instead' using errcode = '55000', hint = 'session_booked_elsewhere';
  end if;
  if v_s.cancelled_at is not null then
    raise exception 'This session has been cancelled' using errcode = '55000', hint = 'session_cancelled';
  end if;
  if now() >= v_s.booking_closes_at then
    raise exception 'Booking for this session has closed' using errcode = '55000', hint = 'session_closed';
  end if;
  if exists (select 1 from public.user_module_progress u where u.user_id = v_uid and u.module_id = v_s.module_id and u.completed) then
    raise exception 'You have already completed this module' using errcode = '55000', hint = 'session_completed';
  end if;
  insert into public.session_bookings (session_id, module_id, user_id, cycle, status, waiting_since)
  values (p_session_id, v_s.module_id, v_uid, v_cycle, 'waiting', now())
  returning * into v_b;
  if v_s.places_taken < v_s.capacity
     and not exists (select 1 from public.session_bookings b where b.session_id = p_session_id and b.status = 'waiting' and b.id <> v_b.id) then
    v_b := private.give_session_place(v_b.id, now());
    update public.session_bookings b set waiting_since = null where b.id = v_b.id returning * into v_b;
  else
    perform private.write_session_notice('session-waiting', v_uid, v_b, null, now());
  end if;
  return v_b;
end;
$function$;

CREATE OR REPLACE FUNCTION private.cancel_booking (
  p_booking_id uuid
)
  RETURNS public.session_bookings
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_b public.session_bookings := private.own_live_booking(p_booking_id);
  v_s public.classroom_sessions;
  v_was text := v_b.status;
begin
  if v_was not in ('requested', 'booked', 'waiting', 'offered') then
    return v_b;
  end if;
  select s.* into v_s from public.classroom_sessions s where s.id = v_b.session_id;
  if v_was <> 'waiting' and now() >= v_s.booking_closes_at then
    raise exception 'The cut-off has passed: ask the trainer' using errcode = '55000', hint = 'session_closed';
  end if;
  update public.session_bookings b
  set status = 'cancelled', offered_until = null,
      sequence = b.sequence + case when v_was = 'booked' then 1 else 0 end, updated_at = now()
  where b.id = v_b.id returning * into v_b;
  if v_was = 'booked' then
    perform private.write_session_notice('session-cancelled', v_b.user_id, v_b, 'CANCEL', now());
  end if;
  perform private.offer_session_places(v_s.id, now());
  return v_b;
end;
$function$;

CREATE OR REPLACE FUNCTION private.cancel_session (
  p_session_id uuid,
  p_reason     text
)
  RETURNS public.classroom_sessions
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_s public.classroom_sessions := private.session_to_manage(p_session_id);
  v_b public.session_bookings;
  v_was text;
begin
  if v_s.cancelled_at is not null then
    return v_s;
  end if;
  if p_reason is null or char_length(btrim(p_reason)) not between 1 and 500 then
    raise exception 'Give a reason of 1 to 500 characters' using errcode = '22023', hint = 'reason';
  end if;
  for v_b in
    select b.* from public.session_bookings b
    where b.session_id = p_session_id and b.status in ('requested', 'booked', 'waiting', 'offered')
    for update
  loop
    v_was := v_b.status;
    update public.session_bookings b
    set status = 'cancelled', offered_until = null, reason = btrim(p_reason), attendance = null,
        sequence = b.sequence + 1, updated_at = now()
    where b.id = v_b.id returning * into v_b;
    perform private.write_session_notice('session-cancelled', v_b.user_id, v_b,
      case when v_was = 'booked' then 'CANCEL' end, now());
  end loop;
  update public.classroom_sessions s set cancelled_at = now(), cancelled_reason = btrim(p_reason), updated_at = now()
  where s.id = p_session_id returning * into v_s;
  perform private.write_audit('session.cancelled', 'classroom_session', v_s.id, btrim(p_reason), null,
    jsonb_build_object('startsAt', v_s.starts_at, 'reason', btrim(p_reason)));
  return v_s;
end;
$function$;

CREATE OR REPLACE FUNCTION private.count_session_places()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_old boolean := tg_op <> 'INSERT' and old.status in ('requested', 'booked', 'offered');
  v_new boolean := tg_op <> 'DELETE' and new.status in ('requested', 'booked', 'offered');
begin
  if v_old and (not v_new or old.session_id <> new.session_id) then
    update public.classroom_sessions s set places_taken = greatest(s.places_taken - 1, 0) where s.id = old.session_id;
  end if;
  if v_new and (not v_old or old.session_id <> new.session_id) then
    update public.classroom_sessions s set places_taken = s.places_taken + 1 where s.id = new.session_id;
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.create_session (
  p_module_id         uuid,
  p_starts_at         timestamp with time zone,
  p_ends_at           timestamp with time zone,
  p_venue_name        text,
  p_venue_address     text,
  p_online_url        text,
  p_capacity          integer,
  p_booking_closes_at timestamp with time zone,
  p_note              text,
  p_organisation_id   uuid                     DEFAULT NULL::uuid,
  p_trainer_ids       uuid[]                   DEFAULT '{}'::uuid[]
)
  RETURNS public.classroom_sessions
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_course public.courses;
  v_org uuid;
  v_s public.classroom_sessions;
begin
  select c.* into v_course from public.course_modules m join public.courses c on c.id = m.course_id
  where m.id = p_module_id;
  if not found or not private.can_view_course(v_course.id) then
    raise exception 'Module not found' using errcode = 'P0002';
  end if;
  v_org := coalesce(v_course.organisation_id, private.current_organisation_id(), p_organisation_id);
  if not private.may_manage_sessions(v_course.id, v_org) then
    raise exception 'You cannot add dates to this course' using errcode = '42501';
  end if;
  if p_organisation_id is not null and not exists (select 1 from public.organisations o where o.id = p_organisation_id) then
    raise exception 'No such organisation' using errcode = '22023', hint = 'organisationId';
  end if;
  insert into public.classroom_sessions (module_id, course_id, organisation_id, starts_at, ends_at, venue_name,
    venue_address, online_url, capacity, booking_closes_at, note, created_by)
  values (p_module_id, v_course.id, v_org, p_starts_at, p_ends_at, nullif(btrim(p_venue_name), ''),
    nullif(btrim(p_venue_address), ''), nullif(btrim(p_online_url), ''), p_capacity,
    coalesce(p_booking_closes_at, p_starts_at), nullif(btrim(p_note), ''), (select auth.uid()))
  returning * into v_s;
  perform private.set_trainers_of(v_s, p_trainer_ids);
  perform private.write_audit('session.created', 'classroom_session', v_s.id, v_course.title,
    null, jsonb_build_object('moduleId', p_module_id, 'startsAt', v_s.starts_at, 'organisationId', v_org));
  return v_s;
end;
$function$;

CREATE OR REPLACE FUNCTION private.decide_booking (
  p_booking_id uuid,
  p_approve    boolean,
  p_reason     text    DEFAULT NULL::text
)
  RETURNS public.session_bookings
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_b public.session_bookings;
  v_s public.classroom_sessions;
begin
  perform 1 from public.classroom_sessions s
  where s.id = (select b.session_id from public.session_bookings b where b.id = p_booking_id) for update;
  select b.* into v_b from public.session_bookings b where b.id = p_booking_id for update;
  if not found or not private.manages(v_b.user_id) then
    raise exception 'Booking not found' using errcode = 'P0002';
  end if;
  if v_b.status <> 'requested' then
    raise exception 'This booking is not waiting for approval' using errcode = '55000', hint = 'not_requested';
  end if;
  select s.* into v_s from public.classroom_sessions s where s.id = v_b.session_id;
  if now() >= v_s.starts_at then
    raise exception 'The session has started' using errcode = '55000', hint = 'session_started';
  end if;
  if p_reason is not null and char_length(p_reason) > 500 then
    raise exception 'Give a reason of at most 500 characters' using errcode = '22023', hint = 'reason';
  end if;
  if p_approve then
    update public.session_bookings b set status = 'booked', updated_at = now() where b.id = p_booking_id returning * into v_b;
    perform private.write_session_notice('session-booked', v_b.user_id, v_b, 'REQUEST', now());
  else
    update public.session_bookings b set status = 'declined', reason = nullif(btrim(p_reason), ''), updated_at = now()
    where b.id = p_booking_id returning * into v_b;
    perform private.write_session_notice('session-booking-declined', v_b.user_id, v_b, null, now());
    perform private.offer_session_places(v_b.session_id, now());
  end if;
  return v_b;
end;
$function$;

CREATE OR REPLACE FUNCTION private.decide_later_notifications (
  p_now timestamp with time zone
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return private.decide_session_notifications(p_now);
end;
$function$;

CREATE OR REPLACE FUNCTION private.decide_notifications (
  p_now timestamp with time zone
)
  RETURNS integer
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  with recursive
  cfg as materialized (
    select s.notify_due_soon_days as due_soon_days, s.notify_expiry_days as expiry_days,
           s.notify_overdue_every_days as overdue_every, s.notify_escalation_days as escalation_days,
           -- the window of the expiry notices (the first is the largest) and of the digest (30 days)
           make_interval(days => greatest(s.notify_expiry_days[1], 30)) as expiry_window,
           -- the weekly digest: Mondays from 07:00 London, one per ISO week (its Monday)
           extract(isodow from p_now at time zone 'Europe/London') = 1
             and (p_now at time zone 'Europe/London')::time >= time '07:00' as digest_day,
           date_trunc('week', p_now at time zone 'Europe/London') at time zone 'Europe/London' as week_start,
           private.mandatory_notification_kinds() as mandatory_kinds
    from public.settings s
    where s.id
    limit 1 -- (one row: the planner is told so)
  ),
  -- The rules of published courses, a unit rule with its unit's subtree listed once.
  rules as materialized (
    select row_number() over () as rn, r.course_id, c.title, r.role, r.service, r.organisation_id,
           case when r.unit_id is not null then array(select private.unit_subtree(r.unit_id)) end as units,
           r.created_at, r.due_within_days,
           coalesce(r.notify_due_soon_days, cfg.due_soon_days) as due_soon_days,
           coalesce(r.notify_escalation_days, cfg.escalation_days) as escalation_days
    from public.required_training r
    cross join cfg
    join public.courses c on c.id = r.course_id and c.status = 'ACTIVE'
  ),
  -- Required training: one row per active person and required, published course, with when it
  -- was assigned and first due (the rule of private.required_training_status, at p_now), and its
  -- notice intervals.
  -- The rules are matched once per placement (role, services, organisation, unit) that active
  -- people share, a few thousand, not once per person (as private.required_training_states_query).
  -- (the rules' numbers per placement, so that the planner expects as many rows as there are and
  -- joins the people by hash)
  placed as materialized (
    select k.role, k.services, k.organisation_id, k.unit_id,
           unnest(array(
             select r.rn from rules r
             where (r.role is null or k.role = r.role) and (r.service is null or k.services @> array[r.service])
               -- a rule scoped to an organisation or a unit (its subtree)
               and (r.organisation_id is null or k.organisation_id = r.organisation_id)
               and (r.units is null or k.unit_id = any (r.units)))) as rn
    from (select distinct p.role, p.services, p.organisation_id, p.unit_id
          from public.profiles p where p.deactivated_at is null) k
  ),
  required as (
    select p.id as user_id, p.manager_id, p.name, r.course_id, r.title,
           min(greatest(r.created_at, coalesce(e.created_at, p.created_at))) as assigned_at,
           min(greatest(r.created_at, coalesce(e.created_at, p.created_at))
               + make_interval(days => r.due_within_days)) as first_due,
           -- (as jsonb: arrays of different lengths cannot be aggregated into one array)
           (array_agg(to_jsonb(r.due_soon_days) order by r.due_soon_days desc))[1] as due_soon_days,
           min(r.escalation_days) as escalation_days
    from public.profiles p
    -- by placement (hashable: no organisation or unit is the nil uuid)
    join placed k
      on k.role = p.role and k.services = p.services
         and coalesce(k.organisation_id, '00000000-0000-0000-0000-000000000000'::uuid)
             = coalesce(p.organisation_id, '00000000-0000-0000-0000-000000000000'::uuid)
         and coalesce(k.unit_id, '00000000-0000-0000-0000-000000000000'::uuid)
             = coalesce(p.unit_id, '00000000-0000-0000-0000-000000000000'::uuid)
    join rules r on r.rn = k.rn
    left join public.enrollments e on e.user_id = p.id and e.course_id = r.course_id
    where p.deactivated_at is null
    group by p.id, r.course_id, r.title
  ),
  items as (
    select q.*, cert.id is null as never_held,
           case
             when cert.id is null then q.first_due
             when cert.expires_at is not null and cert.expires_at <= p_now then cert.expires_at
           end as due_at
    from required q
    left join lateral (
      select ct.id, ct.expires_at from public.certificates ct
      where ct.user_id = q.user_id and ct.course_id = q.course_id and ct.revoked_at is null
        and ct.issued_at <= p_now
      order by ct.issued_at desc
      limit 1
    ) cert on true
  ),
  -- The latest live certificate of each active person and course that expires within the notice
  -- window or expired within the last 30 days; not of another organisation's course.
  expiring as (
    select ct.id, ct.user_id, ct.course_id, ct.course_title, ct.issued_at, ct.expires_at
    from public.certificates ct
    cross join cfg
    join public.profiles p on p.id = ct.user_id and p.deactivated_at is null
    left join public.courses c on c.id = ct.course_id
    where ct.revoked_at is null and ct.expires_at is not null
      and ct.expires_at > p_now - interval '30 days' and ct.expires_at <= p_now + cfg.expiry_window
      and ct.issued_at <= p_now
      and (c.organisation_id is null or c.organisation_id = p.organisation_id)
      and not exists (
        select 1 from public.certificates newer
        where newer.user_id = ct.user_id and newer.course_id = ct.course_id and newer.revoked_at is null
          and newer.issued_at > ct.issued_at and newer.issued_at <= p_now
      )
  ),
  -- The weekly digest's lines: each report's overdue items and certificates expiring within 30
  -- days (read only on a digest day: the other days this is empty and the chain below not walked).
  noteworthy as (
    select i.user_id, 'overdue' as what, i.title, i.due_at as at
    from items i cross join cfg
    where cfg.digest_day and i.due_at <= p_now
    union all
    select x.user_id, 'expiring', x.course_title, x.expires_at
    from expiring x cross join cfg
    where cfg.digest_day and x.expires_at > p_now and x.expires_at <= p_now + interval '30 days'
  ),
  -- Each noteworthy person's managers, direct and up the chain (as private.managed_person_ids
  -- walks it down; at most 32 levels).
  chain (manager_id, person_id, depth) as (
    select p.manager_id, p.id, 1
    from public.profiles p
    where p.id in (select n.user_id from noteworthy n) and p.manager_id is not null
    union all
    select m.manager_id, ch.person_id, ch.depth + 1
    from chain ch
    join public.profiles m on m.id = ch.manager_id
    where m.manager_id is not null and ch.depth < 32
  ),
  -- Per manager: the counts, and the first 10 lines (overdue first, the longest overdue first), the
  -- people's names read for those lines only (an aggregate's arguments are evaluated only for the
  -- rows its filter lets through).
  digest as (
    select r.manager_id,
           count(*) filter (where r.what = 'overdue') as overdue,
           count(*) filter (where r.what = 'expiring') as expiring,
           count(distinct r.person_id) as people,
           jsonb_agg(jsonb_build_object(
                       'personName', (select p.name from public.profiles p where p.id = r.person_id),
                       'personId', r.person_id, 'courseTitle', r.title, 'what', r.what, 'at', r.at)
                     order by r.rn) filter (where r.rn <= 10) as lines
    from (
      select ch.manager_id, ch.person_id, n.what, n.title, n.at,
             row_number() over (partition by ch.manager_id order by n.what desc, n.at, ch.person_id, n.title) as rn
      from chain ch
      join noteworthy n on n.user_id = ch.person_id
    ) r
    group by r.manager_id
  ),
  candidates (recipient_id, kind, person_id, course_id, subject_id, occasion, threshold, cycle, title, body, data, link_path) as (
    -- Assigned (a first assignment, told within 14 days of it).
    select i.user_id, 'training-assigned', i.user_id, i.course_id, null::uuid, i.first_due, 0, 0,
           'Required training: ' || i.title,
           'Complete it by ' || to_char(i.first_due at time zone 'Europe/London', 'FMDD FMMonth YYYY') || '.',
           jsonb_build_object('courseTitle', i.title, 'dueAt', i.first_due),
           '/course/' || i.course_id
    from items i
    where i.never_held and i.assigned_at <= p_now and i.assigned_at > p_now - interval '14 days'
    union all
    -- Due soon: the nearest of the rule's (or the settings') days before the due date that has
    -- been reached (one not already passed when the training was assigned).
    select i.user_id, 'training-due-soon', i.user_id, i.course_id, null, i.due_at, t.days, 0,
           i.title || ' is due in ' || t.days || case t.days when 1 then ' day' else ' days' end,
           'Complete it by ' || to_char(i.due_at at time zone 'Europe/London', 'FMDD FMMonth YYYY') || '.',
           jsonb_build_object('courseTitle', i.title, 'dueAt', i.due_at, 'days', t.days),
           '/course/' || i.course_id
    from items i
    cross join lateral (
      select min(d) as days from jsonb_array_elements_text(i.due_soon_days) j(v), cast(j.v as integer) d
      where i.due_at - make_interval(days => d) <= p_now and i.assigned_at < i.due_at - make_interval(days => d)
    ) t
    where i.never_held and i.due_at > p_now and t.days is not null
    union all
    -- Overdue: on the day, then every so many days (cycle = whole periods since the due date).
    select i.user_id, 'training-overdue', i.user_id, i.course_id, null, i.due_at, 0,
           floor(extract(epoch from p_now - i.due_at) / (86400 * cfg.overdue_every))::integer,
           i.title || ' is overdue',
           'It was due on ' || to_char(i.due_at at time zone 'Europe/London', 'FMDD FMMonth YYYY') || '.',
           jsonb_build_object('courseTitle', i.title, 'dueAt', i.due_at),
           '/course/' || i.course_id
    from items i cross join cfg
    where i.due_at <= p_now
    union all
    -- Escalation to the direct line manager when a report is overdue by the rule's days
    -- (threshold = those days).
    select i.manager_id, 'manager-escalation', i.user_id, i.course_id, null, i.due_at, i.escalation_days, 0,
           i.name || ' is overdue with ' || i.title,
           'It was due on ' || to_char(i.due_at at time zone 'Europe/London', 'FMDD FMMonth YYYY') || '.',
           jsonb_build_object('courseTitle', i.title, 'dueAt', i.due_at, 'personName', i.name, 'personId', i.user_id,
             'days', i.escalation_days),
           '/team/' || i.user_id
    from items i
    where i.manager_id is not null and i.due_at <= p_now - make_interval(days => i.escalation_days)
    union all
    -- Certificate expiring: the nearest of the settings' days before expiry that has been reached.
    select x.user_id, 'certificate-expiring', x.user_id, x.course_id, x.id, x.expires_at, t.days, 0,
           'Your ' || x.course_title || ' certificate expires in ' || t.days || case t.days when 1 then ' day' else ' days' end,
           'It expires on ' || to_char(x.expires_at at time zone 'Europe/London', 'FMDD FMMonth YYYY') || '.',
           jsonb_build_object('courseTitle', x.course_title, 'expiresAt', x.expires_at, 'days', t.days),
           '/certificates'
    from expiring x
    cross join cfg
    cross join lateral (
      select min(d) as days from unnest(cfg.expiry_days) d
      where x.expires_at - make_interval(days => d) <= p_now and x.issued_at < x.expires_at - make_interval(days => d)
    ) t
    where x.expires_at > p_now and t.days is not null
    union all
    select x.user_id, 'certificate-expired', x.user_id, x.course_id, x.id, x.expires_at, 0, 0,
           'Your ' || x.course_title || ' certificate has expired',
           'It expired on ' || to_char(x.expires_at at time zone 'Europe/London', 'FMDD FMMonth YYYY') || '.',
           jsonb_build_object('courseTitle', x.course_title, 'expiresAt', x.expires_at),
           '/certificates'
    from expiring x
    where x.expires_at <= p_now
    union all
    -- Certificate issued (told within 7 days of issue), with the verification link; not of a
    -- course of an organisation the person has left.
    select ct.user_id, 'certificate-issued', ct.user_id, ct.course_id, ct.id, ct.issued_at, 0, 0,
           'Certificate issued: ' || ct.course_title,
           'Verification code ' || ct.verification_code || '.',
           jsonb_build_object('courseTitle', ct.course_title, 'issuedAt', ct.issued_at,
             'verificationCode', ct.verification_code),
           '/verify/' || ct.verification_code
    from public.certificates ct
    join public.profiles p on p.id = ct.user_id
    left join public.courses c on c.id = ct.course_id
    where ct.revoked_at is null
      and ct.issued_at <= p_now and ct.issued_at > p_now - interval '7 days'
      and (c.organisation_id is null or c.organisation_id = p.organisation_id)
    union all
    -- Enrolment approved or declined (told within 7 days of the decision), as above.
    select d.user_id, 'enrolment-' || d.decision, d.user_id, d.course_id, d.enrollment_id, d.decided_at, 0, 0,
           case d.decision when 'approved' then 'Enrolment approved: ' else 'Enrolment declined: ' end || c.title,
           case d.decision when 'approved' then 'You can start the course.' else 'Your request to join the course was declined.' end,
           jsonb_build_object('courseTitle', c.title, 'decidedAt', d.decided_at),
           '/course/' || d.course_id
    from private.enrolment_decisions d
    join public.courses c on c.id = d.course_id
    join public.profiles p on p.id = d.user_id
    where d.decided_at <= p_now and d.decided_at > p_now - interval '7 days'
      and (c.organisation_id is null or c.organisation_id = p.organisation_id)
    union all
    -- The weekly digest of a manager's reports (occasion = the week's Monday); none when there is
    -- nothing to say.
    select g.manager_id, 'manager-digest', null, null, null, cfg.week_start, 0, 0,
           'Your team this week: ' || g.overdue || ' overdue, ' || g.expiring || ' expiring',
           concat_ws(E'\n',
             g.overdue || case g.overdue when 1 then ' overdue item' else ' overdue items' end || ' and '
               || g.expiring || case g.expiring when 1 then ' certificate' else ' certificates' end
               || ' expiring within 30 days, among ' || g.people
               || case g.people when 1 then ' person.' else ' people.' end,
             (select string_agg(l ->> 'personName' || ': ' || (l ->> 'courseTitle')
                       || case l ->> 'what' when 'overdue' then ' overdue since ' else ' certificate expires on ' end
                       || to_char((l ->> 'at')::timestamptz at time zone 'Europe/London', 'FMDD FMMonth YYYY'), E'\n' order by o)
              from jsonb_array_elements(g.lines) with ordinality u(l, o)),
             case when g.overdue + g.expiring > 10 then 'And ' || (g.overdue + g.expiring - 10) || ' more on your team page.' end),
           jsonb_build_object('overdue', g.overdue, 'expiring', g.expiring, 'people', g.people,
             'weekOf', cfg.week_start, 'lines', g.lines),
           '/team'
    from digest g cross join cfg
  ),
  written as (
    insert into public.notifications as n (recipient_id, kind, person_id, course_id, subject_id, occasion,
      threshold, cycle, title, body, data, link_path, created_at, email_status)
    select k.recipient_id, k.kind, k.person_id, k.course_id, k.subject_id,
           (k.occasion at time zone 'Europe/London')::date, k.threshold, k.cycle, k.title, k.body, k.data,
           k.link_path, p_now,
           case
             when btrim(rp.email) = '' then 'skipped'
             when k.kind <> all (cfg.mandatory_kinds)
                  and coalesce(pref.email_off @> array[k.kind], false) then 'skipped'
             else 'queued'
           end
    from candidates k
    cross join cfg
    join public.profiles rp on rp.id = k.recipient_id and rp.deactivated_at is null
    left join public.notification_preferences pref on pref.user_id = k.recipient_id
    on conflict on constraint notifications_once do nothing
    returning 1
  )
  select count(*)::integer + private.decide_later_notifications(p_now) from written
$function$;

CREATE OR REPLACE FUNCTION private.decide_session_notifications (
  p_now timestamp with time zone
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_session uuid;
  v_due record;
  v_b public.session_bookings;
  v_count integer := 0;
begin
  for v_session in
    select distinct b.session_id from public.session_bookings b
    where b.status = 'offered' and b.offered_until <= p_now
    order by b.session_id
  loop
    perform 1 from public.classroom_sessions s where s.id = v_session for update;
    update public.session_bookings b set status = 'lapsed', offered_until = null, updated_at = p_now
    where b.session_id = v_session and b.status = 'offered' and b.offered_until <= p_now;
    v_count := v_count + private.offer_session_places(v_session, p_now);
  end loop;
  for v_due in
    select b.id, d.days
    from public.classroom_sessions s
    join public.session_bookings b on b.session_id = s.id and b.status = 'booked'
    cross join lateral (
      select min(x) as days from unnest(array[7, 1]) x
      where s.starts_at - make_interval(days => x) <= p_now and b.created_at < s.starts_at - make_interval(days => x)
    ) d
    where s.starts_at > p_now and s.starts_at <= p_now + interval '7 days' and s.cancelled_at is null
      and d.days is not null
      and not exists (
        select 1 from public.notifications n
        where n.recipient_id = b.user_id and n.kind = 'session-reminder' and n.subject_id = b.id
          and n.threshold = d.days and n.cycle = b.sequence)
  loop
    select b.* into v_b from public.session_bookings b where b.id = v_due.id;
    v_count := v_count + private.write_session_notice('session-reminder', v_b.user_id, v_b, 'REQUEST', p_now, v_due.days);
  end loop;
  return v_count;
end;
$function$;

CREATE OR REPLACE FUNCTION private.give_session_place (
  p_booking_id uuid,
  p_now        timestamp with time zone
)
  RETURNS public.session_bookings
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_b public.session_bookings;
  v_manager uuid;
  v_approval boolean;
begin
  select p.manager_id, c.sessions_need_manager_approval into v_manager, v_approval
  from public.session_bookings b
  join public.profiles p on p.id = b.user_id
  join public.classroom_sessions s on s.id = b.session_id
  join public.courses c on c.id = s.course_id
  where b.id = p_booking_id;
  if v_approval and v_manager is not null then
    update public.session_bookings b set status = 'requested', offered_until = null, updated_at = p_now
    where b.id = p_booking_id returning * into v_b;
    perform private.write_session_notice('session-approval-requested', v_manager, v_b, null, p_now);
  else
    update public.session_bookings b set status = 'booked', offered_until = null, updated_at = p_now
    where b.id = p_booking_id returning * into v_b;
    perform private.write_session_notice('session-booked', v_b.user_id, v_b, 'REQUEST', p_now);
  end if;
  return v_b;
end;
$function$;

CREATE OR REPLACE FUNCTION private.keeps_register (
  p_session_id uuid,
  p_user_id    uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return coalesce(private.is_admin()
    or p_session_id in (select private.run_session_ids())
    or (p_user_id is not null and private.is_org_admin() and private.administers(p_user_id)), false);
end;
$function$;

CREATE OR REPLACE FUNCTION private.learner_session_ids()
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 20
  SET search_path TO ''
  AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_org uuid := private.current_organisation_id();
begin
  return query
    select s.id from public.enrollments e
    join public.classroom_sessions s on s.course_id = e.course_id
    where e.user_id = v_uid and e.status = 'ACTIVE' and s.cancelled_at is null
      and (s.organisation_id is null or s.organisation_id = v_org)
    union
    select b.session_id from public.session_bookings b where b.user_id = v_uid;
end;
$function$;

CREATE OR REPLACE FUNCTION private.live_session_booking (
  p_user_id   uuid,
  p_module_id uuid,
  p_cycle     integer
)
  RETURNS public.session_bookings
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_b public.session_bookings;
begin
  select b.* into v_b from public.session_bookings b
  where b.user_id = p_user_id and b.module_id = p_module_id and b.cycle = p_cycle
    and b.status in ('requested', 'booked', 'waiting', 'offered')
  for update;
  return v_b;
end;
$function$;

CREATE OR REPLACE FUNCTION private.mark_all_attended (
  p_session_id uuid
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_id uuid;
  v_count integer := 0;
begin
  if not exists (select 1 from public.classroom_sessions s where s.id = p_session_id)
     or not private.keeps_register(p_session_id, null) then
    raise exception 'Session not found' using errcode = 'P0002';
  end if;
  for v_id in
    select b.id from public.session_bookings b
    where b.session_id = p_session_id and b.status = 'booked' and b.attendance is null
    order by b.id
  loop
    perform private.mark_attendance(v_id, 'attended');
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$function$;

CREATE OR REPLACE FUNCTION private.mark_attendance (
  p_booking_id uuid,
  p_attendance text
)
  RETURNS public.session_bookings
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_b public.session_bookings;
  v_was text;
  v_s public.classroom_sessions;
  v_name text;
begin
  if p_attendance is not null and p_attendance not in ('attended', 'no-show', 'excused') then
    raise exception 'Attendance is attended, no-show or excused' using errcode = '22023', hint = 'attendance';
  end if;
  -- The booking's lock makes taps in a row wait for one another: the second finds the mark made.
  select b.* into v_b from public.session_bookings b where b.id = p_booking_id for update;
  if not found then
    raise exception 'Booking not found' using errcode = 'P0002';
  end if;
  select s.* into v_s from public.classroom_sessions s where s.id = v_b.session_id;
  if not private.keeps_register(v_s.id, v_b.user_id) then
    raise exception 'You do not keep this session''s register' using errcode = '42501';
  end if;
  if v_b.status <> 'booked' or v_s.cancelled_at is not null then
    raise exception 'Only a booked place of a session not cancelled is on the register' using errcode = '55000', hint = 'not_on_register';
  end if;
  if v_b.attendance is not distinct from p_attendance then
    return v_b;
  end if;
  v_was := v_b.attendance;
  update public.session_bookings b
  set attendance = p_attendance, attendance_marked_by = (select auth.uid()), attendance_marked_at = now(), updated_at = now()
  where b.id = p_booking_id returning * into v_b;
  select p.name into v_name from public.profiles p where p.id = v_b.user_id;
  perform private.write_audit('session.attendance_marked', 'user', v_b.user_id, v_name,
    jsonb_build_object('sessionId', v_s.id, 'bookingId', v_b.id, 'attendance', v_was),
    jsonb_build_object('sessionId', v_s.id, 'bookingId', v_b.id, 'attendance', p_attendance, 'startsAt', v_s.starts_at));
  if p_attendance = 'attended' then
    insert into public.user_module_progress (user_id, module_id, read_at)
    values (v_b.user_id, v_b.module_id, now())
    on conflict (user_id, module_id) do update set read_at = now()
    where public.user_module_progress.read_at is null;
    perform private.settle_module(v_b.user_id, v_b.module_id);
    perform private.refresh_enrollment(v_b.user_id, v_s.course_id);
  elsif v_was = 'attended' and not exists (
      select 1 from public.enrollments e where e.user_id = v_b.user_id and e.course_id = v_s.course_id and e.completed) then
    update public.user_module_progress u set completed = false, completed_at = null
    where u.user_id = v_b.user_id and u.module_id = v_b.module_id and u.completed;
    perform private.refresh_enrollment(v_b.user_id, v_s.course_id);
  end if;
  return v_b;
end;
$function$;

CREATE OR REPLACE FUNCTION private.may_manage_sessions (
  p_course_id       uuid,
  p_organisation_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_org uuid := private.current_organisation_id();
begin
  return coalesce(private.is_admin()
    or exists (
      select 1 from public.courses c
      where c.id = p_course_id and c.author_id = (select auth.uid())
        and private."current_role"() in ('INSTRUCTOR', 'ADMIN')
        and (v_org is null or p_organisation_id is not distinct from v_org))
    or (p_organisation_id is not null and p_organisation_id = private.administered_organisation_id()
        and exists (select 1 from public.courses c where c.id = p_course_id
                    and (c.organisation_id is null or c.organisation_id = p_organisation_id))), false);
end;
$function$;

CREATE OR REPLACE FUNCTION private.move_booking (
  p_booking_id uuid,
  p_session_id uuid
)
  RETURNS public.session_bookings
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_b public.session_bookings;
  v_from public.classroom_sessions;
  v_to public.classroom_sessions;
  v_old_session uuid;
begin
  select b.session_id into v_old_session from public.session_bookings b where b.id = p_booking_id and b.user_id = v_uid;
  if v_old_session is null then
    raise exception 'Booking not found' using errcode = 'P0002';
  end if;
  if v_old_session = p_session_id then
    return (select b from public.session_bookings b where b.id = p_booking_id);
  end if;
  -- Both dates locked in one order, so two moves between them cannot wait on each other.
  perform 1 from public.classroom_sessions s where s.id in (v_old_session, p_session_id) order by s.id for update;
  select b.* into v_b from public.session_bookings b where b.id = p_booking_id for update;
  select s.* into v_from from public.classroom_sessions s where s.id = v_b.session_id;
  select s.* into v_to from public.classroom_sessions s where s.id = p_session_id;
  if v_to.id is null or not (v_to.id in (select private.learner_session_ids())) or v_to.module_id <> v_b.module_id then
    raise exception 'Session not found' using errcode = 'P0002', hint = 'sessionId';
  end if;
  if v_b.status not in ('booked', 'requested') then
    raise exception 'Only a booked place can be moved' using errcode = '55000', hint = 'booking_not_movable';
  end if;
  if now() >= v_from.booking_closes_at then
    raise exception 'Your date''s cut-off has passed' using errcode = '55000', hint = 'session_closed';
  end if;
  if v_to.cancelled_at is not null or now() >= v_to.booking_closes_at then
    raise exception 'That date is closed for booking' using errcode = '55000', hint = 'session_closed';
  end if;
  if v_to.places_taken >= v_to.capacity then
    raise exception 'That date is full' using errcode = '55000', hint = 'session_full';
  end if;
  update public.session_bookings b set session_id = p_session_id, sequence = b.sequence + 1, updated_at = now()
  where b.id = p_booking_id returning * into v_b;
  if v_b.status = 'booked' then
    perform private.write_session_notice('session-changed', v_uid, v_b, 'REQUEST', now());
  end if;
  perform private.offer_session_places(v_from.id, now());
  return v_b;
end;
$function$;

CREATE OR REPLACE FUNCTION private.offer_session_places (
  p_session_id uuid,
  p_now        timestamp with time zone
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_s public.classroom_sessions;
  v_b public.session_bookings;
  v_hours integer := coalesce((select st.session_offer_hours from public.settings st where st.id), 48);
  v_count integer := 0;
begin
  loop
    select s.* into v_s from public.classroom_sessions s where s.id = p_session_id for update;
    exit when not found or v_s.cancelled_at is not null or p_now >= v_s.booking_closes_at
      or v_s.places_taken >= v_s.capacity;
    select b.* into v_b from public.session_bookings b
    where b.session_id = p_session_id and b.status = 'waiting'
    order by b.waiting_since, b.id limit 1 for update;
    exit when not found;
    update public.session_bookings b
    set status = 'offered', offered_until = least(p_now + make_interval(hours => v_hours), v_s.booking_closes_at),
        updated_at = p_now
    where b.id = v_b.id returning * into v_b;
    perform private.write_session_notice('session-place-offered', v_b.user_id, v_b, null, p_now);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$function$;

CREATE OR REPLACE FUNCTION private.own_live_booking (
  p_booking_id uuid
)
  RETURNS public.session_bookings
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_b public.session_bookings;
begin
  perform 1 from public.classroom_sessions s
  where s.id = (select b.session_id from public.session_bookings b where b.id = p_booking_id and b.user_id = (select auth.uid()))
  for update;
  select b.* into v_b from public.session_bookings b
  where b.id = p_booking_id and b.user_id = (select auth.uid()) for update;
  if not found then
    raise exception 'Booking not found' using errcode = 'P0002';
  end if;
  return v_b;
end;
$function$;

CREATE OR REPLACE FUNCTION private.prepare_classroom_session()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_kind text;
  v_course_org uuid;
begin
  select m.kind, m.course_id, c.organisation_id into v_kind, new.course_id, v_course_org
  from public.course_modules m join public.courses c on c.id = m.course_id
  where m.id = new.module_id;
  if v_kind is distinct from 'session' then
    raise exception 'Dates can be added only to a classroom session module' using errcode = '22023', hint = 'moduleId';
  end if;
  if v_course_org is not null and new.organisation_id is distinct from v_course_org then
    raise exception 'An organisation''s course has only its own sessions' using errcode = '22023', hint = 'organisationId';
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.prepare_session_booking()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  select s.module_id into new.module_id from public.classroom_sessions s where s.id = new.session_id;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.run_session_ids()
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 20
  SET search_path TO ''
  AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_org uuid := private.current_organisation_id();
  v_admin_org uuid := private.administered_organisation_id();
begin
  return query
    select t.session_id from public.session_trainers t where t.trainer_id = v_uid
    union
    select s.id from public.courses c
    join public.classroom_sessions s on s.course_id = c.id
    where c.author_id = v_uid and private."current_role"() in ('INSTRUCTOR', 'ADMIN')
      and (v_org is null or s.organisation_id = v_org)
    union
    select s.id from public.classroom_sessions s where v_admin_org is not null and s.organisation_id = v_admin_org;
end;
$function$;

CREATE OR REPLACE FUNCTION private.session_attended (
  p_user_id   uuid,
  p_module_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return exists (
    select 1 from public.session_bookings b
    join public.course_modules m on m.id = b.module_id
    join public.enrollments e on e.user_id = b.user_id and e.course_id = m.course_id
    where b.user_id = p_user_id and b.module_id = p_module_id and b.attendance = 'attended' and b.cycle = e.cycle);
end;
$function$;

CREATE OR REPLACE FUNCTION private.session_people (
  p_session_id uuid,
  p_query      text
)
  RETURNS TABLE (
    user_id  uuid,
    name     text,
    username text,
    enrolled boolean,
    booked   boolean
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_s public.classroom_sessions;
  v_org uuid := private.current_organisation_id();
  v_admin boolean := private.is_admin();
  v_pattern text := '%' || replace(replace(replace(lower(btrim(coalesce(p_query, ''))), '\', '\\'), '%', '\%'), '_', '\_') || '%';
begin
  select s.* into v_s from public.classroom_sessions s where s.id = p_session_id;
  if not found or not (v_admin or v_s.id in (select private.run_session_ids())) then
    raise exception 'Session not found' using errcode = 'P0002';
  end if;
  return query
    select p.id, p.name, p.username,
           exists (select 1 from public.enrollments e where e.user_id = p.id and e.course_id = v_s.course_id and e.status = 'ACTIVE'),
           exists (select 1 from public.session_bookings b where b.user_id = p.id and b.session_id = p_session_id and b.status = 'booked')
    from public.profiles p
    where p.deactivated_at is null
      and (v_s.organisation_id is null or p.organisation_id = v_s.organisation_id)
      and (v_admin or v_org is null or p.organisation_id = v_org)
      and (lower(p.name) like v_pattern or lower(p.username) like v_pattern)
    order by p.name, p.id
    limit 20;
end;
$function$;

CREATE OR REPLACE FUNCTION private.session_register (
  p_session_id uuid
)
  RETURNS TABLE (
    booking_id           uuid,
    user_id              uuid,
    name                 text,
    username             text,
    status               text,
    attendance           text,
    walk_in              boolean,
    waiting_since        timestamp with time zone,
    offered_until        timestamp with time zone,
    attendance_marked_at timestamp with time zone,
    marked_by_name       text,
    booked_at            timestamp with time zone
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if not exists (select 1 from public.classroom_sessions s where s.id = p_session_id)
     or not private.keeps_register(p_session_id, null) then
    raise exception 'Session not found' using errcode = 'P0002';
  end if;
  return query
    select b.id, b.user_id, p.name, p.username, b.status, b.attendance, b.walk_in, b.waiting_since, b.offered_until,
           b.attendance_marked_at, mk.name, b.created_at
    from public.session_bookings b
    join public.profiles p on p.id = b.user_id
    left join public.profiles mk on mk.id = b.attendance_marked_by
    where b.session_id = p_session_id
    order by case b.status when 'booked' then 0 when 'requested' then 1 when 'offered' then 2 when 'waiting' then 3 else 4 end,
             b.waiting_since nulls first, p.name, b.id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.session_requests()
  RETURNS TABLE (
    booking_id   uuid,
    user_id      uuid,
    learner_name text,
    session_id   uuid,
    module_id    uuid,
    module_title text,
    course_id    uuid,
    course_title text,
    starts_at    timestamp with time zone,
    ends_at      timestamp with time zone,
    venue_name   text,
    online_url   text,
    requested_at timestamp with time zone
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return query
    select b.id, b.user_id, p.name, s.id, m.id, m.title, c.id, c.title, s.starts_at, s.ends_at, s.venue_name,
           s.online_url, b.updated_at
    from private.managed_person_ids() r(id)
    join public.session_bookings b on b.user_id = r.id and b.status = 'requested'
    join public.profiles p on p.id = b.user_id
    join public.classroom_sessions s on s.id = b.session_id
    join public.course_modules m on m.id = s.module_id
    join public.courses c on c.id = s.course_id
    order by s.starts_at, p.name, b.id
    limit 200;
end;
$function$;

CREATE OR REPLACE FUNCTION private.session_to_manage (
  p_session_id uuid
)
  RETURNS public.classroom_sessions
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_s public.classroom_sessions;
begin
  select s.* into v_s from public.classroom_sessions s where s.id = p_session_id for update;
  if not found or not (private.is_admin() or v_s.id in (select private.run_session_ids())
                       or v_s.id in (select private.learner_session_ids())) then
    raise exception 'Session not found' using errcode = 'P0002';
  end if;
  if not private.may_manage_sessions(v_s.course_id, v_s.organisation_id) then
    raise exception 'You cannot change this session' using errcode = '42501';
  end if;
  return v_s;
end;
$function$;

CREATE OR REPLACE FUNCTION private.session_trainer_names (
  p_session_ids uuid[]
)
  RETURNS TABLE (
    session_id uuid,
    trainer_id uuid,
    name       text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_admin boolean := private.is_admin();
begin
  return query
    select t.session_id, t.trainer_id, p.name
    from public.session_trainers t
    join public.profiles p on p.id = t.trainer_id
    where t.session_id = any (p_session_ids)
      and (v_admin or t.session_id in (select private.run_session_ids())
           or t.session_id in (select private.learner_session_ids()))
    order by t.session_id, p.name;
end;
$function$;

CREATE OR REPLACE FUNCTION private.set_trainers_of (
  p_session     public.classroom_sessions,
  p_trainer_ids uuid[]
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if coalesce(cardinality(p_trainer_ids), 0) > 20 then
    raise exception 'At most 20 trainers' using errcode = '22023', hint = 'trainerIds';
  end if;
  if exists (
    select 1 from unnest(coalesce(p_trainer_ids, '{}')) t(id)
    left join public.profiles p on p.id = t.id
    where p.id is null or p.deactivated_at is not null or p.role not in ('INSTRUCTOR', 'ADMIN')
       or (p_session.organisation_id is not null and p.organisation_id is distinct from p_session.organisation_id)) then
    raise exception 'Trainers are instructors or administrators of the session''s organisation'
      using errcode = '22023', hint = 'trainerIds';
  end if;
  delete from public.session_trainers t
  where t.session_id = p_session.id and not (t.trainer_id = any (coalesce(p_trainer_ids, '{}')));
  insert into public.session_trainers (session_id, trainer_id)
  select p_session.id, t.id from unnest(coalesce(p_trainer_ids, '{}')) t(id)
  on conflict do nothing;
end;
$function$;

CREATE OR REPLACE FUNCTION private.update_session (
  p_session_id        uuid,
  p_starts_at         timestamp with time zone,
  p_ends_at           timestamp with time zone,
  p_venue_name        text,
  p_venue_address     text,
  p_online_url        text,
  p_capacity          integer,
  p_booking_closes_at timestamp with time zone,
  p_note              text,
  p_trainer_ids       uuid[]                   DEFAULT NULL::uuid[]
)
  RETURNS public.classroom_sessions
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_old public.classroom_sessions := private.session_to_manage(p_session_id);
  v_s public.classroom_sessions;
  v_b public.session_bookings;
  v_moved boolean;
begin
  if v_old.cancelled_at is not null then
    raise exception 'This session has been cancelled' using errcode = '55000';
  end if;
  if p_capacity < v_old.places_taken then
    raise exception 'More places are taken than that' using errcode = '22023', hint = 'capacity';
  end if;
  v_moved := (p_starts_at, p_ends_at, nullif(btrim(p_venue_name), ''), nullif(btrim(p_venue_address), ''), nullif(btrim(p_online_url), ''))
    is distinct from (v_old.starts_at, v_old.ends_at, v_old.venue_name, v_old.venue_address, v_old.online_url);
  update public.classroom_sessions s
  set starts_at = p_starts_at, ends_at = p_ends_at, venue_name = nullif(btrim(p_venue_name), ''),
      venue_address = nullif(btrim(p_venue_address), ''), online_url = nullif(btrim(p_online_url), ''),
      capacity = p_capacity, booking_closes_at = coalesce(p_booking_closes_at, p_starts_at),
      note = nullif(btrim(p_note), ''), sequence = s.sequence + case when v_moved then 1 else 0 end, updated_at = now()
  where s.id = p_session_id
  returning * into v_s;
  if p_trainer_ids is not null then
    perform private.set_trainers_of(v_s, p_trainer_ids);
  end if;
  if v_moved then
    for v_b in
      update public.session_bookings b set sequence = b.sequence + 1, updated_at = now()
      where b.session_id = p_session_id and b.status = 'booked'
      returning b.*
    loop
      perform private.write_session_notice('session-changed', v_b.user_id, v_b, 'REQUEST', now());
    end loop;
  end if;
  perform private.offer_session_places(p_session_id, now());
  perform private.write_audit('session.updated', 'classroom_session', v_s.id, null,
    jsonb_build_object('startsAt', v_old.starts_at, 'endsAt', v_old.ends_at, 'venueName', v_old.venue_name, 'capacity', v_old.capacity),
    jsonb_build_object('startsAt', v_s.starts_at, 'endsAt', v_s.ends_at, 'venueName', v_s.venue_name, 'capacity', v_s.capacity));
  return v_s;
end;
$function$;

CREATE OR REPLACE FUNCTION private.write_session_notice (
  p_kind      text,
  p_recipient uuid,
  p_booking   public.session_bookings,
  p_method    text,
  p_now       timestamp with time zone,
  p_threshold integer                  DEFAULT 0
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_s public.classroom_sessions;
  v_module text;
  v_module_cy text;
  v_course text;
  v_course_cy text;
  v_learner text;
  v_when text;
  v_where text;
  v_title text;
  v_body text;
  v_data jsonb;
  v_written integer;
begin
  select s.* into v_s from public.classroom_sessions s where s.id = p_booking.session_id;
  select m.title, m.title_cy, c.title, c.title_cy into v_module, v_module_cy, v_course, v_course_cy
  from public.course_modules m join public.courses c on c.id = m.course_id where m.id = v_s.module_id;
  select p.name into v_learner from public.profiles p where p.id = p_booking.user_id;
  v_when := to_char(v_s.starts_at at time zone 'Europe/London', 'FMDD FMMonth YYYY, HH24:MI') || ' to '
    || to_char(v_s.ends_at at time zone 'Europe/London', case when (v_s.ends_at at time zone 'Europe/London')::date
         = (v_s.starts_at at time zone 'Europe/London')::date then 'HH24:MI' else 'FMDD FMMonth YYYY, HH24:MI' end);
  v_where := concat_ws(', ', v_s.venue_name, v_s.venue_address, case when v_s.online_url is not null then 'online' end);
  v_title := case p_kind
    when 'session-booked' then 'Booked: ' || v_module
    when 'session-waiting' then 'On the waiting list: ' || v_module
    when 'session-place-offered' then 'A place is free for you: ' || v_module
    when 'session-changed' then 'Changed: ' || v_module
    when 'session-cancelled' then 'Cancelled: ' || v_module
    when 'session-reminder' then 'Reminder: ' || v_module || case p_threshold when 1 then ' tomorrow' else ' in a week' end
    when 'session-approval-requested' then v_learner || ' asks to attend ' || v_module
    when 'session-booking-declined' then 'Booking declined: ' || v_module
  end;
  v_body := case p_kind
    when 'session-place-offered' then v_when || ', ' || v_where || '. Accept it by '
      || to_char(p_booking.offered_until at time zone 'Europe/London', 'FMDD FMMonth YYYY, HH24:MI') || '.'
    when 'session-cancelled' then v_when || ', ' || v_where || '.' || coalesce(' ' || p_booking.reason, '')
    when 'session-booking-declined' then v_when || ', ' || v_where || '.' || coalesce(' ' || p_booking.reason, '')
    else v_when || ', ' || v_where || '.'
  end;
  v_data := jsonb_build_object(
    'courseTitle', v_course, 'courseTitleCy', v_course_cy, 'moduleTitle', v_module, 'moduleTitleCy', v_module_cy,
    'bookingId', p_booking.id, 'sessionId', v_s.id, 'startsAt', v_s.starts_at, 'endsAt', v_s.ends_at,
    'venueName', v_s.venue_name, 'venueAddress', v_s.venue_address, 'onlineUrl', v_s.online_url, 'note', v_s.note,
    'sequence', p_booking.sequence, 'method', p_method, 'offeredUntil', p_booking.offered_until,
    'threshold', case when p_kind = 'session-reminder' then p_threshold end,
    'learnerName', case when p_kind = 'session-approval-requested' then v_learner end,
    'reason', case when p_kind in ('session-cancelled', 'session-booking-declined') then p_booking.reason end);
  insert into public.notifications as n (recipient_id, kind, person_id, course_id, subject_id, occasion,
    threshold, cycle, title, body, data, link_path, created_at, email_status)
  select p_recipient, p_kind, p_booking.user_id, v_s.course_id, p_booking.id,
         (v_s.starts_at at time zone 'Europe/London')::date, p_threshold, p_booking.sequence, v_title, v_body, v_data,
         case when p_kind = 'session-approval-requested' then '/team'
              else '/course/' || v_s.course_id || '/module/' || v_s.module_id end,
         p_now,
         case when btrim(rp.email) = '' then 'skipped'
              when coalesce(pref.email_off @> array[p_kind], false) then 'skipped'
              else 'queued' end
  from public.profiles rp
  left join public.notification_preferences pref on pref.user_id = rp.id
  where rp.id = p_recipient and rp.deactivated_at is null
  on conflict on constraint notifications_once do nothing;
  get diagnostics v_written = row_count;
  return v_written;
end;
$function$;

ALTER TABLE "public"."classroom_sessions"
  ADD CONSTRAINT "classroom_sessions_course_id_fkey" FOREIGN KEY (course_id) REFERENCES public.courses(id) ON DELETE CASCADE;

ALTER TABLE "public"."classroom_sessions"
  ADD CONSTRAINT "classroom_sessions_created_by_fkey" FOREIGN KEY (created_by) REFERENCES public.profiles(id) ON DELETE SET NULL;

ALTER TABLE "public"."classroom_sessions"
  ADD CONSTRAINT "classroom_sessions_module_id_fkey" FOREIGN KEY (module_id) REFERENCES public.course_modules(id) ON DELETE CASCADE;

ALTER TABLE "public"."classroom_sessions"
  ADD CONSTRAINT "classroom_sessions_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id) ON DELETE CASCADE;

ALTER TABLE "public"."session_bookings"
  ADD CONSTRAINT "session_bookings_attendance_marked_by_fkey" FOREIGN KEY (attendance_marked_by) REFERENCES public.profiles(id) ON DELETE SET NULL;

ALTER TABLE "public"."session_bookings"
  ADD CONSTRAINT "session_bookings_module_id_fkey" FOREIGN KEY (module_id) REFERENCES public.course_modules(id) ON DELETE CASCADE;

ALTER TABLE "public"."session_bookings"
  ADD CONSTRAINT "session_bookings_session_id_fkey" FOREIGN KEY (session_id) REFERENCES public.classroom_sessions(id) ON DELETE CASCADE;

ALTER TABLE "public"."session_bookings"
  ADD CONSTRAINT "session_bookings_user_id_fkey" FOREIGN KEY (user_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

ALTER TABLE "public"."session_trainers"
  ADD CONSTRAINT "session_trainers_session_id_fkey" FOREIGN KEY (session_id) REFERENCES public.classroom_sessions(id) ON DELETE CASCADE;

ALTER TABLE "public"."session_trainers"
  ADD CONSTRAINT "session_trainers_trainer_id_fkey" FOREIGN KEY (trainer_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

CREATE INDEX classroom_sessions_course_idx ON public.classroom_sessions USING btree (course_id);

CREATE INDEX classroom_sessions_created_by_idx ON public.classroom_sessions USING btree (created_by);

CREATE INDEX classroom_sessions_module_starts_idx ON public.classroom_sessions USING btree (module_id, starts_at);

CREATE INDEX classroom_sessions_organisation_idx ON public.classroom_sessions USING btree (organisation_id, starts_at);

CREATE INDEX classroom_sessions_starts_idx ON public.classroom_sessions USING btree (starts_at);

CREATE UNIQUE INDEX session_bookings_live_key ON public.session_bookings USING btree (user_id, module_id, CYCLE)
  WHERE (status = ANY (ARRAY['requested'::text, 'booked'::text, 'waiting'::text, 'offered'::text]));

CREATE INDEX session_bookings_marked_by_idx ON public.session_bookings USING btree (attendance_marked_by);

CREATE INDEX session_bookings_module_user_idx ON public.session_bookings USING btree (module_id, user_id);

CREATE INDEX session_bookings_offered_idx ON public.session_bookings USING btree (offered_until)
  WHERE (status = 'offered'::text);

CREATE INDEX session_bookings_session_idx ON public.session_bookings USING btree (session_id, status, waiting_since);

CREATE INDEX session_bookings_user_idx ON public.session_bookings USING btree (user_id);

CREATE INDEX session_trainers_trainer_idx ON public.session_trainers USING btree (trainer_id);

CREATE TRIGGER classroom_sessions_prepare
  BEFORE INSERT OR UPDATE OF module_id, organisation_id ON public.classroom_sessions
  FOR EACH ROW
  EXECUTE FUNCTION private.prepare_classroom_session();

CREATE TRIGGER classroom_sessions_set_updated_at
  BEFORE UPDATE ON public.classroom_sessions
  FOR EACH ROW
  EXECUTE FUNCTION private.set_updated_at();

CREATE TRIGGER session_bookings_count_places
  AFTER INSERT OR DELETE OR UPDATE OF status, session_id ON public.session_bookings
  FOR EACH ROW
  EXECUTE FUNCTION private.count_session_places();

CREATE TRIGGER session_bookings_prepare
  BEFORE INSERT OR UPDATE OF session_id ON public.session_bookings
  FOR EACH ROW
  EXECUTE FUNCTION private.prepare_session_booking();

CREATE TRIGGER session_bookings_set_updated_at
  BEFORE UPDATE ON public.session_bookings
  FOR EACH ROW
  EXECUTE FUNCTION private.set_updated_at();

CREATE POLICY "sessions: learners, their runners and national admins read" ON "public"."classroom_sessions"
  FOR SELECT
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR (id IN ( SELECT private.run_session_ids() AS run_session_ids)) OR (id IN ( SELECT private.learner_session_ids() AS
    learner_session_ids))));

CREATE POLICY "bookings: self, runners, managers and administrators read" ON "public"."session_bookings"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (session_id IN ( SELECT private.run_session_ids() AS run_session_ids)) OR (user_id IN (
    SELECT private.managed_person_ids() AS managed_person_ids)) OR (user_id IN ( SELECT private.people_i_administer() AS people_i_administer))));

CREATE POLICY "session trainers: whoever sees the session reads" ON "public"."session_trainers"
  FOR SELECT
  TO "authenticated"
  USING ((session_id IN ( SELECT s.id
   FROM public.classroom_sessions s)));

COMMENT ON COLUMN "public"."classroom_sessions"."booking_closes_at" IS 'The cut-off: no booking, offer or learner''s cancellation after it (at most starts_at).';

COMMENT ON COLUMN "public"."classroom_sessions"."cancelled_at" IS 'When the course''s people cancelled it; every live booking was cancelled and told then.';

COMMENT ON COLUMN "public"."classroom_sessions"."cancelled_reason" IS 'Why it was cancelled, told to everyone booked or waiting.';

COMMENT ON COLUMN "public"."classroom_sessions"."capacity" IS 'Places (1 to 500). Walk-ins added by the register may take it over.';

COMMENT ON COLUMN "public"."classroom_sessions"."course_id" IS 'The module''s course, set from module_id by a trigger (the policies and functions read it without a join).';

COMMENT ON COLUMN "public"."classroom_sessions"."created_by" IS 'Who added the date.';

COMMENT ON COLUMN "public"."classroom_sessions"."ends_at" IS 'When it ends, after starts_at.';

COMMENT ON COLUMN "public"."classroom_sessions"."note" IS 'What learners should know (bring, parking), shown with the date and in its notices.';

COMMENT ON COLUMN "public"."classroom_sessions"."online_url" IS 'The link to join online (https only), null for a venue only.';

COMMENT ON COLUMN "public"."classroom_sessions"."organisation_id" IS 'Null: national, open to every learner enrolled on the course; else only this organisation''s people see and book it. A course of an organisation has only its own sessions.';

COMMENT ON COLUMN "public"."classroom_sessions"."places_taken" IS 'Bookings holding a place (requested, booked, offered), kept by the trigger on session_bookings under the session row''s lock.';

COMMENT ON COLUMN "public"."classroom_sessions"."sequence" IS 'Raised each time its time or place changes (the calendar entries'' revisions follow the bookings'' own sequence).';

COMMENT ON COLUMN "public"."classroom_sessions"."starts_at" IS 'When it starts (an instant; shown in Europe/London time).';

COMMENT ON COLUMN "public"."classroom_sessions"."venue_address" IS 'The venue''s address, as it appears in calendars.';

COMMENT ON COLUMN "public"."classroom_sessions"."venue_name" IS 'Where it is held (null: online only).';

COMMENT ON COLUMN "public"."session_bookings"."attendance" IS 'The register: null (not marked), attended (completes the module), no-show, excused.';

COMMENT ON COLUMN "public"."session_bookings"."attendance_marked_by" IS 'Who marked the register last.';

COMMENT ON COLUMN "public"."session_bookings"."cycle" IS 'The enrolment''s cycle when booked: a recertification books again.';

COMMENT ON COLUMN "public"."session_bookings"."module_id" IS 'The session''s module, set from session_id by a trigger: one live booking per module.';

COMMENT ON COLUMN "public"."session_bookings"."offered_until" IS 'An offered place is the learner''s to accept until then (settings.session_offer_hours, never after the cut-off).';

COMMENT ON COLUMN "public"."session_bookings"."reason" IS 'Why a manager declined it, or why the session was cancelled.';

COMMENT ON COLUMN "public"."session_bookings"."sequence" IS 'The calendar entry''s iCalendar SEQUENCE: raised on every change the learner''s calendar must follow (moved, session changed, cancelled).';

COMMENT ON COLUMN "public"."session_bookings"."status" IS 'requested: waiting for the line manager (holds a place); booked; waiting: on the waiting list; offered: a freed place held until offered_until; cancelled; declined (by the manager, or the offer by the learner); lapsed (offer not accepted in time).';

COMMENT ON COLUMN "public"."session_bookings"."waiting_since" IS 'When the learner joined the waiting list: the order places are offered in.';

COMMENT ON COLUMN "public"."session_bookings"."walk_in" IS 'Added on the day by the register (enrolled on the spot when needed), even over capacity.';

COMMENT ON COLUMN "public"."session_trainers"."trainer_id" IS 'An instructor or administrator (of the session''s organisation when it has one).';

COMMENT ON FUNCTION "private"."add_walk_in"(uuid, uuid) IS 'Register keeper (the people who run it): adds a walk-in, enrolled at once when needed, booked even over capacity (walk_in); audited. P0002, 55000 hint session_cancelled, 22023 hint userId (not of the session''s reach).';

COMMENT ON FUNCTION "private"."answer_offer"(uuid, boolean) IS 'Learner: accepts (booked, or requested under manager approval) or declines (the place passes on) the place offered to them. P0002, 55000 hint no_offer.';

COMMENT ON FUNCTION "private"."book_session"(uuid) IS 'Learner: books the date (own place; enrolled and approved; before the cut-off): requested (manager approval) or booked when a place is free, else waiting. Same date again: that booking. P0002 unseen, 42501 not enrolled (hint session_not_enrolled), 55000 hints session_booked_elsewhere, session_cancelled, session_closed, session_completed.';

COMMENT ON FUNCTION "private"."cancel_booking"(uuid) IS 'Learner: cancels their own booking (a place up to the cut-off, a turn on the waiting list any time; a booked one told session-cancelled CANCEL); the freed place is offered. P0002, 55000 hint session_closed.';

COMMENT ON FUNCTION "private"."cancel_session"(uuid, text) IS 'Manager of the session: cancels it (once; again changes nothing); every live booking cancelled and told (session-cancelled; CANCEL for the booked). 22023 hint reason.';

COMMENT ON FUNCTION "private"."count_session_places"() IS 'After insert, update of status / session_id, or delete on session_bookings: keeps classroom_sessions.places_taken.';

COMMENT ON FUNCTION "private"."create_session"(uuid, timestamp with time zone, timestamp with time zone, text, text, text, integer, timestamp
  with time zone, text, uuid, uuid[]) IS 'The course''s author or an administrator of its reach: adds a date to a session module (organisation: the course''s, else the caller''s, else the one given, null = national). P0002 no module, 42501 not theirs, 22023 with the field as hint, 23514 a constraint.';

COMMENT ON FUNCTION "private"."decide_booking"(uuid, boolean, text) IS 'Line manager (up the chain): approves (booked, session-booked REQUEST) or declines (session-booking-declined; the place offered on) a report''s requested booking. P0002 not their report''s, 55000 hints not_requested, session_started, 22023 hint reason.';

COMMENT ON FUNCTION "private"."decide_later_notifications"(timestamp with time zone) IS 'Internal, from private.decide_notifications: the notices later schema files decide at p_now (classroom sessions: offers lapsing, reminders). Returns how many were written.';

COMMENT ON FUNCTION "private"."decide_notifications"(timestamp with time zone) IS 'Writes every notice due at p_now, once each (unique key, on conflict do nothing), and those of later areas (private.decide_later_notifications: classroom sessions): learners: assigned, due soon, overdue (then every so many days), certificate expiring and expired, certificate issued, enrolment approved/declined; line managers: a report overdue by the escalation days, and on Mondays from 07:00 London a weekly digest of their reports. Intervals from settings, a rule''s override where set. Deactivated people and leavers get nothing. Returns how many it wrote. Run by the scheduler, not by API callers.';

COMMENT ON FUNCTION "private"."decide_session_notifications"(timestamp with time zone) IS 'Internal, from private.decide_notifications: lapses offers past offered_until and offers their places on; writes the session reminders 7 and 1 days before. Returns the notices written.';

COMMENT ON FUNCTION "private"."give_session_place"(uuid, timestamp with time zone) IS 'Internal (the session row locked): the booking takes its place, requested from the line manager when the course asks for approval and the learner has one, else booked; writes the notice.';

COMMENT ON FUNCTION "private"."keeps_register"(uuid, uuid) IS 'True when the caller may mark the learner on the session''s register (national admin, trainer, course author, the organisation''s administrator, an administrator of the learner).';

COMMENT ON FUNCTION "private"."learner_session_ids"() IS 'Sessions the caller sees as a learner: live dates of their active enrolments'' courses (national or their organisation''s), and dates they booked.';

COMMENT ON FUNCTION "private"."live_session_booking"(uuid, uuid, integer) IS 'Internal: the learner''s live booking of the module in the cycle (locked), or a row of nulls.';

COMMENT ON FUNCTION "private"."mark_all_attended"(uuid) IS 'Register keeper: marks every unmarked booked learner attended (each as private.mark_attendance). P0002 not theirs.';

COMMENT ON FUNCTION "private"."mark_attendance"(uuid, text) IS 'Register keeper: marks a booked learner attended / no-show / excused / null. Idempotent; attended completes the module (progress, certificate); away from attended takes it back unless the course is completed; audited (session.attendance_marked, target the learner). P0002, 42501, 55000 hint not_on_register, 22023 hint attendance.';

COMMENT ON FUNCTION "private"."may_manage_sessions"(uuid, uuid) IS 'True when the caller may add, change and cancel the course''s sessions of the organisation (null: national).';

COMMENT ON FUNCTION "private"."move_booking"(uuid, uuid) IS 'Learner: moves their booked or requested place to another date of the module (same booking, sequence + 1, session-changed REQUEST); the freed place is offered. P0002, 55000 hints booking_not_movable, session_closed, session_full.';

COMMENT ON FUNCTION "private"."offer_session_places"(uuid, timestamp with time zone) IS 'Internal (the session row locked): offers free places to the waiting list in order, each for settings.session_offer_hours but not after the cut-off; writes the offers'' notices.';

COMMENT ON FUNCTION "private"."own_live_booking"(uuid) IS 'Internal: the caller''s own booking (P0002 otherwise), its session row locked first.';

COMMENT ON FUNCTION "private"."prepare_classroom_session"() IS 'Before insert or update of module_id / organisation_id on classroom_sessions: the module is of kind session (22023 hint moduleId), course_id is its course, an organisation''s course has only that organisation''s sessions (22023 hint organisationId).';

COMMENT ON FUNCTION "private"."prepare_session_booking"() IS 'Before insert or update of session_id on session_bookings: module_id is the session''s module.';

COMMENT ON FUNCTION "private"."run_session_ids"() IS 'Sessions the caller runs: trains, authors the course of (their organisation''s only when they have one), or administers the organisation of. National admins: (select private.is_admin()) first.';

COMMENT ON FUNCTION "private"."session_attended"(uuid, uuid) IS 'Internal: the register marked the learner attended on a date of the module in their current enrolment cycle.';

COMMENT ON FUNCTION "private"."session_people"(uuid, text) IS 'The people who run the session: up to 20 active people of its reach matching the words, for a walk-in. P0002 otherwise.';

COMMENT ON FUNCTION "private"."session_register"(uuid) IS 'Register keeper: every booking of the session with the learner''s name, places first, then the waiting list in order. P0002 otherwise.';

COMMENT ON FUNCTION "private"."session_requests"() IS 'Line manager: their reports'' bookings waiting for approval (at most 200, soonest first).';

COMMENT ON FUNCTION "private"."session_to_manage"(uuid) IS 'Internal: the session, locked, when the caller may change it (P0002 unseen, 42501 seen but not theirs to change).';

COMMENT ON FUNCTION "private"."session_trainer_names"(uuid[]) IS 'The trainers (id, name) of those of the sessions the caller sees.';

COMMENT ON FUNCTION "private"."set_trainers_of"(public.classroom_sessions, uuid[]) IS 'Internal: sets the session''s trainers (at most 20, instructors or administrators of its organisation when it has one; 22023 hint trainerIds).';

COMMENT ON FUNCTION "private"."update_session"(uuid, timestamp with time zone, timestamp with time zone, text, text, text, integer, timestamp
  with time zone, text, uuid[]) IS 'Manager of the session: changes it; a new time or place raises sequence and tells each booked learner (session-changed, REQUEST); added places are offered. Trainers unchanged when null. P0002, 42501, 55000 cancelled, 22023 hint capacity.';

COMMENT ON FUNCTION "private"."write_session_notice"(text, uuid, public.session_bookings, text, timestamp with time zone, integer) IS 'Internal: writes one session notice about the booking to the recipient (once: notifications_once, cycle = the booking''s sequence), data as the email renderer and the calendar attachment read it.';

COMMENT ON TABLE "public"."classroom_sessions" IS 'A date of a classroom session module: when, where (a venue or an online link), how many places and until when they may be booked. Written only by the private.*_session functions.';

COMMENT ON TABLE "public"."session_bookings" IS 'A learner''s booking of one date of a session module: at most one live booking (requested, booked, waiting, offered) per learner, module and enrolment cycle. Written only by the private.* booking and register functions.';

COMMENT ON TABLE "public"."session_trainers" IS 'The people who run a session and keep its register.';

REVOKE ALL ON FUNCTION "private"."add_walk_in"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."add_walk_in"(uuid, uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."answer_offer"(uuid, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."answer_offer"(uuid, boolean) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."book_session"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."book_session"(uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."cancel_booking"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."cancel_booking"(uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."cancel_session"(uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."cancel_session"(uuid, text) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."count_session_places"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."count_session_places"() TO "postgres";

REVOKE ALL
  ON FUNCTION "private"."create_session"(uuid, timestamp WITH time zone, timestamp WITH time zone, text, text, text, integer, timestamp WITH time zone, text, uuid, uuid[])
  FROM PUBLIC;

GRANT EXECUTE
  ON FUNCTION "private"."create_session"(uuid, timestamp WITH time zone, timestamp WITH time zone, text, text, text, integer, timestamp WITH time zone, text, uuid, uuid[])
  TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."decide_booking"(uuid, boolean, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."decide_booking"(uuid, boolean, text) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."decide_later_notifications"(timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."decide_later_notifications"(timestamp WITH time zone) TO "postgres";

REVOKE ALL ON FUNCTION "private"."decide_session_notifications"(timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."decide_session_notifications"(timestamp WITH time zone) TO "postgres";

REVOKE ALL ON FUNCTION "private"."give_session_place"(uuid, timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."give_session_place"(uuid, timestamp WITH time zone) TO "postgres";

REVOKE ALL ON FUNCTION "private"."keeps_register"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."keeps_register"(uuid, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."learner_session_ids"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."learner_session_ids"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."live_session_booking"(uuid, uuid, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."live_session_booking"(uuid, uuid, integer) TO "postgres";

REVOKE ALL ON FUNCTION "private"."mark_all_attended"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."mark_all_attended"(uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."mark_attendance"(uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."mark_attendance"(uuid, text) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."may_manage_sessions"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."may_manage_sessions"(uuid, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."move_booking"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."move_booking"(uuid, uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."offer_session_places"(uuid, timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."offer_session_places"(uuid, timestamp WITH time zone) TO "postgres";

REVOKE ALL ON FUNCTION "private"."own_live_booking"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."own_live_booking"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."prepare_classroom_session"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."prepare_classroom_session"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."prepare_session_booking"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."prepare_session_booking"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."run_session_ids"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."run_session_ids"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."session_attended"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."session_attended"(uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."session_people"(uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."session_people"(uuid, text) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."session_register"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."session_register"(uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."session_requests"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."session_requests"() TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."session_to_manage"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."session_to_manage"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."session_trainer_names"(uuid[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."session_trainer_names"(uuid[]) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."set_trainers_of"(public.classroom_sessions, uuid[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."set_trainers_of"(public.classroom_sessions, uuid[]) TO "postgres";

REVOKE ALL
  ON FUNCTION "private"."update_session"(uuid, timestamp WITH time zone, timestamp WITH time zone, text, text, text, integer, timestamp WITH time zone, text, uuid[])
  FROM PUBLIC;

GRANT EXECUTE
  ON FUNCTION "private"."update_session"(uuid, timestamp WITH time zone, timestamp WITH time zone, text, text, text, integer, timestamp WITH time zone, text, uuid[])
  TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."write_session_notice"(text, uuid, public.session_bookings, text, timestamp WITH time zone, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."write_session_notice"(text, uuid, public.session_bookings, text, timestamp WITH time zone, integer) TO "postgres";

REVOKE ALL ON TABLE "public"."classroom_sessions" FROM "authenticated";

GRANT SELECT ON TABLE "public"."classroom_sessions" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."classroom_sessions" TO "postgres", "service_role";

REVOKE ALL ON TABLE "public"."session_bookings" FROM "authenticated";

GRANT SELECT ON TABLE "public"."session_bookings" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."session_bookings" TO "postgres", "service_role";

REVOKE ALL ON TABLE "public"."session_trainers" FROM "authenticated";

GRANT SELECT ON TABLE "public"."session_trainers" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."session_trainers" TO "postgres", "service_role";

-- The diff leaves out revoking the default privileges anon gets on a new table (see the schema file).
REVOKE ALL ON TABLE "public"."classroom_sessions" FROM "anon";

REVOKE ALL ON TABLE "public"."session_bookings" FROM "anon";

REVOKE ALL ON TABLE "public"."session_trainers" FROM "anon";
