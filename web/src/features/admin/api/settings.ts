// The Settings tab reads the admin's view of GET /api/settings (with adminEmail) and saves with PUT;
// the shell's settings (site name, footer) refresh from the same keys.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PublicSettings, SettingsInput } from '@shared/admin.ts';
import { api } from '@/lib/api-client';
import { adminKeys, settingsKeys } from '@/lib/query-keys';

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SettingsInput) => api.put<PublicSettings>('/settings', input),
    onSuccess: async () => {
      await Promise.all([settingsKeys.invalidate(queryClient), adminKeys.invalidate(queryClient)]);
    },
  });
}
