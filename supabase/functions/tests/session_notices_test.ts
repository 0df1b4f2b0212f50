// The classroom session and practical assessment notices sent by the running function (the
// schedule's call, POST /functions/v1/api/notifications/deliver) into the platform's mail catcher,
// read through its Mailpit-style API (MAIL_URL) as the browser tests read it: each kind's subject and
// words in English and in Welsh (London times), the calendar invitation for a notice whose facts say
// REQUEST or CANCEL (a text/calendar;method=... part and invite.ics, which ical.js parses: METHOD,
// UID, SEQUENCE, the start's instant), none for the others, and a kind whose email the person
// switched off not sent. The rows are written here as the booking and assessment functions write
// them (service role).
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { call, closePoolAfterTests, config, db, register, test } from './helpers.ts';

const MAIL_URL = (Deno.env.get('MAIL_URL') ?? '').replace(/\/+$/, '');
// The platform's SITE_URL by default: the invitations' UID domain.
const SITE_HOST = new URL(config.supabaseUrl).hostname;
const LINK = 'https?://[^/\\s]+';

interface Attachment {
  PartID: string;
  FileName: string;
  ContentType: string;
}
interface CaughtMessage {
  ID: string;
  Subject: string;
  Text: string;
  HTML: string;
  From: { Address: string };
  To: { Address: string }[];
  Attachments: Attachment[];
}

const mailApi = async <T>(path: string): Promise<T> => (await fetch(`${MAIL_URL}${path}`)).json() as Promise<T>;
const mailText = async (path: string) => (await fetch(`${MAIL_URL}${path}`)).text();

/** Every message the catcher holds for the address, in full. */
async function messagesTo(address: string): Promise<CaughtMessage[]> {
  const list = await mailApi<{ messages: { ID: string; To: { Address: string }[] }[] }>('/api/v1/messages');
  const ids = list.messages.filter((m) => m.To.some((to) => to.Address === address)).map((m) => m.ID);
  return await Promise.all(ids.map((id) => mailApi<CaughtMessage>(`/api/v1/message/${id}`)));
}

async function person(language: 'en-GB' | 'cy' = 'en-GB') {
  const made = await register();
  await db.sql`update public.profiles set language = ${language} where id = ${made.user.id}::uuid`;
  return { id: made.user.id as string, token: made.session.access_token as string, email: made.input.email as string, name: made.input.name as string };
}

const COURSE = { courseTitle: 'Trauma care', courseTitleCy: 'Gofal trawma', moduleTitle: 'Practical day', moduleTitleCy: 'Diwrnod ymarferol' };
const BOOKING = crypto.randomUUID();
// 3 December 2026 09:30-16:00 GMT; 1 July 2026 09:30-16:00 BST is 08:30-15:00 UTC.
const WINTER = { startsAt: '2026-12-03T09:30:00.000Z', endsAt: '2026-12-03T16:00:00.000Z' };
const SUMMER = { startsAt: '2026-07-01T08:30:00.000Z', endsAt: '2026-07-01T15:00:00.000Z' };
const SESSION = {
  ...COURSE,
  bookingId: BOOKING,
  sessionId: crypto.randomUUID(),
  venueName: 'Bridgend Training Centre',
  venueAddress: '1 College Road, Bridgend CF31 3AA',
  onlineUrl: null,
  note: 'Bring gloves.',
};

let occasion = 0;
/** A queued notice, as the booking and assessment functions write one. */
async function notice(recipientId: string, kind: string, data: Record<string, unknown>, linkPath = '/course/c1/module/m1') {
  occasion += 1;
  const [row] = await db.sql<{ id: string }[]>`
    insert into public.notifications (recipient_id, kind, occasion, threshold, title, body, data, link_path, created_at)
    values (${recipientId}::uuid, ${kind}, date '2026-11-30' + ${occasion}::int, 0, ${`Database words for ${kind}`}, 'Database body.',
            ${db.sql.json(data as never)}, ${linkPath}, timestamptz '2026-11-30T10:00:00Z')
    returning id`;
  return row.id;
}

/** The schedule's call to the running function, until nothing is left to send. */
async function deliver() {
  assert.ok(MAIL_URL, 'MAIL_URL names the platform\'s mail catcher');
  for (let i = 0; i < 20; i += 1) {
    const answer = await fetch(`${config.supabaseUrl}/functions/v1/api/notifications/deliver`, {
      method: 'POST',
      headers: { apikey: config.serviceRoleKey, authorization: `Bearer ${config.serviceRoleKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const result = await answer.json();
    assert.equal(answer.status, 200, JSON.stringify(result));
    if (result.claimed === 0) return;
  }
}

/** The calendar of a message: its text/calendar part and its invite.ics, the same text, parsed by ical.js. */
async function calendarOf(message: CaughtMessage) {
  const part = message.Attachments.find((a) => a.ContentType === 'text/calendar');
  const file = message.Attachments.find((a) => a.FileName === 'invite.ics');
  assert.ok(part && file, `a calendar part and invite.ics in "${message.Subject}": ${JSON.stringify(message.Attachments)}`);
  const text = await mailText(`/api/v1/message/${message.ID}/part/${part.PartID}`);
  assert.equal(await mailText(`/api/v1/message/${message.ID}/part/${file.PartID}`), text);
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent('vevent')!;
  const start = event.getFirstPropertyValue('dtstart') as ICAL.Time;
  const zone = new ICAL.Timezone(calendar.getFirstSubcomponent('vtimezone')!);
  start.zone = zone;
  return { text, calendar, event, start: start.toJSDate() };
}

const byKind = (messages: CaughtMessage[], subject: string) => {
  const found = messages.find((m) => m.Subject === subject);
  assert.ok(found, `no message "${subject}" among ${JSON.stringify(messages.map((m) => m.Subject))}`);
  return found;
};

test('session notices in English: each kind\'s words with London times, and the invitation for REQUEST and CANCEL only', async () => {
  await deliver();
  const learner = await person();
  const manager = await person();
  const assessor = await person();
  await notice(learner.id, 'session-booked', { ...SESSION, ...SUMMER, sequence: 0, method: 'REQUEST' });
  await notice(learner.id, 'session-waiting', { ...SESSION, ...WINTER, bookingId: crypto.randomUUID(), sequence: 0, method: null });
  await notice(learner.id, 'session-place-offered', { ...SESSION, ...WINTER, sequence: 0, method: null, offeredUntil: '2026-12-01T14:00:00.000Z' });
  await notice(learner.id, 'session-changed', { ...SESSION, ...WINTER, sequence: 1, method: 'REQUEST' });
  await notice(learner.id, 'session-reminder', { ...SESSION, ...WINTER, sequence: 1, method: null, threshold: 7 });
  await notice(learner.id, 'session-cancelled', { ...SESSION, ...WINTER, sequence: 2, method: 'CANCEL', reason: 'The instructor is ill.' });
  await notice(learner.id, 'session-booking-declined', { ...SESSION, ...WINTER, sequence: 0, method: null, reason: 'Not this month.' });
  await notice(learner.id, 'assessment-recorded', { ...COURSE, recordId: crypto.randomUUID(), outcome: 'competent', assessorName: 'Gareth Evans', verified: false });
  await notice(manager.id, 'session-approval-requested', { ...SESSION, ...WINTER, sequence: 0, method: null, learnerName: 'Ada Jones' }, '/team');
  await notice(assessor.id, 'reassessment-requested', { ...COURSE, recordId: crypto.randomUUID(), learnerName: 'Ada Jones' }, '/instructor/assessments');
  await deliver();

  const mine = await messagesTo(learner.email);
  assert.equal(mine.length, 8);

  const booked = byKind(mine, 'Place booked: Trauma care: Practical day');
  assert.match(booked.Text, /You have a place on this classroom session\.\nWhen: 1 July 2026, 09:30 to 16:00\nWhere: Bridgend Training Centre, 1 College Road, Bridgend CF31 3AA\nNote: Bring gloves\.\nThe invitation attached puts the session in your calendar\./);
  assert.match(booked.Text, new RegExp(`See the session: ${LINK}/course/c1/module/m1\n`));
  assert.match(booked.HTML, /<p[^>]*>When: 1 July 2026, 09:30 to 16:00<\/p>/);
  const invite = await calendarOf(booked);
  assert.equal(invite.calendar.getFirstPropertyValue('method'), 'REQUEST');
  assert.equal(invite.event.getFirstPropertyValue('uid'), `booking-${BOOKING}@${SITE_HOST}`);
  assert.equal(invite.event.getFirstPropertyValue('sequence'), 0);
  assert.equal(invite.start.toISOString(), '2026-07-01T08:30:00.000Z');
  assert.equal(invite.event.getFirstPropertyValue('summary'), 'Trauma care: Practical day');
  assert.equal(String(invite.event.getFirstProperty('attendee')!.getFirstValue()).toLowerCase(), `mailto:${learner.email}`);
  assert.equal(String(invite.event.getFirstProperty('organizer')!.getFirstValue()).toLowerCase(), `mailto:${booked.From.Address.toLowerCase()}`);
  assert.match(invite.text, /DTSTAMP:20261130T100000Z/);
  // The method on the alternative part, as Outlook reads it.
  assert.match(await mailText(`/api/v1/message/${booked.ID}/raw`), /Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);

  const changed = byKind(mine, 'Session changed: Trauma care: Practical day');
  assert.match(changed.Text, /When: 3 December 2026, 09:30 to 16:00/);
  const moved = await calendarOf(changed);
  assert.equal(moved.event.getFirstPropertyValue('uid'), `booking-${BOOKING}@${SITE_HOST}`);
  assert.equal(moved.event.getFirstPropertyValue('sequence'), 1);
  assert.equal(moved.start.toISOString(), '2026-12-03T09:30:00.000Z');

  const cancelled = byKind(mine, 'Session cancelled: Trauma care: Practical day');
  assert.match(cancelled.Text, /This session has been cancelled\.\nReason: The instructor is ill\./);
  assert.match(cancelled.Text, /The invitation attached takes the session out of your calendar\./);
  const gone = await calendarOf(cancelled);
  assert.equal(gone.calendar.getFirstPropertyValue('method'), 'CANCEL');
  assert.equal(gone.event.getFirstPropertyValue('status'), 'CANCELLED');
  assert.equal(gone.event.getFirstPropertyValue('uid'), `booking-${BOOKING}@${SITE_HOST}`);
  assert.equal(gone.event.getFirstPropertyValue('sequence'), 2);

  const offered = byKind(mine, 'A place is free for you: Trauma care: Practical day');
  assert.match(offered.Text, /Accept by 14:00 on 1 December 2026, or it is offered to the next person waiting\./);
  const waiting = byKind(mine, 'On the waiting list: Trauma care: Practical day');
  assert.match(waiting.Text, /We will email you if a place comes free\./);
  const reminder = byKind(mine, 'Reminder: Trauma care: Practical day in 7 days');
  assert.match(reminder.Text, /Your classroom session is coming up\./);
  const declined = byKind(mine, 'Booking declined: Trauma care: Practical day');
  assert.match(declined.Text, /Reason: Not this month\./);
  const recorded = byKind(mine, 'Assessment recorded: Trauma care: Practical day');
  assert.match(recorded.Text, /Gareth Evans assessed you as competent\.\nThe result is waiting for a verifier to check it\./);
  assert.match(recorded.Text, /See the assessment: /);
  // No method, no calendar: the waiting list, the offer, the reminder, the decline, the assessment.
  for (const message of [offered, waiting, reminder, declined, recorded]) assert.deepEqual(message.Attachments, [], message.Subject);

  const [approval] = await messagesTo(manager.email);
  assert.equal(approval.Subject, 'Ada Jones asks to book Trauma care: Practical day');
  assert.match(approval.Text, /Approve or decline the booking on your team page\.\nWhen: 3 December 2026, 09:30 to 16:00/);
  assert.match(approval.Text, new RegExp(`See your team: ${LINK}/team\n`));
  const [reassess] = await messagesTo(assessor.email);
  assert.equal(reassess.Subject, 'Ada Jones asks to be reassessed: Trauma care: Practical day');
  assert.match(reassess.Text, new RegExp(`See the assessments: ${LINK}/instructor/assessments\n`));
});

test('session notices in Welsh: Welsh titles and dates, the invitation\'s summary in Welsh', async () => {
  await deliver();
  const learner = await person('cy');
  await notice(learner.id, 'session-booked', { ...SESSION, ...WINTER, sequence: 0, method: 'REQUEST' });
  await notice(learner.id, 'session-place-offered', { ...SESSION, ...SUMMER, sequence: 0, method: null, offeredUntil: '2026-06-29T13:00:00.000Z' });
  await notice(learner.id, 'session-reminder', { ...SESSION, ...WINTER, sequence: 0, method: null, threshold: 1 });
  await notice(learner.id, 'session-cancelled', { ...SESSION, ...WINTER, sequence: 1, method: 'CANCEL' });
  await notice(learner.id, 'assessment-recorded', { ...COURSE, outcome: 'not-yet-competent', assessorName: 'Gareth Evans', verified: true });
  await deliver();
  const mine = await messagesTo(learner.email);
  assert.equal(mine.length, 5);

  const booked = byKind(mine, "Lle wedi'i archebu: Gofal trawma: Diwrnod ymarferol");
  assert.match(booked.Text, /^Helo /);
  assert.match(booked.Text, /Pryd: 3 Rhagfyr 2026, 09:30 tan 16:00\nBle: Bridgend Training Centre, 1 College Road, Bridgend CF31 3AA/);
  assert.match(booked.Text, /Gweld y sesiwn: /);
  const invite = await calendarOf(booked);
  assert.equal(invite.event.getFirstPropertyValue('summary'), 'Gofal trawma: Diwrnod ymarferol');
  assert.equal(invite.start.toISOString(), '2026-12-03T09:30:00.000Z');

  // 13:00 UTC on 29 June is 14:00 in London (BST).
  assert.match(byKind(mine, 'Mae lle ar gael i chi: Gofal trawma: Diwrnod ymarferol').Text, /Derbyniwch ef erbyn 14:00 ar 29 Mehefin 2026/);
  byKind(mine, 'Nodyn atgoffa: Gofal trawma: Diwrnod ymarferol yfory');
  const cancelled = byKind(mine, "Sesiwn wedi'i chanslo: Gofal trawma: Diwrnod ymarferol");
  assert.equal((await calendarOf(cancelled)).calendar.getFirstPropertyValue('method'), 'CANCEL');
  const recorded = byKind(mine, "Asesiad wedi'i gofnodi: Gofal trawma: Diwrnod ymarferol");
  assert.match(recorded.Text, /Yn ôl asesiad Gareth Evans, nid ydych yn gymwys eto\. Gallwch gael eich asesu eto\.\nMae dilyswr wedi gwirio'r canlyniad\./);
});

test('a session kind switched off in the preferences is not emailed; one without its facts goes in the database\'s words, without a calendar', async () => {
  await deliver();
  const learner = await person();
  const email = { 'session-booked': false, 'session-reminder': true };
  const saved = await call('PUT', '/api/me/notification-preferences', { token: learner.token, body: { language: 'en-GB', email } });
  assert.equal(saved.status, 200);
  assert.equal(saved.json.email['session-booked'], false);
  assert.equal(saved.json.email['assessment-recorded'], true);
  const off = await notice(learner.id, 'session-booked', { ...SESSION, ...WINTER, sequence: 0, method: 'REQUEST' });
  // A REQUEST without a booking or times: the email goes, its calendar does not.
  await notice(learner.id, 'session-changed', { method: 'REQUEST' });
  await deliver();
  const [row] = await db.sql<{ emailStatus: string; emailLastError: string }[]>`
    select email_status, email_last_error from public.notifications where id = ${off}::uuid`;
  assert.equal(row.emailStatus, 'skipped');
  assert.match(row.emailLastError, /switched this email off/);
  const mine = await messagesTo(learner.email);
  assert.deepEqual(mine.map((m) => m.Subject), ['Database words for session-changed']);
  assert.deepEqual(mine[0].Attachments, []);
});

closePoolAfterTests();
