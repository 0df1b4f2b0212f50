// Starts the first page's requests as soon as the app's code runs, all at once (rather
// than the user, then the settings, then the courses, each waiting for the one before). The
// settings are asked for as the user whose session is stored; the catalogue with the URL's filters,
// the same key CourseCatalogue uses, so the components find the answers in the cache. A course page
// (/course/:id) likewise starts the course and its outline at once. Returns when the page's own
// answers (the catalogue, or the course and its outline) have arrived or failed.
import type { QueryClient } from '@tanstack/react-query';
import { userQueryOptions } from '@/lib/auth/user';
import { catalogueFiltersOf, catalogueQueryOptions } from '@/features/catalogue/api/get-courses';
import { courseModulesQueryOptions, courseQueryOptions } from '@/lib/courses';
import { settingsQueryOptions } from '@/lib/site-settings/get-settings';
import { storedUserId } from '@/lib/supabase';

export function prefetchFirstPage(
  queryClient: QueryClient,
  location: Pick<Location, 'pathname' | 'search'> = window.location,
  { settings = true }: { settings?: boolean } = {},
): Promise<unknown> {
  void queryClient.prefetchQuery(userQueryOptions());
  if (settings) void queryClient.prefetchQuery(settingsQueryOptions(storedUserId()));
  if (location.pathname === '/') {
    return queryClient.prefetchInfiniteQuery(catalogueQueryOptions(catalogueFiltersOf(location.search)));
  }
  const id = /^\/course\/([\w-]+)\/?$/.exec(location.pathname)?.[1];
  if (id && id !== 'create') {
    return Promise.all([queryClient.prefetchQuery(courseQueryOptions(id)), queryClient.prefetchQuery(courseModulesQueryOptions(id))]);
  }
  return Promise.resolve();
}
