-- Totals of the paged lists whose cost grew with the data (issue 6, bench budgets that did not hold).
--
-- 1. The catalogue's total. GET /api/courses answers {items, total, page, pageSize}, and the web shows
--    "Showing 20 of N courses" and offers "Load more" while page x pageSize < total, so the total must
--    stay exact. It was a count(*) of every course the caller can see: 8,500 index entries for a
--    visitor, a sequential scan of all 10,000 courses for a signed-in caller (the policy's OR of two
--    indexed arms), on every first page. Now the number of courses per status and service is kept in
--    private.course_counts by statement-level triggers on public.courses (one upsert per statement
--    and changed status/service, nothing for an edit that changes neither), and
--    private.visible_course_count(service, status) adds up what the caller may see, by the rule of
--    the courses select policies (private.can_view_course):
--      visitor      ACTIVE courses, none when the course-access rule is 'login-browse';
--      admin        every course;
--      signed in    ACTIVE courses, plus their own courses in any other status (courses_author_id_idx).
--    Searches and "mine" still count their matches (bounded by the search or by one author).
--    Proven equal to count(*) under row-level security in supabase/tests/read-path-totals.test.ts.
-- 2. The admin user search. The pager counted the matches with a second search (count, then page):
--    two trigram searches and two primary-key lookups of every match under row-level security.
--    private.user_search_page does the search once, in one pass over the matches: their number and
--    the ids of the page asked for (admins only, like private.user_search_ids).

-- ---------------------------------------------------------------- 1. course totals

create table private.course_counts (
  status public.course_status not null,
  service public.service_code not null,
  courses bigint not null default 0,
  primary key (status, service)
);
comment on table private.course_counts is
  'Number of courses per status and service, kept by the triggers on public.courses; read through private.visible_course_count.';

-- No API role reads or writes it; only the security definer functions below (owned by its owner).
alter table private.course_counts enable row level security;
create policy "no direct access" on private.course_counts as restrictive for all to public
  using (false) with check (false);
revoke all on private.course_counts from public, anon, authenticated, service_role;

create function private.count_courses() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- One upsert per (status, service) that changed, taken in key order (two statements never wait
  -- for each other's rows in opposite orders). old_rows / new_rows exist only for their events.
  if tg_op = 'INSERT' then
    insert into private.course_counts as cc (status, service, courses)
    select n.status, n.service, count(*) from new_rows n group by 1, 2 order by 1, 2
    on conflict (status, service) do update set courses = cc.courses + excluded.courses;
  elsif tg_op = 'DELETE' then
    insert into private.course_counts as cc (status, service, courses)
    select o.status, o.service, -count(*) from old_rows o group by 1, 2 order by 1, 2
    on conflict (status, service) do update set courses = cc.courses + excluded.courses;
  elsif tg_op = 'UPDATE' then
    insert into private.course_counts as cc (status, service, courses)
    select d.status, d.service, sum(d.delta)
    from (
      select o.status, o.service, -1 as delta from old_rows o
      union all
      select n.status, n.service, 1 from new_rows n
    ) d
    group by 1, 2
    having sum(d.delta) <> 0
    order by 1, 2
    on conflict (status, service) do update set courses = cc.courses + excluded.courses;
  elsif tg_op = 'TRUNCATE' then
    delete from private.course_counts;
  end if;
  return null;
end;
$$;
comment on function private.count_courses() is 'Keeps private.course_counts in step with public.courses (statement-level triggers).';
revoke all on function private.count_courses() from public;

-- The triggers and the count of the courses already there in one transaction (`supabase db push`
-- runs a migration statement by statement), with the table locked against writes meanwhile, so
-- that no course is counted twice or missed.
do $$
begin
  lock table public.courses in share row exclusive mode;
  create trigger courses_count_insert after insert on public.courses
    referencing new table as new_rows for each statement execute function private.count_courses();
  create trigger courses_count_update after update on public.courses
    referencing old table as old_rows new table as new_rows for each statement execute function private.count_courses();
  create trigger courses_count_delete after delete on public.courses
    referencing old table as old_rows for each statement execute function private.count_courses();
  create trigger courses_count_truncate after truncate on public.courses
    for each statement execute function private.count_courses();
  insert into private.course_counts (status, service, courses)
  select c.status, c.service, count(*) from public.courses c group by 1, 2;
end;
$$;

create function private.visible_course_count(p_service public.service_code, p_status public.course_status)
returns integer
language sql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.visible_course_count(public.service_code, public.course_status) is
  'How many courses the caller can see (the rule of the courses select policies), optionally of one service and/or status, from private.course_counts: the catalogue''s total without counting the courses.';
revoke all on function private.visible_course_count(public.service_code, public.course_status) from public;
grant execute on function private.visible_course_count(public.service_code, public.course_status) to anon, authenticated, service_role;

-- ---------------------------------------------------------------- 2. admin user search

create function private.user_search_page(p_pattern text, p_service public.service_code, p_role public.user_role,
  p_limit integer, p_offset integer)
returns table (id uuid, total integer)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    return;
  end if;
  -- Planned for the values given (EXECUTE), like private.user_search_ids. Always one row at least:
  -- a page past the end gives one row with a null id and the total.
  return query execute
    'with m as (
       select p.id, p.created_at from public.profiles p
       where lower(p.name || '' '' || p.username || '' '' || p.email) like $1
         and ($2::public.service_code is null or p.services @> array[$2::public.service_code])
         and ($3::public.user_role is null or p.role = $3::public.user_role)
     )
     select pg.id, t.total
     from (select count(*)::integer as total from m) t
     left join lateral (
       select m.id, m.created_at from m order by m.created_at desc, m.id desc limit $4 offset $5
     ) pg on true
     order by pg.created_at desc, pg.id desc'
    using p_pattern, p_service, p_role, p_limit, p_offset;
end;
$$;
comment on function private.user_search_page(text, public.service_code, public.user_role, integer, integer) is
  'Admins only (no rows for anyone else): the number of profiles whose name, username or email matches the lowercase LIKE pattern (profiles_search_trgm_idx), optionally of a service and role, and the ids of one page of them, newest first (a null id when the page is past the end).';
alter function private.user_search_page(text, public.service_code, public.user_role, integer, integer) rows 100;
revoke all on function private.user_search_page(text, public.service_code, public.user_role, integer, integer) from public;
grant execute on function private.user_search_page(text, public.service_code, public.user_role, integer, integer)
  to authenticated, service_role;
