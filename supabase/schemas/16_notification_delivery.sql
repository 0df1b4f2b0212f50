-- Email delivery of notifications: public.notifications (15_notifications.sql) is the
-- outbox; the function's worker (POST /api/notifications/deliver, service role only) claims a batch,
-- sends it over SMTP and records each result here. See docs/ARCHITECTURE.md, "Notification emails".
--
-- * Claiming: private.claim_notification_emails locks due rows with `for update skip locked` (two
--   workers never claim the same row), counts the attempt and sets email_next_attempt_at to a lease:
--   a worker killed half-way leaves its claims 'queued', and they are due again when the lease ends.
-- * Recording: private.record_notification_email takes the attempt number it claimed as a fencing
--   token, so a worker whose lease ran out cannot overwrite a later attempt's result. A failure is
--   retried after 1 min, 5 min, 30 min, 2 h and 6 h; the sixth failure is final ('failed').
-- * At send time a notice is skipped (not sent) when the recipient is deactivated, has no address or
--   switched the kind off, when the person an escalation is about no longer reports to the
--   recipient, or when the person has left the organisation whose course it is about.
-- * Administrators read the notices of the people they administer (the Delivery list; the select
--   policy in 15_notifications.sql) and requeue a sent or failed email (private.resend_notification_email, audited as notification.resent).

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on column public.notifications.email_attempts is
  'Delivery attempts of the current send (one per claim); the fencing token of private.record_notification_email.';

comment on column public.notifications.email_next_attempt_at is
  'When the email is next due: null = now; while claimed, the end of the worker''s lease; after a failure, the backoff.';

comment on column public.notifications.email_resends is
  'How often an administrator requeued the email (part of its Message-ID, so a resent copy is not taken for a duplicate).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

-- The Delivery list, newest first, unfiltered and by status. Keyed by time without the id: every
-- notice of one decision run has the same created_at, so their entries are equal keys, kept as
-- posting lists and appended (with the random id as well, each went to a random place: about a
-- second of a 190,000-notice first run). The list's id tie-break is sorted within a time.
create index notifications_created_idx on public.notifications (created_at desc);

create index notifications_email_status_created_idx on public.notifications (email_status, created_at desc);

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- The wait after the n-th failed attempt (n = 1..5); the sixth failure is final.
create function private.email_retry_delay(p_attempt integer)
returns interval
language sql immutable
set search_path = ''
as $$
  select (array[interval '1 minute', interval '5 minutes', interval '30 minutes', interval '2 hours',
                interval '6 hours'])[p_attempt]
$$;
comment on function private.email_retry_delay(integer) is
  'Backoff after the n-th failed delivery attempt: 1 min, 5 min, 30 min, 2 h, 6 h; null from the sixth (final).';
revoke all on function private.email_retry_delay(integer) from public;

-- Claims up to p_limit due emails for one worker; returns what it needs to send them.
create function private.claim_notification_emails(p_now timestamptz, p_limit integer, p_lease_seconds integer default 300)
returns table (
  id uuid,
  attempt integer,
  resends integer,
  kind text,
  title text,
  body text,
  data jsonb,
  link_path text,
  occasion date,
  recipient_id uuid,
  recipient_email text,
  recipient_name text,
  created_at timestamptz
)
language plpgsql security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  if p_now is null or p_limit is null or p_limit not between 1 and 1000
     or p_lease_seconds is null or p_lease_seconds not between 10 and 86400 then
    raise exception 'A claim needs a time, a batch of 1 to 1000 and a lease of 10 s to 1 day' using errcode = '22023';
  end if;
  return query
  with due as (
    select n.id from public.notifications n
    where n.email_status = 'queued' and (n.email_next_attempt_at is null or n.email_next_attempt_at <= p_now)
    order by n.email_next_attempt_at nulls first, n.created_at
    limit p_limit
    for update skip locked
  ),
  judged as (
    select n.id,
      case
        when rp.deactivated_at is not null then 'Not sent: the recipient''s account is deactivated'
        when btrim(rp.email) = '' then 'Not sent: the recipient has no email address'
        when n.kind <> all (private.mandatory_notification_kinds())
             and coalesce(pref.email_off @> array[n.kind], false) then 'Not sent: the recipient switched this email off'
        when n.kind = 'manager-escalation'
             and (ap.id is null or ap.deactivated_at is not null or ap.manager_id is distinct from n.recipient_id)
          then 'Not sent: the person no longer reports to the recipient'
        when ap.deactivated_at is not null then 'Not sent: the person''s account is deactivated'
        when c.organisation_id is not null and c.organisation_id is distinct from coalesce(ap.organisation_id, rp.organisation_id)
          then 'Not sent: the person has left the organisation'
      end as skip_reason
    from due d
    join public.notifications n on n.id = d.id
    join public.profiles rp on rp.id = n.recipient_id
    left join public.profiles ap on ap.id = n.person_id
    left join public.courses c on c.id = n.course_id
    left join public.notification_preferences pref on pref.user_id = n.recipient_id
  ),
  claimed as (
    update public.notifications n set
      email_status = case when j.skip_reason is null then 'queued' else 'skipped' end,
      email_attempts = n.email_attempts + case when j.skip_reason is null then 1 else 0 end,
      email_next_attempt_at = case when j.skip_reason is null then p_now + make_interval(secs => p_lease_seconds) end,
      email_last_error = case when j.skip_reason is null then n.email_last_error else j.skip_reason end
    from judged j
    where n.id = j.id
    returning n.id, n.email_attempts, n.email_resends, n.kind, n.title, n.body, n.data, n.link_path, n.occasion,
              n.recipient_id, n.created_at, j.skip_reason
  )
  select k.id, k.email_attempts, k.email_resends, k.kind, k.title, k.body, k.data, k.link_path, k.occasion,
         k.recipient_id, btrim(rp.email), rp.name, k.created_at
  from claimed k
  join public.profiles rp on rp.id = k.recipient_id
  where k.skip_reason is null
  order by k.created_at, k.id;
end;
$$;
comment on function private.claim_notification_emails(timestamptz, integer, integer) is
  'Delivery worker: locks up to p_limit due queued emails (skip locked), skips those that must no longer be sent (deactivated, no address, switched off, no longer a report, left the organisation), counts an attempt and leases the rest for p_lease_seconds; returns them with the recipient''s address and name. 22023 on bad arguments.';
revoke all on function private.claim_notification_emails(timestamptz, integer, integer) from public;
grant execute on function private.claim_notification_emails(timestamptz, integer, integer) to service_role;

-- Records the outcome of a claimed attempt: sent (p_error null) or failed (retried with backoff).
create function private.record_notification_email(p_id uuid, p_attempt integer, p_error text, p_now timestamptz)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_status text;
begin
  update public.notifications n set
    email_status = case
      when p_error is null then 'sent'
      when private.email_retry_delay(p_attempt) is null then 'failed'
      else 'queued'
    end,
    email_sent_at = case when p_error is null then p_now end,
    email_next_attempt_at = case when p_error is not null then p_now + private.email_retry_delay(p_attempt) end,
    email_last_error = case when p_error is null then null else left(p_error, 500) end
  where n.id = p_id and n.email_status = 'queued' and n.email_attempts = p_attempt
  returning n.email_status into v_status;
  return v_status;
end;
$$;
comment on function private.record_notification_email(uuid, integer, text, timestamptz) is
  'Delivery worker: records attempt p_attempt of an email as sent (p_error null) or failed: queued again after 1 min, 5 min, 30 min, 2 h, 6 h, then failed. Returns the new status, or null when that attempt is no longer the current claim (its lease ran out and another worker took it).';
revoke all on function private.record_notification_email(uuid, integer, text, timestamptz) from public;
grant execute on function private.record_notification_email(uuid, integer, text, timestamptz) to service_role;

-- An administrator requeues a sent or failed email of a person they administer.
create function private.resend_notification_email(p_id uuid)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.notifications;
  v_name text;
begin
  select n.* into v_row from public.notifications n where n.id = p_id for update;
  if not found or not private.administers(v_row.recipient_id) then
    raise exception 'Notification not found' using errcode = 'P0002';
  end if;
  if v_row.email_status not in ('sent', 'failed') then
    raise exception 'Only a sent or failed email can be sent again' using errcode = '55000';
  end if;
  update public.notifications n set
    email_status = 'queued', email_attempts = 0, email_next_attempt_at = null, email_last_error = null,
    email_sent_at = null, email_resends = n.email_resends + 1
  where n.id = p_id;
  select p.name into v_name from public.profiles p where p.id = v_row.recipient_id;
  perform private.write_audit('notification.resent', 'user', v_row.recipient_id, v_name,
    jsonb_build_object('emailStatus', v_row.email_status, 'attempts', v_row.email_attempts),
    jsonb_build_object('notificationId', v_row.id, 'kind', v_row.kind, 'title', v_row.title));
  return 'queued';
end;
$$;
comment on function private.resend_notification_email(uuid) is
  'Administrators (national, or of the recipient''s organisation): requeues a sent or failed email and audits notification.resent. P0002 when not found or not theirs; 55000 when it is queued or skipped.';
revoke all on function private.resend_notification_email(uuid) from public;
grant execute on function private.resend_notification_email(uuid) to authenticated;
