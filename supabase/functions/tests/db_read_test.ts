// db.read (lib/db.ts): a read sent in one round trip (BEGIN, the caller's setup, the statements,
// COMMIT). Its statements share one transaction under the caller's role and claims; a failed
// statement fails the read with its own error and leaves the pooled connection clean; a session
// that is gone is refused; a connection cut during a read fails it, and the pool serves again.
import { createDb } from '../api/lib/db.ts';
import { ApiError } from '../api/lib/errors.ts';
import { startFaultProxy } from '../../../scripts/fault-proxy.mjs';
import { assert, assertEquals, closePoolAfterTests, config, db, register, sessionIdOf, test } from './helpers.ts';

test('read: its statements run in one transaction as the caller, with the claims, and answer in order', async () => {
  const { user } = await register();
  const caller = { role: 'authenticated' as const, claims: { sub: user.id, role: 'authenticated' } };
  const [first, second, mine] = await db.read(caller, (q) => [
    q<{ who: string; uid: string; started: Date }[]>`select current_user::text as who, auth.uid()::text as uid, now() as started`,
    q<{ started: Date; plans: string }[]>`select now() as started, current_setting('plan_cache_mode') as plans`,
    q<{ id: string }[]>`select id::text from public.profiles where id = ${user.id}::uuid`,
  ]);
  assertEquals(first[0].who, 'authenticated');
  assertEquals(first[0].uid, user.id);
  // now() is the transaction's start: the same for both statements only inside one transaction.
  assertEquals(second[0].started.getTime(), first[0].started.getTime());
  assertEquals(second[0].plans, 'auto');
  assertEquals(mine.map((row) => row.id), [user.id]);

  // Row-level security applies: a visitor reads no profile.
  const [visible] = await db.read({ role: 'anon', claims: { role: 'anon' } }, (q) => [
    q<{ n: number }[]>`select count(*)::int as n from public.profiles where id = ${user.id}::uuid`,
  ]);
  assertEquals(visible[0].n, 0);

  // genericPlans: the transaction keeps generic plans; the next one on the pool is back to the default.
  const [[generic]] = await db.read(caller, (q) => [q<{ plans: string }[]>`select current_setting('plan_cache_mode') as plans`], {
    genericPlans: true,
  });
  assertEquals(generic.plans, 'force_generic_plan');
  const after = await Promise.all(Array.from({ length: 16 }, () =>
    db.read(caller, (q) => [q<{ plans: string; who: string }[]>`select current_setting('plan_cache_mode') as plans, current_user::text as who`])
  ));
  assertEquals(new Set(after.map(([[row]]) => `${row.plans} ${row.who}`)), new Set(['auto authenticated']));
  // And the pool's own connections are back to their own role.
  const own = await Promise.all(Array.from({ length: 16 }, () => db.sql<{ who: string }[]>`select current_user::text as who`));
  assert(own.every(([row]) => row.who !== 'authenticated' && row.who !== 'anon'), 'no connection kept the caller\'s role');
});

test('read: a failed statement fails the read with its own error; the pool serves the next reads', async () => {
  const caller = { role: 'anon' as const, claims: { role: 'anon' } };
  const failed = await db.read(caller, (q) => [q`select 1 as one`, q`select 1 / 0 as never`, q`select 2 as two`]).catch((error) => error);
  assertEquals(failed?.code, '22012', 'division by zero, not the aborted transaction of the statement after it');
  const again = await Promise.all(Array.from({ length: 16 }, () => db.read(caller, (q) => [q<{ one: number }[]>`select 1 as one`])));
  assertEquals(again.map(([[row]]) => row.one), Array(16).fill(1));
});

test('read: a session that is gone is refused (401) and its statements see only what a visitor may', async () => {
  const { user, session } = await register();
  const token = session.access_token as string;
  const caller = {
    role: 'authenticated' as const,
    claims: { sub: user.id, role: 'authenticated', session_id: sessionIdOf(token) },
    session: { id: sessionIdOf(token), userId: user.id, verified: false },
  };
  const [[live]] = await db.read(caller, (q) => [q<{ who: string }[]>`select current_user::text as who`]);
  assertEquals(live.who, 'authenticated');
  assertEquals(caller.session.verified, true, 'checked once, then trusted for the rest of the request');

  await db.sql`delete from auth.sessions where id = ${sessionIdOf(token)}::uuid`;
  const gone = { ...caller, session: { ...caller.session, verified: false } };
  const refused = await db.read(gone, (q) => [q`select current_user::text as who`]).catch((error) => error);
  assert(refused instanceof ApiError, String(refused));
  assertEquals(refused.status, 401);
  // A statement a visitor may not run (a function granted to users only) fails: still 401, not 403.
  const denied = await db.read(gone, (q) => [q`select * from private.compliance_summary()`]).catch((error) => error);
  assert(denied instanceof ApiError, String(denied));
  assertEquals(denied.status, 401);
});

test('read: a connection cut during a read fails it; the same pool serves again when the database is back', async () => {
  const proxy = await startFaultProxy({ target: config.dbUrl });
  const faultyDb = createDb(proxy.url);
  const caller = { role: 'anon' as const, claims: { role: 'anon' } };
  try {
    const [[before]] = await faultyDb.read(caller, (q) => [q<{ one: number }[]>`select 1 as one`]);
    assertEquals(before.one, 1);
    const slow = faultyDb.read(caller, (q) => [q`select pg_sleep(0.3)`, q`select 1 as one`]).catch((error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    proxy.cut();
    assert((await slow) instanceof Error, 'the cut read failed');
    proxy.restore();
    const back = await Promise.all(Array.from({ length: 10 }, () => faultyDb.read(caller, (q) => [q<{ one: number }[]>`select 1 as one`])));
    assertEquals(back.map(([[row]]) => row.one), Array(10).fill(1));
  } finally {
    await faultyDb.sql.end({ timeout: 5 }).catch(() => {}); // in-flight statements finish first: destroyed, postgres.js can reject one nobody awaits
    await proxy.close();
  }
});

closePoolAfterTests();
