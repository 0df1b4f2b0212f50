// The courses a course picker offers: the caller's own (every visible course for admins), searched
// on the server by title or description and 20 at a time, so that any course can be found however
// many there are (a national platform has about 10,000).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AuthoredCoursesPage } from './get-my-courses';

export const COURSE_OPTIONS_SIZE = 20;

export interface CourseOptionsQuery {
  /** Every visible course (admins), rather than the caller's own. */
  all: boolean;
  /** Only courses of this status, for example published ones. */
  status?: 'ACTIVE';
  search: string;
}

export function getCourseOptions({ all, status, search }: CourseOptionsQuery): Promise<AuthoredCoursesPage> {
  const params = new URLSearchParams({ page: '1', pageSize: String(COURSE_OPTIONS_SIZE) });
  if (!all) params.set('mine', 'true');
  if (status) params.set('status', status);
  if (search) params.set('search', search);
  return api.get<AuthoredCoursesPage>(`/courses?${params}`);
}

export function courseOptionsQueryOptions(query: CourseOptionsQuery) {
  return queryOptions({
    queryKey: ['courses', { mine: !query.all, status: query.status ?? null, search: query.search, page: 1, pageSize: COURSE_OPTIONS_SIZE }],
    queryFn: () => getCourseOptions(query),
    placeholderData: keepPreviousData,
  });
}

export function useCourseOptions(query: CourseOptionsQuery) {
  return useQuery(courseOptionsQueryOptions(query));
}
