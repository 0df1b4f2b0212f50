// Notification intervals through the API: the settings' defaults in GET/PUT /api/settings
// and a required-training rule's own in /api/required-training, validated with field messages,
// answered largest first as the database keeps them.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, login, register, test, unique } from './helpers.ts';

const ADMIN_ID = '00000000-0000-4000-a000-000000000001';
const admin = await login('admin');

test('settings: the intervals are read by anyone and saved only by an admin, sorted, with field messages', async () => {
  const before = (await call('GET', '/api/settings', { token: admin })).json;
  assert.deepEqual(
    [before.dueSoonDays, before.expiryWarningDays, before.overdueRepeatDays, before.escalationDays],
    [[14, 3], [60, 30, 7], 7, 7],
  );
  assert.deepEqual((await call('GET', '/api/settings')).json.dueSoonDays, [14, 3]);
  const body = {
    siteName: before.siteName, adminEmail: before.adminEmail, courseAccess: before.courseAccess,
    certificateTemplate: before.certificateTemplate, footerText: before.footerText,
    enableAnalytics: before.enableAnalytics, autoEnrollment: before.autoEnrollment,
  };
  const { session } = await register();
  const change = { ...body, dueSoonDays: [7, 21], expiryWarningDays: '90, 30', overdueRepeatDays: 3, escalationDays: 10 };
  assert.equal((await call('PUT', '/api/settings', { token: session.access_token, body: change })).status, 403);

  const bad = await call('PUT', '/api/settings', {
    token: admin,
    body: { ...body, dueSoonDays: [3, 3], expiryWarningDays: [0], overdueRepeatDays: 400, escalationDays: 'x' },
  });
  assert.equal(bad.status, 400, bad.text);
  assert.deepEqual(bad.json.fields, {
    dueSoonDays: 'Enter each number of days once',
    expiryWarningDays: 'Enter 1 to 5 numbers of days between 1 and 365, separated by commas, e.g. 14, 3',
    overdueRepeatDays: 'Enter a whole number of days between 1 and 365',
    escalationDays: 'Enter a whole number of days between 1 and 365',
  });
  for (const days of [[], [1, 2, 3, 4, 5, 6], 'soon', [1.5], null]) {
    const answer = await call('PUT', '/api/settings', { token: admin, body: { ...body, dueSoonDays: days } });
    assert.equal(answer.status, 400, `${JSON.stringify(days)}: ${answer.text}`);
    assert.ok(answer.json.fields.dueSoonDays, JSON.stringify(days));
  }
  try {
    const saved = await call('PUT', '/api/settings', { token: admin, body: change });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(
      [saved.json.dueSoonDays, saved.json.expiryWarningDays, saved.json.overdueRepeatDays, saved.json.escalationDays],
      [[21, 7], [90, 30], 3, 10],
    );
    const [row] = await db.sql<{ notifyDueSoonDays: number[] }[]>`select notify_due_soon_days from public.settings`;
    assert.deepEqual(row.notifyDueSoonDays, [21, 7]);
    // The form without them (an older client) leaves them as they are.
    const kept = await call('PUT', '/api/settings', { token: admin, body });
    assert.deepEqual(kept.json.dueSoonDays, [21, 7]);
  } finally {
    await call('PUT', '/api/settings', {
      token: admin, body: { ...body, dueSoonDays: [14, 3], expiryWarningDays: [60, 30, 7], overdueRepeatDays: 7, escalationDays: 7 },
    });
  }
});

test('required training: a rule\'s own "due soon" days and escalation, set, cleared to the default and validated', async () => {
  const [course] = await db.sql<{ id: string }[]>`
    insert into public.courses (title, description, service, author_id, status)
    values (${`Intervals ${unique()}`}, 'A course made by the notification interval tests.', 'UKAS', ${ADMIN_ID}, 'ACTIVE')
    returning id`;
  const created = await call('POST', '/api/required-training', {
    token: admin,
    body: { courseId: course.id, service: 'UKAS', dueWithinDays: 28, notifyDueSoonDays: '3, 10', notifyEscalationDays: 2 },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual([created.json.notifyDueSoonDays, created.json.notifyEscalationDays], [[10, 3], 2]);
  const id = created.json.id;
  try {
    const cleared = await call('PUT', `/api/required-training/${id}`, { token: admin, body: { notifyEscalationDays: null } });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual([cleared.json.notifyDueSoonDays, cleared.json.notifyEscalationDays], [[10, 3], null]);
    const blank = await call('PUT', `/api/required-training/${id}`, { token: admin, body: { notifyDueSoonDays: ' ', notifyEscalationDays: 5 } });
    assert.deepEqual([blank.json.notifyDueSoonDays, blank.json.notifyEscalationDays], [null, 5]);
    const listed = await call('GET', `/api/required-training?courseId=${course.id}`, { token: admin });
    assert.equal(listed.json.items[0].notifyEscalationDays, 5);

    const bad = await call('PUT', `/api/required-training/${id}`, { token: admin, body: { notifyDueSoonDays: [400], notifyEscalationDays: 0 } });
    assert.equal(bad.status, 400, bad.text);
    assert.deepEqual(Object.keys(bad.json.fields).sort(), ['notifyDueSoonDays', 'notifyEscalationDays']);
    const badCreate = await call('POST', '/api/required-training', {
      token: admin, body: { courseId: course.id, role: 'STUDENT', notifyDueSoonDays: '14, 14' },
    });
    assert.equal(badCreate.status, 400, badCreate.text);
    assert.equal(badCreate.json.fields.notifyDueSoonDays, 'Enter each number of days once');
  } finally {
    await call('DELETE', `/api/required-training/${id}`, { token: admin });
    await db.sql`select private.erase_course(id) from public.courses where id = ${course.id}`;
  }
});

closePoolAfterTests();
