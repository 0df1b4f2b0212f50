// /api/compliance: who has done their required training, by course and service (the summary), the
// people behind a figure (the drill-down), its CSV export, and the breakdown by organisation and
// unit (/units: per group and course, the share compliant). Each takes organisationId and unitId
// (a unit with its sub-units); an organisation's administrator reads only their organisation. Every status comes from ONE
// rule in SQL, private.required_training_states_query() (run by private.compliance_summary,
// private.compliance_units and private.compliance_people, each scoped to the caller), so an
// instructor's figures and export hold only what they may see. A whole organisation's summary is
// kept counted in private tables, computed again after the writes and the moments that change it
// (supabase/schemas/20_compliance_summary_counts.sql). The rules themselves:
// routes/required-training.ts.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  complianceCsvRow,
  complianceFileName,
  complianceFilterSchema,
  COMPLIANCE_CSV_HEADER,
  type CompliancePerson,
  type ComplianceUnitRow,
  type TrainingStatus,
} from '../../_shared/compliance.ts';
import { recognisedOrigin } from '../../_shared/recognition.ts';
import { attachmentDisposition, CSV_CONTENT_TYPE, toCsv } from '../../_shared/csv.ts';
import { messages } from '../../_shared/i18n/index.ts';
import { languageOf } from '../lib/users.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Statements, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { validate } from '../lib/body.ts';
import { pageFields } from '../lib/params.ts';
import { fromDatabase } from './required-training.ts';

/** The most rows one CSV export holds. */
export const EXPORT_MAX_ROWS = 100_000;

const summaryQuery = complianceFilterSchema.omit({ status: true }).extend(pageFields);
const peopleQuery = complianceFilterSchema.extend(pageFields);
const unitsQuery = complianceFilterSchema.omit({ status: true });

interface SummaryRow {
  service: string | null;
  courseId: string;
  courseTitle: string;
  people: string;
  compliant: string;
  dueSoon: string;
  overdue: string;
  inProgress: string;
  total: string;
}

interface PersonRow {
  userId: string;
  username: string;
  name: string;
  email: string | null;
  role: CompliancePerson['role'];
  services: CompliancePerson['services'];
  courseId: string;
  courseTitle: string;
  progress: number;
  dueAt: Date | null;
  status: TrainingStatus;
  certificateExpiresAt: Date | null;
  recognitionSource: string | null;
  recognisedIssuer: string | null;
  recognisedAchievement: string | null;
  total: string;
}

function toPerson(r: PersonRow): CompliancePerson {
  return {
    user: { id: r.userId, name: r.name, username: r.username, email: r.email },
    role: r.role,
    services: r.services,
    course: { id: r.courseId, title: r.courseTitle },
    status: r.status,
    dueAt: isoTimestamp(r.dueAt),
    progress: r.progress,
    // An overdue person's certificate (if any) has expired: its date is the due date, not 'valid until'.
    validUntil: r.status !== 'overdue' ? isoTimestamp(r.certificateExpiresAt) : null,
    recognised: recognisedOrigin(r, isoTimestamp(r.certificateExpiresAt)),
  };
}

function selectPeople(tx: Tx, f: z.infer<typeof peopleQuery> | z.infer<typeof complianceFilterSchema>, limit: number, offset: number) {
  return tx<PersonRow[]>`
    select user_id, username, name, email, role::text, services::text[] as services, course_id, course_title,
           progress, due_at, status, certificate_expires_at, recognition_source, recognised_issuer, recognised_achievement, total
    from private.compliance_people(
      ${f.service ?? null}::public.service_code, ${f.role ?? null}::public.user_role, ${f.courseId ?? null}::uuid,
      ${f.status ?? null}, ${limit}, ${offset}, ${f.organisationId ?? null}::uuid, ${f.unitId ?? null}::uuid)`;
}

/** One page of the summary: per service and course, how many people are compliant, due soon, overdue, in progress. */
function selectSummary(tx: Statements, query: z.infer<typeof summaryQuery>) {
  return tx<SummaryRow[]>`
    select s.service::text, s.course_id, s.course_title, s.people, s.compliant, s.due_soon, s.overdue, s.in_progress,
           count(*) over () as total
    from private.compliance_summary(
      ${query.service ?? null}::public.service_code, ${query.role ?? null}::public.user_role, ${query.courseId ?? null}::uuid,
      ${query.organisationId ?? null}::uuid, ${query.unitId ?? null}::uuid) s
    limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`;
}

function toSummaryRow(r: SummaryRow) {
  return {
    service: r.service,
    course: { id: r.courseId, title: r.courseTitle },
    people: Number(r.people),
    compliant: Number(r.compliant),
    dueSoon: Number(r.dueSoon),
    overdue: Number(r.overdue),
    inProgress: Number(r.inProgress),
  };
}

interface UnitRow {
  organisationId: string | null;
  unitId: string | null;
  name: string | null;
  hasUnits: boolean;
  courseId: string;
  courseTitle: string;
  people: string;
  compliant: string;
  dueSoon: string;
  overdue: string;
  inProgress: string;
}

/** Per group (organisation, or unit with its sub-units) and course: the counts (at most 5,000 rows). */
function selectUnits(tx: Tx, q: z.infer<typeof unitsQuery>) {
  return tx<UnitRow[]>`
    select u.organisation_id, u.unit_id, u.name, u.has_units, u.course_id, u.course_title,
           u.people, u.compliant, u.due_soon, u.overdue, u.in_progress
    from private.compliance_units(
      ${q.organisationId ?? null}::uuid, ${q.unitId ?? null}::uuid, ${q.service ?? null}::public.service_code,
      ${q.role ?? null}::public.user_role, ${q.courseId ?? null}::uuid) u
    limit 5000`;
}

function toUnitRow(r: UnitRow): ComplianceUnitRow {
  return {
    organisationId: r.organisationId,
    unitId: r.unitId,
    name: r.name,
    hasUnits: r.hasUnits,
    course: { id: r.courseId, title: r.courseTitle },
    people: Number(r.people),
    compliant: Number(r.compliant),
    dueSoon: Number(r.dueSoon),
    overdue: Number(r.overdue),
    inProgress: Number(r.inProgress),
  };
}

export function complianceRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const query = validate(summaryQuery, c.req.query());
    // One round trip: an organisation's whole summary is read from its kept counts (a few rows), so
    // the round trips of a transaction would cost more than the query (docs/PERFORMANCE.md).
    const [rows] = await db.read(caller.db, (sql) => [selectSummary(sql, query)]).catch(fromDatabase);
    const items = rows.map(toSummaryRow);
    const total = rows.length > 0 ? Number(rows[0].total) : 0;
    return c.json({ items, total, page: query.page, pageSize: query.pageSize });
  });

  // Compliance by organisation -> unit: national administrators start with one group per
  // organisation, an organisation's administrator with their top-level units; unitId drills down.
  routes.get('/units', async (c) => {
    const caller = requireUser(c);
    const query = validate(unitsQuery, c.req.query());
    const rows = await db.withCaller(caller.db, (tx) => selectUnits(tx, query)).catch(fromDatabase);
    return c.json({ items: rows.map(toUnitRow) });
  });

  routes.get('/people', async (c) => {
    const caller = requireUser(c);
    const query = validate(peopleQuery, c.req.query());
    const rows = await db
      .withCaller(caller.db, (tx) => selectPeople(tx, query, query.pageSize, (query.page - 1) * query.pageSize))
      .catch(fromDatabase);
    const total = rows.length > 0 ? Number(rows[0].total) : 0;
    return c.json({ items: rows.map(toPerson), total, page: query.page, pageSize: query.pageSize });
  });

  routes.get('/export.csv', async (c) => {
    const caller = requireUser(c);
    const query = validate(complianceFilterSchema, c.req.query());
    const { rows, language } = await db
      .withCaller(caller.db, async (tx) => ({ rows: await selectPeople(tx, query, EXPORT_MAX_ROWS, 0), language: await languageOf(tx, caller.userId) }))
      .catch(fromDatabase);
    // The headers and statuses in the caller's language (the English ones are COMPLIANCE_CSV_HEADER's).
    const words = messages(language).exports;
    const header = language === 'en-GB' ? COMPLIANCE_CSV_HEADER : words.complianceHeader;
    const csv = toCsv(header, rows.map((r) => {
      const person = toPerson(r);
      const row = complianceCsvRow(person);
      row[COMPLIANCE_CSV_HEADER.indexOf('Status')] = words.trainingStatuses[person.status];
      return row;
    }));
    return c.body(csv, 200, {
      'content-type': CSV_CONTENT_TYPE,
      'content-disposition': attachmentDisposition(complianceFileName()),
      'cache-control': 'no-store',
    });
  });

  return routes;
}
