// GET /api/courses/:id, POST /api/courses, PUT /api/courses/:id, POST /api/courses/:id/cover.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Course } from '@shared/catalogue.ts';
import type { CourseCreateBody, CourseUpdateInput } from '@shared/authoring.ts';
import { api } from '@/lib/api-client';
import { editorKeys } from './keys';

export const getCourse = (id: string) => api.get<Course>(`/courses/${id}`);

export function courseQueryOptions(id: string) {
  return queryOptions({ queryKey: editorKeys.course(id), queryFn: () => getCourse(id) });
}

export function useCourse(id: string | undefined) {
  return useQuery({ ...courseQueryOptions(id ?? ''), enabled: Boolean(id) });
}

export function useCreateCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CourseCreateBody) => api.post<Course>('/courses', input),
    onSuccess: (course) => {
      queryClient.setQueryData(editorKeys.course(course.id), course);
      void queryClient.invalidateQueries({ queryKey: editorKeys.courses });
    },
  });
}

export function useUpdateCourse(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CourseUpdateInput) => api.put<Course>(`/courses/${id}`, input),
    onSuccess: (course) => {
      queryClient.setQueryData(editorKeys.course(id), course);
      void queryClient.invalidateQueries({ queryKey: editorKeys.courses });
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
      queryClient.setQueryData(editorKeys.course(course.id), course);
      void queryClient.invalidateQueries({ queryKey: editorKeys.courses });
    },
  });
}
