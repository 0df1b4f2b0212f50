// /api/modules/:moduleId/sessions: a session module's dates (learners: the next ones they may book,
// with the places left and their own booking; the people who run them: every date with its bookings counted)
// and adding a date (private.create_session). /api/modules/:moduleId/booking: booking a date or
// joining its waiting list (private.book_session, the session row locked so the last place goes once).
import { Hono } from 'hono';
import { bookingSchema, moduleSessionsQuerySchema, sessionCreateSchema } from '../../../_shared/sessions.ts';
import type { Config } from '../../lib/config.ts';
import type { Db, Tx } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody } from '../../lib/body.ts';
import { ApiError } from '../../lib/errors.ts';
import { firstQueryValues, pagingQuery, pathId } from '../../lib/params.ts';
import type { Row } from '../../lib/learning.ts';
import { callBooking, fromSessionFunction, MSG, myBookingOfModule, sessionColumns, sessionsOf } from './queries.ts';

/** The module as the caller sees it (its course visible), and whether the caller may add dates to it. */
async function sessionModule(tx: Tx, moduleId: string): Promise<{ courseId: string; canAdd: boolean }> {
  const [module] = await tx<Row[]>`
    select m.course_id, m.kind,
           private.may_manage_sessions(m.course_id, coalesce(c.organisation_id, private.current_organisation_id())) as can_add
    from public.course_modules m join public.courses c on c.id = m.course_id
    where m.id = ${moduleId}::uuid`;
  if (!module) throw new ApiError(404, MSG.moduleNotFound);
  if (module.kind !== 'session') throw new ApiError(404, MSG.notSessionModule);
  return { courseId: String(module.courseId), canAdd: Boolean(module.canAdd) };
}

export function moduleSessionRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  // The whole answer is private.module_sessions' JSON, sent as Postgres wrote it: one statement in
  // one round trip (db.read), the caller's reach decided once, nothing parsed and written again here.
  // The module is read under the caller's row-level security (its course visible), as before.
  // ?limit= (1 to 100, default 12): how many of the next dates a learner gets.
  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const moduleId = pathId(c, 'moduleId', MSG.moduleNotFound);
    const { limit } = pagingQuery(moduleSessionsQuerySchema, firstQueryValues(c));
    const [[module]] = await db.read(caller.db, (sql) => [
      sql<{ kind: string; answer: string | null }[]>`
        select m.kind, case when m.kind = 'session' then private.module_sessions(m.id, now(), ${limit}::int)::text end as answer
        from public.course_modules m where m.id = ${moduleId}::uuid`,
    ]);
    if (!module) throw new ApiError(404, MSG.moduleNotFound);
    if (module.kind !== 'session' || module.answer === null) throw new ApiError(404, MSG.notSessionModule);
    return c.body(module.answer, 200, { 'content-type': 'application/json' });
  });

  routes.post('/', async (c) => {
    const caller = requireUser(c);
    const moduleId = pathId(c, 'moduleId', MSG.moduleNotFound);
    const input = await jsonBody(c, sessionCreateSchema);
    const session = await db.withCaller(caller.db, async (tx) => {
      await sessionModule(tx, moduleId);
      const [created] = await tx<Row[]>`
        select id from private.create_session(${moduleId}::uuid, ${input.startsAt}::timestamptz, ${input.endsAt}::timestamptz,
          ${input.venueName ?? null}::text, ${input.venueAddress ?? null}::text, ${input.onlineUrl ?? null}::text, ${input.capacity}::int,
          ${input.bookingClosesAt}::timestamptz, ${input.note ?? null}::text, ${input.organisationId}::uuid,
          ${input.trainerIds ?? []}::uuid[])`.catch(fromSessionFunction);
      const rows = await tx<Row[]>`select ${sessionColumns(tx)} from public.classroom_sessions s where s.id = ${String(created.id)}::uuid`;
      return (await sessionsOf(tx, rows))[0];
    });
    return c.json(session, 201);
  });

  return routes;
}

export function moduleBookingRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  // 201 with the booking: booked, requested (the manager asked) or waiting; the date booked already: 200.
  routes.post('/', async (c) => {
    const caller = requireUser(c);
    const moduleId = pathId(c, 'moduleId', MSG.moduleNotFound);
    const { sessionId } = await jsonBody(c, bookingSchema);
    const { booking, existed } = await db.withCaller(caller.db, async (tx) => {
      await sessionModule(tx, moduleId);
      const [session] = await tx<Row[]>`select s.module_id from public.classroom_sessions s where s.id = ${sessionId}::uuid`;
      if (!session || session.moduleId !== moduleId) {
        throw new ApiError(404, MSG.sessionNotFound, { sessionId: MSG.sessionNotFound });
      }
      const before = await myBookingOfModule(tx, moduleId, caller.userId);
      const booking = await callBooking(tx<Row[]>`select * from private.book_session(${sessionId}::uuid)`);
      return { booking, existed: before?.id === booking.id };
    });
    return c.json(booking, existed ? 200 : 201);
  });

  return routes;
}
