// Real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, against the platform that
// scripts/test.mjs started the way `npm start` does (PLATFORM_URL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Download, type Locator, type Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import { expect, inject } from 'vitest';
import { chromiumOptions } from './browser-server';
import { axeTagsFor, WCAG_STANDARD } from '../web/src/lib/accessibility-statement';

export const baseUrl = process.env.PLATFORM_URL ?? 'http://127.0.0.1:54321';
export const artefactsDir = path.resolve('test-results', 'screenshots');

/** Content-Security-Policy violations Chromium reported in this file's pages (expectAccessible requires none). */
export const cspViolations: string[] = [];

/** The browsers this file launched: e2e/failure-report.ts looks at their pages when a test fails. */
export const launchedBrowsers = new Set<Browser>();

/**
 * The run's Chromium (started once by ./browser-server.ts), connected to afresh: contexts made on
 * this connection are this file's alone, and close() closes them and the connection, not Chromium.
 * Without the server (a file run outside the e2e project), a Chromium of its own.
 */
export async function launchBrowser(): Promise<Browser> {
  let endpoint = '';
  try {
    endpoint = inject('chromiumEndpoint');
  } catch {
    // Not in a Vitest worker of the e2e project.
  }
  // Playwright gives every context a fresh, empty profile of its own.
  const browser = endpoint ? await chromium.connect(endpoint) : await chromium.launch(chromiumOptions());
  // Every context reports what the served CSP refused, so every suite checks the app runs under it.
  const newContext = browser.newContext.bind(browser);
  // The app's service worker precaches the whole build in every context that lets it: only the
  // contexts that test it (e2e/offline.test.ts, serviceWorkers: 'allow') do. Pages are shown as to
  // a person who asks for reduced motion: no transition to wait for or to paint frame by frame.
  browser.newContext = async (options: Parameters<Browser['newContext']>[0] = {}) => {
    const context = await newContext({ serviceWorkers: 'block', reducedMotion: 'reduce', ...options });
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(`${message.page()?.url() ?? ''}: ${message.text()}`);
    });
    // A download of a connected browser lives on its server's side, where path() cannot reach it:
    // path() saves a local copy and answers with that, as on a browser of the file's own.
    if (endpoint) context.on('page', (page) => page.on('download', (download) => localPath(download)));
    return context;
  };
  launchedBrowsers.add(browser);
  browser.on('disconnected', () => {
    launchedBrowsers.delete(browser);
    fs.rmSync(downloadsDir, { recursive: true, force: true });
  });
  return browser;
}

const downloadsDir = path.join(os.tmpdir(), `e2e-downloads-${process.pid}`);
function localPath(download: Download) {
  let saved: Promise<string> | undefined;
  download.path = () => {
    saved ??= (async () => {
      fs.mkdirSync(downloadsDir, { recursive: true });
      const file = path.join(fs.mkdtempSync(path.join(downloadsDir, 'd-')), download.suggestedFilename());
      await download.saveAs(file);
      return file;
    })();
    return saved;
  };
}

/** Picks `option` in the Mantine Select labelled `label` inside `scope` (its options open in a portal on `page`). */
export async function chooseOption(page: Page, scope: Page | Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * The app has taken over a page whose HTML was rendered before it (web/prerender.mjs): it clears the
 * prerendered page's mark on <html> in its first commit. Before then a link is the browser's own
 * (a full page load), not the app's navigation.
 */
export async function appStarted(page: Page) {
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-prerendered'), null, { timeout: 30_000 });
}

/** Closes every toast on screen, as a person does with its close button. A toast already leaving
 * (its button moving, then gone) is waited for briefly, not for the click's full 30 seconds. */
export async function closeToasts(page: Page) {
  const close = page.getByRole('button', { name: 'Close notification' });
  while ((await close.count()) > 0) await close.first().click({ timeout: 1_000 }).catch(() => undefined);
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(artefactsDir, { recursive: true });
  await page.screenshot({ path: path.join(artefactsDir, `${name}.png`), fullPage: true });
}

/** The axe-core rule tags every page is checked against: the standard the accessibility statement claims. */
export const AXE_TAGS = axeTagsFor(WCAG_STANDARD);

/** axe-core on the current page: no violation of any impact, minor to critical (WCAG 2.2 AA rules). */
export async function expectAccessible(page: Page) {
  // Let transitions settle first: a toast fading in has, for a moment, too little contrast.
  // (Spinners animate forever and are skipped; a cancelled transition counts as settled.)
  const settle = async () => {
    for (let round = 0; round < 2; round++) {
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
            .map((animation) => animation.finished.catch(() => undefined)),
        ),
      );
      if (round === 0) await page.waitForTimeout(150);
    }
  };
  const check = async () => {
    await settle();
    const results = await axeResults(page);
    return results.violations.map(
      (v) => `${v.impact ?? 'unknown'} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
  };
  // On a loaded machine a toast can start its transition while axe is reading the page: a page with
  // violations is checked once more after settling again, and only what is still there counts.
  let violations = await check();
  if (violations.length > 0) {
    await page.waitForTimeout(500);
    violations = await check();
  }
  expect(cspViolations).toEqual([]);
  expect(violations, `axe on ${page.url()}`).toEqual([]);
  expect(await contrastProblems(page), `text contrast on ${page.url()}`).toEqual([]);
}

/**
 * axe-core's results for the page. A page of one frame is analysed in place, with axe injected
 * once per document: @axe-core/playwright's default analysis injects it twice and finishes in a
 * new page, which doubles the cost of every check. A page with frames (the SCORM player's, on
 * another origin) takes that default path, which reaches into every frame. Only violations are
 * collected in full (resultTypes): every rule still runs on every node, and the passes, which no
 * test reads, are not gathered node by node.
 */
async function axeResults(page: Page): Promise<axe.AxeResults> {
  if (page.frames().length > 1) return new AxeBuilder({ page }).withTags(AXE_TAGS).options({ resultTypes: ['violations'] }).analyze();
  if (!(await page.evaluate('typeof window.axe?.run === "function"'))) await page.evaluate(axe.source);
  return page.evaluate(
    (values) => (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] }),
    AXE_TAGS,
  );
}

/**
 * The computed contrast of the text of every visible button, link, badge and tab against what is
 * really behind it: axe marks text on some backgrounds only as "needs review", and so
 * passed Delete buttons and badges whose text was the colour of their background. Semi-transparent
 * backgrounds are composited up the tree; text over an image or gradient is skipped, and so is a
 * disabled control (WCAG exempts inactive components). Fails below 4.5:1, or 3:1 for large text
 * (24 px, or 18.66 px bold).
 */
export async function contrastProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba | null => {
      const m = /rgba?\(([^)]+)\)/.exec(value);
      if (!m) return null;
      const parts = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3] + bottom[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: number) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const luminance = ([r, g, b]: Rgba) => {
      const lin = (c: number) => {
        const v = c / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    /** The opaque colour behind an element, or null when an image or gradient is in the way. */
    const backgroundOf = (element: Element): Rgba | null => {
      const layers: Rgba[] = [];
      for (let node: Element | null = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.backgroundImage && style.backgroundImage !== 'none') return null;
        const colour = parse(style.backgroundColor);
        if (colour && colour[3] > 0) {
          layers.push(colour);
          if (colour[3] >= 1) break;
        }
      }
      let result: Rgba = [255, 255, 255, 1];
      const root = parse(getComputedStyle(document.body).backgroundColor);
      if (root && root[3] >= 1) result = root;
      for (const layer of layers.reverse()) result = over(layer, result);
      return result;
    };
    const visible = (element: Element) => {
      const rect = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden' && Number(style.opacity) > 0.1;
    };
    const problems = new Set<string>();
    const controls = document.querySelectorAll('button, a[href], [role="button"], [role="tab"], .mantine-Badge-root');
    for (const control of controls) {
      if (!visible(control) || control.closest('[aria-hidden="true"], [inert]')) continue;
      if ((control as HTMLButtonElement).disabled || control.getAttribute('aria-disabled') === 'true' || control.closest('[data-disabled]')) continue;
      // Every element of the control that holds text of its own.
      const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
      const holders = new Set<Element>();
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        if (text.textContent?.trim() && text.parentElement && visible(text.parentElement)) holders.add(text.parentElement);
      }
      for (const holder of holders) {
        const style = getComputedStyle(holder);
        const fg = parse(style.color);
        const bg = backgroundOf(holder);
        if (!fg || !bg) continue;
        const colour = over(fg, bg);
        const [light, dark] = [luminance(colour), luminance(bg)].sort((a, b) => b - a);
        const ratio = (light + 0.05) / (dark + 0.05);
        const size = parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
        if (ratio < (large ? 3 : 4.5)) {
          problems.add(`"${holder.textContent?.trim().slice(0, 40)}" ${ratio.toFixed(2)}:1 (${style.color} on rgb(${bg.slice(0, 3).map(Math.round).join(', ')}))`);
        }
      }
    }
    return [...problems];
  });
}
