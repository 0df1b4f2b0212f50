-- Authoring helpers (issue 4): a module's has_quiz follows its quiz, and the order of a course's
-- modules and of a quiz's questions is rewritten in one statement each (reorder, renumber after a
-- delete). The order functions are security invoker: they run under the caller's row-level
-- security, so they can only move rows the caller may update; a refused row makes them fail whole.

-- has_quiz is true exactly when the module has a quiz. Security definer: the flag is bookkeeping
-- and must follow even a cascade delete started by someone who could not update the module.
create function private.sync_module_has_quiz() returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    update public.course_modules m
    set has_quiz = exists (select 1 from public.quizzes q where q.module_id = old.module_id)
    where m.id = old.module_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update public.course_modules m set has_quiz = true where m.id = new.module_id and not m.has_quiz;
  end if;
  return null;
end;
$$;
comment on function private.sync_module_has_quiz() is 'After-trigger on quizzes: keeps course_modules.has_quiz equal to "a quiz exists".';
revoke all on function private.sync_module_has_quiz() from public;

create trigger quizzes_sync_module_has_quiz
  after insert or delete or update of module_id on public.quizzes
  for each row execute function private.sync_module_has_quiz();

-- Bring any existing row in line (the seed sets the flag by hand).
update public.course_modules m
set has_quiz = exists (select 1 from public.quizzes q where q.module_id = m.id)
where m.has_quiz <> exists (select 1 from public.quizzes q where q.module_id = m.id);

-- Reorder: p_module_ids must be exactly the course's modules, each once (22023 otherwise); they
-- become 1..n in that order. 42501 when RLS lets the caller update fewer rows than that.
create function private.reorder_modules(p_course_id uuid, p_module_ids uuid[]) returns integer
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_current uuid[];
  v_given uuid[];
  v_count integer;
  v_expected integer;
begin
  select coalesce(array_agg(m.id order by m.id), '{}') into v_current
  from public.course_modules m where m.course_id = p_course_id;
  select coalesce(array_agg(x order by x), '{}') into v_given from unnest(coalesce(p_module_ids, '{}')) x;
  if v_given is distinct from v_current then
    raise exception 'The module ids must be exactly the modules of the course, each once' using errcode = '22023';
  end if;
  select count(*) into v_expected
  from unnest(p_module_ids) with ordinality as t(id, position)
  join public.course_modules m on m.id = t.id where m.order_index <> t.position;
  update public.course_modules m
  set order_index = t.position
  from unnest(p_module_ids) with ordinality as t(id, position)
  where m.id = t.id and m.course_id = p_course_id and m.order_index <> t.position;
  get diagnostics v_count = row_count;
  if v_count < v_expected then
    raise exception 'You may not reorder the modules of this course' using errcode = '42501';
  end if;
  return cardinality(p_module_ids);
end;
$$;
comment on function private.reorder_modules(uuid, uuid[]) is
  'Author/admin: sets the course''s module order to the given full list of ids (1..n), in one statement, under RLS.';

-- After a delete: the remaining modules become 1..n, keeping their order.
create function private.renumber_modules(p_course_id uuid) returns void
language sql volatile security invoker
set search_path = ''
as $$
  update public.course_modules m
  set order_index = r.position
  from (
    select x.id, row_number() over (order by x.order_index, x.created_at, x.id) as position
    from public.course_modules x where x.course_id = p_course_id
  ) r
  where m.id = r.id and m.order_index <> r.position
$$;
comment on function private.renumber_modules(uuid) is 'Author/admin: closes the gaps in a course''s module order (1..n), under RLS.';

create function private.reorder_quiz_questions(p_quiz_id uuid, p_question_ids uuid[]) returns integer
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_current uuid[];
  v_given uuid[];
  v_count integer;
  v_expected integer;
begin
  select coalesce(array_agg(q.id order by q.id), '{}') into v_current
  from public.quiz_questions q where q.quiz_id = p_quiz_id;
  select coalesce(array_agg(x order by x), '{}') into v_given from unnest(coalesce(p_question_ids, '{}')) x;
  if v_given is distinct from v_current then
    raise exception 'The question ids must be exactly the questions of the quiz, each once' using errcode = '22023';
  end if;
  select count(*) into v_expected
  from unnest(p_question_ids) with ordinality as t(id, position)
  join public.quiz_questions q on q.id = t.id where q.order_index <> t.position;
  update public.quiz_questions q
  set order_index = t.position
  from unnest(p_question_ids) with ordinality as t(id, position)
  where q.id = t.id and q.quiz_id = p_quiz_id and q.order_index <> t.position;
  get diagnostics v_count = row_count;
  if v_count < v_expected then
    raise exception 'You may not reorder the questions of this quiz' using errcode = '42501';
  end if;
  return cardinality(p_question_ids);
end;
$$;
comment on function private.reorder_quiz_questions(uuid, uuid[]) is
  'Author/admin: sets the quiz''s question order to the given full list of ids (1..n), under RLS.';

create function private.renumber_quiz_questions(p_quiz_id uuid) returns void
language sql volatile security invoker
set search_path = ''
as $$
  update public.quiz_questions q
  set order_index = r.position
  from (
    select x.id, row_number() over (order by x.order_index, x.created_at, x.id) as position
    from public.quiz_questions x where x.quiz_id = p_quiz_id
  ) r
  where q.id = r.id and q.order_index <> r.position
$$;
comment on function private.renumber_quiz_questions(uuid) is 'Author/admin: closes the gaps in a quiz''s question order, under RLS.';

revoke all on function private.reorder_modules(uuid, uuid[]), private.renumber_modules(uuid),
  private.reorder_quiz_questions(uuid, uuid[]), private.renumber_quiz_questions(uuid) from public;
grant execute on function private.reorder_modules(uuid, uuid[]), private.renumber_modules(uuid),
  private.reorder_quiz_questions(uuid, uuid[]), private.renumber_quiz_questions(uuid) to authenticated, service_role;
