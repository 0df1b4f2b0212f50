// Email delivery of notifications (supabase/schemas/16_notification_delivery.sql): claiming with a
// lease (a worker killed half-way leaves its claims to the next after the lease), recording with
// the claimed attempt as a fencing token and backoff, skipping at send time, the administrators'
// read of their people's notices and their resend, and who may call what.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends,
  createUser,
  ids,
  personas,
  queryAs,
  sqlState,
  type Persona,
  type Queryable,
  type Result,
  type TestDatabase,
} from './helpers/database';

const { admin } = personas;

const org = '00000000-0000-4000-a000-0000000016f0';
const otherOrg = '00000000-0000-4000-a000-0000000016f1';
const orgAdmin: Persona = { id: '00000000-0000-4000-a000-000000001601', email: 'dl.orgadmin@example.uk' };
const member: Persona = { id: '00000000-0000-4000-a000-000000001602', email: 'dl.member@example.uk' };
const outsider: Persona = { id: '00000000-0000-4000-a000-000000001603', email: 'dl.outsider@example.uk' };
const manager: Persona = { id: '00000000-0000-4000-a000-000000001604', email: 'dl.manager@example.uk' };
const MINUTE = 60_000;

async function setUp(db: TestDatabase) {
  await db.query(`insert into public.organisations (id, name, code, service) values
    ($1, 'Deliveryshire Fire', 'DFR', 'UKFRS'), ($2, 'Elsewhere Ambulance', 'EAS', 'UKAS')`, [org, otherOrg]);
  const people: [Persona, string, string | null][] = [
    [orgAdmin, 'dl_orgadmin', org], [member, 'dl_member', org], [outsider, 'dl_outsider', otherOrg], [manager, 'dl_manager', org],
  ];
  for (const [p, username, organisation] of people) {
    await createUser(db, { id: p.id, email: p.email, username, name: username.replace('dl_', 'Dee '), services: ['UKFRS'] });
    await db.query('update public.profiles set organisation_id = $2 where id = $1', [p.id, organisation]);
  }
  await db.query(`update public.profiles set role = 'ADMIN' where id = $1`, [orgAdmin.id]);
  await db.query('update public.profiles set manager_id = $2 where id = $1', [member.id, manager.id]);
}

let occasion = 0;
/** A queued notice, as private.decide_notifications writes them. */
async function notice(db: TestDatabase, to: Persona, extra: { kind?: string; person?: Persona; course?: string } = {}) {
  occasion += 1;
  const { rows } = await db.query<{ id: string }>(
    `insert into public.notifications (recipient_id, kind, person_id, course_id, occasion, title, link_path)
     values ($1, $2, $3, $4, date '2026-01-01' + $5::int, 'Test notice ' || $5, '/certificates') returning id`,
    [to.id, extra.kind ?? 'training-overdue', (extra.person ?? to).id, extra.course ?? null, occasion]);
  return rows[0].id;
}

/** One statement as the function's service role, in a transaction. */
function asService<T>(db: Queryable & Pick<TestDatabase, 'transaction'>, text: string, params: unknown[] = []): Promise<Result<T>> {
  return db.transaction(async (tx) => {
    await tx.query('set local role service_role');
    return tx.query<T>(text, params);
  });
}

interface Claimed { id: string; attempt: number; recipient_email: string; recipient_name: string; kind: string; title: string }

describe.each(backends)('notification delivery on $name', ({ create }) => {
  let db: TestDatabase;
  const t0 = new Date('2026-11-26T09:00:00Z');
  const at = (minutes: number) => new Date(t0.getTime() + minutes * MINUTE).toISOString();

  const claim = async (minutes: number, limit = 100, lease = 300) =>
    (await asService<Claimed>(db, 'select * from private.claim_notification_emails($1::timestamptz, $2, $3)', [at(minutes), limit, lease])).rows;
  const record = async (id: string, attempt: number, error: string | null, minutes: number) =>
    (await asService<{ status: string | null }>(db, 'select private.record_notification_email($1, $2, $3, $4::timestamptz) as status',
      [id, attempt, error, at(minutes)])).rows[0].status;
  const state = async (id: string) =>
    (await db.query<{ email_status: string; email_attempts: number; email_next_attempt_at: Date | null; email_last_error: string | null; email_sent_at: Date | null; email_resends: number }>(
      'select email_status, email_attempts, email_next_attempt_at, email_last_error, email_sent_at, email_resends from public.notifications where id = $1', [id])).rows[0];

  beforeAll(async () => {
    db = await create();
    await setUp(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('a claim leases the email; a worker killed half-way leaves it to the next claim after the lease, and only the latest attempt records', async () => {
    const id = await notice(db, member);
    const first = await claim(0);
    expect(first.map((c) => c.id)).toEqual([id]);
    expect(first[0]).toMatchObject({ attempt: 1, recipient_email: member.email, recipient_name: 'Dee member', title: expect.stringMatching(/^Test notice/) });
    expect((await state(id)).email_next_attempt_at?.toISOString()).toBe(at(5));
    // Claimed: not claimed again while the lease runs (the first worker "dies" here).
    expect(await claim(1)).toEqual([]);
    expect(await claim(4.9)).toEqual([]);
    const second = await claim(5);
    expect(second.map((c) => [c.id, c.attempt])).toEqual([[id, 2]]);
    // The dead worker's late answer changes nothing; the live one's is recorded once.
    expect(await record(id, 1, null, 6)).toBeNull();
    expect(await record(id, 2, null, 6)).toBe('sent');
    expect(await record(id, 2, null, 7)).toBeNull();
    expect(await state(id)).toMatchObject({ email_status: 'sent', email_attempts: 2, email_next_attempt_at: null });
    expect((await state(id)).email_sent_at?.toISOString()).toBe(at(6));
    expect(await claim(1000)).toEqual([]);
  });

  it('a failure is retried after 1, 5, 30, 120 and 360 minutes; the sixth is final', async () => {
    const id = await notice(db, member);
    let now = 0;
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      const claimed = await claim(now);
      expect(claimed.map((c) => [c.id, c.attempt])).toEqual([[id, attempt]]);
      const status = await record(id, attempt, 'connect ECONNREFUSED 127.0.0.1:2525', now);
      const s = await state(id);
      expect(s.email_last_error).toBe('connect ECONNREFUSED 127.0.0.1:2525');
      if (attempt < 6) {
        expect(status).toBe('queued');
        const wait = (s.email_next_attempt_at!.getTime() - new Date(at(now)).getTime()) / MINUTE;
        waits.push(wait);
        expect(await claim(now + wait - 0.5)).toEqual([]);
        now += wait;
      } else {
        expect(status).toBe('failed');
        expect(s.email_next_attempt_at).toBeNull();
      }
    }
    expect(waits).toEqual([1, 5, 30, 120, 360]);
    expect(await claim(now + 100000)).toEqual([]);
  });

  it('at send time: skipped when the recipient is deactivated or has no address, the report moved on, or the person left the organisation', async () => {
    const deactivated = await notice(db, outsider);
    await db.query('update public.profiles set deactivated_at = now() where id = $1', [outsider.id]);
    const escalation = await notice(db, manager, { kind: 'manager-escalation', person: member });
    const movedOn = await notice(db, orgAdmin, { kind: 'manager-escalation', person: member });
    const orgCourse = ids.course(5);
    await db.query('update public.courses set organisation_id = $2 where id = $1', [orgCourse, org]);
    const ofOrgCourse = await notice(db, member, { course: orgCourse });
    const sent = (await claim(2000)).map((c) => c.id).sort();
    expect(sent).toEqual([escalation, ofOrgCourse].sort());
    expect(await state(deactivated)).toMatchObject({ email_status: 'skipped', email_attempts: 0,
      email_last_error: 'Not sent: the recipient\'s account is deactivated' });
    expect(await state(movedOn)).toMatchObject({ email_status: 'skipped', email_last_error: 'Not sent: the person no longer reports to the recipient' });
    await db.query('update public.profiles set deactivated_at = null where id = $1', [outsider.id]);

    await db.query('update public.profiles set organisation_id = $2 where id = $1', [member.id, otherOrg]);
    const afterLeaving = await notice(db, member, { course: orgCourse });
    await db.query(`update public.profiles set email = '' where id = $1`, [outsider.id]);
    const noAddress = await notice(db, outsider);
    expect(await claim(2001)).toEqual([]);
    expect((await state(afterLeaving)).email_last_error).toBe('Not sent: the person has left the organisation');
    expect((await state(noAddress)).email_last_error).toBe('Not sent: the recipient has no email address');
    await db.query('update public.profiles set organisation_id = $2 where id = $1', [member.id, org]);
    await db.query('update public.profiles set email = $2 where id = $1', [outsider.id, outsider.email]);
    await db.query('update public.courses set organisation_id = null where id = $1', [orgCourse]);
    for (const [id, attempt] of [[escalation, 1], [ofOrgCourse, 1]] as const) expect(await record(id, attempt, null, 2002)).toBe('sent');
  });

  it('only the service role claims and records: 42501 for a person, an administrator and a visitor', async () => {
    for (const who of [member, admin, null]) {
      expect(await sqlState(() => queryAs(db, who, 'select * from private.claim_notification_emails(now(), 10)'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, who, `select private.record_notification_email($1, 1, null, now())`, [ids.course(1)]))).toBe('42501');
    }
    expect(await sqlState(() => asService(db, 'select * from private.claim_notification_emails(now(), 0)'))).toBe('22023');
    expect(await sqlState(() => asService(db, 'select * from private.claim_notification_emails(now(), 10, 1)'))).toBe('22023');
  });

  it('administrators read the notices of their people: a national one all, an organisation\'s its own, a person only theirs', async () => {
    const mine = await notice(db, member);
    const theirs = await notice(db, outsider);
    const seen = async (who: Persona) =>
      new Set((await queryAs<{ id: string }>(db, who, 'select id from public.notifications where id = any($1::uuid[])', [[mine, theirs]])).rows.map((r) => r.id));
    expect(await seen(admin)).toEqual(new Set([mine, theirs]));
    expect(await seen(orgAdmin)).toEqual(new Set([mine]));
    expect(await seen(member)).toEqual(new Set([mine]));
    expect(await seen(manager)).toEqual(new Set());
    // Reading is all: an administrator changes no email column directly.
    expect(await sqlState(() => queryAs(db, admin, `update public.notifications set email_status = 'queued' where id = $1`, [mine]))).toBe('42501');
  });

  it('resend: an administrator requeues a sent or failed email of their people (audited); 404 for others, 409 for a queued one', async () => {
    const mine = await notice(db, member);
    const theirs = await notice(db, outsider);
    const resend = (who: Persona | null, id: string) => queryAs<{ status: string }>(db, who, 'select private.resend_notification_email($1) as status', [id]);
    expect(await sqlState(() => resend(orgAdmin, mine))).toBe('55000'); // still queued
    for (const c of await claim(3000)) await record(c.id, c.attempt, c.id === mine ? null : 'boom', 3000);
    expect((await state(mine)).email_status).toBe('sent');
    expect(await sqlState(() => resend(orgAdmin, theirs))).toBe('P0002');
    expect(await sqlState(() => resend(member, mine))).toBe('P0002');
    expect(await sqlState(() => resend(null, mine))).toBe('42501');
    expect(await sqlState(() => resend(orgAdmin, ids.course(1)))).toBe('P0002');
    expect((await resend(orgAdmin, mine)).rows[0].status).toBe('queued');
    expect(await state(mine)).toMatchObject({ email_status: 'queued', email_attempts: 0, email_next_attempt_at: null, email_sent_at: null, email_resends: 1 });
    const audit = await db.query<{ actor_id: string; target_id: string; new_data: { notificationId: string } }>(
      `select actor_id, target_id, new_data from public.audit_events where action = 'notification.resent'`);
    expect(audit.rows).toEqual([{ actor_id: orgAdmin.id, target_id: member.id, new_data: expect.objectContaining({ notificationId: mine }) }]);
    // The national administrator resends a failed one of another organisation after its retries.
    await db.query(`update public.notifications set email_status = 'failed' where id = $1`, [theirs]);
    expect((await resend(admin, theirs)).rows[0].status).toBe('queued');
    expect((await claim(3000.5)).map((c) => c.id).sort()).toEqual([mine, theirs].sort());
  });
});

// Two workers at once, on two connections: each email is claimed by one of them. PGlite has one
// connection, so this runs on Postgres only.
describe.each(backends.filter((b) => b.name === 'postgres'))('two workers at once on $name', ({ create }) => {
  let db: TestDatabase;
  let one: postgres.Sql;
  let two: postgres.Sql;

  beforeAll(async () => {
    db = await create();
    await setUp(db);
    const name = (await db.query<{ name: string }>('select current_database() as name')).rows[0].name;
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.pathname = `/${name}`;
    one = postgres(url.toString(), { max: 1, onnotice: () => {} });
    two = postgres(url.toString(), { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await one?.end();
    await two?.end();
    await db?.close();
  });

  it('a claim that starts while another is uncommitted skips its rows; together they claim each once', async () => {
    const made: string[] = [];
    for (let i = 0; i < 40; i += 1) made.push(await notice(db, member));
    const claimWith = (sql: postgres.Sql) => sql.begin(async (tx) => {
      await tx`set local role service_role`;
      return (await tx`select id from private.claim_notification_emails(now(), 25)`).map((r) => r.id as string);
    });
    const [a, b] = await Promise.all([claimWith(one), claimWith(two)]);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect([...a, ...b].sort()).toEqual([...made].sort());
  });
});
