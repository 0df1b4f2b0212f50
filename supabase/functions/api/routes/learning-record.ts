// The CPD record (issue 8): the caller's learning record (completed courses from
// private.learning_record, their CPD entries, totals) as JSON, PDF and CSV; CRUD of their CPD
// entries; and the same record of any learner for admins. Everything runs under the caller's RLS:
// cpd_entries' policies and private.learning_record decide who sees what (the learner and admins).
import { Hono } from 'hono';
import type { Context } from 'hono';
import { CERTIFICATE_STATE_LABELS, type CertificateState } from '../../_shared/certificates.ts';
import {
  type CompletedCourse,
  CPD_MESSAGES,
  type CpdEntry,
  cpdEntrySchema,
  cpdListQuerySchema,
  type LearningRecord,
  learningRecordFileName,
  learningRecordTotals,
} from '../../_shared/cpd.ts';
import { attachmentDisposition, CSV_CONTENT_TYPE, csvDate, toCsv } from '../../_shared/csv.ts';
import { DEFAULT_SITE_NAME } from '../../_shared/domain.ts';
import { serviceLabel } from '../../_shared/services.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody, validate } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { readUser } from '../lib/users.ts';
import { learningRecordPdf } from '../lib/learning-record-pdf.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const entryNotFound = () => new ApiError(404, 'CPD entry not found');
const userNotFound = () => new ApiError(404, 'User not found');
const forbidden = () => new ApiError(403, 'Only administrators may see another person\'s learning record');

function pathId(c: Context, name: string, notFound: () => ApiError): string {
  const value = c.req.param(name) ?? '';
  if (!UUID.test(value)) throw notFound();
  return value.toLowerCase();
}

const iso = (value: unknown): string | null =>
  value == null ? null : value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();

/** The table's checks, should a request slip past the schema (a date that became "future" at midnight). */
function fromDatabase(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  const constraint = String((error as { constraint_name?: unknown; constraint?: unknown })?.constraint_name ?? '');
  if (code === '23514') {
    const field = constraint.includes('hours') ? 'hours'
      : constraint.includes('activity_date') ? 'activityDate'
      : constraint.includes('activity') ? 'activity'
      : constraint.includes('learnt') ? 'learnt'
      : constraint.includes('reflection') ? 'reflection'
      : 'activityDate';
    const message = field === 'activityDate' ? CPD_MESSAGES.dateFuture : 'Invalid value';
    throw new ApiError(400, 'Validation failed', { [field]: message });
  }
  if (code === '42501') throw forbidden();
  throw error;
}

interface EntryRow {
  id: string;
  activityDate: string;
  activity: string;
  hours: number;
  learnt: string;
  reflection: string;
  createdAt: Date;
  updatedAt: Date;
}

const ENTRY_COLUMNS = 'id, activity_date::text as activity_date, activity, hours::float8 as hours, learnt, reflection, created_at, updated_at';

function toEntry(row: EntryRow): CpdEntry {
  return {
    id: row.id,
    activityDate: row.activityDate,
    activity: row.activity,
    hours: Number(row.hours),
    learnt: row.learnt,
    reflection: row.reflection,
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
  };
}

interface CompletionRow {
  certificateId: string;
  courseId: string | null;
  courseTitle: string;
  service: string | null;
  cycle: number;
  completedAt: Date;
  hours: number | null;
  score: number | null;
  verificationCode: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  state: CertificateState;
}

function toCompleted(row: CompletionRow): CompletedCourse {
  return {
    certificateId: row.certificateId,
    courseId: row.courseId,
    courseTitle: row.courseTitle,
    service: row.service,
    serviceLabel: row.service ? serviceLabel(row.service) : null,
    cycle: row.cycle,
    completedAt: iso(row.completedAt)!,
    hours: row.hours === null ? null : Number(row.hours),
    score: row.score === null ? null : Number(row.score),
    verificationCode: row.verificationCode,
    expiresAt: iso(row.expiresAt),
    revokedAt: iso(row.revokedAt),
    state: row.state,
  };
}

/**
 * The whole record of one learner in one transaction under the caller's RLS: the profile, the
 * completed courses (one query: private.learning_record) and the CPD entries (one query). The
 * record is a document (also printed as PDF and CSV), so it is returned whole, not paged.
 */
async function readRecord(db: Db, caller: ReturnType<typeof requireUser>, userId: string): Promise<LearningRecord & { siteName: string }> {
  try {
    return await db.withCaller(caller.db, async (tx: Tx) => {
      const learner = await readUser(tx, userId);
      if (!learner) throw userNotFound();
      const completions = await tx<CompletionRow[]>`
        select certificate_id, course_id, course_title, service, cycle, completed_at, hours, score,
               verification_code, expires_at, revoked_at, state
        from private.learning_record(${userId}::uuid)`;
      const entries = await tx.unsafe<EntryRow[]>(
        `select ${ENTRY_COLUMNS} from public.cpd_entries where user_id = $1::uuid order by activity_date desc, created_at desc, id`,
        [userId],
      );
      const [settings] = await tx<{ siteName: string }[]>`select site_name from public.settings where id`;
      const completedCourses = completions.map(toCompleted);
      const cpdEntries = entries.map(toEntry);
      return {
        learner: { id: learner.id, name: learner.name, username: learner.username },
        generatedAt: new Date().toISOString(),
        completedCourses,
        cpdEntries,
        totals: learningRecordTotals(completedCourses, cpdEntries),
        siteName: settings?.siteName ?? DEFAULT_SITE_NAME,
      };
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    fromDatabase(error);
  }
}

const CSV_HEADER = [
  'Type', 'Date', 'Course or activity', 'Service', 'Hours', 'Score (%)', 'Certificate code', 'Certificate status',
  'Valid until', 'What I learnt', 'Reflection',
];

/** One table (Excel-friendly): a row per completed course, then a row per CPD entry. */
export function learningRecordCsv(record: LearningRecord): string {
  const rows = [
    ...record.completedCourses.map((c) => [
      'Course', csvDate(c.completedAt), c.courseTitle, c.serviceLabel ?? '', c.hours, c.score, c.verificationCode,
      CERTIFICATE_STATE_LABELS[c.state], c.expiresAt ? csvDate(c.expiresAt) : 'Does not expire', '', '',
    ]),
    ...record.cpdEntries.map((e) => [
      'CPD activity', csvDate(e.activityDate), e.activity, '', e.hours, null, '', '', '', e.learnt, e.reflection,
    ]),
  ];
  return toCsv(CSV_HEADER, rows);
}

function download(c: Context, body: Uint8Array | string, type: string, fileName: string) {
  const headers = {
    'content-type': type,
    'content-disposition': attachmentDisposition(fileName),
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  };
  return typeof body === 'string' ? c.body(body, 200, headers) : c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
}

export function learningRecordRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  async function respond(c: Context<Env>, userId: string, format: 'json' | 'pdf' | 'csv') {
    const caller = requireUser(c);
    const { siteName, ...record } = await readRecord(db, caller, userId);
    if (format === 'json') return c.json(record);
    const fileName = learningRecordFileName(record.learner.username, format);
    if (format === 'csv') return download(c, learningRecordCsv(record), CSV_CONTENT_TYPE, fileName);
    const pdf = await learningRecordPdf(record, { siteName });
    return download(c, pdf, 'application/pdf', fileName);
  }

  routes.get('/me/learning-record', (c) => respond(c, requireUser(c).userId, 'json'));
  routes.get('/me/learning-record.pdf', (c) => respond(c, requireUser(c).userId, 'pdf'));
  routes.get('/me/learning-record.csv', (c) => respond(c, requireUser(c).userId, 'csv'));

  /** Admins only: any learner's record, read-only. The database refuses anyone else (42501). */
  async function adminRecord(c: Context<Env>, format: 'json' | 'pdf' | 'csv') {
    const caller = requireUser(c);
    const userId = pathId(c, 'id', userNotFound);
    const [row] = await db.withCaller(caller.db, (tx) => tx<{ admin: boolean }[]>`select private.is_admin() as admin`);
    if (!row?.admin) throw new ApiError(403, 'Only administrators may do this');
    return respond(c, userId, format);
  }
  routes.get('/admin/users/:id/learning-record', (c) => adminRecord(c, 'json'));
  routes.get('/admin/users/:id/learning-record.pdf', (c) => adminRecord(c, 'pdf'));
  routes.get('/admin/users/:id/learning-record.csv', (c) => adminRecord(c, 'csv'));

  routes.get('/me/cpd-entries', async (c) => {
    const caller = requireUser(c);
    const { page, pageSize } = validate(cpdListQuerySchema, {
      page: c.req.query('page') ?? undefined,
      pageSize: c.req.query('pageSize') ?? undefined,
    });
    const result = await db.withCaller(caller.db, async (tx) => {
      const rows = await tx.unsafe<(EntryRow & { total: number })[]>(
        `select ${ENTRY_COLUMNS}, count(*) over ()::int as total from public.cpd_entries
         where user_id = $1::uuid order by activity_date desc, created_at desc, id limit $2 offset $3`,
        [caller.userId, pageSize, (page - 1) * pageSize],
      );
      let total = rows[0]?.total ?? 0;
      if (rows.length === 0 && page > 1) {
        const [count] = await tx<{ total: number }[]>`select count(*)::int as total from public.cpd_entries where user_id = ${caller.userId}::uuid`;
        total = count.total;
      }
      return { items: rows.map(toEntry), total };
    });
    return c.json({ ...result, page, pageSize });
  });

  routes.get('/me/cpd-entries/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', entryNotFound);
    const [row] = await db.withCaller(caller.db, (tx) =>
      tx.unsafe<EntryRow[]>(`select ${ENTRY_COLUMNS} from public.cpd_entries where id = $1::uuid and user_id = $2::uuid`, [id, caller.userId]));
    if (!row) throw entryNotFound();
    return c.json(toEntry(row));
  });

  routes.post('/me/cpd-entries', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, cpdEntrySchema);
    try {
      const [row] = await db.withCaller(caller.db, (tx) =>
        tx.unsafe<EntryRow[]>(
          `insert into public.cpd_entries (activity_date, activity, hours, learnt, reflection)
           values ($1::date, $2, $3::numeric, $4, $5) returning ${ENTRY_COLUMNS}`,
          [input.activityDate, input.activity, input.hours, input.learnt, input.reflection],
        ));
      return c.json(toEntry(row), 201);
    } catch (error) {
      fromDatabase(error);
    }
  });

  routes.put('/me/cpd-entries/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', entryNotFound);
    const input = await jsonBody(c, cpdEntrySchema);
    let row: EntryRow | undefined;
    try {
      [row] = await db.withCaller(caller.db, (tx) =>
        tx.unsafe<EntryRow[]>(
          `update public.cpd_entries
           set activity_date = $2::date, activity = $3, hours = $4::numeric, learnt = $5, reflection = $6
           where id = $1::uuid and user_id = $7::uuid returning ${ENTRY_COLUMNS}`,
          [id, input.activityDate, input.activity, input.hours, input.learnt, input.reflection, caller.userId],
        ));
    } catch (error) {
      fromDatabase(error);
    }
    if (!row) throw entryNotFound();
    return c.json(toEntry(row));
  });

  routes.delete('/me/cpd-entries/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', entryNotFound);
    const deleted = await db.withCaller(caller.db, (tx) =>
      tx`delete from public.cpd_entries where id = ${id}::uuid and user_id = ${caller.userId}::uuid returning id`);
    if (deleted.length === 0) throw entryNotFound();
    return c.body(null, 204);
  });

  return routes;
}
