// SAML single sign-on end to end over HTTP: the organisation's administrator registers the IdP
// through Auth's admin API, the web app is supabase-js (signInWithSSO with the PKCE flow,
// exchangeCodeForSession), the browser is fetch posting the IdP's forms by hand, the IdP is the
// local Southshire Ambulance Service one (platform/idp/saml.mjs), and the local Auth writes a scratch
// PGlite database.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { createClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { startScratchDatabase } from './scratch-database.mjs';
import { loadKeys } from './keys.mjs';
import { createAuth } from './auth.mjs';
import { startGateway } from './gateway.mjs';
import { ENTRA_CLAIMS, SOUTHSHIRE, samlPeople, startSamlIdp } from './idp/saml.mjs';

const [PRIYA, LIAM, DANIEL] = samlPeople();
const DOMAIN = SOUTHSHIRE.emailDomain;
/** The attribute mapping an administrator gives for Entra ID's claims. */
const MAPPING = {
  keys: {
    email: { name: ENTRA_CLAIMS.emailaddress },
    name: { name: ENTRA_CLAIMS.displayname },
    given_name: { name: ENTRA_CLAIMS.givenname },
    family_name: { name: ENTRA_CLAIMS.surname },
    department: { name: 'department' },
    manager: { name: 'manager' },
    employee_id: { names: ['employeeid', 'http://schemas.microsoft.com/identity/claims/employeeid'] },
    organisation: { default: 'Southshire Ambulance Service NHS Trust' },
  },
};

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
/** @type {Awaited<ReturnType<typeof startSamlIdp>>} */
let idp;
/** An impostor: the same entity id, its own key. @type {Awaited<ReturnType<typeof startSamlIdp>>} */
let impostor;
/** @type {string} */
let siteUrl;
/** @type {string} */
let providerId;
const services = { auth: /** @type {any} */ (null) };
const OTHER_APP = 'https://intranet.southshire-ambulance.example.uk/saml';

function authFor(options = {}) {
  return createAuth({ sql, keys, publicUrl: gateway.url, siteUrl, ...options });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'platform-saml-'));
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
  const ours = { entityId: `${gateway.url}/auth/v1/sso/saml/metadata`, acsUrl: `${gateway.url}/auth/v1/sso/saml/acs` };
  // A second application of the Trust's tenant, whose Responses are valid but not for the local Auth.
  idp = await startSamlIdp({ port: 0, serviceProviders: [ours, { entityId: OTHER_APP, acsUrl: ours.acsUrl }] });
  impostor = await startSamlIdp({ port: 0, entityId: idp.entityId, serviceProviders: [ours] });
  services.auth = authFor();
});

afterAll(async () => {
  await gateway?.stop();
  await idp?.stop();
  await impostor?.stop();
  await sql?.end({ timeout: 5 });
  await database?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- helpers

const adminHeaders = (key = keys.serviceRoleKey) => ({ apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' });
/** @param {string} path @param {{ method?: string, body?: unknown, key?: string }} [init] */
const admin = (path, { method = 'GET', body, key } = {}) => fetch(`${gateway.url}/auth/v1/admin/sso/providers${path}`, {
  method, headers: adminHeaders(key), body: body === undefined ? undefined : JSON.stringify(body),
});

/** The web app: supabase-js with the PKCE flow, its verifier kept in a storage of its own. */
function newApp() {
  const stored = new Map();
  const storage = { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v), removeItem: (k) => void stored.delete(k) };
  const client = createClient(gateway.url, keys.anonKey, {
    auth: { flowType: 'pkce', storage, persistSession: true, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: /** @type {any} */ (class { constructor() { throw new Error('no Realtime'); } }) },
  });
  return client;
}

/** A browser's form post. @param {string} url @param {Record<string, string>} fields */
const post = (url, fields) => fetch(url, {
  method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(),
});
const field = (/** @type {string} */ html, /** @type {string} */ name) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&#(\d+);/g, (_m, c) => String.fromCharCode(Number(c))) ?? '';

/**
 * At the IdP as a browser: the AuthnRequest URL, the sign-in form, then the auto-posting form.
 * @param {string} ssoUrl @param {{ username: string, password?: string }} who
 * @returns {Promise<{ acs: string, SAMLResponse: string, RelayState: string }>}
 */
async function atIdp(ssoUrl, { username, password = SOUTHSHIRE.password }) {
  const page = await fetch(ssoUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain(SOUTHSHIRE.name);
  expect(html).toMatch(/<label for="username">/);
  expect(html).toMatch(/<label for="password">/);
  const action = new URL(/** @type {string} */ (/action="([^"]+\/login)"/.exec(html)?.[1]), ssoUrl).href;
  const answer = await post(action, { login: field(html, 'login'), username, password });
  expect(answer.status).toBe(200);
  const form = await answer.text();
  return { acs: /** @type {string} */ (/<form method="post" action="([^"]+)"/.exec(form)?.[1]), SAMLResponse: field(form, 'SAMLResponse'), RelayState: field(form, 'RelayState') };
}

/** Starts a sign-in as the web app does: supabase-js's signInWithSSO by domain. */
async function startSignIn({ domain = DOMAIN, redirectTo = `${siteUrl}signed-in` } = {}) {
  const client = newApp();
  const { data, error } = await client.auth.signInWithSSO({ domain, options: { redirectTo } });
  expect(error).toBeNull();
  const url = /** @type {string} */ (data?.url);
  expect(url.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
  return { client, url, relayState: /** @type {string} */ (new URL(url).searchParams.get('RelayState')) };
}

/** Posts a Response to the ACS; answers where the browser is sent. */
async function toAcs(/** @type {{ SAMLResponse: string, RelayState: string }} */ fields) {
  const response = await post(`${gateway.url}/auth/v1/sso/saml/acs`, fields);
  expect([302, 303]).toContain(response.status);
  return new URL(/** @type {string} */ (response.headers.get('location')));
}

/** A whole sign-in to the app's page. */
async function signIn(person, options = {}) {
  const flow = await startSignIn(options);
  const posted = await atIdp(flow.url, { username: person.username });
  expect(posted.acs).toBe(`${gateway.url}/auth/v1/sso/saml/acs`);
  expect(posted.RelayState).toBe(flow.relayState);
  const landed = await toAcs(posted);
  return { ...flow, posted, landed };
}

const counts = async () => (await sql`select (select count(*)::int from auth.users) as users, (select count(*)::int from auth.identities) as identities,
  (select count(*)::int from auth.sessions) as sessions`)[0];
const identityOf = async (/** @type {{ nameId: string }} */ person) => (await sql`select * from auth.identities where provider_id = ${person.nameId}`)[0];

/** Runs fn with console.error silenced; answers what was logged. */
async function quietly(/** @type {() => Promise<any>} */ fn) {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const value = await fn();
    return { value, logged: logged.mock.calls.flat().join(' ') };
  } finally {
    logged.mockRestore();
  }
}

/** Expects a refusal: to the site URL (303, as GoTrue), with the error and its code, and no code. */
function expectRefused(/** @type {URL} */ landed, /** @type {string} */ code) {
  expect(landed.origin + landed.pathname).toBe(siteUrl);
  expect(landed.searchParams.get('error')).toBeTruthy();
  expect(landed.searchParams.get('error_code')).toBe(code);
  expect(landed.searchParams.get('code')).toBeNull();
}

// ---------------------------------------------------------------- the tests

describe('the administrator registers the identity provider', () => {
  it('serves the service provider metadata with GoTrue\'s entity id and ACS, without an API key', async () => {
    const response = await fetch(`${gateway.url}/auth/v1/sso/saml/metadata`);
    expect(response.status).toBe(200);
    const xml = await response.text();
    expect(xml).toContain(`entityID="${gateway.url}/auth/v1/sso/saml/metadata"`);
    expect(xml).toContain(`Location="${gateway.url}/auth/v1/sso/saml/acs"`);
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
  });

  it('refuses the anon key, then registers the provider by metadata URL with its domain and attribute mapping', async () => {
    const body = { type: 'saml', metadata_url: idp.metadataUrl, domains: [DOMAIN.toUpperCase()], attribute_mapping: MAPPING };
    const anon = await admin('', { method: 'POST', body, key: keys.anonKey });
    expect(anon.status).toBe(403);
    expect(await anon.json()).toMatchObject({ error_code: 'not_admin' });
    expect((await sql`select count(*)::int as n from auth.sso_providers`)[0].n).toBe(0);

    const created = await admin('', { method: 'POST', body });
    expect(created.status).toBe(201);
    const provider = await created.json();
    providerId = provider.id;
    expect(provider).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      saml: { entity_id: idp.entityId, metadata_xml: expect.stringContaining('IDPSSODescriptor'), metadata_url: idp.metadataUrl, attribute_mapping: MAPPING },
      domains: [{ domain: DOMAIN }],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const list = await (await admin('')).json();
    expect(list.items).toHaveLength(1);
    expect(list.items[0].saml.metadata_xml).toBeUndefined();
    expect((await (await admin(`/${providerId}`)).json()).saml.entity_id).toBe(idp.entityId);
  });

  it('answers GoTrue\'s refusals for bad metadata, a taken domain or entity id, and an unknown provider', async () => {
    const bad = async (/** @type {object} */ body, /** @type {number} */ status, /** @type {string} */ code, /** @type {string | RegExp} */ msg) => {
      const response = await admin('', { method: 'POST', body: { type: 'saml', ...body } });
      expect(response.status).toBe(status);
      const answer = await response.json();
      expect(answer.error_code).toBe(code);
      expect(answer.msg).toMatch(msg);
    };
    await bad({}, 400, 'validation_failed', 'Either metadata_xml or metadata_url must be set');
    await bad({ type: 'oidc', metadata_url: idp.metadataUrl }, 400, 'validation_failed', "Only 'saml' supported for SSO provider type");
    await bad({ metadata_url: 'http://idp.example/metadata' }, 400, 'validation_failed', 'metadata_url is not a HTTPS URL');
    await bad({ metadata_url: 'not a url' }, 400, 'validation_failed', 'metadata_url is not a valid URL');
    await bad({ metadata_url: `${idp.url}/nothing` }, 400, 'saml_metadata_fetch_failed', /^HTTP 404 error fetching SAML Metadata/);
    await bad({ metadata_xml: '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' }, 400, 'validation_failed', 'SAML Metadata does not contain any IDPSSODescriptor');
    await bad({ metadata_xml: 'not xml' }, 400, 'validation_failed', /SAML Metadata/);
    await bad({ metadata_url: idp.metadataUrl }, 422, 'saml_idp_already_exists', `SAML Identity Provider with this EntityID (${idp.entityId}) already exists`);
    const other = (await (await fetch(idp.metadataUrl)).text()).replaceAll(idp.entityId, 'https://sts.example/other/');
    await bad({ metadata_xml: other, domains: [DOMAIN] }, 400, 'sso_domain_already_exists', `SSO Domain '${DOMAIN}' is already assigned to an SSO identity provider (${providerId})`);
    expect((await sql`select count(*)::int as n from auth.sso_providers`)[0].n).toBe(1);
    for (const id of ['not-a-uuid', crypto.randomUUID()]) {
      const missing = await admin(`/${id}`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error_code: 'sso_provider_not_found', msg: 'SSO Identity Provider not found' });
    }
  });
});

describe('SAML sign-in (signInWithSSO by domain)', () => {
  it('creates the SSO user and its identity from the mapped attributes, and the PKCE code answers its session', async () => {
    const { client, landed, relayState } = await signIn(PRIYA);
    expect(landed.origin + landed.pathname).toBe(`${siteUrl}signed-in`);
    const code = /** @type {string} */ (landed.searchParams.get('code'));
    expect(code).toMatch(/^[0-9a-f-]{36}$/);
    expect(await sql`select id from auth.saml_relay_states where id = ${relayState}`).toHaveLength(0);

    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    const session = /** @type {import('@supabase/supabase-js').Session} */ (data.session);
    const provider = `sso:${providerId}`;
    expect(session.user.email).toBe(PRIYA.email);
    expect(session.user.app_metadata).toEqual({ provider, providers: [provider] });
    expect(decodeJwt(session.access_token).amr).toEqual([{ method: 'sso/saml', timestamp: expect.any(Number) }]);
    const identityData = {
      iss: idp.entityId, sub: PRIYA.nameId, email: PRIYA.email, email_verified: true, phone_verified: false,
      name: 'Priya Sharma', given_name: 'Priya', family_name: 'Sharma',
      custom_claims: { department: 'Riverside Station', manager: DANIEL.email, employee_id: 'SAS20417', organisation: 'Southshire Ambulance Service NHS Trust' },
    };
    expect(session.user.user_metadata).toEqual(identityData);
    expect(session.user.identities).toEqual([expect.objectContaining({ provider, id: PRIYA.nameId, identity_data: identityData })]);

    const [user] = await sql`select * from auth.users where id = ${session.user.id}`;
    expect(user).toMatchObject({ is_sso_user: true, email: PRIYA.email, encrypted_password: '' });
    expect(user.email_confirmed_at).toBeTruthy();
    expect(await sql`select id from auth.flow_state where auth_code = ${code}`).toHaveLength(0);
  });

  it('reuses the user on a second sign-in and refreshes its identity data and metadata', async () => {
    const before = await identityOf(PRIYA);
    await sql`update auth.users set raw_user_meta_data = raw_user_meta_data || '{"custom_claims": {"department": "Old Station"}}' where id = ${before.user_id}`;
    await sql`update auth.identities set identity_data = identity_data || '{"name": "Old Name"}' where id = ${before.id}`;
    const { client, landed } = await signIn(PRIYA);
    const { data, error } = await client.auth.exchangeCodeForSession(/** @type {string} */ (landed.searchParams.get('code')));
    expect(error).toBeNull();
    expect(data.user?.id).toBe(before.user_id);
    expect(data.user?.user_metadata.custom_claims.department).toBe('Riverside Station');
    expect((await identityOf(PRIYA)).identity_data.name).toBe('Priya Sharma');
    expect(await sql`select id from auth.identities where provider_id = ${PRIYA.nameId}`).toHaveLength(1);
  });

  it('keeps an SSO user apart from a password account with the same address', async () => {
    const created = await fetch(`${gateway.url}/auth/v1/admin/users`, {
      method: 'POST', headers: adminHeaders(), body: JSON.stringify({ email: LIAM.email, password: 'his-own-password', email_confirm: true }),
    });
    expect(created.status).toBe(200);
    const { client, landed } = await signIn(LIAM);
    const { data } = await client.auth.exchangeCodeForSession(/** @type {string} */ (landed.searchParams.get('code')));
    expect(data.user?.app_metadata.provider).toBe(`sso:${providerId}`);
    const users = await sql`select is_sso_user from auth.users where email = ${LIAM.email} order by is_sso_user`;
    expect(users.map((u) => u.is_sso_user)).toEqual([false, true]);
    await sql`delete from auth.users where email = ${LIAM.email}`;
  });

  it('answers GoTrue\'s 404 for a domain without a provider, and redirects (303) without skip_http_redirect', async () => {
    const { error } = await newApp().auth.signInWithSSO({ domain: 'northshire.police.example' });
    expect(error?.status).toBe(404);
    const raw = await fetch(`${gateway.url}/auth/v1/sso`, { method: 'POST', headers: { apikey: keys.anonKey, 'content-type': 'application/json' }, body: JSON.stringify({ domain: 'nowhere.example' }) });
    expect(await raw.json()).toEqual({ code: 'sso_provider_not_found', error_code: 'sso_provider_not_found', msg: 'No SSO provider assigned for this domain' });
    const byId = await fetch(`${gateway.url}/auth/v1/sso`, { method: 'POST', redirect: 'manual', headers: { apikey: keys.anonKey, 'content-type': 'application/json' }, body: JSON.stringify({ provider_id: providerId }) });
    expect(byId.status).toBe(303);
    expect(byId.headers.get('location')?.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
    const both = await fetch(`${gateway.url}/auth/v1/sso`, { method: 'POST', headers: { apikey: keys.anonKey, 'content-type': 'application/json' }, body: JSON.stringify({ provider_id: providerId, domain: DOMAIN }) });
    expect(both.status).toBe(400);
  });

  it('asks the before-user-created hook, whose refusal reaches the site URL and creates nothing', async () => {
    await sql.unsafe(`
      create or replace function public.refuse_blue_watch(event jsonb) returns jsonb language sql as $$
        select case when event -> 'user' -> 'user_metadata' -> 'custom_claims' ->> 'department' = 'Blue Watch'
                     and event -> 'user' -> 'app_metadata' ->> 'provider' like 'sso:%'
                    then '{"error": {"http_code": 403, "message": "Not yet for Blue Watch"}}'::jsonb else '{}'::jsonb end
      $$;`);
    services.auth = authFor({ beforeUserCreated: 'public.refuse_blue_watch' });
    try {
      const before = await counts();
      const { landed } = await signIn(LIAM);
      expect(landed.origin + landed.pathname).toBe(siteUrl);
      expect(landed.searchParams.get('error')).toBe('access_denied');
      expect(landed.searchParams.get('error_description')).toBe('Not yet for Blue Watch');
      expect(await counts()).toEqual(before);
      expect(await identityOf(LIAM)).toBeUndefined();
    } finally {
      services.auth = authFor();
      await sql.unsafe('drop function public.refuse_blue_watch(jsonb);');
    }
  });
});

describe('the ACS refuses, writing nothing', () => {
  it('a Response whose assertion was altered after signing', async () => {
    const flow = await startSignIn();
    const posted = await atIdp(flow.url, { username: LIAM.username });
    const xml = Buffer.from(posted.SAMLResponse, 'base64').toString('utf8');
    const altered = xml.replace('Blue Watch', 'Riverside Station');
    expect(altered).not.toBe(xml);
    const before = await counts();
    const { value: landed, logged } = await quietly(() => toAcs({ ...posted, SAMLResponse: Buffer.from(altered).toString('base64') }));
    expectRefused(landed, 'validation_failed');
    expect(logged).toMatch(/signature/i);
    expect(await counts()).toEqual(before);
  });

  it('a Response signed by another key (an impostor with the IdP\'s entity id)', async () => {
    const flow = await startSignIn();
    const impostorUrl = flow.url.replace(idp.ssoUrl, impostor.ssoUrl);
    const posted = await atIdp(impostorUrl, { username: LIAM.username });
    const before = await counts();
    const { value: landed } = await quietly(() => toAcs(posted));
    expectRefused(landed, 'validation_failed');
    expect(await counts()).toEqual(before);
    expect(await identityOf(LIAM)).toBeUndefined();
  });

  it('a replayed Response: with its own relay state (used up) and with a fresh one (InResponseTo)', async () => {
    const { posted, landed } = await signIn(DANIEL);
    expect(landed.searchParams.get('code')).toBeTruthy();
    const before = await counts();
    expectRefused(await toAcs(posted), 'saml_relay_state_not_found');
    const fresh = await startSignIn();
    const { value: again } = await quietly(() => toAcs({ SAMLResponse: posted.SAMLResponse, RelayState: fresh.relayState }));
    expectRefused(again, 'validation_failed');
    expect(await counts()).toEqual(before);
  });

  it('a Response for another application (audience), an expired one, and an unknown RelayState', async () => {
    const before = await counts();
    // Another application of the same IdP, answering this very request: only the audience is wrong.
    const flow = await startSignIn();
    const [relay] = await sql`select request_id from auth.saml_relay_states where id = ${flow.relayState}`;
    const foreign = await idp.responseFor({ spEntityId: OTHER_APP, username: LIAM.username, inResponseTo: relay.request_id });
    const { value: wrongAudience, logged } = await quietly(() => toAcs({ SAMLResponse: foreign, RelayState: flow.relayState }));
    expectRefused(wrongAudience, 'validation_failed');
    expect(logged).toMatch(/audience/i);

    // Expired: presented ten minutes after it was made (the Response lives five, skew three).
    const late = await startSignIn();
    const posted = await atIdp(late.url, { username: LIAM.username });
    vi.useFakeTimers({ now: Date.now() + 10 * 60_000, toFake: ['Date'] });
    try {
      await sql`update auth.saml_relay_states set created_at = now() - interval '60 seconds' where id = ${late.relayState}`;
      const { value: expired, logged: why } = await quietly(() => toAcs(posted));
      expectRefused(expired, 'validation_failed');
      expect(why).toMatch(/expired|NotOnOrAfter|subject confirmation/i);
    } finally {
      vi.useRealTimers();
    }

    // A relay state older than two minutes (GoTrue's validity period).
    const slow = await startSignIn();
    const slowPosted = await atIdp(slow.url, { username: LIAM.username });
    await sql`update auth.saml_relay_states set created_at = now() - interval '121 seconds' where id = ${slow.relayState}`;
    expectRefused(await toAcs(slowPosted), 'saml_relay_state_expired');

    const unknown = await startSignIn();
    const unknownPosted = await atIdp(unknown.url, { username: LIAM.username });
    expectRefused(await toAcs({ ...unknownPosted, RelayState: crypto.randomUUID() }), 'saml_relay_state_not_found');
    expectRefused(await toAcs({ ...unknownPosted, RelayState: 'not-a-relay-state' }), 'validation_failed');
    expect(await counts()).toEqual(before);
    expect(await identityOf(LIAM)).toBeUndefined();
  });

  it('an AuthnRequest from an application the IdP does not know, at the IdP', async () => {
    const { url } = await startSignIn();
    await sql`delete from auth.saml_relay_states`;
    const stranger = await startSamlIdp({ port: 0, serviceProviders: [{ entityId: OTHER_APP, acsUrl: 'https://intranet.southshire-ambulance.example.uk/saml/acs' }] });
    try {
      const refused = await fetch(url.replace(idp.ssoUrl, stranger.ssoUrl));
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('not registered');
    } finally {
      await stranger.stop();
    }
  });
});

describe('the administrator changes and removes the provider', () => {
  it('updates the domains and mapping, and deletes it with its domains', async () => {
    const updated = await admin(`/${providerId}`, { method: 'PUT', body: { domains: [DOMAIN, 'sas.example.uk'], attribute_mapping: { keys: { email: { name: ENTRA_CLAIMS.emailaddress } } } } });
    expect(updated.status).toBe(200);
    const provider = await updated.json();
    expect(provider.domains).toEqual([{ domain: DOMAIN }, { domain: 'sas.example.uk' }]);
    expect(provider.saml.attribute_mapping).toEqual({ keys: { email: { name: ENTRA_CLAIMS.emailaddress } } });
    const deleted = await admin(`/${providerId}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await deleted.json()).id).toBe(providerId);
    expect(await sql`select * from auth.sso_domains`).toHaveLength(0);
    expect((await admin(`/${providerId}`)).status).toBe(404);
  });
});

describe('the platform runs the SAML identity provider beside the OpenID one', () => {
  it('starts it with OIDC_IDP=1, knowing the local Auth, and an administrator registers it by its metadata URL', async () => {
    const { startPlatformProcess } = await import('../scripts/platform-process.mjs');
    const platformDir = await mkdtemp(join(tmpdir(), 'platform-saml-process-'));
    const platform = await startPlatformProcess({ dataDir: platformDir, env: { OIDC_IDP: '1' } });
    try {
      expect(platform.samlIdpUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/${SOUTHSHIRE.tenantId}$`));
      const key = platform.serviceRoleKey;
      const created = await fetch(`${platform.url}/auth/v1/admin/sso/providers`, {
        method: 'POST', headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'saml', metadata_url: `${platform.samlIdpUrl}/metadata`, domains: [DOMAIN], attribute_mapping: MAPPING }),
      });
      expect(created.status).toBe(201);
      // Southshire Ambulance signs its people in through this provider (supabase/schemas/24_organisation_sign_in.sql).
      const db = postgres(platform.dbUrl, { prepare: false, max: 1, onnotice: () => {} });
      const [{ id: organisation }] = await db`insert into public.organisations (name, code, service) values ('Southshire Ambulance', 'SAS', 'UKAS') returning id`;
      await db`insert into public.organisation_domains (domain, organisation_id) values (${DOMAIN}, ${organisation})`;
      await db`insert into public.organisation_sign_in (organisation_id, protocol, saml_provider_id, new_person_services, tested_at)
        values (${organisation}, 'saml', ${(await created.json()).id}, '{UKAS}', now())`;
      await db`update public.organisation_sign_in set enabled = true where organisation_id = ${organisation}`;
      const sso = await fetch(`${platform.url}/auth/v1/sso`, {
        method: 'POST', headers: { apikey: platform.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ domain: DOMAIN, redirect_to: `${platform.url}/auth`, skip_http_redirect: true }),
      });
      const { url } = await sso.json();
      const posted = await atIdp(url, { username: DANIEL.username });
      expect(posted.acs).toBe(`${platform.url}/auth/v1/sso/saml/acs`);
      const landed = await post(posted.acs, { SAMLResponse: posted.SAMLResponse, RelayState: posted.RelayState });
      // No code_challenge: the implicit flow, the session in the fragment.
      const fragment = new URLSearchParams(new URL(/** @type {string} */ (landed.headers.get('location'))).hash.slice(1));
      const claims = decodeJwt(/** @type {string} */ (fragment.get('access_token')));
      expect(claims.email).toBe(DANIEL.email);
      const [profile] = await db`select organisation_id from public.profiles where id = ${claims.sub ?? ''}`;
      await db.end({ timeout: 5 });
      expect(profile).toEqual({ organisation_id: organisation });
    } finally {
      await platform.stop();
      await rm(platformDir, { recursive: true, force: true });
    }
    await expect(fetch(`${platform.samlIdpUrl}/metadata`)).rejects.toThrow();
  }, 300_000);
});
