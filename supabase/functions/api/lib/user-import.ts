// The bulk user import's reading and writing (routes/imports.ts): the CSV text of a request, the
// temporary passwords, and the SQL of a file's clashes and placements (one query each for the whole
// file) and of one part of an import (private.import_users). The rules of a row are in
// _shared/user-import.ts.
import type { Context } from 'hono';
import { generateTemporaryPassword } from '../../_shared/admin.ts';
import { type CheckedRow, IMPORT_MAX_BYTES, type PlacementLookup, placementValues } from '../../_shared/user-import.ts';
import type { PeopleAdmin } from './admin.ts';
import type { Env } from './auth.ts';
import { readBytes } from './body.ts';
import type { Tx } from './db.ts';
import { ApiError } from './errors.ts';

/** The CSV text of a preview request: text/csv (or text/plain) as it is, or JSON {csv}. */
export async function csvText(c: Context<Env>): Promise<string> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  const decode = (bytes: Uint8Array) => {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new ApiError(400, 'The file is not UTF-8 text. Save it as "CSV UTF-8" and try again.');
    }
  };
  if (/^(text\/csv|application\/csv|text\/plain)\s*(;|$)/.test(type)) {
    return decode(await readBytes(c.req.raw, IMPORT_MAX_BYTES));
  }
  if (/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/.test(type)) {
    // JSON escaping can grow the text: allow room for it, then hold the CSV itself to the limit.
    const raw = decode(await readBytes(c.req.raw, IMPORT_MAX_BYTES * 2));
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new ApiError(400, 'Invalid JSON body');
    }
    const csv = (body as { csv?: unknown } | null)?.csv;
    if (typeof csv !== 'string') throw new ApiError(400, 'Validation failed', { csv: 'Send the file as text in csv' });
    if (!csv.isWellFormed()) throw new ApiError(400, 'Validation failed', { csv: 'Contains characters that are not allowed' });
    if (new TextEncoder().encode(csv).byteLength > IMPORT_MAX_BYTES) throw new ApiError(413, 'Request body is too large');
    return csv;
  }
  throw new ApiError(415, 'Send the file as text/csv, or as JSON {"csv": "..."}');
}

/** A temporary password that a spreadsheet will not take for a formula (the passwords CSV keeps it as it is). */
export function temporaryPassword(): string {
  for (;;) {
    const password = generateTemporaryPassword();
    if (!/^[=+\-@]/.test(password)) return password;
  }
}

/** Usernames and emails of the file already taken (one query for the whole file, however many rows). */
export function importClashes(tx: Tx, usernames: string[], emails: string[]) {
  return tx<{ field: string; value: string }[]>`
    select field, value from private.user_import_clashes(${usernames}::text[], ${emails}::text[])`;
}

/**
 * The file's organisations, their units and the people its manager cells name: three queries for the
 * whole file, under row-level security (an organisation's administrator sees their organisation only).
 */
export async function placementLookup(tx: Tx, rows: CheckedRow[], admin: PeopleAdmin): Promise<PlacementLookup> {
  const { organisations: texts, managers } = placementValues(rows);
  const organisations = texts.length > 0 || admin.organisationId
    ? await tx<PlacementLookup['organisations']>`
        select id, name, code, service::text as service from public.organisations
        where lower(code) = any(${texts}::text[]) or lower(name) = any(${texts}::text[]) or id = ${admin.organisationId}::uuid`
    : [];
  const ids = organisations.map((org) => org.id);
  const units = ids.length > 0 && rows.some((row) => row.unit !== '')
    ? await tx<PlacementLookup['units']>`
        select id, organisation_id, parent_id, name from public.units where organisation_id = any(${ids}::uuid[])`
    : [];
  const people = managers.length > 0
    ? await tx<PlacementLookup['people']>`
        select id, lower(username) as username, lower(email) as email, organisation_id from public.profiles
        where lower(username) = any(${managers}::text[])
        union
        select id, lower(username), lower(email), organisation_id from public.profiles
        where lower(email) = any(${managers}::text[])`
    : [];
  return { organisations, units, people };
}

export type ImportOutcome = { line: number; userId: string | null; field: string | null; problem: string | null };

/** One part of an import: private.import_users creates its accounts in one transaction, one audit event. */
export function importUsers(tx: Tx, importId: string, part: number, payload: Parameters<Tx['json']>[0]) {
  return tx<ImportOutcome[]>`
    select line, user_id, field, problem
    from private.import_users(${importId}::uuid, ${part}, ${tx.json(payload)}::jsonb)`;
}
