// Small helpers shared by the platform's fetch-style services and the node:http gateway.
import { Readable } from 'node:stream';

/**
 * A JSON response.
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
export function json(status, body, headers = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/**
 * Reads a request body as a JSON object.
 * @param {Request} request
 * @returns {Promise<any>} the parsed object, {} for an empty body, or undefined when not a JSON object
 */
export async function readJson(request) {
  const text = await request.text();
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The bearer token of a request, or null.
 * @param {Request} request
 */
export function bearer(request) {
  const header = request.headers.get('authorization') ?? '';
  const match = /^bearer\s+(.+)$/i.exec(header.trim());
  return match ? match[1].trim() : null;
}

/**
 * Turns a node:http request into a fetch Request (body streamed).
 * @param {import('node:http').IncomingMessage} req
 * @param {string} url absolute URL
 */
export function toRequest(req, url) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, {
    method,
    headers,
    body: hasBody ? /** @type {any} */ (Readable.toWeb(req)) : undefined,
    // @ts-expect-error Node's fetch needs duplex for a streamed body (not in RequestInit's type)
    duplex: hasBody ? 'half' : undefined,
  });
}

/**
 * Writes a fetch Response to a node:http response, adding extra headers.
 * @param {Response} response
 * @param {import('node:http').ServerResponse} res
 * @param {Record<string, string>} [extraHeaders]
 * @param {boolean} [head] HEAD request: no body
 */
export async function sendResponse(response, res, extraHeaders = {}, head = false) {
  /** @type {Record<string, string | string[]>} */
  const headers = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length) headers['set-cookie'] = cookies;
  Object.assign(headers, extraHeaders);
  res.writeHead(response.status, headers);
  if (!response.body || head) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
    }
  } finally {
    res.end();
  }
}
