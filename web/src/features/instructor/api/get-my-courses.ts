// GET /api/courses?mine=true: the caller's own courses (any status), searched by title or
// description. Its key is a course list's, so that course writes elsewhere refresh it too.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { courseKeys } from '@/lib/query-keys';

export interface AuthoredCourse {
  id: string;
  title: string;
  description: string;
  service: string;
  duration: number;
  level: string;
  status: string;
  modules: number;
  updatedAt: string;
}

export interface AuthoredCoursesPage {
  items: AuthoredCourse[];
  total: number;
  page: number;
  pageSize: number;
}

export const MY_COURSES_PAGE_SIZE = 12;

export function getMyCourses(search: string, page: number): Promise<AuthoredCoursesPage> {
  // Archived courses are out of the catalogue, but an author's own list shows them (marked Archived).
  const params = new URLSearchParams({ mine: 'true', includeArchived: 'true', page: String(page), pageSize: String(MY_COURSES_PAGE_SIZE) });
  if (search) params.set('search', search);
  return api.get<AuthoredCoursesPage>(`/courses?${params}`);
}

export function myCoursesQueryOptions(search: string, page: number) {
  return queryOptions({
    queryKey: courseKeys.list({ mine: true, search, page, pageSize: MY_COURSES_PAGE_SIZE }),
    queryFn: () => getMyCourses(search, page),
    placeholderData: keepPreviousData,
  });
}

export function useMyCourses(search: string, page: number) {
  return useQuery(myCoursesQueryOptions(search, page));
}
