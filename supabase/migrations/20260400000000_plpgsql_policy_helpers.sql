-- Issue 6: the row-level security helpers and the read-path functions in PL/pgSQL.
--
-- They are SECURITY DEFINER, so Postgres never inlines them, and a LANGUAGE sql function that is not
-- inlined has its body parsed and planned again in every statement that calls it (Postgres 15).
-- PL/pgSQL keeps each statement's plan for the life of the connection. Measured with pgbench on the
-- scaled database (100,000 users, 10,000 courses): private.is_admin() took 0.20 ms a call as SQL and
-- 0.11 ms as PL/pgSQL, and every policy on courses, modules, enrolments and progress calls one or
-- more of these per statement.
--
-- The signatures, volatility, owners, grants and comments are unchanged (CREATE OR REPLACE keeps
-- them), and so are the bodies, except that the three lists built on private.authored_course_ids()
-- join courses.author_id directly (the same rows, with a row count the planner can estimate). `#variable_conflict use_column` keeps a column of the
-- same name as an OUT parameter meaning the column, as it did in SQL. The policies' proofs in
-- supabase/tests run against these definitions.

create or replace function private."current_role"()
returns public.user_role
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select p.role from public.profiles p where p.id = (select auth.uid())
  );
end;
$$;

create or replace function private.authored_course_ids()
returns SETOF uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select c.id from public.courses c
    where c.author_id = (select auth.uid())
      and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN');
end;
$$;

create or replace function private.authored_module_ids()
returns SETOF uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  -- Joined through courses.author_id rather than `in (select private.authored_course_ids())`, whose
  -- row count the planner cannot know: a plan kept for the connection must suit every instructor.
  return query
    select m.id from public.courses c
    join public.course_modules m on m.course_id = c.id
    where c.author_id = (select auth.uid())
      and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN');
end;
$$;

create or replace function private.authored_quiz_ids()
returns SETOF uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select q.id from public.courses c
    join public.course_modules m on m.course_id = c.id
    join public.quizzes q on q.module_id = m.id
    where c.author_id = (select auth.uid())
      and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN');
end;
$$;

create or replace function private.can_study_course(p_course_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select (select auth.uid()) is not null
      and private.can_view_course(p_course_id)
      and (
        private.is_admin()
        or exists (select 1 from public.courses c where c.id = p_course_id
                   and (not c.requires_enrollment or c.author_id = (select auth.uid())))
        or exists (select 1 from public.enrollments e where e.course_id = p_course_id
                   and e.user_id = (select auth.uid()) and e.status = 'ACTIVE')
      )
  );
end;
$$;

create or replace function private.can_view_course(p_course_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select exists (
      select 1 from public.courses c
      where c.id = p_course_id
        and (
          (c.status = 'ACTIVE' and ((select auth.uid()) is not null or private.course_access() <> 'login-browse'))
          or (c.author_id = (select auth.uid()) and (select auth.uid()) is not null)
          or private.is_admin()
        )
    )
  );
end;
$$;

create or replace function private.course_access()
returns public.course_access
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select coalesce(
      (select s.course_access from public.settings s where s.id),
      'public-login'::public.course_access
    )
  );
end;
$$;

create or replace function private.course_authors(p_course_ids uuid[])
returns TABLE(course_id uuid, author_id uuid, username text, name text)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select c.id, p.id, p.username, p.name
    from public.courses c
    join public.profiles p on p.id = c.author_id
    where c.id = any (p_course_ids)
      and private.can_view_course(c.id);
end;
$$;

create or replace function private.current_services()
returns public.service_code[]
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select coalesce((select p.services from public.profiles p where p.id = (select auth.uid())), '{}')
  );
end;
$$;

create or replace function private.is_admin()
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select exists (
      select 1 from public.profiles p
      where p.id = (select auth.uid()) and p.role = 'ADMIN'
    )
  );
end;
$$;

create or replace function private.learner_ids_of_authored_courses()
returns SETOF uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select e.user_id from public.courses c
    join public.enrollments e on e.course_id = c.id
    where c.author_id = (select auth.uid())
      and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN');
end;
$$;

create or replace function private.manages_required_training(p_course_id uuid, p_service public.service_code)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select coalesce(
      private.is_admin()
      or (
        private.current_role() = 'INSTRUCTOR'
        and p_course_id in (select private.authored_course_ids())
        and p_service in (select unnest(private.current_services()))
      ),
      false)
  );
end;
$$;

create or replace function private.module_body(p_module_id uuid)
returns TABLE(content text, image text)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select m.content, m.image
    from public.course_modules m
    join public.courses c on c.id = m.course_id
    where m.id = p_module_id
      and (
        private.can_study_course(m.course_id)
        or (not c.requires_enrollment and private.can_view_course(m.course_id))
      );
end;
$$;

create or replace function private.visible_course_count(p_service public.service_code, p_status public.course_status)
returns integer
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    with counts as (
      select cc.status, cc.courses from private.course_counts cc
      where (p_service is null or cc.service = p_service)
        and (p_status is null or cc.status = p_status)
    )
    select (case
      when (select auth.uid()) is null then
        case when private.course_access() = 'login-browse' then 0
             else (select coalesce(sum(courses), 0) from counts where status = 'ACTIVE') end
      when private.is_admin() then (select coalesce(sum(courses), 0) from counts)
      else (select coalesce(sum(courses), 0) from counts where status = 'ACTIVE')
         + (select count(*) from public.courses c
            where c.author_id = (select auth.uid()) and c.status <> 'ACTIVE'
              and (p_service is null or c.service = p_service)
              and (p_status is null or c.status = p_status))
    end)::integer
  );
end;
$$;

create or replace function private.visible_course_statuses()
returns public.course_status[]
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select case when private.is_admin() then enum_range(null::public.course_status)
                else array['ACTIVE'::public.course_status] end
  );
end;
$$;


-- An instructor authors tens of courses, not the thousand Postgres assumes of a set-returning
-- function, and the policies that ask `course_id in (select private.authored_course_ids())` are
-- planned with this figure.
alter function private.authored_course_ids() rows 20;
