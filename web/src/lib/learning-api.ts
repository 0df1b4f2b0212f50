// What the catalogue, course page and module viewer share (features do not import each other):
// the query keys of courses and modules, the enrol call, and the refresh after any progress change.
import type { QueryClient } from '@tanstack/react-query';
import type { Enrollment } from '@shared/catalogue.ts';
import { api } from './api-client';

export interface CourseListFilters {
  service?: string;
  search?: string;
  status?: string;
}

export const courseKeys = {
  all: ['courses'] as const,
  lists: () => [...courseKeys.all, 'list'] as const,
  list: (filters: CourseListFilters) => [...courseKeys.lists(), filters] as const,
  detail: (id: string) => [...courseKeys.all, 'detail', id] as const,
  modules: (id: string) => [...courseKeys.detail(id), 'modules'] as const,
};

export const moduleKeys = {
  all: ['modules'] as const,
  detail: (id: string) => [...moduleKeys.all, id] as const,
  quiz: (id: string) => [...moduleKeys.detail(id), 'quiz'] as const,
};

/** POST /api/courses/:courseId/enroll -> the new enrolment (PENDING under login-approval). */
export const enrollInCourse = (courseId: string) => api.post<Enrollment>(`/courses/${courseId}/enroll`);

/** After an enrolment or progress change: courses, modules, and the learner's lists elsewhere. */
export function refreshLearning(queryClient: QueryClient) {
  return Promise.all(
    [courseKeys.all, ['modules'], ['enrollments'], ['certificates'], ['user']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
