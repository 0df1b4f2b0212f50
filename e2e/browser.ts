// Real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, against the platform that
// scripts/test.mjs started the way `npm start` does (PLATFORM_URL).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { expect } from 'vitest';

export const baseUrl = process.env.PLATFORM_URL ?? 'http://127.0.0.1:54321';
export const artefactsDir = path.resolve('test-results', 'screenshots');

/** Content-Security-Policy violations Chromium reported in this file's pages (expectAccessible requires none). */
export const cspViolations: string[] = [];

export async function launchBrowser(): Promise<Browser> {
  // Playwright gives every launch a fresh, empty profile of its own.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Every context reports what the served CSP refused, so every suite checks the app runs under it.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const context = await newContext(...args);
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(`${message.page()?.url() ?? ''}: ${message.text()}`);
    });
    return context;
  };
  return browser;
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(artefactsDir, { recursive: true });
  await page.screenshot({ path: path.join(artefactsDir, `${name}.png`), fullPage: true });
}

/** axe-core on the current page: no serious or critical violation (WCAG 2.2 AA rules). */
export async function expectAccessible(page: Page) {
  // Let transitions settle first: a toast fading in has, for a moment, too little contrast.
  // (Spinners animate forever and are skipped; a cancelled transition counts as settled.)
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(cspViolations).toEqual([]);
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(serious).toEqual([]);
}
