// The offline data of the signed-in person as queries (their queue, the server's answers to it not
// yet seen, their downloaded courses) and the writes that change it, each refreshing what it changed.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OfflineCourse } from '@shared/offline.ts';
import { invalidateLearning, offlineKeys } from '@/lib/query-keys';
import { type DownloadProgress, downloadCourse, downloadedCourses, removeDownload } from './downloads';
import { dismissOutcomes, type NewOfflineItem, outcomes, queueItem, queuedItems, replayQueue } from './queue';

const hasIndexedDb = () => typeof indexedDB !== 'undefined';

export const offlineQueueQueryOptions = (personId: string) =>
  queryOptions({ queryKey: offlineKeys.queue(personId), queryFn: () => (hasIndexedDb() ? queuedItems(personId) : []), networkMode: 'always' });
export const useOfflineQueue = (personId: string | null | undefined) =>
  useQuery({ ...offlineQueueQueryOptions(personId ?? ''), enabled: Boolean(personId) });

export const useOfflineOutcomes = (personId: string | null | undefined) =>
  useQuery({ queryKey: offlineKeys.outcomes(personId ?? ''), queryFn: () => (hasIndexedDb() ? outcomes(personId!) : []), enabled: Boolean(personId), networkMode: 'always' });

export const useDownloads = (personId: string | null | undefined) =>
  useQuery({ queryKey: offlineKeys.downloads(personId ?? ''), queryFn: () => (hasIndexedDb() ? downloadedCourses(personId!) : []), enabled: Boolean(personId), networkMode: 'always' });

/** Keeps an item in the queue (the learner is offline) and shows it waiting. */
export function useQueueItem(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: NewOfflineItem) => queueItem(personId, item),
    onSuccess: () => offlineKeys.invalidate(queryClient),
  });
}

/** Replays the queue; what was sent refreshes the learner's progress, score and certificates. */
export function useReplayQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (personId: string) => replayQueue(personId),
    onSettled: async (result) => {
      await offlineKeys.invalidate(queryClient);
      if (result && result.sent > 0) await invalidateLearning(queryClient);
    },
  });
}

export function useDismissOutcomes(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => dismissOutcomes(personId), onSuccess: () => offlineKeys.invalidate(queryClient) });
}

export function useDownloadCourse(personId: string, onProgress: (progress: DownloadProgress) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (offline: OfflineCourse) => downloadCourse(personId, offline, onProgress),
    onSettled: () => offlineKeys.invalidate(queryClient),
  });
}

export function useRemoveDownload(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (courseId: string) => removeDownload(personId, courseId), onSettled: () => offlineKeys.invalidate(queryClient) });
}
