// /api/modules/:moduleId/assessment: a practical assessment module. The author's settings and
// criteria; the learner's own records, sign-off and reassessment request; the assessor's list of
// learners and the start of a record. SQL and mapping: ./queries.ts; the rules:
// 26_practical_assessments.sql.
import { Hono } from 'hono';
import {
  assessmentSettingsSchema, criterionSchema, type AssessmentLearner, type LearnerState, type ModuleAssessment, type Paged,
  reassessmentSchema, recordStartSchema, ASSESSMENT_MESSAGES,
} from '../../../_shared/assessments.ts';
import { isoTimestamp } from '../../../_shared/dates.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody } from '../../lib/body.ts';
import { firstQueryValues, pageFields, pagingQuery, pathId } from '../../lib/params.ts';
import { z } from 'zod';
import type { Row } from '../../lib/learning.ts';
import {
  assessmentModule, checked, MODULE_NOT_FOUND, readCriteria, readRecord, readRecords, readSettings, renumberCriteria,
  requireAuthor, toCriterion,
} from './queries.ts';

const learnersQuerySchema = z.object({
  status: z.enum(['not-assessed', 'draft', 'awaiting-verification', 'competent', 'not-yet-competent'], {
    error: ASSESSMENT_MESSAGES.learnerStatus,
  }).optional(),
  ...pageFields,
});

export function moduleAssessmentRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  // ---- Everyone who may see the module: the checklist, and the caller's own standing

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const moduleId = pathId(c, 'moduleId', MODULE_NOT_FOUND);
    const answer = await db.withCaller(caller.db, async (tx): Promise<ModuleAssessment> => {
      const module = await assessmentModule(tx, moduleId);
      const [standing] = await checked(() => tx<Row[]>`select * from private.my_assessment_standing(${moduleId}::uuid)`);
      const [open] = await tx<{ id: string; reason: string; requestedAt: Date }[]>`
        select id, reason, requested_at from public.reassessment_requests
        where module_id = ${moduleId}::uuid and learner_id = ${caller.userId}::uuid and answered_at is null`;
      const signedOffAt = isoTimestamp(standing.signedOffAt);
      return {
        moduleId,
        courseId: module.courseId,
        settings: await readSettings(tx, moduleId),
        criteria: await readCriteria(tx, moduleId),
        isAssessor: Boolean(standing.isAssessor),
        // Only signed records are the learner's to read (the policy): drafts stay with their assessor.
        records: await readRecords(tx, { moduleId, learnerId: caller.userId }),
        signedOff: signedOffAt !== null,
        signedOffAt,
        validUntil: isoTimestamp(standing.validUntil),
        canRequestReassessment: Boolean(standing.canRequest),
        openRequest: open ? { id: open.id, reason: open.reason, requestedAt: isoTimestamp(open.requestedAt)! } : null,
      };
    });
    return c.json(answer);
  });

  // ---- The author: settings and criteria

  routes.put('/', async (c) => {
    const caller = requireUser(c);
    const moduleId = pathId(c, 'moduleId', MODULE_NOT_FOUND);
    const input = await jsonBody(c, assessmentSettingsSchema);
    const settings = await db.withCaller(caller.db, async (tx) => {
      await assessmentModule(tx, moduleId);
      await requireAuthor(tx, moduleId);
      await checked(() => tx`
        insert into public.assessment_settings (module_id, needs_verifier, valid_months)
        values (${moduleId}::uuid, ${input.needsVerifier ?? false}, ${input.validMonths ?? null}::int)
        on conflict (module_id) do update set
          needs_verifier = coalesce(${input.needsVerifier ?? null}::boolean, public.assessment_settings.needs_verifier),
          valid_months = case when ${input.validMonths === undefined} then public.assessment_settings.valid_months
                              else ${input.validMonths ?? null}::int end`);
      return await readSettings(tx, moduleId);
    });
    return c.json(settings);
  });

  routes.get('/criteria', async (c) => {
    const caller = requireUser(c);
    const moduleId = pathId(c, 'moduleId', MODULE_NOT_FOUND);
    const criteria = await db.withCaller(caller.db, async (tx) => {
      await assessmentModule(tx, moduleId);
      return await readCriteria(tx, moduleId);
    });
    return c.json(criteria);
  });

  routes.post('/criteria', async (c) => {
    const caller = requireUser(c);
    const moduleId = pathId(c, 'moduleId', MODULE_NOT_FOUND);
    const input = await jsonBody(c, criterionSchema);
    const criterion = await db.withCaller(caller.db, async (tx) => {
      await assessmentModule(tx, moduleId);
      await requireAuthor(tx, moduleId);
      const [{ count }] = await tx<{ count: number }[]>`
        select count(*)::int as count from public.assessment_criteria where module_id = ${moduleId}::uuid`;
      const position = Math.min(input.orderIndex ?? count + 1, count + 1);
      await tx`update public.assessment_criteria set order_index = order_index + 1
               where module_id = ${moduleId}::uuid and order_index >= ${position}`;
      const [row] = await checked(() => tx<Row[]>`
        insert into public.assessment_criteria (module_id, order_index, title, title_cy, guidance, guidance_cy, critical)
        values (${moduleId}::uuid, ${position}, ${input.title}, ${input.titleCy ?? null}::text, ${input.guidance ?? null}::text,
                ${input.guidanceCy ?? null}::text, ${input.critical})
        returning id, module_id, order_index, title, title_cy, guidance, guidance_cy, critical`);
      await renumberCriteria(tx, moduleId);
      return toCriterion(row);
    });
    return c.json(criterion, 201);
  });

  // ---- The learner: ask to be assessed again

  routes.post('/reassessment', async (c) => {
    const caller = requireUser(c);
    const moduleId = pathId(c, 'moduleId', MODULE_NOT_FOUND);
    const input = await jsonBody(c, reassessmentSchema);
    const request = await db.withCaller(caller.db, async (tx) => {
      const [row] = await checked(() => tx<{ id: string; reason: string; requestedAt: Date }[]>`
        select (r).id, (r).reason, (r).requested_at
        from (select private.request_reassessment(${moduleId}::uuid, ${input.reason}) as r) x`);
      return { id: row.id, reason: row.reason, requestedAt: isoTimestamp(row.requestedAt)! };
    });
    return c.json(request, 201);
  });

  // ---- The assessor: the learners, and a new record

  routes.get('/learners', async (c) => {
    const caller = requireUser(c);
    const moduleId = pathId(c, 'moduleId', MODULE_NOT_FOUND);
    const query = pagingQuery(learnersQuerySchema, firstQueryValues(c));
    const rows = await db.withCaller(caller.db, (tx) =>
      checked(() => tx<Row[]>`
        select * from private.assessment_learners(${moduleId}::uuid, ${query.status ?? null}::text,
          ${query.pageSize}::int, ${(query.page - 1) * query.pageSize}::int)`));
    const body: Paged<AssessmentLearner> = {
      items: rows.map((r) => ({
        learnerId: String(r.learnerId),
        name: String(r.name),
        username: String(r.username),
        cycle: Number(r.cycle),
        state: r.state as LearnerState,
        recordId: (r.recordId as string | null) ?? null,
        signedAt: isoTimestamp(r.signedAt),
        reassessmentRequested: Boolean(r.reassessmentRequested),
      })),
      total: rows.length > 0 ? Number(rows[0].total) : 0,
      page: query.page,
      pageSize: query.pageSize,
    };
    return c.json(body);
  });

  routes.post('/records', async (c) => {
    const caller = requireUser(c);
    const moduleId = pathId(c, 'moduleId', MODULE_NOT_FOUND);
    const input = await jsonBody(c, recordStartSchema);
    const record = await db.withCaller(caller.db, async (tx) => {
      const [{ id }] = await checked(() => tx<{ id: string }[]>`
        select (private.start_assessment_record(${moduleId}::uuid, ${input.learnerId}::uuid, ${input.supersedesId ?? null}::uuid)).id`);
      return await readRecord(tx, id);
    });
    return c.json(record, 201);
  });

  return routes;
}
