// PUT /api/profile {name, email}: answers the updated user (as GET /api/user does).
import { useMutation } from '@tanstack/react-query';
import type { CurrentUser } from '@shared/domain.ts';
import type { ProfileInput } from '@shared/profile.ts';
import { api } from '@/lib/api-client';

export function useUpdateProfile(options: { onSuccess?: (user: CurrentUser) => void; onError?: (error: Error) => void } = {}) {
  return useMutation({
    mutationFn: (input: ProfileInput) => api.put<CurrentUser>('/profile', input),
    onSuccess: options.onSuccess,
    onError: options.onError,
  });
}
