// GET/POST/DELETE /api/recognition/trusted-issuers: the issuers of credentials an organisation trusts
// (?organisationId= for a national administrator; an organisation's administrator has their own).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TrustedIssuer, TrustedIssuerCreateInput } from '@shared/recognition.ts';
import { api } from '@/lib/api-client';
import { recognitionKeys } from '@/lib/query-keys';

export type { TrustedIssuer };

// Every entry at once (an organisation trusts a few issuers and names a few equivalences).
const query = (organisationId: string | null) => `?pageSize=100${organisationId ? `&organisationId=${encodeURIComponent(organisationId)}` : ''}`;

export function trustedIssuersQueryOptions(organisationId: string | null) {
  return queryOptions({
    queryKey: recognitionKeys.trustedIssuers(organisationId),
    queryFn: ({ signal }) => api.get<{ items: TrustedIssuer[] }>(`/recognition/trusted-issuers${query(organisationId)}`, { signal }),
  });
}

export const useTrustedIssuers = (organisationId: string | null, enabled = true) =>
  useQuery({ ...trustedIssuersQueryOptions(organisationId), enabled });

export function useAddTrustedIssuer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TrustedIssuerCreateInput) => api.post<TrustedIssuer>('/recognition/trusted-issuers', input),
    onSuccess: () => recognitionKeys.invalidate(queryClient),
  });
}

export function useRemoveTrustedIssuer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/recognition/trusted-issuers/${encodeURIComponent(id)}`),
    onSuccess: () => recognitionKeys.invalidate(queryClient),
  });
}
