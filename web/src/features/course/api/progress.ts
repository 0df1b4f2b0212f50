// Step a module-less course (PUT /api/enrollments/:id): the server computes the new progress; the
// body carries the fields the API contract names, nothing more. (Enrolling is in lib/enrol.ts.)
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Enrollment } from '@shared/enrollment.ts';
import { api } from '@/lib/api-client';
import { invalidateLearning } from '@/lib/query-keys';

export const stepProgress = (enrollment: { id: string; progress: number; completed: boolean }) =>
  api.put<Enrollment>(`/enrollments/${enrollment.id}`, {
    id: enrollment.id,
    progress: enrollment.progress,
    completed: enrollment.completed,
  });

export function useStepProgress() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: stepProgress, onSuccess: () => invalidateLearning(queryClient) });
}
