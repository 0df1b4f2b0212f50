// GET /api/admin/certificates (search by learner name or verification code, paged on the server)
// and POST /api/admin/certificates/:id/revoke {reason}: the admin's Certificates tab.
import { keepPreviousData, type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminCertificate } from '@shared/certificates.ts';
import type { Paged } from '@shared/admin.ts';
import { api } from '@/lib/api-client';
import { adminKeys, certificateKeys, enrollmentKeys } from '@/lib/query-keys';

export const CERTIFICATES_PAGE_SIZE = 20;

export function adminCertificatesQueryOptions({ search, page }: { search: string; page: number }) {
  const filters = { search: search.trim(), page, pageSize: CERTIFICATES_PAGE_SIZE };
  return queryOptions({
    queryKey: adminKeys.certificates(filters),
    queryFn: () => {
      const params = new URLSearchParams({ page: String(page), pageSize: String(CERTIFICATES_PAGE_SIZE) });
      if (filters.search) params.set('search', filters.search);
      return api.get<Paged<AdminCertificate>>(`/admin/certificates?${params}`);
    },
    placeholderData: keepPreviousData,
  });
}

export const useAdminCertificates = (filters: { search: string; page: number }) => useQuery(adminCertificatesQueryOptions(filters));

export function useRevokeCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api.post<AdminCertificate>(`/admin/certificates/${encodeURIComponent(id)}/revoke`, { reason }),
    // The list and the activity trail follow; so do the learner's own views if they are this admin's.
    onSuccess: () => invalidateCertificate(queryClient),
  });
}

/** POST /api/admin/certificates/:id/reissue: same code, the learner's name and course as they are now. */
export function useReissueCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<AdminCertificate>(`/admin/certificates/${encodeURIComponent(id)}/reissue`, {}),
    onSuccess: () => invalidateCertificate(queryClient),
  });
}

const invalidateCertificate = (queryClient: QueryClient) =>
  Promise.all([adminKeys.invalidate(queryClient), certificateKeys.invalidate(queryClient), enrollmentKeys.invalidate(queryClient)]);
