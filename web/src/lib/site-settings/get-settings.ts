// GET /api/settings: the public settings for the shell (site name, footer, contact). The answer
// depends on who asks (contact for signed-in users, adminEmail for admins), so the key carries the
// user id; an admin's save invalidates everything under ['settings'].
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicSettings } from '@shared/admin.ts';
import { api } from '@/lib/api-client';
import { settingsKeys } from '@/lib/query-keys';

export const getSettings = () => api.get<PublicSettings>('/settings');

export function settingsQueryOptions(userId: string | null) {
  return queryOptions({ queryKey: settingsKeys.forCaller(userId), queryFn: getSettings });
}

/** userId undefined: the user is still loading, so wait rather than fetch the visitor's answer. */
export function useSiteSettings(userId: string | null | undefined) {
  return useQuery({ ...settingsQueryOptions(userId ?? null), enabled: userId !== undefined });
}
