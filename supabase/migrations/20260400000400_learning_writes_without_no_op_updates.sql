-- Issue 6: completing a module writes only what changes.
--
-- Marking a module read updated the learner's enrolment twice (its last accessed module, then its
-- progress) and its progress row once more, even when nothing had changed: a learner who opens a
-- module again, or presses "complete" twice, rewrote three rows and every index entry of the two
-- enrolment versions (last_accessed_module_id is indexed, so neither update was a heap-only one).
-- Each write now happens only when it changes something; what the functions return is unchanged.

create or replace function private.refresh_enrollment(p_user_id uuid, p_course_id uuid) returns public.enrollments
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_enrollment public.enrollments;
  v_total integer;
  v_done integer;
  v_progress integer;
begin
  select * into v_enrollment from public.enrollments e
  where e.user_id = p_user_id and e.course_id = p_course_id and e.status = 'ACTIVE'
  for update;
  if not found or v_enrollment.completed then
    return v_enrollment;
  end if;
  select count(*) into v_total from public.course_modules m where m.course_id = p_course_id;
  if v_total = 0 then
    return v_enrollment;
  end if;
  select count(*) into v_done
  from public.user_module_progress ump
  join public.course_modules m on m.id = ump.module_id
  where ump.user_id = p_user_id and m.course_id = p_course_id and ump.completed;
  v_progress := round(100.0 * least(v_done, v_total) / v_total);
  -- Unchanged progress (below 100, as a completed enrolment returned above): nothing to write.
  if v_progress = v_enrollment.progress then
    return v_enrollment;
  end if;
  update public.enrollments e
  set progress = v_progress,
      completed = (v_progress = 100),
      completed_at = case when v_progress = 100 then now() end
  where e.id = v_enrollment.id
  returning * into v_enrollment;
  if v_enrollment.completed then
    perform private.issue_certificate(p_user_id, p_course_id);
  end if;
  return v_enrollment;
end;
$$;

create or replace function private.mark_module_read(p_module_id uuid) returns public.enrollments
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_course_id uuid;
  v_enrollment public.enrollments;
begin
  select m.course_id into v_course_id from public.course_modules m where m.id = p_module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not study this module' using errcode = '42501';
  end if;
  if not exists (select 1 from public.enrollments e where e.user_id = v_uid and e.course_id = v_course_id and e.status = 'ACTIVE') then
    return null; -- progress is kept only for enrolled learners
  end if;
  -- The first reading is kept; a module read before is not written again.
  insert into public.user_module_progress (user_id, module_id, read_at)
  values (v_uid, p_module_id, now())
  on conflict (user_id, module_id) do update set read_at = now()
  where public.user_module_progress.read_at is null;
  perform private.settle_module(v_uid, p_module_id);
  update public.enrollments e set last_accessed_module_id = p_module_id
  where e.user_id = v_uid and e.course_id = v_course_id
    and e.last_accessed_module_id is distinct from p_module_id;
  v_enrollment := private.refresh_enrollment(v_uid, v_course_id);
  return v_enrollment;
end;
$$;
