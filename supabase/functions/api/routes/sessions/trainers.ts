// /api/modules/:moduleId/trainers?q=: the people who may run a date of the session module's course,
// for those who add and change its dates to choose from (private.session_trainer_candidates, whose
// rule, private.may_train, is the one private.create_session and private.update_session apply).
import { Hono } from 'hono';
import { type TrainerCandidate, trainerQuerySchema } from '../../../_shared/sessions.ts';
import type { Config } from '../../lib/config.ts';
import { containsPattern, type Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { validate } from '../../lib/body.ts';
import { firstQueryValues, pathId } from '../../lib/params.ts';
import type { Row } from '../../lib/learning.ts';
import { fromSessionFunction, MSG } from './queries.ts';

export function moduleTrainerRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const moduleId = pathId(c, 'moduleId', MSG.moduleNotFound);
    const { q, organisationId } = validate(trainerQuerySchema, firstQueryValues(c));
    const pattern = containsPattern(q.trim().toLowerCase());
    const people = await db.withCaller(caller.db, async (tx) =>
      await tx<Row[]>`select * from private.session_trainer_candidates(${moduleId}::uuid, ${organisationId ?? null}::uuid, ${pattern})`
        .catch(fromSessionFunction));
    return c.json(people.map((p): TrainerCandidate => ({ id: String(p.userId), name: String(p.name), username: String(p.username) })));
  });

  return routes;
}
