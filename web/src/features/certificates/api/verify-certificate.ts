// GET /api/certificates/verify/:code: public; 404 means no certificate has that code. The answer
// says whether it is valid (and until when), expired (since when) or revoked (on which date).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VerifiedCertificate } from '@shared/certificates.ts';
import { api, ApiError } from '@/lib/api-client';
import { certificateKeys } from '@/lib/query-keys';

export type { VerifiedCertificate };

export async function verifyCertificate(code: string): Promise<VerifiedCertificate | null> {
  try {
    return await api.get<VerifiedCertificate>(`/certificates/verify/${encodeURIComponent(code)}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function verifyCertificateQueryOptions(code: string) {
  return queryOptions({
    queryKey: certificateKeys.verify(code),
    queryFn: () => verifyCertificate(code),
  });
}

export function useVerifyCertificate(code: string) {
  return useQuery(verifyCertificateQueryOptions(code));
}
