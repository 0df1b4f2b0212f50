-- Admin password reset (issue 15): an administrator gives a person a new temporary password, which
-- that person must replace at their next sign-in. The api function sets the password through Auth
-- admin; this function does the database half in one transaction, under the admin's own identity:
--   * refuses anyone but an admin (42501), and an admin's own account (P0409: use the profile page);
--   * sets profiles.must_change_password (no API role holds a privilege on that column);
--   * ends every session of the person (auth.sessions; their refresh tokens go with them);
--   * records 'password.reset' in audit_events (never the password).
-- P0002 when there is no such person.

create function private.reset_password_flag(p_user_id uuid) returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
  v_target public.profiles;
  v_sessions integer;
begin
  if v_actor is null or not private.is_admin() then
    raise exception 'Only an administrator may reset a password' using errcode = '42501';
  end if;
  if p_user_id = v_actor then
    raise exception 'Change your own password from your profile page' using errcode = 'P0409';
  end if;
  select * into v_target from public.profiles p where p.id = p_user_id for update;
  if not found then
    raise exception 'User not found' using errcode = 'P0002';
  end if;

  update public.profiles p set must_change_password = true where p.id = p_user_id;
  delete from auth.sessions s where s.user_id = p_user_id;
  get diagnostics v_sessions = row_count;

  insert into public.audit_events (actor_id, actor_name, actor_username, action, target_type, target_id, target_label, old_data, new_data)
  select v_actor, a.name, a.username, 'password.reset', 'user', v_target.id,
         v_target.username,
         jsonb_build_object('mustChangePassword', v_target.must_change_password),
         jsonb_build_object('mustChangePassword', true, 'sessionsEnded', v_sessions)
  from (select 1) one
  left join public.profiles a on a.id = v_actor;
  return true;
end;
$$;
comment on function private.reset_password_flag(uuid) is
  'Admins only, not for their own account (P0409): flags the person to choose a new password, ends their sessions and records password.reset in audit_events. 42501 for non-admins, P0002 for an unknown person.';
revoke all on function private.reset_password_flag(uuid) from public;
grant execute on function private.reset_password_flag(uuid) to authenticated;
