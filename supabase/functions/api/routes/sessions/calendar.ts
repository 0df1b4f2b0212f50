// /api/instructor/sessions?from=&to=&page=&pageSize=: the caller's sessions (those they train, author
// the course of, or administer the organisation of; every one for a national admin) starting on the
// London days from..to (absent: today and the 31 days after), by start, paged: the month and list
// views of the instructor's calendar.
import { Hono } from 'hono';
import { z } from 'zod';
import { isoDate, londonToday } from '../../../_shared/dates.ts';
import { calendarQuerySchema, type SessionCalendarPage } from '../../../_shared/sessions.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { firstQueryValues, pageFields, pagingQuery } from '../../lib/params.ts';
import type { Row } from '../../lib/learning.ts';
import { sessionColumns, sessionsOf } from './queries.ts';

const calendarPageSchema = z.intersection(calendarQuerySchema, z.object(pageFields));

export function sessionCalendarRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const query = pagingQuery(calendarPageSchema, firstQueryValues(c));
    const { page, pageSize } = query;
    const from = query.from ?? londonToday();
    const to = query.to ?? isoDate(new Date(Date.parse(`${from}T12:00:00Z`) + 31 * 86_400_000));
    const answer = await db.withCaller(caller.db, async (tx): Promise<SessionCalendarPage> => {
      const rows = await tx<Row[]>`
        select ${sessionColumns(tx)}, c.title as course_title, m.title as module_title, count(*) over () as total
        from public.classroom_sessions s
        join public.course_modules m on m.id = s.module_id
        join public.courses c on c.id = s.course_id
        where ((select private.is_admin()) or s.id in (select private.run_session_ids()))
          and s.starts_at >= (${from}::date)::timestamp at time zone 'Europe/London'
          and s.starts_at < (${to}::date + 1)::timestamp at time zone 'Europe/London'
        order by s.starts_at, s.id
        limit ${pageSize} offset ${(page - 1) * pageSize}`;
      const sessions = await sessionsOf(tx, rows);
      return {
        items: sessions.map((s, i) => ({ ...s, courseTitle: String(rows[i].courseTitle), moduleTitle: String(rows[i].moduleTitle) })),
        total: rows.length > 0 ? Number(rows[0].total) : 0,
        page,
        pageSize,
      };
    });
    return c.json(answer);
  });

  return routes;
}
