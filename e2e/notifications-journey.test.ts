// Notifications as one journey in a real browser against the real platform, its scheduler
// run as the schedule runs it (the decision at a moved time, then the function's deliver endpoint
// with the service role key) and its emails read in the mail catcher:
//   - the national administrator imports three people of a station (a line manager and two reports);
//     the welcome email's link lets one of them choose a password and sign in;
//   - the administrator makes a course required for the station with a 14-day due period;
//   - 11 days on, "due in 3 days" reaches each report once, by email and under the bell (a second run
//     sends nothing), except that the report who switched due-soon email off gets the bell only;
//   - 15 days on, "overdue" reaches both by email; 22 days on, the manager gets the escalations,
//     reads one in the mail catcher's page and finds both under the bell.
// Only what no screen offers is set up through the API or the database: the course, the
// organisation and its station, one person's email preference, and the moving of time (the
// decision function takes the time as its argument; nothing changes the clock). axe and the
// contrast check on the screens.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiChooseNewPassword, apiLogin, uiLogin, removeCourse } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const mailUrl = process.env.MAIL_URL ?? 'http://127.0.0.1:54324';
const serviceRoleKey = process.env.SUPABASE_SERVICE_ROLE_KEY ?? '';
const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`.slice(-8).toLowerCase();
const organisation = { name: `Eastshire Ambulance ${suffix}`, code: `E${suffix}`.toUpperCase() };
const UNIT = 'Harbour Station';
const courseTitle = `Major Incident Triage ${suffix}`;

const person = (key: string, name: string) => ({ username: `${key}_${suffix}`, email: `${key}.${suffix}@ambulance.example.uk`, name: `${name} ${suffix}` });
const manager = person('jmanager', 'Jo Manager');
const welcomed = person('jwelcome', 'Wes Welcome');
const quiet = person('jquiet', 'Quinn Quiet');

interface MailSummary { ID: string; To: { Address: string }[]; Subject: string }

async function mailTo(address: string): Promise<MailSummary[]> {
  const listed = await (await fetch(`${mailUrl}/api/v1/messages`)).json() as { messages: MailSummary[] };
  return listed.messages.filter((m) => m.To.some((t) => t.Address === address));
}

async function mailText(id: string): Promise<string> {
  return (await (await fetch(`${mailUrl}/api/v1/message/${id}`)).json() as { Text: string }).Text;
}

/** How many emails with this subject the address has received. */
async function countMail(address: string, subject: string): Promise<number> {
  return (await mailTo(address)).filter((m) => m.Subject === subject).length;
}

describe('notifications: from required training to reminders, overdue emails and escalation', () => {
  let browser: Browser;
  let sql: postgres.Sql;
  let adminToken: string;
  let courseId = '';
  let organisationId = '';
  const passwords = new Map<string, string>();
  let welcomedPassword = '';

  const newPage = async (width = 1366): Promise<Page> =>
    (await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/London' })).newPage();

  /** One scheduled run, `days` from now: the decision, then delivery through the function. */
  async function scheduledRun(days: number) {
    await sql`select private.decide_notifications(now() + make_interval(days => ${days}))`;
    const response = await fetch(`${baseUrl}/functions/v1/api/notifications/deliver`, {
      method: 'POST',
      headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ max: 5000 }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    // Emails waiting for another worker's lease, or retried, would still be queued: none of ours may be.
    await expect.poll(async () => (await sql<{ n: number }[]>`
      select count(*)::int as n from public.notifications n join public.profiles p on p.id = n.recipient_id
      where p.organisation_id = ${organisationId} and n.email_status = 'queued'`)[0].n, { timeout: 30_000 }).toBe(0);
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    sql = postgres(dbUrl, { max: 1, onnotice: () => {}, prepare: false });
    adminToken = (await apiLogin('admin')).token;
    const course = await apiCall('POST', '/courses', adminToken, {
      title: courseTitle,
      description: 'Sorting casualties at a major incident, refreshed every year.',
      service: 'UKAS',
      status: 'ACTIVE',
    });
    expect(course.status, course.text).toBe(201);
    courseId = course.json.id;
    const created = await apiCall('POST', '/organisations', adminToken, { ...organisation, service: 'UKAS' });
    expect(created.status, created.text).toBe(201);
    organisationId = created.json.id;
    const unit = await apiCall('POST', `/organisations/${organisationId}/units`, adminToken, { name: UNIT });
    expect(unit.status, unit.text).toBe(201);
  });

  afterAll(async () => {
    if (sql) {
      if (courseId) {
        await sql`delete from public.required_training where course_id = ${courseId}`;
        await removeCourse(courseId, adminToken);
      }
      if (organisationId) {
        await sql`delete from auth.users where id in (select id from public.profiles where organisation_id = ${organisationId})`;
        await sql`delete from public.units where organisation_id = ${organisationId}`;
        await sql`delete from public.organisations where id = ${organisationId}`;
      }
      await sql.end();
    }
    await browser?.close();
  });

  it('the administrator imports the station\'s three people; each gets a welcome email', async () => {
    const page = await newPage();
    await uiLogin(page, 'admin', 'password123', '/admin/users/import');
    await page.getByRole('heading', { level: 1, name: 'Import users' }).waitFor();
    const csv = [
      'username,email,name,role,services,organisation,unit,manager',
      `${manager.username},${manager.email},${manager.name},,UKAS,${organisation.code},${UNIT},`,
      `${welcomed.username},${welcomed.email},${welcomed.name},,UKAS,${organisation.code},${UNIT},${manager.username}`,
      `${quiet.username},${quiet.email},${quiet.name},,UKAS,${organisation.code},${UNIT},${manager.username}`,
    ].join('\r\n') + '\r\n';
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /CSV file/ }).click();
    await (await chooser).setFiles({ name: 'eastshire.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('import-summary').filter({ hasText: '3 rows: 3 ready to import' }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Import 3 users' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download passwords (CSV)' }).click();
    const lines = fs.readFileSync((await (await download).path())!, 'utf8').replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    for (const line of lines.slice(1)) passwords.set(line.split(',')[0], line.split(',').at(-1)!);
    expect(passwords.size).toBe(3);
    await page.context().close();

    await scheduledRun(0);
    for (const p of [manager, welcomed, quiet]) {
      expect((await mailTo(p.email)).filter((m) => m.Subject.startsWith('Your account on')), p.username).toHaveLength(1);
    }
  });

  it('the welcome email, read in the mail catcher\'s page, leads to choosing a password and signing in', async () => {
    const catcher = await newPage();
    await catcher.goto(mailUrl);
    const row = catcher.getByRole('row').filter({ hasText: welcomed.email });
    await row.getByRole('link', { name: /^Your account on / }).click();
    // The text part (the HTML part is shown in a sandboxed frame, which axe cannot enter).
    await catcher.getByRole('link', { name: 'Text', exact: true }).click();
    await catcher.getByText(`Your username is ${welcomed.username}.`, { exact: false }).waitFor();
    await expectAccessible(catcher);
    await screenshot(catcher, 'journey-19-catcher-welcome');
    const [welcome] = (await mailTo(welcomed.email)).filter((m) => m.Subject.startsWith('Your account on'));
    const link = /(http\S+\/auth\/v1\/verify\?\S+)/.exec(await mailText(welcome.ID))?.[1];
    expect(link, 'the welcome email carries a set-password link').toBeTruthy();
    await catcher.context().close();

    const page = await newPage();
    await page.goto(link!);
    await page.waitForURL(/\/auth\/reset/);
    welcomedPassword = `Welcome-${suffix}-Pass!7`;
    await page.getByLabel('New password', { exact: true }).fill(welcomedPassword);
    await page.getByLabel('Confirm new password').fill(welcomedPassword);
    await page.getByRole('button', { name: /password/i }).click();
    await page.waitForURL(`${baseUrl}/dashboard`);
    await page.context().close();

    // The chosen password signs in; the temporary one no longer does.
    await apiLogin(welcomed.username, welcomedPassword);
    const refused = await apiCall('POST', '/login', undefined, { username: welcomed.username, password: passwords.get(welcomed.username) });
    expect(refused.status).toBe(401);
  });

  it('the administrator makes the course required for the station, due within 14 days', async () => {
    const page = await newPage();
    await uiLogin(page, 'admin', 'password123', '/admin?tab=required');
    await page.getByRole('heading', { name: 'Add required training' }).waitFor();
    await page.getByRole('combobox', { name: 'Course', exact: true }).fill(courseTitle);
    await page.getByRole('option', { name: courseTitle }).click();
    await page.getByRole('combobox', { name: 'Organisation', exact: true }).click();
    await page.getByRole('option', { name: organisation.name, exact: true }).click();
    await page.getByRole('combobox', { name: 'Unit', exact: true }).click();
    await page.getByRole('option', { name: UNIT, exact: true }).click();
    await page.getByLabel('Due within (days)').fill('14');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByText('Required training added').waitFor();
    await page.locator('tr', { hasText: courseTitle }).first().waitFor();
    await screenshot(page, 'journey-19-rule');
    await page.context().close();
    const [rule] = await sql<{ dueWithinDays: number; unitName: string }[]>`
      select r.due_within_days as "dueWithinDays", u.name as "unitName"
      from public.required_training r join public.units u on u.id = r.unit_id where r.course_id = ${courseId}`;
    expect(rule).toEqual({ dueWithinDays: 14, unitName: UNIT });
  });

  it('11 days on, each report is told "due in 3 days" once; the one who switched that email off has the bell only', async () => {
    // The quiet report chooses their own password, then switches due-soon email off.
    const token = (await apiLogin(quiet.username, passwords.get(quiet.username))).token;
    const quietPassword = await apiChooseNewPassword(token, passwords.get(quiet.username)!);
    passwords.set(quiet.username, quietPassword);
    const quietToken = (await apiLogin(quiet.username, quietPassword)).token;
    const off = await apiCall('PUT', '/me/notification-preferences', quietToken, { email: { 'training-due-soon': false } });
    expect(off.status, off.text).toBe(200);

    const dueSoon = `${courseTitle} is due in 3 days`;
    await scheduledRun(11);
    expect(await countMail(welcomed.email, dueSoon)).toBe(1);
    expect(await countMail(quiet.email, dueSoon)).toBe(0);
    // A second run writes and sends nothing more.
    await scheduledRun(11);
    expect(await countMail(welcomed.email, dueSoon)).toBe(1);
    expect(await countMail(quiet.email, dueSoon)).toBe(0);
    const written = await sql<{ username: string; n: number }[]>`
      select p.username, count(*)::int as n from public.notifications n join public.profiles p on p.id = n.recipient_id
      where n.kind = 'training-due-soon' and n.course_id = ${courseId} group by p.username order by p.username`;
    // Everyone at the station is required to do it, the manager too: one notice each.
    expect(written).toEqual([manager, quiet, welcomed].map((p) => ({ username: p.username, n: 1 })).sort((a, b) => (a.username < b.username ? -1 : 1)));

    // The quiet report finds it under the bell all the same.
    const page = await newPage();
    await uiLogin(page, quiet.username, quietPassword);
    await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    await dialog.getByRole('link', { name: new RegExp(`^${dueSoon}`) }).waitFor();
    await screenshot(page, 'journey-19-bell-due-soon');
    await page.context().close();
  });

  it('15 days on, both reports are emailed "overdue", once each', async () => {
    const overdue = `${courseTitle} is overdue`;
    await scheduledRun(15);
    await scheduledRun(15);
    expect(await countMail(welcomed.email, overdue)).toBe(1);
    expect(await countMail(quiet.email, overdue)).toBe(1);
    expect(await countMail(manager.email, `${welcomed.name} is overdue with ${courseTitle}`)).toBe(0);
  });

  it('22 days on, the manager gets the escalations, reads one in the mail catcher and finds both under the bell', async () => {
    await scheduledRun(22);
    const escalation = (p: { name: string }) => `${p.name} is overdue with ${courseTitle}`;
    expect(await countMail(manager.email, escalation(welcomed))).toBe(1);
    expect(await countMail(manager.email, escalation(quiet))).toBe(1);
    await scheduledRun(22);
    expect(await countMail(manager.email, escalation(welcomed))).toBe(1);

    const catcher = await newPage(390);
    await catcher.goto(mailUrl);
    await catcher.getByRole('link', { name: escalation(welcomed) }).first().click();
    await catcher.getByRole('heading', { level: 1, name: escalation(welcomed) }).waitFor();
    await catcher.getByRole('link', { name: 'Text', exact: true }).click();
    await catcher.getByText('See their training', { exact: false }).first().waitFor();
    await expectAccessible(catcher);
    await screenshot(catcher, 'journey-19-catcher-escalation-390');
    await catcher.context().close();

    const page = await newPage();
    const token = (await apiLogin(manager.username, passwords.get(manager.username))).token;
    const managerPassword = await apiChooseNewPassword(token, passwords.get(manager.username)!);
    await uiLogin(page, manager.username, managerPassword);
    await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    await dialog.getByRole('link', { name: new RegExp(`^${escalation(welcomed)}`) }).waitFor();
    await dialog.getByRole('link', { name: new RegExp(`^${escalation(quiet)}`) }).waitFor();
    await screenshot(page, 'journey-19-bell-escalation');
    await page.context().close();
  });
});
