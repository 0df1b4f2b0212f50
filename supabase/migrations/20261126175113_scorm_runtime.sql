-- scorm_runtime: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."settle_module"(uuid, uuid);

CREATE TABLE "public"."scorm_attempts" (
  "id"                uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "user_id"           uuid                     NOT NULL,
  "module_id"         uuid                     NOT NULL,
  "sco_id"            text                     NOT NULL,
  "attempt"           integer                  NOT NULL DEFAULT 1,
  "cmi"               jsonb                    NOT NULL DEFAULT '{}'::jsonb,
  "completion_status" text                     NOT NULL DEFAULT 'not attempted'::text,
  "success_status"    text                     NOT NULL DEFAULT 'unknown'::text,
  "score"             numeric,
  "total_seconds"     numeric                  NOT NULL DEFAULT 0,
  "suspended"         boolean                  NOT NULL DEFAULT false,
  "met_at"            timestamp with time zone,
  "created_at"        timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at"        timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "scorm_attempts_attempt_positive" CHECK ((attempt >= 1)),
  CONSTRAINT "scorm_attempts_cmi_object" CHECK ((jsonb_typeof(cmi) = 'object'::text)),
  CONSTRAINT "scorm_attempts_completion_values" CHECK ((completion_status = ANY (ARRAY['not attempted'::text, 'unknown'::text, 'incomplete'::text, 'completed'::text]))),
  CONSTRAINT "scorm_attempts_key" UNIQUE (user_id, module_id, sco_id, attempt),
  CONSTRAINT "scorm_attempts_pkey" PRIMARY KEY (id),
  CONSTRAINT "scorm_attempts_sco_id_length" CHECK (((char_length(sco_id) >= 1) AND (char_length(sco_id) <= 255))),
  CONSTRAINT "scorm_attempts_score_range" CHECK (((score IS NULL) OR ((score >= (0)::numeric) AND (score <= (1)::numeric)))),
  CONSTRAINT "scorm_attempts_success_values" CHECK ((success_status = ANY (ARRAY['unknown'::text, 'passed'::text, 'failed'::text]))),
  CONSTRAINT "scorm_attempts_total_seconds_range" CHECK ((total_seconds >= (0)::numeric))
);

ALTER TABLE "public"."scorm_attempts"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."scorm_sessions" (
  "id"           uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "attempt_id"   uuid                     NOT NULL,
  "user_id"      uuid                     NOT NULL,
  "seq"          integer                  NOT NULL DEFAULT 0,
  "session_time" text,
  "started_at"   timestamp with time zone NOT NULL DEFAULT now(),
  "saved_at"     timestamp with time zone,
  "finished_at"  timestamp with time zone,
  CONSTRAINT "scorm_sessions_pkey" PRIMARY KEY (id),
  CONSTRAINT "scorm_sessions_seq_range" CHECK ((seq >= 0))
);

ALTER TABLE "public"."scorm_sessions"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION private.learning_record (
  p_user_id uuid
)
  RETURNS TABLE (
    certificate_id    uuid,
    course_id         uuid,
    course_title      text,
    service           text,
    cycle             integer,
    completed_at      timestamp with time zone,
    hours             integer,
    score             integer,
    verification_code text,
    expires_at        timestamp with time zone,
    revoked_at        timestamp with time zone,
    state             text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  if p_user_id is distinct from (select auth.uid()) and not (select private.is_admin())
     and not exists (select 1 from private.administered_person_ids() a where a = p_user_id) then
    raise exception 'Only the learner and administrators may read a learning record' using errcode = '42501';
  end if;
  return query
    with history as (
      select c.*,
             lag(c.issued_at) over (partition by c.course_id order by c.issued_at) as previous_issued_at
      from public.certificates c
      where c.user_id = p_user_id
    )
    select h.id, h.course_id, h.course_title, h.service::text, h.cycle, h.issued_at, co.duration,
           s.score, h.verification_code, h.expires_at, h.revoked_at,
           private.certificate_state(h.expires_at, h.revoked_at)
    from history h
    left join public.courses co on co.id = h.course_id
    left join lateral (
      select round(avg(best.pct))::integer as score
      from (
        select max(round(100.0 * a.score / nullif(a.max_score, 0))) as pct
        from public.course_modules m
        join public.quizzes q on q.module_id = m.id
        join public.quiz_attempts a on a.quiz_id = q.id and a.user_id = p_user_id
        where m.course_id = h.course_id
          and a.passed
          and a.completed_at <= h.issued_at
          and (h.previous_issued_at is null or a.completed_at > h.previous_issued_at)
        group by q.id
        union all
        -- A SCORM package whose score counts as the module's quiz score (19_scorm_runtime.sql):
        -- the best attempt that met the module's rule in the same period.
        select max(round(100.0 * a.score))
        from public.course_modules m
        join public.scorm_packages p on p.module_id = m.id and p.score_is_quiz_score
        join public.scorm_attempts a on a.module_id = m.id and a.user_id = p_user_id
        where m.course_id = h.course_id
          and a.met_at is not null and a.score is not null
          and a.met_at <= h.issued_at
          and (h.previous_issued_at is null or a.met_at > h.previous_issued_at)
        group by m.id
      ) best
    ) s on true
    order by h.issued_at desc, h.id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scorm_12_statuses (
  p_lesson_status text
)
  RETURNS text[]
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  select case p_lesson_status
    when 'passed' then array['completed', 'passed']
    when 'failed' then array['completed', 'failed']
    when 'completed' then array['completed', 'unknown']
    when 'incomplete' then array['incomplete', 'unknown']
    when 'browsed' then array['incomplete', 'unknown']
    else array['not attempted', 'unknown']
  end
$function$;

CREATE OR REPLACE FUNCTION private.scorm_module_learners (
  p_module_id uuid,
  p_limit     integer DEFAULT 20,
  p_offset    integer DEFAULT 0
)
  RETURNS TABLE (
    user_id          uuid,
    name             text,
    username         text,
    module_completed boolean,
    scos             jsonb,
    total            bigint
  )
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
declare
  v_course_id uuid;
begin
  perform private.require_instructor();
  select m.course_id into v_course_id from public.course_modules m where m.id = p_module_id;
  if v_course_id is null or v_course_id not in (select private.managed_course_ids()) then
    raise exception 'You can only see learners of courses you manage' using errcode = '42501';
  end if;
  return query
    with learners as (
      select e.user_id, p.name, p.username, count(*) over () as total
      from public.enrollments e
      join public.profiles p on p.id = e.user_id
      where e.course_id = v_course_id and e.status = 'ACTIVE'
      order by p.name, e.user_id
      limit greatest(least(p_limit, 100), 0) offset greatest(p_offset, 0)
    )
    select l.user_id, l.name, l.username,
           coalesce((select u.completed from public.user_module_progress u
                     where u.user_id = l.user_id and u.module_id = p_module_id), false),
           coalesce((
             select jsonb_agg(jsonb_build_object(
                      'scoId', s.sco_id,
                      'completionStatus', s.completion_status,
                      'successStatus', s.success_status,
                      'score', s.best_score,
                      'totalSeconds', s.total_seconds,
                      'attempts', s.attempts,
                      'lastActivity', s.last_activity) order by s.sco_id)
             from (
               select a.sco_id,
                      (array_agg(a.completion_status order by a.attempt desc))[1] as completion_status,
                      (array_agg(a.success_status order by a.attempt desc))[1] as success_status,
                      max(a.score) as best_score,
                      sum(a.total_seconds) as total_seconds,
                      count(*) as attempts,
                      max(a.updated_at) as last_activity
               from public.scorm_attempts a
               where a.module_id = p_module_id and a.user_id = l.user_id
               group by a.sco_id
             ) s), '[]'::jsonb),
           l.total
    from learners l
    order by l.name, l.user_id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scorm_module_met (
  p_user_id   uuid,
  p_module_id uuid
)
  RETURNS boolean
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select exists (select 1 from public.scorm_packages p where p.module_id = p_module_id)
     and not exists (
       select 1
       from public.scorm_packages p
       cross join lateral jsonb_array_elements(p.scos) s(sco)
       where p.module_id = p_module_id
         and not exists (
           select 1 from public.scorm_attempts a
           where a.user_id = p_user_id and a.module_id = p_module_id and a.sco_id = s.sco ->> 'id'
             and private.scorm_rule_met(p.completion_rule, a.completion_status, a.success_status)))
$function$;

CREATE OR REPLACE FUNCTION private.scorm_open_session (
  p_module_id uuid,
  p_sco_id    text
)
  RETURNS TABLE (
    session_id    uuid,
    attempt       integer,
    version       text,
    entry         text,
    cmi           jsonb,
    total_seconds numeric,
    learner_id    uuid,
    learner_name  text
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
declare
  v_uid uuid := (select auth.uid());
  v_package public.scorm_packages;
  v_attempt public.scorm_attempts;
  v_entry text;
  v_session uuid;
begin
  select p.* into v_package from public.scorm_packages p where p.module_id = p_module_id;
  if not found or not private.can_study_course(v_package.course_id) then
    raise exception 'You may not study this module' using errcode = '42501';
  end if;
  if not exists (select 1 from public.enrollments e where e.user_id = v_uid and e.course_id = v_package.course_id and e.status = 'ACTIVE') then
    raise exception 'Enrol in this course to keep your progress' using errcode = '42501', hint = 'scorm_not_enrolled';
  end if;
  if not exists (select 1 from jsonb_array_elements(v_package.scos) s(sco) where s.sco ->> 'id' = p_sco_id) then
    raise exception 'No such SCO in this package' using errcode = 'P0002';
  end if;
  -- One opening per learner and SCO at a time, so two openings do not both start attempt n + 1.
  perform pg_advisory_xact_lock(hashtextextended('scorm:' || v_uid::text || ':' || p_module_id::text || ':' || p_sco_id, 0));
  select a.* into v_attempt from public.scorm_attempts a
  where a.module_id = p_module_id and a.user_id = v_uid and a.sco_id = p_sco_id
  order by a.attempt desc limit 1;
  if not found or v_attempt.met_at is not null then
    insert into public.scorm_attempts (user_id, module_id, sco_id, attempt)
    values (v_uid, p_module_id, p_sco_id, coalesce(v_attempt.attempt, 0) + 1)
    returning * into v_attempt;
    v_entry := 'ab-initio';
  elsif v_attempt.suspended then
    v_entry := 'resume';
  else
    v_entry := '';
  end if;
  insert into public.scorm_sessions (attempt_id, user_id) values (v_attempt.id, v_uid)
  returning id into v_session;
  return query
    select v_session, v_attempt.attempt, v_package.version, v_entry, v_attempt.cmi, v_attempt.total_seconds,
           pr.id, pr.name
    from public.profiles pr where pr.id = v_uid;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scorm_rule_met (
  p_rule       text,
  p_completion text,
  p_success    text
)
  RETURNS boolean
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  select case p_rule
    when 'passed' then p_success = 'passed'
    when 'completed-or-passed' then p_success = 'passed' or (p_completion = 'completed' and p_success <> 'failed')
    else p_completion = 'completed' and p_success <> 'failed'
  end
$function$;

CREATE OR REPLACE FUNCTION private.scorm_save (
  p_session_id uuid,
  p_seq        integer,
  p_values     jsonb,
  p_finish     boolean
)
  RETURNS TABLE (
    seq               integer,
    completion_status text,
    success_status    text,
    module_completed  boolean,
    enrollment_id     uuid,
    progress          integer
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
declare
  v_uid uuid := (select auth.uid());
  v_session public.scorm_sessions;
  v_attempt public.scorm_attempts;
  v_package public.scorm_packages;
  v_cmi jsonb;
  v_pair text[];
  v_raw numeric;
  v_max numeric;
  v_min numeric;
  v_score numeric;
  v_exit text;
  v_time text;
  v_met boolean;
  v_done boolean;
  v_enrollment public.enrollments;
begin
  select s.* into v_session from public.scorm_sessions s where s.id = p_session_id for update;
  if not found or v_session.user_id is distinct from v_uid then
    raise exception 'Session not found' using errcode = 'P0002';
  end if;
  if v_session.finished_at is not null then
    raise exception 'This session has finished' using errcode = '55000', hint = 'scorm_finished';
  end if;
  if p_seq is null or p_seq <= v_session.seq then
    raise exception 'Out of order' using errcode = '55000', hint = 'scorm_seq';
  end if;
  if p_values is null or jsonb_typeof(p_values) <> 'object' or exists (
       select 1 from jsonb_each(p_values) v
       where v.key !~ '^cmi\.[a-z_0-9.]{1,200}$' or jsonb_typeof(v.value) <> 'string'
          or char_length(v.value #>> '{}') > 64000) then
    raise exception 'Values must be data model elements with string values' using errcode = '22023';
  end if;
  select a.* into v_attempt from public.scorm_attempts a where a.id = v_session.attempt_id for update;
  select p.* into v_package from public.scorm_packages p where p.module_id = v_attempt.module_id;
  if not found or not private.can_study_course(v_package.course_id) then
    raise exception 'You may not study this module' using errcode = '42501';
  end if;

  -- session_time is the sitting's, not the attempt's: kept on the session, added on finish.
  v_time := coalesce(p_values ->> (case v_package.version when '1.2' then 'cmi.core.session_time' else 'cmi.session_time' end),
                     v_session.session_time);
  v_cmi := v_attempt.cmi || (p_values - 'cmi.core.session_time' - 'cmi.session_time');

  if v_package.version = '1.2' then
    v_pair := private.scorm_12_statuses(v_cmi ->> 'cmi.core.lesson_status');
    v_raw := nullif(v_cmi ->> 'cmi.core.score.raw', '')::numeric;
    v_max := nullif(v_cmi ->> 'cmi.core.score.max', '')::numeric;
    v_min := nullif(v_cmi ->> 'cmi.core.score.min', '')::numeric;
    v_exit := v_cmi ->> 'cmi.core.exit';
  else
    v_pair := array[coalesce(v_cmi ->> 'cmi.completion_status', 'unknown'), coalesce(v_cmi ->> 'cmi.success_status', 'unknown')];
    v_raw := nullif(v_cmi ->> 'cmi.score.raw', '')::numeric;
    v_max := nullif(v_cmi ->> 'cmi.score.max', '')::numeric;
    v_min := nullif(v_cmi ->> 'cmi.score.min', '')::numeric;
    v_exit := v_cmi ->> 'cmi.exit';
    v_score := nullif(v_cmi ->> 'cmi.score.scaled', '')::numeric;
  end if;
  if v_score is null and v_raw is not null then
    v_score := (v_raw - coalesce(v_min, 0)) / nullif(coalesce(v_max, 100) - coalesce(v_min, 0), 0);
  end if;
  v_score := least(greatest(v_score, 0), 1);
  v_met := private.scorm_rule_met(v_package.completion_rule, v_pair[1], v_pair[2]);

  update public.scorm_attempts a
  set cmi = v_cmi,
      completion_status = v_pair[1],
      success_status = v_pair[2],
      score = v_score,
      suspended = coalesce(v_exit = 'suspend', false),
      total_seconds = a.total_seconds + case when p_finish and v_time is not null
                                             then extract(epoch from v_time::interval) else 0 end,
      met_at = coalesce(a.met_at, case when v_met then now() end),
      updated_at = now()
  where a.id = v_attempt.id
  returning * into v_attempt;

  update public.scorm_sessions s
  set seq = p_seq, session_time = v_time, saved_at = now(),
      finished_at = case when p_finish then now() end
  where s.id = p_session_id;

  -- The module completes exactly as a read module does once every SCO has met the rule.
  v_done := false;
  if v_met and private.scorm_module_met(v_uid, v_attempt.module_id) then
    v_enrollment := private.mark_module_read(v_attempt.module_id);
  else
    select e.* into v_enrollment from public.enrollments e
    where e.user_id = v_uid and e.course_id = v_package.course_id;
  end if;
  select coalesce(bool_or(ump.completed), false) into v_done from public.user_module_progress ump
  where ump.user_id = v_uid and ump.module_id = v_attempt.module_id;

  return query select p_seq, v_attempt.completion_status, v_attempt.success_status, v_done,
                      v_enrollment.id, v_enrollment.progress;
end;
$function$;

CREATE OR REPLACE FUNCTION private.settle_module (
  p_user_id   uuid,
  p_module_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  update public.user_module_progress ump
  set completed = true, completed_at = now()
  where ump.user_id = p_user_id and ump.module_id = p_module_id and not ump.completed
    and ump.read_at is not null
    and (ump.quiz_passed or not exists (select 1 from public.quizzes q where q.module_id = p_module_id))
    and (not exists (select 1 from public.course_modules m where m.id = p_module_id and m.kind = 'scorm')
         or private.scorm_module_met(p_user_id, p_module_id));
end;
$function$;

ALTER TABLE "public"."scorm_attempts"
  ADD CONSTRAINT "scorm_attempts_module_id_fkey" FOREIGN KEY (module_id) REFERENCES public.course_modules(id) ON DELETE CASCADE;

ALTER TABLE "public"."scorm_attempts"
  ADD CONSTRAINT "scorm_attempts_user_id_fkey" FOREIGN KEY (user_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

ALTER TABLE "public"."scorm_sessions"
  ADD CONSTRAINT "scorm_sessions_attempt_id_fkey" FOREIGN KEY (attempt_id) REFERENCES public.scorm_attempts(id) ON DELETE CASCADE;

ALTER TABLE "public"."scorm_sessions"
  ADD CONSTRAINT "scorm_sessions_user_id_fkey" FOREIGN KEY (user_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

CREATE INDEX scorm_attempts_module_user_idx ON public.scorm_attempts USING btree (module_id, user_id, sco_id, attempt DESC);

CREATE INDEX scorm_sessions_attempt_id_idx ON public.scorm_sessions USING btree (attempt_id);

CREATE INDEX scorm_sessions_user_id_idx ON public.scorm_sessions USING btree (user_id);

CREATE POLICY "learners read own SCORM attempts, authors their modules', admin" ON "public"."scorm_attempts"
  FOR SELECT
  TO "authenticated"
  USING
    (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids)) OR
    (user_id IN ( SELECT private.administered_person_ids() AS administered_person_ids))));

CREATE POLICY "learners read own SCORM sessions, admins all" ON "public"."scorm_sessions"
  FOR SELECT
  TO "authenticated"
  USING (((user_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin)));

COMMENT ON COLUMN "public"."scorm_attempts"."cmi" IS 'The saved writable elements, {"cmi.<element>": "<string>"}, validated against the package''s version.';

COMMENT ON COLUMN "public"."scorm_attempts"."completion_status" IS 'SCORM 2004 cmi.completion_status; for 1.2 read from cmi.core.lesson_status (passed, completed, failed: completed; incomplete, browsed: incomplete).';

COMMENT ON COLUMN "public"."scorm_attempts"."met_at" IS 'When this attempt first met the module''s completion rule.';

COMMENT ON COLUMN "public"."scorm_attempts"."score" IS 'The score as a fraction 0-1: cmi.score.scaled (2004), else raw / max (max 100 when not reported).';

COMMENT ON COLUMN "public"."scorm_attempts"."success_status" IS 'SCORM 2004 cmi.success_status; for 1.2 passed or failed from cmi.core.lesson_status.';

COMMENT ON COLUMN "public"."scorm_attempts"."suspended" IS 'The content last exited with suspend: the next session resumes it (entry resume).';

COMMENT ON COLUMN "public"."scorm_attempts"."total_seconds" IS 'Total time: the session times of the attempt''s finished sessions.';

COMMENT ON FUNCTION "private"."scorm_12_statuses"(text) IS 'SCORM 1.2 lesson_status as {completion_status, success_status}.';

COMMENT ON FUNCTION "private"."scorm_module_learners"(uuid, integer, integer) IS 'Instructor or admin managing the course: each active learner''s SCORM attempts at the module, per SCO, paged by name. 42501 otherwise.';

COMMENT ON FUNCTION "private"."scorm_module_met"(uuid, uuid) IS 'Internal: every SCO of the module''s package has an attempt of the learner meeting the package''s completion rule.';

COMMENT ON FUNCTION "private"."scorm_open_session"(uuid, text) IS 'Learner (enrolled): opens a session on a SCO of the module''s package, resuming the latest attempt unless it met the rule. 42501 not allowed or not enrolled (hint scorm_not_enrolled), P0002 no such SCO.';

COMMENT ON FUNCTION "private"."scorm_rule_met"(text, text, text) IS 'True when the statuses meet the completion rule (completed, passed, completed-or-passed).';

COMMENT ON FUNCTION "private"."scorm_save"(uuid, integer, jsonb, boolean) IS 'Learner: saves the values the content reported through their open session (seq strictly increasing), the statuses, score and total time, and completes the module when the package''s rule is met for every SCO. P0002 not their session; 55000 hint scorm_seq / scorm_finished; 22023 bad values.';

COMMENT ON FUNCTION "private"."settle_module"(uuid, uuid) IS 'Internal: marks the module complete when read and its quiz (if any) passed; a SCORM module also when its package''s rule is met for every SCO.';

COMMENT ON TABLE "public"."scorm_attempts" IS 'A learner''s attempt at one SCO of a SCORM module: the saved data model elements and the statuses read from them. Written only by private.scorm_save.';

COMMENT ON TABLE "public"."scorm_sessions" IS 'One sitting of a SCORM attempt: saves arrive with seq strictly increasing; finished sessions accept nothing.';

REVOKE ALL ON FUNCTION "private"."scorm_12_statuses"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_12_statuses"(text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scorm_module_learners"(uuid, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_module_learners"(uuid, integer, integer) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."scorm_module_met"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_module_met"(uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scorm_open_session"(uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_open_session"(uuid, text) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."scorm_rule_met"(text, text, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_rule_met"(text, text, text) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."scorm_save"(uuid, integer, jsonb, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_save"(uuid, integer, jsonb, boolean) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."settle_module"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."settle_module"(uuid, uuid) TO "postgres";

REVOKE ALL ON TABLE "public"."scorm_attempts" FROM "authenticated";

GRANT SELECT ON TABLE "public"."scorm_attempts" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."scorm_attempts" TO "postgres", "service_role";

REVOKE ALL ON TABLE "public"."scorm_sessions" FROM "authenticated";

GRANT SELECT ON TABLE "public"."scorm_sessions" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."scorm_sessions" TO "postgres", "service_role";

-- The diff leaves out revoking the default privileges anon gets on a new table (see the schema file).
REVOKE ALL ON TABLE "public"."scorm_attempts" FROM "anon";

REVOKE ALL ON TABLE "public"."scorm_sessions" FROM "anon";
