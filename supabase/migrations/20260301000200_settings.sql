-- System settings (specification §3 Settings): one row, readable by everyone (the site name, footer
-- and course-access rule shape every screen) except admin_email, which only admins see, through
-- private.admin_email(). Column privileges hide admin_email; only admins write.

create table public.settings (
  id boolean primary key default true,
  site_name text not null default 'Emergency Services Learning v3',
  admin_email text not null default 'admin@emergency-services-learning.uk',
  course_access public.course_access not null default 'public-login',
  certificate_template public.certificate_template not null default 'standard',
  footer_text text not null default '© 2026 Emergency Services Learning. All rights reserved.',
  enable_analytics boolean not null default true,
  auto_enrollment boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint settings_single_row check (id),
  constraint settings_site_name_present check (char_length(btrim(site_name)) between 1 and 200),
  constraint settings_admin_email_shape check (admin_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$')
);
comment on table public.settings is 'The single row of system settings (id is always true).';
comment on column public.settings.id is 'Always true: the primary key allows one row only.';
comment on column public.settings.admin_email is 'Administrator contact; hidden from non-admins (column privilege), read via private.admin_email().';
comment on column public.settings.course_access is 'Who may browse and enrol: enforced by the course and enrolment policies.';
comment on column public.settings.certificate_template is 'Template used for certificates issued from now on.';
comment on column public.settings.auto_enrollment is 'When on, a newly registered user is enrolled in every featured published course.';
comment on column public.settings.enable_analytics is 'When off, analytics views say so instead of showing figures.';

insert into public.settings (id) values (true) on conflict (id) do nothing;

create trigger settings_set_updated_at
  before update on public.settings
  for each row execute function private.set_updated_at();

alter table public.settings enable row level security;

revoke select, insert, update, delete on public.settings from anon, authenticated;
grant select (id, site_name, course_access, certificate_template, footer_text, enable_analytics,
  auto_enrollment, created_at, updated_at) on public.settings to anon, authenticated;
grant update (site_name, admin_email, course_access, certificate_template, footer_text,
  enable_analytics, auto_enrollment) on public.settings to authenticated;

create policy "everyone reads the settings"
  on public.settings for select to anon
  using (true);

create policy "signed-in users read the settings"
  on public.settings for select to authenticated
  using (true);

create policy "admins update the settings"
  on public.settings for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create function private.course_access() returns public.course_access
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select s.course_access from public.settings s where s.id),
    'public-login'::public.course_access
  )
$$;
comment on function private.course_access() is 'The current course-access rule (public-login when no settings row).';
revoke all on function private.course_access() from public;
grant execute on function private.course_access() to anon, authenticated, service_role;

create function private.admin_email() returns text
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Only an administrator may read the admin email' using errcode = '42501';
  end if;
  return (select s.admin_email from public.settings s where s.id);
end;
$$;
comment on function private.admin_email() is 'settings.admin_email for admins; 42501 for anyone else (the service role reads the table directly).';
revoke all on function private.admin_email() from public;
grant execute on function private.admin_email() to authenticated;
