// A local OpenID Connect identity provider standing in for an organisation's Microsoft Entra ID:
// oidc-provider (a certified OpenID provider library) with one tenant, Northshire Police, whose
// demo people are in northshire-police.json. Its URLs have Entra ID's v2 shape, so that Supabase
// Auth's azure provider settings (`url` = https://login.microsoftonline.com/<tenant-id>) work the
// same here:
//   issuer        <origin>/<tenant-id>/v2.0 (discovery under it, /.well-known/openid-configuration)
//   authorise     <origin>/<tenant-id>/oauth2/v2.0/authorize   token  <origin>/<tenant-id>/oauth2/v2.0/token
//   keys          <origin>/<tenant-id>/discovery/v2.0/keys
// Authorisation code flow with PKCE only, RS256 id_tokens with Entra's claims (sub, oid, tid, email,
// preferred_username, name, given_name, family_name; employeeid, department and manager (an email)
// as custom claims, as an organisation adds them to its app registration).
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { exportJWK, generateKeyPair } from 'jose';
// The library's own in-memory store (a factory per provider, so two providers never share one).
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import { freePort } from '../ports.mjs';
import { credentialFields, escapeHtml, page, readForm, sameSecret, send } from './pages.mjs';

/** The Northshire Police tenant: its id, the registered client, the demo people and their password. */
export const NORTHSHIRE = JSON.parse(readFileSync(new URL('./northshire-police.json', import.meta.url), 'utf8'));
export const DEFAULT_IDP_PORT = 54330;

/**
 * The demo people as the IdP knows them: the data file's entries with their email (also their
 * user principal name, Entra's preferred_username).
 * @param {typeof NORTHSHIRE} [directory]
 */
export function demoPeople(directory = NORTHSHIRE) {
  return directory.people.map((person) => {
    const email = `${person.username}@${directory.emailDomain}`;
    return { ...person, email, preferred_username: email, tid: directory.tenantId };
  });
}

/** @type {Promise<typeof import('oidc-provider')> | undefined} */
let providerModule;

/**
 * oidc-provider warns at import on any Node before 22 LTS; it runs on Node 20.19 (the project's
 * minimum: it needs crypto.hash, Node 20.12 and later), so that one notice is left out.
 */
function loadProvider() {
  providerModule ??= (async () => {
    const warn = console.warn;
    console.warn = (...args) => {
      if (!/Unsupported runtime/.test(String(args[0]))) warn(...args);
    };
    try {
      return await import('oidc-provider');
    } finally {
      console.warn = warn;
    }
  })();
  return providerModule;
}

/**
 * @typedef {object} IdpClient
 * @property {string} client_id
 * @property {string} client_secret
 * @property {string} [client_name]
 * @property {string[]} redirect_uris
 */

/**
 * Starts the identity provider.
 * @param {{ host?: string, port?: number, redirectUris?: string[], extraClients?: IdpClient[],
 *   directory?: typeof NORTHSHIRE, log?: (msg: string) => void }} [options]
 *   redirectUris: where the main client (the local Auth) may be sent back to, its /auth/v1/callback;
 *   extraClients: more registered clients (the tests' second client of the same tenant).
 * @returns {Promise<{ url: string, issuer: string, origin: string, tenantId: string, clientId: string,
 *   clientSecret: string, stop(): Promise<void> }>} url: the tenant's base URL, what GoTrue's azure `url` holds
 */
export async function startIdp(options = {}) {
  const {
    host = '127.0.0.1',
    directory = NORTHSHIRE,
    redirectUris = ['http://127.0.0.1:54321/auth/v1/callback', 'http://localhost:54321/auth/v1/callback'],
    extraClients = [],
    log = () => {},
  } = options;
  const { Provider } = await loadProvider();
  const port = options.port === 0 ? await freePort(0, host) : (options.port ?? DEFAULT_IDP_PORT);
  const origin = `http://${host}:${port}`;
  const tenant = `/${directory.tenantId}`;
  const base = `${origin}${tenant}`;
  const issuer = `${base}/v2.0`;
  const people = demoPeople(directory);
  const bySub = new Map(people.map((person) => [person.sub, person]));

  // A new signing key each start: relying parties fetch the keys from the JWKS, as from Entra ID.
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') };

  // Where a finished sign-in sends the browser (its form's redirects must be allowed to go there).
  const applicationOrigins = [...new Set([...redirectUris, ...extraClients.flatMap((c) => c.redirect_uris ?? [])].map((u) => new URL(u).origin))];
  const provider = new Provider(issuer, {
    adapter: createMemoryAdapter(),
    clients: [
      { ...directory.client, redirect_uris: redirectUris },
      ...extraClients,
    ].map((client) => ({
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      ...client,
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    responseTypes: ['code'],
    // Every client must use PKCE (Entra ID accepts it from confidential clients too).
    pkce: { required: () => true },
    // Claims in the id_token itself, as Entra ID puts them there (not only at the userinfo endpoint).
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub', 'oid', 'tid'],
      email: ['email'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username', 'employeeid', 'department', 'manager'],
    },
    routes: {
      authorization: '/oauth2/v2.0/authorize',
      token: '/oauth2/v2.0/token',
      jwks: '/discovery/v2.0/keys',
      userinfo: '/oidc/userinfo',
      end_session: '/oauth2/v2.0/logout',
    },
    features: { devInteractions: { enabled: false } },
    // Lifetimes in seconds: an id_token and access token for an hour (Entra ID's default), a
    // sign-in page for ten minutes, the IdP's own session for a working day.
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Grant: 14 * 86400, Session: 12 * 3600 },
    interactions: { url: (_ctx, interaction) => `${tenant}/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const person = bySub.get(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        async claims() {
          const { sub: id, oid, tid, email, name, given_name, family_name, preferred_username, employeeid, department, manager } = person;
          return { sub: id, oid, tid, email, name, given_name, family_name, preferred_username, employeeid, department, ...(manager ? { manager } : {}) };
        },
      };
    },
    // The organisation consented for its people (an Entra ID admin consent): no consent screen.
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      if (!ctx.oidc.session.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope([...ctx.oidc.requestParamOIDCScopes].join(' '));
      await grant.save();
      return grant;
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page(directory.name, 'Sign-in problem', `
        <p role="alert">${escapeHtml(out.error_description ?? out.error ?? 'Something went wrong.')}</p>
        <p>Go back to the application and start signing in again.</p>`);
    },
  });
  const callback = provider.callback();

  /** @param {string} uid @param {string} [problem] @param {string} [username] */
  async function loginPage(uid, problem = '', username = '') {
    const details = await provider.Interaction.find(uid);
    const client = details ? await provider.Client.find(String(details.params.client_id)) : undefined;
    const app = client?.clientName ?? 'An application';
    return page(directory.name, `Sign in to ${directory.name}`, `
      <p>${escapeHtml(app)} asks you to sign in with your ${escapeHtml(directory.name)} account.</p>
      ${problem ? `<p class="problem" role="alert" id="problem">${escapeHtml(problem)}</p>` : ''}
      <form method="post" action="${tenant}/interaction/${escapeHtml(uid)}/login" autocomplete="on">
        ${credentialFields(username, problem)}
      </form>
      <form method="post" action="${tenant}/interaction/${escapeHtml(uid)}/abort">
        <button type="submit" class="secondary">Cancel</button>
      </form>
      <p class="note">Local identity provider standing in for Microsoft Entra ID. Demo accounts only.</p>`);
  }

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  async function interaction(req, res, uid, action) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw Object.assign(new Error('Interaction not found'), { statusCode: 400 });
    if (action === '' && req.method === 'GET') {
      if (details.prompt.name === 'login') {
        // As Entra ID does, the address the application passed as login_hint is filled in.
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint.slice(0, 320) : '';
        return send(res, 200, await loginPage(uid, '', hint), applicationOrigins);
      }
      // Any other prompt (consent) is answered by loadExistingGrant; finish it as given.
      return provider.interactionFinished(req, res, {}, { mergeWithLastSubmission: true });
    }
    if (action === '/abort' && req.method === 'POST') {
      return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' }, { mergeWithLastSubmission: false });
    }
    if (action === '/login' && req.method === 'POST') {
      const form = await readForm(req);
      const username = (form.get('username') ?? '').trim().toLowerCase();
      const password = form.get('password') ?? '';
      const person = people.find((p) => p.username === username || p.email === username);
      // The password is checked even for an unknown name, so both answers take the same time.
      const passwordOk = sameSecret(password, directory.password);
      if (!person || !passwordOk) {
        return send(res, 401, await loginPage(uid, 'The email or username and password do not match an account.', username), applicationOrigins);
      }
      log(`[idp] ${person.email} signed in`);
      return provider.interactionFinished(req, res, { login: { accountId: person.sub } }, { mergeWithLastSubmission: false });
    }
    throw Object.assign(new Error('Not found'), { statusCode: 404 });
  }

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const handled = (async () => {
      const match = new RegExp(`^${tenant}/interaction/([A-Za-z0-9_-]+)(/login|/abort)?$`).exec(path);
      if (match) return interaction(req, res, match[1], match[2] ?? '');
      if (path === `${tenant}/v2.0/.well-known/openid-configuration`) {
        // Entra ID publishes discovery under the issuer (…/v2.0); the library serves it at its mount.
        req.url = '/.well-known/openid-configuration';
        /** @type {any} */ (req).originalUrl = `${tenant}/.well-known/openid-configuration`;
        return callback(req, res);
      }
      if (path.startsWith(`${tenant}/`)) {
        // Mounted at the tenant: the library sees paths below it and builds its URLs with the prefix.
        /** @type {any} */ (req).originalUrl = req.url;
        req.url = (req.url ?? '/').slice(tenant.length);
        return callback(req, res);
      }
      send(res, 404, page(directory.name, 'Not found', '<p>There is nothing here.</p>'));
    })();
    handled.catch((error) => {
      const status = Number.isInteger(error?.statusCode) ? error.statusCode : Number.isInteger(error?.status) ? error.status : 500;
      if (status >= 500) console.error('[idp]', error);
      if (!res.headersSent) {
        const message = status >= 500 ? 'Something went wrong.' : 'This sign-in has expired or is not valid.';
        send(res, status, page(directory.name, 'Sign-in problem', `<p role="alert">${message}</p>`));
      } else res.end();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });

  return {
    url: base,
    issuer,
    origin,
    tenantId: directory.tenantId,
    clientId: directory.client.client_id,
    clientSecret: directory.client.client_secret,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}
