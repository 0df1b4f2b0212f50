// The gateway: one node:http server in front of the platform, as Supabase's API gateway is.
// /auth/v1/* -> auth, /storage/v1/* -> storage (prefix stripped), /functions/v1/* proxied to the
// Deno function server (prefix stripped, body streamed), everything else the built web app with a
// single-page-app fallback to index.html. CORS is open (`*`) on every answer.
import { createServer, request as httpRequest } from 'node:http';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { sendResponse, toRequest } from './http.mjs';
import { OFFLINE_PLAYER_FILES, OFFLINE_SW_HEADERS, OFFLINE_SW_NAME, buildOfflineSw } from '../web/scorm-player/offline-sw-build.mjs';

export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, apikey, content-type, x-client-info, x-upsert, cache-control, x-supabase-api-version, x-metadata, accept-profile, content-profile, prefer, range',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-expose-headers': 'content-length, content-range, etag, x-total-count, link, x-supabase-api-version',
  'access-control-max-age': '86400',
};

/**
 * Security headers of the web app's files. Scripts only from this origin (no inline script, no
 * eval); inline styles are allowed because Mantine sets CSS variables in style attributes and
 * injects its own <style> elements; the app talks only to this origin (Auth, Storage and the
 * function sit behind this gateway); nothing may frame it. README's deploy section lists the same
 * headers for a hosted deployment (where connect-src and img-src also name the Supabase URL).
 */
export const WEB_SECURITY_HEADERS = webSecurityHeaders(null);

/**
 * The web app's security headers; `contentOrigin` (the SCORM content origin) is the only
 * origin the app may frame: the SCORM player's launcher page.
 * @param {string | null} contentOrigin
 */
export function webSecurityHeaders(contentOrigin) {
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      ...(contentOrigin ? [`frame-src ${contentOrigin}`] : []),
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    'cross-origin-opener-policy': 'same-origin',
  };
}

/** The bucket of unpacked SCORM packages and the path its public objects have on Storage. */
export const SCORM_BUCKET = 'scorm-content';
export const SCORM_PUBLIC_PREFIX = `/storage/v1/object/public/${SCORM_BUCKET}/`;

/**
 * The content security policy of SCORM content (untrusted, docs/ARCHITECTURE.md): its own files
 * only (inline script and eval allowed: authoring tools' exports need them), no requests to other
 * origins, framed only by the app (and by the launcher page of its own origin), forms only to itself.
 * @param {string} appOrigin
 */
export function scormContentCsp(appOrigin) {
  return [
    "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors 'self' ${appOrigin}`,
  ].join('; ');
}

/** Content types by extension, of the web app's files and the SCORM content origin's. */
export const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wasm': 'application/wasm',
};

/** Headers of every Auth and Storage answer: CORS, and no content sniffing (as hosted Supabase sends). */
const SERVICE_HEADERS = { ...CORS_HEADERS, 'x-content-type-options': 'nosniff' };

/** Auth and Storage paths the hosted gateway serves without an apikey. */
const OPEN_PATHS = [
  { prefix: '/auth/v1', pattern: /^\/\.well-known\/jwks\.json$/ },
  { prefix: '/auth/v1', pattern: /^\/(verify|callback|authorize|sso\/saml\/acs|sso\/saml\/metadata)$/ },
  { prefix: '/storage/v1', pattern: /^\/(object|render\/image)\/(public|sign)\// },
];

// Hop-by-hop headers never forwarded by a proxy.
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
  'transfer-encoding', 'upgrade', 'host',
]);

/**
 * @typedef {{ fetch(request: Request): Promise<Response> }} FetchService
 * @typedef {object} GatewayOptions
 * @property {string} [host] default 127.0.0.1
 * @property {number} [port] 0 for any free port
 * @property {FetchService} auth
 * @property {FetchService} storage
 * @property {string | null} [functionsUrl] base URL of the function server (e.g. http://127.0.0.1:54330)
 * @property {string | null} [webDir] folder of the built web app, or null
 * @property {{ render(pathname: string, search?: string, request?: { cookie?: string, acceptLanguage?: string }): Promise<string | null> } | null} [pageRenderer] pages
 *   rendered on request (platform/page-render.mjs), or null
 * @property {string[] | null} [apiKeys]
 * @property {string | null} [contentOrigin] the SCORM content origin the app may frame
 */

/**
 * Starts the gateway.
 * @param {GatewayOptions} options
 * @returns {Promise<{ url: string, port: number, stop(): Promise<void> }>}
 */
export async function startGateway({ host = '127.0.0.1', port = 54321, auth, storage, functionsUrl = null, webDir = null, pageRenderer = null, apiKeys = null, contentOrigin = null }) {
  const webRoot = webDir ? resolve(webDir) : null;
  const securityHeaders = webSecurityHeaders(contentOrigin);
  const knownKeys = apiKeys ? new Set(apiKeys) : null;

  /**
   * What hosted Supabase's API gateway answers to an Auth or Storage request without a valid
   * `apikey` (header or query parameter), or null to let it through. Public object URLs, the JWKS
   * and the links Auth sends by email are open, as they are there.
   * @param {import('node:http').IncomingMessage} req
   * @param {URL} url
   * @param {string} prefix
   * @param {string} rest
   */
  function apiKeyRefusal(req, url, prefix, rest) {
    if (OPEN_PATHS.some((open) => open.prefix === prefix && open.pattern.test(rest))) return null;
    const header = req.headers.apikey;
    const key = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey');
    if (!key) return { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' };
    if (knownKeys && !knownKeys.has(key)) return { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' };
    return null;
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error('[gateway]', error);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json', ...CORS_HEADERS });
        res.end(JSON.stringify({ message: 'Internal gateway error' }));
      } else {
        res.destroy();
      }
    });
  });

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  async function handle(req, res) {
    const rawUrl = req.url ?? '/';
    const url = new URL(rawUrl, 'http://gateway.local');
    const path = url.pathname;
    const service = prefixed(path, '/auth/v1') ? ['/auth/v1', auth] : prefixed(path, '/storage/v1') ? ['/storage/v1', storage] : null;

    if (req.method === 'OPTIONS') {
      // Preflight: answered here for every route (the function may add its own, but need not).
      req.resume();
      res.writeHead(204, CORS_HEADERS);
      res.end();
      return;
    }

    if (service) {
      const [prefix, target] = /** @type {[string, FetchService]} */ (service);
      const rest = path.slice(prefix.length) || '/';
      const refused = apiKeyRefusal(req, url, prefix, rest);
      if (refused) {
        req.resume();
        sendJson(res, 401, refused, SERVICE_HEADERS);
        return;
      }
      const origin = `http://${req.headers.host ?? `${host}:${port}`}`;
      const request = toRequest(req, `${origin}${rest}${url.search}`);
      request.headers.set('x-forwarded-for', forwardedFor(req));
      const response = await target.fetch(request);
      await sendResponse(response, res, SERVICE_HEADERS, req.method === 'HEAD');
      return;
    }

    if (prefixed(path, '/functions/v1')) {
      proxyFunction(req, res, rawUrl.slice('/functions/v1'.length) || '/');
      return;
    }

    await serveStatic(req, res, path, url.search);
  }

  /**
   * Reverse-proxies a request to the function server, streaming both ways.
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {string} pathAndQuery
   */
  function proxyFunction(req, res, pathAndQuery) {
    if (!functionsUrl) {
      req.resume();
      sendJson(res, 502, { message: 'Functions are not running' });
      return;
    }
    const target = new URL(functionsUrl);
    const basePath = target.pathname.replace(/\/+$/, '');
    /** @type {Record<string, string | string[]>} */
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    // The gateway is the edge: the client's own address, never a value the client sent.
    headers['x-forwarded-for'] = forwardedFor(req);
    headers['x-forwarded-host'] = req.headers.host ?? '';
    headers['x-forwarded-proto'] = 'http';
    headers.host = target.host;
    const upstream = httpRequest(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: `${basePath}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`,
        headers,
      },
      (upstreamRes) => {
        /** @type {Record<string, string | string[]>} */
        const out = {};
        for (const [name, value] of Object.entries(upstreamRes.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name) && !name.startsWith('access-control-')) out[name] = value;
        }
        res.writeHead(upstreamRes.statusCode ?? 502, { ...out, ...CORS_HEADERS });
        upstreamRes.pipe(res);
        upstreamRes.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) sendJson(res, 502, { message: 'The function is not reachable' });
      else res.destroy();
    });
    req.pipe(upstream);
    req.on('aborted', () => upstream.destroy());
  }

  /**
   * A page rendered on request: never cached (it holds the API's answers of the moment), compressed
   * as the browser accepts.
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {string} html
   */
  /** What a page rendered on request needs of the request to choose its language. */
  function languageHeaders(req) {
    return { cookie: req.headers.cookie, acceptLanguage: req.headers['accept-language'] };
  }

  function sendRendered(req, res, html) {
    const source = Buffer.from(html);
    const encoding = chooseEncoding(req.headers['accept-encoding'])[0] ?? null;
    const body =
      encoding === 'br'
        ? brotliCompressSync(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length } })
        : encoding === 'gzip'
          ? gzipSync(source, { level: 6 })
          : source;
    /** @type {Record<string, string>} */
    const headers = { ...CORS_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', vary: 'Accept-Encoding, Accept-Language, Cookie', ...securityHeaders };
    if (encoding) headers['content-encoding'] = encoding;
    headers['content-length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /**
   * Serves the built web app: files with their content types, the precompressed .br or .gz copy
   * the browser accepts, a year's immutable cache for the hashed /assets/*, no-cache (revalidated
   * by ETag / Last-Modified, answered 304) for everything else, and index.html for unknown paths
   * (client-side routes).
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {string} path
   * @param {string} search the query, for a page rendered on request
   */
  async function serveStatic(req, res, path, search) {
    req.resume();
    if (!webRoot) {
      sendJson(res, 404, { message: 'Not found' });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, { message: 'Method not allowed' });
      return;
    }
    let decoded;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      sendJson(res, 400, { message: 'Bad path' });
      return;
    }
    // The home page rendered with the catalogue, rather than the one built with the app.
    if (decoded === '/' && pageRenderer) {
      const rendered = await pageRenderer.render(decoded, search, languageHeaders(req));
      if (rendered !== null) {
        sendRendered(req, res, rendered);
        return;
      }
    }
    let file = resolve(webRoot, `.${decoded}`);
    const inside = file === webRoot || file.startsWith(webRoot + sep);
    let info = inside && !decoded.includes('\0') ? await stat(file).catch(() => null) : null;
    if (info?.isDirectory()) {
      file = resolve(file, 'index.html');
      info = await stat(file).catch(() => null);
    }
    if (!info || !info.isFile()) {
      // A missing asset is a real 404; any other path is a client-side route.
      if (decoded.startsWith('/assets/') || !inside) {
        sendJson(res, 404, { message: 'Not found' });
        return;
      }
      // A page rendered with its content (a course page), else the app's index.html.
      const rendered = pageRenderer ? await pageRenderer.render(decoded, search, languageHeaders(req)) : null;
      if (rendered !== null) {
        sendRendered(req, res, rendered);
        return;
      }
      file = resolve(webRoot, 'index.html');
      info = await stat(file).catch(() => null);
      if (!info || !info.isFile()) {
        sendJson(res, 404, { message: 'Not found' });
        return;
      }
    }
    const type = CONTENT_TYPES[/** @type {keyof typeof CONTENT_TYPES} */ (extname(file).toLowerCase())] ?? 'application/octet-stream';
    // Hashed build output never changes under its name: cached for a year. Everything else
    // (index.html, the SPA fallback, favicon, robots.txt, ...) is revalidated on every use.
    const hashed = decoded.startsWith('/assets/') && !file.endsWith(`${sep}index.html`);
    const cache = hashed ? 'public, max-age=31536000, immutable' : 'no-cache';

    // The precompressed copy the browser accepts (written at build time by web/precompress.mjs).
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    let body = file;
    let bodyInfo = info;
    let contentEncoding = null;
    for (const candidate of encoding) {
      const variant = `${file}.${candidate === 'gzip' ? 'gz' : 'br'}`;
      const variantInfo = await stat(variant).catch(() => null);
      if (variantInfo?.isFile()) {
        body = variant;
        bodyInfo = variantInfo;
        contentEncoding = candidate;
        break;
      }
    }
    // One ETag per representation, so a cache never answers a gzip client with brotli bytes.
    const suffix = contentEncoding ? `-${contentEncoding}` : '';
    const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}${suffix}"`;
    const lastModified = info.mtime.toUTCString();
    /** @type {Record<string, string>} */
    const headers = {
      ...CORS_HEADERS,
      'content-type': type,
      'cache-control': cache,
      etag,
      'last-modified': lastModified,
      vary: 'Accept-Encoding',
      ...securityHeaders,
    };
    if (contentEncoding) headers['content-encoding'] = contentEncoding;
    if (notModified(req, etag, info.mtime)) {
      delete headers['content-encoding'];
      res.writeHead(304, headers);
      res.end();
      return;
    }
    headers['content-length'] = String(bodyInfo.size);
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(body);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  await new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolvePromise(undefined);
    });
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const boundPort = address.port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${boundPort}`,
    port: boundPort,
    stop() {
      return new Promise((resolvePromise) => {
        server.close(() => resolvePromise(undefined));
        server.closeIdleConnections();
        // Requests still in flight get a moment, then their sockets are closed too.
        setTimeout(() => server.closeAllConnections(), 200).unref();
      });
    },
  };
}

/**
 * The content codings to try, best first, from an Accept-Encoding header: brotli before gzip,
 * each only when the client accepts it (a q of 0 refuses it; `*` stands for codings not named).
 * @param {string | string[] | undefined} header
 * @returns {('br' | 'gzip')[]}
 */
export function chooseEncoding(header) {
  const value = Array.isArray(header) ? header.join(',') : header ?? '';
  /** @type {Map<string, number>} */
  const q = new Map();
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param);
      if (match) weight = Number(match[1]);
    }
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (/** @type {string} */ name) => q.get(name) ?? (name === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
  return /** @type {('br' | 'gzip')[]} */ (['br', 'gzip'].filter((name) => weightOf(name) > 0).sort((a, b) => weightOf(b) - weightOf(a)));
}

/**
 * Whether a conditional GET may be answered 304: If-None-Match when sent (any listed tag, weak
 * comparison), otherwise If-Modified-Since against the file's time (HTTP dates have whole seconds).
 * @param {import('node:http').IncomingMessage} req
 * @param {string} etag
 * @param {Date} mtime
 */
function notModified(req, etag, mtime) {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch) {
    const bare = (/** @type {string} */ tag) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => bare(tag) === bare(etag));
  }
  const since = req.headers['if-modified-since'];
  if (since) {
    const time = Date.parse(since);
    return Number.isFinite(time) && Math.floor(mtime.getTime() / 1000) * 1000 <= time;
  }
  return false;
}

/** @param {string} path @param {string} prefix */
function prefixed(path, prefix) {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** @param {import('node:http').IncomingMessage} req */
function forwardedFor(req) {
  const client = req.socket.remoteAddress ?? '';
  const normalised = client.startsWith('::ffff:') ? client.slice(7) : client;
  return normalised;
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 */
function sendJson(res, status, body, headers = CORS_HEADERS) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * The SCORM content origin: a second port that serves only the public objects of the
 * `scorm-content` bucket, read-only, at the same paths as Storage's public URLs (so a Storage URL
 * becomes a content URL by changing its origin), plus the player's launcher page under `_player/`.
 * The content is untrusted: it gets a different origin from the app (it cannot read the app's
 * storage or tokens), a CSP keeping it to its own files, and no cookies or CORS.
 * @param {{ host?: string, port?: number, storage: FetchService, appOrigin: string, playerFiles?: Record<string, string>,
 *   offlinePublicKey?: JsonWebKey | null }} options
 *   playerFiles: `_player/<name>` -> file on disk (the launcher page and its scripts; `offline-sw.js` is the
 *   SW's template). offlinePublicKey: the public key of the signed offline manifests; without it the
 *   offline SW is not served (404).
 * @returns {Promise<{ url: string, origin: string, port: number, stop(): Promise<void> }>}
 */
export async function startContentServer({ host = '127.0.0.1', port = 54329, storage, appOrigin, playerFiles = {}, offlinePublicKey = null }) {
  const headers = {
    'content-security-policy': scormContentCsp(appOrigin),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  };
  const refuse = (/** @type {import('node:http').ServerResponse} */ res, /** @type {number} */ status, /** @type {string} */ message, extra = {}) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers, ...extra });
    res.end(message);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error('[content]', error);
      if (!res.headersSent) refuse(res, 500, 'Internal error');
      else res.destroy();
    });
  });

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  async function handle(req, res) {
    req.resume();
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed', { allow: 'GET, HEAD' });
    const path = new URL(req.url ?? '/', 'http://content.local').pathname;
    if (!path.startsWith(SCORM_PUBLIC_PREFIX)) return refuse(res, 404, 'Not found');
    const name = path.slice(SCORM_PUBLIC_PREFIX.length);
    // The offline SW is built on each request, from the files served now: its baked hashes are theirs.
    if (name === `_player/${OFFLINE_SW_NAME}`) {
      const template = playerFiles[OFFLINE_SW_NAME];
      if (!offlinePublicKey || !template) return refuse(res, 404, 'Not found');
      /** @type {Record<string, Uint8Array>} */
      const files = {};
      for (const file of OFFLINE_PLAYER_FILES) {
        // One that is not there is not served, online or offline: no hash, as on the host.
        const bytes = playerFiles[file] ? await readFile(playerFiles[file]).catch(() => null) : null;
        if (bytes) files[file] = bytes;
      }
      const body = await buildOfflineSw({ template: await readFile(template, 'utf8'), publicJwk: offlinePublicKey, playerFiles: files, csp: headers['content-security-policy'], contentTypes: CONTENT_TYPES });
      res.writeHead(200, { ...headers, ...OFFLINE_SW_HEADERS, 'content-length': String(Buffer.byteLength(body)) });
      return res.end(req.method === 'HEAD' ? undefined : body);
    }
    const playerFile = name.startsWith('_player/') ? playerFiles[name.slice('_player/'.length)] : undefined;
    if (playerFile) {
      const info = await stat(playerFile).catch(() => null);
      if (!info?.isFile()) return refuse(res, 404, 'Not found');
      const type = CONTENT_TYPES[/** @type {keyof typeof CONTENT_TYPES} */ (extname(playerFile).toLowerCase())] ?? 'application/octet-stream';
      res.writeHead(200, { ...headers, 'content-type': type, 'content-length': String(info.size), 'cache-control': 'no-cache' });
      if (req.method === 'HEAD') return res.end();
      createReadStream(playerFile).on('error', () => res.destroy()).pipe(res);
      return;
    }
    // Only what a browser sends for a plain read goes on to Storage: never credentials.
    /** @type {Record<string, string>} */
    const forwarded = {};
    for (const header of ['range', 'if-none-match', 'if-modified-since', 'accept']) {
      const value = req.headers[header];
      if (typeof value === 'string') forwarded[header] = value;
    }
    const response = await storage.fetch(new Request(`http://content.local/object/public/${SCORM_BUCKET}/${name}`, { method: req.method, headers: forwarded }));
    /** @type {Record<string, string>} */
    const out = {};
    for (const [header, value] of response.headers) {
      if (header === 'set-cookie' || header.startsWith('access-control-') || header === 'content-security-policy' || header === 'content-disposition') continue;
      out[header] = value;
    }
    // Storage serves anything but an image as an inert download (it must never be a page on the
    // app's Storage origin); here, on the content origin, a file is served as what its name says,
    // as a static host would.
    if (response.ok) out['content-type'] = CONTENT_TYPES[/** @type {keyof typeof CONTENT_TYPES} */ (extname(name).toLowerCase())] ?? 'application/octet-stream';
    const body = [204, 304].includes(response.status) ? null : response.body;
    await sendResponse(new Response(body, { status: response.status, headers: out }), res, headers, req.method === 'HEAD');
  }

  await new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolvePromise(undefined);
    });
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const origin = `http://${urlHost}:${address.port}`;
  return {
    origin,
    url: `${origin}${SCORM_PUBLIC_PREFIX.slice(0, -1)}`,
    port: address.port,
    stop() {
      return new Promise((resolvePromise) => {
        server.close(() => resolvePromise(undefined));
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 200).unref();
      });
    },
  };
}
