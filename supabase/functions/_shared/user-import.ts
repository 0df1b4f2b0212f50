// Bulk user import (issue 8): reading the CSV (RFC 4180), checking every row, and the shapes of the
// preview, import and export answers. Shared by the api function (which decides) and the web app
// (which shows the answers). Imports only zod and the domain, so it runs in Deno and the browser.
//
// The file: a header row naming the columns (any order, any case): username, email and name are
// required, role and services optional; other columns (e.g. the export's "joined") are ignored.
// role: ADMIN, INSTRUCTOR or STUDENT in any case (empty: STUDENT). services: service codes in any
// case separated by ";" or "|" (a comma would need quoting), e.g. `UKAS;MISC`; empty: none.
import { z } from 'zod';
import { ROLES, type Role } from './domain.ts';
import { SERVICE_CODES, type ServiceCode } from './services.ts';
import { usernameField } from './schemas.ts';
import { UUID_PATTERN } from './ids.ts';

/** A file over this is refused with 413 before it is read. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** Users (data rows) per file. */
export const IMPORT_MAX_ROWS = 10_000;
/** Rows the web client sends per import request: each request is its own transaction. */
export const IMPORT_CHUNK_SIZE = 500;
/** The most rows one import request may carry (private.import_users takes up to 1,000). */
export const IMPORT_CHUNK_MAX = 1000;

export const IMPORT_COLUMNS = ['username', 'email', 'name', 'role', 'services'] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
const REQUIRED_COLUMNS: readonly ImportColumn[] = ['username', 'email', 'name'];
const HEADER_ALIASES: Record<string, ImportColumn> = {
  username: 'username',
  'user name': 'username',
  email: 'email',
  'e-mail': 'email',
  'email address': 'email',
  name: 'name',
  'full name': 'name',
  role: 'role',
  services: 'services',
  service: 'services',
};

// ---------------------------------------------------------------- CSV (RFC 4180)

export interface CsvRecord {
  /** The line of the file on which the record starts (1-based; a quoted line break does not start a record). */
  line: number;
  fields: string[];
}

/** The file cannot be read as CSV; `line` says where. */
export class CsvError extends Error {
  constructor(readonly line: number, message: string) {
    super(`Line ${line}: ${message}`);
    this.name = 'CsvError';
  }
}

/** More records than `maxRecords`. */
export class CsvTooManyRecords extends Error {
  constructor(readonly max: number) {
    super(`More than ${max} lines`);
    this.name = 'CsvTooManyRecords';
  }
}

/**
 * Parses comma-separated text: fields in double quotes may hold commas, line breaks and doubled
 * quotes (""); lines end in CRLF, LF or CR; a byte-order mark is dropped; blank lines and lines of
 * empty fields (",,,," as spreadsheets write) are skipped. A quote inside an unquoted field is kept
 * as text. Throws CsvError for a quoted field that is never closed or is followed by other text,
 * and CsvTooManyRecords past `maxRecords`.
 */
export function parseCsv(text: string, maxRecords = Number.POSITIVE_INFINITY): CsvRecord[] {
  const records: CsvRecord[] = [];
  const length = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;

  while (i < length) {
    const start = line;
    const fields: string[] = [];
    let endOfRecord = false;
    while (!endOfRecord) {
      let value = '';
      if (text[i] === '"') {
        // Quoted field.
        const quoteLine = line;
        i += 1;
        for (;;) {
          if (i >= length) throw new CsvError(quoteLine, 'a quoted field is not closed (a " is missing)');
          const ch = text[i];
          if (ch === '"') {
            if (text[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i += 1;
            break;
          }
          if (ch === '\r') {
            line += 1;
            if (text[i + 1] === '\n') {
              value += '\r\n';
              i += 2;
              continue;
            }
          } else if (ch === '\n') {
            line += 1;
          }
          value += ch;
          i += 1;
        }
        // Only spaces may follow the closing quote before the delimiter or the line end.
        while (i < length && (text[i] === ' ' || text[i] === '\t')) i += 1;
        if (i < length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          throw new CsvError(line, 'unexpected text after a closing quote (write a quote inside a quoted field as "")');
        }
      } else {
        const from = i;
        while (i < length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') i += 1;
        value = text.slice(from, i);
      }
      fields.push(value);
      if (i >= length) {
        endOfRecord = true;
      } else if (text[i] === ',') {
        i += 1;
        // A comma at the very end of the text still ends with an empty field.
        if (i >= length) {
          fields.push('');
          endOfRecord = true;
        }
      } else {
        // Line end: CRLF, LF or CR.
        i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
        line += 1;
        endOfRecord = true;
      }
    }
    if (fields.some((field) => field.trim() !== '')) {
      if (records.length >= maxRecords) throw new CsvTooManyRecords(maxRecords);
      records.push({ line: start, fields });
    }
  }
  return records;
}

// ---------------------------------------------------------------- rows

/** One row as the file (or an import request) gives it: text cells, nothing checked yet. */
export interface RawImportRow {
  line: number;
  username: string;
  email: string;
  name: string;
  role: string;
  services: string;
}

export type ProblemField = ImportColumn | 'line';

export interface ImportProblem {
  field: ProblemField;
  message: string;
}

/** A row of the preview: values as they will be stored where valid (else as given), and its problems. */
export interface ImportPreviewRow {
  line: number;
  username: string;
  email: string;
  name: string;
  role: string;
  services: string[];
  problems: ImportProblem[];
}

export interface ImportPreview {
  rows: ImportPreviewRow[];
  total: number;
  valid: number;
  invalid: number;
}

export interface ImportedUser {
  line: number;
  id: string;
  username: string;
  email: string;
  name: string;
  role: Role;
  services: ServiceCode[];
  /** Shown once; never stored in clear or returned again. */
  temporaryPassword: string;
}

export interface SkippedRow {
  line: number;
  username: string;
  email: string;
  problems: ImportProblem[];
}

/** POST /api/admin/users/import. */
export interface ImportResult {
  created: ImportedUser[];
  skipped: SkippedRow[];
}

/** The file reader's answer: rows, or why the whole file cannot be used. */
export type ReadUserCsv =
  | { ok: true; rows: RawImportRow[]; extraFieldLines: Map<number, number>; columns: number }
  | { ok: false; status: 400 | 413; message: string };

/** A spreadsheet-safe export writes `'=...`; undo that on the way back in. */
function unneutralise(value: string): string {
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

/** Reads the CSV text into raw rows under the limits (413 past IMPORT_MAX_ROWS). */
export function readUserCsv(text: string): ReadUserCsv {
  let records: CsvRecord[];
  try {
    records = parseCsv(text, IMPORT_MAX_ROWS + 1);
  } catch (error) {
    if (error instanceof CsvTooManyRecords) {
      return { ok: false, status: 413, message: `A file may hold at most ${IMPORT_MAX_ROWS.toLocaleString('en-GB')} users` };
    }
    if (error instanceof CsvError) return { ok: false, status: 400, message: error.message };
    throw error;
  }
  if (records.length === 0) return { ok: false, status: 400, message: 'The file is empty' };
  const [header, ...data] = records;
  const columns = new Map<ImportColumn, number>();
  header.fields.forEach((title, index) => {
    const column = HEADER_ALIASES[title.trim().toLowerCase()];
    if (column && !columns.has(column)) columns.set(column, index);
  });
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.has(column));
  if (missing.length > 0) {
    return {
      ok: false,
      status: 400,
      message: `The first line must name the columns username, email and name (role and services are optional); missing: ${missing.join(', ')}`,
    };
  }
  if (data.length === 0) return { ok: false, status: 400, message: 'The file has a header but no users' };
  const extraFieldLines = new Map<number, number>();
  const cell = (fields: string[], column: ImportColumn) => {
    const index = columns.get(column);
    return index === undefined ? '' : unneutralise(fields[index] ?? '');
  };
  const rows = data.map((record) => {
    if (record.fields.length > header.fields.length && record.fields.slice(header.fields.length).some((f) => f.trim() !== '')) {
      extraFieldLines.set(record.line, record.fields.length);
    }
    return {
      line: record.line,
      username: cell(record.fields, 'username'),
      email: cell(record.fields, 'email'),
      name: cell(record.fields, 'name'),
      role: cell(record.fields, 'role'),
      services: cell(record.fields, 'services'),
    };
  });
  return { ok: true, rows, extraFieldLines, columns: header.fields.length };
}

// The same rules as the Add User dialog (userCreateSchema), field by field.
const emailRule = z.string().trim().toLowerCase().email('Invalid email address').max(254, 'Invalid email address');
const nameRule = z.string().trim().min(1, 'Name is missing').max(200, 'Name must be at most 200 characters');

/** NUL (Postgres text cannot hold it) or a lone surrogate (not well-formed UTF-16). */
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A checked row: the values to store, or its problems. */
export interface CheckedRow {
  line: number;
  username: string;
  email: string;
  name: string;
  role: string;
  services: string[];
  problems: ImportProblem[];
}

/** Checks one row on its own (format, role, services); repeats and clashes are checked over the file. */
export function checkRow(raw: RawImportRow): CheckedRow {
  const problems: ImportProblem[] = [];
  const row: CheckedRow = {
    line: raw.line,
    username: raw.username.trim(),
    email: raw.email.trim(),
    name: raw.name.trim(),
    role: raw.role.trim(),
    services: [],
    problems,
  };
  for (const field of ['username', 'email', 'name', 'role', 'services'] as const) {
    if (UNSAFE.test(raw[field])) {
      problems.push({ field, message: 'Contains characters that are not allowed' });
    }
  }
  if (problems.length > 0) return row;

  if (row.username === '') problems.push({ field: 'username', message: 'Username is missing' });
  else {
    const username = usernameField.safeParse(raw.username);
    if (username.success) row.username = username.data;
    else problems.push({ field: 'username', message: `Invalid username: ${username.error.issues[0].message}` });
  }

  if (row.email === '') problems.push({ field: 'email', message: 'Email is missing' });
  else {
    const email = emailRule.safeParse(raw.email);
    if (email.success) row.email = email.data;
    else problems.push({ field: 'email', message: email.error.issues[0].message });
  }

  const name = nameRule.safeParse(raw.name);
  if (name.success) row.name = name.data;
  else problems.push({ field: 'name', message: name.error.issues[0].message });

  const role = row.role === '' ? 'STUDENT' : row.role.toUpperCase();
  if ((ROLES as readonly string[]).includes(role)) row.role = role;
  else problems.push({ field: 'role', message: `Unknown role "${shorten(row.role)}" (use ADMIN, INSTRUCTOR or STUDENT)` });

  const codes = raw.services.split(/[;|]/).map((code) => code.trim().toUpperCase()).filter((code) => code !== '');
  const unknown = codes.filter((code) => !(SERVICE_CODES as readonly string[]).includes(code));
  if (unknown.length > 0) {
    problems.push({
      field: 'services',
      message: `Unknown service${unknown.length > 1 ? 's' : ''} ${unknown.map((code) => `"${shorten(code)}"`).join(', ')} (use ${SERVICE_CODES.join(', ')})`,
    });
  }
  row.services = SERVICE_CODES.filter((code) => codes.includes(code));
  return row;
}

function shorten(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

/** Marks later rows that repeat an earlier row's username or email (case-insensitive): the first wins. */
export function markRepeats(rows: CheckedRow[]): void {
  const usernames = new Map<string, number>();
  const emails = new Map<string, number>();
  for (const row of rows) {
    const username = row.username.toLowerCase();
    const email = row.email.toLowerCase();
    const earlierUsername = username ? usernames.get(username) : undefined;
    const earlierEmail = email ? emails.get(email) : undefined;
    if (earlierUsername !== undefined) {
      row.problems.push({ field: 'username', message: `Username appears earlier in the file (line ${earlierUsername})` });
    } else if (username) usernames.set(username, row.line);
    if (earlierEmail !== undefined) {
      row.problems.push({ field: 'email', message: `Email appears earlier in the file (line ${earlierEmail})` });
    } else if (email) emails.set(email, row.line);
  }
}

/** Checks every row of a read file: each on its own, stray fields, then repeats within the file. */
export function checkFileRows(read: Extract<ReadUserCsv, { ok: true }>): CheckedRow[] {
  const rows = read.rows.map(checkRow);
  for (const row of rows) {
    const fields = read.extraFieldLines.get(row.line);
    if (fields !== undefined) {
      row.problems.unshift({
        field: 'line',
        message: `This line has ${fields} fields but the header has ${read.columns} (put a value containing a comma in double quotes)`,
      });
    }
  }
  markRepeats(rows);
  return rows;
}

/** Marks rows whose username or email the database already holds (sets of lowercased values). */
export function markTaken(rows: CheckedRow[], takenUsernames: Set<string>, takenEmails: Set<string>): void {
  for (const row of rows) {
    if (takenUsernames.has(row.username.toLowerCase())) row.problems.push({ field: 'username', message: 'Username is already taken' });
    if (takenEmails.has(row.email.toLowerCase())) row.problems.push({ field: 'email', message: 'Email is already registered' });
  }
}

/** Rows without a problem on their own, whose username and email are worth asking the database about. */
export function lookupValues(rows: CheckedRow[]): { usernames: string[]; emails: string[] } {
  const usernames = new Set<string>();
  const emails = new Set<string>();
  for (const row of rows) {
    if (!row.problems.some((p) => p.field === 'username')) usernames.add(row.username.toLowerCase());
    if (!row.problems.some((p) => p.field === 'email')) emails.add(row.email.toLowerCase());
  }
  return { usernames: [...usernames], emails: [...emails] };
}

// ---------------------------------------------------------------- request schemas

const cellText = (max: number) => z.string({ error: 'Must be text' }).max(max, `At most ${max} characters`);

export const importRowSchema = z.object({
  line: z.number({ error: 'Line must be a whole number' }).int('Line must be a whole number').min(1, 'Line must be at least 1').max(10_000_000, 'Line is too large'),
  username: cellText(1000),
  email: cellText(1000),
  name: cellText(1000),
  role: cellText(100).default(''),
  services: cellText(1000).default(''),
});

/** POST /api/admin/users/import: one part of an import, the rows to create (checked again on the server). */
export const importRequestSchema = z
  .object({
    importId: z.string({ error: 'importId must be a uuid' }).regex(UUID_PATTERN, 'importId must be a uuid'),
    part: z.number({ error: 'Part must be a whole number' }).int('Part must be a whole number').min(1, 'Part must be at least 1').max(10_000, 'Part is too large').default(1),
    rows: z
      .array(importRowSchema, { error: 'Rows must be a list' })
      .min(1, 'Send at least one row')
      .max(IMPORT_CHUNK_MAX, `At most ${IMPORT_CHUNK_MAX} rows per request`),
  })
  .refine((body) => new Set(body.rows.map((row) => row.line)).size === body.rows.length, {
    message: 'Every row needs its own line number',
    path: ['rows'],
  });

/** GET /api/admin/users/export.csv: the Users tab's search and filters. */
export const userExportQuerySchema = z.object({
  search: z.string().trim().max(200, 'Search is too long').optional(),
  service: z.enum(SERVICE_CODES, { error: 'Unknown service' }).optional(),
  role: z.enum(ROLES, { error: 'Unknown role' }).optional(),
});

/** The export's columns: the import's five, so an export can be imported elsewhere, plus joined. */
export const EXPORT_HEADER = ['username', 'email', 'name', 'role', 'services', 'joined'] as const;

/** Services as one CSV cell. */
export const joinServices = (services: readonly string[]) => services.join(';');
