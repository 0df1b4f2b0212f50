// The SCORM content host of a hosted deployment: what the platform's content origin
// (platform/gateway.mjs, startContentServer) does locally, in front of the project's Storage.
// Storage serves a package's HTML as `text/plain`, so packages cannot run from its public URL;
// this host, on a host name of its own (never the app's; a sibling subdomain, the same site, so that
// browsers blocking third-party storage still let it keep packages offline), serves the public objects of the
// `scorm-content` bucket at the same paths as Storage's public URLs, read-only, typed by file name,
// with the content CSP (framed only by the app), nosniff, no cookies and no CORS
// (docs/decisions/scorm-content-origin.md). The launcher's files are objects of the bucket too
// (`_player/<name>`, uploaded at deployment: README). With SCORM_OFFLINE_PUBLIC_KEY (the public JWK
// of the function's SCORM_OFFLINE_SIGNING_KEY) it also serves the offline SW, built from the
// uploaded template by the same builder as locally, with that key and the hashes of the uploaded
// player files baked in (docs/decisions/scorm-offline-integrity.md); without it, 404.
//
//   SUPABASE_URL=https://<ref>.supabase.co APP_ORIGIN=https://learn.example.uk PORT=8000 \
//     SCORM_OFFLINE_PUBLIC_KEY='{"kty":"EC","crv":"P-256","x":"...","y":"..."}' \
//     deno run --allow-net --allow-env deploy/scorm-content-host/main.ts
//
// It needs no secret: it reads only what Storage serves to anyone. platform/scorm-content-host.test.mjs
// runs this file in Deno beside the local content origin and compares their answers.

import { OFFLINE_PLAYER_FILES, OFFLINE_SW_HEADERS, OFFLINE_SW_NAME, buildOfflineSw, publicP256Jwk } from '../../web/scorm-player/offline-sw-build.mjs';

const BUCKET = 'scorm-content';
const PUBLIC_PREFIX = `/storage/v1/object/public/${BUCKET}/`;

/** Content types by extension: the same table as the local content origin's (the test compares them). */
export const CONTENT_TYPES: Record<string, string> = {
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

/**
 * The content's CSP: its own files only (inline script and eval allowed: authoring tools' exports
 * need them), no requests to other origins, framed only by the app and by the launcher of its own origin.
 */
export function scormContentCsp(appOrigin: string): string {
  return [
    "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors 'self' ${appOrigin}`,
  ].join('; ');
}

function contentType(name: string): string {
  const dot = name.lastIndexOf('.');
  const extension = dot > name.lastIndexOf('/') ? name.slice(dot).toLowerCase() : '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/** Upstream headers never passed on: Storage's own policy, download name, cookies, CORS, and hop-by-hop ones. */
function dropped(name: string): boolean {
  return name === 'set-cookie' || name.startsWith('access-control-') || name === 'content-security-policy' ||
    name === 'content-disposition' || ['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade'].includes(name);
}

/**
 * The request handler: `storageUrl` is the project's URL, `appOrigin` the web app's origin,
 * `offlinePublicKey` the offline manifests' public JWK (none: no offline SW).
 */
export function contentHost(storageUrl: string, appOrigin: string, offlinePublicKey: unknown = null): (request: Request) => Promise<Response> {
  const base = storageUrl.replace(/\/+$/, '');
  const headers = {
    'content-security-policy': scormContentCsp(appOrigin),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  };
  const refuse = (status: number, message: string, extra: Record<string, string> = {}) =>
    new Response(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers, ...extra } });

  /** The offline SW, built from the bucket's template and player files as they are now. */
  const offlineSw = async (method: string): Promise<Response> => {
    if (!offlinePublicKey) return refuse(404, 'Not found');
    const read = async (file: string): Promise<Uint8Array | null> => {
      const upstream = await fetch(`${base}${PUBLIC_PREFIX}_player/${file}`);
      if (!upstream.ok) {
        await upstream.body?.cancel();
        return null;
      }
      return new Uint8Array(await upstream.arrayBuffer());
    };
    let template: Uint8Array | null;
    const playerFiles: Record<string, Uint8Array> = {};
    try {
      template = await read(OFFLINE_SW_NAME);
      for (const file of OFFLINE_PLAYER_FILES) {
        const bytes = await read(file);
        if (bytes) playerFiles[file] = bytes;
      }
    } catch (error) {
      console.error('[content host] Storage did not answer:', error);
      return refuse(502, 'Storage did not answer');
    }
    if (!template) return refuse(404, 'Not found');
    const body = await buildOfflineSw({ template: new TextDecoder().decode(template), publicJwk: offlinePublicKey, playerFiles, csp: headers['content-security-policy'], contentTypes: CONTENT_TYPES });
    return new Response(method === 'HEAD' ? null : body, { status: 200, headers: { ...headers, ...OFFLINE_SW_HEADERS } });
  };

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'Method not allowed', { allow: 'GET, HEAD' });
    // URL parsing has already resolved `.` and `..` segments, so a path that climbed out of the
    // bucket no longer starts with its prefix.
    const path = new URL(request.url).pathname;
    if (!path.startsWith(PUBLIC_PREFIX)) return refuse(404, 'Not found');
    const name = path.slice(PUBLIC_PREFIX.length);
    if (name === `_player/${OFFLINE_SW_NAME}`) return offlineSw(request.method);
    // Only what a browser sends for a plain read goes on to Storage: never credentials.
    const forwarded = new Headers();
    for (const header of ['range', 'if-none-match', 'if-modified-since', 'accept']) {
      const value = request.headers.get(header);
      if (value !== null) forwarded.set(header, value);
    }
    let upstream: Response;
    try {
      upstream = await fetch(`${base}/storage/v1/object/public/${BUCKET}/${name}`, { method: request.method, headers: forwarded, redirect: 'manual' });
    } catch (error) {
      console.error('[content host] Storage did not answer:', error);
      return refuse(502, 'Storage did not answer');
    }
    const out = new Headers();
    for (const [header, value] of upstream.headers) if (!dropped(header)) out.set(header, value);
    // fetch has already decoded a compressed body: its encoding and length no longer describe it.
    if (upstream.headers.has('content-encoding')) {
      out.delete('content-encoding');
      out.delete('content-length');
    }
    // Storage serves a package's HTML as text; here a file is what its name says, as locally.
    if (upstream.ok) out.set('content-type', contentType(name));
    // The launcher's files change with each deployment of the app: always revalidated, as locally.
    if (upstream.ok && name.startsWith('_player/')) out.set('cache-control', 'no-cache');
    for (const [header, value] of Object.entries(headers)) out.set(header, value);
    const body = request.method === 'HEAD' || [204, 304].includes(upstream.status) ? null : upstream.body;
    if (body === null) await upstream.body?.cancel();
    return new Response(body, { status: upstream.status, headers: out });
  };
}

if (import.meta.main) {
  const storageUrl = Deno.env.get('SUPABASE_URL');
  const appOrigin = Deno.env.get('APP_ORIGIN');
  if (!storageUrl || !appOrigin) {
    console.error('Set SUPABASE_URL (the project\'s URL) and APP_ORIGIN (the web app\'s origin, e.g. https://learn.example.uk).');
    Deno.exit(1);
  }
  if (new URL(appOrigin).origin !== appOrigin) {
    console.error(`APP_ORIGIN must be an origin (scheme, host and port only), not ${appOrigin}`);
    Deno.exit(1);
  }
  const offlineKey = Deno.env.get('SCORM_OFFLINE_PUBLIC_KEY');
  let offlinePublicKey = null;
  try {
    // Checked at start: only a P-256 key's public half is ever baked into the SW.
    offlinePublicKey = offlineKey ? publicP256Jwk(JSON.parse(offlineKey)) : null;
  } catch (error) {
    console.error(`SCORM_OFFLINE_PUBLIC_KEY must be a P-256 public JWK as JSON: ${error instanceof Error ? error.message : error}`);
    Deno.exit(1);
  }
  Deno.serve({
    hostname: Deno.env.get('LISTEN_ADDRESS') ?? '0.0.0.0',
    port: Number(Deno.env.get('PORT') ?? 8000),
    onListen: ({ hostname, port }) => console.log(`SCORM content host listening on http://${hostname}:${port}`),
  }, contentHost(storageUrl, appOrigin, offlinePublicKey));
}
