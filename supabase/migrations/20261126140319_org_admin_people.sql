-- org_admin_people: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

ALTER TABLE "private"."user_import_rows"
  ADD COLUMN "organisation_id" uuid;

ALTER TABLE "private"."user_import_rows"
  ADD COLUMN "unit_id" uuid;

ALTER TABLE "private"."user_import_rows"
  ADD COLUMN "manager" text;

CREATE OR REPLACE FUNCTION private.delete_user (
  p_user_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if private.is_admin() then
    delete from auth.users where id = p_user_id;
    return found;
  end if;
  if not private.is_org_admin() then
    raise exception 'Only an administrator may delete users' using errcode = '42501';
  end if;
  -- An organisation's administrator: only its people (anyone else is "no such person").
  delete from auth.users u
  where u.id = p_user_id
    and exists (select 1 from public.profiles p
                where p.id = p_user_id and p.organisation_id = private.administered_organisation_id());
  return found;
end;
$function$;

CREATE OR REPLACE FUNCTION private.import_users (
  p_import_id uuid,
  p_part      integer,
  p_rows      jsonb
)
  RETURNS TABLE (
    line    integer,
    user_id uuid,
    field   text,
    problem text
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
declare
  v_batch uuid := gen_random_uuid();
  v_actor uuid := auth.uid();
  v_total integer;
  v_created integer;
  v_org uuid := private.administered_organisation_id();
  v_national boolean := private.is_admin();
begin
  if not v_national and v_org is null then
    raise exception 'Only administrators may import users' using errcode = '42501';
  end if;
  if p_import_id is null or p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'An import id and an array of rows are required' using errcode = '22023';
  end if;
  v_total := jsonb_array_length(p_rows);
  if v_total > 1000 then
    raise exception 'At most 1,000 users per call' using errcode = '22023';
  end if;

  -- Stage. Casts and the NOT NULLs refuse malformed rows (22P02 / 23502: the whole call fails).
  -- An organisation's administrator imports into their organisation only (a row without one is theirs).
  insert into private.user_import_rows (user_id, batch_id, line, username, email, name, role, services,
                                        organisation_id, unit_id, manager)
  select gen_random_uuid(), v_batch, r.line, btrim(r.username), lower(btrim(r.email)), btrim(r.name),
         coalesce(r.role, 'STUDENT')::public.user_role, coalesce(r.services, '{}')::public.service_code[],
         case when v_national then r.organisation_id else coalesce(r.organisation_id, v_org) end,
         r.unit_id, nullif(lower(btrim(r.manager)), '')
  from jsonb_to_recordset(p_rows) as r(line integer, username text, email text, name text, role text,
                                       services text[], password text, organisation_id uuid, unit_id uuid,
                                       manager text);
  if not v_national and exists (
    select 1 from private.user_import_rows s where s.batch_id = v_batch and s.organisation_id <> v_org
  ) then
    raise exception 'An organisation''s administrator imports people into their own organisation only'
      using errcode = '42501';
  end if;
  if exists (
    select 1 from private.user_import_rows s
    where s.batch_id = v_batch
      and ((s.organisation_id is not null and not exists (select 1 from public.organisations o where o.id = s.organisation_id))
           or (s.unit_id is not null and not exists (select 1 from public.units u
                                                    where u.id = s.unit_id and u.organisation_id = s.organisation_id))
           or (s.manager is not null and s.organisation_id is null))
  ) then
    raise exception 'Every unit and manager must be of the row''s organisation, and the organisation must exist'
      using errcode = '22023';
  end if;
  if (select count(distinct s.line) from private.user_import_rows s where s.batch_id = v_batch) <> v_total then
    raise exception 'Every row needs its own line number' using errcode = '22023';
  end if;
  if exists (
    select 1 from jsonb_to_recordset(p_rows) as r(password text)
    where r.password is null or char_length(r.password) not between 16 and 72
  ) then
    raise exception 'Every row needs a generated password of 16 to 72 characters' using errcode = '22023';
  end if;

  -- Taken now (re-checked here, never trusted from the preview), then repeats within the batch:
  -- the first line wins.
  update private.user_import_rows s
  set problem_field = 'username', problem = 'Username is already taken'
  where s.batch_id = v_batch
    and exists (select 1 from public.profiles p where lower(p.username) = lower(s.username));
  update private.user_import_rows s
  set problem_field = 'email', problem = 'Email is already registered'
  where s.batch_id = v_batch and s.problem is null
    and (exists (select 1 from auth.users a where a.email = s.email and a.is_sso_user = false)
         or exists (select 1 from public.profiles p where lower(p.email) = s.email));
  update private.user_import_rows s
  set problem_field = d.field, problem = d.message
  from (
    select x.user_id,
           case when x.username_rank > 1 then 'username' else 'email' end as field,
           case when x.username_rank > 1 then 'Username appears earlier in the file' else 'Email appears earlier in the file' end as message
    from (
      select t.user_id,
             row_number() over (partition by lower(t.username) order by t.line) as username_rank,
             row_number() over (partition by t.email order by t.line) as email_rank
      from private.user_import_rows t
      where t.batch_id = v_batch and t.problem is null
    ) x
    where x.username_rank > 1 or x.email_rank > 1
  ) d
  where s.user_id = d.user_id;
  -- The manager: a person of the row's organisation, or another row of this call (of the same
  -- organisation) that is itself created; repeated until no row changes, so a chain of rows whose
  -- first manager is missing is skipped whole.
  loop
    update private.user_import_rows s
    set problem_field = 'manager', problem = 'No person of the organisation has this username or email'
    where s.batch_id = v_batch and s.problem is null and s.manager is not null
      and not exists (select 1 from public.profiles m
                      where m.organisation_id = s.organisation_id
                        and (lower(m.username) = s.manager or lower(m.email) = s.manager))
      and not exists (select 1 from private.user_import_rows o
                      where o.batch_id = v_batch and o.problem is null and o.user_id <> s.user_id
                        and o.organisation_id = s.organisation_id
                        and (lower(o.username) = s.manager or o.email = s.manager));
    exit when not found;
  end loop;

  -- The accounts, as Supabase Auth's admin create writes them (confirmed email, email identity).
  -- The temporary passwords are 20 random characters from a 67-letter alphabet (about 120 bits):
  -- a guess is hopeless whatever the hash cost, so bcrypt cost 4 (~1 ms) is as safe for them as
  -- cost 10 (~70 ms) and 10,000 of them hash in seconds. Supabase Auth (Go's bcrypt) and the local
  -- platform (bcryptjs) verify any cost from 4 up; a user's own new password is hashed at cost 10.
  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
    confirmation_token, recovery_token, email_change_token_new, email_change,
    raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at, is_anonymous)
  select '00000000-0000-0000-0000-000000000000'::uuid, s.user_id, 'authenticated', 'authenticated', s.email,
         extensions.crypt(r.password, extensions.gen_salt('bf', 4)), now(), '', '', '', '',
         jsonb_build_object('provider', 'email', 'providers', jsonb_build_array('email'), 'created_by', v_actor,
                            'import_id', p_import_id),
         jsonb_build_object('username', s.username, 'name', s.name), false, now(), now(), false
  from private.user_import_rows s
  join jsonb_to_recordset(p_rows) as r(line integer, password text) on r.line = s.line
  where s.batch_id = v_batch and s.problem is null;
  get diagnostics v_created = row_count;
  -- Their organisation and unit, then their managers (who may be rows of this call, now people).
  -- The placement trigger checks each manager again and refuses a cycle (23514: the call fails).
  update public.profiles p
  set organisation_id = s.organisation_id, unit_id = s.unit_id
  from private.user_import_rows s
  where s.batch_id = v_batch and s.problem is null and p.id = s.user_id and s.organisation_id is not null;
  update public.profiles p
  set manager_id = (
    select m.id from public.profiles m
    where m.organisation_id = s.organisation_id and (lower(m.username) = s.manager or lower(m.email) = s.manager)
    order by (lower(m.username) = s.manager) desc
    limit 1)
  from private.user_import_rows s
  where s.batch_id = v_batch and s.problem is null and p.id = s.user_id and s.manager is not null;

  insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
  select s.user_id::text, s.user_id,
         jsonb_build_object('sub', s.user_id::text, 'email', s.email, 'email_verified', true, 'phone_verified', false),
         'email', null, now(), now()
  from private.user_import_rows s
  where s.batch_id = v_batch and s.problem is null;

  if v_created > 0 then
    perform private.write_audit('users.imported', 'users', null, v_created::text || ' users imported', null,
      jsonb_build_object(
        'importId', p_import_id, 'part', p_part, 'created', v_created, 'skipped', v_total - v_created,
        'roles', (select jsonb_object_agg(g.role, g.n) from (
                    select s.role, count(*) as n from private.user_import_rows s
                    where s.batch_id = v_batch and s.problem is null group by s.role) g)));
  end if;

  return query
    select s.line, case when s.problem is null then s.user_id end, s.problem_field, s.problem
    from private.user_import_rows s where s.batch_id = v_batch order by s.line;

  delete from private.user_import_rows s where s.batch_id = v_batch;
end;
$function$;

CREATE OR REPLACE FUNCTION private.learning_record (
  p_user_id uuid
)
  RETURNS TABLE (
    certificate_id    uuid,
    course_id         uuid,
    course_title      text,
    service           text,
    cycle             integer,
    completed_at      timestamp with time zone,
    hours             integer,
    score             integer,
    verification_code text,
    expires_at        timestamp with time zone,
    revoked_at        timestamp with time zone,
    state             text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
begin
  if p_user_id is distinct from (select auth.uid()) and not (select private.is_admin())
     and not exists (select 1 from private.administered_person_ids() a where a = p_user_id) then
    raise exception 'Only the learner and administrators may read a learning record' using errcode = '42501';
  end if;
  return query
    with history as (
      select c.*,
             lag(c.issued_at) over (partition by c.course_id order by c.issued_at) as previous_issued_at
      from public.certificates c
      where c.user_id = p_user_id
    )
    select h.id, h.course_id, h.course_title, h.service::text, h.cycle, h.issued_at, co.duration,
           s.score, h.verification_code, h.expires_at, h.revoked_at,
           private.certificate_state(h.expires_at, h.revoked_at)
    from history h
    left join public.courses co on co.id = h.course_id
    left join lateral (
      select round(avg(best.pct))::integer as score
      from (
        select max(round(100.0 * a.score / nullif(a.max_score, 0))) as pct
        from public.course_modules m
        join public.quizzes q on q.module_id = m.id
        join public.quiz_attempts a on a.quiz_id = q.id and a.user_id = p_user_id
        where m.course_id = h.course_id
          and a.passed
          and a.completed_at <= h.issued_at
          and (h.previous_issued_at is null or a.completed_at > h.previous_issued_at)
        group by q.id
      ) best
    ) s on true
    order by h.issued_at desc, h.id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.reset_password_flag (
  p_user_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_actor uuid := (select auth.uid());
  v_target public.profiles;
  v_sessions integer;
begin
  if v_actor is null or (not private.is_admin() and not private.is_org_admin()) then
    raise exception 'Only an administrator may reset a password' using errcode = '42501';
  end if;
  if p_user_id = v_actor then
    raise exception 'Change your own password from your profile page' using errcode = 'P0409';
  end if;
  select * into v_target from public.profiles p where p.id = p_user_id for update;
  -- An organisation's administrator: only its people (anyone else is unknown to them).
  if not found
     or (not private.is_admin() and v_target.organisation_id is distinct from private.administered_organisation_id()) then
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
$function$;

CREATE OR REPLACE FUNCTION private.set_user_active (
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
  if not private.is_admin() and not private.is_org_admin() then
    raise exception 'Only an administrator may deactivate or reactivate users' using errcode = '42501';
  end if;
  if p_user_id = auth.uid() and not p_active then
    raise exception 'You cannot deactivate your own account' using errcode = 'P0403';
  end if;
  select * into v_profile from public.profiles where id = p_user_id for update;
  -- An organisation's administrator: only its people (anyone else is "no such person").
  if not found
     or (not private.is_admin() and v_profile.organisation_id is distinct from private.administered_organisation_id()) then
    return false;
  end if;
  if p_active = (v_profile.deactivated_at is null) then
    return true; -- already so: nothing to record
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
    -- Back in the required training they match (skipped while deactivated).
    insert into public.enrollments (user_id, course_id, status)
    select distinct v_profile.id, r.course_id, 'ACTIVE'::public.enrollment_status
    from public.required_training r
    where (r.role is null or r.role = v_profile.role)
      and (r.service is null or v_profile.services @> array[r.service])
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

CREATE OR REPLACE FUNCTION private.user_import_clashes (
  p_usernames text[],
  p_emails    text[]
)
  RETURNS TABLE (
    field text,
    value text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if not private.is_admin() and not private.is_org_admin() then
    raise exception 'Only administrators may import users' using errcode = '42501';
  end if;
  if coalesce(cardinality(p_usernames), 0) > 10000 or coalesce(cardinality(p_emails), 0) > 10000 then
    raise exception 'At most 10,000 usernames and emails per check' using errcode = '22023';
  end if;
  -- One statement for the whole file: index probes on profiles_username_lower_key,
  -- profiles_email_lower_idx and auth.users' users_email_partial_key (Auth stores emails lowercased).
  return query
    select 'username'::text, lower(btrim(u.value))
    from (select distinct lower(btrim(x)) as value from unnest(p_usernames) x) u
    where exists (select 1 from public.profiles p where lower(p.username) = u.value)
    union all
    select 'email'::text, e.value
    from (select distinct lower(btrim(x)) as value from unnest(p_emails) x) e
    where exists (select 1 from auth.users a where a.email = e.value and a.is_sso_user = false)
       or exists (select 1 from public.profiles p where lower(p.email) = e.value);
end;
$function$;

COMMENT ON COLUMN "private"."user_import_rows"."manager" IS 'The username or email (lowercased) of the row''s line manager: a person of the row''s organisation, or another row of the same call.';

COMMENT ON FUNCTION "private"."delete_user"(uuid) IS 'Admins only: deletes the auth.users row (cascading to the profile); false when there is none. An organisation''s administrator deletes only its people (false for anyone else).';

COMMENT ON FUNCTION "private"."import_users"(uuid, integer, jsonb) IS 'Admins: creates the Auth users of up to 1,000 rows [{line, username, email, name, role, services, password, organisation_id?, unit_id?, manager?}] in one transaction, placed in their organisation and unit and given their manager (username or email of a person of the organisation or of another row); returns each line with the new user id, or the field and reason it was skipped. An organisation''s administrator imports into their own organisation only (42501 otherwise; a row without one is theirs).';

COMMENT ON FUNCTION "private"."learning_record"(uuid) IS 'The learner''s completed courses (every certificate, all cycles) with hours, service, quiz score, code, expiry and state. Caller must be the learner, a national admin or their organisation''s admin (else 42501).';

COMMENT ON FUNCTION "private"."reset_password_flag"(uuid) IS 'Admins only (an organisation''s administrator: its people only), not for their own account (P0409): flags the person to choose a new password, ends their sessions and records password.reset in audit_events. 42501 for non-admins, P0002 for an unknown person or one of another organisation.';

COMMENT ON FUNCTION "private"."set_user_active"(uuid, boolean) IS 'Admins only (an organisation''s administrator: its people only): deactivates (bans in Auth, ends every session) or reactivates a person, and records it in the audit trail. False when there is no such person or they are not the caller''s to administer; 42501 for a non-admin; P0403 for deactivating oneself; P0409 for the last active admin.';

COMMENT ON FUNCTION "private"."user_import_clashes"(text[], text[]) IS 'Admins (national or of an organisation: usernames and emails are unique across the platform): which of these usernames and emails (compared lowercased) are already taken; one statement for a whole import file.';
