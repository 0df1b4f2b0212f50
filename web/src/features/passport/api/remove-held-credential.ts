// DELETE /api/passport/held/:id: the learner removes a credential they added.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { passportKeys, requiredTrainingKeys } from '@/lib/query-keys';

export function useRemoveHeldCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/passport/held/${encodeURIComponent(id)}`),
    onSuccess: () => Promise.all([passportKeys.invalidate(queryClient), requiredTrainingKeys.invalidate(queryClient)]),
  });
}
