-- welsh_session_and_practical_introductions: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

ALTER TABLE "public"."course_modules"
  DROP CONSTRAINT "course_modules_content_cy_text";

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
        and (m.title_cy is null
             or (m.content_cy is null and (m.kind = 'content' or (m.kind in ('session', 'assessment') and btrim(m.content) <> '')))))
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
             or (qq.explanation is not null and qq.explanation_cy is null)))
    -- practical assessments' criteria (26_practical_assessments.sql)
    and not exists (
      select 1 from public.course_modules m
      join public.assessment_criteria ac on ac.module_id = m.id
      where m.course_id = p_course_id
        and (ac.title_cy is null or (ac.guidance is not null and ac.guidance_cy is null)));
end;
$function$;

ALTER TABLE "public"."course_modules"
  ADD CONSTRAINT "course_modules_content_cy_text" CHECK (((content_cy IS NULL) OR ((kind <> 'scorm'::text) AND (btrim(content_cy) <> ''::text))));

COMMENT ON COLUMN "public"."course_modules"."content_cy" IS 'Markdown body in Welsh (a content module''s body, a session''s or a practical''s introduction; a SCORM package stays one language); null: not translated. Read like content, through private.module_body.';

COMMENT ON COLUMN "public"."courses"."available_in_welsh" IS 'True when the title, the description, every module''s title (and body, for a content module; introduction, for a session or a practical with one in English), every quiz''s title (and description when it has one) and every question (text, options, explanation when it has one) have Welsh. Kept by triggers (private.refresh_courses_in_welsh); no API role writes it.';

-- A course whose session or practical has an English introduction without a Welsh one is no longer
-- wholly in Welsh: the kept flag of those courses, worked out again under the rule above.
select private.refresh_courses_in_welsh(array(
  select distinct m.course_id from public.course_modules m
  where m.kind in ('session', 'assessment') and btrim(m.content) <> ''));
