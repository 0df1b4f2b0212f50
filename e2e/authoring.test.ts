// Course authoring in a real browser: the seeded instructor creates courses from both create routes,
// uploads a cover, adds three modules (one with an image), reorders them, writes a quiz with a
// multiple-choice and a true/false question and publishes; the admin's course is refused for edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, chooseOption, closeToasts, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin } from './api';
import { makePng } from './files';

const ADMIN_COURSE = '10000000-0000-4000-a000-000000000004';

describe('course authoring end to end', () => {
  let browser: Browser;
  let page: Page;
  const suffix = Date.now().toString(36);
  const title = `Scene safety briefing ${suffix}`;
  let courseId = '';
  let instructorToken = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await uiLogin(page, 'instructor');
    instructorToken = (await apiLogin('instructor')).token;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens /course/create with only the instructor services and the modules tab locked', async () => {
    await page.goto(`${baseUrl}/course/create`);
    await page.getByRole('heading', { name: 'Create New Course' }).waitFor();
    await expect(page.getByRole('tab', { name: /Modules & Quizzes/ }).isDisabled()).resolves.toBe(true);
    await page.getByText('Save course first').waitFor();
    await page.getByRole('combobox', { name: 'Service', exact: true }).click();
    const options = await page.getByRole('option').allInnerTexts();
    expect(options.map((o) => o.trim())).toEqual(['United Kingdom Police Service (UKPS)', 'Miscellaneous Service (MISC)']);
    await page.keyboard.press('Escape');
    await expectAccessible(page);
    await screenshot(page, 'authoring-create');
  });

  it('refuses a too-short form with the specification messages', async () => {
    await page.getByLabel('Course Title', { exact: true }).fill('ab');
    await page.getByLabel('Description', { exact: true }).fill('Too short');
    await page.getByRole('button', { name: 'Save Course' }).click();
    await page.getByText('Title must be at least 3 characters').waitFor();
    await page.getByText('Description must be at least 20 characters').waitFor();
  });

  it('creates the course with a cover and lands in edit mode', async () => {
    await page.getByLabel('Course Title', { exact: true }).fill(title);
    await page.getByLabel('Description', { exact: true }).fill('How to assess and brief scene hazards before committing crews to an incident.');
    await chooseOption(page, page, 'Difficulty Level', 'Intermediate');
    await page.getByLabel('Duration (hours)', { exact: true }).fill('2');
    await page.locator('input[type="file"]').first().setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: makePng(64, 36, [200, 40, 40]) });
    await page.getByText('The cover will be uploaded when the course is saved.').waitFor();
    await page.getByRole('button', { name: 'Save Course' }).click();
    await page.waitForURL(/\/course\/edit\/[0-9a-f-]{36}$/);
    courseId = page.url().split('/').pop()!;
    await page.getByText('Course created', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Edit Course' }).waitFor();
    await page.getByRole('button', { name: 'Update Course' }).waitFor();
    const cover = page.getByRole('img', { name: 'Course cover preview' });
    await expect.poll(async () => cover.getAttribute('src'), { timeout: 15_000 }).toMatch(/\/storage\/v1\/object\/public\/course-covers\/.+\.png$/);
    const src = (await cover.getAttribute('src'))!;
    const served = await page.request.get(src);
    expect(served.status()).toBe(200);
    expect((await served.body()).subarray(1, 4).toString('ascii')).toBe('PNG');
    await page.getByText('Draft', { exact: true }).first().waitFor();
  });

  it('adds three modules (one with an image) through the module dialog', async () => {
    await page.getByRole('tab', { name: /Modules & Quizzes/ }).click();
    await page.getByText('No modules yet').waitFor();
    await page.getByRole('button', { name: 'Add Your First Module' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Module' });
    await dialog.waitFor();
    await dialog.getByLabel('Module Title', { exact: true }).fill('Module one: arrival');
    await dialog.getByLabel('Module Content', { exact: true }).fill('# Arrival\n\nPark **upwind** and uphill, then take a 360-degree look before committing.');
    await dialog.getByRole('heading', { name: 'Arrival' }).waitFor(); // live preview
    await expect(dialog.getByLabel('Order', { exact: true }).inputValue()).resolves.toBe('1');
    await expect(dialog.getByLabel('Duration (minutes)', { exact: true }).inputValue()).resolves.toBe('15');
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'diagram.png', mimeType: 'image/png', buffer: makePng(32, 32, [20, 90, 200]) });
    await expectAccessible(page);
    await screenshot(page, 'authoring-module-dialog');
    // The dialog is tall with the Welsh fields beside the English: the earlier toasts sit over its
    // button, and a pointer resting on a toast holds the next one back. Closed first, as a person would.
    await closeToasts(page);
    await dialog.getByRole('button', { name: 'Create Module' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The image went up with the module (its toast waits behind the module's own, one at a time).
    const admin = (await apiLogin('admin')).token;
    await expect
      .poll(async () => (await apiCall<{ image: string | null }[]>('GET', `/courses/${courseId}/modules`, admin)).json?.[0]?.image ?? null, { timeout: 15_000 })
      .not.toBeNull();

    for (const [n, name] of [[2, 'Module two: hazards'], [3, 'Module three: briefing']] as const) {
      await page.getByRole('button', { name: 'Add Module', exact: true }).click();
      const next = page.getByRole('dialog', { name: 'Add New Module' });
      await expect(next.getByLabel('Order', { exact: true }).inputValue()).resolves.toBe(String(n));
      await next.getByLabel('Module Title', { exact: true }).fill(name);
      await next.getByLabel('Module Content', { exact: true }).fill(`Content for ${name}, long enough to be saved as a module.`);
      await closeToasts(page);
      await next.getByRole('button', { name: 'Create Module' }).click();
      await next.waitFor({ state: 'detached' });
      await expect.poll(() => page.getByTestId('module-card').count()).toBe(n);
    }
    const cards = page.getByTestId('module-card');
    await expect.poll(() => cards.count()).toBe(3);
    await expect(page.getByRole('button', { name: 'Move Module one: arrival up' }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Move Module three: briefing down' }).isDisabled()).resolves.toBe(true);
  });

  it('reorders the modules with one move', async () => {
    await page.getByRole('button', { name: 'Move Module three: briefing up' }).click();
    await page.getByText('The module order has been updated.').waitFor();
    const cards = page.getByTestId('module-card');
    await expect
      .poll(async () => (await cards.allInnerTexts()).map((t) => t.match(/Module (one|two|three)/)?.[0]))
      .toEqual(['Module one', 'Module three', 'Module two']);
    await expect(cards.nth(1).innerText()).resolves.toMatch(/module 2/i);
    await expectAccessible(page);
    await screenshot(page, 'authoring-modules');
  });

  it('writes a quiz with a multiple-choice and a true/false question', async () => {
    await page.getByRole('button', { name: 'Add Quiz: Module two: hazards' }).click();
    const dialog = page.getByRole('dialog', { name: 'Quiz: Module two: hazards' });
    await dialog.waitFor();
    await dialog.getByLabel('Quiz Title', { exact: true }).fill('Hazards check');
    await dialog.getByRole('button', { name: 'Create Quiz' }).click();
    await dialog.getByRole('button', { name: 'Add Question' }).click();

    await dialog.getByLabel('Question Text', { exact: true }).fill('Which way should you park at a chemical spill?');
    await dialog.getByLabel('Option 1', { exact: true }).fill('Upwind and uphill');
    await dialog.getByLabel('Option 2', { exact: true }).fill('Downwind, close in');
    await dialog.getByRole('button', { name: 'Add Option' }).click();
    await dialog.getByLabel('Option 3', { exact: true }).fill('Wherever is nearest');
    await dialog.getByLabel('Explanation', { exact: true }).fill('Vapours travel downwind and liquids run downhill.');
    await expectAccessible(page);
    await screenshot(page, 'authoring-quiz');
    await dialog.getByRole('button', { name: 'Save Question' }).click();
    await page.getByText('Question added', { exact: true }).waitFor();

    await dialog.getByRole('button', { name: 'Add Question' }).click();
    await dialog.getByLabel('Question Text', { exact: true }).fill('A 360-degree look is only needed at night.');
    await dialog.locator('label', { hasText: 'True or false' }).click();
    await expect(dialog.getByLabel('Option 1', { exact: true }).inputValue()).resolves.toBe('True');
    await dialog.getByLabel('Option 2 is correct', { exact: true }).check();
    await expect(dialog.getByLabel('Option 1 is correct', { exact: true }).isChecked()).resolves.toBe(false);
    await dialog.getByRole('button', { name: 'Save Question' }).click();
    const questions = dialog.getByTestId('question-card');
    await expect.poll(() => questions.count()).toBe(2);
    await expect(questions.nth(1).innerText()).resolves.toContain('Correct: False');
    await expect(questions.nth(0).innerText()).resolves.toContain('Correct: Upwind and uphill');

    // Move the true/false question first.
    await dialog.getByRole('button', { name: 'Move question 2 up' }).click();
    await expect.poll(async () => /true or false/i.test(await questions.nth(0).innerText())).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'authoring-quiz-questions');
    // The reorder's toast sits over the dialog's Close button: closed first, as a person would.
    await page.getByText('Questions reordered').waitFor();
    await closeToasts(page);
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await dialog.waitFor({ state: 'detached' });
    const hazards = page.getByTestId('module-card').filter({ hasText: 'Module two: hazards' });
    await hazards.getByText('Has Quiz').waitFor();
  });

  it('publishes the course', async () => {
    await page.getByRole('tab', { name: 'Basic Information' }).click();
    await chooseOption(page, page, 'Status', 'Published');
    await page.getByRole('button', { name: 'Update Course' }).click();
    await page.getByText('Course updated', { exact: true }).waitFor();
    await page.getByText('Published: learners can find and enrol in this course.').waitFor();
    const answer = await page.request.get(`${baseUrl}/functions/v1/api/courses/${courseId}`);
    const course = await answer.json();
    expect(course.status).toBe('ACTIVE');
    expect(course.modules).toBe(3);
    await expectAccessible(page);
    await screenshot(page, 'authoring-published');
  });

  it('lets the seeded student find the published course and pass its quiz, and shows them to the instructor', async () => {
    const learnerPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await uiLogin(learnerPage, 'student');
    await learnerPage.getByLabel('Search courses', { exact: true }).fill(suffix);
    await learnerPage.waitForURL(new RegExp(`search=${suffix}`));
    await learnerPage.getByText('Showing 1 of 1 course').waitFor();
    const card = learnerPage.locator(`[data-course-card="${courseId}"]`);
    await card.getByRole('button', { name: 'Enroll Now' }).click();
    await learnerPage.waitForURL(`${baseUrl}/course/${courseId}`);
    await learnerPage.getByRole('button', { name: 'Start Course' }).first().waitFor();

    const modules = await apiCall<{ id: string; title: string }[]>('GET', `/courses/${courseId}/modules`, instructorToken);
    const hazards = modules.json.find((m) => m.title === 'Module two: hazards')!;
    await learnerPage.goto(`${baseUrl}/course/${courseId}/module/${hazards.id}`);
    await learnerPage.getByRole('button', { name: 'Mark as complete', exact: true }).click();
    await learnerPage.getByRole('button', { name: 'Start quiz' }).click();
    await learnerPage.getByRole('radio', { name: 'False' }).check();
    await learnerPage.getByRole('radio', { name: 'Upwind and uphill' }).check();
    await learnerPage.getByRole('button', { name: 'Submit answers' }).click();
    await learnerPage.getByText('Quiz passed').waitFor();
    await screenshot(learnerPage, 'authoring-student-passed');
    await learnerPage.context().close();

    // The instructor's Students and Analytics tabs show the learner with the server's figures.
    const students = await apiCall<{ items: { learner: { name: string }; progress: number }[] }>(
      'GET', `/instructor/students?courseId=${courseId}`, instructorToken);
    expect(students.json.items.map((s) => s.learner.name)).toEqual(['Sam Patel']);
    await page.goto(`${baseUrl}/instructor?tab=students`);
    const row = page.getByRole('row', { name: new RegExp(`Sam Patel.*${title}`) });
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain(`${students.json.items[0].progress}%`);

    const analytics = await apiCall<{ items: { courseId: string; enrollments: number; quizAttempts: number; quizPassRate: number | null }[] }>(
      'GET', '/instructor/analytics?pageSize=100', instructorToken);
    const figures = analytics.json.items.find((c) => c.courseId === courseId)!;
    expect(figures).toMatchObject({ enrollments: 1, quizAttempts: 1, quizPassRate: 100 });
    await page.getByRole('tab', { name: 'Analytics' }).click();
    const analyticsRow = page.getByRole('table', { name: 'Course analytics' }).locator(`tr[data-course="${courseId}"]`);
    await expect.poll(() => analyticsRow.locator('td').nth(0).textContent(), { timeout: 10_000 }).toBe('1');
    await expect.poll(() => analyticsRow.locator('td').nth(4).textContent(), { timeout: 10_000 }).toMatch(/^100%/);
    await screenshot(page, 'authoring-instructor-analytics');
  });

  it('creates another course through /course-creator', async () => {
    await page.goto(`${baseUrl}/course-creator`);
    await page.getByRole('heading', { name: 'Create New Course' }).waitFor();
    await page.getByLabel('Course Title', { exact: true }).fill(`Radio etiquette refresher ${suffix}`);
    await page.getByLabel('Description', { exact: true }).fill('A short refresher on radio etiquette for miscellaneous service staff.');
    await chooseOption(page, page, 'Service', 'Miscellaneous Service (MISC)');
    await page.getByRole('button', { name: 'Save Course' }).click();
    await page.waitForURL(/\/course\/edit\/[0-9a-f-]{36}$/);
    await page.getByText('You can now add modules and quizzes.').waitFor();
    await page.getByRole('button', { name: 'Update Course' }).waitFor();
    await expect.poll(() => page.getByRole('tab', { name: /Modules & Quizzes/ }).isDisabled()).toBe(false);
  });

  it("refuses to open the admin's course for editing", async () => {
    await page.goto(`${baseUrl}/course/edit/${ADMIN_COURSE}`);
    await page.getByText('You can only edit courses that you author.').waitFor();
    await expect(page.getByRole('button', { name: 'Update Course' }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'authoring-not-allowed');
  });
});
