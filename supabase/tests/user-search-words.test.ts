// The words of the admin user search (supabase/schemas/01_profiles_and_settings.sql):
// private.profile_search_words always holds exactly each profile's words, whatever is inserted,
// edited or deleted; a one-word search that more people match than the limit is answered from it
// with real matches only, newest first; nobody reads or writes the table directly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, personas, queryAs, sqlState, type TestDatabase } from './helpers/database';

const { admin, instructor, learner } = personas;

/** Each profile's words as the schema defines them, computed afresh from public.profiles. */
const EXPECTED_WORDS = `
  select distinct t.word, p.id::text as profile_id, p.created_at
  from public.profiles p
  cross join lateral regexp_split_to_table(lower(p.name || ' ' || p.username || ' ' || p.email), '[^[:alnum:]]+') t(word)
  where t.word <> ''`;

const personId = (group: number, n: number) => `00000000-0000-4000-a${group}00-${String(n).padStart(12, '0')}`;

describe.each(backends)('user search words on $name', ({ create }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db?.close();
  });

  /** Words in the table that are not expected, and expected words missing from it. */
  const drift = async () =>
    (await db.query<{ side: string; word: string; profile_id: string }>(`
      with expected as (${EXPECTED_WORDS}),
      stored as (select w.word::text as word, w.profile_id::text as profile_id, w.created_at from private.profile_search_words w)
      (select 'stored only' as side, s.word, s.profile_id from stored s except select 'stored only', e.word, e.profile_id from expected e)
      union all
      (select 'missing', e.word, e.profile_id from expected e except select 'missing', s.word, s.profile_id from stored s)`)).rows;

  it('holds every word of every profile and nothing else, through inserts, edits and deletes', async () => {
    expect(await drift()).toEqual([]);
    const before = Number((await db.query<{ n: string }>('select count(*) as n from private.profile_search_words')).rows[0].n);
    expect(before).toBeGreaterThan(0);

    await createUser(db, { id: personId(1, 1), email: 'Wendy.O-Brien@Fire.example.uk', username: 'wendy_ob', name: 'Wendy Kestrel' });
    const wendy = (await db.query<{ word: string }>('select word from private.profile_search_words where profile_id = $1 order by word', [personId(1, 1)]))
      .rows.map((r) => r.word);
    // "wendy kestrel wendy_ob wendy.o-brien@fire.example.uk": runs of letters and digits, once each.
    expect(wendy).toEqual(['brien', 'example', 'fire', 'kestrel', 'o', 'ob', 'uk', 'wendy']);

    // An edit of the name replaces that profile's words; an edit of the role alone changes none.
    await db.query(`update public.profiles set name = 'Wendy Marsh-Oyelaran' where id = $1`, [personId(1, 1)]);
    await db.query(`update public.profiles set role = 'INSTRUCTOR' where id = $1`, [personId(1, 1)]);
    const edited = (await db.query<{ word: string }>('select word from private.profile_search_words where profile_id = $1', [personId(1, 1)]))
      .rows.map((r) => r.word);
    expect(edited).toEqual(expect.arrayContaining(['marsh', 'oyelaran', 'wendy']));
    expect(edited).not.toContain('kestrel');
    // Several profiles in one statement, as an import does.
    for (let n = 2; n <= 4; n++) {
      await createUser(db, { id: personId(1, n), email: `batch${n}@example.uk`, username: `batch${n}`, name: `Batch Person ${n}` });
    }
    await db.query(`update public.profiles set name = name || ' Renamed' where id = any($1::uuid[])`, [[2, 3, 4].map((n) => personId(1, n))]);
    expect(await drift()).toEqual([]);

    // A deleted person's words go with them.
    await db.query('delete from auth.users where id = $1', [personId(1, 1)]);
    expect((await db.query('select 1 from private.profile_search_words where profile_id = $1', [personId(1, 1)])).rows).toEqual([]);
    expect(await drift()).toEqual([]);
  });

  describe('a one-word search more people match than the limit', () => {
    const search = (pattern: string, word: string | null, limit: number, offset: number, matchLimit: number, service: string | null = null) =>
      queryAs<{ id: string | null; total: number; more: boolean }>(db, admin,
        'select id, total, more from private.user_search_page($1, $2, $3::public.service_code, null, $4, $5, $6)',
        [pattern, word, service, limit, offset, matchLimit]);

    beforeAll(async () => {
      // Twelve people whose text has "quintessa" only inside a word, created first (so a scan in
      // table order meets them first), then twelve whose name begins with it.
      for (let n = 1; n <= 12; n++) {
        await createUser(db, { id: personId(2, n), email: `inner${n}@example.uk`, username: `inner${n}`, name: `Aquintessa Inner ${n}` });
      }
      for (let n = 1; n <= 12; n++) {
        await createUser(db, { id: personId(3, n), email: `word${n}@example.uk`, username: `word${n}`, name: `Quintessa Word ${n}` });
        await db.query(`update public.profiles set created_at = now() - make_interval(days => $2) where id = $1`, [personId(3, n), n]);
      }
    });

    it('keeps the first people with a word that begins with it, newest first, and says more match', async () => {
      const rows = (await search('%quintessa%', 'quintessa', 100, 0, 5)).rows;
      // The first five in the words' order (word, then id: word1 to word5), newest first (word1 is the
      // newest): only real matches, and none of those who have it inside a word, which the
      // table-order scan would have met first.
      expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5].map((n) => personId(3, n)));
      expect(rows.every((r) => r.total === 5 && r.more === true)).toBe(true);
      // A prefix of the word finds the same people; the pages join up and stop at the limit.
      expect((await search('%quintes%', 'quintes', 100, 0, 5)).rows.map((r) => r.id)).toEqual(rows.map((r) => r.id));
      const pages = [...(await search('%quintessa%', 'quintessa', 2, 0, 5)).rows, ...(await search('%quintessa%', 'quintessa', 2, 2, 5)).rows];
      expect(pages.map((r) => r.id)).toEqual(rows.slice(0, 4).map((r) => r.id));
      expect((await search('%quintessa%', 'quintessa', 2, 6, 5)).rows).toEqual([{ id: null, total: 5, more: true }]);
    });

    it('searches the text as before when the word does not say enough: fewer people, a filter, no word', async () => {
      const plain = (await db.query<{ id: string }>(
        `select id from public.profiles where lower(name || ' ' || username || ' ' || email) like '%quintessa%' order by created_at desc, id desc`)).rows
        .map((r) => r.id);
      expect(plain).toHaveLength(24);
      // Twenty-four match and the limit is 30: all of them, exactly, including those with the word inside another.
      const all = (await search('%quintessa%', 'quintessa', 100, 0, 30)).rows;
      expect(all.map((r) => r.id)).toEqual(plain);
      expect(all.every((r) => r.total === 24 && r.more === false)).toBe(true);
      // Without the word, or with a filter, the text search keeps the limit: real matches, newest first among them.
      for (const rows of [(await search('%quintessa%', null, 100, 0, 5)).rows, (await search('%quintessa%', 'quintessa', 100, 0, 5, 'UKPS')).rows]) {
        expect(rows.every((r) => r.id === null || plain.includes(r.id))).toBe(true);
      }
      const unfiltered = (await search('%quintessa%', null, 100, 0, 5)).rows;
      expect(unfiltered).toHaveLength(5);
      expect(unfiltered.every((r) => r.total === 5 && r.more === true)).toBe(true);
    });

    it('answers no one but an admin', async () => {
      for (const persona of [learner, instructor]) {
        expect((await queryAs(db, persona, `select * from private.user_search_page('%quintessa%', 'quintessa', null, null, 20, 0, 5)`)).rows)
          .toEqual([]);
      }
      expect(await sqlState(() => queryAs(db, null, `select * from private.user_search_page('%quintessa%', 'quintessa', null, null, 20, 0, 5)`)))
        .toBe('42501');
    });
  });

  it('cannot be read or written directly by any API role', async () => {
    for (const persona of [null, learner, instructor, admin]) {
      expect(await sqlState(() => queryAs(db, persona, 'select * from private.profile_search_words limit 1'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona,
        `insert into private.profile_search_words (word, profile_id, created_at) values ('x', '${admin.id}', now())`))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona, 'delete from private.profile_search_words'))).toBe('42501');
    }
    // The same statement as the table's owner works: the refusals above are the roles' own.
    expect((await db.query('select * from private.profile_search_words limit 1')).rows).toHaveLength(1);
  });
});
