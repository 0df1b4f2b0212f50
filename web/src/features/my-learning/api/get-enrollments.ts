// GET /api/users/:userId/enrollments: the learner's enrolments, each with its course (null when the
// course can no longer be seen), modules done, certificate and last activity.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EnrollmentCertificate } from '@shared/certificates.ts';
import { api } from '@/lib/api-client';
import { enrollmentKeys } from '@/lib/query-keys';

export interface EnrollmentCourse {
  id: string;
  title: string;
  /** The title in Welsh; null: not translated (there is no Welsh description in this answer). */
  titleCy: string | null;
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

/** The server answers at most this many enrolments a request (`page`, `pageSize`). */
export const ENROLLMENTS_PAGE_SIZE = 100;

/** Every enrolment of the learner, a page of at most 100 at a time (one request for nearly everyone). */
export async function getEnrollments(userId: string, signal?: AbortSignal): Promise<Enrollment[]> {
  const all: Enrollment[] = [];
  for (let page = 1; ; page += 1) {
    const params = new URLSearchParams({ page: String(page), pageSize: String(ENROLLMENTS_PAGE_SIZE) });
    const items = await api.get<Enrollment[]>(`/users/${encodeURIComponent(userId)}/enrollments?${params}`, { signal });
    all.push(...items);
    if (items.length < ENROLLMENTS_PAGE_SIZE) return all;
  }
}

export function enrollmentsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: enrollmentKeys.forUser(userId),
    queryFn: ({ signal }) => getEnrollments(userId, signal),
  });
}

export function useEnrollments(userId: string) {
  return useQuery(enrollmentsQueryOptions(userId));
}
