// The Delivery tab in Chromium against the real platform: an administrator sees a person's
// notification emails (sent, failed after its retries, queued for a retry with its error), filters
// by status, pages, and sends a failed one again from the keyboard: the button keeps the focus and
// says it is queued, and the database has it queued. axe and the contrast check at 1366 and 390 px.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, uiLogin } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;

describe('the Delivery tab end to end', () => {
  let browser: Browser;
  let page: Page;
  let sql: postgres.Sql;
  const learner = { username: `dlv_${suffix}`, email: `dlv.${suffix}@example.uk`, name: `Dee Livery ${suffix}`, password: 'delivery-pass-1' };
  let failedId = '';
  let learnerId = '';

  async function choose(label: string, option: string) {
    await page.getByLabel(label, { exact: true }).filter({ visible: true }).first().click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  beforeAll(async () => {
    sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    const registered = await apiCall('POST', '/register', undefined, { ...learner, confirmPassword: learner.password });
    expect(registered.status, registered.text).toBe(201);
    const id = registered.json.user.id as string;
    learnerId = id;
    // Three emails as the worker leaves them, newest first; then 30 older ones so there are pages. They
    // are dated twenty years on, so no notice another test writes (some move time forward) comes first.
    const rows = await sql<{ id: string; title: string }[]>`
      insert into public.notifications (recipient_id, kind, person_id, occasion, title, link_path, created_at,
        email_status, email_attempts, email_last_error, email_sent_at, email_next_attempt_at)
      values
        (${id}::uuid, 'certificate-issued', ${id}::uuid, current_date - 3001, ${`Certificate issued ${suffix}`}, '/certificates',
          now() + interval '20 years' - interval '3 minutes', 'sent', 1, null, now() + interval '20 years' - interval '2 minutes', null),
        (${id}::uuid, 'training-overdue', ${id}::uuid, current_date - 3002, ${`Fire Safety is overdue ${suffix}`}, '/certificates',
          now() + interval '20 years' - interval '2 minutes', 'failed', 6, 'connect ECONNREFUSED 127.0.0.1:54325', null, null),
        (${id}::uuid, 'training-due-soon', ${id}::uuid, current_date - 3003, ${`Fire Safety is due in 3 days ${suffix}`}, '/certificates',
          now() + interval '20 years' - interval '1 minute', 'queued', 1, 'connect ECONNREFUSED 127.0.0.1:54325', null, now() + interval '1 minute')
      returning id, title`;
    failedId = rows.find((r) => r.title.startsWith('Fire Safety is overdue'))!.id;
    await sql`
      insert into public.notifications (recipient_id, kind, person_id, occasion, title, link_path, created_at, email_status, email_last_error)
      select ${id}::uuid, 'certificate-expiring', ${id}::uuid, current_date - 4000 - g, 'Older notice ' || g, '/certificates',
             now() + interval '20 years' - interval '1 day' - make_interval(mins => g), 'skipped', 'Not sent: the recipient switched this email off'
      from generate_series(1, 30) g`;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await uiLogin(page, 'admin', 'password123');
  });
  afterAll(async () => {
    await browser?.close();
    if (learnerId && sql) await sql`delete from public.notifications where recipient_id = ${learnerId}::uuid`;
    await sql?.end();
  });

  it('lists the emails with status, attempts, last error and en-GB dates, accessibly at both widths', async () => {
    await page.goto(`${baseUrl}/admin?tab=delivery`);
    await page.getByRole('tab', { name: 'Delivery', selected: true }).waitFor();
    const table = page.getByRole('table', { name: 'Notification emails' });
    const failedRow = table.getByRole('row').filter({ hasText: `Fire Safety is overdue ${suffix}` });
    await failedRow.waitFor();
    await expect.poll(() => failedRow.textContent()).toContain('6 attempts');
    expect(await failedRow.textContent()).toContain('connect ECONNREFUSED 127.0.0.1:54325');
    expect(await failedRow.textContent()).toMatch(/\d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2}/);
    const queuedRow = table.getByRole('row').filter({ hasText: `Fire Safety is due in 3 days ${suffix}` });
    expect(await queuedRow.textContent()).toContain('Next try');
    expect(await queuedRow.getByRole('button').count()).toBe(0);
    await table.getByRole('row').filter({ hasText: `Certificate issued ${suffix}` }).getByRole('button', { name: /^Send again to/ }).waitFor();
    await screenshot(page, 'delivery-tab-1366');
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'delivery-tab-390');
    await expectAccessible(page);
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('pages through older emails', async () => {
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await page.getByRole('table', { name: 'Notification emails' }).getByText('Older notice', { exact: false }).first().waitFor();
    await page.getByRole('button', { name: 'Page 1', exact: true }).click();
    await page.getByRole('table', { name: 'Notification emails' }).getByText(`Fire Safety is overdue ${suffix}`).waitFor();
  });

  it('filters failed emails and sends one again from the keyboard, keeping the focus', async () => {
    await choose('Status', 'Failed');
    const table = page.getByRole('table', { name: 'Notification emails' });
    await expect.poll(() => table.locator('tbody tr[data-delivery-status]:not([data-delivery-status="failed"])').count()).toBe(0);
    const button = table.getByRole('button', { name: `Send again to ${learner.name}: Fire Safety is overdue ${suffix}` });
    await button.focus();
    await page.keyboard.press('Enter');
    const queued = table.getByRole('button', { name: `Queued to send again to ${learner.name}: Fire Safety is overdue ${suffix}` });
    await queued.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      `Queued to send again to ${learner.name}: Fire Safety is overdue ${suffix}`);
    // A second press does nothing more.
    await page.keyboard.press('Enter');
    const [row] = await sql<{ email_status: string; email_attempts: number; email_resends: number }[]>`
      select email_status, email_attempts, email_resends from public.notifications where id = ${failedId}::uuid`;
    expect({ ...row }).toEqual({ email_status: 'queued', email_attempts: 0, email_resends: 1 });
    await expectAccessible(page);
  });
});
