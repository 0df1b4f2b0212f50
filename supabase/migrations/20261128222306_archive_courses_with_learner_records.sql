-- archive_courses_with_learner_records: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."course_search_ids"(text);

DROP FUNCTION "private"."visible_course_count"(public.service_code, public.course_status);

CREATE OR REPLACE FUNCTION private.close_archived_course()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
begin
  if tg_op = 'UPDATE' and not (old.status = 'PENDING' and new.status = 'ACTIVE') then
    return new;
  end if;
  if not private.course_is_archived(new.course_id) then
    return new;
  end if;
  if current_user in ('anon', 'authenticated', 'service_role') then
    raise exception 'This course is archived: no one new can enrol' using errcode = '55000';
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.course_deletable (
  p_course_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- Only those who may delete the course (the rule of the courses delete policy) learn the answer.
  if not exists (
    select 1 from public.courses c
    where c.id = p_course_id
      and (private.is_admin()
           or (c.author_id = (select auth.uid()) and private.current_role() = 'INSTRUCTOR'
               and (c.organisation_id is null or c.organisation_id = private.current_organisation_id()))
           or c.organisation_id = private.administered_organisation_id())
  ) then
    raise exception 'You may not delete this course' using errcode = '42501';
  end if;
  return not private.course_has_learner_records(p_course_id);
end;
$function$;

CREATE OR REPLACE FUNCTION private.course_has_learner_records (
  p_course_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return exists (select 1 from public.enrollments e where e.course_id = p_course_id)
    or exists (select 1 from public.certificates c where c.course_id = p_course_id)
    or exists (select 1 from public.course_modules m
               join public.user_module_progress p on p.module_id = m.id
               where m.course_id = p_course_id)
    or exists (select 1 from public.course_modules m
               join public.quizzes q on q.module_id = m.id
               join public.quiz_attempts a on a.quiz_id = q.id
               where m.course_id = p_course_id)
    or exists (select 1 from public.course_modules m
               join public.scorm_attempts a on a.module_id = m.id
               where m.course_id = p_course_id);
end;
$function$;

CREATE OR REPLACE FUNCTION private.course_is_archived (
  p_course_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return exists (select 1 from public.courses c where c.id = p_course_id and c.status = 'ARCHIVED');
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
     where (c.title ilike $1 or c.description ilike $1)
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

CREATE OR REPLACE FUNCTION private.erase_course (
  p_course_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- What deleting a course did before records were kept: its enrolments, progress and attempts go
  -- (the modules' cascades) and its certificates stay without it, with their snapshots.
  update public.certificates set course_id = null where course_id = p_course_id;
  delete from public.enrollments where course_id = p_course_id;
  delete from public.user_module_progress p using public.course_modules m
  where m.id = p.module_id and m.course_id = p_course_id;
  delete from public.quiz_attempts a using public.quizzes q, public.course_modules m
  where a.quiz_id = q.id and q.module_id = m.id and m.course_id = p_course_id;
  delete from public.scorm_attempts a using public.course_modules m
  where a.module_id = m.id and m.course_id = p_course_id;
  delete from public.courses where id = p_course_id;
  return found;
end;
$function$;

CREATE OR REPLACE FUNCTION private.keep_course_learner_records()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if private.course_has_learner_records(old.id) then
    raise exception 'This course has learner records, so it cannot be deleted: archive it instead'
      using errcode = '23503',
            detail = format('Enrolments, progress, attempts or certificates of course %s are kept as training records.', old.id),
            hint = 'Set its status to ARCHIVED: it leaves the catalogue and no one new can enrol; its records are kept.';
  end if;
  return old;
end;
$function$;

CREATE OR REPLACE FUNCTION private.visible_course_count (
  p_service          public.service_code,
  p_status           public.course_status,
  p_include_archived boolean              DEFAULT false
)
  RETURNS integer
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return (
    with counts as (
      select cc.status, cc.courses from private.course_counts cc
      where (p_service is null or cc.service = p_service)
        and (p_status is null or cc.status = p_status)
        -- Archived courses are out of the catalogue unless asked for (by status or by the managers' lists).
        and (p_status is not null or p_include_archived or cc.status in ('DRAFT', 'ACTIVE'))
    )
    select (case
      when (select auth.uid()) is null then
        case when private.course_access() = 'login-browse' then 0
             else (select coalesce(sum(courses), 0) from counts where status = 'ACTIVE') end
      when private.is_admin() then (select coalesce(sum(courses), 0) from counts)
         -- Every organisation's courses, found organisation by organisation (the index).
         + (select count(*) from public.organisations o
            join public.courses c on c.organisation_id = o.id
            where true
              and (p_service is null or c.service = p_service)
              and (p_status is null or c.status = p_status)
              and (p_status is not null or p_include_archived or c.status in ('DRAFT', 'ACTIVE')))
      else (select coalesce(sum(courses), 0) from counts where status = 'ACTIVE')
         + (select count(*) from public.courses c
            where c.author_id = (select auth.uid()) and c.status <> 'ACTIVE' and c.organisation_id is null
              and (p_service is null or c.service = p_service)
              and (p_status is null or c.status = p_status)
              and (p_status is not null or p_include_archived or c.status = 'DRAFT'))
         -- The caller's organisation's courses: published, authored, or all for its administrator.
         + (select count(*) from public.courses c
            where c.organisation_id = private.current_organisation_id()
              and (c.status = 'ACTIVE' or c.author_id = (select auth.uid())
                   or c.organisation_id = private.administered_organisation_id())
              and (p_service is null or c.service = p_service)
              and (p_status is null or c.status = p_status)
              and (p_status is not null or p_include_archived or c.status in ('DRAFT', 'ACTIVE')))
    end)::integer
  );
end;
$function$;

CREATE TRIGGER courses_keep_learner_records
  BEFORE DELETE ON public.courses
  FOR EACH ROW
  EXECUTE FUNCTION private.keep_course_learner_records();

CREATE TRIGGER enrollments_closed_when_archived
  BEFORE INSERT OR UPDATE OF status ON public.enrollments
  FOR EACH ROW
  EXECUTE FUNCTION private.close_archived_course();

COMMENT ON FUNCTION "private"."close_archived_course"() IS 'Before insert / approval on enrollments: no one new joins an archived course. A client''s enrolment or approval is refused (55000); the automatic enrolments of required training skip the course.';

COMMENT ON FUNCTION "private"."course_deletable"(uuid) IS 'For those who may delete the course: true when it has no learner records (it can be deleted), false when it can only be archived; 42501 for anyone else.';

COMMENT ON FUNCTION "private"."course_has_learner_records"(uuid) IS 'True when anyone ever enrolled on the course (pending included), studied a module, attempted a quiz or a SCORM package, or holds a certificate of it: the course can then only be archived. Not for the API roles (private.course_deletable answers them).';

COMMENT ON FUNCTION "private"."course_is_archived"(uuid) IS 'True when the course is archived (whether or not the caller can see it).';

COMMENT ON FUNCTION "private"."course_search_ids"(text, boolean) IS 'Ids of the courses the caller can see whose title or description matches the ILIKE pattern (trigram indexes), archived ones only when asked; the caller then reads the rows under its own row-level security.';

COMMENT ON FUNCTION "private"."erase_course"(uuid) IS 'The database owner''s deliberate erasure of a course with its learners'' history (certificates stay, without the course): for test fixtures and erasure requests, never granted to the API roles.';

COMMENT ON FUNCTION "private"."keep_course_learner_records"() IS 'Before-delete trigger on courses: refuses (23503) the delete of a course with learner records, from any role, superuser included.';

COMMENT ON FUNCTION "private"."visible_course_count"(public.service_code, public.course_status, boolean) IS 'How many courses the caller can see (the rule of the courses select policies), optionally of one service and/or status, archived ones only when asked (by status or p_include_archived), from private.course_counts: the catalogue''s total without counting the courses.';

REVOKE ALL ON FUNCTION "private"."close_archived_course"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."close_archived_course"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."course_deletable"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."course_deletable"(uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."course_has_learner_records"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."course_has_learner_records"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."course_is_archived"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."course_is_archived"(uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."course_search_ids"(text, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."course_search_ids"(text, boolean) TO "anon", "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."erase_course"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."erase_course"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."keep_course_learner_records"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."keep_course_learner_records"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."visible_course_count"(public.service_code, public.course_status, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."visible_course_count"(public.service_code, public.course_status, boolean) TO "anon", "authenticated", "postgres", "service_role";
