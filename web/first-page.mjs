// Serves /theme-init.js, the one small classic script index.html runs before anything is painted:
// it applies the saved colour scheme (web/theme-init.js) and, in a build, also loads the app: the
// entry script, its imports and the code of the page the visitor landed on, all asked for at once
// when the prerendered page has painted (web/prerender.mjs takes the entry out of the HTML), so the
// first paint waits for no JavaScript and a route's module is not asked for only after the main
// bundle has run (the router imports it lazily; docs/PERFORMANCE.md). The route's files are
// modulepreloads: fetched and parsed, run only when the router imports them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const themeInit = () => fs.readFileSync(path.join(webRoot, 'theme-init.js'), 'utf8');

/**
 * @param {Record<string, string>} firstPages route module (relative to web/) -> the pathname pattern
 *   of the page it renders; only pages a visitor lands on from outside are worth listing
 * @returns {import('vite').Plugin}
 */
export function firstPagePreload(firstPages) {
  return {
    name: 'first-page-preload',
    configureServer(server) {
      server.middlewares.use('/theme-init.js', (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
        res.end(themeInit());
      });
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const entry = chunks.find((chunk) => chunk.isEntry);
      // What the entry loads anyway: itself, its static imports, and the stages it imports one after
      // the other (web/src/main.tsx) with their static imports.
      const stages = new Set();
      const visitStage = (fileName) => {
        if (stages.has(fileName) || fileName === entry.fileName) return;
        stages.add(fileName);
        bundle[fileName].imports.forEach(visitStage);
      };
      [...entry.imports, ...entry.dynamicImports].forEach(visitStage);
      const loaded = new Set([entry.fileName, ...stages]);
      const pages = Object.entries(firstPages).map(([module, pattern]) => {
        const route = chunks.find((chunk) => chunk.facadeModuleId === path.join(webRoot, module));
        if (!route) throw new Error(`first-page preload: no chunk for ${module}`);
        const files = new Set();
        const visit = (fileName) => {
          if (files.has(fileName) || loaded.has(fileName)) return;
          files.add(fileName);
          bundle[fileName].imports.forEach(visit);
        };
        visit(route.fileName);
        const css = [...files].flatMap((file) => [...(bundle[file].viteMetadata?.importedCss ?? [])]);
        return [pattern, [...files].map((file) => `/${file}`), css.map((file) => `/${file}`)];
      });
      // The entry and what it imports (the <script type="module"> and modulepreloads web/prerender.mjs
      // takes out of the HTML, and its stages' files), the entry last.
      const entryFiles = [...[...stages].map((file) => `/${file}`), `/${entry.fileName}`];
      const preload = `
// Added by web/first-page.mjs: the app's code, asked for once the page has painted (the HTML carries
// the page, web/prerender.mjs), with the code of the page the visitor landed on fetched beside it.
(function () {
  var entry = ${JSON.stringify(entryFiles)};
  var pages = ${JSON.stringify(pages)};
  // The links go into the head in one insertion: one by one, each insertion of the head, whose
  // prerendered styles are large, cost a long task on a slow phone.
  var links = document.createDocumentFragment();
  function add(rel, href, as) {
    var link = document.createElement('link');
    link.rel = rel;
    link.href = href;
    if (as) link.as = as;
    link.crossOrigin = '';
    links.appendChild(link);
  }
  function start() {
    for (var e = 0; e < entry.length - 1; e++) add('modulepreload', entry[e]);
    for (var i = 0; i < pages.length; i++) {
      if (new RegExp(pages[i][0]).test(window.location.pathname)) {
        for (var j = 0; j < pages[i][1].length; j++) add('modulepreload', pages[i][1][j]);
        for (var k = 0; k < pages[i][2].length; k++) add('preload', pages[i][2][k], 'style');
        break;
      }
    }
    var script = document.createElement('script');
    script.type = 'module';
    script.src = entry[entry.length - 1];
    script.crossOrigin = '';
    links.appendChild(script);
    document.head.appendChild(links);
  }
  // Once the page has loaded (its stylesheet and images) and been painted, when the HTML is the page
  // asked for: a timer queued from the first requestAnimationFrame after the load event runs once
  // that frame is drawn. A frame drawn earlier may hold only part of the page, and the app's code
  // would then load and run before the page's largest element is painted. At once when the HTML is
  // not the page asked for (theme-init.js has hidden another page's content: only the app can show
  // this one), and in a tab in the background, which paints no frames.
  var other = document.documentElement.hasAttribute('data-other-page');
  function afterPaint() {
    if (document.visibilityState === 'hidden') start();
    else window.requestAnimationFrame(function () { setTimeout(start, 0); });
  }
  if (other || document.visibilityState === 'hidden' || !window.requestAnimationFrame) start();
  else if (document.readyState === 'complete') afterPaint();
  else window.addEventListener('load', afterPaint, { once: true });
})();
`;
      this.emitFile({ type: 'asset', fileName: 'theme-init.js', source: themeInit() + preload });
    },
  };
}
