// The web app as delivered: a visitor's page load makes no request that fails (the app
// asks for the user only when it holds a session), /robots.txt is a real robots file, and a
// learner finds their Dashboard in the navigation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { baseUrl, contrastProblems, launchBrowser } from './browser';
import { uiLogin } from './api';

describe('the web app as delivered', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a visitor\'s load of the catalogue and of /auth makes no request that fails', async () => {
    for (const path of ['/', '/auth']) {
      const page = await (await browser.newContext()).newPage();
      const failed: string[] = [];
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });
      page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
      await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle' });
      expect(failed, path).toEqual([]);
      await page.context().close();
    }
  });

  it('the contrast check finds text the colour of its background, which axe only marks for review', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.setContent(`<body style="background:#fff">
      <span class="mantine-Badge-root" style="background:#1864ab;color:#1971c2">Module 1</span>
      <button style="background:#1864ab;color:#fff">Readable</button>
      <a href="/x" style="color:#aaa">Faint link</a>
      <button disabled style="color:#ccc">Disabled</button></body>`);
    const problems = await contrastProblems(page);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^"Module 1" 1\.\d\d:1/);
    expect(problems[1]).toMatch(/^"Faint link"/);
    await page.context().close();
  });

  it('serves a real robots.txt, not the app\'s HTML', async () => {
    const response = await fetch(`${baseUrl}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).not.toMatch(/<html/i);
  });

  it('a signed-in learner reaches their Dashboard from the sidebar', async () => {
    const page = await (await browser.newContext()).newPage();
    await uiLogin(page, 'student');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'My Dashboard' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.context().close();
  });
});
