-- The audit trail, complete (issue 15.1). Every event is written by a trigger in the transaction of
-- the change itself, so whatever makes the change (the /api routes or a client talking straight to
-- the database) cannot skip it, and a rolled-back change leaves no event:
--   course.created, course.published, course.unpublished, course.archived (course.deleted exists);
--   enrollment.approved, enrollment.declined (a course author's or admin's decision on a request);
--   required_training.added / .changed / .removed, with how many people the rule enrolled;
--   user.deactivated / user.reactivated (migration 20261125110000).
-- private.record_audit_event(...) lets an admin's request record an event the database cannot see
-- for itself (e.g. 'password.reset' after the Auth admin API, 'certificate.reissued',
-- 'password.forced_change'); it refuses everyone else and the kinds the triggers own.

-- ---------------------------------------------------------------- courses

create function private.audit_course_insert() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.write_audit('course.created', 'course', new.id, new.title, null,
    jsonb_build_object('title', new.title, 'service', new.service, 'status', new.status, 'authorId', new.author_id));
  return null;
end;
$$;
comment on function private.audit_course_insert() is 'After insert on courses: records course.created.';
revoke all on function private.audit_course_insert() from public;
create trigger courses_audit_insert
  after insert on public.courses
  for each row execute function private.audit_course_insert();

create function private.audit_course_status() returns trigger
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
comment on function private.audit_course_status() is 'After update of status on courses: records course.published / .archived / .unpublished.';
revoke all on function private.audit_course_status() from public;
create trigger courses_audit_status
  after update of status on public.courses
  for each row execute function private.audit_course_status();

-- ---------------------------------------------------------------- enrolment decisions

-- Only a statement of the caller's own (pg_trigger_depth() = 1): a required-training rule that
-- activates a pending request, or a course deletion cascading to its enrolments, is not a decision.
-- A learner withdrawing their own request is not one either.
create function private.audit_enrollment_decision() returns trigger
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
create trigger enrollments_audit_decision
  after update of status or delete on public.enrollments
  for each row execute function private.audit_enrollment_decision();

-- ---------------------------------------------------------------- required training rules

-- The enrolment trigger now also records the rule's change, with how many people it enrolled (new
-- enrolments and pending requests made active); a change of the due or renewal days enrols no one.
drop trigger required_training_enrol on public.required_training;

create or replace function private.enrol_for_required_rule() returns trigger
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
  'After insert/update of a required_training rule: enrols (ACTIVE) every active user it matches, in one statement, '
  'and records required_training.added / .changed with how many it enrolled.';
revoke all on function private.enrol_for_required_rule() from public;

create trigger required_training_enrol
  after insert or update on public.required_training
  for each row execute function private.enrol_for_required_rule();

create function private.audit_required_training_delete() returns trigger
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
comment on function private.audit_required_training_delete() is 'After delete on required_training: records required_training.removed.';
revoke all on function private.audit_required_training_delete() from public;
create trigger required_training_audit_delete
  after delete on public.required_training
  for each row execute function private.audit_required_training_delete();

-- ---------------------------------------------------------------- events the database cannot see

-- Kinds only the triggers write: no request may record one of them, so none can be forged.
create function private.trigger_audit_kinds() returns text[]
language sql immutable
set search_path = ''
as $$
  select array[
    'user.created', 'user.deleted', 'user.permissions_changed', 'users.permissions_changed', 'users.imported',
    'user.deactivated', 'user.reactivated', 'settings.updated',
    'course.created', 'course.published', 'course.unpublished', 'course.archived', 'course.deleted',
    'enrollment.approved', 'enrollment.declined', 'certificate.revoked',
    'required_training.added', 'required_training.changed', 'required_training.removed'
  ]
$$;
comment on function private.trigger_audit_kinds() is 'The audit kinds only triggers write (private.record_audit_event refuses them).';
revoke all on function private.trigger_audit_kinds() from public;

create function private.record_audit_event(
  p_action text, p_target_type text, p_target_id uuid, p_target_label text, p_old jsonb default null, p_new jsonb default null
) returns bigint
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
comment on function private.record_audit_event(text, text, uuid, text, jsonb, jsonb) is
  'Admins only: records an event the triggers cannot see (e.g. password.reset, password.forced_change, certificate.reissued) '
  'in the caller''s transaction. Kind: word.word, never one of private.trigger_audit_kinds(). 42501 / 22023.';
revoke all on function private.record_audit_event(text, text, uuid, text, jsonb, jsonb) from public;
grant execute on function private.record_audit_event(text, text, uuid, text, jsonb, jsonb) to authenticated;

-- Filters of the Activity tab: by actor and by kind, newest first.
create index audit_events_actor_idx on public.audit_events (actor_id, occurred_at desc, id desc);
create index audit_events_action_idx on public.audit_events (action, occurred_at desc, id desc);
