// /api/sessions/:id: one date with its bookings, waiting list and register for those who keep it;
// changing it (PATCH, private.update_session), cancelling it with a reason (private.cancel_session),
// its bookings as CSV, walk-ins (private.add_walk_in) and the people a walk-in may be. The register's
// marks are in register.ts.
import { Hono } from 'hono';
import { attachmentDisposition, CSV_CONTENT_TYPE, csvDate, csvTime, toCsv } from '../../../_shared/csv.ts';
import {
  SESSION_CSV_HEADER, type SessionDetail, sessionCancelSchema, sessionMergedSchema, sessionPeopleQuerySchema,
  type SessionPerson, sessionUpdateSchema, walkInSchema,
} from '../../../_shared/sessions.ts';
import type { Config } from '../../lib/config.ts';
import type { Db, Tx } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { checkedBody, jsonBody, validate } from '../../lib/body.ts';
import { ApiError } from '../../lib/errors.ts';
import { firstQueryValues, pathId } from '../../lib/params.ts';
import type { Row } from '../../lib/learning.ts';
import {
  callBooking, fromSessionFunction, MSG, readRegister, sessionColumns, sessionsOf, toBooking,
} from './queries.ts';

/** The session as the caller sees it, with its course and module titles: 404 when they do not. */
async function readSession(tx: Tx, id: string, userId: string): Promise<SessionDetail> {
  const rows = await tx<Row[]>`
    select ${sessionColumns(tx)}, c.title as course_title, m.title as module_title
    from public.classroom_sessions s
    join public.course_modules m on m.id = s.module_id
    join public.courses c on c.id = s.course_id
    where s.id = ${id}::uuid`;
  if (rows.length === 0) throw new ApiError(404, MSG.sessionNotFound);
  const [session] = await sessionsOf(tx, rows);
  const [mine] = await tx<Row[]>`
    select * from public.session_bookings b where b.session_id = ${id}::uuid and b.user_id = ${userId}::uuid
    order by b.updated_at desc, b.id limit 1`;
  return {
    ...session,
    courseTitle: String(rows[0].courseTitle),
    moduleTitle: String(rows[0].moduleTitle),
    myBooking: mine ? toBooking(mine) : null,
    register: session.keepsRegister ? await readRegister(tx, id) : null,
  };
}

export function sessionRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.sessionNotFound);
    return c.json(await db.withCaller(caller.db, (tx) => readSession(tx, id, caller.userId)));
  });

  routes.patch('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.sessionNotFound);
    const change = await jsonBody(c, sessionUpdateSchema);
    const session = await db.withCaller(caller.db, async (tx) => {
      const current = await readSession(tx, id, caller.userId);
      // The fields not sent stay as they are; the whole is checked as a new date is.
      const merged = checkedBody(sessionMergedSchema, {
        startsAt: change.startsAt ?? current.startsAt,
        endsAt: change.endsAt ?? current.endsAt,
        venueName: change.venueName !== undefined ? change.venueName : current.venueName,
        venueAddress: change.venueAddress !== undefined ? change.venueAddress : current.venueAddress,
        onlineUrl: change.onlineUrl !== undefined ? change.onlineUrl : current.onlineUrl,
        capacity: change.capacity ?? current.capacity,
        bookingClosesAt: change.bookingClosesAt !== undefined ? change.bookingClosesAt : current.bookingClosesAt,
        note: change.note !== undefined ? change.note : current.note,
      });
      await tx`
        select private.update_session(${id}::uuid, ${merged.startsAt}::timestamptz, ${merged.endsAt}::timestamptz,
          ${merged.venueName ?? null}::text, ${merged.venueAddress ?? null}::text, ${merged.onlineUrl ?? null}::text, ${merged.capacity}::int,
          ${merged.bookingClosesAt}::timestamptz, ${merged.note ?? null}::text, ${change.trainerIds ?? null}::uuid[])`
        .catch(fromSessionFunction);
      return await readSession(tx, id, caller.userId);
    });
    return c.json(session);
  });

  routes.post('/:id/cancel', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.sessionNotFound);
    const { reason } = await jsonBody(c, sessionCancelSchema);
    const session = await db.withCaller(caller.db, async (tx) => {
      await tx`select private.cancel_session(${id}::uuid, ${reason})`.catch(fromSessionFunction);
      return await readSession(tx, id, caller.userId);
    });
    return c.json(session);
  });

  // Every booking of the date (the register's order), dates ISO and times London.
  routes.get('/:id/bookings.csv', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.sessionNotFound);
    const { session, register } = await db.withCaller(caller.db, async (tx) => {
      const session = await readSession(tx, id, caller.userId);
      if (!session.keepsRegister) throw new ApiError(403, 'Only the people who run this session may export its bookings');
      return { session, register: session.register ?? [] };
    });
    const venue = [session.venueName, session.onlineUrl].filter(Boolean).join('; ');
    const csv = toCsv(SESSION_CSV_HEADER, register.map((r) => [
      r.name, r.username, r.status, r.attendance ?? '', r.walkIn, csvDate(r.bookedAt),
      r.waitingSince ? `${csvDate(r.waitingSince)} ${csvTime(r.waitingSince)}` : '',
      csvDate(session.startsAt), csvTime(session.startsAt), csvTime(session.endsAt), venue,
    ]));
    return c.body(csv, 200, {
      'content-type': CSV_CONTENT_TYPE,
      'content-disposition': attachmentDisposition(`session-${csvDate(session.startsAt)}-bookings.csv`),
      'cache-control': 'no-store',
    });
  });

  // A walk-in: enrolled on the spot when needed, booked even over capacity. 201 with the booking.
  routes.post('/:id/walk-ins', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.sessionNotFound);
    const { userId } = await jsonBody(c, walkInSchema);
    const booking = await db.withCaller(caller.db, (tx) =>
      callBooking(tx<Row[]>`select * from private.add_walk_in(${id}::uuid, ${userId}::uuid)`));
    return c.json(booking, 201);
  });

  routes.get('/:id/people', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.sessionNotFound);
    const { q } = validate(sessionPeopleQuerySchema, firstQueryValues(c));
    const people = await db.withCaller(caller.db, async (tx) =>
      await tx<Row[]>`select * from private.session_people(${id}::uuid, ${q})`.catch(fromSessionFunction));
    return c.json(people.map((p): SessionPerson => ({
      id: String(p.userId), name: String(p.name), username: String(p.username), enrolled: Boolean(p.enrolled), booked: Boolean(p.booked),
    })));
  });

  return routes;
}
