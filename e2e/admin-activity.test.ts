// Administration in a real browser: the Activity tab's filters, readable sentences and details row; the
// Users tab's role and status filters; a leaver deactivated (signed out, cannot sign in, shown as
// Deactivated) and reactivated. axe on every screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser } from './browser';
import { apiCall as call, apiLogin, uiLogin } from './api';

const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;

describe('activity and leavers end to end', () => {
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  const leaver = { username: `leav_${suffix}`, email: `leaver.${suffix}@example.uk`, name: `Lou Leaver ${suffix}`, password: 'leaver-pass-1' };
  const title = `Radio procedure ${suffix}`;

  async function openTab(name: string) {
    await page.getByRole('tab', { name }).click();
    await page.getByRole('tab', { name, selected: true }).waitFor();
  }

  async function choose(label: string, option: string) {
    await page.getByLabel(label, { exact: true }).filter({ visible: true }).first().click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  beforeAll(async () => {
    adminToken = (await apiLogin('admin', 'password123')).token;
    const registered = await call('POST', '/register', undefined, { ...leaver, confirmPassword: leaver.password });
    expect(registered.status, registered.text).toBe(201);
    const course = await call('POST', '/courses', adminToken, {
      title, description: 'Talking on the radio', service: 'UKPS', level: 'BEGINNER', duration: 60, status: 'DRAFT',
    });
    expect(course.status, course.text).toBe(201);
    const published = await call('PUT', `/courses/${course.json.id}`, adminToken, { status: 'ACTIVE' });
    expect(published.status, published.text).toBe(200);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await uiLogin(page, 'admin');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('Activity: a readable sentence, filters by what and words, and a details row with before and after', async () => {
    await page.goto(`${baseUrl}/admin`);
    await openTab('Activity');
    const table = page.getByRole('table', { name: 'Activity' });
    await table.waitFor();
    await page.getByLabel('Search activity').fill(suffix);
    await choose('What', 'Course published');
    const row = table.locator('tr[data-action="course.published"]');
    await row.first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Activity"] tbody tr[data-action]').length === 1);
    await expect(row.textContent()).resolves.toContain(`Alex Morgan published '${title}'`);
    // The date reads en-GB: '25 November 2026 at 09:30'.
    await expect(row.locator('td').first().textContent()).resolves.toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}/);
    const toggle = row.getByRole('button', { name: /Show details/ });
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await toggle.click();
    const details = table.locator('tr[data-details-for="course.published"]');
    await details.waitFor();
    await expect(details.textContent()).resolves.toMatch(/Status.*DRAFT.*ACTIVE/);
    await expect(row.getByRole('button', { name: /Hide details/ }).getAttribute('aria-expanded')).resolves.toBe('true');
    await expectAccessible(page);
    // A date range with nothing in it.
    await page.getByLabel('To', { exact: true }).fill('2020-01-01');
    await page.getByText('No activity matches these filters.').waitFor();
    await page.getByLabel('To', { exact: true }).fill('');
    await row.first().waitFor();
  });

  it('Users: role filter; deactivate a leaver (cannot sign in, shown as Deactivated), then reactivate', async () => {
    await openTab('Users');
    const users = page.getByRole('table', { name: 'Users' });
    await users.waitFor();
    await choose('Role', 'Administrator');
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('table[aria-label="Users"] tbody tr')];
      return rows.length > 0 && rows.every((r) => r.textContent?.includes('Admin'));
    });
    await choose('Role', 'All Roles');
    await page.getByLabel('Search users').fill(leaver.username);
    const row = page.locator(`tr[data-user="${leaver.username}"]`);
    await row.waitFor();
    await row.getByRole('button', { name: `Deactivate ${leaver.name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await row.getByText('Deactivated', { exact: true }).waitFor();
    const reactivate = row.getByRole('button', { name: `Reactivate ${leaver.name}` });
    await reactivate.waitFor();

    const refused = await call('POST', '/login', undefined, { username: leaver.username, password: leaver.password });
    expect(refused.status).toBe(403);

    await choose('Status', 'Deactivated');
    await row.waitFor();
    await choose('Status', 'Active');
    await page.getByText('No users found').waitFor();
    await choose('Status', 'All Statuses');
    await row.waitFor();
    await expectAccessible(page);

    await row.getByRole('button', { name: `Reactivate ${leaver.name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reactivate' }).click();
    await row.getByRole('button', { name: `Deactivate ${leaver.name}` }).waitFor();
    await expect(row.getByText('Deactivated', { exact: true }).count()).resolves.toBe(0);
    const back = await call('POST', '/login', undefined, { username: leaver.username, password: leaver.password });
    expect(back.status, back.text).toBe(200);

    await openTab('Activity');
    await page.getByLabel('Search activity').fill(leaver.username);
    await page.getByRole('table', { name: 'Activity' }).locator('tr[data-action="user.deactivated"]').waitFor();
    await page.getByRole('table', { name: 'Activity' }).locator('tr[data-action="user.reactivated"]').waitFor();
  });
});
