// GET /api/instructor/stats: the Overview cards, computed by the server from enrolments.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { instructorKeys } from '@/lib/query-keys';

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
  /** Same as averageProgress (kept by the server for old clients). */
  averageCompletion: number;
  totalCourseHours: number;
  recentlyUpdated: RecentCourse[];
  /** Completed enrolments / enrolments on the caller's courses, in percent. */
  completionRate: number;
  /** Mean progress of those enrolments, in percent. */
  averageProgress: number;
  completedEnrolments: number;
  totalEnrolments: number;
  /** Enrolment requests awaiting approval on the caller's courses. */
  pendingRequests: number;
}

export const getInstructorStats = () => api.get<InstructorStats>('/instructor/stats');

export function instructorStatsQueryOptions() {
  return queryOptions({ queryKey: instructorKeys.stats(), queryFn: getInstructorStats });
}

export function useInstructorStats() {
  return useQuery(instructorStatsQueryOptions());
}
