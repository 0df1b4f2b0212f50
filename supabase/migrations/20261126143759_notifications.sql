-- notifications: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE TABLE "private"."enrolment_decisions" (
  "enrollment_id" uuid                     NOT NULL,
  "user_id"       uuid                     NOT NULL,
  "course_id"     uuid                     NOT NULL,
  "decision"      text                     NOT NULL,
  "decided_at"    timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "enrolment_decisions_decision_known" CHECK ((decision = ANY (ARRAY['approved'::text, 'declined'::text]))),
  CONSTRAINT "enrolment_decisions_pkey" PRIMARY KEY (enrollment_id)
);

CREATE TABLE "public"."notification_preferences" (
  "language"   text                     NOT NULL DEFAULT 'en-GB'::text,
  "email_off"  text[]                   NOT NULL DEFAULT '{}'::text[],
  "updated_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "notification_preferences_kinds_known"
    CHECK
    ((email_off <@ ARRAY['training-assigned'::text, 'training-due-soon'::text, 'training-overdue'::text, 'manager-escalation'::text, 'certificate-expiring'::text,
    'certificate-expired'::text, 'certificate-issued'::text, 'enrolment-approved'::text, 'enrolment-declined'::text])),
  CONSTRAINT "notification_preferences_language_known" CHECK ((language = 'en-GB'::text)),
  CONSTRAINT "notification_preferences_mandatory_email" CHECK ((NOT (email_off && ARRAY['training-overdue'::text, 'certificate-expiring'::text, 'certificate-expired'::text]))),
  "user_id"    uuid                     NOT NULL DEFAULT auth.uid(),
  CONSTRAINT "notification_preferences_pkey" PRIMARY KEY (user_id)
);

ALTER TABLE "public"."notification_preferences"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."notifications" (
  "id"                    uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "recipient_id"          uuid                     NOT NULL,
  "kind"                  text                     NOT NULL,
  "person_id"             uuid,
  "course_id"             uuid,
  "subject_id"            uuid,
  "occasion"              date                     NOT NULL,
  "threshold"             integer                  NOT NULL DEFAULT 0,
  "cycle"                 integer                  NOT NULL DEFAULT 0,
  "title"                 text                     NOT NULL,
  "body"                  text                     NOT NULL DEFAULT ''::text,
  "data"                  jsonb                    NOT NULL DEFAULT '{}'::jsonb,
  "link_path"             text,
  "created_at"            timestamp with time zone NOT NULL DEFAULT now(),
  "read_at"               timestamp with time zone,
  "email_status"          text                     NOT NULL DEFAULT 'queued'::text,
  "email_attempts"        integer                  NOT NULL DEFAULT 0,
  "email_next_attempt_at" timestamp with time zone,
  "email_last_error"      text,
  "email_sent_at"         timestamp with time zone,
  CONSTRAINT "notifications_email_attempts_range" CHECK ((email_attempts >= 0)),
  CONSTRAINT "notifications_email_status_known" CHECK ((email_status = ANY (ARRAY['queued'::text, 'sent'::text, 'failed'::text, 'skipped'::text]))),
  CONSTRAINT "notifications_kind_known"
    CHECK
    ((kind = ANY (ARRAY['training-assigned'::text, 'training-due-soon'::text, 'training-overdue'::text, 'manager-escalation'::text, 'certificate-expiring'::text,
    'certificate-expired'::text, 'certificate-issued'::text, 'enrolment-approved'::text, 'enrolment-declined'::text]))),
  CONSTRAINT "notifications_link_path_shape" CHECK (((link_path IS NULL) OR (link_path ~ '^/[^/]'::text))),
  CONSTRAINT "notifications_once" UNIQUE NULLS NOT DISTINCT (recipient_id, kind, person_id, course_id, subject_id, occasion, threshold, CYCLE),
  CONSTRAINT "notifications_pkey" PRIMARY KEY (id)
);

ALTER TABLE "public"."notifications"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION private.decide_notifications (
  p_now timestamp with time zone
)
  RETURNS integer
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
      -- A rule scoped to an organisation or a unit (its subtree): read through to_jsonb so that this
      -- holds both before and after required_training gains organisation_id and unit_id (issue 18's
      -- rules work); once it has them, these two lines become plain column tests.
      and ((to_jsonb(r) ->> 'organisation_id') is null
           or p.organisation_id = (to_jsonb(r) ->> 'organisation_id')::uuid)
      and ((to_jsonb(r) ->> 'unit_id') is null
           or p.unit_id in (select private.unit_subtree((to_jsonb(r) ->> 'unit_id')::uuid)))
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
$function$;

CREATE OR REPLACE FUNCTION private.mandatory_notification_kinds()
  RETURNS text[]
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$ select array['training-overdue', 'certificate-expiring', 'certificate-expired']::text[] $function$;

CREATE OR REPLACE FUNCTION private.notice_date (
  p_at timestamp with time zone
)
  RETURNS text
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$ select to_char(p_at at time zone 'Europe/London', 'FMDD FMMonth YYYY') $function$;

CREATE OR REPLACE FUNCTION private.record_enrolment_decision()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

ALTER TABLE "private"."enrolment_decisions"
  ADD CONSTRAINT "enrolment_decisions_course_id_fkey" FOREIGN KEY (course_id) REFERENCES public.courses(id) ON DELETE CASCADE;

ALTER TABLE "private"."enrolment_decisions"
  ADD CONSTRAINT "enrolment_decisions_user_id_fkey" FOREIGN KEY (user_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

ALTER TABLE "public"."notifications"
  ADD CONSTRAINT "notifications_course_id_fkey" FOREIGN KEY (course_id) REFERENCES public.courses(id) ON DELETE CASCADE;

ALTER TABLE "public"."notifications"
  ADD CONSTRAINT "notifications_person_id_fkey" FOREIGN KEY (person_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

ALTER TABLE "public"."notifications"
  ADD CONSTRAINT "notifications_recipient_id_fkey" FOREIGN KEY (recipient_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

CREATE INDEX enrolment_decisions_course_idx ON private.enrolment_decisions USING btree (course_id);

CREATE INDEX enrolment_decisions_decided_idx ON private.enrolment_decisions USING btree (decided_at);

CREATE INDEX enrolment_decisions_user_idx ON private.enrolment_decisions USING btree (user_id);

CREATE INDEX certificates_live_expiry_idx ON public.certificates USING btree (expires_at)
  WHERE ((revoked_at IS NULL) AND (expires_at IS NOT NULL));

CREATE INDEX notifications_course_idx ON public.notifications USING btree (course_id)
  WHERE (course_id IS NOT NULL);

CREATE INDEX notifications_email_queue_idx ON public.notifications USING btree (email_next_attempt_at NULLS FIRST, created_at)
  WHERE (email_status = 'queued'::text);

CREATE INDEX notifications_person_idx ON public.notifications USING btree (person_id)
  WHERE (person_id IS NOT NULL);

CREATE INDEX notifications_recipient_created_idx ON public.notifications USING btree (recipient_id, created_at DESC, id DESC);

CREATE INDEX notifications_recipient_unread_idx ON public.notifications USING btree (recipient_id)
  WHERE (read_at IS NULL);

CREATE TRIGGER enrollments_record_decision
  AFTER DELETE OR UPDATE OF status ON public.enrollments
  FOR EACH ROW
  EXECUTE FUNCTION private.record_enrolment_decision();

CREATE TRIGGER notification_preferences_set_updated_at
  BEFORE UPDATE ON public.notification_preferences
  FOR EACH ROW
  EXECUTE FUNCTION private.set_updated_at();

CREATE POLICY "people mark their own notices read" ON "public"."notifications"
  FOR UPDATE
  TO "authenticated"
  USING ((recipient_id = ( SELECT auth.uid() AS uid)))
  WITH CHECK ((recipient_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "people read their own notices" ON "public"."notifications"
  FOR SELECT
  TO "authenticated"
  USING ((recipient_id = ( SELECT auth.uid() AS uid)));

COMMENT ON COLUMN "public"."notification_preferences"."email_off" IS 'Kinds for which the person wants no email (the bell still shows them). Overdue and expiry kinds cannot be listed.';

COMMENT ON COLUMN "public"."notification_preferences"."language" IS 'Language of notices and emails: en-GB for now (the column exists so Welsh can follow).';

COMMENT ON COLUMN "public"."notifications"."cycle" IS 'For overdue notices, whole weeks since the due date (one notice a week); 0 otherwise.';

COMMENT ON COLUMN "public"."notifications"."data" IS 'The facts the text was made from (course title, dates, name), for emails and other languages.';

COMMENT ON COLUMN "public"."notifications"."email_status" IS 'queued (to send) | sent | failed (retries spent) | skipped (switched off by the person, or no address). Delivery is not built yet.';

COMMENT ON COLUMN "public"."notifications"."kind" IS 'What it is: training-assigned | training-due-soon | training-overdue | manager-escalation | certificate-expiring | certificate-expired | certificate-issued | enrolment-approved | enrolment-declined.';

COMMENT ON COLUMN "public"."notifications"."link_path" IS 'The app path of the thing the notice is about (a course, a certificate''s verification, the team).';

COMMENT ON COLUMN "public"."notifications"."occasion" IS 'The date the notice is about: the due date, the expiry date, the issue or decision date.';

COMMENT ON COLUMN "public"."notifications"."person_id" IS 'The person the notice is about (the recipient, or the report for a manager''s escalation).';

COMMENT ON COLUMN "public"."notifications"."read_at" IS 'When the recipient marked it read; the only column they may change.';

COMMENT ON COLUMN "public"."notifications"."recipient_id" IS 'Who gets the notice (the learner, or their line manager for an escalation).';

COMMENT ON COLUMN "public"."notifications"."subject_id" IS 'The certificate or enrolment the notice is about, when there is one.';

COMMENT ON COLUMN "public"."notifications"."threshold" IS 'Days before (due soon, expiring) or after (escalation) the occasion that the notice marks; 0 otherwise.';

COMMENT ON COLUMN "public"."notifications"."title" IS 'The notice''s one-line text in the person''s language (en-GB).';

COMMENT ON FUNCTION "private"."decide_notifications"(timestamp with time zone) IS 'Writes every notice due at p_now (learners: assigned, due soon 14/3 days, overdue weekly, certificate expiring 60/30/7 days and expired, certificate issued, enrolment approved/declined; line managers: a report 7 days overdue), once each (unique key, on conflict do nothing). Deactivated people get nothing. Returns how many it wrote. Run by the scheduler, not by API callers.';

COMMENT ON FUNCTION "private"."mandatory_notification_kinds"() IS 'Notification kinds whose email cannot be switched off: overdue and expiry.';

COMMENT ON FUNCTION "private"."notice_date"(timestamp with time zone) IS 'A time as the London calendar date of notices, e.g. 22 November 2026.';

COMMENT ON FUNCTION "private"."record_enrolment_decision"() IS 'After update/delete of enrollments: records an approval (PENDING -> ACTIVE) or a decline (a pending enrolment removed by someone else) for private.decide_notifications.';

COMMENT ON TABLE "private"."enrolment_decisions" IS 'Approvals and declines of pending enrolments (written by triggers on enrollments), read by private.decide_notifications.';

COMMENT ON TABLE "public"."notification_preferences" IS 'A person''s notification choices (no row = defaults: every email on, en-GB). Read and changed only by the person.';

COMMENT ON TABLE "public"."notifications" IS 'A notice to one person (bell and email outbox), written only by private.decide_notifications; unique per recipient, kind, subject, occasion, threshold and cycle.';

REVOKE ALL ON FUNCTION "private"."decide_notifications"(timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."decide_notifications"(timestamp WITH time zone) TO "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."mandatory_notification_kinds"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."mandatory_notification_kinds"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."notice_date"(timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."notice_date"(timestamp WITH time zone) TO "postgres";

REVOKE ALL ON FUNCTION "private"."record_enrolment_decision"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."record_enrolment_decision"() TO "postgres";

-- Table privileges, in the order that keeps them (pg-delta lists a table's REVOKE ALL after its
-- column grants, which it would take away), and none for anon whatever the server's defaults.
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

ALTER TABLE "public"."notification_preferences"
  ADD CONSTRAINT "notification_preferences_user_id_fkey" FOREIGN KEY (user_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

CREATE POLICY "people add their own preferences" ON "public"."notification_preferences"
  FOR INSERT
  TO "authenticated"
  WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "people change their own preferences" ON "public"."notification_preferences"
  FOR UPDATE
  TO "authenticated"
  USING ((user_id = ( SELECT auth.uid() AS uid)))
  WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "people read their own preferences" ON "public"."notification_preferences"
  FOR SELECT
  TO "authenticated"
  USING ((user_id = ( SELECT auth.uid() AS uid)));
