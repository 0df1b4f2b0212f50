// /api/scorm/sessions/:id: a save from the content's run-time to a session the player opened
// (modules/scorm/runtime.ts). Values are checked against the data model of the package's version
// (_shared/scorm-data-model.ts); ownership, order (seq), the statuses and completion are decided in
// SQL (19_scorm_runtime.sql).
import { Hono } from 'hono';
import { z } from 'zod';
import { SCORM_VERSIONS, scoStatus, validateScormValues } from '../../_shared/scorm-data-model.ts';
import type { Config } from '../lib/config.ts';
import type { Db } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { ApiError, fromSqlFunction, pgError } from '../lib/errors.ts';
import { pathId } from '../lib/params.ts';
import type { Row } from '../lib/learning.ts';

const SESSION_NOT_FOUND = 'Session not found';

const saveSchema = z.strictObject({
  seq: z.number({ error: 'seq must be a whole number' }).int('seq must be a whole number')
    .min(1, 'seq must be at least 1').max(2147483647, 'seq is too large'),
  values: z.record(z.string().max(255, 'Element names are at most 255 characters'), z.unknown(), {
    error: 'values must be an object of element names and string values',
  }).refine((v) => Object.keys(v).length <= 2000, 'At most 2,000 elements per save'),
  finish: z.boolean({ error: 'finish must be true or false' }).optional(),
});

export function scormSessionRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  // A save from the content's run-time: Commit, Finish/Terminate (finish: true), or the 30 s timer.
  routes.put('/:sessionId', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'sessionId', SESSION_NOT_FOUND);
    const body = await jsonBody(c, saveSchema);
    // The values are checked against both versions' data models before the session's is known, so
    // that a save is one statement; private.scorm_save checks them against the package's version
    // itself and refuses what fits only the other one.
    const checked = SCORM_VERSIONS.map((version) => ({ version, ...validateScormValues(version, body.values) }));
    const fitting = checked.filter((check) => Object.keys(check.fields).length === 0);
    const refused = (version: string) => new ApiError(400, 'Validation failed', checked.find((check) => check.version === version)?.fields);
    const result = await db.withCaller(caller.db, async (tx) => {
      if (fitting.length === 0) {
        // Fits neither: the field messages are the session's version's (under RLS, only their own).
        const [session] = await tx<Row[]>`
          select p.version from public.scorm_sessions s
          join public.scorm_attempts a on a.id = s.attempt_id
          join public.scorm_packages p on p.module_id = a.module_id
          where s.id = ${id}::uuid and s.user_id = (select auth.uid())`;
        return session ? refused(String(session.version)) : new ApiError(404, SESSION_NOT_FOUND);
      }
      try {
        const [row] = await tx<Row[]>`
          select * from private.scorm_save(${id}::uuid, ${body.seq}::integer, ${tx.json(fitting[0].values)}::jsonb,
                                           ${body.finish === true})`;
        return {
          seq: Number(row.seq),
          scoStatus: scoStatus(String(row.completionStatus), String(row.successStatus)),
          moduleCompleted: Boolean(row.moduleCompleted),
          ...(row.enrollmentId ? { courseProgress: Number(row.progress) } : {}),
          // The rule is met but the attempt has not yet lasted the package's minimum time.
          ...(row.secondsToMinimum != null ? { secondsToMinimum: Number(row.secondsToMinimum) } : {}),
        };
      } catch (error) {
        // Thrown, not returned: the failed statement has ended the transaction, which rolls back.
        const problem = pgError(error);
        if (problem?.hint === 'scorm_values') throw refused(String(problem.detail));
        if (problem?.hint === 'scorm_seq') throw new ApiError(409, 'This save is out of order: seq must be greater than the last one');
        if (problem?.hint === 'scorm_finished') throw new ApiError(409, 'This session has finished: open a new session');
        fromSqlFunction(error);
      }
    });
    if (result instanceof ApiError) throw result;
    return c.json(result);
  });

  return routes;
}
