-- one_kept_counts_mechanism: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP TRIGGER "enrollments_count_figures_delete" ON "public"."enrollments";

DROP TRIGGER "enrollments_count_figures_insert" ON "public"."enrollments";

DROP TRIGGER "enrollments_count_figures_update" ON "public"."enrollments";

DROP FUNCTION "private"."course_author"(uuid);

CREATE OR REPLACE FUNCTION private.compliance_person_counts_live (
  p_organisation_id uuid
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
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
begin
  perform private.required_training_join_by_hash(null, p_organisation_id, null);
  return query execute private.required_training_states_query() || $q$
    select st.user_id,
           (count(*) filter (where st.status = 'overdue'))::integer,
           (count(*) filter (where st.status = 'due-soon'))::integer,
           (count(*) filter (where st.status = 'in-progress'))::integer,
           (count(*) filter (where st.status = 'done'))::integer
    from statuses st
    group by st.user_id $q$
    using null::uuid, null::public.service_code, null::public.user_role, null::uuid, p_organisation_id, null::uuid;
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_summary_counts_live (
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
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
begin
  return query
    select r.service, r.course_id, r.people, r.compliant, r.due_soon, r.overdue, r.in_progress
    from private.compliance_summary_rows(null, null, null, p_organisation_id, null, true, false) r;
end;
$function$;

CREATE OR REPLACE FUNCTION private.count_enrolment_figures()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_old public.enrollments[];
  v_new public.enrollments[];
begin
  if tg_op = 'INSERT' then
    perform private.shift_enrolment_figures('{}', array(select row(n.*)::public.enrollments from new_rows n));
  elsif tg_op = 'DELETE' then
    perform private.shift_enrolment_figures(array(select row(o.*)::public.enrollments from old_rows o), '{}');
  else
    select array_agg(row(o.*)::public.enrollments), array_agg(row(n.*)::public.enrollments)
    into v_old, v_new
    from old_rows o
    join new_rows n on n.id = o.id
    where (o.status, o.progress, o.completed, o.course_id, o.user_id)
          is distinct from (n.status, n.progress, n.completed, n.course_id, n.user_id);
    if v_old is not null then
      perform private.shift_enrolment_figures(v_old, v_new);
    end if;
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.course_counts_live()
  RETURNS TABLE (
    status  public.course_status,
    service public.service_code,
    courses bigint
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return query
    select c.status, c.service, count(*) from public.courses c where c.organisation_id is null group by 1, 2;
end;
$function$;

CREATE OR REPLACE FUNCTION private.course_enrolment_figures_live()
  RETURNS TABLE (
    course_id    uuid,
    slot         smallint,
    enrolled     integer,
    pending      integer,
    completed    integer,
    progress_sum bigint
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return query
    select e.course_id, private.enrolment_figures_slot(e.user_id),
           (count(*) filter (where e.status = 'ACTIVE'))::integer,
           (count(*) filter (where e.status = 'PENDING'))::integer,
           (count(*) filter (where e.status = 'ACTIVE' and e.completed))::integer,
           coalesce(sum(e.progress) filter (where e.status = 'ACTIVE'), 0)::bigint
    from public.enrollments e
    group by 1, 2;
end;
$function$;

CREATE OR REPLACE FUNCTION private.instructor_figures_live()
  RETURNS TABLE (
    author_id uuid,
    slot      smallint,
    learners  integer
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return query
    select l.author_id, private.enrolment_figures_slot(l.user_id), count(*)::integer
    from private.instructor_learners_live() l
    group by 1, 2;
end;
$function$;

CREATE OR REPLACE FUNCTION private.instructor_learners_live()
  RETURNS TABLE (
    author_id  uuid,
    user_id    uuid,
    enrolments integer
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return query
    select c.author_id, e.user_id, count(*)::integer
    from public.enrollments e join public.courses c on c.id = e.course_id
    where e.status = 'ACTIVE' and c.author_id is not null
    group by c.author_id, e.user_id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.kept_counts_drift()
  RETURNS TABLE (
    kept       text,
    difference text,
    item       jsonb
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET jit TO 'off'
  AS $function$
declare
  v_thing record;
  v_organisation uuid;
begin
  if (select auth.uid()) is null then
    raise exception 'The kept counts are checked as a signed-in caller (the status rule counts no one for a visitor)'
      using errcode = '42501';
  end if;
  for v_thing in
    select t.name, t.kept_rows, t.live_rows from (values
      ('private.course_counts',
       'select c.status, c.service, c.courses from private.course_counts c where c.courses <> 0',
       'select * from private.course_counts_live()'),
      ('private.course_enrolment_figures',
       'select f.course_id, f.slot, f.enrolled, f.pending, f.completed, f.progress_sum
        from private.course_enrolment_figures f where (f.enrolled, f.pending, f.completed, f.progress_sum) <> (0, 0, 0, 0)',
       'select * from private.course_enrolment_figures_live()'),
      ('private.instructor_learners',
       'select l.author_id, l.user_id, l.enrolments from private.instructor_learners l',
       'select * from private.instructor_learners_live()'),
      ('private.instructor_figures',
       'select i.author_id, i.slot, i.learners from private.instructor_figures i where i.learners <> 0',
       'select * from private.instructor_figures_live()')
    ) t(name, kept_rows, live_rows)
  loop
    return query select * from private.kept_vs_live(v_thing.name, v_thing.kept_rows, v_thing.live_rows);
  end loop;
  insert into private.compliance_refreshes (transaction_id) values (pg_current_xact_id());
  for v_organisation in
    select s.organisation_id from private.compliance_summary_scopes s order by 1
  loop
    continue when not private.compliance_summary_is_current(v_organisation);
    return query select * from private.kept_vs_live('private.compliance_summary_counts', format(
      'select k.organisation_id, k.service, k.course_id, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
       from private.compliance_summary_counts k where k.organisation_id = %L', v_organisation), format(
      'select %1$L::uuid, l.service, l.course_id, l.people, l.compliant, l.due_soon, l.overdue, l.in_progress
       from private.compliance_summary_counts_live(%1$L) l', v_organisation));
    return query select * from private.kept_vs_live('private.compliance_person_counts', format(
      'select k.organisation_id, k.user_id, k.overdue, k.due_soon, k.in_progress, k.done
       from private.compliance_person_counts k where k.organisation_id = %L', v_organisation), format(
      'select %1$L::uuid, l.user_id, l.overdue, l.due_soon, l.in_progress, l.done
       from private.compliance_person_counts_live(%1$L) l', v_organisation));
  end loop;
  delete from private.compliance_refreshes r where r.transaction_id = pg_current_xact_id();
end;
$function$;

CREATE OR REPLACE FUNCTION private.kept_vs_live (
  p_name text,
  p_kept text,
  p_live text
)
  RETURNS TABLE (
    kept       text,
    difference text,
    item       jsonb
  )
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
begin
  return query execute format($q$
    with k as (%s), l as (%s)
    select %L, 'kept, not live', to_jsonb(x) from (select * from k except all select * from l) x
    union all
    select %L, 'live, not kept', to_jsonb(x) from (select * from l except all select * from k) x $q$,
    p_kept, p_live, p_name, p_name);
end;
$function$;

CREATE OR REPLACE FUNCTION private.recount_enrolment_figures()
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  delete from private.course_enrolment_figures;
  delete from private.instructor_learners;
  delete from private.instructor_figures;
  insert into private.course_enrolment_figures (course_id, slot, enrolled, pending, completed, progress_sum)
  select * from private.course_enrolment_figures_live();
  insert into private.instructor_learners (author_id, user_id, enrolments)
  select * from private.instructor_learners_live();
  insert into private.instructor_figures (author_id, slot, learners)
  select * from private.instructor_figures_live();
end;
$function$;

CREATE OR REPLACE FUNCTION private.shift_enrolment_figures (
  p_old public.enrollments[],
  p_new public.enrollments[]
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_gone bigint;
begin
  if coalesce(cardinality(p_old), 0) + coalesce(cardinality(p_new), 0) = 0 then
    return;
  end if;
  insert into private.course_enrolment_figures as f (course_id, slot, enrolled, pending, completed, progress_sum)
  select d.course_id, d.slot, d.enrolled, d.pending, d.completed, d.progress_sum
  from (
    select x.course_id, private.enrolment_figures_slot(x.user_id) as slot,
           coalesce(sum(x.sign) filter (where x.status = 'ACTIVE'), 0)::integer as enrolled,
           coalesce(sum(x.sign) filter (where x.status = 'PENDING'), 0)::integer as pending,
           coalesce(sum(x.sign) filter (where x.status = 'ACTIVE' and x.completed), 0)::integer as completed,
           coalesce(sum(x.sign * x.progress) filter (where x.status = 'ACTIVE'), 0)::bigint as progress_sum
    from (
      select o.course_id, o.user_id, o.status, o.completed, o.progress, -1 as sign from unnest(p_old) o
      union all
      select n.course_id, n.user_id, n.status, n.completed, n.progress, 1 from unnest(p_new) n
    ) x
    where exists (select 1 from public.courses c where c.id = x.course_id)
    group by 1, 2
  ) d
  where (d.enrolled, d.pending, d.completed, d.progress_sum) <> (0, 0, 0, 0)
  order by 1, 2
  on conflict (course_id, slot) do update
    set enrolled = f.enrolled + excluded.enrolled, pending = f.pending + excluded.pending,
        completed = f.completed + excluded.completed, progress_sum = f.progress_sum + excluded.progress_sum;
  -- The learners' standing with the authors: approved on how many of each author's courses; an
  -- author's count of learners changes when a learner's first comes or last goes.
  with changed as (
    select c.author_id, x.user_id, sum(x.sign)::integer as n
    from (
      select o.course_id, o.user_id, -1 as sign from unnest(p_old) o where o.status = 'ACTIVE'
      union all
      select n.course_id, n.user_id, 1 from unnest(p_new) n where n.status = 'ACTIVE'
    ) x
    join public.courses c on c.id = x.course_id
    where c.author_id is not null
    group by 1, 2
    having sum(x.sign) <> 0
  ),
  kept as (
    insert into private.instructor_learners as l (author_id, user_id, enrolments)
    select ch.author_id, ch.user_id, ch.n from changed ch order by 1, 2
    on conflict (author_id, user_id) do update set enrolments = l.enrolments + excluded.enrolments
    returning l.author_id, l.user_id, l.enrolments
  ),
  counted as (
    insert into private.instructor_figures as f (author_id, slot, learners)
    select k.author_id, private.enrolment_figures_slot(k.user_id),
           sum(case when k.enrolments > 0 and k.enrolments - ch.n <= 0 then 1
                    when k.enrolments <= 0 and k.enrolments - ch.n > 0 then -1 else 0 end)
    from kept k
    join changed ch on ch.author_id = k.author_id and ch.user_id = k.user_id
    group by 1, 2
    having sum(case when k.enrolments > 0 and k.enrolments - ch.n <= 0 then 1
                    when k.enrolments <= 0 and k.enrolments - ch.n > 0 then -1 else 0 end) <> 0
    order by 1, 2
    on conflict (author_id, slot) do update set learners = f.learners + excluded.learners
  )
  select count(*) into v_gone from kept k where k.enrolments <= 0;
  -- Learners no longer approved on any of an author's courses leave (their rows at 0).
  if v_gone = 0 then
    return;
  end if;
  delete from private.instructor_learners l
  where l.enrolments <= 0 and (l.author_id, l.user_id) in (
    select c.author_id, x.user_id
    from unnest(p_old || p_new) x join public.courses c on c.id = x.course_id
    where x.status = 'ACTIVE');
end;
$function$;

CREATE TRIGGER enrollments_count_figures_delete
  AFTER DELETE ON public.enrollments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.count_enrolment_figures();

CREATE TRIGGER enrollments_count_figures_insert
  AFTER INSERT ON public.enrollments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.count_enrolment_figures();

CREATE TRIGGER enrollments_count_figures_update
  AFTER UPDATE ON public.enrollments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.count_enrolment_figures();

COMMENT ON FUNCTION "private"."compliance_person_counts_live"(uuid) IS 'Internal: private.compliance_person_counts of the organisation computed by the status rule (everyone only inside a refresh).';

COMMENT ON FUNCTION "private"."compliance_summary_counts_live"(uuid) IS 'Internal: private.compliance_summary_counts of the organisation computed by the status rule (everyone only inside a refresh).';

COMMENT ON FUNCTION "private"."count_enrolment_figures"() IS 'After-trigger on enrollments (per statement: insert, delete, update): keeps private.course_enrolment_figures and the authors'' learners in step.';

COMMENT ON FUNCTION "private"."course_counts_live"() IS 'Internal: private.course_counts computed from public.courses (national courses per status and service).';

COMMENT ON FUNCTION "private"."course_enrolment_figures_live"() IS 'Internal: private.course_enrolment_figures computed from public.enrollments.';

COMMENT ON FUNCTION "private"."instructor_figures_live"() IS 'Internal: private.instructor_figures computed from public.enrollments and public.courses.';

COMMENT ON FUNCTION "private"."instructor_learners_live"() IS 'Internal: private.instructor_learners computed from public.enrollments and public.courses.';

COMMENT ON FUNCTION "private"."kept_counts_drift"() IS 'Every kept count (the catalogue''s, the instructors'' figures, each current organisation''s compliance counts) against its live rule: one row per difference, none when all hold. For tests and for checking a deployment; not granted.';

COMMENT ON FUNCTION "private"."kept_vs_live"(text, text, text) IS 'Internal: the differences between a kept table''s rows (query p_kept) and those its live rule computes (query p_live, the same columns).';

COMMENT ON FUNCTION "private"."shift_enrolment_figures"(public.enrollments[], public.enrollments[]) IS 'Internal: takes the enrolments p_old out of private.course_enrolment_figures and the authors'' learners (private.instructor_learners, private.instructor_figures) and puts p_new in.';

REVOKE ALL ON FUNCTION "private"."compliance_person_counts_live"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_person_counts_live"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."compliance_summary_counts_live"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_summary_counts_live"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."course_counts_live"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."course_counts_live"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."course_enrolment_figures_live"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."course_enrolment_figures_live"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."instructor_figures_live"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."instructor_figures_live"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."instructor_learners_live"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."instructor_learners_live"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."kept_counts_drift"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."kept_counts_drift"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."kept_vs_live"(text, text, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."kept_vs_live"(text, text, text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."shift_enrolment_figures"(public.enrollments[], public.enrollments[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."shift_enrolment_figures"(public.enrollments[], public.enrollments[]) TO "postgres";
