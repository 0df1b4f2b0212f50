-- Organisations, their units and line managers.
--
-- * organisations: a police force, an ambulance trust...: a name, a short code (unique whatever its
--   case) and a service (its sector). Created and changed by national administrators only.
-- * units: a tree inside one organisation (area -> station -> watch, or directorate -> team), of
--   any depth; a unit's parent is of the same organisation (the composite foreign key) and the tree
--   has no cycle (private.check_unit_tree).
-- * profiles.organisation_id / unit_id / manager_id (columns in 01_profiles_and_settings.sql): a
--   person's unit is of their organisation (the composite foreign key below), their manager too,
--   never themselves and never one of their own reports (private.check_profile_placement).
-- * courses.organisation_id (02_courses_and_modules.sql): null for a national course.
--
-- Who is who: an ADMIN without an organisation is national (private.is_admin: everything, as
-- before organisations); an ADMIN with one administers only its people
-- (private.administered_organisation_id); anyone with reports is a manager
-- (private.managed_person_ids). The helpers are in 00_foundations_and_roles.sql.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.organisations (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  code text not null,
  service public.service_code not null,
  created_at timestamptz not null default now(),
  constraint organisations_name_length check (char_length(btrim(name)) between 1 and 200),
  constraint organisations_name_visible check (not private.has_invisible_characters(name) and name = btrim(name)),
  constraint organisations_code_pattern check (code ~ '^[A-Za-z0-9-]{2,16}$')
);

create table public.units (
  id uuid primary key default gen_random_uuid(),
  organisation_id uuid not null references public.organisations (id) on delete cascade,
  parent_id uuid,
  name text not null,
  created_at timestamptz not null default now(),
  constraint units_id_organisation_key unique (id, organisation_id),
  constraint units_parent_same_organisation foreign key (parent_id, organisation_id)
    references public.units (id, organisation_id),
  constraint units_not_own_parent check (parent_id is null or parent_id <> id),
  constraint units_name_length check (char_length(btrim(name)) between 1 and 200),
  constraint units_name_visible check (not private.has_invisible_characters(name) and name = btrim(name))
);

-- The people's and courses' links (their columns are in the files that own the tables).
alter table public.profiles
  add constraint profiles_organisation_id_fkey foreign key (organisation_id)
    references public.organisations (id);

alter table public.profiles
  add constraint profiles_unit_same_organisation foreign key (unit_id, organisation_id)
    references public.units (id, organisation_id);

alter table public.profiles
  add constraint profiles_manager_id_fkey foreign key (manager_id)
    references public.profiles (id) on delete set null;

alter table public.courses
  add constraint courses_organisation_id_fkey foreign key (organisation_id)
    references public.organisations (id);

-- A required-training rule of an organisation, and of one of its units (columns in
-- 07_mandatory_training_and_compliance.sql): it goes with its organisation or unit.
alter table public.required_training
  add constraint required_training_organisation_id_fkey foreign key (organisation_id)
    references public.organisations (id) on delete cascade;

alter table public.required_training
  add constraint required_training_unit_same_organisation foreign key (unit_id, organisation_id)
    references public.units (id, organisation_id) on delete cascade;

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.organisations is
  'A body that uses the platform (a police force, an ambulance trust...): its people see its courses and national ones; its administrators see only its people.';

comment on column public.organisations.code is
  'Short code, 2 to 16 letters, digits or dashes, unique ignoring case.';

comment on column public.organisations.service is
  'The organisation''s sector, one of the six services.';

comment on table public.units is
  'A unit of an organisation (area, station, watch, team...): a tree of any depth, parent in the same organisation, no cycle.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create unique index organisations_code_lower_key on public.organisations (lower(code));

create index units_organisation_idx on public.units (organisation_id);

create index units_parent_idx on public.units (parent_id, organisation_id) where parent_id is not null;

-- Two units of one parent (or two top-level units of one organisation) do not share a name.
create unique index units_name_key on public.units
  (organisation_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.organisations enable row level security;

alter table public.units enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "people read their organisation, national admins all"
  on public.organisations for select to authenticated
  using ((select private.is_admin()) or id = (select private.current_organisation_id()));

create policy "national admins create organisations"
  on public.organisations for insert to authenticated
  with check ((select private.is_admin()));

create policy "national admins change organisations"
  on public.organisations for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy "national admins delete organisations"
  on public.organisations for delete to authenticated
  using ((select private.is_admin()));

create policy "people read their organisation's units, national admins all"
  on public.units for select to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.current_organisation_id()));

create policy "organisation admins add their units, national admins any"
  on public.units for insert to authenticated
  with check ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "organisation admins change their units, national admins any"
  on public.units for update to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()))
  with check ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

create policy "organisation admins delete their units, national admins any"
  on public.units for delete to authenticated
  using ((select private.is_admin()) or organisation_id = (select private.administered_organisation_id()));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.organisations from anon, authenticated, service_role;
grant select, delete on public.organisations to authenticated;
grant insert (name, code, service) on public.organisations to authenticated;
grant update (name, code, service) on public.organisations to authenticated;
grant all on public.organisations to service_role;

revoke all on public.units from anon, authenticated, service_role;
grant select, delete on public.units to authenticated;
grant insert (organisation_id, parent_id, name) on public.units to authenticated;
grant update (parent_id, name) on public.units to authenticated;
grant all on public.units to service_role;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- A unit stays in its organisation, and moving it never puts it below itself. The advisory lock per
-- organisation serialises two moves that would together make a cycle.
create function private.check_unit_tree()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.organisation_id <> old.organisation_id then
    raise exception 'A unit cannot move to another organisation' using errcode = '23514', hint = 'unit_organisation';
  end if;
  if new.parent_id is not null and (tg_op = 'INSERT' or new.parent_id is distinct from old.parent_id) then
    perform pg_advisory_xact_lock(hashtext('public.units tree ' || new.organisation_id::text));
    if new.parent_id in (select private.unit_subtree(new.id)) then
      raise exception 'A unit cannot be moved below itself' using errcode = '23514', hint = 'unit_cycle';
    end if;
  end if;
  return new;
end;
$$;
comment on function private.check_unit_tree() is
  'Before insert or update on units: the organisation never changes, and the parent is not the unit nor one below it (23514).';
revoke all on function private.check_unit_tree() from public;

-- A person's manager is of their organisation and is not one of their reports. A person who moves
-- to another organisation leaves their unit and manager (unless the same statement gives new ones)
-- and their reports lose them as manager (private.release_reports).
create function private.check_profile_placement()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_cycle boolean;
begin
  if tg_op = 'UPDATE' and new.organisation_id is distinct from old.organisation_id then
    if new.unit_id is not distinct from old.unit_id then
      new.unit_id := null;
    end if;
    if new.manager_id is not distinct from old.manager_id then
      new.manager_id := null;
    end if;
  end if;
  if new.manager_id is not null
     and (tg_op = 'INSERT' or new.manager_id is distinct from old.manager_id
          or new.organisation_id is distinct from old.organisation_id) then
    perform pg_advisory_xact_lock(hashtext('public.profiles managers ' || new.organisation_id::text));
    if not exists (select 1 from public.profiles m
                   where m.id = new.manager_id and m.organisation_id = new.organisation_id) then
      raise exception 'The manager must belong to the same organisation'
        using errcode = '23514', hint = 'manager_organisation';
    end if;
    with recursive chain(id, depth) as (
      select m.manager_id, 1 from public.profiles m where m.id = new.manager_id
      union all
      select m.manager_id, c.depth + 1 from chain c
      join public.profiles m on m.id = c.id
      where c.depth < 64
    )
    select exists (select 1 from chain c where c.id = new.id) into v_cycle;
    if v_cycle then
      raise exception 'A person cannot be managed by one of their own reports'
        using errcode = '23514', hint = 'manager_cycle';
    end if;
  end if;
  return new;
end;
$$;
comment on function private.check_profile_placement() is
  'Before insert or update on profiles: the manager is of the same organisation and not one of the person''s reports (23514); moving organisation clears the unit and manager unless new ones are given.';
revoke all on function private.check_profile_placement() from public;

create function private.release_reports()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.profiles p set manager_id = null
  where p.manager_id = new.id and p.organisation_id is distinct from new.organisation_id;
  return null;
end;
$$;
comment on function private.release_reports() is
  'After a person changes organisation: their reports (of the old organisation) no longer have them as manager.';
revoke all on function private.release_reports() from public;

-- The caller's own placement, for their profile and the app's menus: the names of their
-- organisation, unit and manager (a person cannot read their manager's profile row) and whether they
-- have reports (then they are a manager and have a "My team" page).
create function private.my_placement()
returns table(
  organisation_id uuid,
  organisation_name text,
  organisation_code text,
  unit_id uuid,
  unit_name text,
  manager_id uuid,
  manager_name text,
  has_reports boolean
)
language sql stable security definer
set search_path = ''
as $$
  select o.id, o.name, o.code, u.id, u.name, m.id, m.name,
         exists (select 1 from public.profiles r where r.manager_id = p.id)
  from public.profiles p
  left join public.organisations o on o.id = p.organisation_id
  left join public.units u on u.id = p.unit_id
  left join public.profiles m on m.id = p.manager_id
  where p.id = (select auth.uid())
$$;
comment on function private.my_placement() is
  'The caller''s organisation, unit and manager (ids and names) and whether anyone reports to them.';
revoke all on function private.my_placement() from public;
grant execute on function private.my_placement() to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger units_check_tree
  before insert or update on public.units
  for each row execute function private.check_unit_tree();

create trigger profiles_placement
  before insert or update on public.profiles
  for each row execute function private.check_profile_placement();

create trigger profiles_release_reports
  after update of organisation_id on public.profiles
  for each row when (new.organisation_id is distinct from old.organisation_id)
  execute function private.release_reports();
