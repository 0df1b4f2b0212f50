// Path and query parameters, read one way by every route.
import type { Context } from 'hono';
import { z } from 'zod';
import { UUID_PATTERN } from '../../_shared/ids.ts';
import { ApiError } from './errors.ts';

/**
 * A path id (lower-cased). Anything but a uuid names no row, so it is simply not found: a 404 with
 * the resource's message, never a database cast error.
 */
export function pathId(c: Context, name: string, notFound: string): string {
  const value = c.req.param(name) ?? '';
  if (!UUID_PATTERN.test(value)) throw new ApiError(404, notFound);
  return value.toLowerCase();
}

/** The first value of each query parameter (`?a=1&a=2` reads as `a=1`), for a zod schema. */
export function firstQueryValues(c: Context): Record<string, string> {
  return Object.fromEntries(Object.entries(c.req.queries()).map(([key, values]) => [key, values[0] ?? '']));
}

/** `page` (from 1) and `pageSize` (1..100, 20 by default) of the instructor's and compliance lists. */
export const pageFields = {
  page: z.coerce.number({ error: 'Page must be a whole number from 1' }).int('Page must be a whole number from 1')
    .min(1, 'Page must be a whole number from 1').max(100000, 'Page is too large').default(1),
  pageSize: z.coerce.number({ error: 'Page size must be between 1 and 100' }).int('Page size must be between 1 and 100')
    .min(1, 'Page size must be between 1 and 100').max(100, 'Page size must be between 1 and 100').default(20),
};

/** Query parameters checked by a schema whose every issue names one field: 400 with the first message of each. */
export function pagingQuery<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    throw new ApiError(400, 'Validation failed', fields);
  }
  return parsed.data;
}
