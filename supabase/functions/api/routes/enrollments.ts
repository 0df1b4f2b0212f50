// /api/enrollments/:id: the learner's progress on a course without modules, unenrolment (the
// learner, the course's authors or an admin: RLS decides), and the instructor's approval or
// refusal of a pending enrolment (private.approve_enrollment / private.decline_enrollment).
// Enrolling is POST /api/courses/:courseId/enroll; a learner's list is GET /api/users/:userId/enrollments.
import { Hono } from 'hono';
import { enrollmentUpdateSchema } from '../../_shared/catalogue.ts';
import type { Enrollment } from '../../_shared/enrollment.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody, optionalJson } from '../lib/body.ts';
import { ApiError, fromSqlFunction } from '../lib/errors.ts';
import { pathId } from '../lib/params.ts';
import { MSG, readEnrollment, type Row } from '../lib/learning.ts';

/** A course without modules steps its progress on each call; a course with modules answers its state as is. */
async function stepProgress(tx: Tx, id: string, userId: string): Promise<Enrollment | ApiError> {
  const [row] = await tx<Row[]>`
    select e.id, e.status::text as status,
           exists (select 1 from public.course_modules m where m.course_id = e.course_id) as has_modules
    from public.enrollments e
    where e.id = ${id}::uuid and e.user_id = ${userId}::uuid`;
  if (!row) return new ApiError(404, MSG.enrollmentNotFound);
  if (row.status !== 'ACTIVE') return new ApiError(403, MSG.pending);
  // A course with modules progresses module by module (marking them read, passing their quizzes).
  if (!row.hasModules) await tx`select private.step_course_progress(${id}::uuid)`;
  return (await readEnrollment(tx, id))!;
}

export function enrollmentRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.put('/:id', async (c) => {
    const id = pathId(c, 'id', MSG.enrollmentNotFound);
    const caller = requireUser(c);
    // The body's progress and completed are validated but not trusted: the server computes progress.
    if (optionalJson(c)) await jsonBody(c, enrollmentUpdateSchema);
    const result = await db.withCaller(caller.db, (tx) => stepProgress(tx, id, caller.userId));
    if (result instanceof ApiError) throw result;
    return c.json(result);
  });

  routes.delete('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.enrollmentNotFound);
    // RLS decides: the learner themselves, the course's authors or an admin.
    const deleted = await db.withCaller(caller.db, (tx) =>
      tx`delete from public.enrollments where id = ${id}::uuid returning id`);
    if (deleted.length === 0) throw new ApiError(404, MSG.enrollmentNotFound);
    return c.body(null, 204);
  });

  routes.post('/:id/approve', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.enrollmentNotFound);
    const enrollment = await db
      .withCaller(caller.db, async (tx) => {
        const [r] = await tx<Record<string, unknown>[]>`
          select id, user_id, course_id, status, progress, completed, started_at, completed_at
          from private.approve_enrollment(${id}::uuid)`;
        return r;
      })
      .catch(fromSqlFunction);
    return c.json(enrollment);
  });

  routes.post('/:id/decline', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.enrollmentNotFound);
    await db.withCaller(caller.db, (tx) => tx`select private.decline_enrollment(${id}::uuid)`).catch(fromSqlFunction);
    return c.body(null, 204);
  });

  return routes;
}
