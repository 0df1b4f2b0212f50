-- Module bodies only for those who may read them.
--
-- public.course_modules rows are visible to whoever can see their course (visitors included, under
-- the 'open' course access), so a direct `select content, image from public.course_modules` through
-- the database API handed out the body of a course that requires enrolment to anyone. Row-level
-- security cannot hide one column, and the api function's own check (routes/courses.ts) does not
-- cover a client talking to PostgREST directly. So:
--
-- * The API roles lose SELECT on content and image. They held a table-wide SELECT (Supabase's
--   default privileges grant all on tables in public), and a column revoke does nothing against a
--   table-wide grant, so the table grant is replaced by column grants on every other column.
--   INSERT/UPDATE stay as 20260350000000_security_hardening set them (authors still write content
--   and image; an UPDATE must not read them, e.g. no `content = coalesce(x, content)`).
-- * private.module_body(module) returns content and image when the caller may read the module, the
--   same rule as the api's mayRead: private.can_study_course (signed in and enrolled ACTIVE, or the
--   author, or an admin, or a course without enrolment), or the course does not require enrolment
--   and the caller can see it (visitors read such courses too, DESIGN.md §3). No row otherwise.
-- Proven in supabase/tests/module-content.test.ts.

revoke select on public.course_modules from anon, authenticated;
grant select (id, course_id, title, order_index, duration, has_quiz, created_at, updated_at)
  on public.course_modules to anon, authenticated;

create function private.module_body(p_module_id uuid) returns table (content text, image text)
language sql stable security definer
set search_path = ''
as $$
  select m.content, m.image
  from public.course_modules m
  join public.courses c on c.id = m.course_id
  where m.id = p_module_id
    and (
      private.can_study_course(m.course_id)
      or (not c.requires_enrollment and private.can_view_course(m.course_id))
    )
$$;
comment on function private.module_body(uuid) is
  'Content and image of the module when the caller may read it (can_study_course, or enrolment not required and the course visible); no row otherwise. The API roles cannot select these columns directly.';

revoke all on function private.module_body(uuid) from public;
grant execute on function private.module_body(uuid) to anon, authenticated, service_role;
