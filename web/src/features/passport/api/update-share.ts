// PATCH /api/passport/:credentialId {shareEnabled}: the credential's public share link on or off.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { passportKeys } from '@/lib/query-keys';

export function useUpdateShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, shareEnabled }: { id: string; shareEnabled: boolean }) =>
      api.patch<{ id: string; shareEnabled: boolean; shareUrl: string | null }>(`/passport/${encodeURIComponent(id)}`, { shareEnabled }),
    onSuccess: () => passportKeys.invalidate(queryClient),
  });
}
