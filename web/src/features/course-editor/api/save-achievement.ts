// PUT /api/courses/:courseId/achievement: the course's achievement, carried by the credentials its
// certificates issue from now on.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AchievementInput, CourseAchievement } from '@shared/credentials.ts';
import { api } from '@/lib/api-client';
import { achievementKeys } from '@/lib/query-keys';

export function useSaveAchievement(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AchievementInput) => api.put<CourseAchievement>(`/courses/${encodeURIComponent(courseId)}/achievement`, input),
    onSuccess: (saved) => queryClient.setQueryData(achievementKeys.ofCourse(courseId), saved),
  });
}
