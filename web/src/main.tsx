// The entry. The app's styles are one stylesheet (index.html links it, web/vite.config.ts). Its
// code starts the app in stages, each evaluated in a task of its own with the browser free in
// between: React, the router, TanStack Query (three vendor chunks, web/vite.config.ts), Mantine
// and the app's providers, then the app shell, which starts the app (app/start.tsx). Evaluated at
// once, the app's code was one long task (about 0.4 s on Lighthouse's slowed phone) while the
// prerendered page was already on screen (docs/PERFORMANCE.md). web/first-page.mjs preloads every
// stage's files with the entry, so no stage waits for the network.
import '@/app/mantine-styles';
import { configureZod } from '@/lib/zod-config';

// zod would probe `new Function` to compile faster parsers; the Content-Security-Policy allows no
// eval, so the probe would be reported as a violation. Validate without it (set without importing
// zod, which only the forms' chunks need).
configureZod();

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function boot() {
  await import('react-dom/client');
  await nextTask();
  // A stage names what it uses: a module's whole namespace, imported, would keep every export in
  // the bundle (react-router's server rendering too, 30 KB gzipped).
  await import('react-router').then(({ createBrowserRouter }) => createBrowserRouter);
  await nextTask();
  await import('@/lib/query-client');
  await nextTask();
  await import('@/app/provider');
  await nextTask();
  const { start } = await import('@/app/start');
  await start();
}

void boot();
