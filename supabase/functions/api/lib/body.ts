// Reading and validating JSON bodies: 400 'Invalid JSON body', 413 over the cap, 400 with field
// messages from the shared zod schemas.
import type { Context } from 'hono';
import type { z } from 'zod';
import { fieldErrors } from '../../_shared/schemas.ts';
import { ApiError } from './errors.ts';

export const MAX_JSON_BYTES = 1024 * 1024;

const tooLarge = () => new ApiError(413, 'Request body is too large');

/** Reads the raw body, refusing (413) once it passes `max` bytes. */
export async function readBytes(request: Request, max: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) throw tooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
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

/** Top-level keys of a JSON object body that the schema does not declare. */
function unknownKeys(schema: z.ZodType, value: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (!shape || value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.keys(value).filter((key) => !Object.hasOwn(shape, key));
}

export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  // Postgres refuses NUL in text: refused here as bad input, never a database error (a 500).
  const unsafe = unsafeText(value, '');
  if (unsafe !== null) throw new ApiError(400, 'Validation failed', { [unsafe || '_']: UNSAFE_TEXT });
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(400, 'Validation failed', fieldErrors(result.error));
  return result.data;
}

/** readJson + validate. A body field the endpoint does not take (a learner's role, score or
 * author, say) is refused, not silently dropped, so a client learns at once it cannot set it. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const value = await readJson(c);
  const unknown = unknownKeys(schema, value);
  if (unknown.length > 0) {
    // Only plain names are echoed back; anything else is reported under '_'.
    const name = (key: string) => (/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(key) ? key : '_');
    const fields = Object.fromEntries(unknown.slice(0, 20).map((key) => [name(key), 'This field cannot be set here']));
    throw new ApiError(400, 'Validation failed', fields);
  }
  return validate(schema, value);
}
