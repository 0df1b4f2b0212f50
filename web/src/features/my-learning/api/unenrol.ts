// DELETE /api/enrollments/:id: the learner leaves a course (or withdraws a pending request).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { enrollmentKeys } from '@/lib/query-keys';

export function useUnenrol(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enrollmentId: string) => api.delete<void>(`/enrollments/${encodeURIComponent(enrollmentId)}`),
    onSuccess: () => enrollmentKeys.invalidate(queryClient, userId),
  });
}
