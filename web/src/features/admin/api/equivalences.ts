// GET/POST/DELETE /api/recognition/equivalences: the achievements of trusted issuers an organisation
// accepts as equivalent to its own required courses.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Equivalence, EquivalenceCreateInput } from '@shared/recognition.ts';
import { api } from '@/lib/api-client';
import { recognitionKeys } from '@/lib/query-keys';

export type { Equivalence };

// Every entry at once (an organisation trusts a few issuers and names a few equivalences).
const query = (organisationId: string | null) => `?pageSize=100${organisationId ? `&organisationId=${encodeURIComponent(organisationId)}` : ''}`;

export function equivalencesQueryOptions(organisationId: string | null) {
  return queryOptions({
    queryKey: recognitionKeys.equivalences(organisationId),
    queryFn: ({ signal }) => api.get<{ items: Equivalence[] }>(`/recognition/equivalences${query(organisationId)}`, { signal }),
  });
}

export const useEquivalences = (organisationId: string | null, enabled = true) =>
  useQuery({ ...equivalencesQueryOptions(organisationId), enabled });

export function useAddEquivalence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EquivalenceCreateInput) => api.post<Equivalence>('/recognition/equivalences', input),
    onSuccess: () => recognitionKeys.invalidate(queryClient),
  });
}

export function useRemoveEquivalence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/recognition/equivalences/${encodeURIComponent(id)}`),
    onSuccess: () => recognitionKeys.invalidate(queryClient),
  });
}
