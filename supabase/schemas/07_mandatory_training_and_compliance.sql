-- Mandatory training and compliance.
--
-- A rule (public.required_training) says that a course is required for a role, a service or both,
-- to be completed within so many days and renewed so many days before the certificate expires.
-- People the rule applies to are enrolled automatically, now and when they join later. Compliance
-- (who is complete, due, overdue or expired) is computed by private.required_training_status and
-- read by admins and by instructors for their services.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.required_training (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  role public.user_role,
  service public.service_code,
  due_within_days integer not null default 30,
  renew_before_days integer not null default 30,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint required_training_role_or_service check (role is not null or service is not null),
  constraint required_training_due_within_days_range check (due_within_days between 1 and 365),
  constraint required_training_renew_before_days_range check (renew_before_days between 0 and 365),
  constraint required_training_course_role_service_key unique nulls not distinct (course_id, role, service)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.required_training is
  'A course required for a role and/or a service: matching users are enrolled automatically and tracked for compliance.';

comment on column public.required_training.role is
  'Users of this role must take the course (null: any role, then service is set).';

comment on column public.required_training.service is
  'Users in this service must take the course (null: any service, then role is set).';

comment on column public.required_training.due_within_days is
  'Days a person who has never held a certificate has to complete it, from the rule or their enrolment, whichever is later.';

comment on column public.required_training.renew_before_days is
  'For courses whose certificate expires: renewal is due this many days before expiry.';

comment on column public.required_training.created_by is
  'Who made the rule (set null when that user is deleted).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index required_training_created_by_idx on public.required_training (created_by);

create index required_training_service_idx on public.required_training (service);

create index required_training_role_idx on public.required_training (role);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.required_training enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "rules of my courses, my services or that apply to me; admins all"
  on public.required_training for select to authenticated
  using (
    (select private.is_admin())
    or course_id in (select private.authored_course_ids())
    or ((select private.current_role()) = 'INSTRUCTOR' and service in (select unnest(private.current_services())))
    or (
      (role is null or role = (select private.current_role()))
      and (service is null or service in (select unnest(private.current_services())))
    )
  );

create policy "instructors add rules for their courses in their services; admins any"
  on public.required_training for insert to authenticated
  with check (private.manages_required_training(course_id, service));

create policy "instructors change rules of their courses in their services; admins any"
  on public.required_training for update to authenticated
  using (private.manages_required_training(course_id, service))
  with check (private.manages_required_training(course_id, service));

create policy "instructors remove rules of their courses in their services; admins any"
  on public.required_training for delete to authenticated
  using (private.manages_required_training(course_id, service));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.required_training from anon, authenticated, service_role;
grant select, delete on public.required_training to authenticated;
grant all on public.required_training to service_role;
grant insert (course_id, role, service, due_within_days, renew_before_days) on
  public.required_training to authenticated;
grant update (role, service, due_within_days, renew_before_days) on public.required_training to
  authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- A rule needs a published course; created_by is the caller for API callers, whatever was sent.
create function private.prepare_required_training()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' and current_user in ('anon', 'authenticated') then
    new.created_by := (select auth.uid());
  end if;
  if tg_op = 'INSERT' and not exists (
    select 1 from public.courses c where c.id = new.course_id and c.status = 'ACTIVE'
  ) then
    raise exception 'Only a published course can be required' using errcode = '22023';
  end if;
  return new;
end;
$$;
comment on function private.prepare_required_training() is
  'Before-insert trigger on required_training: the course must be published (22023); created_by is the API caller.';
revoke all on function private.prepare_required_training() from public;

create function private.enrol_for_required_rule()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_enrolled integer := 0;
  v_title text;
  v_old jsonb;
  v_new jsonb := jsonb_build_object('role', new.role, 'service', new.service,
    'dueWithinDays', new.due_within_days, 'renewBeforeDays', new.renew_before_days);
begin
  if tg_op = 'INSERT' or new.role is distinct from old.role or new.service is distinct from old.service
     or new.course_id is distinct from old.course_id then
    insert into public.enrollments (user_id, course_id, status)
    select p.id, new.course_id, 'ACTIVE'
    from public.profiles p
    where (new.role is null or p.role = new.role)
      and (new.service is null or p.services @> array[new.service])
      and p.deactivated_at is null
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
    get diagnostics v_enrolled = row_count;
  end if;
  if tg_op = 'UPDATE' then
    v_old := jsonb_build_object('role', old.role, 'service', old.service,
      'dueWithinDays', old.due_within_days, 'renewBeforeDays', old.renew_before_days);
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
$$;
comment on function private.enrol_for_required_rule() is
  'After insert/update of a required_training rule: enrols (ACTIVE) every active user it matches, in one statement, and records required_training.added / .changed with how many it enrolled.';
revoke all on function private.enrol_for_required_rule() from public;

create function private.enrol_profiles_in_required_training()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.enrollments (user_id, course_id, status)
    select distinct n.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from new_rows n
    join public.required_training r
      on (r.role is null or r.role = n.role) and (r.service is null or n.services @> array[r.service])
    where n.deactivated_at is null
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
  else
    insert into public.enrollments (user_id, course_id, status)
    select distinct n.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from new_rows n
    join old_rows o on o.id = n.id
    join public.required_training r
      on (r.role is null or r.role = n.role) and (r.service is null or n.services @> array[r.service])
    where (n.role is distinct from o.role or n.services is distinct from o.services)
      and n.deactivated_at is null
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
  end if;
  return null;
end;
$$;
comment on function private.enrol_profiles_in_required_training() is
  'After insert / update of profiles (per statement): enrols the new or re-assigned users in the required courses they now match.';
revoke all on function private.enrol_profiles_in_required_training() from public;

-- Days before a due date when an item becomes "due soon".
create function private.required_training_due_soon_days()
returns integer
language sql immutable
set search_path = ''
as $$ select 30 $$;
comment on function private.required_training_due_soon_days() is
  'A required item is due soon within this many days of its due date.';
revoke all on function private.required_training_due_soon_days() from public;
grant execute on function private.required_training_due_soon_days() to authenticated, service_role;

-- Compliance: THE status rule leaves deactivated people out (the summary, the people list, their CSV
-- and the dashboards all read it).
create function private.required_training_status(
  p_user_id uuid default NULL::uuid,
  p_service public.service_code default NULL::public.service_code,
  p_role public.user_role default NULL::public.user_role,
  p_course_id uuid default NULL::uuid
)
returns table(
  user_id uuid,
  username text,
  name text,
  email text,
  role public.user_role,
  services public.service_code[],
  course_id uuid,
  course_title text,
  course_service public.service_code,
  enrollment_id uuid,
  progress integer,
  due_at timestamp with time zone,
  status text,
  certificate_id uuid,
  certificate_expires_at timestamp with time zone,
  certificate_state text
)
language sql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.required_training_status(uuid,public.service_code,public.user_role,uuid) is
  'THE status rule of required training: one row per person and required (published) course the caller may see (learner: self; instructor: people sharing a service, and self; admin: all), with due date and status overdue | due-soon | in-progress | done. Filters: person, service, role, course.';
revoke all on function
  private.required_training_status(uuid,public.service_code,public.user_role,uuid) from public;
grant execute on function
  private.required_training_status(uuid,public.service_code,public.user_role,uuid) to authenticated,
  service_role;

-- How a status sorts: the most urgent first.
create function private.required_training_status_rank(p_status text)
returns integer
language sql immutable
set search_path = ''
as $$
  select case p_status when 'overdue' then 1 when 'due-soon' then 2 when 'in-progress' then 3 else 4 end
$$;
comment on function private.required_training_status_rank(text) is
  'Sort order of statuses: overdue, due-soon, in-progress, done.';
revoke all on function private.required_training_status_rank(text) from public;
grant execute on function private.required_training_status_rank(text) to authenticated,
  service_role;

-- Refuses anyone but instructors and admins (the compliance view is theirs).
create function private.require_compliance_viewer()
returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if coalesce((select private.current_role()) in ('INSTRUCTOR', 'ADMIN'), false) is false then
    raise exception 'Only instructors and administrators can see compliance' using errcode = '42501';
  end if;
end;
$$;
comment on function private.require_compliance_viewer() is
  'Raises 42501 unless the caller is an INSTRUCTOR or ADMIN.';
revoke all on function private.require_compliance_viewer() from public;
grant execute on function private.require_compliance_viewer() to authenticated, service_role;

create function private.compliance_summary(
  p_service public.service_code default NULL::public.service_code,
  p_role public.user_role default NULL::public.user_role,
  p_course_id uuid default NULL::uuid
)
returns table(
  service public.service_code,
  course_id uuid,
  course_title text,
  people bigint,
  compliant bigint,
  due_soon bigint,
  overdue bigint,
  in_progress bigint
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_compliance_viewer();
  return query
  select s.service, st.course_id, st.course_title,
         count(*),
         count(*) filter (where st.status = 'done'),
         count(*) filter (where st.status = 'due-soon'),
         count(*) filter (where st.status = 'overdue'),
         count(*) filter (where st.status = 'in-progress')
  from private.required_training_status(null, p_service, p_role, p_course_id) st
  cross join lateral (
    select u.service from unnest(st.services) u(service)
    union all
    select null::public.service_code where cardinality(st.services) = 0
  ) s
  where (p_service is null or s.service = p_service)
    and private.compliance_in_scope(p_service, array_remove(array[s.service], null))
  group by s.service, st.course_id, st.course_title
  order by s.service nulls last, st.course_title, st.course_id;
end;
$$;
comment on function private.compliance_summary(public.service_code,public.user_role,uuid) is
  'Instructors and admins: per service and required course, people required, compliant (done), due soon, overdue, in progress.';
revoke all on function private.compliance_summary(public.service_code,public.user_role,uuid) from
  public;
grant execute on function private.compliance_summary(public.service_code,public.user_role,uuid) to
  authenticated, service_role;

create function private.compliance_people(
  p_service public.service_code default NULL::public.service_code,
  p_role public.user_role default NULL::public.user_role,
  p_course_id uuid default NULL::uuid,
  p_status text default NULL::text,
  p_limit integer default 20,
  p_offset integer default 0
)
returns table(
  user_id uuid,
  username text,
  name text,
  email text,
  role public.user_role,
  services public.service_code[],
  course_id uuid,
  course_title text,
  progress integer,
  due_at timestamp with time zone,
  status text,
  certificate_expires_at timestamp with time zone,
  total bigint
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_compliance_viewer();
  return query
  select st.user_id, st.username, st.name, st.email, st.role, st.services, st.course_id, st.course_title,
         st.progress, st.due_at, st.status, st.certificate_expires_at, count(*) over ()
  from private.required_training_status(null, p_service, p_role, p_course_id) st
  where (p_status is null or st.status = p_status)
    and private.compliance_in_scope(p_service, st.services)
  order by private.required_training_status_rank(st.status), st.due_at nulls last, st.name, st.user_id, st.course_title
  limit greatest(p_limit, 0) offset greatest(p_offset, 0);
end;
$$;
comment on function private.compliance_people(public.service_code,public.user_role,uuid,text,integer,integer) is
  'Instructors and admins: the people required to take courses, with status and due date, most urgent first, paged.';
revoke all on function
  private.compliance_people(public.service_code,public.user_role,uuid,text,integer,integer) from
  public;
grant execute on function
  private.compliance_people(public.service_code,public.user_role,uuid,text,integer,integer) to
  authenticated, service_role;

create function private.compliance_in_scope(
  p_service public.service_code,
  p_person_services public.service_code[]
)
returns boolean
language sql stable
set search_path = ''
as $$
  select (select private.is_admin())
      or (p_person_services && (select private.current_services())
          and (p_service is null or array[p_service] <@ (select private.current_services())))
$$;
comment on function private.compliance_in_scope(public.service_code,public.service_code[]) is
  'THE scope rule of compliance views: admins see everyone; instructors a person of one of their services (and, with a service filter, only a service of their own).';
revoke all on function private.compliance_in_scope(public.service_code,public.service_code[]) from
  public;
grant execute on function private.compliance_in_scope(public.service_code,public.service_code[]) to
  authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger required_training_set_updated_at
  before update on public.required_training
  for each row execute function private.set_updated_at();

create trigger required_training_prepare
  before insert on public.required_training
  for each row execute function private.prepare_required_training();

create trigger profiles_required_training_insert
  after insert on public.profiles
  referencing new table as new_rows
  for each statement execute function private.enrol_profiles_in_required_training();

create trigger profiles_required_training_update
  after update on public.profiles
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.enrol_profiles_in_required_training();

create trigger required_training_enrol
  after insert or update on public.required_training
  for each row execute function private.enrol_for_required_rule();
