// Sign-in through an organisation's own identity provider, in a real browser against the real
// platform and its two local identity providers (platform/idp/: Northshire Police's Entra-shaped
// OpenID Connect provider, Southshire Ambulance's SAML 2.0 one). The national administrator gives
// each organisation its email domain in the Sign-in panel; each organisation's administrator sets
// up its provider (OpenID Connect with the tenant id; SAML with the metadata URL), maps unit,
// manager and employee number, runs a test sign-in at the provider (refused while testing, shown
// back in the panel with how the person would be placed: for SAML through Auth's refusal at the
// site URL, which the app passes on to the panel) and switches it on. New people then sign in from
// the sign-in page and land on their dashboard, created in their organisation, unit and with their
// manager; the force's learner can no longer sign in with a password while its administrator can;
// an unknown domain and a Cancel at the provider say so. axe and the contrast check on the panel
// with a test listed and on the sign-in page's organisation form, each at 1366 and 390 px.
// Set up through the API and the database: the organisations, their units and password people.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, signInThroughForm, uiLogin } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const idpUrl = process.env.IDP_URL ?? '';
const samlIdpUrl = process.env.SAML_IDP_URL ?? '';
const northshire = JSON.parse(fs.readFileSync(new URL('../platform/idp/northshire-police.json', import.meta.url), 'utf8')) as { tenantId: string; password: string };
const southshire = JSON.parse(fs.readFileSync(new URL('../platform/idp/southshire-ambulance.json', import.meta.url), 'utf8')) as { password: string };

const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`.slice(-8).toLowerCase();
const password = `pw-${suffix}-Secret!7`;
const force = { name: `Northshire Police ${suffix}`, code: `NP${suffix}`.toUpperCase().slice(0, 16), service: 'UKPS', domain: 'northshire.police.example', id: '' };
const trust = { name: `Southshire Ambulance ${suffix}`, code: `SA${suffix}`.toUpperCase().slice(0, 16), service: 'UKAS', domain: 'southshire-ambulance.example.uk', id: '' };
const FORCE_UNITS = ['Response Team 1', 'Response Team 2', 'Harbour Station'];
const TRUST_UNITS = ['Riverside Station', 'Blue Watch'];

/** Password people, made here. */
const people = {
  forceAdmin: { username: `npadmin_${suffix}`, name: `Nadia Admin ${suffix}`, email: `npadmin.${suffix}@example.test`, id: '' },
  trustAdmin: { username: `saadmin_${suffix}`, name: `Sol Admin ${suffix}`, email: `saadmin.${suffix}@example.test`, id: '' },
  // The manager Northshire's provider names for amira.khan.
  sergeant: { username: `npsergeant_${suffix}`, name: `Sgt Ravi Patel ${suffix}`, email: 'sergeant@northshire-police.example.uk', id: '' },
  learner: { username: `nplearner_${suffix}`, name: `Lee Learner ${suffix}`, email: `nplearner.${suffix}@example.test`, id: '' },
};
/** People of the providers, created by their first sign-in. */
const AMIRA = 'amira.khan@northshire.police.example';
const DANIEL = 'daniel.owusu@southshire-ambulance.example.uk';
const PRIYA = 'priya.sharma@southshire-ambulance.example.uk';
const PROVIDER_PEOPLE = [AMIRA, DANIEL, PRIYA];

const panelOf = (page: Page) => page.getByRole('region', { name: /Sign-in through your identity provider/ });
const toast = (page: Page, title: string) => page.locator('.mantine-Notification-root').filter({ hasText: title }).first();

/** The page has no horizontal scroll: no element reaches past the screen's right edge (named if one does). */
async function expectNoOverflow(page: Page) {
  const wider = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.body.querySelectorAll('*')]
      .filter((element) => element.getBoundingClientRect().right > width + 1 && !element.closest('[aria-hidden="true"]'))
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${(element.textContent ?? '').trim().slice(0, 40)}" right ${Math.round(element.getBoundingClientRect().right)}`)
      .slice(-8);
  });
  expect(wider, `horizontal overflow on ${page.url()}`).toEqual([]);
}

/** Resizes the page and waits for the layout's transitions (the navigation bar sliding away) to end. */
async function resize(page: Page, width: number, height: number) {
  await page.setViewportSize({ width, height });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
    .map((animation) => animation.finished.catch(() => undefined))));
}

/** Screenshots at 1366 px, then at 390 px (no horizontal overflow there, axe and contrast again), then back. */
async function screenshotsAtBothWidths(page: Page, name: string) {
  const viewport = page.viewportSize() ?? { width: 1366, height: 900 };
  await resize(page, 1366, 900);
  await screenshot(page, `${name}-1366`);
  await resize(page, 390, 844);
  await expectNoOverflow(page);
  await expectAccessible(page);
  await screenshot(page, `${name}-390`);
  await resize(page, viewport.width, viewport.height);
}

/** At Northshire's OpenID provider's sign-in page: signs in as `username`, or cancels. */
async function atOidcProvider(page: Page, username: string | null) {
  await page.waitForURL((url) => url.href.startsWith(new URL(idpUrl).origin));
  await page.getByRole('heading', { name: /Sign in/ }).waitFor();
  if (username === null) {
    await page.getByRole('button', { name: 'Cancel' }).click();
    return;
  }
  await page.getByLabel('Email or username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(northshire.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** At Southshire's SAML provider's sign-in page: signs in as `username` (its page then posts the Response to Auth). */
async function atSamlProvider(page: Page, username: string) {
  await page.waitForURL((url) => url.href.startsWith(new URL(samlIdpUrl).origin));
  await page.getByLabel('Email or username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(southshire.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** From the sign-in page, "Sign in with your organisation" with a work address. */
async function startOrganisationSignIn(page: Page, email: string) {
  await page.goto(`${baseUrl}/auth`);
  const form = page.getByRole('form', { name: 'Sign in with your organisation' });
  await form.getByLabel('Work email', { exact: true }).fill(email);
  await form.getByRole('button', { name: 'Continue to your organisation' }).click();
}

describe('sign-in through an organisation\'s identity provider (OpenID Connect and SAML), end to end', () => {
  let browser: Browser;
  let sql: postgres.Sql;
  let adminToken: string;
  /** One page per persona, each in a context of its own. */
  const pages: Record<string, Page> = {};

  const personaPage = async (name: string, width = 1366): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/London' });
    pages[name] = await context.newPage();
    return pages[name];
  };

  const profileOf = async (email: string) => {
    const [row] = await sql<{ id: string; organisation: string | null; unit: string | null; manager: string | null; employee_number: string | null; role: string; services: string[] }[]>`
      select p.id, o.name as organisation, u.name as unit, m.name as manager, p.employee_number, p.role::text as role, p.services::text[] as services
      from public.profiles p
      left join public.organisations o on o.id = p.organisation_id
      left join public.units u on u.id = p.unit_id
      left join public.profiles m on m.id = p.manager_id
      where lower(p.email) = ${email}`;
    return row;
  };

  const cleanUp = async () => {
    await sql`delete from auth.users where lower(email) in ${sql([...PROVIDER_PEOPLE, people.sergeant.email])}`;
    await sql`delete from public.organisation_domains where domain in ${sql([force.domain, trust.domain])}`;
  };

  beforeAll(async () => {
    if (!idpUrl || !samlIdpUrl) throw new Error('The platform runs no identity providers: scripts/test.mjs starts e2e platforms with OIDC_IDP=1 (IDP_URL, SAML_IDP_URL)');
    browser = await launchBrowser();
    sql = postgres(dbUrl, { max: 1, onnotice: () => {}, prepare: false });
    adminToken = (await apiLogin('admin')).token;
    await cleanUp();
    const units = new Map<string, string>();
    for (const [organisation, names] of [[force, FORCE_UNITS], [trust, TRUST_UNITS]] as const) {
      const created = await apiCall('POST', '/organisations', adminToken, { name: organisation.name, code: organisation.code, service: organisation.service });
      expect(created.status, created.text).toBe(201);
      organisation.id = created.json.id;
      for (const name of names) {
        const unit = await apiCall('POST', `/organisations/${organisation.id}/units`, adminToken, { name });
        expect(unit.status, unit.text).toBe(201);
        units.set(`${organisation.id}/${name}`, unit.json.id);
      }
    }
    const placement: Record<keyof typeof people, [string, string, string | null, string]> = {
      forceAdmin: ['ADMIN', force.id, null, 'UKPS'],
      trustAdmin: ['ADMIN', trust.id, null, 'UKAS'],
      sergeant: ['STUDENT', force.id, units.get(`${force.id}/Response Team 1`)!, 'UKPS'],
      learner: ['STUDENT', force.id, units.get(`${force.id}/Response Team 2`)!, 'UKPS'],
    };
    for (const [key, person] of Object.entries(people) as [keyof typeof people, (typeof people)[keyof typeof people]][]) {
      const answer = await apiCall('POST', '/register', undefined, {
        username: person.username, email: person.email, name: person.name, password, confirmPassword: password,
      });
      expect(answer.status, answer.text).toBe(201);
      person.id = answer.json.user.id;
      const [role, organisationId, unitId, service] = placement[key];
      await sql`update public.profiles set role = ${role}, services = ${`{${service}}`}, organisation_id = ${organisationId}, unit_id = ${unitId}
        where id = ${person.id}`;
    }
  });

  afterAll(async () => {
    await browser?.close();
    if (sql) {
      const ids = [force.id, trust.id].filter(Boolean);
      // The sign-in settings through the API, which also removes the SAML provider from Auth.
      for (const id of ids) await apiCall('DELETE', `/organisations/${id}/sign-in`, adminToken);
      await cleanUp();
      if (ids.length) {
        await sql`delete from auth.users where id in (select id from public.profiles where organisation_id in ${sql(ids)})`;
        await sql`delete from public.units where organisation_id in ${sql(ids)}`;
        await sql`delete from public.organisations where id in ${sql(ids)}`;
      }
      await sql.end();
    }
  });

  it('the national administrator gives each organisation its email domain in the Sign-in panel', async () => {
    const page = await personaPage('national');
    for (const organisation of [force, trust]) {
      await uiLogin(page, 'admin', 'password123', `/admin?tab=organisation&organisation=${organisation.id}`);
      const panel = panelOf(page);
      await panel.getByText('No email domains yet.').waitFor();
      await panel.getByLabel('Email domain', { exact: true }).fill(organisation.domain);
      await panel.getByRole('button', { name: 'Add domain' }).click();
      await panel.getByRole('list', { name: `Email domains of ${organisation.name}` }).getByText(organisation.domain).waitFor();
    }
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from public.organisation_domains where organisation_id in ${sql([force.id, trust.id])}`;
    expect(n).toBe(2);
  });

  it('the force\'s administrator sets up OpenID Connect, tests it as amira.khan at the provider and switches it on without passwords', async () => {
    const page = await personaPage('forceAdmin');
    await uiLogin(page, people.forceAdmin.username, password, '/admin?tab=organisation');
    const panel = panelOf(page);
    await panel.getByText('Not set up').waitFor();
    await panel.getByRole('radio', { name: 'OpenID Connect (Microsoft Entra ID)' }).check();
    await panel.getByLabel('Tenant id', { exact: true }).fill(northshire.tenantId);
    await panel.getByLabel('Unit (department)', { exact: true }).fill('department');
    await panel.getByLabel('Manager (their email or employee number)', { exact: true }).fill('manager');
    await panel.getByLabel('Employee number', { exact: true }).fill('employeeid');
    await panel.getByRole('checkbox', { name: 'UKPS' }).check();
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Sign-in settings saved').waitFor();

    await panel.getByRole('button', { name: 'Test sign-in' }).click();
    await atOidcProvider(page, 'amira.khan');
    // Back on the panel, with the refusal of a sign-in under test as its answer.
    await page.waitForURL((url) => url.pathname === '/admin');
    const answer = panel.locator('[tabindex="-1"]').filter({ hasText: 'Test sign-in finished' });
    await answer.waitFor();
    expect(await answer.textContent()).toContain(`${force.name}'s sign-in is being tested`);
    // The answer is taken out of the address.
    await expect.poll(() => new URL(page.url()).searchParams.has('error')).toBe(false);
    const test = panel.getByRole('list', { name: `Latest test sign-ins of ${force.name}` }).getByRole('listitem').first();
    await test.getByText('Passed', { exact: true }).waitFor();
    await test.getByText(AMIRA, { exact: true }).first().waitFor();
    const placed = test.getByRole('definition');
    expect(await placed.allTextContents()).toEqual(expect.arrayContaining(['PC Amira Khan', 'Response Team 1', people.sergeant.name, 'NP4471', 'UKPS']));
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'organisation-sign-in-panel-oidc-tested');

    await panel.getByRole('switch', { name: 'Sign our people in through the identity provider' }).click();
    await toast(page, 'Sign-in switched on').waitFor();
    await expect.poll(() => panel.getByRole('switch', { name: 'Sign our people in through the identity provider' }).isChecked()).toBe(true);
    await panel.getByRole('checkbox', { name: 'Allow password sign-in for our people' }).click();
    await toast(page, 'Password sign-in changed').waitFor();
    await expect.poll(() => panel.getByRole('checkbox', { name: 'Allow password sign-in for our people' }).isChecked()).toBe(false);
    const [settings] = await sql<{ enabled: boolean; password_sign_in: boolean }[]>`
      select enabled, password_sign_in from public.organisation_sign_in where organisation_id = ${force.id}`;
    expect(settings).toEqual({ enabled: true, password_sign_in: false });
  });

  it('the trust\'s administrator sets up SAML from the metadata URL, tests it as daniel.owusu (back through the home page) and switches it on', async () => {
    const page = await personaPage('trustAdmin');
    await uiLogin(page, people.trustAdmin.username, password, '/admin?tab=organisation');
    const panel = panelOf(page);
    await panel.getByText('Not set up').waitFor();
    await panel.getByRole('radio', { name: 'SAML 2.0' }).check();
    await panel.getByLabel('Metadata URL', { exact: true }).fill(`${samlIdpUrl}/metadata`);
    await panel.getByLabel('Unit (department)', { exact: true }).fill('department');
    await panel.getByLabel('Manager (their email or employee number)', { exact: true }).fill('manager');
    await panel.getByLabel('Employee number', { exact: true }).fill('employeeid');
    await panel.getByRole('checkbox', { name: 'UKAS' }).check();
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Sign-in settings saved').waitFor();

    await panel.getByRole('button', { name: 'Test sign-in' }).click();
    await atSamlProvider(page, 'daniel.owusu');
    // Auth refuses at its ACS and sends the browser to the site URL; the app passes it back here.
    await page.waitForURL((url) => url.pathname === '/admin');
    const answer = panel.locator('[tabindex="-1"]').filter({ hasText: 'Test sign-in finished' });
    await answer.waitFor();
    expect(await answer.textContent()).toContain(`${trust.name}'s sign-in is being tested`);
    await expect.poll(() => new URL(page.url()).searchParams.has('error')).toBe(false);
    const test = panel.getByRole('list', { name: `Latest test sign-ins of ${trust.name}` }).getByRole('listitem').first();
    await test.getByText('Passed', { exact: true }).waitFor();
    await test.getByText(DANIEL, { exact: true }).first().waitFor();
    expect(await test.getByRole('definition').allTextContents()).toEqual(expect.arrayContaining(['Daniel Owusu', 'Riverside Station', 'SAS10052', 'UKAS']));
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'organisation-sign-in-panel-saml-tested');

    await panel.getByRole('switch', { name: 'Sign our people in through the identity provider' }).click();
    await toast(page, 'Sign-in switched on').waitFor();
    await expect.poll(() => panel.getByRole('switch', { name: 'Sign our people in through the identity provider' }).isChecked()).toBe(true);
  });

  it('a new officer signs in with "Sign in with your organisation" and lands on their dashboard, placed in the force', async () => {
    const page = await personaPage('amira', 390);
    await startOrganisationSignIn(page, AMIRA);
    await atOidcProvider(page, 'amira.khan');
    await page.waitForURL(`${baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Welcome, PC Amira Khan' }).waitFor();
    expect(await profileOf(AMIRA)).toMatchObject({
      organisation: force.name, unit: 'Response Team 1', manager: people.sergeant.name, employee_number: 'NP4471', role: 'STUDENT', services: ['UKPS'],
    });
  });

  it('new paramedics sign in through SAML: the team leader first, then a paramedic who reports to them', async () => {
    const daniel = await personaPage('daniel');
    await startOrganisationSignIn(daniel, DANIEL);
    await atSamlProvider(daniel, 'daniel.owusu');
    await daniel.waitForURL(`${baseUrl}/dashboard`);
    await daniel.getByRole('heading', { name: 'Welcome, Daniel Owusu' }).waitFor();
    expect(await profileOf(DANIEL)).toMatchObject({ organisation: trust.name, unit: 'Riverside Station', manager: null, employee_number: 'SAS10052', services: ['UKAS'] });

    const priya = await personaPage('priya', 390);
    await startOrganisationSignIn(priya, PRIYA);
    await atSamlProvider(priya, 'priya.sharma');
    await priya.waitForURL(`${baseUrl}/dashboard`);
    await priya.getByRole('heading', { name: 'Welcome, Priya Sharma' }).waitFor();
    expect(await profileOf(PRIYA)).toMatchObject({ organisation: trust.name, unit: 'Riverside Station', manager: 'Daniel Owusu', employee_number: 'SAS20417' });
  });

  it('refuses the force\'s learner a password sign-in, saying why, while its administrator keeps theirs', async () => {
    const page = await personaPage('learner');
    await page.goto(`${baseUrl}/auth`);
    await page.getByLabel('Username', { exact: true }).fill(people.learner.username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    const refusal = page.getByRole('alert', { name: 'Login failed' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain(`${force.name} signs its people in through its own identity provider.`);
    expect(new URL(page.url()).pathname).toBe('/auth');

    const admin = await personaPage('forceAdminAgain');
    await signInThroughForm(admin, people.forceAdmin.username, password);
  });

  it('says so for an address no organisation signs in with, and for a Cancel at the provider', async () => {
    const page = await personaPage('visitor');
    await startOrganisationSignIn(page, 'someone@unknown-force.example');
    const form = page.getByRole('form', { name: 'Sign in with your organisation' });
    await form.getByText('No organisation signs in with addresses at unknown-force.example here').waitFor();
    await expect.poll(() => form.getByLabel('Work email', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'organisation-sign-in-unknown-domain');

    await startOrganisationSignIn(page, 'tom.hughes@northshire.police.example');
    await atOidcProvider(page, null);
    await page.waitForURL(`${baseUrl}/auth`);
    const problem = page.getByRole('alert').filter({ hasText: 'You are not signed in' });
    await problem.waitFor();
    expect(await problem.textContent()).toContain('Sign-in was cancelled.');
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'organisation-sign-in-cancelled');
    // Nobody was created.
    expect(await profileOf('tom.hughes@northshire.police.example')).toBeUndefined();
  });
});
