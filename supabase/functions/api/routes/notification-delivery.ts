// Email delivery of notifications:
// - POST /api/notifications/deliver: the schedule's call (pg_cron + pg_net on hosted Supabase,
//   platform/scheduler.mjs locally), with the service role key only. It is mounted before the caller
//   middleware (which knows visitors and people, not the service role) and checks the key itself,
//   in constant time. The worker: lib/delivery.ts.
// - GET /api/notifications/deliveries and POST /api/notifications/:id/resend: the administrators'
//   Delivery list and its resend, as the caller: row-level security shows a national administrator
//   every notice and an organisation's administrator its people's; private.resend_notification_email
//   checks the same and audits the resend.
import { Hono } from 'hono';
import {
  type Delivery,
  deliverBodySchema,
  deliveryListQuerySchema,
  type DeliveryPage,
  type EmailStatus,
} from '../../_shared/notifications.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Statements } from '../lib/db.ts';
import type { Env } from '../lib/auth.ts';
import { readBytes, validate } from '../lib/body.ts';
import { ApiError, fromSqlFunction, unauthorized } from '../lib/errors.ts';
import { asPeopleAdmin } from '../lib/admin.ts';
import { firstQueryValues, pathId } from '../lib/params.ts';
import { deliverNotifications, type MailConfig, mailConfigFromEnv } from '../lib/delivery.ts';

const NOTICE_NOT_FOUND = 'Notification not found';
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

/** mail: the SMTP settings; by default read from the environment at each call (SMTP_*, SITE_URL). */
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

export function notificationDeliverRoutes(config: Config, db: Db, mail?: MailConfig | null) {
  const routes = new Hono<Env>();

  routes.post('/', async (c) => {
    const key = presentedKey(c.req.header('authorization'), c.req.header('apikey'));
    if (key === null) throw unauthorized();
    if (!(await sameSecret(key, config.serviceRoleKey))) throw new ApiError(403, SERVICE_ONLY);
    const { max } = await deliverBody(c.req.raw);
    const smtp = mail === undefined ? mailConfigFromEnv() : mail;
    if (!smtp) throw new ApiError(503, 'Email is not set up: the function has no SMTP_HOST');
    const result = await deliverNotifications(db, config, smtp, { max });
    return c.json(result, 200, { 'cache-control': 'no-store' });
  });

  return routes;
}

interface DeliveryRow {
  id: string;
  kind: string;
  title: string;
  emailStatus: EmailStatus;
  emailAttempts: number;
  emailLastError: string | null;
  createdAt: Date;
  emailSentAt: Date | null;
  emailNextAttemptAt: Date | null;
  recipientId: string;
  recipientName: string;
  recipientEmail: string;
  total: number;
}

function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    status: row.emailStatus,
    attempts: row.emailAttempts,
    lastError: row.emailLastError,
    createdAt: isoTimestamp(row.createdAt)!,
    sentAt: isoTimestamp(row.emailSentAt),
    nextAttemptAt: row.emailStatus === 'queued' ? isoTimestamp(row.emailNextAttemptAt) : null,
    recipient: { id: row.recipientId, name: row.recipientName, email: row.recipientEmail },
  };
}

/** The Delivery list's columns (row-level security keeps an administrator to their people). */
function selectDeliveries(tx: Statements, where: { id?: string; status?: EmailStatus }, limit: number, offset: number) {
  return tx<DeliveryRow[]>`
    select n.id, n.kind, n.title, n.email_status, n.email_attempts, n.email_last_error, n.created_at,
           n.email_sent_at, n.email_next_attempt_at, p.id as recipient_id, p.name as recipient_name,
           p.email as recipient_email, count(*) over ()::int as total
    from public.notifications n
    join public.profiles p on p.id = n.recipient_id
    where true
    ${where.id ? tx`and n.id = ${where.id}::uuid` : tx``}
    ${where.status ? tx`and n.email_status = ${where.status}` : tx``}
    order by n.created_at desc, n.id desc
    limit ${limit} offset ${offset}`;
}

export function notificationDeliveryRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/deliveries', async (c) => {
    const { page, pageSize, status } = validate(deliveryListQuerySchema, firstQueryValues(c));
    const rows = await asPeopleAdmin(db, c, (tx) => selectDeliveries(tx, { status }, pageSize, (page - 1) * pageSize));
    let total = rows[0]?.total ?? 0;
    if (rows.length === 0 && page > 1) {
      // Past the last page: the total still says how many there are.
      const [count] = await asPeopleAdmin(db, c, (tx) => tx<{ total: number }[]>`
        select count(*)::int as total from public.notifications n
        where ${status ?? null}::text is null or n.email_status = ${status ?? null}`);
      total = count.total;
    }
    const body: DeliveryPage = { items: rows.map(toDelivery), total, page, pageSize };
    return c.json(body);
  });

  routes.post('/:id/resend', async (c) => {
    const id = pathId(c, 'id', NOTICE_NOT_FOUND);
    const [row] = await asPeopleAdmin(db, c, async (tx) => {
      await tx`select private.resend_notification_email(${id}::uuid)`;
      return selectDeliveries(tx, { id }, 1, 0);
    }).catch(fromSqlFunction);
    if (!row) throw new ApiError(404, NOTICE_NOT_FOUND);
    return c.json(toDelivery(row));
  });

  return routes;
}
