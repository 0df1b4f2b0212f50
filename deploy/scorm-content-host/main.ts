// The SCORM content host of a hosted deployment: what the platform's content origin
// (platform/gateway.mjs, startContentServer) does locally, in front of the project's Storage.
// Storage serves a package's HTML as `text/plain`, so packages cannot run from its public URL;
// this host, on a domain of its own (never the app's), serves the public objects of the
// `scorm-content` bucket at the same paths as Storage's public URLs, read-only, typed by file name,
// with the content CSP (framed only by the app), nosniff, no cookies and no CORS
// (docs/decisions/scorm-content-origin.md). The launcher's files are objects of the bucket too
// (`_player/<name>`, uploaded at deployment: README).
//
//   SUPABASE_URL=https://<ref>.supabase.co APP_ORIGIN=https://learn.example.uk PORT=8000 \
//     deno run --allow-net --allow-env deploy/scorm-content-host/main.ts
//
// It needs no key: it reads only what Storage serves to anyone. platform/scorm-content-host.test.mjs
// runs this file in Deno beside the local content origin and compares their answers.

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

/** The request handler: `storageUrl` is the project's URL, `appOrigin` the web app's origin. */
export function contentHost(storageUrl: string, appOrigin: string): (request: Request) => Promise<Response> {
  const base = storageUrl.replace(/\/+$/, '');
  const headers = {
    'content-security-policy': scormContentCsp(appOrigin),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  };
  const refuse = (status: number, message: string, extra: Record<string, string> = {}) =>
    new Response(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers, ...extra } });

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'Method not allowed', { allow: 'GET, HEAD' });
    // URL parsing has already resolved `.` and `..` segments, so a path that climbed out of the
    // bucket no longer starts with its prefix.
    const path = new URL(request.url).pathname;
    if (!path.startsWith(PUBLIC_PREFIX)) return refuse(404, 'Not found');
    const name = path.slice(PUBLIC_PREFIX.length);
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
  Deno.serve({
    hostname: Deno.env.get('LISTEN_ADDRESS') ?? '0.0.0.0',
    port: Number(Deno.env.get('PORT') ?? 8000),
    onListen: ({ hostname, port }) => console.log(`SCORM content host listening on http://${hostname}:${port}`),
  }, contentHost(storageUrl, appOrigin));
}
