-- Maintenance of competence: one record a line manager (and an organisation's administrator) reads
-- at a glance, joining the classroom sessions a person has booked (25_classroom_sessions.sql) and
-- where their practical assessments stand (26_practical_assessments.sql) to their required training
-- (14_my_team.sql, 07_mandatory_training_and_compliance.sql). Design:
-- docs/decisions/maintenance-of-competence.md.
--
-- * private.practical_states: per person and practical assessment module of a published course they
--   are enrolled on, the last sign-off (any enrolment cycle: a practical stays valid while a renewal
--   is under way), its end of validity (sign-off + assessment_settings.valid_months) and the state:
--   valid | due (validity ends within 60 days: a certificate's "expiring" window, which is also
--   when recertification opens, private.certificate_state and private.start_recertification) |
--   overdue (validity ended, or never signed off) | awaiting-sign-off (no valid sign-off, and a
--   draft record or a competent one waiting for its countersignature).
-- * private.upcoming_session_bookings: per person, their live bookings (booked, requested, waiting,
--   offered) of dates not yet over and not cancelled.
-- Both take the people and the time (tests pass theirs), run as one statement over the given people
-- (no query per person) and are granted to no API role: the team and compliance functions call them
-- with the people the caller may see.

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.practical_states(p_people uuid[], p_now timestamptz)
returns table(
  user_id uuid,
  course_id uuid,
  course_title text,
  course_title_cy text,
  module_id uuid,
  module_title text,
  module_title_cy text,
  valid_months integer,
  signed_off_at timestamp with time zone,
  valid_until timestamp with time zone,
  state text
)
language plpgsql stable security definer rows 40
set search_path = ''
set jit = off
as $$
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
$$;
comment on function private.practical_states(uuid[],timestamptz) is
  'Internal (team and compliance functions): per given person and practical assessment module of a published course they are enrolled on, at p_now: the last competent sign-off (any cycle), valid until (+ valid_months), state valid | due (ends within 60 days) | overdue (ended or never signed off) | awaiting-sign-off.';
revoke all on function private.practical_states(uuid[],timestamptz) from public;

-- A practical state's sort order: the most urgent first.
create function private.practical_state_rank(p_state text)
returns integer
language sql immutable
set search_path = ''
as $$
  select case p_state when 'overdue' then 1 when 'due' then 2 when 'awaiting-sign-off' then 3 else 4 end
$$;
comment on function private.practical_state_rank(text) is
  'Sort order of practical states: overdue, due, awaiting-sign-off, valid.';
revoke all on function private.practical_state_rank(text) from public;
grant execute on function private.practical_state_rank(text) to authenticated, service_role;

create function private.upcoming_session_bookings(p_people uuid[], p_now timestamptz)
returns table(
  user_id uuid,
  booking_id uuid,
  session_id uuid,
  course_id uuid,
  course_title text,
  course_title_cy text,
  module_id uuid,
  module_title text,
  module_title_cy text,
  starts_at timestamp with time zone,
  ends_at timestamp with time zone,
  venue_name text,
  online boolean,
  status text,
  offered_until timestamp with time zone
)
language plpgsql stable security definer rows 20
set search_path = ''
set jit = off
as $$
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
$$;
comment on function private.upcoming_session_bookings(uuid[],timestamptz) is
  'Internal (team functions): the given people''s live bookings (booked, requested, waiting, offered) of session dates not cancelled and not over at p_now.';
revoke all on function private.upcoming_session_bookings(uuid[],timestamptz) from public;

-- Practicals in compliance by group, as private.compliance_units groups: national administrators
-- one group per organisation; within an organisation its top-level units (or the units below
-- p_unit_id, and p_unit_id itself for its own people); group null: people of no organisation / unit.
create function private.compliance_practicals(p_organisation_id uuid default null, p_unit_id uuid default null)
returns table(
  organisation_id uuid,
  unit_id uuid,
  name text,
  has_units boolean,
  people bigint,
  practicals bigint,
  valid bigint,
  due bigint,
  overdue bigint,
  awaiting bigint
)
language plpgsql volatile security definer
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
declare
  v_organisation uuid := private.compliance_scope(p_organisation_id, p_unit_id, 'Only administrators can see practical assessments in compliance');
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
$$;
comment on function private.compliance_practicals(uuid,uuid) is
  'National and organisation administrators: per group (organisation; or top-level unit; or unit below the given one) the people with practical assessments and their practicals valid, due (within 60 days), overdue and awaiting sign-off.';
revoke all on function private.compliance_practicals(uuid,uuid) from public;
grant execute on function private.compliance_practicals(uuid,uuid) to authenticated, service_role;

-- The people behind those figures: one row per person and practical, most urgent first, paged.
create function private.compliance_practical_people(
  p_organisation_id uuid default null,
  p_unit_id uuid default null,
  p_state text default null,
  p_limit integer default 20,
  p_offset integer default 0
)
returns table(
  user_id uuid,
  username text,
  name text,
  unit_name text,
  course_id uuid,
  course_title text,
  course_title_cy text,
  module_id uuid,
  module_title text,
  module_title_cy text,
  signed_off_at timestamp with time zone,
  valid_until timestamp with time zone,
  state text,
  total bigint
)
language plpgsql volatile security definer
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
declare
  v_organisation uuid;
begin
  if p_state is not null and p_state not in ('overdue', 'due', 'awaiting-sign-off', 'valid') then
    raise exception 'State must be overdue, due, awaiting-sign-off or valid' using errcode = '22023';
  end if;
  v_organisation := private.compliance_scope(p_organisation_id, p_unit_id, 'Only administrators can see practical assessments in compliance');
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
$$;
comment on function private.compliance_practical_people(uuid,uuid,text,integer,integer) is
  'National and organisation administrators: per person and practical assessment of their scope (organisation, unit with its sub-units), the last sign-off, valid until and state, most urgent first, paged with the total; 22023 unknown state.';
revoke all on function private.compliance_practical_people(uuid,uuid,text,integer,integer) from public;
grant execute on function private.compliance_practical_people(uuid,uuid,text,integer,integer) to authenticated, service_role;
