// npm run seed:scale writes its rows with the triggers off (session_replication_role = replica), so
// it must write what they would have: the catalogue's totals (private.course_counts) and the words of
// the user search (private.profile_search_words). After the small preset both equal what is computed
// afresh from the tables, on each backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, PRESETS } from '../../scripts/seed-scale/generate.mjs';
import { backends, type TestDatabase } from './helpers/database';

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
    const { rows } = await db.query<{ profiles: number; courses: number }>(
      'select (select count(*)::int from public.profiles) as profiles, (select count(*)::int from public.courses) as courses');
    expect(rows[0].profiles).toBeGreaterThanOrEqual(PRESETS.small.users);
    expect(rows[0].courses).toBeGreaterThanOrEqual(PRESETS.small.courses);
  });

  it('keeps the catalogue totals of every status and service', async () => {
    const drift = await db.query(`
      select coalesce(k.status, c.status) as status, coalesce(k.service, c.service) as service, k.courses as kept, c.n as counted
      from private.course_counts k
      full join (select status, service, count(*) as n from public.courses group by 1, 2) c on c.status = k.status and c.service = k.service
      where coalesce(k.courses, 0) <> coalesce(c.n, 0)`);
    expect(drift.rows).toEqual([]);
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
});
