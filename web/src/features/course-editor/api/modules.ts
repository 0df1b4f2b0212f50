// GET /api/courses/:courseId/modules (the same cache entry as the course outline) and the module
// writes: create, update, delete, reorder, image.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CourseModule } from '@shared/catalogue.ts';
import type { ModuleCreateBody, ModuleUpdateInput, ScormModuleCreateBody } from '@shared/authoring.ts';
import { api } from '@/lib/api-client';
import { courseModulesQueryOptions } from '@/lib/courses';
import { courseKeys } from '@/lib/query-keys';

export function useModules(courseId: string | undefined) {
  return useQuery({ ...courseModulesQueryOptions(courseId ?? ''), enabled: Boolean(courseId) });
}

/** After any module change: the module list and the course (its module count) are refetched. */
function useRefreshCourse(courseId: string) {
  const queryClient = useQueryClient();
  // Returned, so the mutation settles only once the list is fresh (the next module's default order).
  return () => courseKeys.invalidateOutline(queryClient, courseId);
}

export function useCreateModule(courseId: string) {
  const refresh = useRefreshCourse(courseId);
  return useMutation({
    mutationFn: (input: ModuleCreateBody | ScormModuleCreateBody | (ModuleCreateBody & { kind: 'session' | 'assessment' })) => api.post<CourseModule>(`/courses/${courseId}/modules`, { ...input, courseId }),
    onSuccess: refresh,
  });
}

export function useUpdateModule(courseId: string) {
  const refresh = useRefreshCourse(courseId);
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ModuleUpdateInput }) => api.put<CourseModule>(`/modules/${id}`, input),
    onSuccess: refresh,
  });
}

export function useDeleteModule(courseId: string) {
  const refresh = useRefreshCourse(courseId);
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/modules/${id}`),
    onSuccess: refresh,
  });
}

export function useReorderModules(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (moduleIds: string[]) => api.put<CourseModule[]>(`/courses/${courseId}/modules/reorder`, { moduleIds }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: courseKeys.modules(courseId) }),
  });
}

export function useUploadModuleImage(courseId: string) {
  const refresh = useRefreshCourse(courseId);
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) => {
      const form = new FormData();
      form.append('moduleImage', file);
      return api.post<CourseModule>(`/modules/${id}/images`, form);
    },
    onSuccess: refresh,
  });
}
