// TanStack Query defaults: no retry (a failure is shown at once, with its own Try again), no refetch
// on focus, and data never stale: what changes is refetched by the writes that change it
// (lib/query-keys.ts).
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity },
      mutations: { retry: false },
    },
  });
}
