// The course pickers search the server as the admin types, so a course beyond the first page can be
// chosen. A national platform has about 10,000 courses; the pickers used to offer only the newest
// 100. Here 25 published courses are added, the oldest well before every other, and the admin finds
// that oldest one in the required-training form by typing its title. axe on the open picker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiLogin, uiLogin } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';

describe('course picker', () => {
  let browser: Browser;
  let sql: postgres.Sql;
  let page: Page;
  const suffix = Date.now().toString(36);
  const title = (n: number) => `Picker course ${suffix} ${String(n).padStart(2, '0')}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    const admin = await apiLogin('admin');
    // Course 01 is the oldest course on the platform; 02 to 25 are the newest.
    await sql`
      insert into public.courses (title, description, service, author_id, status, created_at)
      select ${`Picker course ${suffix} `} || lpad(n::text, 2, '0'), 'A course for the picker test.', 'MISC',
             ${admin.userId}::uuid, 'ACTIVE',
             case when n = 1 then timestamptz '2001-01-01' else now() + make_interval(secs => n) end
      from generate_series(1, 25) n`;
    page = await (await browser.newContext()).newPage();
    await uiLogin(page, 'admin', 'password123');
  });
  afterAll(async () => {
    if (sql) {
      await sql`select private.erase_course(id) from public.courses where title like ${`Picker course ${suffix} %`}`;
      await sql.end({ timeout: 5 });
    }
    await browser?.close();
  });

  it('offers one page of courses, and finds the oldest by its title', async () => {
    await page.goto(`${baseUrl}/admin?tab=required`);
    await page.getByRole('heading', { name: 'Add required training' }).waitFor();
    const picker = page.getByRole('combobox', { name: 'Course', exact: true });
    await picker.click();
    await page.getByRole('option', { name: title(25) }).waitFor();
    const first = await page.getByRole('option').allInnerTexts();
    expect(first.length).toBeLessThanOrEqual(20);
    expect(first).not.toContain(title(1));

    await picker.fill(title(1));
    await expect.poll(() => page.getByRole('option').allInnerTexts()).toEqual([title(1)]);
    await expectAccessible(page);
    await screenshot(page, 'course-picker-search');
    await page.getByRole('option', { name: title(1) }).click();
    await expect.poll(() => picker.inputValue()).toBe(title(1));
  });
});
