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

    it('a course required by two or three rules of different periods is due by the earliest, for one person and in the lists', async () => {
      await db.query('delete from public.certificates where course_id = $1', [manualHandling]);
      // Both students (a test above made ambo2 an instructor); their roles come back at the end.
      const roles = (await db.query<{ id: string; role: string }>('select id, role::text from public.profiles where id = any ($1::uuid[])', [[ambo1.id, ambo2.id]])).rows;
      await db.query(`update public.profiles set role = 'STUDENT' where id = any ($1::uuid[])`, [[ambo1.id, ambo2.id]]);
      // The UKAS rule: made 10 days ago, 60 days. Ambo1 enrolled 50 days ago, ambo2 5 days ago.
      await db.query(`update public.required_training set due_within_days = 60, created_at = now() - interval '10 days' where course_id = $1`, [manualHandling]);
      const enrolledAgo = (who: Persona, days: number) =>
        db.query('update public.enrollments set created_at = now() - make_interval(days => $3) where user_id = $1 and course_id = $2', [who.id, manualHandling, days]);
      await enrolledAgo(ambo1, 50);
      await enrolledAgo(ambo2, 5);
      const dueIn = async (who: Persona) => (new Date((await statusOf(who, manualHandling))!.due_at as string).getTime() - Date.now()) / DAY;
      const listed = async () => {
        const all = await queryAs<StatusRow>(db, admin, 'select * from private.required_training_status(null, null, null, $1)', [manualHandling]);
        return new Map(all.rows.map((r) => [r.user_id, r]));
      };
      try {
        // A second rule for students: made 40 days ago, 20 days. Ambo1: the later of 40 and 50 days
        // ago, plus 20: 20 days overdue (60 days from 10 days ago would be in 50). Ambo2: 5 days ago
        // plus 20: due in 15.
        await db.query(insertRule(manualHandling, 'STUDENT', null, '20'));
        await db.query(`update public.required_training set created_at = now() - interval '40 days' where course_id = $1 and role = 'STUDENT'`, [manualHandling]);
        expect(await dueIn(ambo1)).toBeCloseTo(-20, 0);
        expect((await statusOf(ambo1, manualHandling))?.status).toBe('overdue');
        expect(await dueIn(ambo2)).toBeCloseTo(15, 0);
        expect((await statusOf(ambo2, manualHandling))?.status).toBe('due-soon');
        let all = await listed();
        for (const who of [ambo1, ambo2]) expect(all.get(who.id)).toEqual(await statusOf(who, manualHandling));

        // A third, of UKAS students: made 200 days ago, 3 days: the earliest for both (47 and 2 days overdue).
        await db.query(insertRule(manualHandling, 'STUDENT', 'UKAS', '3'));
        await db.query(`update public.required_training set created_at = now() - interval '200 days' where course_id = $1 and role = 'STUDENT' and service = 'UKAS'`, [manualHandling]);
        expect(await dueIn(ambo1)).toBeCloseTo(-47, 0);
        expect(await dueIn(ambo2)).toBeCloseTo(-2, 0);
        expect((await statusOf(ambo2, manualHandling))?.status).toBe('overdue');
        all = await listed();
        for (const who of [ambo1, ambo2]) expect(all.get(who.id)).toEqual(await statusOf(who, manualHandling));

        // The counts agree with the statuses.
        const summary = await queryAs<{ service: string; overdue: string; people: string }>(db, admin, 'select * from private.compliance_summary(null, null, $1)', [manualHandling]);
        const ukas = await queryAs<StatusRow>(db, admin, `select * from private.required_training_status(null, 'UKAS', null, $1)`, [manualHandling]);
        const row = summary.rows.find((r) => r.service === 'UKAS')!;
        expect(Number(row.people)).toBe(ukas.rows.length);
        expect(Number(row.overdue)).toBe(ukas.rows.filter((r) => r.status === 'overdue').length);
      } finally {
        await db.query(`delete from public.required_training where course_id = $1 and role = 'STUDENT'`, [manualHandling]);
        for (const r of roles) await db.query('update public.profiles set role = $2::public.user_role where id = $1', [r.id, r.role]);
      }
    });

    it('every page of the people list is the same slice of the whole list, most urgent first, then by due date and name', async () => {
      // Required of all students: many share a due date (enrolled by the rule at the same moment), so
      // their names decide, across page boundaries too.
      await db.query(insertRule(resilience, 'STUDENT', null));
      try {
        type Person = { user_id: string; course_id: string; name: string; status: string; due_at: Date | string | null; total: string };
        const whole = (await queryAs<Person>(db, admin, 'select * from private.compliance_people(p_limit => 10000)')).rows;
        expect(whole.length).toBeGreaterThan(5);
        expect(whole.every((r) => Number(r.total) === whole.length)).toBe(true);
        const urgency = ['overdue', 'due-soon', 'in-progress', 'done'];
        const time = (r: Person) => (r.due_at === null ? Infinity : new Date(r.due_at as string).getTime());
        for (let i = 1; i < whole.length; i++) {
          const [a, b] = [whole[i - 1], whole[i]];
          const order = urgency.indexOf(a.status) - urgency.indexOf(b.status) || time(a) - time(b);
          expect(order <= 0).toBe(true);
          if (order === 0) expect(a.name.localeCompare(b.name, 'en') <= 0 || a.name === b.name).toBe(true);
        }
        // ties of urgency and due date exist: pages of one row put a page boundary inside each
        expect(whole.some((r, i) => i > 0 && r.status === whole[i - 1].status && time(r) === time(whole[i - 1]))).toBe(true);
        for (const size of [1, 3]) {
          const paged: Person[] = [];
          for (let offset = 0; offset < whole.length; offset += size) {
            paged.push(...(await queryAs<Person>(db, admin, 'select * from private.compliance_people(p_limit => $1, p_offset => $2)', [size, offset])).rows);
          }
          expect(paged.map((r) => `${r.user_id} ${r.course_id}`)).toEqual(whole.map((r) => `${r.user_id} ${r.course_id}`));
        }
      } finally {
        await db.query('delete from public.required_training where course_id = $1', [resilience]);
      }
    });
  });

  // Rules of an organisation and of a unit: two organisations, A (a tree: area > station >
  // watch, and a second station) and B; each with an administrator; instructors of A and B.
  describe('rules of an organisation and a unit', () => {
    const person = (n: number, email: string): Persona => ({ id: `00000000-0000-4000-a000-00000000c${String(n).padStart(3, '0')}`, email });
    const orgAdminA = person(1, 'rules.admin.a@example.uk');
    const inWatchA = person(2, 'rules.watch.a@example.uk');
    const inStation2A = person(3, 'rules.station2.a@example.uk');
    const inStationA = person(4, 'rules.station.a@example.uk');
    const instructorA = person(5, 'rules.instructor.a@example.uk');
    const orgAdminB = person(6, 'rules.admin.b@example.uk');
    const learnerB = person(7, 'rules.learner.b@example.uk');
    const orgA = 'c0000000-0000-4000-a000-000000000001';
    const orgB = 'c0000000-0000-4000-a000-000000000002';
    const areaA = 'c1000000-0000-4000-a000-000000000001';
    const stationA = 'c1000000-0000-4000-a000-000000000002';
    const watchA = 'c1000000-0000-4000-a000-000000000003';
    const station2A = 'c1000000-0000-4000-a000-000000000004';
    const areaB = 'c1000000-0000-4000-a000-000000000005';
    const courseB = 'c2000000-0000-4000-a000-000000000001'; // published, of organisation B
    const ruleB = 'c3000000-0000-4000-a000-000000000001';
    const ruleNational = 'c3000000-0000-4000-a000-000000000002';
    const course = ids.course(8); // a published national course

    const scoped = (courseId: string, org: string | null, unit: string | null, role: string | null = null, service: string | null = null) =>
      `insert into public.required_training (course_id, role, service, organisation_id, unit_id)
       values ('${courseId}', ${role ? `'${role}'` : 'null'}, ${service ? `'${service}'` : 'null'},
               ${org ? `'${org}'` : 'null'}, ${unit ? `'${unit}'` : 'null'}) returning id`;
    const seen = async (who: Persona, text: string, params: unknown[] = []) => {
      const r = await rolledBack(db, who, (tx) => tx.query(text, params));
      return Math.max(r.rows.length, r.rowCount ?? 0);
    };

    beforeAll(async () => {
      await db.query('delete from public.required_training');
      await db.query(`insert into public.organisations (id, name, code, service) values
        ($1, 'Rulesshire Police', 'RSP', 'UKPS'), ($2, 'Rulesshire Ambulance', 'RSA', 'UKAS')`, [orgA, orgB]);
      await db.query(`insert into public.units (id, organisation_id, parent_id, name) values
        ($1, $5, null, 'North Area'), ($2, $5, $1, 'Central Station'), ($3, $5, $2, 'Red Watch'),
        ($4, $5, $1, 'Harbour Station'), ($6, $7, null, 'East Division')`, [areaA, stationA, watchA, station2A, orgA, areaB, orgB]);
      const people: [Persona, string, string, string, string | null][] = [
        [orgAdminA, 'rules_admin_a', 'ADMIN', orgA, null],
        [inWatchA, 'rules_watch_a', 'STUDENT', orgA, watchA],
        [inStation2A, 'rules_station2_a', 'STUDENT', orgA, station2A],
        [inStationA, 'rules_station_a', 'STUDENT', orgA, stationA],
        [instructorA, 'rules_instructor_a', 'INSTRUCTOR', orgA, null],
        [orgAdminB, 'rules_admin_b', 'ADMIN', orgB, null],
        [learnerB, 'rules_learner_b', 'STUDENT', orgB, areaB],
      ];
      for (const [p, username, role, org, unit] of people) {
        await createUser(db, { id: p.id, email: p.email, username, name: username.replace(/_/g, ' '), role, services: ['UKPS'] });
        await db.query('update public.profiles set organisation_id = $2, unit_id = $3 where id = $1', [p.id, org, unit]);
      }
      await db.query(`insert into public.courses (id, title, description, service, author_id, status, organisation_id)
        values ($1, 'Rulesshire ambulance handover', 'Handover of Rulesshire Ambulance only.', 'UKAS', $2, 'ACTIVE', $3)`,
        [courseB, personas.admin.id, orgB]);
      await db.query(`insert into public.required_training (id, course_id, organisation_id, unit_id) values ($1, $2, $3, $4)`,
        [ruleB, courseB, orgB, null]);
      await db.query(`insert into public.required_training (id, course_id, role) values ($1, $2, 'INSTRUCTOR')`,
        [ruleNational, safeguarding]);
    });
    afterAll(async () => {
      await db.query('delete from public.required_training');
    });

    it('an organisation administrator makes rules only with their own organisation, for a course their people can see', async () => {
      expect(await seen(orgAdminA, scoped(course, orgA, null))).toBe(1);
      expect(await seen(orgAdminA, scoped(course, orgA, stationA, 'STUDENT'))).toBe(1);
      expect(await sqlState(() => rolledBack(db, orgAdminA, (tx) => tx.query(scoped(course, orgB, null))))).toBe('42501');
      expect(await sqlState(() => rolledBack(db, orgAdminA, (tx) => tx.query(scoped(course, null, null, null, 'UKPS'))))).toBe('42501');
      // B's own course: A cannot require it (not theirs to see), and it is required only in B.
      expect(await sqlState(() => rolledBack(db, orgAdminA, (tx) => tx.query(scoped(courseB, orgA, null))))).not.toBeNull();
      expect(await sqlState(() => rolledBack(db, personas.admin, (tx) => tx.query(scoped(courseB, null, null, 'STUDENT'))))).toBe('22023');
      // A unit of another organisation: the composite foreign key refuses it.
      expect(await sqlState(() => rolledBack(db, orgAdminA, (tx) => tx.query(scoped(course, orgA, areaB))))).toBe('23503');
      // A unit without its organisation.
      expect(await sqlState(() => rolledBack(db, personas.admin, (tx) => tx.query(scoped(course, null, stationA))))).toBe('23514');
    });

    it('an organisation administrator reads their rules and the national ones, and changes neither B\'s nor a national rule', async () => {
      expect(await seen(orgAdminA, 'select 1 from public.required_training where id = $1', [ruleB])).toBe(0);
      expect(await seen(orgAdminA, 'select 1 from public.required_training where id = $1', [ruleNational])).toBe(1);
      expect(await seen(orgAdminB, 'select 1 from public.required_training where id = $1', [ruleB])).toBe(1);
      expect(await seen(orgAdminA, 'update public.required_training set due_within_days = 5 where id = $1', [ruleB])).toBe(0);
      expect(await seen(orgAdminA, 'update public.required_training set due_within_days = 5 where id = $1', [ruleNational])).toBe(0);
      expect(await seen(orgAdminA, 'delete from public.required_training where id = $1', [ruleB])).toBe(0);
      expect(await seen(orgAdminA, 'delete from public.required_training where id = $1', [ruleNational])).toBe(0);
      // Their own rule may not be turned into another organisation's or a national one.
      await rolledBack(db, orgAdminA, async (tx) => {
        const [{ id }] = (await tx.query<{ id: string }>(scoped(course, orgA, null))).rows;
        await expect(tx.query('update public.required_training set organisation_id = $2 where id = $1', [id, orgB])).rejects.toMatchObject({ code: '42501' });
      });
      await rolledBack(db, orgAdminA, async (tx) => {
        const [{ id }] = (await tx.query<{ id: string }>(scoped(course, orgA, null))).rows;
        await expect(tx.query('update public.required_training set organisation_id = null, service = \'UKPS\' where id = $1', [id])).rejects.toMatchObject({ code: '42501' });
      });
      // B's administrator in turn sees nothing of A's rule.
      await rolledBack(db, orgAdminA, async (tx) => {
        await tx.query(scoped(course, orgA, null));
      });
      expect(await seen(orgAdminB, 'select 1 from public.required_training where organisation_id = $1', [orgA])).toBe(0);
    });

    it('an instructor scopes a rule of their course to their own organisation only', async () => {
      await db.query('update public.courses set author_id = $2 where id = $1', [course, instructorA.id]);
      try {
        const service = (await db.query<{ service: string }>('select service::text from public.courses where id = $1', [course])).rows[0].service;
        await db.query(`update public.profiles set services = array[$2::public.service_code] where id = $1`, [instructorA.id, service]);
        expect(await seen(instructorA, scoped(course, orgA, stationA, null, service))).toBe(1);
        expect(await sqlState(() => rolledBack(db, instructorA, (tx) => tx.query(scoped(course, orgB, null, null, service))))).toBe('42501');
      } finally {
        await db.query('update public.courses set author_id = $2 where id = $1', [course, personas.admin.id]);
        await db.query(`update public.profiles set services = '{UKPS}' where id = $1`, [instructorA.id]);
      }
    });

    it('a unit rule enrols only the people of that unit and the units below it; moving into it enrols', async () => {
      await db.query('delete from public.enrollments where course_id = $1', [course]);
      await queryAs(db, orgAdminA, scoped(course, orgA, stationA));
      expect(await enrolled(inStationA.id, course)).toBe('ACTIVE');
      expect(await enrolled(inWatchA.id, course)).toBe('ACTIVE'); // below the station
      expect(await enrolled(inStation2A.id, course)).toBeNull();
      expect(await enrolled(learnerB.id, course)).toBeNull();
      expect(await enrolled(orgAdminA.id, course)).toBeNull(); // of the organisation, in no unit

      // Statuses follow the same scope.
      const rows = await queryAs<{ user_id: string }>(db, orgAdminA, 'select user_id from private.required_training_status(null, null, null, $1)', [course]);
      expect(rows.rows.map((r) => r.user_id).sort()).toEqual([inWatchA.id, inStationA.id].sort());

      // The person of the other station moves into the watch: enrolled by the move.
      await db.query('update public.profiles set unit_id = $2 where id = $1', [inStation2A.id, watchA]);
      try {
        expect(await enrolled(inStation2A.id, course)).toBe('ACTIVE');
      } finally {
        await db.query('update public.profiles set unit_id = $2 where id = $1', [inStation2A.id, station2A]);
      }
      // A learner reads the rules that apply to them: the watch's person the station's rule, the
      // other station's person not.
      expect(await seen(inWatchA, 'select 1 from public.required_training where course_id = $1', [course])).toBe(1);
      expect(await seen(inStation2A, 'select 1 from public.required_training where course_id = $1', [course])).toBe(0);
      expect(await seen(learnerB, 'select 1 from public.required_training where course_id = $1', [course])).toBe(0);
    });

    it('compliance: an organisation administrator sees only their people, by unit; B\'s rows are invisible to A', async () => {
      type Unit = { organisation_id: string | null; unit_id: string | null; name: string | null; has_units: boolean; course_id: string; people: string; compliant: string };
      const summaryA = await queryAs<{ course_id: string; people: string }>(db, orgAdminA, 'select * from private.compliance_summary()');
      expect(summaryA.rows.some((r) => r.course_id === courseB)).toBe(false);
      expect(Number(summaryA.rows.find((r) => r.course_id === course)?.people)).toBe(2);
      const peopleA = await queryAs<{ user_id: string }>(db, orgAdminA, 'select user_id from private.compliance_people(p_limit => 1000)');
      expect(peopleA.rows.map((r) => r.user_id)).not.toContain(learnerB.id);
      const peopleB = await queryAs<{ user_id: string }>(db, orgAdminB, 'select user_id from private.compliance_people(p_limit => 1000)');
      expect(peopleB.rows.map((r) => r.user_id)).toContain(learnerB.id);
      expect(peopleB.rows.every((r) => r.user_id === learnerB.id || r.user_id === orgAdminB.id)).toBe(true);
      // A asking for B's organisation gets nothing; B's unit is not found.
      expect((await queryAs(db, orgAdminA, 'select * from private.compliance_summary(p_organisation_id => $1)', [orgB])).rows).toHaveLength(0);
      expect(await sqlState(() => queryAs(db, orgAdminA, 'select * from private.compliance_units($1)', [orgB]))).toBe('P0002');
      expect(await sqlState(() => queryAs(db, orgAdminA, 'select * from private.compliance_units($1, $2)', [orgA, areaB]))).toBe('P0002');

      // By unit: A's top level is the area (with units below) and the people of no unit.
      const top = await queryAs<Unit>(db, orgAdminA, 'select * from private.compliance_units() where course_id = $1', [course]);
      expect(top.rows.map((r) => [r.unit_id, Number(r.people), r.has_units])).toEqual([[areaA, 2, true]]);
      const area = await queryAs<Unit>(db, orgAdminA, 'select * from private.compliance_units(null, $1) where course_id = $2', [areaA, course]);
      expect(area.rows.map((r) => [r.name, Number(r.people)])).toEqual([['Central Station', 2]]);
      const station = await queryAs<Unit>(db, orgAdminA, 'select * from private.compliance_units(null, $1) where course_id = $2', [stationA, course]);
      // The station itself (its own people) first, then the watch below it.
      expect(station.rows.map((r) => [r.unit_id, Number(r.people), r.has_units])).toEqual([[stationA, 1, false], [watchA, 1, false]]);
      // Filtered to a unit, the summary and the people list hold its subtree only.
      const watch = await queryAs<{ user_id: string }>(db, orgAdminA, 'select user_id from private.compliance_people(p_unit_id => $1, p_limit => 100)', [watchA]);
      expect(watch.rows.map((r) => r.user_id)).toEqual([inWatchA.id]);

      // The national administrator: by organisation, B's included; the instructor of A nothing by unit.
      const national = await queryAs<Unit>(db, personas.admin, 'select * from private.compliance_units()');
      expect(national.rows.some((r) => r.organisation_id === orgA && r.course_id === course && Number(r.people) === 2)).toBe(true);
      expect(national.rows.some((r) => r.organisation_id === orgB && r.course_id === courseB)).toBe(true);
      expect(await sqlState(() => queryAs(db, instructorA, 'select * from private.compliance_units()'))).toBe('42501');
      // Instructors of an organisation see only its people.
      const instructorRows = await queryAs<{ user_id: string }>(db, instructorA, 'select user_id from private.compliance_people(p_limit => 1000)');
      expect(instructorRows.rows.map((r) => r.user_id)).not.toContain(learnerB.id);
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
