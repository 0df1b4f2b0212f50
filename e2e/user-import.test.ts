// Bulk user import in a real browser: the admin opens Import users from the Users tab, picks a CSV
// of ambulance staff with the keyboard, sees the two bad rows reported, imports the rest with a
// progress bar, downloads the one-time passwords (one of them signs in), and exports the Users
// tab's filtered list as CSV. Accessible (axe) at each step, with screenshots.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Download, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall as call, apiLogin, uiLogin } from './api';

const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;
const GOOD = 50;

/** Fifty ambulance staff (two instructors) and two bad rows: an invalid email and an unknown service. */
function staffCsv(): string {
  const lines = ['username,email,name,role,services'];
  for (let i = 1; i <= GOOD; i += 1) {
    lines.push(`amb${i}_${suffix},amb${i}.${suffix}@ambulance.example.uk,"Crew, Member ${i}",${i <= 2 ? 'instructor' : ''},UKAS`);
  }
  lines.push(`badmail_${suffix},not-an-email,Bad Email,,UKAS`);
  lines.push(`badsvc_${suffix},badsvc.${suffix}@ambulance.example.uk,Bad Service,,UKAS;NHS`);
  return `${lines.join('\r\n')}\r\n`;
}

async function downloadText(download: Download): Promise<string> {
  const path = await download.path();
  return fs.readFileSync(path, 'utf8');
}

describe('bulk user import end to end', () => {
  let browser: Browser;
  let page: Page;
  let adminToken: string;

  beforeAll(async () => {
    adminToken = (await apiLogin('admin', 'password123')).token;
    browser = await launchBrowser();
    page = await (await browser.newContext({ acceptDownloads: true })).newPage();
    await uiLogin(page, 'admin');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens Import users from the Users tab and reads the file chosen with the keyboard', async () => {
    await page.goto(`${baseUrl}/admin`);
    await page.getByRole('table', { name: 'Users' }).waitFor();
    await page.getByRole('link', { name: 'Import users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Import users' }).waitFor();
    await expectAccessible(page);

    // The file input is a labelled button: Enter opens the file chooser.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /CSV file/ }).focus();
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'ambulance-staff.csv', mimeType: 'text/csv', buffer: Buffer.from(staffCsv()) });

    await page.getByTestId('import-summary').filter({ hasText: '52 rows: 50 ready to import, 2 with problems' }).waitFor();
    const table = page.getByRole('table', { name: 'Rows of the file' });
    await table.locator('tr[data-line="52"]').getByText('Invalid email address').waitFor();
    await table.locator('tr[data-line="53"]').getByText('Unknown service "NHS"', { exact: false }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'user-import-preview');

    // Nothing is written by the preview.
    const before = await call('GET', `/users?search=${suffix}`, adminToken);
    expect(before.json.total).toBe(0);
  });

  it('imports the fifty good rows and reports the two bad ones', async () => {
    await page.locator('label', { hasText: 'All (52)' }).click();
    await page.getByRole('table', { name: 'Rows of the file' }).locator('tr[data-line="2"]').waitFor();
    await page.getByRole('button', { name: 'Import 50 users' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor();
    await page.getByTestId('import-outcome').filter({ hasText: '50 users created, 2 skipped.' }).waitFor();
    const skipped = page.getByRole('table', { name: 'Rows skipped' });
    await skipped.locator('tr[data-skipped="52"]').getByText('Invalid email address').waitFor();
    await skipped.locator('tr[data-skipped="53"]').getByText(/Unknown service "NHS"/).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'user-import-result');

    const users = await call('GET', `/users?search=${suffix}&pageSize=100`, adminToken);
    expect(users.json.total).toBe(GOOD);
    const roles = users.json.items.map((u: { role: string; services: string[] }) => `${u.role}:${u.services.join(';')}`).sort();
    expect(roles).toEqual([...Array(2).fill('INSTRUCTOR:UKAS'), ...Array(48).fill('STUDENT:UKAS')]);
  });

  it('downloads the one-time passwords as CSV, and one of them signs in', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download passwords (CSV)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^imported-users-passwords-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await downloadText(file);
    const lines = text.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('username,email,name,temporary_password');
    expect(lines).toHaveLength(GOOD + 1);
    const first = lines.find((line) => line.startsWith(`amb3_${suffix},`))!;
    const password = first.split(',').at(-1)!;
    expect(password.length).toBeGreaterThanOrEqual(20);
    const session = await apiLogin(`amb3_${suffix}`, password);
    expect(session.name).toBe('Crew, Member 3');
  });

  it('exports the Users tab\'s current search and service filter as CSV', async () => {
    await page.getByRole('link', { name: 'Back to users' }).first().click();
    await page.getByRole('table', { name: 'Users' }).waitFor();
    await page.getByLabel('Search users').fill(`.${suffix}@ambulance`);
    await page.getByLabel('Service', { exact: true }).filter({ visible: true }).first().click();
    await page.getByRole('option', { name: 'United Kingdom Ambulance Service' }).click();
    // The search is debounced and runs on the server: wait for the list to narrow to the fifty (20 a page).
    await page.getByText(`${GOOD} users`, { exact: true }).waitFor();
    // Any of the fifty: which of them sort onto the first page depends on the list's order.
    await page.locator(`tr[data-user^="amb"][data-user$="_${suffix}"]`).first().waitFor();
    await expectAccessible(page);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await downloadText(file)).replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('username,email,name,role,services,organisation,unit,manager,joined');
    expect(lines.slice(1).map((line) => line.split(',')[0]).sort()).toEqual(
      Array.from({ length: GOOD }, (_, i) => `amb${i + 1}_${suffix}`).sort(),
    );
    expect(lines.find((line) => line.startsWith(`amb1_${suffix},`))).toMatch(
      new RegExp(`^amb1_${suffix},amb1\\.${suffix}@ambulance\\.example\\.uk,"Crew, Member 1",INSTRUCTOR,UKAS,,,,\\d{4}-\\d{2}-\\d{2}$`),
    );
    await screenshot(page, 'user-import-users-tab');
  });
});
