// /api/assessment-criteria/:id: the author changes or deletes one criterion of a practical
// assessment. A criterion with judgements in records is kept (409): the signed records read as they
// were signed.
import { Hono } from 'hono';
import { criterionSchema } from '../../../_shared/assessments.ts';
import type { Config } from '../../lib/config.ts';
import type { Db, Tx } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody } from '../../lib/body.ts';
import { ApiError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import type { Row } from '../../lib/learning.ts';
import { checked, CRITERION_NOT_FOUND, renumberCriteria, requireAuthor, toCriterion } from './queries.ts';

/** The criterion's module, once the caller is known to author it (404 unseen, 403 not theirs). */
async function criterionToChange(tx: Tx, id: string): Promise<string> {
  const [row] = await tx<{ moduleId: string }[]>`select module_id from public.assessment_criteria where id = ${id}::uuid`;
  if (!row) throw new ApiError(404, CRITERION_NOT_FOUND);
  await requireAuthor(tx, row.moduleId);
  return row.moduleId;
}

export function assessmentCriterionRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.put('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', CRITERION_NOT_FOUND);
    const input = await jsonBody(c, criterionSchema);
    const criterion = await db.withCaller(caller.db, async (tx) => {
      const moduleId = await criterionToChange(tx, id);
      // The whole criterion: Welsh or guidance left out is none.
      await checked(() => tx`
        update public.assessment_criteria set title = ${input.title}, title_cy = ${input.titleCy ?? null}::text,
          guidance = ${input.guidance ?? null}::text, guidance_cy = ${input.guidanceCy ?? null}::text, critical = ${input.critical},
          order_index = coalesce(${input.orderIndex ?? null}::int, order_index)
        where id = ${id}::uuid`);
      await renumberCriteria(tx, moduleId);
      const [row] = await tx<Row[]>`
        select id, module_id, order_index, title, title_cy, guidance, guidance_cy, critical
        from public.assessment_criteria where id = ${id}::uuid`;
      return toCriterion(row);
    });
    return c.json(criterion);
  });

  routes.delete('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', CRITERION_NOT_FOUND);
    await db.withCaller(caller.db, async (tx) => {
      const moduleId = await criterionToChange(tx, id);
      await checked(() => tx`delete from public.assessment_criteria where id = ${id}::uuid`);
      await renumberCriteria(tx, moduleId);
    });
    return c.body(null, 204);
  });

  return routes;
}
