// JSON-LD document loaders. Contexts come only from local packages. The verifier's loader also
// answers this platform's own issuer documents (profile, keys, status lists) from the database,
// and fetches other issuers' documents over HTTPS only: a public address (never loopback,
// private, link-local or unique-local), no redirects, a timeout and a size cap.
import { localContext, remoteDocument, type RemoteDocument } from './contexts.ts';

export type DocumentLoader = (url: string) => Promise<RemoteDocument>;

/** Why a document could not be loaded: the verifier turns it into a check's outcome. */
export class DocumentNotLoaded extends Error {
  constructor(readonly url: string, reason: string) {
    super(`${url}: ${reason}`);
  }
}

/** Contexts only: for signing, where every other document is the platform's own. */
export function localDocumentLoader(): DocumentLoader {
  return (url: string) => {
    const context = localContext(url);
    if (context === undefined) return Promise.reject(new DocumentNotLoaded(url, 'not a known context'));
    return Promise.resolve(remoteDocument(url, context));
  };
}

export const REMOTE_TIMEOUT_MS = 5000;
export const REMOTE_MAX_BYTES = 256 * 1024;

/** True for an address a server of ours must never be made to call (loopback, private, link-local,
 * unique-local, unspecified, multicast, and IPv4 written inside IPv6). */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = ip.match(/^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) ||
      a >= 224;
  }
  if (ip.includes(':')) {
    return ip === '::' || ip === '::1' || /^f[cd]/.test(ip) || /^fe[89ab]/.test(ip) || /^ff/.test(ip) ||
      ip.startsWith('::ffff:') || ip.startsWith('64:ff9b:');
  }
  return false;
}

async function publicHost(host: string): Promise<boolean> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (/^[\d.]+$/.test(bare) || bare.includes(':')) return !isPrivateAddress(bare);
  if (bare === 'localhost' || bare.endsWith('.localhost') || bare.endsWith('.local') || bare.endsWith('.internal')) {
    return false;
  }
  const addresses: string[] = [];
  for (const type of ['A', 'AAAA'] as const) {
    try {
      addresses.push(...await Deno.resolveDns(bare, type));
    } catch { /* no record of this type */ }
  }
  return addresses.length > 0 && addresses.every((a) => !isPrivateAddress(a));
}

/** A JSON document of another issuer, fetched under the limits above. */
export async function fetchRemoteJson(url: string): Promise<unknown> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DocumentNotLoaded(url, 'not a URL');
  }
  if (parsed.protocol !== 'https:') throw new DocumentNotLoaded(url, 'only https is fetched');
  if (!await publicHost(parsed.hostname)) throw new DocumentNotLoaded(url, 'not a public address');
  let response: Response;
  try {
    response = await fetch(parsed, {
      redirect: 'error',
      signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
      headers: { accept: 'application/ld+json, application/json' },
    });
  } catch {
    throw new DocumentNotLoaded(url, 'unreachable');
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new DocumentNotLoaded(url, `answered ${response.status}`);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > REMOTE_MAX_BYTES) {
      await reader.cancel();
      throw new DocumentNotLoaded(url, 'too large');
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new DocumentNotLoaded(url, 'not JSON');
  }
}

/** Contexts locally; `own` answers this platform's documents (or undefined when the URL is not
 * one); any other URL is fetched from its issuer. Each document is loaded once per verification. */
export function verifierDocumentLoader(own: (url: string) => Promise<unknown | undefined>): DocumentLoader {
  const cache = new Map<string, Promise<RemoteDocument>>();
  const load = async (url: string): Promise<RemoteDocument> => {
    const context = localContext(url);
    if (context !== undefined) return remoteDocument(url, context);
    const base = url.split('#')[0];
    const mine = await own(base);
    if (mine !== undefined) return remoteDocument(url, fragment(url, mine));
    return remoteDocument(url, fragment(url, await fetchRemoteJson(base)));
  };
  return (url: string) => {
    let answer = cache.get(url);
    if (!answer) {
      answer = load(url);
      cache.set(url, answer);
    }
    return answer;
  };
}

/** A URL with a fragment names a node of its document (a key listed in a profile, say). */
function fragment(url: string, document: unknown): unknown {
  if (!url.includes('#') || !document || typeof document !== 'object') return document;
  const doc = document as Record<string, unknown>;
  if (doc.id === url) return document;
  for (const value of Object.values(doc)) {
    for (const node of Array.isArray(value) ? value : [value]) {
      if (node && typeof node === 'object' && (node as { id?: unknown }).id === url) {
        const context = doc['@context'];
        return { '@context': context, ...(node as object) };
      }
    }
  }
  return document;
}
