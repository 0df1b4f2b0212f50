// Authoring helpers (supabase/schemas/02_courses_and_modules.sql and 03_quizzes.sql): has_quiz follows the quiz, module and question order
// rewritten whole under the caller's RLS, proved for the author, another instructor, a learner and
// the admin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor,
  asUser,
  backends,
  ids,
  personas,
  queryAs,
  rolledBack,
  sqlState,
  type TestDatabase,
} from './helpers/database';

const { admin, instructor, learner, otherInstructor } = personas;

// Seed course 1 (JESIP, UKPS, by the instructor): its modules, quiz on module 2.
const course1 = ids.course(1);
const adminCourse = ids.course(4);

async function moduleOrder(db: TestDatabase, courseId: string): Promise<string[]> {
  const r = await db.query<{ id: string }>(
    'select id from public.course_modules where course_id = $1 order by order_index, id',
    [courseId],
  );
  return r.rows.map((row) => row.id);
}

describe.each(backends)('authoring helpers on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('has_quiz', () => {
    it('matches the seeded quizzes after the migration', async () => {
      const r = await db.query<{ mismatched: number }>(
        `select count(*)::int as mismatched from public.course_modules m
         where m.has_quiz <> exists (select 1 from public.quizzes q where q.module_id = m.id)`,
      );
      expect(r.rows[0].mismatched).toBe(0);
      const m2 = await db.query<{ has_quiz: boolean }>('select has_quiz from public.course_modules where id = $1', [ids.module(1, 2)]);
      expect(m2.rows[0].has_quiz).toBe(true);
    });

    it('turns on when the author adds a quiz and off when it is deleted', async () => {
      const moduleId = ids.module(1, 1);
      const flags = await rolledBack(db, instructor, async (tx) => {
        const before = await tx.query<{ has_quiz: boolean }>('select has_quiz from public.course_modules where id = $1', [moduleId]);
        const q = await tx.query<{ id: string }>(
          `insert into public.quizzes (module_id, title) values ($1, 'Check your understanding') returning id`,
          [moduleId],
        );
        const during = await tx.query<{ has_quiz: boolean }>('select has_quiz from public.course_modules where id = $1', [moduleId]);
        await tx.query('delete from public.quizzes where id = $1', [q.rows[0].id]);
        const after = await tx.query<{ has_quiz: boolean }>('select has_quiz from public.course_modules where id = $1', [moduleId]);
        return [before.rows[0].has_quiz, during.rows[0].has_quiz, after.rows[0].has_quiz];
      });
      expect(flags).toEqual([false, true, false]);
    });

    it('a learner cannot add a quiz, so the flag stays off', async () => {
      const state = await sqlState(() =>
        asUser(db, learner, (tx) =>
          tx.query(`insert into public.quizzes (module_id, title) values ($1, 'Sneaky quiz')`, [ids.module(1, 1)]),
        ),
      );
      expect(state).toBe('42501');
      const m = await db.query<{ has_quiz: boolean }>('select has_quiz from public.course_modules where id = $1', [ids.module(1, 1)]);
      expect(m.rows[0].has_quiz).toBe(false);
    });
  });

  describe('reorder_modules', () => {
    it('the author reverses the order in one call', async () => {
      const before = await moduleOrder(db, course1);
      expect(before.length).toBeGreaterThan(2);
      const reversed = [...before].reverse();
      const after = await rolledBack(db, instructor, async (tx) => {
        await tx.query('select private.reorder_modules($1, $2::uuid[])', [course1, reversed]);
        const r = await tx.query<{ id: string; order_index: number }>(
          'select id, order_index from public.course_modules where course_id = $1 order by order_index',
          [course1],
        );
        return r.rows;
      });
      expect(after.map((r) => r.id)).toEqual(reversed);
      expect(after.map((r) => r.order_index)).toEqual(reversed.map((_, i) => i + 1));
    });

    it('refuses a partial list, a duplicate or a foreign id (22023) and changes nothing', async () => {
      const before = await moduleOrder(db, course1);
      const foreign = ids.module(2, 1);
      for (const list of [before.slice(1), [...before, before[0]], [...before.slice(1), foreign]]) {
        const state = await sqlState(() =>
          asUser(db, instructor, (tx) => tx.query('select private.reorder_modules($1, $2::uuid[])', [course1, list])),
        );
        expect(state).toBe('22023');
      }
      expect(await moduleOrder(db, course1)).toEqual(before);
    });

    it('another instructor and a learner cannot reorder (42501), the admin can', async () => {
      const before = await moduleOrder(db, course1);
      const reversed = [...before].reverse();
      for (const persona of [otherInstructor, learner]) {
        const state = await sqlState(() =>
          asUser(db, persona, (tx) => tx.query('select private.reorder_modules($1, $2::uuid[])', [course1, reversed])),
        );
        expect(state).toBe('42501');
      }
      expect(await moduleOrder(db, course1)).toEqual(before);
      const byAdmin = await rolledBack(db, admin, async (tx) => {
        await tx.query('select private.reorder_modules($1, $2::uuid[])', [course1, reversed]);
        const r = await tx.query<{ id: string }>('select id from public.course_modules where course_id = $1 order by order_index', [course1]);
        return r.rows.map((row) => row.id);
      });
      expect(byAdmin).toEqual(reversed);
    });

    it('the instructor cannot reorder the admin course', async () => {
      const order = await moduleOrder(db, adminCourse);
      const state = await sqlState(() =>
        asUser(db, instructor, (tx) => tx.query('select private.reorder_modules($1, $2::uuid[])', [adminCourse, [...order].reverse()])),
      );
      expect(state).toBe('42501');
    });

    it('a visitor may not call it at all', async () => {
      const order = await moduleOrder(db, course1);
      const state = await sqlState(() => queryAs(db, null, 'select private.reorder_modules($1, $2::uuid[])', [course1, order]));
      expect(state).toBe('42501');
    });
  });

  describe('renumber_modules', () => {
    it('closes the gap after the author deletes a module', async () => {
      const before = await moduleOrder(db, course1);
      const orders = await rolledBack(db, instructor, async (tx) => {
        await tx.query('delete from public.course_modules where id = $1', [before[0]]);
        await tx.query('select private.renumber_modules($1)', [course1]);
        const r = await tx.query<{ id: string; order_index: number }>(
          'select id, order_index from public.course_modules where course_id = $1 order by order_index',
          [course1],
        );
        return r.rows;
      });
      expect(orders.map((r) => r.id)).toEqual(before.slice(1));
      expect(orders.map((r) => r.order_index)).toEqual(before.slice(1).map((_, i) => i + 1));
    });

    it('changes no row of a course the caller does not author', async () => {
      await db.query('update public.course_modules set order_index = order_index + 10 where course_id = $1', [adminCourse]);
      await queryAs(db, instructor, 'select private.renumber_modules($1)', [adminCourse]);
      const r = await db.query<{ min: number }>('select min(order_index)::int as min from public.course_modules where course_id = $1', [adminCourse]);
      expect(r.rows[0].min).toBe(11);
      // The admin's call restores 1..n.
      await queryAs(db, admin, 'select private.renumber_modules($1)', [adminCourse]);
      const r2 = await db.query<{ min: number }>('select min(order_index)::int as min from public.course_modules where course_id = $1', [adminCourse]);
      expect(r2.rows[0].min).toBe(1);
    });
  });

  describe('quiz questions order', () => {
    const quizId = ids.quiz(1, 2);
    const questionOrder = async () =>
      (await db.query<{ id: string }>('select id from public.quiz_questions where quiz_id = $1 order by order_index, id', [quizId])).rows.map(
        (r) => r.id,
      );

    it('the author reorders and renumbers; others are refused', async () => {
      const before = await questionOrder();
      expect(before).toHaveLength(3);
      const reversed = [...before].reverse();
      const after = await rolledBack(db, instructor, async (tx) => {
        await tx.query('select private.reorder_quiz_questions($1, $2::uuid[])', [quizId, reversed]);
        await tx.query('delete from public.quiz_questions where id = $1', [reversed[0]]);
        await tx.query('select private.renumber_quiz_questions($1)', [quizId]);
        const r = await tx.query<{ id: string; order_index: number }>(
          'select id, order_index from public.quiz_questions where quiz_id = $1 order by order_index',
          [quizId],
        );
        return r.rows;
      });
      expect(after.map((r) => r.id)).toEqual(reversed.slice(1));
      expect(after.map((r) => r.order_index)).toEqual([1, 2]);

      // The other instructor cannot even see the questions: the list does not match (22023).
      const other = await sqlState(() =>
        asUser(db, otherInstructor, (tx) => tx.query('select private.reorder_quiz_questions($1, $2::uuid[])', [quizId, reversed])),
      );
      expect(other).toBe('22023');
      const partial = await sqlState(() =>
        asUser(db, instructor, (tx) => tx.query('select private.reorder_quiz_questions($1, $2::uuid[])', [quizId, reversed.slice(1)])),
      );
      expect(partial).toBe('22023');
      expect(await questionOrder()).toEqual(before);
    });
  });
});
