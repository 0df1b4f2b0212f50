// Build-time prerendering: after `vite build` has written the app, the pages a visitor lands on from
// outside are rendered to HTML with the app's own components (web/src/prerender.tsx, built for Node
// by a second, SSR build of the same sources) and written into the build: / as index.html and /auth
// as auth/index.html. The browser paints that HTML before any JavaScript has arrived; the app then
// starts on the same page (web/src/main.tsx). The HTML carries no data of the API (it is built
// once, a static host cannot refresh it): the catalogue loads as before. A course page, whose
// content is the API's, is rendered on request by the same renderer, kept beside the build
// (platform/page-render.mjs).
//
// index.html is also what every other path is answered with (the single-page-app fallback): there
// theme-init.js marks <html> as showing another page, and AppLayout's CSS hides the home page's
// content (the header, navigation and footer stay) until the app renders the page asked for.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/** The prerendered pages: path, the pattern of the paths they answer, and the file written. */
export const PRERENDERED = [
  { path: '/', pattern: '^/$', file: 'index.html' },
  { path: '/auth', pattern: '^/auth/?$', file: 'auth/index.html' },
];

/** The renderer's folder beside a build's folder, its entry and the client's untouched index.html. */
export const renderDirOf = (outDir) => `${outDir.replace(/[\\/]+$/, '')}-render`;
/** @param {string} renderDir */
export const renderEntry = (renderDir) => {
  const name = fs.existsSync(renderDir) ? fs.readdirSync(renderDir).find((file) => /^prerender\.m?js$/.test(file)) : undefined;
  return name ? path.join(renderDir, name) : null;
};
export const RENDER_TEMPLATE = 'template.html';

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The client's index.html with a prerendered page in it. The entry script and its modulepreloads
 * are taken out: theme-init.js adds them once the page has painted (web/first-page.mjs), so the
 * first paint never waits for JavaScript.
 * @param {string} template
 * @param {{ html: string, title: string, description: string, data?: unknown, language?: string }} page
 * @param {string} pattern
 */
export function fillTemplate(template, page, pattern) {
  // The answers the page was rendered with, for the app to start from (web/src/main.tsx): JSON,
  // which the CSP does not run, with '<' escaped so no text in it can close the element.
  const data = page.data ? `<script type="application/json" id="page-data">${JSON.stringify(page.data).replace(/</g, '\\u003c')}</script>` : '';
  let html = template
    .replace(/\s*<script type="module"[^>]*src="[^"]*"[^>]*><\/script>/g, '')
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    // Light until theme-init.js applies the saved scheme: Mantine's colours hang on the attribute.
    .replace('<html lang="en-GB">', `<html lang="${escapeHtml(page.language ?? 'en-GB')}" data-mantine-color-scheme="light" class="light" data-prerendered="${escapeHtml(pattern)}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
    .replace(/<meta name="description" content="[^"]*" \/>/, `<meta name="description" content="${escapeHtml(page.description)}" />`);
  if (!html.includes('<div id="root"></div>')) throw new Error('prerender: no empty #root in index.html');
  html = html.replace('<div id="root"></div>', () => `<div id="root">${page.html}</div>${data}`);
  return html;
}

/** @returns {import('vite').Plugin} */
export function prerender() {
  /** @type {import('vite').ResolvedConfig} */
  let config;
  return {
    name: 'prerender',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      sequential: true,
      async handler() {
        const outDir = config.build.outDir;
        const { build } = await import('vite');
        // Beside the build, not in it (a static host has no use for it): the renderer the gateway
        // uses for pages rendered on request (platform/page-render.mjs), one file with its
        // dependencies, so it runs wherever the build is copied.
        const renderDir = renderDirOf(outDir);
        await build({
          configFile: config.configFile,
          mode: config.mode,
          logLevel: 'warn',
          ssr: { noExternal: true },
          build: { ssr: path.join(webRoot, 'src', 'prerender.tsx'), outDir: renderDir, emptyOutDir: true, copyPublicDir: false },
        });
        const entry = renderEntry(renderDir);
        if (!entry) throw new Error(`prerender: no SSR entry in ${renderDir}`);
        const { prerender: render } = await import(pathToFileURL(entry).href);
        const template = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
        fs.writeFileSync(path.join(renderDir, RENDER_TEMPLATE), template);
        for (const page of PRERENDERED) {
          const result = await render(page.path);
          const file = path.join(outDir, page.file);
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, fillTemplate(template, result, page.pattern));
        }
      },
    },
  };
}
