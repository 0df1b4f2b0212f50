// /api/courses/:courseId/enroll and /recertify: the learner enrols on a course they can see (RLS
// and the enrolment triggers decide, refusals answered from a savepoint) and, from an expiring or
// expired certificate, starts the course's next cycle.
import { Hono } from 'hono';
import { z } from 'zod';
import { MESSAGES } from '../../../_shared/authoring.ts';
import { enrollBodySchema } from '../../../_shared/catalogue.ts';
import type { Enrollment } from '../../../_shared/enrollment.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody, optionalJson } from '../../lib/body.ts';
import { ApiError, pgError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import { access, MSG, readEnrollment, type Row } from '../../lib/learning.ts';

export function courseEnrolmentRoutes(db: Db) {
  const routes = new Hono<Env>();

  routes.post('/:courseId/enroll', async (c) => {
    const courseId = pathId(c, 'courseId', MSG.courseNotFound);
    const caller = c.get('caller');
    if (caller.kind !== 'user') throw new ApiError(401, MSG.signInToEnrol);
    if (optionalJson(c)) {
      const body = await jsonBody(c, enrollBodySchema);
      if (body.userId && body.userId.toLowerCase() !== caller.userId) throw new ApiError(403, MSG.notYourself);
      if (body.courseId && body.courseId.toLowerCase() !== courseId) {
        throw new ApiError(400, MSG.courseMismatch, { courseId: MSG.courseMismatch });
      }
    }
    const result = await db.withCaller(caller.db, async (tx): Promise<Enrollment | ApiError> => {
      const rights = await access(tx, courseId);
      if (!rights.visible) return new ApiError(404, MSG.courseNotFound);
      if (rights.enrollmentStatus) return new ApiError(409, MSG.alreadyEnrolled);
      // A savepoint, so a refused insert becomes an answer rather than an aborted transaction.
      try {
        const [row] = await tx.savepoint((sp) =>
          sp<Row[]>`insert into public.enrollments (user_id, course_id) values (${caller.userId}::uuid, ${courseId}::uuid)
                    returning id`
        );
        return (await readEnrollment(tx, String(row.id)))!;
      } catch (error) {
        const pg = pgError(error);
        if (pg?.code === '23505') return new ApiError(409, MSG.alreadyEnrolled);
        if (pg?.code === '55000') return new ApiError(409, MESSAGES.courseArchived);
        if (pg?.code === '42501') return new ApiError(403, MSG.notOpen);
        throw error;
      }
    });
    if (result instanceof ApiError) throw result;
    return c.json(result, 201);
  });

  // Recertification: from an expiring or expired certificate, the learner's enrolment starts
  // its next cycle at 0 % with fresh module and quiz progress (private.start_recertification).
  routes.post('/:courseId/recertify', async (c) => {
    const courseId = pathId(c, 'courseId', MSG.courseNotFound);
    const caller = requireUser(c);
    if (optionalJson(c)) await jsonBody(c, z.object({}));
    const result = await db.withCaller(caller.db, async (tx): Promise<Enrollment | ApiError> => {
      try {
        const [row] = await tx.savepoint((sp) => sp<Row[]>`select (private.start_recertification(${courseId}::uuid)).id as id`);
        return (await readEnrollment(tx, String(row.id)))!;
      } catch (error) {
        const pg = pgError(error);
        // Only the messages start_recertification raises on purpose reach the client.
        const message = (error as { message?: string }).message ?? '';
        if (pg?.code === 'P0002') return new ApiError(404, message === MSG.courseNotFound ? MSG.courseNotFound : MSG.enrollmentNotFound);
        if (pg?.code === 'P0409') return new ApiError(409, message);
        if (pg?.code === '42501') return new ApiError(403, 'You may not recertify this course');
        throw error;
      }
    });
    if (result instanceof ApiError) throw result;
    return c.json(result);
  });

  return routes;
}
