// An organisation's automatic provisioning (SCIM 2.0): GET /api/organisations/:id/scim (the base URL
// and the tokens), POST …/scim/tokens (a new token, shown once) and DELETE …/scim/tokens/:tokenId
// (revoked at once; the row stays, with when).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedScimToken, ScimSettings, ScimTokenCreateInput, ScimTokenItem } from '@shared/scim.ts';
import { api } from '@/lib/api-client';
import { organisationKeys } from '@/lib/query-keys';

export const useScimSettings = (organisationId: string) =>
  useQuery({
    queryKey: organisationKeys.scim(organisationId),
    queryFn: () => api.get<ScimSettings>(`/organisations/${organisationId}/scim`),
  });

export function useCreateScimToken(organisationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScimTokenCreateInput) => api.post<CreatedScimToken>(`/organisations/${organisationId}/scim/tokens`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organisationKeys.scim(organisationId) }),
  });
}

export function useRevokeScimToken(organisationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => api.delete<ScimTokenItem>(`/organisations/${organisationId}/scim/tokens/${tokenId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organisationKeys.scim(organisationId) }),
  });
}
