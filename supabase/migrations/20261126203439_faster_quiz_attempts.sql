-- faster_quiz_attempts: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."quiz_attempt_status"(uuid);

CREATE OR REPLACE FUNCTION private.quiz_attempt_status (
  p_quiz_id uuid
)
  RETURNS TABLE (
    attempts_used        integer,
    max_attempts         integer,
    attempts_remaining   integer,
    next_attempt_at      timestamp with time zone,
    show_correct_answers text,
    retry_wait_minutes   integer
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  return query
  with quiz as (
    select q.id, q.max_attempts, q.retry_wait_minutes, q.show_correct_answers, m.course_id
    from public.quizzes q join public.course_modules m on m.id = q.module_id
    where q.id = p_quiz_id
      and ((select auth.role()) = 'service_role' or private.can_view_course(m.course_id))
  ), counted as (
    select count(*)::int as used, max(a.completed_at) as last_completed
    from quiz, public.quiz_attempts a
    where a.user_id = (select auth.uid()) and a.quiz_id = quiz.id and a.completed_at is not null
      and not exists (select 1 from public.enrollments e
                      where e.user_id = a.user_id and e.course_id = quiz.course_id
                        and e.cycle > 1 and a.completed_at < e.started_at)
  )
  select c.used,
         q.max_attempts,
         case when q.max_attempts is null then null else greatest(q.max_attempts - c.used, 0) end,
         case when q.max_attempts is not null and c.used >= q.max_attempts then null
              when q.retry_wait_minutes > 0 and c.last_completed is not null
                   and c.last_completed + make_interval(mins => q.retry_wait_minutes) > now()
                then c.last_completed + make_interval(mins => q.retry_wait_minutes)
              else null end,
         q.show_correct_answers,
         q.retry_wait_minutes
  from quiz q cross join counted c;
end;
$function$;

COMMENT ON FUNCTION "private"."quiz_attempt_status"(uuid) IS 'The caller''s scored attempts at the quiz in the current cycle, the maximum, the attempts left (null = unlimited), when the next may start when waiting (else null) and the answer-display setting.';

REVOKE ALL ON FUNCTION "private"."quiz_attempt_status"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."quiz_attempt_status"(uuid) TO "authenticated", "postgres", "service_role";
