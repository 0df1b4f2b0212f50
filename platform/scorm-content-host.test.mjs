// deploy/scorm-content-host/main.ts, the hosted deployment's SCORM content host, answers as the
// local content origin does. The real file runs in Deno in front of real Storage (a scratch
// database behind the platform's gateway, objects uploaded with the service role as a deployment
// and the package upload do); the local content origin serves the same bucket beside it, and each
// request goes to both: the same status, body and headers (content types, CSP, nosniff, caching),
// no cookies, no CORS, for package files, the launcher, the offline SW (the same script, from the
// same builder), what is missing, what climbs out of the bucket and what writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import postgres from 'postgres';
import { startScratchDatabase } from './scratch-database.mjs';
import { loadKeys } from './keys.mjs';
import { createStorage } from './storage.mjs';
import { CONTENT_TYPES, SCORM_PUBLIC_PREFIX, scormContentCsp, startContentServer, startGateway } from './gateway.mjs';
import { SCORM_PLAYER_FILES } from './start.mjs';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const HOST_FILE = 'deploy/scorm-content-host/main.ts';
const APP_ORIGIN = 'https://learn.example.test';
const deno = join(repoRoot, 'node_modules', '.bin', 'deno');
const denoEnv = { ...process.env, DENO_DIR: join(repoRoot, '.cache', 'deno'), NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };

let database;
let sql;
let dataDir;
let keys;
let gateway;
let local;
/** @type {import('node:child_process').ChildProcess} */
let host;
/** @type {string} */
let hostOrigin;
/** The host without SCORM_OFFLINE_PUBLIC_KEY. */
let keyless;
/** @type {JsonWebKey} */
let publicJwk;

/**
 * A request through node:http, which sends the path as written (no `..` folding).
 * @param {string} origin @param {string} method @param {string} path @param {Record<string, string>} [headers] @param {string} [body]
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, body: string }>}
 */
function raw(origin, method, path, headers = {}, body) {
  const target = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname: target.hostname, port: target.port, method, path, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

// The headers an answer is judged by; `date`, `connection` and the framing (`content-length` or
// chunked: the bodies are compared) say nothing about the content.
const COMPARED = ['content-type', 'content-range', 'content-security-policy', 'x-content-type-options', 'referrer-policy',
  'cross-origin-resource-policy', 'cache-control', 'etag', 'last-modified', 'allow', 'set-cookie', 'content-disposition',
  'access-control-allow-origin', 'access-control-allow-credentials', 'content-encoding', 'service-worker-allowed'];

/**
 * The same request to the local content origin and to the host: the host's answer, compared with the local one.
 * @param {string[]} [unlike] headers left out of the comparison
 */
async function both(method, path, headers = {}, body, unlike = []) {
  const [fromLocal, fromHost] = [await raw(local.origin, method, path, headers, body), await raw(hostOrigin, method, path, headers, body)];
  const pick = (answer) => ({ status: answer.status, body: answer.body, ...Object.fromEntries(COMPARED.filter((h) => !unlike.includes(h)).map((h) => [h, answer.headers[h]])) });
  expect(pick(fromHost), `${method} ${path}`).toEqual(pick(fromLocal));
  return fromHost;
}

/** @param {string} name @param {Buffer | string} body @param {string} type */
async function upload(bucket, name, body, type) {
  const response = await fetch(`${gateway.url}/storage/v1/object/${bucket}/${name}`, {
    method: 'POST',
    headers: { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': type },
    body,
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/**
 * The host in Deno, as deployed, until it says where it listens.
 * @param {Record<string, string>} env
 * @returns {Promise<{ process: import('node:child_process').ChildProcess, origin: string }>}
 */
async function startHost(env) {
  const child = spawn(deno, ['run', '--allow-net', '--allow-env', HOST_FILE], {
    cwd: repoRoot,
    env: { ...denoEnv, SUPABASE_URL: gateway.url, APP_ORIGIN, PORT: '0', LISTEN_ADDRESS: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const origin = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the content host did not start:\n${output}`)), 60_000);
    const onData = (chunk) => {
      output += chunk;
      const match = /SCORM content host listening on (http:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the content host exited (${code}):\n${output}`)));
  });
  return { process: child, origin };
}

/** @param {import('node:child_process').ChildProcess | undefined} child */
async function stopHost(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A file for every extension the content origin types, and one it does not. */
const packageFiles = Object.keys(CONTENT_TYPES).map((extension) => `module-1/files/sample${extension}`).concat('module-1/files/LICENCE', 'module-1/files/Page.HTML');

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'platform-content-host-'));
  database = await startScratchDatabase();
  sql = postgres(database.url, { prepare: false, onnotice: () => {} });
  keys = await loadKeys(dataDir);
  await sql`insert into storage.buckets (id, name, public) values ('scorm-content', 'scorm-content', true), ('course-images', 'course-images', true), ('private-things', 'private-things', false)`;
  const storage = createStorage({ sql, keys, dataDir, publicUrl: 'http://127.0.0.1' });
  gateway = await startGateway({ port: 0, auth: { fetch: async () => new Response(null, { status: 404 }) }, storage, apiKeys: [keys.anonKey, keys.serviceRoleKey] });
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  publicJwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  local = await startContentServer({ port: 0, storage, appOrigin: APP_ORIGIN, playerFiles: SCORM_PLAYER_FILES, offlinePublicKey: publicJwk });

  await upload('scorm-content', 'module-1/index.html', '<!doctype html><script>parent.API</script>', 'text/html');
  await upload('scorm-content', 'module-1/app.js', 'window.x = 1;'.repeat(200), 'text/javascript');
  for (const name of packageFiles) await upload('scorm-content', name, `bytes of ${name}`, 'application/octet-stream');
  await upload('course-images', 'cover.txt', 'not for the content origin', 'text/plain');
  await upload('private-things', 'secret.txt', 'private', 'text/plain');
  // A deployment uploads the launcher's files to the bucket (README); locally they are served from disk.
  for (const [name, file] of Object.entries(SCORM_PLAYER_FILES)) await upload('scorm-content', `_player/${name}`, await readFile(file), 'application/octet-stream');

  const started = await startHost({ SCORM_OFFLINE_PUBLIC_KEY: JSON.stringify(publicJwk) });
  host = started.process;
  hostOrigin = started.origin;
  keyless = await startHost({});
});

afterAll(async () => {
  await stopHost(host);
  await stopHost(keyless?.process);
  await local?.stop();
  await gateway?.stop();
  await sql?.end({ timeout: 5 });
  await database?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the SCORM content host (deploy/scorm-content-host/main.ts)', () => {
  it('type-checks in Deno', async () => {
    const { stderr } = await promisify(execFile)(deno, ['check', HOST_FILE], { cwd: repoRoot, env: denoEnv }).catch((error) => {
      throw new Error(`deno check failed:\n${error.stderr}`);
    });
    expect(stderr).not.toMatch(/error/i);
  });

  it("serves a package's page as the local content origin does: typed, the content CSP, nosniff, no cookies or CORS", async () => {
    const page = await both('GET', `${SCORM_PUBLIC_PREFIX}module-1/index.html`, { cookie: 'sb-access-token=secret', origin: APP_ORIGIN, authorization: 'Bearer x' });
    expect(page.status).toBe(200);
    expect(page.body).toBe('<!doctype html><script>parent.API</script>');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(scormContentCsp(APP_ORIGIN));
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    expect(page.headers['content-disposition']).toBeUndefined();
    const head = await both('HEAD', `${SCORM_PUBLIC_PREFIX}module-1/app.js`);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('types every file by its name, as the local content origin does', async () => {
    for (const name of packageFiles) {
      const answer = await both('GET', `${SCORM_PUBLIC_PREFIX}${name}`);
      expect(answer.status, name).toBe(200);
      expect(answer.body).toBe(`bytes of ${name}`);
    }
    expect((await raw(hostOrigin, 'GET', `${SCORM_PUBLIC_PREFIX}module-1/files/sample.js`)).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await raw(hostOrigin, 'GET', `${SCORM_PUBLIC_PREFIX}module-1/files/Page.HTML`)).headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await raw(hostOrigin, 'GET', `${SCORM_PUBLIC_PREFIX}module-1/files/LICENCE`)).headers['content-type']).toBe('application/octet-stream');
  });

  it('answers revalidations and ranges as Storage does', async () => {
    const first = await both('GET', `${SCORM_PUBLIC_PREFIX}module-1/app.js`);
    expect(first.headers.etag).toBeTruthy();
    expect((await both('GET', `${SCORM_PUBLIC_PREFIX}module-1/app.js`, { 'if-none-match': String(first.headers.etag) })).status).toBe(304);
    // The range goes on to Storage; what it answers (the local one: the whole file) comes back.
    await both('GET', `${SCORM_PUBLIC_PREFIX}module-1/app.js`, { range: 'bytes=0-9' });
  });

  it("serves the launcher's files with the content CSP, always revalidated", async () => {
    // Locally they are read from disk, without validators; the host has Storage's ETag and date.
    for (const name of Object.keys(SCORM_PLAYER_FILES)) {
      const answer = await both('GET', `${SCORM_PUBLIC_PREFIX}_player/${name}`, {}, undefined, ['etag', 'last-modified']);
      expect(answer.status, name).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-cache');
    }
    const page = await raw(hostOrigin, 'GET', `${SCORM_PUBLIC_PREFIX}_player/launcher.html`);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(scormContentCsp(APP_ORIGIN));
  });

  it('serves the offline SW as locally: the same script, built from the uploaded template and player files, the scope allowed on that path only', async () => {
    const sw = await both('GET', `${SCORM_PUBLIC_PREFIX}_player/offline-sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers['service-worker-allowed']).toBe(SCORM_PUBLIC_PREFIX);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(sw.body).toContain(`"x":"${publicJwk.x}"`);
    expect(sw.body).toContain(`"launcher.js":"${createHash('sha256').update(await readFile(SCORM_PLAYER_FILES['launcher.js'])).digest('hex')}"`);
    expect((await both('HEAD', `${SCORM_PUBLIC_PREFIX}_player/offline-sw.js`)).headers['service-worker-allowed']).toBe(SCORM_PUBLIC_PREFIX);
    for (const path of ['_player/offline.html', '_player/offline.js', '_player/launcher.html', 'module-1/index.html', 'module-1/missing.html']) {
      expect((await both('GET', `${SCORM_PUBLIC_PREFIX}${path}`, {}, undefined, ['etag', 'last-modified'])).headers['service-worker-allowed'], path).toBeUndefined();
    }
    // Without SCORM_OFFLINE_PUBLIC_KEY there is no offline SW, the rest as before.
    const none = await raw(keyless.origin, 'GET', `${SCORM_PUBLIC_PREFIX}_player/offline-sw.js`);
    expect(none.status).toBe(404);
    expect(none.headers['service-worker-allowed']).toBeUndefined();
    expect((await raw(keyless.origin, 'GET', `${SCORM_PUBLIC_PREFIX}_player/offline.html`)).status).toBe(200);
  });

  it('answers 404 for what is missing, other buckets, private objects and paths that climb out of the bucket', async () => {
    const missing = await both('GET', `${SCORM_PUBLIC_PREFIX}module-1/missing.html`);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-security-policy']).toBe(scormContentCsp(APP_ORIGIN));
    for (const path of [
      '/storage/v1/object/public/course-images/cover.txt',
      '/storage/v1/object/public/private-things/secret.txt',
      `${SCORM_PUBLIC_PREFIX}../course-images/cover.txt`,
      `${SCORM_PUBLIC_PREFIX}%2e%2e/course-images/cover.txt`,
      `${SCORM_PUBLIC_PREFIX}module-1/../../private-things/secret.txt`,
      '/storage/v1/object/authenticated/private-things/secret.txt',
      '/storage/v1/bucket',
      '/',
    ]) {
      expect((await both('GET', path, { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}` })).status, path).toBe(404);
    }
    // An encoded slash is not a folder: no file of another bucket comes back.
    const encoded = await raw(hostOrigin, 'GET', `${SCORM_PUBLIC_PREFIX}..%2Fcourse-images%2Fcover.txt`);
    expect(encoded.status).toBe((await raw(local.origin, 'GET', `${SCORM_PUBLIC_PREFIX}..%2Fcourse-images%2Fcover.txt`)).status);
    expect(encoded.body).not.toContain('not for the content origin');
    // The player's files come from the bucket on the host: one that is not there is not found either.
    expect((await raw(hostOrigin, 'GET', `${SCORM_PUBLIC_PREFIX}_player/other.js`)).status).toBe(404);
  });

  it('refuses every write with 405, even with the service role, and the object is unchanged', async () => {
    const withKey = { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}`, 'content-type': 'text/html' };
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const answer = await both(method, `${SCORM_PUBLIC_PREFIX}module-1/index.html`, withKey, ['DELETE', 'OPTIONS'].includes(method) ? undefined : 'replaced');
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
    }
    expect((await raw(hostOrigin, 'GET', `${SCORM_PUBLIC_PREFIX}module-1/index.html`)).body).toBe('<!doctype html><script>parent.API</script>');
  });

  it('stops serving the bucket when it is not public', async () => {
    await sql`update storage.buckets set public = false where id = 'scorm-content'`;
    try {
      expect((await both('GET', `${SCORM_PUBLIC_PREFIX}module-1/index.html`)).status).toBe(404);
    } finally {
      await sql`update storage.buckets set public = true where id = 'scorm-content'`;
    }
  });
});
