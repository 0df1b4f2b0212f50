// GET /api/notifications, POST /read-all and PUT /:id/read: the caller's own notices (the bell's
// list), marking one or all as read. Runs as the caller: notifications' policies show only their own
// and let them change only read_at. Notices are written by private.decide_notifications
// (15_notifications.sql), run by the scheduler, never here. The preferences:
// routes/notification-preferences.ts.
import type { Hono } from 'hono';
import {
  type AnyNotificationKind,
  type Notification,
  notificationListQuerySchema,
  type NotificationPage,
} from '../../../_shared/notifications.ts';
import { isoTimestamp } from '../../../_shared/dates.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { validate } from '../../lib/body.ts';
import { ApiError } from '../../lib/errors.ts';
import { clientIp, takeAttempt } from '../../lib/rate-limit.ts';
import { firstQueryValues, pathId } from '../../lib/params.ts';

export const NOTICE_NOT_FOUND = 'Notification not found';

interface NoticeRow {
  id: string;
  kind: AnyNotificationKind;
  title: string;
  body: string;
  linkPath: string | null;
  createdAt: Date;
  readAt: Date | null;
  total: number;
}

function toNotification(row: NoticeRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    linkPath: row.linkPath,
    createdAt: isoTimestamp(row.createdAt)!,
    readAt: isoTimestamp(row.readAt),
  };
}

export function myNotificationRoutes(routes: Hono<Env>, db: Db) {
  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const { page, pageSize, unread } = validate(notificationListQuerySchema, firstQueryValues(c));
    const result = await db.withCaller(caller.db, async (tx) => {
      const rows = await tx<NoticeRow[]>`
        select id, kind, title, body, link_path, created_at, read_at, count(*) over ()::int as total
        from public.notifications
        where recipient_id = ${caller.userId}::uuid and (${!unread} or read_at is null)
        order by created_at desc, id desc
        limit ${pageSize} offset ${(page - 1) * pageSize}`;
      const [counts] = await tx<{ unread: number; total: number }[]>`
        select count(*) filter (where read_at is null)::int as unread,
               count(*) filter (where ${!unread} or read_at is null)::int as total
        from public.notifications where recipient_id = ${caller.userId}::uuid`;
      return { rows, counts };
    });
    const body: NotificationPage = {
      items: result.rows.map(toNotification),
      total: result.rows[0]?.total ?? result.counts.total,
      unreadCount: result.counts.unread,
      page,
      pageSize,
    };
    return c.json(body);
  });

  routes.post('/read-all', async (c) => {
    const caller = requireUser(c);
    // A person's writes here are limited (60 in 10 minutes), each write counted.
    await takeAttempt(db, 'notifications', caller.userId, clientIp(c));
    const marked = await db.withCaller(caller.db, (tx) => tx`
      update public.notifications set read_at = now()
      where recipient_id = ${caller.userId}::uuid and read_at is null returning id`);
    return c.json({ marked: marked.length, unreadCount: 0 });
  });

  routes.put('/:id/read', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NOTICE_NOT_FOUND);
    const [row] = await db.withCaller(caller.db, (tx) => tx<NoticeRow[]>`
      update public.notifications set read_at = coalesce(read_at, now())
      where id = ${id}::uuid and recipient_id = ${caller.userId}::uuid
      returning id, kind, title, body, link_path, created_at, read_at, 0 as total`);
    if (!row) throw new ApiError(404, NOTICE_NOT_FOUND);
    return c.json(toNotification(row));
  });
}
