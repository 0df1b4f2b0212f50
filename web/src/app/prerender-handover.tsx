// The handover from a prerendered page (web/prerender.mjs, platform/page-render.mjs) to the app. The
// app hydrates the prerendered markup when it is the page asked for, as a visitor (the state it was
// rendered in): React keeps the DOM and only attaches to it. Otherwise (the home page answering for
// another path, a stored session) the app renders anew, replacing the markup in one commit. The
// controls that must not be used before the app owns them say so until then (lib/hydrated.ts).
import { useLayoutEffect, type ReactNode } from 'react';
import type { DataRouter } from 'react-router';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { pageRenderedWith } from '@/lib/hydrated';

type AppRouter = Pick<DataRouter, 'state' | 'subscribe'>;

/** Resolves once the router has loaded the code of the first page's routes. */
export function whenRouterReady(router: AppRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * The page in #root can be hydrated: it is the page of this path (web/theme-init.js marks the home
 * page answering for another one) and it was rendered for a visitor, as the app will render it.
 */
export function canHydrate(container: HTMLElement): boolean {
  const html = document.documentElement;
  return container.firstElementChild !== null && html.hasAttribute('data-prerendered') && !html.hasAttribute('data-other-page') && !html.hasAttribute('data-session');
}

/**
 * The API's answers a page rendered on request was rendered with (web/prerender.mjs writes them as
 * JSON beside #root), put in the cache so the app's first render is that page. They are a visitor's
 * answers: `current` when the app hydrates the page as a visitor; otherwise (a session is stored)
 * they are marked stale, so the first read of each asks the API again, with the session. Returns
 * the keys seeded.
 */
export function seedFromPage(queryClient: QueryClient, { current }: { current: boolean }): QueryKey[] {
  const element = document.getElementById('page-data');
  const text = element?.textContent;
  // Read once: the answers are the cache's from here on.
  element?.remove();
  if (!text) return [];
  try {
    const entries = JSON.parse(text) as [QueryKey, unknown][];
    for (const [key, value] of entries) {
      queryClient.setQueryData(key, value);
      if (!current) void queryClient.invalidateQueries({ queryKey: key, exact: true, refetchType: 'none' });
    }
    if (current) pageRenderedWith(entries.map(([key]) => key));
    return entries.map(([key]) => key);
  } catch {
    // Unreadable: the app asks the API, as on any other page.
    return [];
  }
}

/**
 * Renders its child; on the app's first commit clears the prerendered page's marks on <html>. One
 * child, no sibling: the tree (and so React's ids) stays the prerendered one.
 */
export function PrerenderHandover({ children }: { children: ReactNode }) {
  useLayoutEffect(() => {
    const html = document.documentElement;
    html.removeAttribute('data-other-page');
    html.removeAttribute('data-session');
    html.removeAttribute('data-prerendered');
  }, []);
  return children;
}
