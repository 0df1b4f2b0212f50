// The SQL behind the learner's records (routes/users/enrollments.ts, routes/enrollments.ts,
// routes/certificates/, routes/profile.ts) under each persona's RLS: the one-query enrolment list
// with course, module count, modules done and certificate; unenrolling; the caller's certificates;
// the certificate PDF's reads; public verification; and the profile update.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOtherInstructor, backends, ids, personas, queryAs, rolledBack, sqlState, type TestDatabase } from './helpers/database';

const { admin, instructor, learner, otherInstructor } = personas;
const visitor = null;

// As in routes/users/enrollments.ts (GET /api/users/:userId/enrollments).
const enrolmentList = `
  select e.id, e.course_id, e.progress, e.completed,
         coalesce(ump.done, 0)::int as completed_modules,
         cert.id as certificate_id,
         co.title as course_title, coalesce(mc.modules, 0)::int as course_modules
  from public.enrollments e
  left join public.courses co on co.id = e.course_id
  left join lateral (select count(*) as modules from public.course_modules m where m.course_id = e.course_id) mc on true
  left join lateral (
    select count(*) filter (where p.completed) as done, max(p.read_at) as last_read, max(p.completed_at) as last_completed
    from public.user_module_progress p
    join public.course_modules m on m.id = p.module_id
    where p.user_id = e.user_id and m.course_id = e.course_id
  ) ump on true
  left join public.certificates cert on cert.user_id = e.user_id and cert.course_id = e.course_id
  where e.user_id = $1::uuid
  order by e.course_id`;

interface ListRow {
  id: string;
  course_id: string;
  progress: number;
  completed: boolean;
  completed_modules: number;
  certificate_id: string | null;
  course_title: string | null;
  course_modules: number;
}

describe.each(backends)('learner records on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('the enrolment list', () => {
    it("a learner lists their own enrolments with each course's module count, modules done and certificate", async () => {
      const r = await queryAs<ListRow>(db, learner, enrolmentList, [learner.id]);
      expect(r.rows).toEqual([
        { id: ids.enrollment(2), course_id: ids.course(1), progress: 50, completed: false, completed_modules: 2, certificate_id: null, course_title: 'JESIP Joint Doctrine: Working Together at Major Incidents', course_modules: 4 },
        expect.objectContaining({ id: ids.enrollment(3), course_id: ids.course(3), progress: 100, completed: true, completed_modules: 3, certificate_id: ids.certificate, course_modules: 3 }),
        expect.objectContaining({ id: ids.enrollment(1), course_id: ids.course(12), progress: 0, completed_modules: 0, certificate_id: null }),
      ]);
    });

    it("another instructor and a visitor see none of the learner's enrolments", async () => {
      expect((await queryAs(db, otherInstructor, enrolmentList, [learner.id])).rows).toEqual([]);
      expect((await queryAs(db, visitor, enrolmentList, [learner.id])).rows).toEqual([]);
    });

    it("the courses' instructor sees the learner's enrolments on their courses, with the progress counted", async () => {
      const r = await queryAs<ListRow>(db, instructor, enrolmentList, [learner.id]);
      expect(r.rows.map((e) => [e.course_id, e.completed_modules, e.certificate_id])).toEqual([
        [ids.course(1), 2, null],
        [ids.course(3), 3, ids.certificate],
        [ids.course(12), 0, null],
      ]);
    });

    it('an admin sees every enrolment of the learner', async () => {
      expect((await queryAs(db, admin, enrolmentList, [learner.id])).rows).toHaveLength(3);
    });

    it('a course the learner can no longer see leaves the enrolment with no course', async () => {
      const r = await rolledBack(db, learner, async (tx) => {
        await tx.query(`reset role`);
        await tx.query(`update public.courses set status = 'ARCHIVED' where id = $1`, [ids.course(3)]);
        await tx.query(`set local role authenticated`);
        return tx.query<ListRow>(enrolmentList, [learner.id]);
      });
      const archived = r.rows.find((e) => e.course_id === ids.course(3))!;
      expect(archived.course_title).toBeNull();
      expect(archived.course_modules).toBe(0);
      expect(archived.certificate_id).toBe(ids.certificate);
    });
  });

  describe('unenrolling', () => {
    const unenrol = 'delete from public.enrollments where id = $1 returning id';

    it('a learner removes their own enrolment', async () => {
      const r = await rolledBack(db, learner, (tx) => tx.query(unenrol, [ids.enrollment(1)]));
      expect(r.rows).toEqual([{ id: ids.enrollment(1) }]);
    });

    it("another instructor removes nothing of the learner's; a visitor may not delete at all", async () => {
      expect((await rolledBack(db, otherInstructor, (tx) => tx.query(unenrol, [ids.enrollment(1)]))).rows).toEqual([]);
      expect(await sqlState(() => queryAs(db, visitor, unenrol, [ids.enrollment(1)]))).toBe('42501');
      expect((await db.query('select id from public.enrollments where id = $1', [ids.enrollment(1)])).rows).toHaveLength(1);
    });

    it("unenrolling keeps the certificate of a completed course (its own record)", async () => {
      const r = await rolledBack(db, learner, async (tx) => {
        await tx.query(unenrol, [ids.enrollment(3)]);
        return tx.query('select id from public.certificates where id = $1', [ids.certificate]);
      });
      expect(r.rows).toHaveLength(1);
    });
  });

  describe('certificates', () => {
    const mine = `select id, verification_code, count(*) over ()::int as total from public.certificates
                  where user_id = $1::uuid order by issued_at desc, id limit 20 offset 0`;
    const pdfRead = `select c.id, c.learner_name, c.course_title, s.certificate_template, s.site_name, s.footer_text
                     from public.certificates c cross join public.settings s where c.id = $1`;

    it("the learner lists and reads their own certificate, with the settings' template", async () => {
      expect((await queryAs(db, learner, mine, [learner.id])).rows).toEqual([
        { id: ids.certificate, verification_code: 'DEMO2026CERT0001', total: 1 },
      ]);
      const r = await queryAs(db, learner, pdfRead, [ids.certificate]);
      expect(r.rows).toEqual([
        expect.objectContaining({ learner_name: 'Sam Patel', course_title: 'Airwave Radio Voice Procedure', certificate_template: 'standard' }),
      ]);
    });

    it("another instructor and a visitor read no one else's certificate", async () => {
      expect((await queryAs(db, otherInstructor, pdfRead, [ids.certificate])).rows).toEqual([]);
      expect((await queryAs(db, otherInstructor, mine, [learner.id])).rows).toEqual([]);
      expect((await queryAs(db, visitor, 'select id from public.certificates')).rows).toEqual([]);
    });

    it('anyone verifies a code, with the snapshot only', async () => {
      const r = await queryAs(db, visitor, 'select * from private.verify_certificate($1)', ['DEMO2026CERT0001']);
      // With its validity, never the revocation reason (certificate-validity.test.ts), and
      // the organisation at issue (certificate-organisation.test.ts).
      expect(Object.keys(r.rows[0]).sort()).toEqual([
        'course_title', 'course_title_cy', 'expires_at', 'issued_at', 'learner_name', 'organisation_name', 'revoked_at', 'service', 'state', 'template',
        'verification_code',
      ]);
      expect((await queryAs(db, visitor, 'select * from private.verify_certificate($1)', ['DEMO2026CERT0002'])).rows).toEqual([]);
    });
  });

  describe('the profile', () => {
    const rename = 'update public.profiles set name = $2 where id = $1 returning name';

    it('a learner renames themselves', async () => {
      const r = await rolledBack(db, learner, (tx) => tx.query(rename, [learner.id, 'Samira Patel']));
      expect(r.rows).toEqual([{ name: 'Samira Patel' }]);
    });

    it('a learner cannot rename anyone else, nor change their own role or username', async () => {
      expect((await rolledBack(db, learner, (tx) => tx.query(rename, [instructor.id, 'Not Jordan']))).rows).toEqual([]);
      expect(await sqlState(() => queryAs(db, learner, `update public.profiles set role = 'ADMIN' where id = $1`, [learner.id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, learner, `update public.profiles set username = 'sam2' where id = $1`, [learner.id]))).toBe('42501');
    });

    it("an email change in Auth is copied into the profile", async () => {
      const r = await rolledBack(db, null, async (tx) => {
        await tx.query('reset role');
        await tx.query(`update auth.users set email = 'sam.new@example.uk' where id = $1`, [learner.id]);
        return tx.query('select email from public.profiles where id = $1', [learner.id]);
      });
      expect(r.rows).toEqual([{ email: 'sam.new@example.uk' }]);
    });
  });

  describe('indexes for the filters', () => {
    it('enrolments and certificates are found by user through an index led by user_id', async () => {
      const r = await db.query<{ tablename: string; indexdef: string }>(
        `select tablename, indexdef from pg_indexes where schemaname = 'public' and tablename in ('enrollments', 'certificates')`,
      );
      for (const table of ['enrollments', 'certificates']) {
        expect(r.rows.some((i) => i.tablename === table && /\(user_id[,)]/.test(i.indexdef))).toBe(true);
      }
      expect(r.rows.some((i) => i.tablename === 'certificates' && /\(verification_code\)/.test(i.indexdef))).toBe(true);
    });
  });
});
