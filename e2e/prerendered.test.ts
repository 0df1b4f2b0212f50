// The first paint waits for no JavaScript (web/prerender.mjs, docs/decisions/first-paint.md): the HTML
// of / and /auth carries the page, rendered with the app's own components (at build time, and / again
// on request with the catalogue's first page); the app's
// code is asked for once that page has painted, and hydrates it: React keeps the prerendered DOM
// (no element replaced, nothing moves). Until then the sign-in form cannot be used (read-only fields,
// a disabled button: nothing typed is lost to hydration). A course page rendered on request is a
// visitor's: a signed-in person gets their own, on arrival and after signing in. The home page
// answering for another path (the single-page-app fallback) keeps its content hidden until the app
// renders the page asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, uiLogin } from './api';
import { appStarted, baseUrl, expectAccessible, launchBrowser } from './browser';

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

async function signedIn(page: Page) {
  await page.waitForURL(`${baseUrl}/`, { timeout: 30_000 });
  await page.getByRole('button', { name: /Account menu for/ }).waitFor({ timeout: 10_000 });
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
      // (The answers the page was rendered with are beside it as JSON, which nothing runs.)
      const scripts = await page.evaluate(() => [...document.scripts].map((script) => script.getAttribute('src') ?? script.type));
      expect(scripts).toEqual(['/theme-init.js', 'application/json']);
    } finally {
      await context.close();
    }
  });

  it("with JavaScript off, / carries the catalogue's first page, rendered on request with the URL's filters", async () => {
    type Page = { items: { id: string; title: string }[]; total: number };
    const api = async (query: string) => (await (await fetch(`${baseUrl}/functions/v1/api/courses?${query}`)).json()) as Page;
    const all = await api('page=1&pageSize=12&status=ACTIVE');
    const service = 'UKFRS';
    const police = await api(`page=1&pageSize=12&status=ACTIVE&service=${service}`);
    expect(all.items.length).toBeGreaterThan(0);
    expect(police.total).toBeLessThan(all.total);
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      for (const [path, expected] of [['/', all], [`/?service=${service}`, police]] as const) {
        const answer = await page.goto(`${baseUrl}${path}`);
        expect(answer?.headers()['cache-control']).toBe('no-store');
        const shown = page.locator('#main-content a[href^="/course/"]');
        await shown.first().waitFor({ timeout: 5_000 });
        const hrefs = await shown.evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute('href')))]);
        expect(hrefs).toEqual(expected.items.map((course) => `/course/${course.id}`));
        await page.getByText(`Showing ${expected.items.length} of ${expected.total} course`).waitFor({ timeout: 5_000 });
      }
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
        // 'load': the stylesheet applied, so the boxes are the painted page's (the entry is held).
        await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' });
        // On /, the first card too: the catalogue's first page is in the HTML (rendered on request).
        const selectors = ['header', 'h1', '#main-content', 'footer', ...(path === '/' ? ['#main-content a[href^="/course/"]'] : [])];
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
        expect(after.map((element) => element?.kept)).toEqual(selectors.map(() => true));
        // Header, heading and the first card where they were painted.
        expect(after[0]?.box).toEqual(before[0]);
        expect(after[1]?.box).toEqual(before[1]);
        if (path === '/') expect(after[4]?.box).toEqual(before[4]);
        await expectAccessible(page);
      } finally {
        await context.close();
      }
    });
  }

  it('/auth: until the app owns the sign-in form, it cannot be used; then a sign-in goes through', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const posted: string[] = [];
      page.on('request', (request) => {
        if (request.method() !== 'GET' || request.url().includes('password')) posted.push(`${request.method()} ${request.url()}`);
      });
      const release = await holdEntry(page);
      await page.goto(`${baseUrl}/auth`, { waitUntil: 'domcontentloaded' });
      const username = page.getByLabel('Username');
      const password = page.getByLabel('Password', { exact: true });
      const submit = page.getByRole('button', { name: 'Login', exact: true });
      await username.waitFor({ timeout: 10_000 });
      // Read-only fields (nothing typed can be lost to hydration), a disabled button, tabs that say
      // they do nothing yet: labelled, and axe-clean as they are.
      expect(await username.getAttribute('readonly')).not.toBeNull();
      expect(await password.getAttribute('readonly')).not.toBeNull();
      expect(await submit.isDisabled()).toBe(true);
      expect(await page.getByRole('tab', { name: 'Register' }).getAttribute('aria-disabled')).toBe('true');
      await expectAccessible(page);
      // Keys go nowhere, Enter submits nothing (the default button is disabled).
      await username.press('a');
      await username.press('Enter');
      await page.waitForTimeout(300);
      expect(await username.inputValue()).toBe('');
      expect(page.url()).toBe(`${baseUrl}/auth`);
      release();
      // Playwright's fill waits for an editable field: the app's own.
      await username.fill('student');
      await password.fill('password123');
      await submit.click();
      await signedIn(page);
      expect(posted.filter((request) => request.includes('password123') || request.endsWith('/auth'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('/auth: typed key by key as soon as the form is editable, the sign-in keeps every character', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/auth`, { waitUntil: 'domcontentloaded' });
      // As the tests sign in (e2e/api.ts): at once, while the app loads and hydrates.
      await page.getByLabel('Username').fill('student');
      await page.getByLabel('Password', { exact: true }).pressSequentially('password123', { delay: 20 });
      expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('password123');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await signedIn(page);
    } finally {
      await context.close();
    }
  });

  it('/auth: the Register tab pressed at once opens the registration form', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/auth`);
      // The click waits for the app (the tab is aria-disabled until then) rather than being lost.
      await page.getByRole('tab', { name: 'Register' }).click();
      await page.getByRole('heading', { level: 1, name: 'Create a new account' }).waitFor({ timeout: 10_000 });
      await page.getByLabel('Email').waitFor({ timeout: 10_000 });
    } finally {
      await context.close();
    }
  });

  it('a course page carries the course and its outline, rendered on request, and the app hydrates it', async () => {
    const catalogue = (await (await fetch(`${baseUrl}/functions/v1/api/courses`)).json()) as { items: { id: string; title: string }[] };
    const course = catalogue.items[0]!;
    const modules = (await (await fetch(`${baseUrl}/functions/v1/api/courses/${course.id}/modules`)).json()) as { title: string }[];
    expect(modules.length).toBeGreaterThan(0);
    const off = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await off.newPage();
      const answer = await page.goto(`${baseUrl}/course/${course.id}`);
      expect(answer?.headers()['cache-control']).toBe('no-store');
      await expect(page.title()).resolves.toBe(`${course.title} · Emergency Services Learning`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(course.title);
      const outline = page.getByRole('list', { name: 'Modules' });
      for (const module of modules) await outline.getByText(module.title).first().waitFor({ timeout: 5_000 });
    } finally {
      await off.close();
    }
    // An unknown course is left to the app, which says so.
    const missing = await browser.newContext();
    try {
      const page = await missing.newPage();
      await page.goto(`${baseUrl}/course/00000000-0000-4000-8000-000000000000`);
      await page.getByRole('heading', { level: 1, name: /not found/i }).waitFor({ timeout: 30_000 });
    } finally {
      await missing.close();
    }
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      const release = await holdEntry(page);
      // 'load': the stylesheet applied, so the boxes are the painted page's (the entry is held).
      await page.goto(`${baseUrl}/course/${course.id}`, { waitUntil: 'load' });
      const selectors = ['header', 'h1', '#course-details', 'footer'];
      await page.locator('h1').waitFor({ timeout: 10_000 });
      const before = await markElements(page, selectors);
      expect(before.every(Boolean)).toBe(true);
      release();
      await appStarted(page);
      await page.waitForFunction(() => {
        const button = [...document.querySelectorAll('button')].find((element) => element.textContent === 'Login to Enroll');
        return button !== undefined && Object.keys(button).some((key) => key.startsWith('__reactProps$'));
      }, null, { timeout: 30_000 });
      // Hydrated, not rendered anew: the same elements, the heading where it was painted.
      const after = await marksKept(page, selectors);
      expect(after.map((element) => element?.kept)).toEqual([true, true, true, true]);
      expect(after[1]?.box).toEqual(before[1]);
      await expectAccessible(page);
      // Live: the visitor's main button takes them to sign in.
      await page.getByRole('button', { name: 'Login to Enroll' }).click();
      await page.waitForURL(/\/auth\?/, { timeout: 30_000 });
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: course.title }).waitFor({ timeout: 30_000 });
    } finally {
      await context.close();
    }
  });

  it("a signed-in learner's course page and home page rendered on request become their own: on arrival, and after signing in", async () => {
    const suffix = Date.now().toString(36);
    const learner = { username: `prerendered_${suffix}`, email: `prerendered_${suffix}@example.uk`, name: 'Robin Ashdown', password: 'prerendered-pass-7' };
    const registered = await apiCall('POST', '/register', undefined, { ...learner, confirmPassword: learner.password });
    expect(registered.status, registered.text).toBe(201);
    const { token } = await apiLogin(learner.username, learner.password);
    const catalogue = (await (await fetch(`${baseUrl}/functions/v1/api/courses?pageSize=50`)).json()) as { items: { id: string; title: string; approvalRequired?: boolean }[] };
    const course = catalogue.items.find((item) => !item.approvalRequired)!;
    const enrolled = await apiCall('POST', `/courses/${course.id}/enroll`, token);
    expect(enrolled.status, enrolled.text).toBe(201);

    // Arriving signed in: the HTML is the visitor's page (its 'Login to Enroll' not shown); the app
    // asks for the course again with the session and draws the learner's page, no reload.
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await uiLogin(page, learner.username, learner.password);
      const release = await holdEntry(page);
      await page.goto(`${baseUrl}/course/${course.id}`, { waitUntil: 'domcontentloaded' });
      await page.locator('h1').waitFor({ timeout: 10_000 });
      expect(await page.getByRole('button', { name: 'Login to Enroll' }).isVisible()).toBe(false);
      release();
      await page.getByRole('button', { name: 'Start Course' }).waitFor({ timeout: 30_000 });
      expect(await page.getByRole('button', { name: 'Login to Enroll' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Enroll Now' }).count()).toBe(0);
      await page.getByRole('button', { name: /Account menu for/ }).waitFor({ timeout: 10_000 });

      // The home page likewise: the visitor's catalogue in its HTML is not shown; the learner's is,
      // with their progress on the course.
      const releaseHome = await holdEntry(page);
      await page.goto(`${baseUrl}/?search=${encodeURIComponent(course.title)}`, { waitUntil: 'domcontentloaded' });
      const card = page.locator(`[data-course-card="${course.id}"]`);
      await card.waitFor({ state: 'attached', timeout: 10_000 });
      expect(await card.isVisible()).toBe(false);
      expect(await page.getByText(/Showing \d+ of \d+ course/).isVisible()).toBe(false);
      releaseHome();
      await card.getByRole('button', { name: 'Start Course' }).waitFor({ timeout: 30_000 });
      expect(await card.getByText('Progress').isVisible()).toBe(true);
    } finally {
      await context.close();
    }

    // Hydrated as a visitor, then signed in through /auth: back on the course, the learner's page.
    const visitor = await browser.newContext();
    try {
      const page = await visitor.newPage();
      await page.goto(`${baseUrl}/course/${course.id}`);
      await page.getByRole('button', { name: 'Login to Enroll' }).click();
      await page.waitForURL(/\/auth\?/, { timeout: 30_000 });
      await page.getByLabel('Username').fill(learner.username);
      await page.getByLabel('Password', { exact: true }).fill(learner.password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.waitForURL(new RegExp(`/course/${course.id}$`), { timeout: 30_000 });
      await page.getByRole('button', { name: 'Start Course' }).waitFor({ timeout: 30_000 });
      expect(await page.getByRole('button', { name: 'Enroll Now' }).count()).toBe(0);
    } finally {
      await visitor.close();
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
