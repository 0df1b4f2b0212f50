// What the service worker (web/sw/sw.ts) and the app agree on: the name of a person's own cache, the
// API answers it keeps there, and the tag of the queue's Background Sync. Plain TypeScript, no DOM:
// the service worker is built from it too.

/** One cache per person: their API answers and their downloaded courses' files, deleted at sign-out. */
export const PERSON_CACHE_PREFIX = 'esl-person-';
export const personCacheName = (personId: string) => `${PERSON_CACHE_PREFIX}${personId}`;

/** The Background Sync tag under which the offline queue asks to be replayed. */
export const QUEUE_SYNC_TAG = 'esl-offline-queue';

/** The function's path prefix (`<SUPABASE_URL>/functions/v1/api`). */
export const API_PATH = '/functions/v1/api';

/**
 * Answers kept for every signed-in person, refreshed on each read: who they are, their courses and
 * their dashboard. A downloaded course's answers are kept because the download put them in the cache;
 * the service worker then refreshes them as they are read online.
 */
const ALWAYS_KEPT = [
  /^\/user$/,
  /^\/users\/[^/]+\/enrollments$/,
  /^\/me\/required-training$/,
  /^\/certificates$/,
];

export function keptAlways(apiPath: string): boolean {
  return ALWAYS_KEPT.some((pattern) => pattern.test(apiPath));
}

/** The person (the `sub` claim) of a bearer token, unverified: it only names the cache to use. */
export function personOfAuthorization(header: string | null): string | null {
  const token = header?.startsWith('Bearer ') ? header.slice(7) : null;
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as { sub?: unknown; role?: unknown };
    return claims.role === 'authenticated' && typeof claims.sub === 'string' && /^[0-9a-f-]{36}$/i.test(claims.sub) ? claims.sub : null;
  } catch {
    return null;
  }
}
