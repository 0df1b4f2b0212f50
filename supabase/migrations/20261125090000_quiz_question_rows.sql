-- Quiz questions hold only rows that scoring can handle (security finding 16.4). The table checked
-- only that `options` and `correct_answers` were arrays, so an author writing straight through the
-- database API could store options of numbers or objects and a scoring key of "a", 99 or -1, and
-- every later submission of that quiz failed with a 500. private.quiz_question_is_valid states the
-- rule once; the check constraint applies it to every write, whatever the route.
--
-- The rule: 2 to 10 options, each {"text": non-empty string, "isCorrect": boolean}; the scoring key
-- is a non-empty array of distinct whole-number indexes of those options, exactly the options
-- marked correct; a true/false question has exactly two options and one correct answer.

create function private.quiz_question_is_valid(p_type public.question_type, p_options jsonb, p_correct jsonb)
returns boolean
language sql immutable
set search_path = ''
as $$
  -- CASE keeps the order: the key is cast to integers only once every part is known to be one.
  select case
    when jsonb_typeof(p_options) is distinct from 'array'
      or jsonb_array_length(p_options) not between 2 and 10
      or jsonb_typeof(p_correct) is distinct from 'array'
      or jsonb_array_length(p_correct) not between 1 and jsonb_array_length(p_options) then false
    -- every option an object with a non-empty text and a boolean isCorrect
    when exists (
      select 1 from jsonb_array_elements(p_options) o(value)
      where jsonb_typeof(o.value) <> 'object'
         or jsonb_typeof(o.value -> 'text') is distinct from 'string'
         or btrim(o.value ->> 'text') = ''
         or char_length(o.value ->> 'text') > 500
         or jsonb_typeof(o.value -> 'isCorrect') is distinct from 'boolean') then false
    -- every key a whole number that names an option
    when exists (
      select 1 from jsonb_array_elements(p_correct) c(value)
      where case when jsonb_typeof(c.value) <> 'number' or c.value::text !~ '^\d{1,2}$' then true
                 else c.value::text::int >= jsonb_array_length(p_options) end) then false
    when p_type = 'TRUE_FALSE' and (jsonb_array_length(p_options) <> 2 or jsonb_array_length(p_correct) <> 1) then false
    -- the key is exactly the options marked correct (which also makes its indexes distinct)
    else (select array_agg(c.value::text::int order by c.value::text::int) from jsonb_array_elements(p_correct) c(value))
      is not distinct from
         (select array_agg((o.ordinality - 1)::int order by o.ordinality)
            from jsonb_array_elements(p_options) with ordinality o(value, ordinality)
           where (o.value ->> 'isCorrect')::boolean)
  end
$$;
comment on function private.quiz_question_is_valid(public.question_type, jsonb, jsonb) is
  'True when a question''s options and scoring key are ones scoring can handle (see the check quiz_questions_scorable).';
revoke all on function private.quiz_question_is_valid(public.question_type, jsonb, jsonb) from public, anon;
-- The check runs with the writer's rights: authors (authenticated) write questions.
grant execute on function private.quiz_question_is_valid(public.question_type, jsonb, jsonb) to authenticated, service_role;

alter table public.quiz_questions
  add constraint quiz_questions_scorable check (private.quiz_question_is_valid(question_type, options, correct_answers));
comment on constraint quiz_questions_scorable on public.quiz_questions is
  'Options and scoring key that scoring can handle (private.quiz_question_is_valid).';
