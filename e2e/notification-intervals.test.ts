// Notification intervals in a real browser: the administrator sets the default intervals
// under "Notifications" in the Settings tab (field messages on bad input, saved largest first), and a
// required-training rule's own reminder days and escalation in its edit dialog. axe and the contrast
// check on both, at desktop and phone widths. Every setting changed here is restored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall as call, apiLogin, uiLogin } from './api';

type Settings = Record<string, unknown>;
const settingsBody = (s: Settings) => ({
  siteName: s.siteName, adminEmail: s.adminEmail, courseAccess: s.courseAccess, certificateTemplate: s.certificateTemplate,
  footerText: s.footerText, enableAnalytics: s.enableAnalytics, autoEnrollment: s.autoEnrollment,
  dueSoonDays: s.dueSoonDays, expiryWarningDays: s.expiryWarningDays, overdueRepeatDays: s.overdueRepeatDays,
  escalationDays: s.escalationDays,
});

describe('notification intervals end to end', () => {
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  let original: Settings;
  let ruleId = '';
  let courseTitle = '';

  beforeAll(async () => {
    adminToken = (await apiLogin('admin', 'password123')).token;
    original = (await call('GET', '/settings', adminToken)).json;
    // A published course of the seed's with no rule yet, required for auxiliaries through the API.
    const courses = (await call('GET', '/courses?pageSize=50', adminToken)).json.items as { id: string; title: string }[];
    const rules = (await call('GET', '/required-training?pageSize=100', adminToken)).json.items as { course: { id: string } }[];
    const free = courses.find((c) => !rules.some((r) => r.course.id === c.id))!;
    courseTitle = free.title;
    const created = await call('POST', '/required-training', adminToken, { courseId: free.id, service: 'AUX', dueWithinDays: 30 });
    expect(created.status, created.text).toBe(201);
    ruleId = created.json.id;
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
  });
  afterAll(async () => {
    await call('PUT', '/settings', adminToken, settingsBody(original));
    if (ruleId) await call('DELETE', `/required-training/${ruleId}`, adminToken);
    await browser?.close();
  });

  it('the administrator sets the default intervals, with a message on a bad field', async () => {
    await uiLogin(page, 'admin', 'password123', '/admin');
    await page.getByRole('tab', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'System settings' });
    await form.waitFor();
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    const dueSoon = page.getByRole('textbox', { name: /^Due soon reminders/ });
    await expect(dueSoon.inputValue()).resolves.toBe('14, 3');
    await expect(page.getByRole('textbox', { name: /^Certificate expiry reminders/ }).inputValue()).resolves.toBe('60, 30, 7');

    await dueSoon.fill('3, 3');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Enter each number of days once').waitFor();
    await expect(dueSoon.getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessible(page);

    await dueSoon.fill('7, 21');
    await page.getByRole('textbox', { name: /^Tell the line manager after/ }).fill('10');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('System settings have been updated successfully.').first().waitFor();
    const saved = (await call('GET', '/settings', adminToken)).json;
    expect([saved.dueSoonDays, saved.escalationDays]).toEqual([[21, 7], 10]);
    await page.reload();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByRole('textbox', { name: /^Due soon reminders/ }).inputValue()).resolves.toBe('21, 7');
    await screenshot(page, 'notification-intervals-settings');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await screenshot(page, 'notification-intervals-settings-phone');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('a rule overrides the reminder days and the escalation; blank goes back to the default', async () => {
    await page.getByRole('tab', { name: 'Required training' }).click();
    const edit = page.getByRole('button', { name: new RegExp(`^Edit rule for ${courseTitle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:`) });
    await edit.click();
    const dialog = page.getByRole('dialog', { name: `Edit required training: ${courseTitle}` });
    await dialog.waitFor();
    const reminders = dialog.getByRole('textbox', { name: /^Due soon reminders/ });
    const escalation = dialog.getByRole('textbox', { name: /^Tell the line manager after/ });
    // The site's defaults as just saved, named in the descriptions.
    await dialog.getByText('Blank: the site default (21, 7)').waitFor();
    await dialog.getByText('Blank: the site default (10)').waitFor();
    await reminders.fill('400');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText('Enter 1 to 5 numbers of days between 1 and 365, separated by commas, e.g. 14, 3').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'notification-intervals-rule');

    await reminders.fill('5, 28');
    await escalation.fill('3');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const rule = (await call('GET', '/required-training?pageSize=100', adminToken)).json.items.find((r: { id: string }) => r.id === ruleId);
    expect([rule.notifyDueSoonDays, rule.notifyEscalationDays]).toEqual([[28, 5], 3]);
    await page.getByText('Reminders 28, 5 days before').waitFor();

    await edit.click();
    await dialog.waitFor();
    await expect(reminders.inputValue()).resolves.toBe('28, 5');
    await reminders.fill('');
    await escalation.fill('');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const cleared = (await call('GET', '/required-training?pageSize=100', adminToken)).json.items.find((r: { id: string }) => r.id === ruleId);
    expect([cleared.notifyDueSoonDays, cleared.notifyEscalationDays]).toEqual([null, null]);
  });
});
