-- Notifications: the notices a person finds under the bell and, later, in their email.
--
-- * notifications: an inbox and an email outbox in one table. Every notice is written by
--   private.decide_notifications(p_now), one set-based statement that takes the time as its argument
--   (the scheduler passes now(); tests pass any time). Each notice has a key (recipient, kind, the
--   person, course and certificate or enrolment it is about, its occasion, threshold and cycle) that
--   is unique, and the function inserts "on conflict do nothing", so a notice exists once however
--   often, or however concurrently, the function runs.
-- * notification_preferences: one row per person (absent = the defaults): their language and the
--   kinds for which they do not want email. Overdue and expiry notices cannot be switched off (a check).
-- * private.enrolment_decisions: approvals and declines of pending enrolments, recorded by triggers
--   on enrollments (a decline deletes the enrolment, so the decision is kept here for the function).
--
-- A person reads their own notices and may change only read_at; nobody inserts or deletes them
-- through the API roles. A notice is written 'queued' for email (or 'skipped' when the person switched
-- that kind off or has no address); delivery: 16_notification_delivery.sql.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  -- recipient_id, person_id and course_id are checked per statement, not by foreign keys: see
  -- private.check_notification_references below.
  recipient_id uuid not null,
  kind text not null,
  person_id uuid,
  course_id uuid,
  subject_id uuid,
  occasion date not null,
  threshold integer not null default 0,
  cycle integer not null default 0,
  title text not null,
  body text not null default '',
  data jsonb not null default '{}'::jsonb,
  link_path text,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  email_status text not null default 'queued',
  email_attempts integer not null default 0,
  email_next_attempt_at timestamptz,
  email_last_error text,
  email_sent_at timestamptz,
  email_resends integer not null default 0,
  constraint notifications_kind_known check (kind in (
    'training-assigned', 'training-due-soon', 'training-overdue', 'manager-escalation',
    'certificate-expiring', 'certificate-expired', 'certificate-issued',
    'enrolment-approved', 'enrolment-declined', 'manager-digest', 'account-welcome',
    'session-booked', 'session-waiting', 'session-place-offered', 'session-changed', 'session-cancelled',
    'session-reminder', 'session-approval-requested', 'session-booking-declined',
    'assessment-recorded', 'reassessment-requested')),
  constraint notifications_email_status_known check (email_status in ('queued', 'sent', 'failed', 'skipped')),
  constraint notifications_email_attempts_range check (email_attempts >= 0),
  constraint notifications_email_resends_range check (email_resends >= 0),
  constraint notifications_link_path_shape check (link_path is null or link_path ~ '^/[^/]'),
  constraint notifications_once unique nulls not distinct
    (recipient_id, kind, person_id, course_id, subject_id, occasion, threshold, cycle)
);

create table public.notification_preferences (
  user_id uuid primary key default auth.uid() references public.profiles (id) on delete cascade,
  language text not null default 'en-GB',
  email_off text[] not null default '{}',
  updated_at timestamptz not null default now(),
  constraint notification_preferences_language_known check (language in ('en-GB')),
  constraint notification_preferences_kinds_known check (email_off <@ array[
    'training-assigned', 'training-due-soon', 'training-overdue', 'manager-escalation',
    'certificate-expiring', 'certificate-expired', 'certificate-issued',
    'enrolment-approved', 'enrolment-declined', 'manager-digest',
    'session-booked', 'session-waiting', 'session-place-offered', 'session-changed', 'session-cancelled',
    'session-reminder', 'session-approval-requested', 'session-booking-declined',
    'assessment-recorded', 'reassessment-requested']::text[]),
  constraint notification_preferences_mandatory_email check (not (email_off && array[
    'training-overdue', 'certificate-expiring', 'certificate-expired']::text[]))
);

create table private.enrolment_decisions (
  enrollment_id uuid primary key,
  user_id uuid not null references public.profiles (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  decision text not null,
  decided_at timestamptz not null default now(),
  constraint enrolment_decisions_decision_known check (decision in ('approved', 'declined'))
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.notifications is
  'A notice to one person (bell and email outbox), written only by private.decide_notifications; unique per recipient, kind, subject, occasion, threshold and cycle.';

comment on column public.notifications.recipient_id is
  'Who gets the notice (the learner, or their line manager for an escalation).';

comment on column public.notifications.kind is
  'What it is: training-assigned | training-due-soon | training-overdue | manager-escalation | manager-digest | certificate-expiring | certificate-expired | certificate-issued | enrolment-approved | enrolment-declined | account-welcome; a classroom session''s session-booked | session-waiting | session-place-offered | session-changed | session-cancelled | session-reminder | session-approval-requested | session-booking-declined (25_classroom_sessions.sql); a practical assessment''s assessment-recorded | reassessment-requested (26_practical_assessments.sql).';

comment on column public.notifications.person_id is
  'The person the notice is about (the recipient, or the report for a manager''s escalation).';

comment on column public.notifications.subject_id is
  'The certificate or enrolment the notice is about, when there is one.';

comment on column public.notifications.occasion is
  'The date the notice is about: the due date, the expiry date, the issue or decision date.';

comment on column public.notifications.threshold is
  'Days before (due soon, expiring) or after (escalation) the occasion that the notice marks; 0 otherwise.';

comment on column public.notifications.cycle is
  'For overdue notices, whole weeks since the due date (one notice a week); 0 otherwise.';

comment on column public.notifications.title is
  'The notice''s one-line text in the person''s language (en-GB).';

comment on column public.notifications.data is
  'The facts the text was made from (course title, dates, name), for emails and other languages.';

comment on column public.notifications.link_path is
  'The app path of the thing the notice is about (a course, a certificate''s verification, the team).';

comment on column public.notifications.read_at is
  'When the recipient marked it read; the only column they may change.';

comment on column public.notifications.email_status is
  'queued (to send, or to retry) | sent | failed (retries spent) | skipped (not to be sent: switched off, no address, or no longer due at send time; the reason in email_last_error).';

comment on table public.notification_preferences is
  'A person''s notification choices (no row = defaults: every email on, en-GB). Read and changed only by the person.';

comment on column public.notification_preferences.email_off is
  'Kinds for which the person wants no email (the bell still shows them). Overdue and expiry kinds cannot be listed.';

comment on column public.notification_preferences.language is
  'Language of notices and emails: en-GB for now (the column exists so Welsh can follow).';

comment on table private.enrolment_decisions is
  'Approvals and declines of pending enrolments (written by triggers on enrollments), read by private.decide_notifications.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

-- The person's list, newest first.
create index notifications_recipient_created_idx on public.notifications (recipient_id, created_at desc, id desc);

-- Their unread count.
create index notifications_recipient_unread_idx on public.notifications (recipient_id) where read_at is null;

-- Delivery's queue (what is due to be sent next).
create index notifications_email_queue_idx on public.notifications (email_next_attempt_at nulls first, created_at)
  where email_status = 'queued';

create index notifications_person_idx on public.notifications (person_id) where person_id is not null;

create index notifications_course_idx on public.notifications (course_id) where course_id is not null;

-- The decision function's scans of certificates (expiring and expired, live ones only).
create index certificates_live_expiry_idx on public.certificates (expires_at)
  where revoked_at is null and expires_at is not null;

create index enrolment_decisions_decided_idx on private.enrolment_decisions (decided_at);

create index enrolment_decisions_user_idx on private.enrolment_decisions (user_id);

create index enrolment_decisions_course_idx on private.enrolment_decisions (course_id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.notifications enable row level security;

alter table public.notification_preferences enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- Administrators read their people's too: the Delivery list (16_notification_delivery.sql).
create policy "people read their own notices, administrators their people's"
  on public.notifications for select to authenticated
  using (
    recipient_id = (select auth.uid())
    or (select private.is_admin())
    or recipient_id in (select private.people_i_administer())
  );

create policy "people mark their own notices read"
  on public.notifications for update to authenticated
  using (recipient_id = (select auth.uid()))
  with check (recipient_id = (select auth.uid()));

create policy "people read their own preferences"
  on public.notification_preferences for select to authenticated
  using (user_id = (select auth.uid()));

create policy "people add their own preferences"
  on public.notification_preferences for insert to authenticated
  with check (user_id = (select auth.uid()));

create policy "people change their own preferences"
  on public.notification_preferences for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.notifications from anon, authenticated, service_role;
grant select on public.notifications to authenticated;
grant update (read_at) on public.notifications to authenticated;
grant all on public.notifications to service_role;

revoke all on public.notification_preferences from anon, authenticated, service_role;
grant select on public.notification_preferences to authenticated;
grant insert (language, email_off) on public.notification_preferences to authenticated;
grant update (language, email_off) on public.notification_preferences to authenticated;
grant all on public.notification_preferences to service_role;

revoke all on private.enrolment_decisions from anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- The kinds whose email a person cannot switch off (the preferences' check lists the same).
create function private.mandatory_notification_kinds()
returns text[]
language sql immutable
set search_path = ''
as $$ select array['training-overdue', 'certificate-expiring', 'certificate-expired']::text[] $$;
comment on function private.mandatory_notification_kinds() is
  'Notification kinds whose email cannot be switched off: overdue and expiry.';
revoke all on function private.mandatory_notification_kinds() from public;
grant execute on function private.mandatory_notification_kinds() to authenticated, service_role;

-- A date as people read it: 22 November 2026 (London).
create function private.notice_date(p_at timestamptz)
returns text
language sql stable
set search_path = ''
as $$ select to_char(p_at at time zone 'Europe/London', 'FMDD FMMonth YYYY') $$;
comment on function private.notice_date(timestamptz) is
  'A time as the London calendar date of notices, e.g. 22 November 2026.';
revoke all on function private.notice_date(timestamptz) from public;

-- The notices of areas whose schema files come after this one, due at p_now: the classroom
-- sessions' offers lapsing and reminders (25_classroom_sessions.sql). plpgsql, because it calls what
-- later schema files create; called by private.decide_notifications, so the schedule stays one call.
create function private.decide_later_notifications(p_now timestamptz)
returns integer
language plpgsql security definer
set search_path = ''
as $$
begin
  return private.decide_session_notifications(p_now);
end;
$$;
comment on function private.decide_later_notifications(timestamptz) is
  'Internal, from private.decide_notifications: the notices later schema files decide at p_now (classroom sessions: offers lapsing, reminders). Returns how many were written.';
revoke all on function private.decide_later_notifications(timestamptz) from public;

-- The courses each active person's recognised credentials satisfy at a time (29_recognition.sql, as
-- THE status rule reads them: a verified upload not expired, or a certificate earned here of the
-- course an equivalence names, not revoked or expired), for private.decide_notifications, whose
-- notices of required training leave them out. One statement over everyone; plpgsql, so that it
-- may name the tables of 29_recognition.sql, which come later.
create function private.recognised_courses(p_now timestamptz)
returns table(user_id uuid, course_id uuid)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select hc.user_id, e.course_id
    from public.held_credentials hc
    join public.profiles p on p.id = hc.user_id and p.deactivated_at is null
    join public.recognition_equivalences e
      on e.organisation_id = p.organisation_id and e.issuer_id = hc.issuer_id and e.achievement_id = hc.achievement_id
    where hc.verified and (hc.valid_until is null or hc.valid_until > p_now)
    union
    select ct.user_id, e.course_id
    from public.recognition_equivalences e
    join public.certificates ct
      on ct.course_id = e.platform_course_id and ct.revoked_at is null and ct.issued_at <= p_now
         and (ct.expires_at is null or ct.expires_at > p_now)
    join public.profiles p on p.id = ct.user_id and p.organisation_id = e.organisation_id and p.deactivated_at is null;
end;
$$;
comment on function private.recognised_courses(timestamptz) is
  'Internal: per active person, the courses their recognised credentials satisfy at p_now (a verified upload, or a certificate earned here of an equivalent course), for private.decide_notifications.';
revoke all on function private.recognised_courses(timestamptz) from public;

-- Every notice due at p_now, in one statement; returns how many were written. The intervals are
-- the settings' (notify_*), a rule's own where it sets them; where several rules require the same
-- course of a person the most cautious wins (the earliest first "due soon", the shortest escalation).
-- Leavers: a deactivated person gets nothing and nobody hears about them; a person who left an
-- organisation hears nothing more about its courses (their other certificates stay theirs); a
-- manager hears only about their current reports (profiles.manager_id, as My team reads it).
-- No function is called per row (private.notice_date's format is written out: a function with SET
-- is never inlined); the rules are read once. Measured at 100,000 people in docs/PERFORMANCE.md.
create function private.decide_notifications(p_now timestamptz)
returns integer
language sql security definer
set search_path = ''
as $$
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
  -- The required courses a recognised credential satisfies at p_now: no notice is due for them.
  recognised as materialized (
    select rc.user_id, rc.course_id from private.recognised_courses(p_now) rc
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
    where not exists (select 1 from recognised rc where rc.user_id = q.user_id and rc.course_id = q.course_id)
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
$$;
comment on function private.decide_notifications(timestamptz) is
  'Writes every notice due at p_now, once each (unique key, on conflict do nothing), and those of later areas (private.decide_later_notifications: classroom sessions): learners: assigned, due soon, overdue (then every so many days), certificate expiring and expired, certificate issued, enrolment approved/declined; line managers: a report overdue by the escalation days, and on Mondays from 07:00 London a weekly digest of their reports. Intervals from settings, a rule''s override where set. Deactivated people and leavers get nothing. Returns how many it wrote. Run by the scheduler, not by API callers.';
revoke all on function private.decide_notifications(timestamptz) from public;
grant execute on function private.decide_notifications(timestamptz) to service_role;

-- Records the approval (status PENDING -> ACTIVE) or decline (a pending enrolment deleted by someone
-- other than the learner) of an enrolment, when a person decided it (not a trigger, e.g. a
-- required-training rule activating it, nor a cascade).
create function private.record_enrolment_decision()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if pg_trigger_depth() > 1 then
    return null;
  end if;
  if tg_op = 'UPDATE' and old.status = 'PENDING' and new.status = 'ACTIVE' then
    insert into private.enrolment_decisions (enrollment_id, user_id, course_id, decision)
    values (new.id, new.user_id, new.course_id, 'approved')
    on conflict (enrollment_id) do nothing;
  elsif tg_op = 'DELETE' and old.status = 'PENDING' and (select auth.uid()) is distinct from old.user_id
        and exists (select 1 from public.profiles p where p.id = old.user_id)
        and exists (select 1 from public.courses c where c.id = old.course_id) then
    insert into private.enrolment_decisions (enrollment_id, user_id, course_id, decision)
    values (old.id, old.user_id, old.course_id, 'declined')
    on conflict (enrollment_id) do nothing;
  end if;
  return null;
end;
$$;
comment on function private.record_enrolment_decision() is
  'After update/delete of enrollments: records an approval (PENDING -> ACTIVE) or a decline (a pending enrolment removed by someone else) for private.decide_notifications.';
revoke all on function private.record_enrolment_decision() from public;

-- The notices' references (recipient_id and person_id to profiles, course_id to courses) hold as
-- foreign keys with on delete cascade would, but checked once per statement: a first run of the
-- decision writes some 190,000 notices, and three per-row foreign-key checks were a third of its cost.
-- The referenced rows are locked for key share, as a foreign key's check locks them, so a concurrent
-- delete waits for the insert's transaction (and then removes its notices) or the insert fails.
create function private.check_notification_references()
returns trigger
language plpgsql security definer
set search_path = ''
-- (the distinct ids of a first run's notices, some 100,000, hashed in memory)
set work_mem = '32MB'
as $$
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
$$;
comment on function private.check_notification_references() is
  'After insert into notifications (per statement): every recipient_id and person_id is a profile and every course_id a course, the rows locked for key share (a foreign key''s check, once per statement).';
revoke all on function private.check_notification_references() from public;

create function private.check_notification_reference_change()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.check_notification_reference_change() is
  'After update of a notice''s recipient_id, person_id or course_id: the same check as private.check_notification_references, for that row.';
revoke all on function private.check_notification_reference_change() from public;

-- The cascade of those references: a deleted person's or course's notices go with them.
create function private.delete_notifications_of_people()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from public.notifications n where n.recipient_id in (select g.id from gone g);
  delete from public.notifications n where n.person_id in (select g.id from gone g);
  return null;
end;
$$;
comment on function private.delete_notifications_of_people() is
  'After delete of profiles (per statement): deletes the notices to or about them (the cascade of notifications.recipient_id and person_id).';
revoke all on function private.delete_notifications_of_people() from public;

create function private.delete_notifications_of_courses()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from public.notifications n where n.course_id in (select g.id from gone g);
  return null;
end;
$$;
comment on function private.delete_notifications_of_courses() is
  'After delete of courses (per statement): deletes the notices about them (the cascade of notifications.course_id).';
revoke all on function private.delete_notifications_of_courses() from public;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger notifications_check_references_insert
  after insert on public.notifications
  referencing new table as added
  for each statement execute function private.check_notification_references();

-- (a change of a reference, rare: only the service role may make one, row by row)
create trigger notifications_check_references_update
  after update of recipient_id, person_id, course_id on public.notifications
  for each row
  when (new.recipient_id is distinct from old.recipient_id or new.person_id is distinct from old.person_id
        or new.course_id is distinct from old.course_id)
  execute function private.check_notification_reference_change();

create trigger profiles_delete_notifications
  after delete on public.profiles
  referencing old table as gone
  for each statement execute function private.delete_notifications_of_people();

create trigger courses_delete_notifications
  after delete on public.courses
  referencing old table as gone
  for each statement execute function private.delete_notifications_of_courses();

create trigger notification_preferences_set_updated_at
  before update on public.notification_preferences
  for each row execute function private.set_updated_at();

create trigger enrollments_record_decision
  after update of status or delete on public.enrollments
  for each row execute function private.record_enrolment_decision();
