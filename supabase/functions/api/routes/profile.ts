// /api/profile: the caller's own name and email, their language, and their password. Reads and writes run under the
// caller's RLS; Auth is called with the service role only for the caller's own email, after checking
// it, and as the caller for the password (after the current one was checked, counted against the
// sign-in limit).
import { Hono } from 'hono';
import type { AuthSession } from '../../_shared/domain.ts';
import {
  CURRENT_PASSWORD_INCORRECT,
  passwordChangeSchema,
  passwordRecoverySchema,
  languageSchema,
  profileSchema,
} from '../../_shared/profile.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { readCurrentUser, readUser } from '../lib/users.ts';
import { refuseCommonPassword } from '../lib/passwords.ts';
import { clientIp, succeeded, takeAttempt, tooMany } from '../lib/rate-limit.ts';

const emailTaken = () => new ApiError(409, 'Email is already registered', { email: 'Email is already registered' });

export function profileRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  async function authAdmin(method: string, path: string, body: unknown): Promise<Response> {
    return await fetch(`${config.supabaseUrl}/auth/v1${path}`, {
      method,
      headers: {
        apikey: config.serviceRoleKey,
        authorization: `Bearer ${config.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  }

  routes.put('/', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, profileSchema);
    const current = await db.withCaller(caller.db, (tx) => readUser(tx, caller.userId));
    if (!current) throw new ApiError(401, 'Not signed in');
    const newEmail = input.email.toLowerCase();
    const emailChanges = newEmail !== current.email.toLowerCase();

    if (emailChanges) {
      const taken = await db.withServiceRole(async (tx) => {
        const [row] = await tx<{ taken: boolean }[]>`select private.email_taken(${newEmail}) as taken`;
        return row.taken;
      });
      if (taken) throw emailTaken();
      // Auth first (it owns sign-in by email); its trigger copies the email into the profile.
      // Not inside the profile transaction: Auth's update of the profile would wait on our lock.
      const response = await authAdmin('PUT', `/admin/users/${caller.userId}`, { email: newEmail, email_confirm: true });
      const body = await response.json().catch(() => ({}));
      if (response.status === 422 && /email_exists|already been registered/i.test(`${body.code ?? body.error_code ?? ''} ${body.msg ?? body.message ?? ''}`)) {
        throw emailTaken();
      }
      if (!response.ok) throw new Error(`Auth email update failed with ${response.status}`);
    }

    try {
      const user = await db.withCaller(caller.db, async (tx: Tx) => {
        await tx`update public.profiles set name = ${input.name} where id = ${caller.userId}::uuid`;
        return await readCurrentUser(tx, caller.userId);
      });
      return c.json(user);
    } catch (error) {
      // Keep Auth and the profile in step: undo the email change when the profile could not follow.
      if (emailChanges) {
        await authAdmin('PUT', `/admin/users/${caller.userId}`, { email: current.email, email_confirm: true })
          .then((r) => r.body?.cancel())
          .catch((undo) => console.error('Could not restore the email after a failed profile update:', undo));
      }
      throw error;
    }
  });

  // The language the person reads the platform in: their own row, under their own RLS (the column
  // grant); the profile's trigger copies it into Auth's user_metadata for Auth's own emails.
  routes.put('/language', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, languageSchema);
    const user = await db.withCaller(caller.db, async (tx: Tx) => {
      const changed = await tx`update public.profiles set language = ${input.language} where id = ${caller.userId}::uuid returning id`;
      if (changed.length === 0) throw new ApiError(401, 'Not signed in');
      return await readCurrentUser(tx, caller.userId);
    });
    return c.json(user);
  });

  /** The person has chosen their own password: a temporary one no longer holds them back. Only the
   * service role writes must_change_password (no API role holds a privilege on the column). */
  const passwordChosen = (userId: string) =>
    db.withServiceRole((tx) => tx`
      update public.profiles set must_change_password = false
      where id = ${userId}::uuid and must_change_password`);

  routes.put('/password', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, passwordChangeSchema);
    const current = await db.withCaller(caller.db, (tx) => readUser(tx, caller.userId));
    if (!current) throw new ApiError(401, 'Not signed in');
    await refuseCommonPassword(input.newPassword, 'newPassword');
    // Guessing the current password here counts against the same limit as signing in.
    const ticket = await takeAttempt(db, 'sign_in', current.email, clientIp(c));

    const grant = await fetch(`${config.supabaseUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: config.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: current.email, password: input.currentPassword }),
    });
    const granted = await grant.json().catch(() => ({}));
    if (grant.status === 429) throw tooMany('sign_in', 900);
    if (grant.status >= 400 && grant.status < 500) {
      throw new ApiError(400, CURRENT_PASSWORD_INCORRECT, { currentPassword: CURRENT_PASSWORD_INCORRECT });
    }
    if (!grant.ok || typeof granted.access_token !== 'string') throw new Error(`Auth password check failed with ${grant.status}`);
    await succeeded(db, ticket);
    const fresh = { apikey: config.anonKey, authorization: `Bearer ${granted.access_token}`, 'content-type': 'application/json' };
    const changePassword = (headers: Record<string, string>) =>
      fetch(`${config.supabaseUrl}/auth/v1/user`, { method: 'PUT', headers, body: JSON.stringify({ password: input.newPassword }) });
    const refusal = async (response: Response) => {
      const body = await response.json().catch(() => ({}));
      const message = String(body.msg ?? body.message ?? 'Password could not be changed');
      return { code: String(body.error_code ?? body.code ?? ''), error: new ApiError(400, message, { newPassword: message }) };
    };

    // As the user (not the admin API): Auth keeps this session. Then every other session of the
    // user ends, whether or not Auth already did so itself (GoTrue does on a password change).
    const asUser = { apikey: config.anonKey, authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' };
    const response = await changePassword(asUser);
    if (response.status === 400 || response.status === 422) {
      const refused = await refusal(response);
      if (refused.code !== 'reauthentication_needed') throw refused.error;
      // Auth's secure password change: this session is over 24 hours old, so Auth wants the code it
      // emails. The current password was checked just now, which is what that code proves: change
      // it from the session that check opened. Auth keeps that session and ends every other one
      // (this one too), so the browser carries on with the new session.
      const again = await changePassword(fresh);
      if (again.status === 400 || again.status === 422) throw (await refusal(again)).error;
      await again.body?.cancel();
      if (!again.ok) throw new Error(`Auth password update failed with ${again.status}`);
      await passwordChosen(caller.userId);
      const session: AuthSession = {
        access_token: granted.access_token,
        refresh_token: String(granted.refresh_token),
        expires_in: Number(granted.expires_in),
        expires_at: Number(granted.expires_at ?? Math.floor(Date.now() / 1000) + Number(granted.expires_in)),
        token_type: 'bearer',
      };
      return c.json({ session }, 200);
    }
    // The check opened a session of its own: close it.
    await fetch(`${config.supabaseUrl}/auth/v1/logout?scope=local`, { method: 'POST', headers: fresh })
      .then((r) => r.body?.cancel()).catch(() => {});
    await response.body?.cancel();
    if (!response.ok) throw new Error(`Auth password update failed with ${response.status}`);
    const others = await fetch(`${config.supabaseUrl}/auth/v1/logout?scope=others`, { method: 'POST', headers: asUser });
    await others.body?.cancel();
    if (!others.ok) throw new Error(`Ending the other sessions failed with ${others.status}`);
    await passwordChosen(caller.userId);
    return c.body(null, 204);
  });

  // "Forgot password?" and the welcome email: the link in the email opens a session whose
  // amr says an emailed link opened it ('otp' in Supabase Auth's implicit flow, 'recovery' under
  // PKCE): it proves the mailbox, as the reset itself does. Within the hour it was opened, that
  // session may set a new password without the current one. Auth keeps this session and ends the others;
  // then a temporary password no longer holds the person back (only after a password was set).
  routes.put('/password/recovery', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, passwordRecoverySchema);
    if (!recoveryOpenedWithinHour(caller.db.claims.amr)) {
      throw new ApiError(403, 'This page needs the link from a password reset email. Ask for a new link.');
    }
    await refuseCommonPassword(input.newPassword, 'newPassword');
    const asUser = { apikey: config.anonKey, authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' };
    const response = await fetch(`${config.supabaseUrl}/auth/v1/user`, {
      method: 'PUT',
      headers: asUser,
      body: JSON.stringify({ password: input.newPassword }),
    });
    if (response.status === 400 || response.status === 422) {
      const body = await response.json().catch(() => ({}));
      const message = String(body.msg ?? body.message ?? 'Password could not be changed');
      throw new ApiError(400, message, { newPassword: message });
    }
    await response.body?.cancel();
    if (!response.ok) throw new Error(`Auth password update failed with ${response.status}`);
    const others = await fetch(`${config.supabaseUrl}/auth/v1/logout?scope=others`, { method: 'POST', headers: asUser });
    await others.body?.cancel();
    if (!others.ok) throw new Error(`Ending the other sessions failed with ${others.status}`);
    await passwordChosen(caller.userId);
    return c.body(null, 204);
  });

  return routes;
}

/** How long after a recovery link was opened its session may set a password (Auth's link lifetime). */
const RECOVERY_WINDOW_SECONDS = 3600;
/** The amr methods of a session opened from an emailed link or code. */
const EMAILED_LINK_METHODS = new Set(['otp', 'recovery']);

/** Whether the token's amr claim says an emailed link (otp, recovery) opened its session within the hour. */
function recoveryOpenedWithinHour(amr: unknown): boolean {
  if (!Array.isArray(amr)) return false;
  const now = Date.now() / 1000;
  return amr.some((entry) =>
    entry !== null && typeof entry === 'object' &&
    EMAILED_LINK_METHODS.has(String((entry as { method?: unknown }).method)) &&
    typeof (entry as { timestamp?: unknown }).timestamp === 'number' &&
    now - (entry as { timestamp: number }).timestamp <= RECOVERY_WINDOW_SECONDS);
}
