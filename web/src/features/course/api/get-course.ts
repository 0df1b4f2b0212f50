// GET /api/courses/:id and GET /api/courses/:id/modules (the outline, with the caller's progress).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Course, CourseModule } from '@shared/catalogue.ts';
import { api } from '@/lib/api-client';
import { courseKeys } from '@/lib/learning-api';

export const getCourse = (id: string) => api.get<Course>(`/courses/${id}`);
export const getCourseModules = (id: string) => api.get<CourseModule[]>(`/courses/${id}/modules`);

export const courseQueryOptions = (id: string) => queryOptions({ queryKey: courseKeys.detail(id), queryFn: () => getCourse(id) });
export const courseModulesQueryOptions = (id: string) =>
  queryOptions({ queryKey: courseKeys.modules(id), queryFn: () => getCourseModules(id) });

export const useCourse = (id: string, enabled = true) => useQuery({ ...courseQueryOptions(id), enabled });
export const useCourseModules = (id: string, enabled = true) => useQuery({ ...courseModulesQueryOptions(id), enabled });
