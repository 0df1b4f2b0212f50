-- reactivation_matches_rule_scope: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.switch_user_active (
  p_user_id uuid,
  p_active  boolean
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_profile public.profiles%rowtype;
begin
  select * into v_profile from public.profiles where id = p_user_id for update;
  if not found or p_active = (v_profile.deactivated_at is null) then
    return false; -- no such person, or already so: nothing to record
  end if;
  if not p_active and v_profile.role = 'ADMIN' and v_profile.organisation_id is null then
    perform pg_advisory_xact_lock(hashtext('public.profiles last admin'));
    if not exists (select 1 from public.profiles p
                   where p.role = 'ADMIN' and p.organisation_id is null
                     and p.id <> p_user_id and p.deactivated_at is null) then
      raise exception 'The last administrator cannot be deactivated'
        using errcode = 'P0409', hint = 'Make another user an administrator first.';
    end if;
  end if;
  update public.profiles set deactivated_at = case when p_active then null else now() end
  where id = p_user_id;
  if p_active then
    update auth.users set banned_until = null, updated_at = now() where id = p_user_id;
    -- Back in the required training they match (skipped while deactivated): by role, services,
    -- organisation and unit, as every rule is matched.
    insert into public.enrollments (user_id, course_id, status)
    select distinct v_profile.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from public.required_training r
    where private.required_rule_matches(r, v_profile.role, v_profile.services, v_profile.organisation_id, v_profile.unit_id)
    on conflict (user_id, course_id) do update set status = 'ACTIVE'
      where public.enrollments.status = 'PENDING';
  else
    update auth.users set banned_until = '2999-12-31 00:00:00+00', updated_at = now() where id = p_user_id;
    delete from auth.sessions where user_id = p_user_id;
  end if;
  perform private.write_audit(
    case when p_active then 'user.reactivated' else 'user.deactivated' end,
    'user', v_profile.id, v_profile.username,
    jsonb_build_object('status', case when p_active then 'deactivated' else 'active' end, 'name', v_profile.name),
    jsonb_build_object('status', case when p_active then 'active' else 'deactivated' end, 'name', v_profile.name));
  return true;
end;
$function$;
