// /api/team: a line manager's "My team": their reports, direct and down the chain, with
// the status of their required training, certificates expiring, last activity, upcoming classroom
// sessions and practical assessments due or overdue (paged, filtered), one report's record, and the
// CSV export. Who is a report is decided only in SQL
// (private.team_members, team_summary, team_member_record in 14_my_team.sql, run as the caller):
// anyone without reports gets an empty team, and any person who is not their report a 404.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  TEAM_CSV_HEADER,
  teamCsvRow,
  teamFileName,
  teamFilterSchema,
  type TeamMember,
  type TeamMemberRecord,
  type TeamPage,
  type TeamSummary,
} from '../../_shared/team.ts';
import type { TrainingStatus } from '../../_shared/compliance.ts';
import { type PracticalStanding, toUpcomingSession, type UpcomingSessionJson } from '../../_shared/competence.ts';
import { attachmentDisposition, CSV_CONTENT_TYPE, toCsv } from '../../_shared/csv.ts';
import { messages } from '../../_shared/i18n/index.ts';
import { languageOf } from '../lib/users.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { validate } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { firstQueryValues, pageFields, pathId } from '../lib/params.ts';

/** The most reports one CSV export holds. */
export const TEAM_EXPORT_MAX_ROWS = 100_000;

export const PERSON_NOT_FOUND = 'Person not found in your team';

const listQuery = teamFilterSchema.extend(pageFields);

interface MemberRow {
  userId: string;
  username: string;
  name: string;
  unitId: string | null;
  unitName: string | null;
  direct: boolean;
  overdue: number;
  dueSoon: number;
  inProgress: number;
  done: number;
  expiringCertificates: number;
  nextExpiry: Date | null;
  lastActivityAt: Date | null;
  sessionsBooked: number;
  nextSession: UpcomingSessionJson | null;
  practicalsDue: number;
  practicalsOverdue: number;
  practicalsAwaiting: number;
  nextPracticalDue: Date | null;
  practicalsOverdueSince: Date | null;
  total: string;
}

/** private.team_page: a first row (no user) with the team in figures and its units, then the page. */
interface PageRow extends Omit<MemberRow, 'userId'> {
  userId: string | null;
  teamPeople: string | null;
  teamDirect: string | null;
  teamOverdue: string | null;
  teamDueSoon: string | null;
  teamExpiring: string | null;
  teamSessionsBooked: string | null;
  teamPracticalsDue: string | null;
  teamPracticalsOverdue: string | null;
  teamUnits: { id: string; name: string }[] | null;
}

interface RecordRow {
  userId: string;
  username: string;
  name: string;
  unitId: string | null;
  unitName: string | null;
  direct: boolean;
  required: {
    courseId: string; courseTitle: string; status: TrainingStatus; dueAt: string | null; progress: number;
    recognised: { source: 'upload' | 'platform'; issuerName: string; achievementName: string; validUntil: string | null } | null;
  }[];
  completions: { courseId: string; courseTitle: string; completedAt: string }[];
  certificates: {
    id: string;
    courseId: string | null;
    courseTitle: string;
    issuedAt: string;
    expiresAt: string | null;
    state: TeamMemberRecord['certificates'][number]['state'];
  }[];
  sessions: UpcomingSessionJson[];
  practicals: {
    courseId: string; courseTitle: string; courseTitleCy: string | null; moduleId: string; moduleTitle: string;
    moduleTitleCy: string | null; validMonths: number | null; signedOffAt: string | null; validUntil: string | null;
    state: PracticalStanding['state'];
  }[];
}

/** An ISO timestamp the SQL always gives. */
const iso = (v: string) => isoTimestamp(v) ?? v;

/** A bad argument the SQL refuses on purpose is bad input; anything else is not the client's. */
function fromDatabase(error: unknown): never {
  if ((error as { code?: unknown })?.code === '22023') throw new ApiError(400, 'Validation failed', { status: 'Status must be overdue, due-soon, in-progress or done' });
  throw error;
}

function selectMembers(tx: Tx, f: z.infer<typeof teamFilterSchema>, limit: number, offset: number) {
  return tx<MemberRow[]>`
    select user_id, username, name, unit_id, unit_name, direct, overdue, due_soon, in_progress, done,
           expiring_certificates, next_expiry, last_activity_at, sessions_booked, next_session, practicals_due,
           practicals_overdue, practicals_awaiting, next_practical_due, practicals_overdue_since, total
    from private.team_members(${f.unitId ?? null}::uuid, ${f.status ?? null}, ${f.search ?? null}, ${limit}, ${offset})`;
}

function toMember(r: MemberRow): TeamMember {
  return {
    user: { id: r.userId, name: r.name, username: r.username },
    unit: r.unitId && r.unitName !== null ? { id: r.unitId, name: r.unitName } : null,
    direct: r.direct,
    counts: { overdue: r.overdue, dueSoon: r.dueSoon, inProgress: r.inProgress, done: r.done },
    expiringCertificates: r.expiringCertificates,
    nextExpiry: isoTimestamp(r.nextExpiry),
    lastActivityAt: isoTimestamp(r.lastActivityAt),
    sessionsBooked: r.sessionsBooked,
    nextSession: r.nextSession ? toUpcomingSession(r.nextSession, iso) : null,
    practicals: {
      due: r.practicalsDue,
      overdue: r.practicalsOverdue,
      awaiting: r.practicalsAwaiting,
      nextDueAt: isoTimestamp(r.nextPracticalDue),
      overdueSince: isoTimestamp(r.practicalsOverdueSince),
    },
  };
}

function toSummary(r: PageRow | undefined): TeamSummary {
  return {
    people: Number(r?.teamPeople ?? 0),
    direct: Number(r?.teamDirect ?? 0),
    overdue: Number(r?.teamOverdue ?? 0),
    dueSoon: Number(r?.teamDueSoon ?? 0),
    expiring: Number(r?.teamExpiring ?? 0),
    sessionsBooked: Number(r?.teamSessionsBooked ?? 0),
    practicalsDue: Number(r?.teamPracticalsDue ?? 0),
    practicalsOverdue: Number(r?.teamPracticalsOverdue ?? 0),
  };
}

function toRecord(r: RecordRow): TeamMemberRecord {
  return {
    user: { id: r.userId, name: r.name, username: r.username },
    unit: r.unitId && r.unitName !== null ? { id: r.unitId, name: r.unitName } : null,
    direct: r.direct,
    required: r.required.map((q) => ({
      course: { id: q.courseId, title: q.courseTitle },
      status: q.status,
      dueAt: isoTimestamp(q.dueAt),
      progress: q.progress,
      recognised: q.recognised ? { ...q.recognised, validUntil: isoTimestamp(q.recognised.validUntil) } : null,
    })),
    completions: r.completions.map((c) => ({
      course: { id: c.courseId, title: c.courseTitle },
      completedAt: isoTimestamp(c.completedAt) ?? '',
    })),
    certificates: r.certificates.map((c) => ({
      id: c.id,
      course: { id: c.courseId, title: c.courseTitle },
      issuedAt: isoTimestamp(c.issuedAt) ?? '',
      expiresAt: isoTimestamp(c.expiresAt),
      state: c.state,
    })),
    sessions: r.sessions.map((j) => ({
      ...toUpcomingSession(j, iso),
      venueName: j.venueName ?? null,
      online: j.online ?? false,
      offeredUntil: isoTimestamp(j.offeredUntil ?? null),
    })),
    practicals: r.practicals.map((q) => ({
      course: { id: q.courseId, title: q.courseTitle, titleCy: q.courseTitleCy },
      module: { id: q.moduleId, title: q.moduleTitle, titleCy: q.moduleTitleCy },
      validMonths: q.validMonths,
      signedOffAt: isoTimestamp(q.signedOffAt),
      validUntil: isoTimestamp(q.validUntil),
      state: q.state,
    })),
  };
}

export function teamRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const query = validate(listQuery, firstQueryValues(c));
    const offset = (query.page - 1) * query.pageSize;
    // One statement, one walk of the manager chain (private.team_page in 14_my_team.sql), sent with
    // the transaction around it in one round trip.
    const [all] = await db
      .read(caller.db, (sql) => [
        sql<PageRow[]>`
          select * from private.team_page(${query.unitId ?? null}::uuid, ${query.status ?? null}, ${query.search ?? null},
                                          ${query.pageSize}, ${offset})`,
      ])
      .catch(fromDatabase);
    const figures = all.find((r) => r.userId === null);
    const rows = all.filter((r): r is PageRow & MemberRow => r.userId !== null);
    const body: TeamPage = {
      items: rows.map(toMember),
      total: rows.length > 0 ? Number(rows[0].total) : 0,
      page: query.page,
      pageSize: query.pageSize,
      summary: toSummary(figures),
      units: (figures?.teamUnits ?? []).map((u) => ({ id: u.id, name: u.name })),
    };
    return c.json(body);
  });

  routes.get('/export.csv', async (c) => {
    const caller = requireUser(c);
    const query = validate(teamFilterSchema, firstQueryValues(c));
    const { rows, language } = await db
      .withCaller(caller.db, async (tx) => ({ rows: await selectMembers(tx, query, TEAM_EXPORT_MAX_ROWS, 0), language: await languageOf(tx, caller.userId) }))
      .catch(fromDatabase);
    // The headers in the caller's language (the English ones are TEAM_CSV_HEADER's).
    const words = messages(language).exports;
    const header = language === 'en-GB' ? TEAM_CSV_HEADER : words.teamHeader;
    const csv = toCsv(header, rows.map((r) => {
      const member = toMember(r);
      const row = teamCsvRow(member);
      if (member.nextSession) row[TEAM_CSV_HEADER.indexOf('Next session status')] = words.bookingStatuses[member.nextSession.status];
      return row;
    }));
    return c.body(csv, 200, {
      'content-type': CSV_CONTENT_TYPE,
      'content-disposition': attachmentDisposition(teamFileName()),
      'cache-control': 'no-store',
    });
  });

  routes.get('/:personId', async (c) => {
    const caller = requireUser(c);
    const personId = pathId(c, 'personId', PERSON_NOT_FOUND);
    const rows = await db.withCaller(caller.db, (tx) => tx<RecordRow[]>`
      select user_id, username, name, unit_id, unit_name, direct, required, completions, certificates, sessions, practicals
      from private.team_member_record(${personId}::uuid)`);
    if (rows.length === 0) throw new ApiError(404, PERSON_NOT_FOUND);
    return c.json(toRecord(rows[0]));
  });

  return routes;
}
