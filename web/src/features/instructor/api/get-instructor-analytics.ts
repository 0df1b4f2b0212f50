// GET /api/instructor/analytics: per-course figures, or { enabled: false } when the setting is off.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { instructorKeys } from '@/lib/query-keys';

export interface CourseAnalytics {
  courseId: string;
  title: string;
  service: string;
  status: string;
  enrollments: number;
  pending: number;
  completed: number;
  completionRate: number;
  averageProgress: number;
  quizAttempts: number;
  quizPassed: number;
  /** Percent of attempts passed; null when nobody has attempted a quiz of the course. */
  quizPassRate: number | null;
}

export type InstructorAnalytics =
  | { enabled: false }
  | { enabled: true; items: CourseAnalytics[]; total: number; page: number; pageSize: number };

export const ANALYTICS_PAGE_SIZE = 20;

export const getInstructorAnalytics = (page: number) =>
  api.get<InstructorAnalytics>(`/instructor/analytics?page=${page}&pageSize=${ANALYTICS_PAGE_SIZE}`);

export function instructorAnalyticsQueryOptions(page: number) {
  return queryOptions({
    queryKey: instructorKeys.analytics({ page }),
    queryFn: () => getInstructorAnalytics(page),
    placeholderData: keepPreviousData,
  });
}

export function useInstructorAnalytics(page: number) {
  return useQuery(instructorAnalyticsQueryOptions(page));
}
