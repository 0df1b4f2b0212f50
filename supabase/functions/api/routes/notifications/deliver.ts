// POST /api/notifications/deliver: the schedule's call (pg_cron + pg_net on hosted Supabase,
// platform/scheduler.mjs locally), with the service role key only. The caller middleware (which knows
// visitors and people, not the service role) and the password gate pass it by (app.ts); the key is
// checked here, in constant time. The worker: lib/delivery.ts.
import type { Hono } from 'hono';
import { deliverBodySchema } from '../../../_shared/notifications.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import type { Env } from '../../lib/auth.ts';
import { readBytes, validate } from '../../lib/body.ts';
import { ApiError, unauthorized } from '../../lib/errors.ts';
import { deliverNotifications, type MailConfig, mailConfigFromEnv } from '../../lib/delivery.ts';

/** The path of the schedule's call, as app.ts sees it: its middleware for people passes it by. */
export const SCHEDULE_CALL = { method: 'POST', path: '/api/notifications/deliver' } as const;

const SERVICE_ONLY = 'Only the scheduler may deliver notifications';

/** The same secret, compared in constant time (digests of equal length, every byte compared). */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [a, b] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(given)),
    crypto.subtle.digest('SHA-256', encoder.encode(expected)),
  ]);
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  let difference = 0;
  for (let i = 0; i < x.length; i += 1) difference |= x[i] ^ y[i];
  return difference === 0;
}

/** The key the request carries: the bearer token, else the apikey header. */
function presentedKey(authorization: string | undefined, apikey: string | undefined): string | null {
  if (authorization !== undefined) {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (!match) throw unauthorized('Invalid authorization header');
    return match[1];
  }
  return apikey ?? null;
}

/** The schedule's body: pg_net sends '{}'; an empty body takes the defaults too. 413 past 4 KB. */
async function deliverBody(request: Request): Promise<{ max?: number }> {
  if (request.body === null) return {};
  const bytes = await readBytes(request, 4096);
  if (bytes.byteLength === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ApiError(400, 'Invalid JSON body');
  }
  return validate(deliverBodySchema, value);
}

/** mail: the SMTP settings; by default read from the environment at each call (SMTP_*, SITE_URL). */
export function deliverRoutes(routes: Hono<Env>, config: Config, db: Db, mail?: MailConfig | null) {
  routes.post('/deliver', async (c) => {
    const key = presentedKey(c.req.header('authorization'), c.req.header('apikey'));
    if (key === null) throw unauthorized();
    if (!(await sameSecret(key, config.serviceRoleKey))) throw new ApiError(403, SERVICE_ONLY);
    const { max } = await deliverBody(c.req.raw);
    const smtp = mail === undefined ? mailConfigFromEnv() : mail;
    if (!smtp) throw new ApiError(503, 'Email is not set up: the function has no SMTP_HOST');
    const result = await deliverNotifications(db, config, smtp, { max });
    return c.json(result, 200, { 'cache-control': 'no-store' });
  });
}
