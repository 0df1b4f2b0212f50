// The instructor dashboard's SQL (supabase/schemas/06_instructor_dashboard.sql): figures computed from
// the seed's enrolments and attempts under each persona's RLS, and approval/decline of pending
// enrolments proven both ways (author and admin may; learner, other instructor and visitor may not).
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

interface Stats {
  total_courses: number;
  total_students: number;
  average_completion: number;
  total_course_hours: number;
  recently_updated: { id: string; title: string; updatedAt: string }[];
}

describe.each(backends)('instructor dashboard SQL on $name', ({ create }) => {
  let db: TestDatabase;
  const newcomer: Persona = { id: '00000000-0000-4000-a000-0000000000b1', email: 'newcomer@example.uk' };
  let pendingId: string;

  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
    await createUser(db, { id: newcomer.id, email: newcomer.email, username: 'newcomer', name: 'Nia Newcomer' });
    // The newcomer asks to join course 2 under login-approval: a pending enrolment.
    await withCourseAccess(db, 'login-approval', async () => {
      const r = await queryAs<{ id: string; status: string }>(
        db, newcomer, 'insert into public.enrollments (user_id, course_id) values ($1, $2) returning id, status', [newcomer.id, ids.course(2)]);
      expect(r.rows[0].status).toBe('PENDING');
      pendingId = r.rows[0].id;
    });
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('instructor_stats', () => {
    it('counts the instructor\'s own courses and their approved learners from the seed', async () => {
      const r = await queryAs<Stats>(db, instructor, 'select * from private.instructor_stats()');
      const expected = await db.query<{ courses: number; hours: number }>(
        `select count(*)::int as courses, sum(duration)::int as hours from public.courses where author_id = $1`, [instructor.id]);
      const row = r.rows[0];
      expect(row.total_courses).toBe(expected.rows[0].courses);
      expect(row.total_courses).toBe(7);
      expect(row.total_course_hours).toBe(expected.rows[0].hours);
      // The seed learner is on courses 12 (0 %), 1 (50 %) and 3 (100 %); the newcomer is only pending.
      expect(row.total_students).toBe(1);
      expect(row.average_completion).toBe(50);
      // The completion rate (1 of 3 enrolments completed) differs from the average progress.
      expect(row).toMatchObject({ completion_rate: 33, average_progress: 50, completed_enrolments: 1, total_enrolments: 3, pending_requests: 1 });
      expect(row.recently_updated).toHaveLength(3);
    });

    it('lists the three most recently updated courses first', async () => {
      await rolledBack(db, instructor, async (tx) => {
        await tx.query(`update public.courses set title = title || ' (revised)' where id = $1`, [ids.course(13)]);
        const r = await tx.query<Stats>('select * from private.instructor_stats()');
        expect(r.rows[0].recently_updated[0].id).toBe(ids.course(13));
        expect(r.rows[0].recently_updated[0].title).toMatch(/\(revised\)$/);
      });
    });

    it('gives zeros to an instructor without courses', async () => {
      const r = await queryAs<Stats>(db, otherInstructor, 'select * from private.instructor_stats()');
      expect(r.rows[0]).toMatchObject({ total_courses: 0, total_students: 0, average_completion: 0, total_course_hours: 0, recently_updated: [] });
    });

    it('an admin sees only the courses they author', async () => {
      const r = await queryAs<Stats>(db, admin, 'select * from private.instructor_stats()');
      const expected = await db.query<{ n: number }>('select count(*)::int as n from public.courses where author_id = $1', [admin.id]);
      expect(r.rows[0].total_courses).toBe(expected.rows[0].n);
    });

    it('refuses learners and visitors', async () => {
      expect(await sqlState(() => queryAs(db, learner, 'select * from private.instructor_stats()'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, 'select * from private.instructor_stats()'))).toBe('42501');
    });
  });

  describe('instructor_students', () => {
    type Row = { id: string; course_id: string; status: string; progress: number; name: string; last_activity: string; total: string | number };

    it('lists the enrolments on the instructor\'s courses, pending first, with status and total', async () => {
      const r = await queryAs<Row>(db, instructor, 'select * from private.instructor_students()');
      expect(r.rows.map((x) => x.status === 'pending')).toEqual([true, false, false, false]);
      expect(r.rows[0]).toMatchObject({ id: pendingId, name: 'Nia Newcomer', status: 'pending', progress: 0 });
      expect(r.rows.map((x) => x.course_id).sort()).toEqual([ids.course(1), ids.course(2), ids.course(3), ids.course(12)].sort());
      expect(Number(r.rows[0].total)).toBe(4);
      const completed = r.rows.find((x) => x.course_id === ids.course(3));
      expect(completed).toMatchObject({ status: 'completed', progress: 100 });
      expect(r.rows.find((x) => x.course_id === ids.course(1))).toMatchObject({ status: 'in-progress', progress: 50 });
    });

    it('filters by course and status, and pages', async () => {
      const byCourse = await queryAs<Row>(db, instructor, 'select * from private.instructor_students($1)', [ids.course(1)]);
      expect(byCourse.rows.map((x) => x.course_id)).toEqual([ids.course(1)]);
      const completed = await queryAs<Row>(db, instructor, `select * from private.instructor_students(null, 'completed')`);
      expect(completed.rows.map((x) => x.course_id)).toEqual([ids.course(3)]);
      const page = await queryAs<Row>(db, instructor, 'select * from private.instructor_students(null, null, 2, 2)');
      expect(page.rows).toHaveLength(2);
      expect(Number(page.rows[0].total)).toBe(4);
    });

    it('takes last activity from module reads and quiz attempts', async () => {
      const r = await queryAs<Row>(db, instructor, 'select * from private.instructor_students($1)', [ids.course(1)]);
      const expected = await db.query<{ at: string }>(
        `select max(read_at) as at from public.user_module_progress u join public.course_modules m on m.id = u.module_id
          where u.user_id = $1 and m.course_id = $2`, [learner.id, ids.course(1)]);
      expect(new Date(r.rows[0].last_activity).getTime()).toBeGreaterThanOrEqual(new Date(expected.rows[0].at).getTime());
    });

    it('another instructor sees none; an admin sees every enrolment', async () => {
      const o = await queryAs<Row>(db, otherInstructor, 'select * from private.instructor_students()');
      expect(o.rows).toHaveLength(0);
      const a = await queryAs<Row>(db, admin, 'select * from private.instructor_students(null, null, 100, 0)');
      const all = await db.query<{ n: number }>('select count(*)::int as n from public.enrollments');
      expect(a.rows).toHaveLength(all.rows[0].n);
    });

    it('refuses learners', async () => {
      expect(await sqlState(() => queryAs(db, learner, 'select * from private.instructor_students()'))).toBe('42501');
    });
  });

  describe('instructor_analytics', () => {
    type Row = {
      course_id: string; enrollments: number; pending: number; completed: number; completion_rate: number;
      average_progress: number; quiz_attempts: number; quiz_passed: number; quiz_pass_rate: number | null; total: string | number;
    };

    it('computes per-course figures for the instructor\'s courses', async () => {
      const r = await queryAs<Row>(db, instructor, 'select * from private.instructor_analytics(100, 0)');
      expect(r.rows).toHaveLength(7);
      const byId = new Map(r.rows.map((x) => [x.course_id, x]));
      expect(byId.get(ids.course(1))).toMatchObject({
        enrollments: 1, pending: 0, completed: 0, completion_rate: 0, average_progress: 50, quiz_attempts: 1, quiz_passed: 1, quiz_pass_rate: 100,
      });
      expect(byId.get(ids.course(3))).toMatchObject({ enrollments: 1, completed: 1, completion_rate: 100, average_progress: 100 });
      expect(byId.get(ids.course(2))).toMatchObject({ enrollments: 0, pending: 1, completion_rate: 0, quiz_attempts: 0, quiz_pass_rate: null });
    });

    it('counts failed attempts in the pass rate', async () => {
      // A failed attempt, written as the system would (attempts are server-written only).
      await db.query(
        `insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed, completed_at) values ($1, $2, 1, 3, false, now())`,
        [learner.id, ids.quiz(1, 2)]);
      const r = await queryAs<Row>(db, instructor, 'select * from private.instructor_analytics(100, 0) where course_id = $1', [ids.course(1)]);
      expect(r.rows[0]).toMatchObject({ quiz_attempts: 2, quiz_passed: 1, quiz_pass_rate: 50 });
      await db.query(`delete from public.quiz_attempts where quiz_id = $1 and not passed`, [ids.quiz(1, 2)]);
    });

    it('another instructor gets no rows; learners are refused', async () => {
      expect((await queryAs(db, otherInstructor, 'select * from private.instructor_analytics()')).rows).toHaveLength(0);
      expect(await sqlState(() => queryAs(db, learner, 'select * from private.instructor_analytics()'))).toBe('42501');
    });
  });

  describe('approve and decline', () => {
    it('the course\'s instructor approves a pending enrolment', async () => {
      const r = await rolledBack(db, instructor, (tx) =>
        tx.query<{ status: string }>('select status from private.approve_enrollment($1)', [pendingId]));
      expect(r.rows[0].status).toBe('ACTIVE');
    });

    it('an admin approves and declines', async () => {
      const r = await rolledBack(db, admin, (tx) => tx.query<{ status: string }>('select status from private.approve_enrollment($1)', [pendingId]));
      expect(r.rows[0].status).toBe('ACTIVE');
      const gone = await rolledBack(db, admin, async (tx) => {
        await tx.query('select private.decline_enrollment($1)', [pendingId]);
        return tx.query('select id from public.enrollments where id = $1', [pendingId]);
      });
      expect(gone.rows).toHaveLength(0);
    });

    it('refuses the learner themselves (42501), another instructor and a visitor (not found)', async () => {
      expect(await sqlState(() => queryAs(db, newcomer, 'select private.approve_enrollment($1)', [pendingId]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, newcomer, 'select private.decline_enrollment($1)', [pendingId]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, otherInstructor, 'select private.approve_enrollment($1)', [pendingId]))).toBe('P0002');
      expect(await sqlState(() => queryAs(db, otherInstructor, 'select private.decline_enrollment($1)', [pendingId]))).toBe('P0002');
      expect(await sqlState(() => queryAs(db, visitor, 'select private.approve_enrollment($1)', [pendingId]))).toBe('42501');
      const still = await db.query<{ status: string }>('select status from public.enrollments where id = $1', [pendingId]);
      expect(still.rows[0].status).toBe('PENDING');
    });

    it('the policies alone refuse another instructor a direct update or delete', async () => {
      const u = await queryAs(db, otherInstructor, `update public.enrollments set status = 'ACTIVE' where id = $1`, [pendingId]);
      expect(u.rowCount).toBe(0);
      const d = await queryAs(db, otherInstructor, 'delete from public.enrollments where id = $1', [pendingId]);
      expect(d.rowCount).toBe(0);
    });

    it('refuses an enrolment that is not pending (55000)', async () => {
      expect(await sqlState(() => queryAs(db, instructor, 'select private.approve_enrollment($1)', [ids.enrollment(2)]))).toBe('55000');
      expect(await sqlState(() => queryAs(db, instructor, 'select private.decline_enrollment($1)', [ids.enrollment(2)]))).toBe('55000');
    });

    it('the instructor declines: the pending enrolment is removed', async () => {
      await asUser(db, instructor, (tx) => tx.query('select private.decline_enrollment($1)', [pendingId]));
      const r = await db.query('select id from public.enrollments where id = $1', [pendingId]);
      expect(r.rows).toHaveLength(0);
      expect(await sqlState(() => queryAs(db, instructor, 'select private.decline_enrollment($1)', [pendingId]))).toBe('P0002');
    });
  });
});
