-- The audit trail: who did what to whom, and when. Written by triggers on the audited tables (so
-- no route can forget to write it) and by the security-definer functions that act for an admin;
-- read only by admins. The API roles cannot insert, update or delete events.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.audit_events (
  id bigint generated always as identity primary key,
  occurred_at timestamptz not null default now(),
  -- No foreign key: the trail outlives the people and rows it names.
  actor_id uuid,
  actor_name text,
  actor_username text,
  action text not null,
  target_type text not null,
  target_id uuid,
  target_label text,
  old_data jsonb,
  new_data jsonb
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.audit_events is
  'Who changed what and when: written by triggers only (role/services, users created/deleted, settings, course deletions); read by admins.';

comment on column public.audit_events.actor_id is
  'auth.uid() of the caller; for accounts created through the Auth admin API, app_metadata.created_by.';

comment on column public.audit_events.actor_name is
  'The actor''s name when the event happened (kept after the actor is deleted).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index audit_events_occurred_at_idx on public.audit_events (occurred_at desc, id desc);

create index audit_events_target_id_idx on public.audit_events (target_id);

-- Filters of the Activity tab: by actor and by kind, newest first.
create index audit_events_actor_idx on public.audit_events (actor_id, occurred_at desc, id desc);

create index audit_events_action_idx on public.audit_events (action, occurred_at desc, id desc);

-- The Activity tab's search box: words of the target, the actor's name or username,
-- matched anywhere (LIKE '%...%') through a trigram index on the same expression the api queries.
create index audit_events_search_idx on public.audit_events using gin
  (lower(coalesce(target_label, '') || ' ' || coalesce(actor_name, '') || ' ' || coalesce(actor_username, '')) extensions.gin_trgm_ops);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.audit_events enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "audit trail: national admins all, administrators their people's"
  on public.audit_events for select to authenticated
  using (
    (select private.is_admin())
    -- An organisation's administrator: events by or about its people.
    or actor_id in (select private.people_i_administer())
    or (target_type = 'user' and target_id in (select private.people_i_administer()))
    -- and what its identity provider did that reached no person (a test, a refusal).
    or (target_type = 'organisation' and target_id = (select private.administered_organisation_id()))
  );

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.audit_events from anon, authenticated, service_role;
grant all on public.audit_events to service_role;
grant select on public.audit_events to authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.write_audit(
  p_action text,
  p_target_type text,
  p_target_id uuid,
  p_target_label text,
  p_old jsonb,
  p_new jsonb,
  p_actor uuid default NULL::uuid
)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_actor uuid := coalesce(p_actor, auth.uid());
  v_name text;
  v_username text;
begin
  if v_actor is not null then
    select p.name, p.username into v_name, v_username from public.profiles p where p.id = v_actor;
  else
    -- A change no person made in this transaction: an organisation's identity system through SCIM
    -- names itself by its token's label (private.scim_token_organisation sets it, transaction-local).
    v_name := private.scim_audit_actor();
    if v_name is not null then
      v_username := 'scim';
    end if;
  end if;
  insert into public.audit_events (actor_id, actor_name, actor_username, action, target_type, target_id, target_label, old_data, new_data)
  values (v_actor, v_name, v_username, p_action, p_target_type, p_target_id, p_target_label, p_old, p_new);
end;
$$;
comment on function private.write_audit(text,text,uuid,text,jsonb,jsonb,uuid) is
  'Appends one audit event; the actor defaults to auth.uid(); without one, a SCIM request names its token (private.scim_audit_actor).';
revoke all on function private.write_audit(text,text,uuid,text,jsonb,jsonb,uuid) from public;

-- A new profile is audited as a user created, except for imported users: their import writes one
-- event for the whole file.
create function private.audit_profile_insert()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_created_by uuid;
begin
  if exists (select 1 from private.user_import_rows r where r.user_id = new.id) then
    return null;
  end if;
  -- A person an identity provider signed in is audited by private.handle_new_user, with its source.
  if exists (select 1 from auth.users u where u.id = new.id
             and (u.raw_app_meta_data ->> 'provider' = 'azure' or u.raw_app_meta_data ->> 'provider' like 'sso:%')) then
    return null;
  end if;
  begin
    select nullif(u.raw_app_meta_data ->> 'created_by', '')::uuid into v_created_by
    from auth.users u where u.id = new.id;
  exception when invalid_text_representation then
    v_created_by := null;
  end;
  perform private.write_audit('user.created', 'user', new.id, new.username, null,
    jsonb_build_object('username', new.username, 'email', new.email, 'name', new.name, 'role', new.role, 'services', new.services),
    coalesce(auth.uid(), v_created_by));
  return null;
end;
$$;
revoke all on function private.audit_profile_insert() from public;

create function private.audit_profile_delete()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.write_audit('user.deleted', 'user', old.id, old.username,
    jsonb_build_object('username', old.username, 'email', old.email, 'name', old.name, 'role', old.role, 'services', old.services),
    null);
  return null;
end;
$$;
revoke all on function private.audit_profile_delete() from public;

-- Role/services changes, per statement: one event per user for a single edit, one summary event for
-- a bulk update (a role's services set for 100,000 students must not write 100,000 events).
create function private.audit_profile_update()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_count integer;
  v_one record;
begin
  select count(*) into v_count
  from new_rows n join old_rows o on o.id = n.id
  where n.role is distinct from o.role or n.services is distinct from o.services;
  if v_count = 0 then
    return null;
  end if;
  if v_count = 1 then
    select n.id, n.username, o.role as old_role, o.services as old_services, n.role as new_role, n.services as new_services
      into v_one
    from new_rows n join old_rows o on o.id = n.id
    where n.role is distinct from o.role or n.services is distinct from o.services;
    perform private.write_audit('user.permissions_changed', 'user', v_one.id, v_one.username,
      jsonb_build_object('role', v_one.old_role, 'services', v_one.old_services),
      jsonb_build_object('role', v_one.new_role, 'services', v_one.new_services));
  else
    perform private.write_audit('users.permissions_changed', 'users', null, v_count::text || ' users',
      (select jsonb_build_object('roles', jsonb_agg(distinct o.role), 'services', jsonb_agg(distinct o.services))
         from new_rows n join old_rows o on o.id = n.id
         where n.role is distinct from o.role or n.services is distinct from o.services),
      (select jsonb_build_object('roles', jsonb_agg(distinct n.role), 'services', jsonb_agg(distinct n.services), 'count', v_count)
         from new_rows n join old_rows o on o.id = n.id
         where n.role is distinct from o.role or n.services is distinct from o.services));
  end if;
  return null;
end;
$$;
revoke all on function private.audit_profile_update() from public;

-- Settings: only the fields that changed.
create function private.audit_settings_update()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_old jsonb := to_jsonb(old) - 'id' - 'created_at' - 'updated_at';
  v_new jsonb := to_jsonb(new) - 'id' - 'created_at' - 'updated_at';
  v_key text;
  v_old_changed jsonb := '{}'::jsonb;
  v_new_changed jsonb := '{}'::jsonb;
begin
  for v_key in select jsonb_object_keys(v_new) loop
    if v_old -> v_key is distinct from v_new -> v_key then
      v_old_changed := v_old_changed || jsonb_build_object(v_key, v_old -> v_key);
      v_new_changed := v_new_changed || jsonb_build_object(v_key, v_new -> v_key);
    end if;
  end loop;
  if v_new_changed <> '{}'::jsonb then
    perform private.write_audit('settings.updated', 'settings', null, 'System settings', v_old_changed, v_new_changed);
  end if;
  return null;
end;
$$;
revoke all on function private.audit_settings_update() from public;

create function private.audit_course_delete()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.write_audit('course.deleted', 'course', old.id, old.title,
    jsonb_build_object('title', old.title, 'service', old.service, 'status', old.status, 'authorId', old.author_id),
    null);
  return null;
end;
$$;
revoke all on function private.audit_course_delete() from public;

-- The audit trail (private.write_audit, as the administration triggers): whoever revokes, however.
create function private.audit_certificate_revoke()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if old.revoked_at is null and new.revoked_at is not null then
    perform private.write_audit('certificate.revoked', 'certificate', new.id,
      new.verification_code || ' (' || new.learner_name || ')',
      jsonb_build_object('revokedAt', null),
      jsonb_build_object('verificationCode', new.verification_code, 'learnerName', new.learner_name,
        'courseTitle', new.course_title, 'reason', new.revoked_reason, 'revokedAt', new.revoked_at),
      new.revoked_by);
  end if;
  return null;
end;
$$;
comment on function private.audit_certificate_revoke() is
  'After-update trigger on certificates: records a revocation in audit_events.';
revoke all on function private.audit_certificate_revoke() from public;

create function private.audit_course_insert()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.write_audit('course.created', 'course', new.id, new.title, null,
    jsonb_build_object('title', new.title, 'service', new.service, 'status', new.status, 'authorId', new.author_id));
  return null;
end;
$$;
comment on function private.audit_course_insert() is
  'After insert on courses: records course.created.';
revoke all on function private.audit_course_insert() from public;

create function private.audit_course_status()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.status is distinct from old.status then
    perform private.write_audit(
      case new.status when 'ACTIVE' then 'course.published' when 'ARCHIVED' then 'course.archived' else 'course.unpublished' end,
      'course', new.id, new.title,
      jsonb_build_object('status', old.status), jsonb_build_object('status', new.status));
  end if;
  return null;
end;
$$;
comment on function private.audit_course_status() is
  'After update of status on courses: records course.published / .archived / .unpublished.';
revoke all on function private.audit_course_status() from public;

-- Only a statement of the caller's own (pg_trigger_depth() = 1): a required-training rule that
-- activates a pending request, or a course deletion cascading to its enrolments, is not a decision.
-- A learner withdrawing their own request is not one either.
create function private.audit_enrollment_decision()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.enrollments := case when tg_op = 'DELETE' then old else new end;
  v_learner text;
  v_course text;
begin
  if pg_trigger_depth() > 1 or old.status <> 'PENDING' then
    return null;
  end if;
  if tg_op = 'UPDATE' and new.status is not distinct from old.status then
    return null;
  end if;
  if tg_op = 'DELETE' and old.user_id = auth.uid() then
    return null;
  end if;
  select p.name into v_learner from public.profiles p where p.id = v_row.user_id;
  select c.title into v_course from public.courses c where c.id = v_row.course_id;
  perform private.write_audit(
    case when tg_op = 'DELETE' then 'enrollment.declined' else 'enrollment.approved' end,
    'enrollment', v_row.id, coalesce(v_learner, '?') || ' – ' || coalesce(v_course, '?'),
    jsonb_build_object('status', 'PENDING', 'learner', v_learner, 'course', v_course, 'courseId', v_row.course_id, 'userId', v_row.user_id),
    case when tg_op = 'DELETE' then null
         else jsonb_build_object('status', new.status, 'learner', v_learner, 'course', v_course) end);
  return null;
end;
$$;
comment on function private.audit_enrollment_decision() is
  'After update of status / delete on enrollments: records enrollment.approved / .declined (a pending request decided by someone else, not by a trigger).';
revoke all on function private.audit_enrollment_decision() from public;

create function private.audit_required_training_delete()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_title text;
begin
  -- A course deleted takes its rules with it: course.deleted says so already.
  if pg_trigger_depth() > 1 then
    return null;
  end if;
  select c.title into v_title from public.courses c where c.id = old.course_id;
  perform private.write_audit('required_training.removed', 'required_training', old.id, v_title,
    jsonb_build_object('role', old.role, 'service', old.service, 'dueWithinDays', old.due_within_days,
      'renewBeforeDays', old.renew_before_days, 'courseId', old.course_id),
    null);
  return null;
end;
$$;
comment on function private.audit_required_training_delete() is
  'After delete on required_training: records required_training.removed.';
revoke all on function private.audit_required_training_delete() from public;

-- Kinds only the triggers write: no request may record one of them, so none can be forged.
create function private.trigger_audit_kinds()
returns text[]
language sql immutable
set search_path = ''
as $$
  select array[
    'user.created', 'user.deleted', 'user.permissions_changed', 'users.permissions_changed', 'users.imported',
    'user.deactivated', 'user.reactivated', 'settings.updated',
    'course.created', 'course.published', 'course.unpublished', 'course.archived', 'course.deleted',
    'enrollment.approved', 'enrollment.declined', 'certificate.revoked',
    'required_training.added', 'required_training.changed', 'required_training.removed',
    'user.updated', 'user.unlinked', 'unit.created', 'unit.renamed', 'unit.deleted',
    'scim_token.created', 'scim_token.revoked'
  ]
$$;
comment on function private.trigger_audit_kinds() is
  'The audit kinds only triggers write (private.record_audit_event refuses them).';
revoke all on function private.trigger_audit_kinds() from public;

create function private.record_audit_event(
  p_action text,
  p_target_type text,
  p_target_id uuid,
  p_target_label text,
  p_old jsonb default NULL::jsonb,
  p_new jsonb default NULL::jsonb
)
returns bigint
language plpgsql security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may record audit events' using errcode = '42501';
  end if;
  if p_action is null or p_action !~ '^[a-z_]{2,40}\.[a-z_]{2,40}$' or p_action = any (private.trigger_audit_kinds()) then
    raise exception 'Not an audit kind a request may record: %', p_action using errcode = '22023';
  end if;
  if p_target_type is null or p_target_type !~ '^[a-z_]{2,40}$' then
    raise exception 'Not an audit target type: %', p_target_type using errcode = '22023';
  end if;
  perform private.write_audit(p_action, p_target_type, p_target_id, left(p_target_label, 300), p_old, p_new);
  return (select max(id) from public.audit_events where actor_id = auth.uid());
end;
$$;
comment on function private.record_audit_event(text,text,uuid,text,jsonb,jsonb) is
  'Admins only: records an event the triggers cannot see (e.g. password.reset, password.forced_change, certificate.reissued) in the caller''s transaction. Kind: word.word, never one of private.trigger_audit_kinds(). 42501 / 22023.';
revoke all on function private.record_audit_event(text,text,uuid,text,jsonb,jsonb) from public;
grant execute on function private.record_audit_event(text,text,uuid,text,jsonb,jsonb) to
  authenticated;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger profiles_audit_insert
  after insert on public.profiles
  for each row execute function private.audit_profile_insert();

create trigger profiles_audit_delete
  after delete on public.profiles
  for each row execute function private.audit_profile_delete();

create trigger profiles_audit_update
  after update on public.profiles
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.audit_profile_update();

create trigger settings_audit_update
  after update on public.settings
  for each row execute function private.audit_settings_update();

create trigger courses_audit_delete
  after delete on public.courses
  for each row execute function private.audit_course_delete();

create trigger certificates_audit_revoke
  after update of revoked_at on public.certificates
  for each row execute function private.audit_certificate_revoke();

create trigger courses_audit_insert
  after insert on public.courses
  for each row execute function private.audit_course_insert();

create trigger courses_audit_status
  after update of status on public.courses
  for each row execute function private.audit_course_status();

create trigger enrollments_audit_decision
  after update of status or delete on public.enrollments
  for each row execute function private.audit_enrollment_decision();

create trigger required_training_audit_delete
  after delete on public.required_training
  for each row execute function private.audit_required_training_delete();
