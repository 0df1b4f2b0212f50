// Auth and Storage behind the gateway, driven by Supabase's own client (supabase-js), on a scratch
// PGlite database bootstrapped with platform/bootstrap.sql and served over the wire protocol.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScratchDatabase } from './scratch-database.mjs';
import postgres from 'postgres';
import { createClient } from '@supabase/supabase-js';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { loadKeys } from './keys.mjs';
import { authSettingsFromConfig, createAuth, passwordHashCostFromEnv } from './auth.mjs';
import { createStorage } from './storage.mjs';
import { startGateway } from './gateway.mjs';
import { createMailbox, startSmtpCatcher } from './mail.mjs';
import { DEFAULT_FROM, createMailer } from './mailer.mjs';
import { freePort } from './ports.mjs';
import net from 'node:net';

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

// Node 20 has no global WebSocket and the local platform has no Realtime: a transport that is never used.
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

let emailCounter = 0;
const newEmail = () => `person${++emailCounter}.${Date.now()}@example.org`;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'platform-services-'));
  database = await startScratchDatabase();
  sql = postgres(database.url, { prepare: false, onnotice: () => {} });
  keys = await loadKeys(dataDir);
  // publicUrl is only known once the gateway listens; the services read it lazily via this object.
  const services = { auth: /** @type {any} */ (null), storage: /** @type {any} */ (null) };
  gateway = await startGateway({
    port: 0,
    auth: { fetch: (request) => services.auth.fetch(request) },
    storage: { fetch: (request) => services.storage.fetch(request) },
    functionsUrl: null,
    webDir: null,
  });
  services.auth = createAuth({ sql, keys, publicUrl: gateway.url });
  services.storage = createStorage({ sql, keys, dataDir, publicUrl: gateway.url });
});

afterAll(async () => {
  await gateway?.stop();
  await sql?.end({ timeout: 5 });
  await database?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('auth: sign-up and sign-in', () => {
  it('signs up with autoconfirm and returns a session and the user, never the hash', async () => {
    const email = newEmail();
    const { data, error } = await anonClient().auth.signUp({
      email,
      password: 'correct horse battery',
      options: { data: { username: 'someone', name: 'Some One' } },
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.session?.refresh_token).toBeTruthy();
    expect(data.session?.token_type).toBe('bearer');
    expect(data.session?.expires_in).toBe(3600);
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata).toMatchObject({ username: 'someone', name: 'Some One' });
    expect(data.user?.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.identities?.[0]).toMatchObject({ provider: 'email', user_id: data.user?.id });
    expect(JSON.stringify(data)).not.toContain('$2');

    const [row] = await sql`select * from auth.users where id = ${data.user?.id ?? ''}`;
    expect(row.encrypted_password).toMatch(/^\$2[aby]\$10\$/);
    expect(row.aud).toBe('authenticated');
    expect(row.role).toBe('authenticated');
    expect(row.instance_id).toBe('00000000-0000-0000-0000-000000000000');
    const [identity] = await sql`select * from auth.identities where user_id = ${row.id}`;
    expect(identity.provider).toBe('email');
    expect(identity.email).toBe(email);
  });

  it('refuses a second sign-up with the same email (any case) with 422 user_already_exists', async () => {
    const email = newEmail();
    expect((await anonClient().auth.signUp({ email, password: 'password-1' })).error).toBeNull();
    const { data, error } = await anonClient().auth.signUp({ email: email.toUpperCase(), password: 'password-2' });
    expect(data.session).toBeNull();
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('user_already_exists');
    expect(error?.message).toBe('User already registered');
  });

  it('answers bad sign-up input with 4xx GoTrue errors, never 500', async () => {
    const weak = await anonClient().auth.signUp({ email: newEmail(), password: '123' });
    expect(weak.error?.status).toBe(422);
    expect(weak.error?.code).toBe('weak_password');
    const badEmail = await anonClient().auth.signUp({ email: 'not-an-email', password: 'password-1' });
    expect(badEmail.error?.status).toBe(400);
    const raw = await fetch(`${gateway.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(raw.status).toBe(400);
    const noPassword = await fetch(`${gateway.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: newEmail(), password: 12 }),
    });
    expect(noPassword.status).toBe(422);
  });

  it('asks the before-user-created hook first: its refusal is the answer (status and message) and nothing is written', async () => {
    await sql.unsafe(`
      create or replace function public.refuse_by_hook(event jsonb) returns jsonb language sql as $$
        select case when event -> 'user' -> 'user_metadata' ->> 'name' = 'Nobody'
                    then '{"error": {"http_code": 400, "message": "Name refused"}}'::jsonb else '{}'::jsonb end
      $$;`);
    try {
      const auth = createAuth({ sql, keys, publicUrl: gateway.url, beforeUserCreated: 'public.refuse_by_hook' });
      const signUp = (/** @type {string} */ email, /** @type {string} */ name) =>
        auth.fetch(new Request(`${gateway.url}/auth/v1/signup`, {
          method: 'POST',
          headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'password-1', data: { name } }),
        }));
      const refused = newEmail();
      const answer = await signUp(refused, 'Nobody');
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ msg: 'Name refused' });
      expect(await sql`select id from auth.users where email = ${refused}`).toHaveLength(0);
      const allowed = await signUp(newEmail(), 'Somebody');
      expect(allowed.status).toBe(200);
    } finally {
      await sql.unsafe('drop function public.refuse_by_hook(jsonb);');
    }
  });

  it('reads the hook from supabase/config.toml ([auth.hook.before_user_created], a Postgres function)', () => {
    const toml = '[auth.hook.before_user_created]\nenabled = true\nuri = "pg-functions://postgres/private/before_user_created"\n';
    expect(authSettingsFromConfig(toml).beforeUserCreated).toBe('private.before_user_created');
    expect(authSettingsFromConfig(toml.replace('true', 'false')).beforeUserCreated).toBeNull();
    expect(() => createAuth({ sql, keys, publicUrl: gateway.url, beforeUserCreated: 'x; drop table y' })).toThrow();
  });

  it("hashes at Supabase Auth's bcrypt cost 10 unless AUTH_PASSWORD_HASH_COST (4 to 31) says otherwise", () => {
    // This file's Auth has no setting: its sign-ups above are stored at cost 10.
    expect(passwordHashCostFromEnv({})).toBe(10);
    expect(authSettingsFromConfig('', { AUTH_PASSWORD_HASH_COST: '4' }).passwordHashCost).toBe(4);
    for (const bad of ['3', '32', '4.5', 'ten']) expect(() => passwordHashCostFromEnv({ AUTH_PASSWORD_HASH_COST: bad })).toThrow(/AUTH_PASSWORD_HASH_COST/);
  });

  it('answers a failing auth.users trigger with 500 "Database error saving new user" and keeps nothing', async () => {
    await sql.unsafe(`
      create or replace function public.refuse_forbidden() returns trigger language plpgsql as $$
      begin
        if new.raw_user_meta_data ->> 'username' = 'forbidden' then
          raise unique_violation using message = 'duplicate username';
        end if;
        return new;
      end $$;
      create trigger refuse_forbidden after insert on auth.users
        for each row execute function public.refuse_forbidden();`);
    try {
      const email = newEmail();
      const { error } = await anonClient().auth.signUp({ email, password: 'password-1', options: { data: { username: 'forbidden' } } });
      expect(error?.status).toBe(500);
      const raw = await fetch(`${gateway.url}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: keys.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'password-1', data: { username: 'forbidden' } }),
      });
      expect(raw.status).toBe(500);
      expect(await raw.json()).toMatchObject({ msg: 'Database error saving new user' });
      const rows = await sql`select id from auth.users where email = ${email}`;
      expect(rows).toHaveLength(0);
    } finally {
      await sql.unsafe('drop trigger refuse_forbidden on auth.users; drop function public.refuse_forbidden();');
    }
  });

  it('signs in with the password and refuses a wrong one with invalid_grant', async () => {
    const email = newEmail();
    await anonClient().auth.signUp({ email, password: 'right-password' });
    const good = await anonClient().auth.signInWithPassword({ email, password: 'right-password' });
    expect(good.error).toBeNull();
    expect(good.data.session?.access_token).toBeTruthy();
    expect(good.data.user?.last_sign_in_at).toBeTruthy();

    const bad = await anonClient().auth.signInWithPassword({ email, password: 'wrong-password' });
    expect(bad.data.session).toBeNull();
    expect(bad.error?.status).toBe(400);
    expect(bad.error?.message).toBe('Invalid login credentials');
    const unknown = await anonClient().auth.signInWithPassword({ email: newEmail(), password: 'right-password' });
    expect(unknown.error?.status).toBe(400);
    expect(unknown.error?.message).toBe('Invalid login credentials');
  });
});

describe('auth: tokens and sessions', () => {
  it('issues ES256 access tokens that verify against the JWKS with Supabase claims', async () => {
    const email = newEmail();
    const { data } = await anonClient().auth.signUp({ email, password: 'password-1', options: { data: { name: 'Jo' } } });
    const token = /** @type {string} */ (data.session?.access_token);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: keys.kid });
    const jwks = createRemoteJWKSet(new URL(`${gateway.url}/auth/v1/.well-known/jwks.json`));
    const { payload } = await jwtVerify(token, jwks, { issuer: `${gateway.url}/auth/v1`, audience: 'authenticated' });
    expect(payload).toMatchObject({
      sub: data.user?.id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { name: 'Jo' },
      aal: 'aal1',
      is_anonymous: false,
    });
    expect(/** @type {number} */ (payload.exp) - /** @type {number} */ (payload.iat)).toBe(3600);
    expect(Array.isArray(payload.amr)).toBe(true);
    const [session] = await sql`select * from auth.sessions where id = ${String(payload.session_id)}`;
    expect(session.user_id).toBe(data.user?.id);
  });

  it('getUser answers the signed-in user and refuses a forged token', async () => {
    const email = newEmail();
    const { data } = await anonClient().auth.signUp({ email, password: 'password-1' });
    const token = /** @type {string} */ (data.session?.access_token);
    const got = await anonClient().auth.getUser(token);
    expect(got.error).toBeNull();
    expect(got.data.user?.id).toBe(data.user?.id);
    expect(got.data.user?.email).toBe(email);

    const [header, payload] = token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'service_role' }),
    ).toString('base64url');
    const forged = await anonClient().auth.getUser(`${header}.${forgedPayload}.${token.split('.')[2]}`);
    expect(forged.data.user).toBeNull();
    expect(forged.error?.status).toBe(403);
  });

  it('rotates refresh tokens; reuse of a rotated one is refused and ends the session', async () => {
    const email = newEmail();
    const { data } = await anonClient().auth.signUp({ email, password: 'password-1' });
    const first = /** @type {import('@supabase/supabase-js').Session} */ (data.session);

    const refreshed = await anonClient().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(refreshed.error).toBeNull();
    const second = /** @type {import('@supabase/supabase-js').Session} */ (refreshed.data.session);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).toBeTruthy();
    expect(second.user.id).toBe(data.user?.id);
    const claimsOf = (/** @type {string} */ t) => JSON.parse(Buffer.from(t.split('.')[1], 'base64url').toString());
    expect(claimsOf(second.access_token).session_id).toBe(claimsOf(first.access_token).session_id);
    const [old] = await sql`select revoked from auth.refresh_tokens where token = ${first.refresh_token}`;
    expect(old.revoked).toBe(true);

    const reused = await anonClient().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(reused.data.session).toBeNull();
    expect(reused.error?.status).toBe(400);
    expect(reused.error?.message).toBe('Invalid Refresh Token: Already Used');

    // The whole session is gone: the newer refresh token and the access token stop working too.
    const newer = await anonClient().auth.refreshSession({ refresh_token: second.refresh_token });
    expect(newer.error?.status).toBe(400);
    expect(newer.data.session).toBeNull();
    const user = await anonClient().auth.getUser(second.access_token);
    expect(user.data.user).toBeNull();
    expect(user.error?.name).toBe('AuthSessionMissingError');
    const raw = await fetch(`${gateway.url}/auth/v1/user`, { headers: { apikey: keys.anonKey, authorization: `Bearer ${second.access_token}` } });
    expect(raw.status).toBe(403);
    expect((await raw.json()).error_code).toBe('session_not_found');
  });

  it('signOut deletes the session: its refresh token and access token are refused', async () => {
    const email = newEmail();
    const client = anonClient();
    await client.auth.signUp({ email, password: 'password-1' });
    const { data } = await client.auth.signInWithPassword({ email, password: 'password-1' });
    const session = /** @type {import('@supabase/supabase-js').Session} */ (data.session);
    expect((await anonClient().auth.getUser(session.access_token)).error).toBeNull();

    const { error } = await client.auth.signOut();
    expect(error).toBeNull();
    const refresh = await anonClient().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refresh.error?.status).toBe(400);
    const user = await anonClient().auth.getUser(session.access_token);
    expect(user.error?.name).toBe('AuthSessionMissingError');
    expect(user.data.user).toBeNull();
    const raw = await fetch(`${gateway.url}/auth/v1/user`, { headers: { apikey: keys.anonKey, authorization: `Bearer ${session.access_token}` } });
    expect(raw.status).toBe(403);
  });

  it('local sign-out ends only that session; global ends them all', async () => {
    const email = newEmail();
    await anonClient().auth.signUp({ email, password: 'password-1' });
    const a = anonClient();
    const b = anonClient();
    const c = anonClient();
    await a.auth.signInWithPassword({ email, password: 'password-1' });
    const sb = (await b.auth.signInWithPassword({ email, password: 'password-1' })).data.session;
    const sc = (await c.auth.signInWithPassword({ email, password: 'password-1' })).data.session;
    await a.auth.signOut({ scope: 'local' });
    expect((await anonClient().auth.getUser(sb?.access_token)).error).toBeNull();
    await b.auth.signOut({ scope: 'global' });
    expect((await anonClient().auth.getUser(sc?.access_token)).error?.name).toBe('AuthSessionMissingError');
  });

  it('updateUser changes metadata, email and password', async () => {
    const email = newEmail();
    const client = anonClient();
    await client.auth.signUp({ email, password: 'password-1', options: { data: { name: 'Before', keep: 1 } } });
    const newAddress = newEmail();
    const { data, error } = await client.auth.updateUser({ email: newAddress, password: 'password-2', data: { name: 'After' } });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(newAddress);
    expect(data.user?.user_metadata).toMatchObject({ name: 'After', keep: 1 });
    expect((await anonClient().auth.signInWithPassword({ email: newAddress, password: 'password-2' })).error).toBeNull();
    expect((await anonClient().auth.signInWithPassword({ email: newAddress, password: 'password-1' })).error?.status).toBe(400);
  });

  it('serves settings and health', async () => {
    const settings = await fetch(`${gateway.url}/auth/v1/settings`, { headers: { apikey: keys.anonKey } });
    expect(settings.status).toBe(200);
    expect((await settings.json()).external.email).toBe(true);
    expect((await fetch(`${gateway.url}/auth/v1/health`, { headers: { apikey: keys.anonKey } })).status).toBe(200);
  });
});

describe('auth: admin', () => {
  it('creates, lists, reads, updates and deletes users with the service-role key', async () => {
    const admin = serviceClient().auth.admin;
    const email = newEmail();
    const created = await admin.createUser({
      email,
      password: 'password-1',
      email_confirm: true,
      user_metadata: { username: 'made-by-admin' },
      app_metadata: { tier: 'gold' },
    });
    expect(created.error).toBeNull();
    const id = /** @type {string} */ (created.data.user?.id);
    expect(created.data.user?.email_confirmed_at).toBeTruthy();
    expect(created.data.user?.app_metadata).toMatchObject({ provider: 'email', tier: 'gold' });

    const duplicate = await admin.createUser({ email, password: 'password-1', email_confirm: true });
    expect(duplicate.error?.status).toBe(422);

    const list = await admin.listUsers({ page: 1, perPage: 1000 });
    expect(list.error).toBeNull();
    expect(list.data.users.some((u) => u.id === id)).toBe(true);
    expect(list.data.total).toBeGreaterThanOrEqual(1);
    const paged = await admin.listUsers({ page: 1, perPage: 1 });
    expect(paged.data.users).toHaveLength(1);

    const got = await admin.getUserById(id);
    expect(got.data.user?.email).toBe(email);

    const updated = await admin.updateUserById(id, { user_metadata: { name: 'Renamed' }, password: 'password-2' });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({ username: 'made-by-admin', name: 'Renamed' });
    expect((await anonClient().auth.signInWithPassword({ email, password: 'password-2' })).error).toBeNull();

    const deleted = await admin.deleteUser(id);
    expect(deleted.error).toBeNull();
    expect((await admin.getUserById(id)).error?.status).toBe(404);
    expect(await sql`select id from auth.users where id = ${id}`).toHaveLength(0);
  });

  it('an unconfirmed admin-created user cannot sign in until confirmed', async () => {
    const admin = serviceClient().auth.admin;
    const email = newEmail();
    const { data } = await admin.createUser({ email, password: 'password-1' });
    expect((await anonClient().auth.signInWithPassword({ email, password: 'password-1' })).error?.status).toBe(400);
    await admin.updateUserById(/** @type {string} */ (data.user?.id), { email_confirm: true });
    expect((await anonClient().auth.signInWithPassword({ email, password: 'password-1' })).error).toBeNull();
  });

  it('pages the user list with x-total-count and a next link, and answers 404 for unknown ids', async () => {
    const admin = serviceClient().auth.admin;
    for (let i = 0; i < 3; i++) await admin.createUser({ email: newEmail(), password: 'password-1', email_confirm: true });
    const [{ count }] = await sql`select count(*)::int as count from auth.users`;
    const first = await admin.listUsers({ page: 1, perPage: 2 });
    expect(first.data.users).toHaveLength(2);
    expect(first.data.total).toBe(count);
    expect(/** @type {any} */ (first.data).nextPage).toBe(2);
    const second = await admin.listUsers({ page: 2, perPage: 2 });
    expect(second.data.users.map((u) => u.id)).not.toContain(first.data.users[0].id);
    expect((await admin.getUserById('00000000-0000-4000-8000-000000000999')).error?.status).toBe(404);
    const notUuid = await fetch(`${gateway.url}/auth/v1/admin/users/not-a-uuid`, {
      headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}` },
    });
    expect(notUuid.status).toBe(404);
  });

  it('refuses the admin endpoints to the anon key and to a user token', async () => {
    const anonAdmin = anonClient().auth.admin;
    const list = await anonAdmin.listUsers();
    expect(list.error?.status).toBe(403);
    const create = await anonAdmin.createUser({ email: newEmail(), password: 'password-1' });
    expect(create.error?.status).toBe(403);

    const { data } = await anonClient().auth.signUp({ email: newEmail(), password: 'password-1' });
    const asUser = await fetch(`${gateway.url}/auth/v1/admin/users`, {
      headers: { apikey: keys.anonKey, authorization: `Bearer ${data.session?.access_token}` },
    });
    expect(asUser.status).toBe(403);
    const getOne = await fetch(`${gateway.url}/auth/v1/admin/users/${data.user?.id}`, {
      method: 'DELETE',
      headers: { apikey: keys.anonKey, authorization: `Bearer ${keys.anonKey}` },
    });
    expect(getOne.status).toBe(403);
    expect(await sql`select id from auth.users where id = ${data.user?.id ?? ''}`).toHaveLength(1);
  });
});

describe('storage', () => {
  beforeAll(async () => {
    await sql`
      insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
      values ('media', 'media', true, 1024, array['image/png', 'image/jpeg', 'text/plain']),
             ('private', 'private', false, null, null)`;
  });

  const png = () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

  it('uploads, serves the public URL with the same bytes and headers, refuses duplicates, upserts and removes', async () => {
    const storage = serviceClient().storage.from('media');
    const uploaded = await storage.upload('courses/one/cover.png', png(), { contentType: 'image/png', cacheControl: '600' });
    expect(uploaded.error).toBeNull();
    expect(uploaded.data?.fullPath).toBe('media/courses/one/cover.png');
    expect(uploaded.data?.id).toBeTruthy();

    const [row] = await sql`select * from storage.objects where bucket_id = 'media' and name = 'courses/one/cover.png'`;
    expect(row.metadata).toMatchObject({ mimetype: 'image/png', size: 12, cacheControl: 'max-age=600' });
    expect(row.metadata.eTag).toBeTruthy();
    const onDisk = await readFile(join(dataDir, 'storage', 'media', 'courses', 'one', 'cover.png'));
    expect(new Uint8Array(onDisk)).toEqual(png());

    const { publicUrl } = storage.getPublicUrl('courses/one/cover.png').data;
    expect(publicUrl).toBe(`${gateway.url}/storage/v1/object/public/media/courses/one/cover.png`);
    const got = await fetch(publicUrl);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('cache-control')).toBe('max-age=600');
    expect(got.headers.get('etag')).toBe(row.metadata.eTag);
    expect(got.headers.get('access-control-allow-origin')).toBe('*');
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(png());

    const again = await storage.upload('courses/one/cover.png', png(), { contentType: 'image/png' });
    expect(again.error).not.toBeNull();
    expect(/** @type {any} */ (again.error).statusCode).toBe('409');

    const replacement = new Uint8Array([9, 9, 9]);
    const upsert = await storage.upload('courses/one/cover.png', replacement, { contentType: 'text/plain', upsert: true });
    expect(upsert.error).toBeNull();
    const after = await fetch(publicUrl);
    expect(after.headers.get('content-type')).toBe('text/plain');
    expect(after.headers.get('cache-control')).toBe('max-age=3600');
    expect(new Uint8Array(await after.arrayBuffer())).toEqual(replacement);

    const removed = await storage.remove(['courses/one/cover.png']);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((f) => f.name)).toEqual(['courses/one/cover.png']);
    const gone = await fetch(publicUrl);
    expect(gone.status).toBe(404);
    expect((await gone.json()).message).toBe('Object not found');
  });

  it('uploads a Blob as multipart with its type', async () => {
    const storage = serviceClient().storage.from('media');
    const blob = new Blob([png()], { type: 'image/png' });
    const { error } = await storage.upload('blob/cover.png', blob);
    expect(error).toBeNull();
    const got = await fetch(storage.getPublicUrl('blob/cover.png').data.publicUrl);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('cache-control')).toBe('max-age=3600');
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(png());
  });

  it('enforces the bucket size limit (413) and allowed mime types (415)', async () => {
    const storage = serviceClient().storage.from('media');
    const big = await storage.upload('big.png', new Uint8Array(2048), { contentType: 'image/png' });
    expect(/** @type {any} */ (big.error)?.status ?? /** @type {any} */ (big.error)?.statusCode).toBeDefined();
    const bigRaw = await fetch(`${gateway.url}/storage/v1/object/media/big.png`, {
      method: 'POST',
      headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': 'image/png' },
      body: new Uint8Array(2048),
    });
    expect(bigRaw.status).toBe(413);
    const wrong = await fetch(`${gateway.url}/storage/v1/object/media/doc.pdf`, {
      method: 'POST',
      headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': 'application/pdf' },
      body: new Uint8Array(10),
    });
    expect(wrong.status).toBe(415);
    const viaClient = await storage.upload('doc.pdf', new Uint8Array(10), { contentType: 'application/pdf' });
    expect(viaClient.error).not.toBeNull();
    expect(await sql`select id from storage.objects where name in ('big.png', 'doc.pdf')`).toHaveLength(0);
  });

  it('lets row-level security decide for anon and user tokens', async () => {
    const anonUpload = await anonClient().storage.from('media').upload('anon.png', png(), { contentType: 'image/png' });
    expect(anonUpload.error).not.toBeNull();
    expect(await sql`select id from storage.objects where name = 'anon.png'`).toHaveLength(0);

    const user = anonClient();
    const { data } = await user.auth.signUp({ email: newEmail(), password: 'password-1' });
    const userId = /** @type {string} */ (data.user?.id);
    await sql.unsafe(`
      create policy "own folder insert" on storage.objects for insert to authenticated
        with check (bucket_id = 'media' and (storage.foldername(name))[1] = auth.uid()::text);
      create policy "own folder select" on storage.objects for select to authenticated
        using (bucket_id = 'media' and (storage.foldername(name))[1] = auth.uid()::text);
      create policy "own folder delete" on storage.objects for delete to authenticated
        using (bucket_id = 'media' and (storage.foldername(name))[1] = auth.uid()::text);`);
    try {
      const own = await user.storage.from('media').upload(`${userId}/avatar.png`, png(), { contentType: 'image/png' });
      expect(own.error).toBeNull();
      const [row] = await sql`select owner from storage.objects where name = ${`${userId}/avatar.png`}`;
      expect(row.owner).toBe(userId);
      const other = await user.storage.from('media').upload('someone-else/avatar.png', png(), { contentType: 'image/png' });
      expect(other.error).not.toBeNull();
      expect(await sql`select id from storage.objects where name = 'someone-else/avatar.png'`).toHaveLength(0);
      const download = await user.storage.from('media').download(`${userId}/avatar.png`);
      expect(download.error).toBeNull();
      expect(new Uint8Array(await /** @type {Blob} */ (download.data).arrayBuffer())).toEqual(png());
      const removed = await user.storage.from('media').remove([`${userId}/avatar.png`]);
      expect(removed.data).toHaveLength(1);
    } finally {
      await sql.unsafe(`
        drop policy "own folder insert" on storage.objects;
        drop policy "own folder select" on storage.objects;
        drop policy "own folder delete" on storage.objects;`);
    }
  });

  it('does not serve private buckets publicly, and the service role can download them', async () => {
    const storage = serviceClient().storage.from('private');
    expect((await storage.upload('secret.txt', new TextEncoder().encode('hush'), { contentType: 'text/plain' })).error).toBeNull();
    expect((await fetch(`${gateway.url}/storage/v1/object/public/private/secret.txt`)).status).toBe(404);
    const download = await storage.download('secret.txt');
    expect(download.error).toBeNull();
    expect(await /** @type {Blob} */ (download.data).text()).toBe('hush');
    const anonRead = await fetch(`${gateway.url}/storage/v1/object/private/secret.txt`, {
      headers: { apikey: keys.anonKey, authorization: `Bearer ${keys.anonKey}` },
    });
    expect(anonRead.ok).toBe(false);
    const single = await fetch(`${gateway.url}/storage/v1/object/private/secret.txt`, {
      method: 'DELETE',
      headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}` },
    });
    expect(single.status).toBe(200);
    expect((await storage.download('secret.txt')).error).not.toBeNull();
  });

  it('refuses path traversal', async () => {
    const response = await fetch(`${gateway.url}/storage/v1/object/media/a%2F..%2F..%2F..%2Fescape.png`, {
      method: 'POST',
      headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': 'image/png' },
      body: png(),
    });
    expect(response.status).toBe(400);
    expect(await sql`select id from storage.objects where name like '%escape%'`).toHaveLength(0);
  });

  it('creates a bucket with storage-js and lists a folder', async () => {
    const service = serviceClient().storage;
    const created = await service.createBucket('docs', { public: false, fileSizeLimit: '1MB', allowedMimeTypes: ['text/plain'] });
    expect(created.error).toBeNull();
    const [bucket] = await sql`select * from storage.buckets where id = 'docs'`;
    expect(bucket).toMatchObject({ public: false, allowed_mime_types: ['text/plain'] });
    expect(Number(bucket.file_size_limit)).toBe(1024 * 1024);
    expect((await anonClient().storage.createBucket('sneaky')).error).not.toBeNull();

    const docs = service.from('docs');
    for (const name of ['guides/a.txt', 'guides/b.txt', 'guides/deep/c.txt', 'top.txt']) {
      expect((await docs.upload(name, new TextEncoder().encode(name), { contentType: 'text/plain' })).error).toBeNull();
    }
    const listed = await docs.list('guides');
    expect(listed.error).toBeNull();
    expect(listed.data?.map((f) => f.name)).toEqual(['a.txt', 'b.txt', 'deep']);
    expect(listed.data?.find((f) => f.name === 'a.txt')?.metadata).toMatchObject({ mimetype: 'text/plain', size: 12 });
    expect((await docs.list()).data?.map((f) => f.name)).toEqual(['guides', 'top.txt']);
    await sql`delete from storage.objects where bucket_id = 'docs'`;
    await sql`delete from storage.buckets where id = 'docs'`;
  });

  it('lists buckets and reads one with the service role', async () => {
    const { data, error } = await serviceClient().storage.listBuckets();
    expect(error).toBeNull();
    expect(data?.map((b) => b.id).sort()).toEqual(['media', 'private']);
    const one = await serviceClient().storage.getBucket('media');
    expect(one.data).toMatchObject({ id: 'media', public: true, file_size_limit: 1024 });
    expect((await anonClient().storage.listBuckets()).data ?? []).toEqual([]);
  });
});

describe('storage: uploads cannot become pages', () => {
  const html = '<!doctype html><script>window.pwned = 1</script><img src=x onerror="alert(1)">';
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
  const realPng = () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const objectUrl = (name) => `${gateway.url}/storage/v1/object/public/uploads/${name}`;

  beforeAll(async () => {
    await sql`insert into storage.buckets (id, name, public) values ('uploads', 'uploads', true)`;
  });
  afterAll(async () => {
    await sql`delete from storage.objects where bucket_id = 'uploads'`;
    await sql`delete from storage.buckets where id = 'uploads'`;
  });

  it('refuses HTML or SVG with script that claims to be a PNG (or any image), raw or multipart; nothing is stored', async () => {
    const storage = serviceClient().storage.from('uploads');
    for (const [name, body, type] of [
      ['a.png', html, 'image/png'],
      ['b.png', svg, 'image/png'],
      ['c.svg', svg, 'image/svg+xml'],
      ['d.jpg', html, 'image/jpeg'],
    ]) {
      const raw = await fetch(`${gateway.url}/storage/v1/object/uploads/${name}`, {
        method: 'POST',
        headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': type },
        body,
      });
      expect(raw.status, name).toBe(415);
      const viaClient = await storage.upload(name, new Blob([body], { type }));
      expect(viaClient.error, name).not.toBeNull();
    }
    expect(await sql`select name from storage.objects where bucket_id = 'uploads'`).toHaveLength(0);
  });

  it('serves what is stored by its bytes: HTML saved under any type is an inert download, never text/html', async () => {
    const storage = serviceClient().storage.from('uploads');
    expect((await storage.upload('page.html', new TextEncoder().encode(html), { contentType: 'text/html' })).error).toBeNull();
    expect((await storage.upload('note.txt', new TextEncoder().encode(html), { contentType: 'text/plain' })).error).toBeNull();
    // An object whose stored type lies (written before the upload check existed, or by hand).
    expect((await storage.upload('old.png', new TextEncoder().encode(svg), { contentType: 'text/plain' })).error).toBeNull();
    await sql`update storage.objects set metadata = metadata || '{"mimetype": "image/svg+xml"}'::jsonb where name = 'old.png'`;
    for (const [name, type] of [['page.html', 'application/octet-stream'], ['note.txt', 'text/plain'], ['old.png', 'application/octet-stream']]) {
      const got = await fetch(objectUrl(name));
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type'), name).toBe(type);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-disposition'), name).toMatch(/^attachment; filename="[A-Za-z0-9._-]+"$/);
      expect(got.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      await got.arrayBuffer();
    }
  });

  it('serves a real image inline with its sniffed type and a safe file name; ?download= is an attachment', async () => {
    const storage = serviceClient().storage.from('uploads');
    const name = 'cover "x" <b>.png';
    expect((await storage.upload(name, realPng(), { contentType: 'image/png' })).error).toBeNull();
    const got = await fetch(objectUrl(encodeURIComponent(name)));
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-disposition')).toBe('inline; filename="cover__x___b_.png"');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(realPng());
    const download = await fetch(`${objectUrl(encodeURIComponent(name))}?download=${encodeURIComponent('evil"\r\nx: y.html')}`);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="evil___x__y.html"');
    expect(download.headers.get('content-type')).toBe('image/png');
    await download.arrayBuffer();
  });
});

describe('auth: a new password ends sessions', () => {
  it('updateUser keeps this session and ends the others; an admin password set ends them all', async () => {
    const email = newEmail();
    await anonClient().auth.signUp({ email, password: 'first-pass-1' });
    const sessions = [];
    for (let i = 0; i < 3; i++) sessions.push(/** @type {any} */ ((await anonClient().auth.signInWithPassword({ email, password: 'first-pass-1' })).data.session));
    const getUser = (/** @type {string} */ token) =>
      fetch(`${gateway.url}/auth/v1/user`, { headers: { apikey: keys.anonKey, authorization: `Bearer ${token}` } }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      });
    const changed = await fetch(`${gateway.url}/auth/v1/user`, {
      method: 'PUT',
      headers: { apikey: keys.anonKey, authorization: `Bearer ${sessions[0].access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'second-pass-2' }),
    });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
    expect(await getUser(sessions[0].access_token)).toBe(200);
    expect(await getUser(sessions[1].access_token)).toBe(403);
    expect(await getUser(sessions[2].access_token)).toBe(403);
    const refresh = await anonClient().auth.refreshSession({ refresh_token: sessions[1].refresh_token });
    expect(refresh.error).not.toBeNull();

    const userId = sessions[0].user.id;
    const set = await serviceClient().auth.admin.updateUserById(userId, { password: 'third-pass-3' });
    expect(set.error).toBeNull();
    expect(await getUser(sessions[0].access_token)).toBe(403);
    expect(await sql`select id from auth.sessions where user_id = ${userId}`).toHaveLength(0);
    // Other changes (metadata) end nothing.
    const again = /** @type {any} */ ((await anonClient().auth.signInWithPassword({ email, password: 'third-pass-3' })).data.session);
    await serviceClient().auth.admin.updateUserById(userId, { user_metadata: { name: 'Same' } });
    expect(await getUser(again.access_token)).toBe(200);
  });
});

describe('auth: emails over SMTP', () => {
  const mailbox = createMailbox();
  /** @type {Awaited<ReturnType<typeof startSmtpCatcher>>} */
  let catcher;
  /** @type {net.Server} */
  let silent;
  /** @type {import('./mailer.mjs').Mailer[]} */
  const mailers = [];
  /** An Auth like the platform's (both [auth.email] settings on) sending through the given SMTP server. */
  const authSendingTo = (/** @type {number} */ port, timeoutMs = 10_000) => {
    const mailer = createMailer({ host: '127.0.0.1', port, timeoutMs });
    mailers.push(mailer);
    return createAuth({ sql, keys, publicUrl: gateway.url, mailer, securePasswordChange: true, doubleConfirmChanges: true });
  };
  const call = (/** @type {ReturnType<typeof createAuth>} */ auth, /** @type {string} */ path, /** @type {string} */ token, /** @type {RequestInit} */ init = {}) =>
    auth.fetch(new Request(`${gateway.url}/auth/v1${path}`, {
      ...init,
      headers: { apikey: keys.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    }));
  const signedIn = async () => {
    const email = newEmail();
    await anonClient().auth.signUp({ email, password: 'password-1' });
    const { data } = await anonClient().auth.signInWithPassword({ email, password: 'password-1' });
    return { email, token: /** @type {string} */ (data.session?.access_token), id: /** @type {string} */ (data.user?.id) };
  };

  beforeAll(async () => {
    catcher = await startSmtpCatcher({ mailbox, port: 0 });
    // Accepts connections and never says a word: a hung SMTP server.
    silent = net.createServer(() => {});
    await new Promise((resolve) => silent.listen(0, '127.0.0.1', () => resolve(undefined)));
  });
  afterAll(async () => {
    for (const mailer of mailers) mailer.close();
    await catcher?.stop();
    await new Promise((resolve) => (silent ? silent.close(() => resolve(undefined)) : resolve(undefined)));
  });

  it('sends the reauthentication code and both email-change codes through SMTP, from the configured sender', async () => {
    const auth = authSendingTo(catcher.port);
    const person = await signedIn();
    expect((await call(auth, '/reauthenticate', person.token)).status).toBe(200);
    const [reauth] = mailbox.messages.filter((m) => m.To.some((t) => t.Address === person.email));
    expect(reauth.Subject).toBe('Confirm reauthentication');
    expect(reauth.Text).toMatch(/code: \d{6}/);
    expect(reauth.From).toEqual({ Name: 'Emergency Services Learning', Address: 'noreply@emergency-services-learning.uk' });
    expect(DEFAULT_FROM).toBe('Emergency Services Learning <noreply@emergency-services-learning.uk>');

    const next = newEmail();
    const change = await call(auth, '/user', person.token, { method: 'PUT', body: JSON.stringify({ email: next }) });
    expect(change.status).toBe(200);
    expect(mailbox.messages.find((m) => m.To.some((t) => t.Address === next))?.Text).toMatch(/new email address with the code: \d{6}/);
    expect(mailbox.messages.filter((m) => m.To.some((t) => t.Address === person.email) && m.Subject === 'Confirm email change')).toHaveLength(1);
  });

  it('SMTP down: reauthentication answers 500 "Error sending reauthentication email" and keeps the code already sent', async () => {
    const person = await signedIn();
    expect((await call(authSendingTo(catcher.port), '/reauthenticate', person.token)).status).toBe(200);
    const [before] = await sql`select reauthentication_token, reauthentication_sent_at from auth.users where id = ${person.id}`;
    const down = authSendingTo(await freePort());
    const answer = await call(down, '/reauthenticate', person.token);
    expect(answer.status).toBe(500);
    expect(await answer.json()).toMatchObject({ error_code: 'unexpected_failure', msg: 'Error sending reauthentication email' });
    const [after] = await sql`select reauthentication_token, reauthentication_sent_at from auth.users where id = ${person.id}`;
    expect(after).toEqual(before);
  });

  it('SMTP down: an email change answers 500 "Error sending change email" and leaves no pending change', async () => {
    const person = await signedIn();
    const answer = await call(authSendingTo(await freePort()), '/user', person.token, { method: 'PUT', body: JSON.stringify({ email: newEmail() }) });
    expect(answer.status).toBe(500);
    expect(await answer.json()).toMatchObject({ error_code: 'unexpected_failure', msg: 'Error sending change email' });
    const [row] = await sql`select email, email_change, email_change_token_new, email_change_sent_at from auth.users where id = ${person.id}`;
    expect(row).toEqual({ email: person.email, email_change: '', email_change_token_new: '', email_change_sent_at: null });
    const user = await (await call(authSendingTo(catcher.port), '/user', person.token)).json();
    expect(user.new_email).toBeUndefined();
  });

  it('a silent SMTP server fails the request after the timeout instead of holding it', async () => {
    const person = await signedIn();
    const port = /** @type {import('node:net').AddressInfo} */ (silent.address()).port;
    const started = Date.now();
    const answer = await call(authSendingTo(port, 500), '/reauthenticate', person.token);
    expect(answer.status).toBe(500);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
