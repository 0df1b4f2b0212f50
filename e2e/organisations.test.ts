// The Organisations tab in a real browser against the real platform, at 1366 px and at a
// phone's 390 px: the national administrator creates an organisation (a code already in use is
// refused under its field), adds three levels of units, renames one and moves it (the focus stays on
// it; a clashing name is refused with the server's message), gives it a SCIM token with which a person
// is provisioned into a unit, then revokes it, with axe and the contrast check on each screen. The
// organisation made here has its own code; its units are its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot } from './browser';
import { uiLogin } from './api';

const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`.slice(-8).toUpperCase();
const organisation = { name: `Eastshire Police ${suffix}`, code: `E${suffix}` };

/** The unit's item in the tree (its name, its people, its actions and the list of its sub-units). */
const unitItem = (page: Page, name: string) => page.locator(`li[data-unit-name="${name}"]`);

async function unitAction(page: Page, unit: string, action: 'Add a unit under it' | 'Rename' | 'Move') {
  await page.getByRole('button', { name: `Actions for ${unit}`, exact: true }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

async function addUnit(page: Page, parent: string | null, name: string) {
  if (parent) await unitAction(page, parent, 'Add a unit under it');
  else await page.getByRole('button', { name: 'Add unit', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: parent ? `Add a unit under ${parent}` : 'Add a top-level unit' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Add unit' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await unitItem(page, name).waitFor();
  // The focus is on the new unit's actions.
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Actions for ${name}`);
}

describe('organisations and their units end to end (1366 and 390 px)', () => {
  let browser: Browser;
  let desktop: Page;
  let phone: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    desktop = await (await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/London' })).newPage();
    phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-GB', timezoneId: 'Europe/London' })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the national administrator every organisation with its people', async () => {
    await uiLogin(desktop, 'admin', 'password123', '/admin?tab=organisation');
    await desktop.getByRole('tab', { name: 'Organisations', selected: true }).waitFor();
    await desktop.getByRole('heading', { name: 'Organisations' }).waitFor();
    await desktop.getByRole('button', { name: 'Add organisation' }).waitFor();
    await expectAccessible(desktop);
    await screenshot(desktop, 'organisations-list-1366');
  });

  it('creates an organisation, checked on the server, and opens it', async () => {
    await desktop.getByRole('button', { name: 'Add organisation' }).click();
    const dialog = desktop.getByRole('dialog', { name: 'Add organisation' });
    await dialog.getByRole('button', { name: 'Add organisation' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByLabel('Name').fill(organisation.name);
    await dialog.getByLabel('Code').fill(organisation.code);
    await dialog.getByRole('combobox', { name: 'Service' }).click();
    await desktop.getByRole('option', { name: 'United Kingdom Police Service' }).click();
    await expectAccessible(desktop);
    await screenshot(desktop, 'organisations-add-1366');
    await dialog.getByRole('button', { name: 'Add organisation' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await desktop.getByRole('heading', { name: new RegExp(organisation.name) }).waitFor();
    await desktop.getByText('No units yet').waitFor();

    // The same code again, whatever its case: the server's message under the Code field.
    await desktop.getByRole('button', { name: 'All organisations' }).click();
    const row = desktop.locator(`tr[data-organisation-code="${organisation.code}"]`);
    await row.waitFor();
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('0');
    await desktop.getByRole('button', { name: 'Add organisation' }).click();
    await dialog.getByLabel('Name').fill(`${organisation.name} again`);
    await dialog.getByLabel('Code').fill(organisation.code.toLowerCase());
    await dialog.getByRole('combobox', { name: 'Service' }).click();
    await desktop.getByRole('option', { name: 'United Kingdom Police Service' }).click();
    await dialog.getByRole('button', { name: 'Add organisation' }).click();
    await dialog.getByText('That code is already in use').waitFor();
    await expect.poll(() => dialog.getByLabel('Code').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByRole('button', { name: `View units of ${organisation.name}` }).click();
    await desktop.getByRole('heading', { name: new RegExp(organisation.name) }).waitFor();
    // The organisation opened is in the URL: a reload keeps it.
    await desktop.reload();
    await desktop.getByRole('heading', { name: new RegExp(organisation.name) }).waitFor();
    await desktop.getByText('No units yet').waitFor();
  });

  it('adds three levels of units, shown as a tree of nested lists', async () => {
    await addUnit(desktop, null, 'North Area');
    await addUnit(desktop, 'North Area', 'Central Station');
    await addUnit(desktop, 'Central Station', 'Red Watch');
    await addUnit(desktop, null, 'South Area');
    const tree = desktop.getByRole('list', { name: `Units of ${organisation.name}` });
    await expect.poll(() => tree.locator(':scope > li').evaluateAll((items) => items.map((li) => li.getAttribute('data-unit-name'))))
      .toEqual(['North Area', 'South Area']);
    const underCentral = unitItem(desktop, 'North Area').getByRole('list', { name: 'Units under Central Station' });
    await underCentral.getByText('Red Watch').waitFor();
    expect(await unitItem(desktop, 'Red Watch').getAttribute('data-level')).toBe('3');
    expect(await unitItem(desktop, 'Red Watch').getByText('0 people').count()).toBe(1);

    // A second "North Area" at the top level: refused by the server, its message under the field.
    await desktop.getByRole('button', { name: 'Add unit', exact: true }).click();
    const dialog = desktop.getByRole('dialog', { name: 'Add a top-level unit' });
    await dialog.getByLabel('Name').fill('north area');
    await dialog.getByRole('button', { name: 'Add unit' }).click();
    await dialog.getByText('A unit of that name is already there').waitFor();
    await expectAccessible(desktop);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => desktop.evaluate(() => document.activeElement?.textContent)).toBe('Add unit');
    await expectAccessible(desktop);
    await screenshot(desktop, 'organisations-tree-1366');
  });

  it('renames a unit and keeps the focus on it', async () => {
    await unitAction(desktop, 'Red Watch', 'Rename');
    const dialog = desktop.getByRole('dialog', { name: 'Rename Red Watch' });
    await dialog.getByLabel('New name').fill('Blue Watch');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await unitItem(desktop, 'Blue Watch').waitFor();
    expect(await unitItem(desktop, 'Red Watch').count()).toBe(0);
    await expect.poll(() => desktop.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Actions for Blue Watch');
  });

  it('moves a unit under another (never below itself) and to the top level', async () => {
    await unitAction(desktop, 'North Area', 'Move');
    let dialog = desktop.getByRole('dialog', { name: 'Move North Area' });
    await dialog.getByRole('combobox', { name: 'New parent unit' }).click();
    // Neither North Area itself nor anything below it is offered.
    await expect.poll(() => desktop.getByRole('option').allTextContents()).toEqual(['Top level (no parent unit)', 'South Area']);
    await desktop.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await unitAction(desktop, 'Blue Watch', 'Move');
    dialog = desktop.getByRole('dialog', { name: 'Move Blue Watch' });
    await dialog.getByRole('combobox', { name: 'New parent unit' }).click();
    await desktop.getByRole('option', { name: 'South Area', exact: true }).click();
    await expectAccessible(desktop);
    await screenshot(desktop, 'organisations-move-1366');
    await dialog.getByRole('button', { name: 'Move' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await unitItem(desktop, 'South Area').getByRole('list', { name: 'Units under South Area' }).getByText('Blue Watch').waitFor();
    expect(await unitItem(desktop, 'Central Station').locator('li').count()).toBe(0);
    await expect.poll(() => desktop.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Actions for Blue Watch');

    await unitAction(desktop, 'Blue Watch', 'Move');
    dialog = desktop.getByRole('dialog', { name: 'Move Blue Watch' });
    await dialog.getByRole('combobox', { name: 'New parent unit' }).click();
    await desktop.getByRole('option', { name: 'Top level (no parent unit)' }).click();
    await dialog.getByRole('button', { name: 'Move' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const tree = desktop.getByRole('list', { name: `Units of ${organisation.name}` });
    await expect.poll(() => tree.locator(':scope > li').evaluateAll((items) => items.map((li) => li.getAttribute('data-unit-name'))))
      .toEqual(['Blue Watch', 'North Area', 'South Area']);
  });

  it('gives the organisation a SCIM token, shown once, with which its identity provider adds a person, then revokes it', async () => {
    const panel = desktop.getByRole('region', { name: 'Automatic provisioning (SCIM)' });
    await panel.getByText('No tokens yet').waitFor();
    const baseUrl = await panel.getByLabel('SCIM base URL', { exact: true }).inputValue();
    expect(baseUrl).toMatch(/\/functions\/v1\/api\/scim\/v2$/);

    await panel.getByRole('button', { name: 'Create token' }).click();
    let dialog = desktop.getByRole('dialog', { name: 'Create a SCIM token' });
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await dialog.getByText('Give the token a label, such as "Microsoft Entra ID"').waitFor();
    await dialog.getByLabel('Label').fill('Entra ID provisioning');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    dialog = desktop.getByRole('dialog', { name: 'Copy the token now' });
    const token = await dialog.getByLabel('Token').inputValue();
    expect(token.length).toBeGreaterThanOrEqual(32);
    await expectAccessible(desktop);
    await screenshot(desktop, 'organisations-scim-token-1366');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The focus is on the new token's row; the token itself is on the page no more.
    await expect.poll(() => desktop.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Revoke Entra ID provisioning');
    const row = panel.locator('tr[data-token-label="Entra ID provisioning"]');
    expect(await row.textContent()).toContain(`…${token.slice(-4)}`);
    expect(await desktop.content()).not.toContain(token);

    // The identity provider creates a person with it, placed by their department.
    const scim = (method: string, path: string, body?: unknown, bearer = token) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/scim+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const userName = `r.okafor.${suffix.toLowerCase()}@eastshire.example`;
    const created = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: `ext-${suffix}`,
      userName,
      active: true,
      name: { givenName: 'Ruth', familyName: 'Okafor', formatted: 'Ruth Okafor' },
      emails: [{ primary: true, type: 'work', value: userName }],
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'North Area' },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    await desktop.reload();
    await expect.poll(() => unitItem(desktop, 'North Area').locator(':scope > div').first().textContent()).toContain('1 person');
    await expect.poll(() => row.getByRole('cell').nth(3).textContent()).not.toBe('Never');

    // Revoked: the focus goes back to Create token, the row says so, and the token no longer works.
    await row.getByRole('button', { name: 'Revoke Entra ID provisioning' }).click();
    const confirm = desktop.getByRole('dialog', { name: 'Are you sure?' });
    await confirm.getByRole('button', { name: 'Revoke token' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await row.getByText(/^Revoked /).waitFor();
    await expect.poll(() => desktop.evaluate(() => document.activeElement?.textContent)).toBe('Create token');
    const refused = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(refused.status).toBe(401);
    await expectAccessible(desktop);
    await screenshot(desktop, 'organisations-scim-revoked-1366');
  });

  it('at 390 px the list and the tree fit the screen, and a unit is renamed there too', async () => {
    await uiLogin(phone, 'admin', 'password123', '/admin?tab=organisation');
    await phone.getByRole('heading', { name: 'Organisations' }).waitFor();
    await expectAccessible(phone);
    await screenshot(phone, 'organisations-list-390');
    await phone.getByRole('button', { name: `View units of ${organisation.name}` }).click();
    const tree = phone.getByRole('list', { name: `Units of ${organisation.name}` });
    await tree.waitFor();
    const actions = phone.getByRole('button', { name: 'Actions for Central Station', exact: true });
    const box = await actions.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box)).toBe(true);
    await phone.getByRole('region', { name: 'Automatic provisioning (SCIM)' }).getByText('Entra ID provisioning').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(phone);
    await screenshot(phone, 'organisations-tree-390');

    await unitAction(phone, 'Central Station', 'Rename');
    const dialog = phone.getByRole('dialog', { name: 'Rename Central Station' });
    await dialog.getByLabel('New name').fill('Harbour Station');
    await expectAccessible(phone);
    await screenshot(phone, 'organisations-rename-390');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await unitItem(phone, 'Harbour Station').waitFor();
    await expect.poll(() => phone.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Actions for Harbour Station');
  });
});
