// Enrol (POST /api/courses/:id/enroll) and step a module-less course (PUT /api/enrollments/:id):
// the server computes the new progress; the body carries the specification's fields only.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Enrollment } from '@shared/catalogue.ts';
import { api } from '@/lib/api-client';
import { invalidateLearning } from '@/lib/query-keys';

/** POST /api/courses/:courseId/enroll -> the new enrolment (PENDING under login-approval). */
export const enrollInCourse = (courseId: string) => api.post<Enrollment>(`/courses/${courseId}/enroll`);

export function useEnroll() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: enrollInCourse, onSuccess: () => invalidateLearning(queryClient) });
}

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
