// The app's start, the last stage of web/src/main.tsx: the cache seeded from a page rendered on
// request, the first page's requests, then the first render: hydrating the prerendered page, or
// rendering anew.
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { prefetchFirstPage } from '@/app/prefetch';
import { canHydrate, seedFromPage, whenRouterReady } from '@/app/prerender-handover';
import { startHydrating } from '@/lib/hydrated';
import { router } from '@/app/router';
import { userQueryOptions } from '@/lib/auth/user';
import { createQueryClient } from '@/lib/query-client';
import { startTranslations } from '@/lib/i18n/i18n';
import { detectLanguage, rememberLanguage } from '@/lib/i18n/language';
import { markLanguageChosen } from '@/app/layout/LanguageSwitch';

export async function start() {
  const container = document.getElementById('root')!;
  // The HTML carries a prerendered page (web/prerender.mjs), already on screen.
  const prerendered = container.firstElementChild !== null;
  // The page's language (a link's ?lng=, the browser's kept choice, then its languages); its
  // catalogue loads beside the first page's code. A page prerendered in the other language is
  // rendered anew rather than hydrated.
  const { language, fromLink } = detectLanguage({ search: window.location.search, cookie: document.cookie, preferred: navigator.languages });
  if (fromLink) {
    rememberLanguage(language);
    markLanguageChosen();
  }
  const hydrate = canHydrate(container) && document.documentElement.lang === language;
  document.documentElement.lang = language;
  const translations = startTranslations(language);

  const queryClient = createQueryClient();
  // A course page rendered on request carries the visitor's answers it was rendered with: the app's
  // own when it hydrates that page as a visitor, stale (asked again with the session) otherwise.
  const seeded = seedFromPage(queryClient, { current: hydrate });
  // Hydrating, the site settings are asked for when the page has hydrated (its components ask): the
  // page was prerendered without them, and the first render must be that page.
  const pageData = prefetchFirstPage(queryClient, window.location, { settings: !hydrate });

  if (prerendered) {
    // The prerendered page stays until the app can draw the page complete: the route's code loaded
    // and the session known, and, where the page carries a visitor's answers but a session is
    // stored, the person's own answers. Sooner, its first frame would be the router's fallback, a
    // spinner, or the visitor's page (their buttons, no enrolment) drawn for a signed-in person.
    await Promise.all([
      whenRouterReady(router),
      queryClient.fetchQuery(userQueryOptions()).catch(() => null),
      seeded.length > 0 && !hydrate ? pageData : null,
    ]);
  }
  await translations;
  const app = <App queryClient={queryClient} router={router} />;
  // The first render as a transition: React renders it in slices and yields to the browser between
  // them, instead of one long task that blocks input while the page starts (docs/PERFORMANCE.md).
  startTransition(() => {
    if (hydrate) {
      // A difference from the prerendered markup (a setting the build could not know) is not an
      // error: React renders that part anew, as the rest of the page goes on hydrating.
      startHydrating();
      hydrateRoot(container, app, { onRecoverableError: () => {} });
    } else {
      createRoot(container).render(app);
    }
  });
  // The service worker (web/sw/sw.ts) once the page has loaded, its code out of the first page's.
  const register = () => void import('@/lib/offline/register').then((m) => m.registerServiceWorker());
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
