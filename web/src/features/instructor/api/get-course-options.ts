// The courses the Students filter offers: the caller's own (all visible courses for admins, whose
// Students tab covers every course). One page of up to 100, the API's maximum.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AuthoredCoursesPage } from './get-my-courses';

export function getCourseOptions(all: boolean): Promise<AuthoredCoursesPage> {
  return api.get<AuthoredCoursesPage>(`/courses?${all ? '' : 'mine=true&'}page=1&pageSize=100`);
}

export function courseOptionsQueryOptions(all: boolean) {
  return queryOptions({
    queryKey: ['courses', { mine: !all, page: 1, pageSize: 100 }],
    queryFn: () => getCourseOptions(all),
  });
}

export function useCourseOptions(all: boolean) {
  return useQuery(courseOptionsQueryOptions(all));
}
