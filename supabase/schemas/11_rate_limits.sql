-- Sign-in and registration limits, counted per account and per address across every instance of
-- the api function, a person's writes to their notices and notification preferences (per
-- person only: a station's people share one address), and the public credential verifier's
-- requests (per address only: it checks proofs and canonicalises documents for anyone). A device that has signed in to an account before is remembered (by a hash of
-- its token) so that an attacker's failures do not lock the owner out. Only the service role uses
-- these tables, through the two functions below.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table private.rate_limit_attempts (
  id bigint generated always as identity primary key,
  action text not null check (action in ('sign_in', 'register', 'notifications', 'verify_credential')),
  account text check (account is null or length(account) <= 320),
  address text not null default '' check (length(address) <= 100),
  attempted_at timestamptz not null default now(),
  device text check (device is null or device ~ '^[0-9a-f]{64}$')
);

create table private.sign_in_devices (
  device_hash text not null check (device_hash ~ '^[0-9a-f]{64}$'),
  account text not null check (length(account) <= 320),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  primary key (device_hash, account)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table private.rate_limit_attempts is
  'Counted sign-in and registration attempts, notification writes and credential verifications (see private.rate_limit_take). Only the private functions touch it.';

comment on column private.rate_limit_attempts.device is
  'sha256 (hex) of the known-device token the attempt came with, when it was valid for the account.';

comment on table private.sign_in_devices is
  'Browsers where an account has signed in successfully: sha256 of the device token the function gave them, per account (lowercased email). Known for 90 days after the last success.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index rate_limit_attempts_account_idx on private.rate_limit_attempts (action, account, attempted_at)
  where account is not null;

create index rate_limit_attempts_address_idx on private.rate_limit_attempts (action, address, attempted_at);

create index rate_limit_attempts_time_idx on private.rate_limit_attempts (attempted_at);

create index rate_limit_attempts_device_idx on private.rate_limit_attempts (action, account, device, attempted_at)
  where device is not null;

create index sign_in_devices_seen_idx on private.sign_in_devices (last_seen_at);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table private.rate_limit_attempts enable row level security;

alter table private.sign_in_devices enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "no direct access" on private.rate_limit_attempts as restrictive for all to public
  using (false) with check (false);

create policy "no direct access" on private.sign_in_devices as restrictive for all to public
  using (false) with check (false);

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.rate_limit_take(
  p_action text,
  p_account text,
  p_address text,
  p_device text default NULL::text,
  OUT retry_after integer,
  OUT ticket bigint
)
returns record
language plpgsql security definer
set search_path = ''
as $$
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
    when 'verify_credential' then v_window := interval '10 minutes';
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
    -- Per address: 50 sign-ins in 15 minutes, 20 sign-ups in an hour, 30 credential
    -- verifications in 10 minutes.
    if v_count >= (case p_action when 'sign_in' then 50 when 'verify_credential' then 30 else 20 end) then
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
$$;
comment on function private.rate_limit_take(text,text,text,text) is
  'Counts and records a sign_in, register, notifications (a person''s notice and preference writes: 60 in 10 minutes) or verify_credential (public credential verifications: 30 in 10 minutes per address) attempt atomically; retry_after > 0 when a limit is reached. p_device: sha256 hex of the browser''s known-device token.';
revoke all on function private.rate_limit_take(text,text,text,text) from public;
grant execute on function private.rate_limit_take(text,text,text,text) to service_role;

-- A successful sign-in: its attempt no longer counts, nor do that account's failures, and the
-- browser's device token (sha256 hex) becomes known for the account.
create function private.rate_limit_succeeded(p_ticket bigint, p_device text default NULL::text)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row private.rate_limit_attempts;
begin
  delete from private.rate_limit_attempts a where a.id = p_ticket returning * into v_row;
  if v_row.action = 'sign_in' and v_row.account is not null then
    delete from private.rate_limit_attempts a where a.action = 'sign_in' and a.account = v_row.account;
    if p_device ~ '^[0-9a-f]{64}$' then
      insert into private.sign_in_devices (device_hash, account) values (p_device, v_row.account)
      on conflict (device_hash, account) do update set last_seen_at = now();
    end if;
  end if;
  delete from private.sign_in_devices d where d.last_seen_at < now() - interval '90 days';
end;
$$;
comment on function private.rate_limit_succeeded(bigint,text) is
  'Removes a successful sign-in''s attempt, clears that account''s sign-in failures and remembers the browser''s device token for the account.';
revoke all on function private.rate_limit_succeeded(bigint,text) from public;
grant execute on function private.rate_limit_succeeded(bigint,text) to service_role;
