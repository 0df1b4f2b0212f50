// Pages rendered on request: the home page (/, with its query's filters) and a course page
// (/course/:id) are answered with their HTML, rendered by the app's own components
// (web/src/prerender.tsx, built beside the web app by web/prerender.mjs) with the site settings and
// the first page of the catalogue, or the course and its outline, as a visitor reads them from the
// function. The browser paints them before any JavaScript has arrived; the app then hydrates that
// page (docs/decisions/first-paint.md). Anything else, or what the API does not show to a visitor,
// is left to the files built with the app.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fillTemplate, renderDirOf, renderEntry, RENDER_TEMPLATE } from '../web/prerender.mjs';

const COURSE_PAGE = /^\/course\/(?!create\/?$)([\w-]{1,100})\/?$/;
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * @param {{ webDir: string, functionsUrl: string, anonKey: string, timeoutMs?: number }} options
 * @returns {Promise<{ render(pathname: string, search?: string, request?: { cookie?: string, acceptLanguage?: string }): Promise<string | null> } | null>} null when the
 *   build has no renderer
 */
export async function createPageRenderer({ webDir, functionsUrl, anonKey, timeoutMs = 3000 }) {
  const renderDir = renderDirOf(webDir);
  const entry = renderEntry(renderDir);
  if (!entry || !fs.existsSync(path.join(renderDir, RENDER_TEMPLATE))) return null;
  const { renderCoursePage, renderHomePage, languageOfRequest } = await import(pathToFileURL(entry).href);
  const template = fs.readFileSync(path.join(renderDir, RENDER_TEMPLATE), 'utf8');
  const apiUrl = `${functionsUrl.replace(/\/+$/, '')}/api`;

  /** The function's answer to a visitor, or null when it is not a 200. */
  async function get(apiPath) {
    const response = await fetch(`${apiUrl}${apiPath}`, {
      headers: { accept: 'application/json', apikey: anonKey, authorization: `Bearer ${anonKey}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    return response.json();
  }

  return {
    async render(pathname, search = '', request = {}) {
      const id = COURSE_PAGE.exec(pathname)?.[1];
      if (!id && pathname !== '/') return null;
      // In the visitor's language: a link's ?lng=, their kept choice (the lang cookie), their browser's.
      const language = languageOfRequest(search, request.cookie, request.acceptLanguage);
      try {
        if (!id) {
          const page = await renderHomePage(search, get, language);
          return page ? fillTemplate(template, page, '^/$') : null;
        }
        const page = await renderCoursePage(id, get, language);
        return page ? fillTemplate(template, page, `^/course/${escapeRegExp(id)}/?$`) : null;
      } catch (error) {
        // The page still works without: the app renders it in the browser.
        console.error('[page-render]', error);
        return null;
      }
    },
  };
}
