// POST /api/passport/held: a credential from another issuer, verified on the server before it is kept
// (400 with the reason when it does not verify; 403 when it was issued to another email address).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { passportKeys, requiredTrainingKeys } from '@/lib/query-keys';
import type { HeldCredential } from './get-held-credentials';

export function useAddHeldCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credential: Record<string, unknown>) => api.post<{ heldCredential: HeldCredential }>('/passport/held', credential),
    // A recognised credential may satisfy required training.
    onSuccess: () => Promise.all([passportKeys.invalidate(queryClient), requiredTrainingKeys.invalidate(queryClient)]),
  });
}
