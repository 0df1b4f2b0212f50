// Bulk user import in SQL (supabase/schemas/09_user_import.sql): private.import_users creates Auth users,
// identities and profiles set-based in one transaction, skips taken and repeated rows, writes one
// audit event per call, enrols the new users in their required training, and leaves nothing behind
// when it fails part-way; private.user_import_clashes answers a whole file in one statement.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, ids, personas, queryAs, sqlState, type TestDatabase } from './helpers/database';

const { admin, instructor, learner } = personas;
const visitor = null;

interface ImportRow {
  line: number;
  username: string;
  email: string;
  name: string;
  role: string;
  services: string[];
  password: string;
}
interface Outcome {
  line: number;
  user_id: string | null;
  field: string | null;
  problem: string | null;
}

const password = () => randomBytes(15).toString('base64url');

function rows(prefix: string, count: number, extra: Partial<ImportRow> = {}): ImportRow[] {
  return Array.from({ length: count }, (_, i) => ({
    line: i + 2,
    username: `${prefix}_${i}`,
    email: `${prefix}.${i}@import.example.uk`,
    name: `Imported Person ${i}`,
    role: i % 10 === 0 ? 'INSTRUCTOR' : 'STUDENT',
    services: i % 2 === 0 ? ['UKAS'] : ['UKAS', 'MISC'],
    password: password(),
    ...extra,
  }));
}

async function importAs(db: TestDatabase, persona: typeof admin | null, list: ImportRow[], importId = randomUUID(), part = 1) {
  return (
    await queryAs<Outcome>(db, persona, 'select * from private.import_users($1::uuid, $2, $3::text::jsonb)', [
      importId,
      part,
      JSON.stringify(list),
    ])
  ).rows;
}

const count = async (db: TestDatabase, sql: string, params: unknown[] = []) =>
  Number((await db.query<{ n: number }>(sql, params)).rows[0].n);

describe.each(backends)('user import on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('imports 1,000 users set-based: accounts, identities, profiles with role and services, one audit event', async () => {
    const prefix = `bulk${Date.now().toString(36)}`;
    const list = rows(prefix, 1000);
    const auditBefore = await count(db, `select count(*)::int as n from public.audit_events`);
    const started = performance.now();
    const outcome = await importAs(db, admin, list);
    const elapsed = performance.now() - started;
    console.log(`import_users: 1,000 rows in ${Math.round(elapsed)} ms on ${db.backend}`);

    expect(outcome).toHaveLength(1000);
    expect(outcome.every((row) => row.user_id !== null && row.problem === null)).toBe(true);
    const like = `${prefix}.%`;
    expect(await count(db, `select count(*)::int as n from auth.users where email like $1`, [like])).toBe(1000);
    expect(await count(db, `select count(*)::int as n from auth.identities i join auth.users u on u.id = i.user_id
      where u.email like $1 and i.provider = 'email' and i.provider_id = u.id::text and i.identity_data ->> 'email' = u.email`, [like])).toBe(1000);
    const profiles = await db.query<{ role: string; services: string[]; n: number }>(
      `select role::text as role, services::text[] as services, count(*)::int as n from public.profiles
       where email like $1 group by 1, 2 order by 1, 2`,
      [like],
    );
    expect(profiles.rows).toEqual([
      { role: 'INSTRUCTOR', services: ['UKAS'], n: 100 },
      { role: 'STUDENT', services: ['UKAS'], n: 400 },
      { role: 'STUDENT', services: ['UKAS', 'MISC'], n: 500 },
    ]);

    // The profile is the staged one: username and name from the row, id from the returned user id.
    const first = outcome.find((row) => row.line === 2)!;
    const profile = (await db.query<{ username: string; name: string; email: string }>(
      'select username, name, email from public.profiles where id = $1', [first.user_id])).rows[0];
    expect(profile).toEqual({ username: `${prefix}_0`, name: 'Imported Person 0', email: `${prefix}.0@import.example.uk` });

    // Passwords: bcrypt at cost 4 that verifies the temporary password (and no other).
    const hash = (await db.query<{ encrypted_password: string; confirmed: boolean; meta: Record<string, unknown> }>(
      `select encrypted_password, email_confirmed_at is not null as confirmed, raw_app_meta_data as meta
       from auth.users where id = $1`, [first.user_id])).rows[0];
    expect(hash.encrypted_password).toMatch(/^\$2[ab]\$04\$/);
    expect(hash.confirmed).toBe(true);
    expect(hash.meta).toMatchObject({ provider: 'email', providers: ['email'], created_by: admin.id });
    const verified = await db.query<{ ok: boolean; wrong: boolean }>(
      `select extensions.crypt($1, $2) = $2 as ok, extensions.crypt('password123', $2) = $2 as wrong`,
      [list[0].password, hash.encrypted_password],
    );
    expect(verified.rows[0]).toEqual({ ok: true, wrong: false });

    // One audit event for the call, none per user; the staging table is empty again.
    const events = await db.query<{ action: string; actor_id: string; new_data: Record<string, unknown> }>(
      `select action, actor_id, new_data from public.audit_events order by id desc limit 5`);
    expect(await count(db, `select count(*)::int as n from public.audit_events`)).toBe(auditBefore + 1);
    expect(events.rows[0]).toMatchObject({
      action: 'users.imported',
      actor_id: admin.id,
      new_data: { created: 1000, skipped: 0, part: 1, roles: { INSTRUCTOR: 100, STUDENT: 900 } },
    });
    expect(await count(db, 'select count(*)::int as n from private.user_import_rows')).toBe(0);
  });

  it('re-checks on every call: taken usernames and emails (any case) and repeats in the batch are skipped, the rest created', async () => {
    const prefix = `skip${Date.now().toString(36)}`;
    const list = rows(prefix, 6);
    list[1].username = 'ADMIN'; // the seeded admin, another case
    list[2].email = 'Student@Example.uk'; // the seeded learner's email, another case
    list[3].username = list[0].username.toUpperCase(); // repeats line 2's username
    list[4].email = list[0].email; // repeats line 2's email
    const outcome = await importAs(db, admin, list);
    expect(outcome.map((row) => [row.line, row.field, row.problem])).toEqual([
      [2, null, null],
      [3, 'username', 'Username is already taken'],
      [4, 'email', 'Email is already registered'],
      [5, 'username', 'Username appears earlier in the file'],
      [6, 'email', 'Email appears earlier in the file'],
      [7, null, null],
    ]);
    expect(outcome.filter((row) => row.user_id).length).toBe(2);
    expect(await count(db, `select count(*)::int as n from public.profiles where username like $1`, [`${prefix}%`])).toBe(2);

    // The same rows again: now every one is taken.
    const again = await importAs(db, admin, [list[0], list[5]].map((row) => ({ ...row, password: password() })));
    expect(again.map((row) => row.problem)).toEqual(['Username is already taken', 'Username is already taken']);
  });

  it('a failure part-way leaves no user of the batch: no account, identity, profile or audit event', async () => {
    const prefix = `atomic${Date.now().toString(36)}`;
    const list = rows(prefix, 50);
    const auditBefore = await count(db, 'select count(*)::int as n from public.audit_events');
    // A fault on the 30th profile (as a constraint or trigger could raise), after 29 users were made.
    await db.exec(`
      create function public.test_import_fault() returns trigger language plpgsql as $$
      begin
        if new.username = '${prefix}_29' then raise exception 'fault injected' using errcode = 'XX000'; end if;
        return new;
      end $$;
      create trigger test_import_fault before insert on public.profiles for each row execute function public.test_import_fault();`);
    try {
      expect(await sqlState(() => importAs(db, admin, list))).toBe('XX000');
    } finally {
      await db.exec('drop trigger test_import_fault on public.profiles; drop function public.test_import_fault();');
    }
    const like = `${prefix}.%`;
    expect(await count(db, 'select count(*)::int as n from auth.users where email like $1', [like])).toBe(0);
    expect(await count(db, `select count(*)::int as n from auth.identities where identity_data ->> 'email' like $1`, [like])).toBe(0);
    expect(await count(db, 'select count(*)::int as n from public.profiles where email like $1', [like])).toBe(0);
    expect(await count(db, 'select count(*)::int as n from public.audit_events')).toBe(auditBefore);
    expect(await count(db, 'select count(*)::int as n from private.user_import_rows')).toBe(0);

    // The same batch without the fault goes through whole.
    const outcome = await importAs(db, admin, list);
    expect(outcome.filter((row) => row.user_id).length).toBe(50);
  });

  it('refuses malformed batches as a whole', async () => {
    const prefix = `bad${Date.now().toString(36)}`;
    const ok = rows(prefix, 2);
    expect(await sqlState(() => importAs(db, admin, [ok[0], { ...ok[1], line: ok[0].line }]))).toBe('22023');
    expect(await sqlState(() => importAs(db, admin, [{ ...ok[0], password: 'short' }]))).toBe('22023');
    expect(await sqlState(() => importAs(db, admin, [{ ...ok[0], role: 'OWNER' }]))).toBe('22P02');
    expect(await sqlState(() => importAs(db, admin, [{ ...ok[0], services: ['XYZ'] }]))).toBe('22P02');
    expect(await sqlState(() => importAs(db, admin, [{ ...ok[0], username: 'ab' }]))).toBe('23514');
    expect(await sqlState(() => importAs(db, admin, rows(prefix, 1001)))).toBe('22023');
    expect(await sqlState(() =>
      queryAs(db, admin, `select * from private.import_users($1::uuid, 1, '{"line": 1}'::jsonb)`, [randomUUID()]))).toBe('22023');
    expect(await count(db, 'select count(*)::int as n from public.profiles where username like $1', [`${prefix}%`])).toBe(0);
  });

  it('only admins import or check clashes; the staging table is closed to every API role', async () => {
    const list = rows(`deny${Date.now().toString(36)}`, 1);
    for (const persona of [learner, instructor, visitor]) {
      expect(await sqlState(() => importAs(db, persona, list))).toBe('42501');
      expect(await sqlState(() =>
        queryAs(db, persona, `select * from private.user_import_clashes('{admin}', '{}')`))).toBe('42501');
    }
    for (const persona of [admin, learner, visitor]) {
      expect(await sqlState(() => queryAs(db, persona, 'select * from private.user_import_rows'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona,
        `insert into private.user_import_rows (user_id, batch_id, line, username, email, name, role, services)
         values (gen_random_uuid(), gen_random_uuid(), 1, 'x', 'x', 'x', 'ADMIN', '{}')`))).toBe('42501');
    }
    expect(await count(db, 'select count(*)::int as n from public.profiles where username = $1', [list[0].username])).toBe(0);
  });

  it('answers which usernames and emails of a whole file are taken, in any case, in one call', async () => {
    const result = await queryAs<{ field: string; value: string }>(
      db, admin,
      'select field, value from private.user_import_clashes($1::text[], $2::text[]) order by 1, 2',
      [['Admin', ' student ', 'nobody_here', 'admin'], ['INSTRUCTOR@example.uk', 'free@example.uk']],
    );
    expect(result.rows).toEqual([
      { field: 'email', value: 'instructor@example.uk' },
      { field: 'username', value: 'admin' },
      { field: 'username', value: 'student' },
    ]);
  });

  it('imported users are enrolled in the required training they match, like any new user', async () => {
    const course = ids.course(4);
    await db.query(`insert into public.required_training (course_id, role, service, created_by)
      values ($1, null, 'UKHW', $2)`, [course, admin.id]);
    const prefix = `req${Date.now().toString(36)}`;
    const list = rows(prefix, 3, { services: ['UKHW'] });
    list[2].services = ['MISC'];
    const outcome = await importAs(db, admin, list);
    const enrolled = await db.query<{ user_id: string }>(
      'select user_id from public.enrollments where course_id = $1 and user_id = any($2::uuid[])',
      [course, outcome.map((row) => row.user_id)],
    );
    expect(enrolled.rows.map((row) => row.user_id).sort()).toEqual([outcome[0].user_id, outcome[1].user_id].sort());
  });

  it('a normal sign-up still gets a STUDENT profile and its own user.created event', async () => {
    const id = randomUUID();
    await db.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', '{}', '{"username":"plain_signup_${Date.now().toString(36)}","name":"Plain"}', now(), now())`,
      [id, `plain.${Date.now().toString(36)}@example.uk`],
    );
    const profile = await db.query<{ role: string; services: string[] }>(
      'select role::text as role, services::text[] as services from public.profiles where id = $1', [id]);
    expect(profile.rows[0]).toEqual({ role: 'STUDENT', services: [] });
    expect(await count(db, `select count(*)::int as n from public.audit_events where action = 'user.created' and target_id = $1`, [id])).toBe(1);
  });
});
