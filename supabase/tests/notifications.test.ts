// Notifications (supabase/schemas/15_notifications.sql): private.decide_notifications decides every
// due notice from the time it is given (the tests move time by the argument, never the clock), writes
// each once (a second run writes nothing; two overlapping runs on Postgres write each once), leaves
// deactivated people and former reports out, and the notices and preferences are each person's own.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asUser,
  backends,
  createUser,
  ids,
  personas,
  queryAs,
  sqlState,
  startRulesOnATuesday,
  type Persona,
  type TestDatabase,
} from './helpers/database';

const { admin } = personas;

const org = '00000000-0000-4000-a000-0000000019f0';
const manager: Persona = { id: '00000000-0000-4000-a000-000000001901', email: 'nt.manager@example.uk' };
const learner1: Persona = { id: '00000000-0000-4000-a000-000000001902', email: 'nt.one@example.uk' };
const learner2: Persona = { id: '00000000-0000-4000-a000-000000001903', email: 'nt.two@example.uk' };
const leaver: Persona = { id: '00000000-0000-4000-a000-000000001904', email: 'nt.leaver@example.uk' };
const holder: Persona = { id: '00000000-0000-4000-a000-000000001905', email: 'nt.holder@example.uk' };
const otherManager: Persona = { id: '00000000-0000-4000-a000-000000001906', email: 'nt.other@example.uk' };

// Course 5 (Manual Handling for Ambulance Crews) is required for UKFRS within 14 days; course 6 is the holder's
// certificate that expires; courses 8 and 9 need approval.
const requiredCourse = ids.course(5);
const certCourse = ids.course(6);
const issuedCourse = ids.course(7);
const approvalCourse = ids.course(8);
const declineCourse = ids.course(9);
const DAY = 86_400_000;

interface Notice {
  recipient_id: string;
  kind: string;
  person_id: string | null;
  threshold: number;
  cycle: number;
  title: string;
  email_status: string;
  link_path: string | null;
}

async function setUp(db: TestDatabase): Promise<Date> {
  await db.query(`insert into public.organisations (id, name, code, service) values ($1, 'Testshire Fire', 'TFR', 'UKFRS')`, [org]);
  const people: [Persona, string, string, string[]][] = [
    [manager, 'nt_manager', 'Mo Manager', ['AUX']],
    [otherManager, 'nt_other', 'Olu Other', ['AUX']],
    [learner1, 'nt_one', 'Lee One', ['UKFRS']],
    [learner2, 'nt_two', 'Lou Two', ['UKFRS']],
    [leaver, 'nt_leaver', 'Les Leaver', ['UKFRS']],
    [holder, 'nt_holder', 'Hal Holder', ['AUX']],
  ];
  for (const [p, username, name, services] of people) {
    await createUser(db, { id: p.id, email: p.email, username, name, services });
  }
  await db.query(`update public.profiles set organisation_id = $1 where id = any($2::uuid[])`,
    [org, people.map(([p]) => p.id)]);
  await db.query(`update public.profiles set manager_id = $2 where id = any($1::uuid[])`, [[learner1.id, learner2.id, leaver.id], manager.id]);
  await db.query(`update public.profiles set deactivated_at = now() where id = $1`, [leaver.id]);
  await queryAs(db, admin,
    `insert into public.required_training (course_id, service, due_within_days) values ($1, 'UKFRS', 14)`, [requiredCourse]);
  return startRulesOnATuesday(db);
}

const at = (t0: Date, days: number, minutes = 0) => new Date(t0.getTime() + days * DAY + minutes * 60_000).toISOString();

describe.each(backends)('notifications on $name', ({ create }) => {
  let db: TestDatabase;
  let t0: Date;

  const decide = async (when: string) =>
    (await db.query<{ n: number }>('select private.decide_notifications($1::timestamptz) as n', [when])).rows[0].n;
  const noticesOf = async (who: Persona, kind?: string) =>
    (await db.query<Notice>(
      `select recipient_id, kind, person_id, threshold, cycle, title, email_status, link_path from public.notifications
       where recipient_id = $1 and ($2::text is null or kind = $2) order by created_at, kind, threshold, cycle`,
      [who.id, kind ?? null])).rows;

  beforeAll(async () => {
    db = await create();
    t0 = await setUp(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('required training, with the time moved by the argument', () => {
    it('just after the rule: "required training" to each active person, once', async () => {
      expect(await decide(at(t0, 0, 1))).toBeGreaterThanOrEqual(2);
      for (const who of [learner1, learner2]) {
        const notices = await noticesOf(who);
        expect(notices.map((n) => n.kind)).toEqual(['training-assigned']);
        expect(notices[0]).toMatchObject({ link_path: `/course/${requiredCourse}`, email_status: 'queued' });
        expect(notices[0].title).toBe('Required training: Manual Handling for Ambulance Crews');
      }
      expect(await decide(at(t0, 0, 1))).toBe(0);
      expect(await decide(at(t0, 0, 2))).toBe(0);
    });

    it('11 days on (a 14-day rule): "due in 3 days" once, and no 14-day notice; email skipped for who switched it off', async () => {
      await queryAs(db, learner2, `insert into public.notification_preferences (email_off) values ('{training-due-soon}')`);
      const written = await decide(at(t0, 11, 1));
      expect(written).toBeGreaterThanOrEqual(2);
      for (const who of [learner1, learner2]) {
        const soon = await noticesOf(who, 'training-due-soon');
        expect(soon).toHaveLength(1);
        expect(soon[0]).toMatchObject({ threshold: 3 });
        expect(soon[0].title).toBe('Manual Handling for Ambulance Crews is due in 3 days');
      }
      expect((await noticesOf(learner1, 'training-due-soon'))[0].email_status).toBe('queued');
      expect((await noticesOf(learner2, 'training-due-soon'))[0].email_status).toBe('skipped');
      expect(await decide(at(t0, 11, 1))).toBe(0);
      expect(await decide(at(t0, 12))).toBe(0);
    });

    it('15 days on: "overdue" to each learner, no escalation yet', async () => {
      await decide(at(t0, 15));
      for (const who of [learner1, learner2]) {
        const overdue = await noticesOf(who, 'training-overdue');
        expect(overdue).toHaveLength(1);
        expect(overdue[0]).toMatchObject({ cycle: 0, email_status: 'queued' });
        expect(overdue[0].title).toBe('Manual Handling for Ambulance Crews is overdue');
      }
      expect(await noticesOf(manager)).toEqual([]);
      expect(await decide(at(t0, 16))).toBe(0);
    });

    it('22 days on: the direct manager is told about each report still theirs, the learners get the second weekly notice', async () => {
      // Lou no longer reports to Mo: Mo hears nothing about Lou.
      await db.query('update public.profiles set manager_id = $2 where id = $1', [learner2.id, otherManager.id]);
      await decide(at(t0, 22));
      const escalations = await noticesOf(manager, 'manager-escalation');
      expect(escalations).toHaveLength(1);
      expect(escalations[0]).toMatchObject({ person_id: learner1.id, threshold: 7, link_path: `/team/${learner1.id}` });
      expect(escalations[0].title).toBe('Lee One is overdue with Manual Handling for Ambulance Crews');
      expect((await noticesOf(otherManager, 'manager-escalation')).map((n) => n.person_id)).toEqual([learner2.id]);
      for (const who of [learner1, learner2]) {
        expect((await noticesOf(who, 'training-overdue')).map((n) => n.cycle)).toEqual([0, 1]);
      }
      expect(await decide(at(t0, 23))).toBe(0);
    });

    it('weekly after that, and the manager is told once per overdue item', async () => {
      await decide(at(t0, 29));
      await decide(at(t0, 36));
      await decide(at(t0, 36, 5));
      expect((await noticesOf(learner1, 'training-overdue')).map((n) => n.cycle)).toEqual([0, 1, 2, 3]);
      expect(await noticesOf(manager, 'manager-escalation')).toHaveLength(1);
    });

    it('a deactivated person gets nothing, and their manager nothing about them', async () => {
      expect(await noticesOf(leaver)).toEqual([]);
      const about = await db.query('select 1 from public.notifications where person_id = $1', [leaver.id]);
      expect(about.rows).toEqual([]);
    });
  });

  describe('certificates and enrolments', () => {
    it('certificate expiring 60, 30 and 7 days before, then expired, each once', async () => {
      const expires = new Date(t0.getTime() + 200 * DAY);
      await db.query(
        `insert into public.certificates (user_id, course_id, learner_name, course_title, issued_at, expires_at)
         values ($1, $2, 'Hal Holder', 'Fire Safety', $3, $4)`,
        [holder.id, certCourse, new Date(t0.getTime() - 165 * DAY).toISOString(), expires.toISOString()]);
      const expiry = async () =>
        (await noticesOf(holder)).filter((n) => n.kind.startsWith('certificate-exp')).map((n) => `${n.kind}:${n.threshold}`);
      await decide(at(t0, 139)); // 61 days left
      expect(await expiry()).toEqual([]);
      await decide(at(t0, 141)); // 59 days left
      await decide(at(t0, 141, 1));
      expect(await expiry()).toEqual(['certificate-expiring:60']);
      await decide(at(t0, 165)); // 35 days left: nothing new
      expect(await expiry()).toEqual(['certificate-expiring:60']);
      await decide(at(t0, 171)); // 29 days left
      await decide(at(t0, 194)); // 6 days left
      await decide(at(t0, 201)); // expired
      await decide(at(t0, 202));
      expect(await expiry()).toEqual(['certificate-expiring:60', 'certificate-expiring:30', 'certificate-expiring:7', 'certificate-expired:0']);
      const titles = (await noticesOf(holder)).map((n) => n.title);
      expect(titles).toContain('Your Fire Safety certificate expires in 7 days');
      expect(titles).toContain('Your Fire Safety certificate has expired');
    });

    it('a certificate issued, and an enrolment approved or declined, are told once', async () => {
      await db.query(`update public.courses set requires_approval = true where id = any($1::uuid[])`, [[approvalCourse, declineCourse]]);
      const pending = async (course: string) =>
        (await db.query<{ id: string; status: string }>(
          `insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'PENDING') returning id, status`,
          [holder.id, course])).rows[0];
      const a = await pending(approvalCourse);
      const d = await pending(declineCourse);
      expect([a.status, d.status]).toEqual(['PENDING', 'PENDING']);
      await queryAs(db, admin, 'select private.approve_enrollment($1)', [a.id]);
      await queryAs(db, admin, 'select private.decline_enrollment($1)', [d.id]);
      // The learner withdrawing their own request is no decline.
      const own = await pending(ids.course(10));
      await queryAs(db, holder, 'delete from public.enrollments where id = $1', [own.id]);
      await db.query(
        `insert into public.certificates (user_id, course_id, learner_name, course_title) values ($1, $2, 'Hal Holder', 'Issued Course')`,
        [holder.id, issuedCourse]);

      const now = new Date(Date.now() + 60_000).toISOString();
      await decide(now);
      expect(await decide(now)).toBe(0);
      const kinds = (await noticesOf(holder)).filter((n) => !n.kind.startsWith('certificate-exp'));
      expect(kinds.map((n) => n.kind).sort()).toEqual(['certificate-issued', 'enrolment-approved', 'enrolment-declined']);
      expect(kinds.find((n) => n.kind === 'certificate-issued')?.link_path).toMatch(/^\/verify\/[A-Z0-9]+$/);
    });
  });

  describe('who reads and changes what', () => {
    it('a person reads only their own notices; a visitor none', async () => {
      const seen = await queryAs<{ recipient_id: string }>(db, learner1, 'select recipient_id from public.notifications');
      expect(seen.rows.length).toBeGreaterThan(0);
      expect(new Set(seen.rows.map((r) => r.recipient_id))).toEqual(new Set([learner1.id]));
      expect((await queryAs(db, manager, 'select 1 from public.notifications where recipient_id = $1', [learner1.id])).rows).toEqual([]);
      expect(await sqlState(() => queryAs(db, null, 'select 1 from public.notifications'))).toBe('42501');
    });

    it('a person marks their own notice read, not another\'s, and changes nothing else', async () => {
      const mine = (await noticesOf(learner1))[0];
      const id = (await db.query<{ id: string }>('select id from public.notifications where recipient_id = $1 limit 1', [learner1.id])).rows[0].id;
      expect(mine).toBeDefined();
      const other = (await db.query<{ id: string }>('select id from public.notifications where recipient_id = $1 limit 1', [manager.id])).rows[0].id;
      expect((await queryAs(db, learner1, 'update public.notifications set read_at = now() where id = $1 returning id', [id])).rows).toHaveLength(1);
      expect((await queryAs(db, learner1, 'update public.notifications set read_at = now() where id = $1 returning id', [other])).rows).toHaveLength(0);
      expect((await db.query<{ read_at: Date | null }>('select read_at from public.notifications where id = $1', [other])).rows[0].read_at).toBeNull();
      for (const change of ["title = 'x'", "email_status = 'sent'", `recipient_id = '${manager.id}'`]) {
        expect(await sqlState(() => queryAs(db, learner1, `update public.notifications set ${change} where id = $1`, [id])), change).toBe('42501');
      }
    });

    it('nobody inserts or deletes notices directly, nor runs the decision', async () => {
      expect(await sqlState(() => queryAs(db, learner1,
        `insert into public.notifications (recipient_id, kind, occasion, title) values ($1, 'training-overdue', current_date, 'Fake')`,
        [learner1.id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, admin,
        `insert into public.notifications (recipient_id, kind, occasion, title) values ($1, 'training-overdue', current_date, 'Fake')`,
        [learner1.id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, learner1, 'delete from public.notifications'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, admin, 'select private.decide_notifications(now())'))).toBe('42501');
    });

    it('preferences are the person\'s own; overdue and expiry email cannot be switched off', async () => {
      await asUser(db, learner1, async (tx) => {
        await tx.query(`insert into public.notification_preferences (email_off) values ('{certificate-issued}')`);
        const r = await tx.query<{ user_id: string; language: string }>('select user_id, language from public.notification_preferences');
        expect(r.rows).toEqual([{ user_id: learner1.id, language: 'en-GB' }]);
      });
      for (const kind of ['training-overdue', 'certificate-expiring', 'certificate-expired']) {
        expect(await sqlState(() => queryAs(db, learner1,
          `update public.notification_preferences set email_off = array[$1]`, [kind])), kind).toBe('23514');
      }
      expect(await sqlState(() => queryAs(db, learner1, `update public.notification_preferences set language = 'fr-FR'`))).toBe('23514');
      expect(await sqlState(() => queryAs(db, manager,
        `insert into public.notification_preferences (user_id) values ($1)`, [learner1.id]))).toBe('42501');
      expect((await queryAs(db, manager, 'select 1 from public.notification_preferences where user_id = $1', [learner1.id])).rows).toEqual([]);
      expect((await queryAs(db, manager, `update public.notification_preferences set email_off = '{}' returning 1`)).rows).toEqual([]);
      const kept = await db.query<{ email_off: string[] }>('select email_off from public.notification_preferences where user_id = $1', [learner1.id]);
      expect(kept.rows[0].email_off).toEqual(['certificate-issued']);
    });
  });
});

// A rule of one unit tells the people of that unit and the units below it, nobody else.
describe.each(backends)('notifications of a unit\'s rule on $name', ({ create }) => {
  let db: TestDatabase;
  afterAll(async () => {
    await db?.close();
  });

  it('reaches the unit and its sub-units only', async () => {
    db = await create();
    const station = '00000000-0000-4000-a000-0000000019e1';
    const watch = '00000000-0000-4000-a000-0000000019e2';
    const otherStation = '00000000-0000-4000-a000-0000000019e3';
    await db.query(`insert into public.organisations (id, name, code, service) values ($1, 'Testshire Fire', 'TFR', 'UKFRS')`, [org]);
    await db.query(`insert into public.units (id, organisation_id, parent_id, name) values
      ($1, $4, null, 'Central Station'), ($2, $4, $1, 'Red Watch'), ($3, $4, null, 'Harbour Station')`,
      [station, watch, otherStation, org]);
    const placed: [Persona, string, string][] = [[learner1, 'nt_one', watch], [learner2, 'nt_two', station], [holder, 'nt_holder', otherStation]];
    for (const [p, username, unit] of placed) {
      await createUser(db, { id: p.id, email: p.email, username, name: username, services: ['UKFRS'] });
      await db.query('update public.profiles set organisation_id = $2, unit_id = $3 where id = $1', [p.id, org, unit]);
    }
    await queryAs(db, admin,
      `insert into public.required_training (course_id, organisation_id, unit_id, due_within_days)
       values ($1, $2, $3, 14)`, [requiredCourse, org, station]);
    const t0 = await startRulesOnATuesday(db);
    await db.query('select private.decide_notifications($1::timestamptz)', [at(t0, 0, 1)]);
    const told = await db.query<{ recipient_id: string }>(
      `select recipient_id from public.notifications where kind = 'training-assigned' and course_id = $1 order by recipient_id`,
      [requiredCourse]);
    expect(told.rows.map((r) => r.recipient_id)).toEqual([learner1.id, learner2.id].sort());
  });
});

// Two runs at once, on two connections: the second waits for the first's keys and writes nothing
// the first wrote. PGlite has one connection, so this runs on Postgres only.
describe.each(backends.filter((b) => b.name === 'postgres'))('overlapping runs on $name', ({ create }) => {
  let db: TestDatabase;
  let one: postgres.Sql;
  let two: postgres.Sql;
  let t0: Date;

  beforeAll(async () => {
    db = await create();
    t0 = await setUp(db);
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

  const count = async () => (await db.query<{ n: number }>('select count(*)::int as n from public.notifications')).rows[0].n;

  it('a run that starts while another is uncommitted waits, then writes nothing twice', async () => {
    const when = at(t0, 22);
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    let firstWrote = -1;
    const first = one.begin(async (tx) => {
      firstWrote = (await tx`select private.decide_notifications(${when}::timestamptz) as n`)[0].n;
      await released;
    });
    while (firstWrote < 0) await new Promise((r) => setTimeout(r, 10));
    expect(firstWrote).toBeGreaterThan(0);
    let secondDone = false;
    const second = two.begin(async (tx) => {
      const n = (await tx`select private.decide_notifications(${when}::timestamptz) as n`)[0].n;
      secondDone = true;
      return n;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(secondDone).toBe(false); // waiting on the first run's keys
    release();
    await first;
    expect(await second).toBe(0);
    expect(await count()).toBe(firstWrote);
  });

  it('two runs started together write each notice once', async () => {
    const before = await count();
    const when = at(t0, 29);
    const [a, b] = await Promise.all([
      one`select private.decide_notifications(${when}::timestamptz) as n`,
      two`select private.decide_notifications(${when}::timestamptz) as n`,
    ]);
    const written = a[0].n + b[0].n;
    expect(written).toBeGreaterThan(0);
    expect(await count()).toBe(before + written);
    const dupes = await db.query(
      `select 1 from public.notifications group by recipient_id, kind, person_id, course_id, subject_id, occasion, threshold, cycle having count(*) > 1`);
    expect(dupes.rows).toEqual([]);
  });
});

// A notice's recipient, person and course are checked once per statement (not by per-row foreign
// keys) and go with the person or course: proven both ways.
describe.each(backends)('a notice\'s references on $name', ({ create }) => {
  let db: TestDatabase;
  const course = '00000000-0000-4000-a000-0000000019c1';
  const nobody = '00000000-0000-4000-a000-0000000019ff';
  const insert = (recipient: string, person: string | null, courseId: string | null, title = 'A notice') =>
    db.query(`insert into public.notifications (recipient_id, kind, person_id, course_id, occasion, title)
      values ($1, 'training-overdue', $2, $3, current_date, $4) returning id`, [recipient, person, courseId, title]);
  const count = async (where: string, params: unknown[]) =>
    Number((await db.query<{ n: string }>(`select count(*) as n from public.notifications where ${where}`, params)).rows[0].n);

  beforeAll(async () => {
    db = await create();
    for (const [p, username] of [[manager, 'nr_manager'], [learner1, 'nr_one'], [learner2, 'nr_two']] as const) {
      await createUser(db, { id: p.id, email: p.email, username, name: username });
    }
    await db.query(`insert into public.courses (id, title, description, service, author_id, status)
      values ($1, 'References test', 'A course of the references test.', 'MISC', $2, 'ACTIVE')`, [course, ids.instructor]);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('a notice to or about someone who does not exist, or about a missing course, is refused (23503)', async () => {
    expect(await sqlState(() => insert(nobody, null, null))).toBe('23503');
    expect(await sqlState(() => insert(learner1.id, nobody, null))).toBe('23503');
    expect(await sqlState(() => insert(learner1.id, learner1.id, nobody))).toBe('23503');
    const id = (await insert(learner1.id, learner1.id, course)).rows[0] as { id: string };
    for (const change of [`recipient_id = '${nobody}'`, `person_id = '${nobody}'`, `course_id = '${nobody}'`]) {
      expect(await sqlState(() => db.query(`update public.notifications set ${change} where id = $1`, [id.id])), change).toBe('23503');
    }
    expect((await db.query(`update public.notifications set person_id = $2 where id = $1 returning 1`, [id.id, learner2.id])).rows)
      .toHaveLength(1);
    expect(await count('recipient_id = $1 and course_id = $2', [learner1.id, course])).toBe(1);
  });

  it('deleting a person deletes the notices to and about them; deleting a course, those about it', async () => {
    await insert(manager.id, learner2.id, null, 'About the report');
    await insert(learner2.id, learner2.id, null, 'To the report');
    await insert(manager.id, manager.id, course, 'About the course');
    await db.query('delete from auth.users where id = $1', [learner2.id]);
    expect(await count('recipient_id = $1 or person_id = $1', [learner2.id])).toBe(0);
    expect(await count('recipient_id = $1', [manager.id])).toBe(1);
    expect(await count('course_id = $1', [course])).toBe(1);
    await db.query('delete from public.courses where id = $1', [course]);
    expect(await count('course_id = $1', [course])).toBe(0);
    expect(await count('recipient_id = $1', [learner1.id])).toBe(0);
  });
});
