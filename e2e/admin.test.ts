// The Admin Dashboard in a real browser against the real platform: find and promote a learner,
// bulk-set a role's services, course access that takes effect, settings reset and save, the largest
// SCORM package (a field message on a bad value, then saved), add a user
// who signs in with the temporary password, delete a user, a course deleted and one with learner
// records archived (the dialog says which) and restored, and the activity list. Every global
// setting changed here is restored (other suites share the platform).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall as call, apiLogin, removeCourse, uiLogin } from './api';

const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;

type Settings = Record<string, unknown>;
const settingsBody = (s: Settings) => ({
  siteName: s.siteName, adminEmail: s.adminEmail, courseAccess: s.courseAccess, certificateTemplate: s.certificateTemplate,
  footerText: s.footerText, enableAnalytics: s.enableAnalytics, autoEnrollment: s.autoEnrollment,
  scormMaxUploadMb: s.scormMaxUploadMb,
});

describe('admin dashboard end to end', () => {
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  let original: Settings;
  const courseIds: string[] = [];
  const learner = { username: `adm_l_${suffix}`, email: `learner.${suffix}@example.uk`, name: `Lee Learner ${suffix}`, password: 'learner-pass-1' };
  const added = { username: `adm_n_${suffix}`, email: `new.${suffix}@example.uk`, name: `Nia New ${suffix}` };

  async function openTab(name: string) {
    await page.getByRole('tab', { name }).click();
    await page.getByRole('tab', { name, selected: true }).waitFor();
  }

  async function choose(label: string, option: string) {
    await page.getByRole('dialog').getByLabel(label, { exact: true }).filter({ visible: true }).first().click();
    await page.getByRole('option', { name: option }).click();
  }

  beforeAll(async () => {
    adminToken = (await apiLogin('admin', 'password123')).token;
    original = (await call('GET', '/settings', adminToken)).json;
    const registered = await call('POST', '/register', undefined, { ...learner, confirmPassword: learner.password });
    expect(registered.status, registered.text).toBe(201);
    // A second learner who stays a STUDENT: with several users in the role, a bulk change is
    // recorded as one summary event (users.permissions_changed), whatever other suites did before.
    const other = { username: `adm_s_${suffix}`, email: `student.${suffix}@example.uk`, name: `Sol Student ${suffix}`, password: 'learner-pass-2' };
    const second = await call('POST', '/register', undefined, { ...other, confirmPassword: other.password });
    expect(second.status, second.text).toBe(201);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    // Whatever happened above, the shared platform gets its settings and the STUDENT preset back.
    await call('PUT', '/settings', adminToken, settingsBody(original));
    await call('PUT', '/roles/STUDENT/services', adminToken, { services: ['MISC'] });
    for (const id of courseIds) await removeCourse(id, adminToken);
    await browser?.close();
  });

  it('opens the admin dashboard on the users tab', async () => {
    await uiLogin(page, 'admin', 'password123', '/admin');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('table', { name: 'Users' }).waitFor();
    await screenshot(page, 'admin-users');
  });

  it('finds the new learner by part of their email and makes them an INSTRUCTOR in UKAS', async () => {
    await page.getByLabel('Search users').fill(`ARNER.${suffix}@EXAMP`);
    const row = page.locator(`tr[data-user="${learner.username}"]`);
    // The search is debounced and runs on the server: wait for the list to narrow to one row.
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Users"] tbody tr').length === 1);
    await row.waitFor();
    await row.getByRole('button', { name: `Edit ${learner.name}` }).click();
    await page.getByRole('dialog', { name: 'Edit User' }).waitFor();
    await choose('Role', 'Instructor');
    await page.getByRole('dialog').getByRole('checkbox', { name: 'UKAS', exact: true }).check();
    await expectAccessible(page);
    await screenshot(page, 'admin-edit-user');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('User updated').first().waitFor();
    await row.getByText('Instructor').waitFor();
    await row.locator('[data-service="UKAS"]').waitFor();

    // The promoted user may now author a UKAS course through the API (RLS: their services).
    const token = (await apiLogin(learner.username, learner.password)).token;
    const course = await call('POST', '/courses', token, {
      title: `Ambulance triage ${suffix}`, description: 'Triage at a major incident for ambulance crews.', service: 'UKAS', duration: 2, status: 'DRAFT',
    });
    expect(course.status, course.text).toBe(201);
    const fire = await call('POST', '/courses', token, {
      title: `Fire course ${suffix}`, description: 'Not in this instructor service at all.', service: 'UKFRS', duration: 2, status: 'DRAFT',
    });
    expect(fire.status).toBe(403);
  });

  it('deletes a course nobody started and archives one with learner records, saying which in the dialog, at desktop and phone widths', async () => {
    const make = async (title: string) => {
      const created = await call('POST', '/courses', adminToken, {
        title, description: 'A course of the admin archive test.', service: 'MISC', level: 'BEGINNER', duration: 1, status: 'ACTIVE',
      });
      expect(created.status, created.text).toBe(201);
      return created.json.id as string;
    };
    const started = `Archive me ${suffix}`;
    const unstarted = `Delete me ${suffix}`;
    const startedId = await make(started);
    await make(unstarted);
    courseIds.push(startedId);
    const learnerToken = (await apiLogin(learner.username, learner.password)).token;
    expect((await call('POST', `/courses/${startedId}/enroll`, learnerToken)).status).toBe(201);

    await page.setViewportSize({ width: 1366, height: 900 });
    await openTab('Courses');
    await page.getByLabel('Search courses').fill(suffix);
    const row = (title: string) => page.getByRole('row', { name: new RegExp(title) });
    await row(started).waitFor();
    await row(unstarted).waitFor();

    // A course with a learner: the dialog says it will be archived, and offers Archive, not Delete.
    await page.getByRole('button', { name: `Delete ${started}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Course' });
    await dialog.getByText('has learner records, so it will be archived, not deleted').waitFor();
    await expect(dialog.getByRole('button', { name: 'Delete', exact: true }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'admin-course-archive-dialog-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await screenshot(page, 'admin-course-archive-dialog-390');
    await page.setViewportSize({ width: 1366, height: 900 });
    await dialog.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByText('Course archived').first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    // Marked Archived in the admin's list, with Restore; out of the catalogue.
    await row(started).getByText('Archived', { exact: true }).waitFor();
    await row(started).getByRole('button', { name: `Restore ${started}` }).waitFor();
    const catalogue = await call('GET', `/courses?search=${encodeURIComponent(started)}`, adminToken);
    expect(catalogue.json.items.map((c: { id: string }) => c.id)).not.toContain(startedId);
    await expectAccessible(page);
    await screenshot(page, 'admin-courses-archived-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'admin-courses-archived-390');
    await page.setViewportSize({ width: 1366, height: 900 });

    // Archived already: the dialog says it cannot be deleted, and only closes.
    await page.getByRole('button', { name: `Delete ${started}` }).click();
    await dialog.getByText('is archived and has learner records, so it cannot be deleted').waitFor();
    await expect(dialog.getByRole('button', { name: 'Archive', exact: true }).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // A course nobody started: deleted, as the dialog says.
    await page.getByRole('button', { name: `Delete ${unstarted}` }).click();
    await dialog.getByText('so it will be deleted').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'admin-course-delete-dialog-1366');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Course deleted').first().waitFor();
    await expect.poll(() => row(unstarted).count()).toBe(0);

    // The course manager lists it under Archived, marked so, and restores it: a draft again.
    await page.goto(`${baseUrl}/course-manager`);
    await page.getByRole('heading', { name: 'Course Manager', level: 1 }).waitFor();
    await row(started).getByText('Archived', { exact: true }).waitFor(); // the All tab
    await page.getByRole('tab', { name: 'Archived' }).click();
    await row(started).getByText('Archived', { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'course-manager-archived-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await screenshot(page, 'course-manager-archived-390');
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('button', { name: `Restore ${started}` }).click();
    await page.getByText('Course restored').first().waitFor();
    await expect.poll(() => row(started).count()).toBe(0);
    await page.getByRole('tab', { name: 'Drafts' }).click();
    await row(started).getByText('Draft', { exact: true }).waitFor();
    await page.goto(`${baseUrl}/admin`);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
  });

  it('bulk-sets the STUDENT services and the matrix shows it, then restores the preset', async () => {
    await openTab('Permissions');
    await page.getByRole('table', { name: 'Role service permissions' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Edit Student permissions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Student Permissions' });
    await dialog.waitFor();
    // It says what saving does, with the number of students, and the matrix has a legend.
    const students = (await call('GET', '/roles', adminToken)).json.find((r: { role: string }) => r.role === 'STUDENT').users;
    await expect(dialog.getByTestId('replacement-warning').textContent()).resolves.toBe(`This replaces the services of all ${students} students.`);
    await expect(page.getByRole('list', { name: 'Legend' }).getByRole('listitem').count()).resolves.toBe(3);
    // Preloaded with the preset: MISC only.
    await expect(dialog.getByRole('checkbox', { name: /^MISC/ }).isChecked()).resolves.toBe(true);
    await expect(dialog.getByRole('checkbox', { name: /^UKAS/ }).isChecked()).resolves.toBe(false);
    await dialog.getByRole('checkbox', { name: /^UKHW/ }).check();
    await screenshot(page, 'admin-permissions-dialog');
    await dialog.getByRole('button', { name: 'Save Permissions' }).click();
    await page.getByText('Permissions updated').first().waitFor();
    await page.locator('[data-cell="STUDENT-UKHW"][data-holding="all"]').waitFor();
    await page.locator('[data-cell="STUDENT-UKPS"][data-holding="none"]').waitFor();
    await screenshot(page, 'admin-permissions');

    await page.getByRole('button', { name: 'Edit Student permissions' }).click();
    await dialog.getByRole('button', { name: 'Save Permissions' }).click();
    await page.locator('[data-cell="STUDENT-UKHW"][data-holding="none"]').waitFor();
    await page.locator('[data-cell="STUDENT-MISC"][data-holding="all"]').waitFor();
  });

  it('switches course access to login-browse: a signed-out visitor sees no course; then back', async () => {
    await openTab('Settings');
    await page.getByRole('form', { name: 'System settings' }).waitFor();
    await screenshot(page, 'admin-settings');
    const visitor = await (await browser.newContext()).newPage();
    try {
      await page.getByLabel('Course access', { exact: true }).filter({ visible: true }).first().click();
      await page.getByRole('option', { name: 'Login Required to Browse' }).click();
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await page.getByText('System settings have been updated successfully.').first().waitFor();
      const courses = await call('GET', '/courses');
      expect(courses.json.items).toEqual([]);
      await visitor.goto(`${baseUrl}/`);
      await visitor.getByRole('heading', { name: 'Available Courses' }).waitFor();
      await visitor.waitForLoadState('networkidle');
      await expect(visitor.locator('a[href^="/course/"]').count()).resolves.toBe(0);
      await screenshot(visitor, 'admin-login-browse-visitor');
    } finally {
      await call('PUT', '/settings', adminToken, settingsBody(original));
      await visitor.close();
    }
    const courses = await call('GET', '/courses');
    expect(courses.json.items.length).toBeGreaterThan(0);
  });

  it('resets to defaults without saving', async () => {
    await page.reload();
    await page.getByRole('form', { name: 'System settings' }).waitFor();
    await page.getByLabel('Site name').fill('Something Else');
    await page.getByRole('button', { name: 'Reset to Defaults' }).click();
    await page.getByText('Settings have been reset to default values. Click Save Settings to apply.').first().waitFor();
    await expect(page.getByLabel('Site name').inputValue()).resolves.toBe('Emergency Services Learning v3');
    // Nothing saved: the server still holds the original values.
    const now = (await call('GET', '/settings', adminToken)).json;
    expect(settingsBody(now)).toEqual(settingsBody(original));
  });

  it('saves a new site name that appears in the header and the tab title, then restores it', async () => {
    const name = `Blue Light Academy ${suffix}`;
    try {
      await page.reload();
      await page.getByRole('form', { name: 'System settings' }).waitFor();
      await page.getByLabel('Site name').fill(name);
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await page.getByText('Settings updated').first().waitFor();
      await page.getByRole('banner').getByText(name).waitFor();
      await page.waitForFunction((expected) => document.title === `Admin Dashboard · ${expected}`, name);
      await screenshot(page, 'admin-site-name');
    } finally {
      await call('PUT', '/settings', adminToken, settingsBody(original));
    }
  });

  it('sets the largest SCORM package: a field message on a bad value, then saved, accessible at desktop and phone widths', async () => {
    const viewport = page.viewportSize();
    try {
      await page.reload();
      await page.getByRole('form', { name: 'System settings' }).waitFor();
      await page.getByRole('heading', { name: 'SCORM packages' }).waitFor();
      const limit = page.getByRole('textbox', { name: 'Largest SCORM package (MB)' });
      await expect(limit.inputValue()).resolves.toBe(String(original.scormMaxUploadMb));
      await page.getByText('Authors cannot upload a package (.zip) larger than this. 1 to 1,024 MB; the default is 200 MB.').waitFor();
      await limit.fill('2000');
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await page.getByText('Enter a whole number of megabytes between 1 and 1,024').waitFor();
      await expect(limit.getAttribute('aria-invalid')).resolves.toBe('true');
      // The message is the field's accessible description, so a screen reader hears it on the field.
      const described = await limit.evaluate((input) => (input.getAttribute('aria-describedby') ?? '').split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '').join(' '));
      expect(described).toContain('Enter a whole number of megabytes between 1 and 1,024');
      await expect((await call('GET', '/settings', adminToken)).json.scormMaxUploadMb).toBe(original.scormMaxUploadMb);
      await expectAccessible(page);
      await screenshot(page, 'admin-settings-scorm-limit-error');

      await limit.fill('150');
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await page.getByText('System settings have been updated successfully.').first().waitFor();
      await expect.poll(async () => (await call('GET', '/settings')).json.scormMaxUploadMb).toBe(150);
      await page.reload();
      await expect(page.getByRole('textbox', { name: 'Largest SCORM package (MB)' }).inputValue()).resolves.toBe('150');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('textbox', { name: 'Largest SCORM package (MB)' }).scrollIntoViewIfNeeded();
      await expectAccessible(page);
      await screenshot(page, 'admin-settings-scorm-limit-phone');
    } finally {
      if (viewport) await page.setViewportSize(viewport);
      await call('PUT', '/settings', adminToken, settingsBody(original));
    }
  });

  it('adds a user who signs in with the temporary password, then deletes them', async () => {
    await openTab('Users');
    await page.getByRole('button', { name: 'Add New User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New User' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: /^Username/ }).fill(added.username);
    await dialog.getByRole('textbox', { name: /^Email/ }).fill(added.email);
    await dialog.getByRole('textbox', { name: /^Name/ }).fill(added.name);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create User' }).click();
    const password = await page.getByTestId('temporary-password').textContent();
    expect(password?.length).toBeGreaterThanOrEqual(20);
    await screenshot(page, 'admin-temporary-password');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await apiLogin(added.username, password!);

    await page.getByLabel('Search users').fill(added.username);
    const row = page.locator(`tr[data-user="${added.username}"]`);
    await row.getByRole('button', { name: `Delete ${added.name}` }).click();
    await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('User deleted').first().waitFor();
    await page.getByText('No users found').waitFor();
    await page.getByText('Try adjusting your search or filter.').waitFor();
    expect((await call('POST', '/login', undefined, { username: added.username, password })).status).toBe(401);
  });

  it('shows all of it in the Activity list', async () => {
    await openTab('Activity');
    const table = page.getByRole('table', { name: 'Activity' });
    await table.waitFor();
    await table.locator('tr[data-action="user.deleted"]', { hasText: added.username }).first().waitFor();
    await table.locator('tr[data-action="user.created"]', { hasText: added.username }).first().waitFor();
    await table.locator('tr[data-action="user.permissions_changed"]', { hasText: learner.username }).first().waitFor();
    await table.locator('tr[data-action="users.permissions_changed"]').first().waitFor();
    await expect(table.locator('tr[data-action="user.deleted"]', { hasText: added.username }).first().textContent())
      .resolves.toContain(`Alex Morgan deleted the account '${added.username}'`);
    // The settings changes only (a later test of this file's run, or another suite, may have saved
    // settings since): the access change is among them, its before and after in its details row.
    await page.getByLabel('What', { exact: true }).filter({ visible: true }).first().click();
    await page.getByRole('option', { name: 'Settings updated', exact: true }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('table[aria-label="Activity"] tbody tr[data-action]')]
      .every((row) => row.getAttribute('data-action') === 'settings.updated'));
    const settingsRows = table.locator('tr[data-action="settings.updated"]');
    for (let i = 0; i < Math.min(await settingsRows.count(), 10); i += 1) {
      await settingsRows.nth(i).getByRole('button', { name: /Show details/ }).click();
    }
    await table.locator('tr[data-details-for="settings.updated"]', { hasText: 'login-browse' }).first().waitFor();
    await screenshot(page, 'admin-activity');
  });
});
