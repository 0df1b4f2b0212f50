// POST /api/enrollments/:id/approve and /decline: the course's instructor (or an admin) decides on a
// pending enrolment; every instructor figure may change, so the whole instructor cache is refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { instructorKeys } from '@/lib/query-keys';

export type Decision = 'approve' | 'decline';

export const decideEnrollment = ({ id, decision }: { id: string; decision: Decision }) =>
  api.post<unknown>(`/enrollments/${encodeURIComponent(id)}/${decision}`);

export function useDecideEnrollment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideEnrollment,
    onSettled: () => instructorKeys.invalidate(queryClient),
  });
}
