// Quiz integrity in a real browser: the author sets a maximum of 2 attempts and "never"
// show the correct answers in the quiz dialog; a learner who fails sees "1 attempt remaining" and no
// correct answer or explanation, focus follows Start quiz and Submit (never lost to <body>), and
// after the second attempt the panel says no attempt is left and offers no retry. A quiz with a wait
// between attempts says when the next may start (en-GB, London time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin } from './api';

const s = Date.now().toString(36);
const courseTitle = `Cordon control ${s}`;
const moduleTitle = `Inner and outer cordons ${s}`;
const explanation = 'The inner cordon surrounds the immediate scene.';

async function newLearner(courseId: string): Promise<{ username: string; password: string }> {
  const username = `quizzer_${s}_${Math.floor(Math.random() * 1e6)}`;
  const password = `pw-${username}-secret`;
  const registered = await apiCall('POST', '/register', undefined, {
    username, email: `${username}@example.test`, name: 'Quinn Quizzer', password, confirmPassword: password,
  });
  expect(registered.status, registered.text).toBe(201);
  const enrolled = await apiCall('POST', `/courses/${courseId}/enroll`, registered.json.session.access_token);
  expect(enrolled.status, enrolled.text).toBe(201);
  return { username, password };
}

/** Where the focus is: the element's tag, text and whether it is inside the quiz panel. */
async function focusInfo(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? null,
      text: el?.innerText?.slice(0, 80) ?? '',
      inQuiz: Boolean(el?.closest('section[aria-labelledby="quiz-title"]')),
    };
  });
}

describe('quiz integrity end to end', () => {
  let browser: Browser;
  let instructorToken = '';
  let courseId = '';
  let moduleId = '';
  let quizId = '';

  beforeAll(async () => {
    instructorToken = (await apiLogin('instructor')).token;
    const course = await apiCall('POST', '/courses', instructorToken, {
      title: courseTitle, description: 'Setting and keeping cordons at an incident scene.', service: 'MISC', status: 'ACTIVE',
    });
    expect(course.status, course.text).toBe(201);
    courseId = course.json.id;
    const mod = await apiCall('POST', `/courses/${courseId}/modules`, instructorToken, {
      title: moduleTitle, content: 'The inner cordon protects the scene; the outer cordon controls access to it.',
    });
    expect(mod.status, mod.text).toBe(201);
    moduleId = mod.json.id;
    const quiz = await apiCall('PUT', `/modules/${moduleId}/quiz`, instructorToken, { title: 'Cordons check', passingScore: 100 });
    expect(quiz.status, quiz.text).toBe(201);
    quizId = quiz.json.id;
    const question = await apiCall('POST', `/quizzes/${quizId}/questions`, instructorToken, {
      questionText: 'The inner cordon is the one closest to the scene.',
      questionType: 'TRUE_FALSE',
      options: [{ text: 'True', isCorrect: true }, { text: 'False', isCorrect: false }],
      explanation,
    });
    expect(question.status, question.text).toBe(201);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('the author sets a maximum of 2 attempts and never to show the correct answers in the quiz dialog', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await uiLogin(page, 'instructor', 'password123', `/course/edit/${courseId}`);
    await page.getByRole('tab', { name: /Modules & Quizzes/ }).click();
    await page.getByRole('button', { name: `Edit Quiz: ${moduleTitle}` }).click();
    const dialog = page.getByRole('dialog', { name: `Quiz: ${moduleTitle}` });
    await dialog.waitFor();
    const show = dialog.getByLabel('Show correct answers', { exact: true });
    await expect(show.inputValue()).resolves.toBe('AFTER_PASSING'); // the default
    await show.selectOption({ label: 'Never' });
    await dialog.getByLabel('Maximum attempts', { exact: true }).fill('2');
    await expect(dialog.getByLabel('Wait between attempts', { exact: true }).inputValue()).resolves.toBe('0');
    await screenshot(page, 'quiz-integrity-settings');
    await dialog.getByRole('button', { name: 'Update Quiz' }).click();
    await page.getByText('Quiz updated', { exact: true }).waitFor();
    const saved = await apiCall('GET', `/modules/${moduleId}/quiz/authoring`, instructorToken);
    expect([saved.json.showCorrectAnswers, saved.json.maxAttempts, saved.json.retryWaitMinutes]).toEqual(['NEVER', 2, 0]);
    await page.context().close();
  });

  it('a learner who fails sees the attempts left and no correct answer; focus follows; no third attempt', async () => {
    const learner = await newLearner(courseId);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Europe/London', locale: 'en-GB' })).newPage();
    await uiLogin(page, learner.username, learner.password, `/course/${courseId}/module/${moduleId}`);
    const panel = page.locator('section[aria-labelledby="quiz-title"]');
    await panel.getByText('2 attempts remaining.').waitFor();

    await panel.getByRole('button', { name: 'Start quiz' }).click();
    await panel.getByRole('radio', { name: 'False' }).waitFor();
    await expect.poll(async () => (await focusInfo(page)).inQuiz, { message: 'focus after Start quiz' }).toBe(true);
    expect((await focusInfo(page)).tag).not.toBe('body');

    await panel.getByRole('radio', { name: 'False' }).check();
    await panel.getByRole('button', { name: 'Submit answers' }).click();
    await panel.getByRole('heading', { name: 'Quiz not passed' }).waitFor();
    await expect.poll(async () => (await focusInfo(page)).text, { message: 'focus after Submit' }).toBe('Quiz not passed');
    await panel.getByText('1 attempt remaining.').waitFor();
    const text = await panel.innerText();
    expect(text).toContain('Your answer: False');
    expect(text).toContain('The correct answers to this quiz are not shown.');
    expect(text).not.toContain('Correct answer');
    expect(text).not.toContain(explanation);
    expect(text).not.toMatch(/\bIncorrect\b/);
    await expectAccessible(page);
    await screenshot(page, 'quiz-integrity-failed');

    // The second (last) attempt.
    await panel.getByRole('button', { name: 'Try again' }).click();
    await panel.getByRole('radio', { name: 'True' }).waitFor();
    await expect.poll(async () => (await focusInfo(page)).inQuiz, { message: 'focus after Try again' }).toBe(true);
    await panel.getByRole('radio', { name: 'False' }).check();
    await panel.getByRole('button', { name: 'Submit answers' }).click();
    await panel.getByText('You have used all 2 attempts at this quiz.').waitFor();
    await expect(panel.getByRole('button', { name: 'Try again' }).count()).resolves.toBe(0);

    // After a reload the panel still offers no start, and the server refuses one anyway.
    await page.reload();
    await panel.getByText('You have used all 2 attempts at this quiz.').waitFor();
    await expect(panel.getByRole('button', { name: 'Start quiz' }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await page.context().close();
  });

  it('with a wait between attempts, the learner sees when the next attempt may start', async () => {
    const updated = await apiCall('PUT', `/modules/${moduleId}/quiz`, instructorToken, {
      title: 'Cordons check', passingScore: 100, maxAttempts: null, retryWaitMinutes: 120,
    });
    expect(updated.status, updated.text).toBe(200);
    const learner = await newLearner(courseId);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Europe/London', locale: 'en-GB' })).newPage();
    await uiLogin(page, learner.username, learner.password, `/course/${courseId}/module/${moduleId}`);
    const panel = page.locator('section[aria-labelledby="quiz-title"]');
    await panel.getByRole('button', { name: 'Start quiz' }).click();
    await panel.getByRole('radio', { name: 'False' }).check();
    // Two hours after the attempt, on its London day: the day of two hours after just before the
    // submission or just after (they differ only when the two hours end at midnight).
    const londonDay = (at: number) =>
      new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' }).format(new Date(at + 120 * 60_000));
    const before = londonDay(Date.now());
    await panel.getByRole('button', { name: 'Submit answers' }).click();
    await panel.getByRole('heading', { name: 'Quiz not passed' }).waitFor();
    const after = londonDay(Date.now());
    await expect.poll(() => panel.innerText()).toMatch(new RegExp(`You can take this quiz again from (${before}|${after}) at \\d{2}:\\d{2}\\.`));
    await expect(panel.getByRole('button', { name: 'Try again' }).count()).resolves.toBe(0);
    await page.reload();
    await panel.getByText(/You can take this quiz again from/).waitFor();
    await expect(panel.getByRole('button', { name: 'Start quiz' }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await page.context().close();
  });
});
