// Module bodies (course_modules.content and .image) are readable only by those who may read the
// module: through private.module_body (or private.course_module_bodies for a whole course), never by
// a direct select of the columns (supabase/schemas/02_courses_and_modules.sql). Course 1 requires enrolment (the seed learner is enrolled, ACTIVE; the
// instructor authors it); course 2 is set here not to (every seed course requires it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, ids, personas, queryAs, sqlState, type Persona, type TestDatabase } from './helpers/database';

const { admin, instructor, learner } = personas;
const visitor = null;
const unenrolled: Persona = { id: '00000000-0000-4000-a000-0000000000f1', email: 'unenrolled@example.uk' };
const pending: Persona = { id: '00000000-0000-4000-a000-0000000000f2', email: 'pending@example.uk' };

describe.each(backends)('module content gate on $name', ({ create }) => {
  let db: TestDatabase;
  let gatedContent: string;
  let openContent: string;

  beforeAll(async () => {
    db = await create();
    await createUser(db, { id: unenrolled.id, email: unenrolled.email, username: 'unenrolled', name: 'Una Enrolled' });
    await createUser(db, { id: pending.id, email: pending.email, username: 'pending_learner', name: 'Pat Pending' });
    await db.query(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'PENDING')`, [pending.id, ids.course(1)]);
    await db.query('update public.courses set requires_enrollment = false where id = $1', [ids.course(2)]);
    await db.query(`update public.course_modules set image = 'module-images/gated.png' where id = $1`, [ids.module(1, 1)]);
    const r = await db.query<{ id: string; content: string }>(
      'select id, content from public.course_modules where id = any($1::uuid[])', [[ids.module(1, 1), ids.module(2, 1)]]);
    gatedContent = r.rows.find((row) => row.id === ids.module(1, 1))!.content;
    openContent = r.rows.find((row) => row.id === ids.module(2, 1))!.content;
  });
  afterAll(async () => {
    await db?.close();
  });

  const body = (persona: Persona | null, moduleId: string) =>
    queryAs<{ content: string; image: string | null }>(db, persona, 'select content, image from private.module_body($1)', [moduleId]);

  it('has the courses the tests rely on', async () => {
    const r = await db.query<{ id: string; requires_enrollment: boolean }>(
      'select id, requires_enrollment from public.courses where id = any($1::uuid[]) order by id', [[ids.course(1), ids.course(2)]]);
    expect(r.rows).toEqual([
      { id: ids.course(1), requires_enrollment: true },
      { id: ids.course(2), requires_enrollment: false },
    ]);
    expect(gatedContent.length).toBeGreaterThan(0);
    expect(openContent.length).toBeGreaterThan(0);
  });

  for (const [who, persona] of [['a visitor', visitor], ['an unenrolled learner', unenrolled], ['a learner with a pending enrolment', pending]] as const) {
    it(`${who} cannot select content or image directly and gets no row from module_body`, async () => {
      for (const column of ['content', 'image', '*']) {
        expect(await sqlState(() => queryAs(db, persona, `select ${column} from public.course_modules where id = $1`, [ids.module(1, 1)])),
          column).toBe('42501');
      }
      // Not even of a course without enrolment: the columns are closed to the API roles.
      expect(await sqlState(() => queryAs(db, persona, 'select content from public.course_modules where id = $1', [ids.module(2, 1)])))
        .toBe('42501');
      expect((await body(persona, ids.module(1, 1))).rows).toEqual([]);
    });
  }

  it('an enrolled (ACTIVE) learner, the author and an admin read the content through module_body', async () => {
    for (const persona of [learner, instructor, admin]) {
      expect((await body(persona, ids.module(1, 1))).rows, persona.email).toEqual([{ content: gatedContent, image: 'module-images/gated.png' }]);
    }
  });

  it('even those who may read it cannot select the columns directly (only module_body serves them)', async () => {
    for (const persona of [learner, instructor, admin]) {
      expect(await sqlState(() => queryAs(db, persona, 'select content from public.course_modules where id = $1', [ids.module(1, 1)])),
        persona.email).toBe('42501');
    }
  });

  it('a course that does not require enrolment is readable through module_body by a visitor and any learner', async () => {
    for (const persona of [visitor, unenrolled, learner]) {
      expect((await body(persona, ids.module(2, 1))).rows, persona?.email ?? 'visitor').toEqual([{ content: openContent, image: null }]);
    }
  });

  it('a module of a course the caller cannot see gives no row, whatever its enrolment rule', async () => {
    // Course 15 is the instructor's draft: invisible to visitors and learners, readable by its author.
    const draftModule = (await db.query<{ id: string }>('select id from public.course_modules where course_id = $1 limit 1', [ids.course(15)])).rows[0].id;
    expect((await body(visitor, draftModule)).rows).toEqual([]);
    expect((await body(learner, draftModule)).rows).toEqual([]);
    expect((await body(instructor, draftModule)).rows.length).toBe(1);
    expect((await body(visitor, '00000000-0000-4000-a000-00000000dead')).rows).toEqual([]);
  });

  // private.course_module_bodies: the same rule for a whole course at once.
  const courseBodies = (persona: Persona | null, courseId: string) =>
    queryAs<{ module_id: string; content: string; image: string | null }>(db, persona,
      'select module_id, content, image from private.course_module_bodies($1) order by module_id', [courseId]);
  const moduleIds = async (courseId: string) =>
    (await db.query<{ id: string }>('select id from public.course_modules where course_id = $1 order by id', [courseId])).rows.map((r) => r.id);

  it('course_module_bodies gives a visitor, an unenrolled and a pending learner no row of a course that requires enrolment', async () => {
    for (const persona of [visitor, unenrolled, pending]) {
      expect((await courseBodies(persona, ids.course(1))).rows, persona?.email ?? 'visitor').toEqual([]);
    }
  });

  it('course_module_bodies gives an enrolled learner, the author and an admin every module of the course, with its body', async () => {
    const expected = await moduleIds(ids.course(1));
    expect(expected.length).toBeGreaterThan(1);
    for (const persona of [learner, instructor, admin]) {
      const rows = (await courseBodies(persona, ids.course(1))).rows;
      expect(rows.map((r) => r.module_id), persona.email).toEqual(expected);
      expect(rows.find((r) => r.module_id === ids.module(1, 1)), persona.email)
        .toEqual({ module_id: ids.module(1, 1), content: gatedContent, image: 'module-images/gated.png' });
    }
  });

  it('course_module_bodies serves a course without enrolment to a visitor and any learner, but not a draft they cannot see', async () => {
    const expected = await moduleIds(ids.course(2));
    for (const persona of [visitor, unenrolled, learner]) {
      const rows = (await courseBodies(persona, ids.course(2))).rows;
      expect(rows.map((r) => r.module_id), persona?.email ?? 'visitor').toEqual(expected);
      expect(rows.find((r) => r.module_id === ids.module(2, 1))?.content).toBe(openContent);
    }
    expect((await courseBodies(visitor, ids.course(15))).rows).toEqual([]);
    expect((await courseBodies(learner, ids.course(15))).rows).toEqual([]);
    expect((await courseBodies(instructor, ids.course(15))).rows.length).toBeGreaterThan(0);
    expect((await courseBodies(visitor, '00000000-0000-4000-a000-00000000dead')).rows).toEqual([]);
  });

  it('the other columns stay readable to a visitor', async () => {
    const r = await queryAs<{ id: string; title: string; order_index: number }>(db, visitor,
      'select id, title, order_index, course_id, duration, has_quiz, created_at, updated_at from public.course_modules where course_id = $1 order by order_index',
      [ids.course(1)]);
    expect(r.rows.length).toBeGreaterThan(0);
    expect(r.rows[0]).toMatchObject({ id: ids.module(1, 1), order_index: 1 });
    expect(typeof r.rows[0].title).toBe('string');
  });

  it('the author still writes content; the image only through private.set_module_image', async () => {
    const r = await queryAs(db, instructor,
      `update public.course_modules set content = 'Rewritten body' where id = $1 returning id`, [ids.module(1, 2)]);
    expect(r.rowCount).toBe(1);
    expect(await sqlState(() => queryAs(db, instructor,
      `update public.course_modules set image = null where id = $1`, [ids.module(1, 2)]))).toBe('42501');
    await queryAs(db, instructor, 'select private.set_module_image($1, null)', [ids.module(1, 2)]);
    expect((await body(instructor, ids.module(1, 2))).rows).toEqual([{ content: 'Rewritten body', image: null }]);
    // Reading the column while writing it is a select of it, refused.
    expect(await sqlState(() => queryAs(db, instructor,
      `update public.course_modules set content = content || 'x' where id = $1`, [ids.module(1, 2)]))).toBe('42501');
    expect(await sqlState(() => queryAs(db, instructor,
      `update public.course_modules set title = 'Renamed' where id = $1 returning content`, [ids.module(1, 2)]))).toBe('42501');
  });
});
