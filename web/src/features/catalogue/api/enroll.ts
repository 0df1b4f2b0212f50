// Enrol from a card: POST /api/courses/:id/enroll, then refresh what shows progress.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { enrollInCourse, refreshLearning } from '@/lib/learning-api';

export function useEnrollFromCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enrollInCourse,
    onSuccess: () => refreshLearning(queryClient),
  });
}
