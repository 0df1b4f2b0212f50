-- Continuing professional development (CPD): entries a learner records themselves (activity,
-- date, hours, what they learnt, a reflection), and the learning record that joins them with completed courses and
-- certificates. A learner manages only their own entries; admins read all.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.cpd_entries (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  activity_date date not null,
  activity text not null,
  hours numeric(6, 2) not null,
  learnt text not null,
  reflection text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint cpd_entries_activity_length check (char_length(btrim(activity)) between 3 and 200),
  constraint cpd_entries_learnt_length check (char_length(btrim(learnt)) between 1 and 5000),
  constraint cpd_entries_reflection_length check (char_length(reflection) <= 5000),
  -- Quarter hours (15 minutes), from a quarter of an hour to 1,000 hours.
  constraint cpd_entries_hours_range check (hours between 0.25 and 1000),
  constraint cpd_entries_hours_quarters check (mod(hours * 4, 1) = 0),
  constraint cpd_entries_activity_date_floor check (activity_date >= date '1950-01-01')
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.cpd_entries is
  'A learner''s own CPD activity (outside the courses): read and written by the learner, read by admins. Deleted with the learner.';

comment on column public.cpd_entries.user_id is
  'The learner; always the caller (auth.uid()) when an API role inserts.';

comment on column public.cpd_entries.activity_date is
  'When the activity took place (a London calendar date, never in the future).';

comment on column public.cpd_entries.activity is
  'What the activity was, 3 to 200 characters.';

comment on column public.cpd_entries.hours is
  'Hours spent, in quarter hours from 0.25 to 1000.';

comment on column public.cpd_entries.learnt is
  'What the learner learnt (required, up to 5000 characters).';

comment on column public.cpd_entries.reflection is
  'How it changes their practice (optional, up to 5000 characters).';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

-- The learner's entries newest first (and the foreign key's index).
create index cpd_entries_user_date_idx on public.cpd_entries (user_id, activity_date desc);

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.cpd_entries enable row level security;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

-- Their organisation's administrators too, but not their managers: CPD reflections are private.
create policy "CPD entries: self and administrators read"
  on public.cpd_entries for select to authenticated
  using (
    user_id = (select auth.uid()) or (select private.is_admin())
    or user_id in (select private.people_i_administer())
  );

create policy "learners add CPD entries for themselves"
  on public.cpd_entries for insert to authenticated
  with check (user_id = (select auth.uid()));

create policy "learners change their own CPD entries"
  on public.cpd_entries for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "learners delete their own CPD entries"
  on public.cpd_entries for delete to authenticated
  using (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.cpd_entries from anon, authenticated, service_role;
grant all on public.cpd_entries to service_role;
grant select, delete on public.cpd_entries to authenticated;
grant insert (activity_date, activity, hours, learnt, reflection) on public.cpd_entries to
  authenticated;
grant update (activity_date, activity, hours, learnt, reflection) on public.cpd_entries to
  authenticated;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- A CPD activity cannot be dated in the future (London's calendar). A check constraint may not use
-- the clock, so a trigger enforces it on every insert and on every change of the date.
create function private.cpd_entry_date_not_future()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.activity_date > (now() at time zone 'Europe/London')::date then
    raise exception 'The activity date cannot be in the future' using errcode = '23514';
  end if;
  return new;
end;
$$;
comment on function private.cpd_entry_date_not_future() is
  'Before insert/update of activity_date on cpd_entries: refuses a date after today in London (23514).';
revoke all on function private.cpd_entry_date_not_future() from public;

-- The completed-courses half of the learning record, in one query: every certificate of the learner
-- (all cycles, newest first) with the course's hours (courses.duration, whole hours; null once the
-- course is deleted), the service and title as issued, the certificate's code, expiry and state
-- (private.certificate_state), and the score where the course has a quiz.
-- Score: for each quiz of the course, the learner's best passed attempt (percent of points) in that
-- cycle's period, i.e. completed after the previous certificate of the course was issued and no later
-- than this one (the attempts that earned it); the course's score is the mean of those, rounded.
-- A SCORM module whose package's score counts as its quiz score counts as a quiz here.
-- Null when the course has no quiz or no passed attempt falls in the period.
-- Security definer so that an archived or withdrawn course still shows its hours and quiz score,
-- which the learner can no longer read; it answers only for the caller themselves, a national admin
-- or the administrator of the learner's organisation.
create function private.learning_record(p_user_id uuid)
returns table(
  certificate_id uuid,
  course_id uuid,
  course_title text,
  course_title_cy text,
  service text,
  cycle integer,
  completed_at timestamp with time zone,
  hours integer,
  score integer,
  verification_code text,
  expires_at timestamp with time zone,
  revoked_at timestamp with time zone,
  state text
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  if p_user_id is distinct from (select auth.uid()) and not private.administers(p_user_id) then
    raise exception 'Only the learner and administrators may read a learning record' using errcode = '42501';
  end if;
  return query
    with history as (
      select c.*,
             lag(c.issued_at) over (partition by c.course_id order by c.issued_at) as previous_issued_at
      from public.certificates c
      where c.user_id = p_user_id
    )
    select h.id, h.course_id, h.course_title, h.course_title_cy, h.service::text, h.cycle, h.issued_at, co.duration,
           s.score, h.verification_code, h.expires_at, h.revoked_at,
           private.certificate_state(h.expires_at, h.revoked_at)
    from history h
    left join public.courses co on co.id = h.course_id
    left join lateral (
      select round(avg(best.pct))::integer as score
      from (
        select max(round(100.0 * a.score / nullif(a.max_score, 0))) as pct
        from public.course_modules m
        join public.quizzes q on q.module_id = m.id
        join public.quiz_attempts a on a.quiz_id = q.id and a.user_id = p_user_id
        where m.course_id = h.course_id
          and a.passed
          and a.completed_at <= h.issued_at
          and (h.previous_issued_at is null or a.completed_at > h.previous_issued_at)
        group by q.id
        union all
        -- A SCORM package whose score counts as the module's quiz score (19_scorm_runtime.sql):
        -- the best attempt that met the module's rule in the same period.
        select max(round(100.0 * a.score))
        from public.course_modules m
        join public.scorm_packages p on p.module_id = m.id and p.score_is_quiz_score
        join public.scorm_attempts a on a.module_id = m.id and a.user_id = p_user_id
        where m.course_id = h.course_id
          and a.met_at is not null and a.score is not null
          and a.met_at <= h.issued_at
          and (h.previous_issued_at is null or a.met_at > h.previous_issued_at)
        group by m.id
      ) best
    ) s on true
    order by h.issued_at desc, h.id;
end;
$$;
comment on function private.learning_record(uuid) is
  'The learner''s completed courses (every certificate, all cycles) with hours, service, quiz score, code, expiry and state. Caller must be the learner, a national admin or their organisation''s admin (else 42501).';
revoke all on function private.learning_record(uuid) from public;
grant execute on function private.learning_record(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger cpd_entries_set_updated_at
  before update on public.cpd_entries
  for each row execute function private.set_updated_at();

create trigger cpd_entries_date_not_future
  before insert or update of activity_date on public.cpd_entries
  for each row execute function private.cpd_entry_date_not_future();
