// Certificate validity in a real browser: a course valid for 12 months, a new learner who
// completed it sees 'Valid until' a year ahead; with the certificate's dates written straight into
// the database (nothing in the product changes them) it shows 'Expiring soon', then 'Expired', the
// public verification page says so, and the learner starts recertification at 0 %; an admin finds the
// certificate in the Certificates tab and revokes it with a reason, and verification says revoked.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin, removeCourse } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const ukDate = (iso: string | Date) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' }).format(new Date(iso));

describe('certificate validity end to end', () => {
  let browser: Browser;
  let learner: Page;
  let sql: postgres.Sql;
  let adminToken: string;
  let courseId: string;
  let learnerId: string;
  let code: string;
  const suffix = Date.now().toString(36);
  const courseTitle = `Safeguarding refresher ${suffix}`;
  const learnerName = `Casey Validity ${suffix}`;
  const username = `casey_${suffix}`;
  const password = `pw-${suffix}-Validity!`;

  /** Moves the learner's certificate so that it expires `interval` from now (issued a year before). */
  async function expireIn(interval: string) {
    const [row] = await sql<{ expiresAt: Date }[]>`
      update public.certificates set issued_at = now() + ${interval}::interval - interval '1 year', expires_at = now() + ${interval}::interval
      where user_id = ${learnerId}::uuid and course_id = ${courseId}::uuid
      returning expires_at as "expiresAt"`;
    return row.expiresAt;
  }

  beforeAll(async () => {
    sql = postgres(dbUrl, { max: 1, onnotice: () => {}, prepare: false });
    adminToken = (await apiLogin('admin')).token;
    const course = await apiCall('POST', '/courses', adminToken, {
      title: courseTitle,
      description: 'Recognising and reporting safeguarding concerns.',
      service: 'UKAS',
      status: 'ACTIVE',
      certificateValidMonths: 12,
    });
    expect(course.status).toBe(201);
    courseId = course.json.id;
    const registered = await apiCall('POST', '/register', undefined, {
      username, email: `${username}@example.test`, name: learnerName, password, confirmPassword: password,
    });
    expect(registered.status).toBe(201);
    learnerId = registered.json.user.id;
    const token = registered.json.session.access_token as string;
    const enrolment = await apiCall('POST', `/courses/${courseId}/enroll`, token);
    expect(enrolment.status).toBe(201);
    // A course without modules steps 20 % per press.
    for (let i = 0; i < 5; i++) expect((await apiCall('PUT', `/enrollments/${enrolment.json.id}`, token)).status).toBe(200);
    const certificates = await apiCall('GET', '/certificates', token);
    code = certificates.json.items[0].verificationCode;

    browser = await launchBrowser();
    const context = await browser.newContext({ timezoneId: 'Europe/London', locale: 'en-GB' });
    learner = await context.newPage();
    await uiLogin(learner, username, password);
  });
  afterAll(async () => {
    await browser?.close();
    if (courseId) await removeCourse(courseId, adminToken);
    await sql?.end();
  });

  it("the course's editor shows its validity; the learner sees the certificate valid until a year ahead", async () => {
    const admin = await (await browser.newContext()).newPage();
    await uiLogin(admin, 'admin', 'password123', `/course/edit/${courseId}`);
    await expect.poll(() => admin.getByLabel('Certificate valid for (months)').inputValue()).toBe('12');
    await admin.close();

    const [{ expiresAt }] = await sql<{ expiresAt: Date }[]>`
      select expires_at as "expiresAt" from public.certificates where user_id = ${learnerId}::uuid`;
    const days = (expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(360);
    await learner.goto(`${baseUrl}/certificates`);
    const card = learner.getByRole('article', { name: `Certificate: ${courseTitle}` });
    await card.getByText(`Valid until ${ukDate(expiresAt)}`).waitFor();
    await card.getByText('Valid', { exact: true }).waitFor();
    expect(await card.getByRole('button', { name: /Start recertification/ }).count()).toBe(0);
    await expectAccessible(learner);
    await screenshot(learner, 'certificate-valid');
  });

  it('expiring within 60 days: highlighted on My Courses, still with its date; verification says valid', async () => {
    const expiresAt = await expireIn('30 days');
    await learner.goto(`${baseUrl}/my-courses`);
    await learner.getByRole('tab', { name: /Completed/ }).click();
    const card = learner.getByRole('article', { name: courseTitle });
    await card.getByText('Expiring soon').waitFor();
    await card.getByText(`Valid until ${ukDate(expiresAt)}`).waitFor();
    await card.getByRole('button', { name: `Start recertification: ${courseTitle}` }).waitFor();
    await expectAccessible(learner);
    await screenshot(learner, 'certificate-expiring-my-courses');

    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`${baseUrl}/verify/${code}`);
    await visitor.getByRole('heading', { name: 'Certificate verified' }).waitFor();
    await visitor.getByText(`is valid until ${ukDate(expiresAt)}`).waitFor();
    await visitor.close();
  });

  it('expired: the dashboard and verification say since when; the learner starts recertification at 0 %', async () => {
    const expiresAt = await expireIn('-2 days');
    await learner.goto(`${baseUrl}/dashboard`);
    await learner.getByRole('tab', { name: 'Certificates' }).click();
    const card = learner.getByRole('article', { name: `Certificate: ${courseTitle}` });
    await card.getByText(`Expired on ${ukDate(expiresAt)}`).waitFor();
    await expectAccessible(learner);
    await screenshot(learner, 'certificate-expired-dashboard');

    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`${baseUrl}/verify/${code}`);
    await visitor.getByRole('heading', { name: 'Certificate expired' }).waitFor();
    await visitor.getByText(`expired on ${ukDate(expiresAt)}`).waitFor();
    expect(await visitor.getByText('Certificate verified').count()).toBe(0);
    await expectAccessible(visitor);
    await screenshot(visitor, 'verify-expired');
    await visitor.close();

    await card.getByRole('button', { name: `Start recertification: ${courseTitle}` }).click();
    await learner.waitForURL(`${baseUrl}/course/${courseId}`);
    await learner.goto(`${baseUrl}/my-courses`);
    const renewing = learner.getByRole('article', { name: courseTitle });
    await renewing.getByText('Recertifying').waitFor();
    await renewing.getByText('0%').waitFor();
    await renewing.getByText(`Expired on ${ukDate(expiresAt)}`).waitFor();
    await expectAccessible(learner);
    await screenshot(learner, 'certificate-recertifying');
  });

  it('an admin finds the certificate by learner name and revokes it with a reason; verification says revoked', async () => {
    const admin = await (await browser.newContext({ timezoneId: 'Europe/London', locale: 'en-GB' })).newPage();
    await uiLogin(admin, 'admin', 'password123', '/admin?tab=certificates');
    await admin.getByLabel('Search certificates').fill(learnerName);
    const row = admin.locator(`tr[data-code="${code}"]`);
    await row.waitFor();
    await row.getByRole('button', { name: `Revoke ${code}` }).click();
    const dialog = admin.getByRole('dialog', { name: 'Revoke certificate' });
    await dialog.getByRole('button', { name: 'Revoke certificate' }).click();
    await dialog.getByText('Give a reason of 1 to 500 characters').waitFor();
    await dialog.getByLabel('Reason').fill('Assessment found to be invalid');
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: 'Revoke certificate' }).click();
    await row.getByText('Revoked', { exact: true }).waitFor();
    await row.getByText('Assessment found to be invalid', { exact: false }).waitFor();
    await screenshot(admin, 'admin-certificate-revoked');
    await admin.close();

    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`${baseUrl}/verify/${code}`);
    await visitor.getByRole('heading', { name: 'Certificate revoked' }).waitFor();
    await visitor.getByText(`revoked on ${ukDate(new Date())}`).waitFor();
    expect(await visitor.getByText('Assessment found to be invalid').count()).toBe(0);
    await expectAccessible(visitor);
    await screenshot(visitor, 'verify-revoked');
    await visitor.close();
  });
});
