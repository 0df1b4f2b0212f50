-- What the api function needs around sign-in (docs/CONTRACTS.md "SQL the function relies on"):
-- resolving a username or email to the sign-in email, availability checks for registration, and
-- throttling of failed sign-ins (>= 5 failures for a username or >= 20 from an ip in 15 minutes).
-- All are security definer and executable by the service role only.

create table private.sign_in_attempts (
  id bigint generated always as identity primary key,
  username text not null,
  ip text not null default '',
  succeeded boolean not null,
  attempted_at timestamptz not null default now()
);
comment on table private.sign_in_attempts is 'Recent sign-in attempts, for throttling. username is stored lowercased.';

create index sign_in_attempts_username_time_idx on private.sign_in_attempts (username, attempted_at) where not succeeded;
create index sign_in_attempts_ip_time_idx on private.sign_in_attempts (ip, attempted_at) where not succeeded;
create index sign_in_attempts_time_idx on private.sign_in_attempts (attempted_at);

-- Not exposed by the API and no privileges for the API roles: only the functions below touch it.
revoke all on private.sign_in_attempts from public, anon, authenticated;

create function private.login_email(p_identifier text) returns text
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select u.email from public.profiles p join auth.users u on u.id = p.id
      where lower(p.username) = lower(btrim(p_identifier)) limit 1),
    (select u.email from auth.users u
      where lower(u.email) = lower(btrim(p_identifier)) limit 1)
  )
$$;
comment on function private.login_email(text) is 'The sign-in email for a username (case-insensitive) or an email; null when none.';

create function private.username_taken(p_username text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from public.profiles p where lower(p.username) = lower(btrim(p_username)))
$$;
comment on function private.username_taken(text) is 'True when a profile already has this username, ignoring case.';

create function private.email_taken(p_email text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from auth.users u where lower(u.email) = lower(btrim(p_email)))
      or exists (select 1 from public.profiles p where lower(p.email) = lower(btrim(p_email)))
$$;
comment on function private.email_taken(text) is 'True when a user already has this email, ignoring case.';

create function private.sign_in_blocked(p_username text, p_ip text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select (
      select count(*) from private.sign_in_attempts a
      where a.username = lower(btrim(p_username)) and not a.succeeded
        and a.attempted_at > now() - interval '15 minutes'
    ) >= 5
    or (
      select count(*) from private.sign_in_attempts a
      where a.ip = coalesce(p_ip, '') and not a.succeeded
        and a.attempted_at > now() - interval '15 minutes'
    ) >= 20
$$;
comment on function private.sign_in_blocked(text, text) is
  'True when the username has >= 5 failed sign-ins, or the ip >= 20, in the last 15 minutes.';

create function private.record_sign_in_attempt(p_username text, p_ip text, p_succeeded boolean) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if p_succeeded then
    delete from private.sign_in_attempts a
    where a.username = lower(btrim(p_username)) and not a.succeeded;
  else
    insert into private.sign_in_attempts (username, ip, succeeded)
    values (lower(btrim(p_username)), coalesce(p_ip, ''), false);
  end if;
  -- Keep the table small: nothing older than a day matters.
  delete from private.sign_in_attempts a where a.attempted_at < now() - interval '1 day';
end;
$$;
comment on function private.record_sign_in_attempt(text, text, boolean) is
  'Records a failed sign-in; a success clears that username''s failures.';

revoke all on function private.login_email(text), private.username_taken(text), private.email_taken(text),
  private.sign_in_blocked(text, text), private.record_sign_in_attempt(text, text, boolean)
  from public, anon, authenticated;
grant execute on function private.login_email(text), private.username_taken(text), private.email_taken(text),
  private.sign_in_blocked(text, text), private.record_sign_in_attempt(text, text, boolean)
  to service_role;
