// PUT /api/profile/password {currentPassword, newPassword, confirmPassword}: 204 when changed, or
// 200 {session} when Auth ended this session (one over 24 hours old, under its secure password
// change) and the browser carries on with the new one.
import { useMutation } from '@tanstack/react-query';
import type { AuthSession } from '@shared/domain.ts';
import type { PasswordChangeInput } from '@shared/profile.ts';
import { api } from '@/lib/api-client';
import { loadSupabase } from '@/lib/supabase';

async function changePassword(input: PasswordChangeInput): Promise<void> {
  const answer = await api.put<{ session?: AuthSession } | undefined>('/profile/password', input);
  if (answer?.session) {
    const { error } = await (await loadSupabase()).auth.setSession(answer.session);
    if (error) throw error;
  }
}

export function useChangePassword(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: options.onSuccess,
    onError: options.onError,
  });
}
