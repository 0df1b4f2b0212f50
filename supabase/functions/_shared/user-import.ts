// Bulk user import: reading the CSV (RFC 4180), checking every row, and the shapes of the
// preview, import and export answers. Shared by the api function (which decides) and the web app
// (which shows the answers). Imports only zod and the domain, so it runs in Deno and the browser.
//
// The file: a header row naming the columns (any order, any case): username, email and name are
// required, role and services optional; other columns (e.g. the export's "joined") are ignored.
// role: ADMIN, INSTRUCTOR or STUDENT in any case (empty: STUDENT). services: service codes in any
// case separated by ";" or "|" (a comma would need quoting), e.g. `UKAS;MISC`; empty: none.
// Optional: organisation (its code or name, any case; empty: none, or for an organisation's
// administrator their own), unit (a unit name of that organisation when only one unit has it, or its
// path from the top, e.g. `North Area/Central Station`) and manager (the username or email of a person
// of that organisation, or of another row of the file).
import { z } from 'zod';
import { ROLES, type Role } from './domain.ts';
import { SERVICE_CODES, type ServiceCode } from './services.ts';
import { usernameField, visibleName } from './schemas.ts';
import { UUID_PATTERN } from './ids.ts';

/** A file over this is refused with 413 before it is read. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** Users (data rows) per file. */
export const IMPORT_MAX_ROWS = 10_000;
/** Rows the web client sends per import request: each request is its own transaction. */
export const IMPORT_CHUNK_SIZE = 500;
/** The most rows one import request may carry (private.import_users takes up to 1,000). */
export const IMPORT_CHUNK_MAX = 1000;

export const IMPORT_COLUMNS = ['username', 'email', 'name', 'role', 'services', 'organisation', 'unit', 'manager'] as const;
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
  organisation: 'organisation',
  organization: 'organisation',
  unit: 'unit',
  manager: 'manager',
  'line manager': 'manager',
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
  organisation?: string;
  unit?: string;
  manager?: string;
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
  /** The organisation's name once found (else as given); empty for none. */
  organisation: string;
  /** The unit's path from the top once found (else as given); empty for none. */
  unit: string;
  /** The manager's username or email as given; empty for none. */
  manager: string;
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
      organisation: cell(record.fields, 'organisation'),
      unit: cell(record.fields, 'unit'),
      manager: cell(record.fields, 'manager'),
    };
  });
  return { ok: true, rows, extraFieldLines, columns: header.fields.length };
}

// The same rules as the Add User dialog (userCreateSchema), field by field.
const emailRule = z.string().trim().toLowerCase().email('Invalid email address').max(254, 'Invalid email address');
const nameRule = visibleName({ min: 1, max: 200, tooShort: 'Name is missing', tooLong: 'Name must be at most 200 characters' });

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
  organisation: string;
  unit: string;
  manager: string;
  /** Found by markPlacement (the server): the organisation and unit; null for none. */
  organisationId?: string | null;
  unitId?: string | null;
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
    organisation: (raw.organisation ?? '').trim(),
    unit: (raw.unit ?? '').trim().split('/').map((part) => part.trim()).join('/'),
    manager: (raw.manager ?? '').trim(),
    problems,
  };
  for (const field of ['username', 'email', 'name', 'role', 'services', 'organisation', 'unit', 'manager'] as const) {
    if (UNSAFE.test(raw[field] ?? '')) {
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

  if (row.organisation.length > 200) problems.push({ field: 'organisation', message: 'Organisation must be at most 200 characters' });
  if (row.unit.length > 1000) problems.push({ field: 'unit', message: 'Unit must be at most 1,000 characters' });
  if (row.manager.length > 254) problems.push({ field: 'manager', message: 'Manager must be a username or email' });
  else if (row.manager !== '' && row.manager.toLowerCase() === row.username.toLowerCase()) {
    problems.push({ field: 'manager', message: 'A person cannot be their own manager' });
  } else if (row.manager !== '' && row.manager.toLowerCase() === row.email.toLowerCase()) {
    problems.push({ field: 'manager', message: 'A person cannot be their own manager' });
  }
  return row;
}

// ---------------------------------------------------------------- organisation, unit and manager

/** What the server found for a file's organisation, unit and manager cells (one query each). */
export interface PlacementLookup {
  /** The organisations the file names (and, for an organisation's administrator, theirs). */
  organisations: { id: string; name: string; code: string; service?: string }[];
  /** Every unit of those organisations. */
  units: { id: string; organisationId: string; parentId: string | null; name: string }[];
  /** The people whose username or email the manager cells name (either lowercased). */
  people: { id: string; username: string; email: string; organisationId: string | null }[];
}

/** Distinct lowercased organisation cells and manager cells of rows, for the lookup queries. */
export function placementValues(rows: CheckedRow[]): { organisations: string[]; managers: string[] } {
  const organisations = new Set<string>();
  const managers = new Set<string>();
  for (const row of rows) {
    if (row.organisation) organisations.add(row.organisation.toLowerCase());
    if (row.manager) managers.add(row.manager.toLowerCase());
  }
  return { organisations: [...organisations], managers: [...managers] };
}

/**
 * Finds each row's organisation, unit and manager (sets organisationId and unitId; adds problems):
 * - organisation: a code or name (any case); empty is none, or for an organisation's administrator
 *   (`ownOrganisationId`) their own, and any other is refused;
 * - unit: needs an organisation; a name that one unit of it has, or a path from the top;
 * - manager: needs an organisation; a person of it (username or email), or another row of the file
 *   of the same organisation that has no problem of its own (rows whose manager's row fails fail too).
 */
/** What an organisation's administrator reads when a row gives another service. */
export const ORGANISATION_SERVICE_ONLY = "You can give only your organisation's service";

export function markPlacement(rows: CheckedRow[], lookup: PlacementLookup, ownOrganisationId: string | null): void {
  const byText = new Map<string, { id: string; name: string }>();
  for (const org of lookup.organisations) {
    byText.set(org.code.toLowerCase(), org);
    if (!byText.has(org.name.toLowerCase())) byText.set(org.name.toLowerCase(), org);
  }
  const own = lookup.organisations.find((org) => org.id === ownOrganisationId);
  const ownName = own?.name;
  const unitsOf = new Map<string, PlacementLookup['units']>();
  for (const unit of lookup.units) {
    const list = unitsOf.get(unit.organisationId) ?? [];
    list.push(unit);
    unitsOf.set(unit.organisationId, list);
  }
  const unitPath = (id: string) => {
    const byId = new Map(lookup.units.map((u) => [u.id, u]));
    const names: string[] = [];
    for (let unit = byId.get(id); unit && names.length < 64; unit = unit.parentId ? byId.get(unit.parentId) : undefined) {
      names.unshift(unit.name);
    }
    return names.join('/');
  };

  for (const row of rows) {
    row.organisationId = null;
    row.unitId = null;
    // An organisation's administrator gives only their organisation's service (the database checks it too).
    if (own?.service && row.services.some((service) => service !== own.service) && !row.problems.some((p) => p.field === 'services')) {
      row.problems.push({ field: 'services', message: ORGANISATION_SERVICE_ONLY });
    }
    if (row.problems.some((p) => p.field === 'organisation' || p.field === 'unit' || p.field === 'manager')) continue;
    if (row.organisation === '') {
      row.organisationId = ownOrganisationId;
      if (ownName) row.organisation = ownName;
    } else {
      const org = byText.get(row.organisation.toLowerCase());
      if (!org) {
        row.problems.push({ field: 'organisation', message: `No organisation has the code or name "${shorten(row.organisation)}"` });
        continue;
      }
      if (ownOrganisationId && org.id !== ownOrganisationId) {
        row.problems.push({ field: 'organisation', message: 'You can import people into your own organisation only' });
        continue;
      }
      row.organisationId = org.id;
      row.organisation = org.name;
    }
    if (row.unit !== '') {
      if (!row.organisationId) {
        row.problems.push({ field: 'unit', message: 'A unit needs an organisation' });
      } else {
        const units = unitsOf.get(row.organisationId) ?? [];
        const parts = row.unit.split('/');
        let found: PlacementLookup['units'] = [];
        if (parts.length === 1) {
          found = units.filter((u) => u.name.toLowerCase() === parts[0].toLowerCase());
        } else {
          let level: (string | null)[] = [null];
          for (const part of parts) {
            found = units.filter((u) => level.includes(u.parentId) && u.name.toLowerCase() === part.toLowerCase());
            level = found.map((u) => u.id);
          }
        }
        if (found.length === 1) {
          row.unitId = found[0].id;
          row.unit = unitPath(found[0].id);
        } else if (found.length > 1) {
          row.problems.push({ field: 'unit', message: `Several units are called "${shorten(row.unit)}": give its path, e.g. ${shorten(unitPath(found[0].id))}` });
        } else {
          row.problems.push({ field: 'unit', message: `The organisation has no unit "${shorten(row.unit)}"` });
        }
      }
    }
    if (row.manager !== '' && !row.organisationId) {
      row.problems.push({ field: 'manager', message: 'A manager needs an organisation' });
    }
  }

  // Managers: a person of the organisation, or another row of the file, repeated until nothing changes.
  const people = lookup.people;
  for (let changed = true; changed;) {
    changed = false;
    const fileRows = new Map<string, CheckedRow>();
    for (const row of rows) {
      if (row.problems.length > 0) continue;
      fileRows.set(row.username.toLowerCase(), row);
      fileRows.set(row.email.toLowerCase(), row);
    }
    for (const row of rows) {
      if (row.problems.length > 0 || row.manager === '') continue;
      const wanted = row.manager.toLowerCase();
      const person = people.some((p) => p.organisationId === row.organisationId && (p.username === wanted || p.email === wanted));
      const other = fileRows.get(wanted);
      if (person || (other && other !== row && other.organisationId === row.organisationId)) continue;
      row.problems.push({ field: 'manager', message: `No person of the organisation, nor a row of this file, has the username or email "${shorten(row.manager)}"` });
      changed = true;
    }
  }
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
  organisation: cellText(1000).default(''),
  unit: cellText(2000).default(''),
  manager: cellText(1000).default(''),
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
  organisationId: z.string().trim().regex(UUID_PATTERN, 'Choose an organisation').transform((v) => v.toLowerCase()).optional(),
  unitId: z.string().trim().regex(UUID_PATTERN, 'Choose a unit').transform((v) => v.toLowerCase()).optional(),
  managerId: z.string().trim().regex(UUID_PATTERN, 'Choose a manager').transform((v) => v.toLowerCase()).optional(),
});

/** The export's columns: the import's eight, so an export can be imported again, plus joined. */
export const EXPORT_HEADER = ['username', 'email', 'name', 'role', 'services', 'organisation', 'unit', 'manager', 'joined'] as const;

/** Services as one CSV cell. */
export const joinServices = (services: readonly string[]) => services.join(';');
