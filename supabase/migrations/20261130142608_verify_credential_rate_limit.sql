-- verify_credential_rate_limit: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

ALTER TABLE "private"."rate_limit_attempts"
  DROP CONSTRAINT "rate_limit_attempts_action_check";

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
$function$;

ALTER TABLE "private"."rate_limit_attempts"
  ADD CONSTRAINT "rate_limit_attempts_action_check" CHECK ((action = ANY (ARRAY['sign_in'::text, 'register'::text, 'notifications'::text, 'verify_credential'::text])));

COMMENT ON FUNCTION "private"."rate_limit_take"(text, text, text, text) IS 'Counts and records a sign_in, register, notifications (a person''s notice and preference writes: 60 in 10 minutes) or verify_credential (public credential verifications: 30 in 10 minutes per address) attempt atomically; retry_after > 0 when a limit is reached. p_device: sha256 hex of the browser''s known-device token.';

COMMENT ON TABLE "private"."rate_limit_attempts" IS 'Counted sign-in and registration attempts, notification writes and credential verifications (see private.rate_limit_take). Only the private functions touch it.';
