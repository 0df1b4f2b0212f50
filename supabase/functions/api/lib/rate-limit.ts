// Sign-in, registration, notification-write and credential-verification limits, counted in the database (private.rate_limit_take) so they hold
// across every instance of the function. The rules live in supabase/schemas/11_rate_limits.sql.
import type { Context } from 'hono';
import type { Db } from './db.ts';
import { ApiError } from './errors.ts';

export type RateLimitedAction = 'sign_in' | 'register' | 'notifications' | 'verify_credential';

export const TOO_MANY_SIGN_INS = 'Too many sign-in attempts. Please wait a few minutes and try again.';
export const TOO_MANY_REGISTRATIONS = 'Too many sign-up attempts. Please wait a while and try again.';
export const TOO_MANY_NOTIFICATION_WRITES = 'Too many changes to your notifications. Please wait a few minutes and try again.';
export const TOO_MANY_VERIFICATIONS = 'Too many credentials checked from this address. Please wait a few minutes and try again.';

const TOO_MANY: Record<RateLimitedAction, string> = {
  sign_in: TOO_MANY_SIGN_INS,
  register: TOO_MANY_REGISTRATIONS,
  notifications: TOO_MANY_NOTIFICATION_WRITES,
  verify_credential: TOO_MANY_VERIFICATIONS,
};

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
  return new ApiError(429, TOO_MANY[action], undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfter))),
  });
}

/**
 * Counts and records one attempt, or throws 429. Returns the attempt's ticket; pass it to
 * `succeeded` when a sign-in works, so that only failures count.
 */
export async function takeAttempt(
  db: Db,
  action: RateLimitedAction,
  account: string | null,
  address: string,
  device: string | null = null,
): Promise<string> {
  const deviceHash = device ? await sha256Hex(device) : null;
  const row = await db.withServiceRole(async (tx) => {
    const [result] = await tx<{ retryAfter: number; ticket: string | null }[]>`
      select retry_after, ticket::text as ticket from private.rate_limit_take(${action}, ${account}, ${address}, ${deviceHash})`;
    return result;
  });
  if (row.retryAfter > 0 || row.ticket === null) throw tooMany(action, row.retryAfter);
  return row.ticket;
}

/**
 * A sign-in worked: its attempt and the account's earlier failures stop counting. With a device
 * token, that browser becomes known for the account: its own failures are then counted apart, so
 * nobody else's guessing can refuse the owner's correct password there
 * (supabase/schemas/11_rate_limits.sql).
 */
export async function succeeded(db: Db, ticket: string, device: string | null = null): Promise<void> {
  const deviceHash = device ? await sha256Hex(device) : null;
  await db.withServiceRole((tx) => tx`select private.rate_limit_succeeded(${ticket}::bigint, ${deviceHash})`);
}

/** A new known-device token for a browser: 32 random bytes, base64url (43 characters). */
export function newDeviceToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Hex of the SHA-256 of a text's UTF-8 bytes. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
