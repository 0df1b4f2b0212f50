// What several features do with a learner's certificate: link to it on /certificates, download its
// PDF (GET /api/certificates/:id/pdf, saved under the server's file name, lib/download.ts), and start
// a recertification (POST /api/courses/:courseId/recertify: from an expiring or expired certificate,
// the learner's enrolment starts again at 0 %; the earlier certificate stays in their history).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Enrollment } from '@shared/enrollment.ts';
import { api } from '@/lib/api-client';
import { downloadFromApi } from '@/lib/download';
import { invalidateLearning, requiredTrainingKeys } from '@/lib/query-keys';

/** The certificates page opened on one certificate. */
export function certificatePath(certificateId: string): string {
  return `/certificates?id=${encodeURIComponent(certificateId)}`;
}

export function downloadCertificate(id: string): Promise<string> {
  return downloadFromApi(`/certificates/${encodeURIComponent(id)}/pdf`, 'application/pdf', 'certificate.pdf');
}

export function useDownloadCertificate() {
  return useMutation({ mutationFn: downloadCertificate });
}

export const startRecertification = (courseId: string) =>
  api.post<Enrollment>(`/courses/${encodeURIComponent(courseId)}/recertify`);

export function useStartRecertification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startRecertification,
    // Courses, modules, enrolments, certificates, and the required-training list's statuses.
    onSuccess: () => Promise.all([invalidateLearning(queryClient), requiredTrainingKeys.invalidate(queryClient)]),
  });
}
