// /api/courses/:courseId/assessors: the people an organisation names as assessors of a course for
// its learners. Administrators name and remove them (private.name_course_assessor /
// private.remove_course_assessor check who); the list is read under row-level security.
import { Hono } from 'hono';
import { assessorNameSchema, type CourseAssessor } from '../../../_shared/assessments.ts';
import { isoTimestamp } from '../../../_shared/dates.ts';
import type { Config } from '../../lib/config.ts';
import type { Db, Tx } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody } from '../../lib/body.ts';
import { pathId } from '../../lib/params.ts';
import type { Row } from '../../lib/learning.ts';
import { checked } from './queries.ts';

const COURSE_NOT_FOUND = 'Course not found';

async function readAssessors(tx: Tx, courseId: string, personId?: string): Promise<CourseAssessor[]> {
  const rows = await tx<Row[]>`
    select a.course_id, a.person_id, p.name, p.username, a.organisation_id, a.named_at
    from public.course_assessors a
    left join public.profiles p on p.id = a.person_id
    where a.course_id = ${courseId}::uuid and (${personId ?? null}::uuid is null or a.person_id = ${personId ?? null}::uuid)
    order by p.name, a.person_id`;
  return rows.map((r) => ({
    courseId: String(r.courseId),
    personId: String(r.personId),
    name: (r.name as string | null) ?? null,
    username: (r.username as string | null) ?? null,
    organisationId: String(r.organisationId),
    namedAt: isoTimestamp(r.namedAt)!,
  }));
}

export function courseAssessorRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const courseId = pathId(c, 'courseId', COURSE_NOT_FOUND);
    return c.json(await db.withCaller(caller.db, (tx) => readAssessors(tx, courseId)));
  });

  routes.post('/', async (c) => {
    const caller = requireUser(c);
    const courseId = pathId(c, 'courseId', COURSE_NOT_FOUND);
    const input = await jsonBody(c, assessorNameSchema);
    const [assessor] = await db.withCaller(caller.db, async (tx) => {
      await checked(() => tx`select private.name_course_assessor(${courseId}::uuid, ${input.personId}::uuid)`);
      return await readAssessors(tx, courseId, input.personId);
    });
    return c.json(assessor, 201);
  });

  routes.delete('/:personId', async (c) => {
    const caller = requireUser(c);
    const courseId = pathId(c, 'courseId', COURSE_NOT_FOUND);
    const personId = pathId(c, 'personId', 'Assessor not found');
    await db.withCaller(caller.db, (tx) => checked(() => tx`select private.remove_course_assessor(${courseId}::uuid, ${personId}::uuid)`));
    return c.body(null, 204);
  });

  return routes;
}
