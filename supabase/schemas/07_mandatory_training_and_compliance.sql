-- Mandatory training and compliance.
--
-- A rule (public.required_training) says that a course is required for a role, a service, an
-- organisation (and within it a unit with its sub-units) or any of them together, to be completed
-- within so many days and renewed so many days before the certificate expires. A rule without an
-- organisation is national: it applies to everyone matching its role and service, as before
-- organisations. An organisation's administrator makes rules only for their own organisation;
-- an instructor (own courses, own services) of an organisation makes rules of it only; national
-- rules are made by national people.
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
  organisation_id uuid,
  unit_id uuid,
  due_within_days integer not null default 30,
  renew_before_days integer not null default 30,
  notify_due_soon_days integer[],
  notify_escalation_days integer,
  created_by uuid references public.profiles (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint required_training_role_or_service check (role is not null or service is not null or organisation_id is not null),
  constraint required_training_unit_needs_organisation check (unit_id is null or organisation_id is not null),
  constraint required_training_due_within_days_range check (due_within_days between 1 and 365),
  constraint required_training_renew_before_days_range check (renew_before_days between 0 and 365),
  -- As settings.notify_due_soon_days: 1 to 5 distinct days of 1 to 365, largest first.
  constraint required_training_notify_due_soon_days_shape check (notify_due_soon_days is null or (array_ndims(notify_due_soon_days) = 1 and array_lower(notify_due_soon_days, 1) = 1 and cardinality(notify_due_soon_days) between 1 and 5
    and array_position(notify_due_soon_days, null) is null and notify_due_soon_days[1] <= 365 and notify_due_soon_days[cardinality(notify_due_soon_days)] >= 1
    and (cardinality(notify_due_soon_days) < 2 or notify_due_soon_days[1] > notify_due_soon_days[2]) and (cardinality(notify_due_soon_days) < 3 or notify_due_soon_days[2] > notify_due_soon_days[3])
    and (cardinality(notify_due_soon_days) < 4 or notify_due_soon_days[3] > notify_due_soon_days[4]) and (cardinality(notify_due_soon_days) < 5 or notify_due_soon_days[4] > notify_due_soon_days[5]))),
  constraint required_training_notify_escalation_days_range check (notify_escalation_days between 1 and 365),
  constraint required_training_scope_key unique nulls not distinct (course_id, role, service, organisation_id, unit_id)
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

comment on column public.required_training.organisation_id is
  'The organisation whose people must take the course (null: a national rule, every organisation).';

comment on column public.required_training.unit_id is
  'A unit of that organisation: only the people of this unit and the units below it (null: the whole organisation).';

comment on column public.required_training.due_within_days is
  'Days a person who has never held a certificate has to complete it, from the rule or their enrolment, whichever is later.';

comment on column public.required_training.renew_before_days is
  'For courses whose certificate expires: renewal is due this many days before expiry.';

comment on column public.required_training.notify_due_soon_days is
  'Days before the due date when "due soon" notices go, for this rule (null: settings.notify_due_soon_days).';

comment on column public.required_training.notify_escalation_days is
  'Days overdue after which the line manager is told, for this rule (null: settings.notify_escalation_days).';

comment on column public.required_training.created_by is
  'Who made the rule (set null when that user is deleted).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index required_training_created_by_idx on public.required_training (created_by);

create index required_training_service_idx on public.required_training (service);

create index required_training_role_idx on public.required_training (role);

create index required_training_organisation_idx on public.required_training (organisation_id);

create index required_training_unit_idx on public.required_training (unit_id, organisation_id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.required_training enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- An organisation's administrator reads their organisation's rules and the national ones; anyone
-- else reads national rules and their own organisation's (of their courses, of their services as
-- an instructor, or that apply to them, unit included).
create policy "rules of my courses, my services or that apply to me; admins theirs"
  on public.required_training for select to authenticated
  using (
    (select private.is_admin())
    or organisation_id = (select private.administered_organisation_id())
    or (organisation_id is null and (select private.administered_organisation_id()) is not null)
    or (
      (organisation_id is null or organisation_id = (select private.current_organisation_id()))
      and (
        course_id in (select private.authored_course_ids())
        or ((select private.current_role()) = 'INSTRUCTOR' and service in (select unnest(private.current_services())))
        or (
          (role is null or role = (select private.current_role()))
          and (service is null or service in (select unnest(private.current_services())))
          and (unit_id is null or unit_id in (select private.my_unit_ancestors()))
        )
      )
    )
  );

create policy "instructors add rules for their courses in their services; admins theirs"
  on public.required_training for insert to authenticated
  with check (private.manages_required_training(course_id, service, organisation_id));

create policy "instructors change rules of their courses in their services; admins theirs"
  on public.required_training for update to authenticated
  using (private.manages_required_training(course_id, service, organisation_id))
  with check (private.manages_required_training(course_id, service, organisation_id));

create policy "instructors remove rules of their courses in their services; admins theirs"
  on public.required_training for delete to authenticated
  using (private.manages_required_training(course_id, service, organisation_id));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.required_training from anon, authenticated, service_role;
grant select, delete on public.required_training to authenticated;
grant all on public.required_training to service_role;
grant insert (course_id, role, service, organisation_id, unit_id, due_within_days, renew_before_days,
  notify_due_soon_days, notify_escalation_days) on public.required_training to authenticated;
grant update (role, service, organisation_id, unit_id, due_within_days, renew_before_days,
  notify_due_soon_days, notify_escalation_days) on public.required_training to authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- A rule needs a published course; a rule of an organisation's course is of that organisation; a
-- unit is of the rule's organisation (the foreign key); created_by is the caller for API callers.
create function private.prepare_required_training()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_course_organisation uuid;
  v_my_organisation uuid;
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
  -- A rule made by a person of an organisation (not a national admin) is of that organisation: a
  -- national rule reaches every organisation's people and is made by national people only.
  if current_user in ('anon', 'authenticated') and not private.is_admin() then
    v_my_organisation := private.current_organisation_id();
    if v_my_organisation is not null and new.organisation_id is distinct from v_my_organisation then
      raise exception 'A rule you make is of your own organisation'
        using errcode = '42501', hint = 'organisation_id';
    end if;
  end if;
  return new;
end;
$$;
comment on function private.prepare_required_training() is
  'Before-insert/update trigger on required_training: the course must be published (22023) and, for an organisation''s course, the rule of that organisation (22023); a rule an API caller of an organisation makes is of that organisation (42501, hint organisation_id; not for a national admin); created_by is the API caller.';
revoke all on function private.prepare_required_training() from public;

-- The audit record of a rule: what it requires of whom (organisation and unit only when set, so a
-- national rule's record reads as before organisations).
create function private.required_training_audit_value(p_rule public.required_training)
returns jsonb
language sql immutable
set search_path = ''
as $$
  select jsonb_build_object('role', p_rule.role, 'service', p_rule.service,
    'dueWithinDays', p_rule.due_within_days, 'renewBeforeDays', p_rule.renew_before_days)
    -- The notice overrides only when set, so a rule without them reads as before.
    || jsonb_strip_nulls(jsonb_build_object('notifyDueSoonDays', p_rule.notify_due_soon_days,
         'notifyEscalationDays', p_rule.notify_escalation_days))
    || case when p_rule.organisation_id is null then '{}'::jsonb
            else jsonb_build_object('organisationId', p_rule.organisation_id, 'unitId', p_rule.unit_id) end
$$;
comment on function private.required_training_audit_value(public.required_training) is
  'A rule''s scope and periods as recorded in the audit log.';
revoke all on function private.required_training_audit_value(public.required_training) from public;

create function private.enrol_for_required_rule()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.enrol_for_required_rule() is
  'After insert/update of a required_training rule: enrols (ACTIVE) every active user it matches (role, service, organisation, unit with its sub-units), in one statement, and records required_training.added / .changed with how many it enrolled.';
revoke all on function private.enrol_for_required_rule() from public;

-- Whether a rule reaches a person: THE matching rule of required training (role, service,
-- organisation, and unit with the units below it), for the triggers and the status.
create function private.required_rule_matches(
  p_rule public.required_training,
  p_role public.user_role,
  p_services public.service_code[],
  p_organisation_id uuid,
  p_unit_id uuid
)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (p_rule.role is null or p_role = p_rule.role)
    and (p_rule.service is null or p_services @> array[p_rule.service])
    and (p_rule.organisation_id is null or p_organisation_id = p_rule.organisation_id)
    and (p_rule.unit_id is null or p_unit_id in (select private.unit_subtree(p_rule.unit_id)));
end;
$$;
comment on function private.required_rule_matches(public.required_training,public.user_role,public.service_code[],uuid,uuid) is
  'True when the rule applies to a person of this role, services, organisation and unit (a unit rule reaches its sub-units).';
revoke all on function
  private.required_rule_matches(public.required_training,public.user_role,public.service_code[],uuid,uuid) from public;

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
$$;
comment on function private.enrol_profiles_in_required_training() is
  'After insert / update of profiles (per statement): enrols the new, re-assigned or moved (organisation, unit) users in the required courses they now match.';
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

-- Compliance: THE status rule leaves deactivated people out (the summary, the breakdown by unit, the
-- people list, their CSV and the dashboards all read it).
-- THE status rule of required training, as the text of a query (common table expressions ending in
-- `statuses`), run with EXECUTE by private.required_training_states and by the compliance counts,
-- so that each call is planned for its own values (one person by primary key, an organisation by its
-- index, everyone by hash joins) and the counts are taken inside the same statement. Parameters: $1
-- person, $2 service, $3 role, $4 course, $5 organisation, $6 unit (with its sub-units). Set-based:
-- the people are filtered first (the filters and the caller's scope), the rules are read once (a
-- unit rule's sub-units listed once per rule), enrolments and the latest certificates are joined
-- once, and no function is called per row. Each status row carries its placement's number
-- (`statuses.placement`, a row of `placements`), by which the compliance counts group.
create function private.required_training_states_query()
returns text
language sql immutable
set search_path = ''
as $$ select $q$
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
      -- the nil uuid: the people of no organisation (the national summary counts them apart)
      and ($5::uuid is null or p.organisation_id = $5
           or ($5 = '00000000-0000-0000-0000-000000000000'::uuid and p.organisation_id is null))
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
  -- The recognised credentials (29_recognition.sql): a credential the person holds that their
  -- organisation accepts as equivalent to a required course, from an issuer it trusts, valid now.
  -- Uploaded: verified on upload (public.held_credentials). Earned here (of another organisation's
  -- course the equivalence names): the person's latest certificate of that course, not revoked.
  -- Per person and course the one valid longest (never expiring first).
  recognised as (
    select distinct on (x.user_id, x.course_id) x.user_id, x.course_id, x.source, x.id, x.valid_until,
           x.issuer_name, x.achievement_name
    from (
      select v.id as user_id, e.course_id, 'upload'::text as source, hc.id, hc.valid_until,
             ti.name as issuer_name, e.achievement_name
      from public.held_credentials hc
      join visible v on v.id = hc.user_id
      join public.recognition_equivalences e
        on e.organisation_id = v.organisation_id and e.issuer_id = hc.issuer_id and e.achievement_id = hc.achievement_id
      join public.trusted_issuers ti on ti.organisation_id = e.organisation_id and ti.issuer_id = e.issuer_id
      where hc.verified and (hc.valid_until is null or hc.valid_until > now())
        and ($1::uuid is null or hc.user_id = $1)
        and e.course_id = any ((select array_agg(r.course_id) from rules r)::uuid[])
      union all
      select v.id, e.course_id, 'platform'::text, ct.id, ct.expires_at, ti.name, e.achievement_name
      from (
        select distinct on (c2.user_id, c2.course_id) c2.user_id, c2.course_id, c2.id, c2.expires_at
        from public.certificates c2
        where c2.revoked_at is null
          and c2.course_id in (select e2.platform_course_id from public.recognition_equivalences e2)
          and ($1::uuid is null or c2.user_id = $1)
        order by c2.user_id, c2.course_id, c2.issued_at desc
      ) ct
      join visible v on v.id = ct.user_id
      join public.recognition_equivalences e
        on e.organisation_id = v.organisation_id and e.platform_course_id = ct.course_id
      join public.trusted_issuers ti on ti.organisation_id = e.organisation_id and ti.issuer_id = e.issuer_id
      where (ct.expires_at is null or ct.expires_at > now())
        and e.course_id = any ((select array_agg(r.course_id) from rules r)::uuid[])
    ) x
    order by x.user_id, x.course_id, x.valid_until desc nulls first, x.source desc
  ),
  judged as (
    select p.id as user_id, p.services, p.organisation_id, p.unit_id, m.course_id, p.placement,
           e.id as enrollment_id, coalesce(e.progress, 0) as progress,
           case when rec.id is null then cert.id end as certificate_id,
           case when rec.id is null then cert.expires_at else rec.valid_until end as certificate_expires_at,
           -- valid or expiring (private.certificate_state of a certificate not revoked), or recognised
           rec.id is not null or cert.id is not null and (cert.expires_at is null or cert.expires_at > now()) as certified,
           rec.source as recognition_source, rec.id as recognition_id,
           rec.issuer_name as recognised_issuer, rec.achievement_name as recognised_achievement,
           case
             when rec.id is not null then rec.valid_until - m.renew_before
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
    -- a recognised credential counts unless the person's own certificate is valid as long or longer
    left join recognised rec on rec.user_id = p.id and rec.course_id = m.course_id
      and (cert.id is null or cert.expires_at is not null
           and (cert.expires_at <= now() or rec.valid_until is null or rec.valid_until > cert.expires_at))
    -- worked out once per row (not again in each use of due_at below)
    offset 0
  ),
  statuses as (
    select j.user_id, j.services, j.organisation_id, j.unit_id, j.course_id, j.placement, j.enrollment_id, j.progress,
           j.due_at,
           case
             when j.certified then
               case when j.due_at is not null and j.due_at <= now() + make_interval(days => private.required_training_due_soon_days())
                    then 'due-soon' when j.recognition_id is not null then 'recognised' else 'done' end
             when j.due_at <= now() then 'overdue'
             when j.due_at <= now() + make_interval(days => private.required_training_due_soon_days()) then 'due-soon'
             else 'in-progress'
           end as status,
           j.certificate_id, j.certificate_expires_at,
           j.recognition_source, j.recognition_id, j.recognised_issuer, j.recognised_achievement
    from judged j
  )
$q$ $$;
comment on function private.required_training_states_query() is
  'THE status rule of required training as query text (CTEs ending in statuses; $1 person, $2 service, $3 role, $4 course, $5 organisation, $6 unit), for EXECUTE by the status and compliance functions.';
revoke all on function private.required_training_states_query() from public;
grant execute on function private.required_training_states_query() to authenticated, service_role;

-- Join by hash for more than one person (everyone, an organisation, a unit): the planner cannot
-- tell how many people a placement's rules match (it believes one) and would read the enrolments of
-- the required courses once per person, or sort them all, and would group by sorting. One person
-- keeps the lookups by key. Transaction-local: the callers' SET clauses restore them when they
-- return.
create function private.required_training_join_by_hash(p_user_id uuid, p_organisation_id uuid, p_unit_id uuid)
returns void
language plpgsql volatile
set search_path = ''
as $$
begin
  if p_user_id is null then
    perform set_config('enable_nestloop', 'off', true);
    perform set_config('enable_mergejoin', 'off', true);
    perform set_config('enable_sort', 'off', true);
  end if;
end;
$$;
comment on function private.required_training_join_by_hash(uuid,uuid,uuid) is
  'For the status rule over more than one person: no nested loop, merge join or sort where a hash serves, for the rest of the calling function (which restores them by its SET clause).';
revoke all on function private.required_training_join_by_hash(uuid,uuid,uuid) from public;
grant execute on function private.required_training_join_by_hash(uuid,uuid,uuid) to authenticated, service_role;

-- One row per person and required (published) course the caller may see (learner: self; manager:
-- their reports; instructor: people sharing a service, of their organisation if they have one;
-- organisation admin: their organisation; national admin: all). Deactivated people are left out.
create function private.required_training_states(
  p_user_id uuid default NULL::uuid,
  p_service public.service_code default NULL::public.service_code,
  p_role public.user_role default NULL::public.user_role,
  p_course_id uuid default NULL::uuid,
  p_organisation_id uuid default NULL::uuid,
  p_unit_id uuid default NULL::uuid
)
returns table(
  user_id uuid,
  services public.service_code[],
  organisation_id uuid,
  unit_id uuid,
  course_id uuid,
  enrollment_id uuid,
  progress integer,
  due_at timestamp with time zone,
  status text,
  certificate_id uuid,
  certificate_expires_at timestamp with time zone,
  recognition_source text,
  recognition_id uuid,
  recognised_issuer text,
  recognised_achievement text
)
language plpgsql volatile security definer
set search_path = ''
set work_mem = '64MB'
set enable_nestloop = on
set enable_mergejoin = on
set enable_sort = on
set jit = off
as $$
begin
  perform private.required_training_join_by_hash(p_user_id, p_organisation_id, p_unit_id);
  return query execute private.required_training_states_query() || $q$
    select s.user_id, s.services, s.organisation_id, s.unit_id, s.course_id, s.enrollment_id, s.progress,
           s.due_at, s.status, s.certificate_id, s.certificate_expires_at,
           s.recognition_source, s.recognition_id, s.recognised_issuer, s.recognised_achievement
    from statuses s $q$
    using p_user_id, p_service, p_role, p_course_id, p_organisation_id, p_unit_id;
end;
$$;
comment on function private.required_training_states(uuid,public.service_code,public.user_role,uuid,uuid,uuid) is
  'THE status rule of required training, set-based: one row per person and required (published) course the caller may see (learner: self; manager: their reports; instructor: people sharing a service, of their organisation if they have one; organisation admin: their organisation; national admin: all), with due date and status overdue | due-soon | in-progress | done | recognised (satisfied by a recognised credential, whose origin the recognition columns give; certificate_expires_at is then its validUntil). Filters: person, service, role, course, organisation, unit (with its sub-units).';
revoke all on function
  private.required_training_states(uuid,public.service_code,public.user_role,uuid,uuid,uuid) from public;
grant execute on function
  private.required_training_states(uuid,public.service_code,public.user_role,uuid,uuid,uuid) to authenticated,
  service_role;

-- The status rows with the person's and the course's names, for the screens and the CSV.
create function private.required_training_status(
  p_user_id uuid default NULL::uuid,
  p_service public.service_code default NULL::public.service_code,
  p_role public.user_role default NULL::public.user_role,
  p_course_id uuid default NULL::uuid,
  p_organisation_id uuid default NULL::uuid,
  p_unit_id uuid default NULL::uuid
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
  certificate_state text,
  organisation_id uuid,
  unit_id uuid,
  recognition_source text,
  recognised_issuer text,
  recognised_achievement text
)
language sql stable security definer
set search_path = ''
as $$
  with me as materialized (
    select (select auth.uid()) as uid, private.is_admin() as admin
  )
  select s.user_id, p.username, p.name, case when me.admin or p.id = me.uid then p.email end,
         p.role, s.services, s.course_id, c.title, c.service, s.enrollment_id, s.progress, s.due_at, s.status,
         s.certificate_id, s.certificate_expires_at,
         case when s.certificate_id is not null then private.certificate_state(s.certificate_expires_at, null) end,
         s.organisation_id, s.unit_id, s.recognition_source, s.recognised_issuer, s.recognised_achievement
  from private.required_training_states(p_user_id, p_service, p_role, p_course_id, p_organisation_id, p_unit_id) s
  cross join me
  join public.profiles p on p.id = s.user_id
  join public.courses c on c.id = s.course_id
$$;
comment on function private.required_training_status(uuid,public.service_code,public.user_role,uuid,uuid,uuid) is
  'The status rule (private.required_training_states) with names: one row per person and required course the caller may see, with due date, status, certificate (or recognised credential: its source upload | platform, issuer and achievement) and placement. Filters: person, service, role, course, organisation, unit.';
revoke all on function
  private.required_training_status(uuid,public.service_code,public.user_role,uuid,uuid,uuid) from public;
grant execute on function
  private.required_training_status(uuid,public.service_code,public.user_role,uuid,uuid,uuid) to authenticated,
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
  'Sort order of statuses: overdue, due-soon, in-progress, then done and recognised.';
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

-- The organisation a compliance view reads: the one asked for, else the caller's own when they are
-- an organisation's administrator or instructor (so their figures read only its people, by the
-- index), else none (national: everyone). THE scope rule stays private.compliance_in_scope.
create function private.compliance_organisation(p_organisation_id uuid)
returns uuid
language plpgsql stable
set search_path = ''
as $$
begin
  return coalesce(
    p_organisation_id,
    private.administered_organisation_id(),
    case when private.current_role() = 'INSTRUCTOR' then private.current_organisation_id() end);
end;
$$;
comment on function private.compliance_organisation(uuid) is
  'The organisation a compliance view is limited to: the one given, else the caller''s as organisation admin or instructor, else null.';
revoke all on function private.compliance_organisation(uuid) from public;
grant execute on function private.compliance_organisation(uuid) to authenticated, service_role;

-- The summary's counts, computed: per service and required course, for the caller's scope (the
-- status rule's filters and private.compliance_in_scope unless p_national). With p_next, also the
-- earliest moment after now() at which one of the counted statuses changes by time alone (a due
-- date coming within the due-soon window, passing, or a certificate expiring), for the cached
-- summaries (private.compliance_summary_of_organisation); else next_change is null.
create function private.compliance_summary_rows(
  p_service public.service_code,
  p_role public.user_role,
  p_course_id uuid,
  p_organisation_id uuid,
  p_unit_id uuid,
  p_national boolean,
  p_next boolean
)
returns table(
  service public.service_code,
  course_id uuid,
  course_title text,
  people bigint,
  compliant bigint,
  due_soon bigint,
  overdue bigint,
  in_progress bigint,
  next_change timestamp with time zone
)
language plpgsql volatile
set search_path = ''
as $$
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
           coalesce(sum(g.n) filter (where g.status in ('done', 'recognised')), 0)::bigint as compliant,
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
$$;
comment on function private.compliance_summary_rows(public.service_code,public.user_role,uuid,uuid,uuid,boolean,boolean) is
  'The compliance summary computed from the status rule (per service and required course: people, compliant, due soon, overdue, in progress) for the caller''s scope; with p_next, the earliest moment a counted status changes by time alone.';
revoke all on function
  private.compliance_summary_rows(public.service_code,public.user_role,uuid,uuid,uuid,boolean,boolean) from public;

-- The summary of a whole organisation, asked by its administrator or a national administrator
-- (who both see all its people), is read from the counts kept for it
-- (private.compliance_summary_of_organisation, 20_compliance_summary_counts.sql), filtered by
-- service or course when asked; any other (national, by role or unit, an instructor's) is computed.
create function private.compliance_summary(
  p_service public.service_code default NULL::public.service_code,
  p_role public.user_role default NULL::public.user_role,
  p_course_id uuid default NULL::uuid,
  p_organisation_id uuid default NULL::uuid,
  p_unit_id uuid default NULL::uuid
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
language plpgsql volatile security definer
set search_path = ''
set work_mem = '64MB'
set enable_nestloop = on
set enable_mergejoin = on
set enable_sort = on
set jit = off
as $$
declare
  v_organisation uuid;
  v_national boolean;
  v_each uuid;
begin
  perform private.require_compliance_viewer();
  v_organisation := private.compliance_organisation(p_organisation_id);
  v_national := private.is_admin();
  -- A national administrator's national summary: every organisation's kept counts (each computed
  -- again first when out of date) added up, with the people of no organisation counted by the rule.
  -- Everyone belongs to at most one organisation, so the sums are the national figures. (A refresh
  -- needs a snapshot per statement: in a transaction of one snapshot the whole is computed.)
  if v_national and v_organisation is null and p_role is null and p_unit_id is null
     and current_setting('transaction_isolation') = 'read committed' then
    for v_each in select o.id from public.organisations o order by o.id loop
      if not private.compliance_summary_is_current(v_each) then
        perform private.refresh_compliance_summary(v_each);
      end if;
    end loop;
    return query
      with parts as (
        select k.service, k.course_id, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
        from private.compliance_summary_counts k
        where k.organisation_id in (select o.id from public.organisations o)
          and (p_service is null or k.service = p_service)
          and (p_course_id is null or k.course_id = p_course_id)
        union all
        select r.service, r.course_id, r.people, r.compliant, r.due_soon, r.overdue, r.in_progress
        from private.compliance_summary_rows(p_service, null, p_course_id, '00000000-0000-0000-0000-000000000000'::uuid,
                                             null, true, false) r
      )
      select s.service, s.course_id, c.title, sum(s.people)::bigint, sum(s.compliant)::bigint,
             sum(s.due_soon)::bigint, sum(s.overdue)::bigint, sum(s.in_progress)::bigint
      from parts s
      join public.courses c on c.id = s.course_id
      group by s.service, s.course_id, c.title
      order by s.service nulls last, c.title, s.course_id;
    return;
  end if;
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
$$;
comment on function private.compliance_summary(public.service_code,public.user_role,uuid,uuid,uuid) is
  'Instructors and admins: per service and required course, people required, compliant (done or recognised), due soon, overdue, in progress; optionally of one organisation and unit (with its sub-units). A whole organisation''s, for its or a national administrator, from the kept counts.';
revoke all on function private.compliance_summary(public.service_code,public.user_role,uuid,uuid,uuid) from
  public;
grant execute on function private.compliance_summary(public.service_code,public.user_role,uuid,uuid,uuid) to
  authenticated, service_role;

-- The organisation (null: national, all) a view of compliance by unit reads: administrators only
-- (42501 with the view's own refusal), their own organisation unless national, and a unit of it.
create function private.compliance_scope(p_organisation_id uuid, p_unit_id uuid, p_refusal text)
returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_national boolean;
  v_organisation uuid;
begin
  perform private.require_compliance_viewer();
  v_national := private.is_admin();
  if not v_national and private.administered_organisation_id() is null then
    raise exception '%', p_refusal using errcode = '42501';
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
$$;
comment on function private.compliance_scope(uuid,uuid,text) is
  'The organisation a by-unit view of compliance reads (null: national, all): administrators only (42501, p_refusal), their own organisation unless national (P0002 otherwise, and for a unit not of it).';
revoke all on function private.compliance_scope(uuid,uuid,text) from public;
grant execute on function private.compliance_scope(uuid,uuid,text) to authenticated, service_role;

-- Compliance by organisation -> unit: without an organisation (national administrators), one group
-- per organisation (and one for people of none); with one, one group per top-level unit (and one
-- for people of no unit); with a unit, one per unit directly below it (and the unit itself for the
-- people placed in it directly). Each group counts its people down the whole subtree, per course.
create function private.compliance_units(
  p_organisation_id uuid default NULL::uuid,
  p_unit_id uuid default NULL::uuid,
  p_service public.service_code default NULL::public.service_code,
  p_role public.user_role default NULL::public.user_role,
  p_course_id uuid default NULL::uuid
)
returns table(
  organisation_id uuid,
  unit_id uuid,
  name text,
  has_units boolean,
  course_id uuid,
  course_title text,
  people bigint,
  compliant bigint,
  due_soon bigint,
  overdue bigint,
  in_progress bigint
)
language plpgsql volatile security definer
set search_path = ''
set work_mem = '64MB'
set enable_nestloop = on
set enable_mergejoin = on
set enable_sort = on
set jit = off
as $$
declare
  v_national boolean;
  v_organisation uuid;
begin
  v_organisation := private.compliance_scope(p_organisation_id, p_unit_id, 'Only administrators can see compliance by unit');
  v_national := private.is_admin();
  perform private.required_training_join_by_hash(null, v_organisation, p_unit_id);
  if v_organisation is null then
    return query execute private.required_training_states_query() || $q$,
    grouped as (
      select k.organisation_id, g.course_id, g.status, g.n
      from (
        select st.placement, st.course_id, st.status, count(*) as n
        from statuses st
        group by st.placement, st.course_id, st.status
      ) g
      join placements k on k.placement = g.placement
    ),
    counted as (
      select g.organisation_id as group_id, g.course_id,
             sum(g.n)::bigint as people,
             coalesce(sum(g.n) filter (where g.status in ('done', 'recognised')), 0)::bigint as compliant,
             coalesce(sum(g.n) filter (where g.status = 'due-soon'), 0)::bigint as due_soon,
             coalesce(sum(g.n) filter (where g.status = 'overdue'), 0)::bigint as overdue,
             coalesce(sum(g.n) filter (where g.status = 'in-progress'), 0)::bigint as in_progress
      from grouped g
      group by g.organisation_id, g.course_id
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
    grouped as (
      select k.unit_id, k.services, k.organisation_id, g.course_id, g.status, sum(g.n)::bigint as n
      from (
        select st.placement, st.course_id, st.status, count(*) as n
        from statuses st
        group by st.placement, st.course_id, st.status
      ) g
      join placements k on k.placement = g.placement
      group by k.unit_id, k.services, k.organisation_id, g.course_id, g.status
    ),
    counted as (
      select gr.group_id, st.course_id,
             sum(st.n)::bigint as people,
             coalesce(sum(st.n) filter (where st.status in ('done', 'recognised')), 0)::bigint as compliant,
             coalesce(sum(st.n) filter (where st.status = 'due-soon'), 0)::bigint as due_soon,
             coalesce(sum(st.n) filter (where st.status = 'overdue'), 0)::bigint as overdue,
             coalesce(sum(st.n) filter (where st.status = 'in-progress'), 0)::bigint as in_progress
      from grouped st
      left join groups gr on gr.unit_id = st.unit_id
      where ($7 or private.compliance_in_scope($2, st.services, st.organisation_id))
      group by gr.group_id, st.course_id
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
$$;
comment on function private.compliance_units(uuid,uuid,public.service_code,public.user_role,uuid) is
  'National and organisation admins: per group (organisation; or top-level unit; or unit below the given one) and required course, people required, compliant, due soon, overdue, in progress. unit_id null at unit level: people of no unit.';
revoke all on function private.compliance_units(uuid,uuid,public.service_code,public.user_role,uuid) from public;
grant execute on function private.compliance_units(uuid,uuid,public.service_code,public.user_role,uuid) to
  authenticated, service_role;

create function private.compliance_people(
  p_service public.service_code default NULL::public.service_code,
  p_role public.user_role default NULL::public.user_role,
  p_course_id uuid default NULL::uuid,
  p_status text default NULL::text,
  p_limit integer default 20,
  p_offset integer default 0,
  p_organisation_id uuid default NULL::uuid,
  p_unit_id uuid default NULL::uuid
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
  recognition_source text,
  recognised_issuer text,
  recognised_achievement text,
  total bigint
)
language plpgsql volatile security definer
set search_path = ''
set work_mem = '64MB'
set enable_nestloop = on
set enable_mergejoin = on
set enable_sort = on
set jit = off
as $$
declare
  v_national boolean;
  v_organisation uuid;
begin
  perform private.require_compliance_viewer();
  v_national := private.is_admin();
  v_organisation := private.compliance_organisation(p_organisation_id);
  perform private.required_training_join_by_hash(null, v_organisation, p_unit_id);
  -- Inside the status rule's own statement. Only the rows that can reach the page (up to it by
  -- urgency and due date, with ties) are named and sorted by name: the order over all rows decides
  -- among ties exactly as before, without every person's name and course title joined and sorted.
  return query execute private.required_training_states_query() || $q$,
  chosen as (
    select st.user_id, st.services, st.course_id, st.progress, st.due_at, st.status, st.certificate_expires_at,
           st.recognition_source, st.recognised_issuer, st.recognised_achievement,
           -- private.required_training_status_rank, written out (a function call per row costs at national size)
           case st.status when 'overdue' then 1 when 'due-soon' then 2 when 'in-progress' then 3 else 4 end as urgency,
           count(*) over () as total
    from statuses st
    -- done: everyone compliant (done or recognised), as the summary counts them
    where ($8::text is null or st.status = $8 or $8 = 'done' and st.status = 'recognised')
      and ($7 or private.compliance_in_scope($2, st.services, st.organisation_id))
  ),
  reaching as (
    select ch.* from chosen ch
    order by ch.urgency, ch.due_at nulls last
    fetch first ($9::bigint + $10) rows with ties
  )
  select r.user_id, p.username, p.name, case when me.admin or p.id = me.uid then p.email end, p.role, r.services,
         r.course_id, c.title, r.progress, r.due_at, r.status, r.certificate_expires_at,
         r.recognition_source, r.recognised_issuer, r.recognised_achievement, r.total
  from reaching r
  cross join me
  join public.profiles p on p.id = r.user_id
  join public.courses c on c.id = r.course_id
  order by r.urgency, r.due_at nulls last, p.name, r.user_id, c.title
  limit $9 offset $10 $q$
  using null::uuid, p_service, p_role, p_course_id, v_organisation, p_unit_id, v_national, p_status,
        greatest(p_limit, 0), greatest(p_offset, 0);
end;
$$;
comment on function private.compliance_people(public.service_code,public.user_role,uuid,text,integer,integer,uuid,uuid) is
  'Instructors and admins: the people required to take courses, with status, due date and a recognised credential''s origin, most urgent first, paged (status done: done and recognised); optionally of one organisation and unit (with its sub-units).';
revoke all on function
  private.compliance_people(public.service_code,public.user_role,uuid,text,integer,integer,uuid,uuid) from
  public;
grant execute on function
  private.compliance_people(public.service_code,public.user_role,uuid,text,integer,integer,uuid,uuid) to
  authenticated, service_role;

create function private.compliance_in_scope(
  p_service public.service_code,
  p_person_services public.service_code[],
  p_person_organisation_id uuid
)
returns boolean
language sql stable
set search_path = ''
as $$
  select (select private.is_admin())
      or p_person_organisation_id = (select private.administered_organisation_id())
      or ((select private.current_role()) = 'INSTRUCTOR'
          and p_person_services && (select private.current_services())
          and (p_service is null or array[p_service] <@ (select private.current_services()))
          and ((select private.current_organisation_id()) is null
               or p_person_organisation_id = (select private.current_organisation_id())))
$$;
comment on function private.compliance_in_scope(public.service_code,public.service_code[],uuid) is
  'THE scope rule of compliance views: national admins see everyone; an organisation''s admin its people; instructors a person of one of their services (and, with a service filter, only a service of their own), of their organisation when they have one.';
revoke all on function private.compliance_in_scope(public.service_code,public.service_code[],uuid) from
  public;
grant execute on function private.compliance_in_scope(public.service_code,public.service_code[],uuid) to
  authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger required_training_set_updated_at
  before update on public.required_training
  for each row execute function private.set_updated_at();

create trigger required_training_prepare
  before insert or update on public.required_training
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
