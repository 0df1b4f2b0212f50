-- session_trainer_candidates: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.may_train (
  p_person          public.profiles,
  p_service         public.service_code,
  p_organisation_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
begin
  return coalesce(p_person.id is not null and p_person.deactivated_at is null
    and (p_person.role = 'ADMIN' or (p_person.role = 'INSTRUCTOR' and p_service = any (p_person.services)))
    and (p_organisation_id is null or p_person.organisation_id = p_organisation_id), false);
end;
$function$;

CREATE OR REPLACE FUNCTION private.session_trainer_candidates (
  p_module_id       uuid,
  p_organisation_id uuid,
  p_pattern         text
)
  RETURNS TABLE (
    user_id  uuid,
    name     text,
    username text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 20
  SET search_path TO ''
  AS $function$
declare
  v_course public.courses;
  v_org uuid;
  v_pattern text := coalesce(p_pattern, '%');
begin
  select c.* into v_course from public.course_modules m join public.courses c on c.id = m.course_id
  where m.id = p_module_id and m.kind = 'session';
  if not found or not private.can_view_course(v_course.id) then
    raise exception 'Module not found' using errcode = 'P0002';
  end if;
  v_org := coalesce(v_course.organisation_id, private.current_organisation_id(), p_organisation_id);
  if not private.may_manage_sessions(v_course.id, v_org) then
    raise exception 'You cannot choose the trainers of this course''s dates' using errcode = '42501';
  end if;
  -- The text match is the trigram index's (profiles_search_trgm_idx), the role and organisation
  -- narrow by theirs (profiles_role_idx, profiles_organisation_idx) before the rule is asked of the
  -- few left; private.may_train alone decides.
  return query
    select p.id, p.name, p.username
    from public.profiles p
    where lower(p.name || ' ' || p.username || ' ' || p.email) like v_pattern
      and (lower(p.name) like v_pattern or lower(p.username) like v_pattern)
      and p.role in ('INSTRUCTOR', 'ADMIN')
      and (v_org is null or p.organisation_id = v_org)
      and private.may_train(p, v_course.service, v_org)
    order by p.name, p.id
    limit 20;
end;
$function$;

CREATE OR REPLACE FUNCTION private.set_trainers_of (
  p_session     public.classroom_sessions,
  p_trainer_ids uuid[]
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if coalesce(cardinality(p_trainer_ids), 0) > 20 then
    raise exception 'At most 20 trainers' using errcode = '22023', hint = 'trainerIds';
  end if;
  if exists (
    select 1 from unnest(coalesce(p_trainer_ids, '{}')) t(id)
    join public.courses c on c.id = p_session.course_id
    left join public.profiles p on p.id = t.id
    where not private.may_train(p, c.service, p_session.organisation_id)) then
    raise exception 'Each trainer is an administrator, or an instructor of the course''s service, of the session''s organisation'
      using errcode = '22023', hint = 'trainerIds';
  end if;
  delete from public.session_trainers t
  where t.session_id = p_session.id and not (t.trainer_id = any (coalesce(p_trainer_ids, '{}')));
  insert into public.session_trainers (session_id, trainer_id)
  select p_session.id, t.id from unnest(coalesce(p_trainer_ids, '{}')) t(id)
  on conflict do nothing;
end;
$function$;

COMMENT ON FUNCTION "private"."may_train"(public.profiles, public.service_code, uuid) IS 'The trainers'' rule: true when the person (active) is an administrator, or an instructor of the service, of the organisation when one is given (null: a national date, anyone''s staff).';

COMMENT ON FUNCTION "private"."session_trainer_candidates"(uuid, uuid, text) IS 'Those who may add dates to the session module''s course: up to 20 people passing private.may_train for its service and the date''s organisation (the course''s, the caller''s, else the one given), name or username matching the lowercase LIKE pattern. P0002 no such session module, 42501 not theirs.';

COMMENT ON FUNCTION "private"."set_trainers_of"(public.classroom_sessions, uuid[]) IS 'Internal: sets the session''s trainers (at most 20, each passing private.may_train for the course''s service and the session''s organisation; 22023 hint trainerIds).';

REVOKE ALL ON FUNCTION "private"."may_train"(public.profiles, public.service_code, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."may_train"(public.profiles, public.service_code, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."session_trainer_candidates"(uuid, uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."session_trainer_candidates"(uuid, uuid, text) TO "authenticated", "postgres";
