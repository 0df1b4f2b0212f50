// The welcome notice and the password set from a recovery link, against the real platform.
// Adding a person (POST /api/users) and importing people (POST /api/admin/users/import) each write
// exactly one account-welcome notice per new person; a recovery link's session (Auth's
// /admin/generate_link, as delivery sends in the welcome email) sets a new password through
// PUT /api/profile/password/recovery, which also ends the temporary password's hold; a password
// session cannot use that route.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, config, db, login, register, test, unique } from './helpers.ts';

let adminTokenPromise: Promise<string> | undefined;
const adminToken = () => (adminTokenPromise ??= login('admin', 'password123'));

async function welcomes(userId: string) {
  const rows = await db.sql<{ kind: string; title: string; emailStatus: string }[]>`
    select kind, title, email_status from public.notifications
    where recipient_id = ${userId}::uuid and kind = 'account-welcome'`;
  return rows.map((row) => ({ ...row }));
}

/** A recovery session for the address, as the link in a welcome or reset email opens it. */
async function recoverySession(email: string): Promise<string> {
  const generated = await fetch(`${config.supabaseUrl}/auth/v1/admin/generate_link`, {
    method: 'POST',
    headers: {
      apikey: config.serviceRoleKey,
      authorization: `Bearer ${config.serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ type: 'recovery', email, redirect_to: `${config.supabaseUrl}/auth/reset` }),
  });
  const body = await generated.json();
  assert.equal(generated.status, 200, JSON.stringify(body));
  const followed = await fetch(body.action_link, { redirect: 'manual' });
  await followed.body?.cancel();
  assert.equal(followed.status, 303);
  const fragment = new URLSearchParams(new URL(followed.headers.get('location') ?? '').hash.slice(1));
  assert.equal(fragment.get('type'), 'recovery');
  return fragment.get('access_token') ?? '';
}

async function mustChange(userId: string): Promise<boolean> {
  const [row] = await db.sql<{ flag: boolean }[]>`select must_change_password as flag from public.profiles where id = ${userId}::uuid`;
  return row.flag;
}

test('welcome: adding a person writes exactly one account-welcome notice; the temporary password stays', async () => {
  const id = unique();
  const created = await call('POST', '/api/users', {
    token: await adminToken(),
    body: { username: `wel_${id}`, email: `wel_${id}@example.test`, name: `Welcome ${id}`, role: 'STUDENT', services: [] },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(typeof created.json.temporaryPassword, 'string');
  const [site] = await db.sql<{ siteName: string }[]>`select site_name from public.settings`;
  assert.deepEqual(await welcomes(created.json.user.id), [
    { kind: 'account-welcome', title: `Welcome to ${site.siteName}`, emailStatus: 'queued' },
  ]);
  // The temporary password still signs in.
  await login(`wel_${id}`, created.json.temporaryPassword);
});

test('welcome: an import writes exactly one account-welcome notice per person it creates', async () => {
  const id = unique();
  const rows = [0, 1, 2].map((i) => ({
    line: i + 2,
    username: `welimp_${id}_${i}`,
    email: `welimp_${id}_${i}@example.test`,
    name: `Imported ${i}`,
    role: 'STUDENT',
    services: '',
  }));
  const answer = await call('POST', '/api/admin/users/import', {
    token: await adminToken(),
    body: { importId: crypto.randomUUID(), part: 1, rows },
  });
  assert.equal(answer.status, 201, answer.text);
  assert.equal(answer.json.created.length, 3);
  const people = await db.sql<{ id: string }[]>`select id from public.profiles where username like ${`welimp_${id}_%`}`;
  assert.equal(people.length, 3);
  for (const person of people) assert.equal((await welcomes(person.id)).length, 1);
  // Registering yourself brings no welcome.
  const registered = await register();
  assert.equal((await welcomes(registered.user.id)).length, 0);
});

test('recovery: a link\'s session sets a new password without the current one and ends the temporary password\'s hold', async () => {
  const id = unique();
  const email = `rec_${id}@example.test`;
  const created = await call('POST', '/api/users', {
    token: await adminToken(),
    body: { username: `rec_${id}`, email, name: `Recover ${id}`, role: 'STUDENT', services: [] },
  });
  assert.equal(created.status, 201, created.text);
  const userId = created.json.user.id;
  const temporary = created.json.temporaryPassword as string;
  assert.equal(await mustChange(userId), true);

  // A session opened with a password (the temporary one) may not use the recovery route.
  const passwordSession = await login(`rec_${id}`, temporary);
  const refused = await call('PUT', '/api/profile/password/recovery', {
    token: passwordSession,
    body: { newPassword: 'Recovered-pass-42', confirmPassword: 'Recovered-pass-42' },
  });
  assert.equal(refused.status, 403, refused.text);
  assert.equal(await mustChange(userId), true);
  // Nor a visitor.
  assert.equal((await call('PUT', '/api/profile/password/recovery', {
    body: { newPassword: 'Recovered-pass-42', confirmPassword: 'Recovered-pass-42' },
  })).status, 401);

  const token = await recoverySession(email);
  // Validated first: 400 with the field.
  const mismatch = await call('PUT', '/api/profile/password/recovery', {
    token,
    body: { newPassword: 'Recovered-pass-42', confirmPassword: 'Something-else-42' },
  });
  assert.equal(mismatch.status, 400, mismatch.text);
  assert.ok(mismatch.json.fields?.confirmPassword);
  const common = await call('PUT', '/api/profile/password/recovery', { token, body: { newPassword: 'password123', confirmPassword: 'password123' } });
  assert.equal(common.status, 400, common.text);
  assert.equal(await mustChange(userId), true);

  const set = await call('PUT', '/api/profile/password/recovery', {
    token,
    body: { newPassword: 'Recovered-pass-42', confirmPassword: 'Recovered-pass-42' },
  });
  assert.equal(set.status, 204, set.text);
  assert.equal(await mustChange(userId), false);
  // The recovery session goes on; the temporary password's session was ended.
  assert.equal((await call('GET', '/api/courses', { token })).status, 200);
  assert.equal((await call('GET', '/api/user', { token: passwordSession })).status, 401);
  // The new password signs in, the temporary one no longer does.
  await login(`rec_${id}`, 'Recovered-pass-42');
  const old = await call('POST', '/api/login', { body: { username: `rec_${id}`, password: temporary } });
  assert.equal(old.status, 401, old.text);
});

closePoolAfterTests();
