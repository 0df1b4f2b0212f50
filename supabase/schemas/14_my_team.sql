-- A line manager's "My team": their active reports, direct and down the chain, with each report's
-- required-training status counts, certificates expiring within 60 days and last activity, one
-- report's record (never their CPD), and the page in one statement (private.team_page). Security
-- definer, because a manager may not read their reports' quiz attempts; each function starts from
-- private.managed_person_ids(), so it returns nothing outside the caller's reports. Statuses are read
-- from the organisation's kept per-person counts (20_compliance_summary_counts.sql); one report's
-- drill-down runs private.required_training_status. Deactivated people are left out, as in
-- compliance. Beside the training: each report's upcoming classroom sessions and where their
-- practical assessments stand (private.upcoming_session_bookings, private.practical_states in
-- 27_maintenance_of_competence.sql). Why: docs/decisions/my-team-from-the-manager-chain.md,
-- docs/decisions/maintenance-of-competence.md.

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- The caller's reports that are active, with unit and whether they report to the caller directly.
create function private.team_reports()
returns table(
  user_id uuid,
  username text,
  name text,
  unit_id uuid,
  unit_name text,
  direct boolean
)
language plpgsql stable security definer rows 40
set search_path = ''
as $$
begin
  return query
    select p.id, p.username, p.name, u.id, u.name, p.manager_id is not distinct from (select auth.uid())
    from private.managed_person_ids() m(id)
    join public.profiles p on p.id = m.id
    left join public.units u on u.id = p.unit_id
    where p.deactivated_at is null;
end;
$$;
comment on function private.team_reports() is
  'The caller''s active reports (direct and down the manager chain) with their unit and whether they report directly.';
revoke all on function private.team_reports() from public;
grant execute on function private.team_reports() to authenticated, service_role;

-- Each given person's required courses counted by status, as THE status rule gives them: read from
-- the counts kept for the caller's organisation (private.compliance_person_counts, computed again
-- first when out of date, as the kept compliance summary is: 20_compliance_summary_counts.sql), as
-- every report is of their manager's organisation (13_organisations.sql). Running the rule on each
-- request cost about 17 ms of Postgres CPU a page, mostly planning it (docs/PERFORMANCE.md). In a
-- transaction of one snapshot (not read committed) nothing can be kept, so the rule runs for the
-- organisation. Not granted: only team_summary and team_members call it, with the caller's reports.
create function private.team_status_counts(p_people uuid[])
returns table(
  user_id uuid,
  overdue integer,
  due_soon integer,
  in_progress integer,
  done integer
)
language plpgsql volatile security definer rows 40
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
declare
  v_organisation uuid := private.current_organisation_id();
begin
  if v_organisation is null or cardinality(p_people) = 0 then
    return;
  end if;
  if current_setting('transaction_isolation') <> 'read committed' then
    return query
      select st.user_id,
             (count(*) filter (where st.status = 'overdue'))::integer,
             (count(*) filter (where st.status = 'due-soon'))::integer,
             (count(*) filter (where st.status = 'in-progress'))::integer,
             (count(*) filter (where st.status in ('done', 'recognised')))::integer
      from private.required_training_states(null, null, null, null, v_organisation, null) st
      where st.user_id = any (p_people)
      group by st.user_id;
    return;
  end if;
  if not private.compliance_summary_is_current(v_organisation) then
    perform private.refresh_compliance_summary(v_organisation);
  end if;
  return query
    select k.user_id, k.overdue, k.due_soon, k.in_progress, k.done
    from private.compliance_person_counts k
    where k.organisation_id = v_organisation and k.user_id = any (p_people);
end;
$$;
comment on function private.team_status_counts(uuid[]) is
  'For team_summary and team_members: per given person of the caller''s organisation with required training, how many courses are overdue, due soon, in progress, done or recognised (the kept counts of THE status rule, refreshed first when out of date).';
revoke all on function private.team_status_counts(uuid[]) from public;

-- The whole "My team" page in one statement, from one walk of the manager chain: a first row (no
-- user_id) with the team in figures and its units, then the page of reports. The three statements
-- it replaced walked the chain once each (about 0.9 ms each at national size: docs/PERFORMANCE.md).
create function private.team_page(
  p_unit_id uuid default null,
  p_status text default null,
  p_search text default null,
  p_limit integer default 20,
  p_offset integer default 0
)
returns table(
  user_id uuid,
  username text,
  name text,
  unit_id uuid,
  unit_name text,
  direct boolean,
  overdue integer,
  due_soon integer,
  in_progress integer,
  done integer,
  expiring_certificates integer,
  next_expiry timestamp with time zone,
  last_activity_at timestamp with time zone,
  sessions_booked integer,
  next_session jsonb,
  practicals_due integer,
  practicals_overdue integer,
  practicals_awaiting integer,
  next_practical_due timestamp with time zone,
  practicals_overdue_since timestamp with time zone,
  total bigint,
  team_people bigint,
  team_direct bigint,
  team_overdue bigint,
  team_due_soon bigint,
  team_expiring bigint,
  team_sessions_booked bigint,
  team_practicals_due bigint,
  team_practicals_overdue bigint,
  team_units jsonb
)
language plpgsql volatile security definer
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
declare
  v_search text := nullif(lower(btrim(coalesce(p_search, ''))), '');
  v_limit integer := least(greatest(coalesce(p_limit, 20), 0), 100000);
  v_offset integer := greatest(coalesce(p_offset, 0), 0);
begin
  if p_status is not null and p_status not in ('overdue', 'due-soon', 'in-progress', 'done') then
    raise exception 'Status must be overdue, due-soon, in-progress or done' using errcode = '22023';
  end if;
  return query
  with team as materialized (
    select r.* from private.team_reports() r
  ),
  -- every report's counts (kept: one lookup each), for the figures and the filter alike
  counted as materialized (
    select k.* from private.team_status_counts(array(select t.user_id from team t)) k
  ),
  -- every report's practicals and upcoming bookings, each in one statement over the team
  practicals as materialized (
    select pr.* from private.practical_states(array(select t.user_id from team t), now()) pr
  ),
  bookings as materialized (
    select b.* from private.upcoming_session_bookings(array(select t.user_id from team t), now()) b
  ),
  judged as (
    select t.*, coalesce(k.overdue, 0) as overdue, coalesce(k.due_soon, 0) as due_soon,
           coalesce(k.in_progress, 0) as in_progress, coalesce(k.done, 0) as done,
           count(*) over () as total
    from team t
    left join counted k on k.user_id = t.user_id
    where (p_unit_id is null or t.unit_id in (select private.unit_subtree(p_unit_id)))
      and (v_search is null or strpos(lower(t.name), v_search) > 0 or strpos(lower(t.username), v_search) > 0)
      and (p_status is null
           or case p_status when 'overdue' then k.overdue when 'due-soon' then k.due_soon
                            when 'in-progress' then k.in_progress else k.done end > 0)
  ),
  paged as (
    select j.* from judged j
    order by j.unit_name nulls last, j.unit_id, j.name, j.user_id
    limit v_limit offset v_offset
  )
  select null::uuid, null::text, null::text, null::uuid, null::text, null::boolean,
         null::integer, null::integer, null::integer, null::integer, null::integer,
         null::timestamptz, null::timestamptz,
         null::integer, null::jsonb, null::integer, null::integer, null::integer, null::timestamptz, null::timestamptz,
         null::bigint,
         count(*), count(*) filter (where t.direct),
         count(*) filter (where k.overdue > 0),
         count(*) filter (where k.due_soon > 0),
         count(*) filter (where exists (
           select 1 from public.certificates c
           where c.user_id = t.user_id and c.revoked_at is null
             and c.expires_at > now() and c.expires_at <= now() + interval '60 days'
             and not exists (select 1 from public.certificates n
                             where n.user_id = c.user_id and n.course_id = c.course_id
                               and n.revoked_at is null and n.issued_at > c.issued_at))),
         count(*) filter (where exists (select 1 from bookings b where b.user_id = t.user_id and b.status = 'booked')),
         count(*) filter (where exists (select 1 from practicals pr where pr.user_id = t.user_id and pr.state = 'due')),
         count(*) filter (where exists (select 1 from practicals pr where pr.user_id = t.user_id and pr.state = 'overdue')),
         (select coalesce(jsonb_agg(jsonb_build_object('id', u.unit_id, 'name', u.unit_name) order by u.unit_name, u.unit_id), '[]')
          from (select distinct t2.unit_id, t2.unit_name from team t2 where t2.unit_id is not null) u)
  from team t
  left join counted k on k.user_id = t.user_id
  union all
  (select pg.user_id, pg.username, pg.name, pg.unit_id, pg.unit_name, pg.direct,
         pg.overdue, pg.due_soon, pg.in_progress, pg.done,
         coalesce(cert.expiring, 0)::integer, cert.next_expiry,
         greatest(
           (select max(ump.updated_at) from public.user_module_progress ump where ump.user_id = pg.user_id),
           (select max(coalesce(qa.completed_at, qa.started_at)) from public.quiz_attempts qa
            where qa.user_id = pg.user_id),
           (select max(greatest(e.created_at, e.started_at, e.completed_at)) from public.enrollments e
            where e.user_id = pg.user_id)
         ),
         coalesce(ses.booked, 0)::integer, ses.next_session,
         coalesce(pra.due, 0)::integer, coalesce(pra.overdue, 0)::integer, coalesce(pra.awaiting, 0)::integer,
         pra.next_due, pra.overdue_since,
         pg.total, null::bigint, null::bigint, null::bigint, null::bigint, null::bigint,
         null::bigint, null::bigint, null::bigint, null::jsonb
  from paged pg
  left join lateral (
    select count(*) filter (where b.status = 'booked') as booked,
           (select jsonb_build_object(
                     'bookingId', n.booking_id, 'sessionId', n.session_id, 'courseId', n.course_id,
                     'courseTitle', n.course_title, 'courseTitleCy', n.course_title_cy, 'moduleId', n.module_id,
                     'moduleTitle', n.module_title, 'moduleTitleCy', n.module_title_cy,
                     'startsAt', n.starts_at, 'endsAt', n.ends_at, 'status', n.status)
            from bookings n where n.user_id = pg.user_id
            order by n.starts_at, n.booking_id limit 1) as next_session
    from bookings b
    where b.user_id = pg.user_id
  ) ses on true
  left join lateral (
    select count(*) filter (where pr.state = 'due') as due,
           count(*) filter (where pr.state = 'overdue') as overdue,
           count(*) filter (where pr.state = 'awaiting-sign-off') as awaiting,
           min(pr.valid_until) filter (where pr.state = 'due') as next_due,
           min(pr.valid_until) filter (where pr.state = 'overdue') as overdue_since
    from practicals pr
    where pr.user_id = pg.user_id
  ) pra on true
  left join lateral (
    -- The current (latest, unrevoked) certificate of each course, when it expires within 60 days.
    select count(*) as expiring, min(cur.expires_at) as next_expiry
    from (
      select distinct on (c.course_id) c.expires_at
      from public.certificates c
      where c.user_id = pg.user_id and c.revoked_at is null
      order by c.course_id, c.issued_at desc
    ) cur
    where cur.expires_at > now() and cur.expires_at <= now() + interval '60 days'
  ) cert on true
  order by pg.unit_name nulls last, pg.unit_id, pg.name, pg.user_id);
end;
$$;
comment on function private.team_page(uuid,text,text,integer,integer) is
  'The caller''s "My team" page in one statement: a first row without user_id holding the team in figures (people, direct, with something overdue, due soon, a certificate expiring within 60 days, an upcoming session booked, a practical due, a practical overdue) and its units; then the reports (as private.team_members), filtered and paged, with the total.';
revoke all on function private.team_page(uuid,text,text,integer,integer) from public;
grant execute on function private.team_page(uuid,text,text,integer,integer) to authenticated, service_role;

create function private.team_summary()
returns table(
  people bigint,
  direct bigint,
  overdue bigint,
  due_soon bigint,
  expiring bigint,
  sessions_booked bigint,
  practicals_due bigint,
  practicals_overdue bigint
)
language sql volatile security definer
set search_path = ''
as $$
  select p.team_people, p.team_direct, p.team_overdue, p.team_due_soon, p.team_expiring,
         p.team_sessions_booked, p.team_practicals_due, p.team_practicals_overdue
  from private.team_page(null, null, null, 0, 0) p
  where p.user_id is null
$$;
comment on function private.team_summary() is
  'The caller''s team in figures: people, direct reports, people with something overdue, due soon, a certificate expiring within 60 days, an upcoming classroom session booked, a practical assessment due, one overdue.';
revoke all on function private.team_summary() from public;
grant execute on function private.team_summary() to authenticated, service_role;

create function private.team_members(
  p_unit_id uuid default null,
  p_status text default null,
  p_search text default null,
  p_limit integer default 20,
  p_offset integer default 0
)
returns table(
  user_id uuid,
  username text,
  name text,
  unit_id uuid,
  unit_name text,
  direct boolean,
  overdue integer,
  due_soon integer,
  in_progress integer,
  done integer,
  expiring_certificates integer,
  next_expiry timestamp with time zone,
  last_activity_at timestamp with time zone,
  sessions_booked integer,
  next_session jsonb,
  practicals_due integer,
  practicals_overdue integer,
  practicals_awaiting integer,
  next_practical_due timestamp with time zone,
  practicals_overdue_since timestamp with time zone,
  total bigint
)
language sql volatile security definer
set search_path = ''
as $$
  select p.user_id, p.username, p.name, p.unit_id, p.unit_name, p.direct, p.overdue, p.due_soon, p.in_progress,
         p.done, p.expiring_certificates, p.next_expiry, p.last_activity_at, p.sessions_booked, p.next_session,
         p.practicals_due, p.practicals_overdue, p.practicals_awaiting, p.next_practical_due, p.practicals_overdue_since,
         p.total
  from private.team_page(p_unit_id, p_status, p_search, p_limit, p_offset) p
  where p.user_id is not null
  order by p.unit_name nulls last, p.unit_id, p.name, p.user_id
$$;
comment on function private.team_members(uuid,text,text,integer,integer) is
  'The caller''s reports, grouped by unit: required-training counts by status, certificates expiring within 60 days (count, soonest), last activity, upcoming sessions booked and the next one, practical assessments due, overdue and awaiting sign-off (soonest due, earliest lapsed); filters unit (with sub-units), status (has a course in it), search (name or username); paged, with the total.';
revoke all on function private.team_members(uuid,text,text,integer,integer) from public;
grant execute on function private.team_members(uuid,text,text,integer,integer) to authenticated, service_role;

create function private.team_member_record(p_person uuid)
returns table(
  user_id uuid,
  username text,
  name text,
  unit_id uuid,
  unit_name text,
  direct boolean,
  required jsonb,
  completions jsonb,
  certificates jsonb,
  sessions jsonb,
  practicals jsonb
)
language plpgsql stable security definer
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
begin
  return query
  select r.user_id, r.username, r.name, r.unit_id, r.unit_name, r.direct,
         coalesce((
           select jsonb_agg(jsonb_build_object(
                    'courseId', st.course_id, 'courseTitle', st.course_title, 'status', st.status,
                    'dueAt', st.due_at, 'progress', st.progress,
                    'recognised', case when st.recognition_source is not null then jsonb_build_object(
                      'source', st.recognition_source, 'issuerName', st.recognised_issuer,
                      'achievementName', st.recognised_achievement, 'validUntil', st.certificate_expires_at) end)
                  order by private.required_training_status_rank(st.status), st.due_at nulls last, st.course_title)
           from private.required_training_status(r.user_id) st
         ), '[]'::jsonb),
         coalesce((
           select jsonb_agg(jsonb_build_object(
                    'courseId', e.course_id, 'courseTitle', c.title, 'completedAt', e.completed_at)
                  order by e.completed_at desc, c.title)
           from public.enrollments e
           join public.courses c on c.id = e.course_id
           where e.user_id = r.user_id and e.completed
         ), '[]'::jsonb),
         coalesce((
           select jsonb_agg(jsonb_build_object(
                    'id', ct.id, 'courseId', ct.course_id, 'courseTitle', ct.course_title,
                    'issuedAt', ct.issued_at, 'expiresAt', ct.expires_at,
                    'state', private.certificate_state(ct.expires_at, ct.revoked_at))
                  order by ct.issued_at desc, ct.id)
           from public.certificates ct
           where ct.user_id = r.user_id
         ), '[]'::jsonb),
         coalesce((
           select jsonb_agg(jsonb_build_object(
                    'bookingId', b.booking_id, 'sessionId', b.session_id, 'courseId', b.course_id,
                    'courseTitle', b.course_title, 'courseTitleCy', b.course_title_cy, 'moduleId', b.module_id,
                    'moduleTitle', b.module_title, 'moduleTitleCy', b.module_title_cy, 'startsAt', b.starts_at,
                    'endsAt', b.ends_at, 'venueName', b.venue_name, 'online', b.online, 'status', b.status,
                    'offeredUntil', b.offered_until)
                  order by b.starts_at, b.booking_id)
           from private.upcoming_session_bookings(array[r.user_id], now()) b
         ), '[]'::jsonb),
         coalesce((
           select jsonb_agg(jsonb_build_object(
                    'courseId', pr.course_id, 'courseTitle', pr.course_title, 'courseTitleCy', pr.course_title_cy,
                    'moduleId', pr.module_id, 'moduleTitle', pr.module_title, 'moduleTitleCy', pr.module_title_cy,
                    'validMonths', pr.valid_months, 'signedOffAt', pr.signed_off_at, 'validUntil', pr.valid_until,
                    'state', pr.state)
                  order by private.practical_state_rank(pr.state), pr.valid_until nulls first, pr.course_title, pr.module_id)
           from private.practical_states(array[r.user_id], now()) pr
         ), '[]'::jsonb)
  from private.team_reports() r
  where r.user_id = p_person;
end;
$$;
comment on function private.team_member_record(uuid) is
  'One of the caller''s reports: their required training (status, due date), completions, certificates, upcoming classroom sessions and practical assessments (last sign-off, valid until, state); no row for anyone else. Never their CPD.';
revoke all on function private.team_member_record(uuid) from public;
grant execute on function private.team_member_record(uuid) to authenticated, service_role;
