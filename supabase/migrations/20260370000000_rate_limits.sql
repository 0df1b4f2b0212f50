-- Rate limits for sign-in and registration, kept in the database so they hold across every
-- instance of the api function. Replaces private.sign_in_attempts and its two functions (which
-- checked and recorded in two steps, so a burst of parallel guesses could all pass the check).
--
-- Rules (window, per account / per client address):
--   sign_in   15 minutes: 5 failures per account (username, lowercased), 50 failures per address.
--             An attempt is recorded before the password is checked and removed again when it
--             succeeds, so only failures (and attempts still in flight) count; a success also clears
--             that account's failures.
--   register  1 hour: 5 attempts per account (email, lowercased), 20 attempts per address.
-- The address is the one the gateway put in X-Forwarded-For ('' when unknown).
--
-- private.rate_limit_take counts and records in one call under an advisory lock per subject, so
-- parallel requests cannot overshoot; it prunes rows older than the longest window as it goes.

drop function if exists private.sign_in_blocked(text, text);
drop function if exists private.record_sign_in_attempt(text, text, boolean);
drop table if exists private.sign_in_attempts;

create table private.rate_limit_attempts (
  id bigint generated always as identity primary key,
  action text not null check (action in ('sign_in', 'register')),
  account text check (account is null or length(account) <= 320),
  address text not null default '' check (length(address) <= 100),
  attempted_at timestamptz not null default now()
);
comment on table private.rate_limit_attempts is
  'Counted sign-in and registration attempts (see private.rate_limit_take). Only the private functions touch it.';

create index rate_limit_attempts_account_idx on private.rate_limit_attempts (action, account, attempted_at)
  where account is not null;
create index rate_limit_attempts_address_idx on private.rate_limit_attempts (action, address, attempted_at);
create index rate_limit_attempts_time_idx on private.rate_limit_attempts (attempted_at);

-- RLS on and a policy that admits no row: no API role may read or write one, even if a grant were
-- added by mistake. Only the security definer functions below (owned by the table's owner) touch it.
alter table private.rate_limit_attempts enable row level security;
create policy "no direct access" on private.rate_limit_attempts as restrictive for all to public
  using (false) with check (false);
revoke all on private.rate_limit_attempts from public, anon, authenticated, service_role;

-- Counts and records one attempt. retry_after = 0: allowed, recorded as `ticket`; retry_after > 0:
-- refused (nothing recorded), try again in that many seconds.
create function private.rate_limit_take(p_action text, p_account text, p_address text,
  out retry_after integer, out ticket bigint)
language plpgsql security definer
set search_path = ''
as $$
declare
  v_window interval;
  v_account_limit integer;
  v_address_limit integer;
  v_account text := nullif(lower(btrim(coalesce(p_account, ''))), '');
  v_address text := left(btrim(coalesce(p_address, '')), 100);
  v_count integer;
  v_oldest timestamptz;
  v_wait integer := 0;
begin
  case p_action
    when 'sign_in' then v_window := interval '15 minutes'; v_account_limit := 5; v_address_limit := 50;
    when 'register' then v_window := interval '1 hour'; v_account_limit := 5; v_address_limit := 20;
    else raise exception 'Unknown rate-limited action %', p_action using errcode = '22023';
  end case;
  v_account := left(v_account, 320);

  -- One lock per subject, always account before address: parallel attempts queue here.
  if v_account is not null then
    perform pg_advisory_xact_lock(hashtextextended('rate_limit:' || p_action || ':account:' || v_account, 0));
  end if;
  perform pg_advisory_xact_lock(hashtextextended('rate_limit:' || p_action || ':address:' || v_address, 0));

  if v_account is not null then
    select count(*), min(a.attempted_at) into v_count, v_oldest
    from private.rate_limit_attempts a
    where a.action = p_action and a.account = v_account and a.attempted_at > now() - v_window;
    if v_count >= v_account_limit then
      v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer);
    end if;
  end if;

  select count(*), min(a.attempted_at) into v_count, v_oldest
  from private.rate_limit_attempts a
  where a.action = p_action and a.address = v_address and a.attempted_at > now() - v_window;
  if v_count >= v_address_limit then
    v_wait := greatest(v_wait, ceil(extract(epoch from (v_oldest + v_window - now())))::integer);
  end if;

  delete from private.rate_limit_attempts a where a.attempted_at < now() - interval '1 hour';

  if v_wait > 0 then
    retry_after := greatest(v_wait, 1);
    ticket := null;
    return;
  end if;
  insert into private.rate_limit_attempts (action, account, address)
  values (p_action, v_account, v_address)
  returning id into ticket;
  retry_after := 0;
end;
$$;
comment on function private.rate_limit_take(text, text, text) is
  'Counts and records a sign_in or register attempt atomically; retry_after > 0 when a limit is reached.';

-- A successful sign-in: its attempt no longer counts, and neither do that account's failures.
create function private.rate_limit_succeeded(p_ticket bigint) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row private.rate_limit_attempts;
begin
  delete from private.rate_limit_attempts a where a.id = p_ticket returning * into v_row;
  if v_row.action = 'sign_in' and v_row.account is not null then
    delete from private.rate_limit_attempts a where a.action = 'sign_in' and a.account = v_row.account;
  end if;
end;
$$;
comment on function private.rate_limit_succeeded(bigint) is
  'Removes a successful sign-in''s attempt and clears that account''s sign-in failures.';

revoke all on function private.rate_limit_take(text, text, text), private.rate_limit_succeeded(bigint)
  from public, anon, authenticated;
grant execute on function private.rate_limit_take(text, text, text), private.rate_limit_succeeded(bigint)
  to service_role;
