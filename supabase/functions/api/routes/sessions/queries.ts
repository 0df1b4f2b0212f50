// The SQL and row mapping of classroom sessions: the dates read under the caller's row-level security
// (private.run_session_ids, private.learner_session_ids decide who sees which), the trainers' names,
// the register and the bookings through their security-definer functions, and the errors those raise.
import type {
  BookingStatus, ClassroomSession, RegisterEntry, SessionBooking, SessionCounts, SessionRequest,
} from '../../../_shared/sessions.ts';
import type { Tx } from '../../lib/db.ts';
import { ApiError, fromSqlFunction, pgError } from '../../lib/errors.ts';
import { iso, type Row } from '../../lib/learning.ts';

export const MSG = {
  moduleNotFound: 'Module not found',
  notSessionModule: 'This module is not a classroom session',
  sessionNotFound: 'Session not found',
  bookingNotFound: 'Booking not found',
};

const isoOrNull = (value: unknown) => (value === null || value === undefined ? null : iso(value));

/** The database's own checks on a date, by the field a form shows them by. */
const CONSTRAINT_FIELDS: Record<string, string> = {
  classroom_sessions_ends_after_starts: 'endsAt',
  classroom_sessions_not_too_long: 'endsAt',
  classroom_sessions_closes_by_start: 'bookingClosesAt',
  classroom_sessions_place_given: 'venueName',
  classroom_sessions_address_needs_venue: 'venueName',
  classroom_sessions_online_url_https: 'onlineUrl',
  classroom_sessions_capacity_range: 'capacity',
};

/**
 * The refusals of the session functions: 22023 a field (its name is the hint) 400, a check 400, the
 * live booking's unique index 409, then 42501 / P0002 / 55000 as 403 / 404 / 409 with their message.
 */
export function fromSessionFunction(error: unknown): never {
  const pg = pgError(error);
  const raised = (error as { routine?: unknown })?.routine === 'exec_stmt_raise';
  const message = raised ? String((error as { message?: unknown }).message ?? '') : '';
  if (pg?.code === '22023') throw new ApiError(400, 'Validation failed', { [pg.hint || '_']: message || 'Invalid value' });
  if (pg?.code === '23514') {
    throw new ApiError(400, 'Validation failed', { [CONSTRAINT_FIELDS[pg.constraint_name ?? ''] ?? '_']: 'Invalid value' });
  }
  if (pg?.code === '23505') throw new ApiError(409, 'You already have a booking for this session');
  if (pg?.code === '23503') throw new ApiError(400, 'Validation failed', { _: 'A person or organisation named does not exist' });
  return fromSqlFunction(error);
}

export function toBooking(row: Row): SessionBooking {
  return {
    id: String(row.id),
    sessionId: String(row.sessionId),
    moduleId: String(row.moduleId),
    userId: String(row.userId),
    cycle: Number(row.cycle),
    status: row.status as BookingStatus,
    waitingSince: isoOrNull(row.waitingSince),
    offeredUntil: isoOrNull(row.offeredUntil),
    attendance: (row.attendance as SessionBooking['attendance']) ?? null,
    walkIn: Boolean(row.walkIn),
    sequence: Number(row.sequence),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A session row (with the caller's rights computed in its query), its trainers and, for register keepers, its counts. */
export function toSession(row: Row, trainers: Map<string, { id: string; name: string }[]>, counts: Map<string, SessionCounts>): ClassroomSession {
  const id = String(row.id);
  const capacity = Number(row.capacity);
  const taken = Number(row.placesTaken);
  return {
    id,
    moduleId: String(row.moduleId),
    courseId: String(row.courseId),
    organisationId: (row.organisationId as string | null) ?? null,
    startsAt: iso(row.startsAt),
    endsAt: iso(row.endsAt),
    venueName: (row.venueName as string | null) ?? null,
    venueAddress: (row.venueAddress as string | null) ?? null,
    onlineUrl: (row.onlineUrl as string | null) ?? null,
    capacity,
    placesTaken: taken,
    placesLeft: Math.max(capacity - taken, 0),
    bookingClosesAt: iso(row.bookingClosesAt),
    bookingOpen: Boolean(row.bookingOpen),
    note: (row.note as string | null) ?? null,
    cancelledAt: isoOrNull(row.cancelledAt),
    cancelledReason: (row.cancelledReason as string | null) ?? null,
    sequence: Number(row.sequence),
    trainers: trainers.get(id) ?? [],
    canManage: Boolean(row.canManage),
    keepsRegister: Boolean(row.keepsRegister),
    counts: row.keepsRegister ? counts.get(id) ?? { booked: 0, requested: 0, offered: 0, waiting: 0, attended: 0 } : null,
  };
}

/** The columns of a session with the caller's rights on it (the caller's row-level security applies). */
export const sessionColumns = (tx: Tx) => tx`s.id, s.module_id, s.course_id, s.organisation_id, s.starts_at, s.ends_at, s.venue_name,
  s.venue_address, s.online_url, s.capacity, s.places_taken, s.booking_closes_at, s.note, s.cancelled_at, s.cancelled_reason,
  s.sequence, now() < s.booking_closes_at and s.cancelled_at is null as booking_open,
  private.may_manage_sessions(s.course_id, s.organisation_id) as can_manage,
  (select private.is_admin()) or s.id in (select private.run_session_ids()) as keeps_register`;

/** The sessions' trainers and, for those whose register the caller keeps, their bookings counted. */
export async function sessionExtras(tx: Tx, rows: Row[]) {
  const ids = rows.map((r) => String(r.id));
  const kept = rows.filter((r) => r.keepsRegister).map((r) => String(r.id));
  const trainers = new Map<string, { id: string; name: string }[]>();
  const counts = new Map<string, SessionCounts>();
  if (ids.length === 0) return { trainers, counts };
  for (const t of await tx<Row[]>`select session_id, trainer_id, name from private.session_trainer_names(${ids}::uuid[])`) {
    const list = trainers.get(String(t.sessionId)) ?? [];
    list.push({ id: String(t.trainerId), name: String(t.name) });
    trainers.set(String(t.sessionId), list);
  }
  if (kept.length > 0) {
    const counted = await tx<Row[]>`
      select b.session_id,
             count(*) filter (where b.status = 'booked')::int as booked,
             count(*) filter (where b.status = 'requested')::int as requested,
             count(*) filter (where b.status = 'offered')::int as offered,
             count(*) filter (where b.status = 'waiting')::int as waiting,
             count(*) filter (where b.attendance = 'attended')::int as attended
      from public.session_bookings b
      where b.session_id = any (${kept}::uuid[])
      group by b.session_id`;
    for (const c of counted) {
      counts.set(String(c.sessionId), {
        booked: Number(c.booked), requested: Number(c.requested), offered: Number(c.offered), waiting: Number(c.waiting),
        attended: Number(c.attended),
      });
    }
  }
  return { trainers, counts };
}

export async function sessionsOf(tx: Tx, rows: Row[]): Promise<ClassroomSession[]> {
  const { trainers, counts } = await sessionExtras(tx, rows);
  return rows.map((r) => toSession(r, trainers, counts));
}

/** The caller's booking of the module: the live one, else the latest. */
export async function myBookingOfModule(tx: Tx, moduleId: string, userId: string): Promise<SessionBooking | null> {
  const [row] = await tx<Row[]>`
    select * from public.session_bookings b
    where b.module_id = ${moduleId}::uuid and b.user_id = ${userId}::uuid
    order by b.status in ('requested', 'booked', 'waiting', 'offered') desc, b.updated_at desc, b.id
    limit 1`;
  return row ? toBooking(row) : null;
}

/** A booking function's answer (a session_bookings row), its refusals as the API's errors. */
export async function callBooking(run: Promise<readonly Row[]>): Promise<SessionBooking> {
  const [row] = await run.catch(fromSessionFunction);
  return toBooking(row);
}

export function toRegisterEntry(row: Row): RegisterEntry {
  return {
    bookingId: String(row.bookingId),
    userId: String(row.userId),
    name: String(row.name),
    username: String(row.username),
    status: row.status as BookingStatus,
    attendance: (row.attendance as RegisterEntry['attendance']) ?? null,
    walkIn: Boolean(row.walkIn),
    waitingSince: isoOrNull(row.waitingSince),
    offeredUntil: isoOrNull(row.offeredUntil),
    attendanceMarkedAt: isoOrNull(row.attendanceMarkedAt),
    markedByName: (row.markedByName as string | null) ?? null,
    bookedAt: iso(row.bookedAt),
  };
}

export async function readRegister(tx: Tx, sessionId: string): Promise<RegisterEntry[]> {
  const rows = await tx<Row[]>`select * from private.session_register(${sessionId}::uuid)`.catch(fromSessionFunction);
  return rows.map(toRegisterEntry);
}

export function toRequest(row: Row): SessionRequest {
  return {
    bookingId: String(row.bookingId),
    userId: String(row.userId),
    learnerName: String(row.learnerName),
    sessionId: String(row.sessionId),
    moduleId: String(row.moduleId),
    moduleTitle: String(row.moduleTitle),
    courseId: String(row.courseId),
    courseTitle: String(row.courseTitle),
    startsAt: iso(row.startsAt),
    endsAt: iso(row.endsAt),
    venueName: (row.venueName as string | null) ?? null,
    onlineUrl: (row.onlineUrl as string | null) ?? null,
    requestedAt: iso(row.requestedAt),
  };
}
