// A shared credential's two addresses: the API's (GET /api/credentials/shared/:shareId, the JSON
// itself) and the page that shows it checked (/verify-credential?shared=<shareId>), which is the link
// a learner gives out.
import { apiBaseUrl } from './api-client';

const SHARE_ID = /^[A-Za-z0-9_-]{8,128}$/;

export function isShareId(value: string | null | undefined): value is string {
  return typeof value === 'string' && SHARE_ID.test(value);
}

/** The share id at the end of a share URL of this site's API, or null for any other address. */
export function shareIdOf(url: string | null | undefined, apiBase = apiBaseUrl): string | null {
  const prefix = `${apiBase}/credentials/shared/`;
  if (!url?.startsWith(prefix)) return null;
  const id = url.slice(prefix.length);
  return isShareId(id) ? id : null;
}

/** The page that checks the shared credential, for people (its JSON stays at the API's address). */
export function sharePageUrl(shareUrl: string, origin = window.location.origin): string {
  const id = shareIdOf(shareUrl);
  return id ? `${origin}/verify-credential?shared=${id}` : shareUrl;
}
