// GET /api/courses, paged: the catalogue loads one page at a time ("Load more").
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Course, PagedList } from '@shared/catalogue.ts';
import { isServiceCode } from '@shared/services.ts';
import { api } from '@/lib/api-client';
import { courseKeys } from '@/lib/query-keys';

export interface CourseListFilters {
  service?: string;
  search?: string;
  status?: string;
  /** Only the courses available in Welsh (`?welsh=true`). */
  welsh?: boolean;
}

export const CATALOGUE_PAGE_SIZE = 12;

/** The catalogue's filters in a home page URL's query (`?service=UKPS&search=first+aid&welsh=true`): active courses only. */
export function catalogueFiltersOf(search: string): CourseListFilters {
  const params = new URLSearchParams(search);
  const service = params.get('service');
  return {
    service: isServiceCode(service) ? service : undefined,
    search: params.get('search') || undefined,
    status: 'ACTIVE',
    welsh: params.get('welsh') === 'true' ? true : undefined,
  };
}

/** The query of the catalogue's filters, as catalogueFiltersOf reads it (and the API takes it). */
export function catalogueParamsOf(filters: CourseListFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.service) params.set('service', filters.service);
  if (filters.search) params.set('search', filters.search);
  if (filters.status) params.set('status', filters.status);
  if (filters.welsh) params.set('welsh', 'true');
  return params;
}

/** The API path of one page of the catalogue. */
export function coursesPath(filters: CourseListFilters, page: number): string {
  const params = new URLSearchParams({ page: String(page), pageSize: String(CATALOGUE_PAGE_SIZE) });
  for (const [key, value] of catalogueParamsOf(filters)) params.set(key, value);
  return `/courses?${params}`;
}

export function getCourses(filters: CourseListFilters, page: number, signal?: AbortSignal) {
  return api.get<PagedList<Course>>(coursesPath(filters, page), { signal });
}

export function catalogueQueryOptions(filters: CourseListFilters) {
  return infiniteQueryOptions({
    queryKey: courseKeys.pages({ ...filters, pageSize: CATALOGUE_PAGE_SIZE }),
    queryFn: ({ pageParam, signal }) => getCourses(filters, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
  });
}

export function useCatalogue(filters: CourseListFilters, enabled = true) {
  return useInfiniteQuery({ ...catalogueQueryOptions(filters), enabled });
}
