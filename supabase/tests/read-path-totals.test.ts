// Totals of the paged lists without counting every row (supabase/schemas/02_courses_and_modules.sql):
// private.visible_course_count (the catalogue's total, from the per-status-and-service counts kept by
// triggers on public.courses) equals a count(*) of the courses under each persona's row-level
// security, with and without filters, after inserts, updates and deletes of courses; and
// private.user_search_page answers admins only, with the same total and page as a plain search, and
// keeps no more matches than it is asked to (supabase/schemas/01_profiles_and_settings.sql).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOtherInstructor, backends, ids, personas, queryAs, sqlState, withCourseAccess, type Persona, type TestDatabase } from './helpers/database';

const { admin, instructor, learner } = personas;
const visitor = null;

const FILTERS: Array<{ service: string | null; status: string | null }> = [
  { service: null, status: null },
  { service: 'UKPS', status: null },
  { service: 'MISC', status: null },
  { service: null, status: 'ACTIVE' },
  { service: null, status: 'DRAFT' },
  { service: 'UKPS', status: 'DRAFT' },
  { service: 'UKAS', status: 'ARCHIVED' },
];

describe.each(backends)('read path totals on $name', ({ create }) => {
  let db: TestDatabase;
  let otherInstructor: Persona;

  beforeAll(async () => {
    db = await create();
    otherInstructor = await addOtherInstructor(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  // Archived courses are out of the catalogue's total unless asked for (by status, or by the
  // managers' lists: includeArchived).
  const kept = async (persona: Persona | null, service: string | null, status: string | null, includeArchived = false) =>
    (await queryAs<{ total: number }>(db, persona,
      'select private.visible_course_count($1::public.service_code, $2::public.course_status, $3) as total',
      [service, status, includeArchived])).rows[0].total;
  const counted = async (persona: Persona | null, service: string | null, status: string | null, includeArchived = false) =>
    (await queryAs<{ total: number }>(db, persona,
      `select count(*)::int as total from public.courses c
       where ($1::public.service_code is null or c.service = $1) and ($2::public.course_status is null or c.status = $2)
         and ($2 is not null or $3 or c.status <> 'ARCHIVED')`,
      [service, status, includeArchived])).rows[0].total;

  async function expectTotalsMatch(label: string) {
    for (const persona of [visitor, learner, instructor, otherInstructor, admin]) {
      for (const { service, status } of FILTERS) {
        for (const includeArchived of [false, true]) {
          expect(await kept(persona, service, status, includeArchived),
            `${label}: ${persona?.email ?? 'visitor'} ${service} ${status} ${includeArchived ? 'with archived' : ''}`)
            .toBe(await counted(persona, service, status, includeArchived));
        }
      }
    }
  }

  it('the kept total of the seed equals the count under row-level security for every persona and filter', async () => {
    await expectTotalsMatch('seed');
    // Not a vacuous match: the personas see different numbers.
    expect(await kept(visitor, null, null)).toBe(14);
    expect(await kept(instructor, null, null)).toBe(15); // the 14 ACTIVE and the instructor's own draft
    expect(await kept(admin, null, null)).toBe(16); // the seed's archived course is out of the catalogue
    expect(await kept(admin, null, null, true)).toBe(17); // and in the managers' lists
  });

  it('stays equal after inserting, publishing, moving, archiving and deleting courses', async () => {
    // Bulk insert as the database's owner (one statement, several services and statuses).
    await db.query(`
      insert into public.courses (id, title, description, service, author_id, status)
      select ('10000000-0000-4000-b000-' || lpad(g::text, 12, '0'))::uuid, 'Totals ' || g, 'A course made in bulk by the totals test.',
             (array['UKPS','UKAS','MISC'])[1 + g % 3]::public.service_code, $1,
             (array['DRAFT','ACTIVE','ARCHIVED'])[1 + g % 3]::public.course_status
      from generate_series(1, 12) g`, [otherInstructor.id]);
    await expectTotalsMatch('after a bulk insert');
    // An author's own insert through the policies, then publishing it.
    const mine = await queryAs<{ id: string }>(db, instructor,
      `insert into public.courses (title, description, service, author_id, status)
       values ('Totals draft', 'A draft course made by the totals test.', 'UKPS', $1, 'DRAFT') returning id`, [instructor.id]);
    await expectTotalsMatch('after an author insert');
    await queryAs(db, instructor, `update public.courses set status = 'ACTIVE' where id = $1`, [mine.rows[0].id]);
    await expectTotalsMatch('after publishing');
    // A change of service and status of many at once, and an edit that changes neither.
    await db.query(`update public.courses set service = 'UKAS', status = 'ARCHIVED' where title like 'Totals %' and status = 'ACTIVE'`);
    await db.query(`update public.courses set title = title || ' (edited)' where id = $1`, [ids.course(1)]);
    await expectTotalsMatch('after updates');
    await db.query(`delete from public.courses where title like 'Totals %'`);
    await expectTotalsMatch('after deleting');
    expect(await kept(admin, null, null)).toBe(16); // the seed's archived course is out of the catalogue
    expect(await kept(admin, null, null, true)).toBe(17); // and in the managers' lists
  });

  it('a visitor sees a total of none under the login-browse rule, as the policies hide every course', async () => {
    await withCourseAccess(db, 'login-browse', async () => {
      expect(await kept(visitor, null, null)).toBe(0);
      expect(await counted(visitor, null, null)).toBe(0);
      expect(await kept(learner, null, null)).toBe(await counted(learner, null, null));
    });
  });

  it('no API role reads or writes the kept counts directly', async () => {
    for (const persona of [visitor, learner, admin]) {
      expect(await sqlState(() => queryAs(db, persona, 'select * from private.course_counts'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona, `update private.course_counts set courses = 0`))).toBe('42501');
    }
  });

  describe('private.user_search_page', () => {
    // The word is passed as the API passes it: the term when it is one word of letters and digits
    // ('%example%' may then be answered from private.profile_search_words).
    const page = (persona: Persona | null, pattern: string, service: string | null, role: string | null, limit: number, offset: number,
      matchLimit = 100) =>
      queryAs<{ id: string | null; total: number; more: boolean }>(db, persona,
        'select id, total, more from private.user_search_page($1, $2, $3::public.service_code, $4::public.user_role, $5, $6, $7)',
        [pattern, /^%[a-z0-9]+%$/.test(pattern) ? pattern.slice(1, -1) : null, service, role, limit, offset, matchLimit]);
    const plain = async (pattern: string, service: string | null, role: string | null) =>
      (await db.query<{ id: string }>(
        `select id from public.profiles
         where lower(name || ' ' || username || ' ' || email) like $1
           and ($2::public.service_code is null or services @> array[$2::public.service_code])
           and ($3::public.user_role is null or role = $3::public.user_role)
         order by created_at desc, id desc`, [pattern, service, role])).rows.map((r) => r.id);

    it('gives an admin the total and the page of a plain search, newest first, and a total past the end', async () => {
      for (const [pattern, service, role] of [['%example%', null, null], ['%instructor%', null, 'INSTRUCTOR'], ['%example%', 'UKPS', null]] as const) {
        const all = await plain(pattern, service, role);
        expect(all.length, pattern).toBeGreaterThan(0);
        const first = (await page(admin, pattern, service, role, 2, 0)).rows;
        expect(first.map((r) => r.id)).toEqual(all.slice(0, 2));
        expect(first.every((r) => r.total === all.length && r.more === false)).toBe(true);
        const second = (await page(admin, pattern, service, role, 2, 2)).rows;
        if (all.length > 2) expect(second.map((r) => r.id)).toEqual(all.slice(2, 4));
        expect((await page(admin, pattern, service, role, 2, 1000)).rows).toEqual([{ id: null, total: all.length, more: false }]);
      }
      expect((await page(admin, '%no such person anywhere%', null, null, 20, 0)).rows).toEqual([{ id: null, total: 0, more: false }]);
    });

    it('keeps at most the match limit: that many matches, newest first among them, and says more match', async () => {
      const all = await plain('%example%', null, null);
      expect(all.length).toBeGreaterThan(3);
      const limit = all.length - 1;
      const kept = (await page(admin, '%example%', null, null, 100, 0, limit)).rows;
      expect(kept).toHaveLength(limit);
      expect(kept.every((r) => r.total === limit && r.more === true)).toBe(true);
      const ids = kept.map((r) => r.id!);
      expect(new Set(ids).size).toBe(limit);
      expect(ids.every((id) => all.includes(id))).toBe(true);
      // Newest first among those kept: their order is the plain search's order.
      expect(ids).toEqual(all.filter((id) => ids.includes(id)));
      // The pages of the kept matches join up, and stop at the limit.
      const pages = [...(await page(admin, '%example%', null, null, 2, 0, limit)).rows, ...(await page(admin, '%example%', null, null, 2, 2, limit)).rows];
      expect(pages.map((r) => r.id)).toEqual(ids.slice(0, 4));
      expect((await page(admin, '%example%', null, null, 2, limit, limit)).rows).toEqual([{ id: null, total: limit, more: true }]);
      // Exactly as many matches as the limit: all of them, and no more.
      const exact = (await page(admin, '%example%', null, null, 100, 0, all.length)).rows;
      expect(exact.map((r) => r.id)).toEqual(all);
      expect(exact.every((r) => r.total === all.length && r.more === false)).toBe(true);
    });

    it('gives anyone but an admin no row, and a visitor cannot call it', async () => {
      for (const persona of [learner, instructor]) {
        expect((await page(persona, '%example%', null, null, 20, 0)).rows, persona.email).toEqual([]);
      }
      expect(await sqlState(() => page(visitor, '%example%', null, null, 20, 0))).toBe('42501');
    });
  });
});
