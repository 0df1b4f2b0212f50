-- instructor_stat_counters: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE TABLE "private"."course_enrolment_figures" (
  "course_id"    uuid     NOT NULL,
  "slot"         smallint NOT NULL,
  "enrolled"     integer  NOT NULL DEFAULT 0,
  "pending"      integer  NOT NULL DEFAULT 0,
  "completed"    integer  NOT NULL DEFAULT 0,
  "progress_sum" bigint   NOT NULL DEFAULT 0,
  CONSTRAINT "course_enrolment_figures_pkey" PRIMARY KEY (course_id, slot),
  CONSTRAINT "course_enrolment_figures_slot_range" CHECK (((slot >= 0) AND (slot <= 15)))
);

ALTER TABLE "private"."course_enrolment_figures"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "private"."instructor_figures" (
  "author_id" uuid    NOT NULL,
  "learners"  integer NOT NULL DEFAULT 0,
  CONSTRAINT "instructor_figures_pkey" PRIMARY KEY (author_id)
);

ALTER TABLE "private"."instructor_figures"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "private"."instructor_learners" (
  "author_id"  uuid    NOT NULL,
  "user_id"    uuid    NOT NULL,
  "enrolments" integer NOT NULL,
  CONSTRAINT "instructor_learners_pkey" PRIMARY KEY (author_id, user_id)
);

ALTER TABLE "private"."instructor_learners"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION private.add_instructor_learners (
  p_author_id uuid,
  p_user_ids  uuid[]
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_new integer;
begin
  if p_author_id is null or coalesce(cardinality(p_user_ids), 0) = 0 then
    return;
  end if;
  with added as (
    insert into private.instructor_learners as l (author_id, user_id, enrolments)
    select p_author_id, u.id, 1 from unnest(p_user_ids) u(id) order by u.id
    on conflict (author_id, user_id) do update set enrolments = l.enrolments + 1
    returning l.enrolments
  )
  select count(*) filter (where a.enrolments = 1) into v_new from added a;
  if v_new > 0 then
    insert into private.instructor_figures as f (author_id, learners) values (p_author_id, v_new)
    on conflict (author_id) do update set learners = f.learners + excluded.learners;
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION private.clear_enrolment_figures()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  delete from private.course_enrolment_figures;
  delete from private.instructor_learners;
  delete from private.instructor_figures;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.count_enrolment_figures()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_was boolean := tg_op <> 'INSERT' and old.status = 'ACTIVE';
  v_is boolean := tg_op <> 'DELETE' and new.status = 'ACTIVE';
  v_same boolean := tg_op = 'UPDATE' and old.course_id = new.course_id and old.user_id = new.user_id;
begin
  if v_same then
    update private.course_enrolment_figures f
    set enrolled = f.enrolled + v_is::integer - v_was::integer,
        pending = f.pending + (new.status = 'PENDING')::integer - (old.status = 'PENDING')::integer,
        completed = f.completed + (v_is and new.completed)::integer - (v_was and old.completed)::integer,
        progress_sum = f.progress_sum + case when v_is then new.progress else 0 end
                                      - case when v_was then old.progress else 0 end
    where f.course_id = new.course_id and f.slot = private.enrolment_figures_slot(new.user_id);
  else
    if tg_op <> 'INSERT' then
      -- No row when the course is being deleted (its rows go with it).
      update private.course_enrolment_figures f
      set enrolled = f.enrolled - v_was::integer,
          pending = f.pending - (old.status = 'PENDING')::integer,
          completed = f.completed - (v_was and old.completed)::integer,
          progress_sum = f.progress_sum - case when v_was then old.progress else 0 end
      where f.course_id = old.course_id and f.slot = private.enrolment_figures_slot(old.user_id);
    end if;
    if tg_op <> 'DELETE' then
      insert into private.course_enrolment_figures as f (course_id, slot, enrolled, pending, completed, progress_sum)
      values (new.course_id, private.enrolment_figures_slot(new.user_id), v_is::integer,
              (new.status = 'PENDING')::integer, (v_is and new.completed)::integer,
              case when v_is then new.progress else 0 end)
      on conflict (course_id, slot) do update
        set enrolled = f.enrolled + excluded.enrolled, pending = f.pending + excluded.pending,
            completed = f.completed + excluded.completed, progress_sum = f.progress_sum + excluded.progress_sum;
    end if;
  end if;
  if v_was and not (v_same and v_is) then
    perform private.drop_instructor_learners(private.course_author(old.course_id), array[old.user_id]);
  end if;
  if v_is and not (v_same and v_was) then
    perform private.add_instructor_learners(private.course_author(new.course_id), array[new.user_id]);
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.course_author (
  p_course_id uuid
)
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return (select c.author_id from public.courses c where c.id = p_course_id);
end;
$function$;

CREATE OR REPLACE FUNCTION private.drop_instructor_learners (
  p_author_id uuid,
  p_user_ids  uuid[]
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_gone integer;
begin
  if p_author_id is null or coalesce(cardinality(p_user_ids), 0) = 0 then
    return;
  end if;
  with dropped as (
    update private.instructor_learners l set enrolments = l.enrolments - 1
    where l.author_id = p_author_id and l.user_id = any (p_user_ids)
    returning l.enrolments
  )
  select count(*) filter (where d.enrolments <= 0) into v_gone from dropped d;
  if v_gone > 0 then
    delete from private.instructor_learners l
    where l.author_id = p_author_id and l.user_id = any (p_user_ids) and l.enrolments <= 0;
    update private.instructor_figures f set learners = f.learners - v_gone where f.author_id = p_author_id;
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION private.enrolment_figures_slot (
  p_user_id uuid
)
  RETURNS smallint
  LANGUAGE plpgsql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
begin
  return (hashtextextended(p_user_id::text, 0) & 15)::smallint;
end;
$function$;

CREATE OR REPLACE FUNCTION private.forget_course_figures()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  perform private.drop_instructor_learners(old.author_id, array(
    select e.user_id from public.enrollments e where e.course_id = old.id and e.status = 'ACTIVE'));
  return old;
end;
$function$;

CREATE OR REPLACE FUNCTION private.instructor_stats()
  RETURNS TABLE (
    total_courses        integer,
    total_students       integer,
    average_completion   integer,
    total_course_hours   integer,
    recently_updated     jsonb,
    completion_rate      integer,
    average_progress     integer,
    completed_enrolments integer,
    total_enrolments     integer,
    pending_requests     integer
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  -- Checked first and explicitly: a guard inside the query could be planned away.
  perform private.require_instructor();
  return query
  with mine as (
    select c.id, c.title, c.service, c.status, c.duration, c.updated_at
    from public.courses c
    where c.author_id = (select auth.uid())
  ),
  -- The counters the triggers keep (private.count_enrolment_figures), at most 16 rows per course:
  -- the same figures as counting the enrolments, at the cost of the instructor's courses.
  figures as (
    select coalesce(sum(f.enrolled), 0)::integer as total,
           coalesce(sum(f.completed), 0)::integer as done,
           coalesce(sum(f.pending), 0)::integer as pending,
           sum(f.progress_sum) as progress_sum
    from private.course_enrolment_figures f
    where f.course_id in (select m.id from mine m)
  )
  select
    (select count(*) from mine)::integer,
    coalesce((select i.learners from private.instructor_figures i where i.author_id = (select auth.uid())), 0),
    -- round(avg(progress)) as it was: the same numeric division of the sum by the count.
    case when f.total = 0 then 0 else round(f.progress_sum / f.total)::integer end,
    coalesce((select sum(m.duration) from mine m), 0)::integer,
    coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', r.id, 'title', r.title, 'service', r.service, 'status', r.status, 'updatedAt', r.updated_at)
             order by r.updated_at desc, r.id)
      from (select * from mine m order by m.updated_at desc, m.id limit 3) r
    ), '[]'::jsonb),
    case when f.total = 0 then 0 else round(100.0 * f.done / f.total)::integer end,
    case when f.total = 0 then 0 else round(f.progress_sum / f.total)::integer end,
    f.done,
    f.total,
    f.pending
  from figures f;
end;
$function$;

CREATE OR REPLACE FUNCTION private.move_course_figures()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_learners uuid[] := array(
    select e.user_id from public.enrollments e where e.course_id = new.id and e.status = 'ACTIVE');
begin
  perform private.drop_instructor_learners(old.author_id, v_learners);
  perform private.add_instructor_learners(new.author_id, v_learners);
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.recount_enrolment_figures()
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  delete from private.course_enrolment_figures;
  delete from private.instructor_learners;
  delete from private.instructor_figures;
  insert into private.course_enrolment_figures (course_id, slot, enrolled, pending, completed, progress_sum)
  select e.course_id, private.enrolment_figures_slot(e.user_id),
         count(*) filter (where e.status = 'ACTIVE'),
         count(*) filter (where e.status = 'PENDING'),
         count(*) filter (where e.status = 'ACTIVE' and e.completed),
         coalesce(sum(e.progress) filter (where e.status = 'ACTIVE'), 0)
  from public.enrollments e
  group by 1, 2;
  insert into private.instructor_learners (author_id, user_id, enrolments)
  select c.author_id, e.user_id, count(*)
  from public.enrollments e join public.courses c on c.id = e.course_id
  where e.status = 'ACTIVE' and c.author_id is not null
  group by c.author_id, e.user_id;
  insert into private.instructor_figures (author_id, learners)
  select l.author_id, count(*) from private.instructor_learners l group by l.author_id;
end;
$function$;

ALTER TABLE "private"."course_enrolment_figures"
  ADD CONSTRAINT "course_enrolment_figures_course_id_fkey" FOREIGN KEY (course_id) REFERENCES public.courses(id) ON DELETE CASCADE;

CREATE TRIGGER courses_forget_figures
  BEFORE DELETE ON public.courses
  FOR EACH ROW
  EXECUTE FUNCTION private.forget_course_figures();

CREATE TRIGGER courses_move_figures
  AFTER UPDATE OF author_id ON public.courses
  FOR EACH ROW
  WHEN ((old.author_id IS DISTINCT FROM new.author_id))
  EXECUTE FUNCTION private.move_course_figures();

CREATE TRIGGER enrollments_count_figures_delete
  AFTER DELETE ON public.enrollments
  FOR EACH ROW
  EXECUTE FUNCTION private.count_enrolment_figures();

CREATE TRIGGER enrollments_count_figures_insert
  AFTER INSERT ON public.enrollments
  FOR EACH ROW
  EXECUTE FUNCTION private.count_enrolment_figures();

CREATE TRIGGER enrollments_count_figures_truncate
  AFTER TRUNCATE ON public.enrollments
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.clear_enrolment_figures();

CREATE TRIGGER enrollments_count_figures_update
  AFTER UPDATE OF status, progress, completed, course_id, user_id ON public.enrollments
  FOR EACH ROW
  WHEN
    (((old.status IS DISTINCT FROM new.status) OR (old.progress IS DISTINCT FROM new.progress) OR (old.completed IS DISTINCT FROM new.completed) OR (old.course_id IS DISTINCT FROM
    new.course_id) OR (old.user_id IS DISTINCT FROM new.user_id)))
  EXECUTE FUNCTION private.count_enrolment_figures();

CREATE POLICY "no direct access" ON "private"."course_enrolment_figures"
  AS RESTRICTIVE
  FOR ALL
  TO PUBLIC
  USING (false)
  WITH CHECK (false);

CREATE POLICY "no direct access" ON "private"."instructor_figures"
  AS RESTRICTIVE
  FOR ALL
  TO PUBLIC
  USING (false)
  WITH CHECK (false);

CREATE POLICY "no direct access" ON "private"."instructor_learners"
  AS RESTRICTIVE
  FOR ALL
  TO PUBLIC
  USING (false)
  WITH CHECK (false);

COMMENT ON FUNCTION "private"."add_instructor_learners"(uuid, uuid[]) IS 'Internal: each learner given is approved on one more of the author''s courses (private.instructor_learners, and private.instructor_figures for a learner new to the author).';

COMMENT ON FUNCTION "private"."clear_enrolment_figures"() IS 'After-truncate trigger on enrollments: no enrolment, no figures.';

COMMENT ON FUNCTION "private"."count_enrolment_figures"() IS 'After-trigger on enrollments (insert, delete, and updates of status, progress, completed, course or learner): keeps private.course_enrolment_figures and the author''s learners in step.';

COMMENT ON FUNCTION "private"."course_author"(uuid) IS 'Internal: the course''s author_id (null when there is none, or the course is gone).';

COMMENT ON FUNCTION "private"."drop_instructor_learners"(uuid, uuid[]) IS 'Internal: each learner given is approved on one course of the author fewer (private.instructor_learners, and private.instructor_figures for a learner the author no longer has).';

COMMENT ON FUNCTION "private"."enrolment_figures_slot"(uuid) IS 'Internal: the slot (0 to 15) of private.course_enrolment_figures that counts the learner''s enrolments.';

COMMENT ON FUNCTION "private"."forget_course_figures"() IS 'Before-delete trigger on courses: removes the course''s approved learners from its author''s (private.instructor_learners).';

COMMENT ON FUNCTION "private"."move_course_figures"() IS 'After-update trigger on courses.author_id: the course''s approved learners move to the new author.';

COMMENT ON FUNCTION "private"."recount_enrolment_figures"() IS 'Internal: recomputes private.course_enrolment_figures, private.instructor_learners and private.instructor_figures from public.enrollments and public.courses.';

COMMENT ON TABLE "private"."course_enrolment_figures" IS 'Per course with enrolments and slot (private.enrolment_figures_slot of the learner): approved (ACTIVE) and pending enrolments, completed approved ones and the sum of the approved ones'' progress, kept by the triggers on public.enrollments. A course''s figures are the sum of its slots. Read by private.instructor_stats.';

COMMENT ON TABLE "private"."instructor_figures" IS 'Per course author: the distinct learners approved on their courses (the rows of private.instructor_learners), changed only when a learner''s first or last approved enrolment with the author comes or goes.';

COMMENT ON TABLE "private"."instructor_learners" IS 'Per course author and learner: on how many of the author''s courses the learner''s enrolment is approved (rows at 0 are deleted). Kept by the triggers on public.enrollments and public.courses.';

REVOKE ALL ON FUNCTION "private"."add_instructor_learners"(uuid, uuid[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."add_instructor_learners"(uuid, uuid[]) TO "postgres";

REVOKE ALL ON FUNCTION "private"."clear_enrolment_figures"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."clear_enrolment_figures"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."count_enrolment_figures"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."count_enrolment_figures"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."course_author"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."course_author"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."drop_instructor_learners"(uuid, uuid[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."drop_instructor_learners"(uuid, uuid[]) TO "postgres";

REVOKE ALL ON FUNCTION "private"."enrolment_figures_slot"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."enrolment_figures_slot"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."forget_course_figures"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."forget_course_figures"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."move_course_figures"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."move_course_figures"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."recount_enrolment_figures"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."recount_enrolment_figures"() TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."course_enrolment_figures" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."instructor_figures" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "private"."instructor_learners" TO "postgres";

-- Data step (by hand): the counters of the enrolments already there, with enrolments and courses
-- held still until the migration commits (a write committed during the count would be counted
-- twice or never). In a DO block: the CLI sends the migration as one implicit transaction, where a
-- LOCK TABLE of its own is refused.
DO $$
BEGIN
  LOCK TABLE public.courses, public.enrollments IN SHARE MODE;
  PERFORM private.recount_enrolment_figures();
END
$$;
