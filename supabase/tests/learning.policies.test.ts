// Row-level security on what learners do (enrollments, quiz_attempts, user_module_progress,
// certificates) and on profiles and settings (the roles' rights: docs/ACCESS-MATRIX.md), for every persona.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor,
  backends,
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

describe.each(backends)('learning records, profiles and settings on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
    // The other instructor is also a learner on one of the admin's courses.
    await db.query(`insert into public.enrollments (user_id, course_id, progress) values ($1, $2, 0)`, [otherInstructor.id, ids.course(4)]);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('enrollments', () => {
    const enrol = `insert into public.enrollments (user_id, course_id) values ($1, $2) returning status, progress`;

    it('a learner reads only their own enrolments', async () => {
      const r = await queryAs<{ id: string }>(db, learner, 'select id from public.enrollments order by id');
      expect(r.rows.map((e) => e.id)).toEqual([ids.enrollment(1), ids.enrollment(2), ids.enrollment(3)]);
    });

    it('a visitor reads and writes no enrolment', async () => {
      expect(await sqlState(() => queryAs(db, visitor, 'select id from public.enrollments'))).toBeNull();
      expect((await queryAs(db, visitor, 'select id from public.enrollments')).rows).toHaveLength(0);
      expect(await sqlState(() => queryAs(db, visitor, enrol, [learner.id, ids.course(2)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, 'delete from public.enrollments'))).toBe('42501');
    });

    it('an instructor reads the enrolments on their own courses only', async () => {
      const r = await queryAs<{ course_id: string }>(db, instructor, 'select course_id from public.enrollments');
      expect(r.rows.map((e) => e.course_id).sort()).toEqual([ids.course(1), ids.course(3), ids.course(12)].sort());
      const o = await queryAs<{ course_id: string }>(db, otherInstructor, 'select course_id from public.enrollments');
      expect(o.rows.map((e) => e.course_id)).toEqual([ids.course(4)]);
    });

    it('an admin reads every enrolment', async () => {
      const r = await queryAs(db, admin, 'select id from public.enrollments');
      expect(r.rows).toHaveLength(4);
    });

    it('a learner enrols themselves in a published course, ACTIVE at progress 0', async () => {
      const r = await rolledBack(db, learner, (tx) => tx.query(enrol, [learner.id, ids.course(2)]));
      expect(r.rows).toEqual([{ status: 'ACTIVE', progress: 0 }]);
    });

    it('under login-approval the enrolment starts PENDING whatever the learner sends', async () => {
      await withCourseAccess(db, 'login-approval', async () => {
        const r = await rolledBack(db, learner, (tx) =>
          tx.query(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'ACTIVE') returning status`, [learner.id, ids.course(2)]),
        );
        expect(r.rows).toEqual([{ status: 'PENDING' }]);
      });
    });

    it('a learner may not enrol at a progress above 0, or as completed', async () => {
      expect(
        await sqlState(() => queryAs(db, learner, 'insert into public.enrollments (user_id, course_id, progress) values ($1, $2, 100)', [learner.id, ids.course(2)])),
      ).toBe('42501');
      expect(
        await sqlState(() => queryAs(db, learner, 'insert into public.enrollments (user_id, course_id, completed) values ($1, $2, true)', [learner.id, ids.course(2)])),
      ).toBe('42501');
    });

    it('a learner may not enrol someone else, nor in a draft or archived course', async () => {
      expect(await sqlState(() => queryAs(db, learner, enrol, [otherInstructor.id, ids.course(2)]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, learner, enrol, [learner.id, ids.course(15)]))).toBe('42501');
      // An archived course takes no one new, whoever asks: its trigger refuses before the policy.
      expect(await sqlState(() => queryAs(db, learner, enrol, [learner.id, ids.course(17)]))).toBe('55000');
    });

    it('enrolling twice in the same course is refused (unique)', async () => {
      expect(await sqlState(() => queryAs(db, learner, enrol, [learner.id, ids.course(1)]))).toBe('23505');
    });

    it('a learner may not change their progress, completion or status', async () => {
      expect(await sqlState(() => queryAs(db, learner, 'update public.enrollments set progress = 100, completed = true where id = $1', [ids.enrollment(1)]))).toBe('42501');
      const s = await queryAs(db, learner, `update public.enrollments set status = 'ACTIVE' where id = $1`, [ids.enrollment(1)]);
      expect(s.rowCount).toBe(0);
    });

    it('the course author approves a pending enrolment; another instructor cannot', async () => {
      await db.query(`update public.enrollments set status = 'PENDING' where id = $1`, [ids.enrollment(1)]);
      try {
        const o = await queryAs(db, otherInstructor, `update public.enrollments set status = 'ACTIVE' where id = $1`, [ids.enrollment(1)]);
        expect(o.rowCount).toBe(0);
        const a = await rolledBack(db, instructor, (tx) => tx.query(`update public.enrollments set status = 'ACTIVE' where id = $1`, [ids.enrollment(1)]));
        expect(a.rowCount).toBe(1);
        const ad = await rolledBack(db, admin, (tx) => tx.query(`update public.enrollments set status = 'ACTIVE' where id = $1`, [ids.enrollment(1)]));
        expect(ad.rowCount).toBe(1);
        expect(await sqlState(() => queryAs(db, instructor, 'update public.enrollments set progress = 40 where id = $1', [ids.enrollment(1)]))).toBe('42501');
      } finally {
        await db.query(`update public.enrollments set status = 'ACTIVE' where id = $1`, [ids.enrollment(1)]);
      }
    });

    it('a learner unenrols themselves but removes nobody else', async () => {
      const own = await rolledBack(db, learner, (tx) => tx.query('delete from public.enrollments where id = $1', [ids.enrollment(1)]));
      expect(own.rowCount).toBe(1);
      const other = await queryAs(db, learner, 'delete from public.enrollments where user_id = $1', [otherInstructor.id]);
      expect(other.rowCount).toBe(0);
    });

    it('the course author and the admin remove learners; another instructor cannot', async () => {
      const o = await queryAs(db, otherInstructor, 'delete from public.enrollments where id = $1', [ids.enrollment(1)]);
      expect(o.rowCount).toBe(0);
      const a = await rolledBack(db, instructor, (tx) => tx.query('delete from public.enrollments where id = $1', [ids.enrollment(1)]));
      expect(a.rowCount).toBe(1);
      const d = await rolledBack(db, admin, (tx) => tx.query('delete from public.enrollments'));
      expect(d.rowCount).toBe(4);
    });
  });

  describe('quiz_attempts, user_module_progress and certificates are read-only records', () => {
    const tables = ['quiz_attempts', 'user_module_progress', 'certificates'] as const;

    it('a learner reads only their own', async () => {
      const a = await queryAs(db, learner, 'select id from public.quiz_attempts');
      expect(a.rows).toHaveLength(2);
      const p = await queryAs(db, learner, 'select module_id from public.user_module_progress');
      expect(p.rows).toHaveLength(5);
      const c = await queryAs<{ verification_code: string }>(db, learner, 'select verification_code from public.certificates');
      expect(c.rows).toEqual([{ verification_code: 'DEMO2026CERT0001' }]);
      // The other instructor, as a learner without records, sees none of the student's.
      for (const t of tables) {
        const r = await queryAs(db, otherInstructor, `select * from public.${t}`);
        expect(r.rows).toHaveLength(0);
      }
    });

    it('a visitor reads none', async () => {
      for (const t of tables) {
        const r = await queryAs(db, visitor, `select * from public.${t}`);
        expect(r.rows).toHaveLength(0);
      }
    });

    it('the author of the courses reads the records on them; an admin reads all', async () => {
      for (const p of [instructor, admin]) {
        expect((await queryAs(db, p, 'select id from public.quiz_attempts')).rows).toHaveLength(2);
        expect((await queryAs(db, p, 'select module_id from public.user_module_progress')).rows).toHaveLength(5);
        expect((await queryAs(db, p, 'select id from public.certificates')).rows).toHaveLength(1);
      }
    });

    it('nobody writes them through the API roles, not even an admin', async () => {
      for (const p of [visitor, learner, instructor, admin]) {
        expect(
          await sqlState(() =>
            queryAs(db, p, `insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed) values ($1, $2, 3, 3, true)`, [learner.id, ids.quiz(1, 2)]),
          ),
        ).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, 'update public.quiz_attempts set score = max_score, passed = true'))).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, 'delete from public.quiz_attempts'))).toBe('42501');
        expect(
          await sqlState(() =>
            queryAs(db, p, 'insert into public.user_module_progress (user_id, module_id, completed, completed_at) values ($1, $2, true, now())', [learner.id, ids.module(1, 3)]),
          ),
        ).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, 'update public.user_module_progress set completed = true, completed_at = now()'))).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, 'delete from public.user_module_progress'))).toBe('42501');
        expect(
          await sqlState(() =>
            queryAs(db, p, `insert into public.certificates (user_id, course_id, learner_name, course_title) values ($1, $2, 'Sam', 'Free certificate')`, [learner.id, ids.course(1)]),
          ),
        ).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, `update public.certificates set learner_name = 'Someone else'`))).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, 'delete from public.certificates'))).toBe('42501');
      }
    });

    it('no API role may truncate a table (row-level security does not cover truncate)', async () => {
      for (const p of [visitor, learner, admin]) {
        for (const t of ['courses', 'enrollments', 'certificates', 'profiles', 'settings']) {
          expect(await sqlState(() => queryAs(db, p, `truncate public.${t} cascade`))).toBe('42501');
        }
      }
    });
  });

  describe('profiles', () => {
    it('a user reads their own profile only; a visitor reads none', async () => {
      const r = await queryAs<{ id: string }>(db, learner, 'select id from public.profiles');
      expect(r.rows.map((p) => p.id)).toEqual([learner.id]);
      expect(await sqlState(() => queryAs(db, visitor, 'select id from public.profiles'))).toBeNull();
      expect((await queryAs(db, visitor, 'select id from public.profiles')).rows).toHaveLength(0);
    });

    it('an instructor reads their own and their learners\' profiles; an admin reads all', async () => {
      const r = await queryAs<{ id: string }>(db, instructor, 'select id from public.profiles');
      expect(r.rows.map((p) => p.id).sort()).toEqual([instructor.id, learner.id].sort());
      const o = await queryAs<{ id: string }>(db, otherInstructor, 'select id from public.profiles');
      expect(o.rows.map((p) => p.id)).toEqual([otherInstructor.id]);
      const a = await queryAs(db, admin, 'select id from public.profiles');
      expect(a.rows).toHaveLength(4);
    });

    it('a user changes their own name; their email only through Auth', async () => {
      const r = await rolledBack(db, learner, (tx) =>
        tx.query(`update public.profiles set name = 'Samira Patel' where id = $1 returning name`, [learner.id]),
      );
      expect(r.rows).toEqual([{ name: 'Samira Patel' }]);
      expect(await sqlState(() => rolledBack(db, learner, (tx) =>
        tx.query(`update public.profiles set email = 'samira@example.uk' where id = $1`, [learner.id])))).toBe('42501');
    });

    it('a user changes no one else\'s profile', async () => {
      const r = await queryAs(db, learner, `update public.profiles set name = 'Hacked' where id <> $1`, [learner.id]);
      expect(r.rowCount).toBe(0);
      const i = await queryAs(db, instructor, `update public.profiles set name = 'Hacked' where id = $1`, [learner.id]);
      expect(i.rowCount).toBe(0);
    });

    it('a non-admin may not change their own role, services or username (42501)', async () => {
      for (const [p, set] of [
        [learner, `role = 'ADMIN'`],
        [learner, `services = '{UKPS,UKAS,UKFRS,UKHW,AUX,MISC}'`],
        [learner, `username = 'boss'`],
        [instructor, `role = 'ADMIN'`],
        [instructor, `services = array_append(services, 'UKAS')`],
      ] as const) {
        expect(await sqlState(() => queryAs(db, p, `update public.profiles set ${set} where id = $1`, [p.id]))).toBe('42501');
      }
      const still = await db.query(`select role, array_to_string(services, ',') as services from public.profiles where id = $1`, [learner.id]);
      expect(still.rows).toEqual([{ role: 'STUDENT', services: 'MISC' }]);
    });

    it('a user may not change their id or timestamps, and no one inserts profiles directly', async () => {
      expect(await sqlState(() => queryAs(db, learner, `update public.profiles set created_at = now() where id = $1`, [learner.id]))).toBe('42501');
      expect(
        await sqlState(() =>
          queryAs(db, admin, `insert into public.profiles (id, username, name) values (gen_random_uuid(), 'ghost', 'Ghost')`),
        ),
      ).toBe('42501');
    });

    it('an admin changes anyone\'s role and services', async () => {
      const r = await rolledBack(db, admin, (tx) =>
        tx.query(`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS,MISC}' where id = $1 returning role`, [learner.id]),
      );
      expect(r.rows).toEqual([{ role: 'INSTRUCTOR' }]);
      const bulk = await rolledBack(db, admin, (tx) => tx.query(`update public.profiles set services = '{MISC}' where role = 'STUDENT'`));
      expect(bulk.rowCount).toBe(1);
    });

    it('only an admin deletes profiles', async () => {
      expect((await queryAs(db, learner, 'delete from public.profiles where id = $1', [learner.id])).rowCount).toBe(0);
      expect((await queryAs(db, instructor, 'delete from public.profiles where id = $1', [learner.id])).rowCount).toBe(0);
      const d = await rolledBack(db, admin, (tx) => tx.query('delete from public.profiles where id = $1', [learner.id]));
      expect(d.rowCount).toBe(1);
    });
  });

  describe('settings', () => {
    const readable = 'select site_name, course_access, certificate_template, footer_text, enable_analytics, auto_enrollment from public.settings';

    it('everyone reads the settings except the admin email', async () => {
      for (const p of [visitor, learner, instructor, admin]) {
        const r = await queryAs(db, p, readable);
        expect(r.rows).toEqual([
          {
            site_name: 'Emergency Services Learning v3',
            course_access: 'public-login',
            certificate_template: 'standard',
            footer_text: '© 2026 Emergency Services Learning. All rights reserved.',
            enable_analytics: true,
            auto_enrollment: false,
          },
        ]);
        expect(await sqlState(() => queryAs(db, p, 'select admin_email from public.settings'))).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, 'select * from public.settings'))).toBe('42501');
      }
    });

    it('only an admin reads the admin email, through private.admin_email()', async () => {
      const r = await queryAs(db, admin, 'select private.admin_email() as email');
      expect(r.rows).toEqual([{ email: 'admin@emergency-services-learning.uk' }]);
      expect(await sqlState(() => queryAs(db, learner, 'select private.admin_email()'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, instructor, 'select private.admin_email()'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, 'select private.admin_email()'))).toBe('42501');
    });

    it('an admin updates the settings', async () => {
      const r = await rolledBack(db, admin, (tx) =>
        tx.query(`update public.settings set site_name = 'Blue Light Academy', admin_email = 'ops@example.uk', enable_analytics = false`),
      );
      expect(r.rowCount).toBe(1);
    });

    it('nobody else updates, inserts or deletes settings', async () => {
      for (const p of [learner, instructor]) {
        expect((await queryAs(db, p, `update public.settings set site_name = 'Hacked'`)).rowCount).toBe(0);
      }
      expect(await sqlState(() => queryAs(db, visitor, `update public.settings set site_name = 'Hacked'`))).toBe('42501');
      for (const p of [visitor, learner, admin]) {
        expect(await sqlState(() => queryAs(db, p, 'insert into public.settings (id) values (true)'))).toBe('42501');
        expect(await sqlState(() => queryAs(db, p, 'delete from public.settings'))).toBe('42501');
      }
      const r = await db.query('select site_name from public.settings');
      expect(r.rows).toEqual([{ site_name: 'Emergency Services Learning v3' }]);
    });

    it('an admin may not set an invalid admin email', async () => {
      expect(await sqlState(() => queryAs(db, admin, `update public.settings set admin_email = 'not-an-email'`))).toBe('23514');
    });
  });
});
