// The one error type the routes throw; app.onError turns it into `{ message, fields? }`.
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const unauthorized = (message = 'Not signed in') => new ApiError(401, message);

/** The code, hint and detail of a Postgres error (null for anything else). */
export interface PgErrorLike {
  code?: string;
  hint?: string;
  detail?: string;
  constraint_name?: string;
}
export function pgError(error: unknown): PgErrorLike | null {
  return error && typeof error === 'object' && 'code' in error && typeof (error as PgErrorLike).code === 'string'
    ? (error as PgErrorLike)
    : null;
}

/**
 * The refusals the SQL functions raise on purpose (42501, P0002, 55000) as 403, 404 and 409 with
 * their own message; any other database error text (a policy, a relation name) never reaches the client.
 */
export function fromSqlFunction(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  const raised = (error as { routine?: unknown })?.routine === 'exec_stmt_raise';
  const message = raised ? (error as { message?: string })?.message ?? '' : '';
  if (code === '42501') throw new ApiError(403, message || 'Forbidden');
  if (code === 'P0002') throw new ApiError(404, message || 'Not found');
  if (code === '55000') throw new ApiError(409, message || 'Conflict');
  throw error;
}

/**
 * The field a refusal of Supabase Auth's before-user-created hook is about (its messages begin with
 * the field's name, as private.before_user_created writes them), for the 400's `fields`.
 */
export function authFieldError(message: string): Record<string, string> | undefined {
  const field = /^(Name|Username)\b/.exec(message)?.[1].toLowerCase();
  return field ? { [field]: message } : undefined;
}
