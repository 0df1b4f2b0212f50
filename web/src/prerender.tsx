// The build-time render of the pages a visitor lands on from outside (web/prerender.mjs): the app's
// own route table and components, rendered to HTML as a visitor without a session sees them before
// any answer of the API has arrived (site settings and the catalogue still loading). The browser
// paints that HTML at once; web/src/main.tsx then starts the app on the same page.
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router';
import { App } from '@/app/app';
import { routes } from '@/app/routes';
import { whenRouterReady } from '@/app/prerender-handover';
import { createQueryClient } from '@/lib/query-client';
import { userKeys } from '@/lib/query-keys';
import { PageMetaSink } from '@/lib/page/page-meta';

export interface PrerenderedPage {
  /** The markup of #root. */
  html: string;
  /** The document title and meta description the page sets. */
  title: string;
  description: string;
}

export async function prerender(path: string): Promise<PrerenderedPage> {
  const queryClient = createQueryClient();
  // A visitor: no stored session, so no user (lib/auth/user.ts answers null without asking).
  queryClient.setQueryData(userKeys.current, null);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // The route's lazy module loads first, so the page renders rather than the router's fallback.
  await whenRouterReady(router);
  let title = '';
  let description = '';
  const html = renderToString(
    <PageMetaSink.Provider value={(pageTitle, pageDescription) => { title = pageTitle; description = pageDescription; }}>
      <App queryClient={queryClient} router={router} />
    </PageMetaSink.Provider>,
  );
  router.dispose();
  queryClient.clear();
  return { html, title, description };
}
