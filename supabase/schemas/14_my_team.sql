-- A line manager's "My team" page (issue 18).
--
-- A manager is anyone with reports (profiles.manager_id), directly or down the chain
-- (private.managed_person_ids in 00_foundations_and_roles.sql). These functions give the caller,
-- and only the caller, their own reports:
-- * private.team_reports: the caller's active reports with unit and whether they report directly;
-- * private.team_status_counts: THE status rule over a set of people, counted per person;
-- * private.team_summary: how many people, how many with something overdue or due soon;
-- * private.team_members: each report with unit, required-training status counts, certificates
--   expiring within 60 days and the last activity, filtered and paged (and the CSV export);
-- * private.team_member_record: one report's required training, completions and certificates
--   (never their CPD entries or reflections), nothing at all for anyone else.
--
-- They are security definer because a manager may not read their reports' quiz attempts (the last
-- activity reads them); each starts from private.managed_person_ids(), so it returns nothing of
-- anyone outside the caller's reports. Statuses come from THE status rule
-- (private.required_training_states_query in 07_mandatory_training_and_compliance.sql), worked out
-- for all the people needed in one statement by private.team_status_counts: the whole team for the
-- summary, the page's people for the list unless a status filter needs every chosen person. Each
-- person, their enrolments and certificates are found by an index whose first column is the person
-- (profiles_manager_idx finds the reports). One status call per report cost about 3 ms of Postgres
-- CPU each (planning the rule for one person); the set-based call plans it once (docs/PERFORMANCE.md).
-- The drill-down (one person) still calls private.required_training_status for that person.
-- Deactivated people are left out, as in compliance.

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
language sql stable security definer rows 40
set search_path = ''
as $$
  select p.id, p.username, p.name, u.id, u.name, p.manager_id is not distinct from (select auth.uid())
  from private.managed_person_ids() m(id)
  join public.profiles p on p.id = m.id
  left join public.units u on u.id = p.unit_id
  where p.deactivated_at is null
$$;
comment on function private.team_reports() is
  'The caller''s active reports (direct and down the manager chain) with their unit and whether they report directly.';
revoke all on function private.team_reports() from public;
grant execute on function private.team_reports() to authenticated, service_role;

-- THE status rule (private.required_training_states_query in 07_mandatory_training_and_compliance.sql)
-- for a set of people in one statement, counted per person, planned once for the set rather than once
-- per person (about 3 ms each). Its one-person filters ($1) are rewritten: the person and their
-- certificates become "any of these people"; the enrolments' filter is dropped, as the join on person
-- and course finds each by its key (with "any of these people" there, each of its probes read every
-- listed person's enrolments of the course: 2.3 s for 331 people). The required courses of enrolments
-- and certificates are given as values ($7, every course of a rule; the joins keep only the rule's
-- own): computed inside the statement, the planner cannot tell that they have tens of thousands of
-- enrolments and read them all by course (110 ms for 19 people). Its own scope still applies (only
-- people the caller may see). Raises if the rule's text no longer has these filters.
create function private.team_status_counts(p_people uuid[])
returns table(
  user_id uuid,
  overdue integer,
  due_soon integer,
  in_progress integer,
  done integer
)
language plpgsql stable security definer rows 40
set search_path = ''
set work_mem = '64MB'
set enable_nestloop = on
set enable_mergejoin = on
set enable_sort = on
set jit = off
as $$
declare
  v_query text := private.required_training_states_query();
  v_rewrite text[];
begin
  foreach v_rewrite slice 1 in array array[
    ['($1::uuid is null or p.id = $1)', 'p.id = any ($1)'],
    ['($1::uuid is null or ct.user_id = $1)', 'ct.user_id = any ($1)'],
    ['($1::uuid is null or en.user_id = $1)', 'true'],
    ['ct.course_id = any ((select array_agg(r.course_id) from rules r)::uuid[])', 'ct.course_id = any ($7)'],
    ['en.course_id = any ((select array_agg(rc.course_id) from rules rc)::uuid[])', 'en.course_id = any ($7)']
  ] loop
    if strpos(v_query, v_rewrite[1]) = 0 then
      raise exception 'private.required_training_states_query() no longer reads %', v_rewrite[1];
    end if;
    v_query := replace(v_query, v_rewrite[1], v_rewrite[2]);
  end loop;
  return query execute v_query || $q$
    select st.user_id,
           (count(*) filter (where st.status = 'overdue'))::integer,
           (count(*) filter (where st.status = 'due-soon'))::integer,
           (count(*) filter (where st.status = 'in-progress'))::integer,
           (count(*) filter (where st.status = 'done'))::integer
    from statuses st
    group by st.user_id $q$
    using p_people, null::public.service_code, null::public.user_role, null::uuid, null::uuid, null::uuid,
          array(select distinct r.course_id from public.required_training r);
end;
$$;
comment on function private.team_status_counts(uuid[]) is
  'THE status rule over the given people (those the caller may see) in one statement: per person with required training, how many courses are overdue, due soon, in progress, done.';
revoke all on function private.team_status_counts(uuid[]) from public;
grant execute on function private.team_status_counts(uuid[]) to authenticated, service_role;

create function private.team_summary()
returns table(
  people bigint,
  direct bigint,
  overdue bigint,
  due_soon bigint,
  expiring bigint
)
language sql stable security definer
set search_path = ''
set jit = off
as $$
  with r as materialized (
    select t.user_id, t.direct from private.team_reports() t
  )
  select count(*),
         count(*) filter (where r.direct),
         count(*) filter (where s.overdue > 0),
         count(*) filter (where s.due_soon > 0),
         count(*) filter (where exists (
           select 1 from public.certificates c
           where c.user_id = r.user_id and c.revoked_at is null
             and c.expires_at > now() and c.expires_at <= now() + interval '60 days'
             and not exists (select 1 from public.certificates n
                             where n.user_id = c.user_id and n.course_id = c.course_id
                               and n.revoked_at is null and n.issued_at > c.issued_at)))
  from r
  left join private.team_status_counts(array(select r2.user_id from r r2)) s on s.user_id = r.user_id
$$;
comment on function private.team_summary() is
  'The caller''s team in figures: people, direct reports, people with something overdue, due soon, or a certificate expiring within 60 days.';
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
  total bigint
)
language plpgsql stable security definer
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
  with chosen as materialized (
    select r.*
    from private.team_reports() r
    where (p_unit_id is null or r.unit_id in (select private.unit_subtree(p_unit_id)))
      and (v_search is null or strpos(lower(r.name), v_search) > 0 or strpos(lower(r.username), v_search) > 0)
  ),
  -- Without a status filter only the page's people are judged; with one, every chosen person is.
  counted as materialized (
    select k.* from private.team_status_counts(
      case when p_status is null
           then array(select c.user_id from chosen c
                      order by c.unit_name nulls last, c.unit_id, c.name, c.user_id
                      limit v_limit offset v_offset)
           else array(select c.user_id from chosen c) end) k
  ),
  judged as (
    select c.*, coalesce(k.overdue, 0) as overdue, coalesce(k.due_soon, 0) as due_soon,
           coalesce(k.in_progress, 0) as in_progress, coalesce(k.done, 0) as done,
           count(*) over () as total
    from chosen c
    left join counted k on k.user_id = c.user_id
    where p_status is null
       or case p_status when 'overdue' then k.overdue when 'due-soon' then k.due_soon
                        when 'in-progress' then k.in_progress else k.done end > 0
  ),
  paged as (
    select j.* from judged j
    order by j.unit_name nulls last, j.unit_id, j.name, j.user_id
    limit v_limit offset v_offset
  )
  select pg.user_id, pg.username, pg.name, pg.unit_id, pg.unit_name, pg.direct,
         pg.overdue, pg.due_soon, pg.in_progress, pg.done,
         coalesce(cert.expiring, 0)::integer, cert.next_expiry,
         greatest(
           (select max(ump.updated_at) from public.user_module_progress ump where ump.user_id = pg.user_id),
           (select max(coalesce(qa.completed_at, qa.started_at)) from public.quiz_attempts qa
            where qa.user_id = pg.user_id),
           (select max(greatest(e.created_at, e.started_at, e.completed_at)) from public.enrollments e
            where e.user_id = pg.user_id)
         ),
         pg.total
  from paged pg
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
  order by pg.unit_name nulls last, pg.unit_id, pg.name, pg.user_id;
end;
$$;
comment on function private.team_members(uuid,text,text,integer,integer) is
  'The caller''s reports, grouped by unit: required-training counts by status, certificates expiring within 60 days (count, soonest), last activity; filters unit (with sub-units), status (has a course in it), search (name or username); paged, with the total.';
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
  certificates jsonb
)
language sql stable security definer
set search_path = ''
set jit = off
as $$
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
         ), '[]'::jsonb)
  from private.team_reports() r
  where r.user_id = p_person
$$;
comment on function private.team_member_record(uuid) is
  'One of the caller''s reports: their required training (status, due date), completions and certificates; no row for anyone else. Never their CPD.';
revoke all on function private.team_member_record(uuid) from public;
grant execute on function private.team_member_record(uuid) to authenticated, service_role;
