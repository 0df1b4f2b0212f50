// The Courses tab: GET /api/courses (search, service, paging; an admin sees every status through
// RLS, archived ones included) and the course writes POST/PUT /api/courses (delete, archive and
// restore: @/lib/course-removal).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Paged } from '@shared/admin.ts';
import type { AdminQuickCourseValues } from '@shared/authoring.ts';
import { api } from '@/lib/api-client';
import { adminKeys, courseKeys } from '@/lib/query-keys';

export interface AdminCourse {
  id: string;
  title: string;
  description: string;
  service: string;
  level?: string;
  duration: number;
  status: string;
  createdAt: string;
}

export const COURSES_PAGE_SIZE = 20;

export function adminCoursesQueryOptions({ search, service, page }: { search: string; service: string | null; page: number }) {
  const filters = { search: search.trim(), service, page, pageSize: COURSES_PAGE_SIZE };
  return queryOptions({
    queryKey: courseKeys.list(filters),
    queryFn: () => {
      const params = new URLSearchParams({ page: String(page), pageSize: String(COURSES_PAGE_SIZE) });
      if (filters.search) params.set('search', filters.search);
      if (service) params.set('service', service);
      // Archived courses are out of the catalogue, but listed (and marked) here.
      params.set('includeArchived', 'true');
      return api.get<Paged<AdminCourse>>(`/courses?${params}`);
    },
    placeholderData: keepPreviousData,
  });
}

export const useAdminCourses = (filters: { search: string; service: string | null; page: number }) =>
  useQuery(adminCoursesQueryOptions(filters));

function useCourseMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([courseKeys.invalidate(queryClient), adminKeys.invalidate(queryClient)]);
    },
  });
}

export const useQuickCreateCourse = () =>
  useCourseMutation((values: AdminQuickCourseValues) => api.post<AdminCourse>('/courses', values));
export const useQuickUpdateCourse = () =>
  useCourseMutation(({ id, values }: { id: string; values: AdminQuickCourseValues }) =>
    api.put<AdminCourse>(`/courses/${encodeURIComponent(id)}`, values));
