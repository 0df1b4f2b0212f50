-- Read paths whose cost followed the data (issue 6, bench budgets that did not hold).
--
-- A course's modules: the api called private.module_body once per module, and each call checked
-- the caller's right to read the course again (can_study_course, can_view_course), so a list of ten
-- modules made ten times the checks of one. private.course_module_bodies(course) checks the same
-- rule ONCE for the course and then returns every module's content and image (by
-- course_modules_course_id_idx), or no row at all when the caller may not read the course.
-- The rule is module_body's (20260350000200_module_content_gate): private.can_study_course (signed
-- in and enrolled ACTIVE, or the author, or an admin, or a course without enrolment), or the course
-- does not require enrolment and the caller can see it (visitors too, DESIGN.md §3).
-- Proven both ways in supabase/tests/module-content.test.ts.

create function private.course_module_bodies(p_course_id uuid)
returns table (module_id uuid, content text, image text)
language plpgsql stable security definer
set search_path = ''
as $$
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
    select m.id, m.content, m.image
    from public.course_modules m
    where m.course_id = p_course_id;
end;
$$;
comment on function private.course_module_bodies(uuid) is
  'Content and image of every module of the course when the caller may read it (the rule of private.module_body, checked once per course); no row otherwise. The API roles cannot select these columns directly.';

-- About ten modules a course, not the 1,000 rows assumed of a set-returning function.
alter function private.course_module_bodies(uuid) rows 20;

revoke all on function private.course_module_bodies(uuid) from public;
grant execute on function private.course_module_bodies(uuid) to anon, authenticated, service_role;
