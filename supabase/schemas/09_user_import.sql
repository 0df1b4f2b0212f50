-- Bulk user import by admins: the CSV's rows are staged in private.user_import_rows, checked for
-- clashes with existing usernames and emails, then private.import_users creates the Auth users
-- and profiles in one transaction. The staging table is not readable by any API role.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table private.user_import_rows (
  user_id uuid primary key,
  batch_id uuid not null,
  line integer not null,
  username text not null,
  email text not null,
  name text not null,
  role public.user_role not null,
  services public.service_code[] not null,
  organisation_id uuid,
  unit_id uuid,
  manager text,
  problem_field text,
  problem text
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table private.user_import_rows is
  'Rows of the user import in progress, inside private.import_users''s transaction only (deleted before it returns).';

comment on column private.user_import_rows.manager is
  'The username or email (lowercased) of the row''s line manager: a person of the row''s organisation, or another row of the same call.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index user_import_rows_batch_idx on private.user_import_rows (batch_id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table private.user_import_rows enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- No API role has any privilege on it either; the policy says so explicitly (and keeps the advisors quiet).
create policy "no API role reads import staging rows"
  on private.user_import_rows for select to anon, authenticated
  using (false);

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.user_import_clashes(p_usernames text[], p_emails text[])
returns table(field text, value text)
language plpgsql stable security definer
set search_path = ''
as $$
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
$$;
comment on function private.user_import_clashes(text[],text[]) is
  'Admins (national or of an organisation: usernames and emails are unique across the platform): which of these usernames and emails (compared lowercased) are already taken; one statement for a whole import file.';
revoke all on function private.user_import_clashes(text[],text[]) from public;
grant execute on function private.user_import_clashes(text[],text[]) to authenticated;

create function private.import_users(p_import_id uuid, p_part integer, p_rows jsonb)
returns table(line integer, user_id uuid, field text, problem text)
language plpgsql security definer
set search_path = ''
as $$
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
$$;
comment on function private.import_users(uuid,integer,jsonb) is
  'Admins: creates the Auth users of up to 1,000 rows [{line, username, email, name, role, services, password, organisation_id?, unit_id?, manager?}] in one transaction, placed in their organisation and unit and given their manager (username or email of a person of the organisation or of another row); returns each line with the new user id, or the field and reason it was skipped. An organisation''s administrator imports into their own organisation only (42501 otherwise; a row without one is theirs).';
revoke all on function private.import_users(uuid,integer,jsonb) from public;
grant execute on function private.import_users(uuid,integer,jsonb) to authenticated;
