// /api/instructor/assessments: the caller's queue as an assessor (their drafts awaiting sign-off,
// the competent records awaiting their countersignature, or every signed record of the learners
// they assess) and its CSV export. The list is private.assessment_queue's.
import { Hono } from 'hono';
import { z } from 'zod';
import { ASSESSMENT_CSV_HEADER, ASSESSMENT_MESSAGES, QUEUE_STATES, type Outcome, type Paged, type QueuedAssessment } from '../../../_shared/assessments.ts';
import { attachmentDisposition, CSV_CONTENT_TYPE, csvFileName, toCsv } from '../../../_shared/csv.ts';
import { isoTimestamp } from '../../../_shared/dates.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { firstQueryValues, pageFields, pagingQuery } from '../../lib/params.ts';
import type { Row } from '../../lib/learning.ts';
import { checked } from './queries.ts';

const queueQuerySchema = z.object({
  state: z.enum(QUEUE_STATES, { error: ASSESSMENT_MESSAGES.queueState }).default('awaiting-sign-off'),
  ...pageFields,
});
const exportQuerySchema = z.object({ state: z.enum(QUEUE_STATES, { error: ASSESSMENT_MESSAGES.queueState }).default('signed') });

/** At most this many rows in one export. */
const EXPORT_MAX_ROWS = 10000;

function toQueued(r: Row): QueuedAssessment {
  return {
    recordId: String(r.recordId),
    moduleId: String(r.moduleId),
    moduleTitle: String(r.moduleTitle),
    courseId: String(r.courseId),
    courseTitle: String(r.courseTitle),
    learnerId: String(r.learnerId),
    learnerName: String(r.learnerName),
    cycle: Number(r.cycle),
    assessorName: (r.assessorName as string | null) ?? null,
    outcome: (r.outcome as Outcome | null) ?? null,
    createdAt: isoTimestamp(r.createdAt)!,
    signedAt: isoTimestamp(r.signedAt),
    verifierName: (r.verifierName as string | null) ?? null,
    verifiedAt: isoTimestamp(r.verifiedAt),
    supersededAt: isoTimestamp(r.supersededAt),
    needsVerifier: Boolean(r.needsVerifier),
  };
}

export function assessmentQueueRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const query = pagingQuery(queueQuerySchema, firstQueryValues(c));
    const rows = await db.withCaller(caller.db, (tx) =>
      checked(() => tx<Row[]>`
        select * from private.assessment_queue(${query.state}, ${query.pageSize}::int, ${(query.page - 1) * query.pageSize}::int)`));
    const body: Paged<QueuedAssessment> = {
      items: rows.map(toQueued),
      total: rows.length > 0 ? Number(rows[0].total) : 0,
      page: query.page,
      pageSize: query.pageSize,
    };
    return c.json(body);
  });

  routes.get('/export.csv', async (c) => {
    const caller = requireUser(c);
    const query = pagingQuery(exportQuerySchema, firstQueryValues(c));
    const rows = await db.withCaller(caller.db, (tx) =>
      checked(() => tx<Row[]>`select * from private.assessment_queue(${query.state}, ${EXPORT_MAX_ROWS}::int, 0)`));
    const csv = toCsv(ASSESSMENT_CSV_HEADER, rows.map((r) => {
      const q = toQueued(r);
      return [q.courseTitle, q.moduleTitle, q.learnerName, q.cycle, q.outcome, q.assessorName, q.signedAt ? new Date(q.signedAt) : null,
        q.verifierName, q.verifiedAt ? new Date(q.verifiedAt) : null, q.supersededAt ? new Date(q.supersededAt) : null,
        (r.notes as string | null) ?? null];
    }));
    return c.body(csv, 200, {
      'content-type': CSV_CONTENT_TYPE,
      'content-disposition': attachmentDisposition(csvFileName('practical-assessments')),
      'cache-control': 'no-store',
    });
  });

  return routes;
}
