// Faults in the browser: the database goes away while a learner is filling in a form. The api
// function keeps running but cannot reach the database, so it answers 503 with a clear message;
// the page shows that message and keeps what was typed; when the database is back, the same
// values are saved by pressing Save again, with no reload.
//
// Only this test's requests lose the database, not the other suites sharing the platform: a second
// instance of the real api function (platform/functions.mjs, real Deno) is started whose database
// connection goes through a TCP proxy (scripts/fault-proxy.mjs) in front of the platform's
// database, and this page's /functions/v1/api requests are routed to it, as the gateway routes them
// to the platform's own instance. Cutting the proxy resets its connections and refuses new ones,
// exactly what a stopped database looks like to the function.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startFaultProxy } from '../scripts/fault-proxy.mjs';
import { startFunctions } from '../platform/functions.mjs';
import { apiCall, apiLogin, uiLogin } from './api';
import { expectAccessible, launchBrowser, screenshot } from './browser';

const MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run against a platform (scripts/test.mjs sets it)`);
  return value;
}

describe('the database unreachable while a form is being filled in', () => {
  let browser: Browser;
  let page: Page;
  let proxy: Awaited<ReturnType<typeof startFaultProxy>>;
  let functions: Awaited<ReturnType<typeof startFunctions>>;

  beforeAll(async () => {
    proxy = await startFaultProxy({ target: env('SUPABASE_DB_URL') });
    functions = await startFunctions({
      supabaseUrl: env('SUPABASE_URL'),
      anonKey: env('SUPABASE_ANON_KEY'),
      serviceRoleKey: env('SUPABASE_SERVICE_ROLE_KEY'),
      dbUrl: proxy.url,
      log: (line: string) => process.stderr.write(`[fault fn] ${line}\n`),
    });
    browser = await launchBrowser();
    const context = await browser.newContext({ timezoneId: 'Europe/London', locale: 'en-GB' });
    await context.route(/\/functions\/v1\/api\//, async (route) => {
      const url = new URL(route.request().url());
      const target = `${functions.url}${url.pathname.slice('/functions/v1'.length)}${url.search}`;
      try {
        await route.fulfill({ response: await route.fetch({ url: target }) });
      } catch {
        await route.abort('failed');
      }
    });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await functions?.stop();
    await proxy?.close();
  });

  it('shows the 503 message, keeps the typed values, and saves them once the database is back', async () => {
    // The database is reachable when the test starts (also when it is run again after a failure).
    proxy.restore();
    const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const account = { username: `fault_${id}`, email: `fault_${id}@example.test`, name: 'Fran Faultless', password: `pw-${id}-secret` };
    const registered = await apiCall('POST', '/register', undefined, { ...account, confirmPassword: account.password });
    expect(registered.status).toBe(201);

    await uiLogin(page, account.username, account.password, '/profile');
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    await expect.poll(() => page.getByLabel('Full name').inputValue()).toBe(account.name);

    // The page has finished loading (the notification preferences and the bell included) before the
    // database goes away: queries in flight at the moment of a reset can wait in the function's pool
    // until its connect timeout (10 s) instead of failing at once, which this test is not about.
    await page.getByRole('switch', { name: 'Required training overdue' }).waitFor();
    await page.waitForLoadState('networkidle');

    // The learner types; meanwhile the database goes away.
    const newName = 'Francesca Faulkner-Smith';
    const newEmail = `fran_${id}@example.test`;
    await page.getByLabel('Full name').fill(newName);
    await page.getByLabel('Email', { exact: true }).fill(newEmail);
    proxy.cut();
    await page.getByRole('button', { name: 'Save Changes' }).click();

    const alert = page.getByRole('alert').filter({ hasText: 'Failed to update profile' });
    await alert.getByText(MESSAGE).waitFor();
    // What was typed is still there, and nothing was saved.
    expect(await page.getByLabel('Full name').inputValue()).toBe(newName);
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(newEmail);
    const { token } = await apiLogin(account.username, account.password);
    expect((await apiCall('GET', '/user', token)).json.name).toBe(account.name);
    await expectAccessible(page);
    await screenshot(page, 'faults-database-unavailable');

    // The database returns: the same values are saved with one more press, no reload.
    proxy.restore();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated').waitFor();
    await page.getByRole('button', { name: new RegExp(newName) }).waitFor();
    await expect.poll(async () => (await apiCall('GET', '/user', token)).json).toMatchObject({ name: newName, email: newEmail });
    await screenshot(page, 'faults-database-back');
  });
});
