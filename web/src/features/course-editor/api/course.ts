// GET /api/courses/:id (the same cache entry as the course page), POST /api/courses,
// PUT /api/courses/:id, POST /api/courses/:id/cover.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Course } from '@shared/catalogue.ts';
import type { CourseCreateBody, CourseUpdateInput } from '@shared/authoring.ts';
import { api } from '@/lib/api-client';
import { courseQueryOptions } from '@/lib/courses';
import { courseKeys } from '@/lib/query-keys';

export function useCourse(id: string | undefined) {
  return useQuery({ ...courseQueryOptions(id ?? ''), enabled: Boolean(id) });
}

export function useCreateCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CourseCreateBody) => api.post<Course>('/courses', input),
    onSuccess: (course) => {
      queryClient.setQueryData(courseKeys.detail(course.id), course);
      void courseKeys.invalidate(queryClient);
    },
  });
}

export function useUpdateCourse(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CourseUpdateInput) => api.put<Course>(`/courses/${id}`, input),
    onSuccess: (course) => {
      queryClient.setQueryData(courseKeys.detail(id), course);
      void courseKeys.invalidate(queryClient);
    },
  });
}

export function uploadCover(id: string, file: File) {
  const form = new FormData();
  form.append('coverImage', file);
  return api.post<Course>(`/courses/${id}/cover`, form);
}

export function useUploadCover() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) => uploadCover(id, file),
    onSuccess: (course) => {
      queryClient.setQueryData(courseKeys.detail(course.id), course);
      void courseKeys.invalidate(queryClient);
    },
  });
}
