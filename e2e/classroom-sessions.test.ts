// Classroom sessions in Chromium against the real platform: the instructor adds a session module and
// two dates of 2 places (one in summer time, one in winter, entered as London times; the summer one's
// trainer chosen by a search); three learners
// book the summer date (the third waits); one cancels and the third accepts the place offered; the
// trainer marks the register on a 390 px phone (Attended, tapped twice, saved once); the learner's
// module then shows it completed. axe and the contrast check at 1366 and 390 px. The dates are in
// 2030, so the journey gives the same answer whatever the day it runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeToasts, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiChooseNewPassword, apiLogin, removeCourse, uiLogin } from './api';

const s = Date.now().toString(36);
const courseTitle = `Public order shield day ${s}`;
const moduleTitle = 'Shield day';

describe('classroom sessions', () => {
  let browser: Browser;
  let context: BrowserContext | undefined;
  let page: Page;
  let courseId = '';
  let moduleId = '';
  let summerId = '';
  let instructorToken = '';
  const learners: { username: string; password: string; name: string; token: string }[] = [];

  /** The booking's status line says it (a toast may say it too). */
  const status = (text: string | RegExp) => page.getByTestId('session-status').filter({ hasText: text }).waitFor();

  async function open(username: string, password: string, path: string, width = 1366) {
    await context?.close();
    context = await browser.newContext({ viewport: { width, height: 900 } });
    page = await context.newPage();
    await uiLogin(page, username, password, path);
  }

  beforeAll(async () => {
    instructorToken = (await apiLogin('instructor')).token;
    const admin = await apiLogin('admin');
    const course = await apiCall('POST', '/courses', instructorToken, {
      title: courseTitle, description: 'Booking a place on a classroom day.', service: 'UKPS', status: 'ACTIVE', requiresEnrollment: true,
    });
    expect(course.status, course.text).toBe(201);
    courseId = course.json.id;
    for (const [i, name] of ['Ada Lovell', 'Ben Carter', 'Cara Jones'].entries()) {
      const username = `sess_${i}_${s}`;
      const user = await apiCall('POST', '/users', admin.token, {
        username, email: `${username}@example.uk`, name, role: 'STUDENT', services: ['UKPS'],
      });
      expect(user.status, user.text).toBe(201);
      const signedIn = await apiLogin(username, user.json.temporaryPassword);
      const password = await apiChooseNewPassword(signedIn.token, user.json.temporaryPassword);
      const token = (await apiLogin(username, password)).token;
      const enrolled = await apiCall('POST', `/courses/${courseId}/enroll`, token);
      expect([200, 201], enrolled.text).toContain(enrolled.status);
      learners.push({ username, password, name, token });
    }
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    if (courseId) await removeCourse(courseId, instructorToken);
  });

  it('adds a session module and two dates in London time', async () => {
    await open('instructor', 'password123', `/course/edit/${courseId}`);
    await page.getByRole('tab', { name: /Modules & Quizzes/ }).click();
    await page.getByRole('button', { name: 'Add Your First Module' }).click();
    const moduleDialog = page.getByRole('dialog', { name: 'Add New Module' });
    await moduleDialog.getByRole('radio', { name: 'Classroom session' }).check();
    await moduleDialog.getByLabel('Module Title', { exact: true }).fill(moduleTitle);
    await moduleDialog.getByLabel('Module Content', { exact: true }).fill('A day of shield training at the centre.');
    await moduleDialog.getByRole('button', { name: 'Create Module' }).click();
    await moduleDialog.waitFor({ state: 'detached' });
    await closeToasts(page);

    await page.getByRole('button', { name: `Dates of ${moduleTitle}` }).click();
    const dates = page.getByRole('dialog', { name: 'Session dates' });
    for (const day of ['2030-06-12', '2030-12-04']) {
      await dates.getByRole('button', { name: 'Add a date' }).click();
      const form = page.getByRole('dialog', { name: 'Add a date' }).last();
      await form.getByLabel(/^Date/).fill(day);
      await form.getByLabel(/^Starts at/).fill('09:30');
      await form.getByLabel(/^Ends at/).fill('16:00');
      await form.getByLabel(/^Venue/).fill('Northshire Training Centre');
      await form.getByLabel(/^Places/).fill('2');
      if (day === '2030-06-12') {
        // The summer date's trainer: found by typing part of the name, chosen from the list.
        await form.getByLabel('Trainers', { exact: true }).fill('jordan');
        await page.getByRole('option', { name: 'Jordan Hughes (@instructor)' }).click();
        await form.getByRole('list', { name: 'Chosen trainers' }).getByText('Jordan Hughes').waitFor();
        await expectAccessible(page);
      }
      await form.getByRole('button', { name: 'Add the date' }).click();
      await form.waitFor({ state: 'detached' });
    }
    await dates.getByText('12 June 2030, 09:30–16:00').waitFor();
    await dates.getByText('4 December 2030, 09:30–16:00').waitFor();
    await closeToasts(page);
    await expectAccessible(page);
    await screenshot(page, 'sessions-dates');

    // Stored as instants: 09:30 London is 08:30Z in June (BST) and 09:30Z in December (GMT).
    const modules = await apiCall('GET', `/courses/${courseId}/modules`, instructorToken);
    moduleId = modules.json[0].id;
    const listed = await apiCall('GET', `/modules/${moduleId}/sessions`, instructorToken);
    expect(listed.json.sessions.map((x: { startsAt: string }) => x.startsAt)).toEqual(['2030-06-12T08:30:00.000Z', '2030-12-04T09:30:00.000Z']);
    summerId = listed.json.sessions[0].id;
    expect(listed.json.sessions.map((x: { trainers: { name: string }[] }) => x.trainers.map((t) => t.name))).toEqual([['Jordan Hughes'], []]);
  });

  it('books two learners, puts the third on the waiting list, and offers the freed place', async () => {
    const modulePath = `/course/${courseId}/module/${moduleId}`;
    await open(learners[0].username, learners[0].password, modulePath);
    await page.getByRole('button', { name: 'Book this date: 12 June 2030, 09:30–16:00' }).click();
    await status('You are booked on 12 June 2030, 09:30–16:00.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('session-status');
    await closeToasts(page);
    await expectAccessible(page);

    const second = await apiCall('POST', `/modules/${moduleId}/booking`, learners[1].token, { sessionId: summerId });
    expect(second.status, second.text).toBe(201);
    expect(second.json.status).toBe('booked');

    await open(learners[2].username, learners[2].password, modulePath);
    await page.getByText('Full — join the waiting list').waitFor();
    await page.getByRole('button', { name: 'Join the waiting list: 12 June 2030, 09:30–16:00' }).click();
    await status('You are on the waiting list for 12 June 2030, 09:30–16:00.');

    // The first learner cancels (after confirming); the place is offered to the third.
    await open(learners[0].username, learners[0].password, modulePath);
    await page.getByRole('button', { name: 'Cancel my booking' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel your booking?' });
    await confirm.getByRole('button', { name: 'Cancel my booking' }).click();
    await status('Your booking was cancelled. Choose a date to book again.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('session-status');

    await open(learners[2].username, learners[2].password, modulePath, 390);
    await status(/A place on 12 June 2030, 09:30–16:00 is yours if you accept it by/);
    await expectAccessible(page);
    await screenshot(page, 'sessions-offered-390');
    await page.getByRole('button', { name: 'Accept the place' }).click();
    await status('You are booked on 12 June 2030, 09:30–16:00.');
  });

  it('keeps the register on a phone: Attended tapped twice is saved once', async () => {
    await open('instructor', 'password123', `/sessions/${summerId}/register`, 390);
    await page.getByText('0 of 2 people marked attended').waitFor();
    await expectAccessible(page);
    const attended = page.getByRole('button', { name: `Attended: ${learners[2].name}` });
    const box = await attended.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await attended.click();
    await attended.click();
    await page.getByText('1 of 2 people marked attended').waitFor();
    await expect.poll(() => attended.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Attended: ${learners[2].name}`);
    await screenshot(page, 'sessions-register-390');
    await expectAccessible(page);
    const detail = await apiCall('GET', `/sessions/${summerId}`, instructorToken);
    const marked = detail.json.register.find((r: { name: string }) => r.name === learners[2].name);
    expect(marked.attendance).toBe('attended');
  });

  it("shows the learner's module completed by the register", async () => {
    await open(learners[2].username, learners[2].password, `/course/${courseId}/module/${moduleId}`);
    await status('Completed: you attended on 12 June 2030.');
    await expect.poll(() => page.getByRole('button', { name: /Mark as complete/ }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'sessions-completed');
  });

  it("shows the session in the instructor's calendar with its bookings, at 1366 and 390 px", async () => {
    for (const width of [1366, 390]) {
      await open('instructor', 'password123', '/instructor?tab=sessions&month=2030-06', width);
      await page.getByRole('heading', { name: 'June 2030' }).waitFor();
      await page.getByRole('button', { name: `${moduleTitle}, 12 June 2030, 09:30–16:00` }).click();
      const drawer = page.getByRole('dialog', { name: '12 June 2030, 09:30–16:00' });
      await drawer.getByRole('button', { name: 'Download bookings (CSV)' }).waitFor();
      await drawer.getByText('Booked (2)').waitFor();
      await drawer.getByRole('cell', { name: learners[2].name }).waitFor();
      await expectAccessible(page);
      await screenshot(page, `sessions-calendar-${width}`);
    }
  });
});
