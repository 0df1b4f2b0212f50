// Signing keys of the local platform: one ES256 key pair created on the first start and kept in
// <dataDir>/keys.json, so tokens (and the anon/service-role keys baked into a built web app) stay
// valid across restarts. The anon and service-role keys are long-lived JWTs signed with it, as the
// Supabase CLI's demo keys are. Beside it, the ECDSA P-256 pair that signs the manifests of SCORM
// packages kept offline (the function holds the private key, the content origin the public one).
import { mkdir, readFile, rename, writeFile, chmod } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';

const TEN_YEARS = 10 * 365 * 24 * 3600;

/**
 * @typedef {object} Keys
 * @property {string} kid key id, in every token's header
 * @property {CryptoKey} privateKey ES256 private key (signing)
 * @property {CryptoKey} publicKey ES256 public key (verifying)
 * @property {import('jose').JWK} publicJwk public key as a JWK (with kid, alg, use)
 * @property {{ keys: import('jose').JWK[] }} jwks the JSON Web Key Set served by auth
 * @property {string} anonKey ES256 JWT with role anon
 * @property {string} serviceRoleKey ES256 JWT with role service_role
 * @property {{ privateJwk: import('jose').JWK, publicJwk: import('jose').JWK }} scormOffline the pair that signs
 *   offline SCORM manifests: the private JWK (kty, crv, x, y, d) for the function's SCORM_OFFLINE_SIGNING_KEY,
 *   the public one (kty, crv, x, y) for the content origin
 */

/**
 * Loads the key pairs from <dataDir>/keys.json, creating them (mode 0600) the first time; a file
 * made before the SCORM offline pair existed gets it added.
 * @param {string} dataDir
 * @returns {Promise<Keys>}
 */
export async function loadKeys(dataDir) {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, 'keys.json');
  /** @type {{ kid: string, privateJwk: import('jose').JWK, publicJwk: import('jose').JWK, anonKey?: string, serviceRoleKey?: string,
   *   scormOffline?: { privateJwk: import('jose').JWK, publicJwk: import('jose').JWK } }} */
  let stored;
  try {
    stored = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOENT') throw error;
    const pair = await generateKeyPair('ES256', { extractable: true });
    const kid = randomUUID();
    stored = {
      kid,
      privateJwk: await exportJWK(pair.privateKey),
      publicJwk: await exportJWK(pair.publicKey),
    };
    const privateKey = /** @type {CryptoKey} */ (await importJWK(stored.privateJwk, 'ES256'));
    stored.anonKey = await signApiKey(privateKey, kid, 'anon');
    stored.serviceRoleKey = await signApiKey(privateKey, kid, 'service_role');
    stored.scormOffline = await offlinePair();
    await save(file, stored);
  }
  if (!stored.scormOffline) {
    stored.scormOffline = await offlinePair();
    await save(file, stored);
  }
  const { kid } = stored;
  const privateKey = /** @type {CryptoKey} */ (await importJWK(stored.privateJwk, 'ES256'));
  const publicKey = /** @type {CryptoKey} */ (await importJWK(stored.publicJwk, 'ES256'));
  const publicJwk = { ...stored.publicJwk, kid, alg: 'ES256', use: 'sig' };
  const anonKey = stored.anonKey ?? (await signApiKey(privateKey, kid, 'anon'));
  const serviceRoleKey = stored.serviceRoleKey ?? (await signApiKey(privateKey, kid, 'service_role'));
  const scormOffline = { privateJwk: stored.scormOffline.privateJwk, publicJwk: stored.scormOffline.publicJwk };
  return { kid, privateKey, publicKey, publicJwk, jwks: { keys: [publicJwk] }, anonKey, serviceRoleKey, scormOffline };
}

/** A new ECDSA P-256 pair as JWKs: the private one (with d) and the public one (kty, crv, x, y only). */
async function offlinePair() {
  const pair = await generateKeyPair('ES256', { extractable: true });
  const { kty, crv, x, y, d } = await exportJWK(pair.privateKey);
  return { privateJwk: { kty, crv, x, y, d }, publicJwk: { kty, crv, x, y } };
}

/** Writes keys.json whole (a temporary file renamed over it, so nobody reads half a file), mode 0600. */
async function save(file, stored) {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

/**
 * @param {CryptoKey} privateKey
 * @param {string} kid
 * @param {'anon' | 'service_role'} role
 */
async function signApiKey(privateKey, kid, role) {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: 'supabase-demo', role })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid })
    .setIssuedAt(iat)
    .setExpirationTime(iat + TEN_YEARS)
    .sign(privateKey);
}
