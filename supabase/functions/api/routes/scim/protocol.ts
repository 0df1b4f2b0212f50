// What every SCIM 2.0 route shares (RFC 7644): the bearer token (checked inside the SQL functions,
// never here), one transaction per request as anon, answers and errors as application/scim+json,
// filters and PATCH operations parsed by SCIMMY, and the paging of lists.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import SCIMMY from 'scimmy';
import type { Db, Tx } from '../../lib/db.ts';
import { ApiError } from '../../lib/errors.ts';
import { readJson } from '../../lib/body.ts';
import { UUID_PATTERN } from '../../../_shared/ids.ts';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

// The enterprise extension (department, manager) is part of every User SCIMMY reads and patches.
// (SCIMMY takes the schema class at run time; its typings name only an instance.)
SCIMMY.Schemas.User.extend(SCIMMY.Schemas.EnterpriseUser as unknown as Parameters<typeof SCIMMY.Schemas.User.extend>[0]);
export { SCIMMY };

/** A refusal in SCIM's own error format (RFC 7644 section 3.12). */
export class ScimError extends Error {
  constructor(readonly status: ContentfulStatusCode, readonly scimType: string | null, detail: string) {
    super(detail);
    this.name = 'ScimError';
  }
}

/** A PatchOp message as SCIMMY takes it; SCIMMY checks its shape itself (400 otherwise). */
export type PatchOpMessage = ConstructorParameters<typeof SCIMMY.Messages.PatchOp>[0];

export const invalidValue = (detail: string) => new ScimError(400, 'invalidValue', detail);

/** Runs SCIMMY on a client's message: its own refusals stand, any other error it throws (a
 * TypeError on a value of the wrong shape) is the message's fault too, so a 400, never a 500. */
export async function withScimmy<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof SCIMMY.Types.Error || error instanceof ScimError) throw error;
    if (error instanceof TypeError || error instanceof SyntaxError) throw invalidValue(error.message);
    throw error;
  }
}

export function scimJson(c: Context, body: unknown, status: ContentfulStatusCode = 200, headers: Record<string, string> = {}) {
  return c.body(JSON.stringify(body), status, { 'content-type': SCIM_CONTENT_TYPE, 'cache-control': 'no-store', ...headers });
}

/** Every failure of a SCIM route as SCIM's error body: never a stack, SQL text or a plain `{ message }`. */
export function scimErrorAnswer(c: Context, error: unknown): Response {
  let status: ContentfulStatusCode = 500;
  let scimType: string | null = null;
  let detail = 'Internal server error';
  const scimmy = error as { status?: unknown; scimType?: unknown; message?: unknown } | null;
  if (error instanceof ScimError) {
    ({ status, scimType } = error);
    detail = error.message;
  } else if (error instanceof SCIMMY.Types.Error && typeof scimmy?.status === 'number') {
    status = scimmy.status as ContentfulStatusCode;
    scimType = typeof scimmy.scimType === 'string' ? scimmy.scimType : null;
    detail = String(scimmy.message);
  } else if (error instanceof ApiError) {
    status = error.status;
    scimType = status === 400 ? 'invalidSyntax' : null;
    detail = error.message;
  } else {
    console.error(`${c.req.method} ${c.req.path} failed:`, error);
  }
  const body = { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
  const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer realm="SCIM"' } : {};
  return scimJson(c, body, status, headers);
}

/**
 * The refusals the SCIM SQL functions raise on purpose, as SCIM answers: a bad token 401, not
 * found 404, taken 409 uniqueness, a bad value 400, a unit still in use 409. Any other database
 * error is a 500 whose text never reaches the client.
 */
export function fromScimSql(error: unknown): never {
  const pg = error as { code?: unknown; message?: unknown; routine?: unknown; name?: unknown } | null;
  const raised = pg?.routine === 'exec_stmt_raise';
  const message = raised && typeof pg?.message === 'string' ? pg.message : '';
  switch (pg?.code) {
    case '28000': throw new ScimError(401, null, 'Invalid, revoked or missing SCIM token');
    case 'P0002': throw new ScimError(404, null, message || 'Resource not found');
    case '23505': throw new ScimError(409, 'uniqueness', message || 'A value that must be unique is already taken');
    case '22023': throw invalidValue(message || 'Invalid value');
    // A rule of the record itself (a name, an email): the constraint's name stays inside.
    case '23514': throw invalidValue(message || 'A value breaks a rule of the record (a name, an email or a placement)');
    case '55000': throw new ScimError(409, null, message || 'The resource is in use');
  }
  throw error;
}

/** The bearer token as sent; whether it is a live token of an organisation is for the database. */
export function bearerToken(c: Context): string {
  const match = /^Bearer[ \t]+(\S{1,512})[ \t]*$/i.exec(c.req.header('authorization') ?? '');
  if (!match) throw new ScimError(401, null, 'Send the SCIM token as "Authorization: Bearer <token>"');
  return match[1];
}

/** One transaction per request as anon (the token is the credential, checked by each SQL function). */
export function asToken<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.withCaller({ role: 'anon', claims: { role: 'anon' } }, async (tx) => {
    try {
      return await fn(tx);
    } catch (error) {
      fromScimSql(error);
    }
  });
}

/** A resource id from the path: anything but a uuid names nothing (404, as another organisation's). */
export function resourceId(c: Context, what: 'User' | 'Group'): string {
  const id = c.req.param('id') ?? '';
  if (!UUID_PATTERN.test(id)) throw new ScimError(404, null, `${what} not found`);
  return id.toLowerCase();
}

/** A JSON object body (application/scim+json or application/json): 400 invalidSyntax otherwise. */
export async function scimBody(c: Context): Promise<Record<string, unknown>> {
  const body = await readJson(c);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ScimError(400, 'invalidSyntax', 'The body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/**
 * `filter`: one `eq` comparison of one of the attributes the resource is looked up by (each read by
 * an index), parsed by SCIMMY; anything else is 400 invalidFilter. Returns the attribute as the
 * caller named it in `attributes` and the value, or null for no filter.
 */
export function eqFilter(c: Context, attributes: readonly string[]): { attribute: string; value: string } | null {
  const text = c.req.query('filter');
  if (text === undefined || text.trim() === '') return null;
  if (text.length > 1000) throw new ScimError(400, 'invalidFilter', 'The filter is too long');
  let expressions: Record<string, unknown>[];
  try {
    expressions = [...new SCIMMY.Types.Filter(text)] as Record<string, unknown>[];
  } catch (error) {
    throw new ScimError(400, 'invalidFilter', `Invalid filter: ${(error as Error).message}`);
  }
  const supported = `Filter with one of ${attributes.join(', ')} and eq, such as ${attributes[0]} eq "value"`;
  if (expressions.length !== 1) throw new ScimError(400, 'invalidFilter', supported);
  const entries = Object.entries(expressions[0]);
  if (entries.length !== 1) throw new ScimError(400, 'invalidFilter', supported);
  const [name, comparison] = entries[0];
  const attribute = attributes.find((a) => a.toLowerCase() === name.toLowerCase());
  if (!attribute || !Array.isArray(comparison) || String(comparison[0]).toLowerCase() !== 'eq' || comparison.length !== 2) {
    throw new ScimError(400, 'invalidFilter', supported);
  }
  const value = comparison[1];
  if (typeof value !== 'string' || value.length > 255) throw new ScimError(400, 'invalidFilter', `${attribute} must be compared with a string`);
  return { attribute, value };
}

/** The largest page a list answers (RFC 7644 lets the service provider cap `count`). */
export const MAX_PAGE = 100;

/** `startIndex` (from 1) and `count` (0 to MAX_PAGE), as offset and limit. */
export function paging(c: Context): { startIndex: number; offset: number; limit: number } {
  const number = (name: string, fallback: number) => {
    const text = c.req.query(name);
    if (text === undefined || text === '') return fallback;
    if (!/^-?\d{1,9}$/.test(text)) throw new ScimError(400, 'invalidValue', `${name} must be a whole number`);
    return Number(text);
  };
  // Out-of-range values are read as the nearest allowed one, as RFC 7644 section 3.4.2.4 says.
  const startIndex = Math.max(1, number('startIndex', 1));
  const limit = Math.min(MAX_PAGE, Math.max(0, number('count', MAX_PAGE)));
  return { startIndex, offset: startIndex - 1, limit };
}

export function listResponse(page: { total: number; items: unknown[] }, startIndex: number) {
  return { schemas: [LIST_SCHEMA], totalResults: page.total, startIndex, itemsPerPage: page.items.length, Resources: page.items };
}

/** Adds what only the function knows to a resource from SQL: its schemas and location. */
export function withLocation(resource: Record<string, unknown>, baseUrl: string, type: 'User' | 'Group') {
  const meta = { ...(resource.meta as Record<string, unknown>), location: `${baseUrl}/${type}s/${resource.id}` };
  const schemas = type === 'Group'
    ? ['urn:ietf:params:scim:schemas:core:2.0:Group']
    : ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE];
  return { schemas, ...resource, meta };
}

/** Whether `excludedAttributes` (or `attributes`) leaves out a Group's members. */
export function membersWanted(c: Context): boolean {
  const excluded = (c.req.query('excludedAttributes') ?? '').split(',').map((a) => a.trim().toLowerCase());
  if (excluded.includes('members')) return false;
  const only = c.req.query('attributes');
  return only === undefined || only.split(',').map((a) => a.trim().toLowerCase()).includes('members');
}
