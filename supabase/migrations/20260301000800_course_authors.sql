-- Course cards and pages show who wrote a course, but profiles (with emails) are private to their
-- owner, their instructors and admins. This function gives the public part only (name, username)
-- of the authors of courses the caller can see.

create function private.course_authors(p_course_ids uuid[])
returns table (course_id uuid, author_id uuid, username text, name text)
language sql stable security definer
set search_path = ''
as $$
  select c.id, p.id, p.username, p.name
  from public.courses c
  join public.profiles p on p.id = c.author_id
  where c.id = any (p_course_ids)
    and private.can_view_course(c.id)
$$;
comment on function private.course_authors(uuid[]) is
  'Name and username of the authors of the given courses, for the courses the caller can see; no email.';
revoke all on function private.course_authors(uuid[]) from public;
grant execute on function private.course_authors(uuid[]) to anon, authenticated, service_role;
