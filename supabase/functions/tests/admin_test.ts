// Administration API against the real platform: users, role services, settings and the audit trail.
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, ROLE_SERVICE_PRESETS } from '../_shared/admin.ts';
import { call, chooseNewPassword, closePoolAfterTests, db, register, test, unique } from './helpers.ts';

async function login(username: string, password: string): Promise<string> {
  const answer = await call('POST', '/api/login', { body: { username, password } });
  assert.equal(answer.status, 200, answer.text);
  return answer.json.session.access_token;
}

const adminToken = () => login('admin', 'password123');

/** A new admin made through the API itself, so no test touches the seed admin's role. */
async function newAdmin(): Promise<{ token: string; id: string }> {
  const admin = await adminToken();
  const id = unique();
  const created = await call('POST', '/api/users', {
    token: admin,
    body: { username: `adm_${id}`, email: `adm_${id}@example.test`, name: `Admin ${id}`, role: 'ADMIN', services: [] },
  });
  assert.equal(created.status, 201, created.text);
  const token = await login(`adm_${id}`, created.json.temporaryPassword);
  await chooseNewPassword(token, created.json.temporaryPassword);
  return { token, id: created.json.user.id };
}

function assertNoLeak(text: string) {
  assert.doesNotMatch(text, /\bat .+:\d+:\d+|stack|select |insert into|syntax error|invalid input syntax/i);
}

// ---------------------------------------------------------------- settings

test('settings: a visitor reads the public settings without adminEmail or contact', async () => {
  const answer = await call('GET', '/api/settings');
  assert.equal(answer.status, 200, answer.text);
  assert.equal(typeof answer.json.siteName, 'string');
  assert.equal(answer.json.courseAccess, 'public-login');
  assert.equal('adminEmail' in answer.json, false);
  assert.equal(answer.json.contactEmail, null);
});

test('settings: a learner sees the contact email but not adminEmail; an admin sees adminEmail', async () => {
  const { session } = await register();
  const learner = await call('GET', '/api/settings', { token: session.access_token });
  assert.equal(learner.status, 200);
  assert.equal('adminEmail' in learner.json, false);
  assert.match(learner.json.contactEmail, /@/);
  const admin = await call('GET', '/api/settings', { token: await adminToken() });
  assert.equal(admin.json.adminEmail, admin.json.contactEmail);
});

test('settings: only admins save; the spec messages on bad input; the change is audited', async () => {
  const { session } = await register();
  const token = await adminToken();
  const before = (await call('GET', '/api/settings', { token })).json;
  const body = {
    siteName: before.siteName, adminEmail: before.adminEmail, courseAccess: before.courseAccess,
    certificateTemplate: before.certificateTemplate, footerText: before.footerText,
    enableAnalytics: before.enableAnalytics, autoEnrollment: before.autoEnrollment,
  };
  assert.equal((await call('PUT', '/api/settings', { body })).status, 401);
  assert.equal((await call('PUT', '/api/settings', { token: session.access_token, body })).status, 403);

  const bad = await call('PUT', '/api/settings', { token, body: { ...body, siteName: '  ', adminEmail: 'nope' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.fields.siteName, 'Site name is required');
  assert.equal(bad.json.fields.adminEmail, 'Please enter a valid email');
  const badEnum = await call('PUT', '/api/settings', { token, body: { ...body, courseAccess: 'everyone' } });
  assert.equal(badEnum.status, 400);
  assert.equal((await call('PUT', '/api/settings', { token, raw: '{', headers: { 'content-type': 'application/json' } })).status, 400);

  const name = `Learning ${unique()}`;
  try {
    const saved = await call('PUT', '/api/settings', { token, body: { ...body, siteName: name } });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.json.siteName, name);
    assert.equal((await call('GET', '/api/settings')).json.siteName, name);
    const audit = await call('GET', '/api/audit?pageSize=50', { token });
    const event = audit.json.items.find((e: { action: string; newData: { siteName?: string } }) =>
      e.action === 'settings.updated' && e.newData?.siteName === name);
    assert.ok(event, 'settings change in the audit trail');
    assert.equal(event.actor.username, 'admin');
    assert.equal(event.oldData.siteName, before.siteName);
  } finally {
    await call('PUT', '/api/settings', { token, body });
  }
});

test('settings: login-browse hides every course from visitors; login-approval makes enrolments pending', async () => {
  const token = await adminToken();
  const before = (await call('GET', '/api/settings', { token })).json;
  const body = { ...DEFAULT_SETTINGS, ...before };
  delete body.updatedAt;
  delete body.contactEmail;
  const { session, user } = await register();
  try {
    assert.equal((await call('PUT', '/api/settings', { token, body: { ...body, courseAccess: 'login-browse' } })).status, 200);
    // RLS itself: the visitor's database role sees no course.
    const visible = await db.withCaller({ role: 'anon', claims: { role: 'anon' } }, (tx) => tx`select count(*)::int as n from public.courses`);
    assert.equal(visible[0].n, 0);
    const asLearner = await db.withCaller(
      { role: 'authenticated', claims: { role: 'authenticated', sub: user.id } },
      (tx) => tx`select count(*)::int as n from public.courses`,
    );
    assert.ok(asLearner[0].n > 0);

    assert.equal((await call('PUT', '/api/settings', { token, body: { ...body, courseAccess: 'login-approval' } })).status, 200);
    const [enrolment] = await db.withCaller(
      { role: 'authenticated', claims: { role: 'authenticated', sub: user.id } },
      (tx) => tx`insert into public.enrollments (user_id, course_id)
        values (${user.id}::uuid, '10000000-0000-4000-a000-000000000002') returning status::text as status`,
    );
    assert.equal(enrolment.status, 'PENDING');
    assert.ok(session.access_token);
  } finally {
    await call('PUT', '/api/settings', { token, body });
  }
});

test('settings: with autoEnrollment on, a new user is enrolled in every featured published course', async () => {
  const token = await adminToken();
  const before = (await call('GET', '/api/settings', { token })).json;
  const body = { ...DEFAULT_SETTINGS, ...before };
  delete body.updatedAt;
  delete body.contactEmail;
  try {
    assert.equal((await call('PUT', '/api/settings', { token, body: { ...body, autoEnrollment: true } })).status, 200);
    const { user } = await register();
    const rows = await db.sql`
      select (select count(*)::int from public.enrollments where user_id = ${user.id}::uuid) as enrolled,
             (select count(*)::int from public.courses where featured and status = 'ACTIVE') as featured`;
    assert.ok(rows[0].featured > 0);
    assert.equal(rows[0].enrolled, rows[0].featured);
  } finally {
    await call('PUT', '/api/settings', { token, body });
  }
  const { user } = await register();
  const [off] = await db.sql`select count(*)::int as n from public.enrollments where user_id = ${user.id}::uuid`;
  assert.equal(off.n, 0);
});

// ---------------------------------------------------------------- users

test('users: only admins list; search by part of the email, case-insensitive; service filter; paging', async () => {
  const { session, user, input } = await register();
  assert.equal((await call('GET', '/api/users')).status, 401);
  assert.equal((await call('GET', '/api/users', { token: session.access_token })).status, 403);
  const token = await adminToken();
  const part = input.email.slice(5, 14).toUpperCase();
  const found = await call('GET', `/api/users?search=${encodeURIComponent(part)}`, { token });
  assert.equal(found.status, 200, found.text);
  assert.deepEqual(found.json.items.map((u: { id: string }) => u.id), [user.id]);
  assert.equal(found.json.total, 1);
  // Fewer matches than USER_SEARCH_MATCH_LIMIT: the total is exact (the limit is proven in supabase/tests/read-path-totals).
  assert.equal(found.json.moreMatches, false);

  const byName = await call('GET', `/api/users?search=${encodeURIComponent(input.name.toLowerCase())}`, { token });
  assert.equal(byName.json.items[0].id, user.id);
  // Wildcards are characters, not patterns.
  assert.equal((await call('GET', '/api/users?search=%25%25%25', { token })).json.total, 0);

  const page = await call('GET', '/api/users?page=2&pageSize=2', { token });
  assert.equal(page.json.items.length, 2);
  assert.equal(page.json.page, 2);
  assert.ok(page.json.total >= 4);

  const police = await call('GET', '/api/users?service=UKPS&pageSize=100', { token });
  assert.ok(police.json.items.length > 0);
  assert.ok(police.json.items.every((u: { services: string[] }) => u.services.includes('UKPS')));

  for (const query of ['pageSize=1000', 'page=0', 'service=NOPE', 'page=abc']) {
    const bad = await call('GET', `/api/users?${query}`, { token });
    assert.equal(bad.status, 400, query);
    assertNoLeak(bad.text);
  }
});

test('users: an admin adds a user with a one-time temporary password that signs in', async () => {
  const token = await adminToken();
  const id = unique();
  const body = { username: `new_${id}`, email: `new_${id}@example.test`, name: `New ${id}`, role: 'INSTRUCTOR', services: ['UKAS', 'UKPS', 'UKAS'] };
  const created = await call('POST', '/api/users', { token, body });
  assert.equal(created.status, 201, created.text);
  const { user, temporaryPassword } = created.json;
  assert.equal(user.role, 'INSTRUCTOR');
  assert.deepEqual(user.services, ['UKPS', 'UKAS']);
  assert.ok(temporaryPassword.length >= 20);
  assert.match(temporaryPassword, /[A-Z]/);
  assert.match(temporaryPassword, /[0-9]/);
  const signedIn = await call('POST', '/api/login', { body: { username: body.username, password: temporaryPassword } });
  assert.equal(signedIn.status, 200, signedIn.text);
  assert.equal(signedIn.json.user.role, 'INSTRUCTOR');

  // Listed again: never the password.
  const listed = await call('GET', `/api/users?search=${body.username}`, { token });
  assert.ok(!listed.text.includes(temporaryPassword));

  const again = await call('POST', '/api/users', { token, body: { ...body, email: `x_${id}@example.test` } });
  assert.equal(again.status, 409);
  assert.equal(again.json.fields.username, 'Username is already taken');
  const sameEmail = await call('POST', '/api/users', { token, body: { ...body, username: `y_${id}` } });
  assert.equal(sameEmail.status, 409);

  const invalid = await call('POST', '/api/users', { token, body: { username: 'a', email: 'no', name: '', role: 'KING', services: ['X'] } });
  assert.equal(invalid.status, 400);
  assert.deepEqual(Object.keys(invalid.json.fields).sort(), ['email', 'name', 'role', 'services.0', 'username']);

  const audit = await call('GET', '/api/audit?pageSize=100', { token });
  const event = audit.json.items.find((e: { action: string; targetId: string }) => e.action === 'user.created' && e.targetId === user.id);
  assert.equal(event?.actor?.username, 'admin');
});

test('users: a learner may not add users', async () => {
  const { session } = await register();
  const id = unique();
  const answer = await call('POST', '/api/users', {
    token: session.access_token,
    body: { username: `n_${id}`, email: `n_${id}@example.test`, name: 'N', role: 'ADMIN', services: [] },
  });
  assert.equal(answer.status, 403);
  const [row] = await db.sql`select count(*)::int as n from public.profiles where username = ${`n_${id}`}`;
  assert.equal(row.n, 0);
});

test('users: an admin edits name, email, role and services; the new email signs in', async () => {
  const token = await adminToken();
  const { user, input } = await register();
  const email = `changed_${unique()}@example.test`;
  const answer = await call('PUT', `/api/users/${user.id}`, {
    token,
    body: { name: 'Renamed Person', email, role: 'INSTRUCTOR', services: ['UKAS'] },
  });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.name, 'Renamed Person');
  assert.equal(answer.json.email, email);
  assert.equal(answer.json.role, 'INSTRUCTOR');
  assert.deepEqual(answer.json.services, ['UKAS']);
  assert.equal((await call('POST', '/api/login', { body: { username: email, password: input.password } })).status, 200);

  const audit = await call('GET', '/api/audit?pageSize=100', { token });
  const event = audit.json.items.find((e: { action: string; targetId: string }) => e.action === 'user.permissions_changed' && e.targetId === user.id);
  assert.deepEqual(event.oldData, { role: 'STUDENT', services: [] });
  assert.deepEqual(event.newData, { role: 'INSTRUCTOR', services: ['UKAS'] });
});

test('users: editing oneself changes name and email only; others are 403; bad ids 404', async () => {
  const { session, user } = await register();
  const other = await register();
  const own = await call('PUT', `/api/users/${user.id}`, { token: session.access_token, body: { name: 'My New Name' } });
  assert.equal(own.status, 200, own.text);
  assert.equal(own.json.name, 'My New Name');
  assert.equal((await call('PUT', `/api/users/${user.id}`, { token: session.access_token, body: { role: 'ADMIN' } })).status, 403);
  assert.equal((await call('PUT', `/api/users/${user.id}`, { token: session.access_token, body: { services: ['UKPS'] } })).status, 403);
  assert.equal((await call('PUT', `/api/users/${other.user.id}`, { token: session.access_token, body: { name: 'Hacked' } })).status, 403);

  const token = await adminToken();
  const [admin] = await db.sql`select id from public.profiles where username = 'admin'`;
  const selfDemote = await call('PUT', `/api/users/${admin.id}`, { token, body: { role: 'STUDENT' } });
  assert.equal(selfDemote.status, 403);
  // Same role and services as now: allowed (the dialog sends every field).
  const same = await call('PUT', `/api/users/${admin.id}`, { token, body: { role: 'ADMIN', services: (await call('GET', '/api/user', { token })).json.services } });
  assert.equal(same.status, 200, same.text);

  for (const id of ['not-a-uuid', '00000000-0000-4000-a000-00000000zzzz', "1' or '1'='1"]) {
    const answer = await call('PUT', `/api/users/${encodeURIComponent(id)}`, { token, body: { name: 'X' } });
    assert.equal(answer.status, 404, id);
    assertNoLeak(answer.text);
  }
  assert.equal((await call('PUT', `/api/users/00000000-0000-4000-a000-0000000fffff`, { token, body: { name: 'X' } })).status, 404);
  const invalid = await call('PUT', `/api/users/${other.user.id}`, { token, body: { email: 'bad', role: 'KING' } });
  assert.equal(invalid.status, 400);
  assert.equal(invalid.json.fields.email, 'Please enter a valid email');
});

test('users: an admin deletes a user (204, then 404); the audit names who; learners cannot', async () => {
  const { session, user } = await register();
  const other = await register();
  assert.equal((await call('DELETE', `/api/users/${other.user.id}`, { token: session.access_token })).status, 403);
  const token = await adminToken();
  assert.equal((await call('DELETE', `/api/users/${user.id}`, { token })).status, 204);
  assert.equal((await call('DELETE', `/api/users/${user.id}`, { token })).status, 404);
  assert.equal((await call('DELETE', '/api/users/nope', { token })).status, 404);
  const [gone] = await db.sql`select count(*)::int as n from auth.users where id = ${user.id}::uuid`;
  assert.equal(gone.n, 0);
  const audit = await call('GET', '/api/audit?pageSize=100', { token });
  const event = audit.json.items.find((e: { action: string; targetId: string }) => e.action === 'user.deleted' && e.targetId === user.id);
  assert.equal(event?.actor?.username, 'admin');
  assert.equal(event.oldData.email, user.email);
});

test('users: the last administrator cannot delete themself (409); with another admin they may', async () => {
  const second = await newAdmin();
  // The second admin leaves: allowed, the seed admin remains.
  assert.equal((await call('DELETE', `/api/users/${second.id}`, { token: second.token })).status, 204);
  // In one transaction as the seed admin with every other admin out of the way: 409 via the trigger.
  const [admin] = await db.sql`select id from public.profiles where username = 'admin'`;
  const error = await db.withCaller(
    { role: 'authenticated', claims: { role: 'authenticated', sub: admin.id } },
    async (tx) => {
      await tx`update public.profiles set role = 'STUDENT' where role = 'ADMIN' and id <> ${admin.id}::uuid`;
      await tx`select private.delete_user(${admin.id}::uuid)`;
    },
  ).then(() => null, (e) => e);
  assert.equal(error?.code, 'P0409');
});

// ---------------------------------------------------------------- role permissions

test('roles: the matrix says all/some/none from the data; bulk set replaces every STUDENT\'s services', async () => {
  const token = await adminToken();
  const { session } = await register();
  assert.equal((await call('GET', '/api/roles', { token: session.access_token })).status, 403);
  assert.equal((await call('PUT', '/api/roles/STUDENT/services', { token: session.access_token, body: { services: ['UKAS'] } })).status, 403);
  assert.equal((await call('PUT', '/api/roles/KING/services', { token, body: { services: [] } })).status, 404);
  assert.equal((await call('PUT', '/api/roles/STUDENT/services', { token, body: { services: ['NOPE'] } })).status, 400);
  assert.equal((await call('PUT', '/api/roles/STUDENT/services', { token, body: {} })).status, 400);

  try {
    const set = await call('PUT', '/api/roles/STUDENT/services', { token, body: { services: ['UKAS', 'MISC'] } });
    assert.equal(set.status, 200, set.text);
    const [counts] = await db.sql`select count(*)::int as n from public.profiles where role = 'STUDENT'`;
    assert.equal(set.json.updated, counts.n);
    const [wrong] = await db.sql`select count(*)::int as n from public.profiles where role = 'STUDENT' and services <> '{UKAS,MISC}'`;
    assert.equal(wrong.n, 0);
    const matrix = (await call('GET', '/api/roles', { token })).json;
    const student = matrix.find((r: { role: string }) => r.role === 'STUDENT');
    assert.equal(student.services.UKAS, 'all');
    assert.equal(student.services.MISC, 'all');
    assert.equal(student.services.UKPS, 'none');

    // One student differs: some.
    const { user } = await register();
    const some = (await call('GET', '/api/roles', { token })).json.find((r: { role: string }) => r.role === 'STUDENT');
    assert.equal(some.services.UKAS, 'some');
    assert.ok(user.id);

    const audit = await call('GET', '/api/audit?pageSize=20', { token });
    assert.ok(audit.json.items.some((e: { action: string }) => e.action === 'users.permissions_changed'));
  } finally {
    await call('PUT', '/api/roles/STUDENT/services', { token, body: { services: ROLE_SERVICE_PRESETS.STUDENT } });
  }
});

// ---------------------------------------------------------------- audit

test('audit: admins only, paged newest first', async () => {
  const { session } = await register();
  assert.equal((await call('GET', '/api/audit', { token: session.access_token })).status, 403);
  assert.equal((await call('GET', '/api/audit')).status, 401);
  const token = await adminToken();
  const page = await call('GET', '/api/audit?pageSize=5', { token });
  assert.equal(page.status, 200);
  assert.ok(page.json.items.length <= 5);
  const ids = page.json.items.map((e: { id: string }) => Number(e.id));
  assert.deepEqual(ids, [...ids].sort((a, b) => b - a));
  assert.equal((await call('GET', '/api/audit?pageSize=101', { token })).status, 400);
});

closePoolAfterTests();
