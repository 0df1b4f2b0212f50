// A course with learner history is archived, never deleted (21_course_archive.sql): a delete of a
// course that anyone ever enrolled on, studied, attempted or was certified in is refused for every
// role that could send it (author, admin, service role, the database owner); a course nobody started
// is deleted as before; an archived course takes no one new by any path (self-enrolment, an admin's
// insert, the service role, an approval, required training's automatic enrolment) and keeps its
// records (enrolments, certificates, the learning record), and the catalogue leaves it out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor,
  backends,
  createUser,
  ids,
  personas,
  queryAs,
  rolledBack,
  sqlState,
  type Queryable,
  type TestDatabase,
} from './helpers/database';

const { admin, instructor, learner, otherInstructor } = personas;
const newcomer = { id: '00000000-0000-4000-a000-0000000000c1', email: 'archive.newcomer@example.uk' };

/** The kinds of learner history, each on a course of its own, and a course nobody started. */
const KINDS = ['enrolment', 'pending enrolment', 'progress', 'quiz attempt', 'SCORM attempt', 'certificate'] as const;
type Kind = (typeof KINDS)[number] | 'none';
const courseId = (n: number) => `10000000-0000-4000-a000-0000000a${String(n).padStart(4, '0')}`;
const moduleId = (n: number) => `20000000-0000-4000-a000-0000000a${String(n).padStart(4, '0')}`;
const quizId = (n: number) => `30000000-0000-4000-a000-0000000a${String(n).padStart(4, '0')}`;
const COURSES: Record<Kind, string> = Object.fromEntries(
  [...KINDS, 'none'].map((kind, i) => [kind, courseId(i + 1)]),
) as Record<Kind, string>;

async function asServiceRole<R>(db: TestDatabase, fn: (tx: Queryable) => Promise<R>): Promise<R> {
  return db.transaction(async (tx) => {
    await tx.query('set local role service_role');
    return fn(tx);
  });
}

/** Runs fn as the database owner and rolls back. */
async function ownerRolledBack<R>(db: TestDatabase, fn: (tx: Queryable) => Promise<R>): Promise<R> {
  let result: R | undefined;
  await db.transaction(async (tx) => {
    result = await fn(tx);
    throw new Error('rollback');
  }).catch((error: Error) => {
    if (error.message !== 'rollback') throw error;
  });
  return result as R;
}

describe.each(backends)('courses with learner history are archived, not deleted, on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
    await createUser(db, { id: newcomer.id, email: newcomer.email, username: 'archive_newcomer', name: 'Nia Newcomer', services: ['MISC'] });
    let n = 0;
    for (const kind of [...KINDS, 'none'] as Kind[]) {
      n += 1;
      const course = COURSES[kind];
      await db.query(`insert into public.courses (id, title, description, service, author_id, status)
        values ($1, $2, 'A course of the archive test.', 'MISC', $3, 'ACTIVE')`, [course, `Archive test: ${kind}`, ids.instructor]);
      await db.query(`insert into public.course_modules (id, course_id, title, content, order_index, kind)
        values ($1, $2, 'The only module', '', 1, $3)`, [moduleId(n), course, kind === 'SCORM attempt' ? 'scorm' : 'content']);
      await db.query(`insert into public.quizzes (id, module_id, title) values ($1, $2, 'The quiz')`, [quizId(n), moduleId(n)]);
      if (kind === 'enrolment') {
        await db.query(`insert into public.enrollments (user_id, course_id) values ($1, $2)`, [ids.student, course]);
      } else if (kind === 'pending enrolment') {
        await db.query(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'PENDING')`, [ids.student, course]);
      } else if (kind === 'progress') {
        await db.query(`insert into public.user_module_progress (user_id, module_id, read_at) values ($1, $2, now())`, [ids.student, moduleId(n)]);
      } else if (kind === 'quiz attempt') {
        await db.query(`insert into public.quiz_attempts (user_id, quiz_id) values ($1, $2)`, [ids.student, quizId(n)]);
      } else if (kind === 'SCORM attempt') {
        await db.query(`insert into public.scorm_attempts (user_id, module_id, sco_id) values ($1, $2, 'sco-1')`, [ids.student, moduleId(n)]);
      } else if (kind === 'certificate') {
        await db.query(`insert into public.certificates (user_id, course_id, learner_name, course_title, service)
          values ($1, $2, 'Sam Patel', $3, 'MISC')`, [ids.student, course, `Archive test: ${kind}`]);
      }
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  const exists = async (course: string) => (await db.query('select 1 from public.courses where id = $1', [course])).rows.length === 1;

  describe('deleting', () => {
    it.each(KINDS)('a course with a learner\'s %s is refused for its author, an admin, the service role and the owner', async (kind) => {
      const course = COURSES[kind];
      const remove = (tx: Queryable) => tx.query('delete from public.courses where id = $1', [course]);
      expect(await sqlState(() => rolledBack(db, instructor, remove))).toBe('23503');
      expect(await sqlState(() => rolledBack(db, admin, remove))).toBe('23503');
      expect(await sqlState(() => asServiceRole(db, remove))).toBe('23503');
      const owner = await db.query('delete from public.courses where id = $1', [course]).then(() => null, (e: { code: string; message: string; hint: string }) => e);
      expect(owner).toMatchObject({
        code: '23503',
        message: 'This course has learner records, so it cannot be deleted: archive it instead',
        hint: 'Set its status to ARCHIVED: it leaves the catalogue and no one new can enrol; its records are kept.',
      });
      expect(await exists(course)).toBe(true);
    });

    it('a course nobody started is deleted by its author, an admin, the service role and the owner', async () => {
      const course = COURSES.none;
      const remove = (tx: Queryable) => tx.query('delete from public.courses where id = $1', [course]);
      expect((await rolledBack(db, instructor, remove)).rowCount).toBe(1);
      expect((await rolledBack(db, admin, remove)).rowCount).toBe(1);
      expect((await ownerRolledBack(db, (tx) => tx.query('set local role service_role').then(() => remove(tx)))).rowCount).toBe(1);
      expect((await ownerRolledBack(db, remove)).rowCount).toBe(1);
      // Still refused to those the policy refuses.
      expect((await queryAs(db, otherInstructor, 'delete from public.courses where id = $1', [course])).rowCount).toBe(0);
      expect((await queryAs(db, learner, 'delete from public.courses where id = $1', [course])).rowCount).toBe(0);
      expect(await exists(course)).toBe(true);
    });

    it('private.course_deletable tells those who may delete, and no one else', async () => {
      const deletable = async (persona: typeof admin, course: string) =>
        (await queryAs<{ d: boolean }>(db, persona, 'select private.course_deletable($1) as d', [course])).rows[0].d;
      expect(await deletable(instructor, COURSES.none)).toBe(true);
      expect(await deletable(admin, COURSES.none)).toBe(true);
      for (const kind of KINDS) expect(await deletable(instructor, COURSES[kind])).toBe(false);
      expect(await sqlState(() => queryAs(db, learner, 'select private.course_deletable($1)', [COURSES.enrolment]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, otherInstructor, 'select private.course_deletable($1)', [COURSES.enrolment]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, null, 'select private.course_deletable($1)', [COURSES.enrolment]))).toBe('42501');
      // The raw check is not for the API roles.
      expect(await sqlState(() => queryAs(db, admin, 'select private.course_has_learner_records($1)', [COURSES.none]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, admin, 'select private.erase_course($1)', [COURSES.none]))).toBe('42501');
    });
  });

  describe('an archived course', () => {
    const course = COURSES.enrolment;
    const published = COURSES.none;
    const enrol = 'insert into public.enrollments (user_id, course_id) values ($1, $2) returning id';

    it('is archived by its author (the update policy) and not by another instructor or a learner', async () => {
      const archive = `update public.courses set status = 'ARCHIVED' where id = $1`;
      expect((await queryAs(db, otherInstructor, archive, [course])).rowCount).toBe(0);
      expect((await queryAs(db, learner, archive, [course])).rowCount).toBe(0);
      expect((await queryAs(db, instructor, archive, [course])).rowCount).toBe(1);
    });

    it('takes no one new: a learner, an admin, the service role, an approval or the owner', async () => {
      // Both ways: the same enrolment on a published course goes through.
      expect((await rolledBack(db, newcomer, (tx) => tx.query(enrol, [newcomer.id, published]))).rows).toHaveLength(1);
      expect(await sqlState(() => rolledBack(db, newcomer, (tx) => tx.query(enrol, [newcomer.id, course])))).toBe('55000');
      expect(await sqlState(() => rolledBack(db, admin, (tx) => tx.query(enrol, [newcomer.id, course])))).toBe('55000');
      expect(await sqlState(() => asServiceRole(db, (tx) => tx.query(enrol, [newcomer.id, course])))).toBe('55000');
      // The owner's insert (what the automatic enrolments run as) passes the course by.
      expect((await ownerRolledBack(db, (tx) => tx.query(enrol, [newcomer.id, course]))).rows).toHaveLength(0);
      // A pending request made before the course was archived is not approved after.
      await db.query(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'PENDING')`, [newcomer.id, COURSES.certificate]);
      await db.query(`update public.courses set status = 'ARCHIVED' where id = $1`, [COURSES.certificate]);
      const [pending] = (await db.query<{ id: string }>('select id from public.enrollments where user_id = $1 and course_id = $2',
        [newcomer.id, COURSES.certificate])).rows;
      expect(await sqlState(() => queryAs(db, instructor, 'select private.approve_enrollment($1)', [pending.id]))).toBe('55000');
      expect(await sqlState(() => queryAs(db, admin, `update public.enrollments set status = 'ACTIVE' where id = $1`, [pending.id]))).toBe('55000');
      await db.query('delete from public.enrollments where id = $1', [pending.id]);
    });

    it('gets no one from its required-training rules, which stay; a published course\'s rule still enrols', async () => {
      // Rules made while both were published, for the MISC service.
      await db.query(`update public.courses set status = 'ACTIVE' where id = $1`, [COURSES['quiz attempt']]);
      await db.query(`insert into public.required_training (course_id, service) values ($1, 'MISC'), ($2, 'MISC')`,
        [COURSES['quiz attempt'], published]);
      await db.query(`update public.courses set status = 'ARCHIVED' where id = $1`, [COURSES['quiz attempt']]);
      // A new person of the service joins: enrolled on the published one only.
      const joiner = { id: '00000000-0000-4000-a000-0000000000c2', email: 'archive.joiner@example.uk' };
      await createUser(db, { id: joiner.id, email: joiner.email, username: 'archive_joiner', name: 'Jo Joiner' });
      await db.query(`update public.profiles set services = '{MISC}' where id = $1`, [joiner.id]);
      const enrolled = async (user: string) => (await db.query<{ course_id: string }>(
        'select course_id from public.enrollments where user_id = $1 and course_id = any($2) order by course_id',
        [user, [COURSES['quiz attempt'], published]])).rows.map((r) => r.course_id);
      expect(await enrolled(joiner.id)).toEqual([published]);
      // A change of the archived course's rule assigns no one either, and is not refused.
      await queryAs(db, admin, `update public.required_training set role = 'STUDENT' where course_id = $1`, [COURSES['quiz attempt']]);
      expect(await enrolled(joiner.id)).toEqual([published]);
      // Deactivated and reactivated: back in the published course's training only.
      await queryAs(db, admin, 'select private.set_user_active($1, false)', [joiner.id]);
      await db.query('delete from public.enrollments where user_id = $1', [joiner.id]);
      await queryAs(db, admin, 'select private.set_user_active($1, true)', [joiner.id]);
      expect(await enrolled(joiner.id)).toEqual([published]);
      // The rule is kept, and no new rule can name the archived course.
      expect((await db.query('select 1 from public.required_training where course_id = $1', [COURSES['quiz attempt']])).rows).toHaveLength(1);
      expect(await sqlState(() => queryAs(db, admin, `insert into public.required_training (course_id, role) values ($1, 'INSTRUCTOR')`,
        [COURSES['quiz attempt']]))).toBe('22023');
    });

    it('keeps its records: the learner\'s enrolment, the author\'s and admin\'s view of it, the certificate and the learning record', async () => {
      const rows = async (persona: typeof admin) =>
        (await queryAs(db, persona, 'select id from public.enrollments where course_id = $1 and user_id = $2', [course, ids.student])).rows.length;
      expect(await rows(learner)).toBe(1);
      expect(await rows(instructor)).toBe(1);
      expect(await rows(admin)).toBe(1);
      const certificate = await queryAs<{ course_id: string }>(db, learner, 'select course_id from public.certificates where course_id = $1', [COURSES.certificate]);
      expect(certificate.rows).toEqual([{ course_id: COURSES.certificate }]);
      const record = await queryAs<{ course_id: string; course_title: string }>(db, learner,
        'select course_id, course_title from private.learning_record($1) where course_id = $2', [ids.student, COURSES.certificate]);
      expect(record.rows).toEqual([{ course_id: COURSES.certificate, course_title: 'Archive test: certificate' }]);
      const forAdmin = await queryAs(db, admin, 'select 1 from private.learning_record($1) where course_id = $2', [ids.student, COURSES.certificate]);
      expect(forAdmin.rows).toHaveLength(1);
    });

    it('is out of the catalogue\'s search and totals, and in the managers\' lists when asked', async () => {
      const search = async (persona: typeof admin, includeArchived: boolean) =>
        (await queryAs<{ id: string }>(db, persona, 'select id from private.course_search_ids($1, $2) as id', ['%Archive test: enrolment%', includeArchived])).rows.length;
      expect(await search(admin, false)).toBe(0);
      expect(await search(admin, true)).toBe(1);
      expect(await search(instructor, false)).toBe(0);
      expect(await search(instructor, true)).toBe(1);
      expect(await search(learner, true)).toBe(0); // never a learner's, archived or not
      const total = async (includeArchived: boolean) => Number((await queryAs<{ n: number }>(db, admin,
        'select private.visible_course_count(null, null, $1) as n', [includeArchived])).rows[0].n);
      const archived = Number((await db.query<{ n: number }>(`select count(*)::int as n from public.courses where status = 'ARCHIVED'`)).rows[0].n);
      expect(await total(true) - await total(false)).toBe(archived);
    });

    it('restored, is a draft: still closed to learners until it is published again', async () => {
      await queryAs(db, instructor, `update public.courses set status = 'DRAFT' where id = $1`, [course]);
      expect(await sqlState(() => rolledBack(db, newcomer, (tx) => tx.query(enrol, [newcomer.id, course])))).toBe('42501');
      await queryAs(db, instructor, `update public.courses set status = 'ACTIVE' where id = $1`, [course]);
      expect((await rolledBack(db, newcomer, (tx) => tx.query(enrol, [newcomer.id, course]))).rows).toHaveLength(1);
    });
  });
});
