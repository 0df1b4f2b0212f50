// GET /api/passport/held: the credentials from other issuers the learner added, as verified when
// they were added.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { passportKeys } from '@/lib/query-keys';

export interface HeldCredential {
  id: string;
  issuerId: string;
  issuerName: string;
  achievementId: string;
  achievementName: string;
  validFrom: string | null;
  validUntil: string | null;
  /** valid: verified when added and not expired; expired; not-verified: a check failed when added. */
  state: 'valid' | 'expired' | 'not-verified';
  /** The verification's machine codes when it was added ([] when every check passed). */
  codes: string[];
  verifiedAt: string;
}

export function heldCredentialsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: passportKeys.held(userId),
    queryFn: ({ signal }) => api.get<{ items: HeldCredential[] }>('/passport/held', { signal }),
  });
}

export function useHeldCredentials(userId: string) {
  return useQuery(heldCredentialsQueryOptions(userId));
}
