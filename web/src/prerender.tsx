// The build-time render of the pages a visitor lands on from outside (web/prerender.mjs): the app's
// own route table and components, rendered to HTML as a visitor without a session sees them before
// any answer of the API has arrived (site settings and the catalogue still loading). The browser
// paints that HTML at once; web/src/main.tsx then starts the app on the same page. The home page and
// a course page are rendered the same way on request, with the API's answers they show
// (platform/page-render.mjs).
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router';
import { App } from '@/app/app';
import { routes } from '@/app/routes';
import { whenRouterReady } from '@/app/prerender-handover';
import { createQueryClient } from '@/lib/query-client';
import type { QueryKey } from '@tanstack/react-query';
import { courseKeys, settingsKeys, userKeys } from '@/lib/query-keys';
import { PageMetaSink } from '@/lib/page/page-meta';
import { catalogueFiltersOf, catalogueQueryOptions, coursesPath } from '@/features/catalogue/api/get-courses';
import type { Resource } from 'i18next';
import { i18n, startTranslationsWith } from '@/lib/i18n/i18n';
import { acceptedLanguages, detectLanguage, type Language } from '@/lib/i18n/language';

// Every catalogue of both languages, in the renderer's bundle: a page renders in one pass, in the
// language its visitor reads.
const catalogues = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true });
const resources: Resource = {};
for (const [file, catalogue] of Object.entries(catalogues)) {
  const [, language, namespace] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file)!;
  (resources[language!] ??= {})[namespace!] = catalogue.default;
}
startTranslationsWith('en-GB', resources);

/** The language a request's page is rendered in: its ?lng= link, its language cookie, its Accept-Language. */
export function languageOfRequest(search: string, cookie: string | undefined, acceptLanguage: string | undefined): Language {
  return detectLanguage({ search, cookie, preferred: acceptedLanguages(acceptLanguage) }).language;
}

export interface PrerenderedPage {
  /** The markup of #root. */
  html: string;
  /** The document title and meta description the page sets. */
  title: string;
  description: string;
  /** The API's answers the page was rendered with, by query key, for the app to start from. */
  data?: [QueryKey, unknown][];
  /** The language it is written in (<html lang>). */
  language: Language;
}

export async function prerender(path: string, data?: [QueryKey, unknown][], language: Language = 'en-GB'): Promise<PrerenderedPage> {
  const queryClient = createQueryClient();
  for (const [key, value] of data ?? []) queryClient.setQueryData(key, value);
  // A visitor: no stored session, so no user (lib/auth/user.ts answers null without asking).
  queryClient.setQueryData(userKeys.current, null);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // The route's lazy module loads first, so the page renders rather than the router's fallback.
  await whenRouterReady(router);
  let title = '';
  let description = '';
  // Synchronous with every catalogue given: the render below is in this language.
  void i18n.changeLanguage(language);
  const html = renderToString(
    <PageMetaSink.Provider value={(pageTitle, pageDescription) => { title = pageTitle; description = pageDescription; }}>
      <App queryClient={queryClient} router={router} />
    </PageMetaSink.Provider>,
  );
  router.dispose();
  queryClient.clear();
  return { html, title, description, data, language };
}

/** Reads the API as a visitor: the answer's body, or null when it is not a 200. */
export type VisitorGet = (apiPath: string) => Promise<unknown>;

/**
 * /course/:id as a visitor sees it, with the course, its outline and the site settings in the
 * HTML; null when the API does not show that course to a visitor (the app then says why).
 */
export async function renderCoursePage(id: string, get: VisitorGet, language: Language = 'en-GB'): Promise<PrerenderedPage | null> {
  const path = encodeURIComponent(id);
  const [settings, course, modules] = await Promise.all([get('/settings'), get(`/courses/${path}`), get(`/courses/${path}/modules`)]);
  if (settings == null || course == null || modules == null) return null;
  return prerender(`/course/${path}`, [
    [settingsKeys.forCaller(null), settings],
    [courseKeys.detail(id), course],
    [courseKeys.modules(id), modules],
  ], language);
}

/**
 * / as a visitor sees it, with the site settings and the first page of the catalogue (the URL's
 * filters applied) in the HTML; null when the API does not show the catalogue to a visitor (sign-in
 * required to browse): the page built with the app then stands.
 */
export async function renderHomePage(search: string, get: VisitorGet, language: Language = 'en-GB'): Promise<PrerenderedPage | null> {
  const filters = catalogueFiltersOf(search);
  const [settings, courses] = await Promise.all([get('/settings'), get(coursesPath(filters, 1))]);
  if (settings == null || courses == null) return null;
  return prerender(`/${search}`, [
    [settingsKeys.forCaller(null), settings],
    [catalogueQueryOptions(filters).queryKey, { pages: [courses], pageParams: [1] }],
  ], language);
}
