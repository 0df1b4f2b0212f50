// Enrol from a card: POST /api/courses/:id/enroll -> the new enrolment (PENDING under
// login-approval), then refresh what shows progress.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Enrollment } from '@shared/catalogue.ts';
import { api } from '@/lib/api-client';
import { invalidateLearning } from '@/lib/query-keys';

export const enrollInCourse = (courseId: string) => api.post<Enrollment>(`/courses/${courseId}/enroll`);

export function useEnrollFromCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enrollInCourse,
    onSuccess: () => invalidateLearning(queryClient),
  });
}
