// /api/required-training: the mandatory training rules (admins any; instructors their own courses in
// their own services; RLS decides), and /api/me/required-training: the learner's own list with its
// counts. Every status comes from ONE SQL function, private.required_training_status, run under the
// caller's rights.
import { Hono } from 'hono';
import { z } from 'zod';
import { requiredTrainingCreateSchema, requiredTrainingUpdateSchema, type TrainingStatus } from '../../_shared/compliance.ts';
import { UUID_PATTERN } from '../../_shared/ids.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import { recognisedOrigin } from '../../_shared/recognition.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody, validate } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { pageFields, pathId } from '../lib/params.ts';

const rulesQuery = z.object({
  ...pageFields,
  courseId: z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(UUID_PATTERN, 'Course id must be a valid id').optional()),
});
const notAllowed = () => new ApiError(403, 'Only instructors and administrators can manage required training.');
const RULE_NOT_FOUND = 'Required training rule not found';
const ruleNotFound = () => new ApiError(404, RULE_NOT_FOUND);

/** Database refusals as HTTP answers; only messages our SQL raises on purpose reach the client. */
export function fromDatabase(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  const raised = (error as { routine?: unknown })?.routine === 'exec_stmt_raise';
  const message = raised ? (error as { message?: string })?.message ?? '' : '';
  const constraint = String((error as { constraint_name?: unknown })?.constraint_name ?? '');
  const hint = raised ? String((error as { hint?: unknown })?.hint ?? '') : '';
  if (code === '42501' && hint === 'organisation_id') throw new ApiError(403, message, { organisationId: message });
  if (code === '42501') {
    throw new ApiError(403, message || 'You may only require your own courses, for a service you belong to.');
  }
  if (code === 'P0002') throw new ApiError(404, message || 'Not found');
  if (code === '22023' && hint === 'organisation_id') throw new ApiError(400, 'Validation failed', { organisationId: message });
  if (code === '22023') throw new ApiError(400, 'Validation failed', { courseId: message || 'Only a published course can be required' });
  if (code === '23505') throw new ApiError(409, 'This course is already required for that role and service.');
  if (code === '23514' && constraint === 'required_training_notify_due_soon_days_shape') {
    throw new ApiError(400, 'Validation failed', { notifyDueSoonDays: 'Enter 1 to 5 numbers of days between 1 and 365' });
  }
  if (code === '23514' && constraint === 'required_training_notify_escalation_days_range') {
    throw new ApiError(400, 'Validation failed', { notifyEscalationDays: 'Enter a whole number of days between 1 and 365' });
  }
  if (code === '23514' && constraint === 'required_training_unit_needs_organisation') {
    throw new ApiError(400, 'Validation failed', { organisationId: 'Choose the organisation of the unit' });
  }
  if (code === '23514') throw new ApiError(400, 'Validation failed', { role: 'Choose a role, a service or both' });
  if (code === '23503' && constraint === 'required_training_unit_same_organisation') {
    throw new ApiError(400, 'Validation failed', { unitId: 'Choose a unit of the organisation' });
  }
  if (code === '23503' && constraint === 'required_training_organisation_id_fkey') {
    throw new ApiError(400, 'Validation failed', { organisationId: 'Organisation not found' });
  }
  if (code === '23503') throw new ApiError(400, 'Validation failed', { courseId: 'Course not found' });
  throw error;
}

interface RuleRow {
  id: string;
  courseId: string;
  courseTitle: string;
  courseService: string;
  certificateValidMonths: number | null;
  role: string | null;
  service: string | null;
  organisationId: string | null;
  organisationName: string | null;
  unitId: string | null;
  unitName: string | null;
  dueWithinDays: number;
  renewBeforeDays: number;
  notifyDueSoonDays: number[] | null;
  notifyEscalationDays: number | null;
  createdAt: Date;
  createdBy: string | null;
  createdByName: string | null;
  canManage: boolean;
  total: string;
}

function toRule(r: RuleRow) {
  return {
    id: r.id,
    course: { id: r.courseId, title: r.courseTitle, service: r.courseService, certificateValidMonths: r.certificateValidMonths },
    role: r.role,
    service: r.service,
    organisation: r.organisationId ? { id: r.organisationId, name: r.organisationName ?? '' } : null,
    unit: r.unitId ? { id: r.unitId, name: r.unitName ?? '' } : null,
    dueWithinDays: r.dueWithinDays,
    renewBeforeDays: r.renewBeforeDays,
    notifyDueSoonDays: r.notifyDueSoonDays,
    notifyEscalationDays: r.notifyEscalationDays,
    createdAt: r.createdAt,
    createdBy: r.createdBy && r.createdByName ? { id: r.createdBy, name: r.createdByName } : null,
    canManage: r.canManage,
  };
}

/** The rules the caller may read (RLS), one page, with whether they may change each. */
function selectRules(tx: Tx, opts: { id?: string; courseId?: string; limit: number; offset: number }) {
  return tx<RuleRow[]>`
    select r.id, r.course_id, c.title as course_title, c.service::text as course_service, c.certificate_valid_months,
           r.role::text, r.service::text, r.organisation_id, o.name as organisation_name, r.unit_id, u.name as unit_name,
           r.due_within_days, r.renew_before_days, r.notify_due_soon_days, r.notify_escalation_days, r.created_at,
           r.created_by, p.name as created_by_name,
           private.manages_required_training(r.course_id, r.service, r.organisation_id) as can_manage,
           count(*) over () as total
    from public.required_training r
    join public.courses c on c.id = r.course_id
    left join public.organisations o on o.id = r.organisation_id
    left join public.units u on u.id = r.unit_id
    left join public.profiles p on p.id = r.created_by
    where (${opts.id ?? null}::uuid is null or r.id = ${opts.id ?? null}::uuid)
      and (${opts.courseId ?? null}::uuid is null or r.course_id = ${opts.courseId ?? null}::uuid)
    order by c.title, r.course_id, o.name nulls first, u.name nulls first, r.role nulls first, r.service nulls first, r.id
    limit ${opts.limit} offset ${opts.offset}`;
}

/** Instructors and admins only (the rules and compliance are theirs). */
async function requireManager(tx: Tx): Promise<void> {
  const [me] = await tx<{ role: string | null }[]>`select private.current_role()::text as role`;
  if (me?.role !== 'ADMIN' && me?.role !== 'INSTRUCTOR') throw notAllowed();
}

/** Nothing changed: 403 when the caller can read the rule (it is not theirs to change), else 404. */
async function refuseOrNotFound(tx: Tx, id: string): Promise<never> {
  const seen = await tx`select 1 from public.required_training where id = ${id}::uuid`;
  if (seen.length > 0) throw new ApiError(403, 'You may only change rules of your own courses, in your own services.');
  throw ruleNotFound();
}

/** A day list as a Postgres array literal; null stays null. */
const dayList = (days: number[] | null | undefined) => (days ? `{${days.join(',')}}` : null);

/**
 * A new rule; its id. A person of an organisation who names no organisation makes a rule of their
 * own (they may make no other: the database refuses a national rule from them).
 */
async function insertRule(tx: Tx, body: z.infer<typeof requiredTrainingCreateSchema>): Promise<string> {
  const given = Object.hasOwn(body, 'organisationId');
  const [created] = await tx<{ id: string }[]>`
    insert into public.required_training (course_id, role, service, organisation_id, unit_id, due_within_days, renew_before_days,
      notify_due_soon_days, notify_escalation_days)
    values (${body.courseId}::uuid, ${body.role ?? null}::public.user_role, ${body.service ?? null}::public.service_code,
            case when ${given} then ${body.organisationId ?? null}::uuid else private.current_organisation_id() end,
            ${body.unitId ?? null}::uuid, ${body.dueWithinDays}, ${body.renewBeforeDays},
            ${dayList(body.notifyDueSoonDays)}::integer[], ${body.notifyEscalationDays ?? null}::integer)
    returning id`;
  return created.id;
}

/** The fields given (role or service set to null when sent as null), written; false when no row changed. */
async function updateRule(tx: Tx, id: string, body: z.infer<typeof requiredTrainingUpdateSchema>): Promise<boolean> {
  const has = (key: string) => Object.hasOwn(body, key);
  const updated = await tx<{ id: string }[]>`
    update public.required_training set
      role = case when ${has('role')} then ${body.role ?? null}::public.user_role else role end,
      service = case when ${has('service')} then ${body.service ?? null}::public.service_code else service end,
      organisation_id = case when ${has('organisationId')} then ${body.organisationId ?? null}::uuid else organisation_id end,
      unit_id = case when ${has('unitId')} then ${body.unitId ?? null}::uuid
                     when ${has('organisationId')} and ${body.organisationId ?? null}::uuid is distinct from organisation_id then null
                     else unit_id end,
      due_within_days = coalesce(${body.dueWithinDays ?? null}::integer, due_within_days),
      renew_before_days = coalesce(${body.renewBeforeDays ?? null}::integer, renew_before_days),
      -- the overrides: given (a value, or null for the settings' default) or kept
      notify_due_soon_days = case when ${has('notifyDueSoonDays')} then ${dayList(body.notifyDueSoonDays)}::integer[]
                                  else notify_due_soon_days end,
      notify_escalation_days = case when ${has('notifyEscalationDays')} then ${body.notifyEscalationDays ?? null}::integer
                                    else notify_escalation_days end
    where id = ${id}::uuid
    returning id`;
  return updated.length > 0;
}

/** How many people are actively enrolled on a course (what a new rule applies to at once). */
async function activeEnrolments(tx: Tx, courseId: string): Promise<number> {
  const [{ n }] = await tx<{ n: string }[]>`
    select count(*) as n from public.enrollments e where e.course_id = ${courseId}::uuid and e.status = 'ACTIVE'`;
  return Number(n);
}

export function requiredTrainingRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const query = validate(rulesQuery, c.req.query());
    const rows = await db.withCaller(caller.db, async (tx) => {
      await requireManager(tx);
      return await selectRules(tx, { courseId: query.courseId, limit: query.pageSize, offset: (query.page - 1) * query.pageSize });
    });
    const total = rows.length > 0 ? Number(rows[0].total) : 0;
    return c.json({ items: rows.map(toRule), total, page: query.page, pageSize: query.pageSize });
  });

  routes.post('/', async (c) => {
    const caller = requireUser(c);
    const body = await jsonBody(c, requiredTrainingCreateSchema);
    const rule = await db
      .withCaller(caller.db, async (tx) => {
        await requireManager(tx);
        const id = await insertRule(tx, body);
        const [row] = await selectRules(tx, { id, limit: 1, offset: 0 });
        return { ...toRule(row), enrolled: await activeEnrolments(tx, body.courseId) };
      })
      .catch(fromDatabase);
    return c.json(rule, 201);
  });

  routes.put('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', RULE_NOT_FOUND);
    const body = await jsonBody(c, requiredTrainingUpdateSchema);
    const rule = await db
      .withCaller(caller.db, async (tx) => {
        await requireManager(tx);
        if (!(await updateRule(tx, id, body))) await refuseOrNotFound(tx, id);
        const [row] = await selectRules(tx, { id, limit: 1, offset: 0 });
        return toRule(row);
      })
      .catch(fromDatabase);
    return c.json(rule);
  });

  routes.delete('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', RULE_NOT_FOUND);
    await db
      .withCaller(caller.db, async (tx) => {
        await requireManager(tx);
        const deleted = await tx`delete from public.required_training where id = ${id}::uuid returning id`;
        if (deleted.length === 0) await refuseOrNotFound(tx, id);
      })
      .catch(fromDatabase);
    return c.body(null, 204);
  });

  return routes;
}

/** The learner's own required training (mounted at /api/me/required-training). */
export function myRequiredTrainingRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const list = await db.withCaller(caller.db, (tx) => myRequiredTraining(tx, caller.userId));
    return c.json(list);
  });

  return routes;
}

/** The learner's required courses, most urgent first (at most 100), with the count of each status. */
async function myRequiredTraining(tx: Tx, userId: string) {
  const rows = await tx<{
    courseId: string; courseTitle: string; courseTitleCy: string | null; courseService: string; status: TrainingStatus; dueAt: Date | null;
    progress: number; certificateExpiresAt: Date | null; certified: boolean;
    recognitionSource: string | null; recognisedIssuer: string | null; recognisedAchievement: string | null;
    overdue: string; dueSoon: string; inProgress: string; done: string; recognised: string;
  }[]>`
    select st.course_id, st.course_title, st.course_service::text, st.status, st.due_at, st.progress,
           (select c.title_cy from public.courses c where c.id = st.course_id) as course_title_cy,
           st.certificate_expires_at, st.certificate_id is not null or st.recognition_source is not null as certified,
           st.recognition_source, st.recognised_issuer, st.recognised_achievement,
           count(*) filter (where st.status = 'overdue') over () as overdue,
           count(*) filter (where st.status = 'due-soon') over () as due_soon,
           count(*) filter (where st.status = 'in-progress') over () as in_progress,
           count(*) filter (where st.status = 'done') over () as done,
           count(*) filter (where st.status = 'recognised') over () as recognised
    from private.required_training_status(${userId}::uuid) st
    order by private.required_training_status_rank(st.status), st.due_at nulls last, st.course_title, st.course_id
    limit 100`;
  const first = rows[0];
  const counts: Record<TrainingStatus, number> = {
    overdue: first ? Number(first.overdue) : 0,
    'due-soon': first ? Number(first.dueSoon) : 0,
    'in-progress': first ? Number(first.inProgress) : 0,
    done: first ? Number(first.done) : 0,
    recognised: first ? Number(first.recognised) : 0,
  };
  const items = rows.map((r) => ({
    course: { id: r.courseId, title: r.courseTitle, titleCy: r.courseTitleCy ?? null, service: r.courseService },
    status: r.status,
    dueAt: r.dueAt,
    progress: r.progress,
    validUntil: r.status === 'overdue' ? null : r.certificateExpiresAt,
    certified: r.certified,
    recognised: recognisedOrigin(r, isoTimestamp(r.certificateExpiresAt)),
  }));
  return { items, counts, attention: counts.overdue + counts['due-soon'] };
}
