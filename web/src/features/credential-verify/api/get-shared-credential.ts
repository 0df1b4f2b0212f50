// GET /api/credentials/shared/:shareId (public): a credential its holder shares (404 once they stop).
// The "Verify a credential" page opened from a share link (?shared=<shareId>) reads it this way.
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { credentialKeys } from '@/lib/query-keys';
import { isShareId } from '@/lib/shared-credential';

export function useSharedCredential(shareId: string | null) {
  return useQuery({
    queryKey: credentialKeys.shared(shareId ?? ''),
    queryFn: ({ signal }) => api.get<Record<string, unknown>>(`/credentials/shared/${encodeURIComponent(shareId!)}`, { signal }),
    enabled: isShareId(shareId),
    retry: false,
    staleTime: Infinity,
  });
}
