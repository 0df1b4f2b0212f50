// supabase-js's client, loaded on demand and created once by ./supabase.ts (loadSupabase): it keeps
// the session (access and refresh tokens) in local storage and refreshes it before it expires. The
// project's URL and key come in as arguments, so this module does not import ./supabase.ts back.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';

export function createSupabaseClient(url: string, anonKey: string): SupabaseClient {
  return createClient(url, anonKey || 'missing-anon-key', {
    auth: {
      persistSession: true,
      autoRefreshToken: true,
      detectSessionInUrl: false,
    },
  });
}
