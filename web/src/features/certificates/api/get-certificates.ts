// GET /api/certificates: the signed-in learner's certificates, a page at a time; scope current (the
// latest of each course, the default here), history (earlier ones) or all.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CertificateScope, LearnerCertificate } from '@shared/certificates.ts';
import { api } from '@/lib/api-client';
import { certificateKeys } from '@/lib/query-keys';

export type Certificate = LearnerCertificate;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export const CERTIFICATES_PAGE_SIZE = 12;

export function certificatesQueryOptions(page = 1, pageSize = CERTIFICATES_PAGE_SIZE, scope: CertificateScope = 'current') {
  return queryOptions({
    queryKey: certificateKeys.list({ page, pageSize, scope }),
    queryFn: ({ signal }) =>
      api.get<Page<Certificate>>(`/certificates?scope=${scope}&page=${page}&pageSize=${pageSize}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCertificates(page = 1, pageSize = CERTIFICATES_PAGE_SIZE, scope: CertificateScope = 'current') {
  return useQuery(certificatesQueryOptions(page, pageSize, scope));
}
