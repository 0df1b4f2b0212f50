// /api/admin/users: the bulk user import and the user CSV export, for national
// administrators (everyone) and organisations' administrators (their organisation's people only:
// row-level security, an explicit filter, and private.import_users, which imports into their
// organisation only).
// - POST /api/admin/users/import/preview: the CSV (text/csv, or JSON {csv}) read and every row checked
//   (format, role, services, repeats in the file, and, in one query each for the whole file, usernames
//   and emails already taken, organisations, units and managers). Nothing is written.
// - POST /api/admin/users/import {importId, part, rows}: one part of an import (the web client sends
//   the valid rows in parts of 500). Every row is checked again here and in SQL; private.import_users
//   creates the accounts of the part in one transaction and writes one audit event for it.
// - GET /api/admin/users/export.csv?search=&role=&service=: the Users tab's list as CSV, streamed in
//   pages of 1,000 read under RLS, each page after a fresh admin check.
import { Hono } from 'hono';
import { attachmentDisposition, CSV_BOM, CSV_CONTENT_TYPE, csvDate, csvFileName, csvRow } from '../../_shared/csv.ts';
import type { Role } from '../../_shared/domain.ts';
import type { ServiceCode } from '../../_shared/services.ts';
import {
  checkFileRows,
  type CheckedRow,
  checkRow,
  EXPORT_HEADER,
  type ImportedUser,
  type ImportPreview,
  type ImportResult,
  importRequestSchema,
  joinServices,
  lookupValues,
  markRepeats,
  markPlacement,
  markTaken,
  readUserCsv,
  type SkippedRow,
  userExportQuerySchema,
} from '../../_shared/user-import.ts';
import type { Config } from '../lib/config.ts';
import { containsPattern, type Db, type Tx } from '../lib/db.ts';
import { type Caller, type Env, requireUser } from '../lib/auth.ts';
import { jsonBody, validate } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { forbidden, type PeopleAdmin, peopleAdmin } from '../lib/admin.ts';
import { firstQueryValues } from '../lib/params.ts';
import { EXPORT_PAGE, exportPage, type ExportRow } from '../lib/user-export.ts';
import { csvText, importClashes, type ImportOutcome, importUsers, placementLookup, temporaryPassword } from '../lib/user-import.ts';

type UserCaller = Extract<Caller, { kind: 'user' }>;

export function importRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  /**
   * Runs fn as the caller once the database has said they administer people (same transaction):
   * nationally, or an organisation's people (then fn keeps to it).
   */
  function asAdmin<T>(caller: UserCaller, fn: (tx: Tx, admin: PeopleAdmin) => Promise<T>): Promise<T> {
    return db.withCaller(caller.db, async (tx) => {
      const admin = await peopleAdmin(tx);
      if (!admin) throw forbidden();
      return await fn(tx, admin);
    });
  }

  routes.post('/import/preview', async (c) => {
    const caller = requireUser(c);
    // Refuse non-admins before reading up to 2 MB.
    await asAdmin(caller, async () => {});
    const read = readUserCsv(await csvText(c));
    if (!read.ok) throw new ApiError(read.status, read.message);
    const rows = checkFileRows(read);
    const { usernames, emails } = lookupValues(rows);
    // One query for the whole file, however many rows (and one each for the placement cells).
    await asAdmin(caller, async (tx, admin) => {
      const clashes = await importClashes(tx, usernames, emails);
      markTaken(
        rows,
        new Set(clashes.filter((row) => row.field === 'username').map((row) => row.value)),
        new Set(clashes.filter((row) => row.field === 'email').map((row) => row.value)),
      );
      markPlacement(rows, await placementLookup(tx, rows, admin), admin.organisationId);
    });
    const invalid = rows.filter((row) => row.problems.length > 0).length;
    // The ids found are the server's: the import finds them again.
    const shown = rows.map(({ organisationId: _o, unitId: _u, ...row }) => row);
    const preview: ImportPreview = { rows: shown, total: rows.length, valid: rows.length - invalid, invalid };
    return c.json(preview);
  });

  routes.post('/import', async (c) => {
    const caller = requireUser(c);
    await asAdmin(caller, async () => {});
    const input = await jsonBody(c, importRequestSchema);
    // Never trust the preview: every row is checked again, and the database checks clashes again.
    const rows = input.rows.map(checkRow);
    markRepeats(rows);
    const payloadOf = (valid: CheckedRow[]) =>
      valid.map((row) => ({
        line: row.line,
        username: row.username,
        email: row.email,
        name: row.name,
        role: row.role,
        services: row.services,
        password: passwords.get(row.line),
        organisation_id: row.organisationId ?? null,
        unit_id: row.unitId ?? null,
        manager: row.manager || null,
      }));
    const passwords = new Map(rows.map((row) => [row.line, temporaryPassword()]));
    // Each attempt finds the placement afresh, from the row's own problems.
    const ownProblems = rows.map((row) => [...row.problems]);

    let outcome: ImportOutcome[] = [];
    if (rows.some((row) => row.problems.length === 0)) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          // The organisation, unit and manager are found again in the import's transaction; the
          // database checks them once more (private.import_users).
          outcome = await asAdmin(caller, async (tx, admin) => {
            rows.forEach((row, index) => {
              row.problems = [...ownProblems[index]];
            });
            markPlacement(rows, await placementLookup(tx, rows, admin), admin.organisationId);
            const payload = payloadOf(rows.filter((row) => row.problems.length === 0));
            return payload.length > 0 ? await importUsers(tx, input.importId, input.part, payload) : [];
          });
          break;
        } catch (error) {
          const code = (error as { code?: unknown })?.code;
          // A sign-up took a username or email between the check and the insert: the part was rolled
          // back whole, and the second attempt skips that row as taken.
          if (code === '23505' && attempt < 3) continue;
          if (code === '42501') throw forbidden();
          // Rows this function checked cannot break a cast or constraint; if one ever does, it is the
          // request's fault (400), never a 500 with database text.
          if (code === '22023' || code === '22P02' || code === '23514' || code === '23502') {
            throw new ApiError(400, 'Some rows could not be imported as given; check the file and preview it again');
          }
          throw error;
        }
      }
    }

    const byLine = new Map(outcome.map((row) => [row.line, row]));
    const created: ImportedUser[] = [];
    const skipped: SkippedRow[] = [];
    for (const row of rows) {
      const result = byLine.get(row.line);
      if (row.problems.length === 0 && result?.userId) {
        created.push({
          line: row.line,
          id: result.userId,
          username: row.username,
          email: row.email,
          name: row.name,
          role: row.role as Role,
          services: row.services as ServiceCode[],
          temporaryPassword: passwords.get(row.line)!,
        });
      } else {
        const problems = row.problems.length > 0
          ? row.problems
          : [{ field: (result?.field ?? 'line') as 'username', message: result?.problem ?? 'Not created' }];
        skipped.push({ line: row.line, username: row.username, email: row.email, problems });
      }
    }
    const result: ImportResult = { created, skipped };
    c.header('cache-control', 'no-store');
    return c.json(result, created.length > 0 ? 201 : 200);
  });

  routes.get('/export.csv', async (c) => {
    const caller = requireUser(c);
    const query = validate(userExportQuerySchema, firstQueryValues(c));
    const pattern = query.search ? containsPattern(query.search.toLowerCase()) : null;

    const page = (after: { cursor: string; id: string } | null) => asAdmin(caller, (tx) => exportPage(tx, query, pattern, after));

    // The first page is read before answering, so a refusal is a clean 403 and not a broken download.
    let next: ExportRow[] | null = await page(null);
    const encoder = new TextEncoder();
    const lines = (rows: ExportRow[]) =>
      rows.map((row) =>
        `${
          csvRow([
            row.username, row.email, row.name, row.role, joinServices(row.services), row.organisation ?? '', row.unitPath ?? '', row.manager ?? '',
            csvDate(row.createdAt),
          ])
        }\r\n`
      ).join('');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(`${CSV_BOM}${csvRow(EXPORT_HEADER)}\r\n`));
      },
      async pull(controller) {
        if (next === null) {
          controller.close();
          return;
        }
        const rows: ExportRow[] = next;
        controller.enqueue(encoder.encode(lines(rows)));
        const last = rows.at(-1);
        next = rows.length === EXPORT_PAGE && last ? await page({ cursor: last.cursor, id: last.id }) : null;
        if (next !== null && next.length === 0) next = null;
      },
    });
    return c.body(stream, 200, {
      'content-type': CSV_CONTENT_TYPE,
      'content-disposition': attachmentDisposition(csvFileName('users')),
      'cache-control': 'no-store',
    });
  });

  return routes;
}
