// The content origin's offline SW (web/scorm-player/offline-sw.js), built as the content servers
// build it and run in a vm context with Node's WebCrypto, a Cache Storage in memory that a hostile
// package could have written, and a network that is down: only bytes proven genuine come back
// (a package file by the signed manifest, a player file by its baked hash), with the content
// origin's headers; everything else is 504.
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { webcrypto } from 'node:crypto';
import vm from 'node:vm';
import { CONTENT_TYPES, scormContentCsp } from './gateway.mjs';
import { buildOfflineSw, sha256Hex } from '../web/scorm-player/offline-sw-build.mjs';

const ORIGIN = 'https://content.example.test';
const SCOPE = '/storage/v1/object/public/scorm-content/';
const BASE = `${SCOPE}module-1/rev 1/`;
const CSP = scormContentCsp('https://learn.example.test');
const template = await readFile(new URL('../web/scorm-player/offline-sw.js', import.meta.url), 'utf8');
const encoder = new TextEncoder();
const subtle = webcrypto.subtle;

const keyPair = () => subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
const serverKey = await keyPair();
const otherKey = await keyPair();
const publicJwk = await subtle.exportKey('jwk', serverKey.publicKey);

/** @param {CryptoKey} privateKey @param {string} payload */
async function sign(privateKey, payload) {
  const signature = new Uint8Array(await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, encoder.encode(payload)));
  return Buffer.from(signature).toString('base64url');
}

const packageFiles = { 'index.html': '<!doctype html><p>Lesson</p>', 'js/app.js': 'window.lesson = 1;', 'media/é.svg': '<svg/>' };
const playerFiles = { 'launcher.html': '<!doctype html><title>Launcher</title>', 'launcher.js': 'launch();', 'scorm12.min.js': 'api12();', 'scorm2004.min.js': 'api2004();' };

async function manifestPayload(files = packageFiles, base = BASE) {
  const hashes = {};
  for (const [name, body] of Object.entries(files)) hashes[name] = await sha256Hex(encoder.encode(body));
  return JSON.stringify({ v: 1, moduleId: '00000000-0000-4000-8000-000000000001', base, files: hashes });
}

/** A URL of the content origin for a decoded path, encoded as a browser would. */
const urlOf = (path) => new URL(path, ORIGIN).href;

/** Cache Storage in memory: what the offline page, or any package on the origin, put there. */
function memoryCaches() {
  /** @type {Map<string, Map<string, { body: Uint8Array, headers: Record<string, string> }>>} */
  const stores = new Map();
  const open = (name) => {
    if (!stores.has(name)) stores.set(name, new Map());
    const store = stores.get(name);
    return {
      async keys() {
        return [...store.keys()].map((url) => ({ url }));
      },
      async match(key) {
        const entry = store.get(typeof key === 'string' ? key : key.url);
        return entry ? new Response(entry.body, { headers: entry.headers }) : undefined;
      },
      async put(url, body, headers = {}) {
        store.set(new URL(url).href, { body: typeof body === 'string' ? encoder.encode(body) : body, headers });
      },
    };
  };
  return { open: async (name) => open(name), openSync: open };
}

/** The built SW in a context of its own, the network down; `get(path)` is an offline GET. */
async function startSw({ key = publicJwk, player = playerFiles } = {}) {
  const caches = memoryCaches();
  const listeners = {};
  const context = vm.createContext({
    self: { location: new URL(ORIGIN), addEventListener: (type, listener) => (listeners[type] = listener), skipWaiting() {}, clients: { claim: async () => {} } },
    caches,
    crypto: webcrypto,
    fetch: async () => {
      throw new TypeError('Failed to fetch');
    },
    Response,
    URL,
    TextEncoder,
    atob,
  });
  const script = await buildOfflineSw({
    template,
    publicJwk: key,
    playerFiles: Object.fromEntries(Object.entries(player).map(([name, body]) => [name, encoder.encode(body)])),
    csp: CSP,
    contentTypes: CONTENT_TYPES,
  });
  vm.runInContext(script, context, { filename: 'offline-sw.js' });
  /** @param {string} path @param {string} [method] @param {Record<string, string>} [headers] */
  const get = async (path, method = 'GET', headers = {}) => {
    let answer;
    listeners.fetch({ request: { method, url: urlOf(path), headers: new Headers(headers) }, respondWith: (promise) => (answer = promise) });
    return answer ? await answer : undefined;
  };
  return { context, caches: caches.openSync, get, script };
}

/** What the offline page keeps: the files (by their URLs) and the signed manifest (by its base). */
async function keep(sw, { payload, signature, files = packageFiles, base = BASE }) {
  for (const [name, body] of Object.entries(files)) await sw.caches('scorm-offline').put(urlOf(base + name), body, { 'content-type': 'text/plain' });
  await sw.caches('scorm-offline-manifests').put(urlOf(base), JSON.stringify({ payload, signature }));
}

describe('the offline SW of the content origin', () => {
  it('is built with the public key, the player hashes and the CSP baked in, and never a private key', async () => {
    const sw = await startSw({ key: await subtle.exportKey('jwk', serverKey.privateKey) });
    expect(sw.script).toContain(publicJwk.x);
    expect(sw.script).not.toContain('"d"');
    expect(sw.script).toContain(await sha256Hex(encoder.encode(playerFiles['scorm2004.min.js'])));
    expect(sw.script).toContain(JSON.stringify(CSP));
    expect(sw.script).not.toContain('/* baked */');
    await expect(buildOfflineSw({ template, publicJwk: { kty: 'RSA' }, playerFiles: {}, csp: CSP, contentTypes: {} })).rejects.toThrow(/P-256/);
  });

  it('serves genuine bytes offline, typed by name, with the baked headers and none of the cache', async () => {
    const sw = await startSw();
    const payload = await manifestPayload();
    await keep(sw, { payload, signature: await sign(serverKey.privateKey, payload) });
    const page = await sw.get(`${BASE}index.html`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(packageFiles['index.html']);
    expect(Object.fromEntries(page.headers)).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-resource-policy': 'same-origin',
      'accept-ranges': 'bytes',
    });
    expect((await sw.get(`${BASE}js/app.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // A name that needs encoding in the URL is found by its decoded path, as the manifest names it.
    expect(await (await sw.get(`${BASE}media/é.svg`)).text()).toBe('<svg/>');
  });

  it('answers a range of a genuine file as a server would (audio and video seek by ranges)', async () => {
    const sw = await startSw();
    const payload = await manifestPayload();
    await keep(sw, { payload, signature: await sign(serverKey.privateKey, payload) });
    const whole = packageFiles['index.html'];
    const part = await sw.get(`${BASE}index.html`, 'GET', { range: 'bytes=2-5' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 2-5/${whole.length}`);
    expect(await part.text()).toBe(whole.slice(2, 6));
    const tail = await sw.get(`${BASE}index.html`, 'GET', { range: 'bytes=-3' });
    expect(await tail.text()).toBe(whole.slice(-3));
    const beyond = await sw.get(`${BASE}index.html`, 'GET', { range: `bytes=${whole.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
  });

  it('refuses a file with one byte changed', async () => {
    const sw = await startSw();
    const payload = await manifestPayload();
    await keep(sw, { payload, signature: await sign(serverKey.privateKey, payload), files: { ...packageFiles, 'js/app.js': 'window.lesson = 2;' } });
    const changed = await sw.get(`${BASE}js/app.js`);
    expect(changed.status).toBe(504);
    expect(await changed.text()).toBe('Not available offline');
    expect(changed.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(changed.headers.get('content-security-policy')).toBe(CSP);
    expect((await sw.get(`${BASE}index.html`)).status).toBe(200);
  });

  it('refuses a manifest signed by another key', async () => {
    const sw = await startSw();
    const payload = await manifestPayload();
    await keep(sw, { payload, signature: await sign(otherKey.privateKey, payload) });
    expect((await sw.get(`${BASE}index.html`)).status).toBe(504);
  });

  it('refuses a payload edited after signing, and a signature that is not one', async () => {
    const sw = await startSw();
    const payload = await manifestPayload();
    const signature = await sign(serverKey.privateKey, payload);
    const hostile = { ...packageFiles, 'index.html': '<script>steal()</script>' };
    await keep(sw, { payload: await manifestPayload(hostile), signature, files: hostile });
    expect((await sw.get(`${BASE}index.html`)).status).toBe(504);
    await keep(sw, { payload, signature: 'not-a-signature' });
    expect((await sw.get(`${BASE}index.html`)).status).toBe(504);
  });

  it('refuses a path the manifest does not name, and a file under another base', async () => {
    const sw = await startSw();
    const payload = await manifestPayload();
    await keep(sw, { payload, signature: await sign(serverKey.privateKey, payload) });
    await sw.caches('scorm-offline').put(urlOf(`${BASE}extra.js`), 'evil();');
    expect((await sw.get(`${BASE}extra.js`)).status).toBe(504);
    // A genuine manifest kept under another package's base vouches for nothing there.
    const other = `${SCOPE}module-2/rev/`;
    await sw.caches('scorm-offline').put(urlOf(`${other}index.html`), packageFiles['index.html']);
    await sw.caches('scorm-offline-manifests').put(urlOf(other), JSON.stringify({ payload, signature: await sign(serverKey.privateKey, payload) }));
    expect((await sw.get(`${other}index.html`)).status).toBe(504);
  });

  it("refuses a manifest that claims the player's folder", async () => {
    const sw = await startSw({ player: {} });
    const base = `${SCOPE}_player/`;
    const payload = await manifestPayload({ 'launcher.js': 'evil();' }, base);
    await keep(sw, { payload, signature: await sign(serverKey.privateKey, payload), files: { 'launcher.js': 'evil();' }, base });
    expect((await sw.get(`${base}launcher.js`)).status).toBe(504);
  });

  it("serves the player's files only with their baked hashes, and never the SW from the cache", async () => {
    const sw = await startSw();
    for (const [name, body] of Object.entries(playerFiles)) await sw.caches('scorm-offline').put(urlOf(`${SCOPE}_player/${name}`), body);
    const launcher = await sw.get(`${SCOPE}_player/launcher.html?app=https://learn.example.test`);
    expect(launcher.status).toBe(200);
    expect(await launcher.text()).toBe(playerFiles['launcher.html']);
    expect(launcher.headers.get('content-type')).toBe('text/html; charset=utf-8');
    await sw.caches('scorm-offline').put(urlOf(`${SCOPE}_player/launcher.js`), 'launch(); steal();');
    expect((await sw.get(`${SCOPE}_player/launcher.js`)).status).toBe(504);
    await sw.caches('scorm-offline').put(urlOf(`${SCOPE}_player/offline-sw.js`), 'cached');
    expect((await sw.get(`${SCOPE}_player/offline-sw.js`)).status).toBe(504);
  });

  it('leaves anything but a GET within its scope to the browser', async () => {
    const sw = await startSw();
    expect(await sw.get(`${BASE}index.html`, 'POST')).toBeUndefined();
    expect(await sw.get('/storage/v1/object/public/other/index.html')).toBeUndefined();
  });

  it('serves nothing when built from the template unbaked', async () => {
    const context = vm.createContext({ self: { addEventListener: () => {} }, caches: memoryCaches(), crypto: webcrypto, Response, URL, TextEncoder, atob });
    vm.runInContext(template, context);
    const payload = await manifestPayload();
    expect(await vm.runInContext(`verifiedManifest(${JSON.stringify(JSON.stringify({ payload, signature: await sign(serverKey.privateKey, payload) }))})`, context)).toBeNull();
  });
});
