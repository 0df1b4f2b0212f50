// The learner's screens in a real browser, at 1366 x 900 and at a phone's 390 x 844: the
// module page shows the course's modules with done marks and the progress, 'Mark as complete and
// continue' is apart from 'Next module'; at 100 % the last module, the course page and the toast
// lead to the certificate (view and PDF); course covers on the cards (lazy, alt="") and the course
// page, in a box that does not shift; the keyboard focus stays by the control after 'Enroll Now'
// and 'Mark as complete'; at 390 px the learning record and the dashboard's progress are cards with
// every field and action inside the screen. axe on every screen no other test checks in the same
// state (a module not yet done is learner.test.ts's); screenshots at both widths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { baseUrl, closeToasts, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, apiUrl, uiLogin, removeCourse } from './api';
import { makePng } from './files';

const AIRWAVE = '10000000-0000-4000-a000-000000000003';
const AIRWAVE_TITLE = 'Airwave Radio Voice Procedure';
const airwaveModule = (m: number) => `20000000-0000-4000-a000-00000300000${m}`;
const AIRWAVE_QUIZ = '30000000-0000-4000-a000-000003000003';
const airwaveQuestion = (q: number) => `40000000-0000-4000-a000-00030003000${q}`;

/** What has the keyboard focus: its tag, text and accessible role attributes. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return { tag: el?.tagName.toLowerCase() ?? '', text: (el?.textContent ?? '').trim() };
  });

/** The element lies inside the 390 px wide viewport, visible (not cut off or scrolled sideways). */
async function expectInsideViewport(locator: Locator, width: number) {
  await locator.scrollIntoViewIfNeeded();
  await expect(locator.isVisible()).resolves.toBe(true);
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

/** Closes the toast (bottom right, over the end of the module list) before pressing what lies beneath it. */
describe('learner screens at 1366 and 390 px', () => {
  let browser: Browser;
  let desktop: Page;
  let phone: Page;
  let adminToken: string;
  let courseId = '';
  let secondId = '';
  const moduleIds: string[] = [];
  const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const courseTitle = `Incident Command Basics ${suffix}`;
  const secondTitle = `Cordon Briefing ${suffix}`;
  const moduleTitles = ['Arriving on scene', 'Setting up the cordon', 'Handing over command'];
  const learner = { username: `ux_${suffix}`, email: `ux_${suffix}@example.uk`, name: 'Jordan Hale', password: 'ux-learner-pass-4' };
  const cpdActivity = 'Major incident table-top exercise';

  beforeAll(async () => {
    adminToken = (await apiLogin('admin')).token;
    const course = await apiCall('POST', '/courses', adminToken, {
      title: courseTitle,
      description: 'Taking command at the first minutes of an incident: arrival, cordons and handover.',
      service: 'UKPS',
      status: 'ACTIVE',
      requiresEnrollment: true,
    });
    expect(course.status).toBe(201);
    courseId = course.json.id;
    const form = new FormData();
    form.append('coverImage', new Blob([makePng(320, 180, [30, 80, 160])], { type: 'image/png' }), 'cover.png');
    const cover = await fetch(`${apiUrl}/courses/${courseId}/cover`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: form });
    expect(cover.status).toBe(200);
    for (const title of moduleTitles) {
      const created = await apiCall('POST', `/courses/${courseId}/modules`, adminToken, {
        title,
        content: `# ${title}\n\nWhat the first officer on scene does, step by step, and why it matters.`,
      });
      expect(created.status).toBe(201);
      moduleIds.push(created.json.id);
    }

    const second = await apiCall('POST', '/courses', adminToken, {
      title: secondTitle, description: 'A short briefing on cordons, taken in one sitting.', service: 'UKPS', status: 'ACTIVE', requiresEnrollment: true,
    });
    expect(second.status).toBe(201);
    secondId = second.json.id;

    const registered = await apiCall('POST', '/register', undefined, { ...learner, confirmPassword: learner.password });
    expect(registered.status).toBe(201);
    const { token } = await apiLogin(learner.username, learner.password);
    // A completed course with a quiz score (Airwave) and a CPD activity for the learning record.
    expect([201, 409]).toContain((await apiCall('POST', `/courses/${AIRWAVE}/enroll`, token)).status);
    for (const m of [1, 2, 3]) expect((await apiCall('POST', `/modules/${airwaveModule(m)}/complete`, token)).status).toBe(200);
    expect((await apiCall('GET', `/modules/${airwaveModule(3)}/quiz`, token)).status).toBe(200);
    const attempt = await apiCall('POST', `/quizzes/${AIRWAVE_QUIZ}/attempts`, token, {
      answers: { [airwaveQuestion(1)]: [1], [airwaveQuestion(2)]: [2], [airwaveQuestion(3)]: [1] },
    });
    expect(attempt.json.passed).toBe(true);
    const cpd = await apiCall('POST', '/me/cpd-entries', token, {
      activityDate: '2026-11-02', activity: cpdActivity, hours: 3.5, learnt: 'How the cordons are set and handed over.', reflection: '',
    });
    expect(cpd.status).toBe(201);

    browser = await launchBrowser();
    desktop = await (await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true, timezoneId: 'Europe/London', locale: 'en-GB' })).newPage();
    phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, timezoneId: 'Europe/London', locale: 'en-GB' })).newPage();
    await uiLogin(desktop, learner.username, learner.password);
    await uiLogin(phone, learner.username, learner.password);
  });
  afterAll(async () => {
    await browser?.close();
    if (courseId) await removeCourse(courseId, adminToken);
    if (secondId) await removeCourse(secondId, adminToken);
  });

  it('shows the cover on the catalogue card: lazy, alt="", a fixed box', async () => {
    await desktop.goto(`${baseUrl}/?search=${encodeURIComponent(`Incident Command Basics ${suffix}`)}`);
    const card = desktop.locator(`[data-course-card="${courseId}"]`);
    await card.waitFor();
    const cover = card.locator('img[data-course-cover]');
    await expect(cover.getAttribute('alt')).resolves.toBe('');
    await expect(cover.getAttribute('loading')).resolves.toBe('lazy');
    await expect(cover.getAttribute('width')).resolves.toBe('640');
    await expect(cover.getAttribute('height')).resolves.toBe('360');
    expect(await cover.evaluate((img) => getComputedStyle(img).aspectRatio)).toBe('16 / 9');
    await expect.poll(() => cover.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBe(320);
    expect(await cover.getAttribute('src')).toMatch(/\/storage\/v1\/object\/public\/course-covers\/.+\.png$/);
    await expectAccessible(desktop);
    await screenshot(desktop, 'learner-ux-catalogue-1366');
  });

  it('enrols on the course page (cover shown) and keeps the focus on the main button', async () => {
    await desktop.goto(`${baseUrl}/course/${courseId}`);
    await desktop.getByRole('heading', { level: 1, name: courseTitle }).waitFor();
    const cover = desktop.locator('img[data-course-cover]');
    await expect(cover.getAttribute('alt')).resolves.toBe('');
    await expect(cover.getAttribute('width')).resolves.toBe('1200');
    await expect(cover.getAttribute('height')).resolves.toBe('400');
    const enrol = desktop.getByRole('button', { name: 'Enroll Now' });
    await enrol.focus();
    await enrol.click();
    await desktop.getByRole('button', { name: 'Start Course' }).waitFor();
    await expect.poll(() => focused(desktop)).toEqual({ tag: 'button', text: 'Start Course' });
    await expectAccessible(desktop);
    await screenshot(desktop, 'learner-ux-course-enrolled-1366');
  });

  it('shows the module list and progress; "Mark as complete and continue" apart from "Next module"', async () => {
    await desktop.getByRole('button', { name: 'Start Course' }).click();
    await desktop.getByRole('heading', { level: 1, name: moduleTitles[0] }).waitFor();
    const list = desktop.getByRole('navigation', { name: 'Course modules' });
    await list.getByText('0 of 3 modules complete').waitFor();
    await expect(list.getByRole('progressbar', { name: 'Course progress: 0 of 3 modules complete (0%)' }).getAttribute('aria-valuenow')).resolves.toBe('0');
    await expect(list.getByRole('listitem').count()).resolves.toBe(3);
    await expect(list.getByRole('link', { name: `Module 2: ${moduleTitles[1]}` }).count()).resolves.toBe(1);
    const nav = desktop.getByRole('navigation', { name: 'Module navigation' });
    await nav.getByRole('button', { name: 'Mark as complete and continue' }).waitFor();
    await expect(nav.getByRole('link', { name: 'Next module' }).getAttribute('href')).resolves.toBe(`/course/${courseId}/module/${moduleIds[1]}`);
    await screenshot(desktop, 'learner-ux-module-1366');

    // Complete and continue: module 1 done, module 2 open with its heading focused.
    await nav.getByRole('button', { name: 'Mark as complete and continue' }).click();
    await desktop.getByRole('heading', { level: 1, name: moduleTitles[1] }).waitFor();
    await list.getByText('1 of 3 modules complete').waitFor();
    await list.getByRole('link', { name: `Module 1: ${moduleTitles[0]} (completed)` }).waitFor();
    await expect.poll(() => focused(desktop)).toEqual({ tag: 'h1', text: moduleTitles[1] });

    // 'Next module' moves on without completing module 2.
    await desktop.getByRole('navigation', { name: 'Module navigation' }).getByRole('link', { name: 'Next module' }).click();
    await desktop.getByRole('heading', { level: 1, name: moduleTitles[2] }).waitFor();
    await list.getByText('1 of 3 modules complete').waitFor();
    await expect(list.locator(`[data-module-item="${moduleIds[1]}"]`).getAttribute('data-completed')).resolves.toBeNull();
    await expect(list.locator(`[data-module-item="${moduleIds[0]}"]`).getAttribute('data-completed')).resolves.toBe('true');
    // The last module has no 'and continue'.
    await expect(desktop.getByRole('button', { name: 'Mark as complete and continue' }).count()).resolves.toBe(0);

    // 'Mark as complete': the focus moves to the line that replaces the button.
    await desktop.getByRole('button', { name: 'Mark as complete', exact: true }).click();
    await desktop.getByText('You have completed this module.').waitFor();
    await expect.poll(() => focused(desktop)).toEqual({ tag: 'p', text: 'You have completed this module.' });
    await list.getByText('2 of 3 modules complete').waitFor();
  });

  it('at 100 % the last module, the toast and the course page lead to the certificate', async () => {
    const list = desktop.getByRole('navigation', { name: 'Course modules' });
    await closeToasts(desktop);
    await list.getByRole('link', { name: `Module 2: ${moduleTitles[1]}` }).click();
    await desktop.getByRole('heading', { level: 1, name: moduleTitles[1] }).waitFor();
    await desktop.getByRole('button', { name: 'Mark as complete', exact: true }).click();
    // The toast: the course is complete, with its certificate.
    const toast = desktop.locator('.mantine-Notification-root').filter({ hasText: 'Course completed' });
    await toast.getByRole('link', { name: 'View certificate' }).waitFor();
    await toast.getByRole('button', { name: 'Download PDF' }).waitFor();
    await expect.poll(() => focused(desktop)).toEqual({ tag: 'p', text: 'You have completed this module.' });
    await list.getByText('3 of 3 modules complete').waitFor();
    const onPage = desktop.getByTestId('certificate-links');
    await onPage.getByRole('link', { name: 'View certificate' }).waitFor();
    const href = await onPage.getByRole('link', { name: 'View certificate' }).getAttribute('href');
    expect(href).toMatch(/^\/certificates\?id=[0-9a-f-]{36}$/);
    await expectAccessible(desktop);
    await screenshot(desktop, 'learner-ux-module-completed-1366');

    const [download] = await Promise.all([desktop.waitForEvent('download'), onPage.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^certificate-.*\.pdf$/);

    await desktop.goto(`${baseUrl}/course/${courseId}`);
    await desktop.getByText('Course completed!').waitFor();
    const links = desktop.getByTestId('certificate-links');
    await expect(links.getByRole('link', { name: 'View certificate' }).getAttribute('href')).resolves.toBe(href);
    await links.getByRole('button', { name: 'Download PDF' }).waitFor();
    await expectAccessible(desktop);
    await screenshot(desktop, 'learner-ux-course-completed-1366');
    await links.getByRole('link', { name: 'View certificate' }).click();
    await desktop.waitForURL(`${baseUrl}${href}`);
    await desktop.getByRole('article', { name: `Certificate: ${courseTitle}` }).waitFor();
    await expect(desktop.getByRole('article', { name: `Certificate: ${courseTitle}` }).getAttribute('data-highlighted')).resolves.toBe('true');
  });

  it('at 390 px the learning record shows every field and action as cards inside the screen', async () => {
    await phone.goto(`${baseUrl}/learning-record`);
    await phone.getByRole('heading', { name: 'My learning record', level: 1 }).waitFor();
    const completed = phone.getByRole('list', { name: 'Completed courses' });
    const airwave = completed.getByRole('listitem').filter({ hasText: AIRWAVE_TITLE });
    await airwave.waitFor();
    await expectInsideViewport(airwave.locator('[data-field="hours"]').getByText('2', { exact: true }), 390);
    await expectInsideViewport(airwave.locator('[data-field="score"]').getByText('100%'), 390);
    await expectInsideViewport(airwave.locator('[data-field="validity"]').getByText('Valid', { exact: true }), 390);
    const ours = completed.getByRole('listitem').filter({ hasText: courseTitle });
    await expectInsideViewport(ours.locator('[data-field="score"]').getByText('No quiz'), 390);
    const cpd = phone.getByRole('list', { name: 'CPD activities' }).getByRole('listitem').filter({ hasText: cpdActivity });
    await expectInsideViewport(cpd.locator('[data-field="hours"]').getByText('3.5'), 390);
    await expectInsideViewport(cpd.getByRole('button', { name: `Edit ${cpdActivity}` }), 390);
    await expectInsideViewport(cpd.getByRole('button', { name: `Delete ${cpdActivity}` }), 390);
    // Nothing wider than the screen.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(phone);
    await screenshot(phone, 'learner-ux-learning-record-390');
    await cpd.getByRole('button', { name: `Edit ${cpdActivity}` }).click();
    await phone.getByRole('dialog').waitFor();
    await phone.keyboard.press('Escape');
  });

  it("at 390 px the dashboard's progress is cards with progress, modules and last activity", async () => {
    await phone.goto(`${baseUrl}/dashboard`);
    await phone.getByRole('tab', { name: 'Progress', exact: true }).click();
    const cards = phone.getByRole('list', { name: 'Your progress in each course' });
    const ours = cards.getByRole('listitem').filter({ hasText: courseTitle });
    await ours.waitFor();
    await expectInsideViewport(ours.getByRole('progressbar', { name: `${courseTitle}: 100%` }), 390);
    await expectInsideViewport(ours.getByText('3 of 3'), 390);
    await expectInsideViewport(ours.getByText('Last activity'), 390);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(phone);
    await screenshot(phone, 'learner-ux-dashboard-progress-390');
  });

  it('at 390 px the catalogue, course page and module page fit the screen', async () => {
    await phone.goto(`${baseUrl}/?search=${encodeURIComponent(`Incident Command Basics ${suffix}`)}`);
    const card = phone.locator(`[data-course-card="${courseId}"]`);
    await card.waitFor();
    await expectInsideViewport(card.locator('img[data-course-cover]'), 390);
    await expectAccessible(phone);
    await screenshot(phone, 'learner-ux-catalogue-390');

    await phone.goto(`${baseUrl}/course/${courseId}`);
    await phone.getByText('Course completed!').waitFor();
    await expectInsideViewport(phone.getByTestId('certificate-links').getByRole('button', { name: 'Download PDF' }), 390);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(phone);
    await screenshot(phone, 'learner-ux-course-completed-390');

    await phone.goto(`${baseUrl}/course/${courseId}/module/${moduleIds[2]}`);
    await phone.getByRole('heading', { level: 1, name: moduleTitles[2] }).waitFor();
    const list = phone.getByRole('navigation', { name: 'Course modules' });
    await expectInsideViewport(list.getByText('3 of 3 modules complete'), 390);
    await expectInsideViewport(phone.getByTestId('certificate-links').getByRole('link', { name: 'View certificate' }), 390);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(phone);
    await screenshot(phone, 'learner-ux-module-390');
  });

  it('at 390 px enrolling from a catalogue card lands on the course page with the focus on its button', async () => {
    await phone.goto(`${baseUrl}/?search=${encodeURIComponent(secondTitle)}`);
    const card = phone.locator(`[data-course-card="${secondId}"]`);
    await card.getByRole('button', { name: 'Enroll Now' }).click();
    await phone.waitForURL(`${baseUrl}/course/${secondId}`);
    await phone.getByRole('button', { name: 'Start Course' }).waitFor();
    await expect.poll(() => focused(phone)).toEqual({ tag: 'button', text: 'Start Course' });
    await expectAccessible(phone);
    await screenshot(phone, 'learner-ux-course-enrolled-390');
  });
});
