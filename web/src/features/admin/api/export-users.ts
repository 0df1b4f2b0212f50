// GET /api/admin/users/export.csv: the Users tab's current search and filters as a CSV download,
// fetched with the session's token (a plain link could not send it), saved under the server's name.
import { useMutation } from '@tanstack/react-query';
import { ApiError, apiBaseUrl } from '@/lib/api-client';
import { accessToken, supabaseAnonKey } from '@/lib/supabase';

export interface UserExportFilters {
  search: string;
  service: string | null;
  role?: string | null;
}

export async function exportUsersCsv({ search, service, role }: UserExportFilters): Promise<string> {
  const params = new URLSearchParams();
  if (search.trim()) params.set('search', search.trim());
  if (service) params.set('service', service);
  if (role) params.set('role', role);
  const token = await accessToken();
  const response = await fetch(`${apiBaseUrl}/admin/users/export.csv?${params}`, {
    headers: {
      apikey: supabaseAnonKey,
      Authorization: `Bearer ${token}`,
      Accept: 'text/csv',
    },
  });
  if (!response.ok) {
    let message = response.statusText || 'Export failed';
    try {
      message = ((await response.json()) as { message?: string }).message || message;
    } catch {
      // Not JSON: keep the status text.
    }
    throw new ApiError(response.status, message);
  }
  const blob = await response.blob();
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'users.csv';
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}

export const useExportUsers = () => useMutation({ mutationFn: exportUsersCsv });
