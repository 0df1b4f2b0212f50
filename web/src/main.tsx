import '@/app/mantine-styles';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { prefetchFirstPage } from '@/app/prefetch';
import { canHydrate, seedFromPage, typedInShell, whenRouterReady } from '@/app/prerender-handover';
import { router } from '@/app/router';
import { userQueryOptions } from '@/lib/auth/user';
import { createQueryClient } from '@/lib/query-client';
import { configureZod } from '@/lib/zod-config';

// zod would probe `new Function` to compile faster parsers; the Content-Security-Policy allows no
// eval, so the probe would be reported as a violation. Validate without it (set without importing
// zod, which only the forms' chunks need).
configureZod();

const container = document.getElementById('root')!;
// The HTML carries a page rendered at build time (web/prerender.mjs), already on screen.
const prerendered = container.firstElementChild !== null;
const hydrate = canHydrate(container);

const queryClient = createQueryClient();
seedFromPage(queryClient);
// Hydrating, the site settings are asked for when the page has hydrated (its components ask): the
// page was prerendered without them, and the first render must be that page.
prefetchFirstPage(queryClient, window.location, { settings: !hydrate });

async function start() {
  if (prerendered) {
    // The prerendered page stays until the app can draw the page complete: the route's code loaded
    // and the session known. Sooner, its first frame would be the router's fallback or a spinner.
    await Promise.all([whenRouterReady(router), queryClient.fetchQuery(userQueryOptions()).catch(() => null)]);
  }
  const typed = prerendered ? typedInShell(container) : null;
  const app = <App queryClient={queryClient} router={router} typed={typed} />;
  // The first render as a transition: React renders it in slices and yields to the browser between
  // them, instead of one long task that blocks input while the page starts (docs/PERFORMANCE.md).
  startTransition(() => {
    if (hydrate) {
      // A difference from the prerendered markup (a setting the build could not know) is not an
      // error: React renders that part anew, as the rest of the page goes on hydrating.
      hydrateRoot(container, app, { onRecoverableError: () => {} });
    } else {
      createRoot(container).render(app);
    }
  });
}

void start();
