// Mandatory training (supabase/schemas/07_mandatory_training_and_compliance.sql): the rules' row-level security
// proven both ways, auto-enrolment now (on the rule) and later (new and re-assigned profiles), the one
// status rule (overdue / due soon / in progress / done) with certificates written straight into the
// database, and the compliance counts and drill-down under each caller's rights.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor,
  asUser,
  backends,
  createUser,
  ids,
  personas,
  queryAs,
  rolledBack,
  sqlState,
  withCourseAccess,
  type Persona,
  type TestDatabase,
} from './helpers/database';

const { admin, instructor, learner, otherInstructor } = personas;
const visitor = null;

// Seed: course 5 Manual Handling (UKAS, by the admin), 12 Safeguarding and 13 Mental Health (MISC, by
// the instructor, who is in UKPS and MISC), 15 a draft by the instructor. The seed learner is in MISC.
const manualHandling = ids.course(5);
const safeguarding = ids.course(12);
const resilience = ids.course(13);
const draft = ids.course(15);

const ambo1: Persona = { id: '00000000-0000-4000-a000-0000000008a1', email: 'ambo1@example.uk' };
const ambo2: Persona = { id: '00000000-0000-4000-a000-0000000008a2', email: 'ambo2@example.uk' };
const firefighter: Persona = { id: '00000000-0000-4000-a000-0000000008f1', email: 'fire1@example.uk' };

interface StatusRow {
  user_id: string;
  course_id: string;
  status: string;
  due_at: Date | string | null;
  email: string | null;
  certificate_expires_at: Date | string | null;
}

const DAY = 86_400_000;

describe.each(backends)('mandatory training on $name', ({ create }) => {
  let db: TestDatabase;

  const insertRule = (course: string, role: string | null, service: string | null, extra = '') =>
    `insert into public.required_training (course_id, role, service${extra ? ', due_within_days' : ''})
     values ('${course}', ${role ? `'${role}'` : 'null'}, ${service ? `'${service}'` : 'null'}${extra ? `, ${extra}` : ''}) returning *`;
  const enrolled = async (user: string, course: string) =>
    (await db.query<{ status: string }>('select status from public.enrollments where user_id = $1 and course_id = $2', [user, course])).rows[0]?.status ?? null;

  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db); // INSTRUCTOR in UKPS and UKAS, no courses
    await createUser(db, { id: ambo1.id, email: ambo1.email, username: 'ambo_one', name: 'Amy Ambulance', services: ['UKAS'] });
    await createUser(db, { id: ambo2.id, email: ambo2.email, username: 'ambo_two', name: 'Ben Ambulance', services: ['UKAS'] });
    await createUser(db, { id: firefighter.id, email: firefighter.email, username: 'fire_one', name: 'Fay Fire', services: ['UKFRS'] });
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('who may manage rules', () => {
    it('an instructor adds a rule for their own course in their own service, stamped with their id', async () => {
      await rolledBack(db, instructor, async (tx) => {
        const r = await tx.query<{ created_by: string; due_within_days: number; renew_before_days: number }>(insertRule(safeguarding, null, 'MISC'));
        expect(r.rows[0]).toMatchObject({ created_by: instructor.id, due_within_days: 30, renew_before_days: 30 });
      });
    });

    it('an instructor may not add a rule in another service, a role-only rule, or a rule on someone else\'s course', async () => {
      expect(await sqlState(() => queryAs(db, instructor, insertRule(safeguarding, null, 'UKAS')))).toBe('42501');
      expect(await sqlState(() => queryAs(db, instructor, insertRule(safeguarding, 'STUDENT', null)))).toBe('42501');
      expect(await sqlState(() => queryAs(db, instructor, insertRule(manualHandling, null, 'UKPS')))).toBe('42501');
      expect(await sqlState(() => queryAs(db, otherInstructor, insertRule(manualHandling, null, 'UKAS')))).toBe('42501');
    });

    it('learners and visitors may not add rules; admins add any', async () => {
      expect(await sqlState(() => queryAs(db, learner, insertRule(safeguarding, null, 'MISC')))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, insertRule(safeguarding, null, 'MISC')))).toBe('42501');
      await rolledBack(db, admin, async (tx) => {
        const r = await tx.query(insertRule(manualHandling, 'STUDENT', null));
        expect(r.rows).toHaveLength(1);
      });
    });

    it('refuses a draft course, a rule with neither role nor service, a duplicate and out-of-range days', async () => {
      expect(await sqlState(() => queryAs(db, admin, insertRule(draft, null, 'UKPS')))).toBe('22023');
      expect(await sqlState(() => queryAs(db, admin, insertRule(manualHandling, null, null)))).toBe('23514');
      expect(await sqlState(() => queryAs(db, admin, insertRule(manualHandling, null, 'UKAS', '0')))).toBe('23514');
      await rolledBack(db, admin, async (tx) => {
        await tx.query(insertRule(manualHandling, null, 'UKAS'));
        await expect(tx.query(insertRule(manualHandling, null, 'UKAS'))).rejects.toMatchObject({ code: '23505' });
      });
    });

    it('created_by cannot be chosen by the caller', async () => {
      expect(await sqlState(() => queryAs(db, admin,
        `insert into public.required_training (course_id, service, created_by) values ($1, 'UKAS', $2)`, [manualHandling, learner.id]))).toBe('42501');
    });
  });

  describe('reading, changing and removing rules', () => {
    let instructorRule: string;
    let adminUkasRule: string;
    let adminStudentRule: string;

    beforeAll(async () => {
      instructorRule = (await queryAs<{ id: string }>(db, instructor, insertRule(safeguarding, null, 'MISC'))).rows[0].id;
      adminUkasRule = (await queryAs<{ id: string }>(db, admin, insertRule(manualHandling, null, 'UKAS'))).rows[0].id;
      adminStudentRule = (await queryAs<{ id: string }>(db, admin, insertRule(resilience, 'INSTRUCTOR', 'UKFRS'))).rows[0].id;
    });
    afterAll(async () => {
      await db.query('delete from public.required_training');
    });

    const visible = async (who: Persona | null) =>
      (await queryAs<{ id: string }>(db, who, 'select id from public.required_training')).rows.map((r) => r.id).sort();

    it('learners read only the rules that apply to them', async () => {
      expect(await visible(learner)).toEqual([instructorRule]);
      expect(await visible(ambo1)).toEqual([adminUkasRule]);
      expect(await visible(firefighter)).toEqual([]);
    });

    it('instructors read their courses\' rules and their services\' rules; admins all; visitors none', async () => {
      expect(await visible(instructor)).toEqual([instructorRule, adminStudentRule].sort());
      expect(await visible(otherInstructor)).toEqual([adminUkasRule]);
      expect(await visible(admin)).toEqual([instructorRule, adminUkasRule, adminStudentRule].sort());
      expect(await sqlState(() => visible(visitor))).toBe('42501');
    });

    it('an instructor changes their own rule within their services, not into another service', async () => {
      await rolledBack(db, instructor, async (tx) => {
        const r = await tx.query('update public.required_training set due_within_days = 60 where id = $1 returning id', [instructorRule]);
        expect(r.rows).toHaveLength(1);
      });
      expect(await sqlState(() => queryAs(db, instructor,
        `update public.required_training set service = 'UKAS' where id = $1`, [instructorRule]))).toBe('42501');
    });

    it('nobody else changes or removes a rule that is not theirs; admins do', async () => {
      for (const who of [learner, otherInstructor, ambo1]) {
        const u = await queryAs(db, who, 'update public.required_training set due_within_days = 5 where id = $1 returning id', [instructorRule]);
        expect(u.rows, who.email).toHaveLength(0);
        const d = await queryAs(db, who, 'delete from public.required_training where id = $1 returning id', [instructorRule]);
        expect(d.rows, who.email).toHaveLength(0);
      }
      const u = await queryAs(db, instructor, 'update public.required_training set due_within_days = 5 where id = $1 returning id', [adminUkasRule]);
      expect(u.rows).toHaveLength(0);
      await rolledBack(db, admin, async (tx) => {
        expect((await tx.query('delete from public.required_training where id = $1 returning id', [instructorRule])).rows).toHaveLength(1);
      });
      await rolledBack(db, instructor, async (tx) => {
        expect((await tx.query('delete from public.required_training where id = $1 returning id', [instructorRule])).rows).toHaveLength(1);
      });
    });
  });

  describe('auto-enrolment', () => {
    afterAll(async () => {
      await db.query('delete from public.required_training');
    });

    it('enrols everyone the new rule matches, and no one else', async () => {
      await queryAs(db, admin, insertRule(manualHandling, null, 'UKAS'));
      expect(await enrolled(ambo1.id, manualHandling)).toBe('ACTIVE');
      expect(await enrolled(ambo2.id, manualHandling)).toBe('ACTIVE');
      expect(await enrolled(otherInstructor.id, manualHandling)).toBe('ACTIVE'); // instructors in UKAS too
      expect(await enrolled(firefighter.id, manualHandling)).toBeNull();
      expect(await enrolled(learner.id, manualHandling)).toBeNull();
    });

    it('enrols a user created later, and one re-assigned to a matching service or role', async () => {
      const joiner = { id: '00000000-0000-4000-a000-0000000008a3', email: 'ambo3@example.uk' };
      await createUser(db, { id: joiner.id, email: joiner.email, username: 'ambo_three', name: 'Cal Ambulance', services: ['UKAS'] });
      expect(await enrolled(joiner.id, manualHandling)).toBe('ACTIVE');

      await queryAs(db, admin, `update public.profiles set services = '{UKFRS,UKAS}' where id = $1`, [firefighter.id]);
      expect(await enrolled(firefighter.id, manualHandling)).toBe('ACTIVE');

      await queryAs(db, admin, insertRule(resilience, 'INSTRUCTOR', null));
      expect(await enrolled(ambo2.id, resilience)).toBeNull();
      await queryAs(db, admin, `update public.profiles set role = 'INSTRUCTOR' where id = $1`, [ambo2.id]);
      expect(await enrolled(ambo2.id, resilience)).toBe('ACTIVE');
    });

    it('a role\'s bulk services update enrols every student of it in one statement', async () => {
      await queryAs(db, admin, insertRule(ids.course(11), null, 'AUX'));
      await queryAs(db, admin, `select private.set_role_services('STUDENT', '{MISC,AUX}')`);
      const r = await db.query<{ missing: number }>(
        `select count(*)::int as missing from public.profiles p
         where p.role = 'STUDENT' and not exists (select 1 from public.enrollments e where e.user_id = p.id and e.course_id = $1)`,
        [ids.course(11)]);
      expect(r.rows[0].missing).toBe(0);
    });

    it('turns a pending enrolment of the required course into an active one', async () => {
      const waiting = { id: '00000000-0000-4000-a000-0000000008b1', email: 'waiting@example.uk' };
      await createUser(db, { id: waiting.id, email: waiting.email, username: 'waiting_one', name: 'Will Waiting' });
      await withCourseAccess(db, 'login-approval', async () => {
        await queryAs(db, waiting, 'insert into public.enrollments (user_id, course_id) values ($1, $2)', [waiting.id, ids.course(9)]);
      });
      expect(await enrolled(waiting.id, ids.course(9))).toBe('PENDING');
      await queryAs(db, admin, `update public.profiles set services = '{UKHW}' where id = $1`, [waiting.id]);
      expect(await enrolled(waiting.id, ids.course(9))).toBe('PENDING'); // no rule yet
      await queryAs(db, admin, insertRule(ids.course(9), null, 'UKHW'));
      expect(await enrolled(waiting.id, ids.course(9))).toBe('ACTIVE');
    });
  });

  describe('status, compliance counts and drill-down', () => {
    const mine = async (who: Persona) =>
      (await queryAs<StatusRow>(db, who, 'select * from private.required_training_status($1)', [who.id])).rows;
    const statusOf = async (who: Persona, course: string) => (await mine(who)).find((r) => r.course_id === course);

    beforeAll(async () => {
      await db.query('delete from public.required_training');
      // The bulk update above moved every student to MISC and AUX: the ambulance staff return to UKAS.
      await db.query(`update public.profiles set services = '{UKAS}' where id = any ($1::uuid[])`, [[ambo1.id, ambo2.id]]);
      // Manual handling expires after 12 months; required in UKAS, renewal 30 days before expiry.
      await db.query('update public.courses set certificate_valid_months = 12 where id = $1', [manualHandling]);
      await queryAs(db, admin, insertRule(manualHandling, null, 'UKAS'));
    });
    afterAll(async () => {
      await db.query('delete from public.certificates where course_id = $1', [manualHandling]);
      await db.query('delete from public.required_training');
    });

    const certify = async (user: string, issuedDaysAgo: number, expiresInDays: number | null, revoked = false) => {
      await db.query('delete from public.certificates where user_id = $1 and course_id = $2', [user, manualHandling]);
      await db.query(
        `insert into public.certificates (user_id, course_id, learner_name, course_title, issued_at, expires_at, revoked_at, revoked_reason)
         values ($1, $2, 'Someone', 'Manual Handling', now() - make_interval(days => $3),
                 case when $4::int is null then null else now() + make_interval(days => $4::int) end,
                 case when $5 then now() end, case when $5 then 'Issued in error' end)`,
        [user, manualHandling, issuedDaysAgo, expiresInDays, revoked]);
    };

    it('a new joiner with 30 days is due soon; with 60 days in progress; past the period overdue', async () => {
      const r = await statusOf(ambo1, manualHandling);
      expect(r?.status).toBe('due-soon');
      const due = new Date(r!.due_at as string).getTime();
      expect(Math.abs(due - (Date.now() + 30 * DAY))).toBeLessThan(DAY);

      await db.query('update public.required_training set due_within_days = 60');
      expect((await statusOf(ambo1, manualHandling))?.status).toBe('in-progress');

      // Rule and enrolment made 90 days ago: 60 days have passed.
      await db.query(`update public.required_training set created_at = now() - interval '90 days'`);
      await db.query(`update public.enrollments set created_at = now() - interval '90 days' where user_id = $1 and course_id = $2`, [ambo1.id, manualHandling]);
      expect((await statusOf(ambo1, manualHandling))?.status).toBe('overdue');
    });

    it('a valid certificate is done until 30 days before the renewal date, then due soon; expired is overdue; revoked counts for nothing', async () => {
      await certify(ambo1.id, 100, 265);
      const done = await statusOf(ambo1, manualHandling);
      expect(done?.status).toBe('done');
      expect(new Date(done!.certificate_expires_at as string).getTime()).toBeGreaterThan(Date.now() + 264 * DAY);

      await certify(ambo1.id, 320, 45); // renewal due in 15 days
      expect((await statusOf(ambo1, manualHandling))?.status).toBe('due-soon');

      await certify(ambo1.id, 360, 5); // renewal date passed, certificate still valid: due soon, not overdue
      expect((await statusOf(ambo1, manualHandling))?.status).toBe('due-soon');

      await certify(ambo1.id, 400, -35); // expired
      const expired = await statusOf(ambo1, manualHandling);
      expect(expired?.status).toBe('overdue');
      expect(new Date(expired!.due_at as string).getTime()).toBeLessThan(Date.now() - 34 * DAY);

      await certify(ambo1.id, 10, 355, true); // revoked: as if never certified (rule and enrolment 90 days old)
      expect((await statusOf(ambo1, manualHandling))?.status).toBe('overdue');
    });

    it('a course that never expires is done for good once certified', async () => {
      await db.query('update public.courses set certificate_valid_months = null where id = $1', [manualHandling]);
      try {
        await certify(ambo2.id, 800, null);
        const r = await statusOf(ambo2, manualHandling);
        expect(r).toMatchObject({ status: 'done', due_at: null });
      } finally {
        await db.query('update public.courses set certificate_valid_months = 12 where id = $1', [manualHandling]);
      }
    });

    it('learners see only themselves, instructors the people of their services, admins everyone', async () => {
      const learnerRows = await queryAs<StatusRow>(db, ambo1, 'select * from private.required_training_status()');
      expect(new Set(learnerRows.rows.map((r) => r.user_id))).toEqual(new Set([ambo1.id]));
      expect(learnerRows.rows[0].email).toBe(ambo1.email);

      const theirs = await queryAs<StatusRow>(db, otherInstructor, 'select * from private.required_training_status(null, null, null, $1)', [manualHandling]);
      expect(theirs.rows.map((r) => r.user_id)).toContain(ambo1.id);
      expect(theirs.rows.every((r) => r.email === null || r.user_id === otherInstructor.id)).toBe(true);

      // The seed instructor (UKPS, MISC) shares no service with the ambulance staff, only with the
      // admin and the other instructor, who are in UKAS too.
      const few = await queryAs<StatusRow>(db, instructor, 'select * from private.required_training_status(null, null, null, $1)', [manualHandling]);
      const sharing = await db.query<{ id: string }>(
        `select id from public.profiles where services @> '{UKAS}' and services && '{UKPS,MISC}' order by id`);
      expect(few.rows.map((r) => r.user_id).sort()).toEqual(sharing.rows.map((r) => r.id));
      expect(few.rows.map((r) => r.user_id)).not.toContain(ambo1.id);

      const all = await queryAs<StatusRow>(db, admin, 'select * from private.required_training_status(null, null, null, $1)', [manualHandling]);
      const everyone = await db.query<{ n: number }>(`select count(*)::int as n from public.profiles where services @> '{UKAS}'`);
      expect(all.rows).toHaveLength(everyone.rows[0].n);
    });

    it('counts per service and course in one statement, and drills down to the people, paged', async () => {
      type Summary = { service: string | null; course_id: string; people: string; compliant: string; due_soon: string; overdue: string; in_progress: string };
      const summary = await queryAs<Summary>(db, admin, 'select * from private.compliance_summary(null, null, $1)', [manualHandling]);
      const ukas = summary.rows.find((r) => r.service === 'UKAS')!;
      const rows = await queryAs<StatusRow>(db, admin, `select * from private.required_training_status(null, 'UKAS', null, $1)`, [manualHandling]);
      const count = (s: string) => rows.rows.filter((r) => r.status === s).length;
      expect(Number(ukas.people)).toBe(rows.rows.length);
      expect(Number(ukas.compliant)).toBe(count('done'));
      expect(Number(ukas.overdue)).toBe(count('overdue'));
      expect(Number(ukas.overdue)).toBeGreaterThanOrEqual(1);
      expect(Number(ukas.due_soon)).toBe(count('due-soon'));
      expect(Number(ukas.compliant) + Number(ukas.due_soon) + Number(ukas.overdue) + Number(ukas.in_progress)).toBe(Number(ukas.people));

      // The other instructor (UKPS, UKAS) sees only their services' rows.
      const theirs = await queryAs<Summary>(db, otherInstructor, 'select * from private.compliance_summary()');
      expect(theirs.rows.every((r) => r.service === 'UKPS' || r.service === 'UKAS')).toBe(true);
      expect(theirs.rows.length).toBeGreaterThan(0);

      type Person = { user_id: string; status: string; total: string };
      const overdue = await queryAs<Person>(db, admin, `select * from private.compliance_people('UKAS', null, $1, 'overdue')`, [manualHandling]);
      expect(overdue.rows.map((r) => r.user_id)).toContain(ambo1.id);
      expect(overdue.rows.every((r) => r.status === 'overdue')).toBe(true);
      const page = await queryAs<Person>(db, admin, `select * from private.compliance_people('UKAS', null, $1, null, 1, 1)`, [manualHandling]);
      expect(page.rows).toHaveLength(1);
      expect(Number(page.rows[0].total)).toBe(rows.rows.length);
      const first = await queryAs<Person>(db, admin, `select * from private.compliance_people('UKAS', null, $1, null, 1, 0)`, [manualHandling]);
      expect(first.rows[0].status).toBe('overdue'); // most urgent first
    });

    it('refuses the compliance view to learners and visitors', async () => {
      expect(await sqlState(() => queryAs(db, learner, 'select * from private.compliance_summary()'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, learner, 'select * from private.compliance_people()'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, 'select * from private.compliance_summary()'))).toBe('42501');
      // A visitor asking for statuses directly gets nothing (and anon may not even call it).
      expect(await sqlState(() => queryAs(db, visitor, 'select * from private.required_training_status()'))).toBe('42501');
    });
  });

  describe('scale', () => {
    it('a rule over 3,000 matching users enrols them in one statement and the counts stay one query', { timeout: 120_000 }, async () => {
      await db.query(
        `insert into auth.users (instance_id, id, aud, role, email, raw_user_meta_data, created_at, updated_at)
         select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
                'bulk' || g || '@example.uk', jsonb_build_object('username', 'bulk_user_' || g, 'name', 'Bulk ' || g), now(), now()
         from generate_series(1, 3000) g`);
      await db.query(`update public.profiles set services = '{UKHW}' where username like 'bulk\\_user\\_%'`);
      const started = Date.now();
      await queryAs(db, admin, insertRule(ids.course(8), null, 'UKHW'));
      const n = await db.query<{ n: number }>('select count(*)::int as n from public.enrollments where course_id = $1', [ids.course(8)]);
      expect(n.rows[0].n).toBeGreaterThanOrEqual(3000);
      const summary = await queryAs<{ people: string }>(db, admin, `select * from private.compliance_summary('UKHW', null, $1)`, [ids.course(8)]);
      expect(Number(summary.rows[0].people)).toBeGreaterThanOrEqual(3000);
      expect(Date.now() - started).toBeLessThan(60_000);
      await asUser(db, admin, async (tx) => {
        await tx.query('delete from public.required_training where course_id = $1', [ids.course(8)]);
      });
    });
  });
});
