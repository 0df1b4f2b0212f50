// POST /api/logout revokes the session on the server; then the local session, the cached user and
// everything the device kept for the person offline (web/src/lib/offline/sign-out.ts) are cleared.
// A 401 means the session was already gone, which is still a successful logout.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';
import { loadSupabase } from '@/lib/supabase';
import { userKeys } from '@/lib/query-keys';
import { clearPersonData } from '@/lib/offline/sign-out';

export async function logout(): Promise<void> {
  let failure: unknown;
  try {
    await api.post<void>('/logout');
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) failure = error;
  }
  await (await loadSupabase()).auth.signOut({ scope: 'local' });
  // Whatever the server said: nothing of the person stays on the device.
  await clearPersonData();
  if (failure) throw failure;
}

export function useLogout(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      queryClient.setQueryData(userKeys.current, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userKeys.current[0] });
    },
    onSuccess: options.onSuccess,
    onError: options.onError,
  });
}
