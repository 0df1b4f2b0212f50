// PUT /api/profile {name, email}: answers the updated user.
import { useMutation } from '@tanstack/react-query';
import type { User } from '@shared/domain.ts';
import type { ProfileInput } from '@shared/profile.ts';
import { api } from '@/lib/api-client';

export function useUpdateProfile(options: { onSuccess?: (user: User) => void; onError?: (error: Error) => void } = {}) {
  return useMutation({
    mutationFn: (input: ProfileInput) => api.put<User>('/profile', input),
    onSuccess: options.onSuccess,
    onError: options.onError,
  });
}
