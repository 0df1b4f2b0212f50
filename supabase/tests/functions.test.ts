// The security-definer functions: the only writers of progress, attempts and certificates, the
// quiz served without answers, certificate verification, and the sign-in helpers the api function
// relies on (service role only). Also the storage buckets and their policies.
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
  type TestDatabase,
} from './helpers/database';

const { admin, instructor, learner, otherInstructor } = personas;
const visitor = null;
const newbie = { id: '00000000-0000-4000-a000-0000000000c1', email: 'newbie@example.uk' };

async function asService<T>(db: TestDatabase, text: string, params: unknown[] = []) {
  return db.transaction(async (tx) => {
    await tx.query('set local role service_role');
    return tx.query<T>(text, params);
  });
}

describe.each(backends)('functions on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
    await createUser(db, { id: newbie.id, email: newbie.email, username: 'newbie', name: 'Nia Newbie' });
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('quiz questions for learners', () => {
    it('serves an enrolled learner the questions without any answer', async () => {
      const r = await queryAs<{ options: { text: string }[] }>(db, learner, 'select * from private.quiz_questions_for_learner($1)', [ids.quiz(1, 2)]);
      expect(r.rows).toHaveLength(3);
      for (const q of r.rows) {
        expect(Object.keys(q).sort()).toEqual(['id', 'multiple_answers', 'options', 'options_cy', 'order_index', 'points', 'question_text', 'question_text_cy', 'question_type']);
        for (const o of q.options) expect(Object.keys(o)).toEqual(['text']);
      }
      expect(JSON.stringify(r.rows)).not.toContain('isCorrect');
    });

    it('refuses a visitor, a learner not enrolled, and a learner whose enrolment is pending', async () => {
      expect(await sqlState(() => queryAs(db, visitor, 'select * from private.quiz_questions_for_learner($1)', [ids.quiz(1, 2)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, newbie, 'select * from private.quiz_questions_for_learner($1)', [ids.quiz(1, 2)]))).toBe('42501');
      await db.query(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'PENDING')`, [newbie.id, ids.course(1)]);
      try {
        expect(await sqlState(() => queryAs(db, newbie, 'select * from private.quiz_questions_for_learner($1)', [ids.quiz(1, 2)]))).toBe('42501');
      } finally {
        await db.query('delete from public.enrollments where user_id = $1', [newbie.id]);
      }
    });

    it('serves the author and the admin, and anyone signed in when enrolment is not required', async () => {
      expect((await queryAs(db, instructor, 'select id from private.quiz_questions_for_learner($1)', [ids.quiz(1, 2)])).rows).toHaveLength(3);
      expect((await queryAs(db, admin, 'select id from private.quiz_questions_for_learner($1)', [ids.quiz(1, 2)])).rows).toHaveLength(3);
      await db.query('update public.courses set requires_enrollment = false where id = $1', [ids.course(1)]);
      try {
        expect((await queryAs(db, newbie, 'select id from private.quiz_questions_for_learner($1)', [ids.quiz(1, 2)])).rows).toHaveLength(3);
      } finally {
        await db.query('update public.courses set requires_enrollment = true where id = $1', [ids.course(1)]);
      }
    });

    it('refuses everyone but author and admin on a draft course', async () => {
      await db.query(`update public.courses set status = 'DRAFT' where id = $1`, [ids.course(1)]);
      try {
        expect(await sqlState(() => queryAs(db, learner, 'select * from private.quiz_questions_for_learner($1)', [ids.quiz(1, 2)]))).toBe('42501');
        expect((await queryAs(db, instructor, 'select id from private.quiz_questions_for_learner($1)', [ids.quiz(1, 2)])).rows).toHaveLength(3);
      } finally {
        await db.query(`update public.courses set status = 'ACTIVE' where id = $1`, [ids.course(1)]);
      }
    });
  });

  describe('progress through a course with modules', () => {
    // Safeguarding (course 12): 4 modules, quiz on module 3; the learner is enrolled at 0 %.
    const all = (m: number) => ids.module(12, m);
    const enrolment = () =>
      db.query<{ progress: number; completed: boolean; last_accessed_module_id: string | null }>(
        'select progress, completed, last_accessed_module_id from public.enrollments where id = $1',
        [ids.enrollment(1)],
      );

    it('reading a module without a quiz completes it: 1 of 4 is 25 %', async () => {
      const r = await queryAs<{ progress: number }>(db, learner, 'select progress from private.mark_module_read($1)', [all(1)]);
      expect(r.rows).toEqual([{ progress: 25 }]);
      expect((await enrolment()).rows[0]).toMatchObject({ progress: 25, completed: false, last_accessed_module_id: all(1) });
    });

    it('reading a module with a quiz does not complete it until the quiz is passed', async () => {
      await queryAs(db, learner, 'select private.mark_module_read($1)', [all(2)]);
      await queryAs(db, learner, 'select private.mark_module_read($1)', [all(3)]);
      expect((await enrolment()).rows[0].progress).toBe(50);
    });

    it('a failed quiz is recorded and does not count; a passed one completes the module', async () => {
      const quiz = ids.quiz(12, 3);
      const q = (n: number) => ids.question(12, 3, n);
      // Answers go through the timer: open the attempt, then finish it.
      expect(await sqlState(() => queryAs(db, learner, `select private.submit_quiz_attempt($1, '{}')`, [quiz]))).toBe('42501');
      await queryAs(db, learner, 'select private.start_quiz_attempt($1)', [quiz]);
      const failed = await queryAs<{ score: number; max_score: number; passed: boolean }>(
        db, learner, 'select score, max_score, passed from private.finish_quiz_attempt($1, $2::text::jsonb)',
        [quiz, JSON.stringify({ [q(1)]: [0], [q(2)]: [1], [q(3)]: [0] })],
      );
      expect(failed.rows).toEqual([{ score: 1, max_score: 3, passed: false }]);
      expect((await enrolment()).rows[0].progress).toBe(50);
      await queryAs(db, learner, 'select private.start_quiz_attempt($1)', [quiz]);
      const passed = await queryAs<{ id: string; score: number; passed: boolean }>(
        db, learner, 'select id, score, passed from private.finish_quiz_attempt($1, $2::text::jsonb)',
        [quiz, JSON.stringify({ [q(1)]: [2], [q(2)]: 0, [q(3)]: [0] })],
      );
      expect(passed.rows[0]).toMatchObject({ score: 3, passed: true });
      expect((await enrolment()).rows[0].progress).toBe(75);
      const review = await queryAs<{ correct_answers: number[] }>(db, learner, 'select correct_answers from private.quiz_attempt_review($1)', [passed.rows[0].id]);
      expect(review.rows.map((r) => r.correct_answers)).toEqual([[2], [0], [0]]);
      expect(await sqlState(() => queryAs(db, newbie, 'select * from private.quiz_attempt_review($1)', [passed.rows[0].id]))).toBe('42501');
    });

    it('the last module completes the enrolment and issues the certificate with a snapshot', async () => {
      const r = await queryAs<{ progress: number; completed: boolean }>(db, learner, 'select progress, completed from private.mark_module_read($1)', [all(4)]);
      expect(r.rows).toEqual([{ progress: 100, completed: true }]);
      const cert = await queryAs<{ learner_name: string; course_title: string; verification_code: string }>(
        db, learner, 'select learner_name, course_title, verification_code from public.certificates where course_id = $1', [ids.course(12)],
      );
      expect(cert.rows).toHaveLength(1);
      expect(cert.rows[0]).toMatchObject({ learner_name: 'Sam Patel', course_title: 'Safeguarding Children and Adults at Risk' });
      expect(cert.rows[0].verification_code).toMatch(/^[0-9A-F]{16}$/);
      const v = await queryAs(db, visitor, 'select course_title from private.verify_certificate($1)', [cert.rows[0].verification_code.toLowerCase()]);
      expect(v.rows).toEqual([{ course_title: 'Safeguarding Children and Adults at Risk' }]);
      expect((await queryAs(db, visitor, 'select * from private.verify_certificate($1)', ['NOSUCHCODE'])).rows).toHaveLength(0);
    });

    it('a learner not enrolled may not study a module of a course requiring enrolment', async () => {
      expect(await sqlState(() => queryAs(db, newbie, 'select private.mark_module_read($1)', [ids.module(1, 1)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, 'select private.mark_module_read($1)', [ids.module(1, 1)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, newbie, 'select private.open_module($1)', [ids.module(1, 1)]))).toBe('42501');
    });

    it('opening a module remembers it', async () => {
      await queryAs(db, learner, 'select private.open_module($1)', [ids.module(1, 4)]);
      const r = await db.query('select last_accessed_module_id from public.enrollments where id = $1', [ids.enrollment(2)]);
      expect(r.rows).toEqual([{ last_accessed_module_id: ids.module(1, 4) }]);
    });
  });

  describe('progress through a course without modules', () => {
    it('steps 0 -> 20 -> ... -> 100, then completes and certifies', async () => {
      const e = await queryAs<{ id: string }>(db, newbie, 'insert into public.enrollments (user_id, course_id) values ($1, $2) returning id', [
        newbie.id,
        ids.course(14),
      ]);
      const id = e.rows[0].id;
      const seen: number[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await queryAs<{ progress: number }>(db, newbie, 'select progress from private.step_course_progress($1)', [id]);
        seen.push(r.rows[0].progress);
      }
      expect(seen).toEqual([20, 40, 60, 80, 100, 100]);
      const c = await queryAs(db, newbie, 'select course_title from public.certificates');
      expect(c.rows).toEqual([{ course_title: 'Data Protection and UK GDPR Essentials' }]);
    });

    it('refuses someone else\'s enrolment, a pending one, and a course with modules', async () => {
      expect(await sqlState(() => queryAs(db, newbie, 'select private.step_course_progress($1)', [ids.enrollment(2)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, learner, 'select private.step_course_progress($1)', [ids.enrollment(2)]))).toBe('22023');
      await withCourseAccess(db, 'login-approval', async () => {
        const e = await queryAs<{ id: string; status: string }>(db, otherInstructor,
          'insert into public.enrollments (user_id, course_id) values ($1, $2) returning id, status', [otherInstructor.id, ids.course(14)]);
        expect(e.rows[0].status).toBe('PENDING');
        expect(await sqlState(() => queryAs(db, otherInstructor, 'select private.step_course_progress($1)', [e.rows[0].id]))).toBe('42501');
      });
    });

    it('visitors cannot call the learner functions at all', async () => {
      expect(await sqlState(() => queryAs(db, visitor, 'select private.step_course_progress($1)', [ids.enrollment(1)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, `select private.submit_quiz_attempt($1, '{}')`, [ids.quiz(1, 2)]))).toBe('42501');
    });
  });

  describe('sign-in helpers (service role only)', () => {
    it('resolves a username (any case) or an email to the sign-in email', async () => {
      const r = await asService<{ a: string; b: string; c: string | null }>(
        db,
        `select private.login_email('STUDENT') as a, private.login_email('Student@Example.uk') as b, private.login_email('nobody') as c`,
      );
      expect(r.rows).toEqual([{ a: 'student@example.uk', b: 'student@example.uk', c: null }]);
    });

    it('tells whether a username or email is taken, ignoring case', async () => {
      const r = await asService(
        db,
        `select private.username_taken('Admin') as a, private.username_taken('free_name') as b,
                private.email_taken('ADMIN@example.uk') as c, private.email_taken('free@example.uk') as d`,
      );
      expect(r.rows).toEqual([{ a: true, b: false, c: true, d: false }]);
    });

    // The sign-in and registration limits: supabase/tests/rate-limits.test.ts.

    it('is not callable by visitors or users, and the attempts table is not readable', async () => {
      for (const p of [visitor, learner, admin]) {
        expect(await sqlState(() => queryAs(db, p, `select private.login_email('admin')`))).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, `select private.username_taken('admin')`))).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, `select private.email_taken('admin@example.uk')`))).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, `select private.rate_limit_take('sign_in', 'admin', '')`))).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, `select private.rate_limit_succeeded(1)`))).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, 'select * from private.rate_limit_attempts'))).toBe('42501');
      }
    });
  });

  describe('storage', () => {
    it('has the two public image buckets, 5 MiB, images only, the public SCORM bucket (any file) and the private evidence bucket', async () => {
      const r = await db.query(
        `select id, public, file_size_limit::int as limit, array_to_string(allowed_mime_types, ',') as types from storage.buckets order by id`,
      );
      expect(r.rows).toEqual([
        { id: 'assessment-evidence', public: false, limit: 10485760, types: 'image/jpeg,image/png,application/pdf' },
        { id: 'course-covers', public: true, limit: 5242880, types: 'image/png,image/jpeg,image/gif,image/webp' },
        { id: 'module-images', public: true, limit: 5242880, types: 'image/png,image/jpeg,image/gif,image/webp' },
        { id: 'scorm-content', public: true, limit: null, types: null },
      ]);
    });

    it('lets only administrators list objects, and of those buckets only (public files are served by URL)', async () => {
      await db.query(`insert into storage.buckets (id, name, public) values ('private-docs', 'private-docs', false)`);
      await db.query(
        `insert into storage.objects (bucket_id, name) values ('course-covers', 'a.png'), ('module-images', 'b.webp'), ('private-docs', 'secret.pdf')`,
      );
      for (const p of [visitor, learner, instructor]) {
        const r = await queryAs<{ name: string }>(db, p, 'select name from storage.objects order by name');
        expect(r.rows.map((o) => o.name)).toEqual([]);
      }
      const a = await queryAs<{ name: string }>(db, admin, 'select name from storage.objects order by name');
      expect(a.rows.map((o) => o.name)).toEqual(['a.png', 'b.webp']);
    });

    it('lets no API role write objects', async () => {
      for (const p of [visitor, learner, instructor, admin]) {
        expect(
          await sqlState(() => queryAs(db, p, `insert into storage.objects (bucket_id, name) values ('course-covers', 'upload.png')`)),
        ).toBe('42501');
        expect((await queryAs(db, p, `update storage.objects set name = 'renamed.png'`)).rowCount).toBe(0);
        expect((await queryAs(db, p, 'delete from storage.objects')).rowCount).toBe(0);
      }
    });
  });

  describe('course authors', () => {
    it('gives name and username (no email) of authors of visible courses only', async () => {
      const q = `select course_id, username, name from private.course_authors(array[$1, $2, $3]::uuid[]) order by course_id`;
      const params = [ids.course(1), ids.course(4), ids.course(15)];
      const v = await queryAs(db, visitor, q, params);
      expect(v.rows).toEqual([
        { course_id: ids.course(1), username: 'instructor', name: 'Jordan Hughes' },
        { course_id: ids.course(4), username: 'admin', name: 'Alex Morgan' },
      ]);
      const i = await queryAs(db, instructor, q, params);
      expect(i.rows).toHaveLength(3);
      await withCourseAccess(db, 'login-browse', async () => {
        expect((await queryAs(db, visitor, q, params)).rows).toHaveLength(0);
      });
    });
  });

  it('asUser sets the claims exactly as the function will', async () => {
    const r = await asUser(db, learner, (tx) => tx.query<{ uid: string; role: string; who: string }>('select auth.uid() as uid, auth.role() as role, current_user as who'));
    expect(r.rows).toEqual([{ uid: learner.id, role: 'authenticated', who: 'authenticated' }]);
    const v = await rolledBack(db, visitor, (tx) => tx.query('select auth.uid() as uid, current_user as who'));
    expect(v.rows).toEqual([{ uid: null, who: 'anon' }]);
  });
});
