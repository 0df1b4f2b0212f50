// GET /api/instructor/students: learners on the caller's courses (all courses for admins), paged.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { instructorKeys } from '@/lib/query-keys';

export type StudentStatus = 'pending' | 'in-progress' | 'completed';

export type ScormStatus = 'not attempted' | 'incomplete' | 'completed' | 'passed' | 'failed';

/** A SCORM module of the learner's course: their status, best score (percent) and attempts. */
export interface StudentScormModule {
  moduleId: string;
  title: string;
  status: ScormStatus;
  score: number | null;
  attempts: number;
}

export interface InstructorStudent {
  id: string;
  learner: { id: string; name: string; username: string };
  course: { id: string; title: string; service: string };
  progress: number;
  status: StudentStatus;
  startedAt: string;
  completedAt: string | null;
  lastActivity: string;
  scorm: StudentScormModule[];
}

export interface StudentsPage {
  items: InstructorStudent[];
  total: number;
  page: number;
  pageSize: number;
}

export interface StudentFilters {
  courseId?: string;
  status?: StudentStatus;
  page: number;
}

export const STUDENTS_PAGE_SIZE = 20;

export function getInstructorStudents(filters: StudentFilters): Promise<StudentsPage> {
  const params = new URLSearchParams({ page: String(filters.page), pageSize: String(STUDENTS_PAGE_SIZE) });
  if (filters.courseId) params.set('courseId', filters.courseId);
  if (filters.status) params.set('status', filters.status);
  return api.get<StudentsPage>(`/instructor/students?${params}`);
}

export function instructorStudentsQueryOptions(filters: StudentFilters) {
  return queryOptions({
    queryKey: instructorKeys.students(filters),
    queryFn: () => getInstructorStudents(filters),
    placeholderData: keepPreviousData,
  });
}

export function useInstructorStudents(filters: StudentFilters) {
  return useQuery(instructorStudentsQueryOptions(filters));
}
