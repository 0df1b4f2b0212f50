// A SCORM module's package: GET /api/modules/:id/scorm for the author, the upload (the
// zip as the body, application/zip) and PUT .../scorm/settings.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScormPackage, ScormSettingsInput } from '@shared/scorm.ts';
import { api, ApiError } from '@/lib/api-client';
import { courseKeys, moduleKeys } from '@/lib/query-keys';

/** The package, or null when none has been uploaded yet (404). */
export function useScormPackage(moduleId: string) {
  return useQuery({
    queryKey: moduleKeys.scormPackage(moduleId),
    queryFn: async () => {
      try {
        return await api.get<ScormPackage>(`/modules/${moduleId}/scorm`);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

export function useUploadScormPackage(courseId: string, moduleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The zip as the raw body, not multipart: the server streams it to a temporary file (and
    // refuses an over-size one by its Content-Length before reading it); multipart only to 16 MB.
    mutationFn: (file: File) => api.post<ScormPackage>(`/modules/${moduleId}/scorm`, file.slice(0, file.size, 'application/zip')),
    onSuccess: async (pkg) => {
      queryClient.setQueryData(moduleKeys.scormPackage(moduleId), pkg);
      await courseKeys.invalidateOutline(queryClient, courseId);
    },
  });
}

export function useSaveScormSettings(moduleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScormSettingsInput) => api.put<ScormPackage>(`/modules/${moduleId}/scorm/settings`, input),
    onSuccess: (pkg) => queryClient.setQueryData(moduleKeys.scormPackage(moduleId), pkg),
  });
}
