// One Vitest run, one project per layer. The Deno function tests run under `deno test` and the
// browser tests under their own project; scripts/test.mjs runs them all and totals the results.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const shared = fileURLToPath(new URL('./supabase/functions/_shared', import.meta.url));
const webSrc = fileURLToPath(new URL('./web/src', import.meta.url));
// Database files run side by side in this many workers (TEST_WORKERS to change it), each on a
// database of its own: a file waits on Postgres part of the time. Files share their worker's
// modules (isolate: false), so PGlite's WebAssembly, React and Mantine load once per worker, not
// once per file; each file's state is its own database and its own render. Platform files run one
// at a time, and browser files one at a time on each platform.
const workers = Number(process.env.TEST_WORKERS ?? 3);
// Browser files run in one worker per platform scripts/test.mjs started for them (E2E_PLATFORMS).
const browserWorkers = process.env.E2E_PLATFORMS ? JSON.parse(process.env.E2E_PLATFORMS).length : 1;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'db',
          environment: 'node',
          include: ['supabase/tests/**/*.test.ts'],
          // Builds the seeded database once per run; each file's create() copies it.
          globalSetup: ['supabase/tests/helpers/templates.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          maxWorkers: workers,
          isolate: false,
        },
      },
      {
        test: {
          name: 'platform',
          environment: 'node',
          include: ['platform/**/*.test.{ts,mjs}'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        plugins: [react()],
        resolve: { alias: { '@shared': shared, '@': webSrc } },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/src/**/*.test.{ts,tsx}', 'supabase/functions/_shared/**/*.test.ts'],
          setupFiles: ['web/src/test/setup.ts'],
          testTimeout: 20_000,
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          // One Chromium for the run; each file connects to it (e2e/browser.ts).
          globalSetup: ['e2e/browser-server.ts'],
          setupFiles: ['e2e/platform-of-worker.ts', 'e2e/failure-report.ts', 'e2e/rate-limits.ts'],
          // A browser test that fails is run once more: on a loaded machine a page can miss a
          // timeout once. `npm test` names every test that passed only on its retry, and what its
          // pages showed when it failed, so flakiness stays visible; a real fault fails both times.
          retry: 1,
          testTimeout: 120_000,
          hookTimeout: 600_000,
          maxWorkers: browserWorkers,
          fileParallelism: browserWorkers > 1,
        },
      },
    ],
  },
});
