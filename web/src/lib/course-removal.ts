// Removing a course, shared by the course manager and the admin's Courses tab: GET
// /api/courses/:id/deletion (whether a delete deletes the course or, as it has learner records, must
// archive it), DELETE /api/courses/:id, and POST /api/courses/:id/archive and /restore.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CourseDeletion } from '@shared/authoring.ts';
import { api } from '@/lib/api-client';
import { adminKeys, courseKeys } from '@/lib/query-keys';

const path = (id: string) => `/courses/${encodeURIComponent(id)}`;

export const courseDeletionQueryOptions = (id: string) =>
  // Always asked afresh: a learner may have enrolled since the list was read.
  queryOptions({ queryKey: courseKeys.deletion(id), queryFn: () => api.get<CourseDeletion>(`${path(id)}/deletion`), staleTime: 0 });

export const useCourseDeletion = (id: string | null) =>
  useQuery({ ...courseDeletionQueryOptions(id ?? ''), enabled: id !== null });

function useCourseWrite<TResult>(fn: (id: string) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([courseKeys.invalidate(queryClient), adminKeys.invalidate(queryClient)]);
    },
  });
}

export const useDeleteCourse = () => useCourseWrite((id: string) => api.delete<void>(path(id)));
export const useArchiveCourse = () => useCourseWrite((id: string) => api.post<unknown>(`${path(id)}/archive`));
export const useRestoreCourse = () => useCourseWrite((id: string) => api.post<unknown>(`${path(id)}/restore`));
