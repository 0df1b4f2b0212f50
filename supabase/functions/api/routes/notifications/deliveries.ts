// GET /api/notifications/deliveries and POST /api/notifications/:id/resend: the administrators'
// Delivery list and its resend, as the caller: row-level security shows a national administrator
// every notice and an organisation's administrator its people's; private.resend_notification_email
// checks the same and audits the resend.
import type { Hono } from 'hono';
import { type Delivery, deliveryListQuerySchema, type DeliveryPage, type EmailStatus } from '../../../_shared/notifications.ts';
import { isoTimestamp } from '../../../_shared/dates.ts';
import type { Db, Statements } from '../../lib/db.ts';
import type { Env } from '../../lib/auth.ts';
import { validate } from '../../lib/body.ts';
import { ApiError, fromSqlFunction } from '../../lib/errors.ts';
import { asPeopleAdmin } from '../../lib/admin.ts';
import { firstQueryValues, pathId } from '../../lib/params.ts';
import { NOTICE_NOT_FOUND } from './mine.ts';

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

export function deliveryRoutes(routes: Hono<Env>, db: Db) {
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
}
