// /api/bookings/:id: the learner moves (PUT, the same booking to another date of the module), cancels,
// accepts or declines an offered place; the line manager approves or refuses a request.
// /api/bookings/requests: the requests waiting for the caller's approval (their reports').
import { Hono } from 'hono';
import { bookingRefuseSchema, bookingSchema } from '../../../_shared/sessions.ts';
import type { Config } from '../../lib/config.ts';
import type { Db, Tx } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody, optionalJson } from '../../lib/body.ts';
import { pathId } from '../../lib/params.ts';
import type { Row } from '../../lib/learning.ts';
import { callBooking, fromSessionFunction, MSG, toRequest } from './queries.ts';

export function bookingRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/requests', async (c) => {
    const caller = requireUser(c);
    const rows = await db.withCaller(caller.db, (tx) => tx<Row[]>`select * from private.session_requests()`)
      .catch(fromSessionFunction);
    return c.json(rows.map(toRequest));
  });

  routes.put('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.bookingNotFound);
    const { sessionId } = await jsonBody(c, bookingSchema);
    const booking = await db.withCaller(caller.db, (tx) =>
      callBooking(tx<Row[]>`select * from private.move_booking(${id}::uuid, ${sessionId}::uuid)`));
    return c.json(booking);
  });

  const learnerAction = (path: string, call: (tx: Tx, id: string) => Promise<readonly Row[]>) =>
    routes.post(`/:id/${path}`, async (c) => {
      const caller = requireUser(c);
      const id = pathId(c, 'id', MSG.bookingNotFound);
      return c.json(await db.withCaller(caller.db, (tx) => callBooking(call(tx, id))));
    });
  learnerAction('cancel', (tx, id) => tx<Row[]>`select * from private.cancel_booking(${id}::uuid)`);
  learnerAction('accept', (tx, id) => tx<Row[]>`select * from private.answer_offer(${id}::uuid, true)`);
  learnerAction('decline', (tx, id) => tx<Row[]>`select * from private.answer_offer(${id}::uuid, false)`);

  routes.post('/:id/approve', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.bookingNotFound);
    const booking = await db.withCaller(caller.db, (tx) =>
      callBooking(tx<Row[]>`select * from private.decide_booking(${id}::uuid, true, null)`));
    return c.json(booking);
  });

  routes.post('/:id/refuse', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.bookingNotFound);
    const { reason } = optionalJson(c) ? await jsonBody(c, bookingRefuseSchema) : { reason: null };
    const booking = await db.withCaller(caller.db, (tx) =>
      callBooking(tx<Row[]>`select * from private.decide_booking(${id}::uuid, false, ${reason}::text)`));
    return c.json(booking);
  });

  return routes;
}
