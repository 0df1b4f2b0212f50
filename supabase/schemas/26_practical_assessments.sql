-- Practical assessments: a module of kind 'assessment' is a checklist of criteria that an assessor
-- judges in person, records and signs off (docs/decisions/practical-assessments.md).
--
-- * assessment_settings (one per module) and assessment_criteria are authored with the module by
--   the course's author (and national admins), like a quiz and its questions, under row-level
--   security; everyone who sees the module reads them (they hold no answers).
-- * course_assessors: people an organisation's administrator (or a national admin) names as
--   assessors of a course for that organisation's learners. Written only by
--   private.name_course_assessor / private.remove_course_assessor.
-- * assessment_records, their judgements and evidence, and reassessment_requests are written only
--   by the security-definer functions below, which check the caller themselves. A record is a draft
--   while its assessor records; signing makes it immutable (a trigger refuses every change but the
--   verifier's countersignature, once, and being marked superseded by a correction); both stay in
--   the history. Who assesses: private.assesses.
-- * Completion: private.assessment_signed_off (called by private.settle_module) is true when the
--   learner's latest signed record of the enrolment's cycle that nothing superseded is competent,
--   and countersigned when the module needs a verifier. The validity of a practical
--   (assessment_settings.valid_months) bounds the certificate's expiry (private.issue_certificate).
-- * Evidence files lie in the private bucket assessment-evidence; whoever may read the record reads
--   them (the storage policy reads assessment_evidence under the caller's own row-level security);
--   nobody writes the bucket through the API roles: the api function checks type and size and
--   stores them with the service role after private.add_assessment_evidence accepted the caller.

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

create table public.assessment_settings (
  module_id uuid primary key references public.course_modules (id) on delete cascade,
  needs_verifier boolean not null default false,
  valid_months integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint assessment_settings_valid_months_range check (valid_months is null or valid_months between 1 and 120)
);

create table public.assessment_criteria (
  id uuid primary key default gen_random_uuid(),
  module_id uuid not null references public.course_modules (id) on delete cascade,
  order_index integer not null default 1,
  title text not null,
  title_cy text,
  guidance text,
  guidance_cy text,
  critical boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint assessment_criteria_title_length check (char_length(btrim(title)) between 3 and 300),
  constraint assessment_criteria_title_cy_length check (title_cy is null or char_length(btrim(title_cy)) between 3 and 300),
  constraint assessment_criteria_guidance_length check (guidance is null or char_length(btrim(guidance)) between 1 and 2000),
  constraint assessment_criteria_guidance_cy_length check (guidance_cy is null or char_length(btrim(guidance_cy)) between 1 and 2000),
  constraint assessment_criteria_order_positive check (order_index >= 1)
);

create table public.course_assessors (
  course_id uuid not null references public.courses (id) on delete cascade,
  person_id uuid not null references public.profiles (id) on delete cascade,
  organisation_id uuid not null references public.organisations (id) on delete cascade,
  named_by uuid references public.profiles (id) on delete set null,
  named_at timestamptz not null default now(),
  primary key (course_id, person_id)
);

create table public.assessment_records (
  id uuid primary key default gen_random_uuid(),
  module_id uuid not null references public.course_modules (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  learner_id uuid not null references public.profiles (id) on delete cascade,
  cycle integer not null,
  assessor_id uuid references public.profiles (id) on delete set null,
  outcome text,
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  signed_at timestamptz,
  verifier_id uuid references public.profiles (id) on delete set null,
  verified_at timestamptz,
  supersedes_id uuid references public.assessment_records (id) on delete cascade,
  superseded_at timestamptz,
  learner_name text not null,
  assessor_name text not null,
  verifier_name text,
  constraint assessment_records_outcome_known check (outcome is null or outcome in ('competent', 'not-yet-competent')),
  constraint assessment_records_notes_length check (notes is null or char_length(notes) <= 5000),
  constraint assessment_records_cycle_positive check (cycle >= 1),
  constraint assessment_records_signed_with_outcome check (signed_at is null or outcome is not null),
  constraint assessment_records_verified_after_signing check (verified_at is null or signed_at is not null),
  constraint assessment_records_superseded_after_signing check (superseded_at is null or signed_at is not null),
  constraint assessment_records_not_self_assessed check (assessor_id is distinct from learner_id),
  constraint assessment_records_verifier_not_assessor check (
    verifier_id is null or (verifier_id is distinct from assessor_id and verifier_id <> learner_id))
);

create table public.assessment_judgements (
  record_id uuid not null references public.assessment_records (id) on delete cascade,
  -- No action (checked at the end of the statement): a criterion with judgements is kept, yet a
  -- module deleted with its criteria and records together passes.
  criterion_id uuid not null references public.assessment_criteria (id),
  result text not null,
  note text,
  criterion_title text not null,
  critical boolean not null,
  primary key (record_id, criterion_id),
  constraint assessment_judgements_result_known check (result in ('competent', 'not-yet-competent')),
  constraint assessment_judgements_note_length check (note is null or char_length(note) <= 2000)
);

create table public.assessment_evidence (
  id uuid primary key default gen_random_uuid(),
  record_id uuid not null references public.assessment_records (id) on delete cascade,
  object_name text not null,
  content_type text not null,
  size_bytes integer not null,
  original_name text not null,
  uploaded_by uuid references public.profiles (id) on delete set null,
  uploaded_at timestamptz not null default now(),
  constraint assessment_evidence_object_name_key unique (object_name),
  constraint assessment_evidence_object_name_shape check (
    object_name ~ '^[0-9a-f-]{36}/[0-9a-f-]{36}\.(jpg|png|pdf)$'),
  constraint assessment_evidence_content_type_known check (content_type in ('image/jpeg', 'image/png', 'application/pdf')),
  constraint assessment_evidence_size_range check (size_bytes between 1 and 10485760),
  constraint assessment_evidence_original_name_length check (char_length(original_name) between 1 and 255)
);

create table public.reassessment_requests (
  id uuid primary key default gen_random_uuid(),
  module_id uuid not null references public.course_modules (id) on delete cascade,
  learner_id uuid not null references public.profiles (id) on delete cascade,
  cycle integer not null,
  reason text not null,
  requested_at timestamptz not null default now(),
  answered_at timestamptz,
  constraint reassessment_requests_reason_length check (char_length(btrim(reason)) between 1 and 1000),
  constraint reassessment_requests_cycle_positive check (cycle >= 1)
);

-- ---------------------------------------------------------------------------
-- Comments
-- ---------------------------------------------------------------------------

comment on table public.assessment_settings is
  'A practical assessment module''s settings, authored with it by the course''s author or a national admin. Deleted with its module.';
comment on column public.assessment_settings.needs_verifier is
  'True: the module completes only when a second assessor (the verifier) has countersigned a competent record.';
comment on column public.assessment_settings.valid_months is
  'How long a signed-off practical stays valid (1 to 120 months), bounding the certificate''s expiry; null: it does not expire by itself.';

comment on table public.assessment_criteria is
  'The checklist of a practical assessment module, authored like quiz questions; read by whoever sees the module.';
comment on column public.assessment_criteria.title is
  'What the learner must show (3 to 300 characters).';
comment on column public.assessment_criteria.title_cy is
  'The criterion in Welsh; null: not translated.';
comment on column public.assessment_criteria.guidance is
  'Guidance for the assessor and the learner on what competent looks like; null: none.';
comment on column public.assessment_criteria.guidance_cy is
  'The guidance in Welsh; null: not translated.';
comment on column public.assessment_criteria.critical is
  'True: a record cannot be signed competent while this criterion is judged not yet competent.';

comment on table public.course_assessors is
  'People an organisation names as assessors of a course for that organisation''s learners. Written only by private.name_course_assessor and private.remove_course_assessor.';
comment on column public.course_assessors.organisation_id is
  'The organisation that named them, theirs: they assess only its learners.';
comment on column public.course_assessors.named_by is
  'The administrator who named them.';

comment on table public.assessment_records is
  'An assessor''s record of a learner''s practical assessment: a draft while recorded, then signed (immutable but for the countersignature and being superseded). Written only by the private.*assessment* functions.';
comment on column public.assessment_records.course_id is
  'The module''s course, copied when the record starts, so that the policies need no join.';
comment on column public.assessment_records.cycle is
  'The enrolment''s cycle the record belongs to: recertification starts a new cycle, which needs a new assessment.';
comment on column public.assessment_records.outcome is
  'competent | not-yet-competent, the assessor''s overall judgement; null in a draft not yet decided.';
comment on column public.assessment_records.notes is
  'The assessor''s notes to the learner.';
comment on column public.assessment_records.signed_at is
  'When the assessor signed; null: a draft, changed only by its assessor.';
comment on column public.assessment_records.verifier_id is
  'The second assessor who countersigned (a module that needs a verifier).';
comment on column public.assessment_records.supersedes_id is
  'The signed record this one corrects; both stay in the history.';
comment on column public.assessment_records.learner_name is
  'The learner''s name when the record began (the record is read by people who may not read profiles).';
comment on column public.assessment_records.assessor_name is
  'The assessor''s name when the record began.';
comment on column public.assessment_records.verifier_name is
  'The verifier''s name when they countersigned.';
comment on column public.assessment_records.superseded_at is
  'When a correction of this record was signed: it no longer counts.';

comment on table public.assessment_judgements is
  'One criterion''s judgement in a record; unchangeable once the record is signed.';
comment on column public.assessment_judgements.criterion_title is
  'The criterion''s title when judged, so that a signed record reads as it was signed.';
comment on column public.assessment_judgements.critical is
  'Whether the criterion was critical when judged.';

comment on table public.assessment_evidence is
  'A photo or PDF attached to a draft record; the file is in the private bucket assessment-evidence. Read by whoever may read the record.';
comment on column public.assessment_evidence.object_name is
  'The object''s name in bucket assessment-evidence: <record id>/<uuid>.<jpg|png|pdf>.';
comment on column public.assessment_evidence.content_type is
  'The type read from the file''s first bytes by the api function (never its name).';
comment on column public.assessment_evidence.original_name is
  'The file name the assessor uploaded, for display and download.';

comment on table public.reassessment_requests is
  'A learner''s request to be assessed again; answered when a new record of theirs is signed.';
comment on column public.reassessment_requests.cycle is
  'The enrolment''s cycle when asked.';
comment on column public.reassessment_requests.answered_at is
  'When a record of the learner for the module was next signed; null: open.';

-- ---------------------------------------------------------------------------
-- Indexes
-- ---------------------------------------------------------------------------

create index assessment_criteria_module_order_idx on public.assessment_criteria (module_id, order_index);

create index course_assessors_person_idx on public.course_assessors (person_id);

create index course_assessors_organisation_idx on public.course_assessors (organisation_id, course_id);

create index course_assessors_named_by_idx on public.course_assessors (named_by);

-- A learner's records of a module, newest first (completion, the learner's page).
create index assessment_records_module_learner_idx on public.assessment_records (module_id, learner_id, created_at desc);

create index assessment_records_course_idx on public.assessment_records (course_id);

create index assessment_records_learner_idx on public.assessment_records (learner_id);

create index assessment_records_assessor_idx on public.assessment_records (assessor_id, signed_at);

create index assessment_records_verifier_idx on public.assessment_records (verifier_id);

-- One correction per signed record.
create unique index assessment_records_supersedes_idx on public.assessment_records (supersedes_id);

-- One draft at a time per learner and module.
create unique index assessment_records_one_draft_idx on public.assessment_records (module_id, learner_id)
  where signed_at is null;

-- The verification queue: signed, competent, not yet countersigned.
create index assessment_records_awaiting_verification_idx on public.assessment_records (module_id)
  where signed_at is not null and verified_at is null and superseded_at is null;

create index assessment_judgements_criterion_idx on public.assessment_judgements (criterion_id);

create index assessment_evidence_record_idx on public.assessment_evidence (record_id);

create index assessment_evidence_uploaded_by_idx on public.assessment_evidence (uploaded_by);

create index reassessment_requests_module_learner_idx on public.reassessment_requests (module_id, learner_id);

create index reassessment_requests_learner_idx on public.reassessment_requests (learner_id);

-- One open request per learner and module.
create unique index reassessment_requests_one_open_idx on public.reassessment_requests (module_id, learner_id)
  where answered_at is null;

-- ---------------------------------------------------------------------------
-- Row-level security
-- ---------------------------------------------------------------------------

alter table public.assessment_settings enable row level security;

alter table public.assessment_criteria enable row level security;

alter table public.course_assessors enable row level security;

alter table public.assessment_records enable row level security;

alter table public.assessment_judgements enable row level security;

alter table public.assessment_evidence enable row level security;

alter table public.reassessment_requests enable row level security;

-- ---------------------------------------------------------------------------
-- Functions used by the policies
-- ---------------------------------------------------------------------------

-- Who assesses a learner on a course: a national admin; an INSTRUCTOR whose services include the
-- course's service and who is of the learner's organisation (a national instructor: any learner);
-- a person the learner's organisation named as assessor of the course; never the learner. A
-- deactivated person assesses nobody.
create function private.assesses(p_course_id uuid, p_learner_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_me uuid := (select auth.uid());
  v_me_row public.profiles;
  v_learner_org uuid;
  v_service public.service_code;
begin
  if v_me is null or p_learner_id is null or v_me = p_learner_id then
    return false;
  end if;
  select * into v_me_row from public.profiles p where p.id = v_me;
  if not found or v_me_row.deactivated_at is not null then
    return false;
  end if;
  if v_me_row.role = 'ADMIN' and v_me_row.organisation_id is null then
    return true;
  end if;
  select p.organisation_id into v_learner_org from public.profiles p where p.id = p_learner_id;
  if not found then
    return false;
  end if;
  select c.service into v_service from public.courses c where c.id = p_course_id;
  if v_me_row.role = 'INSTRUCTOR' and v_service = any (v_me_row.services)
     and (v_me_row.organisation_id is null or v_me_row.organisation_id is not distinct from v_learner_org) then
    return true;
  end if;
  return v_learner_org is not null and exists (
    select 1 from public.course_assessors a
    where a.course_id = p_course_id and a.person_id = v_me and a.organisation_id = v_learner_org
      and v_me_row.organisation_id = v_learner_org);
end;
$$;
comment on function private.assesses(uuid,uuid) is
  'True when the caller may assess the learner on the course: a national admin; an instructor of the course''s service of the learner''s organisation (a national instructor: anyone); a person the learner''s organisation named for the course; never the learner themselves, nor a deactivated person.';
revoke all on function private.assesses(uuid,uuid) from public;
grant execute on function private.assesses(uuid,uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "assessment settings: who sees the module reads"
  on public.assessment_settings for select to authenticated
  using (exists (select 1 from public.course_modules m where m.id = assessment_settings.module_id));

create policy "assessment settings: module authors and national admins add"
  on public.assessment_settings for insert to authenticated
  with check ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "assessment settings: module authors and national admins update"
  on public.assessment_settings for update to authenticated
  using ((select private.is_admin()) or module_id in (select private.authored_module_ids()))
  with check ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "assessment settings: module authors and national admins delete"
  on public.assessment_settings for delete to authenticated
  using ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "assessment criteria: who sees the module reads"
  on public.assessment_criteria for select to authenticated
  using (exists (select 1 from public.course_modules m where m.id = assessment_criteria.module_id));

create policy "assessment criteria: module authors and national admins add"
  on public.assessment_criteria for insert to authenticated
  with check ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "assessment criteria: module authors and national admins update"
  on public.assessment_criteria for update to authenticated
  using ((select private.is_admin()) or module_id in (select private.authored_module_ids()))
  with check ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "assessment criteria: module authors and national admins delete"
  on public.assessment_criteria for delete to authenticated
  using ((select private.is_admin()) or module_id in (select private.authored_module_ids()));

create policy "course assessors: self, administrators and course authors read"
  on public.course_assessors for select to authenticated
  using (
    person_id = (select auth.uid())
    or (select private.is_admin())
    or organisation_id = (select private.administered_organisation_id())
    or course_id in (select private.authored_course_ids())
  );

-- A draft is its assessor's (and administrators'); a signed record is the learner's, their
-- assessors', their line managers' and their administrators'.
create policy "assessment records: learner, assessors, managers and administrators read"
  on public.assessment_records for select to authenticated
  using (
    (select private.is_admin())
    or assessor_id = (select auth.uid())
    or learner_id in (select private.people_i_administer())
    or (signed_at is not null and (
      learner_id = (select auth.uid())
      or learner_id in (select private.managed_person_ids())
      or private.assesses(course_id, learner_id)))
  );

create policy "assessment judgements: who reads the record reads"
  on public.assessment_judgements for select to authenticated
  using (exists (select 1 from public.assessment_records r where r.id = assessment_judgements.record_id));

create policy "assessment evidence: who reads the record reads"
  on public.assessment_evidence for select to authenticated
  using (exists (select 1 from public.assessment_records r where r.id = assessment_evidence.record_id));

create policy "reassessment requests: learner, assessors, managers and administrators read"
  on public.reassessment_requests for select to authenticated
  using (
    learner_id = (select auth.uid())
    or (select private.is_admin())
    or learner_id in (select private.people_i_administer())
    or learner_id in (select private.managed_person_ids())
    or private.assesses((select m.course_id from public.course_modules m where m.id = reassessment_requests.module_id), learner_id)
  );

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

revoke all on public.assessment_settings from anon, authenticated, service_role;
grant select, delete on public.assessment_settings to authenticated;
grant insert (module_id, needs_verifier, valid_months) on public.assessment_settings to authenticated;
grant update (needs_verifier, valid_months) on public.assessment_settings to authenticated;
grant all on public.assessment_settings to service_role;

revoke all on public.assessment_criteria from anon, authenticated, service_role;
grant select, delete on public.assessment_criteria to authenticated;
grant insert (module_id, order_index, title, title_cy, guidance, guidance_cy, critical)
  on public.assessment_criteria to authenticated;
grant update (order_index, title, title_cy, guidance, guidance_cy, critical)
  on public.assessment_criteria to authenticated;
grant all on public.assessment_criteria to service_role;

revoke all on public.course_assessors from anon, authenticated, service_role;
grant select on public.course_assessors to authenticated;
grant all on public.course_assessors to service_role;

revoke all on public.assessment_records from anon, authenticated, service_role;
grant select on public.assessment_records to authenticated;
grant all on public.assessment_records to service_role;

revoke all on public.assessment_judgements from anon, authenticated, service_role;
grant select on public.assessment_judgements to authenticated;
grant all on public.assessment_judgements to service_role;

revoke all on public.assessment_evidence from anon, authenticated, service_role;
grant select on public.assessment_evidence to authenticated;
grant all on public.assessment_evidence to service_role;

revoke all on public.reassessment_requests from anon, authenticated, service_role;
grant select on public.reassessment_requests to authenticated;
grant all on public.reassessment_requests to service_role;

-- ---------------------------------------------------------------------------
-- Storage
-- ---------------------------------------------------------------------------

-- Private: read through the api function (GET /api/assessment-evidence/:id) or by a signed-in
-- client whose row-level security admits the evidence row; written only by the service role.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('assessment-evidence', 'assessment-evidence', false, 10485760, array['image/jpeg', 'image/png', 'application/pdf'])
on conflict (id) do nothing;

create policy "assessment evidence files: who reads the evidence row reads"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'assessment-evidence'
    and exists (select 1 from public.assessment_evidence e where e.object_name = objects.name)
  );

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- Triggers: settings and criteria belong to a module of kind 'assessment'.
create function private.check_assessment_module()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.course_modules m where m.id = new.module_id and m.kind = 'assessment') then
    raise exception 'This module is not a practical assessment' using errcode = '22023', hint = 'module_id';
  end if;
  return new;
end;
$$;
comment on function private.check_assessment_module() is
  'Before insert or update of module_id on assessment_settings and assessment_criteria: the module is of kind assessment (22023).';
revoke all on function private.check_assessment_module() from public;

-- The learner's record that decides the module in the enrolment's current cycle: the latest signed
-- one that no correction superseded.
create function private.deciding_assessment_record(p_user_id uuid, p_module_id uuid)
returns public.assessment_records
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_record public.assessment_records;
begin
  select r.* into v_record
  from public.assessment_records r
  join public.course_modules m on m.id = r.module_id
  join public.enrollments e on e.user_id = r.learner_id and e.course_id = m.course_id
  where r.module_id = p_module_id and r.learner_id = p_user_id and r.cycle = e.cycle
    and r.signed_at is not null and r.superseded_at is null
  order by r.signed_at desc, r.created_at desc
  limit 1;
  return v_record;
end;
$$;
comment on function private.deciding_assessment_record(uuid,uuid) is
  'Internal: the learner''s latest signed, not superseded record of the module in their enrolment''s current cycle (null fields when none).';
revoke all on function private.deciding_assessment_record(uuid,uuid) from public;

-- When the practical was signed off: the countersignature's time when the module needs one.
create function private.assessment_signed_off_at(p_user_id uuid, p_module_id uuid)
returns timestamptz
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_record public.assessment_records := private.deciding_assessment_record(p_user_id, p_module_id);
  v_needs boolean := coalesce((select s.needs_verifier from public.assessment_settings s where s.module_id = p_module_id), false);
begin
  if v_record.id is null or v_record.outcome <> 'competent' then
    return null;
  end if;
  if v_needs then
    return v_record.verified_at;
  end if;
  return v_record.signed_at;
end;
$$;
comment on function private.assessment_signed_off_at(uuid,uuid) is
  'Internal: when the learner''s practical of the module was signed off in the current cycle (competent, countersigned when needed), or null.';
revoke all on function private.assessment_signed_off_at(uuid,uuid) from public;

create function private.assessment_signed_off(p_user_id uuid, p_module_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return private.assessment_signed_off_at(p_user_id, p_module_id) is not null;
end;
$$;
comment on function private.assessment_signed_off(uuid,uuid) is
  'Internal (private.settle_module): true when the learner''s latest signed, not superseded record of the current cycle is competent, and countersigned when the module needs a verifier.';
revoke all on function private.assessment_signed_off(uuid,uuid) from public;

-- The completion path for a learner's assessment module after a signature: read (the module was
-- done in person), settled, the enrolment refreshed. A correction that leaves the module not signed
-- off takes its completion back while the course is not completed (an issued certificate stays:
-- an administrator may revoke it).
create function private.settle_assessment(p_user_id uuid, p_module_id uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_course_id uuid := (select m.course_id from public.course_modules m where m.id = p_module_id);
begin
  if not exists (select 1 from public.enrollments e
                 where e.user_id = p_user_id and e.course_id = v_course_id and e.status = 'ACTIVE') then
    return;
  end if;
  insert into public.user_module_progress (user_id, module_id, read_at)
  values (p_user_id, p_module_id, now())
  on conflict (user_id, module_id) do update set read_at = now()
  where public.user_module_progress.read_at is null;
  if private.assessment_signed_off(p_user_id, p_module_id) then
    perform private.settle_module(p_user_id, p_module_id);
  elsif not exists (select 1 from public.enrollments e
                    where e.user_id = p_user_id and e.course_id = v_course_id and e.completed) then
    update public.user_module_progress ump
    set completed = false, completed_at = null
    where ump.user_id = p_user_id and ump.module_id = p_module_id and ump.completed;
  end if;
  perform private.refresh_enrollment(p_user_id, v_course_id);
end;
$$;
comment on function private.settle_assessment(uuid,uuid) is
  'Internal: after a signature, records the assessment module read, completes it when signed off (or takes its completion back while the course is not completed) and refreshes the enrolment.';
revoke all on function private.settle_assessment(uuid,uuid) from public;

-- The earliest end of validity of the learner's signed-off practicals of the course (valid_months
-- from each module's sign-off), for the certificate's expiry.
create function private.practical_valid_until(p_user_id uuid, p_course_id uuid)
returns timestamptz
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (
    select min(private.assessment_signed_off_at(p_user_id, s.module_id) + make_interval(months => s.valid_months))
    from public.assessment_settings s
    join public.course_modules m on m.id = s.module_id
    where m.course_id = p_course_id and m.kind = 'assessment' and s.valid_months is not null
  );
end;
$$;
comment on function private.practical_valid_until(uuid,uuid) is
  'Internal (private.issue_certificate): the earliest sign-off + valid_months of the learner''s practical assessments of the course in the current cycle; null when none limits it.';
revoke all on function private.practical_valid_until(uuid,uuid) from public;

-- A notice to one person from an assessment function, written as private.decide_notifications
-- writes its notices: queued for email unless the person switched the kind off or has no address;
-- none for a deactivated person; once per key.
create function private.write_assessment_notice(
  p_recipient uuid, p_kind text, p_person uuid, p_course uuid, p_subject uuid, p_threshold integer,
  p_title text, p_body text, p_data jsonb, p_link text
)
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.notifications (recipient_id, kind, person_id, course_id, subject_id, occasion, threshold,
    cycle, title, body, data, link_path, email_status)
  select p.id, p_kind, p_person, p_course, p_subject, (now() at time zone 'Europe/London')::date, p_threshold, 0,
         p_title, p_body, p_data, p_link,
         case when btrim(p.email) = '' or coalesce(pref.email_off @> array[p_kind], false) then 'skipped' else 'queued' end
  from public.profiles p
  left join public.notification_preferences pref on pref.user_id = p.id
  where p.id = p_recipient and p.deactivated_at is null
  on conflict on constraint notifications_once do nothing;
end;
$$;
comment on function private.write_assessment_notice(uuid,text,uuid,uuid,uuid,integer,text,text,jsonb,text) is
  'Internal: writes one assessment notice (assessment-recorded, reassessment-requested) for an active person, email queued unless switched off or no address; once per key.';
revoke all on function private.write_assessment_notice(uuid,text,uuid,uuid,uuid,integer,text,text,jsonb,text) from public;

-- The learner's notice of a signature (threshold 0) or a countersignature (threshold 1).
create function private.notify_assessment_recorded(p_record public.assessment_records, p_verified boolean)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_course public.courses;
  v_module public.course_modules;
  v_outcome text := case p_record.outcome when 'competent' then 'competent' else 'not yet competent' end;
begin
  select * into v_course from public.courses c where c.id = p_record.course_id;
  select * into v_module from public.course_modules m where m.id = p_record.module_id;
  perform private.write_assessment_notice(
    p_record.learner_id, 'assessment-recorded', p_record.learner_id, p_record.course_id, p_record.id,
    case when p_verified then 1 else 0 end,
    case when p_verified then 'Assessment verified: ' else 'Assessment recorded: ' end || v_module.title,
    case when p_verified then 'Your practical assessment was countersigned: ' || v_outcome || '.'
         else 'Your practical assessment was signed off: ' || v_outcome || '.' end,
    jsonb_build_object(
      'courseTitle', v_course.title, 'courseTitleCy', v_course.title_cy,
      'moduleTitle', v_module.title, 'moduleTitleCy', v_module.title_cy,
      'recordId', p_record.id, 'outcome', p_record.outcome,
      'assessorName', p_record.assessor_name,
      'verified', p_record.verified_at is not null),
    '/course/' || p_record.course_id || '/module/' || p_record.module_id);
end;
$$;
comment on function private.notify_assessment_recorded(public.assessment_records,boolean) is
  'Internal: the learner''s assessment-recorded notice of a signed (or countersigned) record.';
revoke all on function private.notify_assessment_recorded(public.assessment_records,boolean) from public;

-- Audit: every signature, countersignature, correction and evidence upload, about the learner.
create function private.audit_assessment(p_action text, p_record public.assessment_records, p_new jsonb)
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.write_audit(
    p_action, 'user', p_record.learner_id,
    p_record.learner_name || ': ' || (select m.title from public.course_modules m where m.id = p_record.module_id),
    null,
    jsonb_build_object('recordId', p_record.id, 'moduleId', p_record.module_id, 'courseId', p_record.course_id,
      'outcome', p_record.outcome, 'cycle', p_record.cycle) || coalesce(p_new, '{}'::jsonb));
end;
$$;
comment on function private.audit_assessment(text,public.assessment_records,jsonb) is
  'Internal: an audit event about the record''s learner (assessment.signed, .corrected, .verified, .evidence_added).';
revoke all on function private.audit_assessment(text,public.assessment_records,jsonb) from public;

-- The caller's draft, locked: P0002 when they cannot see it, 42501 when it is someone else's,
-- P0409 when it is signed.
create function private.my_assessment_draft(p_record_id uuid)
returns public.assessment_records
language plpgsql security definer
set search_path = ''
as $$
declare
  v_record public.assessment_records;
begin
  select * into v_record from public.assessment_records r where r.id = p_record_id for update;
  if not found or not (v_record.assessor_id = (select auth.uid()) or private.is_admin()
                       or private.assesses(v_record.course_id, v_record.learner_id)) then
    raise exception 'Assessment record not found' using errcode = 'P0002';
  end if;
  if v_record.assessor_id is distinct from (select auth.uid()) then
    raise exception 'Only the assessor who started this record may change it' using errcode = '42501';
  end if;
  if not private.assesses(v_record.course_id, v_record.learner_id) then
    raise exception 'You no longer assess this learner on this course' using errcode = '42501';
  end if;
  if v_record.signed_at is not null then
    raise exception 'This record is signed: it can no longer change. Start a correction instead.' using errcode = 'P0409';
  end if;
  return v_record;
end;
$$;
comment on function private.my_assessment_draft(uuid) is
  'Internal: the caller''s own draft record, locked (P0002 unseen, 42501 another''s or no longer an assessor, P0409 signed).';
revoke all on function private.my_assessment_draft(uuid) from public;

-- Starts a draft for a learner (or a correction of their signed record).
create function private.start_assessment_record(p_module_id uuid, p_learner_id uuid, p_supersedes_id uuid default null)
returns public.assessment_records
language plpgsql security definer
set search_path = ''
as $$
declare
  v_module public.course_modules;
  v_cycle integer;
  v_old public.assessment_records;
  v_record public.assessment_records;
begin
  select * into v_module from public.course_modules m where m.id = p_module_id and m.kind = 'assessment';
  if not found or not private.can_view_course(v_module.course_id) then
    raise exception 'Practical assessment not found' using errcode = 'P0002';
  end if;
  if not private.assesses(v_module.course_id, p_learner_id) then
    raise exception 'You do not assess this learner on this course' using errcode = '42501';
  end if;
  select e.cycle into v_cycle from public.enrollments e
  where e.user_id = p_learner_id and e.course_id = v_module.course_id and e.status = 'ACTIVE';
  if not found then
    raise exception 'This person is not enrolled on the course' using errcode = '22023', hint = 'learnerId';
  end if;
  if p_supersedes_id is not null then
    select * into v_old from public.assessment_records r where r.id = p_supersedes_id;
    if not found or v_old.module_id <> p_module_id or v_old.learner_id <> p_learner_id or v_old.cycle <> v_cycle
       or v_old.signed_at is null or v_old.superseded_at is not null then
      raise exception 'Only the learner''s latest signed record of this module can be corrected' using errcode = '22023', hint = 'supersedesId';
    end if;
    if exists (select 1 from public.assessment_records r where r.supersedes_id = p_supersedes_id) then
      raise exception 'A correction of this record is already under way' using errcode = 'P0409';
    end if;
  end if;
  if exists (select 1 from public.assessment_records r
             where r.module_id = p_module_id and r.learner_id = p_learner_id and r.signed_at is null) then
    raise exception 'A draft record for this learner is already open' using errcode = 'P0409';
  end if;
  insert into public.assessment_records (module_id, course_id, learner_id, cycle, assessor_id, supersedes_id,
    learner_name, assessor_name)
  values (p_module_id, v_module.course_id, p_learner_id, v_cycle, (select auth.uid()), p_supersedes_id,
    (select p.name from public.profiles p where p.id = p_learner_id),
    (select p.name from public.profiles p where p.id = (select auth.uid())))
  returning * into v_record;
  return v_record;
end;
$$;
comment on function private.start_assessment_record(uuid,uuid,uuid) is
  'Assessor: starts a draft record of the learner (enrolled, of the current cycle), or a correction of their latest signed record (supersedes). P0002 unknown module, 42501 not their assessor, 22023 not enrolled or not correctable, P0409 a draft or correction already open.';
revoke all on function private.start_assessment_record(uuid,uuid,uuid) from public;
grant execute on function private.start_assessment_record(uuid,uuid,uuid) to authenticated;

-- Saves a draft: the judgements given replace those recorded ([{criterionId, result, note}]).
create function private.save_assessment_record(p_record_id uuid, p_judgements jsonb, p_outcome text, p_notes text)
returns public.assessment_records
language plpgsql security definer
set search_path = ''
as $$
declare
  v_record public.assessment_records := private.my_assessment_draft(p_record_id);
begin
  if p_judgements is null or jsonb_typeof(p_judgements) <> 'array' then
    raise exception 'Judgements must be a list' using errcode = '22023', hint = 'judgements';
  end if;
  if p_outcome is not null and p_outcome not in ('competent', 'not-yet-competent') then
    raise exception 'The outcome is competent or not yet competent' using errcode = '22023', hint = 'outcome';
  end if;
  if p_notes is not null and char_length(p_notes) > 5000 then
    raise exception 'Notes must be at most 5000 characters' using errcode = '22023', hint = 'notes';
  end if;
  if exists (
    select 1 from jsonb_array_elements(p_judgements) j(value)
    where jsonb_typeof(j.value) <> 'object'
       or coalesce(j.value ->> 'result', '') not in ('competent', 'not-yet-competent')
       or coalesce(j.value ->> 'criterionId', '') !~ '^[0-9a-fA-F-]{36}$'
       or not exists (select 1 from public.assessment_criteria c
                      where c.id::text = lower(j.value ->> 'criterionId') and c.module_id = v_record.module_id)
  ) then
    raise exception 'Every judgement needs a criterion of this assessment and a result' using errcode = '22023', hint = 'judgements';
  end if;
  if (select count(*) from jsonb_array_elements(p_judgements)) <>
     (select count(distinct lower(j.value ->> 'criterionId')) from jsonb_array_elements(p_judgements) j(value)) then
    raise exception 'Judge each criterion once' using errcode = '22023', hint = 'judgements';
  end if;
  delete from public.assessment_judgements j where j.record_id = p_record_id;
  insert into public.assessment_judgements (record_id, criterion_id, result, note, criterion_title, critical)
  select p_record_id, c.id, j.value ->> 'result', nullif(btrim(j.value ->> 'note'), ''), c.title, c.critical
  from jsonb_array_elements(p_judgements) j(value)
  join public.assessment_criteria c on c.id::text = lower(j.value ->> 'criterionId');
  update public.assessment_records r
  set outcome = p_outcome, notes = nullif(btrim(p_notes), ''), updated_at = now()
  where r.id = p_record_id
  returning * into v_record;
  return v_record;
end;
$$;
comment on function private.save_assessment_record(uuid,jsonb,text,text) is
  'The draft''s assessor: replaces its judgements ([{criterionId, result, note}]), outcome and notes. 22023 (hint judgements) for a criterion of another module or a bad result; see private.my_assessment_draft for the rest.';
revoke all on function private.save_assessment_record(uuid,jsonb,text,text) from public;
grant execute on function private.save_assessment_record(uuid,jsonb,text,text) to authenticated;

-- A draft its assessor gives up (its evidence rows go with it; the caller removes the files).
create function private.discard_assessment_record(p_record_id uuid)
returns setof text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_record public.assessment_records := private.my_assessment_draft(p_record_id);
begin
  return query select e.object_name from public.assessment_evidence e where e.record_id = v_record.id;
  delete from public.assessment_records r where r.id = v_record.id;
end;
$$;
comment on function private.discard_assessment_record(uuid) is
  'The draft''s assessor: deletes the draft; returns its evidence object names for the caller to remove from storage.';
revoke all on function private.discard_assessment_record(uuid) from public;
grant execute on function private.discard_assessment_record(uuid) to authenticated;

-- Records an evidence file the api function checked and is storing under p_object_name.
create function private.add_assessment_evidence(
  p_record_id uuid, p_object_name text, p_content_type text, p_size_bytes integer, p_original_name text
)
returns public.assessment_evidence
language plpgsql security definer
set search_path = ''
as $$
declare
  v_record public.assessment_records := private.my_assessment_draft(p_record_id);
  v_evidence public.assessment_evidence;
begin
  if split_part(p_object_name, '/', 1) <> v_record.id::text then
    raise exception 'Evidence lies in its record''s folder' using errcode = '22023', hint = 'file';
  end if;
  if (select count(*) from public.assessment_evidence e where e.record_id = v_record.id) >= 20 then
    raise exception 'A record holds at most 20 evidence files' using errcode = 'P0409';
  end if;
  insert into public.assessment_evidence (record_id, object_name, content_type, size_bytes, original_name, uploaded_by)
  values (v_record.id, p_object_name, p_content_type, p_size_bytes, p_original_name, (select auth.uid()))
  returning * into v_evidence;
  perform private.audit_assessment('assessment.evidence_added', v_record,
    jsonb_build_object('evidenceId', v_evidence.id, 'fileName', v_evidence.original_name,
      'contentType', v_evidence.content_type, 'sizeBytes', v_evidence.size_bytes));
  return v_evidence;
end;
$$;
comment on function private.add_assessment_evidence(uuid,text,text,integer,text) is
  'The draft''s assessor: records an evidence file (checked and stored by the api function) and audits it. At most 20 per record (P0409).';
revoke all on function private.add_assessment_evidence(uuid,text,text,integer,text) from public;
grant execute on function private.add_assessment_evidence(uuid,text,text,integer,text) to authenticated;

-- Signs a draft: a judgement for every criterion, an outcome that no critical criterion contradicts.
create function private.sign_assessment_record(p_record_id uuid)
returns public.assessment_records
language plpgsql security definer
set search_path = ''
as $$
declare
  v_record public.assessment_records := private.my_assessment_draft(p_record_id);
begin
  if not exists (select 1 from public.assessment_criteria c where c.module_id = v_record.module_id) then
    raise exception 'This assessment has no criteria yet' using errcode = '22023', hint = 'judgements';
  end if;
  if exists (select 1 from public.assessment_criteria c
             where c.module_id = v_record.module_id
               and not exists (select 1 from public.assessment_judgements j
                               where j.record_id = v_record.id and j.criterion_id = c.id)) then
    raise exception 'Judge every criterion before signing' using errcode = '22023', hint = 'judgements';
  end if;
  if v_record.outcome is null then
    raise exception 'Choose the overall outcome before signing' using errcode = '22023', hint = 'outcome';
  end if;
  if v_record.outcome = 'competent' and exists (
    select 1 from public.assessment_judgements j
    join public.assessment_criteria c on c.id = j.criterion_id
    where j.record_id = v_record.id and c.critical and j.result = 'not-yet-competent') then
    raise exception 'The outcome cannot be competent while a critical criterion is not yet competent'
      using errcode = '22023', hint = 'outcome';
  end if;
  if exists (select 1 from public.enrollments e
             where e.user_id = v_record.learner_id and e.course_id = v_record.course_id and e.cycle <> v_record.cycle) then
    raise exception 'The learner has started a new cycle of the course since this draft began: start a new record'
      using errcode = 'P0409';
  end if;
  -- The criteria as they read when signed.
  update public.assessment_judgements j
  set criterion_title = c.title, critical = c.critical
  from public.assessment_criteria c
  where j.record_id = v_record.id and c.id = j.criterion_id;
  update public.assessment_records r set signed_at = now(), updated_at = now()
  where r.id = v_record.id
  returning * into v_record;
  if v_record.supersedes_id is not null then
    update public.assessment_records r set superseded_at = now() where r.id = v_record.supersedes_id;
  end if;
  update public.reassessment_requests q set answered_at = now()
  where q.module_id = v_record.module_id and q.learner_id = v_record.learner_id and q.answered_at is null;
  perform private.audit_assessment(
    case when v_record.supersedes_id is null then 'assessment.signed' else 'assessment.corrected' end,
    v_record, jsonb_build_object('supersedesId', v_record.supersedes_id));
  perform private.notify_assessment_recorded(v_record, false);
  perform private.settle_assessment(v_record.learner_id, v_record.module_id);
  return v_record;
end;
$$;
comment on function private.sign_assessment_record(uuid) is
  'The draft''s assessor: signs it (every criterion judged, an outcome, not competent with a critical criterion not yet competent: 22023 with hint judgements/outcome), supersedes the corrected record, answers open reassessment requests, audits, tells the learner and runs the completion path.';
revoke all on function private.sign_assessment_record(uuid) from public;
grant execute on function private.sign_assessment_record(uuid) to authenticated;

-- Countersigns a signed competent record of a module that needs a verifier.
create function private.verify_assessment_record(p_record_id uuid)
returns public.assessment_records
language plpgsql security definer
set search_path = ''
as $$
declare
  v_me uuid := (select auth.uid());
  v_record public.assessment_records;
begin
  select * into v_record from public.assessment_records r where r.id = p_record_id for update;
  if not found or not (private.assesses(v_record.course_id, v_record.learner_id) or v_record.assessor_id = v_me)
     or v_record.signed_at is null then
    raise exception 'Assessment record not found' using errcode = 'P0002';
  end if;
  if v_record.assessor_id = v_me then
    raise exception 'The verifier must be another assessor than the one who signed' using errcode = '42501';
  end if;
  if not private.assesses(v_record.course_id, v_record.learner_id) then
    raise exception 'You do not assess this learner on this course' using errcode = '42501';
  end if;
  if not coalesce((select s.needs_verifier from public.assessment_settings s where s.module_id = v_record.module_id), false) then
    raise exception 'This assessment needs no second signature' using errcode = 'P0409';
  end if;
  if v_record.verified_at is not null then
    raise exception 'This record is already verified' using errcode = 'P0409';
  end if;
  if v_record.superseded_at is not null then
    raise exception 'This record was corrected: verify the correction instead' using errcode = 'P0409';
  end if;
  if v_record.outcome <> 'competent' then
    raise exception 'Only a competent outcome needs a second signature' using errcode = 'P0409';
  end if;
  update public.assessment_records r
  set verifier_id = v_me, verified_at = now(), verifier_name = (select p.name from public.profiles p where p.id = v_me)
  where r.id = v_record.id
  returning * into v_record;
  perform private.audit_assessment('assessment.verified', v_record, jsonb_build_object('verifierId', v_me));
  perform private.notify_assessment_recorded(v_record, true);
  perform private.settle_assessment(v_record.learner_id, v_record.module_id);
  return v_record;
end;
$$;
comment on function private.verify_assessment_record(uuid) is
  'An assessor other than the signer: countersigns a signed, competent, current record of a module that needs a verifier (P0409 otherwise), audits, tells the learner and runs the completion path.';
revoke all on function private.verify_assessment_record(uuid) from public;
grant execute on function private.verify_assessment_record(uuid) to authenticated;

-- The learner asks to be assessed again: after a not-yet-competent outcome, or when their signed-off
-- practical is within 60 days of running out (or has).
create function private.request_reassessment(p_module_id uuid, p_reason text)
returns public.reassessment_requests
language plpgsql security definer
set search_path = ''
as $$
declare
  v_me uuid := (select auth.uid());
  v_module public.course_modules;
  v_cycle integer;
  v_reason text := btrim(p_reason);
  v_request public.reassessment_requests;
  v_learner public.profiles;
  v_course public.courses;
begin
  select * into v_module from public.course_modules m where m.id = p_module_id and m.kind = 'assessment';
  if not found or not private.can_view_course(v_module.course_id) then
    raise exception 'Practical assessment not found' using errcode = 'P0002';
  end if;
  select e.cycle into v_cycle from public.enrollments e
  where e.user_id = v_me and e.course_id = v_module.course_id and e.status = 'ACTIVE';
  if not found then
    raise exception 'Enrol on the course first' using errcode = '42501';
  end if;
  if v_reason is null or char_length(v_reason) not between 1 and 1000 then
    raise exception 'Give a reason of 1 to 1000 characters' using errcode = '22023', hint = 'reason';
  end if;
  if not private.may_request_reassessment(v_me, p_module_id) then
    raise exception 'You can ask for reassessment after a not yet competent outcome, or when your practical is due' using errcode = 'P0409';
  end if;
  insert into public.reassessment_requests (module_id, learner_id, cycle, reason)
  values (p_module_id, v_me, v_cycle, v_reason)
  returning * into v_request;
  select * into v_learner from public.profiles p where p.id = v_me;
  select * into v_course from public.courses c where c.id = v_module.course_id;
  perform private.write_assessment_notice(
    a.person_id, 'reassessment-requested', v_me, v_module.course_id, v_request.id, 0,
    'Reassessment requested: ' || v_learner.name || ', ' || v_module.title,
    v_learner.name || ' asks to be assessed again: ' || v_reason,
    jsonb_build_object('courseTitle', v_course.title, 'courseTitleCy', v_course.title_cy,
      'moduleTitle', v_module.title, 'moduleTitleCy', v_module.title_cy,
      'learnerName', v_learner.name, 'reason', v_reason),
    '/instructor/assessments')
  from private.learner_assessors(v_module.course_id, p_module_id, v_me) a;
  return v_request;
end;
$$;
comment on function private.request_reassessment(uuid,text) is
  'Learner: asks to be assessed again (after not yet competent, or when due; P0409 otherwise or while a request is open) with a reason (22023); the assessors get reassessment-requested notices.';
revoke all on function private.request_reassessment(uuid,text) from public;
grant execute on function private.request_reassessment(uuid,text) to authenticated;

-- Whether the learner may ask now: no open request, and the latest signed record says not yet
-- competent, or the signed-off practical runs out within 60 days (or did).
create function private.may_request_reassessment(p_user_id uuid, p_module_id uuid)
returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_record public.assessment_records;
  v_at timestamptz;
  v_months integer := (select s.valid_months from public.assessment_settings s where s.module_id = p_module_id);
begin
  if p_user_id is distinct from (select auth.uid()) then
    return false;
  end if;
  if exists (select 1 from public.reassessment_requests q
             where q.module_id = p_module_id and q.learner_id = p_user_id and q.answered_at is null) then
    return false;
  end if;
  v_record := private.deciding_assessment_record(p_user_id, p_module_id);
  if v_record.id is null then
    return false;
  end if;
  if v_record.outcome = 'not-yet-competent' then
    return true;
  end if;
  v_at := private.assessment_signed_off_at(p_user_id, p_module_id);
  return v_at is not null and v_months is not null
    and v_at + make_interval(months => v_months) <= now() + interval '60 days';
end;
$$;
comment on function private.may_request_reassessment(uuid,uuid) is
  'The caller (only of themselves): true when they have no open request and their latest signed record is not yet competent, or their signed-off practical runs out within 60 days.';
revoke all on function private.may_request_reassessment(uuid,uuid) from public;
grant execute on function private.may_request_reassessment(uuid,uuid) to authenticated;

-- The people a learner's reassessment request goes to: who signed their records of the module,
-- the people their organisation named for the course, and the instructors of the course's service
-- of their organisation (national instructors for a learner of none). Never the learner.
create function private.learner_assessors(p_course_id uuid, p_module_id uuid, p_learner_id uuid)
returns table(person_id uuid)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_org uuid := (select p.organisation_id from public.profiles p where p.id = p_learner_id);
  v_service public.service_code := (select c.service from public.courses c where c.id = p_course_id);
begin
  return query
    select distinct x.id from (
      select r.assessor_id as id from public.assessment_records r
      where r.module_id = p_module_id and r.learner_id = p_learner_id and r.signed_at is not null
      union
      select a.person_id from public.course_assessors a
      where a.course_id = p_course_id and a.organisation_id = v_org
      union
      select p.id from public.profiles p
      where p.role = 'INSTRUCTOR' and v_service = any (p.services)
        and p.organisation_id is not distinct from v_org
    ) x
    join public.profiles p on p.id = x.id
    where x.id <> p_learner_id and p.deactivated_at is null;
end;
$$;
comment on function private.learner_assessors(uuid,uuid,uuid) is
  'Internal: who hears of a learner''s reassessment request (their earlier assessors, the course''s named assessors and the service''s instructors of their organisation).';
revoke all on function private.learner_assessors(uuid,uuid,uuid) from public;

-- Naming assessors: an organisation's administrator for their organisation's people, a national
-- admin for anyone of an organisation; the course must be one the organisation's people can see.
create function private.name_course_assessor(p_course_id uuid, p_person_id uuid)
returns public.course_assessors
language plpgsql security definer
set search_path = ''
as $$
declare
  v_person public.profiles;
  v_course public.courses;
  v_row public.course_assessors;
begin
  if not (private.is_admin() or private.is_org_admin()) then
    raise exception 'Only an administrator names assessors' using errcode = '42501';
  end if;
  select * into v_course from public.courses c where c.id = p_course_id;
  if not found or not private.can_view_course(p_course_id) then
    raise exception 'Course not found' using errcode = 'P0002';
  end if;
  select * into v_person from public.profiles p where p.id = p_person_id;
  if not found or not private.administers(p_person_id) then
    raise exception 'Person not found' using errcode = 'P0002';
  end if;
  if v_person.organisation_id is null then
    raise exception 'Only a person of an organisation can be named assessor: national instructors of the service assess already'
      using errcode = '22023', hint = 'personId';
  end if;
  if v_person.deactivated_at is not null then
    raise exception 'This person is deactivated' using errcode = '22023', hint = 'personId';
  end if;
  if v_course.organisation_id is not null and v_course.organisation_id <> v_person.organisation_id then
    raise exception 'This course is another organisation''s' using errcode = '22023', hint = 'personId';
  end if;
  insert into public.course_assessors (course_id, person_id, organisation_id, named_by)
  values (p_course_id, p_person_id, v_person.organisation_id, (select auth.uid()))
  on conflict (course_id, person_id) do nothing
  returning * into v_row;
  if v_row.person_id is null then
    raise exception 'This person is already an assessor of the course' using errcode = 'P0409';
  end if;
  perform private.write_audit('course_assessor.named', 'user', p_person_id, v_person.name || ': ' || v_course.title,
    null, jsonb_build_object('courseId', p_course_id, 'organisationId', v_person.organisation_id));
  return v_row;
end;
$$;
comment on function private.name_course_assessor(uuid,uuid) is
  'Administrators: names a person of their organisation (national admin: of any organisation) assessor of a course that organisation can see; audited. 42501 not an administrator, P0002 unknown course or person, 22023 no organisation / deactivated / another organisation''s course, P0409 already named.';
revoke all on function private.name_course_assessor(uuid,uuid) from public;
grant execute on function private.name_course_assessor(uuid,uuid) to authenticated;

create function private.remove_course_assessor(p_course_id uuid, p_person_id uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.course_assessors;
begin
  delete from public.course_assessors a
  where a.course_id = p_course_id and a.person_id = p_person_id
    and (private.is_admin() or a.organisation_id = private.administered_organisation_id())
  returning * into v_row;
  if v_row.person_id is null then
    raise exception 'Assessor not found' using errcode = 'P0002';
  end if;
  perform private.write_audit('course_assessor.removed', 'user', p_person_id,
    (select p.name from public.profiles p where p.id = p_person_id) || ': '
      || (select c.title from public.courses c where c.id = p_course_id),
    jsonb_build_object('courseId', p_course_id, 'organisationId', v_row.organisation_id), null);
end;
$$;
comment on function private.remove_course_assessor(uuid,uuid) is
  'Administrators: removes an assessor their organisation named (national admin: any); audited. P0002 when there is none of theirs.';
revoke all on function private.remove_course_assessor(uuid,uuid) from public;
grant execute on function private.remove_course_assessor(uuid,uuid) to authenticated;

-- The caller's standing on a practical assessment module: whether they assess anyone on its course
-- (a national admin; an instructor of its service; a person named for it), when their own practical
-- was signed off in the current cycle and until when it is valid, and whether they may ask for
-- reassessment now.
create function private.my_assessment_standing(p_module_id uuid)
returns table(is_assessor boolean, signed_off_at timestamptz, valid_until timestamptz, can_request boolean)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_me uuid := (select auth.uid());
  v_course public.courses;
  v_me_row public.profiles;
  v_at timestamptz;
  v_months integer := (select s.valid_months from public.assessment_settings s where s.module_id = p_module_id);
begin
  select c.* into v_course from public.courses c
  join public.course_modules m on m.course_id = c.id
  where m.id = p_module_id and m.kind = 'assessment';
  if not found or v_me is null or not private.can_view_course(v_course.id) then
    raise exception 'Practical assessment not found' using errcode = 'P0002';
  end if;
  select * into v_me_row from public.profiles p where p.id = v_me;
  v_at := private.assessment_signed_off_at(v_me, p_module_id);
  return query select
    v_me_row.deactivated_at is null and (
      (v_me_row.role = 'ADMIN' and v_me_row.organisation_id is null)
      or (v_me_row.role = 'INSTRUCTOR' and v_course.service = any (v_me_row.services))
      or exists (select 1 from public.course_assessors a where a.course_id = v_course.id and a.person_id = v_me)),
    v_at,
    case when v_at is not null and v_months is not null then v_at + make_interval(months => v_months) end,
    private.may_request_reassessment(v_me, p_module_id);
end;
$$;
comment on function private.my_assessment_standing(uuid) is
  'The caller on a practical assessment module: whether they assess on its course, when their own practical was signed off (current cycle) and until when it is valid, and whether they may ask for reassessment; P0002 when they cannot see it.';
revoke all on function private.my_assessment_standing(uuid) from public;
grant execute on function private.my_assessment_standing(uuid) to authenticated;

-- An assessor's list of the module's learners (active enrolments they assess) with where each
-- stands in the current cycle: not-assessed | draft | awaiting-verification | competent |
-- not-yet-competent; p_status filters (null: all). Names are read here because a named assessor
-- reads no profiles or enrolments under their own row-level security.
create function private.assessment_learners(p_module_id uuid, p_status text, p_limit integer, p_offset integer)
returns table(
  learner_id uuid, name text, username text, cycle integer, state text, record_id uuid,
  signed_at timestamptz, reassessment_requested boolean, total bigint
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_module public.course_modules;
  v_needs boolean;
begin
  select * into v_module from public.course_modules m where m.id = p_module_id and m.kind = 'assessment';
  if not found or not private.can_view_course(v_module.course_id) then
    raise exception 'Practical assessment not found' using errcode = 'P0002';
  end if;
  if p_status is not null and p_status not in ('not-assessed', 'draft', 'awaiting-verification', 'competent', 'not-yet-competent') then
    raise exception 'Status must be not-assessed, draft, awaiting-verification, competent or not-yet-competent' using errcode = '22023', hint = 'status';
  end if;
  v_needs := coalesce((select s.needs_verifier from public.assessment_settings s where s.module_id = p_module_id), false);
  return query
    with people as (
      select e.user_id, e.cycle, p.name, p.username
      from public.enrollments e
      join public.profiles p on p.id = e.user_id
      where e.course_id = v_module.course_id and e.status = 'ACTIVE' and p.deactivated_at is null
        and private.assesses(v_module.course_id, e.user_id)
    ),
    judged as (
      select pe.*, d.id as draft_id, r.id as signed_id, r.outcome, r.signed_at, r.verified_at
      from people pe
      left join lateral (
        select x.id from public.assessment_records x
        where x.module_id = p_module_id and x.learner_id = pe.user_id and x.signed_at is null
      ) d on true
      left join lateral (
        select x.id, x.outcome, x.signed_at, x.verified_at from public.assessment_records x
        where x.module_id = p_module_id and x.learner_id = pe.user_id and x.cycle = pe.cycle
          and x.signed_at is not null and x.superseded_at is null
        order by x.signed_at desc limit 1
      ) r on true
    ),
    stated as (
      select j.*,
             case when j.draft_id is not null then 'draft'
                  when j.signed_id is null then 'not-assessed'
                  when j.outcome = 'not-yet-competent' then 'not-yet-competent'
                  when v_needs and j.verified_at is null then 'awaiting-verification'
                  else 'competent' end as state
      from judged j
    ),
    chosen as (
      select st.* from stated st where p_status is null or st.state = p_status
    )
    select c.user_id, c.name, c.username, c.cycle, c.state, coalesce(c.draft_id, c.signed_id), c.signed_at,
           exists (select 1 from public.reassessment_requests q
                   where q.module_id = p_module_id and q.learner_id = c.user_id and q.answered_at is null),
           count(*) over ()
    from chosen c
    order by c.name, c.user_id
    limit p_limit offset p_offset;
end;
$$;
comment on function private.assessment_learners(uuid,text,integer,integer) is
  'Assessor: the module''s enrolled learners they assess, with each one''s state in the current cycle (not-assessed, draft, awaiting-verification, competent, not-yet-competent), their current record, an open reassessment request and the total; P0002 unknown module, 22023 unknown status.';
revoke all on function private.assessment_learners(uuid,text,integer,integer) from public;
grant execute on function private.assessment_learners(uuid,text,integer,integer) to authenticated;

-- The caller's queue: awaiting-sign-off (their own drafts), awaiting-verification (competent
-- records of modules that need a verifier, signed by someone else, of learners they assess) or
-- signed (every signed record of learners they assess, newest first, for the export).
create function private.assessment_queue(p_state text, p_limit integer, p_offset integer)
returns table(
  record_id uuid, module_id uuid, module_title text, course_id uuid, course_title text,
  learner_id uuid, learner_name text, cycle integer, assessor_name text, outcome text, notes text,
  created_at timestamptz, signed_at timestamptz, verifier_name text, verified_at timestamptz,
  superseded_at timestamptz, needs_verifier boolean, total bigint
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_me uuid := (select auth.uid());
begin
  if p_state not in ('awaiting-sign-off', 'awaiting-verification', 'signed') or p_state is null then
    raise exception 'State must be awaiting-sign-off, awaiting-verification or signed' using errcode = '22023', hint = 'state';
  end if;
  return query
    select r.id, r.module_id, m.title, r.course_id, c.title, r.learner_id, r.learner_name, r.cycle, r.assessor_name, r.outcome, r.notes,
           r.created_at, r.signed_at, r.verifier_name, r.verified_at, r.superseded_at, coalesce(s.needs_verifier, false),
           count(*) over ()
    from public.assessment_records r
    join public.course_modules m on m.id = r.module_id
    join public.courses c on c.id = r.course_id
    left join public.assessment_settings s on s.module_id = r.module_id
    where v_me is not null
      and case p_state
        when 'awaiting-sign-off' then r.assessor_id = v_me and r.signed_at is null
        when 'awaiting-verification' then r.signed_at is not null and r.verified_at is null and r.superseded_at is null
          and r.outcome = 'competent' and coalesce(s.needs_verifier, false)
          and r.assessor_id is distinct from v_me
        else r.signed_at is not null
      end
      and private.assesses(r.course_id, r.learner_id)
    order by case when p_state = 'signed' then r.signed_at end desc nulls last, r.created_at, r.id
    limit p_limit offset p_offset;
end;
$$;
comment on function private.assessment_queue(text,integer,integer) is
  'Assessor: their drafts (awaiting-sign-off), the competent records awaiting their countersignature (awaiting-verification) or the signed records of learners they assess (signed), with names and the total; 22023 unknown state.';
revoke all on function private.assessment_queue(text,integer,integer) from public;
grant execute on function private.assessment_queue(text,integer,integer) to authenticated;

-- A signed record never changes: only the countersignature (once), being superseded (once) and a
-- person's id cleared when their profile is deleted.
create function private.keep_signed_assessment_record()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    -- Deleted with its learner, module or course (cascades), never on its own once signed.
    if old.signed_at is not null
       and exists (select 1 from public.profiles p where p.id = old.learner_id)
       and exists (select 1 from public.course_modules m where m.id = old.module_id) then
      raise exception 'A signed assessment record is kept' using errcode = '55000';
    end if;
    return old;
  end if;
  if old.signed_at is null then
    return new;
  end if;
  if (to_jsonb(new) - array['assessor_id', 'verifier_id', 'verifier_name', 'verified_at', 'superseded_at', 'updated_at'])
       is distinct from (to_jsonb(old) - array['assessor_id', 'verifier_id', 'verifier_name', 'verified_at', 'superseded_at', 'updated_at'])
     or (old.verified_at is not null and new.verifier_name is distinct from old.verifier_name)
     or (new.assessor_id is distinct from old.assessor_id
         and (new.assessor_id is not null or exists (select 1 from public.profiles p where p.id = old.assessor_id)))
     or (old.verified_at is not null and new.verified_at is distinct from old.verified_at)
     or (old.verified_at is not null and new.verifier_id is distinct from old.verifier_id
         and (new.verifier_id is not null or exists (select 1 from public.profiles p where p.id = old.verifier_id)))
     or (old.verified_at is null and (new.verified_at is null) <> (new.verifier_id is null))
     or (old.superseded_at is not null and new.superseded_at is distinct from old.superseded_at) then
    raise exception 'A signed assessment record cannot change: sign a correction instead' using errcode = '55000';
  end if;
  return new;
end;
$$;
comment on function private.keep_signed_assessment_record() is
  'Before update or delete on assessment_records: once signed, only the countersignature (once) and superseded_at (once) may be set, and a deleted person''s id cleared; no delete but with the learner or module (55000).';
revoke all on function private.keep_signed_assessment_record() from public;

create function private.keep_signed_assessment_parts()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_record_id uuid := case when tg_op = 'DELETE' then old.record_id else new.record_id end;
begin
  if exists (select 1 from public.assessment_records r where r.id = v_record_id and r.signed_at is not null) then
    if tg_op = 'UPDATE' and tg_table_name = 'assessment_evidence'
       and (to_jsonb(new) - 'uploaded_by') = (to_jsonb(old) - 'uploaded_by') and to_jsonb(new) ->> 'uploaded_by' is null then
      return new;
    end if;
    raise exception 'The judgements and evidence of a signed record cannot change' using errcode = '55000';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;
comment on function private.keep_signed_assessment_parts() is
  'Before insert, update or delete on assessment_judgements and assessment_evidence: refused once the record is signed (55000), but for a deleted uploader''s id cleared.';
revoke all on function private.keep_signed_assessment_parts() from public;

-- courses.available_in_welsh follows the criteria (02_courses_and_modules.sql).
create function private.note_criteria_in_welsh()
returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- A criterion deleted with its module finds no module: the module's own trigger refreshes the course.
  if tg_op = 'INSERT' then
    perform private.refresh_courses_in_welsh(array(
      select distinct m.course_id from new_rows n join public.course_modules m on m.id = n.module_id));
  elsif tg_op = 'DELETE' then
    perform private.refresh_courses_in_welsh(array(
      select distinct m.course_id from old_rows o join public.course_modules m on m.id = o.module_id));
  else
    perform private.refresh_courses_in_welsh(array(
      select m.course_id from (select o.module_id from old_rows o union select n.module_id from new_rows n) x
      join public.course_modules m on m.id = x.module_id));
  end if;
  return null;
end;
$$;
comment on function private.note_criteria_in_welsh() is
  'After insert, update or delete on assessment_criteria (statement level): refreshes available_in_welsh of their courses.';
revoke all on function private.note_criteria_in_welsh() from public;

-- ---------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------

create trigger assessment_settings_set_updated_at
  before update on public.assessment_settings
  for each row execute function private.set_updated_at();

create trigger assessment_settings_check_module
  before insert or update of module_id on public.assessment_settings
  for each row execute function private.check_assessment_module();

create trigger assessment_criteria_set_updated_at
  before update on public.assessment_criteria
  for each row execute function private.set_updated_at();

create trigger assessment_criteria_check_module
  before insert or update of module_id on public.assessment_criteria
  for each row execute function private.check_assessment_module();

create trigger assessment_criteria_in_welsh_insert
  after insert on public.assessment_criteria
  referencing new table as new_rows
  for each statement execute function private.note_criteria_in_welsh();

create trigger assessment_criteria_in_welsh_update
  after update on public.assessment_criteria
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.note_criteria_in_welsh();

create trigger assessment_criteria_in_welsh_delete
  after delete on public.assessment_criteria
  referencing old table as old_rows
  for each statement execute function private.note_criteria_in_welsh();

create trigger assessment_records_keep_signed
  before update or delete on public.assessment_records
  for each row execute function private.keep_signed_assessment_record();

create trigger assessment_judgements_keep_signed
  before insert or update or delete on public.assessment_judgements
  for each row execute function private.keep_signed_assessment_parts();

create trigger assessment_evidence_keep_signed
  before insert or update or delete on public.assessment_evidence
  for each row execute function private.keep_signed_assessment_parts();
