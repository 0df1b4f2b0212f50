-- maintenance_of_competence: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."team_member_record"(uuid);

DROP FUNCTION "private"."team_members"(uuid, text, text, integer, integer);

DROP FUNCTION "private"."team_page"(uuid, text, text, integer, integer);

DROP FUNCTION "private"."team_summary"();

CREATE OR REPLACE FUNCTION private.compliance_practical_people (
  p_organisation_id uuid    DEFAULT NULL::uuid,
  p_unit_id         uuid    DEFAULT NULL::uuid,
  p_state           text    DEFAULT NULL::text,
  p_limit           integer DEFAULT 20,
  p_offset          integer DEFAULT 0
)
  RETURNS TABLE (
    user_id         uuid,
    username        text,
    name            text,
    unit_name       text,
    course_id       uuid,
    course_title    text,
    course_title_cy text,
    module_id       uuid,
    module_title    text,
    module_title_cy text,
    signed_off_at   timestamp with time zone,
    valid_until     timestamp with time zone,
    state           text,
    total           bigint
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
#variable_conflict use_column
declare
  v_organisation uuid;
begin
  if p_state is not null and p_state not in ('overdue', 'due', 'awaiting-sign-off', 'valid') then
    raise exception 'State must be overdue, due, awaiting-sign-off or valid' using errcode = '22023';
  end if;
  v_organisation := private.compliance_practicals_organisation(p_organisation_id, p_unit_id);
  return query
    with people as materialized (
      select p.id, p.username, p.name, u.name as unit_name
      from public.profiles p
      left join public.units u on u.id = p.unit_id
      where p.deactivated_at is null
        and (v_organisation is null or p.organisation_id = v_organisation)
        and (p_unit_id is null or p.unit_id in (select private.unit_subtree(p_unit_id)))
    ),
    chosen as (
      select st.*, count(*) over () as total
      from private.practical_states(array(select pe.id from people pe), now()) st
      where p_state is null or st.state = p_state
    )
    select ch.user_id, pe.username, pe.name, pe.unit_name, ch.course_id, ch.course_title, ch.course_title_cy,
           ch.module_id, ch.module_title, ch.module_title_cy, ch.signed_off_at, ch.valid_until, ch.state, ch.total
    from chosen ch
    join people pe on pe.id = ch.user_id
    order by private.practical_state_rank(ch.state), ch.valid_until nulls first, pe.name, ch.user_id, ch.course_title, ch.module_id
    limit least(greatest(coalesce(p_limit, 20), 0), 100000) offset greatest(coalesce(p_offset, 0), 0);
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_practicals (
  p_organisation_id uuid DEFAULT NULL::uuid,
  p_unit_id         uuid DEFAULT NULL::uuid
)
  RETURNS TABLE (
    organisation_id uuid,
    unit_id         uuid,
    name            text,
    has_units       boolean,
    people          bigint,
    practicals      bigint,
    valid           bigint,
    due             bigint,
    overdue         bigint,
    awaiting        bigint
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
#variable_conflict use_column
declare
  v_organisation uuid := private.compliance_practicals_organisation(p_organisation_id, p_unit_id);
  v_now timestamptz := now();
begin
  if v_organisation is null then
    return query
      with st as materialized (
        select * from private.practical_states(array(
          select p.id from public.profiles p where p.deactivated_at is null), v_now)
      )
      select p.organisation_id, null::uuid, o.name,
             exists (select 1 from public.units u where u.organisation_id = p.organisation_id),
             count(distinct st.user_id), count(*),
             count(*) filter (where st.state = 'valid'), count(*) filter (where st.state = 'due'),
             count(*) filter (where st.state = 'overdue'), count(*) filter (where st.state = 'awaiting-sign-off')
      from st
      join public.profiles p on p.id = st.user_id
      left join public.organisations o on o.id = p.organisation_id
      group by p.organisation_id, o.name
      order by p.organisation_id is null, o.name, p.organisation_id;
    return;
  end if;
  return query
    with groups as (
      select ch.id as group_id, s.unit as unit_id
      from public.units ch
      cross join lateral private.unit_subtree(ch.id) s(unit)
      where ch.organisation_id = v_organisation and ch.parent_id is not distinct from p_unit_id
      union all
      select p_unit_id, p_unit_id where p_unit_id is not null
    ),
    placed as materialized (
      select p.id, g.group_id
      from public.profiles p
      left join groups g on g.unit_id = p.unit_id
      where p.organisation_id = v_organisation and p.deactivated_at is null
        and (p_unit_id is null or g.group_id is not null)
    ),
    st as materialized (
      select * from private.practical_states(array(select pl.id from placed pl), v_now)
    )
    select v_organisation, pl.group_id, u.name,
           pl.group_id is distinct from p_unit_id and exists (select 1 from public.units d where d.parent_id = pl.group_id),
           count(distinct st.user_id), count(*),
           count(*) filter (where st.state = 'valid'), count(*) filter (where st.state = 'due'),
           count(*) filter (where st.state = 'overdue'), count(*) filter (where st.state = 'awaiting-sign-off')
    from st
    join placed pl on pl.id = st.user_id
    left join public.units u on u.id = pl.group_id
    group by pl.group_id, u.name
    order by pl.group_id is not distinct from p_unit_id desc, pl.group_id is null, u.name, pl.group_id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_practicals_organisation (
  p_organisation_id uuid,
  p_unit_id         uuid
)
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_national boolean;
  v_organisation uuid;
begin
  perform private.require_compliance_viewer();
  v_national := private.is_admin();
  if not v_national and private.administered_organisation_id() is null then
    raise exception 'Only administrators can see practical assessments in compliance' using errcode = '42501';
  end if;
  v_organisation := private.compliance_organisation(p_organisation_id);
  if v_organisation is not null and not (v_national or v_organisation = private.administered_organisation_id())
     or v_organisation is not null and not exists (select 1 from public.organisations o where o.id = v_organisation) then
    raise exception 'Organisation not found' using errcode = 'P0002';
  end if;
  if p_unit_id is not null and not exists (
    select 1 from public.units u where u.id = p_unit_id and u.organisation_id = v_organisation
  ) then
    raise exception 'Unit not found' using errcode = 'P0002';
  end if;
  return v_organisation;
end;
$function$;

CREATE OR REPLACE FUNCTION private.practical_state_rank (
  p_state text
)
  RETURNS integer
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  select case p_state when 'overdue' then 1 when 'due' then 2 when 'awaiting-sign-off' then 3 else 4 end
$function$;

CREATE OR REPLACE FUNCTION private.practical_states (
  p_people uuid[],
  p_now    timestamp with time zone
)
  RETURNS TABLE (
    user_id         uuid,
    course_id       uuid,
    course_title    text,
    course_title_cy text,
    module_id       uuid,
    module_title    text,
    module_title_cy text,
    valid_months    integer,
    signed_off_at   timestamp with time zone,
    valid_until     timestamp with time zone,
    state           text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 40
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
#variable_conflict use_column
begin
  if p_people is null or cardinality(p_people) = 0 then
    return;
  end if;
  return query
    with wanted as (
      select e.user_id, c.id as course_id, c.title as course_title, c.title_cy as course_title_cy,
             m.id as module_id, m.title as module_title, m.title_cy as module_title_cy,
             coalesce(s.needs_verifier, false) as needs_verifier, s.valid_months
      from public.enrollments e
      join public.courses c on c.id = e.course_id and c.status = 'ACTIVE'
      join public.course_modules m on m.course_id = e.course_id and m.kind = 'assessment'
      left join public.assessment_settings s on s.module_id = m.id
      where e.user_id = any (p_people) and e.status = 'ACTIVE'
    ),
    signed as (
      select w.*, last.at as signed_off_at,
             last.at + make_interval(months => w.valid_months) as valid_until,
             exists (
               select 1 from public.assessment_records r
               where r.module_id = w.module_id and r.learner_id = w.user_id and r.superseded_at is null
                 and r.created_at <= p_now and (last.at is null or r.created_at > last.at)
                 and (r.signed_at is null or r.signed_at > p_now
                      or (r.outcome = 'competent' and w.needs_verifier and (r.verified_at is null or r.verified_at > p_now)))
             ) as awaiting
      from wanted w
      left join lateral (
        -- The latest competent sign-off by then: the countersignature's time when the module needs one.
        select max(case when w.needs_verifier then r.verified_at else r.signed_at end) as at
        from public.assessment_records r
        where r.module_id = w.module_id and r.learner_id = w.user_id and r.superseded_at is null
          and r.outcome = 'competent' and r.signed_at <= p_now
          and (not w.needs_verifier or r.verified_at <= p_now)
      ) last on true
    )
    select sg.user_id, sg.course_id, sg.course_title, sg.course_title_cy, sg.module_id, sg.module_title,
           sg.module_title_cy, sg.valid_months, sg.signed_off_at, sg.valid_until,
           case
             when sg.signed_off_at is not null and (sg.valid_until is null or sg.valid_until > p_now + interval '60 days')
               then 'valid'
             when sg.awaiting then 'awaiting-sign-off'
             when sg.signed_off_at is not null and sg.valid_until > p_now then 'due'
             else 'overdue'
           end
    from signed sg;
end;
$function$;

CREATE OR REPLACE FUNCTION private.team_member_record (
  p_person uuid
)
  RETURNS TABLE (
    user_id      uuid,
    username     text,
    name         text,
    unit_id      uuid,
    unit_name    text,
    direct       boolean,
    required     jsonb,
    completions  jsonb,
    certificates jsonb,
    sessions     jsonb,
    practicals   jsonb
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
#variable_conflict use_column
begin
  return query
  select r.user_id, r.username, r.name, r.unit_id, r.unit_name, r.direct,
         coalesce((
           select jsonb_agg(jsonb_build_object(
                    'courseId', st.course_id, 'courseTitle', st.course_title, 'status', st.status,
                    'dueAt', st.due_at, 'progress', st.progress)
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
$function$;

CREATE OR REPLACE FUNCTION private.team_members (
  p_unit_id uuid    DEFAULT NULL::uuid,
  p_status  text    DEFAULT NULL::text,
  p_search  text    DEFAULT NULL::text,
  p_limit   integer DEFAULT 20,
  p_offset  integer DEFAULT 0
)
  RETURNS TABLE (
    user_id                  uuid,
    username                 text,
    name                     text,
    unit_id                  uuid,
    unit_name                text,
    direct                   boolean,
    overdue                  integer,
    due_soon                 integer,
    in_progress              integer,
    done                     integer,
    expiring_certificates    integer,
    next_expiry              timestamp with time zone,
    last_activity_at         timestamp with time zone,
    sessions_booked          integer,
    next_session             jsonb,
    practicals_due           integer,
    practicals_overdue       integer,
    practicals_awaiting      integer,
    next_practical_due       timestamp with time zone,
    practicals_overdue_since timestamp with time zone,
    total                    bigint
  )
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select p.user_id, p.username, p.name, p.unit_id, p.unit_name, p.direct, p.overdue, p.due_soon, p.in_progress,
         p.done, p.expiring_certificates, p.next_expiry, p.last_activity_at, p.sessions_booked, p.next_session,
         p.practicals_due, p.practicals_overdue, p.practicals_awaiting, p.next_practical_due, p.practicals_overdue_since,
         p.total
  from private.team_page(p_unit_id, p_status, p_search, p_limit, p_offset) p
  where p.user_id is not null
  order by p.unit_name nulls last, p.unit_id, p.name, p.user_id
$function$;

CREATE OR REPLACE FUNCTION private.team_page (
  p_unit_id uuid    DEFAULT NULL::uuid,
  p_status  text    DEFAULT NULL::text,
  p_search  text    DEFAULT NULL::text,
  p_limit   integer DEFAULT 20,
  p_offset  integer DEFAULT 0
)
  RETURNS TABLE (
    user_id                  uuid,
    username                 text,
    name                     text,
    unit_id                  uuid,
    unit_name                text,
    direct                   boolean,
    overdue                  integer,
    due_soon                 integer,
    in_progress              integer,
    done                     integer,
    expiring_certificates    integer,
    next_expiry              timestamp with time zone,
    last_activity_at         timestamp with time zone,
    sessions_booked          integer,
    next_session             jsonb,
    practicals_due           integer,
    practicals_overdue       integer,
    practicals_awaiting      integer,
    next_practical_due       timestamp with time zone,
    practicals_overdue_since timestamp with time zone,
    total                    bigint,
    team_people              bigint,
    team_direct              bigint,
    team_overdue             bigint,
    team_due_soon            bigint,
    team_expiring            bigint,
    team_sessions_booked     bigint,
    team_practicals_due      bigint,
    team_practicals_overdue  bigint,
    team_units               jsonb
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.team_summary()
  RETURNS TABLE (
    people             bigint,
    direct             bigint,
    overdue            bigint,
    due_soon           bigint,
    expiring           bigint,
    sessions_booked    bigint,
    practicals_due     bigint,
    practicals_overdue bigint
  )
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select p.team_people, p.team_direct, p.team_overdue, p.team_due_soon, p.team_expiring,
         p.team_sessions_booked, p.team_practicals_due, p.team_practicals_overdue
  from private.team_page(null, null, null, 0, 0) p
  where p.user_id is null
$function$;

CREATE OR REPLACE FUNCTION private.upcoming_session_bookings (
  p_people uuid[],
  p_now    timestamp with time zone
)
  RETURNS TABLE (
    user_id         uuid,
    booking_id      uuid,
    session_id      uuid,
    course_id       uuid,
    course_title    text,
    course_title_cy text,
    module_id       uuid,
    module_title    text,
    module_title_cy text,
    starts_at       timestamp with time zone,
    ends_at         timestamp with time zone,
    venue_name      text,
    online          boolean,
    status          text,
    offered_until   timestamp with time zone
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 20
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
#variable_conflict use_column
begin
  if p_people is null or cardinality(p_people) = 0 then
    return;
  end if;
  return query
    select b.user_id, b.id, s.id, c.id, c.title, c.title_cy, m.id, m.title, m.title_cy, s.starts_at, s.ends_at,
           s.venue_name, s.online_url is not null, b.status, b.offered_until
    from public.session_bookings b
    join public.classroom_sessions s on s.id = b.session_id
    join public.course_modules m on m.id = b.module_id
    join public.courses c on c.id = s.course_id
    where b.user_id = any (p_people)
      and b.status in ('booked', 'requested', 'waiting', 'offered')
      and s.cancelled_at is null and s.ends_at > p_now;
end;
$function$;

COMMENT ON FUNCTION "private"."compliance_practical_people"(uuid, uuid, text, integer, integer) IS 'National and organisation administrators: per person and practical assessment of their scope (organisation, unit with its sub-units), the last sign-off, valid until and state, most urgent first, paged with the total; 22023 unknown state.';

COMMENT ON FUNCTION "private"."compliance_practicals"(uuid, uuid) IS 'National and organisation administrators: per group (organisation; or top-level unit; or unit below the given one) the people with practical assessments and their practicals valid, due (within 60 days), overdue and awaiting sign-off.';

COMMENT ON FUNCTION "private"."compliance_practicals_organisation"(uuid, uuid) IS 'The organisation a practicals view of compliance reads (null: national, all): administrators only (42501), their own organisation unless national (P0002 otherwise, and for a unit not of it).';

COMMENT ON FUNCTION "private"."practical_state_rank"(text) IS 'Sort order of practical states: overdue, due, awaiting-sign-off, valid.';

COMMENT ON FUNCTION "private"."practical_states"(uuid[], timestamp with time zone) IS 'Internal (team and compliance functions): per given person and practical assessment module of a published course they are enrolled on, at p_now: the last competent sign-off (any cycle), valid until (+ valid_months), state valid | due (ends within 60 days) | overdue (ended or never signed off) | awaiting-sign-off.';

COMMENT ON FUNCTION "private"."team_member_record"(uuid) IS 'One of the caller''s reports: their required training (status, due date), completions, certificates, upcoming classroom sessions and practical assessments (last sign-off, valid until, state); no row for anyone else. Never their CPD.';

COMMENT ON FUNCTION "private"."team_members"(uuid, text, text, integer, integer) IS 'The caller''s reports, grouped by unit: required-training counts by status, certificates expiring within 60 days (count, soonest), last activity, upcoming sessions booked and the next one, practical assessments due, overdue and awaiting sign-off (soonest due, earliest lapsed); filters unit (with sub-units), status (has a course in it), search (name or username); paged, with the total.';

COMMENT ON FUNCTION "private"."team_page"(uuid, text, text, integer, integer) IS 'The caller''s "My team" page in one statement: a first row without user_id holding the team in figures (people, direct, with something overdue, due soon, a certificate expiring within 60 days, an upcoming session booked, a practical due, a practical overdue) and its units; then the reports (as private.team_members), filtered and paged, with the total.';

COMMENT ON FUNCTION "private"."team_summary"() IS 'The caller''s team in figures: people, direct reports, people with something overdue, due soon, a certificate expiring within 60 days, an upcoming classroom session booked, a practical assessment due, one overdue.';

COMMENT ON FUNCTION "private"."upcoming_session_bookings"(uuid[], timestamp with time zone) IS 'Internal (team functions): the given people''s live bookings (booked, requested, waiting, offered) of session dates not cancelled and not over at p_now.';

REVOKE ALL ON FUNCTION "private"."compliance_practical_people"(uuid, uuid, text, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_practical_people"(uuid, uuid, text, integer, integer) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."compliance_practicals"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_practicals"(uuid, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."compliance_practicals_organisation"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_practicals_organisation"(uuid, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."practical_state_rank"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."practical_state_rank"(text) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."practical_states"(uuid[], timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."practical_states"(uuid[], timestamp WITH time zone) TO "postgres";

REVOKE ALL ON FUNCTION "private"."team_member_record"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."team_member_record"(uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."team_members"(uuid, text, text, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."team_members"(uuid, text, text, integer, integer) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."team_page"(uuid, text, text, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."team_page"(uuid, text, text, integer, integer) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."team_summary"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."team_summary"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."upcoming_session_bookings"(uuid[], timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."upcoming_session_bookings"(uuid[], timestamp WITH time zone) TO "postgres";
