-- plpgsql_hot_functions: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

DROP FUNCTION "private"."compliance_refresh_running"();

DROP FUNCTION "private"."compliance_summary_is_current"(uuid);

DROP FUNCTION "private"."scorm_12_statuses"(text);

DROP FUNCTION "private"."scorm_module_met"(uuid, uuid);

DROP FUNCTION "private"."scorm_rule_met"(text, text, text);

DROP FUNCTION "private"."team_reports"();

CREATE OR REPLACE FUNCTION private.compliance_refresh_running()
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  return exists (select 1 from private.compliance_refreshes r where r.transaction_id = pg_current_xact_id_if_assigned());
end;
$function$;

CREATE OR REPLACE FUNCTION private.compliance_summary_is_current (
  p_organisation_id uuid
)
  RETURNS boolean
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
begin
  return exists (
    select 1 from private.compliance_summary_scopes s
    where s.organisation_id = p_organisation_id and s.valid_until > now()
      and not exists (select 1 from private.compliance_summary_changes c where c.organisation_id = p_organisation_id));
end;
$function$;

CREATE OR REPLACE FUNCTION private.scorm_12_statuses (
  p_lesson_status text
)
  RETURNS text[]
  LANGUAGE plpgsql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
begin
  return case p_lesson_status
    when 'passed' then array['completed', 'passed']
    when 'failed' then array['completed', 'failed']
    when 'completed' then array['completed', 'unknown']
    when 'incomplete' then array['incomplete', 'unknown']
    when 'browsed' then array['incomplete', 'unknown']
    else array['not attempted', 'unknown']
  end;
end;
$function$;

CREATE OR REPLACE FUNCTION private.scorm_module_met (
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
  return exists (select 1 from public.scorm_packages p where p.module_id = p_module_id)
     and not exists (
       select 1
       from public.scorm_packages p
       cross join lateral jsonb_array_elements(p.scos) s(sco)
       where p.module_id = p_module_id
         and not exists (
           select 1 from public.scorm_attempts a
           where a.user_id = p_user_id and a.module_id = p_module_id and a.sco_id = s.sco ->> 'id'
             and private.scorm_rule_met(p.completion_rule, a.completion_status, a.success_status)));
end;
$function$;

CREATE OR REPLACE FUNCTION private.scorm_rule_met (
  p_rule       text,
  p_completion text,
  p_success    text
)
  RETURNS boolean
  LANGUAGE plpgsql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
begin
  return case p_rule
    when 'passed' then p_success = 'passed'
    when 'completed-or-passed' then p_success = 'passed' or (p_completion = 'completed' and p_success <> 'failed')
    else p_completion = 'completed' and p_success <> 'failed'
  end;
end;
$function$;

CREATE OR REPLACE FUNCTION private.team_reports()
  RETURNS TABLE (
    user_id   uuid,
    username  text,
    name      text,
    unit_id   uuid,
    unit_name text,
    direct    boolean
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 40
  SET search_path TO ''
  AS $function$
begin
  return query
    select p.id, p.username, p.name, u.id, u.name, p.manager_id is not distinct from (select auth.uid())
    from private.managed_person_ids() m(id)
    join public.profiles p on p.id = m.id
    left join public.units u on u.id = p.unit_id
    where p.deactivated_at is null;
end;
$function$;

COMMENT ON FUNCTION "private"."compliance_refresh_running"() IS 'True inside private.refresh_compliance_summary: THE status rule then works out every person of the organisation, whoever the caller.';

COMMENT ON FUNCTION "private"."compliance_summary_is_current"(uuid) IS 'True when the organisation''s kept compliance summary is there, not past its valid_until, and no change is noted for it.';

COMMENT ON FUNCTION "private"."scorm_12_statuses"(text) IS 'SCORM 1.2 lesson_status as {completion_status, success_status}.';

COMMENT ON FUNCTION "private"."scorm_module_met"(uuid, uuid) IS 'Internal: every SCO of the module''s package has an attempt of the learner meeting the package''s completion rule.';

COMMENT ON FUNCTION "private"."scorm_rule_met"(text, text, text) IS 'True when the statuses meet the completion rule (completed, passed, completed-or-passed).';

COMMENT ON FUNCTION "private"."team_reports"() IS 'The caller''s active reports (direct and down the manager chain) with their unit and whether they report directly.';

REVOKE ALL ON FUNCTION "private"."compliance_refresh_running"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_refresh_running"() TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."compliance_summary_is_current"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."compliance_summary_is_current"(uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scorm_12_statuses"(text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_12_statuses"(text) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scorm_module_met"(uuid, uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_module_met"(uuid, uuid) TO "postgres";

REVOKE ALL ON FUNCTION "private"."scorm_rule_met"(text, text, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."scorm_rule_met"(text, text, text) TO "authenticated", "postgres", "service_role";

REVOKE ALL ON FUNCTION "private"."team_reports"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "private"."team_reports"() TO "authenticated", "postgres", "service_role";
