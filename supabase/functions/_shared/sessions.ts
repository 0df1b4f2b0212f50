// Classroom sessions: the request schemas and answer types of /api/modules/:moduleId/sessions,
// /api/sessions, /api/bookings and /api/instructor/sessions, shared by the function and the web app.
//
// Times: the API takes instants, ISO 8601 with their offset (`2026-07-14T10:00:00+01:00` or
// `2026-07-14T09:00:00Z`), and answers them in UTC (`...Z`). A form asks for a London date and wall-clock
// time; londonInstant turns them into the instant (10:00 on a July day is 09:00Z, on a January day
// 10:00Z), so the one conversion serves the web app and the tests (docs/decisions/classroom-sessions.md).
import { z } from 'zod';
import { UUID_PATTERN } from './ids.ts';

export const SESSION_MESSAGES = {
  instant: 'Give a date and time with its offset, e.g. 2026-07-14T10:00:00+01:00',
  endsAfterStarts: 'The end must be after the start',
  tooLong: 'A session lasts at most 14 days',
  closesByStart: 'Booking must close by the start',
  placeNeeded: 'Give a venue or an online link',
  addressNeedsVenue: "Give the venue's name with its address",
  venueName: 'The venue is 1 to 200 characters',
  venueAddress: 'The address is at most 500 characters',
  onlineUrl: 'The online link must be an https:// address',
  capacity: 'Capacity must be a whole number from 1 to 500',
  note: 'The note is at most 2000 characters',
  trainerIds: 'Choose at most 20 trainers',
  id: 'Invalid id',
  reason: 'Give a reason of 1 to 500 characters',
  reasonMax: 'The reason is at most 500 characters',
  attendance: 'Attendance is attended, no-show or excused',
  range: 'Give from and to as dates, at most 366 days apart',
  query: 'Search words are at most 100 characters',
  limit: 'The number of dates is a whole number from 1 to 100',
} as const;

/** An ISO 8601 date and time with its offset (Z or ±hh:mm). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const instant = z
  .string({ error: SESSION_MESSAGES.instant })
  .trim()
  .regex(ISO_INSTANT, SESSION_MESSAGES.instant)
  .refine((v) => !Number.isNaN(Date.parse(v)), SESSION_MESSAGES.instant);
const id = z.string({ error: SESSION_MESSAGES.id }).regex(UUID_PATTERN, SESSION_MESSAGES.id).transform((v) => v.toLowerCase());
/** Optional text: null or blank is none (null); absent stays absent (a change leaves it as it is). */
const optionalText = (max: number, message: string) =>
  z.string({ error: message }).trim().max(max, message).nullable().optional()
    .transform((v) => (v === undefined ? undefined : v || null));

const sessionFields = {
  startsAt: instant,
  endsAt: instant,
  venueName: optionalText(200, SESSION_MESSAGES.venueName),
  venueAddress: optionalText(500, SESSION_MESSAGES.venueAddress),
  onlineUrl: optionalText(2000, SESSION_MESSAGES.onlineUrl).refine(
    (v) => v === null || v === undefined || /^https:\/\/[^\s/]+\S*$/.test(v),
    SESSION_MESSAGES.onlineUrl,
  ),
  capacity: z.number({ error: SESSION_MESSAGES.capacity }).int(SESSION_MESSAGES.capacity).min(1, SESSION_MESSAGES.capacity)
    .max(500, SESSION_MESSAGES.capacity),
  /** Absent or null: booking closes when the session starts. */
  bookingClosesAt: instant.nullable().optional().transform((v) => v ?? null),
  note: optionalText(2000, SESSION_MESSAGES.note),
  trainerIds: z.array(id, { error: SESSION_MESSAGES.trainerIds }).max(20, SESSION_MESSAGES.trainerIds).optional(),
};

type SessionShape = {
  startsAt: string;
  endsAt: string;
  venueName?: string | null;
  venueAddress?: string | null;
  onlineUrl?: string | null;
  bookingClosesAt: string | null;
};

/** The rules across fields, as the database's checks (each issue on the field a form shows it by). */
function checkSession(v: SessionShape, ctx: z.RefinementCtx) {
  const starts = Date.parse(v.startsAt);
  const ends = Date.parse(v.endsAt);
  if (ends <= starts) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: SESSION_MESSAGES.endsAfterStarts });
  else if (ends - starts > 14 * 86_400_000) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: SESSION_MESSAGES.tooLong });
  if (v.bookingClosesAt && Date.parse(v.bookingClosesAt) > starts) {
    ctx.addIssue({ code: 'custom', path: ['bookingClosesAt'], message: SESSION_MESSAGES.closesByStart });
  }
  if (!v.venueName && !v.onlineUrl) ctx.addIssue({ code: 'custom', path: ['venueName'], message: SESSION_MESSAGES.placeNeeded });
  if (v.venueAddress && !v.venueName) ctx.addIssue({ code: 'custom', path: ['venueName'], message: SESSION_MESSAGES.addressNeedsVenue });
}

/** POST /api/modules/:moduleId/sessions. organisationId: only a national caller on a national course chooses it (null: national). */
export const sessionCreateSchema = z
  .object({ ...sessionFields, organisationId: id.nullable().optional().transform((v) => v ?? null) })
  .superRefine(checkSession);
export type SessionCreateInput = z.infer<typeof sessionCreateSchema>;
export type SessionCreateBody = z.input<typeof sessionCreateSchema>;

/** PATCH /api/sessions/:id: any of the fields; the session's others stay (trainerIds absent: unchanged). */
export const sessionUpdateSchema = z.object({
  startsAt: instant.optional(),
  endsAt: instant.optional(),
  venueName: sessionFields.venueName,
  venueAddress: sessionFields.venueAddress,
  onlineUrl: sessionFields.onlineUrl,
  capacity: sessionFields.capacity.optional(),
  bookingClosesAt: instant.nullable().optional(),
  note: sessionFields.note,
  trainerIds: sessionFields.trainerIds,
});
export type SessionUpdateBody = z.input<typeof sessionUpdateSchema>;
/** The session after a PATCH, checked across fields as a new one is. */
export const sessionMergedSchema = z.object(sessionFields).superRefine(checkSession);

export const sessionCancelSchema = z.object({
  reason: z.string({ error: SESSION_MESSAGES.reason }).trim().min(1, SESSION_MESSAGES.reason).max(500, SESSION_MESSAGES.reason),
});
/** POST /api/modules/:moduleId/booking and PUT /api/bookings/:id (move). */
export const bookingSchema = z.object({ sessionId: id });
export const bookingRefuseSchema = z.object({
  reason: z.string({ error: SESSION_MESSAGES.reasonMax }).trim().max(500, SESSION_MESSAGES.reasonMax).nullable().optional()
    .transform((v) => (v ? v : null)),
});
export const ATTENDANCE = ['attended', 'no-show', 'excused'] as const;
export type Attendance = (typeof ATTENDANCE)[number];
/** PUT /api/sessions/:id/register/:bookingId. null: not marked. */
export const attendanceSchema = z.object({
  attendance: z.enum(ATTENDANCE, { error: SESSION_MESSAGES.attendance }).nullable(),
});
export const walkInSchema = z.object({ userId: id });
const searchWords = z.string({ error: SESSION_MESSAGES.query }).max(100, SESSION_MESSAGES.query).default('');
export const sessionPeopleQuerySchema = z.object({ q: searchWords });
/** GET /api/modules/:moduleId/trainers: organisationId, the date's when a national caller edits an organisation's date. */
export const trainerQuerySchema = z.object({ q: searchWords, organisationId: id.optional() });
const calendarDay = z.string({ error: SESSION_MESSAGES.range }).regex(/^\d{4}-\d{2}-\d{2}$/, SESSION_MESSAGES.range)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T12:00:00Z`)), SESSION_MESSAGES.range);
/** GET /api/instructor/sessions: London calendar days, from inclusive, to inclusive (absent: from today
 * in London, to 31 days after from). */
export const calendarQuerySchema = z.object({ from: calendarDay.optional(), to: calendarDay.optional() }).refine((v) => {
  if (!v.from || !v.to) return true;
  const days = (Date.parse(`${v.to}T12:00:00Z`) - Date.parse(`${v.from}T12:00:00Z`)) / 86_400_000;
  return days >= 0 && days <= 366;
}, { path: ['to'], message: SESSION_MESSAGES.range });

export type BookingStatus = 'requested' | 'booked' | 'waiting' | 'offered' | 'cancelled' | 'declined' | 'lapsed';
/** The statuses that hold or wait for a place: one of them per learner, module and cycle. */
export const LIVE_BOOKING_STATUSES: readonly BookingStatus[] = ['requested', 'booked', 'waiting', 'offered'];

export interface SessionBooking {
  id: string;
  sessionId: string;
  moduleId: string;
  userId: string;
  cycle: number;
  status: BookingStatus;
  waitingSince: string | null;
  offeredUntil: string | null;
  attendance: Attendance | null;
  walkIn: boolean;
  /** The calendar entry's SEQUENCE. */
  sequence: number;
  createdAt: string;
  updatedAt: string;
}

export interface SessionCounts {
  booked: number;
  requested: number;
  offered: number;
  waiting: number;
  attended: number;
}

export interface ClassroomSession {
  id: string;
  moduleId: string;
  courseId: string;
  organisationId: string | null;
  startsAt: string;
  endsAt: string;
  venueName: string | null;
  venueAddress: string | null;
  onlineUrl: string | null;
  capacity: number;
  placesTaken: number;
  /** 0 when full (walk-ins may take it over capacity). */
  placesLeft: number;
  bookingClosesAt: string;
  /** Now before the cut-off, and not cancelled. */
  bookingOpen: boolean;
  note: string | null;
  cancelledAt: string | null;
  cancelledReason: string | null;
  sequence: number;
  trainers: { id: string; name: string }[];
  /** The caller may change and cancel it. */
  canManage: boolean;
  /** The caller keeps its register (trainer, author, administrators). */
  keepsRegister: boolean;
  /** For those who keep the register; null for learners. */
  counts: SessionCounts | null;
}

/** A date as a learner choosing one sees it (the module, course and organisation are the answer's, once). */
export interface SessionDate {
  id: string;
  startsAt: string;
  endsAt: string;
  venueName: string | null;
  venueAddress: string | null;
  onlineUrl: string | null;
  /** 0 when full. */
  placesLeft: number;
  /** Now before the cut-off, and not cancelled. */
  bookingOpen: boolean;
  note: string | null;
  /** Only the date of the learner's own booking may be cancelled. */
  cancelledAt: string | null;
  /** The trainers' names. */
  trainers: string[];
}

/**
 * GET /api/modules/:moduleId/sessions as a learner (who neither runs a date of the module nor may add
 * one): the next `limit` dates not over and not cancelled, by start, and the date of their booking
 * wherever it is.
 */
export interface LearnerModuleSessions {
  view: 'learner';
  moduleId: string;
  courseId: string;
  sessions: SessionDate[];
  /** More dates follow the last (a larger `limit` lists them). */
  more: boolean;
  /** The caller's live booking of the module (or their latest, when none is live), null when none. */
  myBooking: SessionBooking | null;
}

/** GET /api/modules/:moduleId/sessions as one who runs the module (admin, who may add dates, or who keeps a date's register): every date they see. */
export interface ManagedModuleSessions {
  view: 'manage';
  moduleId: string;
  courseId: string;
  sessions: ClassroomSession[];
  myBooking: SessionBooking | null;
  /** The caller may add dates. */
  canAdd: boolean;
}

export type ModuleSessions = LearnerModuleSessions | ManagedModuleSessions;

/** How many dates a learner's list holds at first, and at most. */
export const SESSION_DATES_LIMIT = { default: 12, max: 100 } as const;
/** GET /api/modules/:moduleId/sessions?limit=: how many of the next dates a learner gets. */
export const moduleSessionsQuerySchema = z.object({
  limit: z.coerce.number({ error: SESSION_MESSAGES.limit }).int(SESSION_MESSAGES.limit).min(1, SESSION_MESSAGES.limit)
    .max(SESSION_DATES_LIMIT.max, SESSION_MESSAGES.limit).default(SESSION_DATES_LIMIT.default),
});

export interface RegisterEntry {
  bookingId: string;
  userId: string;
  name: string;
  username: string;
  status: BookingStatus;
  attendance: Attendance | null;
  walkIn: boolean;
  waitingSince: string | null;
  offeredUntil: string | null;
  attendanceMarkedAt: string | null;
  markedByName: string | null;
  bookedAt: string;
}

/** GET /api/sessions/:id. register: for those who keep it (places first, then the waiting list in order), else null. */
export interface SessionDetail extends ClassroomSession {
  courseTitle: string;
  moduleTitle: string;
  myBooking: SessionBooking | null;
  register: RegisterEntry[] | null;
}

/** GET /api/instructor/sessions: one page of the caller's sessions in the range, by start. */
export interface SessionCalendarItem extends ClassroomSession {
  courseTitle: string;
  moduleTitle: string;
}
export interface SessionCalendarPage {
  items: SessionCalendarItem[];
  total: number;
  page: number;
  pageSize: number;
}

/** GET /api/bookings/requests: a line manager's reports' bookings waiting for approval. */
export interface SessionRequest {
  bookingId: string;
  userId: string;
  learnerName: string;
  sessionId: string;
  moduleId: string;
  moduleTitle: string;
  courseId: string;
  courseTitle: string;
  startsAt: string;
  endsAt: string;
  venueName: string | null;
  onlineUrl: string | null;
  requestedAt: string;
}

/** GET /api/sessions/:id/people?q=: people a walk-in may be. */
export interface SessionPerson {
  id: string;
  name: string;
  username: string;
  enrolled: boolean;
  booked: boolean;
}

/** GET /api/modules/:moduleId/trainers?q=: people who may run the course's dates (up to 20, by name). */
export interface TrainerCandidate {
  id: string;
  name: string;
  username: string;
}

/** settings.session_offer_hours: how long a place offered from the waiting list is held (1 hour to 14 days). */
export const SESSION_OFFER_HOURS = { min: 1, max: 336, default: 48 } as const;
const OFFER_HOURS_MESSAGE = `Enter a whole number of hours between ${SESSION_OFFER_HOURS.min} and ${SESSION_OFFER_HOURS.max}`;
/** The settings form's field (`sessionOfferHours`), checked the same in the browser and the API. */
export const sessionOfferHoursField = z
  .number({ error: OFFER_HOURS_MESSAGE })
  .int(OFFER_HOURS_MESSAGE)
  .min(SESSION_OFFER_HOURS.min, OFFER_HOURS_MESSAGE)
  .max(SESSION_OFFER_HOURS.max, OFFER_HOURS_MESSAGE);

export const SESSION_CSV_HEADER = [
  'Name', 'Username', 'Status', 'Attendance', 'Walk-in', 'Booked on', 'Waiting since', 'Session date', 'Starts', 'Ends', 'Venue',
] as const;

const LONDON_PARTS = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false,
});

/** London's offset from UTC at the instant, in minutes (0 in winter, 60 in summer). */
function londonOffsetMinutes(at: number): number {
  const p = Object.fromEntries(LONDON_PARTS.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour) % 24, Number(p.minute));
  return Math.round((wall - at) / 60_000);
}

/**
 * The instant of a London date and wall-clock time (`2026-07-14`, `10:00`) as the API's ISO text.
 * A time the clocks skip (01:30 on the last Sunday of March) is taken an hour later; a time they pass
 * twice (01:30 on the last Sunday of October), the first (BST).
 */
export function londonInstant(date: string, time: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // The offset an hour either side of the wall time, as UTC: the earlier one wins where both fit.
  for (const guess of [londonOffsetMinutes(wall - 3_600_000), londonOffsetMinutes(wall + 3_600_000)]) {
    const at = wall - guess * 60_000;
    if (londonOffsetMinutes(at) === guess) return new Date(at).toISOString();
  }
  return new Date(wall - londonOffsetMinutes(wall) * 60_000 + 3_600_000).toISOString();
}
