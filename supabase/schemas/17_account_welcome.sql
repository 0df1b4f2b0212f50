-- The welcome notice: a person an administrator adds (POST /api/users) or imports
-- (private.import_users) is born with must_change_password (01_profiles_and_settings.sql); in the
-- same transaction that writes their profile, an 'account-welcome' notice goes into the outbox
-- (public.notifications, 15_notifications.sql). Delivery asks Auth for a recovery link
-- (POST /auth/v1/admin/generate_link) when it sends the email, so the email carries a fresh
-- link to choose a password; the temporary password the administrator was shown stays a fallback.
-- A welcome cannot be switched off: the kind is not among the preferences' switchable kinds.
-- People who register themselves chose their password and get no welcome.

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

create function private.write_account_welcome()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.notifications (recipient_id, kind, person_id, occasion, title, body, data, link_path)
  select n.id, 'account-welcome', n.id, (now() at time zone 'Europe/London')::date,
         'Welcome to ' || s.site_name,
         'Your account has been created. Use the link in the email we sent to choose your password.',
         jsonb_build_object('siteName', s.site_name, 'username', n.username, 'name', n.name),
         null
  from new_rows n
  cross join (select st.site_name from public.settings st where st.id) s
  where n.must_change_password
  on conflict on constraint notifications_once do nothing;
  return null;
end;
$$;
comment on function private.write_account_welcome() is
  'After-insert statement trigger on profiles: an ''account-welcome'' notice for each new person born with must_change_password (added by an administrator or imported), in the transaction that creates them.';
revoke all on function private.write_account_welcome() from public;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger profiles_account_welcome
  after insert on public.profiles
  referencing new table as new_rows
  for each statement execute function private.write_account_welcome();
