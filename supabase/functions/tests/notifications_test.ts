// Notifications API against the real platform: GET /api/notifications (paged, newest first, unread
// filter, unread count), PUT /api/notifications/:id/read (404 for another's), POST
// /api/notifications/read-all, and GET/PUT /api/me/notification-preferences with its 400 when an
// overdue or expiry kind is switched off. Notices are written straight into the database here (the
// decision function has its own tests in supabase/tests/notifications.test.ts), plus one run of it.
import nodeAssert from 'node:assert/strict';
import { assertEquals, call, closePoolAfterTests, db, register, test } from './helpers.ts';

async function person() {
  const made = await register();
  return { id: made.user.id as string, token: made.session.access_token as string };
}

/** Three notices for the person, a minute apart (the last the newest). */
async function notices(userId: string): Promise<string[]> {
  const rows = await db.sql<{ id: string }[]>`
    insert into public.notifications (recipient_id, kind, person_id, occasion, title, body, link_path, created_at)
    select ${userId}::uuid, k.kind, ${userId}::uuid, current_date + k.n, 'Notice ' || k.n, 'Body ' || k.n, '/certificates',
           now() - make_interval(mins => 10 - k.n)
    from (values (1, 'training-assigned'), (2, 'training-due-soon'), (3, 'training-overdue')) k(n, kind)
    order by k.n
    returning id`;
  return rows.map((r) => r.id);
}

test('the list: own notices only, newest first, paged, with the unread count; 401 signed out', async () => {
  const a = await person();
  const b = await person();
  const ids = await notices(a.id);
  await notices(b.id);

  const all = await call('GET', '/api/notifications', { token: a.token });
  assertEquals(all.status, 200);
  assertEquals(all.json.items.map((n: { id: string }) => n.id), [...ids].reverse());
  assertEquals(all.json.total, 3);
  assertEquals(all.json.unreadCount, 3);
  assertEquals(all.json.items[0], {
    id: ids[2], kind: 'training-overdue', title: 'Notice 3', body: 'Body 3', linkPath: '/certificates',
    createdAt: all.json.items[0].createdAt, readAt: null,
  });

  const page2 = await call('GET', '/api/notifications?page=2&pageSize=2', { token: a.token });
  assertEquals(page2.json.items.map((n: { id: string }) => n.id), [ids[0]]);
  assertEquals([page2.json.total, page2.json.page, page2.json.pageSize], [3, 2, 2]);

  assertEquals((await call('GET', '/api/notifications')).status, 401);
  const bad = await call('GET', '/api/notifications?pageSize=500&unread=maybe', { token: a.token });
  assertEquals(bad.status, 400);
  assertEquals(Object.keys(bad.json.fields).sort(), ['pageSize', 'unread']);
});

test('marking one read (404 for another\'s or a bad id), the unread filter, and marking all read', async () => {
  const a = await person();
  const b = await person();
  const ids = await notices(a.id);
  const theirs = await notices(b.id);

  const read = await call('PUT', `/api/notifications/${ids[1]}/read`, { token: a.token });
  assertEquals(read.status, 200);
  nodeAssert.ok(read.json.readAt);
  assertEquals((await call('PUT', `/api/notifications/${theirs[0]}/read`, { token: a.token })).status, 404);
  assertEquals((await call('PUT', '/api/notifications/not-a-uuid/read', { token: a.token })).status, 404);
  assertEquals((await call('PUT', `/api/notifications/${ids[0]}/read`)).status, 401);
  const [still] = await db.sql<{ readAt: Date | null }[]>`select read_at from public.notifications where id = ${theirs[0]}`;
  assertEquals(still.readAt, null);

  const unread = await call('GET', '/api/notifications?unread=true', { token: a.token });
  assertEquals(unread.json.items.map((n: { id: string }) => n.id), [ids[2], ids[0]]);
  assertEquals([unread.json.total, unread.json.unreadCount], [2, 2]);

  const all = await call('POST', '/api/notifications/read-all', { token: a.token });
  assertEquals(all.status, 200);
  assertEquals(all.json, { marked: 2, unreadCount: 0 });
  assertEquals((await call('GET', '/api/notifications', { token: a.token })).json.unreadCount, 0);
  assertEquals((await call('GET', '/api/notifications', { token: b.token })).json.unreadCount, 3);
  assertEquals((await call('POST', '/api/notifications/read-all')).status, 401);
});

test('a certificate issued reaches the bell through the decision function', async () => {
  const a = await person();
  await db.sql`insert into public.certificates (user_id, course_id, learner_name, course_title)
    values (${a.id}::uuid, '10000000-0000-4000-a000-000000000004', 'Bell Tester', 'Bell Course')`;
  await db.sql`select private.decide_notifications(now())`;
  const list = await call('GET', '/api/notifications', { token: a.token });
  assertEquals(list.json.items.map((n: { kind: string; title: string }) => [n.kind, n.title]), [['certificate-issued', 'Certificate issued: Bell Course']]);
  nodeAssert.match(list.json.items[0].linkPath, /^\/verify\/[A-Z0-9]+$/);
});

test('preferences: defaults, a change, 400 with the field for overdue or expiry email, 401 signed out', async () => {
  const a = await person();
  const b = await person();
  const defaults = await call('GET', '/api/me/notification-preferences', { token: a.token });
  assertEquals(defaults.status, 200);
  assertEquals(defaults.json.language, 'en-GB');
  nodeAssert.ok(Object.values(defaults.json.email).every((on) => on === true));

  const changed = await call('PUT', '/api/me/notification-preferences', {
    token: a.token, body: { language: 'en-GB', email: { 'training-due-soon': false, 'certificate-issued': false, 'training-assigned': true } },
  });
  assertEquals(changed.status, 200);
  assertEquals(changed.json.email['training-due-soon'], false);
  assertEquals(changed.json.email['certificate-issued'], false);
  assertEquals(changed.json.email['training-overdue'], true);
  const again = await call('GET', '/api/me/notification-preferences', { token: a.token });
  assertEquals(again.json, changed.json);
  // Only their own: the other person still has the defaults.
  assertEquals((await call('GET', '/api/me/notification-preferences', { token: b.token })).json, defaults.json);

  const refused = await call('PUT', '/api/me/notification-preferences', {
    token: a.token, body: { email: { 'training-overdue': false, 'certificate-expired': false } },
  });
  assertEquals(refused.status, 400);
  assertEquals(Object.keys(refused.json.fields).sort(), ['email.certificate-expired', 'email.training-overdue']);
  nodeAssert.match(refused.json.fields['email.training-overdue'], /cannot be switched off/);
  const unknown = await call('PUT', '/api/me/notification-preferences', { token: a.token, body: { language: 'fr-FR', email: { nope: false } } });
  assertEquals(unknown.status, 400);
  nodeAssert.ok(unknown.json.fields.language);
  // Nothing changed by the refused requests.
  assertEquals((await call('GET', '/api/me/notification-preferences', { token: a.token })).json, changed.json);

  assertEquals((await call('GET', '/api/me/notification-preferences')).status, 401);
  assertEquals((await call('PUT', '/api/me/notification-preferences', { body: { email: {} } })).status, 401);
});

closePoolAfterTests();
