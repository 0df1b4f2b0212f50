// Serves /theme-init.js, the one small classic script index.html runs before anything is painted:
// it applies the saved colour scheme (web/theme-init.js) and, in a build, also starts downloading
// the code of the page the visitor landed on. Without that, a route's module is asked for only after
// the whole main bundle has downloaded and run (the router imports it lazily), one more round trip
// before the first paint on a slow connection (docs/PERFORMANCE.md). The links are modulepreloads:
// the browser fetches and parses the files but runs nothing until the router imports them.
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
      // What index.html already loads: the entry and its static imports.
      const loaded = new Set([entry.fileName, ...entry.imports]);
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
      const preload = `
// Added by web/first-page.mjs: the code of the page the visitor landed on, fetched beside the main bundle.
(function () {
  var pages = ${JSON.stringify(pages)};
  function add(rel, href, as) {
    var link = document.createElement('link');
    link.rel = rel;
    link.href = href;
    if (as) link.as = as;
    link.crossOrigin = '';
    document.head.appendChild(link);
  }
  for (var i = 0; i < pages.length; i++) {
    if (new RegExp(pages[i][0]).test(window.location.pathname)) {
      for (var j = 0; j < pages[i][1].length; j++) add('modulepreload', pages[i][1][j]);
      for (var k = 0; k < pages[i][2].length; k++) add('preload', pages[i][2][k], 'style');
      return;
    }
  }
})();
`;
      this.emitFile({ type: 'asset', fileName: 'theme-init.js', source: themeInit() + preload });
    },
  };
}
