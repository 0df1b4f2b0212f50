// profiles.language (supabase/schemas/01_profiles_and_settings.sql): the language a person reads the
// platform in, en-GB or cy. The person sets their own (the column grant under the own-row policy) and
// nobody else's; the profile's language is copied into Auth's user_metadata for Auth's own emails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, ids, personas, queryAs, sqlState, type TestDatabase } from './helpers/database';

const languageOf = async (db: TestDatabase, id: string) =>
  (await db.query<{ language: string }>('select language from public.profiles where id = $1', [id])).rows[0].language;
const metaLanguageOf = async (db: TestDatabase, id: string) =>
  (await db.query<{ language: string | null }>(`select raw_user_meta_data ->> 'language' as language from auth.users where id = $1`, [id])).rows[0].language;

describe.each(backends)('a person\'s language on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('is a text column, not null, English by default, and only en-GB or cy', async () => {
    const column = await db.query(
      `select data_type, is_nullable, column_default from information_schema.columns
       where table_schema = 'public' and table_name = 'profiles' and column_name = 'language'`);
    expect(column.rows).toEqual([{ data_type: 'text', is_nullable: 'NO', column_default: "'en-GB'::text" }]);
    expect(await languageOf(db, ids.student)).toBe('en-GB');
    expect(await sqlState(() => db.query(`update public.profiles set language = 'fr' where id = $1`, [ids.student]))).toBe('23514');
    expect(await sqlState(() => db.query(`update public.profiles set language = 'cy-GB' where id = $1`, [ids.student]))).toBe('23514');
  });

  it('the API roles may update it (authenticated) and nothing more than read it (anon)', async () => {
    const grants = await db.query<{ grantee: string; privilege_type: string }>(
      `select grantee, privilege_type from information_schema.column_privileges
       where table_schema = 'public' and table_name = 'profiles' and column_name = 'language'
         and grantee in ('anon', 'authenticated') order by 1, 2`);
    expect(grants.rows.map((g) => `${g.grantee} ${g.privilege_type}`)).toEqual(['anon SELECT', 'authenticated SELECT', 'authenticated UPDATE']);
  });

  it('a person sets their own language, and Auth\'s user_metadata follows', async () => {
    const changed = await queryAs(db, personas.learner, `update public.profiles set language = 'cy' where id = $1 returning language`, [ids.student]);
    expect(changed.rows).toEqual([{ language: 'cy' }]);
    expect(await languageOf(db, ids.student)).toBe('cy');
    expect(await metaLanguageOf(db, ids.student)).toBe('cy');
    await queryAs(db, personas.learner, `update public.profiles set language = 'en-GB' where id = $1`, [ids.student]);
    expect(await languageOf(db, ids.student)).toBe('en-GB');
    expect(await metaLanguageOf(db, ids.student)).toBe('en-GB');
  });

  it('a person cannot set someone else\'s language', async () => {
    const other = await queryAs(db, personas.learner, `update public.profiles set language = 'cy' where id = $1 returning id`, [ids.instructor]);
    expect(other.rows).toEqual([]);
    expect(await languageOf(db, ids.instructor)).toBe('en-GB');
    // A visitor holds no update privilege at all.
    expect(await sqlState(() => queryAs(db, null, `update public.profiles set language = 'cy' where id = $1`, [ids.instructor]))).toBe('42501');
    expect(await languageOf(db, ids.instructor)).toBe('en-GB');
  });

  it('a new person takes a known language from the metadata they were created with, English otherwise', async () => {
    const make = (id: string, email: string, language: string) => db.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
         raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(),
         '{"provider":"email","providers":["email"]}', ($3::text)::jsonb, now(), now())`,
      [id, email, JSON.stringify({ username: email.split('@')[0].replace('.', '_'), name: 'New Person', language })]);
    await make('00000000-0000-4000-a000-0000000000c1', 'cy.person@example.uk', 'cy');
    await make('00000000-0000-4000-a000-0000000000c2', 'xx.person@example.uk', 'fr');
    expect(await languageOf(db, '00000000-0000-4000-a000-0000000000c1')).toBe('cy');
    expect(await languageOf(db, '00000000-0000-4000-a000-0000000000c2')).toBe('en-GB');
  });
});
