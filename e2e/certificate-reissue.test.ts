// After an admin corrects a learner's name, the admin reissues the certificate from the
// Certificates tab (a confirm dialog); it keeps its verification code and now names the learner
// as corrected, on the admin's list and on the public verification page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin, removeCourse } from './api';

describe('certificate reissue', () => {
  let browser: Browser;
  let adminToken: string;
  let courseId: string;
  let code: string;
  const s = Date.now().toString(36);
  const wrongName = `Jonh Smiht ${s}`;
  const rightName = `John Smith ${s}`;

  beforeAll(async () => {
    adminToken = (await apiLogin('admin')).token;
    const course = await apiCall('POST', '/courses', adminToken, {
      title: `Hazardous materials ${s}`, description: 'Recognising hazardous materials.', service: 'UKFRS', status: 'ACTIVE',
    });
    expect(course.status, course.text).toBe(201);
    courseId = course.json.id;
    const password = `pw-${s}-Reissue!`;
    const registered = await apiCall('POST', '/register', undefined, {
      username: `reissue_${s}`, email: `reissue_${s}@example.test`, name: wrongName, password, confirmPassword: password,
    });
    expect(registered.status, registered.text).toBe(201);
    const token = registered.json.session.access_token as string;
    const enrolment = await apiCall('POST', `/courses/${courseId}/enroll`, token);
    for (let i = 0; i < 5; i++) expect((await apiCall('PUT', `/enrollments/${enrolment.json.id}`, token)).status).toBe(200);
    code = (await apiCall('GET', '/certificates', token)).json.items[0].verificationCode;
    // The admin corrects the name; the certificate still carries the old one until it is reissued.
    const renamed = await apiCall('PUT', `/users/${registered.json.user.id}`, adminToken, { name: rightName });
    expect(renamed.status, renamed.text).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (courseId) await removeCourse(courseId, adminToken);
  });

  it('reissues from the Certificates tab after a confirm dialog; same code, corrected name', async () => {
    const admin = await (await browser.newContext({ timezoneId: 'Europe/London', locale: 'en-GB' })).newPage();
    await uiLogin(admin, 'admin', 'password123', '/admin?tab=certificates');
    await admin.getByLabel('Search certificates').fill(code);
    const row = admin.locator(`tr[data-code="${code}"]`);
    await row.getByText(wrongName).waitFor();
    await row.getByRole('button', { name: `Reissue ${code}` }).click();
    const dialog = admin.getByRole('dialog', { name: 'Reissue certificate' });
    await dialog.getByText('keeps its verification code').waitFor();
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: 'Reissue certificate' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByText(rightName).waitFor();
    await row.getByText(/^Reissued \d{1,2} [A-Z][a-z]+ \d{4}$/).waitFor();
    await admin.getByText('Certificate reissued').waitFor();
    await expectAccessible(admin);
    await screenshot(admin, 'admin-certificate-reissued');

    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`${baseUrl}/verify/${code}`);
    await visitor.getByText(rightName).first().waitFor();
    expect(await visitor.getByText(wrongName).count()).toBe(0);
  });
});
