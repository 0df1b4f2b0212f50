-- organisations: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP POLICY "admins read the audit trail" ON "public"."audit_events";

DROP POLICY "users read own certificates, authors their courses', admins all" ON "public"."certificates";

DROP POLICY "authors delete their own courses and admins any" ON "public"."courses";

DROP POLICY "authors update their own courses and admins any" ON "public"."courses";

DROP POLICY "instructors create courses in their services and admins any" ON "public"."courses";

DROP POLICY "users read published courses, authors their own, admins all" ON "public"."courses";

DROP POLICY "visitors read published courses unless login-browse" ON "public"."courses";

DROP POLICY "learners read their own CPD entries and admins all" ON "public"."cpd_entries";

DROP POLICY "authors approve enrolments on their courses and admins any" ON "public"."enrollments";

DROP POLICY "users enrol themselves in visible published courses" ON "public"."enrollments";

DROP POLICY "users read own enrolments, authors their courses', admins all" ON "public"."enrollments";

DROP POLICY "users unenrol themselves, authors and admins remove" ON "public"."enrollments";

DROP POLICY "admins delete profiles" ON "public"."profiles";

DROP POLICY "users read own profile, authors their learners', admins all" ON "public"."profiles";

DROP POLICY "users update their own profile and admins update any" ON "public"."profiles";

DROP POLICY "users read own attempts, authors their quizzes', admins all" ON "public"."quiz_attempts";

DROP POLICY "users read own progress, authors their courses', admins all" ON "public"."user_module_progress";

DROP TRIGGER "profiles_guard_last_admin" ON "public"."profiles";

CREATE TABLE "public"."organisations" (
  "id"         uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "name"       text                     NOT NULL,
  "code"       text                     NOT NULL,
  "service"    public.service_code      NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "organisations_code_pattern" CHECK ((code ~ '^[A-Za-z0-9-]{2,16}$'::text)),
  CONSTRAINT "organisations_name_length" CHECK (((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 200))),
  CONSTRAINT "organisations_pkey" PRIMARY KEY (id),
  CONSTRAINT "organisations_name_visible" CHECK (((NOT private.has_invisible_characters(name)) AND (name = btrim(name))))
);

ALTER TABLE "public"."organisations"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."units" (
  "id"              uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "organisation_id" uuid                     NOT NULL,
  "parent_id"       uuid,
  "name"            text                     NOT NULL,
  "created_at"      timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "units_id_organisation_key" UNIQUE (id, organisation_id),
  CONSTRAINT "units_name_length" CHECK (((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 200))),
  CONSTRAINT "units_not_own_parent" CHECK (((parent_id IS NULL) OR (parent_id <> id))),
  CONSTRAINT "units_pkey" PRIMARY KEY (id),
  CONSTRAINT "units_name_visible" CHECK (((NOT private.has_invisible_characters(name)) AND (name = btrim(name))))
);

ALTER TABLE "public"."units"
  ENABLE ROW LEVEL SECURITY;

ALTER TABLE "public"."courses"
  ADD COLUMN "organisation_id" uuid;

ALTER TABLE "public"."profiles"
  ADD COLUMN "organisation_id" uuid;

ALTER TABLE "public"."profiles"
  ADD COLUMN "unit_id" uuid;

ALTER TABLE "public"."profiles"
  ADD COLUMN "manager_id" uuid;

CREATE OR REPLACE FUNCTION private.administered_organisation_id()
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return (
    select p.organisation_id from public.profiles p
    where p.id = (select auth.uid()) and p.role = 'ADMIN' and p.deactivated_at is null
  );
end;
$function$;

CREATE OR REPLACE FUNCTION private.administered_person_ids()
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 100
  SET search_path TO ''
  AS $function$
begin
  return query
    select p.id from public.profiles p
    where p.organisation_id = private.administered_organisation_id();
end;
$function$;

CREATE OR REPLACE FUNCTION private.can_view_course (
  p_course_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return (
    select exists (
      select 1 from public.courses c
      where c.id = p_course_id
        and (
          (c.status = 'ACTIVE' and ((select auth.uid()) is not null or private.course_access() <> 'login-browse'))
          or (c.author_id = (select auth.uid()) and (select auth.uid()) is not null)
          or private.is_admin()
          or (c.organisation_id is not null and c.organisation_id = private.administered_organisation_id())
        )
        and (c.organisation_id is null or private.is_admin()
             or c.organisation_id = private.current_organisation_id())
    )
  );
end;
$function$;

CREATE OR REPLACE FUNCTION private.check_profile_placement()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_cycle boolean;
begin
  if tg_op = 'UPDATE' and new.organisation_id is distinct from old.organisation_id then
    if new.unit_id is not distinct from old.unit_id then
      new.unit_id := null;
    end if;
    if new.manager_id is not distinct from old.manager_id then
      new.manager_id := null;
    end if;
  end if;
  if new.manager_id is not null
     and (tg_op = 'INSERT' or new.manager_id is distinct from old.manager_id
          or new.organisation_id is distinct from old.organisation_id) then
    perform pg_advisory_xact_lock(hashtext('public.profiles managers ' || new.organisation_id::text));
    if not exists (select 1 from public.profiles m
                   where m.id = new.manager_id and m.organisation_id = new.organisation_id) then
      raise exception 'The manager must belong to the same organisation'
        using errcode = '23514', hint = 'manager_organisation';
    end if;
    with recursive chain(id, depth) as (
      select m.manager_id, 1 from public.profiles m where m.id = new.manager_id
      union all
      select m.manager_id, c.depth + 1 from chain c
      join public.profiles m on m.id = c.id
      where c.depth < 64
    )
    select exists (select 1 from chain c where c.id = new.id) into v_cycle;
    if v_cycle then
      raise exception 'A person cannot be managed by one of their own reports'
        using errcode = '23514', hint = 'manager_cycle';
    end if;
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.check_unit_tree()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
begin
  if tg_op = 'UPDATE' and new.organisation_id <> old.organisation_id then
    raise exception 'A unit cannot move to another organisation' using errcode = '23514', hint = 'unit_organisation';
  end if;
  if new.parent_id is not null and (tg_op = 'INSERT' or new.parent_id is distinct from old.parent_id) then
    perform pg_advisory_xact_lock(hashtext('public.units tree ' || new.organisation_id::text));
    if new.parent_id in (select private.unit_subtree(new.id)) then
      raise exception 'A unit cannot be moved below itself' using errcode = '23514', hint = 'unit_cycle';
    end if;
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.count_courses()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- One upsert per (status, service) that changed, taken in key order (two statements never wait
  -- for each other's rows in opposite orders). old_rows / new_rows exist only for their events.
  if tg_op = 'INSERT' then
    insert into private.course_counts as cc (status, service, courses)
    select n.status, n.service, count(*) from new_rows n where n.organisation_id is null group by 1, 2 order by 1, 2
    on conflict (status, service) do update set courses = cc.courses + excluded.courses;
  elsif tg_op = 'DELETE' then
    insert into private.course_counts as cc (status, service, courses)
    select o.status, o.service, -count(*) from old_rows o where o.organisation_id is null group by 1, 2 order by 1, 2
    on conflict (status, service) do update set courses = cc.courses + excluded.courses;
  elsif tg_op = 'UPDATE' then
    insert into private.course_counts as cc (status, service, courses)
    select d.status, d.service, sum(d.delta)
    from (
      select o.status, o.service, -1 as delta from old_rows o where o.organisation_id is null
      union all
      select n.status, n.service, 1 from new_rows n where n.organisation_id is null
    ) d
    group by 1, 2
    having sum(d.delta) <> 0
    order by 1, 2
    on conflict (status, service) do update set courses = cc.courses + excluded.courses;
  elsif tg_op = 'TRUNCATE' then
    delete from private.course_counts;
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.course_search_ids (
  p_pattern text
)
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 50
  SET search_path TO ''
  AS $function$
begin
  -- Only courses the caller can see: the rule of private.can_view_course, evaluated once per
  -- statement rather than called for each match.
  return query execute
    'select c.id from public.courses c
     where (c.title ilike $1 or c.description ilike $1)
       and ((c.status = ''ACTIVE''
             and ((select auth.uid()) is not null or (select private.course_access()) <> ''login-browse''))
            or (c.author_id = (select auth.uid()) and (select auth.uid()) is not null)
            or (select private.is_admin())
            or c.organisation_id = (select private.administered_organisation_id()))
       and (c.organisation_id is null or (select private.is_admin())
            or c.organisation_id = (select private.current_organisation_id()))'
    using p_pattern;
end;
$function$;

CREATE OR REPLACE FUNCTION private.current_organisation_id()
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return (select p.organisation_id from public.profiles p where p.id = (select auth.uid()));
end;
$function$;

CREATE OR REPLACE FUNCTION private.guard_last_admin()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- Only national administrators (no organisation) count: an organisation's administrator
  -- administers nothing else.
  if old.role <> 'ADMIN' or old.organisation_id is not null
     or (tg_op = 'UPDATE' and new.role = 'ADMIN' and new.organisation_id is null) then
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  perform pg_advisory_xact_lock(hashtext('public.profiles last admin'));
  if not exists (select 1 from public.profiles p
                 where p.role = 'ADMIN' and p.organisation_id is null and p.id <> old.id) then
    raise exception 'The last administrator cannot be demoted or deleted'
      using errcode = 'P0409', hint = 'Make another user an administrator first.';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$function$;

CREATE OR REPLACE FUNCTION private.guard_profile_update()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
declare
  v_org uuid;
begin
  -- Only the API roles are checked; the service role and migrations manage accounts freely.
  if current_user in ('anon', 'authenticated') then
    -- Nobody places themselves: organisation, unit and manager are set by an administrator.
    if new.id = (select auth.uid())
       and (new.organisation_id is distinct from old.organisation_id
            or new.unit_id is distinct from old.unit_id
            or new.manager_id is distinct from old.manager_id) then
      raise exception 'You cannot change your own organisation, unit or manager'
        using errcode = '42501';
    end if;
    if not private.is_admin() then
      v_org := private.administered_organisation_id();
      -- An organisation's administrator: role, services, username, unit and manager of their own
      -- people (not their own role), never the organisation.
      if v_org is not null and old.organisation_id = v_org then
        if new.organisation_id is distinct from old.organisation_id then
          raise exception 'Only a national administrator may change a person''s organisation'
            using errcode = '42501';
        end if;
        if new.id = (select auth.uid()) and new.role is distinct from old.role then
          raise exception 'You cannot change your own role' using errcode = '42501';
        end if;
      elsif new.role is distinct from old.role
         or new.services is distinct from old.services
         or new.username is distinct from old.username
         or new.organisation_id is distinct from old.organisation_id
         or new.unit_id is distinct from old.unit_id
         or new.manager_id is distinct from old.manager_id then
        raise exception 'Only an administrator may change role, services or username'
          using errcode = '42501';
      end if;
    end if;
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.is_admin()
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return (
    select exists (
      select 1 from public.profiles p
      where p.id = (select auth.uid()) and p.role = 'ADMIN' and p.organisation_id is null
    )
  );
end;
$function$;

CREATE OR REPLACE FUNCTION private.is_national_admin()
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return private.is_admin();
end;
$function$;

CREATE OR REPLACE FUNCTION private.is_org_admin()
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return private.administered_organisation_id() is not null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.managed_person_ids()
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 40
  SET search_path TO ''
  AS $function$
declare
  v_me uuid := (select auth.uid());
  v_level uuid[];
  v_all uuid[] := '{}';
begin
  if v_me is null then
    return;
  end if;
  v_level := array[v_me];
  for i in 1..32 loop
    select array_agg(p.id) into v_level
    from public.profiles p
    where p.manager_id = any (v_level) and p.id <> v_me and not (p.id = any (v_all));
    exit when v_level is null;
    v_all := v_all || v_level;
  end loop;
  return query select unnest(v_all);
end;
$function$;

CREATE OR REPLACE FUNCTION private.manages (
  p_person uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return exists (select 1 from private.managed_person_ids() m where m = p_person);
end;
$function$;

CREATE OR REPLACE FUNCTION private.release_reports()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  update public.profiles p set manager_id = null
  where p.manager_id = new.id and p.organisation_id is distinct from new.organisation_id;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.required_training_status (
  p_user_id   uuid                DEFAULT NULL::uuid,
  p_service   public.service_code DEFAULT NULL::public.service_code,
  p_role      public.user_role    DEFAULT NULL::public.user_role,
  p_course_id uuid                DEFAULT NULL::uuid
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
    certificate_state      text
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  with me as (
    select (select auth.uid()) as uid, private.is_admin() as admin,
           private.current_role() as role, private.current_services() as services,
           private.administered_organisation_id() as admin_org
  ),
  required as (
    select p.id as user_id, r.course_id,
           min(greatest(r.created_at, coalesce(e.created_at, p.created_at))
               + make_interval(days => r.due_within_days)) as first_due,
           max(r.renew_before_days) as renew_before_days
    from me
    cross join public.required_training r
    join public.courses c on c.id = r.course_id and c.status = 'ACTIVE'
    -- One person (the dashboard, the header notice) by primary key; everyone otherwise. Two branches
    -- gated on the parameter, so the one-person call never scans profiles whatever the plan.
    join (
      select pp.* from public.profiles pp where p_user_id is not null and pp.id = p_user_id
      union all
      select pa.* from public.profiles pa where p_user_id is null
    ) p
      on (r.role is null or p.role = r.role) and (r.service is null or p.services @> array[r.service])
    left join public.enrollments e on e.user_id = p.id and e.course_id = r.course_id
    where me.uid is not null
      and p.deactivated_at is null
      and (me.admin or p.id = me.uid or (me.role = 'INSTRUCTOR' and p.services && me.services)
           or p.organisation_id = me.admin_org
           or p.id in (select private.managed_person_ids()))
      and (p_role is null or p.role = p_role)
      and (p_service is null or p.services @> array[p_service])
      and (p_course_id is null or r.course_id = p_course_id)
    group by p.id, r.course_id
  ),
  judged as (
    select q.*, p.username, p.name, case when me.admin or p.id = me.uid then p.email end as email,
           p.role, p.services, c.title, c.service as course_service,
           e.id as enrollment_id, coalesce(e.progress, 0) as progress,
           cert.id as certificate_id, cert.expires_at as certificate_expires_at,
           case when cert.id is not null then private.certificate_state(cert.expires_at, cert.revoked_at) end
             as certificate_state,
           case
             when cert.id is null then q.first_due
             when cert.expires_at is null then null
             when cert.expires_at <= now() then cert.expires_at
             else cert.expires_at - make_interval(days => q.renew_before_days)
           end as due_at
    from required q
    cross join me
    join public.profiles p on p.id = q.user_id
    join public.courses c on c.id = q.course_id
    left join public.enrollments e on e.user_id = q.user_id and e.course_id = q.course_id
    left join lateral (
      select ct.id, ct.expires_at, ct.revoked_at from public.certificates ct
      where ct.user_id = q.user_id and ct.course_id = q.course_id and ct.revoked_at is null
      order by ct.issued_at desc
      limit 1
    ) cert on true
  )
  select j.user_id, j.username, j.name, j.email, j.role, j.services, j.course_id, j.title, j.course_service,
         j.enrollment_id, j.progress, j.due_at,
         case
           when j.certificate_state in ('valid', 'expiring') then
             case when j.due_at is null
                    or j.due_at > now() + make_interval(days => private.required_training_due_soon_days())
                  then 'done' else 'due-soon' end
           when j.due_at <= now() then 'overdue'
           when j.due_at <= now() + make_interval(days => private.required_training_due_soon_days()) then 'due-soon'
           else 'in-progress'
         end,
         j.certificate_id, j.certificate_expires_at, j.certificate_state
  from judged j
$function$;

CREATE OR REPLACE FUNCTION private.set_user_active (
  p_user_id uuid,
  p_active  boolean
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_profile public.profiles%rowtype;
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may deactivate or reactivate users' using errcode = '42501';
  end if;
  if p_user_id = auth.uid() and not p_active then
    raise exception 'You cannot deactivate your own account' using errcode = 'P0403';
  end if;
  select * into v_profile from public.profiles where id = p_user_id for update;
  if not found then
    return false;
  end if;
  if p_active = (v_profile.deactivated_at is null) then
    return true; -- already so: nothing to record
  end if;
  if not p_active and v_profile.role = 'ADMIN' and v_profile.organisation_id is null then
    perform pg_advisory_xact_lock(hashtext('public.profiles last admin'));
    if not exists (select 1 from public.profiles p
                   where p.role = 'ADMIN' and p.organisation_id is null
                     and p.id <> p_user_id and p.deactivated_at is null) then
      raise exception 'The last administrator cannot be deactivated'
        using errcode = 'P0409', hint = 'Make another user an administrator first.';
    end if;
  end if;
  update public.profiles set deactivated_at = case when p_active then null else now() end
  where id = p_user_id;
  if p_active then
    update auth.users set banned_until = null, updated_at = now() where id = p_user_id;
    -- Back in the required training they match (skipped while deactivated).
    insert into public.enrollments (user_id, course_id, status)
    select distinct v_profile.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from public.required_training r
    where (r.role is null or r.role = v_profile.role)
      and (r.service is null or v_profile.services @> array[r.service])
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
  else
    update auth.users set banned_until = '2999-12-31 00:00:00+00', updated_at = now() where id = p_user_id;
    delete from auth.sessions where user_id = p_user_id;
  end if;
  perform private.write_audit(
    case when p_active then 'user.reactivated' else 'user.deactivated' end,
    'user', v_profile.id, v_profile.username,
    jsonb_build_object('status', case when p_active then 'deactivated' else 'active' end, 'name', v_profile.name),
    jsonb_build_object('status', case when p_active then 'active' else 'deactivated' end, 'name', v_profile.name));
  return true;
end;
$function$;

CREATE OR REPLACE FUNCTION private.unit_subtree (
  p_unit_id uuid
)
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 20
  SET search_path TO ''
  AS $function$
begin
  return query
    with recursive tree(id) as (
      select u.id from public.units u where u.id = p_unit_id
      union
      select u.id from tree t join public.units u on u.parent_id = t.id
    )
    select t.id from tree t;
end;
$function$;

CREATE OR REPLACE FUNCTION private.visible_course_count (
  p_service public.service_code,
  p_status  public.course_status
)
  RETURNS integer
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return (
    with counts as (
      select cc.status, cc.courses from private.course_counts cc
      where (p_service is null or cc.service = p_service)
        and (p_status is null or cc.status = p_status)
    )
    select (case
      when (select auth.uid()) is null then
        case when private.course_access() = 'login-browse' then 0
             else (select coalesce(sum(courses), 0) from counts where status = 'ACTIVE') end
      when private.is_admin() then (select coalesce(sum(courses), 0) from counts)
         -- Every organisation's courses, found organisation by organisation (the index).
         + (select count(*) from public.organisations o
            join public.courses c on c.organisation_id = o.id
            where true
              and (p_service is null or c.service = p_service)
              and (p_status is null or c.status = p_status))
      else (select coalesce(sum(courses), 0) from counts where status = 'ACTIVE')
         + (select count(*) from public.courses c
            where c.author_id = (select auth.uid()) and c.status <> 'ACTIVE' and c.organisation_id is null
              and (p_service is null or c.service = p_service)
              and (p_status is null or c.status = p_status))
         -- The caller's organisation's courses: published, authored, or all for its administrator.
         + (select count(*) from public.courses c
            where c.organisation_id = private.current_organisation_id()
              and (c.status = 'ACTIVE' or c.author_id = (select auth.uid())
                   or c.organisation_id = private.administered_organisation_id())
              and (p_service is null or c.service = p_service)
              and (p_status is null or c.status = p_status))
    end)::integer
  );
end;
$function$;

ALTER TABLE "public"."courses"
  ADD CONSTRAINT "courses_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id);

ALTER TABLE "public"."profiles"
  ADD CONSTRAINT "profiles_manager_id_fkey" FOREIGN KEY (manager_id) REFERENCES public.profiles(id) ON DELETE SET NULL;

ALTER TABLE "public"."profiles"
  ADD CONSTRAINT "profiles_manager_needs_organisation" CHECK (((manager_id IS NULL) OR (organisation_id IS NOT NULL)));

ALTER TABLE "public"."profiles"
  ADD CONSTRAINT "profiles_manager_not_self" CHECK (((manager_id IS NULL) OR (manager_id <> id)));

ALTER TABLE "public"."profiles"
  ADD CONSTRAINT "profiles_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id);

ALTER TABLE "public"."profiles"
  ADD CONSTRAINT "profiles_unit_needs_organisation" CHECK (((unit_id IS NULL) OR (organisation_id IS NOT NULL)));

ALTER TABLE "public"."profiles"
  ADD CONSTRAINT "profiles_unit_same_organisation" FOREIGN KEY (unit_id, organisation_id) REFERENCES public.units(id, organisation_id);

ALTER TABLE "public"."units"
  ADD CONSTRAINT "units_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id) ON DELETE CASCADE;

ALTER TABLE "public"."units"
  ADD CONSTRAINT "units_parent_same_organisation" FOREIGN KEY (parent_id, organisation_id) REFERENCES public.units(id, organisation_id);

CREATE INDEX courses_organisation_idx ON public.courses USING btree (organisation_id);

CREATE UNIQUE INDEX organisations_code_lower_key ON public.organisations USING btree (lower(code));

CREATE INDEX profiles_manager_idx ON public.profiles USING btree (manager_id)
  WHERE (manager_id IS NOT NULL);

CREATE INDEX profiles_organisation_idx ON public.profiles USING btree (organisation_id)
  WHERE (organisation_id IS NOT NULL);

CREATE INDEX profiles_unit_idx ON public.profiles USING btree (unit_id, organisation_id)
  WHERE (unit_id IS NOT NULL);

CREATE UNIQUE INDEX units_name_key ON public.units USING btree (organisation_id, COALESCE(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));

CREATE INDEX units_organisation_idx ON public.units USING btree (organisation_id);

CREATE INDEX units_parent_idx ON public.units USING btree (parent_id, organisation_id)
  WHERE (parent_id IS NOT NULL);

CREATE TRIGGER profiles_guard_last_admin
  BEFORE DELETE OR UPDATE OF ROLE, organisation_id ON public.profiles
  FOR EACH ROW
  EXECUTE FUNCTION private.guard_last_admin();

CREATE TRIGGER profiles_placement
  BEFORE INSERT OR UPDATE ON public.profiles
  FOR EACH ROW
  EXECUTE FUNCTION private.check_profile_placement();

CREATE TRIGGER profiles_release_reports
  AFTER UPDATE OF organisation_id ON public.profiles
  FOR EACH ROW
  WHEN ((new.organisation_id IS DISTINCT FROM old.organisation_id))
  EXECUTE FUNCTION private.release_reports();

CREATE TRIGGER units_check_tree
  BEFORE INSERT OR UPDATE ON public.units
  FOR EACH ROW
  EXECUTE FUNCTION private.check_unit_tree();

CREATE POLICY "admins read the audit trail" ON "public"."audit_events"
  FOR SELECT
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR (actor_id IN ( SELECT private.administered_person_ids() AS administered_person_ids)) OR ((target_type = 'user'::text) AND
    (target_id IN ( SELECT private.administered_person_ids() AS administered_person_ids)))));

CREATE POLICY "users read own certificates, authors their courses', admins all" ON "public"."certificates"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids)) OR
    (user_id IN ( SELECT private.administered_person_ids() AS administered_person_ids)) OR (user_id IN ( SELECT private.managed_person_ids() AS managed_person_ids))));

CREATE POLICY "authors delete their own courses and admins any" ON "public"."courses"
  FOR DELETE
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR ((author_id = ( SELECT auth.uid() AS uid)) AND (( SELECT private."current_role"() AS "current_role") =
    'INSTRUCTOR'::public.user_role) AND ((organisation_id IS NULL) OR (organisation_id = ( SELECT private.current_organisation_id() AS current_organisation_id)))) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "authors update their own courses and admins any" ON "public"."courses"
  FOR UPDATE
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR ((author_id = ( SELECT auth.uid() AS uid)) AND (( SELECT private."current_role"() AS "current_role") =
    'INSTRUCTOR'::public.user_role) AND ((organisation_id IS NULL) OR (organisation_id = ( SELECT private.current_organisation_id() AS current_organisation_id)))) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))))
  WITH
    CHECK
    ((( SELECT private.is_admin() AS is_admin) OR ((( SELECT private."current_role"() AS "current_role") = 'INSTRUCTOR'::public.user_role) AND (author_id = ( SELECT auth.uid() AS
    uid)) AND (service IN ( SELECT unnest(private.current_services()) AS unnest)) AND
    ((organisation_id IS NULL) OR (organisation_id = ( SELECT private.current_organisation_id() AS current_organisation_id)))) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "instructors create courses in their services and admins any" ON "public"."courses"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    ((( SELECT private.is_admin() AS is_admin) OR ((( SELECT private."current_role"() AS "current_role") = 'INSTRUCTOR'::public.user_role) AND (author_id = ( SELECT auth.uid() AS
    uid)) AND (service IN ( SELECT unnest(private.current_services()) AS unnest)) AND
    ((organisation_id IS NULL) OR (organisation_id = ( SELECT private.current_organisation_id() AS current_organisation_id)))) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "users read published courses, authors their own, admins all" ON "public"."courses"
  FOR SELECT
  TO "authenticated"
  USING
    ((((status = ANY (( SELECT private.visible_course_statuses() AS visible_course_statuses)::public.course_status[])) OR (author_id = ( SELECT auth.uid() AS uid)) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))) AND
    ((organisation_id IS NULL) OR ( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.current_organisation_id() AS current_organisation_id)))));

CREATE POLICY "visitors read published courses unless login-browse" ON "public"."courses"
  FOR SELECT
  TO "anon"
  USING (((status = 'ACTIVE'::public.course_status) AND (( SELECT private.course_access() AS course_access) <> 'login-browse'::public.course_access) AND (organisation_id IS NULL)));

CREATE POLICY "learners read their own CPD entries and admins all" ON "public"."cpd_entries"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (user_id IN ( SELECT private.administered_person_ids() AS administered_person_ids))));

CREATE POLICY "authors approve enrolments on their courses and admins any" ON "public"."enrollments"
  FOR UPDATE
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids)) OR (user_id IN ( SELECT
    private.administered_person_ids() AS administered_person_ids))))
  WITH
    CHECK
    ((( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids)) OR (user_id IN ( SELECT
    private.administered_person_ids() AS administered_person_ids))));

CREATE POLICY "users enrol themselves in visible published courses" ON "public"."enrollments"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    (((progress = 0) AND (NOT completed) AND (( SELECT private.is_admin() AS is_admin) OR (((user_id = ( SELECT auth.uid() AS uid)) OR (user_id IN ( SELECT
    private.administered_person_ids() AS administered_person_ids))) AND (EXISTS ( SELECT 1
   FROM public.courses c
  WHERE ((c.id = enrollments.course_id) AND (c.status = 'ACTIVE'::public.course_status))))))));

CREATE POLICY "users read own enrolments, authors their courses', admins all" ON "public"."enrollments"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids)) OR
    (user_id IN ( SELECT private.administered_person_ids() AS administered_person_ids)) OR (user_id IN ( SELECT private.managed_person_ids() AS managed_person_ids))));

CREATE POLICY "users unenrol themselves, authors and admins remove" ON "public"."enrollments"
  FOR DELETE
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids)) OR
    (user_id IN ( SELECT private.administered_person_ids() AS administered_person_ids))));

CREATE POLICY "national admins change organisations" ON "public"."organisations"
  FOR UPDATE
  TO "authenticated"
  USING (( SELECT private.is_admin() AS is_admin))
  WITH CHECK (( SELECT private.is_admin() AS is_admin));

CREATE POLICY "national admins create organisations" ON "public"."organisations"
  FOR INSERT
  TO "authenticated"
  WITH CHECK (( SELECT private.is_admin() AS is_admin));

CREATE POLICY "national admins delete organisations" ON "public"."organisations"
  FOR DELETE
  TO "authenticated"
  USING (( SELECT private.is_admin() AS is_admin));

CREATE POLICY "people read their organisation, national admins all" ON "public"."organisations"
  FOR SELECT
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (id = ( SELECT private.current_organisation_id() AS current_organisation_id))));

CREATE POLICY "admins delete profiles" ON "public"."profiles"
  FOR DELETE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "users read own profile, authors their learners', admins all" ON "public"."profiles"
  FOR SELECT
  TO "authenticated"
  USING
    (((id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (id IN ( SELECT private.learner_ids_of_authored_courses() AS
    learner_ids_of_authored_courses)) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id)) OR
    (id IN ( SELECT private.managed_person_ids() AS managed_person_ids))));

CREATE POLICY "users update their own profile and admins update any" ON "public"."profiles"
  FOR UPDATE
  TO "authenticated"
  USING
    (((id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS
    administered_organisation_id))))
  WITH
    CHECK
    (((id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS
    administered_organisation_id))));

CREATE POLICY "users read own attempts, authors their quizzes', admins all" ON "public"."quiz_attempts"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (quiz_id IN ( SELECT private.authored_quiz_ids() AS authored_quiz_ids)) OR (user_id IN
    ( SELECT private.administered_person_ids() AS administered_person_ids))));

CREATE POLICY "organisation admins add their units, national admins any" ON "public"."units"
  FOR INSERT
  TO "authenticated"
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "organisation admins change their units, national admins any" ON "public"."units"
  FOR UPDATE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))))
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "organisation admins delete their units, national admins any" ON "public"."units"
  FOR DELETE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "people read their organisation's units, national admins all" ON "public"."units"
  FOR SELECT
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.current_organisation_id() AS current_organisation_id))));

CREATE POLICY "users read own progress, authors their courses', admins all" ON "public"."user_module_progress"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids)) OR
    (user_id IN ( SELECT private.administered_person_ids() AS administered_person_ids)) OR (user_id IN ( SELECT private.managed_person_ids() AS managed_person_ids))));

COMMENT ON COLUMN "public"."organisations"."code" IS 'Short code, 2 to 16 letters, digits or dashes, unique ignoring case.';

COMMENT ON COLUMN "public"."organisations"."service" IS 'The organisation''s sector, one of the six services.';

COMMENT ON COLUMN "public"."profiles"."manager_id" IS 'The person''s line manager, of the same organisation, never themselves, no cycle; null for none. Changed by a national administrator or their organisation''s, never by the person.';

COMMENT ON COLUMN "public"."profiles"."organisation_id" IS 'The person''s organisation (supabase/schemas/13_organisations.sql); null for none. An ADMIN with null is national. Changed only by a national administrator.';

COMMENT ON COLUMN "public"."profiles"."unit_id" IS 'The person''s unit, of their organisation; null for none. Changed by a national administrator or their organisation''s, never by the person.';

COMMENT ON FUNCTION "private"."administered_organisation_id"() IS 'The organisation the caller administers (an ADMIN with an organisation), else null.';

COMMENT ON FUNCTION "private"."administered_person_ids"() IS 'The people of the organisation the caller administers; none unless the caller is an organisation administrator.';

COMMENT ON FUNCTION "private"."check_profile_placement"() IS 'Before insert or update on profiles: the manager is of the same organisation and not one of the person''s reports (23514); moving organisation clears the unit and manager unless new ones are given.';

COMMENT ON FUNCTION "private"."check_unit_tree"() IS 'Before insert or update on units: the organisation never changes, and the parent is not the unit nor one below it (23514).';

COMMENT ON FUNCTION "private"."count_courses"() IS 'Keeps private.course_counts in step with public.courses'' national courses (statement-level triggers); an organisation''s courses are counted when asked (private.visible_course_count).';

COMMENT ON FUNCTION "private"."current_organisation_id"() IS 'The caller''s organisation, or null (a visitor, or a person of no organisation).';

COMMENT ON FUNCTION "private"."guard_last_admin"() IS 'Before update/delete on profiles: refuses (P0409) to demote (or place in an organisation) or delete the only national ADMIN.';

COMMENT ON FUNCTION "private"."guard_profile_update"() IS 'Before-update trigger on profiles: a non-admin API caller may not change role, services, username, organisation, unit or manager (42501); an organisation administrator may change those of their own people but not the organisation, nor their own role; nobody changes their own organisation, unit or manager.';

COMMENT ON FUNCTION "private"."is_admin"() IS 'True when the caller (auth.uid()) is a national ADMIN (no organisation): the administrator of every policy and check. An ADMIN of an organisation is not one (private.administered_organisation_id).';

COMMENT ON FUNCTION "private"."is_national_admin"() IS 'True when the caller is an ADMIN without an organisation (the same as private.is_admin).';

COMMENT ON FUNCTION "private"."is_org_admin"() IS 'True when the caller is the administrator of an organisation (an ADMIN with an organisation).';

COMMENT ON FUNCTION "private"."managed_person_ids"() IS 'The caller''s reports, direct and down the manager chain (at most 32 levels).';

COMMENT ON FUNCTION "private"."manages"(uuid) IS 'True when the person is one of the caller''s reports, directly or down the manager chain.';

COMMENT ON FUNCTION "private"."release_reports"() IS 'After a person changes organisation: their reports (of the old organisation) no longer have them as manager.';

COMMENT ON FUNCTION "private"."unit_subtree"(uuid) IS 'The unit and every unit below it (none for an unknown unit).';

COMMENT ON TABLE "public"."organisations" IS 'A body that uses the platform (a police force, an ambulance trust...): its people see its courses and national ones; its administrators see only its people.';

COMMENT ON TABLE "public"."units" IS 'A unit of an organisation (area, station, watch, team...): a tree of any depth, parent in the same organisation, no cycle.';

REVOKE ALL ON FUNCTION "private"."administered_organisation_id"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."administered_organisation_id"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."administered_person_ids"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."administered_person_ids"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."check_profile_placement"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."check_profile_placement"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."check_unit_tree"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."check_unit_tree"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."current_organisation_id"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."current_organisation_id"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."is_national_admin"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."is_national_admin"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."is_org_admin"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."is_org_admin"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."managed_person_ids"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."managed_person_ids"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."manages"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."manages"(uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."release_reports"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."release_reports"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."unit_subtree"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."unit_subtree"(uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ("organisation_id") ON TABLE "public"."courses" FROM "authenticated";

GRANT INSERT ("organisation_id"), UPDATE ("organisation_id") ON TABLE "public"."courses" TO "authenticated";

-- Table privileges, in the order that keeps them (pg-delta lists a table's REVOKE ALL after its
-- column grants, which it would take away), and none for anon whatever the server's defaults.
revoke all on public.organisations from anon, authenticated, service_role;
grant select, delete on public.organisations to authenticated;
grant insert (name, code, service) on public.organisations to authenticated;
grant update (name, code, service) on public.organisations to authenticated;
grant all on public.organisations to service_role;

revoke all on public.units from anon, authenticated, service_role;
grant select, delete on public.units to authenticated;
grant insert (organisation_id, parent_id, name) on public.units to authenticated;
grant update (parent_id, name) on public.units to authenticated;
grant all on public.units to service_role;

grant update (organisation_id, unit_id, manager_id) on public.profiles to authenticated;

-- Courses: an instructor or administrator may name the organisation (the policies check which).
grant insert (organisation_id), update (organisation_id) on public.courses to authenticated;
