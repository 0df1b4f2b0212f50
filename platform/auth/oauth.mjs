// The local Auth's sign-in through an organisation's identity provider, as Supabase Auth (GoTrue)
// does it for its `azure` provider (internal/api/external.go, external_oauth.go, provider/azure.go,
// token.go's PKCE grant, models/flow_state.go):
//   GET  /authorize?provider=azure&redirect_to&scopes&code_challenge&code_challenge_method
//        stores a flow state and sends the browser (302) to the provider's authorisation endpoint;
//   GET  /callback?code&state  (the provider sends the browser here) exchanges the code, finds or
//        creates the user and its identity, and sends the browser to redirect_to?code=<auth code>;
//   POST /token?grant_type=pkce {auth_code, code_verifier}  answers the session, once.
// The protocol work (discovery, the token request, the id_token's signature, issuer, audience,
// nonce and expiry) is openid-client's; this file only keeps the state and maps the claims.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import { json } from '../http.mjs';
import { createIdentitySignIn, errorRedirect, pkceProblem, redirect } from './identity.mjs';

/** How long a sign-in may take from /authorize to the code exchange (GoTrue's flow state expiry
 * and its provider-side state timeout, both 5 minutes). */
export const FLOW_STATE_TTL_SECONDS = 300;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** RFC 6749's scope token. */
const SCOPE_PATTERN = /^[\x21\x23-\x5B\x5D-\x7E]{1,100}$/;
/** Query parameters passed on to the provider (supabase-js's queryParams, e.g. Entra's domain_hint). */
const FORWARDED_PARAMS = ['prompt', 'login_hint', 'domain_hint'];
/** Claims GoTrue leaves out of an Entra ID user's custom_claims (provider/azure.go). */
const AZURE_CLAIMS_NOT_CUSTOM = ['aud', 'iss', 'iat', 'nbf', 'exp', 'c_hash', 'at_hash', 'aio', 'nonce', 'rh', 'uti', 'jti', 'ver', 'sub', 'name', 'preferred_username'];

/**
 * @typedef {object} ExternalProvider `[auth.external.<name>]` of supabase/config.toml
 * @property {boolean} enabled
 * @property {string} clientId
 * @property {string} secret
 * @property {string} url the provider's base URL; Entra ID's is https://login.microsoftonline.com/<tenant-id>
 * @property {string} redirectUri where the provider sends the browser back ('' = <publicUrl>/auth/v1/callback)
 */

/**
 * The lines of one `[name]` table of a TOML file (up to the next table header).
 * @param {string} toml @param {string} name
 */
export function tomlSection(toml, name) {
  const lines = toml.split('\n');
  const start = lines.findIndex((line) => line.trim().replace(/\s*#.*$/, '') === `[${name}]`);
  if (start < 0) return '';
  const end = lines.findIndex((line, i) => i > start && /^\s*\[[^\]]+\]\s*(#.*)?$/.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/**
 * The external providers of supabase/config.toml the local Auth supports (azure), with the
 * Supabase CLI's `env(NAME)` values read from env, and `[auth] additional_redirect_urls`.
 * @param {string} toml @param {Record<string, string | undefined>} [env]
 */
export function externalSettingsFromConfig(toml, env = process.env) {
  const section = tomlSection(toml, 'auth.external.azure');
  const raw = (/** @type {string} */ key) => {
    const match = new RegExp(`^\\s*${key}\\s*=\\s*(?:"([^"]*)"|(true|false))`, 'm').exec(section);
    return match ? (match[1] ?? match[2]) : '';
  };
  const value = (/** @type {string} */ key) => {
    const fromEnv = /^env\(([A-Za-z_][A-Za-z0-9_]*)\)$/.exec(raw(key));
    return fromEnv ? (env[fromEnv[1]] ?? '') : raw(key);
  };
  const list = /^\s*additional_redirect_urls\s*=\s*\[([^\]]*)\]/m.exec(tomlSection(toml, 'auth'))?.[1] ?? '';
  return {
    external: {
      azure: { enabled: raw('enabled') === 'true', clientId: value('client_id'), secret: value('secret'), url: value('url'), redirectUri: value('redirect_uri') },
    },
    additionalRedirectUrls: [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]),
    manualLinking: /^\s*enable_manual_linking\s*=\s*true\b/m.test(tomlSection(toml, 'auth')),
  };
}

/**
 * Whether a URL is on an allow list of GoTrue's glob patterns (`*` any run of characters but `.`
 * and `/`, `**` any run at all), or equal to an entry.
 * @param {string} url @param {string[]} patterns
 */
export function onAllowList(url, patterns) {
  return patterns.some((pattern) => {
    if (pattern === url) return true;
    const source = pattern
      .split(/(\*\*|\*)/)
      .map((part) => (part === '**' ? '.*' : part === '*' ? '[^./]*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return new RegExp(`^${source}$`).test(url);
  });
}

/** The OIDC nonce of a flow: derived from its provider-side verifier, which never leaves the server. */
function nonceOf(verifier) {
  return createHash('sha256').update(`nonce:${verifier}`).digest('base64url');
}

/**
 * What GoTrue keeps of an Entra ID user (provider/azure.go's parseAzureIDToken): the identity data
 * (also the new user's user_metadata) and the email with whether Entra vouches for it (xms_edov).
 * @param {Record<string, unknown>} claims the verified id_token's claims
 */
export function azureUserData(claims) {
  const text = (/** @type {unknown} */ v) => (typeof v === 'string' ? v.trim() : '');
  const sub = text(claims.sub);
  const email = text(claims.email).toLowerCase();
  const edov = claims.xms_edov;
  // No xms_edov: Entra sends only its own tenants' addresses; with it, only "1"/true vouches.
  const verified = email !== '' && (edov === undefined || edov === null || edov === true || edov === '1' || edov === 'true');
  const custom = Object.fromEntries(Object.entries(claims).filter(([key]) => !AZURE_CLAIMS_NOT_CUSTOM.includes(key)));
  /** @type {Record<string, unknown>} */
  const identityData = { iss: text(claims.iss), sub, provider_id: sub };
  if (text(claims.preferred_username)) identityData.preferred_username = text(claims.preferred_username);
  if (text(claims.name)) identityData.full_name = text(claims.name);
  if (Object.keys(custom).length) identityData.custom_claims = custom;
  if (email) identityData.email = email;
  identityData.email_verified = verified;
  identityData.phone_verified = false;
  return { sub, email, verified, identityData };
}

/**
 * @typedef {object} OAuthHelpers what createAuth lends the OAuth endpoints
 * @property {(value: unknown) => string} allowedRedirect redirect_to, or the site URL when it is not allowed
 * @property {string} siteUrl
 * @property {(id: string, input: { email: string, userMetadata: object }, appMetadata: object) => Promise<void>} runBeforeUserCreated
 * @property {(id: string) => Promise<any>} findUser
 * @property {(user: any, request: Request, method: string) => Promise<Record<string, any>>} openSession
 * @property {(status: number, code: string, msg: string) => Response} fail
 */

/**
 * @param {{ sql: import('postgres').Sql, publicUrl: string, providers: Record<string, ExternalProvider>,
 *   helpers: OAuthHelpers, providerFetch?: typeof fetch, manualLinking?: boolean }} options
 *   providerFetch: how the provider is called (tests put a tampering proxy here)
 *   manualLinking: `[auth] enable_manual_linking`, whether a signed-in user may link an identity
 */
export function createOAuth({ sql, publicUrl, providers, helpers, providerFetch = fetch, manualLinking = false }) {
  const { allowedRedirect, siteUrl, runBeforeUserCreated, findUser, openSession, fail } = helpers;
  const { signInIdentity, finishSignIn, linkIdentity } = createIdentitySignIn({ sql, runBeforeUserCreated, findUser, openSession });
  const defaultCallback = `${publicUrl.replace(/\/+$/, '')}/auth/v1/callback`;
  /** @type {Map<string, Promise<oidc.Configuration>>} */
  const discovered = new Map();

  const providerOf = (/** @type {string} */ name) => (Object.hasOwn(providers, name) ? providers[name] : undefined);
  const callbackOf = (/** @type {ExternalProvider} */ provider) => provider.redirectUri || defaultCallback;

  /** The provider's metadata and keys, discovered once (Entra ID's issuer is <url>/v2.0). */
  function configurationOf(/** @type {string} */ name, /** @type {ExternalProvider} */ provider) {
    let pending = discovered.get(name);
    if (!pending) {
      const issuer = new URL(`${provider.url.replace(/\/+$/, '')}/v2.0`);
      // Plain HTTP only for an identity provider on this machine (the local one).
      const loopback = issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
      pending = oidc.discovery(issuer, provider.clientId, undefined, oidc.ClientSecretPost(provider.secret), {
        execute: loopback ? [oidc.allowInsecureRequests] : [],
        [oidc.customFetch]: (url, init) => providerFetch(url, /** @type {any} */ (init)),
        timeout: 10,
      });
      discovered.set(name, pending);
      pending.catch(() => discovered.delete(name));
    }
    return pending;
  }

  // ---------------------------------------------------------------- GET /authorize

  /**
   * @param {Request} _request @param {URL} url
   * @param {string | null} [linkingTarget] the signed-in user the identity is to be linked to
   */
  async function authorize(_request, url, linkingTarget = null) {
    const name = (url.searchParams.get('provider') ?? '').toLowerCase();
    const provider = providerOf(name);
    if (!provider) return fail(400, 'validation_failed', `Unsupported provider: Provider ${name} could not be found`);
    if (!provider.enabled || !provider.clientId || !provider.url) {
      return fail(400, 'validation_failed', 'Unsupported provider: provider is not enabled');
    }
    const challenge = url.searchParams.get('code_challenge') ?? '';
    const method = (url.searchParams.get('code_challenge_method') ?? '').toLowerCase();
    const pkce = pkceProblem(challenge, method);
    if (pkce) return fail(400, 'validation_failed', pkce);
    const scopes = ['openid', ...(url.searchParams.get('scopes') ?? '').split(/[\s,]+/).filter(Boolean)];
    if (!scopes.every((scope) => SCOPE_PATTERN.test(scope))) return fail(400, 'validation_failed', 'Invalid scopes');
    const redirectTo = allowedRedirect(url.searchParams.get('redirect_to'));

    let configuration;
    try {
      configuration = await configurationOf(name, provider);
    } catch (error) {
      console.error(`[auth] discovery of the ${name} identity provider failed:`, /** @type {Error} */ (error).message);
      return fail(500, 'unexpected_failure', 'Error reaching the identity provider');
    }
    const stateId = randomUUID();
    const verifier = oidc.randomPKCECodeVerifier();
    await sql.begin(async (tx) => {
      // Sign-ins never finished are cleared as new ones start (a day on, as GoTrue's clean-up does).
      await tx`delete from auth.flow_state where created_at < now() - interval '1 day'`;
      await tx`insert into auth.oauth_client_states (id, provider_type, code_verifier, created_at)
        values (${stateId}, ${name}, ${verifier}, now())`;
      await tx`insert into auth.flow_state (id, code_challenge_method, code_challenge, provider_type, created_at, updated_at,
          authentication_method, referrer, oauth_client_state_id, linking_target_id)
        values (${randomUUID()}, ${method || null}, ${challenge || null}, ${name}, now(), now(), 'oauth', ${redirectTo}, ${stateId}, ${linkingTarget})`;
    });
    /** @type {Record<string, string>} */
    const params = {
      redirect_uri: callbackOf(provider),
      scope: [...new Set(scopes)].join(' '),
      state: stateId,
      nonce: nonceOf(verifier),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    };
    for (const key of FORWARDED_PARAMS) {
      const value = url.searchParams.get(key);
      if (value !== null && value.length <= 500) params[key] = value;
    }
    return redirect(oidc.buildAuthorizationUrl(configuration, params).href);
  }

  // ---------------------------------------------------------------- GET /user/identities/authorize

  /**
   * Manual linking (supabase-js `linkIdentity`; `[auth] enable_manual_linking`): the signed-in user
   * starts a provider's sign-in whose identity is then linked to them. Answers {url} (supabase-js
   * asks with skip_http_redirect) or the redirect itself.
   * @param {Request} request @param {URL} url @param {{ id: string }} user the caller, from their token
   */
  async function linkAuthorize(request, url, user) {
    if (!manualLinking) return fail(404, 'manual_linking_disabled', 'Manual linking is disabled');
    const answer = await authorize(request, url, user.id);
    const location = answer.headers.get('location');
    if (answer.status !== 302 || !location) return answer;
    return url.searchParams.get('skip_http_redirect') === 'true' ? json(200, { url: location }) : answer;
  }

  // ---------------------------------------------------------------- GET /callback

  /**
   * Takes the state's flow once: the provider-side state is deleted as it is read, so a state
   * replayed (or sent twice at once) finds nothing. Expired ones are cleared on the way.
   * @param {string} state
   */
  async function takeFlow(state) {
    await sql`delete from auth.oauth_client_states where created_at < now() - make_interval(secs => ${FLOW_STATE_TTL_SECONDS})`;
    const [clientState] = await sql`delete from auth.oauth_client_states where id = ${state} returning *`;
    if (!clientState) return null;
    const [flow] = await sql`select * from auth.flow_state where oauth_client_state_id = ${clientState.id}`;
    return flow ? { flow, verifier: String(clientState.code_verifier ?? '') } : null;
  }

  /** @param {Request} request @param {URL} url */
  async function callback(request, url) {
    const query = url.searchParams;
    const state = query.get('state') ?? '';
    // As GoTrue: a callback without a state it issued goes (303) to the site URL, not anywhere it names.
    if (!state) return errorRedirect(siteUrl, { error: 'invalid_request', code: 'bad_oauth_callback', description: 'OAuth state parameter missing' }, 303);
    const taken = UUID_PATTERN.test(state) ? await takeFlow(state) : null;
    if (!taken) return errorRedirect(siteUrl, { error: 'invalid_request', code: 'bad_oauth_state', description: 'OAuth callback with invalid state' }, 303);
    const { flow, verifier } = taken;
    const back = allowedRedirect(flow.referrer);
    /** @param {{ error: string, description: string, code?: string }} problem */
    const refuse = async (problem) => {
      await sql`delete from auth.flow_state where id = ${flow.id}`;
      return errorRedirect(back, problem);
    };

    const provider = providerOf(flow.provider_type);
    if (!provider?.enabled) return refuse({ error: 'invalid_request', code: 'oauth_provider_not_supported', description: 'Unsupported provider: provider is not enabled' });
    const providerError = query.get('error');
    if (providerError !== null) {
      // The provider's own answer (a cancelled sign-in: access_denied), passed on as GoTrue does.
      const printable = (/** @type {string} */ s, /** @type {number} */ max) => s.replace(/[^\x20-\x7E]/g, '').slice(0, max);
      return refuse({ error: printable(providerError, 100) || 'server_error', description: printable(query.get('error_description') ?? '', 500) });
    }
    if (!query.get('code')) return refuse({ error: 'invalid_request', code: 'bad_oauth_callback', description: 'OAuth callback with missing authorization code missing' });

    let tokens;
    try {
      const configuration = await configurationOf(flow.provider_type, provider);
      const current = new URL(callbackOf(provider));
      for (const [key, value] of query) current.searchParams.append(key, value);
      tokens = await oidc.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonceOf(verifier),
        idTokenExpected: true,
      });
    } catch (error) {
      const err = /** @type {any} */ (error);
      // openid-client's message is general; the check that failed is in its cause.
      const detail = typeof err.cause?.message === 'string' ? `: ${err.cause.message}` : '';
      console.error(`[auth] ${flow.provider_type} sign-in refused: ${err.code ?? ''} ${err.message}${detail}`);
      const exchange = err.code === 'OAUTH_RESPONSE_BODY_ERROR' || err.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM';
      return refuse({ error: 'server_error', code: 'unexpected_failure', description: exchange ? 'Unable to exchange external code' : 'Error getting user profile from external provider' });
    }
    const claims = /** @type {Record<string, unknown>} */ (tokens.claims() ?? {});
    const data = azureUserData(claims);
    if (!data.sub || data.sub.length > 255) {
      return refuse({ error: 'server_error', code: 'unexpected_failure', description: 'Error getting user profile from external provider' });
    }
    if (!data.email || data.email.length > 255 || !EMAIL_PATTERN.test(data.email) || JSON.stringify(data.identityData).length > 16_384) {
      return refuse({ error: 'server_error', code: 'unexpected_failure', description: 'Error getting user email from external provider' });
    }

    const user = flow.linking_target_id
      ? await linkIdentity(flow.linking_target_id, flow.provider_type, data)
      : await signInIdentity(flow.provider_type, data);
    if ('refused' in user) return refuse(user.refused);
    return finishSignIn({ flow, user, back, request, method: 'oauth', providerToken: tokens.access_token, providerRefreshToken: tokens.refresh_token });
  }

  // ---------------------------------------------------------------- POST /token?grant_type=pkce

  /** @param {Request} request @param {Record<string, unknown>} body */
  async function pkceGrant(request, body) {
    const authCode = typeof body.auth_code === 'string' ? body.auth_code : '';
    const verifier = typeof body.code_verifier === 'string' ? body.code_verifier : '';
    if (!authCode || !verifier) {
      return fail(400, 'validation_failed', 'invalid request: both auth code and code verifier should be non-empty');
    }
    const notFound = () => fail(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
    if (!UUID_PATTERN.test(authCode)) return notFound();
    const [flow] = await sql`select *, created_at < now() - make_interval(secs => ${FLOW_STATE_TTL_SECONDS}) as expired
      from auth.flow_state where auth_code = ${authCode}`;
    if (!flow || !flow.user_id) return notFound();
    if (flow.expired) return fail(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
    const expected = flow.code_challenge_method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
    const a = Buffer.from(String(flow.code_challenge ?? ''));
    const b = Buffer.from(expected);
    if (a.length !== b.length || !timingSafeEqual(a, b)) {
      return fail(400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier');
    }
    // One use: only the request that deletes the flow state gets the session.
    const [used] = await sql`delete from auth.flow_state where id = ${flow.id} and auth_code = ${authCode} returning id`;
    if (!used) return notFound();
    const user = await findUser(flow.user_id);
    if (!user) return notFound();
    if (user.banned_until && new Date(user.banned_until) > new Date()) return fail(403, 'user_banned', 'User is banned');
    // The flow's own method (oauth, or sso/saml for a SAML sign-in), as GoTrue's amr claim says it.
    const session = await openSession(user, request, flow.authentication_method === 'sso/saml' ? 'sso/saml' : 'oauth');
    return json(200, {
      ...session,
      provider_token: flow.provider_access_token ?? undefined,
      provider_refresh_token: flow.provider_refresh_token ?? undefined,
    });
  }

  return {
    authorize,
    linkAuthorize,
    callback,
    pkceGrant,
    /** `external` of GET /settings: which providers are switched on. */
    enabled: () => Object.fromEntries(Object.entries(providers).map(([name, p]) => [name, Boolean(p.enabled && p.clientId && p.url)])),
  };
}
