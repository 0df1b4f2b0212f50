// Mandatory training and compliance in a real browser against the real platform: an admin makes a
// course required for UKAS in the Required training tab; the ambulance learners are enrolled; with
// certificates written straight into the database (nothing in the product changes dates), one learner
// sees the header notice and 'Overdue' in the dashboard list, and the admin's compliance view counts
// them, drills down to them and exports a CSV that reads correctly. axe on every screen.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin, removeCourse } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';

describe('mandatory training and compliance end to end', () => {
  let browser: Browser;
  let sql: postgres.Sql;
  let adminToken: string;
  const suffix = Date.now().toString(36);
  const courseTitle = `Manual Handling Refresher ${suffix}`;
  let courseId = '';
  const late = { username: `late_${suffix}`, name: `Lara Late ${suffix}`, password: `pw-${suffix}-Secret!9`, id: '' };
  const keen = { username: `keen_${suffix}`, name: `Kit Keen ${suffix}`, password: `pw-${suffix}-Secret!8`, id: '' };

  async function newPage(username: string, password: string, path = '/'): Promise<Page> {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await uiLogin(page, username, password, path);
    return page;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    adminToken = (await apiLogin('admin')).token;
    const course = await apiCall('POST', '/courses', adminToken, {
      title: courseTitle,
      description: 'Safe moving and handling, refreshed every year.',
      service: 'UKAS',
      status: 'ACTIVE',
      certificateValidMonths: 12,
    });
    expect(course.status).toBe(201);
    courseId = course.json.id;
    for (const person of [late, keen]) {
      const answer = await apiCall('POST', '/register', undefined, {
        username: person.username,
        email: `${person.username}@example.test`,
        name: person.name,
        password: person.password,
        confirmPassword: person.password,
      });
      expect(answer.status).toBe(201);
      person.id = answer.json.user.id;
    }
    await sql`update public.profiles set services = '{UKAS}' where id in (${late.id}, ${keen.id})`;
  });

  afterAll(async () => {
    if (courseId) {
      await sql`delete from public.required_training where course_id = ${courseId}`;
      await sql`delete from public.certificates where course_id = ${courseId}`;
      await removeCourse(courseId, adminToken);
    }
    await sql?.end();
    await browser?.close();
  });

  it('an admin makes the course required for UKAS in the Required training tab', async () => {
    const page = await newPage('admin', 'password123', '/admin?tab=required');
    await page.getByRole('heading', { name: 'Add required training' }).waitFor();
    await page.getByRole('combobox', { name: 'Course', exact: true }).fill(courseTitle);
    await page.getByRole('option', { name: courseTitle }).click();
    await page.getByRole('combobox', { name: 'Service', exact: true }).click();
    await page.getByRole('option', { name: /Ambulance/ }).click();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByText('Required training added').waitFor();
    const row = page.locator('tr', { hasText: courseTitle });
    await row.getByText(/in United Kingdom Ambulance Service|in .*Ambulance/).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'required-training-admin');

    // Both learners were enrolled by the rule.
    await expect
      .poll(async () => (await sql`select count(*)::int as n from public.enrollments where course_id = ${courseId} and user_id in (${late.id}, ${keen.id}) and status = 'ACTIVE'`)[0].n)
      .toBe(2);
    await page.context().close();
  });

  it('a learner whose certificate expired sees the header notice and Overdue in the list', async () => {
    // Written straight into the database: Lara's certificate expired 20 days ago; Kit's is valid.
    await sql`insert into public.certificates (user_id, course_id, learner_name, course_title, service, issued_at, expires_at)
              values (${late.id}, ${courseId}, ${late.name}, ${courseTitle}, 'UKAS', now() - interval '385 days', now() - interval '20 days'),
                     (${keen.id}, ${courseId}, ${keen.name}, ${courseTitle}, 'UKAS', now() - interval '10 days', now() + interval '355 days')`;
    const page = await newPage(late.username, late.password);
    const notice = page.getByTestId('required-training-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('1 required training item overdue or due soon');
    await notice.click();
    await page.waitForURL(/\/dashboard#required-training$/);
    const section = page.getByRole('region', { name: 'Required training' });
    const row = section.locator('tr', { hasText: courseTitle });
    await row.getByText('Overdue').waitFor();
    await row.getByText(/^Was due \d{1,2} [A-Z][a-z]+ \d{4}$/).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'required-training-learner');
    await page.context().close();

    // Kit holds a valid certificate: done, valid until a date about a year ahead, and no notice.
    const keenPage = await newPage(keen.username, keen.password, '/dashboard');
    const keenRow = keenPage.getByRole('region', { name: 'Required training' }).locator('tr', { hasText: courseTitle });
    await keenRow.getByText('Done').waitFor();
    await keenRow.getByText(/^Valid until \d{1,2} [A-Z][a-z]+ \d{4}$/).waitFor();
    expect(await keenPage.getByTestId('required-training-notice').count()).toBe(0);
    await keenPage.context().close();
  });

  it('the compliance view counts the overdue learner, drills down to them and exports a CSV', async () => {
    const page = await newPage('admin', 'password123', '/compliance');
    await page.getByRole('heading', { name: 'Compliance', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Course', exact: true }).fill(courseTitle);
    await page.getByRole('option', { name: courseTitle }).click();
    const row = page.locator(`tr[data-service="UKAS"][data-course="${courseId}"]`);
    await row.waitFor();
    const expected = await apiCall('GET', `/compliance?courseId=${courseId}&service=UKAS`, adminToken);
    const counts = expected.json.items[0];
    expect(counts.overdue).toBeGreaterThanOrEqual(1);
    expect(counts.compliant).toBeGreaterThanOrEqual(1);
    await expect.poll(() => row.locator('[data-count="overdue"]').textContent()).toBe(String(counts.overdue));
    expect(await row.locator('[data-count="done"]').textContent()).toBe(String(counts.compliant));

    await row.locator('[data-count="overdue"]').getByRole('button').click();
    const people = page.getByRole('region', { name: `People: ${courseTitle}` });
    await people.locator(`tr[data-user="${late.id}"]`).getByText('Overdue').waitFor();
    expect(await people.locator(`tr[data-user="${keen.id}"]`).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'compliance-view');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^compliance-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = fs.readFileSync((await download.path())!, 'utf8');
    expect(text.startsWith('\uFEFFName,Username,Email,Role,Services,Course,Status,Due date,Valid until,Progress (%),Recognised from\r\n')).toBe(true);
    const lines = text.trim().split('\r\n');
    const lara = lines.find((l) => l.includes(late.username))!;
    expect(lara).toContain(`${late.name},${late.username},${late.username}@example.test,STUDENT,UKAS,${courseTitle},Overdue,`);
    expect(lara).toMatch(/,Overdue,\d{4}-\d{2}-\d{2},,0,$/);
    expect(lines.some((l) => l.includes(keen.username))).toBe(false); // the drill-down showed only the overdue
    await page.context().close();
  });

  it('an instructor manages rules only in their services and sees compliance only for them', async () => {
    const page = await newPage('instructor', 'password123', '/instructor?tab=required');
    await page.getByRole('heading', { name: 'Add required training' }).waitFor();
    // The seed instructor is in UKPS and MISC: those are the only services offered.
    await page.getByRole('combobox', { name: 'Service', exact: true }).click();
    await expect.poll(() => page.getByRole('option').allInnerTexts()).toEqual(['United Kingdom Police Service', 'Miscellaneous Service']);
    await page.keyboard.press('Escape');
    await expectAccessible(page);
    await screenshot(page, 'required-training-instructor');

    await page.goto(`${baseUrl}/compliance`);
    await page.getByRole('heading', { name: 'Compliance', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Compliance by service and course' }).or(page.getByText('Nothing to report')).waitFor();
    // The ambulance learners are not theirs: no UKAS row for the course.
    expect(await page.locator(`tr[data-service="UKAS"][data-course="${courseId}"]`).count()).toBe(0);
    await expectAccessible(page);
    await page.context().close();
  });
});
