// Maintenance of competence, shared by the api function (/api/team, /api/compliance/practicals) and
// the web: where a person's practical assessments stand and their upcoming classroom sessions. The
// states are decided only in SQL (private.practical_states, private.upcoming_session_bookings in
// supabase/schemas/27_maintenance_of_competence.sql); these are their names and shapes.
import { z } from 'zod';
import { UUID_PATTERN } from './ids.ts';

/** overdue | due | awaiting-sign-off | valid, most urgent first. Due: validity ends within 60 days
 * (a certificate's "expiring" window, when recertification opens). Overdue: it ended, or the
 * practical was never signed off. */
export const PRACTICAL_STATES = ['overdue', 'due', 'awaiting-sign-off', 'valid'] as const;
export type PracticalState = (typeof PRACTICAL_STATES)[number];

/** A live booking: a place held, asked for (the manager approves), on the waiting list, or offered. */
export const LIVE_BOOKING_STATUSES = ['booked', 'requested', 'waiting', 'offered'] as const;
export type LiveBookingStatus = (typeof LIVE_BOOKING_STATUSES)[number];

export const LIVE_BOOKING_STATUS_LABELS: Record<LiveBookingStatus, string> = {
  booked: 'Booked',
  requested: 'Requested',
  waiting: 'Waiting list',
  offered: 'Place offered',
};

/** A course or module title with its Welsh version (null: not translated). */
export interface BilingualTitle {
  id: string;
  title: string;
  titleCy: string | null;
}

/** One upcoming booking of a session date (not cancelled, not over). */
export interface UpcomingSession {
  bookingId: string;
  sessionId: string;
  course: BilingualTitle;
  module: BilingualTitle;
  startsAt: string;
  endsAt: string;
  status: LiveBookingStatus;
}

/** As in a report's record: with where and, for an offered place, until when it is held. */
export interface UpcomingSessionDetail extends UpcomingSession {
  venueName: string | null;
  online: boolean;
  offeredUntil: string | null;
}

/** A person's practical assessment: the last sign-off (any enrolment cycle) and its validity. */
export interface PracticalStanding {
  course: BilingualTitle;
  module: BilingualTitle;
  /** null: the practical never expires. */
  validMonths: number | null;
  signedOffAt: string | null;
  validUntil: string | null;
  state: PracticalState;
}

/** A person's practicals counted: due, overdue, awaiting sign-off; the soonest due and earliest lapsed. */
export interface PracticalCounts {
  due: number;
  overdue: number;
  awaiting: number;
  /** The soonest end of validity among those due. */
  nextDueAt: string | null;
  /** The earliest end of validity among those overdue (null: none, or never signed off). */
  overdueSince: string | null;
}

/** The rows the SQL answers in jsonb (camelCase keys): one booking. */
export interface UpcomingSessionJson {
  bookingId: string;
  sessionId: string;
  courseId: string;
  courseTitle: string;
  courseTitleCy: string | null;
  moduleId: string;
  moduleTitle: string;
  moduleTitleCy: string | null;
  startsAt: string;
  endsAt: string;
  status: LiveBookingStatus;
  venueName?: string | null;
  online?: boolean;
  offeredUntil?: string | null;
}

/** The booking as the API answers it (dates as ISO 8601 UTC). */
export function toUpcomingSession(j: UpcomingSessionJson, iso: (v: string) => string): UpcomingSession {
  return {
    bookingId: j.bookingId,
    sessionId: j.sessionId,
    course: { id: j.courseId, title: j.courseTitle, titleCy: j.courseTitleCy },
    module: { id: j.moduleId, title: j.moduleTitle, titleCy: j.moduleTitleCy },
    startsAt: iso(j.startsAt),
    endsAt: iso(j.endsAt),
    status: j.status,
  };
}

const optionalFilter = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** GET /api/compliance/practicals and /practicals/people: `?organisationId=&unitId=&state=`. */
export const practicalsFilterSchema = z.object({
  organisationId: optionalFilter(z.string().regex(UUID_PATTERN, 'Organisation id must be a valid id')),
  unitId: optionalFilter(z.string().regex(UUID_PATTERN, 'Unit id must be a valid id')),
  state: optionalFilter(z.enum(PRACTICAL_STATES, { error: 'State must be overdue, due, awaiting-sign-off or valid' })),
});
export type PracticalsFilter = z.infer<typeof practicalsFilterSchema>;

/** GET /api/compliance/practicals: one group (organisation, or unit with its sub-units). */
export interface CompliancePracticalsRow {
  organisationId: string | null;
  unitId: string | null;
  /** null: no organisation / no unit. */
  name: string | null;
  hasUnits: boolean;
  /** People with at least one practical assessment, and their practicals by state. */
  people: number;
  practicals: number;
  valid: number;
  due: number;
  overdue: number;
  awaiting: number;
}

/** GET /api/compliance/practicals/people: one person and practical. */
export interface CompliancePracticalPerson extends Omit<PracticalStanding, 'validMonths'> {
  user: { id: string; name: string; username: string };
  unitName: string | null;
}
