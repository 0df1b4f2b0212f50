// private.course_summaries (supabase/schemas/02_courses_and_modules.sql) states the rule of
// private.can_view_course in its own WHERE clause so that the catalogue checks it once per
// statement. Both ways, for every persona and every course-access setting: it returns exactly the
// courses can_view_course allows and no other, with the module count of count(*) and the author's
// name and username of private.course_authors (never an email).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOtherInstructor, backends, personas, queryAs, withCourseAccess, type Persona, type TestDatabase } from './helpers/database';

const ACCESS = ['public-login', 'public-enroll', 'login-browse', 'login-approval'];

describe.each(backends)('private.course_summaries on $name', ({ create }) => {
  let db: TestDatabase;
  let everyone: Array<[string, Persona | null]>;
  let allIds: string[];
  let moduleCounts: Map<string, number>;

  beforeAll(async () => {
    db = await create();
    const otherInstructor = await addOtherInstructor(db);
    // A draft of the other instructor's, so that an author's own unpublished course is in the set.
    await db.query(
      `insert into public.courses (title, description, service, author_id, status)
       values ('Summaries draft', 'A draft of the other instructor', 'UKPS', $1, 'DRAFT')`,
      [otherInstructor.id],
    );
    everyone = [['visitor', null], ...Object.entries({ ...personas, otherInstructor })];
    allIds = (await db.query<{ id: string }>('select id from public.courses order by id')).rows.map((r) => r.id);
    moduleCounts = new Map(
      (await db.query<{ id: string; n: number }>(
        'select c.id, (select count(*)::int from public.course_modules m where m.course_id = c.id) as n from public.courses c',
      )).rows.map((r) => [r.id, r.n]),
    );
  });
  afterAll(async () => {
    await db?.close();
  });

  it('holds courses of every status and with and without modules', () => {
    expect(allIds.length).toBeGreaterThan(10);
    expect([...moduleCounts.values()].some((n) => n === 0)).toBe(true);
    expect([...moduleCounts.values()].some((n) => n > 1)).toBe(true);
  });

  for (const access of ACCESS) {
    it(`returns exactly the courses can_view_course allows, with their modules and authors (${access})`, async () => {
      await withCourseAccess(db, access, async () => {
        for (const [name, persona] of everyone) {
          const allowed = (await queryAs<{ id: string }>(db, persona,
            'select id from unnest($1::uuid[]) as id where private.can_view_course(id) order by id', [allIds])).rows.map((r) => r.id);
          const summaries = (await queryAs<{ course_id: string; modules: number; author_id: string; username: string; name: string }>(db, persona,
            'select course_id, modules, author_id, username, name from private.course_summaries($1) order by course_id', [allIds])).rows;
          expect(summaries.map((s) => s.course_id), `${name}, ${access}`).toEqual(allowed);
          for (const s of summaries) expect(s.modules, `${name}: modules of ${s.course_id}`).toBe(moduleCounts.get(s.course_id));
          const authors = (await queryAs<{ course_id: string; author_id: string; username: string; name: string }>(db, persona,
            'select course_id, author_id, username, name from private.course_authors($1) order by course_id', [allIds])).rows;
          expect(summaries.map(({ modules: _, ...author }) => author), `${name}, ${access}: authors`).toEqual(authors);
        }
      });
    });
  }

  it('gives the visitor some courses and hides others, so both ways are proven', async () => {
    const visible = (await queryAs(db, null, 'select course_id from private.course_summaries($1)', [allIds])).rows;
    expect(visible.length).toBeGreaterThan(0);
    expect(visible.length).toBeLessThan(allIds.length);
    await withCourseAccess(db, 'login-browse', async () => {
      expect((await queryAs(db, null, 'select course_id from private.course_summaries($1)', [allIds])).rows).toEqual([]);
    });
  });

  it('names no email among its columns', async () => {
    const columns = await db.query<{ name: string }>(
      `select unnest(proargnames) as name from pg_proc where oid = 'private.course_summaries(uuid[])'::regprocedure`);
    expect(columns.rows.map((r) => r.name)).toEqual(['p_course_ids', 'course_id', 'modules', 'author_id', 'username', 'name']);
  });
});
