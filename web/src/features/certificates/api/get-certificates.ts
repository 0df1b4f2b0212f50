// GET /api/certificates: the signed-in learner's certificates, a page at a time.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface Certificate {
  id: string;
  verificationCode: string;
  userId: string | null;
  courseId: string | null;
  learnerName: string;
  courseTitle: string;
  service: string | null;
  serviceLabel: string | null;
  template: string;
  issuedAt: string;
  verifyPath: string;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export const CERTIFICATES_PAGE_SIZE = 12;

export function certificatesQueryOptions(page = 1, pageSize = CERTIFICATES_PAGE_SIZE) {
  return queryOptions({
    queryKey: ['certificates', { page, pageSize }],
    queryFn: ({ signal }) => api.get<Page<Certificate>>(`/certificates?page=${page}&pageSize=${pageSize}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCertificates(page = 1, pageSize = CERTIFICATES_PAGE_SIZE) {
  return useQuery(certificatesQueryOptions(page, pageSize));
}
