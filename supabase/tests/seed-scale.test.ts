// npm run seed:scale writes its rows with the triggers off (session_replication_role = replica), so
// it must write what they would have: the catalogue's totals (private.course_counts), the words of
// the user search (private.profile_search_words) and the instructors' enrolment figures
// (private.course_enrolment_figures and the rest). After the small preset each equals what is computed
// afresh from the tables, on each backend. With the triggers off nothing checks the organisations'
// data either (private.check_profile_placement, the foreign keys), so the shape is proven here: every
// generated person in an organisation and a unit of it, a line manager of the same organisation for
// everyone but one head per organisation, between 3 and 40 reports for every manager, no cycle, units
// in three levels; the required-training rules' enrolments, which their trigger would have made; and
// the classroom sessions' places taken and bookings, which their functions and trigger would keep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, PRESETS } from '../../scripts/seed-scale/generate.mjs';
import { backends, type TestDatabase } from './helpers/database';
import { keptCountsDrift } from './helpers/kept-counts';

describe.each(backends)('npm run seed:scale (small preset) on $name', ({ create }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await create();
    // Each phase in one transaction on the test database's single connection (a phase is many
    // statements, which PGlite runs only through exec).
    await generate({
      transaction: async (fn: (exec: (text: string) => Promise<unknown>, rows: (text: string, params: unknown[]) => Promise<unknown[]>) => Promise<void>) => {
        await db.exec('begin');
        try {
          await fn((text) => db.exec(text), async (text, params) => (await db.query(text, params)).rows);
          await db.exec('commit');
        } catch (error) {
          await db.exec('rollback');
          throw error;
        }
      },
      query: async (text: string) => (await db.query(text)).rows,
    }, PRESETS.small);
  }, 300_000);
  afterAll(async () => {
    await db?.close();
  });

  it('generates the preset', async () => {
    const { rows } = await db.query<{ profiles: number; courses: number; organisations: number; units: number; enrollments: number }>(`
      select (select count(*)::int from public.profiles where id::text like '%-5ca1-4000-8000-000000000001') as profiles,
             (select count(*)::int from public.courses where id::text like '%-5ca1-4000-8000-000000000002') as courses,
             (select count(*)::int from public.organisations) as organisations,
             (select count(*)::int from public.units) as units,
             (select count(*)::int from public.enrollments where id::text like '%-5ca1-4000-8000-000000000006') as enrollments`);
    expect(rows[0]).toEqual({
      profiles: PRESETS.small.users,
      courses: PRESETS.small.courses,
      organisations: PRESETS.small.organisations,
      units: PRESETS.small.units,
      enrollments: PRESETS.small.enrollments,
    });
  });

  it('names every organisation with a unique code, and gives each units in three levels', async () => {
    const { rows } = await db.query<{ code: string; depth1: number; depth2: number; depth3: number; deeper: number }>(`
      with recursive tree(id, organisation_id, depth) as (
        select u.id, u.organisation_id, 1 from public.units u where u.parent_id is null
        union all
        select u.id, u.organisation_id, t.depth + 1 from tree t join public.units u on u.parent_id = t.id where t.depth < 10
      )
      select o.code,
             count(*) filter (where t.depth = 1)::int as depth1, count(*) filter (where t.depth = 2)::int as depth2,
             count(*) filter (where t.depth = 3)::int as depth3, count(*) filter (where t.depth > 3)::int as deeper
      from public.organisations o left join tree t on t.organisation_id = o.id
      group by o.code`);
    expect(rows).toHaveLength(PRESETS.small.organisations);
    expect(new Set(rows.map((r) => r.code.toLowerCase())).size).toBe(rows.length);
    for (const r of rows) {
      expect(r.depth1, r.code).toBeGreaterThanOrEqual(3);
      expect(r.depth2, r.code).toBeGreaterThanOrEqual(3 * r.depth1);
      expect(r.depth3, r.code).toBeGreaterThanOrEqual(3 * r.depth2);
      expect(r.deeper, r.code).toBe(0);
    }
    // Every unit's parent is of its organisation (the foreign key the generator does not fire).
    const { rows: crossed } = await db.query(`
      select u.id from public.units u join public.units p on p.id = u.parent_id where p.organisation_id <> u.organisation_id`);
    expect(crossed).toEqual([]);
  });

  it('puts every generated person in an organisation and a unit of it, with administrators in each', async () => {
    const { rows } = await db.query(`
      select p.id from public.profiles p left join public.units u on u.id = p.unit_id
      where p.id::text like '%-5ca1-4000-8000-000000000001'
        and (p.organisation_id is null or u.organisation_id is distinct from p.organisation_id)`);
    expect(rows).toEqual([]);
    const { rows: admins } = await db.query<{ code: string; admins: number }>(`
      select o.code, count(p.id)::int as admins from public.organisations o
      left join public.profiles p on p.organisation_id = o.id and p.role = 'ADMIN'
      group by o.code`);
    for (const a of admins) expect(a.admins, a.code).toBeGreaterThanOrEqual(1);
  });

  it('gives everyone but one head per organisation a line manager of the same organisation, in their unit or the one above', async () => {
    const { rows: heads } = await db.query<{ organisation_id: string; heads: number }>(`
      select p.organisation_id, count(*)::int as heads from public.profiles p
      where p.organisation_id is not null and p.manager_id is null group by 1`);
    expect(heads).toHaveLength(PRESETS.small.organisations);
    for (const h of heads) expect(h.heads).toBe(1);
    const { rows: wrong } = await db.query(`
      select p.id from public.profiles p
      join public.profiles m on m.id = p.manager_id
      join public.units pu on pu.id = p.unit_id
      join public.units mu on mu.id = m.unit_id
      where m.organisation_id is distinct from p.organisation_id
         or not (mu.id = pu.id or mu.id = pu.parent_id or (pu.parent_id is null and mu.parent_id is null))`);
    expect(wrong).toEqual([]);
    const { rows: dangling } = await db.query(`
      select p.id from public.profiles p where p.manager_id is not null
        and not exists (select 1 from public.profiles m where m.id = p.manager_id)`);
    expect(dangling).toEqual([]);
  });

  it('gives every manager between 3 and 40 direct reports', async () => {
    const { rows } = await db.query<{ managers: number; fewest: number; most: number }>(`
      select count(*)::int as managers, min(n)::int as fewest, max(n)::int as most
      from (select manager_id, count(*) as n from public.profiles where manager_id is not null group by 1) r`);
    expect(rows[0].managers).toBeGreaterThan(0);
    expect(rows[0].fewest).toBeGreaterThanOrEqual(3);
    expect(rows[0].most).toBeLessThanOrEqual(40);
  });

  it('has no cycle: every chain of managers ends at a head', async () => {
    const { rows } = await db.query<{ stuck: number; deepest: number }>(`
      with recursive up(person, at, depth) as (
        select p.id, p.manager_id, 1 from public.profiles p where p.manager_id is not null
        union all
        select u.person, m.manager_id, u.depth + 1 from up u join public.profiles m on m.id = u.at
        where m.manager_id is not null and u.depth < 20
      )
      select count(*) filter (where depth >= 20)::int as stuck, coalesce(max(depth), 0)::int as deepest from up`);
    expect(rows[0].stuck).toBe(0);
    // head <- area <- station <- watch manager <- crew manager <- crew member.
    expect(rows[0].deepest).toBeLessThanOrEqual(5);
  });

  it('requires a course of each service and enrols everyone each rule matches, as the rule trigger does', async () => {
    const { rows } = await db.query<{ rules: number; services: number; missing: number; pending: number }>(`
      select (select count(*)::int from public.required_training) as rules,
             (select count(distinct service)::int from public.required_training) as services,
             (select count(*)::int from public.required_training r
              join public.profiles p on p.services @> array[r.service] and p.deactivated_at is null
              where not exists (select 1 from public.enrollments e
                                where e.user_id = p.id and e.course_id = r.course_id and e.status = 'ACTIVE')) as missing,
             (select count(*)::int from public.enrollments e join public.required_training r on r.course_id = e.course_id
              where e.status = 'PENDING') as pending`);
    expect(rows[0]).toEqual({ rules: 6, services: 6, missing: 0, pending: 0 });
  });

  it('gives some organisations courses of their own, taken only by their own people', async () => {
    const { rows } = await db.query<{ own: number; elsewhere: number }>(`
      select (select count(*)::int from public.courses where organisation_id is not null) as own,
             (select count(*)::int from public.enrollments e join public.courses c on c.id = e.course_id
              join public.profiles p on p.id = e.user_id
              where c.organisation_id is not null and c.organisation_id is distinct from p.organisation_id) as elsewhere`);
    expect(rows[0].own).toBeGreaterThan(0);
    expect(rows[0].elsewhere).toBe(0);
  });

  it('keeps the catalogue totals of every status and service (national courses)', async () => {
    const drift = await db.query(`
      select coalesce(k.status, c.status) as status, coalesce(k.service, c.service) as service, k.courses as kept, c.n as counted
      from private.course_counts k
      full join (select status, service, count(*) as n from public.courses where organisation_id is null group by 1, 2) c on c.status = k.status and c.service = k.service
      where coalesce(k.courses, 0) <> coalesce(c.n, 0)`);
    expect(drift.rows).toEqual([]);
  });

  it('keeps the instructors\' enrolment figures (private.recount_enrolment_figures)', async () => {
    expect(await keptCountsDrift(db)).toEqual([]);
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from private.course_enrolment_figures where enrolled > 0');
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it('writes the words of every profile for the user search, and nothing else', async () => {
    const drift = await db.query(`
      with expected as (
        select distinct t.word, p.id as profile_id, p.created_at
        from public.profiles p
        cross join lateral regexp_split_to_table(lower(p.name || ' ' || p.username || ' ' || p.email), '[^[:alnum:]]+') t(word)
        where t.word <> ''
      ),
      stored as (select w.word::text as word, w.profile_id, w.created_at from private.profile_search_words w)
      (select 'stored only' as side, * from stored except select 'stored only', * from expected)
      union all
      (select 'missing', * from expected except select 'missing', * from stored)
      limit 5`);
    expect(drift.rows).toEqual([]);
  });

  it('gives one national session module dates of every organisation, and books places only as the booking function would', async () => {
    const { rows: modules } = await db.query<{ dates: number; national: number; organisations: number }>(`
      select count(*)::int as dates, count(*) filter (where s.organisation_id is null)::int as national,
             count(distinct s.organisation_id)::int as organisations
      from public.classroom_sessions s group by s.module_id order by count(*) desc limit 1`);
    expect(modules[0]).toEqual({ dates: 24 + 8 * PRESETS.small.organisations, national: 24, organisations: PRESETS.small.organisations });
    const { rows } = await db.query<{ bookings: number; not_session: number; unseen: number; over: number; twice: number }>(`
      select (select count(*)::int from public.session_bookings) as bookings,
             (select count(*)::int from public.classroom_sessions s join public.course_modules m on m.id = s.module_id
              where m.kind <> 'session' or m.has_quiz) as not_session,
             (select count(*)::int from public.session_bookings b
              join public.classroom_sessions s on s.id = b.session_id
              join public.profiles p on p.id = b.user_id
              left join public.enrollments e on e.user_id = b.user_id and e.course_id = s.course_id and e.status = 'ACTIVE' and e.cycle = b.cycle
              where e.id is null or b.module_id <> s.module_id or s.starts_at <= now()
                 or (s.organisation_id is not null and s.organisation_id is distinct from p.organisation_id)) as unseen,
             (select count(*)::int from public.classroom_sessions where places_taken > capacity) as over,
             (select count(*)::int from (select 1 from public.session_bookings group by user_id, module_id having count(*) > 1) t) as twice`);
    expect(rows[0].bookings).toBeGreaterThan(100);
    expect({ ...rows[0], bookings: 0 }).toEqual({ bookings: 0, not_session: 0, unseen: 0, over: 0, twice: 0 });
  });
});
