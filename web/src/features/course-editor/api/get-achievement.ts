// GET /api/courses/:courseId/achievement: what the course's credentials say it proves (`defined`
// false: the one made of its title and description until an author writes one).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CourseAchievement } from '@shared/credentials.ts';
import { api } from '@/lib/api-client';
import { achievementKeys } from '@/lib/query-keys';

export type { CourseAchievement };

export function achievementQueryOptions(courseId: string) {
  return queryOptions({
    queryKey: achievementKeys.ofCourse(courseId),
    queryFn: ({ signal }) => api.get<CourseAchievement>(`/courses/${encodeURIComponent(courseId)}/achievement`, { signal }),
  });
}

export function useAchievement(courseId: string) {
  return useQuery(achievementQueryOptions(courseId));
}
