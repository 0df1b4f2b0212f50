// GET /api/courses, paged: the catalogue loads one page at a time ("Load more").
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Course, PagedList } from '@shared/catalogue.ts';
import { api } from '@/lib/api-client';
import { courseKeys } from '@/lib/query-keys';

export interface CourseListFilters {
  service?: string;
  search?: string;
  status?: string;
}

export const CATALOGUE_PAGE_SIZE = 12;

export function getCourses(filters: CourseListFilters, page: number, signal?: AbortSignal) {
  const params = new URLSearchParams({ page: String(page), pageSize: String(CATALOGUE_PAGE_SIZE) });
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  return api.get<PagedList<Course>>(`/courses?${params}`, { signal });
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
