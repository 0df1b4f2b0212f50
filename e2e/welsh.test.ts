// The product in Welsh, as a Welsh speaker meets it: a browser whose language is Welsh opens the
// catalogue in Welsh, and a new learner walks catalogue -> course -> enrol -> module -> quiz ->
// certificate entirely in Welsh; an administrator whose profile is in Welsh walks the Users and
// Settings screens. On every screen axe finds nothing, and no text a person can read or hear is
// English: each visible text and each aria-label, placeholder and title is compared with every
// message of the English catalogues that the Welsh words differently (content marked lang="en-GB",
// such as a course with no Welsh version, is English on purpose and left out).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin, uiLogin } from './api';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';

const AIRWAVE = '10000000-0000-4000-a000-000000000003';
const AIRWAVE_CY = 'Trefn Llais Radio Airwave';
const AIRWAVE_QUIZ_MODULE = '20000000-0000-4000-a000-000003000003';
/** The seeded quiz's correct options, by index, in question order. */
const AIRWAVE_ANSWERS = [1, 2, 1];

type Catalogue = Record<string, string>;
const locales = path.resolve('web/src/locales');
function catalogue(language: string): Map<string, Catalogue> {
  const flatten = (value: unknown, prefix: string, into: Catalogue) => {
    for (const [key, child] of Object.entries(value as object)) {
      if (typeof child === 'string') into[prefix + key] = child;
      else flatten(child, `${prefix}${key}.`, into);
    }
    return into;
  };
  return new Map(
    fs.readdirSync(path.join(locales, language)).map((file) => [
      file.replace(/\.json$/, ''),
      flatten(JSON.parse(fs.readFileSync(path.join(locales, language, file), 'utf8')), '', {}),
    ]),
  );
}
const english = catalogue('en-GB');
const welsh = catalogue('cy');

/** The Welsh of an English message of a namespace (the test is written with the English it knows). */
function cy(namespace: string, englishText: string): string {
  for (const name of [namespace, ...english.keys()]) {
    const en = english.get(name) ?? {};
    const key = Object.keys(en).find((k) => en[k] === englishText);
    const text = key ? welsh.get(name)?.[key] : undefined;
    if (text) return text;
  }
  throw new Error(`No Welsh for "${englishText}"`);
}

/** Every English message the Welsh words differently, as a pattern with its placeholders open. */
const englishMessages = [...english].flatMap(([namespace, messages]) =>
  Object.entries(messages)
    .filter(([key, text]) => welsh.get(namespace)?.[key] !== text && /\p{L}{3}/u.test(text.replace(/\{\{[^}]*\}\}|<[^>]*>/g, '')))
    .map(([, text]) => text),
);
const englishPatterns = [...new Set(englishMessages)].map(
  (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\\\{[^}]*\\\}\\\}/g, '.+?').replace(/<\/?\d+>/g, '')}$`),
);

/** The English messages a person can read or hear on the page now (content marked lang="en-GB" aside). */
async function englishOnScreen(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const shown = (element: Element) => {
      const style = getComputedStyle(element);
      return style.display !== 'none' && style.visibility !== 'hidden' && !element.closest('[lang^="en"]');
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim();
      if (parent && text && shown(parent)) out.push(text);
    }
    for (const element of document.body.querySelectorAll('[aria-label], [placeholder], [title], [alt]')) {
      if (!element.closest('[lang^="en"]')) {
        for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
          const value = element.getAttribute(name)?.trim();
          if (value) out.push(value);
        }
      }
    }
    out.push(document.title);
    return out;
  });
  return [...new Set(texts.filter((text) => englishPatterns.some((pattern) => pattern.test(text))))];
}

/** The screen is Welsh through and through, and accessible. */
async function expectWelsh(page: Page, name: string) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('cy');
  expect(await englishOnScreen(page), `English left on ${name}`).toEqual([]);
  await expectAccessible(page);
  await screenshot(page, `welsh-${name}`);
}

describe('Cymraeg', () => {
  let browser: Browser;
  let page: Page;
  const suffix = Date.now().toString(36);
  const learner = { username: `dysgwr_${suffix}`, email: `dysgwr_${suffix}@example.uk`, name: 'Gwenllian Prys', password: 'cyfrinair-cryf-1' };
  let adminToken = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    // A browser in Welsh: the first visit follows its languages.
    page = await (await browser.newContext({ locale: 'cy-GB', viewport: { width: 1366, height: 900 } })).newPage();
  });
  afterAll(async () => {
    // The seeded administrator reads English again for the files after this one.
    if (adminToken) await apiCall('PUT', '/profile/language', adminToken, { language: 'en-GB' });
    await browser?.close();
  });

  it('opens the catalogue in Welsh for a browser in Welsh, and filters to the courses available in Welsh', async () => {
    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { name: cy('catalogue', 'Available Courses') }).waitFor();
    await page.locator('[data-course-card]').first().waitFor();
    await expectWelsh(page, 'catalogue');
    await page.getByRole('button', { name: cy('catalogue', 'Available in Welsh') }).click();
    await page.waitForURL(/welsh=true/);
    await page.locator(`[data-course-card="${AIRWAVE}"]`).getByText(AIRWAVE_CY).waitFor();
    await expect.poll(() => page.locator('[data-not-in-welsh]').count()).toBe(0);
    await expectWelsh(page, 'catalogue-welsh-courses');
  });

  it('registers a new learner in Welsh, whose profile keeps Welsh', async () => {
    await page.goto(`${baseUrl}/auth?redirect=${encodeURIComponent(`/course/${AIRWAVE}`)}`);
    await page.getByRole('tab', { name: cy('auth', 'Register') }).click();
    await expectWelsh(page, 'register');
    await page.getByLabel(cy('auth', 'Username'), { exact: true }).fill(learner.username);
    await page.getByLabel(cy('auth', 'Email'), { exact: true }).fill(learner.email);
    await page.getByLabel(cy('auth', 'Full name'), { exact: true }).fill(learner.name);
    await page.getByLabel(cy('auth', 'Password'), { exact: true }).fill(learner.password);
    await page.getByLabel(cy('auth', 'Confirm password'), { exact: true }).fill(learner.password);
    await page.getByRole('button', { name: cy('auth', 'Register'), exact: true }).click();
    await page.waitForURL(`${baseUrl}/course/${AIRWAVE}`);
    const { token } = await apiLogin(learner.username, learner.password);
    expect((await apiCall('GET', '/user', token)).json.language).toBe('cy');
  });

  it('enrols, reads every module and passes the quiz in Welsh', async () => {
    await page.getByRole('heading', { level: 1, name: AIRWAVE_CY }).waitFor();
    await expectWelsh(page, 'course');
    await page.getByRole('button', { name: cy('course', 'Enroll Now') }).click();
    await page.getByRole('button', { name: cy('course', 'Start Course') }).click();
    for (let position = 1; position <= 2; position++) {
      await page.getByText(cy('learning', 'Module {{position}} of {{total}}').replace('{{position}}', String(position)).replace('{{total}}', '3')).waitFor();
      if (position === 1) await expectWelsh(page, 'module');
      await page.getByRole('button', { name: cy('learning', 'Mark as complete'), exact: true }).click();
      await page.getByText(cy('learning', 'You have completed this module.')).waitFor();
      await page.getByRole('link', { name: cy('learning', 'Next module') }).click();
    }
    await page.getByRole('button', { name: cy('learning', 'Mark as complete'), exact: true }).click();
    await page.getByRole('button', { name: cy('learning', 'Start quiz') }).click();
    await page.getByRole('timer').waitFor().catch(() => undefined);
    const { token } = await apiLogin(learner.username, learner.password);
    const quiz = (await apiCall('GET', `/modules/${AIRWAVE_QUIZ_MODULE}/quiz`, token)).json;
    const questions = quiz.questions as { optionsCy: string[] }[];
    expect(questions.map((q) => q.optionsCy?.length)).toEqual(questions.map(() => expect.any(Number)));
    for (const [index, question] of questions.entries()) {
      await page.getByRole('radio', { name: question.optionsCy[AIRWAVE_ANSWERS[index]!]!, exact: true }).check();
    }
    await expectWelsh(page, 'quiz');
    await page.getByRole('button', { name: cy('learning', 'Submit answers') }).click();
    await page.getByText(cy('learning', 'Quiz passed')).waitFor();
    await expectWelsh(page, 'quiz-passed');
  });

  it('shows the certificate in Welsh', async () => {
    await page.goto(`${baseUrl}/certificates`);
    await page.getByText(AIRWAVE_CY).first().waitFor();
    await expectWelsh(page, 'certificates');
  });

  it('walks an administrator whose profile is in Welsh through Users and Settings', async () => {
    const admin = await apiLogin('admin');
    adminToken = admin.token;
    expect((await apiCall('PUT', '/profile/language', adminToken, { language: 'cy' })).status).toBe(200);
    await uiLogin(page, 'admin', 'password123', '/admin');
    await page.getByRole('tab', { name: cy('admin', 'Users') }).click();
    await page.getByRole('table').first().waitFor();
    await expectWelsh(page, 'admin-users');
    await page.getByRole('tab', { name: cy('admin', 'Settings') }).click();
    await page.getByRole('tab', { name: cy('admin', 'Settings'), selected: true }).waitFor();
    await expectWelsh(page, 'admin-settings');
  });
});
