// GET /api/notifications/deliveries: the Delivery tab's emails, newest first, by status, paged on the
// server; POST /api/notifications/:id/resend: a sent or failed email queued again.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Delivery, DeliveryPage, EmailStatus } from '@shared/notifications.ts';
import { api } from '@/lib/api-client';
import { adminKeys } from '@/lib/query-keys';

export const DELIVERY_PAGE_SIZE = 25;

export const deliveriesQueryOptions = (page: number, status: EmailStatus | null) =>
  queryOptions({
    queryKey: adminKeys.deliveries({ status, page }),
    queryFn: () => {
      const params = new URLSearchParams({ page: String(page), pageSize: String(DELIVERY_PAGE_SIZE) });
      if (status) params.set('status', status);
      return api.get<DeliveryPage>(`/notifications/deliveries?${params}`);
    },
    placeholderData: keepPreviousData,
  });

export const useDeliveries = (page: number, status: EmailStatus | null) => useQuery(deliveriesQueryOptions(page, status));

export function useResendDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<Delivery>(`/notifications/${id}/resend`),
    // Other pages and filters are stale; the page on screen is not fetched again (the tab puts the
    // answer in its row, so the row and its focused button stay where they are).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.allDeliveries(), refetchType: 'none' }),
  });
}
