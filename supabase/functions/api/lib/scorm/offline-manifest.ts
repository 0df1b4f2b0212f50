// The signed manifest of a SCORM package kept offline (_shared/offline.ts, OfflineScormManifest).
// Every package runs on one content origin, so a hostile package can write that origin's Cache
// Storage; its service worker serves a cached file only when its SHA-256 is the one a manifest signed
// here names. The private key never leaves the function.
import type { OfflineScormManifest, OfflineScormManifestPayload } from '../../../_shared/offline.ts';
import type { Config } from '../config.ts';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;

// Imported once per key (the env does not change while the function runs).
let imported: { jwk: string; key: Promise<CryptoKey | null> } | null = null;

/** The signing key of SCORM_OFFLINE_SIGNING_KEY, or null when there is none or it is not a P-256 private JWK. */
export function offlineSigningKey(config: Config): Promise<CryptoKey | null> {
  const jwk = config.scormOfflineSigningKey;
  if (!jwk) return Promise.resolve(null);
  if (imported?.jwk !== jwk) imported = { jwk, key: importSigningKey(jwk) };
  return imported.key;
}

async function importSigningKey(text: string): Promise<CryptoKey | null> {
  try {
    const { kty, crv, x, y, d } = JSON.parse(text) as JsonWebKey;
    return await crypto.subtle.importKey('jwk', { kty, crv, x, y, d }, ALGORITHM, false, ['sign']);
  } catch (error) {
    // A broken secret is the operator's to fix: said once in the log, and SCORM modules need a connection meanwhile.
    console.error('SCORM_OFFLINE_SIGNING_KEY is not a P-256 private key (JWK):', error instanceof Error ? error.message : error);
    return null;
  }
}

/** base64url without padding. */
function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The package's manifest signed with the key: `base` is the decoded pathname of its root on the content
 * origin (`contentBase`), `files` each file's path under it with its SHA-256. Null without a key.
 */
export async function signOfflineManifest(
  config: Config,
  moduleId: string,
  contentBase: string,
  files: Record<string, string>,
): Promise<OfflineScormManifest | null> {
  const key = await offlineSigningKey(config);
  if (!key) return null;
  const manifest: OfflineScormManifestPayload = { v: 1, moduleId, base: decodeURIComponent(new URL(contentBase).pathname), files };
  const payload = JSON.stringify(manifest);
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, new TextEncoder().encode(payload));
  return { payload, signature: base64url(new Uint8Array(signature)) };
}
