// Per-course approval (private.prepare_enrollment, supabase/schemas/04_enrolment_and_progress.sql): courses.requires_approval
// overrides the site-wide course access either way, and the before-insert trigger on enrollments
// enforces it for a learner who inserts straight through the database API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends,
  createUser,
  ids,
  personas,
  queryAs,
  rolledBack,
  withCourseAccess,
  type Persona,
  type TestDatabase,
} from './helpers/database';

const { admin, instructor, learner, otherInstructor } = personas;

describe.each(backends)('per-course approval on $name', ({ create }) => {
  let db: TestDatabase;
  const newcomer: Persona = { id: '00000000-0000-4000-a000-0000000000c1', email: 'approval-newcomer@example.uk' };
  const course = ids.course(2);

  beforeAll(async () => {
    db = await create();
    await createUser(db, { id: newcomer.id, email: newcomer.email, username: 'approvalnewcomer', name: 'Ada Approval' });
  });
  afterAll(async () => {
    await db?.close();
  });

  /** The status a direct insert by `who` gets with the course's setting and the site rule given. */
  async function enrolStatus(who: Persona, setting: boolean | null, access: string): Promise<string> {
    return withCourseAccess(db, access, async () => {
      await db.query('update public.courses set requires_approval = $2 where id = $1', [course, setting]);
      try {
        return await rolledBack(db, who, async (tx) => {
          const r = await tx.query<{ status: string }>(
            `insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'ACTIVE') returning status`,
            [who.id, course]);
          return r.rows[0].status;
        });
      } finally {
        await db.query('update public.courses set requires_approval = null where id = $1', [course]);
      }
    });
  }

  it('a course that requires approval makes a direct enrolment pending under a site rule without approval', async () => {
    expect(await enrolStatus(newcomer, true, 'public-login')).toBe('PENDING');
    expect(await enrolStatus(newcomer, true, 'public-enroll')).toBe('PENDING');
  });

  it('a course that waives approval enrols at once under the site-wide login-approval', async () => {
    expect(await enrolStatus(newcomer, false, 'login-approval')).toBe('ACTIVE');
  });

  it('a course without its own setting follows the site rule', async () => {
    expect(await enrolStatus(newcomer, null, 'login-approval')).toBe('PENDING');
    expect(await enrolStatus(newcomer, null, 'public-login')).toBe('ACTIVE');
  });

  it('an admin enrols without approval even where the course requires it', async () => {
    expect(await enrolStatus(admin, true, 'public-login')).toBe('ACTIVE');
  });

  it('the author and admins set the course setting; learners and other instructors cannot', async () => {
    const set = 'update public.courses set requires_approval = true where id = $1 returning requires_approval';
    expect((await rolledBack(db, instructor, (tx) => tx.query(set, [course]))).rows).toEqual([{ requires_approval: true }]);
    expect((await rolledBack(db, admin, (tx) => tx.query(set, [course]))).rows).toEqual([{ requires_approval: true }]);
    expect((await rolledBack(db, learner, (tx) => tx.query(set, [course]))).rows).toEqual([]);
    expect((await rolledBack(db, otherInstructor, (tx) => tx.query(set, [course]))).rows).toEqual([]);
    const stored = await db.query<{ requires_approval: boolean | null }>('select requires_approval from public.courses where id = $1', [course]);
    expect(stored.rows[0].requires_approval).toBeNull();
  });

  it('the learner reads the course setting through the API roles', async () => {
    await db.query('update public.courses set requires_approval = true where id = $1', [course]);
    try {
      const r = await queryAs<{ requires_approval: boolean }>(db, newcomer, 'select requires_approval from public.courses where id = $1', [course]);
      expect(r.rows).toEqual([{ requires_approval: true }]);
    } finally {
      await db.query('update public.courses set requires_approval = null where id = $1', [course]);
    }
  });
});
