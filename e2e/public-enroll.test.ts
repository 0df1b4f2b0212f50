// Course access "public-enroll" (docs/ARCHITECTURE.md, "Course access"): a visitor who presses enrol
// is enrolled as soon as they have registered, the intent surviving the trip through /auth. The
// setting is restored after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin } from './api';

const JESIP = '10000000-0000-4000-a000-000000000001';

describe('public browse and enrol', () => {
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  let original: Record<string, unknown>;
  const suffix = Date.now().toString(36);
  const account = { username: `pe_${suffix}`, email: `pe_${suffix}@example.uk`, name: 'Jo Okafor', password: 'secret-pass-1' };

  beforeAll(async () => {
    adminToken = (await apiLogin('admin')).token;
    original = (await apiCall('GET', '/settings', adminToken)).json;
    const put = await apiCall('PUT', '/settings', adminToken, { ...original, courseAccess: 'public-enroll' });
    expect(put.status, put.text).toBe(200);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await apiCall('PUT', '/settings', adminToken, original);
    await browser?.close();
  });

  it('enrols a visitor who pressed enrol, once they have registered', async () => {
    await page.goto(`${baseUrl}/`);
    const card = page.locator(`[data-course-card="${JESIP}"]`);
    await card.getByRole('button', { name: 'Login to Enroll' }).click();
    await page.waitForURL(/\/auth\?/);
    const target = new URL(page.url());
    expect(target.searchParams.get('redirect')).toContain(`/course/${JESIP}`);

    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Full Name').fill(account.name);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm Password').fill(account.password);
    await page.getByRole('button', { name: 'Register', exact: true }).click();

    await page.waitForURL(new RegExp(`/course/${JESIP}$`));
    await page.getByRole('button', { name: 'Start Course' }).waitFor();
    await screenshot(page, 'public-enroll-enrolled');

    const learner = await apiLogin(account.username, account.password);
    const enrollments = await apiCall('GET', `/users/${learner.userId}/enrollments`, learner.token);
    expect(enrollments.status).toBe(200);
    expect(enrollments.json.map((e: { courseId: string }) => e.courseId)).toEqual([JESIP]);
  });
});
