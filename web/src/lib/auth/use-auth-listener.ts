// Keeps the cached user in step with the session: when it ends (signed out in another tab, refresh
// token expired or revoked) the user query becomes null; a new sign-in refetches it. supabase-js is
// loaded in the background when a session is stored (so it refreshes the token before expiry) or
// when one is signed in; until then a sign-in in another tab is noticed through the storage event.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { loadSupabase, onSupabaseLoaded, readStoredSession, sessionStorageKey, supabaseRequested } from '@/lib/supabase';
import { userKeys } from '@/lib/query-keys';

export function useAuthListener(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const key = userKeys.current;
    let unsubscribe = () => {};
    const stopWaiting = onSupabaseLoaded((supabase) => {
      const { data } = supabase.auth.onAuthStateChange((event, session) => {
        if (event === 'SIGNED_OUT' || (event !== 'INITIAL_SESSION' && !session)) {
          if (queryClient.getQueryData(key) !== null) queryClient.setQueryData(key, null);
        } else if (event === 'SIGNED_IN' && session) {
          const current = queryClient.getQueryData<{ id: string } | null>(key);
          // Sign-in from another tab: this tab's cache does not know the user yet.
          if (!current || current.id !== session.user.id) {
            setTimeout(() => void queryClient.invalidateQueries({ queryKey: key }), 0);
          }
        }
      });
      unsubscribe = () => data.subscription.unsubscribe();
    });
    if (readStoredSession()) void loadSupabase();

    // Before supabase-js is loaded (a visitor's tab), a session stored by another tab arrives here.
    const onStorage = (event: StorageEvent) => {
      if (event.key !== sessionStorageKey || !event.newValue || supabaseRequested()) return;
      void loadSupabase();
      void queryClient.invalidateQueries({ queryKey: key });
    };
    window.addEventListener('storage', onStorage);
    return () => {
      stopWaiting();
      unsubscribe();
      window.removeEventListener('storage', onStorage);
    };
  }, [queryClient]);
}
