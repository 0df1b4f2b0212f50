// The one builder of the content origin's offline service worker, used by the local content
// server (platform/gateway.mjs) and the hosted content host (deploy/scorm-content-host/main.ts).
// It bakes into offline-sw.js what the SW must not take from anything a package could write:
// the public key that verifies the signed manifests, the SHA-256 of the player's files and the
// headers of its answers (docs/decisions/scorm-offline-integrity.md).

/** The SW's path under the bucket's prefix, and the scope it is allowed (the whole bucket). */
export const OFFLINE_SW_NAME = 'offline-sw.js';
export const OFFLINE_SW_SCOPE = '/storage/v1/object/public/scorm-content/';

/** The `_player/` files used offline (the launcher, and the offline page that removes what is kept); their hashes are baked in. */
export const OFFLINE_PLAYER_FILES = ['launcher.html', 'launcher.js', 'scorm12.min.js', 'scorm2004.min.js', 'offline.html', 'offline.js'];

const MARKER = '/* baked */ null';

/** @param {Uint8Array} bytes @returns {Promise<string>} lowercase hex */
export async function sha256Hex(bytes) {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The public half of a P-256 JWK, or an error: only kty, crv, x and y are ever baked, so a private
 * key configured by mistake never reaches a browser.
 * @param {unknown} jwk
 * @returns {{ kty: 'EC', crv: 'P-256', x: string, y: string }}
 */
export function publicP256Jwk(jwk) {
  const key = /** @type {Record<string, unknown>} */ (jwk && typeof jwk === 'object' ? jwk : {});
  if (key.kty !== 'EC' || key.crv !== 'P-256' || typeof key.x !== 'string' || typeof key.y !== 'string') {
    throw new Error('The SCORM offline public key must be a P-256 JWK (kty EC, crv P-256, x, y).');
  }
  return { kty: 'EC', crv: 'P-256', x: key.x, y: key.y };
}

/**
 * The SW script: the template with its baked values.
 * @param {{ template: string, publicJwk: unknown, playerFiles: Record<string, Uint8Array>,
 *   csp: string, contentTypes: Record<string, string> }} options
 *   playerFiles: the bytes of the OFFLINE_PLAYER_FILES being served (one absent is never served offline).
 * @returns {Promise<string>}
 */
export async function buildOfflineSw({ template, publicJwk, playerFiles, csp, contentTypes }) {
  const at = template.indexOf(MARKER);
  if (at < 0 || template.indexOf(MARKER, at + 1) >= 0) throw new Error(`The SW template must hold ${MARKER} once.`);
  /** @type {Record<string, string>} */
  const player = {};
  for (const name of OFFLINE_PLAYER_FILES) {
    if (Object.prototype.hasOwnProperty.call(playerFiles, name)) player[name] = await sha256Hex(playerFiles[name]);
  }
  const baked = { publicKey: publicP256Jwk(publicJwk), player, csp, contentTypes };
  return template.slice(0, at) + JSON.stringify(baked) + template.slice(at + MARKER.length);
}

/** The headers only the SW's own path carries (besides the content origin's): scope, no caching. */
export const OFFLINE_SW_HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  'cache-control': 'no-cache',
  'service-worker-allowed': OFFLINE_SW_SCOPE,
};
