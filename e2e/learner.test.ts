// The learner's journey in a real browser: the catalogue (filter, search), a visitor sent to sign
// in, a new learner enrolling from a card, the seeded JESIP course worked module by module with a
// failed then passed quiz up to 100 %, and the module-less course stepping 20, 40, 60, 80, 100.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';

const JESIP = '10000000-0000-4000-a000-000000000001';
const NO_MODULES = '10000000-0000-4000-a000-000000000014';
const JESIP_TITLE = 'JESIP Joint Doctrine: Working Together at Major Incidents';

describe('learner journey end to end', () => {
  let browser: Browser;
  let page: Page;
  const suffix = Date.now().toString(36);
  const account = { username: `learner_${suffix}`, email: `learner_${suffix}@example.uk`, name: 'Sam Patel', password: 'secret-pass-1' };

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const card = (id: string) => page.locator(`[data-course-card="${id}"]`);
  const progressText = () => page.getByTestId('course-progress').textContent();

  it('shows a visitor the catalogue, featured first, filtered by service in the URL, accessibly', async () => {
    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { name: 'Available Courses' }).waitFor();
    await page.getByText('Comprehensive training for emergency service professionals across the United Kingdom.').waitFor();
    await card(JESIP).waitFor();
    await expect(card(JESIP).getByRole('button', { name: 'Login to Enroll' }).count()).resolves.toBe(1);
    await expect(card(JESIP).getByText('Featured').count()).resolves.toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'learner-catalogue');
    const total = Number((await page.getByText(/^Showing 12 of \d+ courses$/).textContent())?.match(/of (\d+)/)?.[1]);
    expect(total).toBeGreaterThan(12);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText(`Showing ${Math.min(24, total)} of ${total} courses`).waitFor();

    await page.getByRole('group', { name: 'Filter by service' }).getByRole('button', { name: 'UKAS' }).click();
    await page.waitForURL(/\?service=UKAS/);
    // The earlier cards stay until the filtered page arrives: wait for the list to be UKAS only.
    const services = () => page.locator('[data-course-card] [data-service]').evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-service')),
    );
    await expect.poll(async () => [...new Set(await services())], { timeout: 20_000 }).toEqual(['UKAS']);
    await page.getByRole('button', { name: 'All Services' }).click();
    await page.waitForURL(`${baseUrl}/`);

    await page.getByLabel('Search courses').fill('airwave');
    await page.waitForURL(/search=airwave/);
    await page.getByText('Showing 1 of 1 course').waitFor();
    await page.getByLabel('Search courses').fill('no such course anywhere');
    await page.getByRole('heading', { name: 'No courses found' }).waitFor();
    await page.getByLabel('Search courses').fill('');
    await card(JESIP).waitFor();
  });

  it('sends a visitor who presses enrol to sign in, with the way back', async () => {
    await card(JESIP).getByRole('button', { name: 'Login to Enroll' }).click();
    await page.waitForURL(/\/auth\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(`/course/${JESIP}`);
  });

  it('registers a new learner and comes back to the course', async () => {
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Full Name').fill(account.name);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm Password').fill(account.password);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.waitForURL(`${baseUrl}/course/${JESIP}`);
    await page.getByRole('heading', { level: 1, name: JESIP_TITLE }).waitFor();
    await page.getByRole('button', { name: 'Enroll Now' }).waitFor();
    await page.getByText('Enrol in this course to read its modules.').waitFor();
    await page.getByText('Basic understanding of United Kingdom Police Service procedures').waitFor();
    await page.getByText('Completion of introductory courses (recommended)').waitFor();
  });

  it('enrols from a card and lands on the course page', async () => {
    await page.getByRole('link', { name: 'Back to courses' }).click();
    await card(JESIP).getByRole('button', { name: 'Enroll Now' }).click();
    await page.waitForURL(`${baseUrl}/course/${JESIP}`);
    await page.getByRole('button', { name: 'Start Course' }).waitFor();
    expect(await progressText()).toBe('0%');
    await expectAccessible(page);
    await screenshot(page, 'learner-course-enrolled');
  });

  it('works JESIP module by module, failing then passing the quiz, up to 100 %', async () => {
    await page.getByRole('button', { name: 'Start Course' }).click();
    await page.getByRole('heading', { level: 1, name: 'Why JESIP exists' }).waitFor();
    await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1);
    await page.getByText('Module 1 of 4').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'learner-module');
    await page.getByRole('button', { name: 'Mark as complete', exact: true }).click();
    await page.getByText('You have completed this module.').waitFor();
    await page.getByRole('link', { name: 'Next module' }).click();

    await page.getByText('Module 2 of 4').waitFor();
    await page.getByRole('button', { name: 'Mark as complete', exact: true }).click();
    await page.getByText('Marked as read: pass the quiz below to complete this module.').waitFor();
    await page.getByRole('button', { name: 'Start quiz' }).click();
    await page.getByRole('timer').waitFor();
    // Wrong first: Delegate, True, and the right third answer.
    await page.getByRole('radio', { name: 'Delegate' }).check();
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByText('Answer every question before submitting').waitFor();
    await page.getByRole('radio', { name: 'True' }).check();
    await page.getByRole('radio', { name: 'The rationale' }).check();
    await expectAccessible(page);
    await screenshot(page, 'learner-quiz');
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByText('Quiz not passed').waitFor();
    await page.getByText('You scored 1 of 3 (33%). The pass mark is 70%.').waitFor();
    // Quiz integrity: by default the correct answers come only with a pass.
    await page.getByText('The correct answers are shown once you pass this quiz.').waitFor();
    await expect(page.getByText('Correct answer: Co-locate').count()).resolves.toBe(0);
    await screenshot(page, 'learner-quiz-failed');

    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('radio', { name: 'Co-locate' }).check();
    await page.getByRole('radio', { name: 'False' }).check();
    await page.getByRole('radio', { name: 'The rationale' }).check();
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByText('Quiz passed').waitFor();
    await page.getByText('You scored 3 of 3 (100%). The pass mark is 70%.').waitFor();
    await page.getByText('You have completed this module.').waitFor();
    await screenshot(page, 'learner-quiz-passed');

    for (const position of [3, 4]) {
      await page.getByRole('link', { name: 'Next module' }).click();
      await page.getByText(`Module ${position} of 4`).waitFor();
      await page.getByRole('button', { name: 'Mark as complete', exact: true }).click();
      await page.getByText('You have completed this module.').waitFor();
    }
    await page.getByRole('link', { name: 'Back to course' }).last().click();
    await page.waitForURL(`${baseUrl}/course/${JESIP}`);
    await page.getByText('Course completed!').waitFor();
    expect(await progressText()).toBe('100%');
    await page.getByRole('button', { name: 'Review Course' }).waitFor();
    // The outline refetches after the last module: every row gets its done mark.
    await expect
      .poll(() => page.locator('[data-module-row]').filter({ hasText: '(completed)' }).count(), { timeout: 10_000 })
      .toBe(4);
    await screenshot(page, 'learner-course-completed');
  });

  it('steps the module-less course 20, 40, 60, 80, 100', async () => {
    await page.goto(`${baseUrl}/course/${NO_MODULES}`);
    await page.getByRole('button', { name: 'Enroll Now' }).click();
    await page.getByRole('button', { name: 'Start Course' }).waitFor();
    const seen: string[] = [];
    for (const expected of ['20%', '40%', '60%', '80%', '100%']) {
      await page.getByRole('button', { name: /^(Start|Continue) Course$/ }).click();
      await page.getByTestId('course-progress').getByText(expected, { exact: true }).waitFor();
      seen.push((await progressText()) ?? '');
    }
    expect(seen).toEqual(['20%', '40%', '60%', '80%', '100%']);
    await page.getByText('Course completed!').waitFor();
    await page.getByRole('button', { name: 'Review Course' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'learner-stepped-course-completed');
  });

  it('shows the catalogue card progress and a not-found course', async () => {
    await page.goto(`${baseUrl}/`);
    await card(JESIP).getByText('100%').waitFor();
    await expect(card(JESIP).getByRole('button', { name: 'Continue Course' }).count()).resolves.toBe(1);
    await page.goto(`${baseUrl}/course/00000000-0000-4000-a000-00000000dead`);
    await page.getByRole('heading', { name: 'Course not found' }).waitFor();
    await page.getByText('The requested course could not be found.').waitFor();
    await page.getByRole('link', { name: 'Return to home' }).waitFor();
    await expectAccessible(page);
  });
});
