// Sign-in and registration limits, counted in the database (private.rate_limit_take) so they hold
// across every instance of the function. The rules live in the migration 20260370000000_rate_limits.
import type { Context } from 'hono';
import type { Db } from './db.ts';
import { ApiError } from './errors.ts';

export type RateLimitedAction = 'sign_in' | 'register';

export const TOO_MANY_SIGN_INS = 'Too many sign-in attempts. Please wait a few minutes and try again.';
export const TOO_MANY_REGISTRATIONS = 'Too many sign-up attempts. Please wait a while and try again.';

/**
 * The client's address: the first value of X-Forwarded-For. Only the platform's gateway sets it
 * (it replaces whatever the client sent with the peer address); on hosted Supabase the API gateway
 * does the same for Edge Functions.
 */
export function clientIp(c: Context): string {
  const first = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
  return first ? first.slice(0, 100) : '';
}

/** 429 with Retry-After in seconds. */
export function tooMany(action: RateLimitedAction, retryAfter: number): ApiError {
  return new ApiError(429, action === 'sign_in' ? TOO_MANY_SIGN_INS : TOO_MANY_REGISTRATIONS, undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfter))),
  });
}

/**
 * Counts and records one attempt, or throws 429. Returns the attempt's ticket; pass it to
 * `succeeded` when a sign-in works, so that only failures count.
 */
export async function takeAttempt(db: Db, action: RateLimitedAction, account: string | null, address: string): Promise<string> {
  const row = await db.withServiceRole(async (tx) => {
    const [result] = await tx<{ retryAfter: number; ticket: string | null }[]>`
      select retry_after, ticket::text as ticket from private.rate_limit_take(${action}, ${account}, ${address})`;
    return result;
  });
  if (row.retryAfter > 0 || row.ticket === null) throw tooMany(action, row.retryAfter);
  return row.ticket;
}

/** A sign-in worked: its attempt and the account's earlier failures stop counting. */
export async function succeeded(db: Db, ticket: string): Promise<void> {
  await db.withServiceRole((tx) => tx`select private.rate_limit_succeeded(${ticket}::bigint)`);
}
