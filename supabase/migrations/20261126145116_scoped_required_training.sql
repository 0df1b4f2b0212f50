-- scoped_required_training: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP POLICY "instructors add rules for their courses in their services; admi" ON "public"."required_training";

DROP POLICY "instructors change rules of their courses in their services; ad" ON "public"."required_training";

DROP POLICY "instructors remove rules of their courses in their services; ad" ON "public"."required_training";

DROP POLICY "rules of my courses, my services or that apply to me; admins al" ON "public"."required_training";

DROP TRIGGER "required_training_prepare" ON "public"."required_training";

ALTER TABLE "public"."required_training"
  DROP CONSTRAINT "required_training_course_role_service_key";

ALTER TABLE "public"."required_training"
  DROP CONSTRAINT "required_training_role_or_service";

DROP FUNCTION "private"."compliance_in_scope"(public.service_code, public.service_code[]);

DROP FUNCTION "private"."compliance_people"(public.service_code, public.user_role, uuid, text, integer, integer);

DROP FUNCTION "private"."compliance_summary"(public.service_code, public.user_role, uuid);

DROP FUNCTION "private"."manages_required_training"(uuid, public.service_code);

DROP FUNCTION "private"."required_training_status"(uuid, public.service_code, public.user_role, uuid);

ALTER TABLE "public"."required_training"
  ADD COLUMN "organisation_id" uuid;

ALTER TABLE "public"."required_training"
  ADD COLUMN "unit_id" uuid;

CREATE OR REPLACE FUNCTION private.compliance_in_scope (
  p_service                public.service_code,
  p_person_services        public.service_code[],
  p_person_organisation_id uuid
)
  RETURNS boolean
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  select (select private.is_admin())
      or p_person_organisation_id = (select private.administered_organisation_id())
      or ((select private.current_role()) = 'INSTRUCTOR'
          and p_person_services && (select private.current_services())
          and (p_service is null or array[p_service] <@ (select private.current_services()))
          and ((select private.current_organisation_id()) is null
               or p_person_organisation_id = (select private.current_organisation_id())))
$function$;

CREATE OR REPLACE FUNCTION private.compliance_organisation (
  p_organisation_id uuid
)
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
begin
  return coalesce(
    p_organisation_id,
    private.administered_organisation_id(),
    case when private.current_role() = 'INSTRUCTOR' then private.current_organisation_id() end);
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_people (
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid,
  p_status          text                DEFAULT NULL::text,
  p_limit           integer             DEFAULT 20,
  p_offset          integer             DEFAULT 0,
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    user_id                uuid,
    username               text,
    name                   text,
    email                  text,
    role                   public.user_role,
    services               public.service_code[],
    course_id              uuid,
    course_title           text,
    progress               integer,
    due_at                 timestamp with time zone,
    status                 text,
    certificate_expires_at timestamp with time zone,
    total                  bigint
  )
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
declare
  v_national boolean;
  v_organisation uuid;
begin
  perform private.require_compliance_viewer();
  v_national := private.is_admin();
  v_organisation := private.compliance_organisation(p_organisation_id);
  return query
  select st.user_id, st.username, st.name, st.email, st.role, st.services, st.course_id, st.course_title,
         st.progress, st.due_at, st.status, st.certificate_expires_at, count(*) over ()
  from private.required_training_status(null, p_service, p_role, p_course_id, v_organisation, p_unit_id) st
  where (p_status is null or st.status = p_status)
    and (v_national or private.compliance_in_scope(p_service, st.services, st.organisation_id))
  -- private.required_training_status_rank, written out (a function call per row costs at national size)
  order by case st.status when 'overdue' then 1 when 'due-soon' then 2 when 'in-progress' then 3 else 4 end,
           st.due_at nulls last, st.name, st.user_id, st.course_title
  limit greatest(p_limit, 0) offset greatest(p_offset, 0);
end;
$function$;

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
begin
  perform private.require_compliance_viewer();
  v_organisation := private.compliance_organisation(p_organisation_id);
  perform private.required_training_join_by_hash(null, v_organisation, p_unit_id);
  -- Counted inside the status rule's own statement; the scope rule only for those who are not
  -- national administrators (who see everyone).
  return query execute private.required_training_states_query() || $q$,
  counted as (
    select s.service, st.course_id,
           count(*) as people,
           count(*) filter (where st.status = 'done') as compliant,
           count(*) filter (where st.status = 'due-soon') as due_soon,
           count(*) filter (where st.status = 'overdue') as overdue,
           count(*) filter (where st.status = 'in-progress') as in_progress
    from statuses st
    -- each of the person's services (one row of no service for a person of none)
    cross join lateral unnest(case when cardinality(st.services) = 0 then array[null]::public.service_code[]
                                   else st.services end) s(service)
    where ($2::public.service_code is null or s.service = $2)
      and ($7 or private.compliance_in_scope($2, array_remove(array[s.service], null), st.organisation_id))
    group by s.service, st.course_id
  )
  select k.service, k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
  from counted k
  join public.courses c on c.id = k.course_id
  order by k.service nulls last, c.title, k.course_id $q$
  using null::uuid, p_service, p_role, p_course_id, v_organisation, p_unit_id, private.is_admin();
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_units (
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid,
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    organisation_id uuid,
    unit_id         uuid,
    name            text,
    has_units       boolean,
    course_id       uuid,
    course_title    text,
    people          bigint,
    compliant       bigint,
    due_soon        bigint,
    overdue         bigint,
    in_progress     bigint
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
  v_national boolean;
  v_organisation uuid;
begin
  perform private.require_compliance_viewer();
  v_national := private.is_admin();
  if not v_national and private.administered_organisation_id() is null then
    raise exception 'Only administrators can see compliance by unit' using errcode = '42501';
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
  perform private.required_training_join_by_hash(null, v_organisation, p_unit_id);
  if v_organisation is null then
    return query execute private.required_training_states_query() || $q$,
    counted as (
      select st.organisation_id as group_id, st.course_id,
             count(*) as people,
             count(*) filter (where st.status = 'done') as compliant,
             count(*) filter (where st.status = 'due-soon') as due_soon,
             count(*) filter (where st.status = 'overdue') as overdue,
             count(*) filter (where st.status = 'in-progress') as in_progress
      from statuses st
      group by st.organisation_id, st.course_id
    )
    select k.group_id, null::uuid, o.name,
           exists (select 1 from public.units u where u.organisation_id = k.group_id),
           k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
    from counted k
    left join public.organisations o on o.id = k.group_id
    join public.courses c on c.id = k.course_id
    order by k.group_id is null, o.name, k.group_id, c.title, k.course_id $q$
    using null::uuid, p_service, p_role, p_course_id, null::uuid, null::uuid;
  else
    return query execute private.required_training_states_query() || $q$,
    groups as (
      select ch.id as group_id, s.unit as unit_id
      from public.units ch
      cross join lateral private.unit_subtree(ch.id) s(unit)
      where ch.organisation_id = $5 and ch.parent_id is not distinct from $6
      union all
      select $6, $6 where $6::uuid is not null
    ),
    counted as (
      select g.group_id, st.course_id,
             count(*) as people,
             count(*) filter (where st.status = 'done') as compliant,
             count(*) filter (where st.status = 'due-soon') as due_soon,
             count(*) filter (where st.status = 'overdue') as overdue,
             count(*) filter (where st.status = 'in-progress') as in_progress
      from statuses st
      left join groups g on g.unit_id = st.unit_id
      where ($7 or private.compliance_in_scope($2, st.services, st.organisation_id))
      group by g.group_id, st.course_id
    )
    select $5, k.group_id, u.name,
           k.group_id is distinct from $6 and exists (select 1 from public.units d where d.parent_id = k.group_id),
           k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
    from counted k
    left join public.units u on u.id = k.group_id
    join public.courses c on c.id = k.course_id
    order by k.group_id is not distinct from $6 desc, k.group_id is null, u.name, k.group_id, c.title, k.course_id $q$
    using null::uuid, p_service, p_role, p_course_id, v_organisation, p_unit_id, v_national;
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION private.enrol_for_required_rule()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_enrolled integer := 0;
  v_title text;
  v_old jsonb;
  v_new jsonb := private.required_training_audit_value(new);
  v_units uuid[];
begin
  if tg_op = 'INSERT' or new.role is distinct from old.role or new.service is distinct from old.service
     or new.course_id is distinct from old.course_id or new.organisation_id is distinct from old.organisation_id
     or new.unit_id is distinct from old.unit_id then
    if new.unit_id is not null then
      v_units := array(select private.unit_subtree(new.unit_id));
    end if;
    insert into public.enrollments (user_id, course_id, status)
    select p.id, new.course_id, 'ACTIVE'
    from public.profiles p
    where (new.role is null or p.role = new.role)
      and (new.service is null or p.services @> array[new.service])
      and (new.organisation_id is null or p.organisation_id = new.organisation_id)
      and (new.unit_id is null or p.unit_id = any (v_units))
      and p.deactivated_at is null
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
    get diagnostics v_enrolled = row_count;
  end if;
  if tg_op = 'UPDATE' then
    v_old := private.required_training_audit_value(old);
    if v_old = v_new then
      return null;
    end if;
  end if;
  select c.title into v_title from public.courses c where c.id = new.course_id;
  perform private.write_audit(
    case when tg_op = 'INSERT' then 'required_training.added' else 'required_training.changed' end,
    'required_training', new.id, v_title, v_old,
    v_new || jsonb_build_object('courseId', new.course_id, 'enrolled', v_enrolled));
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.enrol_profiles_in_required_training()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if tg_op = 'INSERT' then
    insert into public.enrollments (user_id, course_id, status)
    select distinct n.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from new_rows n
    join public.required_training r
      on (r.role is null or r.role = n.role) and (r.service is null or n.services @> array[r.service])
         and (r.organisation_id is null or r.organisation_id = n.organisation_id)
    where n.deactivated_at is null
      and (r.unit_id is null or private.required_rule_matches(r, n.role, n.services, n.organisation_id, n.unit_id))
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
  else
    insert into public.enrollments (user_id, course_id, status)
    select distinct n.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from new_rows n
    join old_rows o on o.id = n.id
    join public.required_training r
      on (r.role is null or r.role = n.role) and (r.service is null or n.services @> array[r.service])
         and (r.organisation_id is null or r.organisation_id = n.organisation_id)
    where (n.role is distinct from o.role or n.services is distinct from o.services
           or n.organisation_id is distinct from o.organisation_id or n.unit_id is distinct from o.unit_id)
      and n.deactivated_at is null
      and (r.unit_id is null or private.required_rule_matches(r, n.role, n.services, n.organisation_id, n.unit_id))
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.manages_required_training (
  p_course_id       uuid,
  p_service         public.service_code,
  p_organisation_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return (
    select coalesce(
      private.is_admin()
      or (
        p_organisation_id is not null
        and p_organisation_id = private.administered_organisation_id()
        and exists (
          select 1 from public.courses c
          where c.id = p_course_id and (c.organisation_id is null or c.organisation_id = p_organisation_id)
        )
      )
      or (
        private.current_role() = 'INSTRUCTOR'
        and p_course_id in (select private.authored_course_ids())
        and p_service in (select unnest(private.current_services()))
        and (p_organisation_id is null or p_organisation_id = private.current_organisation_id())
      ),
      false)
  );
end;
$function$;

CREATE OR REPLACE FUNCTION private.my_unit_ancestors()
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 5
  SET search_path TO ''
  AS $function$
begin
  return query
    with recursive up(id, parent_id, depth) as (
      select u.id, u.parent_id, 1 from public.profiles p
      join public.units u on u.id = p.unit_id
      where p.id = (select auth.uid())
      union all
      select u.id, u.parent_id, up.depth + 1 from up join public.units u on u.id = up.parent_id
      where up.depth < 64
    )
    select up.id from up;
end;
$function$;

CREATE OR REPLACE FUNCTION private.prepare_required_training()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
declare
  v_course_organisation uuid;
begin
  if tg_op = 'INSERT' and current_user in ('anon', 'authenticated') then
    new.created_by := (select auth.uid());
  end if;
  if tg_op = 'INSERT' and not exists (
    select 1 from public.courses c where c.id = new.course_id and c.status = 'ACTIVE'
  ) then
    raise exception 'Only a published course can be required' using errcode = '22023';
  end if;
  select c.organisation_id into v_course_organisation from public.courses c where c.id = new.course_id;
  if v_course_organisation is not null and new.organisation_id is distinct from v_course_organisation then
    raise exception 'A course of an organisation can be required only in that organisation'
      using errcode = '22023', hint = 'organisation_id';
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.required_rule_matches (
  p_rule            public.required_training,
  p_role            public.user_role,
  p_services        public.service_code[],
  p_organisation_id uuid,
  p_unit_id         uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return (p_rule.role is null or p_role = p_rule.role)
    and (p_rule.service is null or p_services @> array[p_rule.service])
    and (p_rule.organisation_id is null or p_organisation_id = p_rule.organisation_id)
    and (p_rule.unit_id is null or p_unit_id in (select private.unit_subtree(p_rule.unit_id)));
end;
$function$;

CREATE OR REPLACE FUNCTION private.required_training_audit_value (
  p_rule public.required_training
)
  RETURNS jsonb
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  select jsonb_build_object('role', p_rule.role, 'service', p_rule.service,
    'dueWithinDays', p_rule.due_within_days, 'renewBeforeDays', p_rule.renew_before_days)
    || case when p_rule.organisation_id is null then '{}'::jsonb
            else jsonb_build_object('organisationId', p_rule.organisation_id, 'unitId', p_rule.unit_id) end
$function$;

CREATE OR REPLACE FUNCTION private.required_training_join_by_hash (
  p_user_id         uuid,
  p_organisation_id uuid,
  p_unit_id         uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
begin
  if p_user_id is null and p_organisation_id is null and p_unit_id is null then
    perform set_config('enable_nestloop', 'off', true);
    perform set_config('enable_mergejoin', 'off', true);
    perform set_config('enable_sort', 'off', true);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION private.required_training_states (
  p_user_id         uuid                DEFAULT NULL::uuid,
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid,
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    user_id                uuid,
    services               public.service_code[],
    organisation_id        uuid,
    unit_id                uuid,
    course_id              uuid,
    enrollment_id          uuid,
    progress               integer,
    due_at                 timestamp with time zone,
    status                 text,
    certificate_id         uuid,
    certificate_expires_at timestamp with time zone
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
  perform private.required_training_join_by_hash(p_user_id, p_organisation_id, p_unit_id);
  return query execute private.required_training_states_query() || $q$
    select s.user_id, s.services, s.organisation_id, s.unit_id, s.course_id, s.enrollment_id, s.progress,
           s.due_at, s.status, s.certificate_id, s.certificate_expires_at
    from statuses s $q$
    using p_user_id, p_service, p_role, p_course_id, p_organisation_id, p_unit_id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.required_training_states_query()
  RETURNS text
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$ select $q$
  with me as materialized (
    select (select auth.uid()) as uid, private.is_admin() as admin,
           private.current_role() as role, private.current_services() as services,
           private.administered_organisation_id() as admin_org, private.current_organisation_id() as org,
           make_interval(days => private.required_training_due_soon_days()) as soon
  ),
  rules as materialized (
    select r.course_id, r.role, r.service, r.organisation_id,
           case when r.unit_id is not null then array(select private.unit_subtree(r.unit_id)) end as units,
           r.created_at, r.due_within_days, r.renew_before_days
    from public.required_training r
    join public.courses c on c.id = r.course_id and c.status = 'ACTIVE'
    where ($4::uuid is null or r.course_id = $4)
  ),
  visible as (
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
  required as (
    select p.id as user_id, p.services, p.organisation_id, p.unit_id, r.course_id,
           e.id as enrollment_id, coalesce(e.progress, 0) as progress,
           min(greatest(r.created_at, coalesce(e.created_at, p.created_at))
               + make_interval(days => r.due_within_days)) as first_due,
           max(r.renew_before_days) as renew_before_days
    from visible p
    join rules r
      on (r.role is null or p.role = r.role) and (r.service is null or p.services @> array[r.service])
         and (r.organisation_id is null or p.organisation_id = r.organisation_id)
         and (r.units is null or p.unit_id = any (r.units))
    left join (
      select en.id, en.user_id, en.course_id, en.progress, en.created_at from public.enrollments en
      where en.course_id in (select rc.course_id from rules rc) and ($1::uuid is null or en.user_id = $1)
    ) e on e.user_id = p.id and e.course_id = r.course_id
    group by p.id, p.services, p.organisation_id, p.unit_id, r.course_id, e.id, e.progress
  ),
  -- The latest certificate not revoked of each person and required course.
  certs as (
    select distinct on (ct.user_id, ct.course_id) ct.user_id, ct.course_id, ct.id, ct.expires_at
    from public.certificates ct
    where ct.revoked_at is null
      and ct.course_id in (select r.course_id from rules r)
      and ($1::uuid is null or ct.user_id = $1)
    order by ct.user_id, ct.course_id, ct.issued_at desc
  ),
  judged as (
    select q.*, cert.id as certificate_id, cert.expires_at as certificate_expires_at,
           -- valid or expiring (private.certificate_state of a certificate not revoked)
           cert.id is not null and (cert.expires_at is null or cert.expires_at > now()) as certified,
           case
             when cert.id is null then q.first_due
             when cert.expires_at is null then null
             when cert.expires_at <= now() then cert.expires_at
             else cert.expires_at - make_interval(days => q.renew_before_days)
           end as due_at
    from required q
    left join certs cert on cert.user_id = q.user_id and cert.course_id = q.course_id
  ),
  statuses as (
    select j.user_id, j.services, j.organisation_id, j.unit_id, j.course_id, j.enrollment_id, j.progress, j.due_at,
           case
             when j.certified then
               case when j.due_at is null or j.due_at > now() + me.soon then 'done' else 'due-soon' end
             when j.due_at <= now() then 'overdue'
             when j.due_at <= now() + me.soon then 'due-soon'
             else 'in-progress'
           end as status,
           j.certificate_id, j.certificate_expires_at
    from judged j
    cross join me
  )
$q$ $function$;

CREATE OR REPLACE FUNCTION private.required_training_status (
  p_user_id         uuid                DEFAULT NULL::uuid,
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid,
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    user_id                uuid,
    username               text,
    name                   text,
    email                  text,
    role                   public.user_role,
    services               public.service_code[],
    course_id              uuid,
    course_title           text,
    course_service         public.service_code,
    enrollment_id          uuid,
    progress               integer,
    due_at                 timestamp with time zone,
    status                 text,
    certificate_id         uuid,
    certificate_expires_at timestamp with time zone,
    certificate_state      text,
    organisation_id        uuid,
    unit_id                uuid
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  with me as materialized (
    select (select auth.uid()) as uid, private.is_admin() as admin
  )
  select s.user_id, p.username, p.name, case when me.admin or p.id = me.uid then p.email end,
         p.role, s.services, s.course_id, c.title, c.service, s.enrollment_id, s.progress, s.due_at, s.status,
         s.certificate_id, s.certificate_expires_at,
         case when s.certificate_id is not null then private.certificate_state(s.certificate_expires_at, null) end,
         s.organisation_id, s.unit_id
  from private.required_training_states(p_user_id, p_service, p_role, p_course_id, p_organisation_id, p_unit_id) s
  cross join me
  join public.profiles p on p.id = s.user_id
  join public.courses c on c.id = s.course_id
$function$;

ALTER TABLE "public"."required_training"
  ADD CONSTRAINT "required_training_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id) ON DELETE CASCADE;

ALTER TABLE "public"."required_training"
  ADD CONSTRAINT "required_training_role_or_service" CHECK (((role IS NOT NULL) OR (service IS NOT NULL) OR (organisation_id IS NOT NULL)));

ALTER TABLE "public"."required_training"
  ADD CONSTRAINT "required_training_scope_key" UNIQUE NULLS NOT DISTINCT (course_id, ROLE, service, organisation_id, unit_id);

ALTER TABLE "public"."required_training"
  ADD CONSTRAINT "required_training_unit_needs_organisation" CHECK (((unit_id IS NULL) OR (organisation_id IS NOT NULL)));

ALTER TABLE "public"."required_training"
  ADD CONSTRAINT "required_training_unit_same_organisation" FOREIGN KEY (unit_id, organisation_id) REFERENCES public.units(id, organisation_id) ON DELETE CASCADE;

CREATE INDEX required_training_organisation_idx ON public.required_training USING btree (organisation_id);

CREATE INDEX required_training_unit_idx ON public.required_training USING btree (unit_id, organisation_id);

CREATE TRIGGER required_training_prepare
  BEFORE INSERT OR UPDATE ON public.required_training
  FOR EACH ROW
  EXECUTE FUNCTION private.prepare_required_training();

CREATE POLICY "instructors add rules for their courses in their services; admi" ON "public"."required_training"
  FOR INSERT
  TO "authenticated"
  WITH CHECK (private.manages_required_training(course_id, service, organisation_id));

CREATE POLICY "instructors change rules of their courses in their services; ad" ON "public"."required_training"
  FOR UPDATE
  TO "authenticated"
  USING (private.manages_required_training(course_id, service, organisation_id))
  WITH CHECK (private.manages_required_training(course_id, service, organisation_id));

CREATE POLICY "instructors remove rules of their courses in their services; ad" ON "public"."required_training"
  FOR DELETE
  TO "authenticated"
  USING (private.manages_required_training(course_id, service, organisation_id));

CREATE POLICY "rules of my courses, my services or that apply to me; admins th" ON "public"."required_training"
  FOR SELECT
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id)) OR ((organisation_id IS NULL)
    AND (( SELECT private.administered_organisation_id() AS administered_organisation_id) IS
    NOT NULL)) OR
    (((organisation_id IS NULL) OR (organisation_id = ( SELECT private.current_organisation_id() AS current_organisation_id))) AND ((course_id IN ( SELECT
    private.authored_course_ids() AS authored_course_ids)) OR
    ((( SELECT private."current_role"() AS "current_role") = 'INSTRUCTOR'::public.user_role) AND (service IN ( SELECT unnest(private.current_services()) AS unnest))) OR
    (((ROLE IS NULL) OR (ROLE = ( SELECT private."current_role"() AS "current_role"))) AND ((service IS NULL) OR (service IN ( SELECT unnest(private.current_services()) AS
    unnest))) AND ((unit_id IS NULL) OR (unit_id IN ( SELECT private.my_unit_ancestors() AS my_unit_ancestors))))))));

COMMENT ON COLUMN "public"."required_training"."organisation_id" IS 'The organisation whose people must take the course (null: a national rule, every organisation).';

COMMENT ON COLUMN "public"."required_training"."unit_id" IS 'A unit of that organisation: only the people of this unit and the units below it (null: the whole organisation).';

COMMENT ON FUNCTION "private"."compliance_in_scope"(public.service_code, public.service_code[], uuid) IS 'THE scope rule of compliance views: national admins see everyone; an organisation''s admin its people; instructors a person of one of their services (and, with a service filter, only a service of their own), of their organisation when they have one.';

COMMENT ON FUNCTION "private"."compliance_organisation"(uuid) IS 'The organisation a compliance view is limited to: the one given, else the caller''s as organisation admin or instructor, else null.';

COMMENT ON FUNCTION "private"."compliance_people"(public.service_code, public.user_role, uuid, text, integer, integer, uuid, uuid) IS 'Instructors and admins: the people required to take courses, with status and due date, most urgent first, paged; optionally of one organisation and unit (with its sub-units).';

COMMENT ON FUNCTION "private"."compliance_summary"(public.service_code, public.user_role, uuid, uuid, uuid) IS 'Instructors and admins: per service and required course, people required, compliant (done), due soon, overdue, in progress; optionally of one organisation and unit (with its sub-units).';

COMMENT ON FUNCTION "private"."compliance_units"(uuid, uuid, public.service_code, public.user_role, uuid) IS 'National and organisation admins: per group (organisation; or top-level unit; or unit below the given one) and required course, people required, compliant, due soon, overdue, in progress. unit_id null at unit level: people of no unit.';

COMMENT ON FUNCTION "private"."enrol_for_required_rule"() IS 'After insert/update of a required_training rule: enrols (ACTIVE) every active user it matches (role, service, organisation, unit with its sub-units), in one statement, and records required_training.added / .changed with how many it enrolled.';

COMMENT ON FUNCTION "private"."enrol_profiles_in_required_training"() IS 'After insert / update of profiles (per statement): enrols the new, re-assigned or moved (organisation, unit) users in the required courses they now match.';

COMMENT ON FUNCTION "private"."manages_required_training"(uuid, public.service_code, uuid) IS 'True when the caller may manage a required_training rule of this course, service and organisation (national admin: any; organisation admin: their organisation''s, for a course it can see; instructor: own course, own service, national or own organisation).';

COMMENT ON FUNCTION "private"."my_unit_ancestors"() IS 'The caller''s unit and the units above it (none for a person of no unit).';

COMMENT ON FUNCTION "private"."prepare_required_training"() IS 'Before-insert/update trigger on required_training: the course must be published (22023) and, for an organisation''s course, the rule of that organisation (22023); created_by is the API caller.';

COMMENT ON FUNCTION "private"."required_rule_matches"(public.required_training, public.user_role, public.service_code[], uuid, uuid) IS 'True when the rule applies to a person of this role, services, organisation and unit (a unit rule reaches its sub-units).';

COMMENT ON FUNCTION "private"."required_training_audit_value"(public.required_training) IS 'A rule''s scope and periods as recorded in the audit log.';

COMMENT ON FUNCTION "private"."required_training_join_by_hash"(uuid, uuid, uuid) IS 'For the status rule over everyone: no nested loop, merge join or sort where a hash serves, for the rest of the calling function (which restores them by its SET clause).';

COMMENT ON FUNCTION "private"."required_training_states"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) IS 'THE status rule of required training, set-based: one row per person and required (published) course the caller may see (learner: self; manager: their reports; instructor: people sharing a service, of their organisation if they have one; organisation admin: their organisation; national admin: all), with due date and status overdue | due-soon | in-progress | done. Filters: person, service, role, course, organisation, unit (with its sub-units).';

COMMENT ON FUNCTION "private"."required_training_states_query"() IS 'THE status rule of required training as query text (CTEs ending in statuses; $1 person, $2 service, $3 role, $4 course, $5 organisation, $6 unit), for EXECUTE by the status and compliance functions.';

COMMENT ON FUNCTION "private"."required_training_status"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) IS 'The status rule (private.required_training_states) with names: one row per person and required course the caller may see, with due date, status, certificate and placement. Filters: person, service, role, course, organisation, unit.';

REVOKE ALL ON FUNCTION "private"."compliance_in_scope"(public.service_code, public.service_code[], uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_in_scope"(public.service_code, public.service_code[], uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."compliance_organisation"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_organisation"(uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."compliance_people"(public.service_code, public.user_role, uuid, text, integer, integer, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE
  ON FUNCTION "private"."compliance_people"(public.service_code, public.user_role, uuid, text, integer, integer, uuid, uuid)
  TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."compliance_summary"(public.service_code, public.user_role, uuid, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_summary"(public.service_code, public.user_role, uuid, uuid, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."compliance_units"(uuid, uuid, public.service_code, public.user_role, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_units"(uuid, uuid, public.service_code, public.user_role, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."manages_required_training"(uuid, public.service_code, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."manages_required_training"(uuid, public.service_code, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."my_unit_ancestors"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."my_unit_ancestors"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."required_rule_matches"(public.required_training, public.user_role, public.service_code[], uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."required_rule_matches"(public.required_training, public.user_role, public.service_code[], uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."required_training_audit_value"(public.required_training) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."required_training_audit_value"(public.required_training) TO "postgres";

REVOKE ALL ON FUNCTION "private"."required_training_join_by_hash"(uuid, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."required_training_join_by_hash"(uuid, uuid, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."required_training_states"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."required_training_states"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."required_training_states_query"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."required_training_states_query"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."required_training_status"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."required_training_status"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ("organisation_id") ON TABLE "public"."required_training" FROM "authenticated";

GRANT INSERT ("organisation_id"), UPDATE ("organisation_id") ON TABLE "public"."required_training" TO "authenticated";

REVOKE ALL ("unit_id") ON TABLE "public"."required_training" FROM "authenticated";

GRANT INSERT ("unit_id"), UPDATE ("unit_id") ON TABLE "public"."required_training" TO "authenticated";
