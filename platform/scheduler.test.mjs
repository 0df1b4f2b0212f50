// The notification schedule: it runs private.decide_notifications(now()) every tick, one run at a
// time, and a failing run is logged and retried on the next tick without stopping anything. On a
// scratch PGlite served over the wire, with a stand-in decide_notifications (the real one is proved
// in supabase/tests/notifications.test.ts); and how often it runs, from the environment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import postgres from 'postgres';
import { createPGlite } from './pglite.mjs';
import http from 'node:http';
import { deliverThrough, schedulerSeconds, startNotificationScheduler } from './scheduler.mjs';

let db;
let server;
let sql;

beforeAll(async () => {
  db = await createPGlite();
  await db.exec(`
    create schema private;
    create table private.runs (at timestamptz not null);
    create table private.switch (fail boolean not null);
    insert into private.switch values (false);
    create function private.decide_notifications(p_now timestamptz) returns integer language plpgsql as $$
    begin
      if (select fail from private.switch) then raise exception 'database says no'; end if;
      insert into private.runs values (p_now);
      return 2;
    end $$;`);
  server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 5 });
  await server.start();
  sql = postgres(`postgresql://postgres:postgres@${server.getServerConn()}/postgres`, { max: 1, prepare: false, onnotice: () => {} });
});
afterAll(async () => {
  await sql?.end();
  await server?.stop();
  await db?.close();
});

const runs = async () => (await sql`select count(*)::int as n from private.runs`)[0].n;
const until = async (check) => {
  for (let i = 0; i < 100 && !(await check()); i += 1) await new Promise((r) => setTimeout(r, 50));
};

describe('notification scheduler', () => {
  it('runs the decision every tick and logs what it wrote', async () => {
    const logs = [];
    const scheduler = startNotificationScheduler({ sql, everySeconds: 0.1, log: (m) => logs.push(m) });
    await until(async () => (await runs()) >= 2);
    await scheduler.stop();
    expect(await runs()).toBeGreaterThanOrEqual(2);
    expect(logs).toContain('notifications: 2 written');
  });

  it('logs a failed run and tries again on the next tick, without throwing', async () => {
    await sql`update private.switch set fail = true`;
    const logs = [];
    const scheduler = startNotificationScheduler({ sql, everySeconds: 0.1, log: (m) => logs.push(m) });
    expect(await scheduler.runOnce()).toBeNull();
    await until(async () => logs.filter((m) => m.includes('failed')).length >= 2);
    expect(logs.filter((m) => m.includes('database says no')).length).toBeGreaterThanOrEqual(2);
    const before = await runs();
    await sql`update private.switch set fail = false`;
    await until(async () => (await runs()) > before);
    await scheduler.stop();
    expect(await runs()).toBeGreaterThan(before);
  });

  it('with 0 seconds it never runs by itself, only when asked', async () => {
    const before = await runs();
    const scheduler = startNotificationScheduler({ sql, everySeconds: 0, log: () => {} });
    await new Promise((r) => setTimeout(r, 300));
    expect(await runs()).toBe(before);
    expect(await scheduler.runOnce()).toBe(2);
    await scheduler.stop();
  });

  it('every 60 s by default, off on free ports (the tests) unless asked, and refuses nonsense', () => {
    expect(schedulerSeconds({})).toBe(60);
    expect(schedulerSeconds({ PORT: '0' })).toBe(0);
    expect(schedulerSeconds({ PORT: '0', NOTIFICATIONS_EVERY_SECONDS: '5' })).toBe(5);
    expect(schedulerSeconds({ NOTIFICATIONS_EVERY_SECONDS: '0' })).toBe(0);
    expect(() => schedulerSeconds({ NOTIFICATIONS_EVERY_SECONDS: 'often' })).toThrow(/NOTIFICATIONS_EVERY_SECONDS/);
  });

  it('after each decision it calls the deliver endpoint with the service role key; a failing call is logged once and retried', async () => {
    // A small HTTP server in the function's place: it records each call and answers as the worker does.
    const calls = [];
    let status = 200;
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => { body += chunk; });
      req.on('end', () => {
        calls.push({ method: req.method, url: req.url, authorization: req.headers.authorization, apikey: req.headers.apikey, body });
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(status === 200 ? { claimed: 3, sent: 2, failed: 1 } : { message: 'Email is not set up' }));
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}/functions/v1/api/notifications/deliver`;
    const logs = [];
    const before = await runs();
    const scheduler = startNotificationScheduler({
      sql, everySeconds: 0.1, log: (m) => logs.push(m), deliver: () => deliverThrough({ url, serviceRoleKey: 'service-key' }),
    });
    try {
      await until(async () => calls.length >= 2);
      expect(await runs()).toBeGreaterThan(before);
      expect(calls[0]).toMatchObject({ method: 'POST', url: '/functions/v1/api/notifications/deliver', authorization: 'Bearer service-key', apikey: 'service-key', body: '{"max":2000}' });
      expect(logs).toContain('notifications: 2 emails sent, 1 failed');
      status = 503;
      const seen = calls.length;
      await until(async () => calls.length >= seen + 3);
      expect(logs.filter((m) => m.includes('delivery failed (HTTP 503: Email is not set up)'))).toHaveLength(1);
      expect(await scheduler.deliverOnce()).toBeNull();
    } finally {
      await scheduler.stop();
      server.close();
    }
  });
});
