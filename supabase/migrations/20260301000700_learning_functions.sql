-- The only writers of progress, quiz attempts and certificates (DESIGN.md §3): security-definer
-- functions that check the caller themselves (they bypass RLS), called by the api function inside
-- the caller's transaction. A module is complete when read and, if it has a quiz, the quiz is
-- passed; progress = round(100 x completed modules / modules); a course without modules steps by
-- 20 up to 100. Completion issues the certificate (snapshot of name and title). Quiz questions are
-- served without their answers; answers are shown only for the caller's own submitted attempt.
-- Also: auto-enrolment of new users when the setting is on.

-- Can the caller see the course? The same rule as the courses select policies.
create function private.can_view_course(p_course_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.courses c
    where c.id = p_course_id
      and (
        (c.status = 'ACTIVE' and ((select auth.uid()) is not null or private.course_access() <> 'login-browse'))
        or (c.author_id = (select auth.uid()) and (select auth.uid()) is not null)
        or private.is_admin()
      )
  )
$$;
comment on function private.can_view_course(uuid) is 'True when the caller may see the course (mirrors the courses select policies).';

-- May the caller study the course's content: signed in, can see it, and enrolled (ACTIVE) unless
-- the course does not require enrolment or the caller authors it or is an admin.
create function private.can_study_course(p_course_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select (select auth.uid()) is not null
    and private.can_view_course(p_course_id)
    and (
      private.is_admin()
      or exists (select 1 from public.courses c where c.id = p_course_id
                 and (not c.requires_enrollment or c.author_id = (select auth.uid())))
      or exists (select 1 from public.enrollments e where e.course_id = p_course_id
                 and e.user_id = (select auth.uid()) and e.status = 'ACTIVE')
    )
$$;
comment on function private.can_study_course(uuid) is
  'True when the signed-in caller may open the course''s modules and quizzes (enrolled and approved, or enrolment not required, or author/admin).';

-- Internal: issue the certificate for a completed enrolment (once per user and course).
create function private.issue_certificate(p_user_id uuid, p_course_id uuid) returns void
language sql volatile security definer
set search_path = ''
as $$
  insert into public.certificates (user_id, course_id, learner_name, course_title, service, template)
  select p.id, c.id, p.name, c.title, c.service,
         coalesce((select s.certificate_template from public.settings s where s.id), 'standard')
  from public.profiles p, public.courses c
  where p.id = p_user_id and c.id = p_course_id
  on conflict (user_id, course_id) do nothing
$$;
comment on function private.issue_certificate(uuid, uuid) is 'Internal: issues the certificate with a snapshot of learner name, course title, service and template.';

-- Internal: recompute a module-based enrolment's progress from the learner's completed modules.
create function private.refresh_enrollment(p_user_id uuid, p_course_id uuid) returns public.enrollments
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
comment on function private.refresh_enrollment(uuid, uuid) is 'Internal: progress = round(100 x completed / modules); completes and certifies at 100. A completed enrolment stays completed.';

-- Internal: is the module complete for the user (read, and its quiz passed when it has one)?
create function private.settle_module(p_user_id uuid, p_module_id uuid) returns void
language sql volatile security definer
set search_path = ''
as $$
  update public.user_module_progress ump
  set completed = true, completed_at = now()
  where ump.user_id = p_user_id and ump.module_id = p_module_id and not ump.completed
    and ump.read_at is not null
    and (ump.quiz_passed or not exists (select 1 from public.quizzes q where q.module_id = p_module_id))
$$;
comment on function private.settle_module(uuid, uuid) is 'Internal: marks the module complete when read and its quiz (if any) passed.';

-- The learner marks a module read (and it becomes their last accessed module).
create function private.mark_module_read(p_module_id uuid) returns public.enrollments
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
  insert into public.user_module_progress (user_id, module_id, read_at)
  values (v_uid, p_module_id, now())
  on conflict (user_id, module_id) do update set read_at = coalesce(public.user_module_progress.read_at, now());
  perform private.settle_module(v_uid, p_module_id);
  update public.enrollments e set last_accessed_module_id = p_module_id
  where e.user_id = v_uid and e.course_id = v_course_id;
  v_enrollment := private.refresh_enrollment(v_uid, v_course_id);
  return v_enrollment;
end;
$$;
comment on function private.mark_module_read(uuid) is
  'Learner: marks the module read, completes it when its quiz (if any) is passed, recomputes progress. Null when not enrolled.';

-- The learner opens a module: remembered to continue from.
create function private.open_module(p_module_id uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_course_id uuid;
begin
  select m.course_id into v_course_id from public.course_modules m where m.id = p_module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not study this module' using errcode = '42501';
  end if;
  update public.enrollments e set last_accessed_module_id = p_module_id
  where e.user_id = (select auth.uid()) and e.course_id = v_course_id;
end;
$$;
comment on function private.open_module(uuid) is 'Learner: records the module as last accessed on their enrolment.';

-- A course without modules: each press raises progress from 0 to 20, then by 20, capped at 100.
create function private.step_course_progress(p_enrollment_id uuid) returns public.enrollments
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_enrollment public.enrollments;
  v_progress integer;
begin
  select * into v_enrollment from public.enrollments e
  where e.id = p_enrollment_id and e.user_id = (select auth.uid())
  for update;
  if not found then
    raise exception 'No such enrolment of yours' using errcode = '42501';
  end if;
  if v_enrollment.status <> 'ACTIVE' then
    raise exception 'The enrolment is waiting for approval' using errcode = '42501';
  end if;
  if exists (select 1 from public.course_modules m where m.course_id = v_enrollment.course_id) then
    raise exception 'Progress on this course follows its modules' using errcode = '22023';
  end if;
  if v_enrollment.completed then
    return v_enrollment;
  end if;
  v_progress := least(100, v_enrollment.progress + 20);
  update public.enrollments e
  set progress = v_progress,
      completed = (v_progress = 100),
      completed_at = case when v_progress = 100 then now() end
  where e.id = p_enrollment_id
  returning * into v_enrollment;
  if v_enrollment.completed then
    perform private.issue_certificate(v_enrollment.user_id, v_enrollment.course_id);
  end if;
  return v_enrollment;
end;
$$;
comment on function private.step_course_progress(uuid) is 'Learner, course without modules: progress +20 (0 -> 20 -> ... -> 100); completes and certifies at 100.';

-- Questions without answers, for someone studying the course.
create function private.quiz_questions_for_learner(p_quiz_id uuid)
returns table (id uuid, question_text text, question_type public.question_type, order_index integer, points integer, options jsonb)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_course_id uuid;
  v_random boolean;
begin
  select m.course_id, q.randomize_questions into v_course_id, v_random
  from public.quizzes q join public.course_modules m on m.id = q.module_id
  where q.id = p_quiz_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  return query
    select qq.id, qq.question_text, qq.question_type, qq.order_index, qq.points,
           coalesce((select jsonb_agg(jsonb_build_object('text', o.value ->> 'text') order by o.ordinality)
                     from jsonb_array_elements(qq.options) with ordinality o), '[]'::jsonb)
    from public.quiz_questions qq
    where qq.quiz_id = p_quiz_id
    order by case when v_random then random() end, qq.order_index, qq.id;
end;
$$;
comment on function private.quiz_questions_for_learner(uuid) is
  'The quiz''s questions with option texts only (no isCorrect, no correct_answers), for a caller who may study the course.';

-- Score a submission: answers {"<question id>": [option indexes] or index}. A question scores its
-- points when the chosen set equals the correct set.
create function private.submit_quiz_attempt(p_quiz_id uuid, p_answers jsonb) returns public.quiz_attempts
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quiz public.quizzes;
  v_course_id uuid;
  v_score integer;
  v_max integer;
  v_passed boolean;
  v_attempt public.quiz_attempts;
begin
  select q.* into v_quiz from public.quizzes q where q.id = p_quiz_id;
  select m.course_id into v_course_id from public.course_modules m where m.id = v_quiz.module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  if p_answers is null or jsonb_typeof(p_answers) <> 'object' then
    raise exception 'Answers must be an object keyed by question id' using errcode = '22023';
  end if;
  select coalesce(sum(qq.points) filter (where
           (select coalesce(array_agg(distinct a.value::int order by a.value::int), '{}')
              from jsonb_array_elements_text(
                case jsonb_typeof(p_answers -> qq.id::text)
                  when 'array' then p_answers -> qq.id::text
                  when 'number' then jsonb_build_array(p_answers -> qq.id::text)
                  else '[]'::jsonb end) a
             where a.value ~ '^\d+$')
           = (select coalesce(array_agg(distinct c.value::int order by c.value::int), '{}')
                from jsonb_array_elements_text(qq.correct_answers) c)), 0),
         coalesce(sum(qq.points), 0)
    into v_score, v_max
  from public.quiz_questions qq
  where qq.quiz_id = p_quiz_id;
  v_passed := v_max > 0 and v_score * 100 >= v_quiz.passing_score * v_max;
  insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed, answers, completed_at)
  values (v_uid, p_quiz_id, v_score, v_max, v_passed, p_answers, now())
  returning * into v_attempt;
  if exists (select 1 from public.enrollments e where e.user_id = v_uid and e.course_id = v_course_id and e.status = 'ACTIVE') then
    insert into public.user_module_progress (user_id, module_id, quiz_passed, last_attempt_id)
    values (v_uid, v_quiz.module_id, v_passed, v_attempt.id)
    on conflict (user_id, module_id) do update
      set quiz_passed = public.user_module_progress.quiz_passed or excluded.quiz_passed,
          last_attempt_id = excluded.last_attempt_id;
    perform private.settle_module(v_uid, v_quiz.module_id);
    perform private.refresh_enrollment(v_uid, v_course_id);
  end if;
  return v_attempt;
end;
$$;
comment on function private.submit_quiz_attempt(uuid, jsonb) is
  'Learner: scores the answers on the server, records the attempt, updates module progress and the enrolment (when enrolled).';

-- After submitting: the correct answers and explanations, for the caller's own attempt only.
create function private.quiz_attempt_review(p_attempt_id uuid)
returns table (question_id uuid, correct_answers jsonb, options jsonb, explanation text)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.quiz_attempts a where a.id = p_attempt_id and a.user_id = (select auth.uid())
                 and a.completed_at is not null) then
    raise exception 'No such attempt of yours' using errcode = '42501';
  end if;
  return query
    select qq.id, qq.correct_answers, qq.options, qq.explanation
    from public.quiz_questions qq
    where qq.quiz_id = (select a.quiz_id from public.quiz_attempts a where a.id = p_attempt_id)
    order by qq.order_index, qq.id;
end;
$$;
comment on function private.quiz_attempt_review(uuid) is 'Learner: answers and explanations for their own submitted attempt.';

-- Public verification of a certificate by its code.
create function private.verify_certificate(p_code text)
returns table (verification_code text, learner_name text, course_title text, service public.service_code,
               template public.certificate_template, issued_at timestamptz)
language sql stable security definer
set search_path = ''
as $$
  select c.verification_code, c.learner_name, c.course_title, c.service, c.template, c.issued_at
  from public.certificates c
  where c.verification_code = upper(btrim(p_code))
$$;
comment on function private.verify_certificate(text) is 'Anyone: the certificate with this verification code (snapshot fields only), or no row.';

-- Sign-up with auto-enrolment on: enrol the new user in every featured published course. A trigger
-- on the new profile, so the profile's own creation (private.handle_new_user) is defined once.
create function private.auto_enrol_new_user() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if coalesce((select s.auto_enrollment from public.settings s where s.id), false) then
    insert into public.enrollments (user_id, course_id, status)
    select new.id, c.id, 'ACTIVE' from public.courses c
    where c.featured and c.status = 'ACTIVE'
    on conflict (user_id, course_id) do nothing;
  end if;
  return new;
end;
$$;
comment on function private.auto_enrol_new_user() is
  'After-insert trigger on profiles: with auto_enrollment on, enrols the new user in every featured published course.';
revoke all on function private.auto_enrol_new_user() from public;

create trigger profiles_auto_enrol
  after insert on public.profiles
  for each row execute function private.auto_enrol_new_user();

revoke all on function private.can_view_course(uuid), private.can_study_course(uuid),
  private.issue_certificate(uuid, uuid), private.refresh_enrollment(uuid, uuid), private.settle_module(uuid, uuid),
  private.mark_module_read(uuid), private.open_module(uuid), private.step_course_progress(uuid),
  private.quiz_questions_for_learner(uuid), private.submit_quiz_attempt(uuid, jsonb),
  private.quiz_attempt_review(uuid), private.verify_certificate(text)
  from public;
grant execute on function private.can_view_course(uuid), private.can_study_course(uuid) to anon, authenticated, service_role;
grant execute on function private.mark_module_read(uuid), private.open_module(uuid), private.step_course_progress(uuid),
  private.quiz_questions_for_learner(uuid), private.submit_quiz_attempt(uuid, jsonb), private.quiz_attempt_review(uuid)
  to authenticated;
grant execute on function private.verify_certificate(text) to anon, authenticated, service_role;
