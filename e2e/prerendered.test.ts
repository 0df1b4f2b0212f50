// The first paint waits for no JavaScript (web/prerender.mjs, docs/decisions/first-paint.md): the HTML
// of / and /auth carries the page, rendered at build time with the app's own components; the app's
// code is asked for once that page has painted, and hydrates it: React keeps the prerendered DOM
// (no element replaced, nothing moves), what a visitor typed before then is kept, and the home page
// answering for another path (the single-page-app fallback) keeps its content hidden until the app
// renders the page asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser } from './browser';

/** The entry script, held back until `release` is called (the prerendered page is all there is until then). */
async function holdEntry(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]{8}\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Marks elements so that their survival of the app's start can be checked; returns their boxes. */
function markElements(page: Page, selectors: string[]) {
  return page.evaluate((list) => {
    return list.map((selector) => {
      const element = document.querySelector(selector) as (HTMLElement & { prerenderedMark?: string }) | null;
      if (!element) return null;
      element.prerenderedMark = selector;
      const box = element.getBoundingClientRect();
      return { x: box.x, y: box.y, width: box.width, height: box.height };
    });
  }, selectors);
}

function marksKept(page: Page, selectors: string[]) {
  return page.evaluate((list) => {
    return list.map((selector) => {
      const element = document.querySelector(selector) as (HTMLElement & { prerenderedMark?: string }) | null;
      if (!element) return null;
      const box = element.getBoundingClientRect();
      return { kept: element.prerenderedMark === selector, box: { x: box.x, y: box.y, width: box.width, height: box.height } };
    });
  }, selectors);
}

/** The app has taken over: it clears the prerendered page's mark on <html> in its first commit. */
async function appStarted(page: Page) {
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-prerendered'), null, { timeout: 30_000 });
}

describe('the prerendered pages', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('with JavaScript off, / carries its headings, text and links', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/`);
      await expect(page.title()).resolves.toBe('Emergency Services Learning');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Emergency Services Learning');
      await page.getByRole('heading', { level: 2, name: 'Available Courses' }).waitFor({ timeout: 5_000 });
      await page.getByText('Comprehensive training for emergency service professionals across the United Kingdom.').waitFor({ timeout: 5_000 });
      expect(await page.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/auth');
      expect(await page.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/auth');
      expect(await page.getByRole('link', { name: 'Accessibility statement' }).getAttribute('href')).toBe('/accessibility');
      // No script of the page but theme-init.js: the app's code is added by it, after the first paint.
      const scripts = await page.evaluate(() => [...document.scripts].map((script) => script.getAttribute('src')));
      expect(scripts).toEqual(['/theme-init.js']);
    } finally {
      await context.close();
    }
  });

  it('with JavaScript off, /auth carries the sign-in form', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/auth`);
      await expect(page.title()).resolves.toBe('Sign in · Emergency Services Learning');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to your account');
      await page.getByRole('tab', { name: 'Login' }).waitFor({ timeout: 5_000 });
      await page.getByRole('tab', { name: 'Register' }).waitFor({ timeout: 5_000 });
      await page.getByLabel('Username').waitFor({ timeout: 5_000 });
      await page.getByLabel('Password', { exact: true }).waitFor({ timeout: 5_000 });
      await page.getByRole('button', { name: 'Login', exact: true }).waitFor({ timeout: 5_000 });
      expect(await page.getByRole('link', { name: 'Return to home page' }).getAttribute('href')).toBe('/');
    } finally {
      await context.close();
    }
  });

  for (const path of ['/', '/auth']) {
    it(`${path}: the app hydrates the prerendered page: the same elements, in the same places`, async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      try {
        const page = await context.newPage();
        const release = await holdEntry(page);
        await page.goto(`${baseUrl}${path}`, { waitUntil: 'domcontentloaded' });
        const selectors = ['header', 'h1', '#main-content', 'footer'];
        await page.locator('h1').waitFor({ timeout: 10_000 });
        const before = await markElements(page, selectors);
        expect(before.every(Boolean)).toBe(true);
        release();
        await appStarted(page);
        // The page is live: a control only the app can answer.
        if (path === '/') await page.getByText(/Showing \d+ of \d+ course/).waitFor({ timeout: 30_000 });
        else {
          await page.getByRole('tab', { name: 'Register' }).click();
          await page.getByRole('heading', { level: 1, name: 'Create a new account' }).waitFor({ timeout: 10_000 });
          await page.getByRole('tab', { name: 'Login' }).click();
        }
        const after = await marksKept(page, selectors);
        expect(after.map((element) => element?.kept)).toEqual([true, true, true, true]);
        // Header and heading where they were painted (the footer moves down as the catalogue grows).
        expect(after[0]?.box).toEqual(before[0]);
        expect(after[1]?.box).toEqual(before[1]);
        await expectAccessible(page);
      } finally {
        await context.close();
      }
    });
  }

  it('/auth: what is typed before the app has started is kept, and signs in', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const release = await holdEntry(page);
      await page.goto(`${baseUrl}/auth`, { waitUntil: 'domcontentloaded' });
      await page.getByLabel('Username').fill('student');
      await page.getByLabel('Password', { exact: true }).fill('password123');
      release();
      await appStarted(page);
      await page.waitForFunction(() => {
        const field = document.querySelector('input');
        return field !== null && Object.keys(field).some((key) => key.startsWith('__reactProps$'));
      }, null, { timeout: 30_000 });
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.waitForURL(`${baseUrl}/`, { timeout: 30_000 });
      await page.getByRole('button', { name: /Account menu for/ }).waitFor({ timeout: 10_000 });
    } finally {
      await context.close();
    }
  });

  it('the home page answering for another path keeps its content hidden until the app shows that path', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const release = await holdEntry(page);
      await page.goto(`${baseUrl}/accessibility`, { waitUntil: 'domcontentloaded' });
      await page.locator('#main-content').waitFor({ state: 'attached', timeout: 10_000 });
      expect(await page.evaluate(() => document.documentElement.hasAttribute('data-other-page'))).toBe(true);
      // The home page's heading is in the HTML but not shown.
      expect(await page.getByRole('heading', { level: 1, name: 'Emergency Services Learning' }).isVisible()).toBe(false);
      release();
      await page.getByRole('heading', { level: 1, name: /Accessibility statement/ }).waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => document.documentElement.hasAttribute('data-other-page'))).toBe(false);
    } finally {
      await context.close();
    }
  });
});
