// One name rule wherever a name is written: a name holding an invisible or bidirectional character
// is refused with 400 and the name field's message (Auth's own 400 when Auth is called directly),
// never a 500 or a 409, and nothing is written. Each route and Auth path that writes a name, with
// each kind of character; then the answers around the profile trigger (a long name the admin's
// dialog allows is created, not "Username is already taken").
import assert from 'node:assert/strict';
import { NAME_INVISIBLE } from '../_shared/schemas.ts';
import { type Answer, call, closePoolAfterTests, config, db, register, test, unique } from './helpers.ts';

async function login(username: string, password = 'password123'): Promise<string> {
  const answer = await call('POST', '/api/login', { body: { username, password } });
  assert.equal(answer.status, 200, answer.text);
  return answer.json.session.access_token;
}

let adminTokenPromise: Promise<string> | undefined;
const adminToken = () => (adminTokenPromise ??= login('admin'));

/** The characters: hidden (zero-width space), reordering (right-to-left override), and two others
 * that draw nothing (Arabic letter mark, a bidirectional mark; Hangul filler, a blank letter). */
const CHARACTERS: [string, string][] = [
  ['a zero-width space', '\u200B'],
  ['a right-to-left override', '\u202E'],
  ['an Arabic letter mark', '\u061C'],
  ['a Hangul filler', '\u3164'],
];

const [{ id: ORGANISATION }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values ('Namecheck Fire', ${`N${unique().slice(-10).toUpperCase()}`}, 'UKFRS')
  returning id`;

async function profileCount(where: { username?: string; email?: string }): Promise<number> {
  const [{ n }] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from public.profiles
    where lower(username) = lower(${where.username ?? ''}) or lower(email) = lower(${where.email ?? ''})`;
  return n;
}
async function authUserCount(email: string): Promise<number> {
  const [{ n }] = await db.sql<{ n: number }[]>`select count(*)::int as n from auth.users where email = lower(${email})`;
  return n;
}
async function nameOf(id: string): Promise<string> {
  const [{ name }] = await db.sql<{ name: string }[]>`select name from public.profiles where id = ${id}::uuid`;
  return name;
}

/** A route or Auth path that writes a name: sends `name`, answers, and says whether anything was written. */
interface NamePath {
  path: string;
  write(name: string): Promise<{ answer: Answer; written: () => Promise<boolean> }>;
  /** How the refusal reads: the 400's field message, a skipped import row's problem, or Auth's msg. */
  refusal(answer: Answer): string | undefined;
}

const fieldMessage = (answer: Answer) => (answer.status === 400 ? answer.json?.fields?.name : undefined);
// deno-lint-ignore no-explicit-any
const importProblem = (row: any) => row?.problems?.find((p: { field: string }) => p.field === 'name')?.message;

async function authRequest(path: string, key: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${config.supabaseUrl}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const PATHS: NamePath[] = [
  {
    path: 'POST /api/register',
    async write(name) {
      const id = unique();
      const input = { username: `nm_${id}`, email: `nm_${id}@example.test`, name, password: `pw-${id}-secret` };
      const answer = await call('POST', '/api/register', { body: { ...input, confirmPassword: input.password } });
      return { answer, written: async () => (await profileCount(input)) + (await authUserCount(input.email)) > 0 };
    },
    refusal: fieldMessage,
  },
  {
    path: 'PUT /api/profile',
    async write(name) {
      const { user, session, input } = await register();
      const answer = await call('PUT', '/api/profile', { token: session.access_token, body: { name, email: input.email } });
      return { answer, written: async () => (await nameOf(user.id)) !== input.name };
    },
    refusal: fieldMessage,
  },
  {
    path: 'POST /api/users',
    async write(name) {
      const id = unique();
      const input = { username: `nu_${id}`, email: `nu_${id}@example.test`, name, role: 'STUDENT', services: [] };
      const answer = await call('POST', '/api/users', { token: await adminToken(), body: input });
      return { answer, written: async () => (await profileCount(input)) + (await authUserCount(input.email)) > 0 };
    },
    refusal: fieldMessage,
  },
  {
    path: 'PUT /api/users/:id',
    async write(name) {
      const { user, input } = await register();
      const answer = await call('PUT', `/api/users/${user.id}`, { token: await adminToken(), body: { name } });
      return { answer, written: async () => (await nameOf(user.id)) !== input.name };
    },
    refusal: fieldMessage,
  },
  {
    path: 'POST /api/admin/users/import/preview',
    async write(name) {
      const id = unique();
      const csv = `username,email,name\nni_${id},ni_${id}@example.test,"${name}"\n`;
      const answer = await call('POST', '/api/admin/users/import/preview', {
        token: await adminToken(),
        raw: csv,
        headers: { 'content-type': 'text/csv; charset=utf-8' },
      });
      return { answer, written: async () => (await profileCount({ username: `ni_${id}` })) > 0 };
    },
    refusal: (answer) => (answer.status === 200 && answer.json.valid === 0 ? importProblem(answer.json.rows[0]) : undefined),
  },
  {
    path: 'POST /api/admin/users/import',
    async write(name) {
      const id = unique();
      const row = { line: 2, username: `nj_${id}`, email: `nj_${id}@example.test`, name, role: 'STUDENT', services: '' };
      const answer = await call('POST', '/api/admin/users/import', {
        token: await adminToken(),
        body: { importId: crypto.randomUUID(), part: 1, rows: [row] },
      });
      return { answer, written: async () => (await profileCount(row)) + (await authUserCount(row.email)) > 0 };
    },
    refusal: (answer) => (answer.status === 200 && answer.json.created.length === 0 ? importProblem(answer.json.skipped[0]) : undefined),
  },
  {
    path: 'POST /api/organisations',
    async write(name) {
      const code = `Z${unique().slice(-10).toUpperCase()}`;
      const answer = await call('POST', '/api/organisations', { token: await adminToken(), body: { name, code, service: 'UKPS' } });
      return {
        answer,
        written: async () => (await db.sql`select 1 from public.organisations where code = ${code}`).length > 0,
      };
    },
    refusal: fieldMessage,
  },
  {
    path: 'POST /api/organisations/:id/units',
    async write(name) {
      const answer = await call('POST', `/api/organisations/${ORGANISATION}/units`, { token: await adminToken(), body: { name } });
      return {
        answer,
        written: async () => (await db.sql`select 1 from public.units where organisation_id = ${ORGANISATION} and name like '%Ann%Smith'`).length > 0,
      };
    },
    refusal: fieldMessage,
  },
  {
    path: 'PUT /api/organisations/:id/units/:unitId',
    async write(name) {
      const [{ id }] = await db.sql<{ id: string }[]>`
        insert into public.units (organisation_id, name) values (${ORGANISATION}, ${`Watch ${unique()}`}) returning id`;
      const answer = await call('PUT', `/api/organisations/${ORGANISATION}/units/${id}`, { token: await adminToken(), body: { name } });
      return {
        answer,
        written: async () => (await db.sql`select 1 from public.units where id = ${id} and name like 'Watch %'`).length === 0,
      };
    },
    refusal: fieldMessage,
  },
  {
    path: 'POST /auth/v1/signup (Auth directly, name in user metadata)',
    async write(name) {
      const id = unique();
      const email = `na_${id}@example.test`;
      const answer = await authRequest('/signup', config.anonKey, {
        email,
        password: `pw-${id}-secret`,
        data: { username: `na_${id}`, name },
      });
      return { answer, written: async () => (await authUserCount(email)) + (await profileCount({ email })) > 0 };
    },
    refusal: (answer) => (answer.status >= 400 && answer.status < 500 ? answer.json?.msg : undefined),
  },
  {
    path: 'POST /auth/v1/admin/users (Auth directly, with the service role)',
    async write(name) {
      const id = unique();
      const email = `nb_${id}@example.test`;
      const answer = await authRequest('/admin/users', config.serviceRoleKey, {
        email,
        password: `pw-${id}-secret`,
        email_confirm: true,
        user_metadata: { username: `nb_${id}`, name },
      });
      return { answer, written: async () => (await authUserCount(email)) + (await profileCount({ email })) > 0 };
    },
    refusal: (answer) => (answer.status >= 400 && answer.status < 500 ? answer.json?.msg : undefined),
  },
];

for (const [what, character] of CHARACTERS) {
  test(`names: a name with ${what} is refused with the name's message on every path that writes one, and nothing is written`, async () => {
    const failures: string[] = [];
    for (const path of PATHS) {
      for (const name of [`Ann${character}Smith`, `${character}Ann Smith`]) {
        const { answer, written } = await path.write(name);
        const refusal = path.refusal(answer);
        if (refusal !== NAME_INVISIBLE) failures.push(`${path.path} ${JSON.stringify(name)}: ${answer.status} ${answer.text.slice(0, 160)}`);
        else if (await written()) failures.push(`${path.path} ${JSON.stringify(name)}: refused, but written`);
      }
    }
    assert.deepEqual(failures, []);
  });
}

test('names: a visible name in another script and a decomposed accent are accepted (stored in NFC)', async () => {
  const { user, session, input } = await register();
  for (const name of ['Zoë Ó Briain', 'Zoe\u0308 O\u0301 Briain', 'محمد علي', 'Ελένη Παπαδοπούλου']) {
    const answer = await call('PUT', '/api/profile', { token: session.access_token, body: { name, email: input.email } });
    assert.equal(answer.status, 200, `${name}: ${answer.text}`);
    assert.equal(await nameOf(user.id), name.normalize('NFC'));
  }
});

test('names: a 150-character name the Add User dialog allows is created (201), not answered "Username is already taken"', async () => {
  const id = unique();
  const name = `Ann ${'Long'.repeat(36)} ${id}`.slice(0, 150);
  const input = { username: `nl_${id}`, email: `nl_${id}@example.test`, name, role: 'STUDENT', services: [] };
  const answer = await call('POST', '/api/users', { token: await adminToken(), body: input });
  assert.equal(answer.status, 201, answer.text);
  assert.equal(answer.json.user.name, name);
  // Imported the same way.
  const row = { line: 2, username: `nm_${id}`, email: `nm_${id}@example.test`, name, role: 'STUDENT', services: '' };
  const imported = await call('POST', '/api/admin/users/import', { token: await adminToken(), body: { importId: crypto.randomUUID(), part: 1, rows: [row] } });
  assert.equal(imported.status, 201, imported.text);
  assert.equal(imported.json.created.length, 1);
});

test('names: the profile refuses an invisible character written straight to the database (the same rule as the API)', async () => {
  const { user } = await register();
  for (const [, character] of CHARACTERS) {
    await assert.rejects(
      db.sql`update public.profiles set name = ${`Ann${character}Smith`} where id = ${user.id}::uuid`,
      (error: { code?: string; constraint_name?: string }) => error.code === '23514' && error.constraint_name === 'profiles_name_visible',
    );
  }
});

test('names: a unit name with such a character is refused by the database too', async () => {
  for (const [, character] of CHARACTERS) {
    await assert.rejects(
      db.sql`insert into public.units (organisation_id, name) values (${ORGANISATION}, ${`Blue${character}Watch`})`,
      (error: { code?: string }) => error.code === '23514',
    );
  }
});

closePoolAfterTests();
