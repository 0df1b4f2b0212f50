// What the local Auth's sign-ins through an identity provider share, OpenID Connect
// (platform/auth/oauth.mjs) and SAML (platform/auth/saml.mjs), as GoTrue shares them
// (external.go's createAccountFromExternalIdentity, its error redirects, the flow state's auth code):
// the user of an identity, found or created, the redirects back to the app, and the end of a flow.
import { randomUUID } from 'node:crypto';

/** GoTrue's HTTP status to OAuth error mapping for errors sent back in a redirect. */
export const OAUTH_ERROR_OF_STATUS = { 400: 'invalid_request', 401: 'unauthorized_client', 403: 'access_denied', 500: 'server_error', 503: 'temporarily_unavailable' };

/**
 * @typedef {{ error: string, description: string, code?: string }} Problem what an error redirect carries
 */

/** RFC 7636's code challenge: 43 to 128 unreserved characters (GoTrue's check). */
const CODE_CHALLENGE_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * GoTrue's check of a flow's PKCE parameters (both or neither, the challenge's form, the method):
 * its message, or '' when they are fine.
 * @param {string} challenge @param {string} method lower-cased
 */
export function pkceProblem(challenge, method) {
  if ((challenge === '') !== (method === '')) return 'PKCE flow requires code_challenge_method and code_challenge';
  if (challenge && !CODE_CHALLENGE_PATTERN.test(challenge)) {
    return 'code challenge has to be between 43 and 128 characters and contain only alphanumeric characters, hyphens, periods, underscores and tildes';
  }
  if (method && method !== 's256' && method !== 'plain') return 'code challenge method not supported';
  return '';
}

/** A redirect (no caching: it carries one-time values). @param {string} location @param {number} [status] */
export function redirect(location, status = 302) {
  return new Response(null, { status, headers: { location, 'cache-control': 'no-store' } });
}

/**
 * GoTrue's error redirect: the error in the query, and (the OAuth callback's) again in the fragment.
 * @param {string} target @param {Problem} problem @param {number} [status] @param {{ fragment?: boolean }} [options]
 */
export function errorRedirect(target, { error, description, code }, status = 302, { fragment = true } = {}) {
  const url = new URL(target);
  const params = new URLSearchParams({ error, error_description: description, ...(code ? { error_code: code } : {}) });
  for (const [key, value] of params) url.searchParams.set(key, value);
  if (fragment) url.hash = params.toString();
  return redirect(url.href, status);
}

/**
 * An answer prepared by Auth (thrown with a `response`, as the before-user-created hook's refusal
 * is) as the problem an error redirect carries; anything else is thrown on.
 * @param {unknown} error @returns {Promise<Problem>}
 */
export async function problemOf(error) {
  const answer = /** @type {any} */ (error)?.response;
  if (!(answer instanceof Response)) throw error;
  const body = await answer.clone().json().catch(() => ({}));
  return {
    error: OAUTH_ERROR_OF_STATUS[/** @type {keyof typeof OAUTH_ERROR_OF_STATUS} */ (answer.status)] ?? 'server_error',
    description: String(body.msg ?? 'Unexpected failure'),
    code: typeof body.error_code === 'string' ? body.error_code : undefined,
  };
}

const EMAIL_EXISTS = { error: 'access_denied', code: 'email_exists', description: 'A user with this email address has already been registered' };
const SAVE_FAILED = { error: 'server_error', code: 'unexpected_failure', description: 'Database error saving new user' };

/**
 * @param {{ sql: import('postgres').Sql,
 *   runBeforeUserCreated: (id: string, input: { email: string, userMetadata: object }, appMetadata: object) => Promise<void>,
 *   findUser: (id: string) => Promise<any>,
 *   openSession: (user: any, request: Request, method: string) => Promise<Record<string, any>> }} options
 */
export function createIdentitySignIn({ sql, runBeforeUserCreated, findUser, openSession }) {
  /**
   * The user of a provider's identity: the one already linked to it (its identity data and
   * metadata refreshed, as GoTrue does), or a new one, which the before-user-created hook may
   * refuse. For an OAuth provider, an address that already belongs to another account is refused
   * rather than linked (docs/decisions/sso-through-supabase-auth.md); an SSO provider's users
   * (`sso`) are accounts of their own (is_sso_user), never linked to another by address, as in GoTrue.
   * @param {string} providerType @param {{ sub: string, email: string, identityData: Record<string, unknown> }} data
   * @param {{ sso?: boolean }} [options]
   * @returns {Promise<any>} the user row, or { refused } with the problem to send back
   */
  async function signInIdentity(providerType, data, { sso = false } = {}) {
    const [identity] = await sql`select * from auth.identities where provider = ${providerType} and provider_id = ${data.sub}`;
    let userId = identity?.user_id;
    if (identity) {
      await sql.begin(async (tx) => {
        await tx`update auth.identities set identity_data = ${sql.json(data.identityData)}::jsonb, last_sign_in_at = now(), updated_at = now()
          where id = ${identity.id}`;
        await tx`update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || ${sql.json(data.identityData)}::jsonb,
            raw_app_meta_data = jsonb_set(coalesce(raw_app_meta_data, '{}'::jsonb), '{providers}',
              (select coalesce(jsonb_agg(distinct i.provider), '[]'::jsonb) from auth.identities i where i.user_id = ${identity.user_id})),
            email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
          where id = ${identity.user_id}`;
      });
    } else {
      if (!sso) {
        const [taken] = await sql`select id from auth.users where lower(email) = ${data.email} and is_sso_user = false and deleted_at is null`;
        if (taken) return { refused: EMAIL_EXISTS };
      }
      userId = randomUUID();
      const appMetadata = { provider: providerType, providers: [providerType] };
      try {
        await runBeforeUserCreated(userId, { email: data.email, userMetadata: data.identityData }, appMetadata);
      } catch (error) {
        return { refused: await problemOf(error) };
      }
      try {
        await sql.begin(async (tx) => {
          // The local Auth confirms addresses itself (mailer_autoconfirm), as GoTrue then does for these users.
          await tx`
            insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
              raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at, is_anonymous, is_sso_user)
            values ('00000000-0000-0000-0000-000000000000', ${userId}, 'authenticated', 'authenticated', ${data.email}, '',
              now(), ${sql.json(appMetadata)}::jsonb, ${sql.json(data.identityData)}::jsonb, false, now(), now(), false, ${sso})`;
          await tx`
            insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
            values (${data.sub}, ${userId}, ${sql.json(data.identityData)}::jsonb, ${providerType}, now(), now(), now())`;
        });
      } catch (error) {
        const pgError = /** @type {any} */ (error);
        // The same person signing in twice at once, or the address taken meanwhile.
        if (pgError?.code === '23505') return { refused: EMAIL_EXISTS };
        if (pgError?.code) return { refused: SAVE_FAILED };
        throw error;
      }
    }
    const user = await findUser(userId);
    if (!user) return { refused: SAVE_FAILED };
    if (user.banned_until && new Date(user.banned_until) > new Date()) {
      return { refused: { error: 'access_denied', code: 'user_banned', description: 'User is banned' } };
    }
    return user;
  }

  /**
   * The end of a sign-in: with PKCE, the flow state gets the user and a one-time auth code, and the
   * browser goes to the app with ?code= (exchanged at POST /token?grant_type=pkce); without it (the
   * implicit flow), the session itself goes in the fragment.
   * @param {{ flow: any, user: any, back: string, request: Request, method: string,
   *   providerToken?: string, providerRefreshToken?: string | null }} input
   */
  async function finishSignIn({ flow, user, back, request, method, providerToken, providerRefreshToken }) {
    const target = new URL(back);
    if (flow?.code_challenge) {
      const authCode = randomUUID();
      await sql`update auth.flow_state set user_id = ${user.id}, auth_code = ${authCode}, auth_code_issued_at = now(),
          provider_access_token = ${providerToken ?? null}, provider_refresh_token = ${providerRefreshToken ?? null}, updated_at = now()
        where id = ${flow.id}`;
      target.searchParams.set('code', authCode);
      return redirect(target.href);
    }
    if (flow) await sql`delete from auth.flow_state where id = ${flow.id}`;
    const session = await openSession(user, request, method);
    target.hash = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      ...(providerToken ? { provider_token: providerToken } : {}),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
    }).toString();
    return redirect(target.href);
  }

  /**
   * Links a provider's identity to a signed-in user (supabase-js `linkIdentity`, GoTrue's manual
   * linking): the person proved who they are by their session. An identity already linked to another
   * user is refused as GoTrue refuses it; the database may refuse the link (the identity's trigger).
   * @param {string} userId @param {string} providerType
   * @param {{ sub: string, email: string, identityData: Record<string, unknown> }} data
   * @returns {Promise<any>} the user row, or { refused }
   */
  async function linkIdentity(userId, providerType, data) {
    const [identity] = await sql`select * from auth.identities where provider = ${providerType} and provider_id = ${data.sub}`;
    if (identity && identity.user_id !== userId) {
      return { refused: { error: 'server_error', code: 'identity_already_exists', description: 'Identity is already linked to another user' } };
    }
    if (identity) return signInIdentity(providerType, data);
    try {
      await sql.begin(async (tx) => {
        await tx`
          insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
          values (${data.sub}, ${userId}, ${sql.json(data.identityData)}::jsonb, ${providerType}, now(), now(), now())`;
        await tx`update auth.users set raw_app_meta_data = jsonb_set(coalesce(raw_app_meta_data, '{}'::jsonb), '{providers}',
            (select coalesce(jsonb_agg(distinct i.provider), '[]'::jsonb) from auth.identities i where i.user_id = ${userId})),
            updated_at = now()
          where id = ${userId}`;
      });
    } catch (error) {
      const pgError = /** @type {any} */ (error);
      // The database's refusal (a raised exception) is the person's to read, as the hook's are.
      if (pgError?.code === '42501' && pgError.message) return { refused: { error: 'access_denied', code: 'identity_not_linked', description: pgError.message } };
      if (pgError?.code) return { refused: SAVE_FAILED };
      throw error;
    }
    const user = await findUser(userId);
    return user ?? { refused: SAVE_FAILED };
  }

  return { signInIdentity, finishSignIn, linkIdentity };
}
