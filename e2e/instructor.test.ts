// The instructor's screens in a real browser against the real platform: Overview figures equal to
// the API's (computed in SQL), My Courses search, a course created in the course manager, a pending
// enrolment (course access login-approval) approved in the Students tab, Analytics, and a learner
// refused at /instructor and /course-manager. axe on every tab (the Overview with a pending
// request in e2e/staff.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin, removeCourse } from './api';

const JESIP = '10000000-0000-4000-a000-000000000001';
const CONFLICT_COURSE = '10000000-0000-4000-a000-000000000002';

interface Stats {
  totalCourses: number;
  totalStudents: number;
  completionRate: number;
  averageProgress: number;
  totalCourseHours: number;
  recentlyUpdated: { id: string; title: string }[];
}

describe('instructor dashboard and course manager end to end', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let instructorToken: string;
  let adminToken: string;
  const suffix = Date.now().toString(36);
  const newCourseTitle = `Water Rescue Awareness ${suffix}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    instructorToken = (await apiLogin('instructor')).token;
    adminToken = (await apiLogin('admin')).token;
    await uiLogin(page, 'instructor');
  });
  afterAll(async () => {
    // Leave no course behind even if a step failed before the delete dialog.
    const left = await apiCall<{ items: { id: string; title: string }[] }>(
      'GET', `/courses?mine=true&search=${encodeURIComponent(suffix)}&pageSize=100`, instructorToken);
    for (const course of left.json?.items ?? []) await removeCourse(course.id, instructorToken);
    await browser?.close();
  });

  it('shows the Overview figures the server computes', async () => {
    const stats = (await apiCall<Stats>('GET', '/instructor/stats', instructorToken)).json;
    await page.goto(`${baseUrl}/instructor`);
    await page.getByRole('heading', { name: 'Instructor Dashboard', level: 1 }).waitFor();
    const card = (label: string) => page.getByRole('region', { name: label }).locator(`[data-stat="${label}"]`);
    await card('Total Courses').waitFor();
    expect(await card('Total Courses').textContent()).toBe(String(stats.totalCourses));
    expect(await card('Total Students').textContent()).toBe(String(stats.totalStudents));
    expect(await card('Completion Rate').textContent()).toBe(`${stats.completionRate}%`);
    expect(await card('Average Progress').textContent()).toBe(`${stats.averageProgress}%`);
    expect(await card('Total Course Hours').textContent()).toBe(String(stats.totalCourseHours));
    expect(stats.totalCourses).toBeGreaterThan(0);
    await page.getByRole('heading', { name: 'Recently Updated' }).waitFor();
    for (const course of stats.recentlyUpdated) await page.getByText(course.title, { exact: true }).first().waitFor();
    await page.getByRole('heading', { name: 'Quick Actions' }).waitFor();
    await screenshot(page, 'instructor-overview');
  });

  it('searches My Courses by title, and says when nothing matches', async () => {
    await page.getByRole('tab', { name: 'My Courses' }).click();
    await page.getByLabel('Search courses', { exact: true }).fill('jesip');
    await page.getByRole('article', { name: /JESIP Joint Doctrine/ }).waitFor();
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    await expect(page.getByRole('link', { name: /^Edit JESIP/ }).getAttribute('href')).resolves.toBe(`/course/edit/${JESIP}`);
    await expectAccessible(page);
    await screenshot(page, 'instructor-my-courses');
    await page.getByLabel('Search courses', { exact: true }).fill('zzqx');
    await page.getByText('No courses match "zzqx". Try a different search.').waitFor();
    await page.getByText('No courses found').waitFor();
  });

  it('creates a course in the course manager and finds it under Drafts', async () => {
    await page.goto(`${baseUrl}/course-manager`);
    await page.getByRole('heading', { name: 'Course Manager', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Courses' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create Course' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Course' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Create Course' }).click();
    // The shared course form rules: empty fields are required, as in every course form.
    await dialog.getByText('Title is required').waitFor();
    await dialog.getByText('Description is required').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'course-manager-create-errors');
    await dialog.getByLabel('Title', { exact: true }).fill(newCourseTitle);
    await dialog.getByLabel('Description', { exact: true }).fill('Safe working near water for first responders: hazards, throw lines and when not to enter.');
    await dialog.getByLabel('Duration (hours)', { exact: true }).fill('2');
    await dialog.getByRole('button', { name: 'Create Course' }).click();
    await page.getByText('Course created').waitFor();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Drafts' }).click();
    const row = page.getByRole('row', { name: new RegExp(newCourseTitle) });
    await row.waitFor();
    await expect(row.getByText('Draft', { exact: true }).count()).resolves.toBe(1);
    await expect(row.getByText('2 hours').count()).resolves.toBe(1);
    // Not under Archived (where other tests' archived courses of this instructor may be).
    await page.getByRole('tab', { name: 'Archived' }).click();
    await page.getByRole('tab', { name: 'Archived', selected: true }).waitFor();
    await page.getByText('No archived courses available.')
      .or(page.getByRole('table', { name: 'Courses' }).getByText('Archived', { exact: true })).first().waitFor();
    await expect.poll(() => page.getByRole('row', { name: new RegExp(newCourseTitle) }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'course-manager-archived');

    // Publish it through the edit dialog: it moves to the Published tab.
    await page.getByRole('tab', { name: 'Drafts' }).click();
    await page.getByRole('button', { name: `Edit ${newCourseTitle}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Course' });
    await expect(edit.getByLabel('Title', { exact: true }).inputValue()).resolves.toBe(newCourseTitle);
    await edit.getByRole('textbox', { name: 'Status' }).or(edit.getByRole('combobox', { name: 'Status' })).first().click();
    await page.getByRole('option', { name: 'Published' }).click();
    await edit.getByRole('button', { name: 'Update Course' }).click();
    await page.getByText('Course updated').waitFor();
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Published' }).click();
    await page.getByRole('row', { name: new RegExp(newCourseTitle) }).getByText('Published', { exact: true }).waitFor();

    // Delete it again through the delete dialog.
    await page.getByRole('button', { name: `Delete ${newCourseTitle}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Course' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Course deleted').waitFor();
    await expect.poll(() => page.getByRole('row', { name: new RegExp(newCourseTitle) }).count()).toBe(0);
  });

  it('approves a pending enrolment under login-approval in the Students tab', async () => {
    const settings = (await apiCall<Record<string, unknown>>('GET', '/settings', adminToken)).json;
    expect(settings.adminEmail).toBeTruthy();
    const put = await apiCall('PUT', '/settings', adminToken, { ...settings, courseAccess: 'login-approval' });
    expect(put.status).toBe(200);
    try {
      const learner = {
        username: `appr_${suffix}`,
        email: `appr_${suffix}@example.uk`,
        name: `Priya Approval ${suffix}`,
        password: 'secret-pass-1',
      };
      const registered = await apiCall<{ session: { access_token: string } }>('POST', '/register', undefined, {
        ...learner,
        confirmPassword: learner.password,
      });
      expect(registered.status).toBe(201);
      const enrolled = await apiCall<{ status?: string; enrollment?: { status: string } }>(
        'POST', `/courses/${CONFLICT_COURSE}/enroll`, registered.json.session.access_token);
      expect([200, 201]).toContain(enrolled.status);

      await page.goto(`${baseUrl}/instructor?tab=students`);
      await page.getByRole('table', { name: 'Students' }).waitFor();
      const row = page.getByRole('row', { name: new RegExp(learner.name) });
      await row.waitFor();
      await expect(row.getByText('Pending', { exact: true }).count()).resolves.toBe(1);
      await expectAccessible(page);
      await screenshot(page, 'instructor-students-pending');
      await row.getByRole('button', { name: `Approve ${learner.name} for Conflict Resolution and De-escalation` }).click();
      await page.getByText('Enrolment approved').waitFor();
      await row.getByText('In progress', { exact: true }).waitFor();
      await expect(row.getByRole('button', { name: /Approve/ }).count()).resolves.toBe(0);

      // The filter by course narrows the table to that course's learners.
      await page.getByRole('textbox', { name: 'Filter by course' }).or(page.getByRole('combobox', { name: 'Filter by course' })).first().click();
      await page.getByRole('option', { name: 'Conflict Resolution and De-escalation' }).click();
      await expect.poll(async () => {
        const courses = await page.getByRole('table', { name: 'Students' }).locator('tbody tr td:nth-child(2)').allTextContents();
        return courses.length > 0 && courses.every((c) => c === 'Conflict Resolution and De-escalation');
      }).toBe(true);
      await screenshot(page, 'instructor-students-approved');
    } finally {
      const restore = await apiCall('PUT', '/settings', adminToken, { ...settings, courseAccess: 'public-login' });
      expect(restore.status).toBe(200);
    }
  });

  it('shows per-course analytics computed by the server', async () => {
    const analytics = (await apiCall<{ enabled: boolean; items: { courseId: string; title: string; enrollments: number; quizPassRate: number | null; averageProgress: number }[] }>(
      'GET', '/instructor/analytics', instructorToken)).json;
    expect(analytics.enabled).toBe(true);
    await page.goto(`${baseUrl}/instructor`);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    const table = page.getByRole('table', { name: 'Course analytics' });
    await table.waitFor();
    const jesip = analytics.items.find((c) => c.courseId === JESIP)!;
    const row = table.locator(`tr[data-course="${JESIP}"]`);
    await expect.poll(() => row.locator('td').nth(0).textContent(), { timeout: 10_000 }).toBe(String(jesip.enrollments));
    await expect.poll(() => row.locator('td').nth(3).textContent(), { timeout: 10_000 }).toBe(`${jesip.averageProgress}%`);
    await expect.poll(() => row.locator('td').nth(4).textContent(), { timeout: 10_000 }).toMatch(new RegExp(`^${jesip.quizPassRate}%`));
    await page.locator('.recharts-surface').first().waitFor();
    await expectAccessible(page);
    await screenshot(page, 'instructor-analytics');
  });

  it('refuses a learner: toast and home at /instructor, Access Denied at /course-manager', async () => {
    const learnerContext = await browser.newContext();
    const learnerPage = await learnerContext.newPage();
    try {
      await uiLogin(learnerPage, 'student', 'password123', '/instructor');
      await learnerPage.getByText("You don't have instructor permissions.").waitFor();
      await learnerPage.getByText('Access denied', { exact: true }).waitFor();
      await learnerPage.waitForURL(`${baseUrl}/`);
      await screenshot(learnerPage, 'instructor-access-denied');
      await learnerPage.goto(`${baseUrl}/course-manager`);
      await learnerPage.getByRole('heading', { name: 'Access Denied' }).waitFor();
      await learnerPage.getByText('You do not have permission to access the course manager.').waitFor();
      await expectAccessible(learnerPage);
      await screenshot(learnerPage, 'course-manager-access-denied');
      await learnerPage.getByRole('link', { name: 'Return to Home' }).click();
      await learnerPage.waitForURL(`${baseUrl}/`);
    } finally {
      await learnerContext.close();
    }
  });
});
