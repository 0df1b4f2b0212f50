// Enrol (POST /api/courses/:id/enroll): from a catalogue card and from the course page, so it lives
// here rather than in either feature. The answer is the new enrolment (PENDING when the course needs
// approval); afterwards everything that shows progress is refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Enrollment } from '@shared/enrollment.ts';
import { api } from '@/lib/api-client';
import { invalidateLearning } from '@/lib/query-keys';

export const enrollInCourse = (courseId: string) => api.post<Enrollment>(`/courses/${courseId}/enroll`);

export function useEnroll() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: enrollInCourse, onSuccess: () => invalidateLearning(queryClient) });
}
