// The gateway on its own: routing to fetch-style services, the functions reverse proxy, CORS, and
// the built web app (content types, caching, SPA fallback). The services here are small fetch
// handlers and the "function" a real HTTP server, so the gateway's behaviour is what is tested.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, get as httpGet } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { chooseEncoding, startGateway } from './gateway.mjs';
import { precompressDir } from '../web/precompress.mjs';

/** @type {string} */
let webDir;
/** @type {Awaited<ReturnType<typeof startGateway>>} */
let gateway;
/** @type {import('node:http').Server} */
let functionServer;
/** @type {Request[]} */
const seen = [];

const ANON_KEY = 'the-anon-key';
const SERVICE_KEY = 'the-service-role-key';
const withKey = { apikey: ANON_KEY };
const BIG_JS = Array.from({ length: 400 }, (_, i) => `export const value${i} = 'the same words again and again ${i}';`).join('\n');

/**
 * A GET through node:http, which (unlike fetch) neither adds Accept-Encoding nor decompresses,
 * so the bytes on the wire are what is checked.
 * @param {string} path
 * @param {Record<string, string>} [headers]
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, body: Buffer }>}
 */
function rawGet(path, headers = {}) {
  return new Promise((resolve, reject) => {
    httpGet(`${gateway.url}${path}`, { headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** A fetch-style service answering with what it received. */
const echoService = (name) => ({
  async fetch(/** @type {Request} */ request) {
    seen.push(request);
    const url = new URL(request.url);
    const body = request.method === 'GET' ? '' : await request.text();
    return Response.json(
      { service: name, method: request.method, path: url.pathname, search: url.search, body, xff: request.headers.get('x-forwarded-for') },
      { status: url.pathname === '/teapot' ? 418 : 200, headers: { 'x-service': name } },
    );
  },
});

beforeAll(async () => {
  webDir = await mkdtemp(join(tmpdir(), 'platform-web-'));
  await mkdir(join(webDir, 'assets'));
  await writeFile(join(webDir, 'index.html'), '<!doctype html><title>App</title>');
  await writeFile(join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  await writeFile(join(webDir, 'assets', 'app-abc123.css'), 'body{}');
  await writeFile(join(webDir, 'favicon.svg'), '<svg/>');
  await writeFile(join(webDir, 'assets', 'big-d3adb33f.js'), BIG_JS);
  await writeFile(join(webDir, 'robots.txt'), `User-agent: *\n${'Allow: /\n'.repeat(200)}`);
  precompressDir(webDir);

  functionServer = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(req.url?.startsWith('/api/missing') ? 404 : 200, {
        'content-type': 'application/json',
        'x-function': 'api',
      });
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          body: Buffer.concat(chunks).toString(),
          authorization: req.headers.authorization ?? null,
          xff: req.headers['x-forwarded-for'] ?? null,
        }),
      );
    });
  });
  await new Promise((resolve) => functionServer.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (functionServer.address());
  gateway = await startGateway({
    port: 0,
    auth: echoService('auth'),
    storage: echoService('storage'),
    functionsUrl: `http://127.0.0.1:${address.port}`,
    webDir,
    apiKeys: [ANON_KEY, SERVICE_KEY],
  });
});

afterAll(async () => {
  await gateway?.stop();
  await new Promise((resolve) => functionServer?.close(() => resolve(undefined)));
  if (webDir) await rm(webDir, { recursive: true, force: true });
});

describe('gateway routing', () => {
  it('listens on a free port when given port 0', () => {
    expect(gateway.port).toBeGreaterThan(0);
    expect(gateway.url).toBe(`http://127.0.0.1:${gateway.port}`);
  });

  it('hands /auth/v1 and /storage/v1 to their services with the prefix stripped and the query kept', async () => {
    const auth = await fetch(`${gateway.url}/auth/v1/token?grant_type=password`, { method: 'POST', body: '{"a":1}', headers: withKey });
    expect(auth.status).toBe(200);
    expect(auth.headers.get('x-service')).toBe('auth');
    expect(await auth.json()).toMatchObject({
      service: 'auth', method: 'POST', path: '/token', search: '?grant_type=password', body: '{"a":1}', xff: '127.0.0.1',
    });
    const storage = await fetch(`${gateway.url}/storage/v1/object/public/media/a%20b.png`);
    expect(await storage.json()).toMatchObject({ service: 'storage', path: '/object/public/media/a%20b.png' });
    const teapot = await fetch(`${gateway.url}/auth/v1/teapot?apikey=${SERVICE_KEY}`);
    expect(teapot.status).toBe(418);
    expect(teapot.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses Auth and Storage requests without one of the project\'s keys, as hosted Supabase does', async () => {
    const before = seen.length;
    for (const [path, init] of [
      ['/auth/v1/signup', { method: 'POST', body: '{}' }],
      ['/auth/v1/user', { method: 'PUT', body: '{}', headers: { authorization: 'Bearer x' } }],
      ['/auth/v1/admin/users', {}],
      ['/storage/v1/object/list/course-covers', { method: 'POST', body: '{}' }],
      ['/storage/v1/object/course-covers/x.png', { method: 'DELETE' }],
    ]) {
      const missing = await fetch(`${gateway.url}${path}`, /** @type {RequestInit} */ (init));
      expect(missing.status, path).toBe(401);
      expect(await missing.json(), path).toEqual({ message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' });
      expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
      const wrong = await fetch(`${gateway.url}${path}`, { .../** @type {RequestInit} */ (init), headers: { apikey: 'a user token is not a key' } });
      expect(wrong.status, path).toBe(401);
      expect((await wrong.json()).message).toBe('Invalid API key');
    }
    expect(seen.length).toBe(before); // nothing reached the services
    // Open as on hosted Supabase: public objects, the JWKS and the links Auth sends by email.
    for (const path of ['/storage/v1/object/public/course-covers/a.png', '/auth/v1/.well-known/jwks.json', '/auth/v1/verify?token=x']) {
      expect((await fetch(`${gateway.url}${path}`)).status, path).toBe(200);
    }
  });

  it('sends nosniff on every Auth and Storage answer', async () => {
    for (const path of ['/auth/v1/settings', '/storage/v1/bucket', '/storage/v1/object/public/media/a.png']) {
      const response = await fetch(`${gateway.url}${path}`, { headers: withKey });
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('does not let a client choose its own x-forwarded-for', async () => {
    const response = await fetch(`${gateway.url}/auth/v1/user`, { headers: { ...withKey, 'x-forwarded-for': '10.9.8.7' } });
    expect((await response.json()).xff).toBe('127.0.0.1');
  });

  it('proxies /functions/v1 to the function with the prefix stripped, body, headers and client address', async () => {
    const response = await fetch(`${gateway.url}/functions/v1/api/login?x=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer abc', 'content-type': 'application/json', 'x-forwarded-for': '6.6.6.6' },
      body: JSON.stringify({ username: 'sam' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-function')).toBe('api');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      method: 'POST',
      url: '/api/login?x=1',
      body: '{"username":"sam"}',
      authorization: 'Bearer abc',
      xff: '127.0.0.1',
    });
    const missing = await fetch(`${gateway.url}/functions/v1/api/missing`);
    expect(missing.status).toBe(404);
  });

  it('streams a large request body through to the function', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const response = await fetch(`${gateway.url}/functions/v1/api/upload`, { method: 'PUT', body: big });
    expect((await response.json()).body.length).toBe(big.length);
  });

  it('answers 502 JSON when the function is down', async () => {
    const down = await startGateway({
      port: 0,
      auth: echoService('auth'),
      storage: echoService('storage'),
      functionsUrl: 'http://127.0.0.1:1',
      webDir: null,
    });
    try {
      const response = await fetch(`${down.url}/functions/v1/api/user`);
      expect(response.status).toBe(502);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect((await response.json()).message).toBeTruthy();
      expect((await fetch(`${down.url}/`)).status).toBe(404);
    } finally {
      await down.stop();
    }
  });

  it('answers CORS preflight for every route', async () => {
    for (const path of ['/auth/v1/token', '/storage/v1/object/media/x.png', '/functions/v1/api/login', '/anything']) {
      const response = await fetch(`${gateway.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'http://elsewhere.test', 'access-control-request-method': 'POST' },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const allowed = response.headers.get('access-control-allow-headers') ?? '';
      for (const header of ['authorization', 'apikey', 'content-type', 'x-client-info', 'x-upsert', 'cache-control']) {
        expect(allowed).toContain(header);
      }
      expect(response.headers.get('access-control-allow-methods')).toContain('DELETE');
    }
  });
});

describe('gateway static web app', () => {
  it('serves index.html without caching and assets with a long cache and their content types', async () => {
    const index = await fetch(`${gateway.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toContain('<title>App</title>');

    const js = await fetch(`${gateway.url}/assets/app-abc123.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toContain('max-age=31536000');
    expect(await js.text()).toBe('console.log(1)');
    const css = await fetch(`${gateway.url}/assets/app-abc123.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const svg = await fetch(`${gateway.url}/favicon.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('sends the security headers with every file: a CSP without inline script, no framing, nosniff, referrer and permissions policies', async () => {
    for (const path of ['/', '/courses/42', '/assets/app-abc123.js', '/favicon.svg']) {
      const response = await fetch(`${gateway.url}${path}`);
      await response.arrayBuffer();
      const csp = response.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
      expect(directives['script-src'], path).toEqual(["'self'"]);
      expect(directives['default-src']).toEqual(["'self'"]);
      expect(directives['object-src']).toEqual(["'none'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['base-uri']).toEqual(["'self'"]);
      expect(directives['connect-src']).toEqual(["'self'"]);
      expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('permissions-policy')).toContain('camera=()');
    }
  });

  it('falls back to index.html for client-side routes, but not for missing assets', async () => {
    const route = await fetch(`${gateway.url}/courses/42/lessons?tab=1`);
    expect(route.status).toBe(200);
    expect(route.headers.get('cache-control')).toBe('no-cache');
    expect(await route.text()).toContain('<title>App</title>');
    expect((await fetch(`${gateway.url}/assets/missing-123.js`)).status).toBe(404);
  });

  it('sends the brotli copy to a browser that accepts br, with its length and Vary: Accept-Encoding', async () => {
    const response = await rawGet('/assets/big-d3adb33f.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(response.body.length).toBeLessThan(BIG_JS.length / 4);
    expect(brotliDecompressSync(response.body).toString()).toBe(BIG_JS);
  });

  it('sends gzip to a browser that accepts gzip but not br, and honours q values', async () => {
    for (const accept of ['gzip, deflate', 'br;q=0, gzip', 'gzip;q=1.0, br;q=0.5']) {
      const response = await rawGet('/assets/big-d3adb33f.js', { 'accept-encoding': accept });
      expect(response.headers['content-encoding'], accept).toBe('gzip');
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(gunzipSync(response.body).toString()).toBe(BIG_JS);
    }
    const index = await rawGet('/', { 'accept-encoding': 'gzip' });
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(['gzip', undefined]).toContain(index.headers['content-encoding']);
  });

  it('sends the file as it is when the browser accepts no coding we have, or refuses them', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }, { 'accept-encoding': '*;q=0' }, { 'accept-encoding': 'deflate' }]) {
      const response = await rawGet('/assets/big-d3adb33f.js', headers);
      expect(response.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(response.body.toString()).toBe(BIG_JS);
      expect(Number(response.headers['content-length'])).toBe(BIG_JS.length);
    }
    // A file too small to gain from compression has no copies and goes out as it is.
    const small = await rawGet('/assets/app-abc123.js', { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.toString()).toBe('console.log(1)');
    expect(chooseEncoding('*')).toEqual(['br', 'gzip']);
    expect(chooseEncoding(undefined)).toEqual([]);
  });

  it('caches hashed assets for a year as immutable and makes every other file revalidate', async () => {
    for (const path of ['/assets/big-d3adb33f.js', '/assets/app-abc123.css']) {
      const response = await rawGet(path, { 'accept-encoding': 'br' });
      expect(response.headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
    }
    for (const path of ['/', '/index.html', '/courses/42', '/favicon.svg', '/robots.txt']) {
      const response = await rawGet(path, { 'accept-encoding': 'br' });
      expect(response.headers['cache-control'], path).toBe('no-cache');
      expect(response.headers.etag, path).toBeTruthy();
      expect(response.headers['last-modified'], path).toBeTruthy();
      expect(response.headers.vary, path).toBe('Accept-Encoding');
    }
  });

  it('answers a revalidation 304 with no body, by ETag or by Last-Modified, per encoding', async () => {
    const first = await rawGet('/robots.txt', { 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    const etag = String(first.headers.etag);
    const again = await rawGet('/robots.txt', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('no-cache');
    // The gzip representation has its own tag, so the brotli tag does not validate it.
    const gzip = await rawGet('/robots.txt', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.status).toBe(200);
    expect(gzip.headers.etag).not.toBe(etag);
    const byDate = await rawGet('/', { 'if-modified-since': String(first.headers['last-modified']) });
    expect(byDate.status).toBe(304);
    const stale = await rawGet('/', { 'if-modified-since': 'Thu, 01 Jan 2015 00:00:00 GMT' });
    expect(stale.status).toBe(200);
    expect(stale.body.toString()).toContain('<title>App</title>');
    const changed = await rawGet('/', { 'if-none-match': 'W/"other"' });
    expect(changed.status).toBe(200);
  });

  it('never serves files outside the web folder', async () => {
    const response = await new Promise((resolve, reject) => {
      const socket = connect(gateway.port, '127.0.0.1', () => {
        socket.write('GET /../../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      });
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(String(response)).not.toContain('root:');
    const encoded = await fetch(`${gateway.url}/%2e%2e%2f%2e%2e%2fetc%2fpasswd`);
    expect(await encoded.text()).not.toContain('root:');
  });
});

describe('gateway stop', () => {
  it('stops promptly even with a keep-alive connection open', async () => {
    const other = await startGateway({ port: 0, auth: echoService('auth'), storage: echoService('storage'), webDir: null });
    const socket = connect(other.port, '127.0.0.1');
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write('GET /auth/v1/health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    const started = Date.now();
    await other.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    socket.destroy();
    await expect(fetch(`${other.url}/auth/v1/health`)).rejects.toThrow();
  });
});
