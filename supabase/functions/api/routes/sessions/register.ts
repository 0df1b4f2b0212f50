// /api/sessions/:id/register: the register kept on a phone, saved as the trainer taps. Each mark is
// private.mark_attendance (idempotent: the same mark twice writes nothing; attended completes the
// module; audited), "mark all attended" private.mark_all_attended.
import { Hono } from 'hono';
import { attendanceSchema } from '../../../_shared/sessions.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody } from '../../lib/body.ts';
import { ApiError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import type { Row } from '../../lib/learning.ts';
import { callBooking, fromSessionFunction, MSG, readRegister } from './queries.ts';

export function sessionRegisterRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.put('/:bookingId', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.sessionNotFound);
    const bookingId = pathId(c, 'bookingId', MSG.bookingNotFound);
    const { attendance } = await jsonBody(c, attendanceSchema);
    const booking = await db.withCaller(caller.db, async (tx) => {
      // A booking the caller cannot see, or of another date named under this one, is not found here.
      const [row] = await tx<Row[]>`select b.session_id from public.session_bookings b where b.id = ${bookingId}::uuid`;
      if (!row || row.sessionId !== id) throw new ApiError(404, MSG.bookingNotFound);
      return await callBooking(tx<Row[]>`select * from private.mark_attendance(${bookingId}::uuid, ${attendance}::text)`);
    });
    return c.json(booking);
  });

  // Answers how many were marked and the register as it now is.
  routes.post('/all-attended', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.sessionNotFound);
    const answer = await db.withCaller(caller.db, async (tx) => {
      const [{ marked }] = await tx<Row[]>`select private.mark_all_attended(${id}::uuid) as marked`.catch(fromSessionFunction);
      return { marked: Number(marked), register: await readRegister(tx, id) };
    });
    return c.json(answer);
  });

  return routes;
}
