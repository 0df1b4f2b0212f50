// The CPD record: GET /api/me/learning-record (or an admin's
// /api/admin/users/:id/learning-record), the PDF and CSV downloads, and the CPD entry mutations.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CpdEntry, CpdEntryValues, LearningRecord } from '@shared/cpd.ts';
import { api } from '@/lib/api-client';
import { downloadFromApi } from '@/lib/download';
import { learningRecordKeys } from '@/lib/query-keys';

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

/** The PDF or CSV, saved under the server's file name. */
export function downloadLearningRecord({ userId, format }: { userId: string | null; format: 'pdf' | 'csv' }): Promise<string> {
  return downloadFromApi(learningRecordPath(userId, `.${format}`), format === 'pdf' ? 'application/pdf' : 'text/csv', `learning-record.${format}`);
}

export function useDownloadLearningRecord() {
  return useMutation({ mutationFn: downloadLearningRecord });
}

function useCpdMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => learningRecordKeys.invalidate(queryClient),
  });
}

export const useCreateCpdEntry = () => useCpdMutation((input: CpdEntryValues) => api.post<CpdEntry>('/me/cpd-entries', input));

export const useUpdateCpdEntry = () =>
  useCpdMutation(({ id, input }: { id: string; input: CpdEntryValues }) => api.put<CpdEntry>(`/me/cpd-entries/${encodeURIComponent(id)}`, input));

export const useDeleteCpdEntry = () => useCpdMutation((id: string) => api.delete<void>(`/me/cpd-entries/${encodeURIComponent(id)}`));
