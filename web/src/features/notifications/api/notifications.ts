// Notifications: the bell's list with its unread count (GET /api/notifications), marking
// one or all read, and the person's email preferences (GET/PUT /api/me/notification-preferences).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPage, NotificationPreferences, NotificationPreferencesInput } from '@shared/notifications.ts';
import { api } from '@/lib/api-client';
import { notificationKeys } from '@/lib/query-keys';

/** How many notices the bell shows. */
export const BELL_PAGE_SIZE = 10;

/** The page of /notifications. */
export const LIST_PAGE_SIZE = 20;

export function useNotifications(userId: string | null | undefined, page = 1, pageSize = BELL_PAGE_SIZE, unread = false) {
  return useQuery({
    queryKey: notificationKeys.list(userId ?? '', { page, pageSize, unread }),
    queryFn: () => {
      const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
      if (unread) params.set('unread', 'true');
      return api.get<NotificationPage>(`/notifications?${params}`);
    },
    enabled: Boolean(userId),
    placeholderData: keepPreviousData,
    // New notices arrive from the scheduler: look again every minute while the page is open.
    refetchInterval: 60_000,
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.put(`/notifications/${encodeURIComponent(id)}/read`),
    onSettled: () => notificationKeys.invalidateLists(queryClient),
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/notifications/read-all'),
    onSettled: () => notificationKeys.invalidateLists(queryClient),
  });
}

export function useNotificationPreferences(userId: string) {
  return useQuery({
    queryKey: notificationKeys.preferences(userId),
    queryFn: () => api.get<NotificationPreferences>('/me/notification-preferences'),
  });
}

export function useSaveNotificationPreferences(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationPreferencesInput) => api.put<NotificationPreferences>('/me/notification-preferences', input),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.preferences(userId), saved),
  });
}
