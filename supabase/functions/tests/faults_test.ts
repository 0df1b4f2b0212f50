// Faults: the api function with its database cut off by a real TCP proxy (scripts/fault-proxy.mjs)
// in front of the running platform's database. While the database is unreachable every request
// is a 503 with a clear en-GB message (no 500, no stack, no driver text) and nothing is written;
// when it comes back the same app, with the same connection pool, serves again by itself.
import { createApp } from '../api/app.ts';
import { createDb, POOL_SIZE, type Tx } from '../api/lib/db.ts';
import { DATABASE_UNAVAILABLE } from '../api/lib/unavailable.ts';
import { signingSettled } from '../api/lib/credentials/sign.ts';
import { startFaultProxy } from '../../../scripts/fault-proxy.mjs';
import { assert, assertEquals, closePoolAfterTests, config, db, register, test, uniqueIp } from './helpers.ts';

const LEAKS = /at \w+ \(|\.ts:\d+|postgres|ECONN|CONNECTION_|select |relation |stack/i;

test('database unreachable: 503 with a clear message, nothing written; back by itself when it returns', async () => {
  const proxy = await startFaultProxy({ target: config.dbUrl });
  const faultyDb = createDb(proxy.url);
  const faulty = createApp(config, faultyDb);
  const request = async (method: string, path: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = { 'x-forwarded-for': uniqueIp() };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await faulty.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
  };
  try {
    const { input, user, session } = await register();
    const token = session.access_token as string;
    const profile = { name: input.name, email: input.email };

    // Healthy: served through the proxy.
    assertEquals((await request('GET', '/api/courses')).status, 200);
    assertEquals((await request('GET', '/api/user', token)).status, 200);
    const acceptedBefore = proxy.accepted();
    assert(proxy.connections() > 0, 'the pool holds connections through the proxy');

    // Cut: open connections are reset and new ones refused.
    proxy.cut();
    const during = [
      await request('GET', '/api/courses'),
      await request('GET', '/api/user', token),
      await request('PUT', '/api/profile', token, { ...profile, name: 'Written While Down' }),
      await request('POST', '/api/login', undefined, { username: input.username, password: input.password }),
      await request('POST', `/api/courses/10000000-0000-4000-a000-000000000001/enroll`, token),
    ];
    for (const answer of during) {
      assertEquals(answer.status, 503, answer.text);
      assertEquals(answer.json, { message: DATABASE_UNAVAILABLE });
      assertEquals(answer.headers.get('content-type')?.startsWith('application/json'), true);
      assertEquals(answer.headers.get('retry-after'), '5');
      assert(!LEAKS.test(answer.text), `no internals in ${answer.text}`);
    }
    // Bad input is still judged before the database is needed: 400, not 503.
    assertEquals((await request('POST', '/api/login', undefined, { username: '' })).status, 400);
    const [unchanged] = await db.sql`select name from public.profiles where id = ${user.id}::uuid`;
    assertEquals(unchanged.name, input.name, 'nothing was written while the database was away');

    // Restore: the same app and pool reconnect on the next request, with no restart.
    proxy.restore();
    const back = await request('PUT', '/api/profile', token, { ...profile, name: 'Written After Return' });
    assertEquals(back.status, 200, back.text);
    assertEquals(back.json.name, 'Written After Return');
    assertEquals((await request('GET', '/api/courses')).status, 200);
    assert(proxy.accepted() > acceptedBefore, 'postgres.js opened new connections after the database returned');
    const [changed] = await db.sql`select name from public.profiles where id = ${user.id}::uuid`;
    assertEquals(changed.name, 'Written After Return');
  } finally {
    await signingSettled(); // the credentials a write may have left pending are signed in the background
    await faultyDb.sql.end({ timeout: 5 }).catch(() => {}); // in-flight statements finish first: destroyed, postgres.js can reject one nobody awaits
    await proxy.close();
  }
});

test('database gone in the middle of a transaction: it fails and rolls back; the same pool serves again', async () => {
  const proxy = await startFaultProxy({ target: config.dbUrl });
  const faultyDb = createDb(proxy.url);
  const faulty = createApp(config, faultyDb);
  try {
    const { input, user, session } = await register();
    const token = session.access_token as string;
    // A request whose transaction is cut between its statements: the proxy resets the
    // connection while the function waits on pg_sleep inside the caller's transaction.
    const slow = faultyDb.withCaller({ role: 'authenticated', claims: { sub: user.id, role: 'authenticated' } }, async (tx) => {
      await tx`update public.profiles set name = 'Half Written' where id = ${user.id}::uuid`;
      await tx`select pg_sleep(0.3)`;
      return 'committed';
    }).catch((error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    proxy.cut();
    const outcome = await slow;
    assert(outcome instanceof Error, 'the cut transaction failed');
    proxy.restore();
    // The database may still be finishing the orphaned statement; poll briefly.
    let name = '';
    for (let i = 0; i < 20; i += 1) {
      [{ name }] = await db.sql`select name from public.profiles where id = ${user.id}::uuid`;
      if (name === input.name) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assertEquals(name, input.name, 'the half-done transaction was rolled back');
    const answer = await faulty.request('/api/user', { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': uniqueIp() } });
    assertEquals(answer.status, 200);
    assertEquals((await answer.json()).name, input.name);
  } finally {
    await signingSettled(); // the credentials a write may have left pending are signed in the background
    await faultyDb.sql.end({ timeout: 5 }).catch(() => {}); // in-flight statements finish first: destroyed, postgres.js can reject one nobody awaits
    await proxy.close();
  }
});

test('database back after a reset: the pool serves again within seconds (not postgres.js\'s 10-20 s backoff), its transactions and its reads', async () => {
  const proxy = await startFaultProxy({ target: config.dbUrl });
  const faultyDb = createDb(proxy.url);
  const service = <T>(fn: (tx: Tx) => Promise<T>) => faultyDb.withServiceRole(fn);
  const visitor = { role: 'anon' as const, claims: { role: 'anon' } };
  try {
    // Every connection of the pool open, then reset while a transaction runs on each.
    const busy = Array.from({ length: POOL_SIZE }, () => service((tx) => tx`select pg_sleep(0.3)`).catch((error) => error));
    await new Promise((resolve) => setTimeout(resolve, 100));
    proxy.cut();
    for (const outcome of await Promise.all(busy)) assert(outcome instanceof Error, 'a transaction cut by the reset fails');
    // Requests while the database is away fail at once, each a refused connection.
    for (let i = 0; i < 2 * POOL_SIZE; i += 1) {
      const started = performance.now();
      const outcome = await service((tx) => tx`select 1`).catch((error) => error);
      assert(outcome instanceof Error, 'no answer while the database is away');
      // (Limits with room for a loaded machine: postgres.js's own backoff made these waits 5 to 20 s.)
      assert(performance.now() - started < 3000, `a request during the outage failed at once (${Math.round(performance.now() - started)} ms)`);
    }

    proxy.restore();
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: POOL_SIZE + 2 }, (_, i) =>
      i % 2 === 0
        ? service(async (tx) => (await tx<{ n: number }[]>`select ${i}::int as n`)[0].n)
        : faultyDb.read(visitor, (q) => [q<{ n: number }[]>`select ${i}::int as n`]).then(([rows]) => rows[0].n)
    ));
    const took = performance.now() - started;
    assertEquals(answers, Array.from({ length: POOL_SIZE + 2 }, (_, i) => i));
    assert(took < 3000, `the pool served again within seconds of the database's return (took ${Math.round(took)} ms)`);
  } finally {
    await signingSettled(); // the credentials a write may have left pending are signed in the background
    await faultyDb.sql.end({ timeout: 5 }).catch(() => {}); // in-flight statements finish first: destroyed, postgres.js can reject one nobody awaits
    await proxy.close();
  }
});

closePoolAfterTests();
