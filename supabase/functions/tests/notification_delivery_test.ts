// Email delivery of notifications against the real platform's database and a real SMTP server
// started here (smtp-server, on a free port): POST /api/notifications/deliver (the service role key
// only), two runs at once, a run killed half-way, SMTP down for a while (each ends with every email
// delivered exactly once), the emails themselves, and the administrators' Delivery list and resend
// (access both ways, 400/401/403/404/409).
import assert from 'node:assert/strict';
import { SMTPServer } from 'smtp-server';
import { call, closePoolAfterTests, config, db, register, test, unique } from './helpers.ts';
import { closeTransports, deliverNotifications, type MailConfig, mailConfigFromEnv, messageIdFor } from '../api/lib/delivery.ts';
import { escapeHtml, renderNotificationEmail } from '../api/lib/emails.ts';

const SITE_URL = 'http://127.0.0.1:5173';

/** A real SMTP server that keeps every message it receives. */
class Catcher {
  messages: string[] = [];
  port = 0;
  private server: SMTPServer | null = null;

  async start(port = 0) {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, _session, done) => {
        const chunks: Uint8Array[] = [];
        stream.on('data', (chunk: Uint8Array) => chunks.push(chunk));
        stream.on('end', () => {
          this.messages.push(new TextDecoder().decode(concat(chunks)));
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    this.port = (server.server.address() as { port: number }).port;
    this.server = server;
  }

  async stop() {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** How many messages carry each Message-ID. */
  countOf(messageId: string): number {
    return this.messages.filter((m) => headerOf(m, 'Message-ID') === messageId).length;
  }

  find(messageId: string): string | undefined {
    return this.messages.find((m) => headerOf(m, 'Message-ID') === messageId);
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function headerOf(message: string, name: string): string | undefined {
  const head = message.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.*)$`, 'mi').exec(head)?.[1]?.trim();
}

const catcher = new Catcher();
await catcher.start();
const smtpEnv = () => {
  Deno.env.set('SMTP_HOST', '127.0.0.1');
  Deno.env.set('SMTP_PORT', String(catcher.port));
  Deno.env.set('SMTP_FROM', 'notifications@example.test');
  Deno.env.set('SITE_URL', SITE_URL);
};
smtpEnv();
const mail = (): MailConfig => ({ host: '127.0.0.1', port: catcher.port, secure: false, from: 'notifications@example.test', siteUrl: SITE_URL });
const messageId = (id: string, resends = 0) => messageIdFor(id, resends, SITE_URL);

const service = { authorization: `Bearer ${config.serviceRoleKey}` };
const deliver = (body?: unknown) => call('POST', '/api/notifications/deliver', { headers: service, body });

async function person(role = 'STUDENT') {
  const made = await register();
  if (role !== 'STUDENT') await db.sql`update public.profiles set role = ${role}::public.user_role where id = ${made.user.id}::uuid`;
  return { id: made.user.id as string, token: made.session.access_token as string, email: made.input.email, name: made.input.name };
}

/** n queued notices for the person, as private.decide_notifications writes them; dated ten years on,
 * so the Delivery list's first page shows them whatever other tests wrote (some move time forward). */
async function queued(userId: string, n: number, title = 'Fire Safety is overdue'): Promise<string[]> {
  const rows = await db.sql<{ id: string }[]>`
    insert into public.notifications (recipient_id, kind, person_id, occasion, title, body, link_path, created_at)
    select ${userId}::uuid, 'training-overdue', ${userId}::uuid, current_date - 1000 - g, ${title}, 'It was due on 1 November 2026.', '/certificates',
           now() + interval '10 years' - make_interval(secs => g)
    from generate_series(1, ${n}) g
    returning id`;
  return rows.map((r) => r.id);
}

/** Sends whatever else is queued (other tests' notices), so each test starts from an empty queue. */
async function drain() {
  for (let i = 0; i < 20; i += 1) {
    const r = await deliverNotifications(db, config, mail(), { max: 1000 });
    if (r.claimed === 0) return;
  }
}

const statusOf = async (ids: string[]) =>
  await db.sql<{ id: string; emailStatus: string; emailAttempts: number; emailLastError: string | null; emailNextAttemptAt: Date | null }[]>`
    select id, email_status, email_attempts, email_last_error, email_next_attempt_at from public.notifications
    where id = any(${ids}::uuid[]) order by id`;

test('deliver: the service role key only (401 without a key, 403 with any other), and its body is checked', async () => {
  const learner = await person();
  assert.equal((await call('POST', '/api/notifications/deliver')).status, 401);
  assert.equal((await call('POST', '/api/notifications/deliver', { headers: { authorization: `Bearer ${config.anonKey}` } })).status, 403);
  assert.equal((await call('POST', '/api/notifications/deliver', { headers: { apikey: config.anonKey } })).status, 403);
  assert.equal((await call('POST', '/api/notifications/deliver', { token: learner.token })).status, 403);
  assert.equal((await call('POST', '/api/notifications/deliver', { headers: { authorization: `Bearer ${config.serviceRoleKey}x` } })).status, 403);
  assert.equal((await call('POST', '/api/notifications/deliver', { headers: { authorization: 'Basic abc' } })).status, 401);
  const bad = await deliver({ max: 0, when: 'now' });
  assert.equal(bad.status, 400);
  assert.ok(bad.json.fields);
  assert.equal((await call('POST', '/api/notifications/deliver', { headers: { ...service, 'content-type': 'application/json' }, raw: '{' })).status, 400);
  assert.equal((await call('GET', '/api/notifications/deliver', { headers: service })).status !== 200, true);
  assert.equal((await call('POST', '/api/notifications/deliver', { headers: service, raw: '' })).status, 200);
  assert.equal((await call('POST', '/api/notifications/deliver', { headers: service, raw: 'x'.repeat(5000) })).status, 413);
  assert.equal((await call('POST', '/api/notifications/deliver', { headers: service, raw: '[1]' })).status, 400);
  const ok = await deliver({ max: 10 });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(Object.keys(ok.json).sort(), ['claimed', 'failed', 'sent']);
  const viaApikey = await call('POST', '/api/notifications/deliver', { headers: { apikey: config.serviceRoleKey } });
  assert.equal(viaApikey.status, 200, viaApikey.text);
});

test('two deliver runs at once send each email once, with the notification\'s Message-ID, text and HTML', async () => {
  await drain();
  const learner = await person();
  await db.sql`update public.profiles set name = ${'Ann <b>O\'Brien</b>'} where id = ${learner.id}::uuid`;
  const ids = await queued(learner.id, 30, 'Fire <Safety> & Rescue is overdue');
  const [a, b] = await Promise.all([deliver(), deliver()]);
  assert.equal(a.status, 200, a.text);
  assert.equal(b.status, 200, b.text);
  assert.equal(a.json.sent + b.json.sent, 30);
  for (const id of ids) assert.equal(catcher.countOf(messageId(id)), 1, id);
  assert.deepEqual(new Set((await statusOf(ids)).map((r) => r.emailStatus)), new Set(['sent']));
  assert.equal((await deliver()).json.claimed, 0);

  const message = catcher.find(messageId(ids[0]))!;
  assert.match(headerOf(message, 'To')!, new RegExp(learner.email.replace(/[.]/g, '\\.')));
  assert.equal(headerOf(message, 'Auto-Submitted'), 'auto-generated');
  const [{ siteName: site }] = await db.sql<{ siteName: string }[]>`select site_name from public.settings`;
  assert.equal(headerOf(message, 'From'), `${site} <notifications@example.test>`);
  // SMTP_FROM as the platform gives it, a name and an address: the address is the sender's.
  const env: Record<string, string> = { SMTP_HOST: 'smtp.example.test', SMTP_FROM: 'Emergency Services Learning <noreply@example.test>', SITE_URL: 'https://learn.example.test/' };
  assert.deepEqual(mailConfigFromEnv((name) => env[name]), {
    host: 'smtp.example.test', port: 587, secure: false, user: undefined, pass: undefined, from: 'noreply@example.test', siteUrl: 'https://learn.example.test',
  });
  assert.equal(mailConfigFromEnv(() => undefined), null);
  assert.match(message, /multipart\/alternative/);
  assert.doesNotMatch(message, /<img/i);
  // The site's name from the settings, the escaped title and name, the item and the preferences.
  const [{ siteName }] = await db.sql<{ siteName: string }[]>`select site_name from public.settings`;
  const email = renderNotificationEmail(
    { kind: 'training-overdue', title: 'Fire <Safety> & Rescue is overdue', body: 'It was due on 1 November 2026.', linkPath: '/certificates', recipientName: 'Ann <b>O\'Brien</b>' },
    { siteName, siteUrl: SITE_URL },
  );
  assert.equal(email.subject, 'Fire <Safety> & Rescue is overdue');
  assert.match(email.text, /^Hello Ann <b>O'Brien<\/b>,/);
  assert.match(email.text, new RegExp(`See your certificates: ${SITE_URL}/certificates`));
  assert.match(email.text, new RegExp(`Choose which emails you get: ${SITE_URL}/profile`));
  assert.ok(email.text.includes(siteName));
  assert.ok(email.html.includes('<html lang="en-GB">'));
  assert.ok(email.html.includes(escapeHtml('Fire <Safety> & Rescue is overdue')));
  assert.ok(!email.html.includes('<Safety>'));
  assert.ok(!email.html.includes('<b>O'));
  assert.ok(email.html.includes(`href="${SITE_URL}/profile"`));

  // A welcome (account-welcome): the set-password link Auth made at send time, escaped.
  const link = `${config.supabaseUrl}/auth/v1/verify?token=abc&type=recovery&redirect_to=${SITE_URL}/auth/reset`;
  const welcome = renderNotificationEmail(
    { kind: 'account-welcome', title: `Welcome to ${siteName}`, body: 'Your account has been created.', linkPath: null, recipientName: 'Wyn', data: { username: 'wyn.new' } },
    { siteName, siteUrl: SITE_URL, actionLink: link },
  );
  assert.equal(welcome.subject, `Your account on ${siteName}`);
  assert.match(welcome.text, /Your username is wyn\.new\./);
  assert.ok(welcome.text.includes(`Choose your password: ${link}`));
  assert.ok(welcome.html.includes(`href="${escapeHtml(link)}"`));
  assert.ok(!welcome.html.includes('&type=recovery'));
});

/** A header's MIME encoded-words (RFC 2047, as nodemailer writes them) decoded. */
function decodedHeader(value: string): string {
  return value.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_all, kind: string, text: string) => {
    const bytes = kind.toUpperCase() === 'B'
      ? Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
      : Uint8Array.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h) => String.fromCharCode(parseInt(h, 16))), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  });
}

test('a Welsh speaker\'s due-soon email is in Welsh (subject and body, 2 ddiwrnod, 22 Tachwedd 2026); an English speaker\'s stays as written', async () => {
  const [{ siteName }] = await db.sql<{ siteName: string }[]>`select site_name from public.settings`;
  const dueSoon = {
    kind: 'training-due-soon', title: 'Diogelwch Dŵr is due in 2 days', body: 'Complete it by 22 November 2026.', linkPath: '/course/x',
    recipientName: 'Gwenllïan', data: { courseTitle: 'Diogelwch Dŵr', dueAt: '2026-11-22T12:00:00+00:00', days: 2 },
  };
  const welsh = renderNotificationEmail({ ...dueSoon, language: 'cy' }, { siteName, siteUrl: SITE_URL });
  assert.equal(welsh.subject, 'Mae Diogelwch Dŵr yn ddyledus ymhen 2 ddiwrnod');
  assert.match(welsh.text, /^Helo Gwenllïan,/);
  assert.ok(welsh.text.includes('Cwblhewch y cwrs erbyn 22 Tachwedd 2026.'), welsh.text);
  assert.ok(welsh.text.includes(`Agor y cwrs: ${SITE_URL}/course/x`), welsh.text);
  assert.ok(welsh.text.includes(`Rydych yn cael yr e-bost hwn oherwydd eich gosodiadau hysbysiadau ar ${siteName}.`), welsh.text);
  assert.ok(welsh.text.includes(`Dewiswch pa negeseuon e-bost a gewch: ${SITE_URL}/profile`), welsh.text);
  assert.ok(welsh.html.includes('<html lang="cy">'));
  for (const english of ['Hello', 'is due in', 'Complete it by', 'Open the course', 'You get this email', 'Choose which emails']) {
    assert.ok(!welsh.text.includes(english) && !welsh.html.includes(english), `no English "${english}" in the Welsh email`);
  }
  // Welsh counts take Intl.PluralRules('cy')'s forms.
  const days = (n: number) => renderNotificationEmail({ ...dueSoon, language: 'cy', data: { ...dueSoon.data, days: n } }, { siteName, siteUrl: SITE_URL }).subject;
  assert.equal(days(1), 'Mae Diogelwch Dŵr yn ddyledus ymhen 1 diwrnod');
  assert.equal(days(3), 'Mae Diogelwch Dŵr yn ddyledus ymhen 3 diwrnod');
  assert.equal(days(14), 'Mae Diogelwch Dŵr yn ddyledus ymhen 14 diwrnod');
  // English: the database's words, as before.
  const english = renderNotificationEmail({ ...dueSoon, language: 'en-GB' }, { siteName, siteUrl: SITE_URL });
  assert.equal(english.subject, 'Diogelwch Dŵr is due in 2 days');
  assert.ok(english.text.includes('Complete it by 22 November 2026.') && english.text.startsWith('Hello Gwenllïan,'));
  assert.deepEqual(renderNotificationEmail(dueSoon, { siteName, siteUrl: SITE_URL }), english);

  // A welcome in Welsh.
  const welcome = renderNotificationEmail(
    { kind: 'account-welcome', title: `Welcome to ${siteName}`, body: 'Your account has been created.', linkPath: null, recipientName: 'Wyn', data: { username: 'wyn.new' }, language: 'cy' },
    { siteName, siteUrl: SITE_URL, actionLink: `${SITE_URL}/set` },
  );
  assert.equal(welcome.subject, `Eich cyfrif ar ${siteName}`);
  assert.ok(welcome.text.includes('Eich enw defnyddiwr yw wyn.new.') && welcome.text.includes(`Dewiswch eich cyfrinair: ${SITE_URL}/set`), welcome.text);

  // Through the worker: the recipient's profile language decides.
  await drain();
  const learner = await person();
  assert.equal((await call('PUT', '/api/profile/language', { token: learner.token, body: { language: 'cy' } })).status, 200);
  const [row] = await db.sql<{ id: string }[]>`
    insert into public.notifications (recipient_id, kind, person_id, occasion, threshold, title, body, data, link_path, created_at)
    values (${learner.id}::uuid, 'training-due-soon', ${learner.id}::uuid, current_date - 3000, 2, 'Diogelwch Dŵr is due in 2 days',
            'Complete it by 22 November 2026.', (${JSON.stringify(dueSoon.data)}::text)::jsonb, '/course/x', now() + interval '10 years')
    returning id`;
  const sent = await deliverNotifications(db, config, mail(), { max: 100 });
  assert.ok(sent.sent >= 1, JSON.stringify(sent));
  const message = catcher.find(messageId(row.id));
  assert.ok(message, 'the Welsh email was sent');
  assert.equal(decodedHeader(headerOf(message, 'Subject') ?? ''), 'Mae Diogelwch Dŵr yn ddyledus ymhen 2 ddiwrnod');
  assert.match(message, /lang=(3D)?"cy"/);
});

test('a run killed half-way (claimed, never recorded): its emails go out once after the lease, with the rest', async () => {
  await drain();
  const learner = await person();
  const ids = await queued(learner.id, 6);
  // The "killed" worker: claims three, sends nothing, records nothing.
  const claimed = await db.withServiceRole((tx) => tx<{ id: string }[]>`
    select id from private.claim_notification_emails(now(), 3, 300)`);
  assert.equal(claimed.length, 3);
  const first = await deliver();
  assert.equal(first.json.sent, 3);
  for (const id of ids) assert.equal(catcher.countOf(messageId(id)), claimed.some((c) => c.id === id) ? 0 : 1);
  // Within the lease nothing more; after it, the abandoned three, once.
  assert.equal((await deliver()).json.claimed, 0);
  const later = new Date(Date.now() + 6 * 60_000);
  const second = await deliverNotifications(db, config, mail(), { now: later });
  assert.equal(second.sent, 3);
  assert.equal((await deliverNotifications(db, config, mail(), { now: later })).claimed, 0);
  for (const id of ids) assert.equal(catcher.countOf(messageId(id)), 1, id);
  const rows = await statusOf(ids);
  assert.deepEqual(rows.map((r) => r.emailStatus), ids.map(() => 'sent'));
  assert.deepEqual(rows.filter((r) => r.emailAttempts === 2).length, 3);
});

test('SMTP down for a while: attempts recorded with backoff, shown in the Delivery list, then delivered once', async () => {
  await drain();
  const admin = await person('ADMIN');
  const learner = await person();
  const ids = await queued(learner.id, 4);
  const port = catcher.port;
  closeTransports();
  await catcher.stop();
  const t0 = Date.now();
  const down = await deliver();
  assert.equal(down.status, 200, down.text);
  assert.equal(down.json.failed, 4);
  let rows = await statusOf(ids);
  for (const r of rows) {
    assert.equal(r.emailStatus, 'queued');
    assert.equal(r.emailAttempts, 1);
    assert.match(r.emailLastError ?? '', /ECONNREFUSED|connect/i);
    const wait = r.emailNextAttemptAt!.getTime() - t0;
    assert.ok(wait > 50_000 && wait < 70_000, `retry in about a minute, not ${wait} ms`);
  }
  // Visible to the administrator as queued, with the attempt and the error.
  const list = await call('GET', '/api/notifications/deliveries?status=queued&pageSize=100', { token: admin.token });
  assert.equal(list.status, 200, list.text);
  const mine = list.json.items.filter((d: { id: string }) => ids.includes(d.id));
  assert.equal(mine.length, 4);
  assert.deepEqual(mine[0].recipient, { id: learner.id, name: learner.name, email: learner.email });
  assert.equal(mine[0].attempts, 1);
  assert.match(mine[0].lastError, /ECONNREFUSED|connect/i);
  assert.ok(mine[0].nextAttemptAt);
  // Not retried before its time; the second attempt (still down) waits five minutes.
  assert.equal((await deliver()).json.claimed, 0);
  const second = await deliverNotifications(db, config, mail(), { now: new Date(t0 + 2 * 60_000) });
  assert.equal(second.failed, 4);
  rows = await statusOf(ids);
  for (const r of rows) {
    assert.equal(r.emailAttempts, 2);
    const wait = r.emailNextAttemptAt!.getTime() - (t0 + 2 * 60_000);
    assert.ok(wait > 4 * 60_000 && wait < 6 * 60_000, `retry in about five minutes, not ${wait} ms`);
  }
  // SMTP back: each delivered once.
  await catcher.start(port);
  const back = await deliverNotifications(db, config, mail(), { now: new Date(t0 + 8 * 60_000) });
  assert.equal(back.sent, 4);
  assert.equal((await deliverNotifications(db, config, mail(), { now: new Date(t0 + 9 * 60 * 60_000) })).claimed, 0);
  for (const id of ids) assert.equal(catcher.countOf(messageId(id)), 1, id);
  assert.deepEqual((await statusOf(ids)).map((r) => [r.emailStatus, r.emailLastError]), ids.map(() => ['sent', null]));
});

test('the Delivery list: admins only (401, 403), paged and filtered (400 for nonsense), an organisation\'s administrator sees only their people', async () => {
  const admin = await person('ADMIN');
  const learner = await person();
  const outsider = await person();
  const suffix = unique().slice(-8).toUpperCase();
  const [{ id: org }] = await db.sql<{ id: string }[]>`
    insert into public.organisations (name, code, service) values ('Deliveryshire Fire', ${`D${suffix}`}, 'UKFRS') returning id`;
  const orgAdmin = await person();
  await db.sql`update public.profiles set role = 'ADMIN', organisation_id = ${org}::uuid where id = ${orgAdmin.id}::uuid`;
  await db.sql`update public.profiles set organisation_id = ${org}::uuid where id = ${learner.id}::uuid`;
  const [ours] = await queued(learner.id, 1);
  const [theirs] = await queued(outsider.id, 1);

  assert.equal((await call('GET', '/api/notifications/deliveries')).status, 401);
  assert.equal((await call('GET', '/api/notifications/deliveries', { token: learner.token })).status, 403);
  const bad = await call('GET', '/api/notifications/deliveries?status=lost&pageSize=1000&page=0', { token: admin.token });
  assert.equal(bad.status, 400);
  assert.deepEqual(Object.keys(bad.json.fields).sort(), ['page', 'pageSize', 'status']);

  const national = await call('GET', '/api/notifications/deliveries?pageSize=100', { token: admin.token });
  assert.equal(national.status, 200);
  const nationalIds = national.json.items.map((d: { id: string }) => d.id);
  assert.ok(nationalIds.includes(ours) && nationalIds.includes(theirs));
  assert.ok(national.json.total >= 2);
  const page2 = await call('GET', '/api/notifications/deliveries?pageSize=1&page=2', { token: admin.token });
  assert.equal(page2.json.items.length, 1);
  assert.equal(page2.json.items[0].id, nationalIds[1]);
  const far = await call('GET', '/api/notifications/deliveries?pageSize=100&page=100000', { token: admin.token });
  assert.deepEqual(far.json.items, []);
  assert.ok(far.json.total >= 2);

  const scoped = await call('GET', '/api/notifications/deliveries?status=queued&pageSize=100', { token: orgAdmin.token });
  assert.equal(scoped.status, 200);
  assert.deepEqual(scoped.json.items.map((d: { id: string }) => d.id), [ours]);
  assert.equal(scoped.json.total, 1);
  assert.equal((await call('GET', '/api/notifications/deliveries?status=sent', { token: orgAdmin.token })).json.total, 0);
});

test('resend: an administrator requeues a sent or failed email (audited), once more delivered; 403, 404 and 409 otherwise', async () => {
  await drain();
  const admin = await person('ADMIN');
  const learner = await person();
  const [id] = await queued(learner.id, 1);
  assert.equal((await call('POST', `/api/notifications/${id}/resend`, { token: admin.token })).status, 409);
  await deliver();
  assert.equal(catcher.countOf(messageId(id)), 1);

  assert.equal((await call('POST', `/api/notifications/${id}/resend`)).status, 401);
  assert.equal((await call('POST', `/api/notifications/${id}/resend`, { token: learner.token })).status, 403);
  assert.equal((await call('POST', '/api/notifications/not-a-uuid/resend', { token: admin.token })).status, 404);
  assert.equal((await call('POST', `/api/notifications/${crypto.randomUUID()}/resend`, { token: admin.token })).status, 404);

  const resent = await call('POST', `/api/notifications/${id}/resend`, { token: admin.token });
  assert.equal(resent.status, 200, resent.text);
  assert.equal(resent.json.status, 'queued');
  assert.equal(resent.json.attempts, 0);
  const [audit] = await db.sql<{ actorId: string; targetId: string }[]>`
    select actor_id, target_id from public.audit_events where action = 'notification.resent' and new_data ->> 'notificationId' = ${id}`;
  assert.deepEqual(audit, { actorId: admin.id, targetId: learner.id });
  await deliver();
  // A new Message-ID for the resent copy, so the recipient's mail client does not take it for a duplicate.
  assert.equal(catcher.countOf(messageId(id, 1)), 1);
  assert.equal(catcher.countOf(messageId(id, 0)), 1);
});

test('at send time: nothing for a deactivated person, and none to a manager about someone no longer their report', async () => {
  await drain();
  const manager = await person();
  const report = await person();
  const leaver = await person();
  const [{ id: org }] = await db.sql<{ id: string }[]>`
    insert into public.organisations (name, code, service) values ('Sendshire Police', ${`S${unique().slice(-8).toUpperCase()}`}, 'UKPS') returning id`;
  await db.sql`update public.profiles set organisation_id = ${org}::uuid where id in (${manager.id}::uuid, ${report.id}::uuid)`;
  await db.sql`update public.profiles set manager_id = ${manager.id}::uuid where id = ${report.id}::uuid`;
  const [escalation] = await db.sql<{ id: string }[]>`
    insert into public.notifications (recipient_id, kind, person_id, occasion, threshold, title, link_path)
    values (${manager.id}::uuid, 'manager-escalation', ${report.id}::uuid, current_date - 2000, 7, 'Overdue report', ${`/team/${report.id}`})
    returning id`;
  const [gone] = await queued(leaver.id, 1);
  await db.sql`update public.profiles set manager_id = null where id = ${report.id}::uuid`;
  await db.sql`update public.profiles set deactivated_at = now() where id = ${leaver.id}::uuid`;
  assert.equal((await deliver()).json.sent, 0);
  assert.equal(catcher.countOf(messageId(escalation.id)), 0);
  assert.equal(catcher.countOf(messageId(gone)), 0);
  const rows = await statusOf([escalation.id, gone]);
  assert.deepEqual(rows.map((r) => r.emailStatus), ['skipped', 'skipped']);
});

test('through the platform: the schedule\'s call reaches the running function, which sends to the platform\'s mail catcher', async () => {
  const mailUrl = (Deno.env.get('MAIL_URL') ?? '').replace(/\/+$/, '');
  assert.ok(mailUrl, 'MAIL_URL names the platform\'s mail catcher');
  await drain();
  const learner = await person();
  const ids = await queued(learner.id, 3, 'Manual Handling is overdue');
  const endpoint = `${config.supabaseUrl}/functions/v1/api/notifications/deliver`;
  const refused = await fetch(endpoint, { method: 'POST', headers: { apikey: config.anonKey, authorization: `Bearer ${config.anonKey}` } });
  assert.equal(refused.status, 403);
  await refused.body?.cancel();
  const answer = await fetch(endpoint, {
    method: 'POST',
    headers: { apikey: config.serviceRoleKey, authorization: `Bearer ${config.serviceRoleKey}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const result = await answer.json();
  assert.equal(answer.status, 200, JSON.stringify(result));
  assert.equal(result.sent, 3);
  const listed = await (await fetch(`${mailUrl}/api/v1/messages`)).json() as { messages: { MessageID: string; Subject: string; To: { Address: string }[] }[] };
  const siteHost = new URL(config.supabaseUrl).hostname; // the platform's SITE_URL by default
  for (const id of ids) {
    const found = listed.messages.filter((m) => m.MessageID.startsWith(`notification.${id}.0@`));
    assert.equal(found.length, 1, id);
    assert.equal(found[0].Subject, 'Manual Handling is overdue');
    assert.equal(found[0].To[0].Address, learner.email);
    assert.ok(found[0].MessageID.endsWith(`@${siteHost}`));
  }
});

test('(stop the SMTP server)', async () => {
  closeTransports();
  await catcher.stop();
  for (const name of ['SMTP_HOST', 'SMTP_PORT', 'SMTP_FROM', 'SITE_URL']) Deno.env.delete(name);
});

closePoolAfterTests();
