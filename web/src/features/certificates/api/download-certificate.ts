// GET /api/certificates/:id/pdf, saved under the server's file name (lib/download.ts).
import { useMutation } from '@tanstack/react-query';
import { downloadFromApi } from '@/lib/download';

export function downloadCertificate(id: string): Promise<string> {
  return downloadFromApi(`/certificates/${encodeURIComponent(id)}/pdf`, 'application/pdf', 'certificate.pdf');
}

export function useDownloadCertificate() {
  return useMutation({ mutationFn: downloadCertificate });
}
