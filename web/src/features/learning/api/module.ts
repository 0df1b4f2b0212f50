// GET /api/modules/:id (content, previous/next) and POST /api/modules/:id/complete (mark read).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ModuleDetail } from '@shared/catalogue.ts';
import type { Enrollment } from '@shared/enrollment.ts';
import { api } from '@/lib/api-client';
import { invalidateLearning, moduleKeys } from '@/lib/query-keys';

export const getModule = (id: string) => api.get<ModuleDetail>(`/modules/${id}`);
export const moduleQueryOptions = (id: string) => queryOptions({ queryKey: moduleKeys.detail(id), queryFn: () => getModule(id) });
export const useModule = (id: string) => useQuery(moduleQueryOptions(id));

export const completeModule = (id: string) => api.post<Enrollment>(`/modules/${id}/complete`);

export function useCompleteModule() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: completeModule, onSuccess: () => invalidateLearning(queryClient) });
}
