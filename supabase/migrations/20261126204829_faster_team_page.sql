-- faster_team_page: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

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
    certificates jsonb
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.team_members (
  p_unit_id uuid    DEFAULT NULL::uuid,
  p_status  text    DEFAULT NULL::text,
  p_search  text    DEFAULT NULL::text,
  p_limit   integer DEFAULT 20,
  p_offset  integer DEFAULT 0
)
  RETURNS TABLE (
    user_id               uuid,
    username              text,
    name                  text,
    unit_id               uuid,
    unit_name             text,
    direct                boolean,
    overdue               integer,
    due_soon              integer,
    in_progress           integer,
    done                  integer,
    expiring_certificates integer,
    next_expiry           timestamp with time zone,
    last_activity_at      timestamp with time zone,
    total                 bigint
  )
  LANGUAGE plpgsql
  STABLE
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
$function$;

CREATE OR REPLACE FUNCTION private.team_reports()
  RETURNS TABLE (
    user_id   uuid,
    username  text,
    name      text,
    unit_id   uuid,
    unit_name text,
    direct    boolean
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  ROWS 40
  SET search_path TO ''
  AS $function$
  select p.id, p.username, p.name, u.id, u.name, p.manager_id is not distinct from (select auth.uid())
  from private.managed_person_ids() m(id)
  join public.profiles p on p.id = m.id
  left join public.units u on u.id = p.unit_id
  where p.deactivated_at is null
$function$;

CREATE OR REPLACE FUNCTION private.team_status_counts (
  p_people uuid[]
)
  RETURNS TABLE (
    user_id     uuid,
    overdue     integer,
    due_soon    integer,
    in_progress integer,
    done        integer
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 40
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.team_summary()
  RETURNS TABLE (
    people   bigint,
    direct   bigint,
    overdue  bigint,
    due_soon bigint,
    expiring bigint
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
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
$function$;

COMMENT ON FUNCTION "private"."team_status_counts"(uuid[]) IS 'THE status rule over the given people (those the caller may see) in one statement: per person with required training, how many courses are overdue, due soon, in progress, done.';

REVOKE ALL ON FUNCTION "private"."team_status_counts"(uuid[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."team_status_counts"(uuid[]) TO "authenticated", "postgres", "service_role";
