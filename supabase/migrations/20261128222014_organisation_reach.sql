-- organisation_reach: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP POLICY "authors update their own courses and admins any" ON "public"."courses";

DROP POLICY "instructors create courses in their services and admins any" ON "public"."courses";

ALTER TABLE "private"."rate_limit_attempts"
  DROP CONSTRAINT "rate_limit_attempts_action_check";

CREATE OR REPLACE FUNCTION private.auto_enrol_new_user()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if coalesce((select s.auto_enrollment from public.settings s where s.id), false) then
    insert into public.enrollments (user_id, course_id, status)
    select new.id, c.id, 'ACTIVE' from public.courses c
    where c.featured and c.status = 'ACTIVE'
      and (c.organisation_id is null or c.organisation_id = new.organisation_id)
    on conflict (user_id, course_id) do nothing;
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.check_enrolment_organisation()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_course_organisation uuid;
begin
  select c.organisation_id into v_course_organisation from public.courses c where c.id = new.course_id;
  if v_course_organisation is not null and not exists (
    select 1 from public.profiles p where p.id = new.user_id and p.organisation_id = v_course_organisation
  ) then
    raise exception 'An organisation''s course is for its people only'
      using errcode = '42501', hint = 'organisation_id';
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.course_summaries (
  p_course_ids uuid[]
)
  RETURNS TABLE (
    course_id uuid,
    modules   integer,
    author_id uuid,
    username  text,
    name      text
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.guard_profile_update()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
declare
  v_org uuid;
begin
  -- Only the API roles are checked; the service role and migrations manage accounts freely.
  if current_user in ('anon', 'authenticated') then
    -- Nobody places themselves: organisation, unit and manager are set by an administrator.
    if new.id = (select auth.uid())
       and (new.organisation_id is distinct from old.organisation_id
            or new.unit_id is distinct from old.unit_id
            or new.manager_id is distinct from old.manager_id) then
      raise exception 'You cannot change your own organisation, unit or manager'
        using errcode = '42501';
    end if;
    if not private.is_admin() then
      v_org := private.administered_organisation_id();
      -- An organisation's administrator: role, services, username, unit and manager of their own
      -- people (not their own role or services), never the organisation. The roles they give stay
      -- inside the organisation (its people can never be national), and the services only the
      -- organisation's own: a person's service decides which rules and courses reach them.
      if v_org is not null and old.organisation_id = v_org then
        if new.organisation_id is distinct from old.organisation_id then
          raise exception 'Only a national administrator may change a person''s organisation'
            using errcode = '42501';
        end if;
        if new.id = (select auth.uid())
           and (new.role is distinct from old.role or new.services is distinct from old.services) then
          raise exception 'You cannot change your own role or services' using errcode = '42501';
        end if;
        if new.services is distinct from old.services
           and not (new.services <@ array(select o.service from public.organisations o where o.id = v_org)) then
          raise exception 'An organisation''s administrator may give only their organisation''s service'
            using errcode = '42501', hint = 'services';
        end if;
      elsif new.role is distinct from old.role
         or new.services is distinct from old.services
         or new.username is distinct from old.username
         or new.organisation_id is distinct from old.organisation_id
         or new.unit_id is distinct from old.unit_id
         or new.manager_id is distinct from old.manager_id then
        raise exception 'Only an administrator may change role, services or username'
          using errcode = '42501';
      end if;
    end if;
  end if;
  return new;
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

  -- An organisation's administrator gives only their organisation's service (as on a person's page).
  if not v_national then
    update private.user_import_rows s
    set problem_field = 'services', problem = 'You can give only your organisation''s service'
    where s.batch_id = v_batch
      and not (s.services <@ array(select o.service from public.organisations o where o.id = v_org));
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

CREATE OR REPLACE FUNCTION private.learner_ids_of_authored_courses()
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_org uuid := private.current_organisation_id();
begin
  if v_org is null then
    return query
      select e.user_id from public.courses c
      join public.enrollments e on e.course_id = c.id
      where c.author_id = (select auth.uid())
        and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN');
  else
    -- An author of an organisation sees only its people, whatever course they are on.
    return query
      select e.user_id from public.courses c
      join public.enrollments e on e.course_id = c.id
      join public.profiles p on p.id = e.user_id
      where c.author_id = (select auth.uid())
        and (select private.current_role()) in ('INSTRUCTOR', 'ADMIN')
        and p.organisation_id = v_org;
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION private.manages_required_training (
  p_course_id       uuid,
  p_service         public.service_code,
  p_organisation_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return (
    select coalesce(
      private.is_admin()
      or (
        p_organisation_id is not null
        and p_organisation_id = private.administered_organisation_id()
        and exists (
          select 1 from public.courses c
          where c.id = p_course_id and (c.organisation_id is null or c.organisation_id = p_organisation_id)
        )
      )
      or (
        private.current_role() = 'INSTRUCTOR'
        and p_course_id in (select private.authored_course_ids())
        and p_service in (select unnest(private.current_services()))
        and p_organisation_id is not distinct from private.current_organisation_id()
      ),
      false)
  );
end;
$function$;

CREATE OR REPLACE FUNCTION private.prepare_course()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.prepare_required_training()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
declare
  v_course_organisation uuid;
  v_my_organisation uuid;
begin
  if tg_op = 'INSERT' and current_user in ('anon', 'authenticated') then
    new.created_by := (select auth.uid());
  end if;
  if tg_op = 'INSERT' and not exists (
    select 1 from public.courses c where c.id = new.course_id and c.status = 'ACTIVE'
  ) then
    raise exception 'Only a published course can be required' using errcode = '22023';
  end if;
  select c.organisation_id into v_course_organisation from public.courses c where c.id = new.course_id;
  if v_course_organisation is not null and new.organisation_id is distinct from v_course_organisation then
    raise exception 'A course of an organisation can be required only in that organisation'
      using errcode = '22023', hint = 'organisation_id';
  end if;
  -- A rule made by a person of an organisation (not a national admin) is of that organisation: a
  -- national rule reaches every organisation's people and is made by national people only.
  if current_user in ('anon', 'authenticated') and not private.is_admin() then
    v_my_organisation := private.current_organisation_id();
    if v_my_organisation is not null and new.organisation_id is distinct from v_my_organisation then
      raise exception 'A rule you make is of your own organisation'
        using errcode = '42501', hint = 'organisation_id';
    end if;
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.rate_limit_take (
  p_action  text,
  p_account text,
  p_address text,
  p_device  text                DEFAULT NULL::text,
  OUT       retry_after integer,
  OUT       ticket bigint
)
  RETURNS record
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_window interval;
  v_account text := left(nullif(lower(btrim(coalesce(p_account, ''))), ''), 320);
  v_address text := left(btrim(coalesce(p_address, '')), 100);
  v_device text;
  v_wait integer := 0;

  -- Seconds until the oldest of `limit` counted rows leaves the window; 0 below the limit.
  v_count integer;
  v_oldest timestamptz;
begin
  case p_action
    when 'sign_in' then v_window := interval '15 minutes';
    when 'register' then v_window := interval '1 hour';
    when 'notifications' then v_window := interval '10 minutes';
    else raise exception 'Unknown rate-limited action %', p_action using errcode = '22023';
  end case;

  -- A known device counts on its own (sign-in only).
  if p_action = 'sign_in' and v_account is not null and p_device ~ '^[0-9a-f]{64}$' then
    select d.device_hash into v_device from private.sign_in_devices d
    where d.device_hash = p_device and d.account = v_account and d.last_seen_at > now() - interval '90 days';
  end if;

  -- One lock per subject, always account before address: parallel attempts queue here.
  if v_account is not null then
    perform pg_advisory_xact_lock(hashtextextended('rate_limit:' || p_action || ':account:' || v_account, 0));
  end if;
  if v_device is null and p_action <> 'notifications' then
    perform pg_advisory_xact_lock(hashtextextended('rate_limit:' || p_action || ':address:' || v_address, 0));
  end if;

  if p_action = 'notifications' then
    -- 60 writes in 10 minutes per person, whatever the address.
    if v_account is null then
      raise exception 'A person is required' using errcode = '22023';
    end if;
    select count(*), min(a.attempted_at) into v_count, v_oldest from private.rate_limit_attempts a
    where a.action = p_action and a.account = v_account and a.attempted_at > now() - v_window;
    if v_count >= 60 then v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer); end if;
  elsif v_device is not null then
    select count(*), min(a.attempted_at) into v_count, v_oldest from private.rate_limit_attempts a
    where a.action = p_action and a.account = v_account and a.device = v_device and a.attempted_at > now() - v_window;
    if v_count >= 5 then v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer); end if;
  else
    if v_account is not null then
      if p_action = 'sign_in' then
        -- 5 per (account, address) ...
        select count(*), min(a.attempted_at) into v_count, v_oldest from private.rate_limit_attempts a
        where a.action = p_action and a.account = v_account and a.address = v_address and a.device is null
          and a.attempted_at > now() - v_window;
        if v_count >= 5 then v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer); end if;
        -- ... and 20 per account from every address that is not a known device.
        select count(*), min(a.attempted_at) into v_count, v_oldest from private.rate_limit_attempts a
        where a.action = p_action and a.account = v_account and a.device is null and a.attempted_at > now() - v_window;
        if v_count >= 20 then v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer); end if;
      else
        select count(*), min(a.attempted_at) into v_count, v_oldest from private.rate_limit_attempts a
        where a.action = p_action and a.account = v_account and a.attempted_at > now() - v_window;
        if v_count >= 5 then v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer); end if;
      end if;
    end if;
    select count(*), min(a.attempted_at) into v_count, v_oldest from private.rate_limit_attempts a
    where a.action = p_action and a.address = v_address and a.device is null and a.attempted_at > now() - v_window;
    if v_count >= (case p_action when 'sign_in' then 50 else 20 end) then
      v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer);
    end if;
  end if;

  delete from private.rate_limit_attempts a where a.attempted_at < now() - interval '1 hour';

  if v_wait > 0 then
    retry_after := greatest(v_wait, 1);
    ticket := null;
    return;
  end if;
  insert into private.rate_limit_attempts (action, account, address, device)
  values (p_action, v_account, v_address, v_device)
  returning id into ticket;
  retry_after := 0;
end;
$function$;

CREATE OR REPLACE FUNCTION private.unit_subtree (
  p_unit_id uuid
)
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 20
  SET search_path TO ''
  AS $function$
begin
  return query
    with recursive tree(id) as (
      select u.id from public.units u
      where u.id = p_unit_id
        and ((select auth.uid()) is null or u.organisation_id = private.current_organisation_id()
             or private.is_admin() or private.compliance_refresh_running())
      union
      select u.id from tree t join public.units u on u.parent_id = t.id
    )
    select t.id from tree t;
end;
$function$;

ALTER TABLE "private"."rate_limit_attempts"
  ADD CONSTRAINT "rate_limit_attempts_action_check" CHECK ((action = ANY (ARRAY['sign_in'::text, 'register'::text, 'notifications'::text])));

CREATE TRIGGER courses_prepare
  BEFORE INSERT OR UPDATE OF author_id, organisation_id ON public.courses
  FOR EACH ROW
  EXECUTE FUNCTION private.prepare_course();

CREATE TRIGGER enrollments_organisation
  BEFORE INSERT OR UPDATE OF user_id, course_id ON public.enrollments
  FOR EACH ROW
  EXECUTE FUNCTION private.check_enrolment_organisation();

CREATE POLICY "authors update their own courses and admins any" ON "public"."courses"
  FOR UPDATE
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR ((author_id = ( SELECT auth.uid() AS uid)) AND (( SELECT private."current_role"() AS "current_role") =
    'INSTRUCTOR'::public.user_role) AND ((organisation_id IS NULL) OR (organisation_id = ( SELECT private.current_organisation_id() AS current_organisation_id)))) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))))
  WITH
    CHECK
    ((( SELECT private.is_admin() AS is_admin) OR ((( SELECT private."current_role"() AS "current_role") = 'INSTRUCTOR'::public.user_role) AND (author_id = ( SELECT auth.uid() AS
    uid)) AND (service IN ( SELECT unnest(private.current_services()) AS unnest)) AND
    (NOT (organisation_id IS DISTINCT FROM ( SELECT private.current_organisation_id() AS current_organisation_id)))) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "instructors create courses in their services and admins any" ON "public"."courses"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    ((( SELECT private.is_admin() AS is_admin) OR ((( SELECT private."current_role"() AS "current_role") = 'INSTRUCTOR'::public.user_role) AND (author_id = ( SELECT auth.uid() AS
    uid)) AND (service IN ( SELECT unnest(private.current_services()) AS unnest)) AND
    (NOT (organisation_id IS DISTINCT FROM ( SELECT private.current_organisation_id() AS current_organisation_id)))) OR
    (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

COMMENT ON FUNCTION "private"."auto_enrol_new_user"() IS 'After-insert trigger on profiles: with auto_enrollment on, enrols the new user in every featured published course they can see (national, or of their organisation).';

COMMENT ON FUNCTION "private"."check_enrolment_organisation"() IS 'Before insert or update of user_id / course_id on enrollments: a course of an organisation enrols only people of that organisation (42501, hint organisation_id).';

COMMENT ON FUNCTION "private"."guard_profile_update"() IS 'Before-update trigger on profiles: a non-admin API caller may not change role, services, username, organisation, unit or manager (42501); an organisation administrator may change those of their own people but not the organisation, nor their own role or services, and gives only the organisation''s service (42501, hint services); nobody changes their own organisation, unit or manager.';

COMMENT ON FUNCTION "private"."learner_ids_of_authored_courses"() IS 'Users enrolled on the courses the caller authors (of the caller''s organisation only, when they have one).';

COMMENT ON FUNCTION "private"."manages_required_training"(uuid, public.service_code, uuid) IS 'True when the caller may manage a required_training rule of this course, service and organisation (national admin: any; organisation admin: their organisation''s, for a course it can see; instructor: own course, own service, of their own organisation, national only for a national instructor).';

COMMENT ON FUNCTION "private"."prepare_course"() IS 'Before insert or update on courses, for API callers: a course made by a person of an organisation (not a national admin) is of that organisation; the author belongs to the course''s organisation, or to none for a national course (42501, hint author_id).';

COMMENT ON FUNCTION "private"."prepare_required_training"() IS 'Before-insert/update trigger on required_training: the course must be published (22023) and, for an organisation''s course, the rule of that organisation (22023); a rule an API caller of an organisation makes is of that organisation (42501, hint organisation_id; not for a national admin); created_by is the API caller.';

COMMENT ON FUNCTION "private"."rate_limit_take"(text, text, text, text) IS 'Counts and records a sign_in, register or notifications (a person''s notice and preference writes: 60 in 10 minutes) attempt atomically; retry_after > 0 when a limit is reached. p_device: sha256 hex of the browser''s known-device token.';

COMMENT ON FUNCTION "private"."unit_subtree"(uuid) IS 'The unit and every unit below it (none for an unknown unit, nor for a unit of another organisation than the signed-in caller''s unless they are a national admin).';

COMMENT ON TABLE "private"."rate_limit_attempts" IS 'Counted sign-in and registration attempts and notification writes (see private.rate_limit_take). Only the private functions touch it.';

REVOKE ALL ON FUNCTION "private"."check_enrolment_organisation"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."check_enrolment_organisation"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."prepare_course"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."prepare_course"() TO "postgres";
