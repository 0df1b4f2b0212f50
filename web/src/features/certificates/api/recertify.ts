// POST /api/courses/:courseId/recertify: from an expiring or expired certificate, the learner's
// enrolment starts again at 0 % (the earlier certificate stays in their history).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Enrollment } from '@shared/catalogue.ts';
import { api } from '@/lib/api-client';
import { invalidateLearning, requiredTrainingKeys } from '@/lib/query-keys';

export const startRecertification = (courseId: string) =>
  api.post<Enrollment>(`/courses/${encodeURIComponent(courseId)}/recertify`);

export function useStartRecertification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startRecertification,
    // Courses, modules, enrolments, certificates, and the required-training list's statuses.
    onSuccess: () =>
      Promise.all([invalidateLearning(queryClient), requiredTrainingKeys.invalidate(queryClient)]),
  });
}
