// The local Auth service: the subset of the Supabase Auth (GoTrue) REST API that supabase-js v2
// uses, over the auth schema created by platform/bootstrap.sql. Paths are relative to /auth/v1
// (the gateway strips the prefix; a request still carrying it is accepted too).
//
// Users live in auth.users (bcrypt hashes), sessions in auth.sessions, single-use refresh tokens in
// auth.refresh_tokens. Access tokens are ES256 JWTs with Supabase's claims, signed with the key of
// platform/keys.mjs and checked against that key and the session table on every bearer request.
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import { jwtVerify, SignJWT } from 'jose';
import { bearer, json, readJson } from './http.mjs';
import { createOAuth, externalSettingsFromConfig, onAllowList } from './auth/oauth.mjs';
import { createSaml } from './auth/saml.mjs';
import { emailTemplatesFromConfig, renderAuthEmail } from './auth/email-templates.mjs';

const ACCESS_TOKEN_TTL = 3600;
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
const MIN_PASSWORD_LENGTH = 6;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A GoTrue-shaped error answer: `{ code, error_code, msg }` (supabase-js reads error_code and msg).
 * @param {number} status
 * @param {string} errorCode
 * @param {string} msg
 * @param {Record<string, unknown>} [extra]
 */
function fail(status, errorCode, msg, extra = {}) {
  return json(status, { code: errorCode, error_code: errorCode, msg, ...extra });
}

/** The token endpoint's OAuth-shaped error (also carrying GoTrue's code and msg). */
function invalidGrant(errorCode, description) {
  return json(400, {
    error: 'invalid_grant',
    error_description: description,
    code: errorCode,
    error_code: errorCode,
    msg: description,
  });
}

/** Thrown inside handlers to answer with a prepared response. */
class HttpError extends Error {
  /** @param {Response} response */
  constructor(response) {
    super('http error');
    this.response = response;
  }
}

/**
 * @typedef {object} AuthOptions
 * @property {import('postgres').Sql} sql postgres.js client connected as the superuser
 * @property {import('./keys.mjs').Keys} keys signing keys
 * @property {string} publicUrl the platform's public base URL (issuer is <publicUrl>/auth/v1)
 * @property {import('./mailer.mjs').Mailer | null} [mailer] sends Auth's emails over SMTP (none: they are only logged)
 * @property {string} [siteUrl] the web app's address (GoTrue's site_url): links may only lead to its origin
 * @property {boolean} [securePasswordChange] `[auth.email] secure_password_change`: a password change
 *   from a session older than 24 hours needs the code `GET /reauthenticate` emails (as GoTrue)
 * @property {boolean} [doubleConfirmChanges] `[auth.email] double_confirm_changes`: an email change
 *   takes effect once codes sent to the current and the new address are both confirmed
 * @property {Record<string, { subject: string, html: string }>} [emailTemplates] `[auth.email.template.*]`:
 *   Auth's emails as hosted Auth renders them, in the person's language (platform/auth/email-templates.mjs)
 * @property {Record<string, import('./auth/oauth.mjs').ExternalProvider>} [external] `[auth.external.*]`:
 *   identity providers to sign in with (platform/auth/oauth.mjs)
 * @property {string[]} [additionalRedirectUrls] `[auth] additional_redirect_urls`: more allowed redirect_to values
 * @property {typeof fetch} [providerFetch] how identity providers are called (default fetch)
 * @property {string | null} [beforeUserCreated] `[auth.hook.before_user_created]`'s Postgres function (schema.function)
 * @property {string | null} [customAccessToken] `[auth.hook.custom_access_token]`'s Postgres function (schema.function)
 * @property {boolean} [manualLinking] `[auth] enable_manual_linking`: a signed-in user may link a provider's identity
 * @property {number} [passwordHashCost] the bcrypt cost of the hashes it makes (passwordHashCostFromEnv)
 */

/** How long a reauthentication or email-change code is valid (GoTrue's default otp_exp). */
const OTP_TTL_MS = 3600 * 1000;
/** How long a password recovery link works (GoTrue's default otp_exp), and how often one may be
 * emailed to the same address (GoTrue's smtp max_frequency). */
const RECOVERY_TTL_MS = 3600 * 1000;
const RECOVERY_EMAIL_INTERVAL_MS = 60 * 1000;
/** How many recovery requests one client address may make in a window: hosted Auth limits its
 * email endpoints per IP as well as per address, so one client cannot send recovery emails to
 * many addresses in a row. */
const RECOVER_PER_ADDRESS = 30;
const RECOVER_WINDOW_MS = 5 * 60 * 1000;
/** A recovery token as the links carry it: 28 random bytes, hex (the length of GoTrue's token hash). */
const RECOVERY_TOKEN_PATTERN = /^[0-9a-f]{56}$/;
/** A session younger than this may change its password without reauthenticating (as GoTrue). */
const RECENT_SESSION_MS = 24 * 3600 * 1000;

/** The project's root, where config.toml's content_path values start. */
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The `[auth.email]` settings the local Auth honours, read from supabase/config.toml (the file
 * `supabase start` and hosted projects use), so the two cannot disagree; also the identity
 * providers (`[auth.external.*]`, their `env(NAME)` values read from env) and the redirect allow list.
 * @param {string} toml
 * @param {Record<string, string | undefined>} [env]
 */
export function authSettingsFromConfig(toml, env = process.env) {
  const section = /\[auth\.email\]([^[]*)/.exec(toml)?.[1] ?? '';
  const flag = (/** @type {string} */ key) => new RegExp(`^\\s*${key}\\s*=\\s*true\\b`, 'm').test(section);
  return {
    securePasswordChange: flag('secure_password_change'),
    doubleConfirmChanges: flag('double_confirm_changes'),
    // `[auth.email.template.<kind>]`: Auth's emails in the person's language, as hosted Auth sends them.
    emailTemplates: emailTemplatesFromConfig(toml, PROJECT_ROOT),
    beforeUserCreated: postgresHook(toml, 'before_user_created'),
    customAccessToken: postgresHook(toml, 'custom_access_token'),
    ...externalSettingsFromConfig(toml, env),
    passwordHashCost: passwordHashCostFromEnv(env),
  };
}

/** Supabase Auth's bcrypt cost (Go's bcrypt.DefaultCost), for every password it hashes. */
export const DEFAULT_PASSWORD_HASH_COST = 10;

/**
 * The bcrypt cost of the hashes Auth makes: 10, as Supabase Auth, unless AUTH_PASSWORD_HASH_COST
 * (4 to 31) says otherwise. The test runner's platforms hash at 4, as Supabase Auth's own tests do
 * (its QuickHashCost): a hash or a sign-in of a new person then costs about 2 ms of CPU, not about
 * 80, and a hash of any cost verifies the same way, so no rule a test proves depends on it.
 * @param {Record<string, string | undefined>} env
 */
export function passwordHashCostFromEnv(env) {
  const value = env.AUTH_PASSWORD_HASH_COST;
  if (value === undefined || value === '') return DEFAULT_PASSWORD_HASH_COST;
  const cost = Number(value);
  if (!Number.isInteger(cost) || cost < 4 || cost > 31) throw new Error(`AUTH_PASSWORD_HASH_COST must be a whole number from 4 to 31, not ${value}`);
  return cost;
}

/**
 * The Postgres function of an enabled `[auth.hook.<name>]` whose uri is
 * `pg-functions://postgres/<schema>/<function>`, as `schema.function`; null when there is none.
 * @param {string} toml
 * @param {string} name
 */
function postgresHook(toml, name) {
  const section = new RegExp(`\\[auth\\.hook\\.${name}\\]([^[]*)`).exec(toml)?.[1] ?? '';
  if (!/^\s*enabled\s*=\s*true\b/m.test(section)) return null;
  const uri = /^\s*uri\s*=\s*"pg-functions:\/\/postgres\/([a-z_][a-z0-9_]*)\/([a-z_][a-z0-9_]*)"/m.exec(section);
  return uri ? `${uri[1]}.${uri[2]}` : null;
}

/** GoTrue's stored form of a one-time code: sha224 of the address and the code, hex. */
function otpHash(email, code) {
  return createHash('sha224').update(`${email}${code}`).digest('hex');
}

/** What auth.users.recovery_token holds: only a hash of the link's token, so a copy of the
 * database opens no account. */
function recoveryDigest(token) {
  return createHash('sha256').update(token).digest('hex');
}

/** A six-digit one-time code. */
function otpCode() {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Creates the Auth service.
 * @param {AuthOptions} options
 * @returns {{ fetch(request: Request): Promise<Response>, verifyAccessToken(token: string): Promise<Record<string, any> | null> }}
 */
export function createAuth({ sql, keys, publicUrl, siteUrl = publicUrl, mailer = null, securePasswordChange = false, doubleConfirmChanges = false, beforeUserCreated = null,
  customAccessToken = null, emailTemplates = {}, external = {}, additionalRedirectUrls = [], manualLinking = false, providerFetch = fetch,
  passwordHashCost = DEFAULT_PASSWORD_HASH_COST }) {
  for (const [name, hook] of Object.entries({ beforeUserCreated, customAccessToken })) {
    if (hook !== null && !/^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/.test(hook)) throw new Error(`${name} must be schema.function, not ${hook}`);
  }
  const issuer = `${publicUrl.replace(/\/+$/, '')}/auth/v1`;
  const site = new URL(siteUrl);

  /**
   * Where a link may send the person afterwards: a URL of the site's own origin or on the
   * additional_redirect_urls list, else the site URL itself (GoTrue's redirect allow list; anything
   * else falls back to it).
   * @param {unknown} value
   */
  function allowedRedirect(value) {
    if (typeof value === 'string' && value !== '') {
      try {
        const target = new URL(value);
        if (target.origin === site.origin) return target.href;
        if (/^https?:$/.test(target.protocol) && onAllowList(value, additionalRedirectUrls)) return target.href;
      } catch {
        // Not a URL: the site URL instead.
      }
    }
    return site.href;
  }

  // ---------------------------------------------------------------- users

  /** @param {string} id */
  async function findUser(id, db = sql) {
    if (!UUID_PATTERN.test(id)) return null;
    const [row] = await db`select * from auth.users where id = ${id} and deleted_at is null`;
    return row ?? null;
  }

  /** @param {string} email */
  async function findUserByEmail(email, db = sql) {
    const [row] = await db`
      select * from auth.users where lower(email) = ${email.toLowerCase()} and is_sso_user = false and deleted_at is null`;
    return row ?? null;
  }

  /** GoTrue's JSON for a user (never the hash). */
  async function userJson(row, db = sql) {
    const identities = await db`
      select * from auth.identities where user_id = ${row.id} order by created_at`;
    return {
      id: row.id,
      aud: row.aud ?? 'authenticated',
      role: row.role ?? 'authenticated',
      email: row.email ?? '',
      email_confirmed_at: iso(row.email_confirmed_at),
      // An email change waiting for its confirmations (double_confirm_changes), as GoTrue shows it.
      ...(row.email_change ? { new_email: row.email_change, email_change_sent_at: iso(row.email_change_sent_at) } : {}),
      phone: row.phone ?? '',
      confirmed_at: iso(row.email_confirmed_at ?? row.phone_confirmed_at),
      last_sign_in_at: iso(row.last_sign_in_at),
      app_metadata: row.raw_app_meta_data ?? {},
      user_metadata: row.raw_user_meta_data ?? {},
      identities: identities.map((identity) => ({
        identity_id: identity.id,
        id: identity.provider_id,
        user_id: identity.user_id,
        identity_data: identity.identity_data,
        provider: identity.provider,
        last_sign_in_at: iso(identity.last_sign_in_at),
        created_at: iso(identity.created_at),
        updated_at: iso(identity.updated_at),
        email: identity.email,
      })),
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      banned_until: row.banned_until ? iso(row.banned_until) : undefined,
      is_anonymous: row.is_anonymous ?? false,
    };
  }

  /**
   * The before-user-created hook (GoTrue's, in its Postgres function form): called with the user
   * about to be created; an answer `{error: {http_code, message}}` with a message refuses the
   * creation with that status (500 when none is given) and the message, before anything is written.
   * @param {string} id
   * @param {{ email: string, userMetadata: object, role?: string }} input
   * @param {object} appMetadata
   */
  async function runBeforeUserCreated(id, input, appMetadata) {
    if (!beforeUserCreated) return;
    const now = new Date().toISOString();
    const event = {
      metadata: { uuid: randomUUID(), time: now, name: 'before-user-created', ip_address: '127.0.0.1' },
      user: {
        id, aud: 'authenticated', role: input.role ?? '', email: input.email, phone: '',
        app_metadata: appMetadata, user_metadata: input.userMetadata ?? {}, identities: [],
        created_at: now, updated_at: now, is_anonymous: false,
      },
    };
    const [row] = await sql.unsafe(`select ${beforeUserCreated}($1::jsonb) as result`, [sql.json(event)]);
    const refusal = row?.result?.error;
    if (refusal && typeof refusal.message === 'string' && refusal.message !== '') {
      const status = Number.isInteger(refusal.http_code) && refusal.http_code >= 400 && refusal.http_code < 600 ? refusal.http_code : 500;
      throw new HttpError(json(status, { code: status, msg: refusal.message }));
    }
  }

  /**
   * Inserts a user and its email identity. A duplicate email answers 422; any other database error
   * (e.g. a trigger on auth.users failing) answers 500 "Database error saving new user".
   * @param {{ email: string, password: string | null, userMetadata: object, appMetadata?: object, confirmed: boolean, role?: string, duplicateCode: string, duplicateMsg: string }} input
   */
  async function insertUser(input) {
    const id = randomUUID();
    const appMetadata = { provider: 'email', providers: ['email'], ...(input.appMetadata ?? {}) };
    await runBeforeUserCreated(id, input, appMetadata);
    const hash = input.password ? await bcrypt.hash(input.password, passwordHashCost) : '';
    const identityData = { sub: id, email: input.email, email_verified: input.confirmed, phone_verified: false };
    try {
      await sql.begin(async (tx) => {
        if (await findUserByEmail(input.email, tx)) throw new HttpError(fail(422, input.duplicateCode, input.duplicateMsg));
        await tx`
          insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
            raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at, is_anonymous)
          values (${ZERO_UUID}, ${id}, 'authenticated', ${input.role ?? 'authenticated'}, ${input.email}, ${hash},
            ${input.confirmed ? new Date() : null}, ${sql.json(appMetadata)}::jsonb,
            ${sql.json(input.userMetadata ?? {})}::jsonb, false, now(), now(), false)`;
        await tx`
          insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
          values (${id}, ${id}, ${sql.json(identityData)}::jsonb, 'email', now(), now(), now())`;
      });
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const pgError = /** @type {any} */ (error);
      if (pgError?.code === '23505' && /users_email/.test(pgError.constraint_name ?? '')) {
        throw new HttpError(fail(422, input.duplicateCode, input.duplicateMsg));
      }
      if (pgError?.code) {
        throw new HttpError(fail(500, 'unexpected_failure', 'Database error saving new user'));
      }
      throw error;
    }
    return /** @type {any} */ (await findUser(id));
  }

  /**
   * Applies an update (email, password, metadata) to a user.
   * @param {any} user current row
   * @param {{ email?: string, password?: string, userMetadata?: object, appMetadata?: object, confirmEmail?: boolean, role?: string, banDuration?: string }} changes
   * @param {{ keepSession?: string }} [options] a password change ends every session but this one
   */
  async function updateUser(user, changes, options = {}) {
    const userMetadata =
      changes.userMetadata !== undefined ? mergeMetadata(user.raw_user_meta_data, changes.userMetadata) : user.raw_user_meta_data;
    const appMetadata =
      changes.appMetadata !== undefined ? mergeMetadata(user.raw_app_meta_data, changes.appMetadata) : user.raw_app_meta_data;
    const hash = changes.password !== undefined ? await bcrypt.hash(changes.password, passwordHashCost) : user.encrypted_password;
    const email = changes.email ?? user.email;
    let confirmedAt = user.email_confirmed_at;
    if (changes.email !== undefined && changes.email !== user.email) confirmedAt = new Date();
    if (changes.confirmEmail === true && !confirmedAt) confirmedAt = new Date();
    let bannedUntil = user.banned_until;
    if (changes.banDuration !== undefined) {
      bannedUntil = changes.banDuration === 'none' ? null : new Date(Date.now() + parseDuration(changes.banDuration));
    }
    try {
      await sql.begin(async (tx) => {
        if (changes.email !== undefined && changes.email !== user.email) {
          const other = await findUserByEmail(changes.email, tx);
          if (other && other.id !== user.id) {
            throw new HttpError(fail(422, 'email_exists', 'A user with this email address has already been registered'));
          }
        }
        await tx`
          update auth.users set email = ${email}, encrypted_password = ${hash}, email_confirmed_at = ${confirmedAt},
            raw_user_meta_data = ${sql.json(userMetadata ?? {})}::jsonb,
            raw_app_meta_data = ${sql.json(appMetadata ?? {})}::jsonb,
            role = ${changes.role ?? user.role}, banned_until = ${bannedUntil}, updated_at = now()
          where id = ${user.id}`;
        if (changes.password !== undefined) {
          await tx`delete from auth.sessions where user_id = ${user.id} and id::text <> ${options.keepSession ?? ''}`;
        }
        if (changes.email !== undefined && changes.email !== user.email) {
          await tx`
            update auth.identities
            set identity_data = identity_data || ${sql.json({ email })}::jsonb, updated_at = now()
            where user_id = ${user.id} and provider = 'email'`;
        }
      });
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const pgError = /** @type {any} */ (error);
      if (pgError?.code === '23505' && /users_email/.test(pgError.constraint_name ?? '')) {
        throw new HttpError(fail(422, 'email_exists', 'A user with this email address has already been registered'));
      }
      if (pgError?.code) throw new HttpError(fail(500, 'unexpected_failure', 'Database error updating user'));
      throw error;
    }
    return /** @type {any} */ (await findUser(user.id));
  }

  // ---------------------------------------------------------------- tokens and sessions

  /**
   * Signs an access token for a user in a session.
   * @param {any} user
   * @param {string} sessionId
   * @param {number} authenticatedAt seconds, for amr
   * @param {string} method how the session was opened (amr), e.g. password or otp (an emailed link)
   * @param {string} [issuedFor] why the token is issued, for the custom access token hook
   *   (GoTrue's authentication_method: the method at sign-in, token_refresh on a refresh)
   */
  async function signAccessToken(user, sessionId, authenticatedAt, method = 'password', issuedFor = method) {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + ACCESS_TOKEN_TTL;
    /** @type {Record<string, unknown>} */
    let claims = {
      aud: 'authenticated',
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      role: user.role ?? 'authenticated',
      aal: 'aal1',
      amr: [{ method, timestamp: authenticatedAt }],
      session_id: sessionId,
      is_anonymous: false,
    };
    if (customAccessToken) claims = await runCustomAccessToken(user.id, claims, issuedFor, { iss: issuer, sub: user.id, iat, exp });
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: keys.kid })
      .setIssuer(issuer)
      .setSubject(user.id)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(keys.privateKey);
    return { token, exp };
  }

  /**
   * The custom access token hook (GoTrue's, in its Postgres function form): called with the user
   * id, the claims and how the token is issued; answers the claims to sign, or an error
   * `{error: {http_code, message}}` that refuses the token with that status and message.
   * @param {string} userId @param {Record<string, unknown>} claims @param {string} method
   * @param {{ iss: string, sub: string, iat: number, exp: number }} fixed claims the hook cannot change
   */
  async function runCustomAccessToken(userId, claims, method, fixed) {
    const event = { user_id: userId, claims: { ...claims, ...fixed }, authentication_method: method };
    const [row] = await sql.unsafe(`select ${customAccessToken}($1::jsonb) as result`, [sql.json(event)]);
    const answer = row?.result ?? {};
    const refusal = answer.error;
    if (refusal && typeof refusal.message === 'string' && refusal.message !== '') {
      const status = Number.isInteger(refusal.http_code) && refusal.http_code >= 400 && refusal.http_code < 600 ? refusal.http_code : 500;
      throw new HttpError(fail(status, 'unexpected_failure', refusal.message));
    }
    if (!answer.claims || typeof answer.claims !== 'object' || Array.isArray(answer.claims)) {
      throw new HttpError(fail(500, 'unexpected_failure', 'Error running hook URI: the custom access token hook answered no claims'));
    }
    const { iss: _iss, sub: _sub, iat: _iat, exp: _exp, ...rest } = answer.claims;
    return rest;
  }

  function newRefreshToken() {
    return randomBytes(24).toString('base64url');
  }

  /**
   * Starts a session for a user and answers GoTrue's session object.
   * @param {any} user
   * @param {Request} request
   * @param {string} [method] how it was opened (recorded in auth.mfa_amr_claims, as GoTrue does)
   */
  async function startSession(user, request, method = 'password') {
    return json(200, await openSession(user, request, method));
  }

  /**
   * Opens a session and answers GoTrue's session object as data.
   * @param {any} user @param {Request} request @param {string} method
   */
  async function openSession(user, request, method) {
    const sessionId = randomUUID();
    const refreshToken = newRefreshToken();
    const ip = clientIp(request);
    await sql.begin(async (tx) => {
      await tx`
        insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
        values (${sessionId}, ${user.id}, now(), now(), 'aal1', ${request.headers.get('user-agent')}, ${ip})`;
      await tx`
        insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
        values (${ZERO_UUID}, ${refreshToken}, ${user.id}, false, now(), now(), null, ${sessionId})`;
      await tx`
        insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method)
        values (${sessionId}, now(), now(), ${method})`;
      await tx`update auth.users set last_sign_in_at = now(), updated_at = now() where id = ${user.id}`;
      await tx`update auth.identities set last_sign_in_at = now() where user_id = ${user.id}`;
    });
    const fresh = /** @type {any} */ (await findUser(user.id));
    try {
      return await sessionData(fresh, sessionId, refreshToken, Math.floor(Date.now() / 1000), method);
    } catch (error) {
      // Refused by the custom access token hook: the session is not opened.
      await sql`delete from auth.sessions where id = ${sessionId}`;
      throw error;
    }
  }

  /**
   * @param {any} user
   * @param {string} sessionId
   * @param {string} refreshToken
   * @param {number} authenticatedAt
   * @param {string} [method]
   * @param {string} [issuedFor]
   */
  async function sessionResponse(user, sessionId, refreshToken, authenticatedAt, method, issuedFor = method) {
    return json(200, await sessionData(user, sessionId, refreshToken, authenticatedAt, method, issuedFor));
  }

  /** @param {any} user @param {string} sessionId @param {string} refreshToken @param {number} authenticatedAt @param {string} [method] @param {string} [issuedFor] */
  async function sessionData(user, sessionId, refreshToken, authenticatedAt, method = 'password', issuedFor = method) {
    const { token, exp } = await signAccessToken(user, sessionId, authenticatedAt, method, issuedFor);
    return {
      access_token: token,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_TTL,
      expires_at: exp,
      refresh_token: refreshToken,
      user: await userJson(user),
    };
  }

  /**
   * Checks a JWT's signature and expiry, and for a user token that its session still exists.
   * @param {string} token
   * @returns {Promise<{ claims: Record<string, any> } | { problem: 'bad_jwt' | 'session_not_found' }>}
   */
  async function checkToken(token) {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys.publicKey, { algorithms: ['ES256'] }));
    } catch {
      return { problem: 'bad_jwt' };
    }
    if (payload.session_id !== undefined) {
      if (typeof payload.session_id !== 'string' || !UUID_PATTERN.test(payload.session_id)) return { problem: 'bad_jwt' };
      const [session] = await sql`
        select id from auth.sessions
        where id = ${payload.session_id} and user_id::text = ${String(payload.sub)}
          and (not_after is null or not_after > now())`;
      if (!session) return { problem: 'session_not_found' };
    }
    return { claims: payload };
  }

  /**
   * Verifies a JWT's signature and expiry; for a user token, also that its session still exists.
   * @param {string} token
   * @returns {Promise<Record<string, any> | null>} the claims, or null
   */
  async function verifyAccessToken(token) {
    const result = await checkToken(token);
    return 'claims' in result ? result.claims : null;
  }

  /** @param {'bad_jwt' | 'session_not_found'} problem */
  function tokenRefused(problem) {
    return problem === 'session_not_found'
      ? fail(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
      : fail(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature, token is invalid or has expired');
  }

  /**
   * The signed-in user behind a request's bearer token, or an error answer.
   * @param {Request} request
   */
  async function requireUser(request) {
    const token = bearer(request);
    if (!token) throw new HttpError(fail(401, 'no_authorization', 'This endpoint requires a Bearer token'));
    const result = await checkToken(token);
    if (!('claims' in result)) throw new HttpError(tokenRefused(result.problem));
    const { claims } = result;
    if (typeof claims.sub !== 'string' || !claims.session_id) throw new HttpError(tokenRefused('bad_jwt'));
    const user = await findUser(claims.sub);
    if (!user) throw new HttpError(fail(403, 'user_not_found', 'User from sub claim in JWT does not exist'));
    return { user, claims };
  }

  /** @param {Request} request */
  async function requireAdmin(request) {
    const token = bearer(request);
    if (!token) throw new HttpError(fail(401, 'no_authorization', 'This endpoint requires a Bearer token'));
    const result = await checkToken(token);
    if (!('claims' in result)) throw new HttpError(tokenRefused(result.problem));
    const { claims } = result;
    if (claims.role !== 'service_role' && claims.role !== 'supabase_admin') {
      throw new HttpError(fail(403, 'not_admin', 'User not allowed'));
    }
    return claims;
  }

  // ---------------------------------------------------------------- endpoints

  /** @param {Request} request */
  async function signup(request) {
    const body = await readBody(request);
    const email = normaliseEmail(body.email);
    if (body.phone && !body.email) return fail(422, 'phone_provider_disabled', 'Phone signups are disabled');
    if (!email) return fail(400, 'validation_failed', 'To signup, please provide your email');
    if (!EMAIL_PATTERN.test(email)) return fail(400, 'validation_failed', 'Unable to validate email address: invalid format');
    if (typeof body.password !== 'string' || body.password === '') {
      return fail(422, 'validation_failed', 'Signup requires a valid password');
    }
    checkPassword(body.password);
    await refuseCommonPassword(body.password);
    const data = body.data ?? {};
    if (typeof data !== 'object' || Array.isArray(data)) return fail(400, 'validation_failed', 'data must be an object');
    const user = await insertUser({
      email,
      password: body.password,
      userMetadata: data,
      confirmed: true,
      duplicateCode: 'user_already_exists',
      duplicateMsg: 'User already registered',
    });
    return startSession(user, request);
  }

  /** @param {Request} request @param {URL} url */
  async function token(request, url) {
    const grantType = url.searchParams.get('grant_type');
    const body = await readBody(request);
    if (grantType === 'password') {
      const email = normaliseEmail(body.email);
      if (!email || typeof body.password !== 'string') return invalidGrant('invalid_credentials', 'Invalid login credentials');
      const user = await findUserByEmail(email);
      const ok = user && user.encrypted_password && (await bcrypt.compare(body.password, user.encrypted_password));
      if (!user || !ok) return invalidGrant('invalid_credentials', 'Invalid login credentials');
      if (!user.email_confirmed_at) return invalidGrant('email_not_confirmed', 'Email not confirmed');
      if (user.banned_until && new Date(user.banned_until) > new Date()) return invalidGrant('user_banned', 'User is banned');
      return startSession(user, request);
    }
    if (grantType === 'refresh_token') {
      const presented = typeof body.refresh_token === 'string' ? body.refresh_token : '';
      if (!presented) return invalidGrant('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
      /** @type {Response | null} */
      let refused = null;
      /** @type {{ user: any, sessionId: string, next: string, authenticatedAt: number, method: string } | null} */
      let issued = null;
      await sql.begin(async (tx) => {
        const [row] = await tx`
          select rt.id, rt.token, rt.revoked, rt.session_id, rt.user_id, s.created_at as session_created_at, s.not_after,
            (select a.authentication_method from auth.mfa_amr_claims a where a.session_id = s.id
             order by a.created_at desc limit 1) as method
          from auth.refresh_tokens rt join auth.sessions s on s.id = rt.session_id
          where rt.token = ${presented}
          for update of rt`;
        if (!row) {
          refused = invalidGrant('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
          return;
        }
        if (row.revoked) {
          // Reuse of a rotated token: treat the session as stolen and end it.
          await tx`delete from auth.sessions where id = ${row.session_id}`;
          refused = invalidGrant('refresh_token_already_used', 'Invalid Refresh Token: Already Used');
          return;
        }
        if (row.not_after && new Date(row.not_after) <= new Date()) {
          refused = invalidGrant('session_expired', 'Invalid Refresh Token: Session Expired');
          return;
        }
        const user = await findUser(row.user_id, tx);
        if (!user) {
          refused = invalidGrant('user_not_found', 'Invalid Refresh Token: User Not Found');
          return;
        }
        if (user.banned_until && new Date(user.banned_until) > new Date()) {
          refused = invalidGrant('user_banned', 'User is banned');
          return;
        }
        const next = newRefreshToken();
        await tx`update auth.refresh_tokens set revoked = true, updated_at = now() where id = ${row.id}`;
        await tx`
          insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
          values (${ZERO_UUID}, ${next}, ${user.id}, false, now(), now(), ${row.token}, ${row.session_id})`;
        await tx`update auth.sessions set refreshed_at = now(), updated_at = now() where id = ${row.session_id}`;
        const authenticatedAt = Math.floor(new Date(row.session_created_at ?? Date.now()).getTime() / 1000);
        issued = { user, sessionId: row.session_id, next, authenticatedAt, method: row.method ?? 'password' };
      });
      if (refused) return refused;
      const done = /** @type {any} */ (issued);
      return sessionResponse(done.user, done.sessionId, done.next, done.authenticatedAt, done.method, 'token_refresh');
    }
    if (grantType === 'pkce') return oauth.pkceGrant(request, body);
    return fail(400, 'validation_failed', 'unsupported_grant_type');
  }

  /** @param {Request} request */
  async function getUser(request) {
    const { user } = await requireUser(request);
    return json(200, await userJson(user));
  }

  /**
   * Sends an email and waits for the SMTP server to take it. A failure is thrown as GoTrue answers
   * it: 500 "Error sending ... email" (never a hang: the mailer has timeouts).
   * @param {{ to: string, subject: string, text: string }[]} emails @param {string} what e.g. 'reauthentication'
   */
  async function sendMail(emails, what) {
    if (!mailer) {
      for (const { to, subject, text } of emails) console.log(`[auth] mail to ${to}: ${subject}\n${text}`);
      return;
    }
    try {
      await Promise.all(emails.map((email) => mailer.send(email)));
    } catch (error) {
      console.error(`[auth] sending the ${what} email failed: ${/** @type {Error} */ (error).message}`);
      throw new HttpError(fail(500, 'unexpected_failure', `Error sending ${what} email`));
    }
  }

  /**
   * An Auth email from config.toml's template of its kind, in the person's language (their
   * user_metadata, .Data, as hosted Auth gives its templates); null when the kind has no template.
   * @param {string} kind @param {any} user @param {Record<string, unknown>} data @param {string} [to]
   */
  function authEmail(kind, user, data, to = user.email) {
    const email = renderAuthEmail(emailTemplates, kind, {
      Email: user.email, SiteURL: siteUrl, Data: user.raw_user_meta_data ?? {}, ...data,
    });
    return email ? { to, ...email } : null;
  }

  /** GET /reauthenticate: emails the signed-in user a code for a password change. */
  async function reauthenticate(request) {
    const { user } = await requireUser(request);
    if (!user.email) return fail(422, 'validation_failed', 'Reauthentication requires an email address');
    const code = otpCode();
    await sql`update auth.users set reauthentication_token = ${otpHash(user.email, code)}, reauthentication_sent_at = now()
      where id = ${user.id}`;
    try {
      await sendMail([authEmail('reauthentication', user, { Token: code }) ??
        { to: user.email, subject: 'Confirm reauthentication', text: `Enter the code: ${code}` }], 'reauthentication');
    } catch (error) {
      // A code nobody received must not replace one that was (GoTrue rolls the change back).
      await sql`update auth.users set reauthentication_token = ${user.reauthentication_token ?? ''},
          reauthentication_sent_at = ${user.reauthentication_sent_at ?? null}
        where id = ${user.id} and reauthentication_token = ${otpHash(user.email, code)}`;
      throw error;
    }
    return json(200, {});
  }

  /**
   * With secure_password_change, a session older than 24 hours must show the emailed code (GoTrue:
   * 400 reauthentication_needed without one, reauthentication_not_valid for a wrong or old one).
   * @param {any} user @param {Record<string, any>} claims @param {unknown} nonce
   */
  async function checkReauthentication(user, claims, nonce) {
    if (!securePasswordChange) return null;
    const [session] = await sql`select created_at from auth.sessions where id::text = ${String(claims.session_id ?? '')}`;
    if (session && Date.now() - new Date(session.created_at).getTime() < RECENT_SESSION_MS) return null;
    if (typeof nonce !== 'string' || nonce === '') return fail(400, 'reauthentication_needed', 'Password update requires reauthentication');
    const sentAt = user.reauthentication_sent_at ? new Date(user.reauthentication_sent_at).getTime() : 0;
    if (!user.reauthentication_token || user.reauthentication_token !== otpHash(user.email, nonce) || Date.now() - sentAt > OTP_TTL_MS) {
      return fail(400, 'reauthentication_not_valid', 'Requires reauthentication');
    }
    await sql`update auth.users set reauthentication_token = '', reauthentication_sent_at = null where id = ${user.id}`;
    return null;
  }

  /**
   * With double_confirm_changes, an email change is only asked for: codes go to the current and the
   * new address, and POST /verify (type email_change) with both makes it.
   * @param {any} user @param {string} email
   */
  async function requestEmailChange(user, email) {
    const other = await findUserByEmail(email);
    if (other && other.id !== user.id) return fail(422, 'email_exists', 'A user with this email address has already been registered');
    const current = otpCode();
    const next = otpCode();
    await sql`update auth.users set email_change = ${email}, email_change_token_new = ${otpHash(email, next)},
        email_change_token_current = ${otpHash(user.email, current)}, email_change_confirm_status = 0,
        email_change_sent_at = now()
      where id = ${user.id}`;
    try {
      await sendMail([
        authEmail('email_change', user, { Token: current, NewEmail: email, SendingTo: user.email }) ??
          { to: user.email, subject: 'Confirm email change', text: `Confirm the change of your email to ${email} with the code: ${current}` },
        authEmail('email_change', user, { Token: next, NewEmail: email, SendingTo: email }, email) ??
          { to: email, subject: 'Confirm email change', text: `Confirm this new email address with the code: ${next}` },
      ], 'change');
    } catch (error) {
      // Undone, so the account does not show a pending change whose codes never arrived.
      await sql`update auth.users set email_change = ${user.email_change ?? ''},
          email_change_token_new = ${user.email_change_token_new ?? ''},
          email_change_token_current = ${user.email_change_token_current ?? ''},
          email_change_confirm_status = ${user.email_change_confirm_status ?? 0},
          email_change_sent_at = ${user.email_change_sent_at ?? null}
        where id = ${user.id} and email_change_token_new = ${otpHash(email, next)}`;
      throw error;
    }
    return null;
  }

  // ---------------------------------------------------------------- password recovery

  /**
   * A new recovery token for the user (replacing any earlier one): the token goes into the link,
   * only its hash into auth.users. With `onlyIfQuiet`, nothing happens (null) when a link went to
   * the address less than a minute ago, or to a banned (deactivated) user. One conditional update,
   * so two requests at once cannot both send.
   * @param {string} email @param {{ onlyIfQuiet: boolean }} options
   * @returns {Promise<{ user: any, token: string } | null>}
   */
  async function issueRecoveryToken(email, { onlyIfQuiet }) {
    const token = randomBytes(28).toString('hex');
    const [user] = await sql`
      update auth.users set recovery_token = ${recoveryDigest(token)}, recovery_sent_at = now(), updated_at = now()
      where lower(email) = ${email} and is_sso_user = false and deleted_at is null
        and (banned_until is null or banned_until <= now())
        and (not ${onlyIfQuiet} or recovery_sent_at is null
             or recovery_sent_at <= now() - make_interval(secs => ${RECOVERY_EMAIL_INTERVAL_MS / 1000}))
      returning *`;
    return user ? { user, token } : null;
  }

  /** @param {string} token @param {string} redirectTo */
  /** The recovery requests of each client address in the last window (their times). */
  const recoverLimit = slidingWindow(RECOVER_PER_ADDRESS, RECOVER_WINDOW_MS);

  function recoveryLink(token, redirectTo) {
    return `${issuer}/verify?token=${token}&type=recovery&redirect_to=${encodeURIComponent(redirectTo)}`;
  }

  /**
   * POST /recover {email} (?redirect_to=): emails a link to choose a new password. The answer is
   * 200 {} whether or not the address has an account, was sent one a minute ago or is banned, so
   * it tells nobody which addresses exist; the email is sent after answering for the same reason.
   * One client address makes at most RECOVER_PER_ADDRESS requests in 5 minutes (429 after).
   * @param {Request} request @param {URL} url
   */
  async function recover(request, url) {
    if (!recoverLimit.take(clientIp(request) ?? '')) {
      return fail(429, 'over_request_rate_limit', 'Request rate limit reached');
    }
    const body = await readBody(request);
    const email = normaliseEmail(body.email);
    if (!email) return fail(422, 'validation_failed', 'Password recovery requires an email');
    if (!EMAIL_PATTERN.test(email) || email.length > 255) {
      return fail(400, 'validation_failed', 'Unable to validate email address: invalid format');
    }
    const redirectTo = allowedRedirect(url.searchParams.get('redirect_to') ?? body.redirect_to);
    const issued = await issueRecoveryToken(email, { onlyIfQuiet: true });
    if (issued) {
      const link = recoveryLink(issued.token, redirectTo);
      void Promise.resolve()
        .then(() => sendRecoveryMail(issued.user, link))
        .catch((error) => console.error('[auth] could not send the recovery email:', error));
    }
    return json(200, {});
  }

  /** @param {any} user @param {string} link */
  async function sendRecoveryMail(user, link) {
    const to = user.email;
    const templated = authEmail('recovery', user, { ConfirmationURL: link });
    if (templated) {
      if (mailer) await mailer.send(templated);
      else console.log(`[auth] mail to ${to}: ${templated.subject}\n${templated.text}`);
      return;
    }
    const subject = 'Reset your password';
    const text = [
      'Someone asked to reset the password for this email address.',
      '',
      `Choose a new password: ${link}`,
      '',
      'The link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.',
    ].join('\n');
    const html = [
      '<p>Someone asked to reset the password for this email address.</p>',
      `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>`,
      '<p>The link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.</p>',
    ].join('\n');
    if (mailer) await mailer.send({ to, subject, text, html });
    else console.log(`[auth] mail to ${to}: ${subject}\n${text}`);
  }

  /**
   * Uses up a recovery token: the user whose token it is, when it is under an hour old and the
   * user is not banned; the token is cleared in the same statement (single use). Opening the link
   * also confirms the address, as GoTrue does.
   * @param {unknown} token
   */
  async function consumeRecoveryToken(token) {
    if (typeof token !== 'string' || !RECOVERY_TOKEN_PATTERN.test(token)) return null;
    const [user] = await sql`
      update auth.users set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
      where recovery_token = ${recoveryDigest(token)}
        and recovery_sent_at > now() - make_interval(secs => ${RECOVERY_TTL_MS / 1000})
        and deleted_at is null and (banned_until is null or banned_until <= now())
      returning *`;
    return user ?? null;
  }

  /**
   * GET /verify?token&type=recovery&redirect_to: the link in the email. Signs the person in and
   * sends them (303) to redirect_to with the session in the fragment, or with GoTrue's error
   * fragment when the link is unknown, used or expired.
   * @param {Request} request @param {URL} url
   */
  async function verifyLink(request, url) {
    const redirectTo = allowedRedirect(url.searchParams.get('redirect_to'));
    const target = new URL(redirectTo);
    const type = url.searchParams.get('type');
    const user = type === 'recovery' ? await consumeRecoveryToken(url.searchParams.get('token')) : null;
    if (!user) {
      target.hash = new URLSearchParams({
        error: 'access_denied',
        error_code: 'otp_expired',
        error_description: 'Email link is invalid or has expired',
      }).toString();
    } else {
      // amr 'otp', as GoTrue's implicit flow records every emailed link (only PKCE records 'recovery').
      const session = await openSession(user, request, 'otp');
      target.hash = new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: 'bearer',
        type: 'recovery',
      }).toString();
    }
    return new Response(null, { status: 303, headers: { location: target.href, 'cache-control': 'no-store' } });
  }

  /**
   * POST /admin/generate_link {type: 'recovery', email, redirect_to}: a recovery link for the
   * caller (the service role) to send itself; no email goes out. 404 for an unknown address, 422
   * for a banned (deactivated) user: they get no working link.
   * @param {Request} request @param {URL} url
   */
  async function adminGenerateLink(request, url) {
    await requireAdmin(request);
    const body = await readBody(request);
    if (body.type !== 'recovery') return fail(422, 'validation_failed', 'Only recovery links can be generated here');
    const email = normaliseEmail(body.email);
    if (!email || !EMAIL_PATTERN.test(email)) return fail(400, 'validation_failed', 'Unable to validate email address: invalid format');
    const redirectTo = allowedRedirect(url.searchParams.get('redirect_to') ?? body.redirect_to ?? body.redirectTo);
    const known = await findUserByEmail(email);
    if (!known) return fail(404, 'user_not_found', 'User with this email not found');
    const issued = await issueRecoveryToken(email, { onlyIfQuiet: false });
    if (!issued) return fail(422, 'user_banned', 'User is banned');
    return json(200, {
      ...(await userJson(issued.user)),
      action_link: recoveryLink(issued.token, redirectTo),
      // The local Auth sends links only, never a code to type: no email_otp is valid.
      email_otp: '',
      hashed_token: issued.token,
      verification_type: 'recovery',
      redirect_to: redirectTo,
    });
  }

  /**
   * POST /verify {type, ...}: a recovery link's token as token_hash (answers a session), or one of
   * the two codes of an email change {type: 'email_change', email, token}.
   * @param {Request} request
   */
  async function verify(request) {
    const body = await readBody(request);
    if (body.type === 'recovery') {
      const user = await consumeRecoveryToken(body.token_hash);
      if (!user) return fail(403, 'otp_expired', 'Token has expired or is invalid');
      return json(200, await openSession(user, request, 'otp'));
    }
    if (body.type !== 'email_change') return fail(400, 'validation_failed', 'Only recovery and email_change tokens are supported here');
    const email = normaliseEmail(body.email);
    const code = typeof body.token === 'string' ? body.token.trim() : '';
    if (!email || !code) return fail(400, 'validation_failed', 'Verify requires an email and a token');
    const hash = otpHash(email, code);
    return await sql.begin(async (tx) => {
      const [user] = await tx`
        select * from auth.users
        where email_change_sent_at > now() - make_interval(secs => ${OTP_TTL_MS / 1000})
          and ((lower(email) = ${email} and email_change_token_current = ${hash})
            or (lower(email_change) = ${email} and email_change_token_new = ${hash}))
        for update`;
      if (!user) return fail(403, 'otp_expired', 'Token has expired or is invalid');
      const isCurrent = user.email_change_token_current === hash && normaliseEmail(user.email) === email;
      await tx`update auth.users set
          email_change_token_current = case when ${isCurrent} then '' else email_change_token_current end,
          email_change_token_new = case when ${isCurrent} then email_change_token_new else '' end,
          email_change_confirm_status = email_change_confirm_status + 1
        where id = ${user.id}`;
      if (user.email_change_confirm_status + 1 < 2) {
        return json(200, { msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email' });
      }
      const taken = await findUserByEmail(user.email_change, tx);
      if (taken && taken.id !== user.id) return fail(422, 'email_exists', 'A user with this email address has already been registered');
      await tx`update auth.users set email = email_change, email_change = '', email_change_token_new = '',
          email_change_token_current = '', email_change_confirm_status = 0, email_change_sent_at = null,
          email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
        where id = ${user.id}`;
      await tx`update auth.identities set identity_data = identity_data || ${sql.json({ email: user.email_change })}::jsonb,
          updated_at = now() where user_id = ${user.id} and provider = 'email'`;
      return json(200, { msg: 'Email changed' });
    });
  }

  /** @param {Request} request */
  async function putUser(request) {
    const { user, claims } = await requireUser(request);
    const body = await readBody(request);
    /** @type {Parameters<typeof updateUser>[1]} */
    const changes = {};
    if (body.email !== undefined) {
      const email = normaliseEmail(body.email);
      if (!email || !EMAIL_PATTERN.test(email)) return fail(400, 'validation_failed', 'Unable to validate email address: invalid format');
      if (email !== normaliseEmail(user.email)) {
        if (doubleConfirmChanges) {
          const refused = await requestEmailChange(user, email);
          if (refused) return refused;
        } else {
          changes.email = email;
        }
      }
    }
    if (body.password !== undefined) {
      if (typeof body.password !== 'string' || body.password === '') return fail(422, 'validation_failed', 'Password cannot be empty');
      checkPassword(body.password);
      await refuseCommonPassword(body.password);
      const refused = await checkReauthentication(user, claims, body.nonce);
      if (refused) return refused;
      changes.password = body.password;
    }
    if (body.data !== undefined) {
      if (!body.data || typeof body.data !== 'object' || Array.isArray(body.data)) {
        return fail(400, 'validation_failed', 'data must be an object');
      }
      changes.userMetadata = body.data;
    }
    // As GoTrue: a new password ends every other session of the user; this one stays.
    const updated = await updateUser(user, changes, { keepSession: claims.session_id });
    return json(200, await userJson(updated));
  }

  /** @param {Request} request @param {URL} url */
  async function logout(request, url) {
    const { user, claims } = await requireUser(request);
    const scope = url.searchParams.get('scope') ?? 'global';
    if (scope === 'local') await sql`delete from auth.sessions where id = ${claims.session_id}`;
    else if (scope === 'others') await sql`delete from auth.sessions where user_id = ${user.id} and id <> ${claims.session_id}`;
    else if (scope === 'global') await sql`delete from auth.sessions where user_id = ${user.id}`;
    else return fail(400, 'validation_failed', 'Unsupported logout scope');
    return new Response(null, { status: 204 });
  }

  /** @param {Request} request */
  async function adminCreateUser(request) {
    await requireAdmin(request);
    const body = await readBody(request);
    const email = normaliseEmail(body.email);
    if (!email) return fail(400, 'validation_failed', 'Unable to validate email address: invalid format');
    if (!EMAIL_PATTERN.test(email)) return fail(400, 'validation_failed', 'Unable to validate email address: invalid format');
    if (body.password !== undefined && body.password !== null) {
      if (typeof body.password !== 'string') return fail(400, 'validation_failed', 'Password must be a string');
      checkPassword(body.password);
    }
    const userMetadata = objectOr(body.user_metadata ?? body.data, {});
    const appMetadata = objectOr(body.app_metadata, {});
    if (userMetadata === undefined || appMetadata === undefined) {
      return fail(400, 'validation_failed', 'user_metadata and app_metadata must be objects');
    }
    const user = await insertUser({
      email,
      password: body.password ?? null,
      userMetadata,
      appMetadata,
      confirmed: body.email_confirm === true,
      role: typeof body.role === 'string' && body.role ? body.role : undefined,
      duplicateCode: 'email_exists',
      duplicateMsg: 'A user with this email address has already been registered',
    });
    return json(200, await userJson(user));
  }

  /** @param {Request} request @param {URL} url */
  async function adminListUsers(request, url) {
    await requireAdmin(request);
    const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
    const perPage = Math.min(1000, Math.max(1, Number.parseInt(url.searchParams.get('per_page') ?? '50', 10) || 50));
    const [{ count }] = await sql`select count(*)::int as count from auth.users where deleted_at is null`;
    const rows = await sql`
      select * from auth.users where deleted_at is null
      order by created_at desc, id limit ${perPage} offset ${(page - 1) * perPage}`;
    const users = [];
    for (const row of rows) users.push(await userJson(row));
    const base = `${issuer}/admin/users`;
    const last = Math.max(1, Math.ceil(count / perPage));
    const links = [];
    if (page < last) links.push(`<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"`);
    links.push(`<${base}?page=${last}&per_page=${perPage}>; rel="last"`);
    return json(200, { users, aud: 'authenticated' }, { 'x-total-count': String(count), link: links.join(', ') });
  }

  /** @param {Request} request @param {string} id */
  async function adminUser(request, id) {
    await requireAdmin(request);
    const user = await findUser(id);
    if (!user) return fail(404, 'user_not_found', 'User not found');
    if (request.method === 'GET') return json(200, await userJson(user));
    if (request.method === 'DELETE') {
      await sql`delete from auth.users where id = ${user.id}`;
      return json(200, {});
    }
    // PUT
    const body = await readBody(request);
    /** @type {Parameters<typeof updateUser>[1]} */
    const changes = {};
    if (body.email !== undefined) {
      const email = normaliseEmail(body.email);
      if (!email || !EMAIL_PATTERN.test(email)) return fail(400, 'validation_failed', 'Unable to validate email address: invalid format');
      changes.email = email;
    }
    if (body.password !== undefined) {
      if (typeof body.password !== 'string') return fail(400, 'validation_failed', 'Password must be a string');
      checkPassword(body.password);
      changes.password = body.password;
    }
    if (body.user_metadata !== undefined) {
      const value = objectOr(body.user_metadata, {});
      if (value === undefined) return fail(400, 'validation_failed', 'user_metadata must be an object');
      changes.userMetadata = value;
    }
    if (body.app_metadata !== undefined) {
      const value = objectOr(body.app_metadata, {});
      if (value === undefined) return fail(400, 'validation_failed', 'app_metadata must be an object');
      changes.appMetadata = value;
    }
    if (body.email_confirm === true) changes.confirmEmail = true;
    if (typeof body.role === 'string' && body.role) changes.role = body.role;
    if (body.ban_duration !== undefined) {
      if (typeof body.ban_duration !== 'string' || (body.ban_duration !== 'none' && !parseDuration(body.ban_duration))) {
        return fail(400, 'validation_failed', 'invalid format for ban duration');
      }
      changes.banDuration = body.ban_duration;
    }
    const updated = await updateUser(user, changes);
    return json(200, await userJson(updated));
  }

  // Sign-in through an identity provider (/authorize, /callback, the pkce grant): platform/auth/oauth.mjs.
  const oauth = createOAuth({
    sql,
    publicUrl,
    providers: external,
    providerFetch,
    manualLinking,
    helpers: { allowedRedirect, siteUrl: site.href, runBeforeUserCreated, findUser, openSession, fail },
  });
  // SAML single sign-on (/sso, /sso/saml/*, /admin/sso/providers): platform/auth/saml.mjs.
  const saml = createSaml({ sql, publicUrl, metadataFetch: providerFetch, helpers: { allowedRedirect, siteUrl: site.href, runBeforeUserCreated, findUser, openSession, fail, requireAdmin } });

  function settings() {
    return json(200, {
      external: { email: true, phone: false, anonymous_users: false, ...oauth.enabled() },
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: true,
    });
  }

  // ---------------------------------------------------------------- router

  /** @param {Request} request */
  async function route(request) {
    const url = new URL(request.url);
    let path = url.pathname.replace(/^\/auth\/v1(?=\/|$)/, '').replace(/\/+$/, '') || '/';
    const method = request.method;
    if (method === 'OPTIONS') return new Response(null, { status: 204 });
    if (path === '/.well-known/jwks.json' && method === 'GET') return json(200, keys.jwks);
    if (path === '/health' && method === 'GET') {
      return json(200, { version: 'local', name: 'GoTrue', description: 'Local stand-in for Supabase Auth' });
    }
    if (path === '/settings' && method === 'GET') return settings();
    if (path === '/signup' && method === 'POST') return signup(request);
    if (path === '/token' && method === 'POST') return token(request, url);
    if (path === '/authorize' && method === 'GET') return oauth.authorize(request, url);
    if (path === '/callback' && method === 'GET') return oauth.callback(request, url);
    if (path === '/user/identities/authorize' && method === 'GET') return oauth.linkAuthorize(request, url, (await requireUser(request)).user);
    if (path === '/sso' || path.startsWith('/sso/') || path.startsWith('/admin/sso/')) return (await saml.route(request, url, path)) ?? fail(404, 'not_found', 'Not Found');
    if (path === '/user' && method === 'GET') return getUser(request);
    if (path === '/user' && method === 'PUT') return putUser(request);
    if (path === '/reauthenticate' && method === 'GET') return reauthenticate(request);
    if (path === '/verify' && method === 'POST') return verify(request);
    if (path === '/verify' && method === 'GET') return verifyLink(request, url);
    if (path === '/recover' && method === 'POST') return recover(request, url);
    if (path === '/admin/generate_link' && method === 'POST') return adminGenerateLink(request, url);
    if (path === '/logout' && method === 'POST') return logout(request, url);
    if (path === '/admin/users' && method === 'POST') return adminCreateUser(request);
    if (path === '/admin/users' && method === 'GET') return adminListUsers(request, url);
    const match = /^\/admin\/users\/([^/]+)$/.exec(path);
    if (match && ['GET', 'PUT', 'DELETE'].includes(method)) {
      await requireAdmin(request);
      if (!UUID_PATTERN.test(decodeURIComponent(match[1]))) {
        return fail(404, 'user_not_found', 'User not found');
      }
      return adminUser(request, decodeURIComponent(match[1]));
    }
    return fail(404, 'not_found', 'Not Found');
  }

  return {
    async fetch(request) {
      try {
        return await route(request);
      } catch (error) {
        if (error instanceof HttpError) return error.response;
        console.error('[auth]', error);
        return fail(500, 'unexpected_failure', 'Unexpected failure');
      }
    },
    verifyAccessToken,
  };
}

// ---------------------------------------------------------------- helpers

/** @param {unknown} value */
function iso(value) {
  if (!value) return undefined;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** @param {string} text */
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** @param {unknown} value */
function normaliseEmail(value) {
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/** @param {string} password */
function checkPassword(password) {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new HttpError(
      fail(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, {
        weak_password: { reasons: ['length'] },
      }),
    );
  }
  if (password.length > 72) {
    throw new HttpError(fail(422, 'validation_failed', 'Password cannot be longer than 72 characters'));
  }
}

/** @type {Promise<Set<string>> | undefined} */
let commonPasswords;

/**
 * Refuses a password on the bundled common-password list with GoTrue's weak_password answer
 * (reason 'pwned'), as hosted Supabase's leaked-password protection does for sign-up and user
 * updates. The admin API is not checked (GoTrue does not either).
 * @param {string} password
 */
async function refuseCommonPassword(password) {
  commonPasswords ??= readFile(new URL('../supabase/functions/_shared/common-passwords.txt', import.meta.url), 'utf8')
    .then((text) => new Set(text.split('\n').filter(Boolean)));
  if ((await commonPasswords).has(password.trim().toLowerCase())) {
    throw new HttpError(
      fail(422, 'weak_password', 'Password is known to be weak and easy to guess, please choose a different one.', {
        weak_password: { reasons: ['pwned'] },
      }),
    );
  }
}

/** Reads a JSON body, refusing a malformed one with 400. @param {Request} request */
async function readBody(request) {
  const body = await readJson(request);
  if (body === undefined) throw new HttpError(fail(400, 'bad_json', 'Could not parse request body as JSON'));
  return body;
}

/** @param {unknown} value @param {object} fallback @returns {Record<string, unknown> | undefined} */
function objectOr(value, fallback) {
  if (value === undefined || value === null) return /** @type {any} */ (fallback);
  if (typeof value !== 'object' || Array.isArray(value)) return undefined;
  return /** @type {any} */ (value);
}

/** GoTrue merges metadata updates key by key; a null value removes the key. */
function mergeMetadata(current, changes) {
  const merged = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(changes ?? {})) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** Go-style durations ("24h", "30m", "10s", "1h30m") in milliseconds; 0 when invalid. */
function parseDuration(text) {
  const units = { h: 3600_000, m: 60_000, s: 1000, ms: 1 };
  let total = 0;
  let rest = String(text);
  const part = /^(\d+(?:\.\d+)?)(ms|h|m|s)/;
  if (!rest) return 0;
  while (rest) {
    const match = part.exec(rest);
    if (!match) return 0;
    total += Number(match[1]) * units[/** @type {keyof typeof units} */ (match[2])];
    rest = rest.slice(match[0].length);
  }
  return total;
}

/**
 * A per-key sliding window: `take(key)` counts one request and answers false once the key has made
 * `limit` in the last `windowMs` (a refused request does not count). Keys with no recent request
 * are dropped as the map is walked, so it stays as small as the set of recent clients.
 * @param {number} limit @param {number} windowMs
 */
export function slidingWindow(limit, windowMs, now = () => Date.now()) {
  /** @type {Map<string, number[]>} */
  const seen = new Map();
  let lastSweep = now();
  return {
    /** @param {string} key */
    take(key) {
      const at = now();
      if (at - lastSweep > windowMs) {
        for (const [k, times] of seen) if (times[times.length - 1] <= at - windowMs) seen.delete(k);
        lastSweep = at;
      }
      const times = (seen.get(key) ?? []).filter((t) => t > at - windowMs);
      if (times.length >= limit) {
        seen.set(key, times);
        return false;
      }
      times.push(at);
      seen.set(key, times);
      return true;
    },
  };
}

/** The caller's address from x-forwarded-for (set by the gateway), or null. @param {Request} request */
function clientIp(request) {
  const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() ?? '';
  return isIP(forwarded) ? forwarded : null;
}
