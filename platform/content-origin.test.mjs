// The SCORM content origin: a second port serving only the public objects of the
// scorm-content bucket, read-only, with the content CSP, and the launcher page's files. Real
// Storage on a scratch database behind it; objects are uploaded through the gateway with the
// service role, as the package upload does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import postgres from 'postgres';
import { startScratchDatabase } from './scratch-database.mjs';
import { loadKeys } from './keys.mjs';
import { createStorage } from './storage.mjs';
import { SCORM_PUBLIC_PREFIX, scormContentCsp, startContentServer, startGateway } from './gateway.mjs';
import { SCORM_PLAYER_FILES } from './start.mjs';
import { sha256Hex } from '../web/scorm-player/offline-sw-build.mjs';

const APP_ORIGIN = 'http://app.example.test';
/** @type {{ url: string, stop(): Promise<void> }} */
let database;
/** @type {import('postgres').Sql} */
let sql;
/** @type {string} */
let dataDir;
/** @type {import('./keys.mjs').Keys} */
let keys;
/** @type {Awaited<ReturnType<typeof startGateway>>} */
let gateway;
/** @type {Awaited<ReturnType<typeof startContentServer>>} */
let content;
/** The same, with the offline manifests' public key, and the real player files. */
/** @type {Awaited<ReturnType<typeof startContentServer>>} */
let offline;
/** @type {JsonWebKey} */
let publicJwk;

/**
 * A request through node:http, which sends the path as written (no `..` folding).
 * @param {string} method @param {string} path @param {Record<string, string>} [headers] @param {string} [body] @param {{ url: string }} [server]
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, body: string }>}
 */
function raw(method, path, headers = {}, body, server = content) {
  const target = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname: target.hostname, port: target.port, method, path, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** @param {string} bucket @param {string} name @param {string} body @param {string} type */
async function upload(bucket, name, body, type) {
  const response = await fetch(`${gateway.url}/storage/v1/object/${bucket}/${name}`, {
    method: 'POST',
    headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': type },
    body,
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'platform-content-'));
  database = await startScratchDatabase();
  sql = postgres(database.url, { prepare: false, onnotice: () => {} });
  keys = await loadKeys(dataDir);
  await sql`insert into storage.buckets (id, name, public) values ('scorm-content', 'scorm-content', true), ('course-images', 'course-images', true), ('private-things', 'private-things', false)`;
  const storage = createStorage({ sql, keys, dataDir, publicUrl: 'http://127.0.0.1' });
  const launcher = join(dataDir, 'launcher.html');
  await writeFile(launcher, '<!doctype html><title>Launcher</title>');
  gateway = await startGateway({ port: 0, auth: { fetch: async () => new Response(null, { status: 404 }) }, storage, apiKeys: [keys.anonKey, keys.serviceRoleKey], contentOrigin: 'http://content.example.test', webDir: dataDir });
  content = await startContentServer({ port: 0, storage, appOrigin: APP_ORIGIN, playerFiles: { 'launcher.html': launcher, 'offline-sw.js': SCORM_PLAYER_FILES['offline-sw.js'] } });
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  // The private JWK is passed on purpose: only its public half may be baked.
  const privateJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  publicJwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  offline = await startContentServer({ port: 0, storage, appOrigin: APP_ORIGIN, playerFiles: SCORM_PLAYER_FILES, offlinePublicKey: privateJwk });
  await upload('scorm-content', 'module-1/index.html', '<!doctype html><script>parent.API</script>', 'text/html');
  await upload('scorm-content', 'module-1/app.js', 'window.x = 1;', 'text/javascript');
  await upload('course-images', 'cover.txt', 'not for the content origin', 'text/plain');
  await upload('private-things', 'secret.txt', 'private', 'text/plain');
});

afterAll(async () => {
  await offline?.stop();
  await content?.stop();
  await gateway?.stop();
  await sql?.end({ timeout: 5 });
  await database?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the SCORM content origin', () => {
  it('is another origin than the app, at the same paths as Storage public URLs', () => {
    expect(content.origin).not.toBe(new URL(gateway.url).origin);
    expect(content.url).toBe(`${content.origin}/storage/v1/object/public/scorm-content`);
  });

  it('serves a package file as what its name says, with the content CSP, nosniff and no cookies or CORS', async () => {
    const page = await raw('GET', `${SCORM_PUBLIC_PREFIX}module-1/index.html`, { cookie: 'a=b', origin: APP_ORIGIN });
    expect(page.status).toBe(200);
    expect(page.body).toBe('<!doctype html><script>parent.API</script>');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(scormContentCsp(APP_ORIGIN));
    expect(page.headers['content-security-policy']).toContain(`frame-ancestors 'self' ${APP_ORIGIN}`);
    expect(page.headers['content-security-policy']).toContain("default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    expect(page.headers['content-disposition']).toBeUndefined();
    const script = await raw('GET', `${SCORM_PUBLIC_PREFIX}module-1/app.js`);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const head = await raw('HEAD', `${SCORM_PUBLIC_PREFIX}module-1/app.js`);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('answers a revalidation with 304', async () => {
    const first = await raw('GET', `${SCORM_PUBLIC_PREFIX}module-1/app.js`);
    const again = await raw('GET', `${SCORM_PUBLIC_PREFIX}module-1/app.js`, { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
  });

  it('serves the launcher page from its files', async () => {
    const page = await raw('GET', `${SCORM_PUBLIC_PREFIX}_player/launcher.html`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Launcher');
    expect(page.headers['content-security-policy']).toBe(scormContentCsp(APP_ORIGIN));
    expect((await raw('GET', `${SCORM_PUBLIC_PREFIX}_player/other.js`)).status).toBe(404);
  });

  it('serves the offline SW built with the key, the player hashes and the CSP, allowed the whole bucket as its scope', async () => {
    const sw = await raw('GET', `${SCORM_PUBLIC_PREFIX}_player/offline-sw.js`, {}, undefined, offline);
    expect(sw.status).toBe(200);
    expect(sw.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(sw.headers['service-worker-allowed']).toBe(SCORM_PUBLIC_PREFIX);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['content-security-policy']).toBe(scormContentCsp(APP_ORIGIN));
    expect(sw.headers['x-content-type-options']).toBe('nosniff');
    expect(sw.body).toContain(JSON.stringify({ kty: 'EC', crv: 'P-256', x: publicJwk.x, y: publicJwk.y }));
    expect(sw.body).not.toContain('"d":');
    expect(sw.body).toContain(JSON.stringify(scormContentCsp(APP_ORIGIN)));
    for (const name of ['launcher.html', 'launcher.js', 'scorm12.min.js', 'scorm2004.min.js']) {
      expect(sw.body, name).toContain(`"${name}":"${await sha256Hex(await readFile(SCORM_PLAYER_FILES[name]))}"`);
    }
    const head = await raw('HEAD', `${SCORM_PUBLIC_PREFIX}_player/offline-sw.js`, {}, undefined, offline);
    expect(head.status).toBe(200);
    expect(head.headers['service-worker-allowed']).toBe(SCORM_PUBLIC_PREFIX);
    expect(head.body).toBe('');
  });

  it('gives Service-Worker-Allowed to that path only, and no offline SW without a key', async () => {
    for (const path of ['_player/offline.html', '_player/offline.js', '_player/launcher.js', 'module-1/index.html', 'module-1/missing.js']) {
      const answer = await raw('GET', `${SCORM_PUBLIC_PREFIX}${path}`, {}, undefined, offline);
      expect(answer.headers['service-worker-allowed'], path).toBeUndefined();
    }
    expect((await raw('GET', `${SCORM_PUBLIC_PREFIX}_player/offline.html`, {}, undefined, offline)).headers['content-type']).toBe('text/html; charset=utf-8');
    const none = await raw('GET', `${SCORM_PUBLIC_PREFIX}_player/offline-sw.js`);
    expect(none.status).toBe(404);
    expect(none.headers['service-worker-allowed']).toBeUndefined();
    expect(none.body).not.toContain('BAKED');
  });

  it('serves no other bucket, no private object, nothing outside the bucket and no Storage API', async () => {
    expect((await raw('GET', '/storage/v1/object/public/course-images/cover.txt')).status).toBe(404);
    expect((await raw('GET', '/storage/v1/object/public/private-things/secret.txt')).status).toBe(404);
    expect((await raw('GET', `${SCORM_PUBLIC_PREFIX}../course-images/cover.txt`)).status).toBe(404);
    expect((await raw('GET', `${SCORM_PUBLIC_PREFIX}..%2Fcourse-images%2Fcover.txt`)).status).not.toBe(200);
    const withKey = { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}` };
    expect((await raw('GET', '/storage/v1/object/authenticated/private-things/secret.txt', withKey)).status).toBe(404);
    expect((await raw('GET', '/storage/v1/bucket', withKey)).status).toBe(404);
    expect((await raw('GET', '/', withKey)).status).toBe(404);
    expect((await raw('GET', `${SCORM_PUBLIC_PREFIX}module-1/missing.html`)).status).toBe(404);
  });

  it('stops serving the bucket when it is not public', async () => {
    await sql`update storage.buckets set public = false where id = 'scorm-content'`;
    try {
      expect((await raw('GET', `${SCORM_PUBLIC_PREFIX}module-1/index.html`)).status).toBe(404);
    } finally {
      await sql`update storage.buckets set public = true where id = 'scorm-content'`;
    }
    expect((await raw('GET', `${SCORM_PUBLIC_PREFIX}module-1/index.html`)).status).toBe(200);
  });

  it('refuses every write, even with the service role, and the object is unchanged', async () => {
    const withKey = { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': 'text/html' };
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const answer = await raw(method, `${SCORM_PUBLIC_PREFIX}module-1/index.html`, withKey, method === 'DELETE' ? undefined : 'replaced');
      expect(answer.status, method).toBe(405);
    }
    expect((await raw('GET', `${SCORM_PUBLIC_PREFIX}module-1/index.html`)).body).toBe('<!doctype html><script>parent.API</script>');
  });

  it("lets the app frame only the content origin (the app's CSP)", async () => {
    await writeFile(join(dataDir, 'index.html'), '<!doctype html><title>App</title>');
    const answer = await fetch(`${gateway.url}/`);
    const csp = answer.headers.get('content-security-policy') ?? '';
    expect(csp).toContain('frame-src http://content.example.test');
    expect(csp).toContain("frame-ancestors 'none'");
    // Storage itself still serves a package's page only as an inert download, never as a page on the app's origin.
    const stored = await fetch(`${gateway.url}/storage/v1/object/public/scorm-content/module-1/index.html`);
    expect(stored.headers.get('content-type')).toBe('application/octet-stream');
  });
});
