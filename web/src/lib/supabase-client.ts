// The one supabase-js client, loaded on demand (see ./supabase.ts): it keeps the session (access and
// refresh tokens) in local storage and refreshes it before it expires.
import { createClient } from '@supabase/supabase-js';
import { supabaseAnonKey, supabaseUrl } from './supabase';

export const supabase = createClient(supabaseUrl, supabaseAnonKey || 'missing-anon-key', {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: false,
  },
});
