-- bilingual_course_content: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."course_module_bodies"(uuid);

DROP FUNCTION "private"."module_body"(uuid);

DROP FUNCTION "private"."quiz_attempt_review"(uuid);

DROP FUNCTION "private"."quiz_questions_for_learner"(uuid);

ALTER TABLE "public"."course_modules"
  ADD COLUMN "title_cy" text;

ALTER TABLE "public"."course_modules"
  ADD COLUMN "content_cy" text;

ALTER TABLE "public"."courses"
  ADD COLUMN "title_cy" text;

ALTER TABLE "public"."courses"
  ADD COLUMN "description_cy" text;

ALTER TABLE "public"."courses"
  ADD COLUMN "available_in_welsh" boolean NOT NULL DEFAULT false;

ALTER TABLE "public"."quiz_questions"
  ADD COLUMN "question_text_cy" text;

ALTER TABLE "public"."quiz_questions"
  ADD COLUMN "options_cy" jsonb;

ALTER TABLE "public"."quiz_questions"
  ADD COLUMN "explanation_cy" text;

ALTER TABLE "public"."quizzes"
  ADD COLUMN "title_cy" text;

ALTER TABLE "public"."quizzes"
  ADD COLUMN "description_cy" text;

CREATE OR REPLACE FUNCTION private.course_module_bodies (
  p_course_id uuid
)
  RETURNS TABLE (
    module_id  uuid,
    content    text,
    image      text,
    content_cy text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 20
  SET search_path TO ''
  AS $function$
begin
  if not (
    private.can_study_course(p_course_id)
    or (
      private.can_view_course(p_course_id)
      and exists (select 1 from public.courses c where c.id = p_course_id and not c.requires_enrollment)
    )
  ) then
    return;
  end if;
  return query
    select m.id, m.content, m.image, m.content_cy
    from public.course_modules m
    where m.course_id = p_course_id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.course_parts_in_welsh (
  p_course_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return not exists (
      select 1 from public.course_modules m
      where m.course_id = p_course_id
        and (m.title_cy is null or (m.kind = 'content' and m.content_cy is null)))
    and not exists (
      select 1 from public.course_modules m
      join public.quizzes q on q.module_id = m.id
      where m.course_id = p_course_id
        and (q.title_cy is null or (q.description is not null and q.description_cy is null)))
    and not exists (
      select 1 from public.course_modules m
      join public.quizzes q on q.module_id = m.id
      join public.quiz_questions qq on qq.quiz_id = q.id
      where m.course_id = p_course_id
        and (qq.question_text_cy is null or qq.options_cy is null
             or (qq.explanation is not null and qq.explanation_cy is null)));
end;
$function$;

CREATE OR REPLACE FUNCTION private.course_search_ids (
  p_pattern          text,
  p_include_archived boolean DEFAULT false
)
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 50
  SET search_path TO ''
  AS $function$
begin
  -- Only courses the caller can see: the rule of private.can_view_course, evaluated once per
  -- statement rather than called for each match.
  return query execute
    'select c.id from public.courses c
     where (c.title ilike $1 or c.description ilike $1 or c.title_cy ilike $1 or c.description_cy ilike $1)
       and ((c.status = ''ACTIVE''
             and ((select auth.uid()) is not null or (select private.course_access()) <> ''login-browse''))
            or (c.author_id = (select auth.uid()) and (select auth.uid()) is not null)
            or (select private.is_admin())
            or c.organisation_id = (select private.administered_organisation_id()))
       and (c.organisation_id is null or (select private.is_admin())
            or c.organisation_id = (select private.current_organisation_id()))'
    -- Archived courses are out of the catalogue: only the course lists of those who manage them ask.
    || case when p_include_archived then '' else ' and c.status in (''DRAFT'', ''ACTIVE'')' end
    using p_pattern;
end;
$function$;

CREATE OR REPLACE FUNCTION private.module_body (
  p_module_id uuid
)
  RETURNS TABLE (
    content    text,
    image      text,
    content_cy text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  return query
    select m.content, m.image, m.content_cy
    from public.course_modules m
    join public.courses c on c.id = m.course_id
    where m.id = p_module_id
      and (
        private.can_study_course(m.course_id)
        or (not c.requires_enrollment and private.can_view_course(m.course_id))
      );
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_modules_in_welsh()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- old_rows / new_rows exist only for their events.
  if tg_op = 'INSERT' then
    perform private.refresh_courses_in_welsh(array(select distinct n.course_id from new_rows n));
  elsif tg_op = 'DELETE' then
    perform private.refresh_courses_in_welsh(array(select distinct o.course_id from old_rows o));
  else
    perform private.refresh_courses_in_welsh(array(
      select o.course_id from old_rows o union select n.course_id from new_rows n));
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_questions_in_welsh()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if tg_op = 'INSERT' then
    perform private.refresh_courses_in_welsh(array(
      select distinct m.course_id from new_rows n
      join public.quizzes q on q.id = n.quiz_id join public.course_modules m on m.id = q.module_id));
  elsif tg_op = 'DELETE' then
    perform private.refresh_courses_in_welsh(array(
      select distinct m.course_id from old_rows o
      join public.quizzes q on q.id = o.quiz_id join public.course_modules m on m.id = q.module_id));
  else
    perform private.refresh_courses_in_welsh(array(
      select m.course_id from (select o.quiz_id from old_rows o union select n.quiz_id from new_rows n) x
      join public.quizzes q on q.id = x.quiz_id join public.course_modules m on m.id = q.module_id));
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_quizzes_in_welsh()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- A quiz deleted with its module finds no module: the module's own trigger refreshes the course.
  if tg_op = 'INSERT' then
    perform private.refresh_courses_in_welsh(array(
      select distinct m.course_id from new_rows n join public.course_modules m on m.id = n.module_id));
  elsif tg_op = 'DELETE' then
    perform private.refresh_courses_in_welsh(array(
      select distinct m.course_id from old_rows o join public.course_modules m on m.id = o.module_id));
  else
    perform private.refresh_courses_in_welsh(array(
      select m.course_id from (select o.module_id from old_rows o union select n.module_id from new_rows n) x
      join public.course_modules m on m.id = x.module_id));
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.quiz_attempt_review (
  p_attempt_id uuid
)
  RETURNS TABLE (
    question_id     uuid,
    correct_answers jsonb,
    options         jsonb,
    explanation     text,
    answers_shown   boolean,
    options_cy      jsonb,
    explanation_cy  text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_attempt public.quiz_attempts;
  v_setting text;
  v_shown boolean;
begin
  select a.* into v_attempt from public.quiz_attempts a
  where a.id = p_attempt_id and a.user_id = (select auth.uid()) and a.completed_at is not null;
  if not found then
    raise exception 'No such attempt of yours' using errcode = '42501';
  end if;
  select q.show_correct_answers into v_setting from public.quizzes q where q.id = v_attempt.quiz_id;
  v_shown := v_setting = 'ALWAYS' or (v_setting = 'AFTER_PASSING' and v_attempt.passed);
  return query
    select qq.id,
           case when v_shown then qq.correct_answers end,
           case when v_shown then qq.options
                else coalesce((select jsonb_agg(jsonb_build_object('text', o.value ->> 'text') order by o.ordinality)
                               from jsonb_array_elements(qq.options) with ordinality o), '[]'::jsonb) end,
           case when v_shown then qq.explanation end,
           v_shown,
           qq.options_cy,
           case when v_shown then qq.explanation_cy end
    from public.quiz_questions qq
    where qq.quiz_id = v_attempt.quiz_id
    order by qq.order_index, qq.id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.quiz_options_cy_is_valid (
  p_options    jsonb,
  p_options_cy jsonb
)
  RETURNS boolean
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  -- The Welsh options: none, or an array of texts as long as the options, each not blank and at most
  -- 500 characters (the rule of an option's text).
  select p_options_cy is null
    or (jsonb_typeof(p_options_cy) = 'array'
        and jsonb_typeof(p_options) = 'array'
        and jsonb_array_length(p_options_cy) = jsonb_array_length(p_options)
        and not exists (
          select 1 from jsonb_array_elements(p_options_cy) o(value)
          where jsonb_typeof(o.value) <> 'string'
             or btrim(o.value #>> '{}') = ''
             or char_length(o.value #>> '{}') > 500))
$function$;

CREATE OR REPLACE FUNCTION private.quiz_questions_for_learner (
  p_quiz_id uuid
)
  RETURNS TABLE (
    id               uuid,
    question_text    text,
    question_type    public.question_type,
    order_index      integer,
    points           integer,
    options          jsonb,
    multiple_answers boolean,
    question_text_cy text,
    options_cy       jsonb
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
                     from jsonb_array_elements(qq.options) with ordinality o), '[]'::jsonb),
           jsonb_array_length(qq.correct_answers) > 1,
           qq.question_text_cy, qq.options_cy
    from public.quiz_questions qq
    where qq.quiz_id = p_quiz_id
    order by case when v_random then random() end, qq.order_index, qq.id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.refresh_courses_in_welsh (
  p_course_ids uuid[]
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if coalesce(cardinality(p_course_ids), 0) = 0 then
    return;
  end if;
  perform 1 from public.courses c where c.id = any (p_course_ids) order by c.id for no key update;
  update public.courses c
  set available_in_welsh = not c.available_in_welsh
  where c.id = any (p_course_ids)
    and c.available_in_welsh is distinct from
        (c.title_cy is not null and c.description_cy is not null and private.course_parts_in_welsh(c.id));
end;
$function$;

CREATE OR REPLACE FUNCTION private.set_course_in_welsh()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  new.available_in_welsh := new.title_cy is not null and new.description_cy is not null
    and private.course_parts_in_welsh(new.id);
  return new;
end;
$function$;

ALTER TABLE "public"."course_modules"
  ADD CONSTRAINT "course_modules_content_cy_text" CHECK (((content_cy IS NULL) OR ((kind = 'content'::text) AND (btrim(content_cy) <> ''::text))));

ALTER TABLE "public"."course_modules"
  ADD CONSTRAINT "course_modules_title_cy_length" CHECK (((title_cy IS NULL) OR ((char_length(btrim(title_cy)) >= 3) AND (char_length(btrim(title_cy)) <= 200))));

ALTER TABLE "public"."courses"
  ADD CONSTRAINT "courses_description_cy_length" CHECK (((description_cy IS NULL) OR ((char_length(btrim(description_cy)) >= 10) AND (char_length(btrim(description_cy)) <= 5000))));

ALTER TABLE "public"."courses"
  ADD CONSTRAINT "courses_title_cy_length" CHECK (((title_cy IS NULL) OR ((char_length(btrim(title_cy)) >= 3) AND (char_length(btrim(title_cy)) <= 200))));

ALTER TABLE "public"."quiz_questions"
  ADD CONSTRAINT "quiz_questions_explanation_cy_text" CHECK (((explanation_cy IS NULL) OR (btrim(explanation_cy) <> ''::text)));

ALTER TABLE "public"."quiz_questions"
  ADD CONSTRAINT "quiz_questions_text_cy_length" CHECK (((question_text_cy IS NULL) OR (char_length(btrim(question_text_cy)) >= 5)));

ALTER TABLE "public"."quizzes"
  ADD CONSTRAINT "quizzes_description_cy_text" CHECK (((description_cy IS NULL) OR (btrim(description_cy) <> ''::text)));

ALTER TABLE "public"."quizzes"
  ADD CONSTRAINT "quizzes_title_cy_length" CHECK (((title_cy IS NULL) OR ((char_length(btrim(title_cy)) >= 3) AND (char_length(btrim(title_cy)) <= 200))));

CREATE INDEX courses_description_cy_trgm_idx ON public.courses USING gin (description_cy extensions.gin_trgm_ops);

CREATE INDEX courses_in_welsh_idx ON public.courses USING btree (featured DESC, created_at DESC)
  WHERE available_in_welsh;

CREATE INDEX courses_title_cy_trgm_idx ON public.courses USING gin (title_cy extensions.gin_trgm_ops);

CREATE TRIGGER course_modules_in_welsh_delete
  AFTER DELETE ON public.course_modules REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_modules_in_welsh();

CREATE TRIGGER course_modules_in_welsh_insert
  AFTER INSERT ON public.course_modules REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_modules_in_welsh();

CREATE TRIGGER course_modules_in_welsh_update
  AFTER UPDATE ON public.course_modules REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_modules_in_welsh();

CREATE TRIGGER courses_in_welsh
  BEFORE INSERT OR UPDATE OF title_cy, description_cy, available_in_welsh ON public.courses
  FOR EACH ROW
  EXECUTE FUNCTION private.set_course_in_welsh();

CREATE TRIGGER quiz_questions_in_welsh_delete
  AFTER DELETE ON public.quiz_questions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_questions_in_welsh();

CREATE TRIGGER quiz_questions_in_welsh_insert
  AFTER INSERT ON public.quiz_questions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_questions_in_welsh();

CREATE TRIGGER quiz_questions_in_welsh_update
  AFTER UPDATE ON public.quiz_questions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_questions_in_welsh();

CREATE TRIGGER quizzes_in_welsh_delete
  AFTER DELETE ON public.quizzes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_quizzes_in_welsh();

CREATE TRIGGER quizzes_in_welsh_insert
  AFTER INSERT ON public.quizzes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_quizzes_in_welsh();

CREATE TRIGGER quizzes_in_welsh_update
  AFTER UPDATE ON public.quizzes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_quizzes_in_welsh();

COMMENT ON COLUMN "public"."course_modules"."content_cy" IS 'Markdown body in Welsh (content modules only: a SCORM package stays one language); null: not translated. Read like content, through private.module_body.';

COMMENT ON COLUMN "public"."course_modules"."title_cy" IS 'The title in Welsh; null: not translated.';

COMMENT ON COLUMN "public"."courses"."available_in_welsh" IS 'True when the title, the description, every module''s title (and body, for a content module), every quiz''s title (and description when it has one) and every question (text, options, explanation when it has one) have Welsh. Kept by triggers (private.refresh_courses_in_welsh); no API role writes it.';

COMMENT ON COLUMN "public"."courses"."description_cy" IS 'The description in Welsh; null: not translated.';

COMMENT ON COLUMN "public"."courses"."title_cy" IS 'The title in Welsh; null: not translated.';

COMMENT ON COLUMN "public"."quiz_questions"."explanation_cy" IS 'The explanation in Welsh; null: not translated.';

COMMENT ON COLUMN "public"."quiz_questions"."options_cy" IS 'JSON array of the option texts in Welsh, as many as options and in the same order (scoring is by index); null: not translated.';

COMMENT ON COLUMN "public"."quiz_questions"."question_text_cy" IS 'The question in Welsh; null: not translated.';

COMMENT ON COLUMN "public"."quizzes"."description_cy" IS 'The description in Welsh; null: not translated.';

COMMENT ON COLUMN "public"."quizzes"."title_cy" IS 'The title in Welsh; null: not translated.';

COMMENT ON FUNCTION "private"."course_module_bodies"(uuid) IS 'Content, image and Welsh content of every module of the course when the caller may read it (the rule of private.module_body, checked once per course); no row otherwise. The API roles cannot select these columns directly.';

COMMENT ON FUNCTION "private"."course_parts_in_welsh"(uuid) IS 'Internal: true when every module, quiz and question of the course has its Welsh (the rule of courses.available_in_welsh below the course itself).';

COMMENT ON FUNCTION "private"."course_search_ids"(text, boolean) IS 'Ids of the courses the caller can see whose title or description, in English or Welsh, matches the ILIKE pattern (trigram indexes), archived ones only when asked; the caller then reads the rows under its own row-level security.';

COMMENT ON FUNCTION "private"."module_body"(uuid) IS 'Content, image and Welsh content of the module when the caller may read it (can_study_course, or enrolment not required and the course visible); no row otherwise. The API roles cannot select these columns directly.';

COMMENT ON FUNCTION "private"."note_modules_in_welsh"() IS 'After insert, update or delete on course_modules (statement level): refreshes available_in_welsh of the courses whose modules changed.';

COMMENT ON FUNCTION "private"."note_questions_in_welsh"() IS 'After insert, update or delete on quiz_questions (statement level): refreshes available_in_welsh of their courses.';

COMMENT ON FUNCTION "private"."note_quizzes_in_welsh"() IS 'After insert, update or delete on quizzes (statement level): refreshes available_in_welsh of their courses.';

COMMENT ON FUNCTION "private"."quiz_attempt_review"(uuid) IS 'Learner: the questions of their own submitted attempt (with the Welsh option texts); the correct answers, isCorrect marks and explanations (English and Welsh) only when the quiz''s show_correct_answers allows (ALWAYS, or AFTER_PASSING and the attempt passed), else null with answers_shown false.';

COMMENT ON FUNCTION "private"."quiz_options_cy_is_valid"(jsonb, jsonb) IS 'True when a question''s Welsh options are null or an array of non-blank texts (at most 500 characters) of the same length as its options (see the check quiz_questions_options_cy_match).';

COMMENT ON FUNCTION "private"."quiz_questions_for_learner"(uuid) IS 'The quiz''s questions with option texts only (no isCorrect, no correct_answers), with their Welsh text and option texts, and whether several options are correct (answered with checkboxes, all-or-nothing), for a caller who may study the course.';

COMMENT ON FUNCTION "private"."refresh_courses_in_welsh"(uuid[]) IS 'Internal: brings courses.available_in_welsh of the given courses up to date (the trigger private.set_course_in_welsh works it out), locking the courses first.';

COMMENT ON FUNCTION "private"."set_course_in_welsh"() IS 'Before insert or update of title_cy, description_cy or available_in_welsh on courses: sets available_in_welsh from the course''s Welsh and private.course_parts_in_welsh.';

REVOKE ALL ON FUNCTION "private"."course_module_bodies"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."course_module_bodies"(uuid) TO "anon", "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."course_parts_in_welsh"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."course_parts_in_welsh"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."module_body"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."module_body"(uuid) TO "anon", "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."note_modules_in_welsh"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_modules_in_welsh"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."note_questions_in_welsh"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_questions_in_welsh"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."note_quizzes_in_welsh"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_quizzes_in_welsh"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."quiz_attempt_review"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."quiz_attempt_review"(uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."quiz_options_cy_is_valid"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."quiz_options_cy_is_valid"(jsonb, jsonb) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."quiz_questions_for_learner"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."quiz_questions_for_learner"(uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."refresh_courses_in_welsh"(uuid[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."refresh_courses_in_welsh"(uuid[]) TO "postgres";

REVOKE ALL ON FUNCTION "private"."set_course_in_welsh"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."set_course_in_welsh"() TO "postgres";

REVOKE ALL ("title_cy") ON TABLE "public"."course_modules" FROM "anon";

GRANT SELECT ("title_cy") ON TABLE "public"."course_modules" TO "anon";

REVOKE ALL ("content_cy") ON TABLE "public"."course_modules" FROM "authenticated";

GRANT INSERT ("content_cy"), UPDATE ("content_cy") ON TABLE "public"."course_modules" TO "authenticated";

REVOKE ALL ("title_cy") ON TABLE "public"."course_modules" FROM "authenticated";

GRANT INSERT ("title_cy"), SELECT ("title_cy"), UPDATE ("title_cy") ON TABLE "public"."course_modules" TO "authenticated";

REVOKE ALL ("description_cy") ON TABLE "public"."courses" FROM "authenticated";

GRANT INSERT ("description_cy"), UPDATE ("description_cy") ON TABLE "public"."courses" TO "authenticated";

REVOKE ALL ("title_cy") ON TABLE "public"."courses" FROM "authenticated";

GRANT INSERT ("title_cy"), UPDATE ("title_cy") ON TABLE "public"."courses" TO "authenticated";

REVOKE ALL ("explanation_cy") ON TABLE "public"."quiz_questions" FROM "authenticated";

GRANT INSERT ("explanation_cy"), UPDATE ("explanation_cy") ON TABLE "public"."quiz_questions" TO "authenticated";

REVOKE ALL ("options_cy") ON TABLE "public"."quiz_questions" FROM "authenticated";

GRANT INSERT ("options_cy"), UPDATE ("options_cy") ON TABLE "public"."quiz_questions" TO "authenticated";

REVOKE ALL ("question_text_cy") ON TABLE "public"."quiz_questions" FROM "authenticated";

GRANT INSERT ("question_text_cy"), UPDATE ("question_text_cy") ON TABLE "public"."quiz_questions" TO "authenticated";

REVOKE ALL ("description_cy") ON TABLE "public"."quizzes" FROM "authenticated";

GRANT INSERT ("description_cy"), UPDATE ("description_cy") ON TABLE "public"."quizzes" TO "authenticated";

REVOKE ALL ("title_cy") ON TABLE "public"."quizzes" FROM "authenticated";

GRANT INSERT ("title_cy"), UPDATE ("title_cy") ON TABLE "public"."quizzes" TO "authenticated";

ALTER TABLE "public"."quiz_questions"
  ADD CONSTRAINT "quiz_questions_options_cy_match" CHECK (private.quiz_options_cy_is_valid(options, options_cy));

COMMENT ON CONSTRAINT "quiz_questions_options_cy_match" ON "public"."quiz_questions" IS 'The Welsh options are the options in the same order (private.quiz_options_cy_is_valid).';
