// GET /api/modules/:id (content, previous/next) and POST /api/modules/:id/complete (mark read).
// Offline, marking a module read is kept in the learner's queue (web/src/lib/offline/queue.ts) and
// sent when the connection is back: the mutation then answers null instead of the enrolment.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ModuleDetail } from '@shared/catalogue.ts';
import type { Enrollment } from '@shared/enrollment.ts';
import { api, OfflineError } from '@/lib/api-client';
import { invalidateLearning, moduleKeys, offlineKeys } from '@/lib/query-keys';
import { queueItem } from '@/lib/offline/queue';
import { storedUserId } from '@/lib/supabase';

export const getModule = (id: string) => api.get<ModuleDetail>(`/modules/${id}`);
export const moduleQueryOptions = (id: string) => queryOptions({ queryKey: moduleKeys.detail(id), queryFn: () => getModule(id) });
export const useModule = (id: string) => useQuery(moduleQueryOptions(id));

export const completeModule = (id: string) => api.post<Enrollment>(`/modules/${id}/complete`);

/** Marks the module read: the enrolment as the server computed it, or null when kept offline. */
async function completeOrQueue(id: string): Promise<Enrollment | null> {
  try {
    return await completeModule(id);
  } catch (error) {
    const personId = storedUserId();
    if (!(error instanceof OfflineError) || !personId) throw error;
    await queueItem(personId, { kind: 'module-read', moduleId: id });
    return null;
  }
}

export function useCompleteModule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeOrQueue,
    onSuccess: (enrollment) => (enrollment ? invalidateLearning(queryClient) : offlineKeys.invalidate(queryClient)),
  });
}
