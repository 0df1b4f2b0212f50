// The one supabase-js client: it keeps the session (access and refresh tokens) in local storage and
// refreshes it. The API client reads the access token from here.
import { createClient } from '@supabase/supabase-js';

/** Base URL of the Supabase project; empty at build time means "the origin serving this page". */
export const supabaseUrl: string = (import.meta.env.VITE_SUPABASE_URL as string | undefined) || window.location.origin;
export const supabaseAnonKey: string = (import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined) ?? '';

if (!supabaseAnonKey) {
  console.error('VITE_SUPABASE_ANON_KEY is not set: signing in will not work.');
}

export const supabase = createClient(supabaseUrl, supabaseAnonKey || 'missing-anon-key', {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: false,
  },
});
