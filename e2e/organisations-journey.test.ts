// Organisations, units and line managers as one journey in a real browser against the real platform: the national
// administrator creates an organisation with three levels of units (area → station → watch) in the
// Organisations tab and imports 52 rows of people with organisation, unit and manager columns (the
// two bad rows are reported, the 50 others imported); the organisation's administrator, signing in
// with the temporary password the import gave, sees only the organisation's people in Users and
// makes a course required for the station; one report's training is then overdue and their manager
// sees it on My team and exports it as CSV; a learner of another organisation is invisible to both.
// Only what no screen offers is set up through the API or the database: the course, the other
// organisation and its learner, and moving time so that a due date has passed. axe and the
// contrast check on each screen no other file checks in the same state (My team at 390 px and a
// record outside the team are e2e/my-team.test.ts's).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import type { Browser, Download, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin, uiLoginWithTemporaryPassword, removeCourse } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`.slice(-8).toLowerCase();
const organisation = { name: `Westshire Fire and Rescue ${suffix}`, code: `W${suffix}`.toUpperCase() };
const other = { name: `Othershire Fire ${suffix}`, code: `O${suffix}`.toUpperCase() };
const courseTitle = `Breathing Apparatus Refresher ${suffix}`;
const GOOD = 50;
const STATION_PATH = 'North Area/Central Station';
const WATCH_PATH = 'North Area/Central Station/Red Watch';

const orgAdmin = { username: `wadmin_${suffix}`, name: `Wren Administrator ${suffix}` };
const boss = { username: `wboss_${suffix}`, name: `Morgan Manager ${suffix}` };
/** The report whose training falls overdue. */
const late = { username: `wcrew3_${suffix}`, name: `Crew Member 3 ${suffix}` };
const outsider = { username: `outsider_${suffix}`, name: `Pat Outsider ${suffix}`, id: '' };

/** The file: the organisation's administrator, a manager in the station, 48 people reporting to them in the station and its watch, and two bad rows. */
function peopleCsv(): string {
  const lines = ['username,email,name,role,services,organisation,unit,manager'];
  lines.push(`${orgAdmin.username},${orgAdmin.username}@fire.example.uk,${orgAdmin.name},ADMIN,UKFRS,${organisation.code},,`);
  lines.push(`${boss.username},${boss.username}@fire.example.uk,${boss.name},,UKFRS,${organisation.code},${STATION_PATH},`);
  for (let i = 1; i <= GOOD - 2; i += 1) {
    const unit = i % 2 === 0 ? STATION_PATH : WATCH_PATH;
    lines.push(`wcrew${i}_${suffix},wcrew${i}.${suffix}@fire.example.uk,Crew Member ${i} ${suffix},,UKFRS,${organisation.code},${unit},${boss.username}`);
  }
  lines.push(`wbadunit_${suffix},wbadunit.${suffix}@fire.example.uk,Bad Unit ${suffix},,UKFRS,${organisation.code},North Area/Nowhere Station,${boss.username}`);
  lines.push(`wbadboss_${suffix},wbadboss.${suffix}@fire.example.uk,Bad Manager ${suffix},,UKFRS,${organisation.code},${STATION_PATH},nobody_${suffix}`);
  return `${lines.join('\r\n')}\r\n`;
}

async function downloadText(download: Download): Promise<string> {
  return fs.readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
}

/** The unit's item in the Organisations tab's tree. */
const unitItem = (page: Page, name: string) => page.locator(`li[data-unit-name="${name}"]`);

async function addUnit(page: Page, parent: string | null, name: string) {
  if (parent) {
    await page.getByRole('button', { name: `Actions for ${parent}`, exact: true }).click();
    await page.getByRole('menuitem', { name: 'Add a unit under it' }).click();
  } else {
    await page.getByRole('button', { name: 'Add unit', exact: true }).click();
  }
  const dialog = page.getByRole('dialog', { name: parent ? `Add a unit under ${parent}` : 'Add a top-level unit' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Add unit' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await unitItem(page, name).waitFor();
}

describe('organisations, units and line managers: from a new organisation to a manager seeing overdue training', () => {
  let browser: Browser;
  let sql: postgres.Sql;
  let adminToken: string;
  let admin: Page;
  let courseId = '';
  const organisationIds: string[] = [];
  const passwords = new Map<string, string>();
  let managerPassword = '';
  let orgAdminPassword = '';

  const newPage = async (width = 1366): Promise<Page> =>
    (await browser.newContext({ acceptDownloads: true, viewport: { width, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/London' })).newPage();

  beforeAll(async () => {
    browser = await launchBrowser();
    sql = postgres(dbUrl, { max: 1, onnotice: () => {}, prepare: false });
    adminToken = (await apiLogin('admin')).token;
    // The course to require (authoring is another journey).
    const course = await apiCall('POST', '/courses', adminToken, {
      title: courseTitle,
      description: 'Wearing and checking breathing apparatus, refreshed every year.',
      service: 'UKFRS',
      status: 'ACTIVE',
    });
    expect(course.status, course.text).toBe(201);
    courseId = course.json.id;
    // Another organisation with a learner in a station of the same name, same service.
    const created = await apiCall('POST', '/organisations', adminToken, { ...other, service: 'UKFRS' });
    expect(created.status, created.text).toBe(201);
    organisationIds.push(created.json.id);
    const unit = await apiCall('POST', `/organisations/${created.json.id}/units`, adminToken, { name: 'Central Station' });
    expect(unit.status, unit.text).toBe(201);
    const password = `pw-${suffix}-Secret!9`;
    const registered = await apiCall('POST', '/register', undefined, {
      username: outsider.username, email: `${outsider.username}@example.test`, name: outsider.name, password, confirmPassword: password,
    });
    expect(registered.status, registered.text).toBe(201);
    outsider.id = registered.json.user.id;
    const placed = await apiCall('PUT', `/users/${outsider.id}`, adminToken, { services: ['UKFRS'], organisationId: created.json.id, unitId: unit.json.id });
    expect(placed.status, placed.text).toBe(200);
  });

  afterAll(async () => {
    if (sql) {
      if (courseId) {
        await sql`delete from public.required_training where course_id = ${courseId}`;
        await removeCourse(courseId, adminToken);
      }
      const [mine] = await sql<{ id: string }[]>`select id from public.organisations where code = ${organisation.code}`;
      if (mine) organisationIds.push(mine.id);
      if (organisationIds.length > 0) {
        await sql`delete from auth.users where id in (select id from public.profiles where organisation_id in ${sql(organisationIds)})`;
        for (let round = 0; round < 4; round++) {
          await sql`delete from public.units u where u.organisation_id in ${sql(organisationIds)}
                    and not exists (select 1 from public.units c where c.parent_id = u.id)`;
        }
        await sql`delete from public.organisations where id in ${sql(organisationIds)}`;
      }
      await sql.end();
    }
    await browser?.close();
  });

  it('the national administrator creates the organisation with an area, a station and a watch', async () => {
    admin = await newPage();
    await uiLogin(admin, 'admin', 'password123', '/admin?tab=organisation');
    await admin.getByRole('heading', { name: 'Organisations' }).waitFor();
    await admin.getByRole('button', { name: 'Add organisation' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Add organisation' });
    await dialog.getByLabel('Name').fill(organisation.name);
    await dialog.getByLabel('Code').fill(organisation.code);
    await dialog.getByRole('combobox', { name: 'Service' }).click();
    await admin.getByRole('option', { name: 'United Kingdom Fire Rescue Service' }).click();
    await dialog.getByRole('button', { name: 'Add organisation' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await admin.getByRole('heading', { name: new RegExp(organisation.name) }).waitFor();
    await admin.getByText('No units yet').waitFor();

    await addUnit(admin, null, 'North Area');
    await addUnit(admin, 'North Area', 'Central Station');
    await addUnit(admin, 'Central Station', 'Red Watch');
    const underStation = unitItem(admin, 'North Area').getByRole('list', { name: 'Units under Central Station' });
    await underStation.getByText('Red Watch').waitFor();
    expect(await unitItem(admin, 'Red Watch').getAttribute('data-level')).toBe('3');
    await screenshot(admin, 'journey-organisation-tree');
  });

  it('imports 52 rows with organisation, unit and manager: the two bad rows reported, the 50 imported', async () => {
    await admin.goto(`${baseUrl}/admin`);
    await admin.getByRole('table', { name: 'Users' }).waitFor();
    await admin.getByRole('link', { name: 'Import users' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Import users' }).waitFor();
    const chooser = admin.waitForEvent('filechooser');
    await admin.getByRole('button', { name: /CSV file/ }).click();
    await (await chooser).setFiles({ name: 'westshire-people.csv', mimeType: 'text/csv', buffer: Buffer.from(peopleCsv()) });

    await admin.getByTestId('import-summary').filter({ hasText: '52 rows: 50 ready to import, 2 with problems' }).waitFor({ timeout: 60_000 });
    const table = admin.getByRole('table', { name: 'Rows of the file' });
    await table.locator('tr[data-line="52"]').getByText('The organisation has no unit "North Area/Nowhere Station"').waitFor();
    await table.locator('tr[data-line="53"]').getByText(`has the username or email "nobody_${suffix}"`, { exact: false }).waitFor();
    await expectAccessible(admin);
    await screenshot(admin, 'journey-import-preview');

    await admin.getByRole('button', { name: `Import ${GOOD} users` }).click();
    await admin.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    await admin.getByTestId('import-outcome').filter({ hasText: `${GOOD} users created, 2 skipped.` }).waitFor();
    const skipped = admin.getByRole('table', { name: 'Rows skipped' });
    await skipped.locator('tr[data-skipped="52"]').waitFor();
    await skipped.locator('tr[data-skipped="53"]').waitFor();

    const download = admin.waitForEvent('download');
    await admin.getByRole('button', { name: 'Download passwords (CSV)' }).click();
    const lines = (await downloadText(await download)).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('username,email,name,temporary_password');
    expect(lines).toHaveLength(GOOD + 1);
    for (const line of lines.slice(1)) passwords.set(line.split(',')[0], line.split(',').at(-1)!);
    expect(passwords.has(orgAdmin.username) && passwords.has(boss.username) && passwords.has(late.username)).toBe(true);

    // Placed as the file said (checked on the server).
    const placed = await apiCall('GET', `/users?search=wcrew3_${suffix}`, adminToken);
    const row = placed.json.items.find((u: { username: string }) => u.username === late.username);
    expect([row.organisationName, row.unitName, row.managerName]).toEqual([organisation.name, 'Red Watch', boss.name]);
    await admin.context().close();
  });

  it('the organisation\'s administrator sees only its people and requires the course for the station', async () => {
    const page = await newPage();
    if (orgAdminPassword) await uiLogin(page, orgAdmin.username, orgAdminPassword);
    else orgAdminPassword = await uiLoginWithTemporaryPassword(page, orgAdmin.username, passwords.get(orgAdmin.username)!);
    await page.goto(`${baseUrl}/admin`);
    const users = page.getByRole('table', { name: 'Users' });
    await users.waitFor();
    // Exactly the fifty imported; the other organisation's learner is not among them.
    await page.getByText(`${GOOD} users`, { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'journey-orgadmin-users');
    await page.getByLabel('Search users').fill(outsider.username);
    await page.getByText('No users found').waitFor();
    expect(await page.getByText(outsider.name).count()).toBe(0);
    await page.getByLabel('Search users').fill('Outsider');
    await page.getByText('No users found').waitFor();
    await page.getByLabel('Search users').fill(late.username);
    await users.locator(`tr[data-user="${late.username}"]`).getByText('Red Watch').waitFor();

    await page.goto(`${baseUrl}/admin?tab=required`);
    await page.getByRole('heading', { name: 'Add required training' }).waitFor();
    await expect.poll(() => page.getByRole('textbox', { name: 'Organisation' }).or(page.getByRole('combobox', { name: 'Organisation' })).first().inputValue())
      .toBe(organisation.name);
    await page.getByRole('combobox', { name: 'Course', exact: true }).fill(courseTitle);
    await page.getByRole('option', { name: courseTitle }).click();
    await page.getByRole('combobox', { name: 'Unit', exact: true }).click();
    await page.getByRole('option', { name: 'North Area › Central Station', exact: true }).click();
    await page.getByLabel('Due within (days)').fill('30');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByText('Required training added').waitFor();
    await page.locator('tr', { hasText: courseTitle }).getByText(`Everyone at Central Station (${organisation.name}, with the units below it)`).waitFor();
    await screenshot(page, 'journey-orgadmin-rule');

    // The station and its watch are enrolled (49: the manager and the 48), the other organisation's station is not.
    const enrolled = await sql<{ username: string }[]>`
      select p.username from public.enrollments e join public.profiles p on p.id = e.user_id where e.course_id = ${courseId}`;
    const names = enrolled.map((r) => r.username);
    expect(names).toHaveLength(GOOD - 1);
    expect(names).toContain(late.username);
    expect(names).not.toContain(outsider.username);
    expect(names).not.toContain(orgAdmin.username);
    await page.context().close();
  });

  it('the manager sees the overdue training of one report on My team and exports it; the outsider is not there', async () => {
    // Time moves on for one report (nothing in the product changes dates): enrolled 60 days ago, due within 30.
    await sql`update public.required_training set created_at = now() - interval '60 days' where course_id = ${courseId}`;
    await sql`update public.profiles set created_at = now() - interval '60 days' where username = ${late.username}`;
    await sql`update public.enrollments set created_at = now() - interval '60 days', started_at = now() - interval '60 days'
              where course_id = ${courseId} and user_id = (select id from public.profiles where username = ${late.username})`;

    const page = await newPage();
    // (A retry of this step signs in with the password chosen the first time.)
    if (managerPassword) await uiLogin(page, boss.username, managerPassword);
    else managerPassword = await uiLoginWithTemporaryPassword(page, boss.username, passwords.get(boss.username)!);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'My team' }).click();
    await page.waitForURL(`${baseUrl}/team`);
    await page.getByRole('heading', { name: 'My team', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Your team by unit' });
    await table.waitFor();
    await expect.poll(() => page.getByTestId('team-figure-people').textContent(), { timeout: 30_000 }).toBe(String(GOOD - 2));
    await expect.poll(() => page.getByTestId('team-figure-overdue').textContent()).toBe('1');
    // By unit, 20 a page: the station's people first.
    await table.getByRole('columnheader', { name: 'Central Station' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'journey-my-team');

    // The other organisation's learner is not found by the team's search either.
    await page.getByRole('textbox', { name: 'Search' }).fill('Outsider');
    await page.getByText('No one in your team matches these filters.').waitFor();
    expect(await page.getByText(outsider.name).count()).toBe(0);
    await page.getByRole('textbox', { name: 'Search' }).fill('');

    // Only the overdue: the one report whose due date has passed.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Overdue' }).click();
    await expect.poll(() => table.locator('tbody tr[data-user]').count(), { timeout: 30_000 }).toBe(1);
    await table.getByRole('columnheader', { name: 'Red Watch' }).waitFor();
    await table.locator('tr', { hasText: late.name }).getByText('Overdue').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^my-team-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await downloadText(download)).trim().split('\r\n');
    expect(lines[0]).toBe('Name,Username,Unit,Direct report,Overdue,Due soon,In progress,Done,Certificates expiring (60 days),Next expiry,Last activity,'
      + 'Sessions booked,Next session,Next session status,Practicals due,Next practical due,Practicals overdue,Practicals overdue since,'
      + 'Practicals awaiting sign-off');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${late.name},${late.username},Red Watch,Yes,1,0,0,0,0,,`));
    await page.context().close();
  });
});
