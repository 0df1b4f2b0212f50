// DELETE /api/courses/:id; a non-OK answer is an error (the dialog shows 'Failed to delete course').
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { courseKeys } from '@/lib/query-keys';

export const deleteCourse = (id: string) => api.delete<void>(`/courses/${encodeURIComponent(id)}`);

export function useDeleteCourse() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteCourse, onSuccess: () => courseKeys.invalidate(queryClient) });
}
