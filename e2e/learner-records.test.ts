// The learner's records in a real browser: the seeded student's My Courses and dashboard (figures
// checked against the API), the certificate PDF downloaded, its code verified on the public page
// while signed out (and a wrong code refused), and a new user editing their profile and password.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiLogin, apiUrl as api, signInThroughForm, uiLogin } from './api';

const CODE = 'DEMO2026CERT0001';
const AIRWAVE = 'Airwave Radio Voice Procedure';

interface Enrollment {
  progress: number;
  completed: boolean;
  completedAt: string | null;
  course: { title: string; service: string } | null;
}

async function apiGet<T>(token: string, pathname: string): Promise<T> {
  const response = await fetch(`${api}${pathname}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const ukDate = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' }).format(new Date(iso));

describe('learner records end to end', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let enrollments: Enrollment[];
  let certificateTotal: number;
  let studentName: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ acceptDownloads: true, timezoneId: 'Europe/London', locale: 'en-GB' });
    page = await context.newPage();
    // What the screens must show, straight from the API (other suites may enrol the student too).
    const student = await apiLogin('student', 'password123');
    studentName = student.name;
    enrollments = await apiGet<Enrollment[]>(student.token, `/users/${student.userId}/enrollments`);
    certificateTotal = (await apiGet<{ total: number }>(student.token, '/certificates')).total;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('My Courses lists the completed Airwave course with its date under Completed', async () => {
    const inProgress = enrollments.filter((e) => !e.completed).length;
    const completed = enrollments.filter((e) => e.completed);
    const airwave = completed.find((e) => e.course?.title === AIRWAVE);
    expect(airwave?.progress).toBe(100);

    await uiLogin(page, 'student', 'password123', '/my-courses');
    await page.getByRole('heading', { name: 'My Courses', level: 1 }).waitFor();
    await page.getByText('Track your progress and continue learning').waitFor();
    await page.getByRole('tab', { name: `In Progress (${inProgress})` }).waitFor();
    await page.getByRole('link', { name: 'Continue Course' }).first().waitFor();
    await expectAccessible(page);
    await screenshot(page, 'my-courses-in-progress');

    await page.getByRole('tab', { name: `Completed (${completed.length})` }).click();
    const card = page.getByRole('article', { name: AIRWAVE });
    await card.waitFor();
    await expect(card.getByText(`Completed on ${ukDate(airwave!.completedAt!)}`).count()).resolves.toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'my-courses-completed');
  });

  it('View Certificate opens the certificate, whose PDF downloads with the code', async () => {
    await page.getByRole('article', { name: AIRWAVE }).getByRole('link', { name: /View Certificate/ }).click();
    await page.waitForURL(/\/certificates\?id=/);
    const card = page.getByRole('article', { name: `Certificate: ${AIRWAVE}` });
    await card.getByText(CODE, { exact: true }).waitFor();
    await expect(card.getByRole('link', { name: `${baseUrl}/verify/${CODE}` }).count()).resolves.toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'certificates');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: `Download Certificate: ${AIRWAVE}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`certificate-airwave-radio-voice-procedure-${CODE}.pdf`);
    const file = path.resolve('test-results', `certificate-${CODE}.pdf`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await download.saveAs(file);
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.toString('latin1')).toContain(`/VerificationCode (${CODE})`);
    await page.getByText('Certificate downloaded').waitFor();
  });

  it('the dashboard shows the figures of the enrolments and certificates', async () => {
    const total = enrollments.length;
    const completed = enrollments.filter((e) => e.completed).length;
    const average = Math.round(enrollments.reduce((s, e) => s + e.progress, 0) / total);
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByRole('heading', { name: `Welcome, ${studentName}` }).waitFor();
    await expect.poll(() => page.getByTestId('stat-Total Courses').textContent(), { timeout: 10_000 }).toBe(String(total));
    await expect.poll(() => page.getByTestId('stat-In Progress').textContent(), { timeout: 10_000 }).toBe(String(total - completed));
    await expect.poll(() => page.getByTestId('stat-Completed').textContent(), { timeout: 10_000 }).toBe(String(completed));
    await page.getByTestId('stat-Certificates').filter({ hasText: String(certificateTotal) }).waitFor();
    await expect.poll(() => page.getByTestId('overall-progress').textContent(), { timeout: 10_000 }).toBe(`${average}%`);
    const services = [...new Set(enrollments.map((e) => e.course?.service).filter(Boolean))];
    for (const code of services) await expect(page.locator(`[data-service="${code}"]`).count()).resolves.toBeGreaterThan(0);
    await expectAccessible(page);
    await screenshot(page, 'dashboard-overview');

    await page.getByRole('tab', { name: 'Progress' }).click();
    await page.getByRole('table').getByRole('link', { name: AIRWAVE }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'dashboard-progress');

    await page.getByRole('tab', { name: 'My Courses' }).click();
    await page.getByRole('tab', { name: 'Completed', exact: true }).click();
    await page.getByRole('article', { name: AIRWAVE }).getByRole('link', { name: 'Review Course' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('tab', { name: 'Certificates' }).click();
    await page.getByRole('button', { name: `Download Certificate: ${AIRWAVE}` }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'dashboard-certificates');
  });

  it('anyone signed out verifies the code; a wrong code is not found', async () => {
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`${baseUrl}/verify/${CODE}`);
    await visitor.getByRole('heading', { name: 'Certificate verified' }).waitFor();
    const main = visitor.getByRole('main');
    await main.getByText('Sam Patel').waitFor();
    await main.getByText(AIRWAVE).waitFor();
    await main.getByText('United Kingdom Police Service').waitFor();
    await expect(visitor.getByRole('link', { name: 'Login' }).count()).resolves.toBeGreaterThan(0);
    await expectAccessible(visitor);
    await screenshot(visitor, 'verify-valid');

    await visitor.getByLabel('Verification code').fill('WRONGCODE0000000');
    await visitor.getByRole('button', { name: 'Verify' }).click();
    await visitor.waitForURL(`${baseUrl}/verify/WRONGCODE0000000`);
    await visitor.getByText('Certificate not found').waitFor();
    await expect(visitor.getByText('Certificate verified').count()).resolves.toBe(0);
    await expectAccessible(visitor);
    await screenshot(visitor, 'verify-not-found');
    await visitor.close();
  });

  it('a new user sees the empty states, edits their name, changes password and signs in with it', async () => {
    const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;
    const account = { username: `rec_${suffix}`, email: `rec_${suffix}@example.uk`, name: 'Robin Ashdown', password: 'first-pass-1' };
    const registered = await fetch(`${api}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...account, confirmPassword: account.password }),
    });
    expect(registered.status).toBe(201);

    const own = await (await browser.newContext()).newPage();
    await uiLogin(own, account.username, account.password, '/my-courses');
    await own.getByText('No courses in progress').waitFor();
    await own.getByText("You haven't started any courses yet.").waitFor();
    await own.getByRole('tab', { name: 'Completed (0)' }).click();
    await own.getByText("You haven't completed any courses yet.").waitFor();
    await own.getByRole('link', { name: 'Browse Courses' }).first().waitFor();
    await expectAccessible(own);
    await own.goto(`${baseUrl}/dashboard`);
    await own.getByText("You're not enrolled in any services yet.").waitFor();
    await expect.poll(() => own.getByTestId('stat-Certificates').textContent(), { timeout: 10_000 }).toBe('0');
    await expectAccessible(own);
    await screenshot(own, 'dashboard-empty');

    await own.goto(`${baseUrl}/profile`);
    await own.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    await expect(own.getByLabel('Username').inputValue()).resolves.toBe(account.username);
    await expect(own.getByLabel('Username').getAttribute('readonly')).resolves.not.toBeNull();
    await expect(own.getByLabel('Role').inputValue()).resolves.toBe('Student');
    await own.getByLabel('Full name').fill('Robin Ashdown-Clarke');
    await own.getByRole('button', { name: 'Save Changes' }).click();
    await own.getByText('Profile updated').waitFor();
    await own.getByRole('button', { name: /Robin Ashdown-Clarke/ }).waitFor();

    await own.getByLabel('Current password').fill('not-my-password');
    await own.getByLabel('New password', { exact: true }).fill('second-pass-2');
    await own.getByLabel('Confirm new password').fill('second-pass-2');
    await own.getByRole('button', { name: 'Change Password' }).click();
    await own.getByText('Current password is incorrect').first().waitFor();
    await expectAccessible(own);
    await screenshot(own, 'profile-wrong-password');
    await own.getByLabel('Current password').fill(account.password);
    await own.getByRole('button', { name: 'Change Password' }).click();
    await own.getByText('Password changed').waitFor();
    await screenshot(own, 'profile-password-changed');

    await own.getByRole('button', { name: /Robin Ashdown-Clarke/ }).click();
    await own.getByRole('menuitem', { name: 'Logout' }).click();
    await own.getByText('You have been successfully logged out').waitFor();
    await signInThroughForm(own, account.username, 'second-pass-2');
    await own.getByText('Welcome back, Robin Ashdown-Clarke!').waitFor();
    await own.close();
  });
});
