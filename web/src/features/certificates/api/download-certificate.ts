// GET /api/certificates/:id/pdf: fetched with the session's token (a plain link could not send it)
// and handed to the browser as a download under the server's file name.
import { useMutation } from '@tanstack/react-query';
import { ApiError, apiBaseUrl } from '@/lib/api-client';
import { supabase, supabaseAnonKey } from '@/lib/supabase';

export async function downloadCertificate(id: string): Promise<string> {
  const { data } = await supabase.auth.getSession();
  const response = await fetch(`${apiBaseUrl}/certificates/${encodeURIComponent(id)}/pdf`, {
    headers: {
      apikey: supabaseAnonKey,
      Authorization: `Bearer ${data.session?.access_token || supabaseAnonKey}`,
      Accept: 'application/pdf',
    },
  });
  if (!response.ok) {
    let message = response.statusText || 'Download failed';
    try {
      message = ((await response.json()) as { message?: string }).message || message;
    } catch {
      // Not JSON: keep the status text.
    }
    throw new ApiError(response.status, message);
  }
  const blob = await response.blob();
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'certificate.pdf';
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Give the browser time to start the download before the blob goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}

export function useDownloadCertificate() {
  return useMutation({ mutationFn: downloadCertificate });
}
