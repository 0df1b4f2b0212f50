// This platform's public credential documents, answered by the routes under /api/issuers and, for
// the verifier, straight from the database: an issuer's profile, one of its keys, a status list.
import type { Statements } from '../db.ts';
import {
  ISSUER_ID, issuerName, issuerProfile, issuerUrl, keyDocument, publicKeys, statusListCredential, statusListRow,
  type Urls,
} from './issuer.ts';
import type { Db } from '../db.ts';
import { DocumentNotLoaded, type DocumentLoader, localDocumentLoader, verifierDocumentLoader } from './loader.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function profileDocument(sql: Statements, urls: Urls, issuerId: string) {
  if (!ISSUER_ID.test(issuerId)) return null;
  const name = await issuerName(sql, issuerId);
  if (name === null) return null;
  return issuerProfile(urls, issuerId, name, await publicKeys(sql, issuerId));
}

export async function keyDocumentOf(sql: Statements, urls: Urls, issuerId: string, keyId: string) {
  if (!ISSUER_ID.test(issuerId) || !UUID.test(keyId)) return null;
  const key = (await publicKeys(sql, issuerId)).find((k) => k.id === keyId);
  return key ? keyDocument(urls, issuerId, key) : null;
}

/** The signed status list credential; `sql` must be the service_role connection (it signs). */
export async function statusListDocument(sql: Statements, urls: Urls, issuerId: string, listId: string) {
  if (!ISSUER_ID.test(issuerId) || !UUID.test(listId)) return null;
  const list = await statusListRow(sql, listId);
  if (!list || list.issuerId !== issuerId) return null;
  return await statusListCredential(sql, urls, listId, list, localDocumentLoader());
}

/** The document at one of this platform's issuer URLs: null when there is none, undefined when
 * the URL is not one of this platform's. */
export async function ownDocument(sql: Statements, urls: Urls, url: string): Promise<unknown | null | undefined> {
  const prefix = `${urls.apiBase}/issuers/`;
  if (!url.startsWith(prefix)) return undefined;
  const [issuerId, kind, id, ...rest] = url.slice(prefix.length).split('/');
  if (rest.length > 0) return null;
  if (kind === undefined) return await profileDocument(sql, urls, issuerId);
  if (kind === 'keys' && id) return await keyDocumentOf(sql, urls, issuerId, id);
  if (kind === 'status' && id) return await statusListDocument(sql, urls, issuerId, id);
  return null;
}

/** The verifier's document loader on this platform: its own issuers' documents from the database
 * (the service role: a status list is signed when served), any other issuer's fetched from it. */
export function platformDocumentLoader(db: Db, urls: Urls): DocumentLoader {
  return verifierDocumentLoader((url) =>
    url.startsWith(`${urls.apiBase}/issuers/`)
      ? db.withServiceRole(async (tx) => (await ownDocument(tx, urls, url)) ?? Promise.reject(new DocumentNotLoaded(url, 'not found')))
      : Promise.resolve(undefined)
  );
}

export { issuerUrl };
