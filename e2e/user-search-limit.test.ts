// The admin user search keeps at most 100 matches. With 101 people whose names share a
// term, the Users tab lists 100 of them, says that more match and how to narrow the search, and a
// longer term finds the one person. Accessible (axe), with a screenshot. The people are imported
// through the API and deleted afterwards (the platform is shared with the other browser tests).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall as call, apiLogin, uiLogin } from './api';

const tag = `cap${Date.now().toString(36)}${process.pid.toString(36)}`;
const PEOPLE = 101;
const NOTICE = 'More than 100 users match this search, so only 100 of them are listed.';

describe('the admin user search beyond 100 matches', () => {
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  let created: { id: string; username: string }[] = [];

  beforeAll(async () => {
    adminToken = (await apiLogin('admin', 'password123')).token;
    const rows = Array.from({ length: PEOPLE }, (_, i) => ({
      line: i + 2,
      username: `${tag}_${i + 1}`,
      email: `${tag}.${i + 1}@example.uk`,
      name: `Searchcap ${tag} ${i + 1}`,
      role: '',
      services: '',
    }));
    const imported = await call('POST', '/admin/users/import', adminToken, { importId: randomUUID(), part: 1, rows });
    expect(imported.status, imported.text).toBe(201);
    created = imported.json.created;
    expect(created).toHaveLength(PEOPLE);
    browser = await launchBrowser();
    page = await (await browser.newContext({ timezoneId: 'Europe/London', locale: 'en-GB' })).newPage();
    await uiLogin(page, 'admin');
  });
  afterAll(async () => {
    await browser?.close();
    for (const person of created) await call('DELETE', `/users/${person.id}`, adminToken);
  });

  it('answers 100 of the 101 matches and says that more match', async () => {
    const first = await call('GET', `/users?search=${tag}&pageSize=100`, adminToken);
    expect(first.status).toBe(200);
    expect(first.json.total).toBe(100);
    expect(first.json.moreMatches).toBe(true);
    expect(first.json.items).toHaveLength(100);
    expect(new Set(first.json.items.map((u: { id: string }) => u.id)).size).toBe(100);
  });

  it('shows the notice on the Users tab, with 20 rows a page, and none for a longer term', async () => {
    await page.goto(`${baseUrl}/admin`);
    await page.getByRole('table', { name: 'Users' }).waitFor();
    await page.getByLabel('Search users').fill(tag);
    await page.getByRole('status').filter({ hasText: NOTICE }).waitFor();
    await expect.poll(() => page.getByRole('table', { name: 'Users' }).locator('tbody tr').count()).toBe(20);
    await page.getByText('100 users listed').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'admin-user-search-limit');

    await page.getByLabel('Search users').fill(`${tag}_101`);
    await page.locator(`tr[data-user="${tag}_101"]`).waitFor();
    await expect.poll(() => page.getByRole('table', { name: 'Users' }).locator('tbody tr').count()).toBe(1);
    expect(await page.getByText(NOTICE).count()).toBe(0);
  });
});
