// POST /api/users/:id/reset-password. Admins only; the person's old password and sessions
// stop working, the temporary password signs in but every /api route answers 403
// password_change_required until the person chooses their own; 'password.reset' is audited.
import assert from 'node:assert/strict';
import { call, chooseNewPassword, closePoolAfterTests, db, register, test } from './helpers.ts';

async function login(username: string, password: string): Promise<{ status: number; token?: string }> {
  const answer = await call('POST', '/api/login', { body: { username, password } });
  return { status: answer.status, token: answer.json?.session?.access_token };
}

async function adminToken(): Promise<string> {
  const signedIn = await login('admin', 'password123');
  assert.equal(signedIn.status, 200);
  return signedIn.token!;
}

test('password reset: statuses per persona (401 visitor, 403 non-admin, 404 unknown or malformed, 409 own account)', async () => {
  const admin = await adminToken();
  const target = await register();
  const other = await register();
  const path = `/api/users/${target.user.id}/reset-password`;

  assert.equal((await call('POST', path)).status, 401);
  const learner = await call('POST', path, { token: other.session.access_token });
  assert.equal(learner.status, 403, learner.text);
  const instructorLogin = await login('instructor', 'password123');
  assert.equal(instructorLogin.status, 200);
  const instructor = await call('POST', path, { token: instructorLogin.token });
  assert.equal(instructor.status, 403, instructor.text);
  // A non-admin may not even reset their own password this way.
  const own = await call('POST', `/api/users/${other.user.id}/reset-password`, { token: other.session.access_token });
  assert.equal(own.status, 403, own.text);

  assert.equal((await call('POST', '/api/users/00000000-0000-4000-a000-00000000dead/reset-password', { token: admin })).status, 404);
  assert.equal((await call('POST', '/api/users/not-a-uuid/reset-password', { token: admin })).status, 404);

  const [me] = await db.sql<{ id: string }[]>`select id from public.profiles where username = 'admin'`;
  const self = await call('POST', `/api/users/${me.id}/reset-password`, { token: admin });
  assert.equal(self.status, 409, self.text);
  assert.match(self.json.message, /profile page/);

  // Nothing happened to the target through any of these.
  const [row] = await db.sql<{ flag: boolean }[]>`select must_change_password as flag from public.profiles where id = ${target.user.id}::uuid`;
  assert.equal(row.flag, false);
  assert.equal((await login(target.input.username, target.input.password)).status, 200);
  const [{ n }] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from public.audit_events where action = 'password.reset' and target_id = ${target.user.id}::uuid`;
  assert.equal(n, 0);
});

test('password reset: old password and session refused; the temporary one signs in and must be replaced; audited', async () => {
  const admin = await adminToken();
  const target = await register();
  const oldToken = target.session.access_token as string;
  assert.equal((await call('GET', '/api/certificates', { token: oldToken })).status, 200);

  const reset = await call('POST', `/api/users/${target.user.id}/reset-password`, { token: admin });
  assert.equal(reset.status, 200, reset.text);
  const temporary = reset.json.temporaryPassword as string;
  assert.equal(typeof temporary, 'string');
  assert.ok(temporary.length >= 16);
  assert.deepEqual(Object.keys(reset.json), ['temporaryPassword']);
  assert.match(reset.headers.get('cache-control') ?? '', /no-store/);

  // The old session and the old password no longer work.
  const stale = await call('GET', '/api/certificates', { token: oldToken });
  assert.equal(stale.status, 401, stale.text);
  assert.equal((await login(target.input.username, target.input.password)).status, 401);

  // The temporary password signs in; every route but the password change says choose one first.
  const signedIn = await login(target.input.username, temporary);
  assert.equal(signedIn.status, 200);
  for (const [method, path] of [['GET', '/api/certificates'], ['GET', '/api/courses']] as const) {
    const held = await call(method, path, { token: signedIn.token });
    assert.equal(held.status, 403, held.text);
    assert.equal(held.json.code, 'password_change_required');
  }
  const chosen = await chooseNewPassword(signedIn.token!, temporary);
  assert.equal((await call('GET', '/api/certificates', { token: signedIn.token })).status, 200);
  assert.equal((await login(target.input.username, chosen)).status, 200);

  const events = await db.sql<{ actorUsername: string; targetType: string; newData: Record<string, unknown> }[]>`
    select actor_username, target_type, new_data from public.audit_events
    where action = 'password.reset' and target_id = ${target.user.id}::uuid`;
  assert.equal(events.length, 1);
  assert.equal(events[0].actorUsername, 'admin');
  assert.equal(events[0].targetType, 'user');
  assert.equal(JSON.stringify(events[0]).includes(temporary), false);
});

closePoolAfterTests();
