// Reading and validating JSON bodies: 400 'Invalid JSON body', 413 over the cap, 400 with field
// messages from the shared zod schemas.
import type { Context } from 'hono';
import type { z } from 'zod';
import { fieldErrors } from '../../_shared/schemas.ts';
import { ApiError } from './errors.ts';

export const MAX_JSON_BYTES = 1024 * 1024;

const tooLarge = () => new ApiError(413, 'Request body is too large');

/**
 * Reads the raw body, refusing (413) once it passes `max` bytes: at once when Content-Length says so
 * (nothing read), else as soon as the stream passes it, so at most `max` bytes are ever held.
 * `refuse` words the 413: it gets the declared length, or null when the stream passed the limit.
 */
export async function readBytes(
  request: Request,
  max: number,
  refuse: (declared: number | null) => ApiError = tooLarge,
): Promise<Uint8Array> {
  const length = request.headers.get('content-length');
  const declared = length === null || length.trim() === '' ? NaN : Number(length);
  if (Number.isFinite(declared) && declared > max) throw refuse(declared);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  // With a declared length the bytes go straight into one buffer of that size: no second copy
  // when the chunks are joined (a SCORM package is up to the site's limit, hundreds of MB).
  if (Number.isSafeInteger(declared) && declared > 0) {
    const bytes = new Uint8Array(declared);
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > declared) {
        await reader.cancel().catch(() => {});
        throw new ApiError(400, 'The body is longer than its Content-Length');
      }
      bytes.set(value, size);
      size += value.byteLength;
    }
    return size === declared ? bytes : bytes.subarray(0, size);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw refuse(null);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type)) {
    throw new ApiError(400, 'Invalid JSON body');
  }
  const bytes = await readBytes(c.req.raw, MAX_JSON_BYTES);
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ApiError(400, 'Invalid JSON body');
  }
}

const UNSAFE_TEXT = 'Contains characters that are not allowed';

/** The path of the first string (value or key) that Postgres text cannot hold or that is not
 * well-formed UTF-16 (a NUL character, a lone surrogate), or null when there is none. */
function unsafeText(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') || !value.isWellFormed() ? path : null;
  if (depth > 64 || value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000') || !key.isWellFormed()) return path || '_';
    const found = unsafeText(item, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** Fields that decide who someone is, what they own or what they achieved. A body that carries one
 * its endpoint does not take is refused (400), not silently stripped, so a client learns at once
 * that it cannot set it. Other undeclared fields (say `updatedAt` from a GET sent back) are ignored. */
const PROTECTED_FIELDS = new Set([
  'role', 'roles', 'services', 'progress', 'completed', 'completedAt', 'score', 'maxScore', 'passed',
  'author', 'authorId', 'author_id', 'userId', 'user_id', 'status', 'createdBy', 'created_by', 'revokedAt',
  'revokedBy', 'expiresAt', 'issuedAt', 'cycle', 'verificationCode', 'isAdmin', 'admin',
]);

/** Protected top-level keys of a JSON object body that the schema does not declare. */
function forbiddenKeys(schema: z.ZodType, value: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (!shape || value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.keys(value).filter((key) => PROTECTED_FIELDS.has(key) && !Object.hasOwn(shape, key));
}

export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  // Postgres refuses NUL in text: refused here as bad input, never a database error (a 500).
  const unsafe = unsafeText(value, '');
  if (unsafe !== null) throw new ApiError(400, 'Validation failed', { [unsafe || '_']: UNSAFE_TEXT });
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(400, 'Validation failed', fieldErrors(result.error));
  return result.data;
}

/** readJson + validate, refusing protected fields the endpoint does not take. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  return checkedBody(schema, await readJson(c));
}

/** validate, refusing protected fields the endpoint does not take (for a body already read). */
export function checkedBody<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const forbidden = forbiddenKeys(schema, value);
  if (forbidden.length > 0) {
    throw new ApiError(400, 'Validation failed', Object.fromEntries(forbidden.map((key) => [key, 'This field cannot be set here'])));
  }
  return validate(schema, value);
}

/** Optional JSON body: none (or empty) is false (read as {}); anything sent must be JSON, else 415. */
export function optionalJson(c: Context): boolean {
  const length = c.req.header('content-length');
  const type = c.req.header('content-type');
  if (!type && (length === undefined || length === '0')) return false;
  if (!type && length !== '0') throw new ApiError(415, 'Send the body as application/json');
  return true;
}
