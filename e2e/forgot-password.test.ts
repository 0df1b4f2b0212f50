// "Forgot password?" end to end. From the sign-in screen, a person an administrator added
// (still holding a temporary password) asks for a link; the email is read in the mail catcher; the
// link signs them in on /auth/reset, where they choose a new password and land on their dashboard.
// The new password signs in, the temporary one no longer does, the link works once, and an unknown
// address gets the same confirmation. axe and the contrast check on both screens at 1366 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin } from './api';

const mailUrl = process.env.MAIL_URL ?? 'http://127.0.0.1:54324';
const CONFIRMATION = 'If an account exists for that address, we have sent a link to reset the password. It expires in 1 hour.';

interface MessageSummary {
  ID: string;
  To: { Address: string }[];
  Subject: string;
}

/** The text of the newest email to an address with this subject, waiting for it to arrive. */
async function emailTo(address: string, subject: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const list = (await (await fetch(`${mailUrl}/api/v1/messages`)).json()) as { messages: MessageSummary[] };
    const found = list.messages.find((m) => m.Subject === subject && m.To.some((to) => to.Address.toLowerCase() === address.toLowerCase()));
    if (found) {
      const message = (await (await fetch(`${mailUrl}/api/v1/message/${found.ID}`)).json()) as { Text: string };
      return message.Text;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no email "${subject}" to ${address}`);
}

async function countEmailsTo(address: string): Promise<number> {
  const list = (await (await fetch(`${mailUrl}/api/v1/messages`)).json()) as { messages: MessageSummary[] };
  return list.messages.filter((m) => m.To.some((to) => to.Address.toLowerCase() === address.toLowerCase())).length;
}

/** axe and the contrast check at desktop and phone widths. */
async function accessibleAtBothWidths(page: Page, name: string) {
  for (const [width, height] of [[1366, 900], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await expectAccessible(page);
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

describe('forgot password', () => {
  let browser: Browser;
  let page: Page;
  const s = Date.now().toString(36);
  const person = { username: `forgot_${s}`, email: `forgot.${s}@example.uk`, name: 'Fern Forgetful' };
  let temporaryPassword = '';
  let link = '';
  const newPassword = `Ferns-own-${s}-pass`;

  beforeAll(async () => {
    const admin = await apiLogin('admin');
    const created = await apiCall('POST', '/users', admin.token, { ...person, role: 'STUDENT', services: [] });
    expect(created.status, created.text).toBe(201);
    temporaryPassword = created.json.temporaryPassword;
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('asks for a link from the sign-in screen and confirms without saying whether the account exists', async () => {
    await page.goto(`${baseUrl}/auth`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${baseUrl}/auth/forgot`);
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await accessibleAtBothWidths(page, 'forgot-password');

    // A malformed address is refused beside the field.
    await page.getByLabel('Email address').fill('not-an-address');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Invalid email address').waitFor();

    await page.getByLabel('Email address').fill(person.email.toUpperCase());
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const confirmation = page.getByRole('status').filter({ hasText: CONFIRMATION });
    await confirmation.waitFor();
    // The focus moves to the confirmation, so a screen reader reads it at once.
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(CONFIRMATION);
    await accessibleAtBothWidths(page, 'forgot-password-sent');

    const text = await emailTo(person.email, 'Reset your password');
    link = /https?:\/\/\S+/.exec(text)?.[0] ?? '';
    expect(link).toContain('/auth/v1/verify?token=');
    expect(new URL(link).searchParams.get('redirect_to')).toBe(`${baseUrl}/auth/reset`);
  });

  it('gives an unknown address the same confirmation, and no email', async () => {
    const nobody = `nobody.${s}@example.uk`;
    await page.goto(`${baseUrl}/auth/forgot`);
    await page.getByLabel('Email address').fill(nobody);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').filter({ hasText: CONFIRMATION }).waitFor();
    await page.waitForTimeout(500);
    expect(await countEmailsTo(nobody)).toBe(0);
  });

  it('follows the link, sets a new password and lands on the dashboard, signed in', async () => {
    await page.goto(link);
    await page.waitForURL(`${baseUrl}/auth/reset`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    // The tokens are not left in the address bar.
    expect(page.url()).toBe(`${baseUrl}/auth/reset`);
    await accessibleAtBothWidths(page, 'reset-password');

    // The profile's password rules, with their messages.
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Password must be at least 6 characters').waitFor();
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(`${newPassword}x`);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Passwords do not match').waitFor();

    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    // Straight to the dashboard: the temporary password's "Choose a new password" is done with.
    await page.waitForURL(`${baseUrl}/dashboard`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(page.url()).toBe(`${baseUrl}/dashboard`);
  });

  it('signs in with the new password; the temporary one no longer works', async () => {
    const fresh = await apiLogin(person.username, newPassword);
    const me = await apiCall('GET', '/user', fresh.token);
    expect(me.status).toBe(200);
    expect(me.json.mustChangePassword).toBeUndefined();
    const old = await apiCall('POST', '/login', undefined, { username: person.username, password: temporaryPassword });
    expect(old.status).toBe(401);
  });

  it('refuses the used link with a clear message and a way to ask again', async () => {
    const fresh = await (await browser.newContext()).newPage();
    await fresh.setViewportSize({ width: 1366, height: 900 });
    await fresh.goto(link);
    await fresh.waitForURL(`${baseUrl}/auth/reset`);
    await fresh.getByRole('heading', { name: 'This link has expired' }).waitFor();
    await fresh.getByText('A password link works once, for 1 hour.').waitFor();
    await accessibleAtBothWidths(fresh, 'reset-password-expired');
    await fresh.getByRole('link', { name: 'Ask for a new link' }).click();
    await fresh.waitForURL(`${baseUrl}/auth/forgot`);
    await fresh.close();
  });
});
