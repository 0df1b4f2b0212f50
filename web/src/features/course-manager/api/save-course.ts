// POST /api/courses (create) and PUT /api/courses/:id (update) with the course manager form's
// values; then every course list is refetched.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CourseManagerValues } from '@shared/authoring.ts';
import { api } from '@/lib/api-client';
import { courseKeys } from '@/lib/query-keys';
import type { ManagedCourse } from './get-managed-courses';

/** The dialog's values with the Welsh title and description (null: none; on an update, null clears them). */
export type CourseManagerBody = CourseManagerValues & { titleCy: string | null; descriptionCy: string | null };

export const createCourse = (values: CourseManagerBody) => api.post<ManagedCourse>('/courses', values);
export const updateCourse = ({ id, values }: { id: string; values: CourseManagerBody }) =>
  api.put<ManagedCourse>(`/courses/${encodeURIComponent(id)}`, values);

export function useCreateCourse() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createCourse, onSuccess: () => courseKeys.invalidate(queryClient) });
}

export function useUpdateCourse() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateCourse, onSuccess: () => courseKeys.invalidate(queryClient) });
}
