// /api/offline: a course an enrolled learner keeps offline (GET /courses/:id), and the items of their
// offline queue, each accepted once by its idempotency key (PUT /items/:key). The rules are the online
// ones, in SQL: private.replay_offline_item (30_offline_replay.sql) calls the functions the online
// routes call. SQL and row mapping: ./queries.ts; the shapes: _shared/offline.ts.
import { Hono } from 'hono';
import type { Context } from 'hono';
import {
  type OfflineItem,
  type OfflineItemAccepted,
  offlineItemSchema,
  type OfflineRefusal,
  type OfflineRefusalReason,
} from '../../../_shared/offline.ts';
import { normaliseAnswers } from '../../../_shared/quiz.ts';
import { UUID_PATTERN } from '../../../_shared/ids.ts';
import { SCORM_VERSIONS, scoStatus, validateScormValues } from '../../../_shared/scorm-data-model.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody } from '../../lib/body.ts';
import { ApiError, pgError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import { access, attemptRefusal, MSG, type Row } from '../../lib/learning.ts';
import { readOfflineCourse } from './queries.ts';

const ENROL_TO_KEEP = 'Enrol in this course to keep it offline';

/** The reasons SQL gives (hint offline_<reason>, or the quiz's own) as the learner's reason. */
const REASONS: Record<string, OfflineRefusalReason> = {
  offline_course_unavailable: 'course_unavailable',
  offline_not_enrolled: 'not_enrolled',
  offline_needs_connection: 'needs_connection',
  offline_deactivated: 'deactivated',
  offline_key_reused: 'key_reused',
  quiz_no_attempts_left: 'no_attempts_left',
  quiz_retry_wait: 'retry_wait',
  scorm_not_enrolled: 'not_enrolled',
};

/** An item the server refuses (nothing of it kept): answered `{ message, reason }`. */
class Refused extends Error {
  constructor(readonly reason: OfflineRefusalReason, message: string, readonly status: 403 | 409 = 409) {
    super(message);
  }
}

export function offlineRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/courses/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.courseNotFound);
    const result = await db.withCaller(caller.db, async (tx) => {
      const rights = await access(tx, id);
      if (!rights.visible) return new ApiError(404, MSG.courseNotFound);
      if (rights.enrollmentStatus === 'PENDING') return new ApiError(403, MSG.pending);
      if (!rights.studiable || rights.enrollmentStatus !== 'ACTIVE') return new ApiError(403, ENROL_TO_KEEP);
      return await readOfflineCourse(tx, config, id, caller.userId);
    });
    if (result instanceof ApiError) throw result;
    // The learner's own progress and questions: never kept by a shared cache.
    c.header('Cache-Control', 'private, no-store');
    return c.json(result);
  });

  routes.put('/items/:key', async (c) => {
    const caller = requireUser(c);
    const key = c.req.param('key') ?? '';
    if (!UUID_PATTERN.test(key)) throw new ApiError(400, 'Validation failed', { key: 'The key must be a UUID' });
    const item = await jsonBody(c, offlineItemSchema);
    if (item.personId.toLowerCase() !== caller.userId) {
      return refused(c, new Refused('another_person', 'This item was saved by another person: it can only be sent by them', 403));
    }
    const payload = payloadOf(item);
    try {
      const row = await db.withCaller(caller.db, async (tx) => {
        const [replayed] = await tx<Row[]>`
          select private.replay_offline_item(${key.toLowerCase()}::uuid, ${item.kind}, ${tx.json(payload as Parameters<typeof tx.json>[0])}::jsonb,
                                             ${item.recordedAt ?? null}::timestamptz)::text as result`;
        return JSON.parse(String(replayed.result)) as Row;
      });
      return c.json(accepted(key.toLowerCase(), item, row));
    } catch (error) {
      // The transaction is rolled back: nothing of a refused item is kept.
      const refusal = toRefused(error);
      if (!refusal) throw error;
      if (refusal instanceof ApiError) throw refusal;
      if (item.kind === 'quiz-answers' && (refusal.reason === 'no_attempts_left' || refusal.reason === 'retry_wait')) {
        // Worded as online, from the quiz's standing read afresh.
        const online = await attemptRefusal(db, caller.db, item.quizId, error);
        if (online) return refused(c, new Refused(refusal.reason, online.message));
      }
      return refused(c, refusal);
    }
  });

  return routes;
}

/** What the SQL function receives: the item with its answers normalised and its SCORM values checked. */
function payloadOf(item: OfflineItem): Record<string, unknown> {
  switch (item.kind) {
    case 'module-read':
      return { moduleId: item.moduleId };
    case 'quiz-answers':
      return { quizId: item.quizId, answers: normaliseAnswers(item.answers) };
    case 'scorm-sitting': {
      // Checked against both versions' data models (the package's is known in SQL, which checks it again).
      const checked = SCORM_VERSIONS.map((version) => validateScormValues(version, item.values));
      const fitting = checked.find((check) => Object.keys(check.fields).length === 0);
      if (!fitting) throw new ApiError(400, 'Validation failed', checked[0].fields);
      return { moduleId: item.moduleId, scoId: item.scoId, values: fitting.values, finish: item.finish ?? true };
    }
  }
}

function toRefused(error: unknown): Refused | ApiError | null {
  const pg = pgError(error);
  if (!pg) return null;
  const reason = pg.hint ? REASONS[pg.hint] : undefined;
  if (reason) return new Refused(reason, String((error as Error).message));
  if (pg.hint === 'scorm_values') return new ApiError(400, 'Validation failed', { values: 'The values do not fit the package\'s SCORM version' });
  // A SCO no longer in the package (replaced since the download): the learner cannot save to it.
  if (pg.code === 'P0002') return new Refused('course_unavailable', 'This SCORM package has changed since it was downloaded');
  if (pg.code === '42501') return new Refused('not_enrolled', 'You may no longer study this course');
  if (pg.code === '22023') return new ApiError(400, 'This item is not one the server accepts');
  return null;
}

function refused(c: Context<Env>, refusal: Refused) {
  const body: OfflineRefusal = { message: refusal.message, reason: refusal.reason };
  return c.json(body, refusal.status);
}

function accepted(key: string, item: OfflineItem, row: Row): OfflineItemAccepted {
  return {
    key,
    kind: item.kind,
    replayed: Boolean(row.replayed),
    acceptedAt: new Date(String(row.acceptedAt)).toISOString(),
    moduleId: String(row.moduleId),
    moduleCompleted: Boolean(row.moduleCompleted),
    courseId: String(row.courseId),
    courseProgress: Number(row.courseProgress),
    courseCompleted: Boolean(row.courseCompleted),
    certificateId: (row.certificateId as string | null) ?? null,
    ...(item.kind === 'quiz-answers'
      ? {
        quiz: {
          quizId: String(row.quizId),
          attemptId: String(row.attemptId),
          score: Number(row.score),
          maxScore: Number(row.maxScore),
          passed: Boolean(row.passed),
        },
      }
      : {}),
    ...(item.kind === 'scorm-sitting'
      ? {
        scorm: {
          scoId: String(row.scoId),
          status: scoStatus(row.completionStatus as string, row.successStatus as string),
          secondsToMinimum: row.secondsToMinimum == null ? null : Number(row.secondsToMinimum),
        },
      }
      : {}),
  };
}
