-- Each organisation's compliance summary and its people's status counts, kept: computed by THE status
-- rule (private.compliance_summary_rows) and computed again on the first read after the earliest
-- moment a status changes by time alone, or after a write noted a change for the organisation in
-- private.compliance_summary_changes. Writers add a change row under a shared advisory lock on the
-- organisation, which a refresh takes exclusively, so no change is missed; a change to
-- private.required_training_due_soon_days (a migration) must empty these tables. Why and what each
-- write must note: docs/decisions/kept-compliance-counts.md; the shape every kept count shares (the
-- _live functions, the check): docs/decisions/kept-counts.md.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table private.compliance_summary_scopes (
  organisation_id uuid primary key references public.organisations (id) on delete cascade,
  valid_until timestamptz not null,
  refreshed_at timestamptz not null default now()
);

create table private.compliance_summary_counts (
  -- A key of its own: the natural key's service is null on the all-services rows.
  id bigint generated always as identity primary key,
  organisation_id uuid not null references private.compliance_summary_scopes (organisation_id) on delete cascade,
  service public.service_code,
  course_id uuid not null,
  people bigint not null,
  compliant bigint not null,
  due_soon bigint not null,
  overdue bigint not null,
  in_progress bigint not null,
  constraint compliance_summary_counts_key unique nulls not distinct (organisation_id, service, course_id)
);

create table private.compliance_person_counts (
  organisation_id uuid not null references private.compliance_summary_scopes (organisation_id) on delete cascade,
  user_id uuid not null,
  overdue integer not null,
  due_soon integer not null,
  in_progress integer not null,
  done integer not null,
  constraint compliance_person_counts_pkey primary key (organisation_id, user_id)
);

-- The transaction (at most one row each, removed before it commits) refreshing kept data.
create table private.compliance_refreshes (
  transaction_id xid8 primary key
);

create table private.compliance_summary_changes (
  id bigint generated always as identity primary key,
  organisation_id uuid not null,
  noted_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table private.compliance_summary_scopes is
  'One row per organisation whose compliance summary is kept: until when it holds by time alone.';

comment on column private.compliance_summary_scopes.valid_until is
  'The earliest moment a counted status changes by time alone (infinity when none will).';

comment on table private.compliance_summary_counts is
  'An organisation''s compliance summary as private.compliance_summary_rows computed it (per service and required course); read by private.compliance_summary_of_organisation.';

comment on table private.compliance_person_counts is
  'Per person of an organisation with required training: how many courses are overdue, due soon, in progress, done (or recognised), as THE status rule worked them out at the organisation''s last refresh; read by private.team_status_counts.';

comment on table private.compliance_refreshes is
  'The transaction now refreshing an organisation''s kept data, for which THE status rule sees everyone (private.compliance_refresh_running); never committed.';

comment on table private.compliance_summary_changes is
  'Organisations whose kept summary a committed write may have changed: the next read computes it again.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index compliance_summary_changes_organisation_idx on private.compliance_summary_changes (organisation_id);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table private.compliance_summary_scopes enable row level security;

alter table private.compliance_summary_counts enable row level security;

alter table private.compliance_summary_changes enable row level security;

alter table private.compliance_person_counts enable row level security;

alter table private.compliance_refreshes enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- Read and written only by the functions below (security definer), after the caller's rights.
create policy "no direct access" on private.compliance_summary_scopes as restrictive for all to public
  using (false) with check (false);

create policy "no direct access" on private.compliance_summary_counts as restrictive for all to public
  using (false) with check (false);

create policy "no direct access" on private.compliance_summary_changes as restrictive for all to public
  using (false) with check (false);

create policy "no direct access" on private.compliance_person_counts as restrictive for all to public
  using (false) with check (false);

create policy "no direct access" on private.compliance_refreshes as restrictive for all to public
  using (false) with check (false);

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on private.compliance_summary_scopes from anon, authenticated, service_role;
revoke all on private.compliance_summary_counts from anon, authenticated, service_role;
revoke all on private.compliance_summary_changes from anon, authenticated, service_role;
revoke all on private.compliance_person_counts from anon, authenticated, service_role;
revoke all on private.compliance_refreshes from anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- Notes that the kept summaries of these organisations may have changed (null: every kept one).
create function private.note_compliance_change(p_organisations uuid[])
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_organisation uuid;
begin
  if p_organisations is null then
    -- every organisation, kept or not yet: a first refresh in flight is waited for as any other
    p_organisations := array(select o.id from public.organisations o);
  end if;
  foreach v_organisation in array p_organisations loop
    continue when v_organisation is null;
    -- held until commit: a refresh of this organisation waits for this write (and it for a refresh)
    perform pg_advisory_xact_lock_shared(hashtext('private.compliance_summary'), hashtext(v_organisation::text));
    -- After the lock (a statement of its own, so that it sees a refresh that has just committed; a
    -- transaction with one snapshot for all its statements would not, so it always notes).
    if current_setting('transaction_isolation') <> 'read committed'
       or exists (select 1 from private.compliance_summary_scopes s where s.organisation_id = v_organisation)
          and not exists (select 1 from private.compliance_summary_changes c where c.organisation_id = v_organisation) then
      insert into private.compliance_summary_changes (organisation_id) values (v_organisation);
    end if;
  end loop;
end;
$$;
comment on function private.note_compliance_change(uuid[]) is
  'For the triggers: notes a change to the kept compliance summaries of these organisations (null: all), under a shared lock that a refresh waits for.';
revoke all on function private.note_compliance_change(uuid[]) from public;

-- Enrolments and certificates (per statement): the organisations of their people.
create function private.note_compliance_change_of_people()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.note_compliance_change(array(
      select distinct p.organisation_id
      from new_rows n
      join public.profiles p on p.id = n.user_id
      where p.organisation_id is not null));
  end if;
  if tg_op in ('DELETE', 'UPDATE') then
    perform private.note_compliance_change(array(
      select distinct p.organisation_id
      from old_rows o
      join public.profiles p on p.id = o.user_id
      where p.organisation_id is not null));
  end if;
  return null;
end;
$$;
comment on function private.note_compliance_change_of_people() is
  'After insert / delete of enrollments or certificates (per statement): notes a change for the organisations of their people (of any course: a rule may be added to it at the same time).';
revoke all on function private.note_compliance_change_of_people() from public;

-- Enrolments and certificates, one row changed in what the status reads (rare: not progress).
create function private.note_compliance_change_of_row()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform private.note_compliance_change(array(
    select p.organisation_id from public.profiles p where p.id in (old.user_id, new.user_id)));
  return null;
end;
$$;
comment on function private.note_compliance_change_of_row() is
  'After update of an enrolment''s or certificate''s person, course, dates or revocation: notes a change for their organisations.';
revoke all on function private.note_compliance_change_of_row() from public;

-- People joining or leaving (per statement), or changing what the status rule reads (per row).
create function private.note_compliance_change_of_profiles()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.note_compliance_change(array(select distinct n.organisation_id from new_rows n));
  elsif tg_op = 'DELETE' then
    perform private.note_compliance_change(array(select distinct o.organisation_id from old_rows o));
  else
    perform private.note_compliance_change(array[old.organisation_id, new.organisation_id]);
  end if;
  return null;
end;
$$;
comment on function private.note_compliance_change_of_profiles() is
  'After insert / delete of profiles (per statement) or a change of role, services, organisation, unit, deactivation or creation date (per row): notes a change for their organisations.';
revoke all on function private.note_compliance_change_of_profiles() from public;

-- A rule added, changed or removed: its organisation's, or every one's for a national rule.
create function private.note_compliance_change_of_rule()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.organisation_id is null
     or tg_op in ('INSERT', 'UPDATE') and new.organisation_id is null then
    perform private.note_compliance_change(null);
  elsif tg_op = 'INSERT' then
    perform private.note_compliance_change(array[new.organisation_id]);
  elsif tg_op = 'DELETE' then
    perform private.note_compliance_change(array[old.organisation_id]);
  else
    perform private.note_compliance_change(array[old.organisation_id, new.organisation_id]);
  end if;
  return null;
end;
$$;
comment on function private.note_compliance_change_of_rule() is
  'After a required_training rule is added, changed or removed: notes a change for its organisation (all for a national rule).';
revoke all on function private.note_compliance_change_of_rule() from public;

-- A course published or withdrawn (its rules count only while it is published).
create function private.note_compliance_change_of_course()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform private.note_compliance_change(null);
  return null;
end;
$$;
comment on function private.note_compliance_change_of_course() is
  'After a course''s status changes (rare): notes a change for every kept summary.';
revoke all on function private.note_compliance_change_of_course() from public;

-- A unit moved in its tree (a unit rule reaches the units below it).
create function private.note_compliance_change_of_unit()
returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform private.note_compliance_change(array[old.organisation_id, new.organisation_id]);
  return null;
end;
$$;
comment on function private.note_compliance_change_of_unit() is
  'After a unit changes parent: notes a change for its organisation.';
revoke all on function private.note_compliance_change_of_unit() from public;

-- Whether an organisation's kept summary holds: kept, not out of date by time, no change waiting.
create function private.compliance_summary_is_current(p_organisation_id uuid)
returns boolean
language plpgsql stable
set search_path = ''
as $$
begin
  return exists (
    select 1 from private.compliance_summary_scopes s
    where s.organisation_id = p_organisation_id and s.valid_until > now()
      and not exists (select 1 from private.compliance_summary_changes c where c.organisation_id = p_organisation_id));
end;
$$;
comment on function private.compliance_summary_is_current(uuid) is
  'True when the organisation''s kept compliance summary is there, not past its valid_until, and no change is noted for it.';
revoke all on function private.compliance_summary_is_current(uuid) from public;

-- Whether this transaction is refreshing an organisation's kept data (only the refresh, security
-- definer, can write the row; a transaction that has written nothing has no id and is not).
create function private.compliance_refresh_running()
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (select 1 from private.compliance_refreshes r where r.transaction_id = pg_current_xact_id_if_assigned());
end;
$$;
comment on function private.compliance_refresh_running() is
  'True inside private.refresh_compliance_summary: THE status rule then works out every person of the organisation, whoever the caller.';
revoke all on function private.compliance_refresh_running() from public;
grant execute on function private.compliance_refresh_running() to authenticated, service_role;

-- What an organisation's kept counts must hold, computed by THE status rule (private.kept_counts_drift
-- compares them; private.refresh_compliance_summary computes the same in its own statements). They
-- count everyone of the organisation only while the status rule sees everyone: in a refresh.
create function private.compliance_summary_counts_live(p_organisation_id uuid)
returns table(
  service public.service_code,
  course_id uuid,
  people bigint,
  compliant bigint,
  due_soon bigint,
  overdue bigint,
  in_progress bigint
)
language plpgsql volatile security definer
set search_path = ''
set work_mem = '64MB'
set enable_nestloop = on
set enable_mergejoin = on
set enable_sort = on
set jit = off
as $$
begin
  return query
    select r.service, r.course_id, r.people, r.compliant, r.due_soon, r.overdue, r.in_progress
    from private.compliance_summary_rows(null, null, null, p_organisation_id, null, true, false) r;
end;
$$;
comment on function private.compliance_summary_counts_live(uuid) is
  'Internal: private.compliance_summary_counts of the organisation computed by the status rule (everyone only inside a refresh).';
revoke all on function private.compliance_summary_counts_live(uuid) from public;

create function private.compliance_person_counts_live(p_organisation_id uuid)
returns table(
  user_id uuid,
  overdue integer,
  due_soon integer,
  in_progress integer,
  done integer
)
language plpgsql volatile security definer
set search_path = ''
set work_mem = '64MB'
set enable_nestloop = on
set enable_mergejoin = on
set enable_sort = on
set jit = off
as $$
begin
  perform private.required_training_join_by_hash(null, p_organisation_id, null);
  return query execute private.required_training_states_query() || $q$
    select st.user_id,
           (count(*) filter (where st.status = 'overdue'))::integer,
           (count(*) filter (where st.status = 'due-soon'))::integer,
           (count(*) filter (where st.status = 'in-progress'))::integer,
           (count(*) filter (where st.status in ('done', 'recognised')))::integer
    from statuses st
    group by st.user_id $q$
    using null::uuid, null::public.service_code, null::public.user_role, null::uuid, p_organisation_id, null::uuid;
end;
$$;
comment on function private.compliance_person_counts_live(uuid) is
  'Internal: private.compliance_person_counts of the organisation computed by the status rule (everyone only inside a refresh).';
revoke all on function private.compliance_person_counts_live(uuid) from public;

-- The organisation's summary and its people's counts computed again and kept. Callers check the
-- rights to what they read of it: private.compliance_summary (its administrator or a national one)
-- and private.team_status_counts (a manager, their reports).
create function private.refresh_compliance_summary(p_organisation_id uuid)
returns void
language plpgsql volatile security definer
set search_path = ''
set work_mem = '64MB'
set enable_nestloop = on
set enable_mergejoin = on
set enable_sort = on
set jit = off
as $$
declare
  v_next timestamptz;
begin
  -- One refresh at a time per organisation, after the writes in flight have committed.
  perform pg_advisory_xact_lock(hashtext('private.compliance_summary'), hashtext(p_organisation_id::text));
  -- Another request may have computed it while this one waited.
  if private.compliance_summary_is_current(p_organisation_id) then
    return;
  end if;
  -- The notes go before the counts are computed (a later statement, so a later snapshot): a change
  -- committed in between is counted and its note stays, to be computed again once more.
  delete from private.compliance_summary_changes c where c.organisation_id = p_organisation_id;
  insert into private.compliance_summary_scopes as s (organisation_id, valid_until)
  values (p_organisation_id, 'infinity')
  on conflict (organisation_id) do nothing;
  delete from private.compliance_summary_counts k where k.organisation_id = p_organisation_id;
  delete from private.compliance_person_counts k where k.organisation_id = p_organisation_id;
  insert into private.compliance_refreshes (transaction_id) values (pg_current_xact_id());
  perform private.required_training_join_by_hash(null, p_organisation_id, null);
  -- The two statements see the same data: writes that would change it wait for the lock above.
  execute private.required_training_states_query() || $q$
    insert into private.compliance_person_counts (organisation_id, user_id, overdue, due_soon, in_progress, done)
    select $5, st.user_id,
           count(*) filter (where st.status = 'overdue'),
           count(*) filter (where st.status = 'due-soon'),
           count(*) filter (where st.status = 'in-progress'),
           count(*) filter (where st.status in ('done', 'recognised'))
    from statuses st
    group by st.user_id $q$
    using null::uuid, null::public.service_code, null::public.user_role, null::uuid, p_organisation_id, null::uuid;
  with computed as (
    select r.* from private.compliance_summary_rows(null, null, null, p_organisation_id, null, true, true) r
  ),
  kept as (
    insert into private.compliance_summary_counts (organisation_id, service, course_id, people, compliant, due_soon,
      overdue, in_progress)
    select p_organisation_id, c.service, c.course_id, c.people, c.compliant, c.due_soon, c.overdue, c.in_progress
    from computed c
  )
  select min(c.next_change) into v_next from computed c;
  delete from private.compliance_refreshes r where r.transaction_id = pg_current_xact_id();
  update private.compliance_summary_scopes s
  set valid_until = coalesce(v_next, 'infinity'), refreshed_at = now()
  where s.organisation_id = p_organisation_id;
end;
$$;
comment on function private.refresh_compliance_summary(uuid) is
  'Computes an organisation''s compliance summary again (unless another request just did) and keeps it with the moment it goes out of date; one refresh at a time per organisation, after the writes in flight.';
revoke all on function private.refresh_compliance_summary(uuid) from public;

-- An organisation's whole compliance summary, from the kept counts (computed again first when out
-- of date). Only for private.compliance_summary, which has checked that the caller sees all its people.
create function private.compliance_summary_of_organisation(p_organisation_id uuid)
returns table(
  service public.service_code,
  course_id uuid,
  people bigint,
  compliant bigint,
  due_soon bigint,
  overdue bigint,
  in_progress bigint
)
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  -- A refresh needs a snapshot per statement (after its lock): in a transaction of one snapshot,
  -- the counts are computed for this answer and not kept.
  if current_setting('transaction_isolation') <> 'read committed' then
    return query
      select r.service, r.course_id, r.people, r.compliant, r.due_soon, r.overdue, r.in_progress
      from private.compliance_summary_rows(null, null, null, p_organisation_id, null, private.is_admin(), false) r;
    return;
  end if;
  if not private.compliance_summary_is_current(p_organisation_id) then
    perform private.refresh_compliance_summary(p_organisation_id);
  end if;
  return query
    select k.service, k.course_id, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
    from private.compliance_summary_counts k
    where k.organisation_id = p_organisation_id;
end;
$$;
comment on function private.compliance_summary_of_organisation(uuid) is
  'An organisation''s compliance summary from private.compliance_summary_counts, computed again first when out of date; for private.compliance_summary only (which checks the caller''s rights).';
revoke all on function private.compliance_summary_of_organisation(uuid) from public;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger enrollments_compliance_insert
  after insert on public.enrollments
  referencing new table as new_rows
  for each statement execute function private.note_compliance_change_of_people();

create trigger enrollments_compliance_delete
  after delete on public.enrollments
  referencing old table as old_rows
  for each statement execute function private.note_compliance_change_of_people();

-- Not on progress: the status reads only when a person enrolled.
create trigger enrollments_compliance_update
  after update of user_id, course_id, created_at on public.enrollments
  for each row
  when (old.user_id is distinct from new.user_id or old.course_id is distinct from new.course_id
        or old.created_at is distinct from new.created_at)
  execute function private.note_compliance_change_of_row();

create trigger certificates_compliance_insert
  after insert on public.certificates
  referencing new table as new_rows
  for each statement execute function private.note_compliance_change_of_people();

create trigger certificates_compliance_delete
  after delete on public.certificates
  referencing old table as old_rows
  for each statement execute function private.note_compliance_change_of_people();

create trigger certificates_compliance_update
  after update of user_id, course_id, issued_at, expires_at, revoked_at on public.certificates
  for each row
  when (old.user_id is distinct from new.user_id or old.course_id is distinct from new.course_id
        or old.issued_at is distinct from new.issued_at or old.expires_at is distinct from new.expires_at
        or old.revoked_at is distinct from new.revoked_at)
  execute function private.note_compliance_change_of_row();

create trigger profiles_compliance_insert
  after insert on public.profiles
  referencing new table as new_rows
  for each statement execute function private.note_compliance_change_of_profiles();

create trigger profiles_compliance_delete
  after delete on public.profiles
  referencing old table as old_rows
  for each statement execute function private.note_compliance_change_of_profiles();

create trigger profiles_compliance_update
  after update of role, services, organisation_id, unit_id, deactivated_at, created_at on public.profiles
  for each row
  when (old.role is distinct from new.role or old.services is distinct from new.services
        or old.organisation_id is distinct from new.organisation_id or old.unit_id is distinct from new.unit_id
        or old.deactivated_at is distinct from new.deactivated_at or old.created_at is distinct from new.created_at)
  execute function private.note_compliance_change_of_profiles();

create trigger required_training_compliance
  after insert or update or delete on public.required_training
  for each row execute function private.note_compliance_change_of_rule();

create trigger courses_compliance_status
  after update of status on public.courses
  for each row when (old.status is distinct from new.status)
  execute function private.note_compliance_change_of_course();

create trigger units_compliance_parent
  after update of parent_id, organisation_id on public.units
  for each row
  when (old.parent_id is distinct from new.parent_id or old.organisation_id is distinct from new.organisation_id)
  execute function private.note_compliance_change_of_unit();
