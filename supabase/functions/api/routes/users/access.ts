// A person's access, for their administrators: POST /api/users/:id/deactivate and /reactivate (a
// leaver, and their return) and POST /api/users/:id/reset-password (a new temporary password).
import { Hono } from 'hono';
import type { Context } from 'hono';
import { generateTemporaryPassword } from '../../../_shared/admin.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import { readUser } from '../../lib/users.ts';
import { asPeopleAdmin, fromDatabase } from '../../lib/admin.ts';
import { authAdmin, isAuthError, USER_NOT_FOUND, userNotFound } from './queries.ts';

export function accessRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  /**
   * Deactivate (a leaver) or reactivate: private.set_user_active does it all in one transaction (the
   * Auth ban, every session ended, the audit event); the answer is the person as the list shows them.
   */
  async function setActive(c: Context<Env>, active: boolean) {
    const id = pathId(c, 'id', USER_NOT_FOUND);
    // private.set_user_active keeps an organisation's administrator to their people (false for anyone else).
    const user = await asPeopleAdmin(db, c, async (tx) => {
      const [row] = await tx<{ done: boolean }[]>`select private.set_user_active(${id}::uuid, ${active}) as done`;
      if (row?.done !== true) throw userNotFound();
      return await readUser(tx, id);
    }).catch((error) => {
      const code = (error as { code?: unknown })?.code;
      if (code === 'P0403') throw new ApiError(403, 'You cannot deactivate your own account. Ask another administrator.');
      throw error;
    });
    if (!user) throw userNotFound();
    return c.json(user);
  }

  routes.post('/:id/deactivate', (c) => setActive(c, false));
  routes.post('/:id/reactivate', (c) => setActive(c, true));

  // A new temporary password, to be replaced at the next sign-in. The database half first
  // (admin check, must_change_password, the person's sessions ended, audit 'password.reset', in one
  // transaction under the admin's identity), then the password itself through Auth admin (which also
  // ends any session). Should Auth fail after the commit, the person is flagged and signed out but
  // keeps the old password: nothing is opened up, and the admin can try again.
  routes.post('/:id/reset-password', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', USER_NOT_FOUND);
    await db.withCaller(caller.db, async (tx) => {
      await tx`select private.reset_password_flag(${id}::uuid)`;
    }).catch((error: unknown) => {
      const code = (error as { code?: unknown })?.code;
      if (code === 'P0409') throw new ApiError(409, 'You cannot reset your own password here. Change it from your profile page.');
      if (code === 'P0002') throw userNotFound();
      fromDatabase(error);
    });
    const temporaryPassword = generateTemporaryPassword();
    try {
      await authAdmin(config, 'PUT', `/${id}`, { password: temporaryPassword });
    } catch (error) {
      if (isAuthError(error) && error.status === 404) throw userNotFound();
      throw isAuthError(error) ? new Error(`Auth admin password reset failed: ${error.status} ${error.message}`) : error;
    }
    c.header('cache-control', 'no-store');
    return c.json({ temporaryPassword });
  });

  return routes;
}
