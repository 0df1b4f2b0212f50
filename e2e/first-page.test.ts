// The page a visitor lands on starts downloading its own code beside the main bundle
// (web/first-page.mjs, docs/PERFORMANCE.md): the route's module is asked for while the main bundle
// is still on its way, not one round trip after it has run. Proved by holding the main bundle back:
// the route's module must still be requested, and the page must then render normally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { baseUrl, launchBrowser } from './browser';
import { apiCall } from './api';

describe('the first page fetches its code beside the main bundle', () => {
  let browser: Browser;
  let courseId: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    const catalogue = await apiCall('GET', '/courses');
    courseId = catalogue.json.items[0].id;
  });
  afterAll(async () => {
    await browser?.close();
  });

  const pages = [
    { name: '/', path: () => '/', chunk: /\/assets\/home-[\w-]{8}\.js$/, heading: 'Emergency Services Learning' },
    { name: '/auth', path: () => '/auth', chunk: /\/assets\/auth-[\w-]{8}\.js$/, heading: 'Sign in to your account' },
    { name: 'a course page', path: () => `/course/${courseId}`, chunk: /\/assets\/course-[\w-]{8}\.js$/, heading: null },
  ];

  for (const { name, path, chunk, heading } of pages) {
    it(`${name}: the route's module is requested while the main bundle is held back`, async () => {
      const page = await browser.newPage();
      try {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route(/\/assets\/index-[\w-]{8}\.js$/, async (route) => {
          await held;
          await route.continue();
        });
        const routeModule = page.waitForRequest((request) => chunk.test(new URL(request.url()).pathname), { timeout: 20_000 });
        const navigation = page.goto(`${baseUrl}${path()}`);
        const request = await routeModule.finally(release);
        expect(new URL(request.url()).pathname).toMatch(chunk);
        await navigation;
        const h1 = page.getByRole('heading', { level: 1 });
        await h1.first().waitFor({ timeout: 30_000 });
        if (heading) expect(await h1.first().textContent()).toContain(heading);
      } finally {
        await page.close();
      }
    });
  }
});
