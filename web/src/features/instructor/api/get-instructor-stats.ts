// GET /api/instructor/stats: the Overview cards, computed by the server from enrolments.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { instructorKeys } from './keys';

export interface RecentCourse {
  id: string;
  title: string;
  service: string;
  status: string;
  updatedAt: string;
}

export interface InstructorStats {
  totalCourses: number;
  totalStudents: number;
  averageCompletion: number;
  totalCourseHours: number;
  recentlyUpdated: RecentCourse[];
}

export const getInstructorStats = () => api.get<InstructorStats>('/instructor/stats');

export function instructorStatsQueryOptions() {
  return queryOptions({ queryKey: instructorKeys.stats(), queryFn: getInstructorStats });
}

export function useInstructorStats() {
  return useQuery(instructorStatsQueryOptions());
}
