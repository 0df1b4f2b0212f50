-- Classroom sessions: the dates of a module of kind 'session', learners' bookings of one date, the
-- waiting list and its offers, a line manager's approval, and the register that completes the module.
--
-- * classroom_sessions: one date of a session module (a venue or an online link, capacity, the cut-off
--   for booking). organisation_id null: national, open to every learner enrolled on the course; else
--   only that organisation's people see and book it. places_taken is kept by a trigger on bookings,
--   under the session row's lock that every booking function takes first, so a place is never sold twice.
-- * session_trainers: who runs a date and keeps its register.
-- * session_bookings: a learner's place (requested, booked, offered) or turn (waiting) on one date,
--   at most one live booking per learner, module and enrolment cycle; the register's attendance.
--
-- Nobody writes these tables through the API roles: the security-definer functions below do, each
-- checking auth.uid() itself. Attended completes the module as a read module does (progress row's
-- read_at, private.settle_module -> private.session_attended, private.refresh_enrollment); every
-- register change is written to audit_events. Notices (15_notifications.sql's table) are written in the
-- same transaction as the change, and the time-driven ones (offers lapsing, reminders 7 and 1 days
-- before) by private.decide_session_notifications(p_now), which private.decide_notifications calls.
-- Design: docs/decisions/classroom-sessions.md.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.classroom_sessions (
  id uuid primary key default gen_random_uuid(),
  module_id uuid not null references public.course_modules (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  organisation_id uuid references public.organisations (id) on delete cascade,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  venue_name text,
  venue_address text,
  online_url text,
  capacity integer not null,
  places_taken integer not null default 0,
  booking_closes_at timestamptz not null,
  note text,
  cancelled_at timestamptz,
  cancelled_reason text,
  sequence integer not null default 0,
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint classroom_sessions_ends_after_starts check (ends_at > starts_at),
  constraint classroom_sessions_not_too_long check (ends_at - starts_at <= interval '14 days'),
  constraint classroom_sessions_capacity_range check (capacity between 1 and 500),
  constraint classroom_sessions_places_taken_range check (places_taken >= 0),
  constraint classroom_sessions_closes_by_start check (booking_closes_at <= starts_at),
  constraint classroom_sessions_place_given check (venue_name is not null or online_url is not null),
  constraint classroom_sessions_venue_name_length check (venue_name is null or char_length(btrim(venue_name)) between 1 and 200),
  constraint classroom_sessions_venue_address_length check (venue_address is null or char_length(btrim(venue_address)) between 1 and 500),
  constraint classroom_sessions_address_needs_venue check (venue_address is null or venue_name is not null),
  constraint classroom_sessions_online_url_https check (online_url is null or (online_url ~ '^https://[^\s/]+\S*$' and char_length(online_url) <= 2000)),
  constraint classroom_sessions_note_length check (note is null or char_length(note) <= 2000),
  constraint classroom_sessions_cancelled_reason check (
    (cancelled_at is null and cancelled_reason is null)
    or (cancelled_at is not null and char_length(btrim(cancelled_reason)) between 1 and 500)),
  constraint classroom_sessions_sequence_range check (sequence >= 0)
);

create table public.session_trainers (
  session_id uuid not null references public.classroom_sessions (id) on delete cascade,
  trainer_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (session_id, trainer_id)
);

create table public.session_bookings (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references public.classroom_sessions (id) on delete cascade,
  module_id uuid not null references public.course_modules (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  cycle integer not null default 1,
  status text not null,
  waiting_since timestamptz,
  offered_until timestamptz,
  attendance text,
  attendance_marked_by uuid references public.profiles (id) on delete set null,
  attendance_marked_at timestamptz,
  walk_in boolean not null default false,
  sequence integer not null default 0,
  reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint session_bookings_status_known check (status in ('requested', 'booked', 'waiting', 'offered', 'cancelled', 'declined', 'lapsed')),
  constraint session_bookings_attendance_known check (attendance is null or attendance in ('attended', 'no-show', 'excused')),
  constraint session_bookings_attendance_of_booked check (attendance is null or status = 'booked'),
  constraint session_bookings_waiting_since_set check (status <> 'waiting' or waiting_since is not null),
  constraint session_bookings_offered_until_set check ((status = 'offered') = (offered_until is not null)),
  constraint session_bookings_cycle_positive check (cycle >= 1),
  constraint session_bookings_sequence_range check (sequence >= 0),
  constraint session_bookings_reason_length check (reason is null or char_length(reason) <= 500)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.classroom_sessions is
  'A date of a classroom session module: when, where (a venue or an online link), how many places and until when they may be booked. Written only by the private.*_session functions.';
comment on column public.classroom_sessions.course_id is
  'The module''s course, set from module_id by a trigger (the policies and functions read it without a join).';
comment on column public.classroom_sessions.organisation_id is
  'Null: national, open to every learner enrolled on the course; else only this organisation''s people see and book it. A course of an organisation has only its own sessions.';
comment on column public.classroom_sessions.starts_at is
  'When it starts (an instant; shown in Europe/London time).';
comment on column public.classroom_sessions.ends_at is
  'When it ends, after starts_at.';
comment on column public.classroom_sessions.venue_name is
  'Where it is held (null: online only).';
comment on column public.classroom_sessions.venue_address is
  'The venue''s address, as it appears in calendars.';
comment on column public.classroom_sessions.online_url is
  'The link to join online (https only), null for a venue only.';
comment on column public.classroom_sessions.capacity is
  'Places (1 to 500). Walk-ins added by the register may take it over.';
comment on column public.classroom_sessions.places_taken is
  'Bookings holding a place (requested, booked, offered), kept by the trigger on session_bookings under the session row''s lock.';
comment on column public.classroom_sessions.booking_closes_at is
  'The cut-off: no booking, offer or learner''s cancellation after it (at most starts_at).';
comment on column public.classroom_sessions.note is
  'What learners should know (bring, parking), shown with the date and in its notices.';
comment on column public.classroom_sessions.cancelled_at is
  'When the course''s people cancelled it; every live booking was cancelled and told then.';
comment on column public.classroom_sessions.cancelled_reason is
  'Why it was cancelled, told to everyone booked or waiting.';
comment on column public.classroom_sessions.sequence is
  'Raised each time its time or place changes (the calendar entries'' revisions follow the bookings'' own sequence).';
comment on column public.classroom_sessions.created_by is
  'Who added the date.';

comment on table public.session_trainers is
  'The people who run a session and keep its register.';
comment on column public.session_trainers.trainer_id is
  'An instructor or administrator (of the session''s organisation when it has one).';

comment on table public.session_bookings is
  'A learner''s booking of one date of a session module: at most one live booking (requested, booked, waiting, offered) per learner, module and enrolment cycle. Written only by the private.* booking and register functions.';
comment on column public.session_bookings.module_id is
  'The session''s module, set from session_id by a trigger: one live booking per module.';
comment on column public.session_bookings.cycle is
  'The enrolment''s cycle when booked: a recertification books again.';
comment on column public.session_bookings.status is
  'requested: waiting for the line manager (holds a place); booked; waiting: on the waiting list; offered: a freed place held until offered_until; cancelled; declined (by the manager, or the offer by the learner); lapsed (offer not accepted in time).';
comment on column public.session_bookings.waiting_since is
  'When the learner joined the waiting list: the order places are offered in.';
comment on column public.session_bookings.offered_until is
  'An offered place is the learner''s to accept until then (settings.session_offer_hours, never after the cut-off).';
comment on column public.session_bookings.attendance is
  'The register: null (not marked), attended (completes the module), no-show, excused.';
comment on column public.session_bookings.attendance_marked_by is
  'Who marked the register last.';
comment on column public.session_bookings.walk_in is
  'Added on the day by the register (enrolled on the spot when needed), even over capacity.';
comment on column public.session_bookings.sequence is
  'The calendar entry''s iCalendar SEQUENCE: raised on every change the learner''s calendar must follow (moved, session changed, cancelled).';
comment on column public.session_bookings.reason is
  'Why a manager declined it, or why the session was cancelled.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

-- A module's dates in time order (the learner's list, the author's list).
create index classroom_sessions_module_starts_idx on public.classroom_sessions (module_id, starts_at);
-- A learner's next dates, each source in start order: the module's national ones (organisation
-- null), then their organisation's. The statistics tell the planner how few national dates a module
-- has among its organisations' (without them it reads the module's whole list by start instead).
create index classroom_sessions_module_org_idx on public.classroom_sessions (module_id, organisation_id, starts_at, id);
create statistics public.classroom_sessions_module_org_stats (mcv) on module_id, organisation_id from public.classroom_sessions;
create index classroom_sessions_course_idx on public.classroom_sessions (course_id);
create index classroom_sessions_organisation_idx on public.classroom_sessions (organisation_id, starts_at);
-- The calendar's range and the reminders' scan.
create index classroom_sessions_starts_idx on public.classroom_sessions (starts_at);
create index classroom_sessions_created_by_idx on public.classroom_sessions (created_by);

create index session_trainers_trainer_idx on public.session_trainers (trainer_id);

-- One live booking per learner, module and cycle.
create unique index session_bookings_live_key on public.session_bookings (user_id, module_id, cycle)
  where status in ('requested', 'booked', 'waiting', 'offered');
-- A session's bookings by status, the waiting list in order.
create index session_bookings_session_idx on public.session_bookings (session_id, status, waiting_since);
create index session_bookings_module_user_idx on public.session_bookings (module_id, user_id);
create index session_bookings_user_idx on public.session_bookings (user_id);
create index session_bookings_marked_by_idx on public.session_bookings (attendance_marked_by);
-- Offers to lapse.
create index session_bookings_offered_idx on public.session_bookings (offered_until) where status = 'offered';

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.classroom_sessions enable row level security;
alter table public.session_trainers enable row level security;
alter table public.session_bookings enable row level security;

-- ---------------------------------------------------------------------------
-- Functions: who may see and run sessions (the policies below read them)
-- ---------------------------------------------------------------------------

-- The sessions the caller runs: those they train, those of the courses they author (their own
-- organisation's only, when they have one), and every session of the organisation they administer.
-- National admins run every session: callers put (select private.is_admin()) or ... in front.
create function private.run_session_ids()
returns setof uuid
language plpgsql
 STABLE SECURITY DEFINER ROWS 20
set search_path = ''
as $$
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
$$;
comment on function private.run_session_ids() is
  'Sessions the caller runs: trains, authors the course of (their organisation''s only when they have one), or administers the organisation of. National admins: (select private.is_admin()) first.';
revoke all on function private.run_session_ids() from public;
grant execute on function private.run_session_ids() to authenticated, service_role;

-- The sessions a learner sees: the live dates of the courses they are enrolled on (national or of
-- their organisation), and any date they have booked (a cancelled one included).
create function private.learner_session_ids()
returns setof uuid
language plpgsql
 STABLE SECURITY DEFINER ROWS 20
set search_path = ''
as $$
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
$$;
comment on function private.learner_session_ids() is
  'Sessions the caller sees as a learner: live dates of their active enrolments'' courses (national or their organisation''s), and dates they booked.';
revoke all on function private.learner_session_ids() from public;
grant execute on function private.learner_session_ids() to authenticated, service_role;

-- Whether the caller may add, change and cancel dates of the course for the organisation (null:
-- national): a national admin; the course's author (of their organisation only, when they have one);
-- an organisation's administrator for their organisation, on a national course or one of theirs.
create function private.may_manage_sessions(p_course_id uuid, p_organisation_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.may_manage_sessions(uuid,uuid) is
  'True when the caller may add, change and cancel the course''s sessions of the organisation (null: national).';
revoke all on function private.may_manage_sessions(uuid,uuid) from public;
grant execute on function private.may_manage_sessions(uuid,uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Policies: read only; every write goes through the functions below.
-- ---------------------------------------------------------------------------

create policy "sessions: learners, their runners and national admins read"
  on public.classroom_sessions for select to authenticated
  using (
    (select private.is_admin())
    or id in (select private.run_session_ids())
    or id in (select private.learner_session_ids())
  );

create policy "session trainers: whoever sees the session reads"
  on public.session_trainers for select to authenticated
  using (session_id in (select s.id from public.classroom_sessions s));

create policy "bookings: self, runners, managers and administrators read"
  on public.session_bookings for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select private.is_admin())
    or session_id in (select private.run_session_ids())
    or user_id in (select private.managed_person_ids())
    or user_id in (select private.people_i_administer())
  );

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.classroom_sessions from anon, authenticated, service_role;
grant select on public.classroom_sessions to authenticated;
grant all on public.classroom_sessions to service_role;

revoke all on public.session_trainers from anon, authenticated, service_role;
grant select on public.session_trainers to authenticated;
grant all on public.session_trainers to service_role;

revoke all on public.session_bookings from anon, authenticated, service_role;
grant select on public.session_bookings to authenticated;
grant all on public.session_bookings to service_role;

-- ---------------------------------------------------------------------------
-- Functions: the rules kept by triggers
-- ---------------------------------------------------------------------------

-- A session belongs to a module of kind session; its course is the module's, and a course of an
-- organisation has only that organisation's sessions.
create function private.prepare_classroom_session()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.prepare_classroom_session() is
  'Before insert or update of module_id / organisation_id on classroom_sessions: the module is of kind session (22023 hint moduleId), course_id is its course, an organisation''s course has only that organisation''s sessions (22023 hint organisationId).';
revoke all on function private.prepare_classroom_session() from public;

-- A booking's module is its session's.
create function private.prepare_session_booking()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  select s.module_id into new.module_id from public.classroom_sessions s where s.id = new.session_id;
  return new;
end;
$$;
comment on function private.prepare_session_booking() is
  'Before insert or update of session_id on session_bookings: module_id is the session''s module.';
revoke all on function private.prepare_session_booking() from public;

-- places_taken follows the bookings holding a place. The booking functions lock the session row
-- first, so these updates never wait on one another.
create function private.count_session_places()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.count_session_places() is
  'After insert, update of status / session_id, or delete on session_bookings: keeps classroom_sessions.places_taken.';
revoke all on function private.count_session_places() from public;

-- places_taken's live rule, which private.kept_counts_drift (22_kept_counts.sql) compares it with:
-- the bookings holding a place, per date (dates with none are left out, as a kept zero is).
create function private.session_places_live()
returns table(session_id uuid, places_taken integer)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select b.session_id, count(*)::integer from public.session_bookings b
    where b.status in ('requested', 'booked', 'offered') group by b.session_id;
end;
$$;
comment on function private.session_places_live() is
  'Internal: classroom_sessions.places_taken computed from session_bookings (requested, booked and offered bookings per date).';
revoke all on function private.session_places_live() from public;

-- ---------------------------------------------------------------------------
-- Functions: notices
-- ---------------------------------------------------------------------------

-- One notice about a booking, in the change's transaction, once per (recipient, kind, learner,
-- course, booking, session date, threshold, the booking's sequence). Email queued or skipped as
-- private.decide_notifications does; nothing to a deactivated person. Returns 1 when written.
create function private.write_session_notice(
  p_kind text,
  p_recipient uuid,
  p_booking public.session_bookings,
  p_method text,
  p_now timestamptz,
  p_threshold integer default 0
)
returns integer
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.write_session_notice(text,uuid,public.session_bookings,text,timestamptz,integer) is
  'Internal: writes one session notice about the booking to the recipient (once: notifications_once, cycle = the booking''s sequence), data as the email renderer and the calendar attachment read it.';
revoke all on function private.write_session_notice(text,uuid,public.session_bookings,text,timestamptz,integer) from public;

-- ---------------------------------------------------------------------------
-- Functions: places
-- ---------------------------------------------------------------------------

-- Gives the booking its place: requested, with a notice to the line manager, when the course asks
-- for approval and the learner has a manager; else booked, with the learner's calendar entry.
create function private.give_session_place(p_booking_id uuid, p_now timestamptz)
returns public.session_bookings
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.give_session_place(uuid,timestamptz) is
  'Internal (the session row locked): the booking takes its place, requested from the line manager when the course asks for approval and the learner has one, else booked; writes the notice.';
revoke all on function private.give_session_place(uuid,timestamptz) from public;

-- Offers the session's free places to the first on its waiting list, in order, each until
-- p_now + settings.session_offer_hours (never after the cut-off). Nothing after the cut-off or on a
-- cancelled date. The caller holds the session row's lock. Returns how many were offered.
create function private.offer_session_places(p_session_id uuid, p_now timestamptz)
returns integer
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.offer_session_places(uuid,timestamptz) is
  'Internal (the session row locked): offers free places to the waiting list in order, each for settings.session_offer_hours but not after the cut-off; writes the offers'' notices.';
revoke all on function private.offer_session_places(uuid,timestamptz) from public;

-- The live booking of the learner for the module in their current cycle, locked.
create function private.live_session_booking(p_user_id uuid, p_module_id uuid, p_cycle integer)
returns public.session_bookings
language plpgsql security definer
set search_path = ''
as $$
declare
  v_b public.session_bookings;
begin
  select b.* into v_b from public.session_bookings b
  where b.user_id = p_user_id and b.module_id = p_module_id and b.cycle = p_cycle
    and b.status in ('requested', 'booked', 'waiting', 'offered')
  for update;
  return v_b;
end;
$$;
comment on function private.live_session_booking(uuid,uuid,integer) is
  'Internal: the learner''s live booking of the module in the cycle (locked), or a row of nulls.';
revoke all on function private.live_session_booking(uuid,uuid,integer) from public;

-- ---------------------------------------------------------------------------
-- Functions: the course's people add, change and cancel dates
-- ---------------------------------------------------------------------------

-- Who may run a course's dates, the one rule for choosing trainers (private.set_trainers_of) and for
-- offering them (private.session_trainer_candidates): an active administrator, or an active
-- instructor of the course's service; of the date's organisation when it has one (a national date:
-- national staff and any organisation's).
create function private.may_train(p_person public.profiles, p_service public.service_code, p_organisation_id uuid)
returns boolean
language plpgsql immutable
set search_path = ''
as $$
begin
  return coalesce(p_person.id is not null and p_person.deactivated_at is null
    and (p_person.role = 'ADMIN' or (p_person.role = 'INSTRUCTOR' and p_service = any (p_person.services)))
    and (p_organisation_id is null or p_person.organisation_id = p_organisation_id), false);
end;
$$;
comment on function private.may_train(public.profiles,public.service_code,uuid) is
  'The trainers'' rule: true when the person (active) is an administrator, or an instructor of the service, of the organisation when one is given (null: a national date, anyone''s staff).';
revoke all on function private.may_train(public.profiles,public.service_code,uuid) from public;

-- Checks the trainers (private.may_train, for the course's service and the session's organisation).
create function private.set_trainers_of(p_session public.classroom_sessions, p_trainer_ids uuid[])
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if coalesce(cardinality(p_trainer_ids), 0) > 20 then
    raise exception 'At most 20 trainers' using errcode = '22023', hint = 'trainerIds';
  end if;
  if exists (
    select 1 from unnest(coalesce(p_trainer_ids, '{}')) t(id)
    join public.courses c on c.id = p_session.course_id
    left join public.profiles p on p.id = t.id
    where not private.may_train(p, c.service, p_session.organisation_id)) then
    raise exception 'Each trainer is an administrator, or an instructor of the course''s service, of the session''s organisation'
      using errcode = '22023', hint = 'trainerIds';
  end if;
  delete from public.session_trainers t
  where t.session_id = p_session.id and not (t.trainer_id = any (coalesce(p_trainer_ids, '{}')));
  insert into public.session_trainers (session_id, trainer_id)
  select p_session.id, t.id from unnest(coalesce(p_trainer_ids, '{}')) t(id)
  on conflict do nothing;
end;
$$;
comment on function private.set_trainers_of(public.classroom_sessions,uuid[]) is
  'Internal: sets the session''s trainers (at most 20, each passing private.may_train for the course''s service and the session''s organisation; 22023 hint trainerIds).';
revoke all on function private.set_trainers_of(public.classroom_sessions,uuid[]) from public;

-- Adds a date. Its organisation: the course's, else the caller's, else (a national caller on a
-- national course) the one asked for, null = national.
create function private.create_session(
  p_module_id uuid,
  p_starts_at timestamptz,
  p_ends_at timestamptz,
  p_venue_name text,
  p_venue_address text,
  p_online_url text,
  p_capacity integer,
  p_booking_closes_at timestamptz,
  p_note text,
  p_organisation_id uuid default null,
  p_trainer_ids uuid[] default '{}'
)
returns public.classroom_sessions
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.create_session(uuid,timestamptz,timestamptz,text,text,text,integer,timestamptz,text,uuid,uuid[]) is
  'The course''s author or an administrator of its reach: adds a date to a session module (organisation: the course''s, else the caller''s, else the one given, null = national). P0002 no module, 42501 not theirs, 22023 with the field as hint, 23514 a constraint.';
revoke all on function private.create_session(uuid,timestamptz,timestamptz,text,text,text,integer,timestamptz,text,uuid,uuid[]) from public;
grant execute on function private.create_session(uuid,timestamptz,timestamptz,text,text,text,integer,timestamptz,text,uuid,uuid[]) to authenticated;

-- The session locked for a change by the people who manage it.
create function private.session_to_manage(p_session_id uuid)
returns public.classroom_sessions
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.session_to_manage(uuid) is
  'Internal: the session, locked, when the caller may change it (P0002 unseen, 42501 seen but not theirs to change).';
revoke all on function private.session_to_manage(uuid) from public;

-- Changes a date. A change of time or place raises the session's and each booked learner's
-- sequence and tells them ('session-changed', their calendar entry updated); more places are
-- offered to the waiting list; fewer than are taken is refused.
create function private.update_session(
  p_session_id uuid,
  p_starts_at timestamptz,
  p_ends_at timestamptz,
  p_venue_name text,
  p_venue_address text,
  p_online_url text,
  p_capacity integer,
  p_booking_closes_at timestamptz,
  p_note text,
  p_trainer_ids uuid[] default null
)
returns public.classroom_sessions
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.update_session(uuid,timestamptz,timestamptz,text,text,text,integer,timestamptz,text,uuid[]) is
  'Manager of the session: changes it; a new time or place raises sequence and tells each booked learner (session-changed, REQUEST); added places are offered. Trainers unchanged when null. P0002, 42501, 55000 cancelled, 22023 hint capacity.';
revoke all on function private.update_session(uuid,timestamptz,timestamptz,text,text,text,integer,timestamptz,text,uuid[]) from public;
grant execute on function private.update_session(uuid,timestamptz,timestamptz,text,text,text,integer,timestamptz,text,uuid[]) to authenticated;

-- Cancels a date with a reason: every live booking is cancelled and told ('session-cancelled'; the
-- booked learners' calendar entries withdrawn: method CANCEL).
create function private.cancel_session(p_session_id uuid, p_reason text)
returns public.classroom_sessions
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.cancel_session(uuid,text) is
  'Manager of the session: cancels it (once; again changes nothing); every live booking cancelled and told (session-cancelled; CANCEL for the booked). 22023 hint reason.';
revoke all on function private.cancel_session(uuid,text) from public;
grant execute on function private.cancel_session(uuid,text) to authenticated;

-- ---------------------------------------------------------------------------
-- Functions: learners book, move, cancel; offers; managers approve
-- ---------------------------------------------------------------------------

-- Books the date for the signed-in learner (enrolled, approved), before its cut-off: a place when one
-- is free (requested from the manager, or booked), else the waiting list. The session row is locked
-- first, so concurrent bookings of the last place take it one after another. Booking the date already
-- booked answers that booking; another date of the module is a move (409 here).
create function private.book_session(p_session_id uuid)
returns public.session_bookings
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.book_session(uuid) is
  'Learner: books the date (own place; enrolled and approved; before the cut-off): requested (manager approval) or booked when a place is free, else waiting. Same date again: that booking. P0002 unseen, 42501 not enrolled (hint session_not_enrolled), 55000 hints session_booked_elsewhere, session_cancelled, session_closed, session_completed.';
revoke all on function private.book_session(uuid) from public;
grant execute on function private.book_session(uuid) to authenticated;

-- The signed-in learner's own live booking, locked, with its session locked first.
create function private.own_live_booking(p_booking_id uuid)
returns public.session_bookings
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.own_live_booking(uuid) is
  'Internal: the caller''s own booking (P0002 otherwise), its session row locked first.';
revoke all on function private.own_live_booking(uuid) from public;

-- Moves the learner's booked (or requested) place to another date of the same module: the same
-- booking, its sequence raised and its calendar entry moved ('session-changed'); 409 when that date
-- is full. The freed place is offered to the old date's waiting list.
create function private.move_booking(p_booking_id uuid, p_session_id uuid)
returns public.session_bookings
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.move_booking(uuid,uuid) is
  'Learner: moves their booked or requested place to another date of the module (same booking, sequence + 1, session-changed REQUEST); the freed place is offered. P0002, 55000 hints booking_not_movable, session_closed, session_full.';
revoke all on function private.move_booking(uuid,uuid) from public;
grant execute on function private.move_booking(uuid,uuid) to authenticated;

-- Cancels the learner's own booking: a place up to the cut-off (the calendar entry withdrawn), a turn
-- on the waiting list at any time. The freed place is offered on.
create function private.cancel_booking(p_booking_id uuid)
returns public.session_bookings
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.cancel_booking(uuid) is
  'Learner: cancels their own booking (a place up to the cut-off, a turn on the waiting list any time; a booked one told session-cancelled CANCEL); the freed place is offered. P0002, 55000 hint session_closed.';
revoke all on function private.cancel_booking(uuid) from public;
grant execute on function private.cancel_booking(uuid) to authenticated;

-- Accepts or declines the place offered to the learner; a declined or lapsed offer passes on.
create function private.answer_offer(p_booking_id uuid, p_accept boolean)
returns public.session_bookings
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.answer_offer(uuid,boolean) is
  'Learner: accepts (booked, or requested under manager approval) or declines (the place passes on) the place offered to them. P0002, 55000 hint no_offer.';
revoke all on function private.answer_offer(uuid,boolean) from public;
grant execute on function private.answer_offer(uuid,boolean) to authenticated;

-- The line manager approves or declines a report's request (before the session starts).
create function private.decide_booking(p_booking_id uuid, p_approve boolean, p_reason text default null)
returns public.session_bookings
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.decide_booking(uuid,boolean,text) is
  'Line manager (up the chain): approves (booked, session-booked REQUEST) or declines (session-booking-declined; the place offered on) a report''s requested booking. P0002 not their report''s, 55000 hints not_requested, session_started, 22023 hint reason.';
revoke all on function private.decide_booking(uuid,boolean,text) from public;
grant execute on function private.decide_booking(uuid,boolean,text) to authenticated;

-- The requests waiting for the caller's approval (their reports', down the chain), soonest first.
create function private.session_requests()
returns table(
  booking_id uuid,
  user_id uuid,
  learner_name text,
  session_id uuid,
  module_id uuid,
  module_title text,
  course_id uuid,
  course_title text,
  starts_at timestamptz,
  ends_at timestamptz,
  venue_name text,
  online_url text,
  requested_at timestamptz
)
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.session_requests() is
  'Line manager: their reports'' bookings waiting for approval (at most 200, soonest first).';
revoke all on function private.session_requests() from public;
grant execute on function private.session_requests() to authenticated;

-- ---------------------------------------------------------------------------
-- Functions: the register
-- ---------------------------------------------------------------------------

-- Whether the learner attended the module's date in their current cycle (private.settle_module).
create function private.session_attended(p_user_id uuid, p_module_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.session_bookings b
    join public.course_modules m on m.id = b.module_id
    join public.enrollments e on e.user_id = b.user_id and e.course_id = m.course_id
    where b.user_id = p_user_id and b.module_id = p_module_id and b.attendance = 'attended' and b.cycle = e.cycle);
end;
$$;
comment on function private.session_attended(uuid,uuid) is
  'Internal: the register marked the learner attended on a date of the module in their current enrolment cycle.';
revoke all on function private.session_attended(uuid,uuid) from public;

-- Whether the caller keeps the session's register: a national admin, the people who run it, an
-- administrator of the learner.
create function private.keeps_register(p_session_id uuid, p_user_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return coalesce(private.is_admin()
    or p_session_id in (select private.run_session_ids())
    or (p_user_id is not null and private.is_org_admin() and private.administers(p_user_id)), false);
end;
$$;
comment on function private.keeps_register(uuid,uuid) is
  'True when the caller may mark the learner on the session''s register (national admin, trainer, course author, the organisation''s administrator, an administrator of the learner).';
revoke all on function private.keeps_register(uuid,uuid) from public;
grant execute on function private.keeps_register(uuid,uuid) to authenticated, service_role;

-- Marks one booked learner: attended, no-show, excused or null (unmarked). The same mark twice
-- writes nothing; attended completes the module as a read module does; a mark taken away from
-- attended takes the module's completion back while the course is not completed. Every change is in
-- the audit trail, its target the learner.
create function private.mark_attendance(p_booking_id uuid, p_attendance text)
returns public.session_bookings
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.mark_attendance(uuid,text) is
  'Register keeper: marks a booked learner attended / no-show / excused / null. Idempotent; attended completes the module (progress, certificate); away from attended takes it back unless the course is completed; audited (session.attendance_marked, target the learner). P0002, 42501, 55000 hint not_on_register, 22023 hint attendance.';
revoke all on function private.mark_attendance(uuid,text) from public;
grant execute on function private.mark_attendance(uuid,text) to authenticated;

-- Marks every booked learner not yet marked as attended; returns how many were marked.
create function private.mark_all_attended(p_session_id uuid)
returns integer
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.mark_all_attended(uuid) is
  'Register keeper: marks every unmarked booked learner attended (each as private.mark_attendance). P0002 not theirs.';
revoke all on function private.mark_all_attended(uuid) from public;
grant execute on function private.mark_all_attended(uuid) to authenticated;

-- Adds a walk-in on the day: a person of the session's organisation (any active person for a
-- national date), enrolled at once when they were not, booked even over capacity. A live booking
-- of theirs on another date of the module is cancelled (its place offered on).
create function private.add_walk_in(p_session_id uuid, p_user_id uuid)
returns public.session_bookings
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.add_walk_in(uuid,uuid) is
  'Register keeper (the people who run it): adds a walk-in, enrolled at once when needed, booked even over capacity (walk_in); audited. P0002, 55000 hint session_cancelled, 22023 hint userId (not of the session''s reach).';
revoke all on function private.add_walk_in(uuid,uuid) from public;
grant execute on function private.add_walk_in(uuid,uuid) to authenticated;

-- The people a walk-in may be: active, of the session's organisation (and the caller's), matching
-- the words of their name or username; with whether they are enrolled or booked.
create function private.session_people(p_session_id uuid, p_query text)
returns table(user_id uuid, name text, username text, enrolled boolean, booked boolean)
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.session_people(uuid,text) is
  'The people who run the session: up to 20 active people of its reach matching the words, for a walk-in. P0002 otherwise.';
revoke all on function private.session_people(uuid,text) from public;
grant execute on function private.session_people(uuid,text) to authenticated;

-- The people who may run a date of the module's course (private.may_train), for those who add and
-- change its dates: up to 20 by name, whose name or username matches the lowercase LIKE pattern.
-- The date's organisation as private.create_session decides it: the course's, else the caller's,
-- else the one given (a national caller choosing for an organisation's date; null: a national date).
create function private.session_trainer_candidates(p_module_id uuid, p_organisation_id uuid, p_pattern text)
returns table(user_id uuid, name text, username text)
language plpgsql
 STABLE SECURITY DEFINER ROWS 20
set search_path = ''
as $$
declare
  v_course public.courses;
  v_org uuid;
  v_pattern text := coalesce(p_pattern, '%');
begin
  select c.* into v_course from public.course_modules m join public.courses c on c.id = m.course_id
  where m.id = p_module_id and m.kind = 'session';
  if not found or not private.can_view_course(v_course.id) then
    raise exception 'Module not found' using errcode = 'P0002';
  end if;
  v_org := coalesce(v_course.organisation_id, private.current_organisation_id(), p_organisation_id);
  if not private.may_manage_sessions(v_course.id, v_org) then
    raise exception 'You cannot choose the trainers of this course''s dates' using errcode = '42501';
  end if;
  -- The text match is the trigram index's (profiles_search_trgm_idx), the role and organisation
  -- narrow by theirs (profiles_role_idx, profiles_organisation_idx) before the rule is asked of the
  -- few left; private.may_train alone decides.
  return query
    select p.id, p.name, p.username
    from public.profiles p
    where lower(p.name || ' ' || p.username || ' ' || p.email) like v_pattern
      and (lower(p.name) like v_pattern or lower(p.username) like v_pattern)
      and p.role in ('INSTRUCTOR', 'ADMIN')
      and (v_org is null or p.organisation_id = v_org)
      and private.may_train(p, v_course.service, v_org)
    order by p.name, p.id
    limit 20;
end;
$$;
comment on function private.session_trainer_candidates(uuid,uuid,text) is
  'Those who may add dates to the session module''s course: up to 20 people passing private.may_train for its service and the date''s organisation (the course''s, the caller''s, else the one given), name or username matching the lowercase LIKE pattern. P0002 no such session module, 42501 not theirs.';
revoke all on function private.session_trainer_candidates(uuid,uuid,text) from public;
grant execute on function private.session_trainer_candidates(uuid,uuid,text) to authenticated;

-- The session's bookings with the learners' names, for the people who keep its register (a
-- trainer may not otherwise read the learners' profiles).
create function private.session_register(p_session_id uuid)
returns table(
  booking_id uuid,
  user_id uuid,
  name text,
  username text,
  status text,
  attendance text,
  walk_in boolean,
  waiting_since timestamptz,
  offered_until timestamptz,
  attendance_marked_at timestamptz,
  marked_by_name text,
  booked_at timestamptz
)
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.session_register(uuid) is
  'Register keeper: every booking of the session with the learner''s name, places first, then the waiting list in order. P0002 otherwise.';
revoke all on function private.session_register(uuid) from public;
grant execute on function private.session_register(uuid) to authenticated;

-- The trainers' names of the sessions the caller sees (learners cannot read the trainers' profiles).
create function private.session_trainer_names(p_session_ids uuid[])
returns table(session_id uuid, trainer_id uuid, name text)
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.session_trainer_names(uuid[]) is
  'The trainers (id, name) of those of the sessions the caller sees.';
revoke all on function private.session_trainer_names(uuid[]) from public;
grant execute on function private.session_trainer_names(uuid[]) to authenticated;

-- A session module's dates as the caller sees them, the answer of GET /api/modules/:moduleId/sessions
-- as JSON in one statement. The caller's reach is decided once here, by the rule of the policies
-- (classroom_sessions': is_admin, run_session_ids, learner_session_ids; keeps_register's), restricted
-- to this module's dates, rather than by the policies and helpers each asking it again per statement
-- and per date (five times a request at national size). classroom-sessions.test.ts proves this list
-- and a direct select agree for each persona.
-- Two views: those who run the module (an admin, who may add dates, or who keeps a date's register)
-- get every date they see with what running it needs ('manage': places taken of capacity, the
-- register's counts, canManage, the trainers' ids); a learner gets what choosing a date needs
-- ('learner'): the next p_limit dates not over and not cancelled, by start, the date of their booking
-- wherever it is, and whether more follow. A learner's dates name no module, course or organisation
-- (the answer's top level does once) and are written compact (row_to_json), nothing null left out.
-- Times are ISO 8601 in UTC with milliseconds, as the API's other answers (toISOString).
create function private.module_sessions(p_module_id uuid, p_now timestamptz default now(), p_limit integer default 12)
returns json
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.module_sessions(uuid, timestamptz, integer) is
  'GET /api/modules/:moduleId/sessions as JSON. Those who run the module (view manage): every date they see with trainers, places, canManage, keepsRegister and the register keepers'' counts, and canAdd. A learner (view learner): the next p_limit (1 to 100) dates not over and not cancelled with the places left and the trainers'' names, their booking''s date, and more. Both: the caller''s booking of the module (live, else latest). P0002 when there is no such module.';
revoke all on function private.module_sessions(uuid, timestamptz, integer) from public;
grant execute on function private.module_sessions(uuid, timestamptz, integer) to authenticated;

-- ---------------------------------------------------------------------------
-- Functions: what the schedule decides (called by private.decide_notifications)
-- ---------------------------------------------------------------------------

-- At p_now: offers not accepted by offered_until lapse and their places pass on; booked learners are
-- reminded 7 days and 1 day before (the nearer one reached, the 7-day one only when booked before it;
-- once per booking, threshold and sequence). Returns how many notices it wrote.
create function private.decide_session_notifications(p_now timestamptz)
returns integer
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.decide_session_notifications(timestamptz) is
  'Internal, from private.decide_notifications: lapses offers past offered_until and offers their places on; writes the session reminders 7 and 1 days before. Returns the notices written.';
revoke all on function private.decide_session_notifications(timestamptz) from public;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger classroom_sessions_prepare
  before insert or update of module_id, organisation_id on public.classroom_sessions
  for each row execute function private.prepare_classroom_session();

create trigger classroom_sessions_set_updated_at
  before update on public.classroom_sessions
  for each row execute function private.set_updated_at();

create trigger session_bookings_prepare
  before insert or update of session_id on public.session_bookings
  for each row execute function private.prepare_session_booking();

create trigger session_bookings_count_places
  after insert or update of status, session_id or delete on public.session_bookings
  for each row execute function private.count_session_places();

create trigger session_bookings_set_updated_at
  before update on public.session_bookings
  for each row execute function private.set_updated_at();
