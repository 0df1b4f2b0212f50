// Issuers: their URLs, public profile and key documents, their signing keys (made on first use,
// rotated by an administrator, retired keys kept for verification) and their signed status lists.
// The secret half of a key is read only here, through the function's service_role connection, and
// never leaves this module except as a signer.
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import * as vc from '@digitalbazaar/vc';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import { createCredential, createList } from '@digitalbazaar/vc-bitstring-status-list';
import type { Statements } from '../db.ts';
import { ASSERTION_METHOD_TERM, MULTIKEY_V1, OB_V3P0_3, VC_V2 } from './contexts.ts';

export const NATIONAL_ISSUER = 'national';
export const ISSUER_ID = /^(national|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** Where this platform's credential documents live: `${apiBase}/issuers/...`. */
export interface Urls {
  apiBase: string;
  siteUrl: string;
}

export const issuerUrl = (urls: Urls, issuerId: string) => `${urls.apiBase}/issuers/${issuerId}`;
export const keyUrl = (urls: Urls, issuerId: string, keyId: string) => `${issuerUrl(urls, issuerId)}/keys/${keyId}`;
export const statusListUrl = (urls: Urls, issuerId: string, listId: string) =>
  `${issuerUrl(urls, issuerId)}/status/${listId}`;
export const issuerImageUrl = (urls: Urls, issuerId: string) => `${issuerUrl(urls, issuerId)}/image.png`;
export const sharedCredentialUrl = (urls: Urls, shareId: string) => `${urls.apiBase}/credentials/shared/${shareId}`;

export interface PublicKeyRow {
  id: string;
  publicKeyMultibase: string;
  createdAt: Date;
  retiredAt: Date | null;
}

/** The issuer's name, or null for an unknown issuer. */
export async function issuerName(sql: Statements, issuerId: string): Promise<string | null> {
  const [row] = await sql<{ name: string }[]>`select name from private.issuer_profile(${issuerId})`;
  return row?.name ?? null;
}

export async function publicKeys(sql: Statements, issuerId: string): Promise<PublicKeyRow[]> {
  return await sql<PublicKeyRow[]>`
    select id, public_key_multibase as "publicKeyMultibase", created_at as "createdAt", retired_at as "retiredAt"
    from private.issuer_public_keys(${issuerId})`;
}

/** The Multikey document of a key (controller = the issuer's profile). */
export function keyDocument(urls: Urls, issuerId: string, key: PublicKeyRow, withContext = true) {
  return {
    ...(withContext ? { '@context': MULTIKEY_V1 } : {}),
    id: keyUrl(urls, issuerId, key.id),
    type: 'Multikey',
    controller: issuerUrl(urls, issuerId),
    publicKeyMultibase: key.publicKeyMultibase,
  };
}

/** The issuer's Open Badges Profile with its keys (current and retired) as its assertion methods:
 * a retired key still verifies what it signed before rotation. */
export function issuerProfile(urls: Urls, issuerId: string, name: string, keys: PublicKeyRow[]) {
  return {
    '@context': [VC_V2, OB_V3P0_3, MULTIKEY_V1, ASSERTION_METHOD_TERM],
    id: issuerUrl(urls, issuerId),
    type: ['Profile'],
    name,
    url: urls.siteUrl,
    image: { id: issuerImageUrl(urls, issuerId), type: 'Image' },
    assertionMethod: keys.map((key) => keyDocument(urls, issuerId, key, false)),
  };
}

/** The issuer profile embedded in its credentials. */
export const credentialIssuer = (urls: Urls, issuerId: string, name: string) => ({
  id: issuerUrl(urls, issuerId),
  type: ['Profile'],
  name,
  url: urls.siteUrl,
  image: { id: issuerImageUrl(urls, issuerId), type: 'Image' },
});

export interface Signer {
  keyId: string;
  verificationMethod: string;
  suite: unknown;
}

/** The issuer's current key as a Data Integrity suite (eddsa-rdfc-2022), made on first use.
 * `sql` must be the function's service_role connection. */
export async function currentSigner(sql: Statements, urls: Urls, issuerId: string): Promise<Signer> {
  let [row] = await sql<{ id: string; publicKeyMultibase: string; secretKeyMultibase: string }[]>`
    select id, public_key_multibase as "publicKeyMultibase", secret_key_multibase as "secretKeyMultibase"
    from private.issuer_keys where issuer_id = ${issuerId} and retired_at is null`;
  if (!row) {
    await addKey(sql, issuerId, false);
    [row] = await sql<{ id: string; publicKeyMultibase: string; secretKeyMultibase: string }[]>`
      select id, public_key_multibase as "publicKeyMultibase", secret_key_multibase as "secretKeyMultibase"
      from private.issuer_keys where issuer_id = ${issuerId} and retired_at is null`;
  }
  const verificationMethod = keyUrl(urls, issuerId, row.id);
  const key = await Ed25519Multikey.from({
    '@context': MULTIKEY_V1,
    id: verificationMethod,
    type: 'Multikey',
    controller: issuerUrl(urls, issuerId),
    publicKeyMultibase: row.publicKeyMultibase,
    secretKeyMultibase: row.secretKeyMultibase,
  });
  return { keyId: row.id, verificationMethod, suite: new DataIntegrityProof({ signer: key.signer(), cryptosuite }) };
}

/** Makes a new Ed25519 key for the issuer; with `retire`, the current one is retired first
 * (rotation). Two first uses at once: the second insert finds the unique current key and does nothing. */
export async function addKey(sql: Statements, issuerId: string, retire: boolean): Promise<PublicKeyRow> {
  const key = await Ed25519Multikey.generate();
  const exported = await key.export({ publicKey: true, secretKey: true });
  if (retire) {
    await sql`update private.issuer_keys set retired_at = now() where issuer_id = ${issuerId} and retired_at is null`;
  }
  const [row] = await sql<PublicKeyRow[]>`
    insert into private.issuer_keys (issuer_id, public_key_multibase, secret_key_multibase)
    values (${issuerId}, ${exported.publicKeyMultibase}, ${exported.secretKeyMultibase})
    on conflict (issuer_id) where retired_at is null do nothing
    returning id, public_key_multibase as "publicKeyMultibase", created_at as "createdAt", retired_at as "retiredAt"`;
  return row;
}

export interface StatusListRow {
  issuerId: string;
  size: number;
  revoked: number[];
}

export async function statusListRow(sql: Statements, listId: string): Promise<StatusListRow | null> {
  const [row] = await sql<StatusListRow[]>`
    select issuer_id as "issuerId", size, revoked from private.status_list_revoked(${listId}::uuid)`;
  return row ?? null;
}

/** The signed BitstringStatusListCredential (revocation) of a list. `sql`: service_role. */
export async function statusListCredential(
  sql: Statements,
  urls: Urls,
  listId: string,
  list: StatusListRow,
  documentLoader: unknown,
) {
  const bits = await createList({ length: list.size });
  for (const index of list.revoked) bits.setStatus(index, true);
  const id = statusListUrl(urls, list.issuerId, listId);
  const credential = await createCredential({ id, list: bits, statusPurpose: 'revocation' });
  const signer = await currentSigner(sql, urls, list.issuerId);
  return await vc.issue({
    credential: { ...credential, issuer: issuerUrl(urls, list.issuerId), validFrom: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') },
    suite: signer.suite,
    documentLoader,
  });
}
