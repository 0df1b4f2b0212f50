-- compliance_summary_counts: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE TABLE "private"."compliance_summary_changes" (
  "id"              bigint                   GENERATED ALWAYS AS IDENTITY NOT NULL,
  "organisation_id" uuid                     NOT NULL,
  "noted_at"        timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "compliance_summary_changes_pkey" PRIMARY KEY (id)
);

ALTER TABLE "private"."compliance_summary_changes"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "private"."compliance_summary_counts" (
  "organisation_id" uuid                NOT NULL,
  "service"         public.service_code,
  "course_id"       uuid                NOT NULL,
  "people"          bigint              NOT NULL,
  "compliant"       bigint              NOT NULL,
  "due_soon"        bigint              NOT NULL,
  "overdue"         bigint              NOT NULL,
  "in_progress"     bigint              NOT NULL,
  CONSTRAINT "compliance_summary_counts_key" UNIQUE NULLS NOT DISTINCT (organisation_id, service, course_id)
);

ALTER TABLE "private"."compliance_summary_counts"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "private"."compliance_summary_scopes" (
  "organisation_id" uuid                     NOT NULL,
  "valid_until"     timestamp with time zone NOT NULL,
  "refreshed_at"    timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "compliance_summary_scopes_pkey" PRIMARY KEY (organisation_id)
);

ALTER TABLE "private"."compliance_summary_scopes"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION private.compliance_summary (
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid,
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    service      public.service_code,
    course_id    uuid,
    course_title text,
    people       bigint,
    compliant    bigint,
    due_soon     bigint,
    overdue      bigint,
    in_progress  bigint
  )
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
  v_organisation uuid;
  v_national boolean;
begin
  perform private.require_compliance_viewer();
  v_organisation := private.compliance_organisation(p_organisation_id);
  v_national := private.is_admin();
  if v_organisation is not null and p_role is null and p_unit_id is null
     and (v_national or v_organisation = private.administered_organisation_id())
     and exists (select 1 from public.organisations o where o.id = v_organisation) then
    return query
      select k.service, k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
      from private.compliance_summary_of_organisation(v_organisation) k
      join public.courses c on c.id = k.course_id
      where (p_service is null or k.service = p_service)
        and (p_course_id is null or k.course_id = p_course_id)
      order by k.service nulls last, c.title, k.course_id;
    return;
  end if;
  return query
    select r.service, r.course_id, r.course_title, r.people, r.compliant, r.due_soon, r.overdue, r.in_progress
    from private.compliance_summary_rows(p_service, p_role, p_course_id, v_organisation, p_unit_id, v_national, false) r;
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_summary_is_current (
  p_organisation_id uuid
)
  RETURNS boolean
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  select exists (
    select 1 from private.compliance_summary_scopes s
    where s.organisation_id = p_organisation_id and s.valid_until > now()
      and not exists (select 1 from private.compliance_summary_changes c where c.organisation_id = p_organisation_id))
$function$;

CREATE OR REPLACE FUNCTION private.compliance_summary_of_organisation (
  p_organisation_id uuid
)
  RETURNS TABLE (
    service     public.service_code,
    course_id   uuid,
    people      bigint,
    compliant   bigint,
    due_soon    bigint,
    overdue     bigint,
    in_progress bigint
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- A refresh needs a snapshot per statement (after its lock): in a transaction of one snapshot,
  -- the counts are computed for this answer and not kept.
  if current_setting('transaction_isolation') <> 'read committed' then
    return query
      select r.service, r.course_id, r.people, r.compliant, r.due_soon, r.overdue, r.in_progress
      from private.compliance_summary_rows(null, null, null, p_organisation_id, null, private.is_admin(), false) r;
    return;
  end if;
  if not private.compliance_summary_is_current(p_organisation_id) then
    perform private.refresh_compliance_summary(p_organisation_id);
  end if;
  return query
    select k.service, k.course_id, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
    from private.compliance_summary_counts k
    where k.organisation_id = p_organisation_id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_summary_rows (
  p_service         public.service_code,
  p_role            public.user_role,
  p_course_id       uuid,
  p_organisation_id uuid,
  p_unit_id         uuid,
  p_national        boolean,
  p_next            boolean
)
  RETURNS TABLE (
    service      public.service_code,
    course_id    uuid,
    course_title text,
    people       bigint,
    compliant    bigint,
    due_soon     bigint,
    overdue      bigint,
    in_progress  bigint,
    next_change  timestamp with time zone
  )
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
begin
  perform private.required_training_join_by_hash(null, p_organisation_id, p_unit_id);
  -- Counted inside the status rule's own statement; the scope rule only for those who are not
  -- national administrators (who see everyone).
  -- The people are counted first by placement, course and status (grouped by a number, each status
  -- worked out once), then by what the counts depend on (services, organisation, course and status:
  -- a few hundred groups nationally, so that the scope is checked once per group), then each group
  -- is counted under each of its services.
  return query execute private.required_training_states_query() || format($q$,
  grouped as (
    select k.services, k.organisation_id, g.course_id, g.status, sum(g.n)::bigint as n, min(g.next_change) as next_change
    from (
      select st.placement, st.course_id, st.status, count(*) as n, %s as next_change
      from statuses st
      group by st.placement, st.course_id, st.status
    ) g
    join placements k on k.placement = g.placement
    group by k.services, k.organisation_id, g.course_id, g.status
  ),
  counted as (
    select s.service, g.course_id,
           sum(g.n)::bigint as people,
           coalesce(sum(g.n) filter (where g.status = 'done'), 0)::bigint as compliant,
           coalesce(sum(g.n) filter (where g.status = 'due-soon'), 0)::bigint as due_soon,
           coalesce(sum(g.n) filter (where g.status = 'overdue'), 0)::bigint as overdue,
           coalesce(sum(g.n) filter (where g.status = 'in-progress'), 0)::bigint as in_progress,
           min(g.next_change) as next_change
    from grouped g
    -- each of the people's services (one row of no service for people of none)
    cross join lateral unnest(case when cardinality(g.services) = 0 then array[null]::public.service_code[]
                                   else g.services end) s(service)
    where ($2::public.service_code is null or s.service = $2)
      and ($7 or private.compliance_in_scope($2, array_remove(array[s.service], null), g.organisation_id))
    group by s.service, g.course_id
  )
  select k.service, k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress, k.next_change
  from counted k
  join public.courses c on c.id = k.course_id
  order by k.service nulls last, c.title, k.course_id $q$,
    -- The moments the status rule (private.required_training_states_query) turns on: due_at within
    -- the due-soon window, due_at passed, the certificate expired; the earliest still to come.
    case when p_next then $n$min(least(
        case when st.due_at - make_interval(days => private.required_training_due_soon_days()) > now()
             then st.due_at - make_interval(days => private.required_training_due_soon_days()) end,
        case when st.due_at > now() then st.due_at end,
        case when st.certificate_expires_at > now() then st.certificate_expires_at end))$n$
    else 'null::timestamptz' end)
  using null::uuid, p_service, p_role, p_course_id, p_organisation_id, p_unit_id, p_national;
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_compliance_change (
  p_organisations uuid[]
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_organisation uuid;
begin
  if p_organisations is null then
    -- every organisation, kept or not yet: a first refresh in flight is waited for as any other
    p_organisations := array(select o.id from public.organisations o);
  end if;
  foreach v_organisation in array p_organisations loop
    continue when v_organisation is null;
    -- held until commit: a refresh of this organisation waits for this write (and it for a refresh)
    perform pg_advisory_xact_lock_shared(hashtext('private.compliance_summary'), hashtext(v_organisation::text));
    -- After the lock (a statement of its own, so that it sees a refresh that has just committed; a
    -- transaction with one snapshot for all its statements would not, so it always notes).
    if current_setting('transaction_isolation') <> 'read committed'
       or exists (select 1 from private.compliance_summary_scopes s where s.organisation_id = v_organisation)
          and not exists (select 1 from private.compliance_summary_changes c where c.organisation_id = v_organisation) then
      insert into private.compliance_summary_changes (organisation_id) values (v_organisation);
    end if;
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_compliance_change_of_course()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  perform private.note_compliance_change(null);
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_compliance_change_of_people()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.note_compliance_change(array(
      select distinct p.organisation_id
      from new_rows n
      join public.profiles p on p.id = n.user_id
      where p.organisation_id is not null));
  end if;
  if tg_op in ('DELETE', 'UPDATE') then
    perform private.note_compliance_change(array(
      select distinct p.organisation_id
      from old_rows o
      join public.profiles p on p.id = o.user_id
      where p.organisation_id is not null));
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_compliance_change_of_profiles()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if tg_op = 'INSERT' then
    perform private.note_compliance_change(array(select distinct n.organisation_id from new_rows n));
  elsif tg_op = 'DELETE' then
    perform private.note_compliance_change(array(select distinct o.organisation_id from old_rows o));
  else
    perform private.note_compliance_change(array[old.organisation_id, new.organisation_id]);
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_compliance_change_of_row()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  perform private.note_compliance_change(array(
    select p.organisation_id from public.profiles p where p.id in (old.user_id, new.user_id)));
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_compliance_change_of_rule()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.organisation_id is null
     or tg_op in ('INSERT', 'UPDATE') and new.organisation_id is null then
    perform private.note_compliance_change(null);
  elsif tg_op = 'INSERT' then
    perform private.note_compliance_change(array[new.organisation_id]);
  elsif tg_op = 'DELETE' then
    perform private.note_compliance_change(array[old.organisation_id]);
  else
    perform private.note_compliance_change(array[old.organisation_id, new.organisation_id]);
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_compliance_change_of_unit()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  perform private.note_compliance_change(array[old.organisation_id, new.organisation_id]);
  return null;
end;
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
  with computed as (
    select r.* from private.compliance_summary_rows(null, null, null, p_organisation_id, null, private.is_admin(), true) r
  ),
  kept as (
    insert into private.compliance_summary_counts (organisation_id, service, course_id, people, compliant, due_soon,
      overdue, in_progress)
    select p_organisation_id, c.service, c.course_id, c.people, c.compliant, c.due_soon, c.overdue, c.in_progress
    from computed c
  )
  select min(c.next_change) into v_next from computed c;
  update private.compliance_summary_scopes s
  set valid_until = coalesce(v_next, 'infinity'), refreshed_at = now()
  where s.organisation_id = p_organisation_id;
end;
$function$;

ALTER TABLE "private"."compliance_summary_scopes"
  ADD CONSTRAINT "compliance_summary_scopes_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id) ON DELETE CASCADE;

ALTER TABLE "private"."compliance_summary_counts"
  ADD CONSTRAINT "compliance_summary_counts_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES private.compliance_summary_scopes(organisation_id) ON DELETE CASCADE;

CREATE INDEX compliance_summary_changes_organisation_idx ON private.compliance_summary_changes USING btree (organisation_id);

CREATE TRIGGER certificates_compliance_delete
  AFTER DELETE ON public.certificates REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_people();

CREATE TRIGGER certificates_compliance_insert
  AFTER INSERT ON public.certificates REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_people();

CREATE TRIGGER certificates_compliance_update
  AFTER UPDATE OF user_id, course_id, issued_at, expires_at, revoked_at ON public.certificates
  FOR EACH ROW
  WHEN
    (((old.user_id IS DISTINCT FROM new.user_id) OR (old.course_id IS DISTINCT FROM new.course_id) OR (old.issued_at IS DISTINCT FROM new.issued_at) OR (old.expires_at IS DISTINCT
    FROM new.expires_at) OR (old.revoked_at IS DISTINCT FROM new.revoked_at)))
  EXECUTE FUNCTION private.note_compliance_change_of_row();

CREATE TRIGGER courses_compliance_status
  AFTER UPDATE OF status ON public.courses
  FOR EACH ROW
  WHEN ((old.status IS DISTINCT FROM new.status))
  EXECUTE FUNCTION private.note_compliance_change_of_course();

CREATE TRIGGER enrollments_compliance_delete
  AFTER DELETE ON public.enrollments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_people();

CREATE TRIGGER enrollments_compliance_insert
  AFTER INSERT ON public.enrollments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_people();

CREATE TRIGGER enrollments_compliance_update
  AFTER UPDATE OF user_id, course_id, created_at ON public.enrollments
  FOR EACH ROW
  WHEN (((old.user_id IS DISTINCT FROM new.user_id) OR (old.course_id IS DISTINCT FROM new.course_id) OR (old.created_at IS DISTINCT FROM new.created_at)))
  EXECUTE FUNCTION private.note_compliance_change_of_row();

CREATE TRIGGER profiles_compliance_delete
  AFTER DELETE ON public.profiles REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_profiles();

CREATE TRIGGER profiles_compliance_insert
  AFTER INSERT ON public.profiles REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_profiles();

CREATE TRIGGER profiles_compliance_update
  AFTER UPDATE OF ROLE, services, organisation_id, unit_id, deactivated_at, created_at ON public.profiles
  FOR EACH ROW
  WHEN
    (((old.role IS DISTINCT FROM new.role) OR (old.services IS DISTINCT FROM new.services) OR (old.organisation_id IS DISTINCT FROM new.organisation_id) OR (old.unit_id IS DISTINCT
    FROM new.unit_id) OR (old.deactivated_at IS DISTINCT FROM new.deactivated_at) OR (old.created_at IS DISTINCT FROM new.created_at)))
  EXECUTE FUNCTION private.note_compliance_change_of_profiles();

CREATE TRIGGER required_training_compliance
  AFTER INSERT OR DELETE OR UPDATE ON public.required_training
  FOR EACH ROW
  EXECUTE FUNCTION private.note_compliance_change_of_rule();

CREATE TRIGGER units_compliance_parent
  AFTER UPDATE OF parent_id, organisation_id ON public.units
  FOR EACH ROW
  WHEN (((old.parent_id IS DISTINCT FROM new.parent_id) OR (old.organisation_id IS DISTINCT FROM new.organisation_id)))
  EXECUTE FUNCTION private.note_compliance_change_of_unit();

CREATE POLICY "no direct access" ON "private"."compliance_summary_changes"
  AS RESTRICTIVE
  FOR ALL
  TO PUBLIC
  USING (false)
  WITH CHECK (false);

CREATE POLICY "no direct access" ON "private"."compliance_summary_counts"
  AS RESTRICTIVE
  FOR ALL
  TO PUBLIC
  USING (false)
  WITH CHECK (false);

CREATE POLICY "no direct access" ON "private"."compliance_summary_scopes"
  AS RESTRICTIVE
  FOR ALL
  TO PUBLIC
  USING (false)
  WITH CHECK (false);

COMMENT ON COLUMN "private"."compliance_summary_scopes"."valid_until" IS 'The earliest moment a counted status changes by time alone (infinity when none will).';

COMMENT ON FUNCTION "private"."compliance_summary"(public.service_code, public.user_role, uuid, uuid, uuid) IS 'Instructors and admins: per service and required course, people required, compliant (done), due soon, overdue, in progress; optionally of one organisation and unit (with its sub-units). A whole organisation''s, for its or a national administrator, from the kept counts.';

COMMENT ON FUNCTION "private"."compliance_summary_is_current"(uuid) IS 'True when the organisation''s kept compliance summary is there, not past its valid_until, and no change is noted for it.';

COMMENT ON FUNCTION "private"."compliance_summary_of_organisation"(uuid) IS 'An organisation''s compliance summary from private.compliance_summary_counts, computed again first when out of date; for private.compliance_summary only (which checks the caller''s rights).';

COMMENT ON FUNCTION "private"."compliance_summary_rows"(public.service_code, public.user_role, uuid, uuid, uuid, boolean, boolean) IS 'The compliance summary computed from the status rule (per service and required course: people, compliant, due soon, overdue, in progress) for the caller''s scope; with p_next, the earliest moment a counted status changes by time alone.';

COMMENT ON FUNCTION "private"."note_compliance_change"(uuid[]) IS 'For the triggers: notes a change to the kept compliance summaries of these organisations (null: all), under a shared lock that a refresh waits for.';

COMMENT ON FUNCTION "private"."note_compliance_change_of_course"() IS 'After a course''s status changes (rare): notes a change for every kept summary.';

COMMENT ON FUNCTION "private"."note_compliance_change_of_people"() IS 'After insert / delete of enrollments or certificates (per statement): notes a change for the organisations of their people (of any course: a rule may be added to it at the same time).';

COMMENT ON FUNCTION "private"."note_compliance_change_of_profiles"() IS 'After insert / delete of profiles (per statement) or a change of role, services, organisation, unit, deactivation or creation date (per row): notes a change for their organisations.';

COMMENT ON FUNCTION "private"."note_compliance_change_of_row"() IS 'After update of an enrolment''s or certificate''s person, course, dates or revocation: notes a change for their organisations.';

COMMENT ON FUNCTION "private"."note_compliance_change_of_rule"() IS 'After a required_training rule is added, changed or removed: notes a change for its organisation (all for a national rule).';

COMMENT ON FUNCTION "private"."note_compliance_change_of_unit"() IS 'After a unit changes parent: notes a change for its organisation.';

COMMENT ON FUNCTION "private"."refresh_compliance_summary"(uuid) IS 'Computes an organisation''s compliance summary again (unless another request just did) and keeps it with the moment it goes out of date; one refresh at a time per organisation, after the writes in flight.';

COMMENT ON TABLE "private"."compliance_summary_changes" IS 'Organisations whose kept summary a committed write may have changed: the next read computes it again.';

COMMENT ON TABLE "private"."compliance_summary_counts" IS 'An organisation''s compliance summary as private.compliance_summary_rows computed it (per service and required course); read by private.compliance_summary_of_organisation.';

COMMENT ON TABLE "private"."compliance_summary_scopes" IS 'One row per organisation whose compliance summary is kept: until when it holds by time alone.';

REVOKE ALL ON FUNCTION "private"."compliance_summary_is_current"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_summary_is_current"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."compliance_summary_of_organisation"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_summary_of_organisation"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."compliance_summary_rows"(public.service_code, public.user_role, uuid, uuid, uuid, boolean, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_summary_rows"(public.service_code, public.user_role, uuid, uuid, uuid, boolean, boolean) TO "postgres";

REVOKE ALL ON FUNCTION "private"."note_compliance_change"(uuid[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_compliance_change"(uuid[]) TO "postgres";

REVOKE ALL ON FUNCTION "private"."note_compliance_change_of_course"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_compliance_change_of_course"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."note_compliance_change_of_people"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_compliance_change_of_people"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."note_compliance_change_of_profiles"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_compliance_change_of_profiles"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."note_compliance_change_of_row"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_compliance_change_of_row"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."note_compliance_change_of_rule"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_compliance_change_of_rule"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."note_compliance_change_of_unit"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_compliance_change_of_unit"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."refresh_compliance_summary"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."refresh_compliance_summary"(uuid) TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."compliance_summary_changes" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."compliance_summary_counts" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."compliance_summary_scopes" TO "postgres";
