// A newer outcome of the same action replaces the older one (no "Failed to change password"
// after a change that worked, no "Login failed" on the Register tab, no "Registration failed" after
// a registration that worked), and a failed sign-in is told inside the form, beside the fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text });

describe('auth notifications', () => {
  let browser: Browser;
  let page: Page;
  const s = Date.now().toString(36);
  const account = { username: `note_${s}`, email: `note.${s}@example.uk`, name: 'Nell Notice', password: 'Nells-pass-2026' };

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a failed sign-in inside the form, and the Register tab does not keep "Login failed"', async () => {
    await page.goto(`${baseUrl}/auth`);
    await page.getByLabel('Username').fill('nobody_here');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    const form = page.getByRole('form', { name: 'Login' });
    const inForm = form.getByRole('alert');
    await inForm.waitFor();
    expect(await inForm.textContent()).toContain('Invalid username or password');
    await toast(page, 'Login failed').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'auth-login-failed-in-form');

    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Create a new account' }).waitFor();
    // At once: a failure toast otherwise stays for its 8 seconds.
    await toast(page, 'Login failed').waitFor({ state: 'hidden', timeout: 3000 });
  });

  it('replaces "Registration failed" with the success that follows', async () => {
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Full name').fill(account.name);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm Password').fill(account.password);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await toast(page, 'Registration failed').waitFor();
    await page.getByLabel('Username').fill(account.username);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.waitForURL(`${baseUrl}/`);
    // The success replaces the failure at once (before, it queued behind it for 8 seconds).
    await toast(page, 'Registration successful').waitFor({ timeout: 4000 });
    await toast(page, 'Registration failed').waitFor({ state: 'hidden', timeout: 3000 });
    expect(await toast(page, 'Registration failed').count()).toBe(0);
  });

  it('replaces "Failed to change password" with "Password changed"', async () => {
    await page.goto(`${baseUrl}/profile`);
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('Nells-new-pass-2026');
    await page.getByLabel('Confirm new password').fill('Nells-new-pass-2026');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await toast(page, 'Failed to change password').waitFor();
    await page.getByText('Current password is incorrect').first().waitFor();

    await page.getByLabel('Current password').fill(account.password);
    await page.getByLabel('New password', { exact: true }).fill('Nells-new-pass-2026');
    await page.getByLabel('Confirm new password').fill('Nells-new-pass-2026');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await toast(page, 'Password changed').waitFor({ timeout: 4000 });
    await toast(page, 'Failed to change password').waitFor({ state: 'hidden', timeout: 3000 });
    expect(await page.getByText('Current password is incorrect').count()).toBe(0);
    await screenshot(page, 'profile-password-changed');
  });
});
