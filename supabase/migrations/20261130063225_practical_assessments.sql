-- practical_assessments: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE TABLE "public"."assessment_criteria" (
  "id"          uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "module_id"   uuid                     NOT NULL,
  "order_index" integer                  NOT NULL DEFAULT 1,
  "title"       text                     NOT NULL,
  "title_cy"    text,
  "guidance"    text,
  "guidance_cy" text,
  "critical"    boolean                  NOT NULL DEFAULT false,
  "created_at"  timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at"  timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "assessment_criteria_guidance_cy_length" CHECK (((guidance_cy IS NULL) OR ((char_length(btrim(guidance_cy)) >= 1) AND (char_length(btrim(guidance_cy)) <= 2000)))),
  CONSTRAINT "assessment_criteria_guidance_length" CHECK (((guidance IS NULL) OR ((char_length(btrim(guidance)) >= 1) AND (char_length(btrim(guidance)) <= 2000)))),
  CONSTRAINT "assessment_criteria_order_positive" CHECK ((order_index >= 1)),
  CONSTRAINT "assessment_criteria_pkey" PRIMARY KEY (id),
  CONSTRAINT "assessment_criteria_title_cy_length" CHECK (((title_cy IS NULL) OR ((char_length(btrim(title_cy)) >= 3) AND (char_length(btrim(title_cy)) <= 300)))),
  CONSTRAINT "assessment_criteria_title_length" CHECK (((char_length(btrim(title)) >= 3) AND (char_length(btrim(title)) <= 300)))
);

ALTER TABLE "public"."assessment_criteria"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."assessment_evidence" (
  "id"            uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "record_id"     uuid                     NOT NULL,
  "object_name"   text                     NOT NULL,
  "content_type"  text                     NOT NULL,
  "size_bytes"    integer                  NOT NULL,
  "original_name" text                     NOT NULL,
  "uploaded_by"   uuid,
  "uploaded_at"   timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "assessment_evidence_content_type_known" CHECK ((content_type = ANY (ARRAY['image/jpeg'::text, 'image/png'::text, 'application/pdf'::text]))),
  CONSTRAINT "assessment_evidence_object_name_key" UNIQUE (object_name),
  CONSTRAINT "assessment_evidence_object_name_shape" CHECK ((object_name ~ '^[0-9a-f-]{36}/[0-9a-f-]{36}\.(jpg|png|pdf)$'::text)),
  CONSTRAINT "assessment_evidence_original_name_length" CHECK (((char_length(original_name) >= 1) AND (char_length(original_name) <= 255))),
  CONSTRAINT "assessment_evidence_pkey" PRIMARY KEY (id),
  CONSTRAINT "assessment_evidence_size_range" CHECK (((size_bytes >= 1) AND (size_bytes <= 10485760)))
);

ALTER TABLE "public"."assessment_evidence"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."assessment_judgements" (
  "record_id"       uuid    NOT NULL,
  "criterion_id"    uuid    NOT NULL,
  "result"          text    NOT NULL,
  "note"            text,
  "criterion_title" text    NOT NULL,
  "critical"        boolean NOT NULL,
  CONSTRAINT "assessment_judgements_note_length" CHECK (((note IS NULL) OR (char_length(note) <= 2000))),
  CONSTRAINT "assessment_judgements_pkey" PRIMARY KEY (record_id, criterion_id),
  CONSTRAINT "assessment_judgements_result_known" CHECK ((result = ANY (ARRAY['competent'::text, 'not-yet-competent'::text])))
);

ALTER TABLE "public"."assessment_judgements"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."assessment_records" (
  "id"            uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "module_id"     uuid                     NOT NULL,
  "course_id"     uuid                     NOT NULL,
  "learner_id"    uuid                     NOT NULL,
  "cycle"         integer                  NOT NULL,
  "assessor_id"   uuid,
  "outcome"       text,
  "notes"         text,
  "created_at"    timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at"    timestamp with time zone NOT NULL DEFAULT now(),
  "signed_at"     timestamp with time zone,
  "verifier_id"   uuid,
  "verified_at"   timestamp with time zone,
  "supersedes_id" uuid,
  "superseded_at" timestamp with time zone,
  "learner_name"  text                     NOT NULL,
  "assessor_name" text                     NOT NULL,
  "verifier_name" text,
  CONSTRAINT "assessment_records_cycle_positive" CHECK ((cycle >= 1)),
  CONSTRAINT "assessment_records_not_self_assessed" CHECK ((assessor_id IS DISTINCT FROM learner_id)),
  CONSTRAINT "assessment_records_notes_length" CHECK (((notes IS NULL) OR (char_length(notes) <= 5000))),
  CONSTRAINT "assessment_records_outcome_known" CHECK (((outcome IS NULL) OR (outcome = ANY (ARRAY['competent'::text, 'not-yet-competent'::text])))),
  CONSTRAINT "assessment_records_pkey" PRIMARY KEY (id),
  CONSTRAINT "assessment_records_signed_with_outcome" CHECK (((signed_at IS NULL) OR (outcome IS NOT NULL))),
  CONSTRAINT "assessment_records_superseded_after_signing" CHECK (((superseded_at IS NULL) OR (signed_at IS NOT NULL))),
  CONSTRAINT "assessment_records_verified_after_signing" CHECK (((verified_at IS NULL) OR (signed_at IS NOT NULL))),
  CONSTRAINT "assessment_records_verifier_not_assessor" CHECK (((verifier_id IS NULL) OR ((verifier_id IS DISTINCT FROM assessor_id) AND (verifier_id <> learner_id))))
);

ALTER TABLE "public"."assessment_records"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."assessment_settings" (
  "module_id"      uuid                     NOT NULL,
  "needs_verifier" boolean                  NOT NULL DEFAULT false,
  "valid_months"   integer,
  "created_at"     timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at"     timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "assessment_settings_pkey" PRIMARY KEY (module_id),
  CONSTRAINT "assessment_settings_valid_months_range" CHECK (((valid_months IS NULL) OR ((valid_months >= 1) AND (valid_months <= 120))))
);

ALTER TABLE "public"."assessment_settings"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."course_assessors" (
  "course_id"       uuid                     NOT NULL,
  "person_id"       uuid                     NOT NULL,
  "organisation_id" uuid                     NOT NULL,
  "named_by"        uuid,
  "named_at"        timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "course_assessors_pkey" PRIMARY KEY (course_id, person_id)
);

ALTER TABLE "public"."course_assessors"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."reassessment_requests" (
  "id"           uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "module_id"    uuid                     NOT NULL,
  "learner_id"   uuid                     NOT NULL,
  "cycle"        integer                  NOT NULL,
  "reason"       text                     NOT NULL,
  "requested_at" timestamp with time zone NOT NULL DEFAULT now(),
  "answered_at"  timestamp with time zone,
  CONSTRAINT "reassessment_requests_cycle_positive" CHECK ((cycle >= 1)),
  CONSTRAINT "reassessment_requests_pkey" PRIMARY KEY (id),
  CONSTRAINT "reassessment_requests_reason_length" CHECK (((char_length(btrim(reason)) >= 1) AND (char_length(btrim(reason)) <= 1000)))
);

ALTER TABLE "public"."reassessment_requests"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION private.add_assessment_evidence (
  p_record_id     uuid,
  p_object_name   text,
  p_content_type  text,
  p_size_bytes    integer,
  p_original_name text
)
  RETURNS public.assessment_evidence
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.assesses (
  p_course_id  uuid,
  p_learner_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.assessment_learners (
  p_module_id uuid,
  p_status    text,
  p_limit     integer,
  p_offset    integer
)
  RETURNS TABLE (
    learner_id             uuid,
    name                   text,
    username               text,
    cycle                  integer,
    state                  text,
    record_id              uuid,
    signed_at              timestamp with time zone,
    reassessment_requested boolean,
    total                  bigint
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.assessment_queue (
  p_state  text,
  p_limit  integer,
  p_offset integer
)
  RETURNS TABLE (
    record_id      uuid,
    module_id      uuid,
    module_title   text,
    course_id      uuid,
    course_title   text,
    learner_id     uuid,
    learner_name   text,
    cycle          integer,
    assessor_name  text,
    outcome        text,
    notes          text,
    created_at     timestamp with time zone,
    signed_at      timestamp with time zone,
    verifier_name  text,
    verified_at    timestamp with time zone,
    superseded_at  timestamp with time zone,
    needs_verifier boolean,
    total          bigint
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.assessment_signed_off (
  p_user_id   uuid,
  p_module_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return private.assessment_signed_off_at(p_user_id, p_module_id) is not null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.assessment_signed_off_at (
  p_user_id   uuid,
  p_module_id uuid
)
  RETURNS timestamp WITH time zone
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.audit_assessment (
  p_action text,
  p_record public.assessment_records,
  p_new    jsonb
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  perform private.write_audit(
    p_action, 'user', p_record.learner_id,
    p_record.learner_name || ': ' || (select m.title from public.course_modules m where m.id = p_record.module_id),
    null,
    jsonb_build_object('recordId', p_record.id, 'moduleId', p_record.module_id, 'courseId', p_record.course_id,
      'outcome', p_record.outcome, 'cycle', p_record.cycle) || coalesce(p_new, '{}'::jsonb));
end;
$function$;

CREATE OR REPLACE FUNCTION private.check_assessment_module()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if not exists (select 1 from public.course_modules m where m.id = new.module_id and m.kind = 'assessment') then
    raise exception 'This module is not a practical assessment' using errcode = '22023', hint = 'module_id';
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.course_parts_in_welsh (
  p_course_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return not exists (
      select 1 from public.course_modules m
      where m.course_id = p_course_id
        and (m.title_cy is null or (m.kind = 'content' and m.content_cy is null)))
    and not exists (
      select 1 from public.course_modules m
      join public.quizzes q on q.module_id = m.id
      where m.course_id = p_course_id
        and (q.title_cy is null or (q.description is not null and q.description_cy is null)))
    and not exists (
      select 1 from public.course_modules m
      join public.quizzes q on q.module_id = m.id
      join public.quiz_questions qq on qq.quiz_id = q.id
      where m.course_id = p_course_id
        and (qq.question_text_cy is null or qq.options_cy is null
             or (qq.explanation is not null and qq.explanation_cy is null)))
    -- practical assessments' criteria (26_practical_assessments.sql)
    and not exists (
      select 1 from public.course_modules m
      join public.assessment_criteria ac on ac.module_id = m.id
      where m.course_id = p_course_id
        and (ac.title_cy is null or (ac.guidance is not null and ac.guidance_cy is null)));
end;
$function$;

CREATE OR REPLACE FUNCTION private.deciding_assessment_record (
  p_user_id   uuid,
  p_module_id uuid
)
  RETURNS public.assessment_records
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.discard_assessment_record (
  p_record_id uuid
)
  RETURNS SETOF text
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_record public.assessment_records := private.my_assessment_draft(p_record_id);
begin
  return query select e.object_name from public.assessment_evidence e where e.record_id = v_record.id;
  delete from public.assessment_records r where r.id = v_record.id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.issue_certificate (
  p_user_id   uuid,
  p_course_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  insert into public.certificates (user_id, course_id, cycle, learner_name, organisation_name, course_title, course_title_cy, service, template, expires_at)
  select p.id, c.id, e.cycle, p.name, o.name, c.title, c.title_cy, c.service,
         coalesce((select s.certificate_template from public.settings s where s.id), 'standard'),
         -- The earliest of the course's validity and its practicals' (26_practical_assessments.sql);
         -- a practical already run out still gives a certificate that expires after it was issued.
         (select case when x.until is not null then greatest(x.until, now() + interval '1 day') end
          from (select least(case when c.certificate_valid_months is not null
                                  then now() + make_interval(months => c.certificate_valid_months) end,
                             private.practical_valid_until(p.id, c.id)) as until) x)
  from public.profiles p
  join public.enrollments e on e.user_id = p.id and e.course_id = p_course_id
  join public.courses c on c.id = e.course_id
  left join public.organisations o on o.id = p.organisation_id
  where p.id = p_user_id
  on conflict (user_id, course_id, cycle) do nothing;
end;
$function$;

CREATE OR REPLACE FUNCTION private.keep_signed_assessment_parts()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.keep_signed_assessment_record()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.learner_assessors (
  p_course_id  uuid,
  p_module_id  uuid,
  p_learner_id uuid
)
  RETURNS TABLE (
    person_id uuid
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.may_request_reassessment (
  p_user_id   uuid,
  p_module_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.my_assessment_draft (
  p_record_id uuid
)
  RETURNS public.assessment_records
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.name_course_assessor (
  p_course_id uuid,
  p_person_id uuid
)
  RETURNS public.course_assessors
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.note_criteria_in_welsh()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.notify_assessment_recorded (
  p_record   public.assessment_records,
  p_verified boolean
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.practical_valid_until (
  p_user_id   uuid,
  p_course_id uuid
)
  RETURNS timestamp WITH time zone
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return (
    select min(private.assessment_signed_off_at(p_user_id, s.module_id) + make_interval(months => s.valid_months))
    from public.assessment_settings s
    join public.course_modules m on m.id = s.module_id
    where m.course_id = p_course_id and m.kind = 'assessment' and s.valid_months is not null
  );
end;
$function$;

CREATE OR REPLACE FUNCTION private.remove_course_assessor (
  p_course_id uuid,
  p_person_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.request_reassessment (
  p_module_id uuid,
  p_reason    text
)
  RETURNS public.reassessment_requests
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.save_assessment_record (
  p_record_id  uuid,
  p_judgements jsonb,
  p_outcome    text,
  p_notes      text
)
  RETURNS public.assessment_records
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.settle_assessment (
  p_user_id   uuid,
  p_module_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.sign_assessment_record (
  p_record_id uuid
)
  RETURNS public.assessment_records
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.start_assessment_record (
  p_module_id     uuid,
  p_learner_id    uuid,
  p_supersedes_id uuid DEFAULT NULL::uuid
)
  RETURNS public.assessment_records
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.verify_assessment_record (
  p_record_id uuid
)
  RETURNS public.assessment_records
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.write_assessment_notice (
  p_recipient uuid,
  p_kind      text,
  p_person    uuid,
  p_course    uuid,
  p_subject   uuid,
  p_threshold integer,
  p_title     text,
  p_body      text,
  p_data      jsonb,
  p_link      text
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

ALTER TABLE "public"."assessment_criteria"
  ADD CONSTRAINT "assessment_criteria_module_id_fkey" FOREIGN KEY (module_id) REFERENCES public.course_modules(id) ON DELETE CASCADE;

ALTER TABLE "public"."assessment_evidence"
  ADD CONSTRAINT "assessment_evidence_uploaded_by_fkey" FOREIGN KEY (uploaded_by) REFERENCES public.profiles(id) ON DELETE SET NULL;

ALTER TABLE "public"."assessment_judgements"
  ADD CONSTRAINT "assessment_judgements_criterion_id_fkey" FOREIGN KEY (criterion_id) REFERENCES public.assessment_criteria(id);

ALTER TABLE "public"."assessment_records"
  ADD CONSTRAINT "assessment_records_assessor_id_fkey" FOREIGN KEY (assessor_id) REFERENCES public.profiles(id) ON DELETE SET NULL;

ALTER TABLE "public"."assessment_records"
  ADD CONSTRAINT "assessment_records_course_id_fkey" FOREIGN KEY (course_id) REFERENCES public.courses(id) ON DELETE CASCADE;

ALTER TABLE "public"."assessment_records"
  ADD CONSTRAINT "assessment_records_learner_id_fkey" FOREIGN KEY (learner_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

ALTER TABLE "public"."assessment_records"
  ADD CONSTRAINT "assessment_records_module_id_fkey" FOREIGN KEY (module_id) REFERENCES public.course_modules(id) ON DELETE CASCADE;

ALTER TABLE "public"."assessment_evidence"
  ADD CONSTRAINT "assessment_evidence_record_id_fkey" FOREIGN KEY (record_id) REFERENCES public.assessment_records(id) ON DELETE CASCADE;

ALTER TABLE "public"."assessment_judgements"
  ADD CONSTRAINT "assessment_judgements_record_id_fkey" FOREIGN KEY (record_id) REFERENCES public.assessment_records(id) ON DELETE CASCADE;

ALTER TABLE "public"."assessment_records"
  ADD CONSTRAINT "assessment_records_supersedes_id_fkey" FOREIGN KEY (supersedes_id) REFERENCES public.assessment_records(id) ON DELETE CASCADE;

ALTER TABLE "public"."assessment_records"
  ADD CONSTRAINT "assessment_records_verifier_id_fkey" FOREIGN KEY (verifier_id) REFERENCES public.profiles(id) ON DELETE SET NULL;

ALTER TABLE "public"."assessment_settings"
  ADD CONSTRAINT "assessment_settings_module_id_fkey" FOREIGN KEY (module_id) REFERENCES public.course_modules(id) ON DELETE CASCADE;

ALTER TABLE "public"."course_assessors"
  ADD CONSTRAINT "course_assessors_course_id_fkey" FOREIGN KEY (course_id) REFERENCES public.courses(id) ON DELETE CASCADE;

ALTER TABLE "public"."course_assessors"
  ADD CONSTRAINT "course_assessors_named_by_fkey" FOREIGN KEY (named_by) REFERENCES public.profiles(id) ON DELETE SET NULL;

ALTER TABLE "public"."course_assessors"
  ADD CONSTRAINT "course_assessors_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id) ON DELETE CASCADE;

ALTER TABLE "public"."course_assessors"
  ADD CONSTRAINT "course_assessors_person_id_fkey" FOREIGN KEY (person_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

ALTER TABLE "public"."reassessment_requests"
  ADD CONSTRAINT "reassessment_requests_learner_id_fkey" FOREIGN KEY (learner_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

ALTER TABLE "public"."reassessment_requests"
  ADD CONSTRAINT "reassessment_requests_module_id_fkey" FOREIGN KEY (module_id) REFERENCES public.course_modules(id) ON DELETE CASCADE;

CREATE INDEX assessment_criteria_module_order_idx ON public.assessment_criteria USING btree (module_id, order_index);

CREATE INDEX assessment_evidence_record_idx ON public.assessment_evidence USING btree (record_id);

CREATE INDEX assessment_evidence_uploaded_by_idx ON public.assessment_evidence USING btree (uploaded_by);

CREATE INDEX assessment_judgements_criterion_idx ON public.assessment_judgements USING btree (criterion_id);

CREATE INDEX assessment_records_assessor_idx ON public.assessment_records USING btree (assessor_id, signed_at);

CREATE INDEX assessment_records_awaiting_verification_idx ON public.assessment_records USING btree (module_id)
  WHERE ((signed_at IS NOT NULL) AND (verified_at IS NULL) AND (superseded_at IS NULL));

CREATE INDEX assessment_records_course_idx ON public.assessment_records USING btree (course_id);

CREATE INDEX assessment_records_learner_idx ON public.assessment_records USING btree (learner_id);

CREATE INDEX assessment_records_module_learner_idx ON public.assessment_records USING btree (module_id, learner_id, created_at DESC);

CREATE UNIQUE INDEX assessment_records_one_draft_idx ON public.assessment_records USING btree (module_id, learner_id)
  WHERE (signed_at IS NULL);

CREATE UNIQUE INDEX assessment_records_supersedes_idx ON public.assessment_records USING btree (supersedes_id);

CREATE INDEX assessment_records_verifier_idx ON public.assessment_records USING btree (verifier_id);

CREATE INDEX course_assessors_named_by_idx ON public.course_assessors USING btree (named_by);

CREATE INDEX course_assessors_organisation_idx ON public.course_assessors USING btree (organisation_id, course_id);

CREATE INDEX course_assessors_person_idx ON public.course_assessors USING btree (person_id);

CREATE INDEX reassessment_requests_learner_idx ON public.reassessment_requests USING btree (learner_id);

CREATE INDEX reassessment_requests_module_learner_idx ON public.reassessment_requests USING btree (module_id, learner_id);

CREATE UNIQUE INDEX reassessment_requests_one_open_idx ON public.reassessment_requests USING btree (module_id, learner_id)
  WHERE (answered_at IS NULL);

CREATE TRIGGER assessment_criteria_check_module
  BEFORE INSERT OR UPDATE OF module_id ON public.assessment_criteria
  FOR EACH ROW
  EXECUTE FUNCTION private.check_assessment_module();

CREATE TRIGGER assessment_criteria_in_welsh_delete
  AFTER DELETE ON public.assessment_criteria REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_criteria_in_welsh();

CREATE TRIGGER assessment_criteria_in_welsh_insert
  AFTER INSERT ON public.assessment_criteria REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_criteria_in_welsh();

CREATE TRIGGER assessment_criteria_in_welsh_update
  AFTER UPDATE ON public.assessment_criteria REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_criteria_in_welsh();

CREATE TRIGGER assessment_criteria_set_updated_at
  BEFORE UPDATE ON public.assessment_criteria
  FOR EACH ROW
  EXECUTE FUNCTION private.set_updated_at();

CREATE TRIGGER assessment_evidence_keep_signed
  BEFORE INSERT OR DELETE OR UPDATE ON public.assessment_evidence
  FOR EACH ROW
  EXECUTE FUNCTION private.keep_signed_assessment_parts();

CREATE TRIGGER assessment_judgements_keep_signed
  BEFORE INSERT OR DELETE OR UPDATE ON public.assessment_judgements
  FOR EACH ROW
  EXECUTE FUNCTION private.keep_signed_assessment_parts();

CREATE TRIGGER assessment_records_keep_signed
  BEFORE DELETE OR UPDATE ON public.assessment_records
  FOR EACH ROW
  EXECUTE FUNCTION private.keep_signed_assessment_record();

CREATE TRIGGER assessment_settings_check_module
  BEFORE INSERT OR UPDATE OF module_id ON public.assessment_settings
  FOR EACH ROW
  EXECUTE FUNCTION private.check_assessment_module();

CREATE TRIGGER assessment_settings_set_updated_at
  BEFORE UPDATE ON public.assessment_settings
  FOR EACH ROW
  EXECUTE FUNCTION private.set_updated_at();

CREATE POLICY "assessment criteria: module authors and national admins add" ON "public"."assessment_criteria"
  FOR INSERT
  TO "authenticated"
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))));

CREATE POLICY "assessment criteria: module authors and national admins delete" ON "public"."assessment_criteria"
  FOR DELETE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))));

CREATE POLICY "assessment criteria: module authors and national admins update" ON "public"."assessment_criteria"
  FOR UPDATE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))))
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))));

CREATE POLICY "assessment criteria: who sees the module reads" ON "public"."assessment_criteria"
  FOR SELECT
  TO "authenticated"
  USING ((EXISTS ( SELECT 1
   FROM public.course_modules m
  WHERE (m.id = assessment_criteria.module_id))));

CREATE POLICY "assessment evidence: who reads the record reads" ON "public"."assessment_evidence"
  FOR SELECT
  TO "authenticated"
  USING ((EXISTS ( SELECT 1
   FROM public.assessment_records r
  WHERE (r.id = assessment_evidence.record_id))));

CREATE POLICY "assessment judgements: who reads the record reads" ON "public"."assessment_judgements"
  FOR SELECT
  TO "authenticated"
  USING ((EXISTS ( SELECT 1
   FROM public.assessment_records r
  WHERE (r.id = assessment_judgements.record_id))));

CREATE POLICY "assessment records: learner, assessors, managers and administra" ON "public"."assessment_records"
  FOR SELECT
  TO "authenticated"
  USING
    ((( SELECT private.is_admin() AS is_admin) OR (assessor_id = ( SELECT auth.uid() AS uid)) OR (learner_id IN ( SELECT private.people_i_administer() AS people_i_administer)) OR
    ((signed_at IS
    NOT NULL) AND
    ((learner_id = ( SELECT auth.uid() AS uid)) OR (learner_id IN ( SELECT private.managed_person_ids() AS managed_person_ids)) OR private.assesses(course_id, learner_id)))));

CREATE POLICY "assessment settings: module authors and national admins add" ON "public"."assessment_settings"
  FOR INSERT
  TO "authenticated"
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))));

CREATE POLICY "assessment settings: module authors and national admins delete" ON "public"."assessment_settings"
  FOR DELETE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))));

CREATE POLICY "assessment settings: module authors and national admins update" ON "public"."assessment_settings"
  FOR UPDATE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))))
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (module_id IN ( SELECT private.authored_module_ids() AS authored_module_ids))));

CREATE POLICY "assessment settings: who sees the module reads" ON "public"."assessment_settings"
  FOR SELECT
  TO "authenticated"
  USING ((EXISTS ( SELECT 1
   FROM public.course_modules m
  WHERE (m.id = assessment_settings.module_id))));

CREATE POLICY "course assessors: self, administrators and course authors read" ON "public"."course_assessors"
  FOR SELECT
  TO "authenticated"
  USING
    (((person_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS
    administered_organisation_id)) OR (course_id IN ( SELECT private.authored_course_ids() AS authored_course_ids))));

CREATE POLICY "reassessment requests: learner, assessors, managers and adminis" ON "public"."reassessment_requests"
  FOR SELECT
  TO "authenticated"
  USING
    (((learner_id = ( SELECT auth.uid() AS uid)) OR ( SELECT private.is_admin() AS is_admin) OR (learner_id IN ( SELECT private.people_i_administer() AS people_i_administer)) OR
    (learner_id IN ( SELECT private.managed_person_ids() AS managed_person_ids)) OR private.assesses(( SELECT m.course_id
   FROM public.course_modules m
  WHERE (m.id = reassessment_requests.module_id)), learner_id)));

CREATE POLICY "assessment evidence files: who reads the evidence row reads" ON "storage"."objects"
  FOR SELECT
  TO "authenticated"
  USING (((bucket_id = 'assessment-evidence'::text) AND (EXISTS ( SELECT 1
   FROM public.assessment_evidence e
  WHERE (e.object_name = objects.name)))));

COMMENT ON COLUMN "public"."assessment_criteria"."critical" IS 'True: a record cannot be signed competent while this criterion is judged not yet competent.';

COMMENT ON COLUMN "public"."assessment_criteria"."guidance" IS 'Guidance for the assessor and the learner on what competent looks like; null: none.';

COMMENT ON COLUMN "public"."assessment_criteria"."guidance_cy" IS 'The guidance in Welsh; null: not translated.';

COMMENT ON COLUMN "public"."assessment_criteria"."title" IS 'What the learner must show (3 to 300 characters).';

COMMENT ON COLUMN "public"."assessment_criteria"."title_cy" IS 'The criterion in Welsh; null: not translated.';

COMMENT ON COLUMN "public"."assessment_evidence"."content_type" IS 'The type read from the file''s first bytes by the api function (never its name).';

COMMENT ON COLUMN "public"."assessment_evidence"."object_name" IS 'The object''s name in bucket assessment-evidence: <record id>/<uuid>.<jpg|png|pdf>.';

COMMENT ON COLUMN "public"."assessment_evidence"."original_name" IS 'The file name the assessor uploaded, for display and download.';

COMMENT ON COLUMN "public"."assessment_judgements"."criterion_title" IS 'The criterion''s title when judged, so that a signed record reads as it was signed.';

COMMENT ON COLUMN "public"."assessment_judgements"."critical" IS 'Whether the criterion was critical when judged.';

COMMENT ON COLUMN "public"."assessment_records"."assessor_name" IS 'The assessor''s name when the record began.';

COMMENT ON COLUMN "public"."assessment_records"."course_id" IS 'The module''s course, copied when the record starts, so that the policies need no join.';

COMMENT ON COLUMN "public"."assessment_records"."cycle" IS 'The enrolment''s cycle the record belongs to: recertification starts a new cycle, which needs a new assessment.';

COMMENT ON COLUMN "public"."assessment_records"."learner_name" IS 'The learner''s name when the record began (the record is read by people who may not read profiles).';

COMMENT ON COLUMN "public"."assessment_records"."notes" IS 'The assessor''s notes to the learner.';

COMMENT ON COLUMN "public"."assessment_records"."outcome" IS 'competent | not-yet-competent, the assessor''s overall judgement; null in a draft not yet decided.';

COMMENT ON COLUMN "public"."assessment_records"."signed_at" IS 'When the assessor signed; null: a draft, changed only by its assessor.';

COMMENT ON COLUMN "public"."assessment_records"."superseded_at" IS 'When a correction of this record was signed: it no longer counts.';

COMMENT ON COLUMN "public"."assessment_records"."supersedes_id" IS 'The signed record this one corrects; both stay in the history.';

COMMENT ON COLUMN "public"."assessment_records"."verifier_id" IS 'The second assessor who countersigned (a module that needs a verifier).';

COMMENT ON COLUMN "public"."assessment_records"."verifier_name" IS 'The verifier''s name when they countersigned.';

COMMENT ON COLUMN "public"."assessment_settings"."needs_verifier" IS 'True: the module completes only when a second assessor (the verifier) has countersigned a competent record.';

COMMENT ON COLUMN "public"."assessment_settings"."valid_months" IS 'How long a signed-off practical stays valid (1 to 120 months), bounding the certificate''s expiry; null: it does not expire by itself.';

COMMENT ON COLUMN "public"."certificates"."expires_at" IS 'The earliest of the issued date plus the course''s validity and each practical assessment''s sign-off plus its validity, at issue; null = never expires.';

COMMENT ON COLUMN "public"."course_assessors"."named_by" IS 'The administrator who named them.';

COMMENT ON COLUMN "public"."course_assessors"."organisation_id" IS 'The organisation that named them, theirs: they assess only its learners.';

COMMENT ON COLUMN "public"."reassessment_requests"."answered_at" IS 'When a record of the learner for the module was next signed; null: open.';

COMMENT ON COLUMN "public"."reassessment_requests"."cycle" IS 'The enrolment''s cycle when asked.';

COMMENT ON FUNCTION "private"."add_assessment_evidence"(uuid, text, text, integer, text) IS 'The draft''s assessor: records an evidence file (checked and stored by the api function) and audits it. At most 20 per record (P0409).';

COMMENT ON FUNCTION "private"."assesses"(uuid, uuid) IS 'True when the caller may assess the learner on the course: a national admin; an instructor of the course''s service of the learner''s organisation (a national instructor: anyone); a person the learner''s organisation named for the course; never the learner themselves, nor a deactivated person.';

COMMENT ON FUNCTION "private"."assessment_learners"(uuid, text, integer, integer) IS 'Assessor: the module''s enrolled learners they assess, with each one''s state in the current cycle (not-assessed, draft, awaiting-verification, competent, not-yet-competent), their current record, an open reassessment request and the total; P0002 unknown module, 22023 unknown status.';

COMMENT ON FUNCTION "private"."assessment_queue"(text, integer, integer) IS 'Assessor: their drafts (awaiting-sign-off), the competent records awaiting their countersignature (awaiting-verification) or the signed records of learners they assess (signed), with names and the total; 22023 unknown state.';

COMMENT ON FUNCTION "private"."assessment_signed_off"(uuid, uuid) IS 'Internal (private.settle_module): true when the learner''s latest signed, not superseded record of the current cycle is competent, and countersigned when the module needs a verifier.';

COMMENT ON FUNCTION "private"."assessment_signed_off_at"(uuid, uuid) IS 'Internal: when the learner''s practical of the module was signed off in the current cycle (competent, countersigned when needed), or null.';

COMMENT ON FUNCTION "private"."audit_assessment"(text, public.assessment_records, jsonb) IS 'Internal: an audit event about the record''s learner (assessment.signed, .corrected, .verified, .evidence_added).';

COMMENT ON FUNCTION "private"."check_assessment_module"() IS 'Before insert or update of module_id on assessment_settings and assessment_criteria: the module is of kind assessment (22023).';

COMMENT ON FUNCTION "private"."course_parts_in_welsh"(uuid) IS 'Internal: true when every module, quiz, question and assessment criterion of the course has its Welsh (the rule of courses.available_in_welsh below the course itself).';

COMMENT ON FUNCTION "private"."deciding_assessment_record"(uuid, uuid) IS 'Internal: the learner''s latest signed, not superseded record of the module in their enrolment''s current cycle (null fields when none).';

COMMENT ON FUNCTION "private"."discard_assessment_record"(uuid) IS 'The draft''s assessor: deletes the draft; returns its evidence object names for the caller to remove from storage.';

COMMENT ON FUNCTION "private"."issue_certificate"(uuid, uuid) IS 'Internal: issues the certificate of the enrolment''s current cycle, with a snapshot of learner name, organisation name, course title (English and Welsh), service and template, and its expiry: the earliest of the course''s validity from now and each practical assessment''s sign-off + valid_months (at least a day after issue).';

COMMENT ON FUNCTION "private"."keep_signed_assessment_parts"() IS 'Before insert, update or delete on assessment_judgements and assessment_evidence: refused once the record is signed (55000), but for a deleted uploader''s id cleared.';

COMMENT ON FUNCTION "private"."keep_signed_assessment_record"() IS 'Before update or delete on assessment_records: once signed, only the countersignature (once) and superseded_at (once) may be set, and a deleted person''s id cleared; no delete but with the learner or module (55000).';

COMMENT ON FUNCTION "private"."learner_assessors"(uuid, uuid, uuid) IS 'Internal: who hears of a learner''s reassessment request (their earlier assessors, the course''s named assessors and the service''s instructors of their organisation).';

COMMENT ON FUNCTION "private"."may_request_reassessment"(uuid, uuid) IS 'The caller (only of themselves): true when they have no open request and their latest signed record is not yet competent, or their signed-off practical runs out within 60 days.';

COMMENT ON FUNCTION "private"."my_assessment_draft"(uuid) IS 'Internal: the caller''s own draft record, locked (P0002 unseen, 42501 another''s or no longer an assessor, P0409 signed).';

COMMENT ON FUNCTION "private"."name_course_assessor"(uuid, uuid) IS 'Administrators: names a person of their organisation (national admin: of any organisation) assessor of a course that organisation can see; audited. 42501 not an administrator, P0002 unknown course or person, 22023 no organisation / deactivated / another organisation''s course, P0409 already named.';

COMMENT ON FUNCTION "private"."note_criteria_in_welsh"() IS 'After insert, update or delete on assessment_criteria (statement level): refreshes available_in_welsh of their courses.';

COMMENT ON FUNCTION "private"."notify_assessment_recorded"(public.assessment_records, boolean) IS 'Internal: the learner''s assessment-recorded notice of a signed (or countersigned) record.';

COMMENT ON FUNCTION "private"."practical_valid_until"(uuid, uuid) IS 'Internal (private.issue_certificate): the earliest sign-off + valid_months of the learner''s practical assessments of the course in the current cycle; null when none limits it.';

COMMENT ON FUNCTION "private"."remove_course_assessor"(uuid, uuid) IS 'Administrators: removes an assessor their organisation named (national admin: any); audited. P0002 when there is none of theirs.';

COMMENT ON FUNCTION "private"."request_reassessment"(uuid, text) IS 'Learner: asks to be assessed again (after not yet competent, or when due; P0409 otherwise or while a request is open) with a reason (22023); the assessors get reassessment-requested notices.';

COMMENT ON FUNCTION "private"."save_assessment_record"(uuid, jsonb, text, text) IS 'The draft''s assessor: replaces its judgements ([{criterionId, result, note}]), outcome and notes. 22023 (hint judgements) for a criterion of another module or a bad result; see private.my_assessment_draft for the rest.';

COMMENT ON FUNCTION "private"."settle_assessment"(uuid, uuid) IS 'Internal: after a signature, records the assessment module read, completes it when signed off (or takes its completion back while the course is not completed) and refreshes the enrolment.';

COMMENT ON FUNCTION "private"."sign_assessment_record"(uuid) IS 'The draft''s assessor: signs it (every criterion judged, an outcome, not competent with a critical criterion not yet competent: 22023 with hint judgements/outcome), supersedes the corrected record, answers open reassessment requests, audits, tells the learner and runs the completion path.';

COMMENT ON FUNCTION "private"."start_assessment_record"(uuid, uuid, uuid) IS 'Assessor: starts a draft record of the learner (enrolled, of the current cycle), or a correction of their latest signed record (supersedes). P0002 unknown module, 42501 not their assessor, 22023 not enrolled or not correctable, P0409 a draft or correction already open.';

COMMENT ON FUNCTION "private"."verify_assessment_record"(uuid) IS 'An assessor other than the signer: countersigns a signed, competent, current record of a module that needs a verifier (P0409 otherwise), audits, tells the learner and runs the completion path.';

COMMENT ON FUNCTION "private"."write_assessment_notice"(uuid, text, uuid, uuid, uuid, integer, text, text, jsonb, text) IS 'Internal: writes one assessment notice (assessment-recorded, reassessment-requested) for an active person, email queued unless switched off or no address; once per key.';

COMMENT ON TABLE "public"."assessment_criteria" IS 'The checklist of a practical assessment module, authored like quiz questions; read by whoever sees the module.';

COMMENT ON TABLE "public"."assessment_evidence" IS 'A photo or PDF attached to a draft record; the file is in the private bucket assessment-evidence. Read by whoever may read the record.';

COMMENT ON TABLE "public"."assessment_judgements" IS 'One criterion''s judgement in a record; unchangeable once the record is signed.';

COMMENT ON TABLE "public"."assessment_records" IS 'An assessor''s record of a learner''s practical assessment: a draft while recorded, then signed (immutable but for the countersignature and being superseded). Written only by the private.*assessment* functions.';

COMMENT ON TABLE "public"."assessment_settings" IS 'A practical assessment module''s settings, authored with it by the course''s author or a national admin. Deleted with its module.';

COMMENT ON TABLE "public"."course_assessors" IS 'People an organisation names as assessors of a course for that organisation''s learners. Written only by private.name_course_assessor and private.remove_course_assessor.';

COMMENT ON TABLE "public"."reassessment_requests" IS 'A learner''s request to be assessed again; answered when a new record of theirs is signed.';

REVOKE ALL ON FUNCTION "private"."add_assessment_evidence"(uuid, text, text, integer, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."add_assessment_evidence"(uuid, text, text, integer, text) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."assesses"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."assesses"(uuid, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."assessment_learners"(uuid, text, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."assessment_learners"(uuid, text, integer, integer) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."assessment_queue"(text, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."assessment_queue"(text, integer, integer) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."assessment_signed_off"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."assessment_signed_off"(uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."assessment_signed_off_at"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."assessment_signed_off_at"(uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."audit_assessment"(text, public.assessment_records, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."audit_assessment"(text, public.assessment_records, jsonb) TO "postgres";

REVOKE ALL ON FUNCTION "private"."check_assessment_module"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."check_assessment_module"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."deciding_assessment_record"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."deciding_assessment_record"(uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."discard_assessment_record"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."discard_assessment_record"(uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."keep_signed_assessment_parts"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."keep_signed_assessment_parts"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."keep_signed_assessment_record"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."keep_signed_assessment_record"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."learner_assessors"(uuid, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."learner_assessors"(uuid, uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."may_request_reassessment"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."may_request_reassessment"(uuid, uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."my_assessment_draft"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."my_assessment_draft"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."name_course_assessor"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."name_course_assessor"(uuid, uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."note_criteria_in_welsh"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_criteria_in_welsh"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."notify_assessment_recorded"(public.assessment_records, boolean) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."notify_assessment_recorded"(public.assessment_records, boolean) TO "postgres";

REVOKE ALL ON FUNCTION "private"."practical_valid_until"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."practical_valid_until"(uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."remove_course_assessor"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."remove_course_assessor"(uuid, uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."request_reassessment"(uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."request_reassessment"(uuid, text) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."save_assessment_record"(uuid, jsonb, text, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."save_assessment_record"(uuid, jsonb, text, text) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."settle_assessment"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."settle_assessment"(uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."sign_assessment_record"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."sign_assessment_record"(uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."start_assessment_record"(uuid, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."start_assessment_record"(uuid, uuid, uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."verify_assessment_record"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."verify_assessment_record"(uuid) TO "authenticated", "postgres";

REVOKE ALL ON FUNCTION "private"."write_assessment_notice"(uuid, text, uuid, uuid, uuid, integer, text, text, jsonb, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."write_assessment_notice"(uuid, text, uuid, uuid, uuid, integer, text, text, jsonb, text) TO "postgres";

REVOKE ALL ("critical") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("critical"), UPDATE ("critical") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("guidance_cy") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("guidance_cy"), UPDATE ("guidance_cy") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("guidance") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("guidance"), UPDATE ("guidance") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("module_id") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("module_id") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("order_index") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("order_index"), UPDATE ("order_index") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("title_cy") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("title_cy"), UPDATE ("title_cy") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("title") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("title"), UPDATE ("title") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT DELETE, SELECT ON TABLE "public"."assessment_criteria" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."assessment_criteria" TO "postgres", "service_role";

REVOKE ALL ON TABLE "public"."assessment_evidence" FROM "authenticated";

GRANT SELECT ON TABLE "public"."assessment_evidence" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."assessment_evidence" TO "postgres", "service_role";

REVOKE ALL ON TABLE "public"."assessment_judgements" FROM "authenticated";

GRANT SELECT ON TABLE "public"."assessment_judgements" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."assessment_judgements" TO "postgres", "service_role";

REVOKE ALL ON TABLE "public"."assessment_records" FROM "authenticated";

GRANT SELECT ON TABLE "public"."assessment_records" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."assessment_records" TO "postgres", "service_role";

REVOKE ALL ("module_id") ON TABLE "public"."assessment_settings" FROM "authenticated";

GRANT INSERT ("module_id") ON TABLE "public"."assessment_settings" TO "authenticated";

REVOKE ALL ("needs_verifier") ON TABLE "public"."assessment_settings" FROM "authenticated";

GRANT INSERT ("needs_verifier"), UPDATE ("needs_verifier") ON TABLE "public"."assessment_settings" TO "authenticated";

REVOKE ALL ("valid_months") ON TABLE "public"."assessment_settings" FROM "authenticated";

GRANT INSERT ("valid_months"), UPDATE ("valid_months") ON TABLE "public"."assessment_settings" TO "authenticated";

REVOKE ALL ON TABLE "public"."assessment_settings" FROM "authenticated";

GRANT DELETE, SELECT ON TABLE "public"."assessment_settings" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."assessment_settings" TO "postgres", "service_role";

REVOKE ALL ON TABLE "public"."course_assessors" FROM "authenticated";

GRANT SELECT ON TABLE "public"."course_assessors" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."course_assessors" TO "postgres", "service_role";

REVOKE ALL ON TABLE "public"."reassessment_requests" FROM "authenticated";

GRANT SELECT ON TABLE "public"."reassessment_requests" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."reassessment_requests" TO "postgres", "service_role";
-- grants: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

REVOKE ALL ON TABLE "public"."assessment_criteria" FROM "anon";

REVOKE ALL ON TABLE "public"."assessment_evidence" FROM "anon";

REVOKE ALL ON TABLE "public"."assessment_judgements" FROM "anon";

REVOKE ALL ON TABLE "public"."assessment_records" FROM "anon";

REVOKE ALL ON TABLE "public"."assessment_settings" FROM "anon";

REVOKE ALL ON TABLE "public"."course_assessors" FROM "anon";

REVOKE ALL ON TABLE "public"."reassessment_requests" FROM "anon";

REVOKE ALL ("critical") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("critical"), UPDATE ("critical") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("guidance_cy") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("guidance_cy"), UPDATE ("guidance_cy") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("guidance") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("guidance"), UPDATE ("guidance") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("module_id") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("module_id") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("order_index") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("order_index"), UPDATE ("order_index") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("title_cy") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("title_cy"), UPDATE ("title_cy") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("title") ON TABLE "public"."assessment_criteria" FROM "authenticated";

GRANT INSERT ("title"), UPDATE ("title") ON TABLE "public"."assessment_criteria" TO "authenticated";

REVOKE ALL ("module_id") ON TABLE "public"."assessment_settings" FROM "authenticated";

GRANT INSERT ("module_id") ON TABLE "public"."assessment_settings" TO "authenticated";

REVOKE ALL ("needs_verifier") ON TABLE "public"."assessment_settings" FROM "authenticated";

GRANT INSERT ("needs_verifier"), UPDATE ("needs_verifier") ON TABLE "public"."assessment_settings" TO "authenticated";

REVOKE ALL ("valid_months") ON TABLE "public"."assessment_settings" FROM "authenticated";

GRANT INSERT ("valid_months"), UPDATE ("valid_months") ON TABLE "public"."assessment_settings" TO "authenticated";

-- The private bucket of assessment evidence (rows are not compared by pg-delta: written by hand).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('assessment-evidence', 'assessment-evidence', false, 10485760, array['image/jpeg', 'image/png', 'application/pdf'])
on conflict (id) do nothing;
-- standing: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.my_assessment_standing (
  p_module_id uuid
)
  RETURNS TABLE (
    is_assessor   boolean,
    signed_off_at timestamp with time zone,
    valid_until   timestamp with time zone,
    can_request   boolean
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
$function$;

COMMENT ON FUNCTION "private"."my_assessment_standing"(uuid) IS 'The caller on a practical assessment module: whether they assess on its course, when their own practical was signed off (current cycle) and until when it is valid, and whether they may ask for reassessment; P0002 when they cannot see it.';

REVOKE ALL ON FUNCTION "private"."my_assessment_standing"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."my_assessment_standing"(uuid) TO "authenticated", "postgres";
