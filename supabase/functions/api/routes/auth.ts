// Sign-up, sign-in, sign-out and the current user. Supabase Auth owns passwords and sessions; the
// private SQL functions (service_role only) answer "taken?", "which email?" and the rate limits.
import { Hono } from 'hono';
import { createClient, type Session } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { loginSchema, registerSchema } from '../../_shared/schemas.ts';
import type { AuthSession, CurrentUser, User } from '../../_shared/domain.ts';
import type { Config } from '../lib/config.ts';
import type { Db } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { ApiError, authFieldError } from '../lib/errors.ts';
import { refuseCommonPassword } from '../lib/passwords.ts';
import { clientIp, newDeviceToken, succeeded, takeAttempt, tooMany } from '../lib/rate-limit.ts';
import { readCurrentUser, readUser } from '../lib/users.ts';

export const INVALID_CREDENTIALS = 'Invalid username or password';
/** When Auth itself limits us (hosted Supabase's own per-address limits): try again in 15 minutes. */
const AUTH_RETRY_AFTER_SECONDS = 900;

function toSession(session: Session): AuthSession {
  return {
    access_token: session.access_token,
    refresh_token: session.refresh_token,
    expires_in: session.expires_in,
    expires_at: session.expires_at ?? Math.floor(Date.now() / 1000) + session.expires_in,
    token_type: 'bearer',
  };
}

export const ACCOUNT_DEACTIVATED = 'This account has been deactivated. Ask your administrator if you need it back.';

interface AuthErrorLike {
  status?: number;
  code?: string;
  message: string;
}

export function authRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  const authClient = () =>
    createClient(config.supabaseUrl, config.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    }).auth;

  /** The profile as the new session's own user sees it (RLS applies). */
  async function userForSession(session: Session): Promise<CurrentUser> {
    const claims = decodeJwt(session.access_token) as Record<string, unknown>;
    const user = await db.withCaller({ role: 'authenticated', claims }, (tx) => readCurrentUser(tx, session.user.id));
    if (!user) throw new Error(`No profile for signed-in user ${session.user.id}`);
    return user;
  }

  routes.post('/register', async (c) => {
    const input = await jsonBody(c, registerSchema);
    await refuseCommonPassword(input.password, 'password');
    // Counted per email and per address, whatever the outcome (a 409 tells whether an account exists).
    await takeAttempt(db, 'register', input.email, clientIp(c));
    const taken = await db.withServiceRole(async (tx) => {
      const [row] = await tx<{ usernameTaken: boolean; emailTaken: boolean }[]>`
        select private.username_taken(${input.username}) as username_taken,
               private.email_taken(${input.email}) as email_taken`;
      return row;
    });
    if (taken.usernameTaken) throw usernameTaken();
    if (taken.emailTaken) throw emailTaken();

    const { data, error } = await authClient().signUp({
      email: input.email,
      password: input.password,
      options: { data: { username: input.username, name: input.name, language: input.language ?? 'en-GB' } },
    });
    if (error) {
      // A concurrent sign-up may have taken the username (the profile trigger's unique index fails:
      // Auth answers 500 "Database error saving new user", which supabase-js reports only as a
      // retryable 500) or the email (422 user_already_exists). Ask the database what happened.
      const status = (error as AuthErrorLike).status ?? 0;
      if (status >= 500 || status === 422) {
        const now = await db.withServiceRole(async (tx) => {
          const [row] = await tx<{ usernameTaken: boolean; emailTaken: boolean }[]>`
            select private.username_taken(${input.username}) as username_taken,
                   private.email_taken(${input.email}) as email_taken`;
          return row;
        });
        if (now.emailTaken) throw emailTaken();
        if (now.usernameTaken) throw usernameTaken();
      }
      throw signUpError(error);
    }
    if (!data.session) {
      // Email confirmation is on (not this project's setting): the account exists, no session yet.
      const user = data.user ? await db.withServiceRole((tx) => readUser(tx, data.user!.id)) : null;
      return c.json({ user, session: null }, 201);
    }
    const user = await userForSession(data.session);
    return c.json({ user, session: toSession(data.session) }, 201);
  });

  routes.post('/login', async (c) => {
    const input = await jsonBody(c, loginSchema);
    const email = await db.withServiceRole(async (tx) => {
      const [row] = await tx<{ email: string | null }[]>`select private.login_email(${input.username}) as email`;
      return row.email;
    });
    // Counted per account (its email, whether it was named by username or email; the name as typed
    // when there is no such account) and per address. Recorded before the password is checked, so
    // parallel guesses count too, and removed again on success: only failures count.
    const ticket = await takeAttempt(db, 'sign_in', email ?? input.username, clientIp(c), input.device ?? null);
    if (!email) throw new ApiError(401, INVALID_CREDENTIALS);
    const { data, error } = await authClient().signInWithPassword({ email, password: input.password });
    if (error || !data.session) {
      const status = (error as AuthErrorLike | null)?.status ?? 0;
      if (status === 429) throw tooMany('sign_in', AUTH_RETRY_AFTER_SECONDS);
      if (error && (status < 400 || status >= 500)) throw error;
      // Auth checks the password before the ban, so only the holder of the right password learns
      // that their account was deactivated (a leaver).
      if ((error as AuthErrorLike | null)?.code === 'user_banned') throw new ApiError(403, ACCOUNT_DEACTIVATED);
      // The right password, but the person's organisation signs its people in through its own
      // identity provider (Auth's custom access token hook, private.custom_access_token).
      if (status === 403 && error?.message) throw new ApiError(403, error.message);
      throw new ApiError(401, INVALID_CREDENTIALS);
    }
    // The browser keeps this token and sends it with its next sign-ins (a known device).
    const device = input.device ?? newDeviceToken();
    await succeeded(db, ticket, device);
    const user = await userForSession(data.session);
    return c.json({ user, session: toSession(data.session), device }, 200);
  });

  routes.post('/logout', async (c) => {
    const caller = requireUser(c);
    const response = await fetch(`${config.supabaseUrl}/auth/v1/logout?scope=local`, {
      method: 'POST',
      headers: { apikey: config.anonKey, authorization: `Bearer ${caller.token}` },
    });
    await response.body?.cancel();
    // 401/403/404: the session is already gone, which is what was asked for.
    if (response.status >= 500) throw new Error(`Auth logout failed with ${response.status}`);
    return c.body(null, 204);
  });

  routes.get('/user', async (c) => {
    const caller = requireUser(c);
    const user = await db.withCaller(caller.db, (tx) => readCurrentUser(tx, caller.userId));
    if (!user) throw new ApiError(401, 'Not signed in');
    return c.json(user);
  });

  return routes;
}

const usernameTaken = () => new ApiError(409, 'Username is already taken', { username: 'Username is already taken' });
const emailTaken = () => new ApiError(409, 'Email is already registered', { email: 'Email is already registered' });

function signUpError(error: AuthErrorLike): Error {
  const status = error.status ?? 0;
  if (status === 422 && (error.code === 'user_already_exists' || error.code === 'email_exists')) {
    return emailTaken();
  }
  // A 500 "Database error saving new user" is answered above when the username or email was taken
  // meanwhile; otherwise its cause is unknown here and it stays a server error.
  if (status === 429) return tooMany('register', AUTH_RETRY_AFTER_SECONDS);
  if (status === 400 || status === 422) {
    return new ApiError(400, error.message || 'Validation failed', authFieldError(error.message));
  }
  return error instanceof Error ? error : new Error(error.message);
}
