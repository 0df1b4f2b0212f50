// The name rule in the database (supabase/schemas/00_foundations_and_roles.sql and
// 01_profiles_and_settings.sql): private.has_invisible_characters holds the list the shared zod
// rule holds; Auth's before-user-created hook (private.before_user_created) refuses a username or
// name that breaks the profile's rules with 400 and the field's message, and allows the rest; the
// profile trigger and the table's check refuse the same when something skips the hook; a name of up
// to 200 characters (the admin's dialog and the import) makes a profile.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVISIBLE_CHARACTERS, NAME_INVISIBLE } from '../functions/_shared/schemas.ts';
import { backends, createUser, sqlState, type TestDatabase } from './helpers/database';

/** One of each kind the rule refuses, and look-alikes it allows. */
const REFUSED = ['\u0007', '\u00AD', '\u061C', '\u115F', '\u180E', '\u200B', '\u200E', '\u202E', '\u2028', '\u2066', '\u2069', '\u3164', '\uFEFF', '\uFFA0'];
const ALLOWED = ['Zoë Ó Briain', 'محمد علي', 'Ελένη', 'Anne-Marie O\'Neill', 'Jo 😀 Smith'];

const event = (userMetadata: unknown) => JSON.stringify({
  metadata: { name: 'before-user-created' },
  user: { id: randomUUID(), email: 'someone@example.test', user_metadata: userMetadata },
});

describe.each(backends)('the name rule on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db?.close();
  });

  const hook = async (userMetadata: unknown) =>
    (await db.query<{ answer: Record<string, unknown> }>('select private.before_user_created($1::text::jsonb) as answer', [event(userMetadata)])).rows[0].answer;
  const invisible = async (text: string) =>
    (await db.query<{ yes: boolean }>('select private.has_invisible_characters($1) as yes', [text])).rows[0].yes;

  it('has_invisible_characters refuses what the shared zod rule refuses, and nothing visible', async () => {
    for (const character of REFUSED) {
      expect(INVISIBLE_CHARACTERS.test(`Ann${character}Smith`), `zod: U+${character.codePointAt(0)!.toString(16)}`).toBe(true);
      expect(await invisible(`Ann${character}Smith`), `sql: U+${character.codePointAt(0)!.toString(16)}`).toBe(true);
    }
    for (const name of ALLOWED) {
      expect(INVISIBLE_CHARACTERS.test(name), name).toBe(false);
      expect(await invisible(name), name).toBe(false);
    }
  });

  it('the before-user-created hook refuses a bad name or username with 400 and the message, and allows the rest', async () => {
    for (const character of ['\u200B', '\u202E', '\u061C']) {
      expect(await hook({ username: 'ann_smith', name: `Ann${character}Smith` }))
        .toEqual({ error: { http_code: 400, message: NAME_INVISIBLE } });
    }
    expect(await hook({ name: 'A'.repeat(201) })).toEqual({ error: { http_code: 400, message: 'Name must be at most 200 characters' } });
    expect(await hook({ username: 'someone@example.test', name: 'Mallory' }))
      .toEqual({ error: { http_code: 400, message: 'Username may contain only letters, numbers, dots, dashes and underscores' } });
    for (const metadata of [{}, { username: 'ann_smith', name: 'Ann Smith' }, { name: 'A'.repeat(200) }, { name: 'Zoe\u0308' }, [], 'text', null]) {
      expect(await hook(metadata), JSON.stringify(metadata)).toEqual({});
    }
  });

  it('the hook is for Auth only: no client role may call it', async () => {
    for (const role of ['anon', 'authenticated']) {
      expect(await sqlState(() => db.transaction(async (tx) => {
        await tx.query(`set local role ${role}`);
        await tx.query('select private.before_user_created($1::text::jsonb)', [event({})]);
      })), role).toBe('42501');
    }
  });

  it('what skips the hook meets the trigger and the check: refused (23514), nothing written; 200 characters make a profile', async () => {
    const id = randomUUID();
    expect(await sqlState(() => createUser(db, { id, email: `${id}@example.test`, username: `n_${id.slice(0, 8)}`, name: 'Ann\u202ESmith' }))).toBe('23514');
    expect((await db.query('select 1 from auth.users where id = $1', [id])).rows).toHaveLength(0);

    const long = randomUUID();
    await createUser(db, { id: long, email: `${long}@example.test`, username: `l_${long.slice(0, 8)}`, name: 'L'.repeat(200) });
    expect((await db.query<{ length: number }>('select char_length(name) as length from public.profiles where id = $1', [long])).rows[0].length).toBe(200);
    expect(await sqlState(() => db.query('update public.profiles set name = $2 where id = $1', [long, 'Ann\u200BSmith']))).toBe('23514');
    expect(await sqlState(() => db.query('update public.profiles set name = $2 where id = $1', [long, 'Ann\u061CSmith']))).toBe('23514');
  });
});
