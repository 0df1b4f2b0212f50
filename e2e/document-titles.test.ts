// Every page names itself: the tab reads "<page> · <site name>" with the site name
// from the site settings, each page has its own meta description, and after a client-side
// navigation focus lands on the new page's h1 (not on the first load, and not on a query change).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { appStarted, baseUrl, expectAccessible, launchBrowser } from './browser';
import { apiCall, uiLogin } from './api';

const SEP = ' · ';

describe('document titles, descriptions and focus after navigation', () => {
  let browser: Browser;
  let siteName: string;
  let course: { id: string; title: string; description: string };

  beforeAll(async () => {
    browser = await launchBrowser();
    const settings = await apiCall('GET', '/settings');
    // The header shows the configured name without its version; so does the title.
    siteName = String(settings.json.siteName).replace(/\s+v\d+(?:\.\d+)*$/, '').trim();
    const catalogue = await apiCall('GET', '/courses');
    const items = catalogue.json.items ?? catalogue.json.courses ?? catalogue.json;
    course = items[0];
    expect(course?.title).toBeTruthy();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function description(page: Page) {
    return page.evaluate(() => {
      const metas = document.head.querySelectorAll('meta[name="description"]');
      return { count: metas.length, content: metas[0]?.getAttribute('content') ?? '' };
    });
  }

  async function waitForTitle(page: Page, expected: string) {
    await page.waitForFunction((title) => document.title === title, expected, { timeout: 10_000 }).catch(() => undefined);
    expect(await page.title()).toBe(expected);
  }

  it('names the home page, a course page and /auth after the page and the site, with a description of each', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { level: 2, name: 'Available Courses' }).waitFor();
    await waitForTitle(page, siteName);
    const home = await description(page);
    expect(home.count).toBe(1);
    expect(home.content.length).toBeGreaterThan(30);

    await page.goto(`${baseUrl}/course/${course.id}`);
    await page.getByRole('heading', { level: 1, name: course.title }).waitFor();
    await waitForTitle(page, `${course.title}${SEP}${siteName}`);
    const courseMeta = await description(page);
    expect(courseMeta.count).toBe(1);
    expect(courseMeta.content).not.toBe(home.content);
    expect(course.description.replace(/\s+/g, ' ')).toContain(courseMeta.content.replace(/…$/, '').slice(0, 40));

    await page.goto(`${baseUrl}/auth`);
    await page.getByRole('heading', { level: 1, name: 'Sign in to your account' }).waitFor();
    await waitForTitle(page, `Sign in${SEP}${siteName}`);
    const auth = await description(page);
    expect(auth.count).toBe(1);
    expect(auth.content).not.toBe(home.content);
    expect(auth.content).not.toBe(courseMeta.content);

    await page.goto(`${baseUrl}/no-such-page`);
    await waitForTitle(page, `Page not found${SEP}${siteName}`);
    await page.context().close();
  });

  it('names signed-in pages too', async () => {
    const page = await (await browser.newContext()).newPage();
    await uiLogin(page, 'student');
    for (const [path, title] of [
      ['/my-courses', 'My Courses'],
      ['/dashboard', 'Dashboard'],
      ['/profile', 'Profile'],
      ['/certificates', 'Certificates'],
    ]) {
      await page.goto(`${baseUrl}${path}`);
      await waitForTitle(page, `${title}${SEP}${siteName}`);
      expect((await description(page)).count, path).toBe(1);
    }
    await page.context().close();
  });

  it('leaves focus alone on the first load, and moves it to the new page\'s h1 after following a link', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${baseUrl}/`);
    const link = page.getByRole('link', { name: course.title, exact: true }).first();
    await link.waitFor();
    // Followed once the app owns the page (the cards are in the HTML before): the app's navigation.
    await appStarted(page);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY');

    // By keyboard: focus the card's link and press Enter.
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/course/${course.id}`);
    const heading = page.getByRole('heading', { level: 1, name: course.title });
    await heading.waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1', undefined, { timeout: 10_000 }).catch(() => undefined);
    const focused = await page.evaluate(() => ({
      tag: document.activeElement?.tagName,
      text: document.activeElement?.textContent,
      tabIndex: (document.activeElement as HTMLElement | null)?.tabIndex,
    }));
    expect(focused).toEqual({ tag: 'H1', text: course.title, tabIndex: -1 });
    await waitForTitle(page, `${course.title}${SEP}${siteName}`);

    // Back to the catalogue by the page's own link: focus on the home page's h1.
    await page.getByRole('link', { name: /Back/ }).first().click();
    await page.waitForURL(`${baseUrl}/`);
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1', undefined, { timeout: 10_000 }).catch(() => undefined);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await waitForTitle(page, siteName);
    await expectAccessible(page);
    await page.context().close();
  });
});
