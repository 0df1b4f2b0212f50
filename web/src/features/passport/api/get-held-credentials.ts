// GET /api/passport/held: the credentials from other issuers the learner added, as verified when
// they were added.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HeldCredential } from '@shared/recognition.ts';
import { api } from '@/lib/api-client';
import { passportKeys } from '@/lib/query-keys';

export type { HeldCredential };

export function heldCredentialsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: passportKeys.held(userId),
    queryFn: ({ signal }) => api.get<{ items: HeldCredential[]; total: number }>('/passport/held?pageSize=100', { signal }),
  });
}

export function useHeldCredentials(userId: string) {
  return useQuery(heldCredentialsQueryOptions(userId));
}
