// The signing keys: created once, kept in <dataDir>/keys.json (0600), the same after a restart.
import { afterAll, describe, expect, it } from 'vitest';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { loadKeys } from './keys.mjs';

const dirs = [];
async function scratch() {
  const dir = await mkdtemp(join(tmpdir(), 'platform-keys-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('loadKeys', () => {
  it('creates an ES256 key pair and API keys, saved with mode 0600', async () => {
    const dir = await scratch();
    const keys = await loadKeys(dir);
    expect(keys.kid).toBeTruthy();
    expect(keys.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', kid: keys.kid, alg: 'ES256', use: 'sig' });
    expect(keys.publicJwk).not.toHaveProperty('d');
    expect(keys.jwks.keys).toEqual([keys.publicJwk]);
    const info = await stat(join(dir, 'keys.json'));
    expect(info.mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(join(dir, 'keys.json'), 'utf8'));
    expect(saved.kid).toBe(keys.kid);
  });

  it('signs anon and service-role keys valid for ten years, verifiable with the JWKS', async () => {
    const keys = await loadKeys(await scratch());
    const jwks = createLocalJWKSet(keys.jwks);
    for (const [token, role] of [[keys.anonKey, 'anon'], [keys.serviceRoleKey, 'service_role']]) {
      expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: keys.kid });
      const { payload } = await jwtVerify(token, jwks);
      expect(payload).toMatchObject({ iss: 'supabase-demo', role });
      const years = (/** @type {number} */ (payload.exp) - /** @type {number} */ (payload.iat)) / (365 * 24 * 3600);
      expect(years).toBeCloseTo(10, 1);
    }
  });

  it('keeps the same keys across restarts on the same data dir, and different ones elsewhere', async () => {
    const dir = await scratch();
    const first = await loadKeys(dir);
    const second = await loadKeys(dir);
    expect(second.kid).toBe(first.kid);
    expect(second.publicJwk).toEqual(first.publicJwk);
    expect(second.anonKey).toBe(first.anonKey);
    expect(second.serviceRoleKey).toBe(first.serviceRoleKey);
    // A token signed before the restart verifies after it.
    const token = await new SignJWT({ role: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid: first.kid })
      .setExpirationTime('1h')
      .sign(first.privateKey);
    await expect(jwtVerify(token, second.publicKey)).resolves.toBeTruthy();

    const other = await loadKeys(await scratch());
    expect(other.kid).not.toBe(first.kid);
    await expect(jwtVerify(token, other.publicKey)).rejects.toThrow();
  });

  it('keeps a P-256 pair for offline SCORM manifests: the private key signs, the public one (no d) verifies', async () => {
    const dir = await scratch();
    const { scormOffline } = await loadKeys(dir);
    expect(scormOffline.privateJwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(Object.keys(scormOffline.privateJwk).sort()).toEqual(['crv', 'd', 'kty', 'x', 'y']);
    expect(Object.keys(scormOffline.publicJwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect((await loadKeys(dir)).scormOffline).toEqual(scormOffline);
    const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
    const signing = await crypto.subtle.importKey('jwk', scormOffline.privateJwk, algorithm, false, ['sign']);
    const verifying = await crypto.subtle.importKey('jwk', scormOffline.publicJwk, algorithm, false, ['verify']);
    const data = new TextEncoder().encode('{"v":1}');
    const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, signing, data);
    expect(signature.byteLength).toBe(64);
    expect(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, verifying, signature, data)).toBe(true);
  });

  it('adds the offline pair to a keys.json made before it, keeping the rest, mode 0600', async () => {
    const dir = await scratch();
    const first = await loadKeys(dir);
    const file = join(dir, 'keys.json');
    const saved = JSON.parse(await readFile(file, 'utf8'));
    delete saved.scormOffline;
    await writeFile(file, JSON.stringify(saved));
    await chmod(file, 0o644);
    const second = await loadKeys(dir);
    expect(second.kid).toBe(first.kid);
    expect(second.anonKey).toBe(first.anonKey);
    expect(second.scormOffline.publicJwk).not.toEqual(first.scormOffline.publicJwk);
    const rewritten = JSON.parse(await readFile(file, 'utf8'));
    expect(rewritten).toMatchObject({ kid: first.kid, anonKey: first.anonKey, scormOffline: second.scormOffline });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await loadKeys(dir)).scormOffline).toEqual(second.scormOffline);
  });
});
