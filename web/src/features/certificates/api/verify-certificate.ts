// GET /api/certificates/verify/:code: public; 404 means no certificate has that code.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '@/lib/api-client';

export interface VerifiedCertificate {
  verificationCode: string;
  learnerName: string;
  courseTitle: string;
  service: string | null;
  serviceLabel: string | null;
  issuedAt: string;
}

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
    queryKey: ['certificates', 'verify', code.toUpperCase()],
    queryFn: () => verifyCertificate(code),
  });
}

export function useVerifyCertificate(code: string) {
  return useQuery(verifyCertificateQueryOptions(code));
}
