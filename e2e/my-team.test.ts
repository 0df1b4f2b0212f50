// A line manager's "My team" in a real browser against the real platform: a manager
// finds My team in the sidebar, sees their direct and indirect reports by unit with the overdue
// training of one of them, filters to the overdue, exports the CSV, and opens the person's record;
// a learner of another organisation is nowhere; a person without reports has no My team link and an
// empty page. The organisations, units, manager relations, required-training rule and certificate
// are written straight into the database (nothing in the product changes dates). axe and the
// contrast check on every screen, at 1366 and 390 px.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin, removeCourse } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';

interface Person { username: string; name: string; password: string; id: string }

describe('My team end to end', () => {
  let browser: Browser;
  let sql: postgres.Sql;
  let adminToken: string;
  const suffix = Date.now().toString(36);
  const courseTitle = `Roadside Safety Refresher ${suffix}`;
  let courseId = '';
  const organisations: string[] = [];
  const person = (key: string, name: string): Person => ({ username: `${key}_${suffix}`, name: `${name} ${suffix}`, password: `pw-${suffix}-Secret!${key.length}`, id: '' });
  const manager = person('boss', 'Morgan Manager');
  const sergeant = person('sarge', 'Sam Sergeant');
  const late = person('late', 'Connie Late');
  const keen = person('keen', 'Kit Keen');
  const outsider = person('outsider', 'Pat Paramedic');

  async function newPage(who: Person, width = 1366, path = '/'): Promise<Page> {
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width, height: 900 } });
    const page = await context.newPage();
    await uiLogin(page, who.username, who.password, path);
    return page;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    adminToken = (await apiLogin('admin')).token;
    const course = await apiCall('POST', '/courses', adminToken, {
      title: courseTitle,
      description: 'Working safely beside live traffic, refreshed every year.',
      service: 'UKHW',
      status: 'ACTIVE',
      certificateValidMonths: 12,
    });
    expect(course.status).toBe(201);
    courseId = course.json.id;
    for (const p of [manager, sergeant, late, keen, outsider]) {
      const answer = await apiCall('POST', '/register', undefined, {
        username: p.username, email: `${p.username}@example.test`, name: p.name, password: p.password, confirmPassword: p.password,
      });
      expect(answer.status).toBe(201);
      p.id = answer.json.user.id;
    }
    const [police] = await sql<{ id: string }[]>`insert into public.organisations (name, code, service)
      values (${`Teamtest Police ${suffix}`}, ${`TP${suffix}`.slice(0, 16)}, 'UKPS') returning id`;
    const [ambulance] = await sql<{ id: string }[]>`insert into public.organisations (name, code, service)
      values (${`Teamtest Ambulance ${suffix}`}, ${`TA${suffix}`.slice(0, 16)}, 'UKAS') returning id`;
    organisations.push(police.id, ambulance.id);
    const [area] = await sql<{ id: string }[]>`insert into public.units (organisation_id, name) values (${police.id}, 'North Area') returning id`;
    const [station] = await sql<{ id: string }[]>`insert into public.units (organisation_id, parent_id, name) values (${police.id}, ${area.id}, 'Central Station') returning id`;
    const [team] = await sql<{ id: string }[]>`insert into public.units (organisation_id, parent_id, name) values (${police.id}, ${station.id}, 'Response Team 1') returning id`;
    const [division] = await sql<{ id: string }[]>`insert into public.units (organisation_id, name) values (${ambulance.id}, 'East Division') returning id`;
    const place = (p: Person, organisation: string, unit: string, boss: Person | null) =>
      sql`update public.profiles set services = '{UKHW}', organisation_id = ${organisation}, unit_id = ${unit}, manager_id = ${boss?.id ?? null}
          where id = ${p.id}`;
    await place(manager, police.id, station.id, null);
    await place(sergeant, police.id, team.id, manager);
    await place(late, police.id, team.id, sergeant);
    await place(keen, police.id, team.id, sergeant);
    await place(outsider, ambulance.id, division.id, null);
    // The course is required for UKHW within 30 days: Connie joined 60 days ago (overdue); Kit holds a valid certificate.
    await sql`insert into public.required_training (course_id, service, due_within_days, renew_before_days) values (${courseId}, 'UKHW', 30, 30)`;
    await sql`update public.required_training set created_at = now() - interval '60 days' where course_id = ${courseId}`;
    await sql`update public.profiles set created_at = now() - interval '60 days' where id = ${late.id}`;
    await sql`update public.enrollments set created_at = now() - interval '60 days', started_at = now() - interval '60 days'
              where user_id = ${late.id} and course_id = ${courseId}`;
    await sql`insert into public.certificates (user_id, course_id, learner_name, course_title, service, issued_at, expires_at)
              values (${keen.id}, ${courseId}, ${keen.name}, ${courseTitle}, 'UKHW', now() - interval '10 days', now() + interval '355 days')`;
  });

  afterAll(async () => {
    if (courseId) {
      await sql`delete from public.required_training where course_id = ${courseId}`;
      await sql`delete from public.certificates where course_id = ${courseId}`;
      await removeCourse(courseId, adminToken);
    }
    const people = [manager, sergeant, late, keen, outsider].map((p) => p.id).filter(Boolean);
    if (people.length > 0) await sql`update public.profiles set manager_id = null, unit_id = null, organisation_id = null where id in ${sql(people)}`;
    if (organisations.length > 0) {
      for (let round = 0; round < 3; round++) {
        await sql`delete from public.units u where u.organisation_id in ${sql(organisations)}
                  and not exists (select 1 from public.units c where c.parent_id = u.id)`;
      }
      await sql`delete from public.organisations where id in ${sql(organisations)}`;
    }
    await sql?.end();
    await browser?.close();
  });

  it('a manager sees their team\'s overdue training by unit, filters it and exports it', async () => {
    const page = await newPage(manager);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'My team' }).click();
    await page.waitForURL(`${baseUrl}/team`);
    await page.getByRole('heading', { name: 'My team', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Your team by unit' });
    await table.waitFor();
    await table.getByRole('columnheader', { name: 'Response Team 1' }).waitFor();
    const lateRow = table.locator('tr', { hasText: late.name });
    await lateRow.getByText('Overdue').waitFor();
    await expect.poll(() => page.getByTestId('team-figure-overdue').textContent()).toBe('1');
    expect(await page.getByTestId('team-figure-people').textContent()).toBe('3');
    expect(await table.locator('tr', { hasText: keen.name }).getByText('Done').count()).toBe(1);
    expect(await table.locator('tr', { hasText: sergeant.name }).textContent()).toContain('Reports to you');
    expect(await page.getByText(outsider.name).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'my-team-1366');

    // Only the overdue, by the keyboard: the Status filter is labelled and reachable.
    await page.getByRole('combobox', { name: 'Status' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: 'Overdue' }).click();
    await expect.poll(() => table.locator('tbody tr[data-user]').count()).toBe(1);
    await table.locator(`tr[data-user="${late.id}"]`).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^my-team-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = fs.readFileSync((await download.path())!, 'utf8');
    expect(text.startsWith('\uFEFFName,Username,Unit,Direct report,Overdue,Due soon,In progress,Done,Certificates expiring (60 days),Next expiry,Last activity,'
      + 'Sessions booked,Next session,Next session status,Practicals due,Next practical due,Practicals overdue,Practicals overdue since,'
      + 'Practicals awaiting sign-off\r\n')).toBe(true);
    const lines = text.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${late.name},${late.username},Response Team 1,No,1,0,0,0,0,,\\d{4}-\\d{2}-\\d{2},0,,,0,,0,,0$`));
    await page.context().close();
  });

  it('the manager opens a report\'s record; a person outside the team is not shown', async () => {
    const page = await newPage(manager, 1366, '/team');
    await page.getByRole('link', { name: late.name }).click();
    await page.waitForURL(`${baseUrl}/team/${late.id}`);
    await page.getByRole('heading', { name: late.name, level: 1 }).waitFor();
    const required = page.getByRole('table', { name: 'Required training' });
    await required.locator('tr', { hasText: courseTitle }).getByText('Overdue').waitFor();
    await page.getByText('No course completed yet.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'my-team-member');

    await page.goto(`${baseUrl}/team/${keen.id}`);
    await page.getByRole('table', { name: 'Certificates' }).locator('tr', { hasText: courseTitle }).getByText('Valid').waitFor();

    await page.goto(`${baseUrl}/team/${outsider.id}`);
    await page.getByRole('heading', { name: 'Not in your team', level: 1 }).waitFor();
    expect(await page.getByText(outsider.name).count()).toBe(0);
    await expectAccessible(page);
    await page.context().close();
  });

  it('on a phone the team is a list of cards, accessible', async () => {
    const page = await newPage(manager, 390, '/team');
    const list = page.getByRole('list', { name: 'People in Response Team 1' });
    await list.locator('li', { hasText: late.name }).getByText('Overdue').waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, 'my-team-390');
    await page.context().close();
  });

  it('a person without reports has no My team link and an empty team', async () => {
    const page = await newPage(keen);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'My Courses' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'My team' }).count()).toBe(0);
    await page.goto(`${baseUrl}/team`);
    await page.getByRole('heading', { name: 'Nobody reports to you yet' }).waitFor();
    await expectAccessible(page);
    await page.context().close();
  });
});
