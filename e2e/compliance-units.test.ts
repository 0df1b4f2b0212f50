// Compliance by unit in a real browser: an organisation's administrator makes a course
// required for one station of their organisation in the Required training tab (the Unit select;
// their organisation fixed); the people of that station and of its watch are enrolled, the other
// station's are not; on the Compliance page the administrator sees the breakdown by unit with the
// share compliant, opens the area, then lists the station's people. The organisation, its units
// and people are set up straight in the database, as the national administrator's screens for them
// are another part of the issue. axe and the contrast check on every screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin, removeCourse } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';

describe('compliance by unit: an organisation administrator requires a course for one station', () => {
  let browser: Browser;
  let sql: postgres.Sql;
  let adminToken: string;
  const suffix = Date.now().toString(36);
  const courseTitle = `Station Fire Safety ${suffix}`;
  const organisationName = `Unitshire Police ${suffix}`;
  let courseId = '';
  let organisationId = '';
  const units = { area: '', station: '', watch: '', harbour: '' };
  const password = `pw-${suffix}-Secret!7`;
  const people = {
    orgAdmin: { username: `unitadmin_${suffix}`, name: `Una Admin ${suffix}`, id: '' },
    atStation: { username: `atstation_${suffix}`, name: `Sam Station ${suffix}`, id: '' },
    inWatch: { username: `inwatch_${suffix}`, name: `Wes Watch ${suffix}`, id: '' },
    atHarbour: { username: `atharbour_${suffix}`, name: `Hal Harbour ${suffix}`, id: '' },
  };

  async function newPage(username: string, path = '/'): Promise<Page> {
    const context = await browser.newContext();
    const page = await context.newPage();
    await uiLogin(page, username, password, path);
    return page;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    sql = postgres(dbUrl, { max: 1, onnotice: () => {}, prepare: false });
    adminToken = (await apiLogin('admin')).token;
    const course = await apiCall('POST', '/courses', adminToken, {
      title: courseTitle,
      description: 'Fire safety at the station, for everyone who works there.',
      service: 'UKPS',
      status: 'ACTIVE',
    });
    expect(course.status).toBe(201);
    courseId = course.json.id;
    const [org] = await sql<{ id: string }[]>`
      insert into public.organisations (name, code, service) values (${organisationName}, ${`U${suffix}`.slice(0, 16)}, 'UKPS') returning id`;
    organisationId = org.id;
    const unit = async (name: string, parent: string | null) =>
      (await sql<{ id: string }[]>`insert into public.units (organisation_id, parent_id, name) values (${organisationId}, ${parent}, ${name}) returning id`)[0].id;
    units.area = await unit('North Area', null);
    units.station = await unit('Central Station', units.area);
    units.watch = await unit('Red Watch', units.station);
    units.harbour = await unit('Harbour Station', units.area);
    const placement: Record<keyof typeof people, [string, string | null]> = {
      orgAdmin: ['ADMIN', null], atStation: ['STUDENT', units.station], inWatch: ['STUDENT', units.watch], atHarbour: ['STUDENT', units.harbour],
    };
    for (const [key, person] of Object.entries(people) as [keyof typeof people, (typeof people)[keyof typeof people]][]) {
      const answer = await apiCall('POST', '/register', undefined, {
        username: person.username, email: `${person.username}@example.test`, name: person.name, password, confirmPassword: password,
      });
      expect(answer.status).toBe(201);
      person.id = answer.json.user.id;
      const [role, unitId] = placement[key];
      await sql`update public.profiles set role = ${role}, services = '{UKPS}', organisation_id = ${organisationId}, unit_id = ${unitId}
        where id = ${person.id}`;
    }
  });

  afterAll(async () => {
    if (sql) {
      if (courseId) await sql`delete from public.required_training where course_id = ${courseId}`;
      const ids = Object.values(people).map((p) => p.id).filter(Boolean);
      if (ids.length) await sql`update public.profiles set organisation_id = null, unit_id = null, role = 'STUDENT' where id in ${sql(ids)}`;
      if (organisationId) {
        await sql`delete from public.units where organisation_id = ${organisationId}`;
        await sql`delete from public.organisations where id = ${organisationId}`;
      }
    }
    if (courseId) await removeCourse(courseId, adminToken);
    await sql?.end();
    await browser?.close();
  });

  it('the organisation administrator makes the course required for Central Station only', async () => {
    const page = await newPage(people.orgAdmin.username, '/admin?tab=required');
    await page.getByRole('heading', { name: 'Add required training' }).waitFor();
    // Their organisation is fixed; the units are theirs, by path.
    await expect.poll(() => page.getByRole('textbox', { name: 'Organisation' }).or(page.getByRole('combobox', { name: 'Organisation' })).first().inputValue()).toBe(organisationName);
    await page.getByRole('combobox', { name: 'Course', exact: true }).fill(courseTitle);
    await page.getByRole('option', { name: courseTitle }).click();
    await page.getByRole('combobox', { name: 'Unit', exact: true }).click();
    await page.getByRole('option', { name: 'North Area › Central Station', exact: true }).click();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByText('Required training added').waitFor();
    const row = page.locator('tr', { hasText: courseTitle });
    await row.getByText(`Everyone at Central Station (${organisationName}, with the units below it)`).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'compliance-units-rule');

    const enrolled = await sql<{ userId: string }[]>`select user_id as "userId" from public.enrollments where course_id = ${courseId}`;
    const ids = enrolled.map((r) => r.userId);
    expect(ids).toContain(people.atStation.id);
    expect(ids).toContain(people.inWatch.id);
    expect(ids).not.toContain(people.atHarbour.id);
    await page.context().close();
  });

  it('the breakdown by unit shows the share compliant, opens the area and lists the station\'s people', async () => {
    // One of the two is certified (written straight into the database: nothing in the product dates it).
    await sql`insert into public.certificates (user_id, course_id, learner_name, course_title)
      values (${people.inWatch.id}, ${courseId}, ${people.inWatch.name}, ${courseTitle}) on conflict do nothing`;
    const page = await newPage(people.orgAdmin.username, '/compliance');
    await page.getByRole('heading', { name: 'By unit' }).waitFor();
    const table = page.getByRole('table', { name: /Compliance by unit/ });
    const area = table.getByRole('row', { name: /North Area/ });
    await area.getByText('50%').first().waitFor(); // 1 of 2
    await expectAccessible(page);
    await screenshot(page, 'compliance-units-top');

    await area.getByRole('button', { name: 'Open North Area: its units' }).click();
    const station = table.getByRole('row', { name: /Central Station/ });
    await station.getByText('50%').first().waitFor();
    await expect.poll(() => table.getByRole('row', { name: /Harbour Station/ }).count()).toBe(0); // nobody required there

    await station.getByRole('button', { name: 'Show the people of Central Station' }).click();
    const peopleTitle = page.getByRole('heading', { name: 'People: Central Station' });
    await peopleTitle.waitFor();
    const list = page.getByRole('table', { name: 'People: Central Station' });
    await list.getByText(people.atStation.name).waitFor();
    await list.getByText(people.inWatch.name).waitFor();
    expect(await list.getByText(people.atHarbour.name).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'compliance-units-people');

    // The national administrator sees the organisation among the others.
    const national = await apiCall('GET', `/compliance/units?courseId=${courseId}`, adminToken);
    expect(national.status).toBe(200);
    expect(national.json.items.map((r: { organisationId: string; people: number; compliant: number }) => [r.organisationId, r.people, r.compliant]))
      .toEqual([[organisationId, 2, 1]]);
    await page.context().close();
  });

  it('a unit added in Admin is in the compliance Unit filter at once, without a reload', async () => {
    const page = await newPage(people.orgAdmin.username, '/compliance');
    await page.getByRole('heading', { name: 'Compliance', level: 1 }).waitFor();
    // Marks this document: a reload would lose it.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const unitFilter = page.getByRole('combobox', { name: 'Unit', exact: true });
    await unitFilter.click();
    await page.getByRole('option', { name: 'North Area › Central Station', exact: true }).waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Admin Dashboard' }).click();
    await page.getByRole('tab', { name: 'Organisation', exact: true }).click();
    await page.getByRole('button', { name: 'Add unit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a top-level unit' });
    await dialog.getByLabel('Name').fill('Blue Watch');
    await dialog.getByRole('button', { name: 'Add unit' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('link', { name: 'Compliance', exact: true }).click();
    await page.getByRole('heading', { name: 'Compliance', level: 1 }).waitFor();
    await unitFilter.click();
    await page.getByRole('option', { name: 'Blue Watch', exact: true }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await page.context().close();
  });
});
