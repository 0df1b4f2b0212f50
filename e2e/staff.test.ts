// Staff screens in a real browser against the real platform: per-course approval set in the course
// editor and met by a learner on the course page, the instructor's Overview figures (completion rate,
// average progress, pending requests with the link to approve them), badges shown whole at 1366 px,
// and the accessibility statement linked from the footer. axe-core on every screen no other test
// checks in the same state (the Edit Course form, Students and the course manager are authoring's
// and instructor's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AXE_TAGS, baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin, removeCourse } from './api';
import { LAST_TESTED, TESTED_WIDTHS, WCAG_STANDARD } from '../web/src/lib/accessibility-statement';

interface Stats {
  completionRate: number;
  averageProgress: number;
  completedEnrolments: number;
  totalEnrolments: number;
  pendingRequests: number;
}

/** Every badge label on the page whose text does not fit (cut to "ST…"): its text, else []. */
async function truncatedBadges(page: Page): Promise<string[]> {
  return page.locator('.mantine-Badge-label').evaluateAll((labels) =>
    labels
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .filter((el) => el.scrollWidth > el.clientWidth + 0.5 || (el.parentElement?.scrollWidth ?? 0) > (el.parentElement?.clientWidth ?? 0) + 1)
      .map((el) => el.textContent ?? ''));
}

/** Table cells holding a date ("25 November 2026") whose text runs onto more than one line. */
async function wrappedDates(page: Page): Promise<string[]> {
  return page.locator('td').evaluateAll((cells) =>
    cells
      .filter((td) => /^\d{1,2} [A-Z][a-z]+ \d{4}$/.test((td.textContent ?? '').trim()))
      .filter((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        return tops.size > 1;
      })
      .map((td) => td.textContent ?? ''));
}

describe('approval per course, overview figures, badges, accessibility statement', () => {
  let browser: Browser;
  let page: Page;
  let instructorToken: string;
  const suffix = Date.now().toString(36);
  const title = `Swift Water Approval ${suffix}`;
  const learner = { username: `stf_${suffix}`, email: `stf_${suffix}@example.uk`, name: `Sam Staffing ${suffix}`, password: 'secret-pass-1' };
  let courseId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    instructorToken = (await apiLogin('instructor')).token;
    const created = await apiCall('POST', '/courses', instructorToken, {
      title,
      description: 'Approval per course: an instructor approves each enrolment on this course.',
      service: 'UKPS',
      level: 'BEGINNER',
      duration: 1,
      status: 'ACTIVE',
    });
    expect(created.status, created.text).toBe(201);
    courseId = created.json.id;
    const registered = await apiCall('POST', '/register', undefined, { ...learner, confirmPassword: learner.password });
    expect(registered.status, registered.text).toBe(201);
  });
  afterAll(async () => {
    if (courseId) await removeCourse(courseId, instructorToken);
    await browser?.close();
  });

  it('the instructor makes the course "Login and Approval Required" in the course editor', async () => {
    await uiLogin(page, 'instructor', 'password123', `/course/edit/${courseId}`);
    const approval = page.getByRole('textbox', { name: 'Enrolment approval' }).or(page.getByRole('combobox', { name: 'Enrolment approval' })).first();
    await approval.waitFor();
    await expect(approval.inputValue()).resolves.toBe('Use the site setting');
    await approval.click();
    await page.getByRole('option', { name: 'Login and Approval Required' }).click();
    await page.getByRole('button', { name: 'Update Course' }).click();
    await page.getByText('Course updated').first().waitFor();
    const saved = await apiCall('GET', `/courses/${courseId}`, instructorToken);
    expect(saved.json.requiresApproval).toBe(true);
    expect(saved.json.approvalRequired).toBe(true);
  });

  it('the learner is told approval is needed, and enrolling leaves the enrolment pending', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const learnerPage = await context.newPage();
    try {
      await uiLogin(learnerPage, learner.username, learner.password, `/course/${courseId}`);
      await learnerPage.getByRole('heading', { name: title, level: 1 }).waitFor();
      await learnerPage.getByTestId('course-approval').getByText('Login and Approval Required').waitFor();
      await expectAccessible(learnerPage);
      await learnerPage.getByRole('button', { name: 'Enroll Now' }).click();
      await learnerPage.getByText('Enrolment requested').first().waitFor();
      await learnerPage.getByText('Enrolment pending').waitFor();
      await expectAccessible(learnerPage);
      await screenshot(learnerPage, 'staff-course-pending');
    } finally {
      await context.close();
    }
  });

  it('the Overview shows completion rate, average progress and pending requests, and links to approve them', async () => {
    const stats = (await apiCall<Stats>('GET', '/instructor/stats', instructorToken)).json;
    expect(stats.pendingRequests).toBeGreaterThanOrEqual(1);
    await page.goto(`${baseUrl}/instructor`);
    const card = (label: string) => page.getByRole('region', { name: label }).locator(`[data-stat="${label}"]`);
    await card('Completion Rate').waitFor();
    expect(await card('Completion Rate').textContent()).toBe(`${stats.completionRate}%`);
    expect(await card('Average Progress').textContent()).toBe(`${stats.averageProgress}%`);
    expect(await card('Pending Requests').textContent()).toBe(String(stats.pendingRequests));
    await page.getByText(`${stats.completedEnrolments} of ${stats.totalEnrolments} enrolments completed`).waitFor();
    await expect(page.getByText('Average Completion').count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'staff-overview');

    await page.getByRole('link', { name: /Review and approve/ }).click();
    await page.getByRole('table', { name: 'Students' }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(learner.name) });
    await row.waitFor();
    await row.getByRole('button', { name: `Approve ${learner.name} for ${title}` }).click();
    await page.getByText('Enrolment approved').first().waitFor();
    await expectAccessible(page);
  });

  it('shows every badge whole and every date on one line at 1366 px: Students and Courses (course manager)', async () => {
    const pages: [string, string][] = [
      [`${baseUrl}/instructor?tab=students`, 'Students'],
      [`${baseUrl}/course-manager`, 'Courses'],
    ];
    for (const [url, table] of pages) {
      await page.goto(url);
      await page.getByRole('table', { name: table }).waitFor();
      await page.locator('.mantine-Badge-label').first().waitFor();
      expect(await truncatedBadges(page), url).toEqual([]);
      expect(await wrappedDates(page), url).toEqual([]);
    }
  }, 240_000);

  it('shows every badge whole and every date on one line at 1366 px: the admin Users and Courses tables', async () => {
    const adminContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const adminPage = await adminContext.newPage();
    try {
      await uiLogin(adminPage, 'admin', 'password123', '/admin');
      for (const tab of ['Users', 'Courses']) {
        await adminPage.getByRole('tab', { name: tab, exact: true }).click();
        await adminPage.getByRole('table', { name: tab }).waitFor();
        await adminPage.getByRole('table', { name: tab }).locator('.mantine-Badge-label').first().waitFor();
        expect(await truncatedBadges(adminPage), tab).toEqual([]);
        expect(await wrappedDates(adminPage), tab).toEqual([]);
        await expectAccessible(adminPage);
        await screenshot(adminPage, `staff-admin-${tab.toLowerCase()}-1366`);
      }
    } finally {
      await adminContext.close();
    }
  }, 240_000);

  it('links the accessibility statement from the sign-in page footer, and states what the tests check', async () => {
    // The statement's standard is the one expectAccessible checks with axe-core.
    expect(AXE_TAGS).toContain(`wcag${WCAG_STANDARD.version.replace('.', '')}${WCAG_STANDARD.level.toLowerCase()}`);
    expect(WCAG_STANDARD).toEqual({ version: '2.2', level: 'AA' });
    expect(TESTED_WIDTHS).toEqual([1366, 390]);
    const date = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' })
      .format(new Date(`${LAST_TESTED}T12:00:00Z`));
    for (const width of TESTED_WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const visitor = await context.newPage();
      try {
        await visitor.goto(`${baseUrl}/auth`);
        // The page footer (inside main, so not a contentinfo landmark of its own).
        await visitor.locator('footer').getByRole('link', { name: 'Accessibility statement' }).click();
        await visitor.waitForURL(`${baseUrl}/accessibility`);
        await visitor.getByRole('heading', { level: 1, name: /^Accessibility statement for / }).waitFor();
        const status = await visitor.getByTestId('compliance-status').textContent();
        expect(status).toContain(`Web Content Accessibility Guidelines version ${WCAG_STANDARD.version} ${WCAG_STANDARD.level} standard`);
        expect(await visitor.getByTestId('last-tested').textContent()).toContain(`last tested on ${date}`);
        for (const heading of ['How accessible this website is', 'Feedback and contact information', 'Enforcement procedure', 'How we tested this website']) {
          await visitor.getByRole('heading', { name: heading }).waitFor();
        }
        const text = await visitor.locator('main').textContent();
        expect(text).toContain('Equality and Human Rights Commission (EHRC)');
        expect(text).toContain('Equality Commission for Northern Ireland (ECNI)');
        expect(text).toContain('axe-core');
        expect(text).toContain('contrast check');
        expect(text).toContain('1366 pixels and 390 pixels');
        await expectAccessible(visitor);
        await screenshot(visitor, `staff-accessibility-${width}`);
      } finally {
        await context.close();
      }
    }
  }, 240_000);
});
