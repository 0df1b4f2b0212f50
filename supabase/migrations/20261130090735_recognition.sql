-- recognition: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."compliance_people"(public.service_code, public.user_role, uuid, text, integer, integer, uuid, uuid);

DROP FUNCTION "private"."required_training_states"(uuid, public.service_code, public.user_role, uuid, uuid, uuid);

DROP FUNCTION "private"."required_training_status"(uuid, public.service_code, public.user_role, uuid, uuid, uuid);

CREATE TABLE "public"."held_credentials" (
  "id"               uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "user_id"          uuid                     NOT NULL,
  "credential"       jsonb                    NOT NULL,
  "credential_hash"  text                     NOT NULL,
  "issuer_id"        text                     NOT NULL,
  "issuer_name"      text                     NOT NULL,
  "achievement_id"   text                     NOT NULL,
  "achievement_name" text                     NOT NULL,
  "valid_from"       timestamp with time zone,
  "valid_until"      timestamp with time zone,
  "verified"         boolean                  NOT NULL,
  "verification"     jsonb                    NOT NULL,
  "verified_at"      timestamp with time zone NOT NULL DEFAULT now(),
  "created_at"       timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "held_credentials_achievement_id_length" CHECK (((char_length(achievement_id) >= 1) AND (char_length(achievement_id) <= 2000))),
  CONSTRAINT "held_credentials_achievement_name_length" CHECK (((char_length(achievement_name) >= 1) AND (char_length(achievement_name) <= 300))),
  CONSTRAINT "held_credentials_credential_size" CHECK ((pg_column_size(credential) <= 1048576)),
  CONSTRAINT "held_credentials_hash_shape" CHECK ((credential_hash ~ '^[0-9a-f]{64}$'::text)),
  CONSTRAINT "held_credentials_issuer_id_length" CHECK (((char_length(issuer_id) >= 1) AND (char_length(issuer_id) <= 2000))),
  CONSTRAINT "held_credentials_issuer_name_length" CHECK (((char_length(issuer_name) >= 1) AND (char_length(issuer_name) <= 300))),
  CONSTRAINT "held_credentials_once" UNIQUE (user_id, credential_hash),
  CONSTRAINT "held_credentials_pkey" PRIMARY KEY (id),
  CONSTRAINT "held_credentials_verification_shape" CHECK ((jsonb_typeof(verification) = 'object'::text))
);

ALTER TABLE "public"."held_credentials"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."recognition_equivalences" (
  "id"                 uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "organisation_id"    uuid                     NOT NULL,
  "course_id"          uuid                     NOT NULL,
  "issuer_id"          text                     NOT NULL,
  "achievement_id"     text                     NOT NULL,
  "achievement_name"   text                     NOT NULL,
  "platform_course_id" uuid,
  "created_at"         timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "recognition_equivalences_achievement_id_length" CHECK (((char_length(achievement_id) >= 1) AND (char_length(achievement_id) <= 2000))),
  CONSTRAINT "recognition_equivalences_achievement_name_length" CHECK (((char_length(btrim(achievement_name)) >= 1) AND (char_length(btrim(achievement_name)) <= 300))),
  CONSTRAINT "recognition_equivalences_key" UNIQUE (organisation_id, issuer_id, achievement_id, course_id),
  CONSTRAINT "recognition_equivalences_other_course" CHECK ((platform_course_id IS DISTINCT FROM course_id)),
  CONSTRAINT "recognition_equivalences_pkey" PRIMARY KEY (id),
  "created_by"         uuid                     DEFAULT auth.uid()
);

ALTER TABLE "public"."recognition_equivalences"
  ENABLE ROW LEVEL SECURITY;

CREATE TABLE "public"."trusted_issuers" (
  "id"              uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "organisation_id" uuid                     NOT NULL,
  "issuer_id"       text                     NOT NULL,
  "name"            text                     NOT NULL,
  "platform_issuer" text,
  "created_at"      timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "trusted_issuers_issuer_id_length" CHECK (((char_length(issuer_id) >= 8) AND (char_length(issuer_id) <= 2000))),
  CONSTRAINT "trusted_issuers_issuer_id_shape"
    CHECK ((issuer_id ~ '^(https://[^[:space:]]+|http://(localhost|127[.]0[.]0[.]1)(:[0-9]+)?/[^[:space:]]*|did:[a-z0-9]+:[^[:space:]]+)$'::text)),
  CONSTRAINT "trusted_issuers_issuer_key" UNIQUE (organisation_id, issuer_id),
  CONSTRAINT "trusted_issuers_name_length" CHECK (((char_length(btrim(name)) >= 1) AND (char_length(btrim(name)) <= 200))),
  CONSTRAINT "trusted_issuers_pkey" PRIMARY KEY (id),
  CONSTRAINT "trusted_issuers_platform_issuer_shape"
    CHECK
    (((platform_issuer IS NULL) OR (((platform_issuer = 'national'::text) OR (platform_issuer ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'::text)) AND
    ("right"(issuer_id, (char_length(platform_issuer) + 9)) = ('/issuers/'::text || platform_issuer))))),
  "created_by"      uuid                     DEFAULT auth.uid()
);

ALTER TABLE "public"."trusted_issuers"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION private.audit_recognition()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_row jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
  v_value jsonb;
  v_action text;
begin
  if tg_table_name = 'trusted_issuers' then
    v_value := jsonb_build_object('issuerId', v_row ->> 'issuer_id', 'name', v_row ->> 'name');
    v_action := case when tg_op = 'DELETE' then 'trusted_issuer.removed' else 'trusted_issuer.added' end;
  else
    v_value := jsonb_build_object('courseId', v_row ->> 'course_id', 'issuerId', v_row ->> 'issuer_id',
      'achievementId', v_row ->> 'achievement_id', 'achievementName', v_row ->> 'achievement_name');
    v_action := case when tg_op = 'DELETE' then 'recognition_equivalence.removed' else 'recognition_equivalence.added' end;
  end if;
  perform private.write_audit(v_action, 'organisation', (v_row ->> 'organisation_id')::uuid,
    (select o.name from public.organisations o where o.id = (v_row ->> 'organisation_id')::uuid),
    case when tg_op = 'DELETE' then v_value end, case when tg_op = 'INSERT' then v_value end);
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_people (
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid,
  p_status          text                DEFAULT NULL::text,
  p_limit           integer             DEFAULT 20,
  p_offset          integer             DEFAULT 0,
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    user_id                uuid,
    username               text,
    name                   text,
    email                  text,
    role                   public.user_role,
    services               public.service_code[],
    course_id              uuid,
    course_title           text,
    progress               integer,
    due_at                 timestamp with time zone,
    status                 text,
    certificate_expires_at timestamp with time zone,
    recognition_source     text,
    recognised_issuer      text,
    recognised_achievement text,
    total                  bigint
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
declare
  v_national boolean;
  v_organisation uuid;
begin
  perform private.require_compliance_viewer();
  v_national := private.is_admin();
  v_organisation := private.compliance_organisation(p_organisation_id);
  perform private.required_training_join_by_hash(null, v_organisation, p_unit_id);
  -- Inside the status rule's own statement. Only the rows that can reach the page (up to it by
  -- urgency and due date, with ties) are named and sorted by name: the order over all rows decides
  -- among ties exactly as before, without every person's name and course title joined and sorted.
  return query execute private.required_training_states_query() || $q$,
  chosen as (
    select st.user_id, st.services, st.course_id, st.progress, st.due_at, st.status, st.certificate_expires_at,
           st.recognition_source, st.recognised_issuer, st.recognised_achievement,
           -- private.required_training_status_rank, written out (a function call per row costs at national size)
           case st.status when 'overdue' then 1 when 'due-soon' then 2 when 'in-progress' then 3 else 4 end as urgency,
           count(*) over () as total
    from statuses st
    -- done: everyone compliant (done or recognised), as the summary counts them
    where ($8::text is null or st.status = $8 or $8 = 'done' and st.status = 'recognised')
      and ($7 or private.compliance_in_scope($2, st.services, st.organisation_id))
  ),
  reaching as (
    select ch.* from chosen ch
    order by ch.urgency, ch.due_at nulls last
    fetch first ($9::bigint + $10) rows with ties
  )
  select r.user_id, p.username, p.name, case when me.admin or p.id = me.uid then p.email end, p.role, r.services,
         r.course_id, c.title, r.progress, r.due_at, r.status, r.certificate_expires_at,
         r.recognition_source, r.recognised_issuer, r.recognised_achievement, r.total
  from reaching r
  cross join me
  join public.profiles p on p.id = r.user_id
  join public.courses c on c.id = r.course_id
  order by r.urgency, r.due_at nulls last, p.name, r.user_id, c.title
  limit $9 offset $10 $q$
  using null::uuid, p_service, p_role, p_course_id, v_organisation, p_unit_id, v_national, p_status,
        greatest(p_limit, 0), greatest(p_offset, 0);
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_person_counts_live (
  p_organisation_id uuid
)
  RETURNS TABLE (
    user_id     uuid,
    overdue     integer,
    due_soon    integer,
    in_progress integer,
    done        integer
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.compliance_summary_rows (
  p_service         public.service_code,
  p_role            public.user_role,
  p_course_id       uuid,
  p_organisation_id uuid,
  p_unit_id         uuid,
  p_national        boolean,
  p_next            boolean
)
  RETURNS TABLE (
    service      public.service_code,
    course_id    uuid,
    course_title text,
    people       bigint,
    compliant    bigint,
    due_soon     bigint,
    overdue      bigint,
    in_progress  bigint,
    next_change  timestamp with time zone
  )
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
begin
  perform private.required_training_join_by_hash(null, p_organisation_id, p_unit_id);
  -- Counted inside the status rule's own statement; the scope rule only for those who are not
  -- national administrators (who see everyone).
  -- The people are counted first by placement, course and status (grouped by a number, each status
  -- worked out once), then by what the counts depend on (services, organisation, course and status:
  -- a few hundred groups nationally, so that the scope is checked once per group), then each group
  -- is counted under each of its services.
  return query execute private.required_training_states_query() || format($q$,
  grouped as (
    select k.services, k.organisation_id, g.course_id, g.status, sum(g.n)::bigint as n, min(g.next_change) as next_change
    from (
      select st.placement, st.course_id, st.status, count(*) as n, %s as next_change
      from statuses st
      group by st.placement, st.course_id, st.status
    ) g
    join placements k on k.placement = g.placement
    group by k.services, k.organisation_id, g.course_id, g.status
  ),
  counted as (
    select s.service, g.course_id,
           sum(g.n)::bigint as people,
           coalesce(sum(g.n) filter (where g.status in ('done', 'recognised')), 0)::bigint as compliant,
           coalesce(sum(g.n) filter (where g.status = 'due-soon'), 0)::bigint as due_soon,
           coalesce(sum(g.n) filter (where g.status = 'overdue'), 0)::bigint as overdue,
           coalesce(sum(g.n) filter (where g.status = 'in-progress'), 0)::bigint as in_progress,
           min(g.next_change) as next_change
    from grouped g
    -- each of the people's services (one row of no service for people of none)
    cross join lateral unnest(case when cardinality(g.services) = 0 then array[null]::public.service_code[]
                                   else g.services end) s(service)
    where ($2::public.service_code is null or s.service = $2)
      and ($7 or private.compliance_in_scope($2, array_remove(array[s.service], null), g.organisation_id))
    group by s.service, g.course_id
  )
  select k.service, k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress, k.next_change
  from counted k
  join public.courses c on c.id = k.course_id
  order by k.service nulls last, c.title, k.course_id $q$,
    -- The moments the status rule (private.required_training_states_query) turns on: due_at within
    -- the due-soon window, due_at passed, the certificate expired; the earliest still to come.
    case when p_next then $n$min(least(
        case when st.due_at - make_interval(days => private.required_training_due_soon_days()) > now()
             then st.due_at - make_interval(days => private.required_training_due_soon_days()) end,
        case when st.due_at > now() then st.due_at end,
        case when st.certificate_expires_at > now() then st.certificate_expires_at end))$n$
    else 'null::timestamptz' end)
  using null::uuid, p_service, p_role, p_course_id, p_organisation_id, p_unit_id, p_national;
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_units (
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid,
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    organisation_id uuid,
    unit_id         uuid,
    name            text,
    has_units       boolean,
    course_id       uuid,
    course_title    text,
    people          bigint,
    compliant       bigint,
    due_soon        bigint,
    overdue         bigint,
    in_progress     bigint
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
declare
  v_national boolean;
  v_organisation uuid;
begin
  v_organisation := private.compliance_scope(p_organisation_id, p_unit_id, 'Only administrators can see compliance by unit');
  v_national := private.is_admin();
  perform private.required_training_join_by_hash(null, v_organisation, p_unit_id);
  if v_organisation is null then
    return query execute private.required_training_states_query() || $q$,
    grouped as (
      select k.organisation_id, g.course_id, g.status, g.n
      from (
        select st.placement, st.course_id, st.status, count(*) as n
        from statuses st
        group by st.placement, st.course_id, st.status
      ) g
      join placements k on k.placement = g.placement
    ),
    counted as (
      select g.organisation_id as group_id, g.course_id,
             sum(g.n)::bigint as people,
             coalesce(sum(g.n) filter (where g.status in ('done', 'recognised')), 0)::bigint as compliant,
             coalesce(sum(g.n) filter (where g.status = 'due-soon'), 0)::bigint as due_soon,
             coalesce(sum(g.n) filter (where g.status = 'overdue'), 0)::bigint as overdue,
             coalesce(sum(g.n) filter (where g.status = 'in-progress'), 0)::bigint as in_progress
      from grouped g
      group by g.organisation_id, g.course_id
    )
    select k.group_id, null::uuid, o.name,
           exists (select 1 from public.units u where u.organisation_id = k.group_id),
           k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
    from counted k
    left join public.organisations o on o.id = k.group_id
    join public.courses c on c.id = k.course_id
    order by k.group_id is null, o.name, k.group_id, c.title, k.course_id $q$
    using null::uuid, p_service, p_role, p_course_id, null::uuid, null::uuid;
  else
    return query execute private.required_training_states_query() || $q$,
    groups as (
      select ch.id as group_id, s.unit as unit_id
      from public.units ch
      cross join lateral private.unit_subtree(ch.id) s(unit)
      where ch.organisation_id = $5 and ch.parent_id is not distinct from $6
      union all
      select $6, $6 where $6::uuid is not null
    ),
    grouped as (
      select k.unit_id, k.services, k.organisation_id, g.course_id, g.status, sum(g.n)::bigint as n
      from (
        select st.placement, st.course_id, st.status, count(*) as n
        from statuses st
        group by st.placement, st.course_id, st.status
      ) g
      join placements k on k.placement = g.placement
      group by k.unit_id, k.services, k.organisation_id, g.course_id, g.status
    ),
    counted as (
      select gr.group_id, st.course_id,
             sum(st.n)::bigint as people,
             coalesce(sum(st.n) filter (where st.status in ('done', 'recognised')), 0)::bigint as compliant,
             coalesce(sum(st.n) filter (where st.status = 'due-soon'), 0)::bigint as due_soon,
             coalesce(sum(st.n) filter (where st.status = 'overdue'), 0)::bigint as overdue,
             coalesce(sum(st.n) filter (where st.status = 'in-progress'), 0)::bigint as in_progress
      from grouped st
      left join groups gr on gr.unit_id = st.unit_id
      where ($7 or private.compliance_in_scope($2, st.services, st.organisation_id))
      group by gr.group_id, st.course_id
    )
    select $5, k.group_id, u.name,
           k.group_id is distinct from $6 and exists (select 1 from public.units d where d.parent_id = k.group_id),
           k.course_id, c.title, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
    from counted k
    left join public.units u on u.id = k.group_id
    join public.courses c on c.id = k.course_id
    order by k.group_id is not distinct from $6 desc, k.group_id is null, u.name, k.group_id, c.title, k.course_id $q$
    using null::uuid, p_service, p_role, p_course_id, v_organisation, p_unit_id, v_national;
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION private.note_compliance_change_of_recognition()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if tg_op = 'INSERT' then
    perform private.note_compliance_change(array(select distinct n.organisation_id from new_rows n));
  else
    perform private.note_compliance_change(array(select distinct o.organisation_id from old_rows o));
  end if;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION private.prepare_recognition_equivalence()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_course_organisation uuid;
  v_platform_issuer text;
  v_source_organisation uuid;
begin
  new.achievement_name := btrim(new.achievement_name);
  if current_user in ('anon', 'authenticated') then
    new.created_by := (select auth.uid());
  end if;
  select c.organisation_id into v_course_organisation from public.courses c where c.id = new.course_id;
  if not found or v_course_organisation is not null and v_course_organisation <> new.organisation_id then
    raise exception 'The course must be of the organisation or a national one'
      using errcode = '22023', hint = 'courseId';
  end if;
  if new.platform_course_id is not null then
    select t.platform_issuer into v_platform_issuer
    from public.trusted_issuers t where t.organisation_id = new.organisation_id and t.issuer_id = new.issuer_id;
    select c.organisation_id into v_source_organisation from public.courses c where c.id = new.platform_course_id;
    if not found or v_platform_issuer is distinct from coalesce(v_source_organisation::text, 'national')
       or strpos(new.achievement_id, new.platform_course_id::text) = 0 then
      raise exception 'The achievement is not of that issuer''s course'
        using errcode = '22023', hint = 'achievementId';
    end if;
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.prepare_trusted_issuer()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
begin
  new.name := btrim(new.name);
  if current_user in ('anon', 'authenticated') then
    new.created_by := (select auth.uid());
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION private.record_held_credential (
  p_user_id          uuid,
  p_credential       jsonb,
  p_credential_hash  text,
  p_issuer_id        text,
  p_issuer_name      text,
  p_achievement_id   text,
  p_achievement_name text,
  p_valid_from       timestamp with time zone,
  p_valid_until      timestamp with time zone,
  p_verified         boolean,
  p_verification     jsonb
)
  RETURNS uuid
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_id uuid;
begin
  if not exists (select 1 from public.profiles p where p.id = p_user_id and p.deactivated_at is null) then
    raise exception 'Person not found' using errcode = 'P0002';
  end if;
  insert into public.held_credentials as h (user_id, credential, credential_hash, issuer_id, issuer_name,
    achievement_id, achievement_name, valid_from, valid_until, verified, verification)
  values (p_user_id, p_credential, p_credential_hash, p_issuer_id, left(p_issuer_name, 300), p_achievement_id,
    left(p_achievement_name, 300), p_valid_from, p_valid_until, p_verified, p_verification)
  on conflict (user_id, credential_hash) do update
    set verified = excluded.verified, verification = excluded.verification, verified_at = now()
  returning h.id into v_id;
  return v_id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.refresh_compliance_summary (
  p_organisation_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION private.required_training_states (
  p_user_id         uuid                DEFAULT NULL::uuid,
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid,
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    user_id                uuid,
    services               public.service_code[],
    organisation_id        uuid,
    unit_id                uuid,
    course_id              uuid,
    enrollment_id          uuid,
    progress               integer,
    due_at                 timestamp with time zone,
    status                 text,
    certificate_id         uuid,
    certificate_expires_at timestamp with time zone,
    recognition_source     text,
    recognition_id         uuid,
    recognised_issuer      text,
    recognised_achievement text
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  SET work_mem TO '64MB'
  SET enable_nestloop TO 'on'
  SET enable_mergejoin TO 'on'
  SET enable_sort TO 'on'
  SET jit TO 'off'
  AS $function$
begin
  perform private.required_training_join_by_hash(p_user_id, p_organisation_id, p_unit_id);
  return query execute private.required_training_states_query() || $q$
    select s.user_id, s.services, s.organisation_id, s.unit_id, s.course_id, s.enrollment_id, s.progress,
           s.due_at, s.status, s.certificate_id, s.certificate_expires_at,
           s.recognition_source, s.recognition_id, s.recognised_issuer, s.recognised_achievement
    from statuses s $q$
    using p_user_id, p_service, p_role, p_course_id, p_organisation_id, p_unit_id;
end;
$function$;

CREATE OR REPLACE FUNCTION private.required_training_states_query()
  RETURNS text
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$ select $q$
  with me as materialized (
    -- an organisation's kept states are of all its people, whoever's request refreshes them
    select (select auth.uid()) as uid, private.is_admin() or private.compliance_refresh_running() as admin,
           private.current_role() as role, private.current_services() as services,
           private.administered_organisation_id() as admin_org, private.current_organisation_id() as org
  ),
  rules as materialized (
    select r.course_id, r.role, r.service, r.organisation_id,
           case when r.unit_id is not null then array(select private.unit_subtree(r.unit_id)) end as units,
           r.created_at, r.due_within_days, r.renew_before_days
    from public.required_training r
    join public.courses c on c.id = r.course_id and c.status = 'ACTIVE'
    where ($4::uuid is null or r.course_id = $4)
  ),
  visible as materialized (
    select p.id, p.role, p.services, p.organisation_id, p.unit_id, p.created_at
    from public.profiles p
    cross join me
    where me.uid is not null and p.deactivated_at is null
      and ($1::uuid is null or p.id = $1)
      -- the nil uuid: the people of no organisation (the national summary counts them apart)
      and ($5::uuid is null or p.organisation_id = $5
           or ($5 = '00000000-0000-0000-0000-000000000000'::uuid and p.organisation_id is null))
      and ($3::public.user_role is null or p.role = $3)
      and ($2::public.service_code is null or p.services @> array[$2])
      and ($6::uuid is null or p.unit_id in (select private.unit_subtree($6)))
      and (me.admin or p.id = me.uid
           or (me.role = 'INSTRUCTOR' and p.services && me.services and (me.org is null or p.organisation_id = me.org))
           or p.organisation_id = me.admin_org
           or p.id in (select private.managed_person_ids()))
  ),
  -- The placements (role, services, organisation, unit) the people share, each given a number: a
  -- few thousand at national size, not 100,000 people.
  placements as materialized (
    select row_number() over () as placement, k.role, k.services, k.organisation_id, k.unit_id
    from (select distinct v.role, v.services, v.organisation_id, v.unit_id from visible v) k
  ),
  -- The rules are matched once per placement. Per placement and course: the rules' days to
  -- complete (one value in practice, then the earliest rule decides; else each rule's created_at and
  -- days, for the earliest due date per person) and the longest renewal period. The match is one
  -- CASE, which the planner counts as matching half the pairs (its own estimate of the ORs was one
  -- row, and it then built its hash tables on the people's side).
  placed as (
    select k.placement, r.course_id,
           min(r.due_within_days) = max(r.due_within_days) as same_days,
           min(r.created_at) + make_interval(days => min(r.due_within_days)) as first_rule_due,
           make_interval(days => min(r.due_within_days)) as due_within,
           make_interval(days => max(r.renew_before_days)) as renew_before,
           count(*) as rule_count,
           array_agg(r.created_at) as rule_created, array_agg(r.due_within_days) as rule_days
    from placements k
    join rules r
      on case when (r.role is null or k.role = r.role) and (r.service is null or k.services @> array[r.service])
                   and (r.organisation_id is null or k.organisation_id = r.organisation_id)
                   and (r.units is null or k.unit_id = any (r.units))
              then true else false end
    group by k.placement, r.course_id
  ),
  -- Two rules (a course required twice, with different periods), the common case of several:
  -- each rule's created_at and days as columns, so that a person's due date is one least() rather
  -- than a subquery per person.
  placed2 as (
    select pl.*,
           case when pl.rule_count = 2 then pl.rule_created[1] end as created_1,
           case when pl.rule_count = 2 then make_interval(days => pl.rule_days[1]) end as days_1,
           case when pl.rule_count = 2 then pl.rule_created[2] end as created_2,
           case when pl.rule_count = 2 then make_interval(days => pl.rule_days[2]) end as days_2
    from placed pl
  ),
  -- Each person with their placement's number: hashed by unit (else organisation) and role, the
  -- rest of the placement compared inside a CASE (so that the planner expects many people per
  -- placement: with every column a join key it expected one, and then built its hash tables on the
  -- people's side rather than on the enrolments' and certificates').
  people as (
    select p.id, p.services, p.organisation_id, p.unit_id, p.created_at, k.placement
    from visible p
    join placements k
      on coalesce(k.unit_id, k.organisation_id, '00000000-0000-0000-0000-000000000000'::uuid)
         = coalesce(p.unit_id, p.organisation_id, '00000000-0000-0000-0000-000000000000'::uuid)
         and k.role = p.role
         and case when k.services = p.services and k.organisation_id is not distinct from p.organisation_id
                       and k.unit_id is not distinct from p.unit_id
                  then true else false end
  ),
  -- The latest certificate not revoked of each person and required course.
  certs as (
    select distinct on (ct.user_id, ct.course_id) ct.user_id, ct.course_id, ct.id, ct.expires_at
    from public.certificates ct
    where ct.revoked_at is null
      and ct.course_id = any ((select array_agg(r.course_id) from rules r)::uuid[])
      and ($1::uuid is null or ct.user_id = $1)
    order by ct.user_id, ct.course_id, ct.issued_at desc
  ),
  -- The recognised credentials (29_recognition.sql): a credential the person holds that their
  -- organisation accepts as equivalent to a required course, from an issuer it trusts, valid now.
  -- Uploaded: verified on upload (public.held_credentials). Earned here (of another organisation's
  -- course the equivalence names): the person's latest certificate of that course, not revoked.
  -- Per person and course the one valid longest (never expiring first).
  recognised as (
    select distinct on (x.user_id, x.course_id) x.user_id, x.course_id, x.source, x.id, x.valid_until,
           x.issuer_name, x.achievement_name
    from (
      select v.id as user_id, e.course_id, 'upload'::text as source, hc.id, hc.valid_until,
             ti.name as issuer_name, e.achievement_name
      from public.held_credentials hc
      join visible v on v.id = hc.user_id
      join public.recognition_equivalences e
        on e.organisation_id = v.organisation_id and e.issuer_id = hc.issuer_id and e.achievement_id = hc.achievement_id
      join public.trusted_issuers ti on ti.organisation_id = e.organisation_id and ti.issuer_id = e.issuer_id
      where hc.verified and (hc.valid_until is null or hc.valid_until > now())
        and ($1::uuid is null or hc.user_id = $1)
        and e.course_id = any ((select array_agg(r.course_id) from rules r)::uuid[])
      union all
      select v.id, e.course_id, 'platform'::text, ct.id, ct.expires_at, ti.name, e.achievement_name
      from (
        select distinct on (c2.user_id, c2.course_id) c2.user_id, c2.course_id, c2.id, c2.expires_at
        from public.certificates c2
        where c2.revoked_at is null
          and c2.course_id in (select e2.platform_course_id from public.recognition_equivalences e2)
          and ($1::uuid is null or c2.user_id = $1)
        order by c2.user_id, c2.course_id, c2.issued_at desc
      ) ct
      join visible v on v.id = ct.user_id
      join public.recognition_equivalences e
        on e.organisation_id = v.organisation_id and e.platform_course_id = ct.course_id
      join public.trusted_issuers ti on ti.organisation_id = e.organisation_id and ti.issuer_id = e.issuer_id
      where (ct.expires_at is null or ct.expires_at > now())
        and e.course_id = any ((select array_agg(r.course_id) from rules r)::uuid[])
    ) x
    order by x.user_id, x.course_id, x.valid_until desc nulls first, x.source desc
  ),
  judged as (
    select p.id as user_id, p.services, p.organisation_id, p.unit_id, m.course_id, p.placement,
           e.id as enrollment_id, coalesce(e.progress, 0) as progress,
           case when rec.id is null then cert.id end as certificate_id,
           case when rec.id is null then cert.expires_at else rec.valid_until end as certificate_expires_at,
           -- valid or expiring (private.certificate_state of a certificate not revoked), or recognised
           rec.id is not null or cert.id is not null and (cert.expires_at is null or cert.expires_at > now()) as certified,
           rec.source as recognition_source, rec.id as recognition_id,
           rec.issuer_name as recognised_issuer, rec.achievement_name as recognised_achievement,
           case
             when rec.id is not null then rec.valid_until - m.renew_before
             -- the earliest of greatest(rule created, enrolled or joined) + the rule's days
             when cert.id is null then
               case when m.same_days
                    then greatest(m.first_rule_due, coalesce(e.created_at, p.created_at) + m.due_within)
                    when m.rule_count = 2
                    then least(greatest(m.created_1, coalesce(e.created_at, p.created_at)) + m.days_1,
                               greatest(m.created_2, coalesce(e.created_at, p.created_at)) + m.days_2)
                    else (select min(greatest(x.created_at, coalesce(e.created_at, p.created_at))
                                     + make_interval(days => x.days))
                          from unnest(m.rule_created, m.rule_days) x(created_at, days))
               end
             when cert.expires_at is null then null
             when cert.expires_at <= now() then cert.expires_at
             else cert.expires_at - m.renew_before
           end as due_at
    from people p
    join placed2 m on m.placement = p.placement
    left join (
      select en.id, en.user_id, en.course_id, en.progress, en.created_at from public.enrollments en
      where en.course_id = any ((select array_agg(rc.course_id) from rules rc)::uuid[])
        and ($1::uuid is null or en.user_id = $1)
        -- an organisation's or a unit's: only its people's (a few thousand to hash, not every enrolment)
        and ($5::uuid is null or en.user_id in (select v.id from visible v))
    ) e on e.user_id = p.id and e.course_id = m.course_id
    left join certs cert on cert.user_id = p.id and cert.course_id = m.course_id
    -- a recognised credential counts unless the person's own certificate is valid as long or longer
    left join recognised rec on rec.user_id = p.id and rec.course_id = m.course_id
      and (cert.id is null or cert.expires_at is not null
           and (cert.expires_at <= now() or rec.valid_until is null or rec.valid_until > cert.expires_at))
    -- worked out once per row (not again in each use of due_at below)
    offset 0
  ),
  statuses as (
    select j.user_id, j.services, j.organisation_id, j.unit_id, j.course_id, j.placement, j.enrollment_id, j.progress,
           j.due_at,
           case
             when j.certified then
               case when j.due_at is not null and j.due_at <= now() + make_interval(days => private.required_training_due_soon_days())
                    then 'due-soon' when j.recognition_id is not null then 'recognised' else 'done' end
             when j.due_at <= now() then 'overdue'
             when j.due_at <= now() + make_interval(days => private.required_training_due_soon_days()) then 'due-soon'
             else 'in-progress'
           end as status,
           j.certificate_id, j.certificate_expires_at,
           j.recognition_source, j.recognition_id, j.recognised_issuer, j.recognised_achievement
    from judged j
  )
$q$ $function$;

CREATE OR REPLACE FUNCTION private.required_training_status (
  p_user_id         uuid                DEFAULT NULL::uuid,
  p_service         public.service_code DEFAULT NULL::public.service_code,
  p_role            public.user_role    DEFAULT NULL::public.user_role,
  p_course_id       uuid                DEFAULT NULL::uuid,
  p_organisation_id uuid                DEFAULT NULL::uuid,
  p_unit_id         uuid                DEFAULT NULL::uuid
)
  RETURNS TABLE (
    user_id                uuid,
    username               text,
    name                   text,
    email                  text,
    role                   public.user_role,
    services               public.service_code[],
    course_id              uuid,
    course_title           text,
    course_service         public.service_code,
    enrollment_id          uuid,
    progress               integer,
    due_at                 timestamp with time zone,
    status                 text,
    certificate_id         uuid,
    certificate_expires_at timestamp with time zone,
    certificate_state      text,
    organisation_id        uuid,
    unit_id                uuid,
    recognition_source     text,
    recognised_issuer      text,
    recognised_achievement text
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  with me as materialized (
    select (select auth.uid()) as uid, private.is_admin() as admin
  )
  select s.user_id, p.username, p.name, case when me.admin or p.id = me.uid then p.email end,
         p.role, s.services, s.course_id, c.title, c.service, s.enrollment_id, s.progress, s.due_at, s.status,
         s.certificate_id, s.certificate_expires_at,
         case when s.certificate_id is not null then private.certificate_state(s.certificate_expires_at, null) end,
         s.organisation_id, s.unit_id, s.recognition_source, s.recognised_issuer, s.recognised_achievement
  from private.required_training_states(p_user_id, p_service, p_role, p_course_id, p_organisation_id, p_unit_id) s
  cross join me
  join public.profiles p on p.id = s.user_id
  join public.courses c on c.id = s.course_id
$function$;

CREATE OR REPLACE FUNCTION private.team_member_record (
  p_person uuid
)
  RETURNS TABLE (
    user_id      uuid,
    username     text,
    name         text,
    unit_id      uuid,
    unit_name    text,
    direct       boolean,
    required     jsonb,
    completions  jsonb,
    certificates jsonb,
    sessions     jsonb,
    practicals   jsonb
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
#variable_conflict use_column
begin
  return query
  select r.user_id, r.username, r.name, r.unit_id, r.unit_name, r.direct,
         coalesce((
           select jsonb_agg(jsonb_build_object(
                    'courseId', st.course_id, 'courseTitle', st.course_title, 'status', st.status,
                    'dueAt', st.due_at, 'progress', st.progress,
                    'recognised', case when st.recognition_source is not null then jsonb_build_object(
                      'source', st.recognition_source, 'issuerName', st.recognised_issuer,
                      'achievementName', st.recognised_achievement, 'validUntil', st.certificate_expires_at) end)
                  order by private.required_training_status_rank(st.status), st.due_at nulls last, st.course_title)
           from private.required_training_status(r.user_id) st
         ), '[]'::jsonb),
         coalesce((
           select jsonb_agg(jsonb_build_object(
                    'courseId', e.course_id, 'courseTitle', c.title, 'completedAt', e.completed_at)
                  order by e.completed_at desc, c.title)
           from public.enrollments e
           join public.courses c on c.id = e.course_id
           where e.user_id = r.user_id and e.completed
         ), '[]'::jsonb),
         coalesce((
           select jsonb_agg(jsonb_build_object(
                    'id', ct.id, 'courseId', ct.course_id, 'courseTitle', ct.course_title,
                    'issuedAt', ct.issued_at, 'expiresAt', ct.expires_at,
                    'state', private.certificate_state(ct.expires_at, ct.revoked_at))
                  order by ct.issued_at desc, ct.id)
           from public.certificates ct
           where ct.user_id = r.user_id
         ), '[]'::jsonb),
         coalesce((
           select jsonb_agg(jsonb_build_object(
                    'bookingId', b.booking_id, 'sessionId', b.session_id, 'courseId', b.course_id,
                    'courseTitle', b.course_title, 'courseTitleCy', b.course_title_cy, 'moduleId', b.module_id,
                    'moduleTitle', b.module_title, 'moduleTitleCy', b.module_title_cy, 'startsAt', b.starts_at,
                    'endsAt', b.ends_at, 'venueName', b.venue_name, 'online', b.online, 'status', b.status,
                    'offeredUntil', b.offered_until)
                  order by b.starts_at, b.booking_id)
           from private.upcoming_session_bookings(array[r.user_id], now()) b
         ), '[]'::jsonb),
         coalesce((
           select jsonb_agg(jsonb_build_object(
                    'courseId', pr.course_id, 'courseTitle', pr.course_title, 'courseTitleCy', pr.course_title_cy,
                    'moduleId', pr.module_id, 'moduleTitle', pr.module_title, 'moduleTitleCy', pr.module_title_cy,
                    'validMonths', pr.valid_months, 'signedOffAt', pr.signed_off_at, 'validUntil', pr.valid_until,
                    'state', pr.state)
                  order by private.practical_state_rank(pr.state), pr.valid_until nulls first, pr.course_title, pr.module_id)
           from private.practical_states(array[r.user_id], now()) pr
         ), '[]'::jsonb)
  from private.team_reports() r
  where r.user_id = p_person;
end;
$function$;

CREATE OR REPLACE FUNCTION private.team_status_counts (
  p_people uuid[]
)
  RETURNS TABLE (
    user_id     uuid,
    overdue     integer,
    due_soon    integer,
    in_progress integer,
    done        integer
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  ROWS 40
  SET search_path TO ''
  SET jit TO 'off'
  AS $function$
#variable_conflict use_column
declare
  v_organisation uuid := private.current_organisation_id();
begin
  if v_organisation is null or cardinality(p_people) = 0 then
    return;
  end if;
  if current_setting('transaction_isolation') <> 'read committed' then
    return query
      select st.user_id,
             (count(*) filter (where st.status = 'overdue'))::integer,
             (count(*) filter (where st.status = 'due-soon'))::integer,
             (count(*) filter (where st.status = 'in-progress'))::integer,
             (count(*) filter (where st.status in ('done', 'recognised')))::integer
      from private.required_training_states(null, null, null, null, v_organisation, null) st
      where st.user_id = any (p_people)
      group by st.user_id;
    return;
  end if;
  if not private.compliance_summary_is_current(v_organisation) then
    perform private.refresh_compliance_summary(v_organisation);
  end if;
  return query
    select k.user_id, k.overdue, k.due_soon, k.in_progress, k.done
    from private.compliance_person_counts k
    where k.organisation_id = v_organisation and k.user_id = any (p_people);
end;
$function$;

ALTER TABLE "public"."held_credentials"
  ADD CONSTRAINT "held_credentials_user_id_fkey" FOREIGN KEY (user_id) REFERENCES public.profiles(id) ON DELETE CASCADE;

ALTER TABLE "public"."recognition_equivalences"
  ADD CONSTRAINT "recognition_equivalences_course_id_fkey" FOREIGN KEY (course_id) REFERENCES public.courses(id) ON DELETE CASCADE;

ALTER TABLE "public"."recognition_equivalences"
  ADD CONSTRAINT "recognition_equivalences_platform_course_id_fkey" FOREIGN KEY (platform_course_id) REFERENCES public.courses(id) ON DELETE CASCADE;

ALTER TABLE "public"."recognition_equivalences"
  ADD CONSTRAINT "recognition_equivalences_issuer_fkey" FOREIGN KEY (organisation_id, issuer_id) REFERENCES public.trusted_issuers(organisation_id, issuer_id) ON DELETE CASCADE;

ALTER TABLE "public"."trusted_issuers"
  ADD CONSTRAINT "trusted_issuers_organisation_id_fkey" FOREIGN KEY (organisation_id) REFERENCES public.organisations(id) ON DELETE CASCADE;

CREATE INDEX held_credentials_match_idx ON public.held_credentials USING btree (issuer_id, achievement_id);

CREATE INDEX recognition_equivalences_course_idx ON public.recognition_equivalences USING btree (course_id);

CREATE INDEX recognition_equivalences_platform_course_idx ON public.recognition_equivalences USING btree (platform_course_id);

CREATE TRIGGER held_credentials_compliance_delete
  AFTER DELETE ON public.held_credentials REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_people();

CREATE TRIGGER held_credentials_compliance_insert
  AFTER INSERT ON public.held_credentials REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_people();

CREATE TRIGGER held_credentials_compliance_update
  AFTER UPDATE ON public.held_credentials REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_people();

CREATE TRIGGER recognition_equivalences_audit
  AFTER INSERT OR DELETE ON public.recognition_equivalences
  FOR EACH ROW
  EXECUTE FUNCTION private.audit_recognition();

CREATE TRIGGER recognition_equivalences_compliance_delete
  AFTER DELETE ON public.recognition_equivalences REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_recognition();

CREATE TRIGGER recognition_equivalences_compliance_insert
  AFTER INSERT ON public.recognition_equivalences REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_recognition();

CREATE TRIGGER recognition_equivalences_prepare
  BEFORE INSERT ON public.recognition_equivalences
  FOR EACH ROW
  EXECUTE FUNCTION private.prepare_recognition_equivalence();

CREATE TRIGGER trusted_issuers_audit
  AFTER INSERT OR DELETE ON public.trusted_issuers
  FOR EACH ROW
  EXECUTE FUNCTION private.audit_recognition();

CREATE TRIGGER trusted_issuers_compliance_delete
  AFTER DELETE ON public.trusted_issuers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_recognition();

CREATE TRIGGER trusted_issuers_compliance_insert
  AFTER INSERT ON public.trusted_issuers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT
  EXECUTE FUNCTION private.note_compliance_change_of_recognition();

CREATE TRIGGER trusted_issuers_prepare
  BEFORE INSERT ON public.trusted_issuers
  FOR EACH ROW
  EXECUTE FUNCTION private.prepare_trusted_issuer();

CREATE POLICY "holders and administrators read held credentials" ON "public"."held_credentials"
  FOR SELECT
  TO "authenticated"
  USING (((user_id = ( SELECT auth.uid() AS uid)) OR (user_id IN ( SELECT private.people_i_administer() AS people_i_administer))));

CREATE POLICY "holders remove their held credentials" ON "public"."held_credentials"
  FOR DELETE
  TO "authenticated"
  USING ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "administrators add equivalences to their organisation" ON "public"."recognition_equivalences"
  FOR INSERT
  TO "authenticated"
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "administrators read their organisation's equivalences" ON "public"."recognition_equivalences"
  FOR SELECT
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "administrators remove their organisation's equivalences" ON "public"."recognition_equivalences"
  FOR DELETE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "administrators add trusted issuers to their organisation" ON "public"."trusted_issuers"
  FOR INSERT
  TO "authenticated"
  WITH CHECK ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "administrators read their organisation's trusted issuers" ON "public"."trusted_issuers"
  FOR SELECT
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

CREATE POLICY "administrators remove their organisation's trusted issuers" ON "public"."trusted_issuers"
  FOR DELETE
  TO "authenticated"
  USING ((( SELECT private.is_admin() AS is_admin) OR (organisation_id = ( SELECT private.administered_organisation_id() AS administered_organisation_id))));

COMMENT ON COLUMN "public"."held_credentials"."credential" IS 'The signed credential JSON as uploaded.';

COMMENT ON COLUMN "public"."held_credentials"."credential_hash" IS 'sha256 (hex) of the uploaded text: the same credential is held once.';

COMMENT ON COLUMN "public"."held_credentials"."verification" IS 'The verifier''s outcome on upload: per-check results and machine codes.';

COMMENT ON COLUMN "public"."held_credentials"."verified" IS 'Every check passed on upload (proof, issuer key, status, dates, holder): only then can it be recognised.';

COMMENT ON COLUMN "public"."recognition_equivalences"."achievement_id" IS 'The achievement''s id as credentials name it (credentialSubject.achievement.id).';

COMMENT ON COLUMN "public"."recognition_equivalences"."course_id" IS 'The organisation''s own course (or a national one) the achievement counts for.';

COMMENT ON COLUMN "public"."recognition_equivalences"."platform_course_id" IS 'When the achievement is of a course of this platform: that course, whose certificates then count without upload.';

COMMENT ON COLUMN "public"."trusted_issuers"."issuer_id" IS 'The issuer''s id as its credentials name it: an HTTPS profile URL or a DID.';

COMMENT ON COLUMN "public"."trusted_issuers"."name" IS 'The issuer''s name as the organisation shows it (the origin of a recognised credential).';

COMMENT ON COLUMN "public"."trusted_issuers"."platform_issuer" IS 'When the issuer is one of this platform''s (an organisation''s id, or national): the last part of its profile URL; null for others.';

COMMENT ON FUNCTION "private"."audit_recognition"() IS 'After insert / delete of a trusted issuer or an equivalence: records trusted_issuer.added / .removed or recognition_equivalence.added / .removed on its organisation.';

COMMENT ON FUNCTION "private"."compliance_people"(public.service_code, public.user_role, uuid, text, integer, integer, uuid, uuid) IS 'Instructors and admins: the people required to take courses, with status, due date and a recognised credential''s origin, most urgent first, paged (status done: done and recognised); optionally of one organisation and unit (with its sub-units).';

COMMENT ON FUNCTION "private"."compliance_summary"(public.service_code, public.user_role, uuid, uuid, uuid) IS 'Instructors and admins: per service and required course, people required, compliant (done or recognised), due soon, overdue, in progress; optionally of one organisation and unit (with its sub-units). A whole organisation''s, for its or a national administrator, from the kept counts.';

COMMENT ON FUNCTION "private"."note_compliance_change_of_recognition"() IS 'After insert / delete of trusted_issuers or recognition_equivalences (per statement): notes a change for their organisations.';

COMMENT ON FUNCTION "private"."prepare_recognition_equivalence"() IS 'Before insert on recognition_equivalences: the course is the organisation''s or national (22023, hint courseId); a platform course''s achievement is of the trusted issuer''s organisation and names the course (22023, hint achievementId); created_by is the API caller.';

COMMENT ON FUNCTION "private"."prepare_trusted_issuer"() IS 'Before insert on trusted_issuers: trims the name; created_by is the API caller.';

COMMENT ON FUNCTION "private"."record_held_credential"(uuid, jsonb, text, text, text, text, text, timestamp with time zone, timestamp
  with time zone, boolean, jsonb) IS 'The api function (service_role) records a credential a person uploaded, with its verification outcome; the same credential again updates the outcome. Returns its id.';

COMMENT ON FUNCTION "private"."required_training_states"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) IS 'THE status rule of required training, set-based: one row per person and required (published) course the caller may see (learner: self; manager: their reports; instructor: people sharing a service, of their organisation if they have one; organisation admin: their organisation; national admin: all), with due date and status overdue | due-soon | in-progress | done | recognised (satisfied by a recognised credential, whose origin the recognition columns give; certificate_expires_at is then its validUntil). Filters: person, service, role, course, organisation, unit (with its sub-units).';

COMMENT ON FUNCTION "private"."required_training_status"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) IS 'The status rule (private.required_training_states) with names: one row per person and required course the caller may see, with due date, status, certificate (or recognised credential: its source upload | platform, issuer and achievement) and placement. Filters: person, service, role, course, organisation, unit.';

COMMENT ON FUNCTION "private"."required_training_status_rank"(text) IS 'Sort order of statuses: overdue, due-soon, in-progress, then done and recognised.';

COMMENT ON FUNCTION "private"."team_status_counts"(uuid[]) IS 'For team_summary and team_members: per given person of the caller''s organisation with required training, how many courses are overdue, due soon, in progress, done or recognised (the kept counts of THE status rule, refreshed first when out of date).';

COMMENT ON TABLE "private"."compliance_person_counts" IS 'Per person of an organisation with required training: how many courses are overdue, due soon, in progress, done (or recognised), as THE status rule worked them out at the organisation''s last refresh; read by private.team_status_counts.';

COMMENT ON TABLE "public"."held_credentials" IS 'Credentials people uploaded, as the api function verified them (written only by private.record_held_credential).';

COMMENT ON TABLE "public"."recognition_equivalences" IS 'An achievement of a trusted issuer an organisation accepts as equivalent to its required course.';

COMMENT ON TABLE "public"."trusted_issuers" IS 'Issuers of credentials an organisation trusts (its administrators''): only their credentials can be recognised there.';

REVOKE ALL ON FUNCTION "private"."audit_recognition"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."audit_recognition"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."compliance_people"(public.service_code, public.user_role, uuid, text, integer, integer, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE
  ON FUNCTION "private"."compliance_people"(public.service_code, public.user_role, uuid, text, integer, integer, uuid, uuid)
  TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."note_compliance_change_of_recognition"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."note_compliance_change_of_recognition"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."prepare_recognition_equivalence"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."prepare_recognition_equivalence"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."prepare_trusted_issuer"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."prepare_trusted_issuer"() TO "postgres";

REVOKE ALL ON FUNCTION "private"."record_held_credential"(uuid, jsonb, text, text, text, text, text, timestamp WITH time zone, timestamp WITH time zone, boolean, jsonb) FROM PUBLIC;

GRANT EXECUTE
  ON FUNCTION "private"."record_held_credential"(uuid, jsonb, text, text, text, text, text, timestamp WITH time zone, timestamp WITH time zone, boolean, jsonb)
  TO "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."required_training_states"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."required_training_states"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."required_training_status"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."required_training_status"(uuid, public.service_code, public.user_role, uuid, uuid, uuid) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON TABLE "public"."held_credentials" FROM "authenticated";

GRANT DELETE, SELECT ON TABLE "public"."held_credentials" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."held_credentials" TO "postgres", "service_role";

REVOKE ALL ON TABLE "public"."recognition_equivalences" FROM "authenticated";

REVOKE ALL ("achievement_id") ON TABLE "public"."recognition_equivalences" FROM "authenticated";

GRANT INSERT ("achievement_id") ON TABLE "public"."recognition_equivalences" TO "authenticated";

REVOKE ALL ("achievement_name") ON TABLE "public"."recognition_equivalences" FROM "authenticated";

GRANT INSERT ("achievement_name") ON TABLE "public"."recognition_equivalences" TO "authenticated";

REVOKE ALL ("course_id") ON TABLE "public"."recognition_equivalences" FROM "authenticated";

GRANT INSERT ("course_id") ON TABLE "public"."recognition_equivalences" TO "authenticated";

REVOKE ALL ("issuer_id") ON TABLE "public"."recognition_equivalences" FROM "authenticated";

GRANT INSERT ("issuer_id") ON TABLE "public"."recognition_equivalences" TO "authenticated";

REVOKE ALL ("organisation_id") ON TABLE "public"."recognition_equivalences" FROM "authenticated";

GRANT INSERT ("organisation_id") ON TABLE "public"."recognition_equivalences" TO "authenticated";

REVOKE ALL ("platform_course_id") ON TABLE "public"."recognition_equivalences" FROM "authenticated";

GRANT INSERT ("platform_course_id") ON TABLE "public"."recognition_equivalences" TO "authenticated";

GRANT DELETE, SELECT ON TABLE "public"."recognition_equivalences" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."recognition_equivalences" TO "postgres", "service_role";

REVOKE ALL ON TABLE "public"."trusted_issuers" FROM "authenticated";

REVOKE ALL ("issuer_id") ON TABLE "public"."trusted_issuers" FROM "authenticated";

GRANT INSERT ("issuer_id") ON TABLE "public"."trusted_issuers" TO "authenticated";

REVOKE ALL ("name") ON TABLE "public"."trusted_issuers" FROM "authenticated";

GRANT INSERT ("name") ON TABLE "public"."trusted_issuers" TO "authenticated";

REVOKE ALL ("organisation_id") ON TABLE "public"."trusted_issuers" FROM "authenticated";

GRANT INSERT ("organisation_id") ON TABLE "public"."trusted_issuers" TO "authenticated";

REVOKE ALL ("platform_issuer") ON TABLE "public"."trusted_issuers" FROM "authenticated";

GRANT INSERT ("platform_issuer") ON TABLE "public"."trusted_issuers" TO "authenticated";

GRANT DELETE, SELECT ON TABLE "public"."trusted_issuers" TO "authenticated";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."trusted_issuers" TO "postgres", "service_role";

ALTER TABLE "public"."recognition_equivalences"
  ADD CONSTRAINT "recognition_equivalences_created_by_fkey" FOREIGN KEY (created_by) REFERENCES public.profiles(id) ON DELETE SET NULL;

CREATE INDEX recognition_equivalences_created_by_idx ON public.recognition_equivalences USING btree (created_by);

ALTER TABLE "public"."trusted_issuers"
  ADD CONSTRAINT "trusted_issuers_created_by_fkey" FOREIGN KEY (created_by) REFERENCES public.profiles(id) ON DELETE SET NULL;

CREATE INDEX trusted_issuers_created_by_idx ON public.trusted_issuers USING btree (created_by);

-- The diff leaves out revoking the default privileges anon gets on a new table (see the schema file).
REVOKE ALL ON TABLE "public"."held_credentials" FROM "anon";

REVOKE ALL ON TABLE "public"."recognition_equivalences" FROM "anon";

REVOKE ALL ON TABLE "public"."trusted_issuers" FROM "anon";
