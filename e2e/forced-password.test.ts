// A person an admin adds gets a temporary password; at their first sign-in they must
// choose a new one ("Choose a new password") before any other page, then reach the dashboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, apiLogin } from './api';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';

describe('forced password change', () => {
  let browser: Browser;
  let page: Page;
  const s = Date.now().toString(36);
  const username = `forced_${s}`;
  let temporary = '';

  beforeAll(async () => {
    const admin = await apiLogin('admin');
    const created = await apiCall('POST', '/users', admin.token, {
      username, email: `forced.${s}@example.uk`, name: 'Robin Forced', role: 'STUDENT', services: [],
    });
    expect(created.status, created.text).toBe(201);
    temporary = created.json.temporaryPassword;
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sends the person to "Choose a new password" after signing in, and keeps them there', async () => {
    await page.goto(`${baseUrl}/auth`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(temporary);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL(`${baseUrl}/choose-password`);
    await page.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'forced-password-choose');

    // Any other page leads back here.
    await page.goto(`${baseUrl}/dashboard`);
    await page.waitForURL(`${baseUrl}/choose-password`);
    await page.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
  });

  it('changing the password clears the requirement and opens the dashboard', async () => {
    await page.getByLabel('Current password').fill(temporary);
    await page.getByLabel('New password', { exact: true }).fill('Robins-own-pass-77');
    await page.getByLabel('Confirm new password').fill('Robins-own-pass-77');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.waitForURL(`${baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Welcome, Robin Forced', level: 1 }).waitFor();
    await screenshot(page, 'forced-password-dashboard');
    // The new password signs in and nothing is held back any more.
    const signedIn = await apiLogin(username, 'Robins-own-pass-77');
    expect((await apiCall('GET', '/certificates', signedIn.token)).status).toBe(200);
    await page.goto(`${baseUrl}/profile`);
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
  });
});
