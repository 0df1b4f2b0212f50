-- faster_team_walk: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.managed_person_ids()
  RETURNS SETOF uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  ROWS 40
  SET search_path TO ''
  SET plan_cache_mode TO 'force_generic_plan'
  AS $function$
declare
  v_me uuid := (select auth.uid());
  v_level uuid[];
  v_all uuid[] := '{}';
begin
  if v_me is null then
    return;
  end if;
  v_level := array[v_me];
  for i in 1..32 loop
    select array_agg(p.id) into v_level
    from public.profiles p
    where p.manager_id = any (v_level) and p.id <> v_me and not (p.id = any (v_all));
    exit when v_level is null;
    v_all := v_all || v_level;
  end loop;
  return query select unnest(v_all);
end;
$function$;

CREATE INDEX user_module_progress_user_activity_idx ON public.user_module_progress USING btree (user_id, updated_at DESC);
