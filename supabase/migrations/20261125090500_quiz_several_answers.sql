-- A multiple-choice question with several correct answers is answered with checkboxes and scored
-- all-or-nothing (issue 15, the blocker): the learner's view of a question now says whether it has
-- several correct answers, so the quiz shows checkboxes and "Select all that apply" instead of
-- radio buttons that allowed one choice and could never score. Scoring (private.submit_quiz_attempt)
-- already compares the chosen set with the correct set; the check quiz_questions_scorable keeps at
-- least one correct answer on every question, so every question can be answered right.

drop function private.quiz_questions_for_learner(uuid);
create function private.quiz_questions_for_learner(p_quiz_id uuid)
returns table (id uuid, question_text text, question_type public.question_type, order_index integer, points integer,
  options jsonb, multiple_answers boolean)
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
                     from jsonb_array_elements(qq.options) with ordinality o), '[]'::jsonb),
           jsonb_array_length(qq.correct_answers) > 1
    from public.quiz_questions qq
    where qq.quiz_id = p_quiz_id
    order by case when v_random then random() end, qq.order_index, qq.id;
end;
$$;
comment on function private.quiz_questions_for_learner(uuid) is
  'The quiz''s questions with option texts only (no isCorrect, no correct_answers) and whether several options are correct (answered with checkboxes, all-or-nothing), for a caller who may study the course.';
revoke all on function private.quiz_questions_for_learner(uuid) from public;
grant execute on function private.quiz_questions_for_learner(uuid) to authenticated;
