// The course reads several features share: GET /api/courses/:id, GET /api/courses/:id/modules (the
// outline, with the caller's progress; the course page, the module viewer, the editor and the first
// page's prefetch read the same cache entries), and the course pickers' GET /api/courses?search=….
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Course, CourseModule } from '@shared/catalogue.ts';
import { api } from '@/lib/api-client';
import { courseKeys } from '@/lib/query-keys';

export const getCourse = (id: string) => api.get<Course>(`/courses/${id}`);
export const getCourseModules = (id: string) => api.get<CourseModule[]>(`/courses/${id}/modules`);

export const courseQueryOptions = (id: string) => queryOptions({ queryKey: courseKeys.detail(id), queryFn: () => getCourse(id) });
export const courseModulesQueryOptions = (id: string) =>
  queryOptions({ queryKey: courseKeys.modules(id), queryFn: () => getCourseModules(id) });

export const useCourse = (id: string, enabled = true) => useQuery({ ...courseQueryOptions(id), enabled });
export const useCourseModules = (id: string, enabled = true) => useQuery({ ...courseModulesQueryOptions(id), enabled });

/** The courses a course picker offers at once. */
export const COURSE_OPTIONS_SIZE = 20;

export interface CourseOptionsQuery {
  /** Every visible course (admins), rather than the caller's own. */
  all: boolean;
  /** Only courses of this status, for example published ones. */
  status?: 'ACTIVE';
  search: string;
}

export interface CourseOption {
  id: string;
  title: string;
}

/** The courses a course picker offers: the caller's own (every visible course for admins), searched
 * on the server by title or description and 20 at a time, so that any course can be found however
 * many there are (a national platform has about 10,000). */
export function getCourseOptions({ all, status, search }: CourseOptionsQuery) {
  const params = new URLSearchParams({ page: '1', pageSize: String(COURSE_OPTIONS_SIZE) });
  if (!all) params.set('mine', 'true');
  if (status) params.set('status', status);
  if (search) params.set('search', search);
  return api.get<{ items: CourseOption[]; total: number; page: number; pageSize: number }>(`/courses?${params}`);
}

export function courseOptionsQueryOptions(query: CourseOptionsQuery) {
  return queryOptions({
    queryKey: courseKeys.list({ mine: !query.all, status: query.status, search: query.search, page: 1, pageSize: COURSE_OPTIONS_SIZE }),
    queryFn: () => getCourseOptions(query),
    placeholderData: keepPreviousData,
  });
}

export function useCourseOptions(query: CourseOptionsQuery) {
  return useQuery(courseOptionsQueryOptions(query));
}
