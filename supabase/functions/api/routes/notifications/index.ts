// /api/notifications: one router for the notices. The learner's own (./mine.ts: the bell's list,
// marking read), the administrators' Delivery list and resend (./deliveries.ts), and the schedule's
// call that emails them (./deliver.ts, service role key only). The preferences are the caller's
// own resource: routes/notification-preferences.ts at /me/notification-preferences.
import { Hono } from 'hono';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import type { Env } from '../../lib/auth.ts';
import type { MailConfig } from '../../lib/delivery.ts';
import { deliverRoutes } from './deliver.ts';
import { myNotificationRoutes } from './mine.ts';
import { deliveryRoutes } from './deliveries.ts';

/** mail: the SMTP settings for the schedule's call; by default read from the environment at each call. */
export function notificationRoutes(config: Config, db: Db, mail?: MailConfig | null) {
  const routes = new Hono<Env>();
  deliverRoutes(routes, config, db, mail);
  myNotificationRoutes(routes, db);
  deliveryRoutes(routes, db);
  return routes;
}
