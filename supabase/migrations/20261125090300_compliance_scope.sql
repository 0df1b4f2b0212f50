-- One scope rule for the compliance summary and the people behind it (security finding 16.8).
-- `GET /api/compliance/people?service=MISC` (and its CSV) listed people for an instructor whose
-- services do not include MISC, because the people query admitted anyone who shared any service
-- with the instructor, while the summary admitted only rows of the instructor's own services.
-- private.compliance_in_scope is now the rule both apply: administrators see everyone; an
-- instructor sees a person only under a service of their own (the filtered service, when there is
-- one, must be theirs; otherwise the person must share one of their services).

create function private.compliance_in_scope(p_service public.service_code, p_person_services public.service_code[])
returns boolean
language sql stable
set search_path = ''
as $$
  select (select private.is_admin())
      or (p_person_services && (select private.current_services())
          and (p_service is null or array[p_service] <@ (select private.current_services())))
$$;
comment on function private.compliance_in_scope(public.service_code, public.service_code[]) is
  'THE scope rule of compliance views: admins see everyone; instructors a person of one of their services (and, with a service filter, only a service of their own).';
revoke all on function private.compliance_in_scope(public.service_code, public.service_code[]) from public;
grant execute on function private.compliance_in_scope(public.service_code, public.service_code[]) to authenticated, service_role;

create or replace function private.compliance_summary(
  p_service public.service_code default null,
  p_role public.user_role default null,
  p_course_id uuid default null
)
returns table (
  service public.service_code,
  course_id uuid,
  course_title text,
  people bigint,
  compliant bigint,
  due_soon bigint,
  overdue bigint,
  in_progress bigint
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_compliance_viewer();
  return query
  select s.service, st.course_id, st.course_title,
         count(*),
         count(*) filter (where st.status = 'done'),
         count(*) filter (where st.status = 'due-soon'),
         count(*) filter (where st.status = 'overdue'),
         count(*) filter (where st.status = 'in-progress')
  from private.required_training_status(null, p_service, p_role, p_course_id) st
  cross join lateral (
    select u.service from unnest(st.services) u(service)
    union all
    select null::public.service_code where cardinality(st.services) = 0
  ) s
  where (p_service is null or s.service = p_service)
    and private.compliance_in_scope(p_service, array_remove(array[s.service], null))
  group by s.service, st.course_id, st.course_title
  order by s.service nulls last, st.course_title, st.course_id;
end;
$$;
comment on function private.compliance_summary(public.service_code, public.user_role, uuid) is
  'Instructors and admins: per service and required course, people required, compliant (done), due soon, overdue, in progress.';

create or replace function private.compliance_people(
  p_service public.service_code default null,
  p_role public.user_role default null,
  p_course_id uuid default null,
  p_status text default null,
  p_limit integer default 20,
  p_offset integer default 0
)
returns table (
  user_id uuid,
  username text,
  name text,
  email text,
  role public.user_role,
  services public.service_code[],
  course_id uuid,
  course_title text,
  progress integer,
  due_at timestamptz,
  status text,
  certificate_expires_at timestamptz,
  total bigint
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_compliance_viewer();
  return query
  select st.user_id, st.username, st.name, st.email, st.role, st.services, st.course_id, st.course_title,
         st.progress, st.due_at, st.status, st.certificate_expires_at, count(*) over ()
  from private.required_training_status(null, p_service, p_role, p_course_id) st
  where (p_status is null or st.status = p_status)
    and private.compliance_in_scope(p_service, st.services)
  order by private.required_training_status_rank(st.status), st.due_at nulls last, st.name, st.user_id, st.course_title
  limit greatest(p_limit, 0) offset greatest(p_offset, 0);
end;
$$;
comment on function private.compliance_people(public.service_code, public.user_role, uuid, text, integer, integer) is
  'Instructors and admins: the people required to take courses, with status and due date, most urgent first, paged.';
