// Calendar invitations (api/lib/calendar.ts) read back by an independent parser: ical.js, Mozilla's
// (Thunderbird's) iCalendar library. A summer session (BST) and a winter one (GMT), a change (same
// UID, SEQUENCE raised) and a cancellation: METHOD, UID, SEQUENCE, the instants of DTSTART/DTEND
// through the file's own VTIMEZONE, ORGANIZER, ATTENDEE, STATUS, and the file's form (CRLF, lines
// of at most 75 octets). No database: every input is given.
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { buildInvitation, invitationUid, type SessionInvitation, siteHost } from '../api/lib/calendar.ts';

const BOOKING = '6f1c2a9e-4b7d-4c1e-9a53-2d8f0e7b1c44';

function invitation(overrides: Partial<SessionInvitation> = {}): SessionInvitation {
  return {
    method: 'REQUEST',
    bookingId: BOOKING,
    sequence: 0,
    startsAt: new Date('2026-07-01T08:30:00Z'),
    endsAt: new Date('2026-07-01T15:00:00Z'),
    stamp: new Date('2026-06-20T10:15:00Z'),
    siteHost: 'learning.example.uk',
    siteName: 'Emergency Services Learning',
    summary: 'Trauma care: Practical day',
    description: 'Place booked: Trauma care: Practical day\n\nBring your own gloves; lunch is provided.',
    location: 'Bridgend Training Centre, 1 Ffordd y Coleg, Pen-y-bont ar Ogwr CF31 3AA',
    url: 'https://learning.example.uk/course/c1/module/m1',
    organizer: { name: 'Emergency Services Learning', email: 'noreply@example.uk' },
    attendee: { name: 'Siân Llewelyn-Hughes', email: 'sian@example.uk' },
    ...overrides,
  };
}

interface Parsed {
  calendar: ICAL.Component;
  event: ICAL.Component;
  start: Date;
  end: Date;
}

/** Parses the text with ical.js, its zone taken from the file's own VTIMEZONE only. */
function parse(text: string): Parsed {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const zones = calendar.getAllSubcomponents('vtimezone');
  assert.equal(zones.length, 1, 'one VTIMEZONE');
  const zone = new ICAL.Timezone(zones[0]);
  assert.equal(zone.tzid, 'Europe/London');
  const events = calendar.getAllSubcomponents('vevent');
  assert.equal(events.length, 1, 'one VEVENT');
  const event = events[0];
  const at = (name: string) => {
    const property = event.getFirstProperty(name)!;
    assert.equal(property.getParameter('tzid'), 'Europe/London', `${name} has TZID=Europe/London`);
    const time = property.getFirstValue() as ICAL.Time;
    // The wall-clock time read through the file's VTIMEZONE rules, not the parser's own zone data.
    return new Date(zone.utcOffset(time) * -1000 + Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second));
  };
  return { calendar, event, start: at('dtstart'), end: at('dtend') };
}

/** The raw (unfolded) line of one of the event's properties. */
function line(text: string, name: string): string {
  const unfolded = text.replace(/\r\n[ \t]/g, '');
  const event = unfolded.slice(unfolded.indexOf('BEGIN:VEVENT'));
  return event.split('\r\n').find((l) => l.startsWith(`${name}:`) || l.startsWith(`${name};`)) ?? '';
}

function assertForm(text: string) {
  assert.ok(text.endsWith('END:VCALENDAR\r\n'));
  assert.ok(!/[^\r]\n/.test(text), 'every line ends CRLF');
  const encoder = new TextEncoder();
  for (const l of text.split('\r\n')) assert.ok(encoder.encode(l).length <= 75, `folded at 75 octets: ${l}`);
}

Deno.test('a summer (BST) invitation: METHOD REQUEST, the booking UID, DTSTART at the instant given in London time, organiser, attendee, confirmed', () => {
  const text = buildInvitation(invitation());
  assertForm(text);
  const { calendar, event, start, end } = parse(text);
  assert.equal(calendar.getFirstPropertyValue('method'), 'REQUEST');
  assert.equal(calendar.getFirstPropertyValue('version'), '2.0');
  assert.match(String(calendar.getFirstPropertyValue('prodid')), /^-\/\/Emergency Services Learning\/\/Classroom sessions\/\/EN$/);
  assert.equal(event.getFirstPropertyValue('uid'), `booking-${BOOKING}@learning.example.uk`);
  assert.equal(event.getFirstPropertyValue('sequence'), 0);
  assert.equal(start.toISOString(), '2026-07-01T08:30:00.000Z');
  assert.equal(end.toISOString(), '2026-07-01T15:00:00.000Z');
  // 08:30 UTC is 09:30 in London in July (BST).
  assert.equal(line(text, 'DTSTART'), 'DTSTART;TZID=Europe/London:20260701T093000');
  assert.equal(line(text, 'DTEND'), 'DTEND;TZID=Europe/London:20260701T160000');
  assert.equal(line(text, 'DTSTAMP'), 'DTSTAMP:20260620T101500Z');
  assert.equal(event.getFirstPropertyValue('status'), 'CONFIRMED');
  assert.equal(event.getFirstPropertyValue('summary'), 'Trauma care: Practical day');
  assert.equal(event.getFirstPropertyValue('location'), 'Bridgend Training Centre, 1 Ffordd y Coleg, Pen-y-bont ar Ogwr CF31 3AA');
  assert.equal(event.getFirstPropertyValue('description'), 'Place booked: Trauma care: Practical day\n\nBring your own gloves; lunch is provided.');
  assert.equal(event.getFirstPropertyValue('url'), 'https://learning.example.uk/course/c1/module/m1');
  const organizer = event.getFirstProperty('organizer')!;
  assert.equal(String(organizer.getFirstValue()).toLowerCase(), 'mailto:noreply@example.uk');
  assert.equal(organizer.getParameter('cn'), 'Emergency Services Learning');
  const attendees = event.getAllProperties('attendee');
  assert.equal(attendees.length, 1);
  assert.equal(String(attendees[0].getFirstValue()).toLowerCase(), 'mailto:sian@example.uk');
  assert.equal(attendees[0].getParameter('cn'), 'Siân Llewelyn-Hughes');
  assert.equal(attendees[0].getParameter('role'), 'REQ-PARTICIPANT');
  assert.equal(attendees[0].getParameter('partstat'), 'NEEDS-ACTION');
  assert.equal(attendees[0].getParameter('rsvp'), 'FALSE');
});

Deno.test('a winter (GMT) invitation: London time equals UTC, and the VTIMEZONE carries both the BST and GMT rules', () => {
  const text = buildInvitation(invitation({ startsAt: new Date('2026-12-03T09:30:00Z'), endsAt: new Date('2026-12-03T16:00:00Z') }));
  assertForm(text);
  const { calendar, start, end } = parse(text);
  assert.equal(start.toISOString(), '2026-12-03T09:30:00.000Z');
  assert.equal(end.toISOString(), '2026-12-03T16:00:00.000Z');
  assert.equal(line(text, 'DTSTART'), 'DTSTART;TZID=Europe/London:20261203T093000');
  const zone = calendar.getFirstSubcomponent('vtimezone')!;
  const offsets = (name: string) => zone.getAllSubcomponents(name).map((c) => String(c.getFirstProperty('tzoffsetto')!.toJSON()[3]));
  assert.deepEqual(offsets('daylight'), ['+01:00']);
  assert.deepEqual(offsets('standard'), ['+00:00']);
});

Deno.test('the day before and the day after the clocks go back (25 October 2026) are read at their instants', () => {
  const before = buildInvitation(invitation({ startsAt: new Date('2026-10-24T08:30:00Z'), endsAt: new Date('2026-10-24T12:00:00Z') }));
  assert.equal(line(before, 'DTSTART'), 'DTSTART;TZID=Europe/London:20261024T093000');
  assert.equal(parse(before).start.toISOString(), '2026-10-24T08:30:00.000Z');
  const after = buildInvitation(invitation({ startsAt: new Date('2026-10-26T09:30:00Z'), endsAt: new Date('2026-10-26T12:00:00Z') }));
  assert.equal(line(after, 'DTSTART'), 'DTSTART;TZID=Europe/London:20261026T093000');
  assert.equal(parse(after).start.toISOString(), '2026-10-26T09:30:00.000Z');
});

Deno.test('a change keeps the UID and raises SEQUENCE; a cancellation is METHOD CANCEL, STATUS CANCELLED, same UID', () => {
  const first = parse(buildInvitation(invitation()));
  const moved = buildInvitation(invitation({ sequence: 1, startsAt: new Date('2026-07-08T08:30:00Z'), endsAt: new Date('2026-07-08T15:00:00Z') }));
  const changed = parse(moved);
  assert.equal(changed.event.getFirstPropertyValue('uid'), first.event.getFirstPropertyValue('uid'));
  assert.equal(changed.event.getFirstPropertyValue('sequence'), 1);
  assert.equal(changed.calendar.getFirstPropertyValue('method'), 'REQUEST');
  assert.equal(changed.start.toISOString(), '2026-07-08T08:30:00.000Z');

  const cancelText = buildInvitation(invitation({ method: 'CANCEL', sequence: 2 }));
  assertForm(cancelText);
  const cancelled = parse(cancelText);
  assert.equal(cancelled.calendar.getFirstPropertyValue('method'), 'CANCEL');
  assert.equal(cancelled.event.getFirstPropertyValue('status'), 'CANCELLED');
  assert.equal(cancelled.event.getFirstPropertyValue('uid'), first.event.getFirstPropertyValue('uid'));
  assert.equal(cancelled.event.getFirstPropertyValue('sequence'), 2);
  const attendee = cancelled.event.getFirstProperty('attendee')!;
  assert.equal(String(attendee.getFirstValue()).toLowerCase(), 'mailto:sian@example.uk');
  assert.equal(attendee.getParameter('rsvp'), undefined);
});

Deno.test('text that would break a line or a parameter is escaped, and long Welsh text is folded by octets', () => {
  const text = buildInvitation(invitation({
    summary: 'Gofal trawma; diwrnod ymarferol, rhan 1\nail linell',
    attendee: { name: 'Dafydd "Dai" ap Gwilym\r\nX-EVIL:1', email: 'dai@example.uk' },
    description: 'ŵ'.repeat(200),
  }));
  assertForm(text);
  const { event } = parse(text);
  assert.equal(event.getFirstPropertyValue('summary'), 'Gofal trawma; diwrnod ymarferol, rhan 1\nail linell');
  assert.equal(event.getFirstPropertyValue('description'), 'ŵ'.repeat(200));
  assert.equal(event.getFirstProperty('attendee')!.getParameter('cn'), 'Dafydd Dai ap Gwilym X-EVIL:1');
  assert.ok(!/^X-EVIL/m.test(text));
});

Deno.test('the UID domain is the site host', () => {
  assert.equal(siteHost('https://learning.example.uk/'), 'learning.example.uk');
  assert.equal(siteHost('http://[::1]:5173'), '::1');
  assert.equal(siteHost('not a url'), 'localhost');
  assert.equal(invitationUid('b1', 'learning.example.uk'), 'booking-b1@learning.example.uk');
});
