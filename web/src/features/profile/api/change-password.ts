// PUT /api/profile/password {currentPassword, newPassword, confirmPassword}: 204 when changed.
import { useMutation } from '@tanstack/react-query';
import type { PasswordChangeInput } from '@shared/profile.ts';
import { api } from '@/lib/api-client';

export function useChangePassword(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  return useMutation({
    mutationFn: (input: PasswordChangeInput) => api.put<void>('/profile/password', input),
    onSuccess: options.onSuccess,
    onError: options.onError,
  });
}
