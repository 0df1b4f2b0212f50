// deploy/schedule.sql, the hosted notification schedule, does what platform/scheduler.mjs does
// locally: the same decision, the same call to the same delivery route with the same key, body and
// timeout, at the same cadence.
//
// What this proves, and what it cannot: pg_cron, pg_net and Supabase Vault are Supabase's extensions,
// not installable here without reconfiguring the server (pg_cron must be preloaded), so the file runs
// on a copy of the app's database (the real schema, so the real private.decide_notifications) where
// three small stand-ins have the extensions' signatures and documented behaviour: pg_cron's cron.job,
// cron.schedule(name, schedule, command) replacing a job of the same name and cron.unschedule(id)
// refusing an unknown job; pg_net's net.http_post, which queues the request (here: records it);
// Vault's decrypted_secrets. The job's command is then run as pg_cron runs one, as one query string.
// That proves the file is valid SQL against those signatures, idempotent, refuses to run without the
// extensions or the secrets, reads the URL and the key from Vault at each run, and that its job
// decides against the real schema and posts what the local scheduler posts. It does not prove
// pg_cron's timer or pg_net's worker, which are Supabase's.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVER_MAX, DELIVER_TIMEOUT_MS, deliverThrough, schedulerSeconds } from '../../platform/scheduler.mjs';
import { backends, type TestDatabase } from './helpers/database';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const scheduleSql = read('deploy/schedule.sql');

// pg_cron 1.6's catalogue and functions (the columns this file reads), pg_net's http_post, Vault's view.
const STAND_INS = `
  create schema cron;
  create table cron.job (
    jobid bigserial primary key, schedule text not null, command text not null,
    nodename text not null default 'localhost', nodeport integer not null default 5432,
    database text not null default current_database(), username text not null default current_user,
    active boolean not null default true, jobname text);
  create function cron.schedule(job_name text, schedule text, command text) returns bigint
  language plpgsql as $$
  declare id bigint;
  begin
    update cron.job set schedule = $2, command = $3 where jobname = $1 and username = current_user returning jobid into id;
    if id is null then insert into cron.job (schedule, command, jobname) values ($2, $3, $1) returning jobid into id; end if;
    return id;
  end $$;
  create function cron.unschedule(job_id bigint) returns boolean language plpgsql as $$
  begin
    delete from cron.job where jobid = job_id;
    if not found then raise exception 'could not find valid entry for job %', job_id; end if;
    return true;
  end $$;
  create schema net;
  create table net.requests (id bigserial primary key, url text, body jsonb, params jsonb, headers jsonb, timeout_milliseconds integer);
  create function net.http_post(url text, body jsonb default '{}'::jsonb, params jsonb default '{}'::jsonb,
      headers jsonb default '{"Content-Type": "application/json"}'::jsonb, timeout_milliseconds integer default 5000)
  returns bigint language sql as $$
    insert into net.requests (url, body, params, headers, timeout_milliseconds) values ($1, $2, $3, $4, $5) returning id
  $$;
  create schema vault;
  create table vault.secrets (name text primary key, secret text not null);
  create view vault.decrypted_secrets as select name, secret as decrypted_secret from vault.secrets;
`;

const PROJECT_URL = 'https://abcdefghijklmnop.supabase.co';
const KEY = 'service-role-key-from-vault';

interface Job {
  jobid: string;
  jobname: string;
  schedule: string;
  command: string;
}
interface Posted {
  url: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  timeout_milliseconds: number;
}

/** The failure the file stops with, or null when it ran. */
async function runFile(db: TestDatabase): Promise<string | null> {
  try {
    await db.exec(scheduleSql);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const jobs = async (db: TestDatabase) =>
  (await db.query<Job>('select jobid::text, jobname, schedule, command from cron.job order by jobname')).rows;
const posted = async (db: TestDatabase) =>
  (await db.query<Posted>('select url, body, headers, timeout_milliseconds from net.requests order by id')).rows;

/** What the local scheduler's delivery call sends (platform/scheduler.mjs's deliverThrough), caught by a server of the test's. */
async function localCall(): Promise<{ method: string; path: string; headers: IncomingHttpHeaders; body: unknown }> {
  let caught: { method: string; path: string; headers: IncomingHttpHeaders; body: unknown } | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      caught = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"claimed":0,"sent":0,"failed":0}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await deliverThrough({ url: `http://127.0.0.1:${port}/functions/v1/api/notifications/deliver`, serviceRoleKey: KEY });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  if (!caught) throw new Error('the local delivery call reached nothing');
  return caught;
}

for (const backend of backends) {
  describe(`deploy/schedule.sql (${backend.name})`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await backend.create();
    });
    afterAll(async () => {
      await db?.close();
    });

    it('refuses to run, saying what to do, without pg_cron, pg_net or the Vault secrets', async () => {
      expect(await runFile(db)).toMatch(/pg_cron is not enabled/);
      await db.exec(STAND_INS);
      expect(await runFile(db)).toMatch(/Vault needs the secrets project_url and service_role_key/);
      await db.query(`insert into vault.secrets values ('project_url', $1)`, [`${PROJECT_URL}/`]);
      expect(await runFile(db)).toMatch(/Vault needs the secrets/);
      await db.query(`insert into vault.secrets values ('service_role_key', $1)`, [KEY]);
      expect(await jobs(db)).toEqual([]);
    });

    it('schedules one job, every minute as the local scheduler runs, and running it again changes nothing', async () => {
      // The two jobs the earlier instructions made, and a job of someone else's that must stay.
      await db.exec(`
        select cron.schedule('decide-notifications', '*/5 * * * *', 'select private.decide_notifications(now())');
        select cron.schedule('deliver-notifications', '1-59/5 * * * *', 'select 1');
        select cron.schedule('vacuum-something', '0 3 * * *', 'select 2');`);
      expect(await runFile(db)).toBeNull();
      const once = await jobs(db);
      expect(once.map((job) => job.jobname)).toEqual(['notifications', 'vacuum-something']);
      const job = once[0];
      // '* * * * *' is pg_cron's every minute; the local scheduler's default is every 60 s.
      expect(job.schedule).toBe('* * * * *');
      expect(schedulerSeconds({})).toBe(60);
      expect(job.command).not.toContain(KEY);
      expect(job.command).not.toContain(PROJECT_URL);

      expect(await runFile(db)).toBeNull();
      const twice = await jobs(db);
      expect(twice.map(({ jobname, schedule, command }) => ({ jobname, schedule, command })))
        .toEqual(once.map(({ jobname, schedule, command }) => ({ jobname, schedule, command })));
    });

    it("runs the real decision, then asks the delivery worker exactly as the local scheduler does", async () => {
      const [job] = (await jobs(db)).filter((j) => j.jobname === 'notifications');
      // A wrapper around the real decision, to see that the job calls it and with what time.
      await db.exec(`
        alter function private.decide_notifications(timestamptz) rename to decide_notifications_real;
        create table private.decisions (p_now timestamptz, at timestamptz default now(), written integer);
        create function private.decide_notifications(p_now timestamptz) returns integer language plpgsql as $$
        declare n integer := private.decide_notifications_real(p_now);
        begin insert into private.decisions (p_now, written) values (p_now, n); return n; end $$;`);
      await db.exec(job.command);
      const decisions = (await db.query<{ same: boolean }>('select p_now = at as same from private.decisions')).rows;
      expect(decisions).toEqual([{ same: true }]);

      const [call] = await posted(db);
      expect((await posted(db)).length).toBe(1);
      const local = await localCall();
      // The route the function answers: app.ts mounts notifications at /notifications, its /deliver
      // is the schedule's call, and hosted Supabase serves the function under /functions/v1/api.
      const route = /SCHEDULE_CALL = \{ method: '(\w+)', path: '([^']+)' \}/.exec(read('supabase/functions/api/routes/notifications/deliver.ts'));
      expect(route?.slice(1)).toEqual(['POST', '/api/notifications/deliver']);
      expect(read('supabase/functions/api/app.ts')).toContain("app.route('/notifications', notificationRoutes(config, db));");
      expect(local.method).toBe(route?.[1]);
      expect(local.path).toBe(`/functions/v1${route?.[2]}`);
      expect(call.url).toBe(`${PROJECT_URL}${local.path}`);

      expect(call.body).toEqual(local.body);
      expect(call.body).toEqual({ max: DELIVER_MAX });
      expect(call.timeout_milliseconds).toBe(DELIVER_TIMEOUT_MS);
      const sent = Object.fromEntries(Object.entries(call.headers).map(([name, value]) => [name.toLowerCase(), value]));
      expect(sent).toEqual({
        'content-type': local.headers['content-type'],
        apikey: local.headers.apikey,
        authorization: local.headers.authorization,
      });
      expect(sent.authorization).toBe(`Bearer ${KEY}`);
    });

    it('reads the key from Vault at each run, and still delivers when the decision fails', async () => {
      const [job] = (await jobs(db)).filter((j) => j.jobname === 'notifications');
      await db.query(`update vault.secrets set secret = 'a-rotated-key' where name = 'service_role_key'`);
      await db.exec(`
        create or replace function private.decide_notifications(p_now timestamptz) returns integer language plpgsql as $$
        begin raise exception 'the decision failed'; end $$;`);
      await db.exec(job.command);
      const calls = await posted(db);
      expect(calls.length).toBe(2);
      expect(calls[1].headers.Authorization).toBe('Bearer a-rotated-key');
      expect(calls[1].url).toBe(calls[0].url);
    });
  });
}
