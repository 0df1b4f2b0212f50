-- offline_replay: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE TABLE "private"."offline_replays" (
  "user_id"     uuid                     NOT NULL,
  "key"         uuid                     NOT NULL,
  "kind"        text                     NOT NULL,
  "subject_id"  uuid                     NOT NULL,
  "result"      jsonb                    NOT NULL,
  "recorded_at" timestamp with time zone,
  "accepted_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "offline_replays_kind" CHECK ((kind = ANY (ARRAY['module-read'::text, 'quiz-answers'::text, 'scorm-sitting'::text]))),
  CONSTRAINT "offline_replays_pkey" PRIMARY KEY (user_id, key),
  CONSTRAINT "offline_replays_result_object" CHECK ((jsonb_typeof(result) = 'object'::text))
);

ALTER TABLE "private"."offline_replays"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION private.offline_course_files (
  p_course_id uuid
)
  RETURNS TABLE (
    bucket   text,
    name     text,
    bytes    bigint,
    mimetype text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.offline_standing (
  p_user_id   uuid,
  p_module_id uuid,
  p_course_id uuid
)
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.replay_offline_item (
  p_key         uuid,
  p_kind        text,
  p_item        jsonb,
  p_recorded_at timestamp with time zone DEFAULT NULL::timestamp WITH time zone
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

ALTER TABLE "private"."offline_replays"
  ADD CONSTRAINT "offline_replays_user_id_fkey" FOREIGN KEY (user_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

COMMENT ON COLUMN "private"."offline_replays"."key" IS 'The idempotency key the device gave the item when it was queued (a UUID), unique per person.';

COMMENT ON COLUMN "private"."offline_replays"."recorded_at" IS 'When the device says the learner did it (information only: every rule is judged at acceptance).';

COMMENT ON COLUMN "private"."offline_replays"."subject_id" IS 'The module (module-read, scorm-sitting) or quiz (quiz-answers) the item was about: a key sent again with another item is refused.';

COMMENT ON FUNCTION "private"."offline_course_files"(uuid) IS 'The stored files (bucket, name, bytes, type) of a course the caller studies with an active enrolment: course cover, module images, SCORM packages'' files; no row for anyone else.';

COMMENT ON FUNCTION "private"."offline_standing"(uuid, uuid, uuid) IS 'Internal: a person''s module completion, course progress and certificate, as an accepted offline item answers them.';

COMMENT ON FUNCTION "private"."replay_offline_item"(uuid, text, jsonb, timestamp with time zone) IS 'Learner: accepts one item of their offline queue (module-read, quiz-answers of an untimed quiz, scorm-sitting) once per key through the online functions, and answers the stored result for a key already accepted (replayed true). 55000 hint offline_course_unavailable / offline_not_enrolled / offline_needs_connection / offline_deactivated / offline_key_reused, or the quiz''s quiz_no_attempts_left / quiz_retry_wait; 22023 a malformed item.';

COMMENT ON TABLE "private"."offline_replays" IS 'Items of a learner''s offline queue the server accepted, once per person and key, with the answer given (replayed unchanged). Written only by private.replay_offline_item; no API role reads it.';

REVOKE ALL ON FUNCTION "private"."offline_course_files"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."offline_course_files"(uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."offline_standing"(uuid, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."offline_standing"(uuid, uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."replay_offline_item"(uuid, text, jsonb, timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."replay_offline_item"(uuid, text, jsonb, timestamp WITH time zone) TO "authenticated", "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."offline_replays" TO "postgres";
