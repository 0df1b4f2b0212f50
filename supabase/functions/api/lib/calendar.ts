// Calendar invitations for classroom sessions: the iCalendar text (RFC 5545, as Outlook and Google
// Calendar take it from an email's text/calendar part) of one booking, made with ical-generator.
//
// One booking is one event for the whole of its life: its UID is `booking-<bookingId>@<site host>`,
// the same in the first invitation, every change and the cancellation, and SEQUENCE is the booking's
// own counter (raised by the database on each change), so a calendar replaces the event it holds
// rather than adding another. Times are written as London wall-clock times with TZID=Europe/London and
// the zone's VTIMEZONE (its BST and GMT rules) so that a calendar in any zone shows the session at
// the instant the database holds, and one set to London shows what the session's page shows.
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { TZDate } from '@date-fns/tz';

export const CALENDAR_TIME_ZONE = 'Europe/London';

export type InvitationMethod = 'REQUEST' | 'CANCEL';
export const INVITATION_METHODS: readonly InvitationMethod[] = ['REQUEST', 'CANCEL'];

export interface CalendarPerson {
  name: string;
  email: string;
}

/** One booking's invitation (REQUEST: booked or changed) or its withdrawal (CANCEL). */
export interface SessionInvitation {
  method: InvitationMethod;
  bookingId: string;
  /** The booking's SEQUENCE: 0 for the first invitation, raised on every change. */
  sequence: number;
  startsAt: Date;
  endsAt: Date;
  /** When this version of the invitation was made (DTSTAMP, written in UTC). */
  stamp: Date;
  /** The host of the site (SITE_URL): the UID's domain, so bookings of two sites never clash. */
  siteHost: string;
  siteName: string;
  summary: string;
  description: string;
  location: string;
  url: string;
  organizer: CalendarPerson;
  attendee: CalendarPerson;
}

/** The host name of the site's address (`localhost` when it has none). */
export function siteHost(siteUrl: string): string {
  try {
    return new URL(siteUrl).hostname.replace(/^\[|\]$/g, '') || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** The UID of a booking's event: stable across every change and the cancellation. */
export function invitationUid(bookingId: string, host: string): string {
  return `booking-${bookingId}@${host}`;
}

/** A name on one line, without the quotes a parameter value cannot hold. */
function personName(value: string): string {
  return value.replace(/[\r\n\t"]+/g, ' ').replace(/\s{2,}/g, ' ').trim();
}

/** The iCalendar text of one booking's invitation: CRLF line ends, lines folded at 75 octets. */
export function buildInvitation(invitation: SessionInvitation): string {
  const cancel = invitation.method === 'CANCEL';
  const calendar = ical({
    prodId: { company: personName(invitation.siteName) || invitation.siteHost, product: 'Classroom sessions', language: 'EN' },
    method: cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    // No calendar-wide zone: DTSTAMP stays in UTC as RFC 5545 asks; the event's own zone brings
    // its VTIMEZONE from the generator.
    timezone: { name: null, generator: getVtimezoneComponent },
  });
  calendar.createEvent({
    id: invitationUid(invitation.bookingId, invitation.siteHost),
    sequence: invitation.sequence,
    stamp: invitation.stamp,
    // A London-zoned date: ical-generator writes its wall-clock time under TZID=Europe/London.
    start: new TZDate(invitation.startsAt.getTime(), CALENDAR_TIME_ZONE),
    end: new TZDate(invitation.endsAt.getTime(), CALENDAR_TIME_ZONE),
    timezone: CALENDAR_TIME_ZONE,
    summary: invitation.summary,
    description: invitation.description,
    location: invitation.location || null,
    url: invitation.url,
    status: cancel ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: personName(invitation.organizer.name), email: invitation.organizer.email },
    attendees: [{
      name: personName(invitation.attendee.name) || undefined,
      email: invitation.attendee.email,
      role: ICalAttendeeRole.REQ,
      // The booking is made on the site, not by replying: the calendar asks for no answer.
      ...(cancel ? {} : { status: ICalAttendeeStatus.NEEDSACTION, rsvp: false }),
    }],
  });
  return `${calendar.toString()}\r\n`;
}

/** What of a notice's facts (notifications.data) an invitation needs, or null when it has none to send. */
export function invitationFacts(data: Record<string, unknown>):
  Pick<SessionInvitation, 'method' | 'bookingId' | 'sequence' | 'startsAt' | 'endsAt'> | null {
  const method = INVITATION_METHODS.find((m) => m === data.method);
  const bookingId = typeof data.bookingId === 'string' && /^[\w-]{1,100}$/.test(data.bookingId) ? data.bookingId : null;
  const sequence = typeof data.sequence === 'number' ? data.sequence : Number(data.sequence);
  const startsAt = new Date(typeof data.startsAt === 'string' ? data.startsAt : NaN);
  const endsAt = new Date(typeof data.endsAt === 'string' ? data.endsAt : NaN);
  if (!method || !bookingId || !Number.isInteger(sequence) || sequence < 0) return null;
  if (Number.isNaN(startsAt.getTime()) || Number.isNaN(endsAt.getTime()) || endsAt < startsAt) return null;
  return { method, bookingId, sequence, startsAt, endsAt };
}
