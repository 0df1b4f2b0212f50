// /api/compliance/practicals: practical assessments beside the required training of compliance. `/`
// counts, per group (as /api/compliance/units groups: organisations for a national administrator,
// else the organisation's top-level units or the units below unitId), the people with practicals and
// their practicals valid, due (validity ends within 60 days), overdue (ended or never signed off)
// and awaiting sign-off; `/people` lists the people and practicals behind them, most urgent first.
// Administrators only, an organisation's administrator their organisation: decided in SQL
// (private.compliance_practicals, private.compliance_practical_people in
// supabase/schemas/27_maintenance_of_competence.sql, run as the caller).
import { Hono } from 'hono';
import {
  type CompliancePracticalPerson,
  type CompliancePracticalsRow,
  type PracticalState,
  practicalsFilterSchema,
} from '../../_shared/competence.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import type { Config } from '../lib/config.ts';
import type { Db } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { validate } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { pageFields } from '../lib/params.ts';

const groupsQuery = practicalsFilterSchema.omit({ state: true });
const peopleQuery = practicalsFilterSchema.extend(pageFields);

interface GroupRow {
  organisationId: string | null;
  unitId: string | null;
  name: string | null;
  hasUnits: boolean;
  people: string;
  practicals: string;
  valid: string;
  due: string;
  overdue: string;
  awaiting: string;
}

interface PersonRow {
  userId: string;
  username: string;
  name: string;
  unitName: string | null;
  courseId: string;
  courseTitle: string;
  courseTitleCy: string | null;
  moduleId: string;
  moduleTitle: string;
  moduleTitleCy: string | null;
  signedOffAt: Date | null;
  validUntil: Date | null;
  state: PracticalState;
  total: string;
}

function toGroup(r: GroupRow): CompliancePracticalsRow {
  return {
    organisationId: r.organisationId,
    unitId: r.unitId,
    name: r.name,
    hasUnits: r.hasUnits,
    people: Number(r.people),
    practicals: Number(r.practicals),
    valid: Number(r.valid),
    due: Number(r.due),
    overdue: Number(r.overdue),
    awaiting: Number(r.awaiting),
  };
}

function toPerson(r: PersonRow): CompliancePracticalPerson {
  return {
    user: { id: r.userId, name: r.name, username: r.username },
    unitName: r.unitName,
    course: { id: r.courseId, title: r.courseTitle, titleCy: r.courseTitleCy },
    module: { id: r.moduleId, title: r.moduleTitle, titleCy: r.moduleTitleCy },
    signedOffAt: isoTimestamp(r.signedOffAt),
    validUntil: isoTimestamp(r.validUntil),
    state: r.state,
  };
}

/** The refusals the SQL raises on purpose: not an administrator (403), not theirs (404), a bad state (400). */
function fromDatabase(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  const message = String((error as { message?: unknown })?.message ?? '');
  if (code === '42501') throw new ApiError(403, message || 'Only administrators can see practical assessments in compliance');
  if (code === 'P0002') throw new ApiError(404, message || 'Not found');
  if (code === '22023') throw new ApiError(400, 'Validation failed', { state: 'State must be overdue, due, awaiting-sign-off or valid' });
  throw error;
}

export function compliancePracticalsRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const query = validate(groupsQuery, c.req.query());
    const rows = await db
      .withCaller(caller.db, (tx) => tx<GroupRow[]>`
        select * from private.compliance_practicals(${query.organisationId ?? null}::uuid, ${query.unitId ?? null}::uuid)`)
      .catch(fromDatabase);
    return c.json({ items: rows.map(toGroup) });
  });

  routes.get('/people', async (c) => {
    const caller = requireUser(c);
    const query = validate(peopleQuery, c.req.query());
    const rows = await db
      .withCaller(caller.db, (tx) => tx<PersonRow[]>`
        select * from private.compliance_practical_people(${query.organisationId ?? null}::uuid, ${query.unitId ?? null}::uuid,
          ${query.state ?? null}, ${query.pageSize}, ${(query.page - 1) * query.pageSize})`)
      .catch(fromDatabase);
    const total = rows.length > 0 ? Number(rows[0].total) : 0;
    return c.json({ items: rows.map(toPerson), total, page: query.page, pageSize: query.pageSize });
  });

  return routes;
}
