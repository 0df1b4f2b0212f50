// Keeps the cached user in step with supabase-js: when the session ends (signed out in another tab,
// refresh token expired or revoked) the user query becomes null; a new sign-in refetches it.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { userQueryOptions } from '../api/get-user';

export function useAuthListener(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event, session) => {
      const key = userQueryOptions().queryKey;
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
    return () => data.subscription.unsubscribe();
  }, [queryClient]);
}
