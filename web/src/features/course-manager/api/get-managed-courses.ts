// GET /api/courses for the course manager: an instructor's own courses (mine=true), every course for
// an admin; filtered by status on the server and paged.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { courseKeys } from '@/lib/query-keys';

export interface ManagedCourse {
  id: string;
  title: string;
  description: string;
  /** The title and description in Welsh; null: not translated. */
  titleCy: string | null;
  descriptionCy: string | null;
  /** The whole course is in Welsh (kept by the server). */
  availableInWelsh: boolean;
  service: string;
  duration: number;
  level: string;
  status: string;
  featured: boolean;
  requiresEnrollment: boolean;
  modules: number;
  authorId: string | null;
}

export interface ManagedCoursesPage {
  items: ManagedCourse[];
  total: number;
  page: number;
  pageSize: number;
}

export const MANAGER_PAGE_SIZE = 20;

export interface ManagedFilters {
  status?: 'DRAFT' | 'ACTIVE' | 'ARCHIVED';
  mine: boolean;
  page: number;
}

export function getManagedCourses({ status, mine, page }: ManagedFilters): Promise<ManagedCoursesPage> {
  const params = new URLSearchParams({ page: String(page), pageSize: String(MANAGER_PAGE_SIZE) });
  if (status) params.set('status', status);
  if (mine) params.set('mine', 'true');
  // Archived courses are out of the catalogue, but listed (and marked) here for those who manage them.
  params.set('includeArchived', 'true');
  return api.get<ManagedCoursesPage>(`/courses?${params}`);
}

export function managedCoursesQueryOptions(filters: ManagedFilters) {
  return queryOptions({
    queryKey: courseKeys.list({ ...filters, pageSize: MANAGER_PAGE_SIZE }),
    queryFn: () => getManagedCourses(filters),
    placeholderData: keepPreviousData,
  });
}

export function useManagedCourses(filters: ManagedFilters) {
  return useQuery(managedCoursesQueryOptions(filters));
}
