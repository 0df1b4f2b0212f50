// A session and a booking for the unit tests, each field overridable.
import type { ClassroomSession, LearnerModuleSessions, SessionBooking, SessionDate } from '@shared/sessions.ts';

export const MODULE = '10000000-0000-4000-8000-000000000001';
const S1 = '20000000-0000-4000-8000-000000000001';
const B1 = '30000000-0000-4000-8000-000000000001';

export function makeSession(overrides: Partial<ClassroomSession> = {}): ClassroomSession {
  return {
    id: S1, moduleId: MODULE, courseId: '40000000-0000-4000-8000-000000000001', organisationId: null,
    startsAt: '2026-12-03T09:00:00.000Z', endsAt: '2026-12-03T16:30:00.000Z',
    venueName: 'Training Centre', venueAddress: '1 High Street, Northshire', onlineUrl: null,
    capacity: 2, placesTaken: 1, placesLeft: 1, bookingClosesAt: '2026-12-03T09:00:00.000Z', bookingOpen: true,
    note: null, cancelledAt: null, cancelledReason: null, sequence: 0, trainers: [{ id: 't1', name: 'Tom Trainer' }],
    canManage: false, keepsRegister: false, counts: null,
    ...overrides,
  };
}

export function makeBooking(overrides: Partial<SessionBooking> = {}): SessionBooking {
  return {
    id: B1, sessionId: S1, moduleId: MODULE, userId: 'u1', cycle: 1, status: 'booked', waitingSince: null, offeredUntil: null,
    attendance: null, walkIn: false, sequence: 0, createdAt: '2026-11-20T10:00:00Z', updatedAt: '2026-11-20T10:00:00Z',
    ...overrides,
  };
}

/** A date as a learner's list has it, each field overridable. */
export function makeDate(overrides: Partial<SessionDate> = {}): SessionDate {
  return {
    id: S1, startsAt: '2026-12-03T09:00:00.000Z', endsAt: '2026-12-03T16:30:00.000Z',
    venueName: 'Training Centre', venueAddress: '1 High Street, Northshire', onlineUrl: null,
    placesLeft: 1, bookingOpen: true, note: null, cancelledAt: null, trainers: ['Tom Trainer'],
    ...overrides,
  };
}

/** A learner's answer of GET /api/modules/:moduleId/sessions. */
export function learnerAnswer(sessions: SessionDate[], myBooking: SessionBooking | null, more = false): LearnerModuleSessions {
  return { view: 'learner', moduleId: MODULE, courseId: '40000000-0000-4000-8000-000000000001', sessions, more, myBooking };
}
