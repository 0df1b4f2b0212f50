-- recognised_notices: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

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
$function$;

CREATE OR REPLACE FUNCTION private.recognised_courses (
  p_now timestamp with time zone
)
  RETURNS TABLE (
    user_id   uuid,
    course_id uuid
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

COMMENT ON FUNCTION "private"."recognised_courses"(timestamp with time zone) IS 'Internal: per active person, the courses their recognised credentials satisfy at p_now (a verified upload, or a certificate earned here of an equivalent course), for private.decide_notifications.';

REVOKE ALL ON FUNCTION "private"."recognised_courses"(timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."recognised_courses"(timestamp WITH time zone) TO "postgres";
