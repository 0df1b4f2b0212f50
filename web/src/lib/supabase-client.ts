// supabase-js's client, loaded on demand and created once by ./supabase.ts (loadSupabase): it keeps
// the session (access and refresh tokens) in local storage and refreshes it before it expires. The
// project's URL and key come in as arguments, so this module does not import ./supabase.ts back.
import { createClient, type SupabaseClient, type SupportedStorage } from '@supabase/supabase-js';

export function createSupabaseClient(url: string, anonKey: string): SupabaseClient {
  return createClient(url, anonKey || 'missing-anon-key', {
    auth: {
      persistSession: true,
      autoRefreshToken: true,
      detectSessionInUrl: false,
    },
  });
}

/**
 * The client that signs a person in through their organisation's identity provider with the PKCE
 * flow (docs/decisions/sso-through-supabase-auth.md): only its code verifier outlives the page (in
 * local storage, for the page the provider sends the browser back to); the session it gets for the
 * code stays in memory and is handed to the app's own client, which keeps and refreshes it. The
 * app's client keeps the implicit flow, which the emailed password links need (they must work in
 * any browser, where a PKCE link works only in the one that asked for it).
 */
export function createSsoClient(url: string, anonKey: string, storageKey: string): SupabaseClient {
  const verifierKey = `${storageKey}-code-verifier`;
  const memory = new Map<string, string>();
  const storage: SupportedStorage = {
    getItem: (key) => (key === verifierKey ? window.localStorage.getItem(key) : memory.get(key) ?? null),
    setItem: (key, value) => {
      if (key === verifierKey) window.localStorage.setItem(key, value);
      else memory.set(key, value);
    },
    removeItem: (key) => {
      if (key === verifierKey) window.localStorage.removeItem(key);
      else memory.delete(key);
    },
  };
  return createClient(url, anonKey || 'missing-anon-key', {
    auth: { flowType: 'pkce', storageKey, storage, persistSession: true, autoRefreshToken: false, detectSessionInUrl: false },
  });
}
