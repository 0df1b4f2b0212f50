-- The notification schedule of a hosted Supabase project: what platform/scheduler.mjs does locally,
-- done by pg_cron and pg_net. Every minute (the local default, 60 s) one job decides the notices then
-- due, `select private.decide_notifications(now())`, and asks the function's delivery worker to send
-- the queued emails: POST <project URL>/functions/v1/api/notifications/deliver with the service role
-- key and the body {"max": 2000}. pg_net sends the request after the job's transaction commits, so
-- the worker sees what this run decided. A failed decision is logged (a warning in the Postgres log)
-- and the emails already queued still go, as locally; both steps are safe when runs overlap.
--
-- Before running it, once per project:
--   * enable the extensions pg_cron and pg_net (Dashboard, Database, Extensions);
--   * keep the project URL and the service role key in Vault, where the job reads them at each run
--     (never in this file or in cron.job):
--       select vault.create_secret('https://<project-ref>.supabase.co', 'project_url');
--       select vault.create_secret('<service role key>', 'service_role_key');
--     (vault.update_secret changes one later; the job needs no new schedule for it).
-- Then, and after any change of this file:
--   psql "<the project's database URL>" -v ON_ERROR_STOP=1 -f deploy/schedule.sql
-- It can be run any number of times: it removes the jobs it made before (by name, including the two
-- of earlier versions) and schedules them again, so cron.job holds one job, as written here.
-- cron.job_run_details records each run; net._http_response each delivery's answer.
-- supabase/tests/deploy-schedule.test.ts checks it against the local scheduler and the schema.

do $check$
begin
  if to_regprocedure('cron.schedule(text,text,text)') is null then
    raise exception 'pg_cron is not enabled: enable it (Database, Extensions) and run this file again';
  end if;
  if to_regprocedure('net.http_post(text,jsonb,jsonb,jsonb,integer)') is null then
    raise exception 'pg_net is not enabled: enable it (Database, Extensions) and run this file again';
  end if;
  if to_regclass('vault.decrypted_secrets') is null then
    raise exception 'Supabase Vault is not available: the job reads the project URL and the service role key from it';
  end if;
  if (select count(distinct name) from vault.decrypted_secrets
      where name in ('project_url', 'service_role_key') and coalesce(decrypted_secret, '') <> '') <> 2 then
    raise exception 'Vault needs the secrets project_url and service_role_key'
      using hint = 'select vault.create_secret(''https://<project-ref>.supabase.co'', ''project_url''); select vault.create_secret(''<service role key>'', ''service_role_key'');';
  end if;
  if to_regprocedure('private.decide_notifications(timestamptz)') is null then
    raise exception 'private.decide_notifications is missing: push the migrations (supabase db push) first';
  end if;
end
$check$;

select cron.unschedule(jobid)
from cron.job
where jobname in ('notifications', 'decide-notifications', 'deliver-notifications');

select cron.schedule('notifications', '* * * * *', $job$
do $notifications$
declare
  project_url text := (select rtrim(decrypted_secret, '/') from vault.decrypted_secrets where name = 'project_url');
  service_role_key text := (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key');
begin
  begin
    perform private.decide_notifications(now());
  exception when others then
    raise warning 'notifications: the scheduled decision failed (% %); the queued emails still go', sqlstate, sqlerrm;
  end;
  perform net.http_post(
    url := project_url || '/functions/v1/api/notifications/deliver',
    body := jsonb_build_object('max', 2000),
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'apikey', service_role_key,
      'Authorization', 'Bearer ' || service_role_key),
    timeout_milliseconds := 280000);
end
$notifications$;
$job$);
