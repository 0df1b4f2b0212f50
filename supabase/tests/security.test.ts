// Security audit: what a client that skips the api function and talks straight to the database API
// (anon key or a user's JWT, as role anon or authenticated with its own claims) can do. Every attack
// below is refused by grants, column privileges, row-level security or triggers alone, and the
// legitimate path next to it still works. The rules: supabase/schemas/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor, asUser, backends, createUser, ids, personas, queryAs, rolledBack, seedCourses, sqlState,
  withCourseAccess, type Persona, type TestDatabase,
} from './helpers/database';

const { admin, instructor, learner } = personas;
const visitor = null;
const otherLearner: Persona = { id: '00000000-0000-4000-a000-0000000000e1', email: 'other.learner@example.uk' };
const fireInstructor: Persona = { id: '00000000-0000-4000-a000-0000000000e2', email: 'fire.instructor@example.uk' };
const quizTaker: Persona = { id: '00000000-0000-4000-a000-0000000000e3', email: 'quiz.taker@example.uk' };
const newLearner: Persona = { id: '00000000-0000-4000-a000-0000000000e4', email: 'new.learner@example.uk' };

const publicTables = [
  'profiles', 'settings', 'courses', 'course_modules', 'quizzes', 'quiz_questions', 'enrollments',
  'quiz_attempts', 'user_module_progress', 'certificates', 'audit_events',
];

describe.each(backends)('security: direct database access on $name', ({ create }) => {
  let db: TestDatabase;
  let otherInstructor: Persona;
  let learnerEnrolment: string; // the learner's enrolment on course 1 (50% progress)

  beforeAll(async () => {
    db = await create();
    otherInstructor = await addOtherInstructor(db);
    await createUser(db, { id: otherLearner.id, email: otherLearner.email, username: 'other_learner', name: 'Orla Other' });
    await createUser(db, {
      id: fireInstructor.id, email: fireInstructor.email, username: 'fire_instructor', name: 'Fiona Fire',
      role: 'INSTRUCTOR', services: ['UKFRS'],
    });
    await createUser(db, { id: quizTaker.id, email: quizTaker.email, username: 'quiz_taker', name: 'Quinn Taker' });
    await createUser(db, { id: newLearner.id, email: newLearner.email, username: 'new_learner', name: 'Nia New' });
    await db.query('insert into public.enrollments (user_id, course_id) values ($1, $2), ($3, $4)',
      [otherLearner.id, ids.course(2), quizTaker.id, ids.course(1)]);
    learnerEnrolment = ids.enrollment(2);
  });
  afterAll(async () => {
    await db?.close();
  });

  const state = (persona: Persona | null, text: string, params: unknown[] = []) =>
    sqlState(() => rolledBack(db, persona, (tx) => tx.query(text, params)));
  const count = async (persona: Persona | null, text: string, params: unknown[] = []) =>
    (await rolledBack(db, persona, (tx) => tx.query(text, params))).rowCount;

  describe('visitors (anon key)', () => {
    it('write no public table and read no private record', async () => {
      for (const table of publicTables) {
        expect(await state(visitor, `insert into public.${table} default values`), `insert ${table}`).toBe('42501');
      }
      for (const table of ['profiles', 'enrollments', 'quiz_attempts', 'user_module_progress', 'certificates', 'quiz_questions']) {
        expect((await queryAs(db, visitor, `select * from public.${table}`)).rows.length, `select ${table}`).toBe(0);
      }
      expect(await state(visitor, 'select * from public.audit_events')).toBe('42501');
      expect(await state(visitor, `update public.profiles set name = 'x'`)).toBe('42501');
      expect(await count(visitor, 'delete from public.profiles')).toBe(0);
      expect(await state(visitor, `update public.courses set title = 'Defaced'`)).toBe('42501');
      // Legitimate: the catalogue is readable.
      expect((await queryAs(db, visitor, `select id from public.courses`)).rows.length).toBe(seedCourses.active.length);
    });

    it('see no course under login-browse and no draft ever', async () => {
      const drafts = await queryAs(db, visitor, `select id from public.courses where status <> 'ACTIVE'`);
      expect(drafts.rows.length).toBe(0);
      await withCourseAccess(db, 'login-browse', async () => {
        expect((await queryAs(db, visitor, 'select id from public.courses')).rows.length).toBe(0);
        expect((await queryAs(db, visitor, 'select id from public.course_modules')).rows.length).toBe(0);
      });
    });

    it('cannot resolve usernames to emails or test emails (no user enumeration)', async () => {
      for (const call of [
        `select private.login_email('student')`, `select private.email_taken('student@example.uk')`,
        `select private.username_taken('student')`, `select private.rate_limit_take('sign_in', 'student', '')`,
        `select private.rate_limit_succeeded(1)`, 'select private.admin_email()',
      ]) {
        expect(await state(visitor, call), call).toBe('42501');
        expect(await state(learner, call.replace('private.admin_email()', `private.login_email('admin')`)), call).toBe('42501');
      }
      // What visitors may call gives no email.
      expect((await queryAs(db, visitor, 'select private.contact_email() as e')).rows).toEqual([{ e: null }]);
      const authors = await queryAs(db, visitor, 'select * from private.course_authors($1)', [[ids.course(1)]]);
      expect(Object.keys(authors.rows[0]).sort()).toEqual(['author_id', 'course_id', 'name', 'username']);
    });

    it('read no admin email from settings, only the public columns', async () => {
      expect(await state(visitor, 'select admin_email from public.settings')).toBe('42501');
      expect(await state(visitor, 'select * from public.settings')).toBe('42501');
      expect((await queryAs(db, visitor, 'select site_name from public.settings')).rows.length).toBe(1);
    });
  });

  describe('learners: enrolments', () => {
    it('cannot set their own progress, completion, status or dates', async () => {
      for (const set of ['progress = 100', 'completed = true', 'completed_at = now()',
        'started_at = now()', 'last_accessed_module_id = null', 'user_id = user_id']) {
        expect(await state(learner, `update public.enrollments set ${set} where id = $1`, [learnerEnrolment]), set).toBe('42501');
      }
      // status is the one column API callers update (approval): the row policy leaves learners none.
      expect(await count(learner, `update public.enrollments set status = 'PENDING' where id = $1`, [learnerEnrolment])).toBe(0);
      const row = await db.query('select progress, completed from public.enrollments where id = $1', [learnerEnrolment]);
      expect(row.rows).toEqual([{ progress: 50, completed: false }]);
    });

    it('cannot approve their own pending enrolment', async () => {
      await withCourseAccess(db, 'login-approval', async () => {
        await asUser(db, newLearner, async (tx) => {
          const r = await tx.query<{ id: string; status: string }>(
            `insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'ACTIVE') returning id, status`,
            [newLearner.id, ids.course(2)]);
          expect(r.rows[0].status).toBe('PENDING');
          const u = await tx.query(`update public.enrollments set status = 'ACTIVE' where id = $1`, [r.rows[0].id]);
          expect(u.rows.length).toBe(0);
          const s = await tx.query(`select private.can_study_course($1) as ok`, [ids.course(2)]);
          expect(s.rows).toEqual([{ ok: false }]);
        });
      });
      // The enrolment stays pending; the course's instructor approves it.
      const [pending] = (await db.query<{ id: string; status: string }>(
        'select id, status from public.enrollments where user_id = $1 and course_id = $2', [newLearner.id, ids.course(2)])).rows;
      expect(pending.status).toBe('PENDING');
      expect(await state(newLearner, 'select private.approve_enrollment($1)', [pending.id])).toBe('42501');
      expect(await state(otherInstructor, 'select private.approve_enrollment($1)', [pending.id])).toBe('P0002');
      const approved = await queryAs<{ status: string }>(db, instructor, 'select status from private.approve_enrollment($1)', [pending.id]);
      expect(approved.rows).toEqual([{ status: 'ACTIVE' }]);
    });

    it('enrol only themselves, only in published courses, only at zero progress', async () => {
      const insert = 'insert into public.enrollments (user_id, course_id, progress, completed) values ($1, $2, $3, $4)';
      expect(await state(otherLearner, insert, [learner.id, ids.course(5), 0, false])).toBe('42501');
      expect(await state(otherLearner, insert, [otherLearner.id, ids.course(seedCourses.draftByInstructor), 0, false])).toBe('42501');
      // An archived course: refused with its reason (55000) before the policy is asked.
      expect(await state(otherLearner, insert, [otherLearner.id, ids.course(seedCourses.archivedByAdmin), 0, false])).toBe('55000');
      expect(await state(otherLearner, insert, [otherLearner.id, ids.course(5), 100, true])).toBe('42501');
      expect(await state(otherLearner, insert, [otherLearner.id, ids.course(5), 40, false])).toBe('42501');
      expect(await state(otherLearner, `insert into public.enrollments (user_id, course_id, completed_at)
        values ($1, $2, now())`, [otherLearner.id, ids.course(5)])).toBe('42501');
      // Legitimate: their own enrolment, ACTIVE under public-login, whatever status was sent.
      const ok = await rolledBack(db, otherLearner, (tx) =>
        tx.query(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'PENDING') returning status, progress`,
          [otherLearner.id, ids.course(5)]));
      expect(ok.rows).toEqual([{ status: 'ACTIVE', progress: 0 }]);
    });

    it('read and remove only their own enrolments', async () => {
      const mine = await queryAs<{ user_id: string }>(db, otherLearner, 'select user_id from public.enrollments');
      expect(mine.rows.map((r) => r.user_id)).toEqual([otherLearner.id]);
      expect(await count(otherLearner, 'delete from public.enrollments where user_id <> $1', [otherLearner.id])).toBe(0);
      expect(await count(otherLearner, 'delete from public.enrollments where user_id = $1', [otherLearner.id])).toBe(1);
    });
  });

  describe('learners: progress, attempts, quizzes, certificates', () => {
    it('cannot write module progress or quiz attempts', async () => {
      expect(await state(learner, 'update public.user_module_progress set completed = true, completed_at = now()')).toBe('42501');
      expect(await state(learner, `insert into public.user_module_progress (user_id, module_id, completed, completed_at, quiz_passed)
        values ($1, $2, true, now(), true)`, [learner.id, ids.module(1, 2)])).toBe('42501');
      expect(await state(learner, 'delete from public.user_module_progress')).toBe('42501');
      expect(await state(learner, 'update public.quiz_attempts set score = max_score, passed = true')).toBe('42501');
      expect(await state(learner, `insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed, completed_at)
        values ($1, $2, 3, 3, true, now())`, [learner.id, ids.quiz(1, 2)])).toBe('42501');
      expect(await state(learner, 'delete from public.quiz_attempts')).toBe('42501');
    });

    it('cannot read quiz questions or their answers, only the learner view', async () => {
      for (const persona of [visitor, learner, otherLearner, otherInstructor]) {
        expect((await queryAs(db, persona, 'select correct_answers, options from public.quiz_questions')).rows.length).toBe(0);
      }
      const view = await queryAs<Record<string, unknown>>(db, learner, 'select * from private.quiz_questions_for_learner($1)', [ids.quiz(1, 2)]);
      expect(view.rows.length).toBeGreaterThan(0);
      for (const row of view.rows) {
        expect(row).not.toHaveProperty('correct_answers');
        expect(JSON.stringify(row.options)).not.toContain('isCorrect');
      }
      // Someone not enrolled on a course that requires it gets nothing.
      expect(await state(otherLearner, 'select * from private.quiz_questions_for_learner($1)', [ids.quiz(1, 2)])).toBe('42501');
      // The author reads the answers.
      expect((await queryAs(db, instructor, 'select correct_answers from public.quiz_questions where quiz_id = $1', [ids.quiz(1, 2)])).rows.length).toBeGreaterThan(0);
    });

    it('read no one else\'s attempts, progress or certificates, nor review their attempts', async () => {
      const seeded = await db.query<{ id: string; user_id: string }>('select id, user_id from public.quiz_attempts');
      expect(seeded.rows.length).toBeGreaterThan(0);
      for (const table of ['quiz_attempts', 'user_module_progress', 'certificates']) {
        const r = await queryAs(db, otherLearner, `select * from public.${table} where user_id <> $1`, [otherLearner.id]);
        expect(r.rows.length, table).toBe(0);
        const o = await queryAs(db, otherInstructor, `select * from public.${table}`);
        expect(o.rows.length, `other instructor ${table}`).toBe(0);
      }
      expect(await state(otherLearner, 'select * from private.quiz_attempt_review($1)', [seeded.rows[0].id])).toBe('42501');
      // The learner reads their own.
      const own = await queryAs(db, learner, 'select id from public.quiz_attempts');
      expect(own.rows.length).toBe(seeded.rows.filter((r) => r.user_id === learner.id).length);
    });

    it('cannot issue, change or delete certificates', async () => {
      expect(await state(learner, `insert into public.certificates (user_id, course_id, learner_name, course_title)
        values ($1, $2, 'Sam', 'Anything')`, [learner.id, ids.course(1)])).toBe('42501');
      expect(await state(learner, `update public.certificates set course_title = 'Chief Constable'`)).toBe('42501');
      expect(await state(learner, 'delete from public.certificates')).toBe('42501');
      // Verification is public and gives only the snapshot.
      const [cert] = (await db.query<{ verification_code: string }>('select verification_code from public.certificates')).rows;
      const v = await queryAs<Record<string, unknown>>(db, visitor, 'select * from private.verify_certificate($1)', [cert.verification_code]);
      expect(v.rows.length).toBe(1);
      expect(v.rows[0]).not.toHaveProperty('user_id');
    });

    it('cannot run the internal writers of progress and certificates', async () => {
      for (const call of [
        `select private.issue_certificate('${learner.id}', '${ids.course(2)}')`,
        `select private.refresh_enrollment('${learner.id}', '${ids.course(1)}')`,
        `select private.settle_module('${learner.id}', '${ids.module(1, 2)}')`,
        `select private.write_audit('x', 'y', null, null, null, null)`,
      ]) {
        expect(await state(learner, call), call).toBe('42501');
        expect(await state(instructor, call), call).toBe('42501');
      }
    });

    it('cannot stretch a timed quiz by choosing the grace period (fixed)', async () => {
      const quiz = ids.quiz(1, 2);
      const answers = JSON.stringify({ [ids.question(1, 2, 1)]: [0] });
      await queryAs(db, quizTaker, 'select private.start_quiz_attempt($1)', [quiz]);
      // The quiz has a 10-minute limit: pretend it was opened 11 minutes ago.
      await db.query(`update public.quiz_attempts set started_at = now() - interval '11 minutes'
        where user_id = $1 and completed_at is null`, [quizTaker.id]);
      const late = `select * from private.finish_quiz_attempt($1, ($2::text)::jsonb, $3)`;
      expect(await state(quizTaker, late, [quiz, answers, 1_000_000_000])).toBe('22023');
      expect(await state(quizTaker, late, [quiz, answers, 3600])).toBe('22023');
      // Within the limit plus the normal grace it is scored.
      await db.query(`update public.quiz_attempts set started_at = now() - interval '10 minutes 10 seconds'
        where user_id = $1 and completed_at is null`, [quizTaker.id]);
      const scored = await queryAs<{ completed_at: unknown }>(db, quizTaker, late, [quiz, answers, 30]);
      expect(scored.rows[0].completed_at).not.toBeNull();
    });
  });

  describe('profiles', () => {
    it('a non-admin changes neither role, services nor username, of themselves or anyone', async () => {
      for (const persona of [learner, instructor]) {
        for (const set of [`role = 'ADMIN'`, `services = '{UKPS,UKAS,UKFRS,UKHW,AUX,MISC}'`, `username = 'root'`]) {
          expect(await state(persona, `update public.profiles set ${set} where id = $1`, [persona.id]), set).toBe('42501');
        }
        expect(await state(persona, 'update public.profiles set id = gen_random_uuid() where id = $1', [persona.id])).toBe('42501');
        expect(await state(persona, 'update public.profiles set created_at = now() where id = $1', [persona.id])).toBe('42501');
      }
      expect(await count(instructor, `update public.profiles set name = 'Hacked' where id = $1`, [otherLearner.id])).toBe(0);
      expect(await state(learner, `insert into public.profiles (id, username, name) values (gen_random_uuid(), 'ghost', 'Ghost')`)).toBe('42501');
      expect(await count(learner, 'delete from public.profiles where id = $1', [learner.id])).toBe(0);
      expect(await state(learner, `select private.set_role_services('STUDENT', '{UKPS}')`)).toBe('42501');
      expect(await state(instructor, `select private.delete_user($1)`, [learner.id])).toBe('42501');
      expect(await state(instructor, 'select * from private.role_service_matrix()')).toBe('42501');
      // The admin may.
      const r = await rolledBack(db, admin, (tx) => tx.query(`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS}' where id = $1 returning role`, [learner.id]));
      expect(r.rows).toEqual([{ role: 'INSTRUCTOR' }]);
    });

    it('a user cannot take another account\'s email for their profile (no API role writes it)', async () => {
      for (const taken of [instructor.email, 'ADMIN@example.uk', otherLearner.email, 'samira.new@example.uk']) {
        expect(await state(learner, 'update public.profiles set email = $1 where id = $2', [taken, learner.id]), taken).toBe('42501');
      }
      expect(await state(admin, `update public.profiles set email = 'sam.admin.set@example.uk' where id = $1`, [learner.id])).toBe('42501');
      // Their name is still theirs to change.
      const r = await rolledBack(db, learner, (tx) =>
        tx.query(`update public.profiles set name = 'Samira Patel' where id = $1 returning name`, [learner.id]));
      expect(r.rows).toEqual([{ name: 'Samira Patel' }]);
      // Auth's own email change still reaches the profile.
      await db.transaction(async (tx) => {
        await tx.query(`update auth.users set email = 'nia.changed@example.uk' where id = $1`, [newLearner.id]);
      });
      const p = await db.query('select email from public.profiles where id = $1', [newLearner.id]);
      expect(p.rows).toEqual([{ email: 'nia.changed@example.uk' }]);
    });

    it('read only their own profile (instructors: their learners\'; admins: all)', async () => {
      const own = await queryAs<{ id: string }>(db, otherLearner, 'select id from public.profiles');
      expect(own.rows.map((r) => r.id)).toEqual([otherLearner.id]);
      const fire = await queryAs<{ id: string }>(db, fireInstructor, 'select id from public.profiles');
      expect(fire.rows.map((r) => r.id)).toEqual([fireInstructor.id]);
    });
  });

  describe('settings and audit trail', () => {
    it('non-admins read no admin email and change no setting', async () => {
      for (const persona of [learner, instructor]) {
        expect(await state(persona, 'select admin_email from public.settings')).toBe('42501');
        expect(await state(persona, 'select private.admin_email()')).toBe('42501');
        expect(await count(persona, `update public.settings set course_access = 'public-enroll', auto_enrollment = true`)).toBe(0);
        expect(await state(persona, 'delete from public.settings')).toBe('42501');
        expect(await state(persona, 'insert into public.settings (id) values (false)')).toBe('42501');
      }
      const a = await queryAs<{ e: string }>(db, admin, 'select private.admin_email() as e');
      expect(a.rows[0].e).toMatch(/@/);
    });

    it('only admins read the audit trail and nobody writes it', async () => {
      for (const persona of [learner, instructor, otherInstructor]) {
        expect((await queryAs(db, persona, 'select * from public.audit_events')).rows.length).toBe(0);
      }
      for (const persona of [learner, admin]) {
        expect(await state(persona, `insert into public.audit_events (action, target_type) values ('x', 'y')`)).toBe('42501');
        expect(await state(persona, 'update public.audit_events set action = $1', ['x'])).toBe('42501');
        expect(await state(persona, 'delete from public.audit_events')).toBe('42501');
      }
      expect((await queryAs(db, admin, 'select id from public.audit_events')).rows.length).toBeGreaterThan(0);
    });
  });

  describe('instructors: courses and their content', () => {
    const newCourse = `insert into public.courses (title, description, service, author_id, status)
      values ('Hose reels', 'Working with hose reels safely', $1, $2, 'DRAFT') returning id`;

    it('create courses only as themselves and only in their services', async () => {
      expect(await state(fireInstructor, newCourse, ['UKPS', fireInstructor.id])).toBe('42501');
      expect(await state(fireInstructor, newCourse, ['UKFRS', instructor.id])).toBe('42501');
      expect(await state(learner, newCourse, ['MISC', learner.id])).toBe('42501');
      expect((await rolledBack(db, fireInstructor, (tx) => tx.query(newCourse, ['UKFRS', fireInstructor.id]))).rows.length).toBe(1);
    });

    it('cannot forge ids or timestamps to jump the catalogue order (fixed)', async () => {
      const forged = `insert into public.courses (title, description, service, author_id, created_at)
        values ('Top of the list', 'Always listed first, forever', 'UKFRS', $1, '2999-01-01')`;
      expect(await state(fireInstructor, forged, [fireInstructor.id])).toBe('42501');
      expect(await state(instructor, `update public.courses set created_at = '2999-01-01' where id = $1`, [ids.course(1)])).toBe('42501');
      expect(await state(instructor, `update public.courses set id = gen_random_uuid() where id = $1`, [ids.course(1)])).toBe('42501');
      expect(await state(instructor, `update public.course_modules set created_at = '2999-01-01' where id = $1`, [ids.module(1, 1)])).toBe('42501');
      expect(await state(instructor, `update public.quizzes set created_at = now() where id = $1`, [ids.quiz(1, 2)])).toBe('42501');
      expect(await state(instructor, `update public.quiz_questions set id = gen_random_uuid() where quiz_id = $1`, [ids.quiz(1, 2)])).toBe('42501');
      // Legitimate edits of their own content still work.
      for (const [sql, id] of [
        [`update public.courses set title = 'JESIP renamed', featured = true, status = 'ACTIVE' where id = $1`, ids.course(1)],
        [`update public.course_modules set title = 'Renamed module', content = 'New' where id = $1`, ids.module(1, 1)],
        [`update public.quizzes set passing_score = 80, time_limit = 5 where id = $1`, ids.quiz(1, 2)],
        [`update public.quiz_questions set points = 2, explanation = 'Because' where quiz_id = $1`, ids.quiz(1, 2)],
      ] as const) {
        expect(await count(instructor, sql, [id]), sql).toBeGreaterThan(0);
      }
    });

    it('cannot edit, delete, hand over or move another author\'s course', async () => {
      expect(await count(otherInstructor, `update public.courses set title = 'Mine now' where id = $1`, [ids.course(1)])).toBe(0);
      expect(await count(otherInstructor, 'delete from public.courses where id = $1', [ids.course(1)])).toBe(0);
      expect(await count(instructor, `update public.courses set title = 'Mine now' where id = $1`, [ids.course(4)])).toBe(0);
      expect(await count(otherInstructor, `update public.courses set author_id = $1 where id = $2`, [otherInstructor.id, ids.course(1)])).toBe(0);
      // Their own course: not to another author, not into a service they do not hold.
      expect(await state(instructor, 'update public.courses set author_id = $1 where id = $2', [otherInstructor.id, ids.course(1)])).toBe('42501');
      expect(await state(instructor, 'update public.courses set author_id = null where id = $1', [ids.course(1)])).toBe('42501');
      expect(await state(instructor, `update public.courses set service = 'UKFRS' where id = $1`, [ids.course(1)])).toBe('42501');
      // Drafts of others stay invisible.
      expect((await queryAs(db, otherInstructor, 'select id from public.courses where id = $1', [ids.course(seedCourses.draftByInstructor)])).rows.length).toBe(0);
      // An admin may move any course.
      expect(await count(admin, `update public.courses set service = 'UKFRS', author_id = $1 where id = $2`, [fireInstructor.id, ids.course(1)])).toBe(1);
    });

    it('cannot write modules, quizzes or questions of another author\'s course', async () => {
      expect(await state(otherInstructor, `insert into public.course_modules (course_id, title) values ($1, 'Injected')`, [ids.course(1)])).toBe('42501');
      expect(await count(otherInstructor, `update public.course_modules set content = 'x' where course_id = $1`, [ids.course(1)])).toBe(0);
      expect(await count(otherInstructor, 'delete from public.course_modules where course_id = $1', [ids.course(1)])).toBe(0);
      expect(await state(otherInstructor, `insert into public.quizzes (module_id, title) values ($1, 'Injected quiz')`, [ids.module(1, 1)])).toBe('42501');
      expect(await count(otherInstructor, 'update public.quizzes set passing_score = 1 where id = $1', [ids.quiz(1, 2)])).toBe(0);
      expect(await state(otherInstructor, `insert into public.quiz_questions (quiz_id, question_text, options, correct_answers)
        values ($1, 'Injected question?', '[{"text":"a","isCorrect":true},{"text":"b","isCorrect":false}]', '[0]')`, [ids.quiz(1, 2)])).toBe('42501');
      expect(await count(otherInstructor, `update public.quiz_questions set correct_answers = '[0]' where quiz_id = $1`, [ids.quiz(1, 2)])).toBe(0);
      // Moving their own content under someone else's course is refused too.
      expect(await state(instructor, 'update public.course_modules set course_id = $1 where id = $2', [ids.course(4), ids.module(1, 1)])).toBe('42501');
      expect(await state(instructor, `select private.reorder_modules($1, array(select id from public.course_modules where course_id = $1 order by order_index desc))`, [ids.course(4)])).toBe('42501');
      // Learners write no content at all.
      expect(await state(learner, `insert into public.course_modules (course_id, title) values ($1, 'Injected')`, [ids.course(1)])).toBe('42501');
    });

    it('approve or read only enrolments of their own courses', async () => {
      expect(await count(otherInstructor, `update public.enrollments set status = 'ACTIVE'`)).toBe(0);
      expect(await count(otherInstructor, 'delete from public.enrollments')).toBe(0);
      expect((await queryAs(db, otherInstructor, 'select * from public.enrollments')).rows.length).toBe(0);
      expect(await state(otherInstructor, 'select private.instructor_stats()')).toBeNull();
      const s = await queryAs<{ total_students: number }>(db, otherInstructor, 'select * from private.instructor_stats()');
      expect(s.rows[0].total_students).toBe(0);
      expect(await state(learner, 'select private.instructor_stats()')).toBe('42501');
      const mine = await queryAs(db, instructor, 'select id from public.enrollments where course_id = $1', [ids.course(2)]);
      expect(mine.rows.length).toBeGreaterThan(0);
    });
  });

  describe('functions and storage', () => {
    it('every security definer function pins its search_path and nothing in public is executable', async () => {
      const unpinned = await db.query<{ fn: string }>(`
        select p.oid::regprocedure::text as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private') and (p.proconfig is null
          or not exists (select 1 from unnest(p.proconfig) c where c like 'search_path=%'))`);
      expect(unpinned.rows).toEqual([]);
      const publicFns = await db.query<{ fn: string }>(`
        select p.oid::regprocedure::text as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public'
          and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute'))`);
      expect(publicFns.rows).toEqual([]);
    });

    it('anon reaches only the harmless private functions', async () => {
      const callable = await db.query<{ fn: string }>(`
        select p.proname::text as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'private' and has_function_privilege('anon', p.oid, 'execute') order by 1`);
      expect(callable.rows.map((r) => r.fn)).toEqual([
        'can_study_course', 'can_view_course', 'contact_email', 'course_access', 'course_authors',
        // course_module_bodies: module_body for a whole course, the same gate (module-content.test.ts).
        'course_module_bodies',
        // course_search_ids: ids of matching courses the caller can see (the catalogue search).
        'course_search_ids',
        // course_summaries: module counts and authors of visible courses (course-summaries.test.ts).
        'course_summaries',
        // module_body: gated by the caller's right to read the module (module-content.test.ts).
        'current_role', 'current_services', 'is_admin',
        // Open Badges: an issuer's name and public keys (never the secret), a credential its holder
        // shares, given its share id, and a status list's revoked entries (credentials.test.ts).
        'issuer_profile', 'issuer_public_keys', 'module_body',
        // organisation_sign_in_for: how a work address signs in, for the sign-in page (organisation-sign-in.test.ts).
        'organisation_sign_in_for',
        // The SCIM functions: the API calls them as anon, and each checks the organisation's SCIM
        // token it is given before anything else (scim-provisioning.test.ts).
        'scim_create_group', 'scim_create_user', 'scim_delete_group', 'scim_delete_user', 'scim_get_group', 'scim_get_user',
        'scim_list_groups', 'scim_list_users', 'scim_patch_group', 'scim_patch_user', 'scim_replace_user',
        'shared_credential', 'status_list_revoked', 'verify_certificate',
        // visible_course_count: how many courses the caller can see (read-path-totals.test.ts).
        'visible_course_count',
      ]);
    });

    it('users write no storage object or bucket, and cannot truncate them (fixed)', async () => {
      for (const persona of [visitor, learner, instructor, admin]) {
        expect(await state(persona, `insert into storage.objects (bucket_id, name) values ('course-covers', 'x.png')`)).toBe('42501');
        expect(await state(persona, `insert into storage.buckets (id, name, public) values ('loot', 'loot', true)`)).toBe('42501');
        expect(await count(persona, `update storage.buckets set public = true, allowed_mime_types = null`)).toBe(0);
        expect(await count(persona, 'delete from storage.objects')).toBe(0);
        expect(await state(persona, 'truncate storage.objects')).toBe('42501');
        expect(await state(persona, 'truncate storage.buckets cascade')).toBe('42501');
      }
      for (const table of ['courses', 'enrollments', 'profiles', 'certificates']) {
        expect(await state(admin, `truncate public.${table} cascade`), table).toBe('42501');
      }
    });
  });
});
