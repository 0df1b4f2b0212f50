// The content origin's offline service worker (docs/ARCHITECTURE.md "SCORM player",
// docs/decisions/scorm-offline-integrity.md). Every package runs on this one origin, so any of them
// can write its Cache Storage: offline, a cached file is served only when it is proven genuine,
// a package file by a manifest the server signed (the key below), a player file by its hash below,
// and never with headers from the cache. This file is a template: the content server serves it as
// `_player/offline-sw.js` with BAKED filled in (web/scorm-player/offline-sw-build.mjs); the SW
// script itself is kept by the browser, out of reach of the pages.
'use strict';

/** @type {null | { publicKey: JsonWebKey, player: Record<string, string>, csp: string, contentTypes: Record<string, string> }} */
const BAKED = /* baked */ null;

const SCOPE = '/storage/v1/object/public/scorm-content/';
const PLAYER = SCOPE + '_player/';
const FILES_CACHE = 'scorm-offline';
const MANIFESTS_CACHE = 'scorm-offline-manifests';
// This SW is only ever what the server serves now (the browser fetches it itself).
const NEVER_CACHED = ['offline-sw.js'];

/** Manifests already verified, by payload: the payload is what the signature vouches for. */
const verifiedPayloads = new Map();
let publicKey = null;

function own(object, name) {
  return object && Object.prototype.hasOwnProperty.call(object, name) ? object[name] : undefined;
}

/** The percent-decoded pathname of a URL, or null when it does not decode. */
function decodedPath(url) {
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch (_error) {
    return null;
  }
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (let i = 0; i < digest.length; i++) hex += (digest[i] < 16 ? '0' : '') + digest[i].toString(16);
  return hex;
}

function base64urlBytes(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The manifest `{ base, files }` a kept `{payload, signature}` text vouches for, or null when the
 * signature is not the server's key's or the payload is not a manifest of a package in the bucket.
 */
async function verifiedManifest(text) {
  if (!BAKED) return null;
  let payload;
  let signature;
  try {
    const kept = JSON.parse(text);
    payload = kept.payload;
    signature = kept.signature;
  } catch (_error) {
    return null;
  }
  if (typeof payload !== 'string' || typeof signature !== 'string') return null;
  if (verifiedPayloads.has(payload)) return verifiedPayloads.get(payload);
  let valid = false;
  try {
    const bytes = base64urlBytes(signature);
    if (bytes.length !== 64) return null;
    publicKey = publicKey || await crypto.subtle.importKey('jwk', BAKED.publicKey, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    valid = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, bytes, new TextEncoder().encode(payload));
  } catch (_error) {
    return null;
  }
  if (!valid) return null;
  let manifest;
  try {
    manifest = JSON.parse(payload);
  } catch (_error) {
    return null;
  }
  const base = own(manifest, 'base');
  const files = own(manifest, 'files');
  if (own(manifest, 'v') !== 1 || typeof base !== 'string' || !files || typeof files !== 'object') return null;
  // A package's root inside the bucket, never the player's folder.
  if (!base.startsWith(SCOPE) || !base.endsWith('/') || base.startsWith(PLAYER) || base === SCOPE) return null;
  const result = { base, files };
  verifiedPayloads.set(payload, result);
  return result;
}

/** The verified manifest with the longest base that is a prefix of the decoded path, or null. */
async function manifestFor(path) {
  const cache = await caches.open(MANIFESTS_CACHE);
  const candidates = [];
  for (const key of await cache.keys()) {
    const base = decodedPath(key.url);
    if (base && base.endsWith('/') && path.startsWith(base)) candidates.push({ key, base });
  }
  candidates.sort((a, b) => b.base.length - a.base.length);
  for (const candidate of candidates) {
    const kept = await cache.match(candidate.key);
    const manifest = kept ? await verifiedManifest(await kept.text()) : null;
    // The key is only where to look: the signed base is what counts.
    if (manifest && manifest.base === candidate.base) return manifest;
  }
  return null;
}

/** The cached bytes of a URL (origin and path, no query) when they are proven genuine, else null. */
async function provenBytes(url) {
  if (!BAKED) return null;
  const path = decodedPath(url);
  if (path === null || !path.startsWith(SCOPE)) return null;
  let expected;
  if (path.startsWith(PLAYER)) {
    const name = path.slice(PLAYER.length);
    if (NEVER_CACHED.includes(name)) return null;
    expected = own(BAKED.player, name);
  } else {
    const manifest = await manifestFor(path);
    expected = manifest ? own(manifest.files, path.slice(manifest.base.length)) : undefined;
  }
  if (typeof expected !== 'string') return null;
  const cache = await caches.open(FILES_CACHE);
  const cached = await cache.match(url);
  if (!cached) return null;
  const bytes = new Uint8Array(await cached.arrayBuffer());
  return (await sha256Hex(bytes)) === expected.toLowerCase() ? bytes : null;
}

/** The content origin's headers, never the cache's: typed by the file's name. */
function headersFor(type) {
  return {
    'content-type': type,
    'content-security-policy': BAKED ? BAKED.csp : "default-src 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  };
}

function contentType(path) {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  const extension = dot > slash ? path.slice(dot).toLowerCase() : '';
  return (BAKED && own(BAKED.contentTypes, extension)) || 'application/octet-stream';
}

/** The answer offline: the proven file, or 504. */
async function offlineAnswer(request) {
  const url = new URL(request.url);
  const key = url.origin + url.pathname;
  let bytes = null;
  try {
    bytes = await provenBytes(key);
  } catch (_error) {
    bytes = null;
  }
  if (!bytes) {
    return new Response('Not available offline', { status: 504, headers: headersFor('text/plain; charset=utf-8') });
  }
  const headers = headersFor(contentType(decodedPath(key)));
  headers['accept-ranges'] = 'bytes';
  // Audio and video ask for ranges (to seek): one range is answered as a server would (206).
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get('range') || '');
  if (range && (range[1] || range[2])) {
    const size = bytes.length;
    const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start >= size || start > end) {
      headers['content-range'] = 'bytes */' + size;
      return new Response(null, { status: 416, headers: headers });
    }
    headers['content-range'] = 'bytes ' + start + '-' + end + '/' + size;
    return new Response(bytes.slice(start, end + 1), { status: 206, headers: headers });
  }
  return new Response(bytes, { status: 200, headers: headers });
}

self.addEventListener('install', function () {
  self.skipWaiting();
});

self.addEventListener('activate', function (event) {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', function (event) {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE)) return;
  // Network first: online, everything is the server's answer as it is.
  event.respondWith(fetch(request).catch(function () {
    return offlineAnswer(request);
  }));
});
