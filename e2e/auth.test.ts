// The sign-in journey in a real browser: register, land on / signed in, log out, log in again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';

describe('sign-in end to end', () => {
  let browser: Browser;
  let page: Page;
  const suffix = Date.now().toString(36);
  const account = {
    username: `e2e_${suffix}`,
    email: `e2e_${suffix}@example.uk`,
    name: 'Alex Morgan',
    password: 'secret-pass-1',
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the sign-in screen to a visitor, accessibly', async () => {
    await page.goto(`${baseUrl}/auth`);
    await expect(page.getByRole('heading', { name: 'Sign in to your account' }).waitFor()).resolves.toBeUndefined();
    await expectAccessible(page);
    await screenshot(page, 'auth-login');
  });

  it('refuses a registration with field messages', async () => {
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Create a new account' }).waitFor();
    await page.getByLabel('Username').fill('ab');
    await page.getByLabel('Password', { exact: true }).fill('secret-pass-1');
    await page.getByLabel('Confirm Password').fill('different-pass');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText('Username must be at least 3 characters').waitFor();
    await page.getByText('Passwords do not match').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'auth-register-errors');
  });

  it('registers and lands on / signed in', async () => {
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Full Name').fill(account.name);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm Password').fill(account.password);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.getByText('Registration successful').waitFor();
    await page.getByRole('button', { name: /Alex Morgan/ }).waitFor();
    await expect(page.getByRole('link', { name: 'Login' }).count()).resolves.toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'home-signed-in');
  });

  it('keeps the session across a reload', async () => {
    await page.reload();
    await page.getByRole('button', { name: /Alex Morgan/ }).waitFor();
  });

  it('logs out', async () => {
    await page.getByRole('button', { name: /Alex Morgan/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByText('You have been successfully logged out').waitFor();
    await page.getByRole('link', { name: 'Login' }).first().waitFor();
    await page.reload();
    await page.getByRole('link', { name: 'Login' }).first().waitFor();
    await screenshot(page, 'home-signed-out');
  });

  it('refuses a wrong password, then logs in', async () => {
    await page.goto(`${baseUrl}/auth`);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid username or password' }).first().waitFor();
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.getByText(`Welcome back, ${account.name}!`).waitFor();
    await page.getByRole('button', { name: /Alex Morgan/ }).waitFor();
  });

  it('sends a visitor from a protected page to /auth, and a student away from /admin', async () => {
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`${baseUrl}/my-courses`);
    await visitor.waitForURL(/\/auth/);
    await visitor.close();
    await page.goto(`${baseUrl}/admin`);
    await page.waitForURL(`${baseUrl}/`);
  });

  it('shows the 404 page for an unknown path', async () => {
    await page.goto(`${baseUrl}/no-such-page`);
    await page.getByText('404 Page Not Found').waitFor();
    await expectAccessible(page);
  });
});
