// A line manager's "My team", shared by the api function (/api/team) and the web page:
// the query filters, the shapes of the answers and the CSV export's columns. Who is on the team
// and each status are decided in SQL only (supabase/schemas/14_my_team.sql).
import { z } from 'zod';
import { UUID_PATTERN } from './ids.ts';
import { COUNTED_STATUSES, type TrainingStatus } from './compliance.ts';
import type { RecognisedOrigin } from './recognition.ts';
import { csvDate, csvFileName } from './csv.ts';
import {
  LIVE_BOOKING_STATUS_LABELS,
  type PracticalCounts,
  type PracticalStanding,
  type UpcomingSession,
  type UpcomingSessionDetail,
} from './competence.ts';

const optionalFilter = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

/** The search box's longest text. */
export const TEAM_SEARCH_MAX = 100;

/** The filters of the team list and its CSV export (`?unitId=&status=&search=`). */
export const teamFilterSchema = z.object({
  unitId: optionalFilter(z.string().regex(UUID_PATTERN, 'Unit must be a valid id')),
  status: optionalFilter(z.enum(COUNTED_STATUSES, { error: 'Status must be overdue, due-soon, in-progress or done' })),
  search: optionalFilter(
    z.string().trim().max(TEAM_SEARCH_MAX, `Search must be at most ${TEAM_SEARCH_MAX} characters`),
  ),
});
export type TeamFilter = z.infer<typeof teamFilterSchema>;

/** A person's required courses counted by status. */
export interface TeamStatusCounts {
  overdue: number;
  dueSoon: number;
  inProgress: number;
  done: number;
}

export interface TeamMember {
  user: { id: string; name: string; username: string };
  unit: { id: string; name: string } | null;
  /** Reports to the caller directly (else down the chain). */
  direct: boolean;
  counts: TeamStatusCounts;
  /** Current certificates expiring within the next 60 days, and the soonest expiry. */
  expiringCertificates: number;
  nextExpiry: string | null;
  /** The latest module progress, quiz attempt, enrolment or completion. */
  lastActivityAt: string | null;
  /** Upcoming session dates with a place booked, and the next live booking (any status). */
  sessionsBooked: number;
  nextSession: UpcomingSession | null;
  practicals: PracticalCounts;
}

export interface TeamSummary {
  people: number;
  direct: number;
  /** People with at least one course overdue (due soon; a certificate expiring within 60 days). */
  overdue: number;
  dueSoon: number;
  expiring: number;
  /** People with an upcoming session booked, a practical assessment due, one overdue. */
  sessionsBooked: number;
  practicalsDue: number;
  practicalsOverdue: number;
}

/** GET /api/team */
export interface TeamPage {
  items: TeamMember[];
  total: number;
  page: number;
  pageSize: number;
  summary: TeamSummary;
  /** The units the caller's reports belong to (for the unit filter), by name. */
  units: { id: string; name: string }[];
}

/** GET /api/team/:personId: one report's record (never their CPD). */
export interface TeamMemberRecord {
  user: { id: string; name: string; username: string };
  unit: { id: string; name: string } | null;
  direct: boolean;
  required: {
    course: { id: string; title: string };
    status: TrainingStatus;
    dueAt: string | null;
    progress: number;
    /** Satisfied by a recognised credential of another issuer: its origin (null otherwise). */
    recognised: RecognisedOrigin | null;
  }[];
  completions: { course: { id: string; title: string }; completedAt: string }[];
  certificates: {
    id: string;
    course: { id: string | null; title: string };
    issuedAt: string;
    expiresAt: string | null;
    state: 'valid' | 'expiring' | 'expired' | 'revoked';
  }[];
  /** Upcoming live bookings, soonest first. */
  sessions: UpcomingSessionDetail[];
  /** Practical assessments of the courses they are enrolled on, most urgent first. */
  practicals: PracticalStanding[];
}

/** The CSV export's header row. */
export const TEAM_CSV_HEADER = [
  'Name', 'Username', 'Unit', 'Direct report', 'Overdue', 'Due soon', 'In progress', 'Done',
  'Certificates expiring (60 days)', 'Next expiry', 'Last activity',
  'Sessions booked', 'Next session', 'Next session status', 'Practicals due', 'Next practical due',
  'Practicals overdue', 'Practicals overdue since', 'Practicals awaiting sign-off',
] as const;

/** One report as a CSV row (values; csv.ts quotes and neutralises them). */
export function teamCsvRow(m: TeamMember): (string | number | boolean)[] {
  return [
    m.user.name,
    m.user.username,
    m.unit?.name ?? '',
    m.direct,
    m.counts.overdue,
    m.counts.dueSoon,
    m.counts.inProgress,
    m.counts.done,
    m.expiringCertificates,
    csvDate(m.nextExpiry),
    csvDate(m.lastActivityAt),
    m.sessionsBooked,
    csvDate(m.nextSession?.startsAt ?? null),
    m.nextSession ? LIVE_BOOKING_STATUS_LABELS[m.nextSession.status] : '',
    m.practicals.due,
    csvDate(m.practicals.nextDueAt),
    m.practicals.overdue,
    csvDate(m.practicals.overdueSince),
    m.practicals.awaiting,
  ];
}

/** The export's file name, e.g. `my-team-2026-11-25.csv`. */
export function teamFileName(now = new Date()): string {
  return csvFileName('my-team', now);
}
