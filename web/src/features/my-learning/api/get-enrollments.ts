// GET /api/users/:userId/enrollments: the learner's enrolments, each with its course (null when the
// course can no longer be seen), modules done, certificate and last activity.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EnrollmentCertificate } from '@shared/certificates.ts';
import { api } from '@/lib/api-client';

export interface EnrollmentCourse {
  id: string;
  title: string;
  description: string;
  service: string;
  duration: number;
  modules: number;
}

export interface Enrollment {
  id: string;
  userId: string;
  courseId: string;
  progress: number;
  completed: boolean;
  status: 'ACTIVE' | 'PENDING';
  startedAt: string;
  completedAt: string | null;
  lastAccessedModuleId: string | null;
  lastActivityAt: string | null;
  completedModules: number;
  /** Which pass through the course this is (1, then +1 per recertification). */
  cycle: number;
  /** The latest certificate's id (kept for links). */
  certificateId: string | null;
  /** The latest certificate of the course, from this or an earlier cycle, with its validity. */
  certificate: EnrollmentCertificate | null;
  course: EnrollmentCourse | null;
}

export function enrollmentsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['enrollments', { userId }],
    queryFn: ({ signal }) => api.get<Enrollment[]>(`/users/${encodeURIComponent(userId)}/enrollments`, { signal }),
  });
}

export function useEnrollments(userId: string) {
  return useQuery(enrollmentsQueryOptions(userId));
}
