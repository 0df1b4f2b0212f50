// TanStack Query defaults: no retry (a failure is shown at once, with its own Try again), no refetch
// on focus, and data never stale: what changes is refetched by the writes that change it
// (lib/query-keys.ts). Offline, a query still runs once (the service worker may answer it from the
// person's cache, web/sw/sw.ts) and a mutation fails at once with the api client's OfflineError (or
// is queued, web/src/lib/offline/queue.ts), rather than both waiting, paused, for a connection.
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity, networkMode: 'offlineFirst' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
