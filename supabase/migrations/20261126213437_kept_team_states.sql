-- kept_team_states: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

REVOKE ALL ON FUNCTION "private"."team_status_counts"(uuid[]) FROM "authenticated";

REVOKE ALL ON FUNCTION "private"."team_status_counts"(uuid[]) FROM "service_role";

DROP FUNCTION "private"."team_members"(uuid, text, text, integer, integer);

CREATE TABLE "private"."compliance_person_counts" (
  "organisation_id" uuid    NOT NULL,
  "user_id"         uuid    NOT NULL,
  "overdue"         integer NOT NULL,
  "due_soon"        integer NOT NULL,
  "in_progress"     integer NOT NULL,
  "done"            integer NOT NULL,
  CONSTRAINT "compliance_person_counts_pkey" PRIMARY KEY (organisation_id, user_id)
);

ALTER TABLE "private"."compliance_person_counts"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "private"."compliance_refreshes" (
  "transaction_id" xid8 NOT NULL,
  CONSTRAINT "compliance_refreshes_pkey" PRIMARY KEY (transaction_id)
);

ALTER TABLE "private"."compliance_refreshes"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION private.compliance_refresh_running()
  RETURNS boolean
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select exists (select 1 from private.compliance_refreshes r where r.transaction_id = pg_current_xact_id_if_assigned())
$function$;

CREATE OR REPLACE FUNCTION private.refresh_compliance_summary (
  p_organisation_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
declare
  v_next timestamptz;
begin
  -- One refresh at a time per organisation, after the writes in flight have committed.
  perform pg_advisory_xact_lock(hashtext('private.compliance_summary'), hashtext(p_organisation_id::text));
  -- Another request may have computed it while this one waited.
  if private.compliance_summary_is_current(p_organisation_id) then
    return;
  end if;
  -- The notes go before the counts are computed (a later statement, so a later snapshot): a change
  -- committed in between is counted and its note stays, to be computed again once more.
  delete from private.compliance_summary_changes c where c.organisation_id = p_organisation_id;
  insert into private.compliance_summary_scopes as s (organisation_id, valid_until)
  values (p_organisation_id, 'infinity')
  on conflict (organisation_id) do nothing;
  delete from private.compliance_summary_counts k where k.organisation_id = p_organisation_id;
  delete from private.compliance_person_counts k where k.organisation_id = p_organisation_id;
  insert into private.compliance_refreshes (transaction_id) values (pg_current_xact_id());
  perform private.required_training_join_by_hash(null, p_organisation_id, null);
  -- The two statements see the same data: writes that would change it wait for the lock above.
  execute private.required_training_states_query() || $q$
    insert into private.compliance_person_counts (organisation_id, user_id, overdue, due_soon, in_progress, done)
    select $5, st.user_id,
           count(*) filter (where st.status = 'overdue'),
           count(*) filter (where st.status = 'due-soon'),
           count(*) filter (where st.status = 'in-progress'),
           count(*) filter (where st.status = 'done')
    from statuses st
    group by st.user_id $q$
    using null::uuid, null::public.service_code, null::public.user_role, null::uuid, p_organisation_id, null::uuid;
  with computed as (
    select r.* from private.compliance_summary_rows(null, null, null, p_organisation_id, null, true, true) r
  ),
  kept as (
    insert into private.compliance_summary_counts (organisation_id, service, course_id, people, compliant, due_soon,
      overdue, in_progress)
    select p_organisation_id, c.service, c.course_id, c.people, c.compliant, c.due_soon, c.overdue, c.in_progress
    from computed c
  )
  select min(c.next_change) into v_next from computed c;
  delete from private.compliance_refreshes r where r.transaction_id = pg_current_xact_id();
  update private.compliance_summary_scopes s
  set valid_until = coalesce(v_next, 'infinity'), refreshed_at = now()
  where s.organisation_id = p_organisation_id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.required_training_states_query()
  RETURNS text
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$ select $q$
  with me as materialized (
    -- an organisation's kept states are of all its people, whoever's request refreshes them
    select (select auth.uid()) as uid, private.is_admin() or private.compliance_refresh_running() as admin,
           private.current_role() as role, private.current_services() as services,
           private.administered_organisation_id() as admin_org, private.current_organisation_id() as org
  ),
  rules as materialized (
    select r.course_id, r.role, r.service, r.organisation_id,
           case when r.unit_id is not null then array(select private.unit_subtree(r.unit_id)) end as units,
           r.created_at, r.due_within_days, r.renew_before_days
    from public.required_training r
    join public.courses c on c.id = r.course_id and c.status = 'ACTIVE'
    where ($4::uuid is null or r.course_id = $4)
  ),
  visible as materialized (
    select p.id, p.role, p.services, p.organisation_id, p.unit_id, p.created_at
    from public.profiles p
    cross join me
    where me.uid is not null and p.deactivated_at is null
      and ($1::uuid is null or p.id = $1)
      and ($5::uuid is null or p.organisation_id = $5)
      and ($3::public.user_role is null or p.role = $3)
      and ($2::public.service_code is null or p.services @> array[$2])
      and ($6::uuid is null or p.unit_id in (select private.unit_subtree($6)))
      and (me.admin or p.id = me.uid
           or (me.role = 'INSTRUCTOR' and p.services && me.services and (me.org is null or p.organisation_id = me.org))
           or p.organisation_id = me.admin_org
           or p.id in (select private.managed_person_ids()))
  ),
  -- The placements (role, services, organisation, unit) the people share, each given a number: a
  -- few thousand at national size, not 100,000 people.
  placements as materialized (
    select row_number() over () as placement, k.role, k.services, k.organisation_id, k.unit_id
    from (select distinct v.role, v.services, v.organisation_id, v.unit_id from visible v) k
  ),
  -- The rules are matched once per placement. Per placement and course: the rules' days to
  -- complete (one value in practice, then the earliest rule decides; else each rule's created_at and
  -- days, for the earliest due date per person) and the longest renewal period. The match is one
  -- CASE, which the planner counts as matching half the pairs (its own estimate of the ORs was one
  -- row, and it then built its hash tables on the people's side).
  placed as (
    select k.placement, r.course_id,
           min(r.due_within_days) = max(r.due_within_days) as same_days,
           min(r.created_at) + make_interval(days => min(r.due_within_days)) as first_rule_due,
           make_interval(days => min(r.due_within_days)) as due_within,
           make_interval(days => max(r.renew_before_days)) as renew_before,
           count(*) as rule_count,
           array_agg(r.created_at) as rule_created, array_agg(r.due_within_days) as rule_days
    from placements k
    join rules r
      on case when (r.role is null or k.role = r.role) and (r.service is null or k.services @> array[r.service])
                   and (r.organisation_id is null or k.organisation_id = r.organisation_id)
                   and (r.units is null or k.unit_id = any (r.units))
              then true else false end
    group by k.placement, r.course_id
  ),
  -- Two rules (a course required twice, with different periods), the common case of several:
  -- each rule's created_at and days as columns, so that a person's due date is one least() rather
  -- than a subquery per person.
  placed2 as (
    select pl.*,
           case when pl.rule_count = 2 then pl.rule_created[1] end as created_1,
           case when pl.rule_count = 2 then make_interval(days => pl.rule_days[1]) end as days_1,
           case when pl.rule_count = 2 then pl.rule_created[2] end as created_2,
           case when pl.rule_count = 2 then make_interval(days => pl.rule_days[2]) end as days_2
    from placed pl
  ),
  -- Each person with their placement's number: hashed by unit (else organisation) and role, the
  -- rest of the placement compared inside a CASE (so that the planner expects many people per
  -- placement: with every column a join key it expected one, and then built its hash tables on the
  -- people's side rather than on the enrolments' and certificates').
  people as (
    select p.id, p.services, p.organisation_id, p.unit_id, p.created_at, k.placement
    from visible p
    join placements k
      on coalesce(k.unit_id, k.organisation_id, '00000000-0000-0000-0000-000000000000'::uuid)
         = coalesce(p.unit_id, p.organisation_id, '00000000-0000-0000-0000-000000000000'::uuid)
         and k.role = p.role
         and case when k.services = p.services and k.organisation_id is not distinct from p.organisation_id
                       and k.unit_id is not distinct from p.unit_id
                  then true else false end
  ),
  -- The latest certificate not revoked of each person and required course.
  certs as (
    select distinct on (ct.user_id, ct.course_id) ct.user_id, ct.course_id, ct.id, ct.expires_at
    from public.certificates ct
    where ct.revoked_at is null
      and ct.course_id = any ((select array_agg(r.course_id) from rules r)::uuid[])
      and ($1::uuid is null or ct.user_id = $1)
    order by ct.user_id, ct.course_id, ct.issued_at desc
  ),
  judged as (
    select p.id as user_id, p.services, p.organisation_id, p.unit_id, m.course_id, p.placement,
           e.id as enrollment_id, coalesce(e.progress, 0) as progress,
           cert.id as certificate_id, cert.expires_at as certificate_expires_at,
           -- valid or expiring (private.certificate_state of a certificate not revoked)
           cert.id is not null and (cert.expires_at is null or cert.expires_at > now()) as certified,
           case
             -- the earliest of greatest(rule created, enrolled or joined) + the rule's days
             when cert.id is null then
               case when m.same_days
                    then greatest(m.first_rule_due, coalesce(e.created_at, p.created_at) + m.due_within)
                    when m.rule_count = 2
                    then least(greatest(m.created_1, coalesce(e.created_at, p.created_at)) + m.days_1,
                               greatest(m.created_2, coalesce(e.created_at, p.created_at)) + m.days_2)
                    else (select min(greatest(x.created_at, coalesce(e.created_at, p.created_at))
                                     + make_interval(days => x.days))
                          from unnest(m.rule_created, m.rule_days) x(created_at, days))
               end
             when cert.expires_at is null then null
             when cert.expires_at <= now() then cert.expires_at
             else cert.expires_at - m.renew_before
           end as due_at
    from people p
    join placed2 m on m.placement = p.placement
    left join (
      select en.id, en.user_id, en.course_id, en.progress, en.created_at from public.enrollments en
      where en.course_id = any ((select array_agg(rc.course_id) from rules rc)::uuid[])
        and ($1::uuid is null or en.user_id = $1)
        -- an organisation's or a unit's: only its people's (a few thousand to hash, not every enrolment)
        and ($5::uuid is null or en.user_id in (select v.id from visible v))
    ) e on e.user_id = p.id and e.course_id = m.course_id
    left join certs cert on cert.user_id = p.id and cert.course_id = m.course_id
    -- worked out once per row (not again in each use of due_at below)
    offset 0
  ),
  statuses as (
    select j.user_id, j.services, j.organisation_id, j.unit_id, j.course_id, j.placement, j.enrollment_id, j.progress,
           j.due_at,
           case
             when j.certified then
               case when j.due_at is null or j.due_at > now() + make_interval(days => private.required_training_due_soon_days())
                    then 'done' else 'due-soon' end
             when j.due_at <= now() then 'overdue'
             when j.due_at <= now() + make_interval(days => private.required_training_due_soon_days()) then 'due-soon'
             else 'in-progress'
           end as status,
           j.certificate_id, j.certificate_expires_at
    from judged j
  )
$q$ $function$;

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
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select p.user_id, p.username, p.name, p.unit_id, p.unit_name, p.direct, p.overdue, p.due_soon, p.in_progress,
         p.done, p.expiring_certificates, p.next_expiry, p.last_activity_at, p.total
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
    total                 bigint,
    team_people           bigint,
    team_direct           bigint,
    team_overdue          bigint,
    team_due_soon         bigint,
    team_expiring         bigint,
    team_units            jsonb
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
         null::timestamptz, null::timestamptz, null::bigint,
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
         pg.total, null::bigint, null::bigint, null::bigint, null::bigint, null::bigint, null::jsonb
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
  order by pg.unit_name nulls last, pg.unit_id, pg.name, pg.user_id);
end;
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
  SECURITY DEFINER
  ROWS 40
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
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
             (count(*) filter (where st.status = 'done'))::integer
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
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select p.team_people, p.team_direct, p.team_overdue, p.team_due_soon, p.team_expiring
  from private.team_page(null, null, null, 0, 0) p
  where p.user_id is null
$function$;

ALTER TABLE "private"."compliance_person_counts"
  ADD CONSTRAINT "compliance_person_counts_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES private.compliance_summary_scopes(organisation_id) ON DELETE CASCADE;

CREATE POLICY "no direct access" ON "private"."compliance_person_counts"
  AS RESTRICTIVE
  FOR ALL
  TO PUBLIC
  USING (false)
  WITH CHECK (false);

CREATE POLICY "no direct access" ON "private"."compliance_refreshes"
  AS RESTRICTIVE
  FOR ALL
  TO PUBLIC
  USING (false)
  WITH CHECK (false);

COMMENT ON FUNCTION "private"."compliance_refresh_running"() IS 'True inside private.refresh_compliance_summary: THE status rule then works out every person of the organisation, whoever the caller.';

COMMENT ON FUNCTION "private"."team_members"(uuid, text, text, integer, integer) IS 'The caller''s reports, grouped by unit: required-training counts by status, certificates expiring within 60 days (count, soonest), last activity; filters unit (with sub-units), status (has a course in it), search (name or username); paged, with the total.';

COMMENT ON FUNCTION "private"."team_page"(uuid, text, text, integer, integer) IS 'The caller''s "My team" page in one statement: a first row without user_id holding the team in figures (people, direct, with something overdue, due soon, a certificate expiring within 60 days) and its units; then the reports (as private.team_members), filtered and paged, with the total.';

COMMENT ON FUNCTION "private"."team_status_counts"(uuid[]) IS 'For team_summary and team_members: per given person of the caller''s organisation with required training, how many courses are overdue, due soon, in progress, done (the kept counts of THE status rule, refreshed first when out of date).';

COMMENT ON TABLE "private"."compliance_person_counts" IS 'Per person of an organisation with required training: how many courses are overdue, due soon, in progress, done, as THE status rule worked them out at the organisation''s last refresh; read by private.team_status_counts.';

COMMENT ON TABLE "private"."compliance_refreshes" IS 'The transaction now refreshing an organisation''s kept data, for which THE status rule sees everyone (private.compliance_refresh_running); never committed.';

REVOKE ALL ON FUNCTION "private"."compliance_refresh_running"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_refresh_running"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."team_members"(uuid, text, text, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."team_members"(uuid, text, text, integer, integer) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."team_page"(uuid, text, text, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."team_page"(uuid, text, text, integer, integer) TO "authenticated", "postgres", "service_role";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."compliance_person_counts" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."compliance_refreshes" TO "postgres";

-- Added by hand: the kept summaries so far have no people's counts; emptied, each is computed again
-- (with them) on its next read.
DELETE FROM "private"."compliance_summary_scopes";
