// The sign-in and registration limits (supabase/schemas/11_rate_limits.sql): the rules, the
// window, pruning, and that no API role can read or change the counted attempts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backends, personas, queryAs, sqlState, type TestDatabase } from './helpers/database';

const { admin, learner } = personas;
const visitor = null;

interface Take {
  retry_after: number;
  ticket: string | null;
}

async function asService<T>(db: TestDatabase, text: string, params: unknown[] = []) {
  return db.transaction(async (tx) => {
    await tx.query('set local role service_role');
    return tx.query<T>(text, params);
  });
}

async function take(db: TestDatabase, action: string, account: string | null, address: string, device: string | null = null): Promise<Take> {
  const r = await asService<Take>(db, 'select retry_after, ticket::text as ticket from private.rate_limit_take($1, $2, $3, $4)', [
    action,
    account,
    address,
    device,
  ]);
  return r.rows[0];
}

async function takeMany(db: TestDatabase, n: number, action: string, account: (i: number) => string | null, address: (i: number) => string) {
  const results: Take[] = [];
  for (let i = 0; i < n; i++) results.push(await take(db, action, account(i), address(i)));
  return results;
}

describe.each(backends)('rate limits on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await db.query('delete from private.rate_limit_attempts');
    await db.query('delete from private.sign_in_devices');
  });

  it('sign-in: 5 per account and address in 15 minutes, whatever the case; refused attempts are not recorded', async () => {
    const allowed = await takeMany(db, 5, 'sign_in', (i) => (i % 2 ? 'Student@Example.uk' : 'student@example.uk'), () => '10.0.0.1');
    expect(allowed.every((t) => t.retry_after === 0 && t.ticket !== null)).toBe(true);
    const refused = await take(db, 'sign_in', ' STUDENT@example.uk ', '10.0.0.1');
    expect(refused.ticket).toBeNull();
    expect(refused.retry_after).toBeGreaterThan(890);
    expect(refused.retry_after).toBeLessThanOrEqual(900);
    expect((await db.query('select count(*)::int as n from private.rate_limit_attempts')).rows).toEqual([{ n: 5 }]);
    // Another address, another account and registration are not affected (guessing from
    // one address no longer locks the account everywhere).
    expect((await take(db, 'sign_in', 'student@example.uk', '10.0.1.1')).retry_after).toBe(0);
    expect((await take(db, 'sign_in', 'admin@example.uk', '10.0.0.1')).retry_after).toBe(0);
    expect((await take(db, 'register', 'student@example.uk', '10.0.0.1')).retry_after).toBe(0);
  });

  it('sign-in: 20 per account from all addresses together (distributed guessing stays slow)', async () => {
    const allowed = await takeMany(db, 20, 'sign_in', () => 'student@example.uk', (i) => `10.1.0.${i}`);
    expect(allowed.every((t) => t.retry_after === 0)).toBe(true);
    expect((await take(db, 'sign_in', 'student@example.uk', '10.1.1.1')).retry_after).toBeGreaterThan(0);
    expect((await take(db, 'sign_in', 'admin@example.uk', '10.1.1.1')).retry_after).toBe(0);
  });

  it('sign-in: a known device counts only its own failures, so nobody else can lock its owner out (16.6)', async () => {
    const device = 'a'.repeat(64);
    // The owner signs in once from their browser: the device becomes known for the account.
    const first = await take(db, 'sign_in', 'student@example.uk', '10.2.0.1', device);
    await asService(db, 'select private.rate_limit_succeeded($1::bigint, $2)', [first.ticket, device]);
    // An attacker exhausts every other limit: the account's ceiling and the owner's own address.
    await takeMany(db, 20, 'sign_in', () => 'student@example.uk', (i) => `10.2.1.${i}`);
    await takeMany(db, 50, 'sign_in', (i) => `someone${i}`, () => '10.2.0.1');
    expect((await take(db, 'sign_in', 'student@example.uk', '10.2.9.9')).retry_after).toBeGreaterThan(0);
    expect((await take(db, 'sign_in', 'other@example.uk', '10.2.0.1')).retry_after).toBeGreaterThan(0);
    // The owner's browser is still let in, from the same (locked) address.
    expect((await take(db, 'sign_in', 'student@example.uk', '10.2.0.1', device)).retry_after).toBe(0);
    // A device token is known only for the account that signed in with it, and it still has a limit.
    expect((await take(db, 'sign_in', 'other@example.uk', '10.2.0.1', device)).retry_after).toBeGreaterThan(0);
    const own = await db.query<{ n: number }>(`select count(*)::int as n from private.rate_limit_attempts where device = $1`, [device]);
    expect(own.rows[0].n).toBe(1);
    for (let i = 0; i < 4; i++) await take(db, 'sign_in', 'student@example.uk', '10.2.0.1', device);
    expect((await take(db, 'sign_in', 'student@example.uk', '10.2.0.1', device)).retry_after).toBeGreaterThan(0);
    // A token that was never given to a browser is no device at all.
    expect((await take(db, 'sign_in', 'student@example.uk', '10.2.0.1', 'b'.repeat(64))).retry_after).toBeGreaterThan(0);
  });

  it('sign-in: a success removes its own attempt and clears that account only', async () => {
    await takeMany(db, 4, 'sign_in', () => 'student@example.uk', () => '10.0.0.1');
    await takeMany(db, 4, 'sign_in', () => 'admin@example.uk', () => '10.0.0.1');
    const ok = await take(db, 'sign_in', 'student@example.uk', '10.0.0.1');
    await asService(db, 'select private.rate_limit_succeeded($1::bigint)', [ok.ticket]);
    const left = await db.query<{ account: string; n: number }>(
      'select account, count(*)::int as n from private.rate_limit_attempts group by account order by account',
    );
    expect(left.rows).toEqual([{ account: 'admin@example.uk', n: 4 }]);
    expect((await takeMany(db, 5, 'sign_in', () => 'student@example.uk', () => '10.0.0.1')).every((t) => t.retry_after === 0)).toBe(true);
  });

  it('sign-in: 50 per address in 15 minutes across accounts; another address is not affected', async () => {
    const allowed = await takeMany(db, 50, 'sign_in', (i) => `user${i}`, () => '192.0.2.7');
    expect(allowed.every((t) => t.retry_after === 0)).toBe(true);
    expect((await take(db, 'sign_in', 'someone-new', '192.0.2.7')).retry_after).toBeGreaterThan(0);
    expect((await take(db, 'sign_in', 'someone-new', '192.0.2.8')).retry_after).toBe(0);
  });

  it('registration: 20 per address and 5 per email in an hour', async () => {
    const perAddress = await takeMany(db, 20, 'register', (i) => `new${i}@example.uk`, () => '198.51.100.1');
    expect(perAddress.every((t) => t.retry_after === 0)).toBe(true);
    const refused = await take(db, 'register', 'new99@example.uk', '198.51.100.1');
    expect(refused.retry_after).toBeGreaterThan(3590);
    expect(refused.retry_after).toBeLessThanOrEqual(3600);
    const perEmail = await takeMany(db, 5, 'register', () => 'same@example.uk', (i) => `198.51.100.${10 + i}`);
    expect(perEmail.every((t) => t.retry_after === 0)).toBe(true);
    expect((await take(db, 'register', 'SAME@example.uk', '198.51.100.99')).retry_after).toBeGreaterThan(0);
  });

  it('counts only the window, prunes rows older than an hour, and refuses an unknown action', async () => {
    await db.query(`
      insert into private.rate_limit_attempts (action, account, address, attempted_at)
      select 'sign_in', 'student@example.uk', '10.0.0.1', now() - interval '16 minutes' from generate_series(1, 5)`);
    await db.query(`
      insert into private.rate_limit_attempts (action, account, address, attempted_at)
      values ('register', 'old@example.uk', '10.0.0.1', now() - interval '61 minutes')`);
    expect((await take(db, 'sign_in', 'student@example.uk', '10.0.0.1')).retry_after).toBe(0);
    const old = await db.query(`select 1 from private.rate_limit_attempts where attempted_at < now() - interval '1 hour'`);
    expect(old.rows).toHaveLength(0);
    expect(await sqlState(() => take(db, 'reset_password', 'x', ''))).toBe('22023');
  });

  it('keeps the attempts away from every API role: RLS on, no grants; only the service role may call the functions', async () => {
    const rls = await db.query<{ relrowsecurity: boolean }>(
      `select relrowsecurity from pg_class where oid = 'private.rate_limit_attempts'::regclass`,
    );
    expect(rls.rows).toEqual([{ relrowsecurity: true }]);
    for (const persona of [visitor, learner, admin]) {
      expect(await sqlState(() => queryAs(db, persona, 'select * from private.rate_limit_attempts'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona, `select private.rate_limit_take('sign_in', 'a', '')`))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona, 'select private.rate_limit_succeeded(1)'))).toBe('42501');
    }
    // The service role calls the functions, but cannot read or clear the table itself.
    expect((await take(db, 'sign_in', 'student@example.uk', '')).retry_after).toBe(0);
    expect(await sqlState(() => asService(db, 'select * from private.rate_limit_attempts'))).toBe('42501');
    expect(await sqlState(() => asService(db, 'delete from private.rate_limit_attempts'))).toBe('42501');
    expect((await db.query('select count(*)::int as n from private.rate_limit_attempts')).rows).toEqual([{ n: 1 }]);
  });
});
