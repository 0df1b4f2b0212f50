// Vite config for the web app. Root is web/; the platform builds into its data dir with --outDir
// (or VITE_OUT_DIR). `npm run dev` proxies the Supabase URL shapes to the local gateway.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from './precompress.mjs';
import { firstPagePreload } from './first-page.mjs';
import { prerender } from './prerender.mjs';
import { VitePWA } from 'vite-plugin-pwa';
import { webManifest } from './manifest.mjs';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const mantineUseId = fileURLToPath(new URL('./src/lib/mantine-use-id.ts', import.meta.url));
const removeScrollClassNames = fileURLToPath(new URL('./src/lib/mantine-parts/remove-scroll-class-names.ts', import.meta.url));
const deferredParts = fileURLToPath(new URL('./src/lib/mantine-parts/deferred.tsx', import.meta.url));
// Its real path, as Vite names the package's other modules (node_modules may be a link).
const mantineCoreEsm = fs.realpathSync(fileURLToPath(new URL('../node_modules/@mantine/core/esm', import.meta.url)));
const gateway = process.env.GATEWAY_URL || 'http://127.0.0.1:54321';

export default defineConfig(({ isSsrBuild }) => ({
  root: webRoot,
  plugins: [
    react(),
    // Mantine's useId replaced by one that renders once (src/lib/mantine-use-id.ts), in the
    // browser's build and the prerender's alike, so their ids agree.
    {
      name: 'mantine-use-id',
      enforce: 'pre',
      resolveId: (source, importer) =>
        /[\\/]use-id[\\/]use-id\.mjs$/.test(source) && /@mantine[\\/]hooks/.test(importer ?? '') ? mantineUseId : null,
    },
    // What the first page's Mantine components import and the app never has them run, out of its
    // code (docs/decisions/first-paint.md; src/lib/mantine-parts/): react-remove-scroll, of which the
    // AppShell's sections read two class names, and, loaded when first rendered, a resizable
    // AppShell's resize handle and a NavLink's Collapse and chevron for nested links.
    {
      name: 'mantine-parts',
      enforce: 'pre',
      resolveId: (source, importer = '') => {
        if (source.startsWith('mantine-part:')) return path.join(mantineCoreEsm, source.slice('mantine-part:'.length));
        if (/@mantine[\\/]core[\\/]esm[\\/]components[\\/]AppShell[\\/]/.test(importer)) {
          if (source === 'react-remove-scroll') return removeScrollClassNames;
          if (/[\\/]AppShellResizeHandle\.mjs$/.test(source)) return deferredParts;
        }
        if (/@mantine[\\/]core[\\/]esm[\\/]components[\\/]NavLink[\\/]NavLink\.mjs$/.test(importer)
          && /[\\/](Collapse|AccordionChevron)\.mjs$/.test(source)) return deferredParts;
        return null;
      },
    },
    // The SSR build (web/prerender.mjs) renders pages at build time only: none of what follows.
    ...(isSsrBuild ? [] : [
    // The pages a visitor lands on from outside (a link, a search, a bookmark), with the paths they
    // answer (the same as web/src/app/routes.tsx).
    firstPagePreload({
      'src/app/routes/home.tsx': '^/$',
      'src/app/routes/auth.tsx': '^/auth/?$',
      'src/app/routes/course.tsx': '^/course/(?!create/?$)[^/]+/?$',
      'src/app/routes/verify.tsx': '^/verify/[^/]+/?$',
    }),
    // /, /auth rendered to HTML with the app's components, then compressed with the rest.
    prerender(),
    // The installable app: the manifest, and the service worker (web/sw/sw.ts, Workbox) with the app
    // shell and the hashed assets precached. The app registers it itself (src/lib/offline/register.ts):
    // the HTML carries no script of the entry (web/first-page.mjs). No service worker in development.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: webManifest,
      includeManifestIcons: false,
      injectManifest: {
        // The app's code, styles, pages and icons; not the .br/.gz copies (the server negotiates them).
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        globIgnores: ['**/node_modules/**', 'scorm-player/**'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    precompress(),
    ]),
  ],
  resolve: {
    alias: {
      '@shared': fileURLToPath(new URL('../supabase/functions/_shared', import.meta.url)),
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  css: {
    postcss: webRoot,
  },
  server: {
    proxy: {
      '/auth/v1': { target: gateway, changeOrigin: true },
      '/storage/v1': { target: gateway, changeOrigin: true },
      '/functions/v1': { target: gateway, changeOrigin: true },
    },
  },
  build: {
    outDir: process.env.VITE_OUT_DIR || fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: process.env.VITE_SOURCEMAP === "1",
    // One stylesheet, linked from index.html: the prerendered pages (web/prerender.mjs) are painted
    // before any JavaScript, so the styles of every module they show (the layout's, whose code the
    // entry loads in a later stage, web/src/main.tsx) must be in it.
    cssCodeSplit: false,
    rolldownOptions: isSsrBuild ? {} : {
      output: {
        // Long-lived vendor chunks, so a change to the app does not invalidate them.
        codeSplitting: {
          groups: [
            // Three, not one: web/src/main.tsx evaluates them in turn, each in a task of its own.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 20 },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/, priority: 20 },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 20 },
            // Mantine's parts that forty or more of the app's chunks share, in one chunk, not dozens
            // of 1-2 KB ones: each file is a preload theme-init.js inserts after the paint, about a
            // millisecond of main thread each (docs/decisions/first-paint.md). The rest stays with
            // the routes that use it: at a dozen, the chunk held 27 KB (gzipped) that / never runs.
            // ScrollArea stays out: a dozen chunks share it, / does not use it.
            // Floating UI (menus, popovers, selects) stays out too: no visitor's first page opens one.
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/](core|hooks)[\\/](?!.*[\\/]ScrollArea[\\/])/, minShareCount: 40, priority: 15 },
            { name: 'supabase', test: /node_modules[\\/]@supabase[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
}));
