// Who is calling: a visitor (no Authorization, the anon key, or an anon JWT) or a signed-in user
// (an ES256 JWT from this project's Auth, audience authenticated, whose session still exists).
// Anything else is 401.
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from './config.ts';
import { type Db, type DbCaller, SESSION_REFUSED } from './db.ts';
import { ApiError, unauthorized } from './errors.ts';
import { UUID_PATTERN } from '../../_shared/ids.ts';

export type Caller =
  | { kind: 'visitor'; db: DbCaller }
  | { kind: 'user'; userId: string; sessionId: string; token: string; db: DbCaller };

export type Env = { Variables: { caller: Caller } };


/** Routes whose handlers act (Auth calls, service-role writes) before any transaction as the caller. */
const CHECK_FIRST = /^\/api\/(login|register|logout)\/?$/;

/** Verified tokens remembered (oldest dropped first): a few MB at most. */
const VERIFIED_TOKENS_KEPT = 5_000;

/**
 * Answers a visitor may share with every other visitor: the catalogue and a published course.
 * A CDN or browser may keep them briefly; answers to a signed-in user are never cacheable.
 */
const PUBLIC_FOR_VISITORS = /^\/api\/courses(\/[0-9a-f-]{36}(\/modules)?)?\/?$/i;
const VISITOR_CACHE = 'public, max-age=30, stale-while-revalidate=60';

export const visitor: Caller = { kind: 'visitor', db: { role: 'anon', claims: { role: 'anon' } } };

export function createCallerMiddleware(config: Config, db: Db) {
  const jwks = createRemoteJWKSet(new URL(`${config.supabaseUrl}/auth/v1/.well-known/jwks.json`), {
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
  });

  // An ES256 signature check costs milliseconds of CPU, more than the rest of a simple read; a
  // token already verified is remembered until it expires. This caches only the signature: the
  // session is still checked on every request, so signing out or revoking takes effect at once.
  const verified = new Map<string, JWTPayload>();

  async function verify(token: string): Promise<JWTPayload> {
    const known = verified.get(token);
    if (known) {
      if (typeof known.exp === 'number' && known.exp > Date.now() / 1000) return known;
      verified.delete(token);
    }
    const payload = await verifySignature(token);
    if (typeof payload.exp === 'number') {
      if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
      verified.set(token, payload);
    }
    return payload;
  }

  async function verifySignature(token: string): Promise<JWTPayload> {
    try {
      // Only ES256 (no HS256 with the public key, no alg none), only user tokens of this project.
      const { payload } = await jwtVerify(token, jwks, {
        algorithms: ['ES256'],
        audience: 'authenticated',
        issuer: `${config.supabaseUrl}/auth/v1`,
      });
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) {
        throw unauthorized(SESSION_REFUSED);
      }
      throw error;
    }
  }

  async function sessionExists(sessionId: string, userId: string): Promise<boolean> {
    const rows = await db.sql`
      select 1 from auth.sessions where id = ${sessionId}::uuid and user_id = ${userId}::uuid`;
    return rows.length > 0;
  }

  /** A visitor's request: public catalogue answers get a short shared cache lifetime. */
  async function asVisitor(c: Context<Env>, next: () => Promise<void>) {
    c.set('caller', visitor);
    await next();
    if ((c.req.method === 'GET' || c.req.method === 'HEAD') && c.res.status === 200 && PUBLIC_FOR_VISITORS.test(c.req.path)) {
      setHeader(c, 'cache-control', VISITOR_CACHE);
      // The same address answers a signed-in user differently (their enrolment): caches must key on it.
      setHeader(c, 'vary', 'Authorization');
    }
  }

  return createMiddleware<Env>(async (c, next) => {
    const header = c.req.header('authorization');
    if (header === undefined) return asVisitor(c, next);
    const match = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i.exec(header);
    if (!match) throw unauthorized('Invalid authorization header');
    const token = match[1];
    if (token === config.anonKey) return asVisitor(c, next);
    const claims = await verify(token);
    if (claims.role === 'anon') return asVisitor(c, next);
    const sub = claims.sub;
    const sessionId = claims.session_id;
    if (
      claims.role !== 'authenticated' ||
      typeof sub !== 'string' || !UUID_PATTERN.test(sub) ||
      typeof sessionId !== 'string' || !UUID_PATTERN.test(sessionId)
    ) {
      throw unauthorized(SESSION_REFUSED);
    }
    const session = { id: sessionId, userId: sub, verified: false };
    if (CHECK_FIRST.test(c.req.path)) {
      if (!(await sessionExists(sessionId, sub))) throw unauthorized(SESSION_REFUSED);
      session.verified = true;
    }
    c.set('caller', {
      kind: 'user',
      userId: sub,
      sessionId,
      token,
      db: { role: 'authenticated', claims: claims as Record<string, unknown>, session },
    });
    await next();
    // Per-user data: never stored by a browser or a shared cache.
    if (!c.res.headers.has('cache-control')) setHeader(c, 'cache-control', 'private, no-store');
    if (!session.verified && !(await sessionExists(sessionId, sub))) {
      c.res = new Response(JSON.stringify({ message: SESSION_REFUSED }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      });
    }
  });
}

/** Sets a header on the answer, copying it first if its headers are immutable. */
function setHeader(c: Context<Env>, name: string, value: string) {
  try {
    c.res.headers.set(name, value);
  } catch {
    const copy = new Response(c.res.body, c.res);
    copy.headers.set(name, value);
    c.res = copy;
  }
}

/** The signed-in caller, or 401. */
export function requireUser(c: Context<Env>): Extract<Caller, { kind: 'user' }> {
  const caller = c.get('caller');
  if (caller.kind !== 'user') throw unauthorized();
  return caller;
}

export { ApiError };

/** The code of the 403 every other route answers while a temporary password is still in use. */
export const PASSWORD_CHANGE_REQUIRED = 'password_change_required';
export const PASSWORD_CHANGE_REQUIRED_MESSAGE = 'Choose a new password before continuing';

/** What a person who must still choose a new password may call: the change itself (with the current
 * password, or from a recovery link's session), sign-out, who they are, and the public settings
 * that the page shell shows. */
const ALLOWED_WHILE_PASSWORD_CHANGE_PENDING = /^\/api\/(profile\/password(\/recovery)?|logout|login|register|user|settings)\/?$/;

/**
 * A signed-in person flagged must_change_password (a temporary password from an admin or an
 * import) gets 403 {code: 'password_change_required'} from every other route. One primary-key read.
 */
export function createPasswordChangeGate(db: Db) {
  return createMiddleware<Env>(async (c, next) => {
    const caller = c.get('caller');
    if (caller.kind === 'user' && c.req.method !== 'OPTIONS' && !ALLOWED_WHILE_PASSWORD_CHANGE_PENDING.test(c.req.path)) {
      const rows = await db.sql<{ pending: boolean }[]>`
        select must_change_password as pending from public.profiles where id = ${caller.userId}::uuid`;
      if (rows[0]?.pending === true) {
        return c.json({ message: PASSWORD_CHANGE_REQUIRED_MESSAGE, code: PASSWORD_CHANGE_REQUIRED }, 403, {
          'cache-control': 'private, no-store',
        });
      }
    }
    await next();
  });
}
