// The CPD record (issue 8): GET /api/me/learning-record (or an admin's
// /api/admin/users/:id/learning-record), the PDF and CSV downloads, and the CPD entry mutations.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CpdEntry, CpdEntryValues, LearningRecord } from '@shared/cpd.ts';
import { api, ApiError, apiBaseUrl } from '@/lib/api-client';
import { supabase, supabaseAnonKey } from '@/lib/supabase';

export const learningRecordKeys = {
  all: ['learning-record'] as const,
  record: (userId: string | null) => ['learning-record', userId ?? 'me'] as const,
};

/** Whose record: the caller's own (null) or, for an admin, another learner's. */
export function learningRecordPath(userId: string | null, suffix: '' | '.pdf' | '.csv' = ''): string {
  return userId ? `/admin/users/${encodeURIComponent(userId)}/learning-record${suffix}` : `/me/learning-record${suffix}`;
}

export function learningRecordQueryOptions(userId: string | null) {
  return queryOptions({
    queryKey: learningRecordKeys.record(userId),
    queryFn: ({ signal }) => api.get<LearningRecord>(learningRecordPath(userId), { signal }),
  });
}

export function useLearningRecord(userId: string | null) {
  return useQuery(learningRecordQueryOptions(userId));
}

/** Fetches the PDF or CSV with the session's token (a plain link could not send it) and saves it under the server's name. */
export async function downloadLearningRecord({ userId, format }: { userId: string | null; format: 'pdf' | 'csv' }): Promise<string> {
  const { data } = await supabase.auth.getSession();
  const response = await fetch(`${apiBaseUrl}${learningRecordPath(userId, `.${format}`)}`, {
    headers: {
      apikey: supabaseAnonKey,
      Authorization: `Bearer ${data.session?.access_token || supabaseAnonKey}`,
      Accept: format === 'pdf' ? 'application/pdf' : 'text/csv',
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
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `learning-record.${format}`;
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

export function useDownloadLearningRecord() {
  return useMutation({ mutationFn: downloadLearningRecord });
}

function useCpdMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: learningRecordKeys.all }),
  });
}

export const useCreateCpdEntry = () => useCpdMutation((input: CpdEntryValues) => api.post<CpdEntry>('/me/cpd-entries', input));

export const useUpdateCpdEntry = () =>
  useCpdMutation(({ id, input }: { id: string; input: CpdEntryValues }) => api.put<CpdEntry>(`/me/cpd-entries/${encodeURIComponent(id)}`, input));

export const useDeleteCpdEntry = () => useCpdMutation((id: string) => api.delete<void>(`/me/cpd-entries/${encodeURIComponent(id)}`));
