-- Timed quizzes (issue 3): the server, not the browser, keeps the clock. Fetching a quiz starts an
-- attempt (a quiz_attempts row with completed_at null, started_at = now); submitting scores it with
-- private.submit_quiz_attempt and refuses answers that arrive after started_at + time_limit + a
-- grace for network delay. An expired start is restarted by the next fetch, so a learner may retry.
-- Also: an index for the catalogue's order (featured first, then newest).

create function private.start_quiz_attempt(p_quiz_id uuid) returns public.quiz_attempts
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quiz public.quizzes;
  v_course_id uuid;
  v_open public.quiz_attempts;
  v_has_open boolean;
begin
  select q.* into v_quiz from public.quizzes q where q.id = p_quiz_id;
  select m.course_id into v_course_id from public.course_modules m where m.id = v_quiz.module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  select a.* into v_open from public.quiz_attempts a
  where a.user_id = v_uid and a.quiz_id = p_quiz_id and a.completed_at is null
  order by a.started_at desc
  limit 1
  for update;
  v_has_open := found;
  if v_has_open and (v_quiz.time_limit is null
                     or v_open.started_at + make_interval(mins => v_quiz.time_limit) > now()) then
    return v_open; -- still running: reloading the page does not restart the clock
  end if;
  if v_has_open then
    update public.quiz_attempts a set started_at = now() where a.id = v_open.id returning * into v_open;
    return v_open;
  end if;
  insert into public.quiz_attempts (user_id, quiz_id) values (v_uid, p_quiz_id) returning * into v_open;
  return v_open;
end;
$$;
comment on function private.start_quiz_attempt(uuid) is
  'Learner: the running attempt of the quiz (completed_at null), started now unless one is still within the time limit.';

create function private.finish_quiz_attempt(p_quiz_id uuid, p_answers jsonb, p_grace_seconds integer default 30)
returns public.quiz_attempts
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quiz public.quizzes;
  v_course_id uuid;
  v_open public.quiz_attempts;
  v_has_open boolean;
  -- The caller does not choose how late is too late: at most 30 seconds of grace.
  v_grace integer := least(greatest(coalesce(p_grace_seconds, 30), 0), 30);
  v_attempt public.quiz_attempts;
begin
  select q.* into v_quiz from public.quizzes q where q.id = p_quiz_id;
  select m.course_id into v_course_id from public.course_modules m where m.id = v_quiz.module_id;
  if v_course_id is null or not private.can_study_course(v_course_id) then
    raise exception 'You may not take this quiz' using errcode = '42501';
  end if;
  select a.* into v_open from public.quiz_attempts a
  where a.user_id = v_uid and a.quiz_id = p_quiz_id and a.completed_at is null
  order by a.started_at desc
  limit 1
  for update;
  v_has_open := found;
  if v_quiz.time_limit is not null then
    if not v_has_open then
      raise exception 'Start the quiz before submitting your answers' using errcode = '22023', hint = 'quiz_not_started';
    end if;
    if now() > v_open.started_at + make_interval(mins => v_quiz.time_limit, secs => v_grace) then
      raise exception 'Time is up' using errcode = '22023', hint = 'quiz_time_up';
    end if;
  end if;
  v_attempt := private.submit_quiz_attempt(p_quiz_id, p_answers);
  if v_has_open then
    -- The scored row keeps the real start; the running row has served its purpose.
    update public.quiz_attempts a set started_at = v_open.started_at where a.id = v_attempt.id returning * into v_attempt;
    delete from public.quiz_attempts a where a.id = v_open.id;
  end if;
  return v_attempt;
end;
$$;
comment on function private.finish_quiz_attempt(uuid, jsonb, integer) is
  'Learner: scores the answers (private.submit_quiz_attempt) unless the quiz is timed and its running attempt is missing or past time_limit + grace (grace capped at 30 s; 22023, hint quiz_not_started / quiz_time_up).';

revoke all on function private.start_quiz_attempt(uuid), private.finish_quiz_attempt(uuid, jsonb, integer) from public;
grant execute on function private.start_quiz_attempt(uuid), private.finish_quiz_attempt(uuid, jsonb, integer) to authenticated;

create index courses_featured_created_at_idx on public.courses (featured desc, created_at desc);
