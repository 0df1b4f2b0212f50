-- Notifications (issue 19): the notices a person finds under the bell and, later, in their email.
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
  recipient_id uuid not null references public.profiles (id) on delete cascade,
  kind text not null,
  person_id uuid references public.profiles (id) on delete cascade,
  course_id uuid references public.courses (id) on delete cascade,
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
    'enrolment-approved', 'enrolment-declined', 'account-welcome')),
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
    'enrolment-approved', 'enrolment-declined']::text[]),
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
  'What it is: training-assigned | training-due-soon | training-overdue | manager-escalation | certificate-expiring | certificate-expired | certificate-issued | enrolment-approved | enrolment-declined.';

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
    or recipient_id in (select private.administered_person_ids())
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

-- Every notice due at p_now, in one statement; returns how many were written.
create function private.decide_notifications(p_now timestamptz)
returns integer
language sql security definer
set search_path = ''
as $$
  with
  -- Required training: one row per active person and required, published course, with when it
  -- was assigned and first due (the rule of private.required_training_status, at p_now).
  required as (
    select p.id as user_id, p.manager_id, r.course_id, c.title,
           min(greatest(r.created_at, coalesce(e.created_at, p.created_at))) as assigned_at,
           min(greatest(r.created_at, coalesce(e.created_at, p.created_at))
               + make_interval(days => r.due_within_days)) as first_due
    from public.required_training r
    join public.courses c on c.id = r.course_id and c.status = 'ACTIVE'
    join public.profiles p
      on (r.role is null or p.role = r.role) and (r.service is null or p.services @> array[r.service])
    left join public.enrollments e on e.user_id = p.id and e.course_id = r.course_id
    where p.deactivated_at is null
      -- A rule scoped to an organisation or a unit (its subtree).
      and (r.organisation_id is null or p.organisation_id = r.organisation_id)
      and (r.unit_id is null or p.unit_id in (select private.unit_subtree(r.unit_id)))
    group by p.id, p.manager_id, r.course_id, c.title
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
  -- The latest live certificate of each person and course that expires within 60 days or expired
  -- within the last 30.
  expiring as (
    select ct.id, ct.user_id, ct.course_id, ct.course_title, ct.issued_at, ct.expires_at
    from public.certificates ct
    join public.profiles p on p.id = ct.user_id and p.deactivated_at is null
    where ct.revoked_at is null and ct.expires_at is not null
      and ct.expires_at > p_now - interval '30 days' and ct.expires_at <= p_now + interval '60 days'
      and ct.issued_at <= p_now
      and not exists (
        select 1 from public.certificates newer
        where newer.user_id = ct.user_id and newer.course_id = ct.course_id and newer.revoked_at is null
          and newer.issued_at > ct.issued_at and newer.issued_at <= p_now
      )
  ),
  candidates (recipient_id, kind, person_id, course_id, subject_id, occasion, threshold, cycle, title, body, data, link_path) as (
    -- Assigned (a first assignment, told within 14 days of it).
    select i.user_id, 'training-assigned', i.user_id, i.course_id, null::uuid, i.first_due, 0, 0,
           'Required training: ' || i.title,
           'Complete it by ' || private.notice_date(i.first_due) || '.',
           jsonb_build_object('courseTitle', i.title, 'dueAt', i.first_due),
           '/course/' || i.course_id
    from items i
    where i.never_held and i.assigned_at <= p_now and i.assigned_at > p_now - interval '14 days'
    union all
    -- Due soon: the nearest of 14 and 3 days before the due date that has been reached (one not
    -- already passed when the training was assigned).
    select i.user_id, 'training-due-soon', i.user_id, i.course_id, null, i.due_at, t.days, 0,
           i.title || ' is due in ' || t.days || ' days',
           'Complete it by ' || private.notice_date(i.due_at) || '.',
           jsonb_build_object('courseTitle', i.title, 'dueAt', i.due_at, 'days', t.days),
           '/course/' || i.course_id
    from items i
    cross join lateral (
      select min(d) as days from unnest(array[14, 3]) d
      where i.due_at - make_interval(days => d) <= p_now and i.assigned_at < i.due_at - make_interval(days => d)
    ) t
    where i.never_held and i.due_at > p_now and t.days is not null
    union all
    -- Overdue: on the day, then once a week (cycle = whole weeks since the due date).
    select i.user_id, 'training-overdue', i.user_id, i.course_id, null, i.due_at, 0,
           floor(extract(epoch from p_now - i.due_at) / 604800)::integer,
           i.title || ' is overdue',
           'It was due on ' || private.notice_date(i.due_at) || '.',
           jsonb_build_object('courseTitle', i.title, 'dueAt', i.due_at),
           '/course/' || i.course_id
    from items i
    where i.due_at <= p_now
    union all
    -- Escalation to the direct line manager when a report is 7 days overdue.
    select i.manager_id, 'manager-escalation', i.user_id, i.course_id, null, i.due_at, 7, 0,
           p.name || ' is overdue with ' || i.title,
           'It was due on ' || private.notice_date(i.due_at) || '.',
           jsonb_build_object('courseTitle', i.title, 'dueAt', i.due_at, 'personName', p.name, 'personId', p.id),
           '/team/' || p.id
    from items i
    join public.profiles p on p.id = i.user_id
    where i.manager_id is not null and i.due_at <= p_now - interval '7 days'
    union all
    -- Certificate expiring: the nearest of 60, 30 and 7 days before expiry that has been reached.
    select x.user_id, 'certificate-expiring', x.user_id, x.course_id, x.id, x.expires_at, t.days, 0,
           'Your ' || x.course_title || ' certificate expires in ' || t.days || ' days',
           'It expires on ' || private.notice_date(x.expires_at) || '.',
           jsonb_build_object('courseTitle', x.course_title, 'expiresAt', x.expires_at, 'days', t.days),
           '/certificates'
    from expiring x
    cross join lateral (
      select min(d) as days from unnest(array[60, 30, 7]) d
      where x.expires_at - make_interval(days => d) <= p_now and x.issued_at < x.expires_at - make_interval(days => d)
    ) t
    where x.expires_at > p_now and t.days is not null
    union all
    select x.user_id, 'certificate-expired', x.user_id, x.course_id, x.id, x.expires_at, 0, 0,
           'Your ' || x.course_title || ' certificate has expired',
           'It expired on ' || private.notice_date(x.expires_at) || '.',
           jsonb_build_object('courseTitle', x.course_title, 'expiresAt', x.expires_at),
           '/certificates'
    from expiring x
    where x.expires_at <= p_now
    union all
    -- Certificate issued (told within 7 days of issue), with the verification link.
    select ct.user_id, 'certificate-issued', ct.user_id, ct.course_id, ct.id, ct.issued_at, 0, 0,
           'Certificate issued: ' || ct.course_title,
           'Verification code ' || ct.verification_code || '.',
           jsonb_build_object('courseTitle', ct.course_title, 'issuedAt', ct.issued_at,
             'verificationCode', ct.verification_code),
           '/verify/' || ct.verification_code
    from public.certificates ct
    where ct.user_id is not null and ct.revoked_at is null
      and ct.issued_at <= p_now and ct.issued_at > p_now - interval '7 days'
    union all
    -- Enrolment approved or declined (told within 7 days of the decision).
    select d.user_id, 'enrolment-' || d.decision, d.user_id, d.course_id, d.enrollment_id, d.decided_at, 0, 0,
           case d.decision when 'approved' then 'Enrolment approved: ' else 'Enrolment declined: ' end || c.title,
           case d.decision when 'approved' then 'You can start the course.' else 'Your request to join the course was declined.' end,
           jsonb_build_object('courseTitle', c.title, 'decidedAt', d.decided_at),
           '/course/' || d.course_id
    from private.enrolment_decisions d
    join public.courses c on c.id = d.course_id
    where d.decided_at <= p_now and d.decided_at > p_now - interval '7 days'
  ),
  written as (
    insert into public.notifications as n (recipient_id, kind, person_id, course_id, subject_id, occasion,
      threshold, cycle, title, body, data, link_path, created_at, email_status)
    select k.recipient_id, k.kind, k.person_id, k.course_id, k.subject_id,
           (k.occasion at time zone 'Europe/London')::date, k.threshold, k.cycle, k.title, k.body, k.data,
           k.link_path, p_now,
           case
             when btrim(rp.email) = '' then 'skipped'
             when k.kind <> all (private.mandatory_notification_kinds())
                  and coalesce(pref.email_off @> array[k.kind], false) then 'skipped'
             else 'queued'
           end
    from candidates k
    join public.profiles rp on rp.id = k.recipient_id and rp.deactivated_at is null
    left join public.notification_preferences pref on pref.user_id = k.recipient_id
    on conflict on constraint notifications_once do nothing
    returning 1
  )
  select count(*)::integer from written
$$;
comment on function private.decide_notifications(timestamptz) is
  'Writes every notice due at p_now (learners: assigned, due soon 14/3 days, overdue weekly, certificate expiring 60/30/7 days and expired, certificate issued, enrolment approved/declined; line managers: a report 7 days overdue), once each (unique key, on conflict do nothing). Deactivated people get nothing. Returns how many it wrote. Run by the scheduler, not by API callers.';
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

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger notification_preferences_set_updated_at
  before update on public.notification_preferences
  for each row execute function private.set_updated_at();

create trigger enrollments_record_decision
  after update of status or delete on public.enrollments
  for each row execute function private.record_enrolment_decision();
