// The notifications bell, list page and preferences in Chromium against the real platform: a learner whose
// certificate was issued gets the notice from the decision function (run here as the scheduler would;
// the schedule is off in test runs), sees "Notifications, 1 unread" on the bell, opens the list (axe
// and the contrast check, at 1366 and 390 px) and marks all read from the keyboard; "See all
// notifications" opens /notifications with the notice; on the profile page they switch off email for
// issued certificates while overdue and expiry email stay on.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, signInThroughForm } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;

describe('notifications end to end', () => {
  let browser: Browser;
  let page: Page;
  let sql: postgres.Sql;
  const learner = { username: `ntf_${suffix}`, email: `ntf.${suffix}@example.uk`, name: `Nell Notice ${suffix}`, password: 'notice-pass-1' };

  beforeAll(async () => {
    sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    const registered = await apiCall('POST', '/register', undefined, { ...learner, confirmPassword: learner.password });
    expect(registered.status, registered.text).toBe(201);
    await sql`insert into public.certificates (user_id, course_id, learner_name, course_title)
      values (${registered.json.user.id}::uuid, '10000000-0000-4000-a000-000000000004', ${learner.name}, 'Notice Course')`;
    await sql`select private.decide_notifications(now())`;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await sql?.end();
  });

  it('shows the unread count on the bell and the notice in its list, accessibly', async () => {
    await signInThroughForm(page, learner.username, learner.password);
    // Toasts come at the bottom right, clear of the header: the bell is pressed while the sign-in
    // toast is still showing.
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Login successful' });
    await toast.waitFor();
    const [toastBox, headerBox] = await Promise.all([toast.boundingBox(), page.getByRole('banner').boundingBox()]);
    expect(toastBox!.y).toBeGreaterThan(headerBox!.y + headerBox!.height);
    const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
    await bell.click();
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    await dialog.waitFor();
    await expect.poll(() => dialog.getByRole('link', { name: 'Certificate issued: Notice Course' }).getAttribute('href')).toMatch(/^\/verify\/[A-Z0-9]+$/);
    await screenshot(page, 'notifications-bell-1366');
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'notifications-bell-390');
    await expectAccessible(page);
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('marks all read from the keyboard, and the bell says none unread', async () => {
    await page.getByRole('button', { name: 'Mark all as read' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Notifications, none unread' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'Notifications' }).count()).toBe(0);
  });

  it('"See all notifications" leads to the page of every notice, accessible and titled', async () => {
    await page.getByRole('button', { name: 'Notifications, none unread' }).click();
    await page.getByRole('link', { name: 'See all notifications' }).click();
    await page.waitForURL(`${baseUrl}/notifications`);
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await page.getByRole('list', { name: 'Notifications, newest first' }).getByRole('link', { name: 'Certificate issued: Notice Course' }).waitFor();
    await expect.poll(() => page.title()).toMatch(/^Notifications/);
    await page.getByRole('switch', { name: 'Unread only' }).click({ force: true });
    await page.getByText('You have no unread notifications.').waitFor();
    await screenshot(page, 'notifications-page-1366');
    await expectAccessible(page);
  });

  it('switches off email for issued certificates on the profile page; overdue email stays on', async () => {
    await page.goto(`${baseUrl}/profile`);
    const issued = page.getByRole('switch', { name: 'A certificate issued to me' });
    await issued.waitFor();
    expect(await page.getByRole('switch', { name: 'Required training overdue' }).isDisabled()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Required training overdue' }).isChecked()).toBe(true);
    await screenshot(page, 'notifications-preferences-1366');
    await expectAccessible(page);
    await issued.click({ force: true });
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByText('Your notification preferences have been saved.').waitFor();
    await page.reload();
    await page.getByRole('switch', { name: 'A certificate issued to me' }).waitFor();
    expect(await page.getByRole('switch', { name: 'A certificate issued to me' }).isChecked()).toBe(false);
  });
});
