// Administration against the real platform: leavers (deactivate / reactivate), the audit
// trail's new events and filters, and the CSV exports' common format.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, config, login, register, test, unique } from './helpers.ts';

const adminToken = () => login('admin', 'password123');

/** Auth's password grant, as a client calling /auth/v1 itself would. */
async function authPasswordGrant(email: string, password: string) {
  const response = await fetch(`${config.supabaseUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const json = await response.json();
  return { status: response.status, json };
}

async function authRefresh(refreshToken: string) {
  const response = await fetch(`${config.supabaseUrl}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  await response.body?.cancel();
  return response.status;
}

// ---------------------------------------------------------------- leavers

test('deactivate: only admins; 404 for an unknown or malformed id; not yourself', async () => {
  const { user, session } = await register();
  const admin = await adminToken();
  assert.equal((await call('POST', `/api/users/${user.id}/deactivate`)).status, 401);
  assert.equal((await call('POST', `/api/users/${user.id}/deactivate`, { token: session.access_token })).status, 403);
  assert.equal((await call('POST', '/api/users/not-a-uuid/deactivate', { token: admin })).status, 404);
  assert.equal((await call('POST', `/api/users/${crypto.randomUUID()}/deactivate`, { token: admin })).status, 404);
  assert.equal((await call('POST', `/api/users/${crypto.randomUUID()}/reactivate`, { token: admin })).status, 404);
  const me = (await call('GET', '/api/users?search=admin%40example.uk', { token: admin })).json.items[0];
  const self = await call('POST', `/api/users/${me.id}/deactivate`, { token: admin });
  assert.equal(self.status, 403, self.text);
  assert.match(self.json.message, /your own account/);
});

test('a deactivated person is signed out at once and cannot sign in, through /api or /auth/v1; reactivated they can', async () => {
  const { user, session, input } = await register();
  const admin = await adminToken();
  assert.equal((await call('GET', '/api/user', { token: session.access_token })).status, 200);

  const off = await call('POST', `/api/users/${user.id}/deactivate`, { token: admin });
  assert.equal(off.status, 200, off.text);
  assert.equal(off.json.id, user.id);
  assert.match(off.json.deactivatedAt, /^\d{4}-\d\d-\d\dT/);

  // The access token still in the browser is refused at once; its refresh token too.
  assert.equal((await call('GET', '/api/user', { token: session.access_token })).status, 401);
  assert.equal(await authRefresh(session.refresh_token), 400);
  // Signing in again: refused by the API (403, said plainly) and by Auth itself.
  const again = await call('POST', '/api/login', { body: { username: input.username, password: input.password } });
  assert.equal(again.status, 403, again.text);
  assert.match(again.json.message, /deactivated/);
  const direct = await authPasswordGrant(input.email, input.password);
  assert.equal(direct.status, 400);
  assert.equal(direct.json.error_code ?? direct.json.code, 'user_banned');
  // A wrong password says nothing about the account.
  const wrong = await call('POST', '/api/login', { body: { username: input.username, password: 'wrong-password-1' } });
  assert.equal(wrong.status, 401);

  // Listed as deactivated under the status filter; not under active.
  const listed = await call('GET', `/api/users?status=deactivated&search=${input.username}`, { token: admin });
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.json.items.map((u: { id: string }) => u.id), [user.id]);
  const activeOnly = await call('GET', `/api/users?status=active&search=${input.username}`, { token: admin });
  assert.equal(activeOnly.json.items.length, 0);
  const plain = await call('GET', `/api/users?status=deactivated&pageSize=100`, { token: admin });
  assert.ok(plain.json.items.some((u: { id: string }) => u.id === user.id));
  assert.ok(plain.json.items.every((u: { deactivatedAt: string | null }) => u.deactivatedAt));

  const on = await call('POST', `/api/users/${user.id}/reactivate`, { token: admin });
  assert.equal(on.status, 200, on.text);
  assert.equal(on.json.deactivatedAt, undefined); // absent while active, as for every user answer
  await login(input.username, input.password);

  const audit = await call('GET', `/api/audit?pageSize=100`, { token: admin });
  const actions = audit.json.items.filter((e: { targetId: string }) => e.targetId === user.id).map((e: { action: string }) => e.action);
  assert.ok(actions.includes('user.deactivated'), actions.join());
  assert.ok(actions.includes('user.reactivated'), actions.join());
});

test('users list: a bad status or role filter is a 400 with the field named', async () => {
  const admin = await adminToken();
  const bad = await call('GET', '/api/users?status=gone', { token: admin });
  assert.equal(bad.status, 400, bad.text);
  assert.equal(bad.json.fields.status, 'Status must be active or deactivated');
  const role = await call('GET', '/api/users?role=BOSS', { token: admin });
  assert.equal(role.status, 400);
  assert.equal(role.json.fields.role, 'Unknown role');
  const students = await call('GET', '/api/users?role=STUDENT&pageSize=100', { token: admin });
  assert.ok(students.json.items.every((u: { role: string }) => u.role === 'STUDENT'));
  void unique;
});

// ---------------------------------------------------------------- the audit trail's filters and CSV

test('audit: filters by what, who, date and words; validation 400s name the field', async () => {
  const admin = await adminToken();
  assert.equal((await call('GET', '/api/audit?action=course.created')).status, 401);
  const { session } = await register();
  assert.equal((await call('GET', '/api/audit', { token: session.access_token })).status, 403);
  assert.equal((await call('GET', '/api/audit/export.csv', { token: session.access_token })).status, 403);

  for (const [query, field] of [
    ['action=DROP%20TABLE', 'action'], ['actor=nobody', 'actor'], ['from=25/11/2026', 'from'], ['to=2026-02-30', 'to'],
    ['from=2026-11-25&to=2026-11-01', 'to'], [`search=${'x'.repeat(201)}`, 'search'],
  ] as const) {
    const bad = await call('GET', `/api/audit?${query}`, { token: admin });
    assert.equal(bad.status, 400, `${query}: ${bad.text}`);
    assert.ok(bad.json.fields[field], `${query}: ${bad.text}`);
    assert.equal((await call('GET', `/api/audit/export.csv?${query}`, { token: admin })).status, 400);
  }

  // A course made and published through the API: both recorded, found by kind, by who and by words.
  const title = `Radio procedure ${unique()}`;
  const created = await call('POST', '/api/courses', {
    token: admin,
    body: { title, description: 'Talking on the radio', service: 'UKPS', level: 'BEGINNER', duration: 60, status: 'DRAFT' },
  });
  assert.equal(created.status, 201, created.text);
  const courseId = created.json.id ?? created.json.course?.id;
  const published = await call('PUT', `/api/courses/${courseId}`, { token: admin, body: { status: 'ACTIVE' } });
  assert.equal(published.status, 200, published.text);

  const me = (await call('GET', '/api/user', { token: admin })).json;
  const adminId = me.id ?? me.user?.id;
  const byKind = await call('GET', `/api/audit?action=course.published&search=${encodeURIComponent(title)}`, { token: admin });
  assert.equal(byKind.status, 200, byKind.text);
  assert.equal(byKind.json.total, 1);
  assert.equal(byKind.json.items[0].targetLabel, title);
  assert.deepEqual(byKind.json.items[0].oldData, { status: 'DRAFT' });
  const byWho = await call('GET', `/api/audit?actor=${adminId}&search=${encodeURIComponent(title)}`, { token: admin });
  assert.deepEqual(byWho.json.items.map((e: { action: string }) => e.action).sort(), ['course.created', 'course.published']);
  const nobody = await call('GET', `/api/audit?actor=${crypto.randomUUID()}&search=${encodeURIComponent(title)}`, { token: admin });
  assert.equal(nobody.json.total, 0);
  // The London days the two events happened on (one day, or two when made across midnight), read
  // from the events themselves rather than the clock, so the filter is asked for their days.
  const londonDay = (at: string | Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date(at));
  const days = byWho.json.items.map((e: { occurredAt: string }) => londonDay(e.occurredAt)).sort();
  const theirDays = await call('GET', `/api/audit?from=${days[0]}&to=${days.at(-1)}&search=${encodeURIComponent(title)}`, { token: admin });
  assert.equal(theirDays.json.total, 2);
  const lastYear = await call('GET', `/api/audit?to=2025-12-31&search=${encodeURIComponent(title)}`, { token: admin });
  assert.equal(lastYear.json.total, 0);

  // The CSV: the same filters, ISO dates, the readable summary, the file name with today's date.
  const before = londonDay(new Date());
  const csv = await call('GET', `/api/audit/export.csv?search=${encodeURIComponent(title)}`, { token: admin });
  const after = londonDay(new Date());
  assert.equal(csv.status, 200, csv.text);
  assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
  assert.match(csv.headers.get('content-disposition') ?? '', new RegExp(`filename="activity-(${before}|${after})\\.csv"`));
  const lines = csv.text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
  assert.equal(lines[0], 'date,time,who,username,kind,what,target,summary,before,after');
  assert.equal(lines.length, 3);
  assert.ok(lines.every((line, i) => i === 0 || days.some((day: string) => line.startsWith(`${day},`))), lines.join('\n'));
  assert.ok(lines.some((line) => line.includes(`published '${title}'`)), lines.join('\n'));
  await call('DELETE', `/api/courses/${courseId}`, { token: admin });
});

closePoolAfterTests();
