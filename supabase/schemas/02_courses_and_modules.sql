-- Courses and their modules.
--
-- Who sees a course: learners and visitors see published (ACTIVE) courses, subject to the site's
-- course-access rule (settings.course_access); an instructor also sees the courses they author; an
-- admin sees all. Instructors create courses only in their own services and edit only their own;
-- admins edit any. A module's body is read through private.module_body/course_module_bodies, which
-- apply the enrolment rule of the course, not by a direct select of the column.
-- private.course_counts keeps the number of courses so that a page of the catalogue need not count
-- every row. Archived courses (a course with learner history is archived, not deleted:
-- 21_course_archive.sql) stay out of the catalogue's search and totals unless the course lists of
-- those who manage them ask for them.
-- Welsh versions sit beside the English (title_cy, description_cy, a module's title_cy and
-- content_cy; null: not translated); courses.available_in_welsh says the whole course is in Welsh
-- and is kept by the triggers at the end of this file and of 03_quizzes.sql
-- (docs/decisions/bilingual-course-content.md).

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.courses (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  description text not null,
  service public.service_code not null,
  cover_image text,
  author_id uuid references public.profiles (id) on delete set null,
  duration integer not null default 1,
  level public.course_level not null default 'BEGINNER',
  featured boolean not null default false,
  requires_enrollment boolean not null default true,
  status public.course_status not null default 'DRAFT',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  certificate_valid_months integer,
  requires_approval boolean,
  organisation_id uuid,
  title_cy text,
  description_cy text,
  available_in_welsh boolean not null default false,
  sessions_need_manager_approval boolean not null default false,
  constraint courses_title_length check (char_length(btrim(title)) between 3 and 200),
  constraint courses_description_length check (char_length(btrim(description)) between 10 and 5000),
  constraint courses_title_cy_length check (title_cy is null or char_length(btrim(title_cy)) between 3 and 200),
  constraint courses_description_cy_length
    check (description_cy is null or char_length(btrim(description_cy)) between 10 and 5000),
  constraint courses_duration_positive check (duration >= 1),
  constraint courses_certificate_valid_months_range
    check (certificate_valid_months is null or certificate_valid_months between 1 and 120)
);

create table public.course_modules (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  title text not null,
  content text not null default '',
  order_index integer not null default 1,
  duration integer not null default 15,
  has_quiz boolean not null default false,
  image text,
  kind text not null default 'content',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  title_cy text,
  content_cy text,
  constraint course_modules_kind check (kind in ('content', 'scorm', 'session', 'assessment')),
  constraint course_modules_title_length check (char_length(btrim(title)) between 3 and 200),
  constraint course_modules_title_cy_length check (title_cy is null or char_length(btrim(title_cy)) between 3 and 200),
  -- A SCORM package is one language: its module has no Welsh body. A session's or a practical's
  -- body is its introduction, in Welsh as a content module's body.
  constraint course_modules_content_cy_text
    check (content_cy is null or (kind <> 'scorm' and btrim(content_cy) <> '')),
  constraint course_modules_order_positive check (order_index >= 1),
  constraint course_modules_duration_positive check (duration >= 1)
);

create table private.course_counts (
  status public.course_status not null,
  service public.service_code not null,
  courses bigint not null default 0,
  primary key (status, service)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.courses is
  'A training course in one service. Visible to learners and visitors only when ACTIVE.';

comment on column public.courses.cover_image is
  'Public URL (or storage path) of the cover in bucket course-covers.';

comment on column public.courses.author_id is
  'The instructor or admin who owns the course; set null when that user is deleted (admins then manage it).';

comment on column public.courses.duration is
  'Length in whole hours, at least 1.';

comment on column public.courses.featured is
  'Listed first with a Featured mark; auto-enrolment uses featured published courses.';

comment on column public.courses.requires_enrollment is
  'False: anyone who can see the course may read its modules without enrolling.';

comment on column public.courses.certificate_valid_months is
  'How many months a certificate of this course stays valid; null means it never expires.';

comment on column public.courses.requires_approval is
  'Enrolment approval for this course: null follows the site-wide course access (approval under login-approval), true requires approval, false enrols at once.';

comment on column public.courses.sessions_need_manager_approval is
  'True: a learner''s booking of a classroom session waits for their line manager''s approval (a learner without a manager books at once).';

comment on column public.courses.title_cy is
  'The title in Welsh; null: not translated.';

comment on column public.courses.description_cy is
  'The description in Welsh; null: not translated.';

comment on column public.courses.available_in_welsh is
  'True when the title, the description, every module''s title (and body, for a content module; introduction, for a session or a practical with one in English), every quiz''s title (and description when it has one) and every question (text, options, explanation when it has one) have Welsh. Kept by triggers (private.refresh_courses_in_welsh); no API role writes it.';

comment on table public.course_modules is
  'A unit of a course, worked in order_index order. Deleted with its course.';

comment on column public.course_modules.content is
  'Markdown body of the module.';

comment on column public.course_modules.title_cy is
  'The title in Welsh; null: not translated.';

comment on column public.course_modules.content_cy is
  'Markdown body in Welsh (a content module''s body, a session''s or a practical''s introduction; a SCORM package stays one language); null: not translated. Read like content, through private.module_body.';

comment on column public.course_modules.order_index is
  'Position in the course, from 1.';

comment on column public.course_modules.duration is
  'Reading time in minutes, at least 1.';

comment on column public.course_modules.has_quiz is
  'True when the module ends with a quiz that must be passed to complete it.';

comment on column public.course_modules.kind is
  'content: a Markdown body (and perhaps a quiz); scorm: a SCORM package (public.scorm_packages), content stays empty; session: a classroom session booked on one of its dates (25_classroom_sessions.sql), completed when the register marks the learner attended; assessment: a practical assessment signed off by an assessor (26_practical_assessments.sql). The content of session and assessment modules is the learner''s introduction to them.';

comment on column public.course_modules.image is
  'Public URL (or storage path) of an image in bucket module-images.';

comment on table private.course_counts is
  'Number of courses per status and service, kept by the triggers on public.courses; read through private.visible_course_count.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index courses_status_idx on public.courses (status);

create index courses_service_idx on public.courses (service);

create index courses_author_id_idx on public.courses (author_id);

create index courses_featured_idx on public.courses (featured) where featured;

create index courses_featured_created_at_idx on public.courses (featured desc, created_at desc);

-- An author's courses by last update.
create index courses_author_id_updated_at_idx on public.courses (author_id, updated_at desc);

-- An organisation's own courses (the rest, national, have none).
create index courses_organisation_idx on public.courses (organisation_id);

create index courses_title_trgm_idx on public.courses using gin (title extensions.gin_trgm_ops);

create index courses_description_trgm_idx on public.courses using gin (description extensions.gin_trgm_ops);

create index courses_title_cy_trgm_idx on public.courses using gin (title_cy extensions.gin_trgm_ops);

create index courses_description_cy_trgm_idx on public.courses using gin (description_cy extensions.gin_trgm_ops);

-- The catalogue's "Available in Welsh" filter, in the catalogue's order.
create index courses_in_welsh_idx on public.courses (featured desc, created_at desc) where available_in_welsh;

-- The modules of a course in order, with their ids: counting them and joining them to progress
-- reads the index alone.
create index course_modules_course_id_order_idx on public.course_modules (course_id, order_index) include (id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.courses enable row level security;

alter table public.course_modules enable row level security;

alter table private.course_counts enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- courses
create policy "visitors read published courses unless login-browse"
  on public.courses for select to anon
  using (status = 'ACTIVE' and (select private.course_access()) <> 'login-browse' and organisation_id is null);

-- A course made by a person of an organisation is of that organisation (private.prepare_course fills
-- it in); national courses are made by national people only.
create policy "courses: instructors in their services and administrators add"
  on public.courses for insert to authenticated
  with check (
    (select private.is_admin())
    or (
      (select private.current_role()) = 'INSTRUCTOR'
      and author_id = (select auth.uid())
      and service in (select unnest(private.current_services()))
      and organisation_id is not distinct from (select private.current_organisation_id())
    )
    or organisation_id = (select private.administered_organisation_id())
  );

create policy "courses: their authors and administrators update"
  on public.courses for update to authenticated
  using (
    (select private.is_admin())
    or (author_id = (select auth.uid()) and (select private.current_role()) = 'INSTRUCTOR'
        and (organisation_id is null or organisation_id = (select private.current_organisation_id())))
    or organisation_id = (select private.administered_organisation_id())
  )
  with check (
    (select private.is_admin())
    or (
      (select private.current_role()) = 'INSTRUCTOR'
      and author_id = (select auth.uid())
      and service in (select unnest(private.current_services()))
      and organisation_id is not distinct from (select private.current_organisation_id())
    )
    or organisation_id = (select private.administered_organisation_id())
  );

create policy "courses: their authors and administrators delete"
  on public.courses for delete to authenticated
  using (
    (select private.is_admin())
    or (author_id = (select auth.uid()) and (select private.current_role()) = 'INSTRUCTOR'
        and (organisation_id is null or organisation_id = (select private.current_organisation_id())))
    or organisation_id = (select private.administered_organisation_id())
  );

create policy "courses: people read published; authors, administrators theirs"
  on public.courses for select to authenticated
  using (
    (
      status = any ((select private.visible_course_statuses())::public.course_status[])
      or author_id = (select auth.uid())
      or organisation_id = (select private.administered_organisation_id())
    )
    -- An organisation's course is for its people (and national admins) only.
    and (
      organisation_id is null
      or (select private.is_admin())
      or organisation_id = (select private.current_organisation_id())
    )
  );

create policy "modules: course authors and national admins add"
  on public.course_modules for insert to authenticated
  with check ((select private.is_admin()) or course_id in (select private.authored_course_ids()));

create policy "modules: course authors and national admins update"
  on public.course_modules for update to authenticated
  using ((select private.is_admin()) or course_id in (select private.authored_course_ids()))
  with check ((select private.is_admin()) or course_id in (select private.authored_course_ids()));

create policy "modules: course authors and national admins delete"
  on public.course_modules for delete to authenticated
  using ((select private.is_admin()) or course_id in (select private.authored_course_ids()));

create policy "visitors read modules of visible courses"
  on public.course_modules for select to anon
  using (exists (select 1 from public.courses c where c.id = course_modules.course_id));

create policy "users read modules of visible courses"
  on public.course_modules for select to authenticated
  using (exists (select 1 from public.courses c where c.id = course_modules.course_id));

create policy "no direct access" on private.course_counts as restrictive for all to public
  using (false) with check (false);

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.courses from anon, authenticated, service_role;
grant select on public.courses to anon;
grant select, delete on public.courses to authenticated;
grant all on public.courses to service_role;
-- available_in_welsh is kept by triggers: no API role writes it.
grant insert (title, description, service, author_id, duration, level, featured,
  requires_enrollment, status, certificate_valid_months, requires_approval, organisation_id, title_cy,
  description_cy, sessions_need_manager_approval) on public.courses to authenticated;
grant update (title, description, service, author_id, duration, level, featured,
  requires_enrollment, status, certificate_valid_months, requires_approval, organisation_id, title_cy,
  description_cy, sessions_need_manager_approval) on public.courses to authenticated;

revoke all on public.course_modules from anon, authenticated, service_role;
grant delete on public.course_modules to authenticated;
grant all on public.course_modules to service_role;
grant select (id, course_id, title, order_index, duration, has_quiz, kind, created_at, updated_at,
  title_cy) on public.course_modules to anon, authenticated;
grant insert (course_id, title, content, order_index, duration, has_quiz, kind, title_cy, content_cy) on
  public.course_modules to authenticated;
grant update (course_id, title, content, order_index, duration, has_quiz, title_cy, content_cy) on
  public.course_modules to authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.can_view_course(p_course_id uuid)
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
          or (c.organisation_id is not null and c.organisation_id = private.administered_organisation_id())
        )
        and (c.organisation_id is null or private.is_admin()
             or c.organisation_id = private.current_organisation_id())
    )
  );
end;
$$;
comment on function private.can_view_course(uuid) is
  'True when the caller may see the course (mirrors the courses select policies).';
revoke all on function private.can_view_course(uuid) from public;
grant execute on function private.can_view_course(uuid) to anon, authenticated, service_role;

create function private.course_authors(p_course_ids uuid[])
returns table(course_id uuid, author_id uuid, username text, name text)
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
comment on function private.course_authors(uuid[]) is
  'Name and username of the authors of the given courses, for the courses the caller can see; no email.';
revoke all on function private.course_authors(uuid[]) from public;
grant execute on function private.course_authors(uuid[]) to anon, authenticated, service_role;

create function private.reorder_modules(p_course_id uuid, p_module_ids uuid[])
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_current uuid[];
  v_given uuid[];
  v_count integer;
  v_expected integer;
begin
  -- One reorder of a course at a time; the reads below then see the previous one's result.
  perform 1 from public.course_modules m where m.course_id = p_course_id order by m.id for update;
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
comment on function private.reorder_modules(uuid,uuid[]) is
  'Author/admin: sets the course''s module order to the given full list of ids (1..n), in one statement, under RLS.';
revoke all on function private.reorder_modules(uuid,uuid[]) from public;
grant execute on function private.reorder_modules(uuid,uuid[]) to authenticated, service_role;

-- After a delete: the remaining modules become 1..n, keeping their order.
create function private.renumber_modules(p_course_id uuid)
returns void
language sql
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
comment on function private.renumber_modules(uuid) is
  'Author/admin: closes the gaps in a course''s module order (1..n), under RLS.';
revoke all on function private.renumber_modules(uuid) from public;
grant execute on function private.renumber_modules(uuid) to authenticated, service_role;

create function private.module_body(p_module_id uuid)
returns table(content text, image text, content_cy text)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select m.content, m.image, m.content_cy
    from public.course_modules m
    join public.courses c on c.id = m.course_id
    where m.id = p_module_id
      and (
        private.can_study_course(m.course_id)
        or (not c.requires_enrollment and private.can_view_course(m.course_id))
      );
end;
$$;
comment on function private.module_body(uuid) is
  'Content, image and Welsh content of the module when the caller may read it (can_study_course, or enrolment not required and the course visible); no row otherwise. The API roles cannot select these columns directly.';
revoke all on function private.module_body(uuid) from public;
grant execute on function private.module_body(uuid) to anon, authenticated, service_role;

-- Both run their query with EXECUTE, so it is planned for the pattern given (a parameter of a plain
-- SQL function is planned blind, and the planner then read all 10,000 courses rather than trust the
-- trigram index with an unknown pattern).
create function private.course_search_ids(p_pattern text, p_include_archived boolean default false)
returns setof uuid
language plpgsql
 STABLE SECURITY DEFINER ROWS 50
set search_path = ''
as $$
begin
  -- Only courses the caller can see: the rule of private.can_view_course, evaluated once per
  -- statement rather than called for each match.
  return query execute
    'select c.id from public.courses c
     where (c.title ilike $1 or c.description ilike $1 or c.title_cy ilike $1 or c.description_cy ilike $1)
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
$$;
comment on function private.course_search_ids(text,boolean) is
  'Ids of the courses the caller can see whose title or description, in English or Welsh, matches the ILIKE pattern (trigram indexes), archived ones only when asked; the caller then reads the rows under its own row-level security.';
revoke all on function private.course_search_ids(text,boolean) from public;
grant execute on function private.course_search_ids(text,boolean) to anon, authenticated, service_role;

create function private.course_module_bodies(p_course_id uuid)
returns table(module_id uuid, content text, image text, content_cy text)
language plpgsql
 STABLE SECURITY DEFINER ROWS 20
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
    select m.id, m.content, m.image, m.content_cy
    from public.course_modules m
    where m.course_id = p_course_id;
end;
$$;
comment on function private.course_module_bodies(uuid) is
  'Content, image and Welsh content of every module of the course when the caller may read it (the rule of private.module_body, checked once per course); no row otherwise. The API roles cannot select these columns directly.';
revoke all on function private.course_module_bodies(uuid) from public;
grant execute on function private.course_module_bodies(uuid) to anon, authenticated, service_role;

create function private.count_courses()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- One upsert per (status, service) that changed, taken in key order (two statements never wait
  -- for each other's rows in opposite orders). old_rows / new_rows exist only for their events.
  if tg_op = 'INSERT' then
    insert into private.course_counts as cc (status, service, courses)
    select n.status, n.service, count(*) from new_rows n where n.organisation_id is null group by 1, 2 order by 1, 2
    on conflict (status, service) do update set courses = cc.courses + excluded.courses;
  elsif tg_op = 'DELETE' then
    insert into private.course_counts as cc (status, service, courses)
    select o.status, o.service, -count(*) from old_rows o where o.organisation_id is null group by 1, 2 order by 1, 2
    on conflict (status, service) do update set courses = cc.courses + excluded.courses;
  elsif tg_op = 'UPDATE' then
    insert into private.course_counts as cc (status, service, courses)
    select d.status, d.service, sum(d.delta)
    from (
      select o.status, o.service, -1 as delta from old_rows o where o.organisation_id is null
      union all
      select n.status, n.service, 1 from new_rows n where n.organisation_id is null
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
comment on function private.count_courses() is
  'Keeps private.course_counts in step with public.courses'' national courses (statement-level triggers); an organisation''s courses are counted when asked (private.visible_course_count).';
revoke all on function private.count_courses() from public;

-- The catalogue's counts worked out from the courses: what private.course_counts must hold
-- (private.kept_counts_drift compares the two).
create function private.course_counts_live()
returns table(status public.course_status, service public.service_code, courses bigint)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select c.status, c.service, count(*) from public.courses c where c.organisation_id is null group by 1, 2;
end;
$$;
comment on function private.course_counts_live() is
  'Internal: private.course_counts computed from public.courses (national courses per status and service).';
revoke all on function private.course_counts_live() from public;

create function private.visible_course_count(
  p_service public.service_code,
  p_status public.course_status,
  p_include_archived boolean default false
)
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
$$;
comment on function private.visible_course_count(public.service_code,public.course_status,boolean) is
  'How many courses the caller can see (the rule of the courses select policies), optionally of one service and/or status, archived ones only when asked (by status or p_include_archived), from private.course_counts: the catalogue''s total without counting the courses.';
revoke all on function private.visible_course_count(public.service_code,public.course_status,boolean) from
  public;
grant execute on function private.visible_course_count(public.service_code,public.course_status,boolean) to
  anon, authenticated, service_role;

create function private.course_summaries(p_course_ids uuid[])
returns table(course_id uuid, modules integer, author_id uuid, username text, name text)
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
        or (c.organisation_id is not null and c.organisation_id = (select private.administered_organisation_id()))
      )
      and (c.organisation_id is null or (select private.is_admin())
           or c.organisation_id = (select private.current_organisation_id()));
end;
$$;
comment on function private.course_summaries(uuid[]) is
  'For the given courses that the caller can see (the rule of private.can_view_course): the number of modules and the author''s id, name and username (no email). The catalogue''s page reads it once.';
revoke all on function private.course_summaries(uuid[]) from public;
grant execute on function private.course_summaries(uuid[]) to anon, authenticated, service_role;

-- A course of an organisation belongs to it whole: made by a person of an organisation, it is of
-- that organisation (a course they leave without one is filled in), and its author is one of its
-- people. A national course's author is a national person. Checked for the API roles; the service
-- role and migrations place courses freely.
create function private.prepare_course()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_my_org uuid;
  v_author_org uuid;
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  if tg_op = 'INSERT' and new.organisation_id is null and not private.is_admin() then
    v_my_org := private.current_organisation_id();
    if v_my_org is not null then
      new.organisation_id := v_my_org;
    end if;
  end if;
  if new.author_id is not null
     and (tg_op = 'INSERT' or new.author_id is distinct from old.author_id
          or new.organisation_id is distinct from old.organisation_id) then
    -- Read as the caller: an author they cannot see is not of their organisation either.
    select p.organisation_id into v_author_org from public.profiles p where p.id = new.author_id;
    if not found or v_author_org is distinct from new.organisation_id then
      raise exception 'The author of a course must belong to the course''s organisation'
        using errcode = '42501', hint = 'author_id';
    end if;
  end if;
  return new;
end;
$$;
comment on function private.prepare_course() is
  'Before insert or update on courses, for API callers: a course made by a person of an organisation (not a national admin) is of that organisation; the author belongs to the course''s organisation, or to none for a national course (42501, hint author_id).';
revoke all on function private.prepare_course() from public;

-- ---------------------------------------------------------------------------
-- Available in Welsh: kept in the same transaction as the change that decides it
-- ---------------------------------------------------------------------------

-- Every part of a course below it has Welsh: each module's title (and body, for a content module;
-- introduction, for a session or a practical that has one in English),
-- each quiz's title (and description when it has one), each question's text and options (and
-- explanation when it has one), each practical assessment criterion's title (and guidance when it
-- has one). The quizzes are in 03_quizzes.sql, the criteria in 26_practical_assessments.sql
-- (PL/pgSQL reads them when called).
create function private.course_parts_in_welsh(p_course_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return not exists (
      select 1 from public.course_modules m
      where m.course_id = p_course_id
        and (m.title_cy is null
             or (m.content_cy is null and (m.kind = 'content' or (m.kind in ('session', 'assessment') and btrim(m.content) <> '')))))
    and not exists (
      select 1 from public.course_modules m
      join public.quizzes q on q.module_id = m.id
      where m.course_id = p_course_id
        and (q.title_cy is null or (q.description is not null and q.description_cy is null)))
    and not exists (
      select 1 from public.course_modules m
      join public.quizzes q on q.module_id = m.id
      join public.quiz_questions qq on qq.quiz_id = q.id
      where m.course_id = p_course_id
        and (qq.question_text_cy is null or qq.options_cy is null
             or (qq.explanation is not null and qq.explanation_cy is null)))
    -- practical assessments' criteria (26_practical_assessments.sql)
    and not exists (
      select 1 from public.course_modules m
      join public.assessment_criteria ac on ac.module_id = m.id
      where m.course_id = p_course_id
        and (ac.title_cy is null or (ac.guidance is not null and ac.guidance_cy is null)));
end;
$$;
comment on function private.course_parts_in_welsh(uuid) is
  'Internal: true when every module, quiz, question and assessment criterion of the course has its Welsh (the rule of courses.available_in_welsh below the course itself).';
revoke all on function private.course_parts_in_welsh(uuid) from public;

-- Before insert, or an update of the Welsh or of the flag itself: the flag is worked out, whatever
-- was sent (the service role and the triggers below write through here too).
create function private.set_course_in_welsh()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  new.available_in_welsh := new.title_cy is not null and new.description_cy is not null
    and private.course_parts_in_welsh(new.id);
  return new;
end;
$$;
comment on function private.set_course_in_welsh() is
  'Before insert or update of title_cy, description_cy or available_in_welsh on courses: sets available_in_welsh from the course''s Welsh and private.course_parts_in_welsh.';
revoke all on function private.set_course_in_welsh() from public;

-- After a change to modules, quizzes or questions: the flag of each course touched. The course rows
-- are locked first (in id order), so two transactions changing parts of one course take turns and
-- the second, reading afresh, sees what the first committed.
create function private.refresh_courses_in_welsh(p_course_ids uuid[])
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if coalesce(cardinality(p_course_ids), 0) = 0 then
    return;
  end if;
  perform 1 from public.courses c where c.id = any (p_course_ids) order by c.id for no key update;
  update public.courses c
  set available_in_welsh = not c.available_in_welsh
  where c.id = any (p_course_ids)
    and c.available_in_welsh is distinct from
        (c.title_cy is not null and c.description_cy is not null and private.course_parts_in_welsh(c.id));
end;
$$;
comment on function private.refresh_courses_in_welsh(uuid[]) is
  'Internal: brings courses.available_in_welsh of the given courses up to date (the trigger private.set_course_in_welsh works it out), locking the courses first.';
revoke all on function private.refresh_courses_in_welsh(uuid[]) from public;

create function private.note_modules_in_welsh()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- old_rows / new_rows exist only for their events.
  if tg_op = 'INSERT' then
    perform private.refresh_courses_in_welsh(array(select distinct n.course_id from new_rows n));
  elsif tg_op = 'DELETE' then
    perform private.refresh_courses_in_welsh(array(select distinct o.course_id from old_rows o));
  else
    perform private.refresh_courses_in_welsh(array(
      select o.course_id from old_rows o union select n.course_id from new_rows n));
  end if;
  return null;
end;
$$;
comment on function private.note_modules_in_welsh() is
  'After insert, update or delete on course_modules (statement level): refreshes available_in_welsh of the courses whose modules changed.';
revoke all on function private.note_modules_in_welsh() from public;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger courses_set_updated_at
  before update on public.courses
  for each row execute function private.set_updated_at();

create trigger courses_prepare
  before insert or update of author_id, organisation_id on public.courses
  for each row execute function private.prepare_course();

create trigger course_modules_set_updated_at
  before update on public.course_modules
  for each row execute function private.set_updated_at();

create trigger courses_count_insert
  after insert on public.courses
  referencing new table as new_rows
  for each statement execute function private.count_courses();

create trigger courses_count_update
  after update on public.courses
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.count_courses();

create trigger courses_count_delete
  after delete on public.courses
  referencing old table as old_rows
  for each statement execute function private.count_courses();

create trigger courses_count_truncate
  after truncate on public.courses
  for each statement execute function private.count_courses();

create trigger courses_in_welsh
  before insert or update of title_cy, description_cy, available_in_welsh on public.courses
  for each row execute function private.set_course_in_welsh();

create trigger course_modules_in_welsh_insert
  after insert on public.course_modules
  referencing new table as new_rows
  for each statement execute function private.note_modules_in_welsh();

create trigger course_modules_in_welsh_update
  after update on public.course_modules
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.note_modules_in_welsh();

create trigger course_modules_in_welsh_delete
  after delete on public.course_modules
  referencing old table as old_rows
  for each statement execute function private.note_modules_in_welsh();
