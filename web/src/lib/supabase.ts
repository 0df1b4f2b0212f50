// The session, without supabase-js on the first load (/ must stay under 200 KB of gzipped
// JavaScript). supabase-js keeps the session as JSON in local storage under `sb-<host>-auth-token`;
// the API's bearer token is read from there synchronously while it has more than the client's own
// refresh margin left. supabase-js itself (./supabase-client.ts) is imported lazily: for sign-in,
// sign-out and refresh, and in the background whenever a session is stored (it then refreshes the
// token before it expires, as before).
import type { SupabaseClient } from '@supabase/supabase-js';

/** Base URL of the Supabase project; empty at build time means "the origin serving this page". */
// (No window when pages are rendered at build time, web/src/prerender.tsx: a placeholder origin.)
export const supabaseUrl: string =
  (import.meta.env.VITE_SUPABASE_URL as string | undefined) || (typeof window === 'undefined' ? 'http://localhost' : window.location.origin);
export const supabaseAnonKey: string = (import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined) ?? '';

if (!supabaseAnonKey) {
  console.error('VITE_SUPABASE_ANON_KEY is not set: signing in will not work.');
}

/** The local-storage key supabase-js uses by default (createClient's defaultStorageKey). */
export const sessionStorageKey = `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`;

/** supabase-js refreshes a session this long before it expires (auth-js EXPIRY_MARGIN_MS). */
const REFRESH_MARGIN_MS = 90_000;

export interface StoredSession {
  access_token: string;
  refresh_token: string;
  /** Seconds since the epoch. */
  expires_at?: number;
  user?: { id: string };
}

/** The session supabase-js has stored, read synchronously; null if there is none or it is unreadable. */
export function readStoredSession(): StoredSession | null {
  try {
    const raw = window.localStorage.getItem(sessionStorageKey);
    if (!raw) return null;
    const session = JSON.parse(raw) as Partial<StoredSession> | null;
    return session && typeof session.access_token === 'string' && typeof session.refresh_token === 'string'
      ? (session as StoredSession)
      : null;
  } catch {
    return null;
  }
}

/** The id of the user whose session is stored (null for a visitor), before the server has confirmed it. */
export function storedUserId(): string | null {
  return readStoredSession()?.user?.id ?? null;
}

let client: Promise<SupabaseClient> | null = null;
const whenLoaded = new Set<(supabase: SupabaseClient) => void>();

/** supabase-js, imported and created on first use. */
export function loadSupabase(): Promise<SupabaseClient> {
  if (!client) {
    client = import('./supabase-client').then((m) => m.createSupabaseClient(supabaseUrl, supabaseAnonKey));
    void client.then((supabase) => {
      for (const callback of whenLoaded) callback(supabase);
      whenLoaded.clear();
    });
  }
  return client;
}

let ssoClient: Promise<SupabaseClient> | null = null;

/** The client of a sign-in through an organisation's identity provider (PKCE; see
 * ./supabase-client.ts createSsoClient), imported and created on first use. */
export function loadSsoSupabase(): Promise<SupabaseClient> {
  ssoClient ??= import('./supabase-client').then((m) => m.createSsoClient(supabaseUrl, supabaseAnonKey, `${sessionStorageKey}-sso`));
  return ssoClient;
}

/** Whether supabase-js has been asked for (it then follows the session across tabs itself). */
export function supabaseRequested(): boolean {
  return client !== null;
}

/** Calls `callback` once supabase-js has been loaded (now, if it already has); returns a cancel function. */
export function onSupabaseLoaded(callback: (supabase: SupabaseClient) => void): () => void {
  let cancelled = false;
  const guarded = (supabase: SupabaseClient) => {
    if (!cancelled) callback(supabase);
  };
  if (client) void client.then(guarded);
  else whenLoaded.add(guarded);
  return () => {
    cancelled = true;
    whenLoaded.delete(guarded);
  };
}

/** The bearer token for the API: the session's access token (refreshed if it is about to expire), else the anon key. */
export async function accessToken(): Promise<string> {
  const stored = readStoredSession();
  if (!stored) return supabaseAnonKey;
  if (stored.expires_at && stored.expires_at * 1000 - Date.now() > REFRESH_MARGIN_MS) return stored.access_token;
  // Offline no refresh can succeed: the stored token still names whose cache the service worker
  // answers from (web/sw/sw.ts); the server, once reached, judges it as ever.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return stored.access_token;
  // Expired or about to: supabase-js refreshes it (or drops a session it cannot refresh).
  const { data } = await (await loadSupabase()).auth.getSession();
  return data.session?.access_token || supabaseAnonKey;
}
