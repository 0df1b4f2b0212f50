// Common passwords in the browser: the registration and password-change forms show the server's
// message under the password field (the list itself is never sent to the browser).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin } from './api';

const COMMON = 'This password is too common and easy to guess. Please choose a different one.';

/** The error message the field itself points to (aria-describedby), not a toast. */
async function fieldError(page: Page, label: string): Promise<string> {
  const field = page.getByLabel(label, { exact: true });
  const ids = (await field.getAttribute('aria-describedby')) ?? '';
  const described = ids.split(/\s+/).filter(Boolean).map((id) => page.locator(`[id="${id}"]`));
  const texts = await Promise.all(described.map(async (el) => ((await el.count()) ? await el.textContent() : '')));
  return texts.join(' ');
}

describe('common passwords are refused in the forms', () => {
  let browser: Browser;
  let page: Page;
  const s = Date.now().toString(36);

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('registration shows the message under Password and creates no account', async () => {
    await page.goto(`${baseUrl}/auth`);
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('Username').fill(`common_${s}`);
    await page.getByLabel('Email').fill(`common.${s}@example.uk`);
    await page.getByLabel('Full Name').fill('Cora Common');
    await page.getByLabel('Password', { exact: true }).fill('Liverpool1');
    await page.getByLabel('Confirm Password').fill('Liverpool1');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => fieldError(page, 'Password')).toContain(COMMON);
    expect(page.url()).toBe(`${baseUrl}/auth`);
    const admin = await apiLogin('admin');
    const found = await apiCall('GET', `/users?search=common_${s}`, admin.token);
    expect(found.status, found.text).toBe(200);
    expect(found.json.total).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'register-common-password');
    // The web bundle does not carry the list.
    const scripts = await page.evaluate(() => [...document.scripts].map((script) => script.src).filter(Boolean));
    for (const src of scripts) expect(await (await fetch(src)).text()).not.toContain('liverpool1');
  });

  it('the profile password form shows it under New password; the old password still works', async () => {
    const admin = await apiLogin('admin');
    const created = await apiCall('POST', '/users', admin.token, { username: `pwc_${s}`, email: `pwc.${s}@example.uk`, name: 'Pat Change' });
    expect(created.status, created.text).toBe(201);
    const password = created.json.temporaryPassword as string;
    // A temporary password: the person is sent to "Choose a new password", same fields.
    await page.goto(`${baseUrl}/auth`);
    await page.getByLabel('Username').fill(`pwc_${s}`);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL(`${baseUrl}/choose-password`);
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel('New password', { exact: true }).fill('starwars1');
    await page.getByLabel('Confirm new password').fill('starwars1');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect.poll(() => fieldError(page, 'New password')).toContain(COMMON);
    await expectAccessible(page);
    await screenshot(page, 'profile-common-password');
    await apiLogin(`pwc_${s}`, password);
  });
});
