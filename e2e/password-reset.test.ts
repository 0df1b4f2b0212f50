// An admin resets a person's password from the Users tab ("Reset password", "Are you
// sure?", then the temporary password shown once with a copy button); the person's old password
// stops working, and signing in with the temporary one leads to "Choose a new password".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiCall, uiLogin } from './api';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';

describe('admin password reset', () => {
  let browser: Browser;
  let admin: Page;
  let learner: Page;
  const s = Date.now().toString(36);
  const person = { username: `reset_${s}`, email: `reset.${s}@example.uk`, name: 'Sam Reset', password: `Sams-pass-${s}` };
  let temporary = '';

  beforeAll(async () => {
    const registered = await apiCall('POST', '/register', undefined, { ...person, confirmPassword: person.password });
    expect(registered.status, registered.text).toBe(201);
    browser = await launchBrowser();
    admin = await (await browser.newContext()).newPage();
    learner = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the admin confirms, sees the temporary password once, and focus returns to the row', async () => {
    await uiLogin(admin, 'admin', 'password123', '/admin');
    await admin.getByRole('table', { name: 'Users' }).waitFor();
    await admin.getByLabel('Search users').fill(person.username);
    const row = admin.locator(`tr[data-user="${person.username}"]`);
    const action = row.getByRole('button', { name: `Reset password of ${person.name}` });
    await action.click();
    const confirm = admin.getByRole('dialog', { name: 'Reset password' });
    await confirm.getByText(`This gives ${person.name} (@${person.username}) a new temporary password`).waitFor();
    await expectAccessible(admin);
    await confirm.getByRole('button', { name: 'Reset password' }).click();

    const shown = admin.getByRole('dialog', { name: 'Temporary password' });
    const field = shown.getByLabel('Temporary password');
    await field.waitFor();
    temporary = await field.inputValue();
    expect(temporary.length).toBeGreaterThanOrEqual(20);
    await shown.getByRole('button', { name: 'Copy password' }).waitFor();
    await expectAccessible(admin);
    await screenshot(admin, 'password-reset-temporary');
    // Keyboard: Done with Enter; focus goes back to the row's action.
    await shown.getByRole('button', { name: 'Done' }).focus();
    await admin.keyboard.press('Enter');
    await shown.waitFor({ state: 'detached' });
    await expect.poll(() => action.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await apiCall('POST', '/login', undefined, { username: person.username, password: person.password })).status).toBe(401);
  });

  it('the person signs in with the temporary password and must choose a new one', async () => {
    await learner.goto(`${baseUrl}/auth`);
    await learner.getByLabel('Username').fill(person.username);
    await learner.getByLabel('Password', { exact: true }).fill(temporary);
    await learner.getByRole('button', { name: 'Login', exact: true }).click();
    await learner.waitForURL(`${baseUrl}/choose-password`);
    await learner.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
    await learner.getByLabel('Current password').fill(temporary);
    await learner.getByLabel('New password', { exact: true }).fill('Sams-chosen-pass-88');
    await learner.getByLabel('Confirm new password').fill('Sams-chosen-pass-88');
    await learner.getByRole('button', { name: 'Change Password' }).click();
    await learner.waitForURL(`${baseUrl}/dashboard`);
    await learner.getByRole('heading', { name: `Welcome, ${person.name}`, level: 1 }).waitFor();
  });
});
