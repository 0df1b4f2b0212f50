-- Offline learning: what an enrolled learner downloads to keep a course readable without signal,
-- and the learning done offline replayed exactly once when the connection comes back. Design:
-- docs/decisions/offline-learning.md.
--
-- * private.offline_course_files: the stored files of a course the caller studies as an enrolled
--   learner (its cover, its modules' images, its SCORM packages' unpacked files) with their sizes, so
--   the app shows the size before downloading. Learners cannot list storage.objects themselves.
-- * private.offline_replays: one row per person and idempotency key of an item of their offline
--   queue that the server has accepted, with the answer it gave. The key is the person's own: the
--   same key from another person is another item, and nobody reads another's answers.
-- * private.replay_offline_item: accepts one item (a module read, an untimed quiz's answers, a
--   SCORM sitting's run-time data) once, through the same functions the online routes call
--   (mark_module_read, start_quiz_attempt and finish_quiz_attempt, scorm_open_session and
--   scorm_save), so the queue can do nothing the learner could not do online. A replay of a key
--   already accepted answers the stored result and changes nothing. An item that is no longer valid
--   raises 55000 with the hint offline_<reason> (course_unavailable, not_enrolled, needs_connection,
--   deactivated, key_reused) or the quiz's own quiz_no_attempts_left / quiz_retry_wait, and nothing
--   is kept: the queue tells the learner why and drops it.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table private.offline_replays (
  user_id uuid not null references public.profiles (id) on delete cascade,
  key uuid not null,
  kind text not null,
  subject_id uuid not null,
  result jsonb not null,
  recorded_at timestamptz,
  accepted_at timestamptz not null default now(),
  primary key (user_id, key),
  constraint offline_replays_kind check (kind in ('module-read', 'quiz-answers', 'scorm-sitting')),
  constraint offline_replays_result_object check (jsonb_typeof(result) = 'object')
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table private.offline_replays is
  'Items of a learner''s offline queue the server accepted, once per person and key, with the answer given (replayed unchanged). Written only by private.replay_offline_item; no API role reads it.';

comment on column private.offline_replays.key is
  'The idempotency key the device gave the item when it was queued (a UUID), unique per person.';

comment on column private.offline_replays.subject_id is
  'The module (module-read, scorm-sitting) or quiz (quiz-answers) the item was about: a key sent again with another item is refused.';

comment on column private.offline_replays.recorded_at is
  'When the device says the learner did it (information only: every rule is judged at acceptance).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

-- The primary key (user_id, key) answers every lookup; the people's delete cascade uses it too.

-- ---------------------------------------------------------------------------
-- Row-level security: the table is in the private schema, which the API roles cannot reach; no grants.
-- ---------------------------------------------------------------------------

alter table private.offline_replays enable row level security;
revoke all on private.offline_replays from public, anon, authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- The stored files of a course for an enrolled learner to keep offline: the cover and module images
-- of the course's folder, and the unpacked files of its SCORM packages. Empty for anyone else.
create function private.offline_course_files(p_course_id uuid)
returns table(bucket text, name text, bytes bigint, mimetype text)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  if (select auth.uid()) is null
     or not private.can_study_course(p_course_id)
     or not exists (select 1 from public.enrollments e
                    where e.course_id = p_course_id and e.user_id = (select auth.uid()) and e.status = 'ACTIVE') then
    return;
  end if;
  return query
    select o.bucket_id, o.name, coalesce((o.metadata ->> 'size')::bigint, 0), o.metadata ->> 'mimetype'
    from storage.objects o
    where o.bucket_id in ('course-covers', 'module-images')
      and o.name like p_course_id::text || '/%'
    union all
    select o.bucket_id, o.name, coalesce((o.metadata ->> 'size')::bigint, 0), o.metadata ->> 'mimetype'
    from public.scorm_packages p
    join storage.objects o on o.bucket_id = 'scorm-content' and o.name like p.storage_prefix || '%'
    where p.course_id = p_course_id
    order by 1, 2;
end;
$$;
comment on function private.offline_course_files(uuid) is
  'The stored files (bucket, name, bytes, type) of a course the caller studies with an active enrolment: course cover, module images, SCORM packages'' files; no row for anyone else.';
revoke all on function private.offline_course_files(uuid) from public;
grant execute on function private.offline_course_files(uuid) to authenticated;

-- The caller's standing on a course after an item: module completion, course progress, certificate.
create function private.offline_standing(p_user_id uuid, p_module_id uuid, p_course_id uuid)
returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'moduleId', p_module_id,
    'moduleCompleted', coalesce((select u.completed from public.user_module_progress u
                                 where u.user_id = p_user_id and u.module_id = p_module_id), false),
    'courseId', p_course_id,
    'courseProgress', coalesce(e.progress, 0),
    'courseCompleted', coalesce(e.completed, false),
    'certificateId', (select ct.id from public.certificates ct
                      where e.completed and ct.user_id = p_user_id and ct.course_id = p_course_id
                        and ct.revoked_at is null
                      order by ct.cycle desc, ct.issued_at desc limit 1))
  from (select 1) one
  left join public.enrollments e on e.user_id = p_user_id and e.course_id = p_course_id
$$;
comment on function private.offline_standing(uuid,uuid,uuid) is
  'Internal: a person''s module completion, course progress and certificate, as an accepted offline item answers them.';
revoke all on function private.offline_standing(uuid,uuid,uuid) from public;

-- Accepts one item of the caller's offline queue once (see the head of this file).
create function private.replay_offline_item(
  p_key uuid,
  p_kind text,
  p_item jsonb,
  p_recorded_at timestamptz default null
)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_subject uuid;
  v_module_id uuid;
  v_course_id uuid;
  v_module_kind text;
  v_quiz public.quizzes;
  v_done private.offline_replays;
  v_attempt public.quiz_attempts;
  v_session uuid;
  v_save record;
  v_result jsonb;
begin
  if v_uid is null then
    raise exception 'Sign in to save your progress' using errcode = '42501';
  end if;
  if p_kind not in ('module-read', 'quiz-answers', 'scorm-sitting') or p_item is null or jsonb_typeof(p_item) <> 'object' then
    raise exception 'Unknown kind of offline item' using errcode = '22023';
  end if;
  v_subject := case when p_kind = 'quiz-answers' then (p_item ->> 'quizId')::uuid else (p_item ->> 'moduleId')::uuid end;
  if v_subject is null then
    raise exception 'The item names no module or quiz' using errcode = '22023';
  end if;
  -- One replay of a person's key at a time: two tabs or devices sending it together give one result.
  perform pg_advisory_xact_lock(hashtextextended('offline_replay:' || v_uid::text || ':' || p_key::text, 0));
  select r.* into v_done from private.offline_replays r where r.user_id = v_uid and r.key = p_key;
  if found then
    if v_done.kind <> p_kind or v_done.subject_id <> v_subject then
      raise exception 'This key was used for another item' using errcode = '55000', hint = 'offline_key_reused';
    end if;
    return v_done.result || jsonb_build_object('replayed', true, 'acceptedAt', v_done.accepted_at);
  end if;
  if exists (select 1 from public.profiles p where p.id = v_uid and p.deactivated_at is not null) then
    raise exception 'Your account has been deactivated' using errcode = '55000', hint = 'offline_deactivated';
  end if;

  if p_kind = 'quiz-answers' then
    select q.* into v_quiz from public.quizzes q where q.id = v_subject;
    v_module_id := v_quiz.module_id;
  else
    v_module_id := v_subject;
  end if;
  select m.course_id, m.kind into v_course_id, v_module_kind from public.course_modules m where m.id = v_module_id;
  if v_course_id is null or not private.can_view_course(v_course_id) then
    raise exception 'This course is no longer available' using errcode = '55000', hint = 'offline_course_unavailable';
  end if;
  if not exists (select 1 from public.enrollments e
                 where e.user_id = v_uid and e.course_id = v_course_id and e.status = 'ACTIVE')
     or not private.can_study_course(v_course_id) then
    raise exception 'You are no longer enrolled in this course' using errcode = '55000', hint = 'offline_not_enrolled';
  end if;

  case p_kind
    when 'module-read' then
      -- A SCORM module completes when its package reports it (scorm-sitting), as online.
      if v_module_kind = 'scorm' then
        raise exception 'This module completes when its SCORM package reports it' using errcode = '55000', hint = 'offline_needs_connection';
      end if;
      perform private.mark_module_read(v_module_id);
      v_result := private.offline_standing(v_uid, v_module_id, v_course_id);
    when 'quiz-answers' then
      if v_quiz.time_limit is not null then
        raise exception 'A timed quiz needs a connection' using errcode = '55000', hint = 'offline_needs_connection';
      end if;
      -- As online: an attempt starts (the maximum and the wait checked), then is scored on the server.
      perform private.start_quiz_attempt(v_quiz.id);
      v_attempt := private.finish_quiz_attempt(v_quiz.id, coalesce(p_item -> 'answers', '{}'::jsonb), 0);
      v_result := private.offline_standing(v_uid, v_module_id, v_course_id) || jsonb_build_object(
        'quizId', v_quiz.id, 'attemptId', v_attempt.id, 'score', v_attempt.score,
        'maxScore', v_attempt.max_score, 'passed', v_attempt.passed);
    else
      if v_module_kind <> 'scorm' or coalesce(p_item ->> 'scoId', '') = '' then
        raise exception 'The item names no SCO of a SCORM module' using errcode = '22023';
      end if;
      -- A sitting of its own, saved once (its reported time counts on finish, as online).
      select o.session_id into v_session from private.scorm_open_session(v_module_id, p_item ->> 'scoId') o;
      select s.* into v_save
      from private.scorm_save(v_session, 1, coalesce(p_item -> 'values', '{}'::jsonb),
                              coalesce((p_item ->> 'finish')::boolean, true)) s;
      v_result := private.offline_standing(v_uid, v_module_id, v_course_id) || jsonb_build_object(
        'scoId', p_item ->> 'scoId', 'completionStatus', v_save.completion_status,
        'successStatus', v_save.success_status, 'secondsToMinimum', v_save.seconds_to_minimum);
  end case;

  insert into private.offline_replays (user_id, key, kind, subject_id, result, recorded_at)
  values (v_uid, p_key, p_kind, v_subject, v_result, p_recorded_at)
  returning * into v_done;
  return v_result || jsonb_build_object('replayed', false, 'acceptedAt', v_done.accepted_at);
end;
$$;
comment on function private.replay_offline_item(uuid,text,jsonb,timestamp with time zone) is
  'Learner: accepts one item of their offline queue (module-read, quiz-answers of an untimed quiz, scorm-sitting) once per key through the online functions, and answers the stored result for a key already accepted (replayed true). 55000 hint offline_course_unavailable / offline_not_enrolled / offline_needs_connection / offline_deactivated / offline_key_reused, or the quiz''s quiz_no_attempts_left / quiz_retry_wait; 22023 a malformed item.';
revoke all on function private.replay_offline_item(uuid,text,jsonb,timestamp with time zone) from public;
grant execute on function private.replay_offline_item(uuid,text,jsonb,timestamp with time zone) to authenticated;
