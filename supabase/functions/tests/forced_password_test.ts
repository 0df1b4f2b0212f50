// A person given a temporary password (created by an admin, or imported from a CSV file)
// must choose a new one first. Every /api route but the password change, sign-out, the current user
// and the public settings answers 403 {code: 'password_change_required'}; changing it clears the flag.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, login, register, test, unique } from './helpers.ts';

async function assertHeldBack(token: string) {
  for (const [method, path, body] of [
    ['GET', '/api/courses', undefined],
    ['POST', '/api/courses', {}],
    ['PUT', '/api/profile', { name: 'Someone Else' }],
    ['GET', '/api/certificates', undefined],
  ] as const) {
    const answer = await call(method, path, { token, body });
    assert.equal(answer.status, 403, `${method} ${path}: ${answer.text}`);
    assert.equal(answer.json.code, 'password_change_required', `${method} ${path}`);
    assert.equal(answer.json.message, 'Choose a new password before continuing');
  }
}

test('forced password: a user an admin adds must choose a new password before anything else', async () => {
  const admin = await login('admin', 'password123');
  const id = unique();
  const created = await call('POST', '/api/users', {
    token: admin,
    body: { username: `fp_${id}`, email: `fp_${id}@example.test`, name: `Forced ${id}`, role: 'STUDENT', services: [] },
  });
  assert.equal(created.status, 201, created.text);
  const temporary = created.json.temporaryPassword as string;

  const signedIn = await call('POST', '/api/login', { body: { username: `fp_${id}`, password: temporary } });
  assert.equal(signedIn.status, 200, signedIn.text);
  assert.equal(signedIn.json.user.mustChangePassword, true);
  const token = signedIn.json.session.access_token;

  // Allowed: who am I, the public settings.
  const me = await call('GET', '/api/user', { token });
  assert.equal(me.status, 200, me.text);
  assert.equal(me.json.mustChangePassword, true);
  assert.equal((await call('GET', '/api/settings', { token })).status, 200);
  await assertHeldBack(token);

  // A wrong current password changes nothing.
  const wrong = await call('PUT', '/api/profile/password', {
    token,
    body: { currentPassword: 'not-the-password', newPassword: 'Brand-new-pass-42', confirmPassword: 'Brand-new-pass-42' },
  });
  assert.equal(wrong.status, 400, wrong.text);
  await assertHeldBack(token);

  const changed = await call('PUT', '/api/profile/password', {
    token,
    body: { currentPassword: temporary, newPassword: 'Brand-new-pass-42', confirmPassword: 'Brand-new-pass-42' },
  });
  assert.equal(changed.status, 204, changed.text);
  const after = await call('GET', '/api/user', { token });
  assert.equal(after.status, 200);
  assert.equal(after.json.mustChangePassword, undefined);
  const certificates = await call('GET', '/api/certificates', { token });
  assert.equal(certificates.status, 200, certificates.text);
  const [row] = await db.sql<{ flag: boolean }[]>`select must_change_password as flag from public.profiles where id = ${created.json.user.id}::uuid`;
  assert.equal(row.flag, false);

  // Signing out still works while flagged (checked on a second flagged account below).
});

test('forced password: imported users are flagged; sign-out works; a self-registered user is not', async () => {
  const admin = await login('admin', 'password123');
  const id = unique();
  const rows = [{ line: 2, username: `fpi_${id}`, email: `fpi_${id}@example.test`, name: `Imported ${id}`, role: 'STUDENT', services: '' }];
  const imported = await call('POST', '/api/admin/users/import', { token: admin, body: { importId: crypto.randomUUID(), part: 1, rows } });
  assert.equal(imported.status, 201, imported.text);
  const person = imported.json.created[0];
  const token = await login(person.username, person.temporaryPassword);
  await assertHeldBack(token);
  assert.equal((await call('POST', '/api/logout', { token })).status, 204);

  const own = await register();
  assert.equal(own.user.mustChangePassword, undefined);
  assert.equal((await call('GET', '/api/certificates', { token: own.session.access_token })).status, 200);
});

test('forced password: no API role sets or clears the flag straight through the database', async () => {
  const admin = await login('admin', 'password123');
  const id = unique();
  const created = await call('POST', '/api/users', {
    token: admin,
    body: { username: `fpd_${id}`, email: `fpd_${id}@example.test`, name: `Direct ${id}`, role: 'STUDENT', services: [] },
  });
  assert.equal(created.status, 201, created.text);
  const userId = created.json.user.id as string;
  const claims = JSON.stringify({ sub: userId, role: 'authenticated' });
  const attempt = (sql: string) =>
    db.sql.begin(async (tx) => {
      await tx.unsafe(`select set_config('request.jwt.claims', $1, true)`, [claims]);
      await tx.unsafe('set local role authenticated');
      await tx.unsafe(sql, [userId]);
    }).then(() => null, (error: { code?: string }) => error.code ?? 'error');
  assert.equal(await attempt('update public.profiles set must_change_password = false where id = $1::uuid'), '42501');
  assert.equal(await attempt(`update public.profiles set name = 'Taken Over' where id = $1::uuid`), '42501');
  const [row] = await db.sql<{ flag: boolean; name: string }[]>`select must_change_password as flag, name from public.profiles where id = ${userId}::uuid`;
  assert.deepEqual([row.flag, row.name], [true, `Direct ${id}`]);
});

closePoolAfterTests();
