// Password recovery in the local Auth, driven by supabase-js as the web app and the function use it:
// POST /recover, the emailed GET /verify link, POST /verify {token_hash} and POST /admin/generate_link.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { createClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { loadKeys } from './keys.mjs';
import { createAuth, slidingWindow } from './auth.mjs';
import { startGateway } from './gateway.mjs';
import { startScratchDatabase } from './scratch-database.mjs';

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
/** @type {{ to: string, subject: string, text: string, html?: string }[]} */
const sent = [];
/** The Auth service itself (behind the gateway), for requests from chosen client addresses. */
/** @type {{ fetch(request: Request): Promise<Response> }} */
let auth;

class NoRealtime {
  constructor() {
    throw new Error('Realtime is not part of the local platform');
  }
}
const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  realtime: { transport: /** @type {any} */ (NoRealtime) },
};
const anonClient = () => createClient(gateway.url, keys.anonKey, clientOptions);
const serviceClient = () => createClient(gateway.url, keys.serviceRoleKey, clientOptions);

let counter = 0;
/** A confirmed user with a password; its email. */
async function newUser(password = 'first-pass-1') {
  const email = `recover${++counter}.${Date.now()}@example.org`;
  const { error } = await serviceClient().auth.admin.createUser({ email, password, email_confirm: true });
  expect(error).toBeNull();
  return email;
}

/** The emails are sent after the answer: wait for them (or make sure none came). */
async function mailsTo(email, { expectNone = false } = {}) {
  for (let i = 0; i < (expectNone ? 10 : 100); i++) {
    const found = sent.filter((m) => m.to === email);
    if (found.length > 0 && !expectNone) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  return sent.filter((m) => m.to === email);
}

/** The link of the (only) recovery email to an address. */
async function linkFor(email) {
  const [mail] = await mailsTo(email);
  expect(mail.subject).toBe('Reset your password');
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  return new URL(/** @type {string} */ (link));
}

/** Follows a link without following the redirect: the Location's URL. */
async function follow(link) {
  const response = await fetch(link, { redirect: 'manual' });
  await response.arrayBuffer();
  expect(response.status).toBe(303);
  return new URL(/** @type {string} */ (response.headers.get('location')));
}

const site = () => `${gateway.url}/`;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'platform-recovery-'));
  database = await startScratchDatabase();
  sql = postgres(database.url, { prepare: false, onnotice: () => {} });
  keys = await loadKeys(dataDir);
  const services = { auth: /** @type {any} */ (null) };
  gateway = await startGateway({
    port: 0,
    auth: { fetch: (request) => services.auth.fetch(request) },
    storage: { fetch: async () => new Response(null, { status: 404 }) },
    functionsUrl: null,
    webDir: null,
    apiKeys: [keys.anonKey, keys.serviceRoleKey],
  });
  services.auth = createAuth({
    sql,
    keys,
    publicUrl: gateway.url,
    mailer: { send: async (message) => void sent.push(message) },
  });
  auth = services.auth;
});

beforeEach(() => {
  sent.length = 0;
});

afterAll(async () => {
  await gateway?.stop();
  await sql?.end({ timeout: 5 });
  await database?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('POST /recover', () => {
  it('answers 200 {} alike for a known and an unknown address, and emails only the known one', async () => {
    const email = await newUser();
    const unknown = `nobody.${Date.now()}@example.org`;
    const answers = [];
    for (const address of [email, unknown]) {
      const response = await fetch(`${gateway.url}/auth/v1/recover?redirect_to=${encodeURIComponent(`${site()}auth/reset`)}`, {
        method: 'POST',
        headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: address }),
      });
      answers.push({ status: response.status, body: await response.text() });
    }
    expect(answers[0]).toEqual({ status: 200, body: '{}' });
    expect(answers[1]).toEqual(answers[0]);
    expect(await mailsTo(email)).toHaveLength(1);
    expect(await mailsTo(unknown, { expectNone: true })).toHaveLength(0);
  });

  it('works through supabase-js resetPasswordForEmail and emails a verify link with its redirect', async () => {
    const email = await newUser();
    const { data, error } = await anonClient().auth.resetPasswordForEmail(email.toUpperCase(), { redirectTo: `${site()}auth/reset` });
    expect(error).toBeNull();
    expect(data).toEqual({});
    const link = await linkFor(email);
    expect(link.origin + link.pathname).toBe(`${gateway.url}/auth/v1/verify`);
    expect(link.searchParams.get('type')).toBe('recovery');
    expect(link.searchParams.get('redirect_to')).toBe(`${site()}auth/reset`);
    const [mail] = sent;
    expect(mail.text).toContain('expires in 1 hour');
    expect(mail.html).toContain('<a href=');
  });

  it('keeps only a hash of the token', async () => {
    const email = await newUser();
    await anonClient().auth.resetPasswordForEmail(email);
    const token = /** @type {string} */ ((await linkFor(email)).searchParams.get('token'));
    const [row] = await sql`select recovery_token, recovery_sent_at from auth.users where email = ${email}`;
    expect(row.recovery_token).not.toContain(token);
    expect(row.recovery_token).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row.recovery_sent_at).toBeTruthy();
  });

  it('emails an address at most once a minute, still answering 200 {}', async () => {
    const email = await newUser();
    expect((await anonClient().auth.resetPasswordForEmail(email)).error).toBeNull();
    const first = await linkFor(email);
    const again = await anonClient().auth.resetPasswordForEmail(email);
    expect(again.error).toBeNull();
    expect(await mailsTo(email, { expectNone: true })).toHaveLength(1);
    // The first link still works: the refused request changed nothing.
    const [{ recovery_sent_at: sentAt }] = await sql`select recovery_sent_at from auth.users where email = ${email}`;
    await sql`update auth.users set recovery_sent_at = ${new Date(new Date(sentAt).getTime() - 61_000)} where email = ${email}`;
    expect((await anonClient().auth.resetPasswordForEmail(email)).error).toBeNull();
    for (let i = 0; i < 100 && sent.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sent.filter((m) => m.to === email)).toHaveLength(2);
    // The newer link replaced the first one.
    expect((await follow(first)).hash).toContain('error_code=otp_expired');
  });

  it('refuses a malformed address with 4xx, never 500', async () => {
    const post = (body) => fetch(`${gateway.url}/auth/v1/recover`, {
      method: 'POST',
      headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
      body,
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect((await post(JSON.stringify({ email: 'not-an-email' }))).status).toBe(400);
    expect((await post(JSON.stringify({}))).status).toBe(422);
    expect((await post(JSON.stringify({ email: 42 }))).status).toBe(422);
    expect((await post('{nope')).status).toBe(400);
  });

  it('sends a link leading elsewhere than the site back to the site URL (the allow list)', async () => {
    const email = await newUser();
    await anonClient().auth.resetPasswordForEmail(email, { redirectTo: 'https://attacker.example/steal' });
    const link = await linkFor(email);
    expect(link.searchParams.get('redirect_to')).toBe(site());
    // Editing the link's redirect_to does not help either.
    link.searchParams.set('redirect_to', 'https://attacker.example/steal');
    const landed = await follow(link);
    expect(landed.origin).toBe(gateway.url);
    expect(landed.hash).toContain('access_token=');
  });
});

describe('POST /recover from one client address', () => {
  /** A recovery request as the gateway passes it on: the client's address in x-forwarded-for. */
  const recover = (ip, email) => auth.fetch(new Request('http://auth.local/recover', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email }),
  }));

  it('answers 429 after 30 requests in 5 minutes, across many addresses; another client is still served', async () => {
    for (let i = 0; i < 30; i++) {
      const answer = await recover('203.0.113.7', `nobody${i}.${Date.now()}@example.org`);
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
    const refused = await recover('203.0.113.7', `one-more.${Date.now()}@example.org`);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error_code).toBe('over_request_rate_limit');
    const other = await recover('203.0.113.8', `one-more.${Date.now()}@example.org`);
    expect(other.status).toBe(200);
    await other.arrayBuffer();
  });

  it('counts in a sliding window: a refused request does not count, and the window moves on', () => {
    let now = 0;
    const limit = slidingWindow(2, 1000, () => now);
    expect([limit.take('a'), limit.take('a'), limit.take('a'), limit.take('b')]).toEqual([true, true, false, true]);
    now = 999;
    expect(limit.take('a')).toBe(false);
    now = 1001;
    expect([limit.take('a'), limit.take('a'), limit.take('a')]).toEqual([true, true, false]);
  });
});

describe('GET /verify (the emailed link)', () => {
  it('signs the person in once, with a recovery session that can set a new password', async () => {
    const email = await newUser('old-pass-1');
    await anonClient().auth.resetPasswordForEmail(email, { redirectTo: `${site()}auth/reset` });
    const link = await linkFor(email);
    const landed = await follow(link);
    expect(landed.href.split('#')[0]).toBe(`${site()}auth/reset`);
    const fragment = new URLSearchParams(landed.hash.slice(1));
    expect(fragment.get('type')).toBe('recovery');
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('expires_in')).toBe('3600');
    const accessToken = /** @type {string} */ (fragment.get('access_token'));
    const refreshToken = /** @type {string} */ (fragment.get('refresh_token'));
    // As GoTrue's implicit flow: an emailed link's session is an 'otp' one.
    expect(decodeJwt(accessToken).amr).toEqual([expect.objectContaining({ method: 'otp' })]);

    // supabase-js takes the session and changes the password with it.
    const client = anonClient();
    const set = await client.auth.setSession({ access_token: accessToken, refresh_token: refreshToken });
    expect(set.error).toBeNull();
    expect(set.data.user?.email).toBe(email);
    expect((await client.auth.updateUser({ password: 'new-pass-2' })).error).toBeNull();
    // A refreshed token still says how the session was opened.
    const refreshed = await client.auth.refreshSession();
    expect(decodeJwt(/** @type {string} */ (refreshed.data.session?.access_token)).amr).toEqual([expect.objectContaining({ method: 'otp' })]);

    expect((await anonClient().auth.signInWithPassword({ email, password: 'old-pass-1' })).error?.code).toBe('invalid_credentials');
    expect((await anonClient().auth.signInWithPassword({ email, password: 'new-pass-2' })).error).toBeNull();

    // Single use: the same link again lands with GoTrue's error fragment.
    const again = await follow(link);
    expect(again.href.split('#')[0]).toBe(`${site()}auth/reset`);
    const error = new URLSearchParams(again.hash.slice(1));
    expect(error.get('error')).toBe('access_denied');
    expect(error.get('error_code')).toBe('otp_expired');
    expect(error.get('error_description')).toBe('Email link is invalid or has expired');
    expect(error.get('access_token')).toBeNull();
  });

  it('refuses a link over an hour old, an unknown token and another type', async () => {
    const email = await newUser();
    await anonClient().auth.resetPasswordForEmail(email);
    const link = await linkFor(email);
    await sql`update auth.users set recovery_sent_at = now() - interval '61 minutes' where email = ${email}`;
    expect((await follow(link)).hash).toContain('error_code=otp_expired');
    await sql`update auth.users set recovery_sent_at = now() - interval '59 minutes' where email = ${email}`;
    const other = new URL(link);
    other.searchParams.set('token', 'f'.repeat(56));
    expect((await follow(other)).hash).toContain('error_code=otp_expired');
    other.searchParams.set('token', 'not a token');
    expect((await follow(other)).hash).toContain('error_code=otp_expired');
    const signup = new URL(link);
    signup.searchParams.set('type', 'signup');
    expect((await follow(signup)).hash).toContain('error_code=otp_expired');
    // Still unused: the right link within the hour works.
    expect((await follow(link)).hash).toContain('access_token=');
    expect(await sql`select 1 from auth.mfa_amr_claims c join auth.sessions s on s.id = c.session_id
      join auth.users u on u.id = s.user_id where u.email = ${email} and c.authentication_method = 'otp'`).toHaveLength(1);
  });

  it('gives a banned (deactivated) person no working link', async () => {
    const email = await newUser();
    await anonClient().auth.resetPasswordForEmail(email);
    const link = await linkFor(email);
    await sql`update auth.users set banned_until = '2999-12-31' where email = ${email}`;
    expect((await follow(link)).hash).toContain('error_code=otp_expired');
    await sql`update auth.users set recovery_sent_at = now() - interval '2 minutes' where email = ${email}`;
    sent.length = 0;
    expect((await anonClient().auth.resetPasswordForEmail(email)).error).toBeNull();
    expect(await mailsTo(email, { expectNone: true })).toHaveLength(0);
    const generated = await serviceClient().auth.admin.generateLink({ type: 'recovery', email });
    expect(generated.error?.status).toBe(422);
  });
});

describe('POST /admin/generate_link', () => {
  it('answers GoTrue\'s shape to the service role, sends nothing, and the link works once', async () => {
    const email = await newUser();
    const { data, error } = await serviceClient().auth.admin.generateLink({
      type: 'recovery',
      email,
      options: { redirectTo: `${site()}auth/reset` },
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.properties?.verification_type).toBe('recovery');
    expect(data.properties?.redirect_to).toBe(`${site()}auth/reset`);
    expect(data.properties?.hashed_token).toMatch(/^[0-9a-f]{56}$/);
    const link = new URL(/** @type {string} */ (data.properties?.action_link));
    expect(link.searchParams.get('token')).toBe(data.properties?.hashed_token);
    expect(await mailsTo(email, { expectNone: true })).toHaveLength(0);
    const landed = await follow(link);
    expect(landed.href.split('#')[0]).toBe(`${site()}auth/reset`);
    expect(landed.hash).toContain('type=recovery');
    expect((await follow(link)).hash).toContain('error_code=otp_expired');
  });

  it('lets supabase-js verifyOtp({type: recovery, token_hash}) use the token once', async () => {
    const email = await newUser();
    const { data } = await serviceClient().auth.admin.generateLink({ type: 'recovery', email });
    const tokenHash = /** @type {string} */ (data.properties?.hashed_token);
    const first = await anonClient().auth.verifyOtp({ type: 'recovery', token_hash: tokenHash });
    expect(first.error).toBeNull();
    expect(first.data.session?.access_token).toBeTruthy();
    expect(first.data.user?.email).toBe(email);
    const second = await anonClient().auth.verifyOtp({ type: 'recovery', token_hash: tokenHash });
    expect(second.error?.status).toBe(403);
    expect(second.error?.code).toBe('otp_expired');
  });

  it('is for the service role only, and refuses an unknown address or another type', async () => {
    const email = await newUser('person-pass-1');
    const post = (key, token, body) => fetch(`${gateway.url}/auth/v1/admin/generate_link`, {
      method: 'POST',
      headers: { apikey: key, ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const body = { type: 'recovery', email };
    expect((await post(keys.anonKey, null, body)).status).toBe(401);
    expect((await post(keys.anonKey, keys.anonKey, body)).status).toBe(403);
    const session = (await anonClient().auth.signInWithPassword({ email, password: 'person-pass-1' })).data.session;
    expect((await post(keys.anonKey, session?.access_token, body)).status).toBe(403);
    expect(await sql`select 1 from auth.users where email = ${email} and recovery_sent_at is not null`).toHaveLength(0);

    const unknown = await post(keys.serviceRoleKey, keys.serviceRoleKey, { type: 'recovery', email: `none.${Date.now()}@example.org` });
    expect(unknown.status).toBe(404);
    expect((await post(keys.serviceRoleKey, keys.serviceRoleKey, { type: 'invite', email })).status).toBe(422);
    expect((await post(keys.serviceRoleKey, keys.serviceRoleKey, { type: 'recovery', email: 'nope' })).status).toBe(400);
    const outside = await post(keys.serviceRoleKey, keys.serviceRoleKey, { type: 'recovery', email, redirect_to: 'https://elsewhere.example/' });
    expect(outside.status).toBe(200);
    expect(outside.body.redirect_to).toBe(site());
  });
});
