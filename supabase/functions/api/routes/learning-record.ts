// The learning record: a learner's completed courses (private.learning_record), their CPD
// entries and the totals, as JSON, PDF and CSV. The learner's own at /api/me/learning-record[.pdf|.csv];
// any learner's for admins at /api/admin/users/:id/learning-record[.pdf|.csv]. Everything runs under the
// caller's RLS: cpd_entries' policies and private.learning_record decide who sees what. The CPD
// entries themselves: routes/cpd-entries.ts.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { CertificateState } from '../../_shared/certificates.ts';
import { type CompletedCourse, type LearningRecord, learningRecordFileName, learningRecordTotals } from '../../_shared/cpd.ts';
import { attachmentDisposition, CSV_CONTENT_TYPE, toCsv } from '../../_shared/csv.ts';
import { isoDate, isoTimestamp } from '../../_shared/dates.ts';
import { DEFAULT_SITE_NAME } from '../../_shared/domain.ts';
import { serviceLabel } from '../../_shared/services.ts';
import { courseTitle, messages, serviceName } from '../../_shared/i18n/index.ts';
import { type Language, toLanguage } from '../../_shared/language.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { ApiError } from '../lib/errors.ts';
import { pathId } from '../lib/params.ts';
import { toPeopleAdmin } from '../lib/admin.ts';
import { readUser } from '../lib/users.ts';
import { learningRecordPdf } from '../lib/learning-record-pdf.ts';
import { ENTRY_COLUMNS, type EntryRow, fromDatabase, toEntry } from './cpd-entries.ts';

const USER_NOT_FOUND = 'User not found';
const userNotFound = () => new ApiError(404, USER_NOT_FOUND);

interface CompletionRow {
  certificateId: string;
  courseId: string | null;
  courseTitle: string;
  courseTitleCy: string | null;
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
    courseTitleCy: row.courseTitleCy ?? null,
    service: row.service,
    serviceLabel: row.service ? serviceLabel(row.service) : null,
    cycle: row.cycle,
    completedAt: isoTimestamp(row.completedAt)!,
    hours: row.hours === null ? null : Number(row.hours),
    score: row.score === null ? null : Number(row.score),
    verificationCode: row.verificationCode,
    expiresAt: isoTimestamp(row.expiresAt),
    revokedAt: isoTimestamp(row.revokedAt),
    state: row.state,
  };
}

/**
 * The whole record of one learner in one transaction under the caller's RLS: the profile, the
 * completed courses (one query: private.learning_record) and the CPD entries (one query). The
 * record is a document (also printed as PDF and CSV), so it is returned whole, not paged.
 */
async function readRecord(
  db: Db,
  caller: ReturnType<typeof requireUser>,
  userId: string,
): Promise<LearningRecord & { siteName: string; language: Language }> {
  try {
    return await db.withCaller(caller.db, async (tx: Tx) => {
      const learner = await readUser(tx, userId);
      if (!learner) throw userNotFound();
      const completions = await tx<CompletionRow[]>`
        select certificate_id, course_id, course_title, course_title_cy, service, cycle, completed_at, hours, score,
               verification_code, expires_at, revoked_at, state
        from private.learning_record(${userId}::uuid)`;
      const entries = await tx.unsafe<EntryRow[]>(
        `select ${ENTRY_COLUMNS} from public.cpd_entries where user_id = $1::uuid order by activity_date desc, created_at desc, id`,
        [userId],
      );
      const [settings] = await tx<{ siteName: string }[]>`select site_name from public.settings where id`;
      // The PDF and the CSV are in the language of whoever downloads them.
      const reader = userId === caller.userId ? learner : await readUser(tx, caller.userId);
      const language = reader?.language ?? 'en-GB';
      const completedCourses = completions.map(toCompleted);
      const cpdEntries = entries.map(toEntry);
      return {
        learner: { id: learner.id, name: learner.name, username: learner.username },
        generatedAt: new Date().toISOString(),
        completedCourses,
        cpdEntries,
        totals: learningRecordTotals(completedCourses, cpdEntries),
        siteName: settings?.siteName ?? DEFAULT_SITE_NAME,
        language,
      };
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    fromDatabase(error);
  }
}

/** The record with each course's title in the language (the Welsh title where there is one). */
export function inLanguage(record: LearningRecord, language: Language): LearningRecord {
  return {
    ...record,
    completedCourses: record.completedCourses.map((c) => ({ ...c, courseTitle: courseTitle({ title: c.courseTitle, titleCy: c.courseTitleCy }, language) })),
  };
}

/**
 * One table (Excel-friendly): a row per completed course, then a row per CPD entry. The headers and
 * words in the reader's language; dates stay ISO (2026-11-22) in every language.
 */
export function learningRecordCsv(record: LearningRecord, language: Language = 'en-GB'): string {
  const m = messages(toLanguage(language));
  const t = m.learningRecord;
  const rows = [
    ...record.completedCourses.map((c) => [
      t.csvCourse, isoDate(c.completedAt), c.courseTitle, c.service ? serviceName(language, c.service) : c.serviceLabel ?? '', c.hours, c.score,
      c.verificationCode, m.validity.states[c.state], c.expiresAt ? isoDate(c.expiresAt) : m.validity.doesNotExpire, '', '',
    ]),
    ...record.cpdEntries.map((e) => [
      t.csvCpdActivity, isoDate(e.activityDate), e.activity, '', e.hours, null, '', '', '', e.learnt, e.reflection,
    ]),
  ];
  return toCsv([...t.csvHeader], rows);
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

async function respond(db: Db, c: Context<Env>, userId: string, format: 'json' | 'pdf' | 'csv') {
  const caller = requireUser(c);
  const { siteName, language, ...json } = await readRecord(db, caller, userId);
  // The JSON carries both titles (the app chooses); the files print the title in the reader's language.
  if (format === 'json') return c.json(json);
  const record = inLanguage(json, language);
  const fileName = learningRecordFileName(record.learner.username, format);
  if (format === 'csv') return download(c, learningRecordCsv(record, language), CSV_CONTENT_TYPE, fileName);
  const pdf = await learningRecordPdf(record, { siteName, language });
  return download(c, pdf, 'application/pdf', fileName);
}

/**
 * Admins only: any learner's record (a national administrator) or their organisation's people's (an
 * organisation's administrator; anyone else is not found), read-only. The database refuses anyone
 * else (42501).
 */
async function adminRecord(db: Db, c: Context<Env>, format: 'json' | 'pdf' | 'csv') {
  const caller = requireUser(c);
  const userId = pathId(c, 'id', USER_NOT_FOUND);
  const [row] = await db.withCaller(caller.db, (tx) =>
    tx<{ national: boolean; organisationId: string | null; theirs: boolean }[]>`
      select private.is_admin() as national, private.administered_organisation_id() as organisation_id,
             private.administers(${userId}::uuid) as theirs`
  );
  if (!toPeopleAdmin(row)) throw new ApiError(403, 'Only administrators may do this');
  if (!row.theirs) throw userNotFound();
  return respond(db, c, userId, format);
}

/** The caller's own record (mounted at /api/me). */
export function myLearningRecordRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/learning-record', (c) => respond(db, c, requireUser(c).userId, 'json'));
  routes.get('/learning-record.pdf', (c) => respond(db, c, requireUser(c).userId, 'pdf'));
  routes.get('/learning-record.csv', (c) => respond(db, c, requireUser(c).userId, 'csv'));

  return routes;
}

/** Admins: a learner's record, read-only (mounted at /api/admin/users/:id). */
export function learnerRecordRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/learning-record', (c) => adminRecord(db, c, 'json'));
  routes.get('/learning-record.pdf', (c) => adminRecord(db, c, 'pdf'));
  routes.get('/learning-record.csv', (c) => adminRecord(db, c, 'csv'));

  return routes;
}
