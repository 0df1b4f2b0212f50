// Row-level security on courses, course_modules, quizzes and quiz_questions (who sees and who edits
// what: docs/ARCHITECTURE.md, "Who may edit a course"), proved both ways for every persona: visitor,
// learner, instructor, other instructor, admin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor,
  backends,
  ids,
  personas,
  queryAs,
  rolledBack,
  seedCourses,
  sqlState,
  withCourseAccess,
  type TestDatabase,
} from './helpers/database';

const { admin, instructor, learner, otherInstructor } = personas;
const visitor = null;

const courseIds = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const activeIds = seedCourses.active.map(ids.course).sort();

describe.each(backends)('courses and their content on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('courses: reading', () => {
    it('a visitor sees exactly the ACTIVE courses under public-login', async () => {
      const r = await queryAs<{ id: string }>(db, visitor, 'select id from public.courses');
      expect(courseIds(r.rows)).toEqual(activeIds);
    });

    it('a visitor sees ACTIVE courses under public-enroll and login-approval, none under login-browse', async () => {
      for (const access of ['public-enroll', 'login-approval']) {
        await withCourseAccess(db, access, async () => {
          const r = await queryAs<{ id: string }>(db, visitor, 'select id from public.courses');
          expect(courseIds(r.rows)).toEqual(activeIds);
        });
      }
      await withCourseAccess(db, 'login-browse', async () => {
        const r = await queryAs(db, visitor, 'select id from public.courses');
        expect(r.rows).toHaveLength(0);
        const m = await queryAs(db, visitor, 'select id from public.course_modules');
        expect(m.rows).toHaveLength(0);
        const q = await queryAs(db, visitor, 'select id from public.quizzes');
        expect(q.rows).toHaveLength(0);
      });
    });

    it('a learner sees ACTIVE courses under every access rule, never drafts or archived ones', async () => {
      for (const access of ['public-login', 'login-browse', 'login-approval']) {
        await withCourseAccess(db, access, async () => {
          const r = await queryAs<{ id: string }>(db, learner, 'select id from public.courses');
          expect(courseIds(r.rows)).toEqual(activeIds);
        });
      }
    });

    it('an instructor also sees their own draft, not the admin draft or archived course', async () => {
      const r = await queryAs<{ id: string }>(db, instructor, 'select id from public.courses');
      expect(courseIds(r.rows)).toEqual([...activeIds, ids.course(seedCourses.draftByInstructor)].sort());
    });

    it('another instructor does not see the instructor draft', async () => {
      const r = await queryAs<{ id: string }>(db, otherInstructor, 'select id from public.courses where id = $1', [
        ids.course(seedCourses.draftByInstructor),
      ]);
      expect(r.rows).toHaveLength(0);
    });

    it('an admin sees every course', async () => {
      const r = await queryAs<{ n: number }>(db, admin, 'select count(*)::int as n from public.courses');
      expect(r.rows[0].n).toBe(17);
    });
  });

  describe('courses: writing', () => {
    const insertCourse = `insert into public.courses (title, description, service, author_id, status)
      values ('Test course', 'A course made by a test.', $1, $2, 'DRAFT') returning id`;

    it('a visitor may not create, change or delete courses', async () => {
      expect(await sqlState(() => queryAs(db, visitor, insertCourse, ['UKPS', null]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, `update public.courses set title = 'Hacked'`))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, 'delete from public.courses'))).toBe('42501');
    });

    it('a learner may not create courses, even in their own service and as author', async () => {
      expect(await sqlState(() => queryAs(db, learner, insertCourse, ['MISC', learner.id]))).toBe('42501');
    });

    it('a learner changes and deletes no course', async () => {
      const u = await queryAs(db, learner, `update public.courses set title = 'Hacked title'`);
      expect(u.rowCount).toBe(0);
      const d = await queryAs(db, learner, 'delete from public.courses');
      expect(d.rowCount).toBe(0);
      const left = await db.query<{ n: number }>(`select count(*)::int as n from public.courses where title = 'Hacked title'`);
      expect(left.rows[0].n).toBe(0);
    });

    it('an instructor creates a course in their services as its author', async () => {
      const r = await rolledBack(db, instructor, (tx) => tx.query(insertCourse, ['MISC', instructor.id]));
      expect(r.rows).toHaveLength(1);
    });

    it('an instructor may not create a course outside their services or for someone else', async () => {
      expect(await sqlState(() => rolledBack(db, instructor, (tx) => tx.query(insertCourse, ['UKAS', instructor.id])))).toBe('42501');
      expect(await sqlState(() => rolledBack(db, instructor, (tx) => tx.query(insertCourse, ['UKPS', admin.id])))).toBe('42501');
      expect(await sqlState(() => rolledBack(db, instructor, (tx) => tx.query(insertCourse, ['UKPS', null])))).toBe('42501');
    });

    it('an instructor updates and deletes their own course', async () => {
      const u = await rolledBack(db, instructor, (tx) =>
        tx.query(`update public.courses set title = 'Renamed by author' where id = $1`, [ids.course(1)]),
      );
      expect(u.rowCount).toBe(1);
      const d = await rolledBack(db, instructor, (tx) => tx.query('delete from public.courses where id = $1', [ids.course(2)]));
      expect(d.rowCount).toBe(1);
    });

    it('an instructor changes and deletes no course of someone else', async () => {
      const u = await queryAs(db, instructor, `update public.courses set title = 'Not mine' where id = $1`, [ids.course(4)]);
      expect(u.rowCount).toBe(0);
      const d = await queryAs(db, instructor, 'delete from public.courses where id = $1', [ids.course(4)]);
      expect(d.rowCount).toBe(0);
      const o = await queryAs(db, otherInstructor, `update public.courses set title = 'Not mine' where id = $1`, [ids.course(1)]);
      expect(o.rowCount).toBe(0);
      const still = await db.query<{ title: string }>('select title from public.courses where id = $1', [ids.course(1)]);
      expect(still.rows[0].title).toMatch(/^JESIP/);
    });

    it('an instructor may not move their course out of their services or give it away', async () => {
      expect(
        await sqlState(() => queryAs(db, instructor, `update public.courses set service = 'UKFRS' where id = $1`, [ids.course(1)])),
      ).toBe('42501');
      expect(
        await sqlState(() => queryAs(db, instructor, 'update public.courses set author_id = $2 where id = $1', [ids.course(1), otherInstructor.id])),
      ).toBe('42501');
    });

    it('another instructor creates a course in their own services only', async () => {
      const ok = await rolledBack(db, otherInstructor, (tx) => tx.query(insertCourse, ['UKAS', otherInstructor.id]));
      expect(ok.rows).toHaveLength(1);
      expect(await sqlState(() => queryAs(db, otherInstructor, insertCourse, ['MISC', otherInstructor.id]))).toBe('42501');
    });

    it('an instructor who is demoted to STUDENT can no longer change their courses', async () => {
      await db.query(`update public.profiles set role = 'STUDENT' where id = $1`, [instructor.id]);
      try {
        const u = await queryAs(db, instructor, `update public.courses set title = 'After demotion' where id = $1`, [ids.course(1)]);
        expect(u.rowCount).toBe(0);
      } finally {
        await db.query(`update public.profiles set role = 'INSTRUCTOR' where id = $1`, [instructor.id]);
      }
    });

    it('an admin creates a course in any service for anyone, updates and deletes any course', async () => {
      const c = await rolledBack(db, admin, (tx) => tx.query(insertCourse, ['UKFRS', otherInstructor.id]));
      expect(c.rows).toHaveLength(1);
      const u = await rolledBack(db, admin, (tx) => tx.query(`update public.courses set status = 'ARCHIVED' where id = $1`, [ids.course(1)]));
      expect(u.rowCount).toBe(1);
      // Any course nobody started (one with learner records is archived instead: course-archive.test.ts).
      const d = await rolledBack(db, admin, async (tx) => {
        const made = await tx.query<{ id: string }>(insertCourse, ['UKFRS', otherInstructor.id]);
        return tx.query('delete from public.courses where id = $1', [made.rows[0].id]);
      });
      expect(d.rowCount).toBe(1);
      expect(await sqlState(() => rolledBack(db, admin, (tx) => tx.query('delete from public.courses')))).toBe('23503');
    });
  });

  describe('course_modules', () => {
    const insertModule = `insert into public.course_modules (course_id, title, content, order_index)
      values ($1, 'A new module', 'Some content for the module body.', 9) returning id`;

    it('a visitor and a learner read the modules of a visible course, not of a draft', async () => {
      for (const p of [visitor, learner]) {
        const r = await queryAs(db, p, 'select id from public.course_modules where course_id = $1', [ids.course(1)]);
        expect(r.rows).toHaveLength(4);
        const d = await queryAs(db, p, 'select id from public.course_modules where course_id = $1', [ids.course(15)]);
        expect(d.rows).toHaveLength(0);
        const a = await queryAs(db, p, 'select id from public.course_modules where course_id = $1', [ids.course(17)]);
        expect(a.rows).toHaveLength(0);
      }
    });

    it('the author reads the modules of their draft; another instructor does not', async () => {
      const r = await queryAs(db, instructor, 'select id from public.course_modules where course_id = $1', [ids.course(15)]);
      expect(r.rows).toHaveLength(1);
      const o = await queryAs(db, otherInstructor, 'select id from public.course_modules where course_id = $1', [ids.course(15)]);
      expect(o.rows).toHaveLength(0);
    });

    it('a visitor and a learner may not add modules, and change or delete none', async () => {
      expect(await sqlState(() => queryAs(db, visitor, insertModule, [ids.course(1)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, learner, insertModule, [ids.course(1)]))).toBe('42501');
      const u = await queryAs(db, learner, `update public.course_modules set title = 'Hacked'`);
      expect(u.rowCount).toBe(0);
      const d = await queryAs(db, learner, 'delete from public.course_modules');
      expect(d.rowCount).toBe(0);
    });

    it('the author adds, changes and deletes modules of their course', async () => {
      const i = await rolledBack(db, instructor, (tx) => tx.query(insertModule, [ids.course(1)]));
      expect(i.rows).toHaveLength(1);
      const u = await rolledBack(db, instructor, (tx) =>
        tx.query('update public.course_modules set order_index = 5 where id = $1', [ids.module(1, 1)]),
      );
      expect(u.rowCount).toBe(1);
      const d = await rolledBack(db, instructor, (tx) => tx.query('delete from public.course_modules where course_id = $1', [ids.course(1)]));
      expect(d.rowCount).toBe(4);
    });

    it('an instructor may not add to, change or delete modules of a course not theirs', async () => {
      expect(await sqlState(() => queryAs(db, instructor, insertModule, [ids.course(4)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, otherInstructor, insertModule, [ids.course(1)]))).toBe('42501');
      const u = await queryAs(db, otherInstructor, `update public.course_modules set title = 'Hacked' where course_id = $1`, [ids.course(1)]);
      expect(u.rowCount).toBe(0);
      const d = await queryAs(db, otherInstructor, 'delete from public.course_modules where course_id = $1', [ids.course(1)]);
      expect(d.rowCount).toBe(0);
      expect(
        await sqlState(() =>
          queryAs(db, instructor, 'update public.course_modules set course_id = $2 where id = $1', [ids.module(1, 1), ids.course(4)]),
        ),
      ).toBe('42501');
    });

    it('an admin adds, changes and deletes modules of any course', async () => {
      const i = await rolledBack(db, admin, (tx) => tx.query(insertModule, [ids.course(1)]));
      expect(i.rows).toHaveLength(1);
      const d = await rolledBack(db, admin, (tx) => tx.query('delete from public.course_modules'));
      expect(d.rowCount).toBeGreaterThan(40);
    });
  });

  describe('quizzes', () => {
    const insertQuiz = `insert into public.quizzes (module_id, title) values ($1, 'A new quiz') returning id`;

    it('a visitor and a learner read the quiz of a visible module, not of a hidden one', async () => {
      for (const p of [visitor, learner]) {
        const r = await queryAs<{ passing_score: number }>(db, p, 'select passing_score from public.quizzes where id = $1', [ids.quiz(1, 2)]);
        expect(r.rows).toEqual([{ passing_score: 70 }]);
      }
      await db.query(`update public.courses set status = 'DRAFT' where id = $1`, [ids.course(1)]);
      try {
        const r = await queryAs(db, learner, 'select id from public.quizzes where id = $1', [ids.quiz(1, 2)]);
        expect(r.rows).toHaveLength(0);
        const a = await queryAs(db, instructor, 'select id from public.quizzes where id = $1', [ids.quiz(1, 2)]);
        expect(a.rows).toHaveLength(1);
      } finally {
        await db.query(`update public.courses set status = 'ACTIVE' where id = $1`, [ids.course(1)]);
      }
    });

    it('the author adds, changes and deletes quizzes of their modules', async () => {
      const i = await rolledBack(db, instructor, (tx) => tx.query(insertQuiz, [ids.module(1, 1)]));
      expect(i.rows).toHaveLength(1);
      const u = await rolledBack(db, instructor, (tx) => tx.query('update public.quizzes set passing_score = 80 where id = $1', [ids.quiz(1, 2)]));
      expect(u.rowCount).toBe(1);
      const d = await rolledBack(db, instructor, (tx) => tx.query('delete from public.quizzes where id = $1', [ids.quiz(1, 2)]));
      expect(d.rowCount).toBe(1);
    });

    it('others may not add, change or delete quizzes', async () => {
      expect(await sqlState(() => queryAs(db, learner, insertQuiz, [ids.module(1, 1)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, insertQuiz, [ids.module(1, 1)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, instructor, insertQuiz, [ids.module(4, 1)]))).toBe('42501');
      for (const p of [learner, otherInstructor]) {
        const u = await queryAs(db, p, 'update public.quizzes set passing_score = 1 where id = $1', [ids.quiz(1, 2)]);
        expect(u.rowCount).toBe(0);
        const d = await queryAs(db, p, 'delete from public.quizzes where id = $1', [ids.quiz(1, 2)]);
        expect(d.rowCount).toBe(0);
      }
    });

    it('an admin changes any quiz', async () => {
      const u = await rolledBack(db, admin, (tx) => tx.query('update public.quizzes set passing_score = 90'));
      expect(u.rowCount).toBe(6);
    });
  });

  describe('quiz_questions (they hold the answers)', () => {
    const insertQuestion = `insert into public.quiz_questions (quiz_id, question_text, options, correct_answers)
      values ($1, 'Is this a question?', '[{"text":"Yes","isCorrect":true},{"text":"No","isCorrect":false}]', '[0]') returning id`;

    it('a visitor and a learner read no question, not even on a course the learner is enrolled on', async () => {
      for (const p of [visitor, learner]) {
        const r = await queryAs(db, p, 'select id, correct_answers from public.quiz_questions');
        expect(r.rows).toHaveLength(0);
      }
      const enrolled = await db.query('select 1 from public.enrollments where user_id = $1 and course_id = $2', [learner.id, ids.course(1)]);
      expect(enrolled.rows).toHaveLength(1);
    });

    it('the author reads the questions of their quizzes only; the admin reads all', async () => {
      const r = await queryAs<{ quiz_id: string }>(db, instructor, 'select quiz_id from public.quiz_questions');
      expect(new Set(r.rows.map((q) => q.quiz_id))).toEqual(new Set([ids.quiz(1, 2), ids.quiz(2, 3), ids.quiz(3, 3), ids.quiz(12, 3)]));
      const o = await queryAs(db, otherInstructor, 'select id from public.quiz_questions');
      expect(o.rows).toHaveLength(0);
      const a = await queryAs<{ n: number }>(db, admin, 'select count(*)::int as n from public.quiz_questions');
      const all = await db.query<{ n: number }>('select count(*)::int as n from public.quiz_questions');
      expect(a.rows[0].n).toBe(all.rows[0].n);
      expect(a.rows[0].n).toBeGreaterThanOrEqual(18);
    });

    it('the author and the admin add, change and delete questions', async () => {
      for (const p of [instructor, admin]) {
        const i = await rolledBack(db, p, (tx) => tx.query(insertQuestion, [ids.quiz(1, 2)]));
        expect(i.rows).toHaveLength(1);
        const u = await rolledBack(db, p, (tx) => tx.query('update public.quiz_questions set points = 2 where quiz_id = $1', [ids.quiz(1, 2)]));
        expect(u.rowCount).toBe(3);
        const d = await rolledBack(db, p, (tx) => tx.query('delete from public.quiz_questions where quiz_id = $1', [ids.quiz(1, 2)]));
        expect(d.rowCount).toBe(3);
      }
    });

    it('nobody else adds, changes or deletes questions', async () => {
      expect(await sqlState(() => queryAs(db, visitor, insertQuestion, [ids.quiz(1, 2)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, learner, insertQuestion, [ids.quiz(1, 2)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, otherInstructor, insertQuestion, [ids.quiz(1, 2)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, instructor, insertQuestion, [ids.quiz(4, 2)]))).toBe('42501');
      for (const p of [learner, otherInstructor]) {
        const u = await queryAs(db, p, 'update public.quiz_questions set points = 5');
        expect(u.rowCount).toBe(0);
        const d = await queryAs(db, p, 'delete from public.quiz_questions');
        expect(d.rowCount).toBe(0);
      }
    });
  });
});
