// /api/me/notification-preferences: the caller's email choice per notification kind and their
// language (en-GB for now). Only their own row (notification_preferences' policies); switching off
// the email of an overdue or expiry kind is refused with 400 on that field (the schema in
// _shared/notifications.ts, and the table's check behind it).
import { Hono } from 'hono';
import {
  emailOffKinds,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationPreferences,
  notificationPreferencesSchema,
} from '../../_shared/notifications.ts';
import type { Config } from '../lib/config.ts';
import type { Db } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { clientIp, takeAttempt } from '../lib/rate-limit.ts';

function toPreferences(row: { language: string; emailOff: string[] } | undefined): NotificationPreferences {
  const off = new Set(row?.emailOff ?? []);
  return {
    language: 'en-GB',
    email: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, !off.has(kind)])) as Record<NotificationKind, boolean>,
  };
}

export function notificationPreferenceRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const [row] = await db.withCaller(caller.db, (tx) => tx<{ language: string; emailOff: string[] }[]>`
      select language, email_off from public.notification_preferences where user_id = ${caller.userId}::uuid`);
    return c.json(toPreferences(row));
  });

  routes.put('/', async (c) => {
    const caller = requireUser(c);
    // A person's writes here are limited (60 in 10 minutes), each write counted.
    await takeAttempt(db, 'notifications', caller.userId, clientIp(c));
    const input = await jsonBody(c, notificationPreferencesSchema);
    const off = emailOffKinds(input.email);
    const [row] = await db.withCaller(caller.db, (tx) => tx<{ language: string; emailOff: string[] }[]>`
      insert into public.notification_preferences (language, email_off)
      values (${input.language}, ${off}::text[])
      on conflict (user_id) do update set language = excluded.language, email_off = excluded.email_off
      returning language, email_off`);
    return c.json(toPreferences(row));
  });

  return routes;
}
