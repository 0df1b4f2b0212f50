// Sign-in with an organisation's identity provider, end to end over HTTP: the web app's side is
// supabase-js (signInWithOAuth with the PKCE flow, exchangeCodeForSession), the browser is fetch
// with redirects followed by hand and a cookie jar, the provider is the local Northshire Police
// IdP (platform/idp/oidc.mjs), and the local Auth writes a scratch PGlite database.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { createClient } from '@supabase/supabase-js';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { startScratchDatabase } from './scratch-database.mjs';
import { isRedirect, newCookieBrowser, nextUrl } from './idp/cookie-browser.mjs';
import { loadKeys } from './keys.mjs';
import { authSettingsFromConfig, createAuth } from './auth.mjs';
import { startGateway } from './gateway.mjs';
import { demoPeople, NORTHSHIRE, startIdp } from './idp/oidc.mjs';
import { externalSettingsFromConfig, onAllowList, tomlSection } from './auth/oauth.mjs';

/** A second application of the same tenant: its id_tokens are valid, but not for the local Auth. */
const INTRANET = { client_id: 'northshire-intranet', client_secret: 'intranet-secret', client_name: 'Northshire Intranet', redirect_uris: ['http://127.0.0.1:9/intranet/callback'] };
const PASSWORD = NORTHSHIRE.password;
const [AMIRA, TOM, GRACE] = demoPeople();

/** @type {{ url: string, stop(): Promise<void> }} */
let database;
/** @type {import('postgres').Sql} */
let sql;
/** @type {string} */
let dataDir;
/** @type {import('./keys.mjs').Keys} */
let keys;
/** @type {{ url: string, stop(): Promise<void> }} */
let gateway;
/** @type {Awaited<ReturnType<typeof startIdp>>} */
let idp;
/** @type {string} */
let siteUrl;
/** The auth the gateway sends to (a test may put another in for a while). */
const services = { auth: /** @type {any} */ (null) };
/** Replaces the id_token of the next token answer the local Auth gets from the provider. */
let swapIdToken = /** @type {null | (() => Promise<string>)} */ (null);

/** The provider as the local Auth reaches it: for real, except a swapped id_token when a test asks. */
async function providerFetch(url, init) {
  const response = await fetch(url, init);
  if (!swapIdToken || !String(url).endsWith('/oauth2/v2.0/token') || !response.ok) return response;
  const swap = swapIdToken;
  swapIdToken = null;
  const body = await response.json();
  return new Response(JSON.stringify({ ...body, id_token: await swap() }), { status: 200, headers: { 'content-type': 'application/json' } });
}

function authFor(options = {}) {
  return createAuth({
    sql,
    keys,
    publicUrl: gateway.url,
    siteUrl,
    external: { azure: { enabled: true, clientId: idp.clientId, secret: idp.clientSecret, url: idp.url, redirectUri: '' } },
    additionalRedirectUrls: ['http://localhost:5173/**'],
    providerFetch,
    ...options,
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'platform-oauth-'));
  database = await startScratchDatabase();
  sql = postgres(database.url, { prepare: false, onnotice: () => {} });
  keys = await loadKeys(dataDir);
  gateway = await startGateway({
    port: 0,
    auth: { fetch: (request) => services.auth.fetch(request) },
    storage: { fetch: async () => new Response(null, { status: 404 }) },
    functionsUrl: null,
    webDir: null,
    apiKeys: [keys.anonKey, keys.serviceRoleKey],
  });
  siteUrl = `${gateway.url}/`;
  idp = await startIdp({ port: 0, redirectUris: [`${gateway.url}/auth/v1/callback`], extraClients: [INTRANET] });
  services.auth = authFor();
});

afterAll(async () => {
  await gateway?.stop();
  await idp?.stop();
  await sql?.end({ timeout: 5 });
  await database?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- a browser and an app

/** A browser: cookies kept by name (the provider's are its own), redirects not followed. */
const newBrowser = newCookieBrowser;

/**
 * At the provider: from its authorisation URL to its login page, then the form (or Cancel), and its
 * redirects until the browser is sent away from it. Answers where it was sent (not followed).
 * @param {ReturnType<typeof newBrowser>} browser @param {string} authorizeUrl
 * @param {{ username?: string, password?: string, cancel?: boolean }} how
 */
async function atProvider(browser, authorizeUrl, { username = '', password = PASSWORD, cancel = false }) {
  let location = authorizeUrl;
  let response = await browser.go(location);
  while (isRedirect(response)) {
    location = nextUrl(response, location);
    response = await browser.go(location);
  }
  expect(response.status).toBe(200);
  const page = await response.text();
  expect(page).toContain('Northshire Police');
  const action = new RegExp(`action="([^"]+/${cancel ? 'abort' : 'login'})"`).exec(page)?.[1];
  expect(action).toBeTruthy();
  location = new URL(/** @type {string} */ (action), location).href;
  response = await browser.go(location, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: cancel ? '' : new URLSearchParams({ username, password }).toString(),
  });
  const provider = new URL(authorizeUrl).origin;
  while (isRedirect(response)) {
    location = nextUrl(response, location);
    if (new URL(location).origin !== provider) return location;
    response = await browser.go(location);
  }
  throw new Error(`the provider answered ${response.status}: ${await response.text()}`);
}

/** The web app: supabase-js with the PKCE flow, its verifier kept in a storage of its own. */
function newApp({ url = gateway.url, anonKey = keys.anonKey } = {}) {
  const stored = new Map();
  const storage = { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v), removeItem: (k) => void stored.delete(k) };
  const client = createClient(url, anonKey, {
    auth: { flowType: 'pkce', storage, persistSession: true, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: /** @type {any} */ (class { constructor() { throw new Error('no Realtime'); } }) },
  });
  // supabase-js keeps it as JSON, "<verifier>" or "<verifier>/PASSWORD_RECOVERY".
  const verifier = () => String(JSON.parse([...stored].find(([key]) => key.endsWith('-code-verifier'))?.[1] ?? '""')).split('/')[0];
  return { client, verifier };
}

/**
 * Starts a sign-in as the web app does and takes the browser to the provider.
 * @param {{ redirectTo?: string }} [options]
 */
async function startSignIn({ redirectTo = `${siteUrl}signed-in` } = {}) {
  const app = newApp();
  const { data, error } = await app.client.auth.signInWithOAuth({
    provider: 'azure',
    options: { redirectTo, scopes: 'email profile openid', skipBrowserRedirect: true },
  });
  expect(error).toBeNull();
  const browser = newBrowser();
  const response = await browser.go(/** @type {string} */ (data.url));
  expect(response.status).toBe(302);
  const providerUrl = /** @type {string} */ (response.headers.get('location'));
  expect(providerUrl.startsWith(`${idp.url}/oauth2/v2.0/authorize?`)).toBe(true);
  return { app, browser, providerUrl, nonce: new URL(providerUrl).searchParams.get('nonce') ?? '' };
}

/** A whole sign-in up to the app's page: where the browser lands, and the callback URL on the way. */
async function signIn(person, options = {}) {
  const flow = await startSignIn(options);
  const callbackUrl = await atProvider(flow.browser, flow.providerUrl, { username: person.username });
  expect(callbackUrl.startsWith(`${gateway.url}/auth/v1/callback?`)).toBe(true);
  const response = await flow.browser.go(callbackUrl);
  expect(isRedirect(response)).toBe(true);
  return { ...flow, callbackUrl, landed: new URL(nextUrl(response, callbackUrl)) };
}

/** An id_token for another client (or another sign-in of ours): a real one, signed by the provider. */
async function idTokenFrom(client, { nonce, username }) {
  const configuration = await oidc.discovery(new URL(idp.issuer), client.client_id, undefined, oidc.ClientSecretPost(client.client_secret), { execute: [oidc.allowInsecureRequests] });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: client.redirect_uris[0], scope: 'openid email profile', state, nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  });
  const back = await atProvider(newBrowser(), url.href, { username });
  const tokens = await oidc.authorizationCodeGrant(configuration, new URL(back), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  return /** @type {string} */ (tokens.id_token);
}

const identitiesOf = (/** @type {{ sub: string }} */ person) => sql`select * from auth.identities where provider = 'azure' and provider_id = ${person.sub}`;
const usersWithEmail = (/** @type {string} */ email) => sql`select * from auth.users where lower(email) = ${email}`;
const counts = async () => (await sql`select (select count(*)::int from auth.users) as users, (select count(*)::int from auth.identities) as identities,
  (select count(*)::int from auth.sessions) as sessions`)[0];

// ---------------------------------------------------------------- the tests

describe('sign-in with the organisation identity provider (azure)', () => {
  it('creates the user and its identity on a first sign-in, and answers a session whose access token verifies', async () => {
    const { app, landed } = await signIn(AMIRA);
    expect(landed.origin + landed.pathname).toBe(`${siteUrl}signed-in`);
    const code = landed.searchParams.get('code');
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const { data, error } = await app.client.auth.exchangeCodeForSession(/** @type {string} */ (code));
    expect(error).toBeNull();
    const session = /** @type {import('@supabase/supabase-js').Session} */ (data.session);
    expect(session.user.email).toBe(AMIRA.email);
    expect(session.user.app_metadata).toEqual({ provider: 'azure', providers: ['azure'] });

    const jwks = createRemoteJWKSet(new URL(`${gateway.url}/auth/v1/.well-known/jwks.json`));
    const { payload } = await jwtVerify(session.access_token, jwks, { issuer: `${gateway.url}/auth/v1`, audience: 'authenticated' });
    expect(payload.sub).toBe(session.user.id);
    expect(payload.amr).toEqual([{ method: 'oauth', timestamp: expect.any(Number) }]);
    expect((await app.client.auth.getUser(session.access_token)).data.user?.id).toBe(session.user.id);

    const [user] = await usersWithEmail(AMIRA.email);
    expect(user.email_confirmed_at).toBeTruthy();
    expect(user.is_sso_user).toBe(false);
    expect(user.encrypted_password).toBe('');
    expect(user.raw_user_meta_data).toMatchObject({
      iss: idp.issuer, sub: AMIRA.sub, provider_id: AMIRA.sub, full_name: 'PC Amira Khan',
      preferred_username: AMIRA.email, email: AMIRA.email, email_verified: true, phone_verified: false,
      custom_claims: { tid: NORTHSHIRE.tenantId, oid: AMIRA.oid, given_name: 'Amira', family_name: 'Khan', employeeid: 'NP4471', department: 'Response Team 1', manager: 'sergeant@northshire-police.example.uk', email: AMIRA.email },
    });
    const identities = await identitiesOf(AMIRA);
    expect(identities).toHaveLength(1);
    expect(identities[0]).toMatchObject({ user_id: user.id, email: AMIRA.email });
    expect(identities[0].identity_data).toEqual(user.raw_user_meta_data);
    // One use: the flow state is gone once the session is issued.
    expect(await sql`select id from auth.flow_state where auth_code = ${code}`).toHaveLength(0);
  });

  it('reuses the user and identity on a second sign-in', async () => {
    const [before] = await usersWithEmail(AMIRA.email);
    const { app, landed } = await signIn(AMIRA);
    const { data, error } = await app.client.auth.exchangeCodeForSession(/** @type {string} */ (landed.searchParams.get('code')));
    expect(error).toBeNull();
    expect(data.user?.id).toBe(before.id);
    expect(await usersWithEmail(AMIRA.email)).toHaveLength(1);
    expect(await identitiesOf(AMIRA)).toHaveLength(1);
    expect(data.user?.identities?.map((i) => i.provider)).toEqual(['azure']);
  });

  it('passes a cancel at the provider back to the app as error=access_denied, creating nothing', async () => {
    const before = await counts();
    const flow = await startSignIn();
    const callbackUrl = await atProvider(flow.browser, flow.providerUrl, { cancel: true });
    const response = await flow.browser.go(callbackUrl);
    expect(response.status).toBe(302);
    const landed = new URL(nextUrl(response, callbackUrl));
    expect(landed.origin + landed.pathname).toBe(`${siteUrl}signed-in`);
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('error_description')).toBe('End-User aborted interaction');
    expect(landed.searchParams.get('code')).toBeNull();
    expect(new URLSearchParams(landed.hash.slice(1)).get('error')).toBe('access_denied');
    expect(await counts()).toEqual(before);
  });

  it('sends a redirect_to of another site to the site URL instead', async () => {
    const { landed, app } = await signIn(AMIRA, { redirectTo: 'https://attacker.example/steal' });
    expect(landed.origin).toBe(new URL(siteUrl).origin);
    expect(landed.pathname).toBe('/');
    expect((await app.client.auth.exchangeCodeForSession(/** @type {string} */ (landed.searchParams.get('code')))).error).toBeNull();
    // One on the additional_redirect_urls list is kept.
    const listed = await signIn(AMIRA, { redirectTo: 'http://localhost:5173/auth/done' });
    expect(listed.landed.origin + listed.landed.pathname).toBe('http://localhost:5173/auth/done');
  });

  it('refuses an auth code used twice, a wrong code_verifier and an expired flow', async () => {
    const { app, landed } = await signIn(AMIRA);
    const code = /** @type {string} */ (landed.searchParams.get('code'));
    const verifier = app.verifier();
    expect(verifier.length).toBeGreaterThanOrEqual(43);
    const grant = (/** @type {object} */ body) => fetch(`${gateway.url}/auth/v1/token?grant_type=pkce`, {
      method: 'POST', headers: { apikey: keys.anonKey, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const sessionsBefore = (await counts()).sessions;
    const wrong = await grant({ auth_code: code, code_verifier: 'x'.repeat(64) });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error_code: 'bad_code_verifier', msg: 'code challenge does not match previously saved code verifier' });
    expect((await counts()).sessions).toBe(sessionsBefore);

    const first = await grant({ auth_code: code, code_verifier: verifier });
    expect(first.status).toBe(200);
    const session = await first.json();
    expect(decodeJwt(session.access_token).amr).toEqual([{ method: 'oauth', timestamp: expect.any(Number) }]);
    expect(session.provider_token).toBeTruthy();
    const again = await grant({ auth_code: code, code_verifier: verifier });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error_code: 'flow_state_not_found', msg: 'invalid flow state, no valid flow state found' });
    expect((await counts()).sessions).toBe(sessionsBefore + 1);

    // Five minutes from /authorize (GoTrue's flow state expiry): moved back in time, not waited for.
    const late = await signIn(AMIRA);
    const lateCode = /** @type {string} */ (late.landed.searchParams.get('code'));
    await sql`update auth.flow_state set created_at = now() - interval '301 seconds' where auth_code = ${lateCode}`;
    const expired = await grant({ auth_code: lateCode, code_verifier: late.app.verifier() });
    expect(expired.status).toBe(422);
    expect(await expired.json()).toMatchObject({ error_code: 'flow_state_expired' });

    for (const body of [{}, { auth_code: code }, { auth_code: 12, code_verifier: verifier }, { auth_code: 'not-a-code', code_verifier: verifier }]) {
      const answer = await grant(body);
      expect([400, 404]).toContain(answer.status);
      expect(await answer.json()).toHaveProperty('error_code');
    }
    const badJson = await fetch(`${gateway.url}/auth/v1/token?grant_type=pkce`, { method: 'POST', headers: { apikey: keys.anonKey, 'content-type': 'application/json' }, body: '{' });
    expect(badJson.status).toBe(400);
  });

  it('refuses a callback with a state it did not issue, a replayed one and an expired one, creating nothing', async () => {
    const flow = await startSignIn();
    const callbackUrl = await atProvider(flow.browser, flow.providerUrl, { username: GRACE.username });
    const before = await counts();
    for (const state of [crypto.randomUUID(), 'not-a-state', '']) {
      const forged = new URL(callbackUrl);
      forged.searchParams.set('state', state);
      const response = await flow.browser.go(forged.href);
      expect(response.status).toBe(303);
      const landed = new URL(nextUrl(response, forged.href));
      expect(landed.origin + landed.pathname).toBe(siteUrl);
      expect(landed.searchParams.get('error')).toBe('invalid_request');
      expect(['bad_oauth_state', 'bad_oauth_callback']).toContain(landed.searchParams.get('error_code'));
    }
    expect(await counts()).toEqual(before);
    expect(await identitiesOf(GRACE)).toHaveLength(0);

    // The real callback once (it signs Grace in), then the same URL again: refused.
    const first = await flow.browser.go(callbackUrl);
    expect(new URL(nextUrl(first, callbackUrl)).searchParams.get('code')).toBeTruthy();
    const afterFirst = await counts();
    const flowStates = (await sql`select count(*)::int as n from auth.flow_state`)[0].n;
    const replay = await flow.browser.go(callbackUrl);
    expect(replay.status).toBe(303);
    expect(new URL(nextUrl(replay, callbackUrl)).searchParams.get('error_code')).toBe('bad_oauth_state');
    expect(await counts()).toEqual(afterFirst);
    expect((await sql`select count(*)::int as n from auth.flow_state`)[0].n).toBe(flowStates);
    // Grace is removed again so the other tests find her new.
    await sql`delete from auth.users where lower(email) = ${GRACE.email}`;

    // A state older than five minutes is no longer taken.
    const late = await startSignIn();
    const lateCallback = await atProvider(late.browser, late.providerUrl, { username: GRACE.username });
    await sql`update auth.oauth_client_states set created_at = now() - interval '301 seconds' where id = ${new URL(lateCallback).searchParams.get('state')}`;
    const expired = await late.browser.go(lateCallback);
    expect(new URL(nextUrl(expired, lateCallback)).searchParams.get('error_code')).toBe('bad_oauth_state');
    expect(await identitiesOf(GRACE)).toHaveLength(0);
  });

  it('refuses an id_token issued to another client of the same provider (wrong audience), creating nothing', async () => {
    const before = await counts();
    const flow = await startSignIn();
    // Same provider, same person, even the same nonce: only the audience is wrong.
    const foreign = await idTokenFrom(INTRANET, { nonce: flow.nonce, username: GRACE.username });
    expect(decodeJwt(foreign).aud).toBe(INTRANET.client_id);
    swapIdToken = async () => foreign;
    const callbackUrl = await atProvider(flow.browser, flow.providerUrl, { username: GRACE.username });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await flow.browser.go(callbackUrl);
    const reasons = logged.mock.calls.flat().join(' ');
    logged.mockRestore();
    expect(reasons).toContain('"aud"');
    const landed = new URL(nextUrl(response, callbackUrl));
    expect(swapIdToken).toBeNull();
    expect(landed.searchParams.get('error')).toBe('server_error');
    expect(landed.searchParams.get('code')).toBeNull();
    expect(await identitiesOf(GRACE)).toHaveLength(0);
    expect(await counts()).toEqual(before);
  });

  it('refuses an id_token of another sign-in (wrong nonce), creating nothing', async () => {
    const before = await counts();
    const flow = await startSignIn();
    const ours = { ...NORTHSHIRE.client, redirect_uris: [`${gateway.url}/auth/v1/callback`] };
    const other = await idTokenFrom(ours, { nonce: oidc.randomNonce(), username: GRACE.username });
    expect(decodeJwt(other).aud).toBe(idp.clientId);
    swapIdToken = async () => other;
    const callbackUrl = await atProvider(flow.browser, flow.providerUrl, { username: GRACE.username });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const landed = new URL(nextUrl(await flow.browser.go(callbackUrl), callbackUrl));
    const reasons = logged.mock.calls.flat().join(' ');
    logged.mockRestore();
    expect(reasons).toContain('"nonce"');
    expect(landed.searchParams.get('error')).toBe('server_error');
    expect(landed.searchParams.get('code')).toBeNull();
    expect(await identitiesOf(GRACE)).toHaveLength(0);
    expect(await counts()).toEqual(before);
  });

  it('does not link the identity to an existing password account with the same email', async () => {
    const admin = await fetch(`${gateway.url}/auth/v1/admin/users`, {
      method: 'POST',
      headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: TOM.email, password: 'his-own-password', email_confirm: true }),
    });
    expect(admin.status).toBe(200);
    const before = await counts();
    const { landed } = await signIn(TOM);
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('error_code')).toBe('email_exists');
    expect(await identitiesOf(TOM)).toHaveLength(0);
    expect(await counts()).toEqual(before);
    const [user] = await usersWithEmail(TOM.email);
    expect(user.raw_app_meta_data).toEqual({ provider: 'email', providers: ['email'] });
    await sql`delete from auth.users where id = ${user.id}`;
  });

  it('links the identity to the signed-in person who asks (manual linking), never to a second one', async () => {
    services.auth = authFor({ manualLinking: true });
    const made = await fetch(`${gateway.url}/auth/v1/admin/users`, {
      method: 'POST',
      headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'tom.hughes.personal@example.uk', password: 'his-own-password', email_confirm: true }),
    });
    const tom = await made.json();
    try {
      const link = async () => {
        const app = newApp();
        const { error: passwordError } = await app.client.auth.signInWithPassword({ email: tom.email, password: 'his-own-password' });
        expect(passwordError).toBeNull();
        const { data, error } = await app.client.auth.linkIdentity({ provider: 'azure', options: { redirectTo: `${siteUrl}signed-in`, scopes: 'email profile', skipBrowserRedirect: true } });
        expect(error).toBeNull();
        const browser = newBrowser();
        const callbackUrl = await atProvider(browser, /** @type {string} */ (data.url), { username: TOM.username });
        return { app, landed: new URL(nextUrl(await browser.go(callbackUrl), callbackUrl)) };
      };
      const { app, landed } = await link();
      const { data: linked, error } = await app.client.auth.exchangeCodeForSession(/** @type {string} */ (landed.searchParams.get('code')));
      expect(error).toBeNull();
      expect(linked.user?.id).toBe(tom.id);
      expect((await identitiesOf(TOM)).map((i) => i.user_id)).toEqual([tom.id]);
      // The same provider identity for another account: refused, as GoTrue refuses it.
      await sql`update auth.users set email = 'someone.else@example.uk' where id = ${tom.id}`;
      await sql`delete from auth.identities where user_id = ${tom.id} and provider = 'email'`;
      const other = await fetch(`${gateway.url}/auth/v1/admin/users`, {
        method: 'POST',
        headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: tom.email, password: 'his-own-password', email_confirm: true }),
      });
      const second = await other.json();
      const refused = await link();
      expect(refused.landed.searchParams.get('error_code')).toBe('identity_already_exists');
      expect((await identitiesOf(TOM)).map((i) => i.user_id)).toEqual([tom.id]);
      await sql`delete from auth.users where id = ${second.id}`;
    } finally {
      await sql`delete from auth.users where id = ${tom.id}`;
      services.auth = authFor();
    }
    // Without [auth] enable_manual_linking, Auth answers as GoTrue does.
    const app = newApp();
    const { data: made2 } = await app.client.auth.signUp({ email: 'no.linking@example.uk', password: 'a-password-of-hers' });
    const answer = await fetch(`${gateway.url}/auth/v1/user/identities/authorize?provider=azure&skip_http_redirect=true`, {
      headers: { apikey: keys.anonKey, authorization: `Bearer ${made2.session?.access_token}` },
    });
    expect(answer.status).toBe(404);
    expect((await answer.json()).error_code).toBe('manual_linking_disabled');
    await sql`delete from auth.users where email = 'no.linking@example.uk'`;
  });

  it('asks the before-user-created hook, whose refusal reaches the app and creates nothing', async () => {
    await sql.unsafe(`
      create or replace function public.refuse_roads(event jsonb) returns jsonb language sql as $$
        select case when event -> 'user' -> 'user_metadata' -> 'custom_claims' ->> 'department' = 'Response Team 2'
                     and event -> 'user' -> 'app_metadata' ->> 'provider' = 'azure'
                    then '{"error": {"http_code": 403, "message": "Not yet for this department"}}'::jsonb else '{}'::jsonb end
      $$;`);
    services.auth = authFor({ beforeUserCreated: 'public.refuse_roads' });
    try {
      const before = await counts();
      const { landed } = await signIn(GRACE);
      expect(landed.searchParams.get('error')).toBe('access_denied');
      expect(landed.searchParams.get('error_description')).toBe('Not yet for this department');
      expect(await identitiesOf(GRACE)).toHaveLength(0);
      expect(await counts()).toEqual(before);
    } finally {
      services.auth = authFor();
      await sql.unsafe('drop function public.refuse_roads(jsonb);');
    }
  });
});

describe('the OAuth endpoints on bad input', () => {
  const authorize = (/** @type {string} */ query) => fetch(`${gateway.url}/auth/v1/authorize?${query}`, { redirect: 'manual' });

  it('answers GoTrue 400s for an unknown or disabled provider and bad PKCE parameters', async () => {
    const unknown = await authorize('provider=github');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error_code: 'validation_failed', msg: 'Unsupported provider: Provider github could not be found' });
    expect((await authorize('')).status).toBe(400);
    expect((await authorize('provider=__proto__')).status).toBe(400);
    expect((await authorize('provider=azure&code_challenge=abc')).status).toBe(400);
    expect((await authorize(`provider=azure&code_challenge=${'a'.repeat(20)}&code_challenge_method=s256`)).status).toBe(400);
    expect((await authorize(`provider=azure&code_challenge=${'a'.repeat(43)}&code_challenge_method=md5`)).status).toBe(400);
    expect((await authorize('provider=azure&scopes=%22bad%22')).status).toBe(400);

    const disabled = createAuth({ sql, keys, publicUrl: gateway.url, external: { azure: { enabled: false, clientId: 'x', secret: 'y', url: idp.url, redirectUri: '' } } });
    const refused = await disabled.fetch(new Request(`${gateway.url}/auth/v1/authorize?provider=azure`));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error_code: 'validation_failed', msg: 'Unsupported provider: provider is not enabled' });
    expect((await (await disabled.fetch(new Request(`${gateway.url}/auth/v1/settings`))).json()).external.azure).toBe(false);
    const settings = await fetch(`${gateway.url}/auth/v1/settings`, { headers: { apikey: keys.anonKey } });
    expect((await settings.json()).external).toMatchObject({ email: true, azure: true });
  });

  it('sends the implicit flow (no code_challenge) the session in the fragment; without the email scope, GoTrue\'s error', async () => {
    const implicit = async (/** @type {string} */ scopes) => {
      const browser = newBrowser();
      const start = await browser.go(`${gateway.url}/auth/v1/authorize?provider=azure&redirect_to=${encodeURIComponent(`${siteUrl}here`)}${scopes}`);
      expect(start.status).toBe(302);
      const callbackUrl = await atProvider(browser, /** @type {string} */ (start.headers.get('location')), { username: AMIRA.username });
      return new URL(nextUrl(await browser.go(callbackUrl), callbackUrl));
    };
    // Only `openid` (GoTrue asks Entra ID for no more unless scopes says so): no address, no sign-in.
    const before = await counts();
    const bare = await implicit('');
    expect(bare.searchParams.get('error_description')).toBe('Error getting user email from external provider');
    expect(await counts()).toEqual(before);

    const landed = await implicit('&scopes=email');
    const fragment = new URLSearchParams(landed.hash.slice(1));
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('provider_token')).toBeTruthy();
    expect(decodeJwt(/** @type {string} */ (fragment.get('access_token'))).email).toBe(AMIRA.email);
  });

  it('refuses wrong credentials at the provider on its own page', async () => {
    const flow = await startSignIn();
    let location = flow.providerUrl;
    let response = await flow.browser.go(location);
    while (isRedirect(response)) {
      location = nextUrl(response, location);
      response = await flow.browser.go(location);
    }
    const page = await response.text();
    expect(page).toMatch(/<label for="username">/);
    expect(page).toMatch(/<label for="password">/);
    const action = /action="([^"]+\/login)"/.exec(page)?.[1];
    const wrong = await flow.browser.go(new URL(/** @type {string} */ (action), location).href, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: AMIRA.username, password: 'wrong' }).toString(),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('role="alert"');
  });
});

describe('configuration', () => {
  it('reads [auth.external.azure] of supabase/config.toml with its env() secret, and the redirect allow list', async () => {
    const toml = await readFile(new URL('../supabase/config.toml', import.meta.url), 'utf8');
    const { external } = externalSettingsFromConfig(toml, { SUPABASE_AUTH_EXTERNAL_AZURE_SECRET: 's3cret' });
    expect(external.azure).toEqual({ enabled: true, clientId: NORTHSHIRE.client.client_id, secret: 's3cret', url: `http://127.0.0.1:54330/${NORTHSHIRE.tenantId}`, redirectUri: '' });
    expect(externalSettingsFromConfig(toml, {}).external.azure.secret).toBe('');
    expect(authSettingsFromConfig(toml, {}).external.azure.enabled).toBe(true);
    const list = externalSettingsFromConfig('[auth]\nsite_url = "x"\nadditional_redirect_urls = ["https://a.example/**", "https://*.b.example"]\n[auth.email]\n', {});
    expect(list.additionalRedirectUrls).toEqual(['https://a.example/**', 'https://*.b.example']);
    expect(tomlSection('[a]\nx = 1\n[a.b]\ny = 2\n', 'a')).toBe('x = 1');
  });

  it('matches redirect URLs as GoTrue globs', () => {
    expect(onAllowList('https://a.example/x/y', ['https://a.example/**'])).toBe(true);
    expect(onAllowList('https://app.b.example', ['https://*.b.example'])).toBe(true);
    expect(onAllowList('https://evil.example/.b.example', ['https://*.b.example'])).toBe(false);
    expect(onAllowList('https://a.example.evil.example/', ['https://a.example/**'])).toBe(false);
    expect(onAllowList('https://a.example/', [])).toBe(false);
  });
});

describe('the platform runs the identity provider when asked', () => {
  it('starts it with OIDC_IDP=1, signs an officer in on the real schema (profile included), and stops it on Ctrl-C', async () => {
    const { startPlatformProcess } = await import('../scripts/platform-process.mjs');
    const platformDir = await mkdtemp(join(tmpdir(), 'platform-oauth-process-'));
    const platform = await startPlatformProcess({ dataDir: platformDir, env: { OIDC_IDP: '1' } });
    const db = postgres(platform.dbUrl, { prepare: false, max: 1, onnotice: () => {} });
    try {
      expect(platform.idpUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/${NORTHSHIRE.tenantId}/v2\\.0$`));
      const settings = await (await fetch(`${platform.url}/auth/v1/settings`, { headers: { apikey: platform.anonKey } })).json();
      expect(settings.external.azure).toBe(true);

      // Northshire Police signs its people in through this tenant (supabase/schemas/24_organisation_sign_in.sql).
      const [{ id: organisation }] = await db`insert into public.organisations (name, code, service) values ('Northshire Police', 'NSP', 'UKPS') returning id`;
      await db`insert into public.organisation_domains (domain, organisation_id) values (${NORTHSHIRE.emailDomain}, ${organisation})`;
      await db`insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id, new_person_services, tested_at)
        values (${organisation}, 'oidc', ${NORTHSHIRE.tenantId}, '{UKPS}', now())`;
      await db`update public.organisation_sign_in set enabled = true where organisation_id = ${organisation}`;

      const app = newApp({ url: platform.url, anonKey: platform.anonKey });
      const { data } = await app.client.auth.signInWithOAuth({
        provider: 'azure', options: { redirectTo: `${platform.url}/auth`, scopes: 'email profile openid', skipBrowserRedirect: true },
      });
      const browser = newBrowser();
      const start = await browser.go(/** @type {string} */ (data.url));
      expect(start.headers.get('location')?.startsWith(platform.idpUrl.replace(/\/v2\.0$/, ''))).toBe(true);
      const callbackUrl = await atProvider(browser, /** @type {string} */ (start.headers.get('location')), { username: TOM.username });
      const landed = new URL(nextUrl(await browser.go(callbackUrl), callbackUrl));
      const { data: signedIn, error } = await app.client.auth.exchangeCodeForSession(/** @type {string} */ (landed.searchParams.get('code')));
      expect(error).toBeNull();
      // The schema's own before-user-created hook and profile trigger ran for the new officer.
      const [profile] = await db`select username, email, name, organisation_id from public.profiles where id = ${signedIn.user?.id ?? ''}`;
      expect(profile).toEqual({ username: TOM.username, email: TOM.email, name: TOM.name, organisation_id: organisation });
    } finally {
      await db.end({ timeout: 5 });
      await platform.stop();
      await rm(platformDir, { recursive: true, force: true });
    }
    await expect(fetch(`${platform.idpUrl}/.well-known/openid-configuration`)).rejects.toThrow();
  }, 300_000);
});
