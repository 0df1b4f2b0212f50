// The user dialog's organisation, unit and line manager in a real browser: a national administrator opens a person
// of an organisation, chooses their unit (shown by its path) and finds their line manager by typing
// part of the name, from the keyboard; the person is placed, the Users list shows it, and the page
// passes axe and the contrast check. The organisation, its units and the people are removed after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;

describe('user dialog: organisation, unit and manager', () => {
  let browser: Browser;
  let page: Page;
  let sql: postgres.Sql;
  let organisation = '';
  let station = '';
  const manager = { username: `pl_m_${suffix}`, name: `Morgan Manager ${suffix}`, id: '' };
  const person = { username: `pl_p_${suffix}`, name: `Parker Person ${suffix}`, id: '' };

  beforeAll(async () => {
    sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    const [org] = await sql<{ id: string }[]>`
      insert into public.organisations (name, code, service) values (${`Placeshire Police ${suffix}`}, ${`PL${suffix}`.slice(0, 16).toUpperCase()}, 'UKPS')
      returning id`;
    organisation = org.id;
    const [area] = await sql<{ id: string }[]>`insert into public.units (organisation_id, name) values (${organisation}, 'North Area') returning id`;
    const [unit] = await sql<{ id: string }[]>`
      insert into public.units (organisation_id, parent_id, name) values (${organisation}, ${area.id}, 'Central Station') returning id`;
    station = unit.id;
    for (const p of [manager, person]) {
      const password = `pw-${suffix}-secret`;
      const answer = await apiCall('POST', '/register', undefined, {
        username: p.username, email: `${p.username}@example.test`, name: p.name, password, confirmPassword: password,
      });
      expect(answer.status, answer.text).toBe(201);
      p.id = answer.json.user.id;
    }
    await sql`update public.profiles set organisation_id = ${organisation} where id in (${manager.id}, ${person.id})`;
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    if (sql) {
      await sql`delete from auth.users where id in (${manager.id || null}::uuid, ${person.id || null}::uuid)`;
      await sql`delete from public.units where organisation_id = ${organisation || null}::uuid and parent_id is not null`;
      await sql`delete from public.units where organisation_id = ${organisation || null}::uuid`;
      await sql`delete from public.organisations where id = ${organisation || null}::uuid`;
      await sql.end();
    }
  });

  it('places a person in a unit under a manager from the Edit User dialog', async () => {
    await uiLogin(page, 'admin', 'password123', '/admin');
    await page.getByLabel('Search users').fill(person.username);
    const row = page.locator(`tr[data-user="${person.username}"]`);
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Users"] tbody tr').length === 1);
    await row.waitFor();
    await row.getByText(`Placeshire Police ${suffix}`).waitFor();
    await row.getByRole('button', { name: `Edit ${person.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await dialog.waitFor();

    // The unit, by its path, from the keyboard.
    const unit = dialog.getByLabel('Unit', { exact: true }).and(page.locator('input'));
    await unit.focus();
    await page.keyboard.type('Central');
    await page.getByRole('option', { name: 'North Area / Central Station' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await unit.inputValue()).toBe('North Area / Central Station');

    // The manager, found on the server by part of their name.
    const managerInput = dialog.getByLabel('Manager', { exact: true }).and(page.locator('input'));
    await managerInput.focus();
    await page.keyboard.type('Morgan');
    await page.getByRole('option', { name: `${manager.name} (@${manager.username})` }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await managerInput.inputValue()).toBe(`${manager.name} (@${manager.username})`);
    await expectAccessible(page);
    await screenshot(page, 'admin-user-placement');

    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByText('Central Station').waitFor();
    await row.getByText(manager.name).waitFor();
    const token = (await apiLogin('admin')).token;
    const found = await apiCall('GET', `/users?search=${person.username}`, token);
    const placed = found.json.items.find((u: { id: string }) => u.id === person.id);
    expect([placed.unitId, placed.managerId, placed.unitName, placed.managerName]).toEqual([station, manager.id, 'Central Station', manager.name]);
  });
});
