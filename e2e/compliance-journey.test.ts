// Mandatory training and compliance end to end in Chromium: the admin makes the seeded "Manual Handling for
// Ambulance Crews" course required for the ambulance service with certificates valid 12 months,
// imports 50 ambulance staff (two bad rows reported, none written); one of them signs in with the
// temporary password, sees the course in 'Required training', completes it in the module viewer and
// sees 'Valid until' a year ahead. With the certificate's dates written straight into the database
// (nothing in the product changes dates) it shows 'Expiring soon', then 'Expired'; the public
// verification page says expired; the Compliance view counts the person as overdue until they
// recertify, then compliant. The compliance CSV and the learner's CPD record PDF read back correctly.
// The details of each part are proved by their own suites; this walks the whole journey once.
// The rule and the course's validity are global: both are put back as the seed had them afterwards.
import fs from 'node:fs';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Download, Locator, Page } from 'playwright-core';
import { baseUrl, closeToasts, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin, uiLoginWithTemporaryPassword } from './api';
import { parseCsv, pdfText } from './files';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const COURSE = '10000000-0000-4000-a000-000000000005';
const TITLE = 'Manual Handling for Ambulance Crews';
const MODULES = 3;
const ukDate = (when: string | Date) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' }).format(new Date(when));

const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;
const GOOD = 48;
const BAD_EMAIL_LINE = 20;
const DUPLICATE_LINE = 40;

/** 50 ambulance staff: line 20 has an invalid email, line 40 repeats line 2's username. */
function staffCsv(): string {
  const lines = ['username,email,name,role,services'];
  let n = 0;
  for (let line = 2; line <= 51; line += 1) {
    if (line === BAD_EMAIL_LINE) lines.push(`bad_${suffix},not-an-email,Robin Badmail,,UKAS`);
    else if (line === DUPLICATE_LINE) lines.push(`crew1_${suffix},again.${suffix}@ambulance.example.uk,Sam Twice,,UKAS`);
    else {
      n += 1;
      lines.push(`crew${n}_${suffix},crew${n}.${suffix}@ambulance.example.uk,${n === 1 ? 'Alex Rivers' : `Crew Member ${n}`},student,UKAS`);
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

const downloaded = async (download: Download) => fs.readFileSync((await download.path())!);

/**
 * A screenshot of the screen, then axe on it. Toasts are closed first: one that starts to fade out
 * while axe runs (they close by themselves after 4 s) has, for a moment, too little contrast.
 */
async function checkScreen(page: Page, name: string) {
  await screenshot(page, name);
  // One toast at a time: closing one shows the next queued (three modules completed, three toasts).
  const toasts = page.locator('.mantine-Notification-root');
  await expect
    .poll(async () => {
      await closeToasts(page);
      return toasts.count();
    }, { timeout: 15_000, interval: 250 })
    .toBe(0);
  await expectAccessible(page);
}

/** A status badge shows its whole word, not 'OVERD…', even in a narrow table column. */
async function expectWholeBadge(badge: Locator) {
  const cut = await badge.evaluate((el) => {
    const label = el.querySelector('.mantine-Badge-label') ?? el;
    return label.scrollWidth > label.clientWidth;
  });
  expect(cut, `badge "${await badge.textContent()}" is cut short`).toBe(false);
}

describe('compliance: from a required course to expiry, recertification and the exports', () => {
  let browser: Browser;
  let sql: postgres.Sql;
  let admin: Page;
  let learner: Page;
  const person = { username: `crew1_${suffix}`, name: 'Alex Rivers', password: '', id: '' };
  let originalMonths: number | null = null;
  let enrolledBefore: string[] = [];
  let code = '';

  async function moveCertificate(expiresIn: string) {
    const [row] = await sql<{ expiresAt: Date }[]>`
      update public.certificates
      set issued_at = now() + ${expiresIn}::interval - interval '12 months', expires_at = now() + ${expiresIn}::interval
      where user_id = ${person.id}::uuid and course_id = ${COURSE}::uuid
      returning expires_at as "expiresAt"`;
    return row.expiresAt;
  }

  /** The learner completes the course in the module viewer: Start Course, then each module in turn. */
  async function completeCourse() {
    await learner.getByRole('button', { name: 'Start Course' }).click();
    for (let m = 1; m <= MODULES; m += 1) {
      await learner.getByText(`Module ${m} of ${MODULES}`).waitFor();
      await learner.getByRole('button', { name: 'Mark as complete', exact: true }).click();
      await learner.getByText('You have completed this module.').waitFor();
      if (m < MODULES) await learner.getByRole('link', { name: 'Next module' }).click();
    }
  }

  beforeAll(async () => {
    sql = postgres(dbUrl, { max: 1, onnotice: () => {}, prepare: false });
    const [course] = await sql<{ months: number | null }[]>`select certificate_valid_months as months from public.courses where id = ${COURSE}`;
    originalMonths = course.months;
    enrolledBefore = (await sql<{ userId: string }[]>`select user_id as "userId" from public.enrollments where course_id = ${COURSE}`).map((r) => r.userId);
    browser = await launchBrowser();
    const options = { acceptDownloads: true, timezoneId: 'Europe/London', locale: 'en-GB' };
    admin = await (await browser.newContext(options)).newPage();
    learner = await (await browser.newContext(options)).newPage();
    await uiLogin(admin, 'admin');
  });

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      if (sql) {
        // The seed as it was: no rule for the course, its certificates' validity, nobody enrolled by
        // the rule who was not before; the imported staff and their certificates are removed.
        const staff = sql`select id from public.profiles where username like ${`%\\_${suffix}`}`;
        await sql`delete from public.required_training where course_id = ${COURSE} and service = 'UKAS' and role is null`;
        await sql`update public.courses set certificate_valid_months = ${originalMonths} where id = ${COURSE}`;
        await sql`delete from public.certificates where user_id in (${staff})`;
        await sql`delete from auth.users where id in (${staff})`;
        await sql`delete from public.enrollments where course_id = ${COURSE} and user_id <> all(${enrolledBefore}::uuid[])`;
        await sql.end();
      }
    }
  });

  it('1. the admin sets the course valid for 12 months and makes it required for the ambulance service', async () => {
    await admin.goto(`${baseUrl}/course/edit/${COURSE}`);
    const months = admin.getByLabel('Certificate valid for (months)');
    await expect.poll(() => admin.getByLabel('Course Title').inputValue(), { timeout: 15_000 }).toBe(TITLE);
    await months.fill('12');
    await admin.getByRole('button', { name: 'Update Course' }).click();
    await admin.getByText('Your changes have been saved.').waitFor();
    expect((await sql`select certificate_valid_months as m from public.courses where id = ${COURSE}`)[0].m).toBe(12);
    await screenshot(admin, 'journey-1-course-valid-12-months');

    await admin.goto(`${baseUrl}/admin?tab=required`);
    await admin.getByRole('heading', { name: 'Add required training' }).waitFor();
    await admin.getByRole('combobox', { name: 'Course', exact: true }).fill(TITLE);
    await admin.getByRole('option', { name: TITLE }).click();
    await admin.getByRole('combobox', { name: 'Service', exact: true }).click();
    await admin.getByRole('option', { name: 'United Kingdom Ambulance Service' }).click();
    await admin.getByRole('button', { name: 'Add rule' }).click();
    await admin.getByText('Required training added').waitFor();
    const rule = admin.locator('tr', { hasText: TITLE }).filter({ hasText: 'in United Kingdom Ambulance Service' });
    await rule.getByText('Certificate valid 12 months').waitFor();
    await screenshot(admin, 'journey-1-required-for-ukas');
  });

  it('2. the admin imports 50 ambulance staff: two bad rows reported and not written, 48 created', async () => {
    await admin.goto(`${baseUrl}/admin`);
    await admin.getByRole('link', { name: 'Import users' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Import users' }).waitFor();
    const chooser = admin.waitForEvent('filechooser');
    await admin.getByRole('button', { name: /CSV file/ }).click();
    await (await chooser).setFiles({ name: 'ambulance-staff.csv', mimeType: 'text/csv', buffer: Buffer.from(staffCsv()) });
    await admin.getByTestId('import-summary').filter({ hasText: `50 rows: ${GOOD} ready to import, 2 with problems` }).waitFor();
    const preview = admin.getByRole('table', { name: 'Rows of the file' });
    await preview.locator(`tr[data-line="${BAD_EMAIL_LINE}"]`).getByText('Invalid email address').waitFor();
    await preview.locator(`tr[data-line="${DUPLICATE_LINE}"]`).getByText('Username appears earlier in the file (line 2)').waitFor();
    await screenshot(admin, 'journey-2-import-preview');

    await admin.getByRole('button', { name: `Import ${GOOD} users` }).click();
    await admin.getByRole('heading', { name: 'Import finished' }).waitFor();
    await admin.getByTestId('import-outcome').filter({ hasText: `${GOOD} users created, 2 skipped.` }).waitFor();
    await screenshot(admin, 'journey-2-import-result');

    // In the database: the 48, all in the ambulance service and enrolled by the rule; neither bad row.
    const users = await sql<{ id: string; username: string; email: string; services: string[] }[]>`
      select p.id, p.username, p.email, p.services::text[] as services from public.profiles p where p.username like ${`%\\_${suffix}`}`;
    expect(users).toHaveLength(GOOD);
    expect(users.every((u) => u.services.join() === 'UKAS')).toBe(true);
    expect(users.some((u) => u.username === `bad_${suffix}` || u.email === `again.${suffix}@ambulance.example.uk`)).toBe(false);
    const [{ n }] = await sql<{ n: number }[]>`
      select count(*)::int as n from auth.users where email in ('not-an-email', ${`again.${suffix}@ambulance.example.uk`})`;
    expect(n).toBe(0);
    const [{ enrolled }] = await sql<{ enrolled: number }[]>`
      select count(*)::int as enrolled from public.enrollments
      where course_id = ${COURSE} and status = 'ACTIVE' and user_id = any(${users.map((u) => u.id)}::uuid[])`;
    expect(enrolled).toBe(GOOD);
    person.id = users.find((u) => u.username === person.username)!.id;

    const download = admin.waitForEvent('download');
    await admin.getByRole('button', { name: 'Download passwords (CSV)' }).click();
    const rows = parseCsv((await downloaded(await download)).toString('utf8').replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual(['username', 'email', 'name', 'temporary_password']);
    expect(rows).toHaveLength(GOOD + 1);
    person.password = rows.find((r) => r[0] === person.username)![3];
  });

  it('3. an imported person signs in with the temporary password, chooses their own, sees the course required and completes it', async () => {
    person.password = await uiLoginWithTemporaryPassword(learner, person.username, person.password);
    const notice = learner.getByTestId('required-training-notice');
    await expect.poll(() => notice.textContent(), { timeout: 15_000 }).toMatch(/^\d+ required training items? overdue or due soon$/);
    await notice.click();
    await learner.waitForURL(`${baseUrl}/dashboard#required-training`);
    const required = learner.getByRole('region', { name: 'Required training' });
    const row = required.locator(`tr[data-course="${COURSE}"]`);
    await row.getByText('Due soon').waitFor();
    await row.getByText(/^Due \d{1,2} [A-Z][a-z]+ \d{4}$/).waitFor();
    await row.getByText('0%').waitFor();
    await checkScreen(learner, 'journey-3-required-training');

    await row.getByRole('link', { name: TITLE }).click();
    await learner.waitForURL(`${baseUrl}/course/${COURSE}`);
    await learner.getByRole('list', { name: 'Modules' }).waitFor();
    await screenshot(learner, 'journey-3-course');
    await completeCourse();
    await screenshot(learner, 'journey-3-module-completed');

    // Valid for a calendar year from its issue (from 29 February, to 28 February), whatever today is.
    const [{ expiresAt, aYearOn }] = await sql<{ expiresAt: Date; aYearOn: Date }[]>`
      select expires_at as "expiresAt", issued_at + interval '1 year' as "aYearOn"
      from public.certificates where user_id = ${person.id} and course_id = ${COURSE}`;
    expect(expiresAt).toEqual(aYearOn);
    await learner.goto(`${baseUrl}/dashboard`);
    await row.getByText('Done').waitFor();
    await row.getByText(`Valid until ${ukDate(expiresAt)}`).waitFor();
    await row.getByText('100%').waitFor();
    await screenshot(learner, 'journey-3-valid-until'); // the dashboard was checked by axe above
  });

  it('4. with dates moved in the database: expiring soon, expired, verification says so, overdue until recertified', async () => {
    const expiring = await moveCertificate('40 days');
    await learner.goto(`${baseUrl}/certificates`);
    const card = learner.getByRole('article', { name: `Certificate: ${TITLE}` });
    await card.getByText('Expiring soon').waitFor();
    await card.getByText(`Valid until ${ukDate(expiring)}`).waitFor();
    await checkScreen(learner, 'journey-4-expiring-soon');

    const expired = await moveCertificate('-3 days');
    await learner.reload();
    await card.getByText(`Expired on ${ukDate(expired)}`).waitFor();
    await card.getByText('Expired', { exact: true }).waitFor();
    code = (await sql`select verification_code as code from public.certificates where user_id = ${person.id} and course_id = ${COURSE}`)[0].code;
    await screenshot(learner, 'journey-4-expired'); // the same screen as the axe check above

    const visitor = await (await browser.newContext({ timezoneId: 'Europe/London', locale: 'en-GB' })).newPage();
    await visitor.goto(`${baseUrl}/verify/${code}`);
    await visitor.getByRole('heading', { name: 'Certificate expired' }).waitFor();
    await visitor.getByText(`expired on ${ukDate(expired)}`).waitFor();
    expect(await visitor.getByText('Certificate verified').count()).toBe(0);
    await checkScreen(visitor, 'journey-4-verify-expired');
    await visitor.context().close();

    // The Compliance view: the person is overdue in the ambulance service's row of the course.
    const { token } = await apiLogin('admin');
    const counts = async () => (await apiCall('GET', `/compliance?courseId=${COURSE}&service=UKAS`, token)).json.items[0];
    const before = await counts();
    expect(before.overdue).toBeGreaterThanOrEqual(1);
    await openCompliance(before);
    await complianceRow().locator('[data-count="overdue"]').getByRole('button').click();
    const people = admin.getByRole('region', { name: `People: ${TITLE}` });
    const mine = people.locator(`tr[data-user="${person.id}"]`);
    await mine.getByText('Overdue').waitFor();
    await mine.getByText(ukDate(expired)).first().waitFor();
    await expectWholeBadge(mine.locator('[data-status="overdue"]'));
    await screenshot(admin, 'journey-4-compliance-overdue');

    // Recertification from the expired certificate: the course again from 0 %, to a new certificate.
    await card.getByRole('button', { name: `Start recertification: ${TITLE}` }).click();
    await learner.waitForURL(`${baseUrl}/course/${COURSE}`);
    await completeCourse();
    await learner.goto(`${baseUrl}/certificates`);
    await card.getByText('Valid', { exact: true }).waitFor();
    const [{ renewed }] = await sql<{ renewed: Date }[]>`
      select expires_at as renewed from public.certificates where user_id = ${person.id} and course_id = ${COURSE} and cycle = 2`;
    await card.getByText(`Valid until ${ukDate(renewed)}`).waitFor();
    // The expired certificate stays in the learner's history.
    const earlier = learner.getByRole('region', { name: 'Earlier certificates' }).locator('tr[data-state="expired"]');
    await earlier.getByText(`Expired on ${ukDate(expired)}`).waitFor();
    await expectWholeBadge(earlier.locator('[data-certificate-state="expired"]'));
    await checkScreen(learner, 'journey-4-recertified');

    const after = await counts();
    expect(after.overdue).toBe(before.overdue - 1);
    expect(after.compliant).toBe(before.compliant + 1);
    await openCompliance(after);
    await complianceRow().locator('[data-count="done"]').getByRole('button').click();
    await mine.getByText('Done').waitFor();
    await mine.getByText(ukDate(renewed)).waitFor();
    await screenshot(admin, 'journey-4-compliance-compliant'); // the same screen as the axe check above
  });

  it('5. the compliance CSV export and the CPD record PDF read back correctly', async () => {
    // The drill-down of the compliant people is on screen: the export is that view.
    const download = admin.waitForEvent('download');
    await admin.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^compliance-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await downloaded(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(bytes.subarray(3).toString('utf8'));
    expect(rows[0]).toEqual(['Name', 'Username', 'Email', 'Role', 'Services', 'Course', 'Status', 'Due date', 'Valid until', 'Progress (%)', 'Recognised from']);
    const [renewed] = await sql<{ expiresAt: Date }[]>`
      select expires_at as "expiresAt" from public.certificates where user_id = ${person.id} and course_id = ${COURSE} and cycle = 2`;
    expect(rows.find((r) => r[1] === person.username)).toEqual([
      person.name, person.username, `crew1.${suffix}@ambulance.example.uk`, 'STUDENT', 'UKAS', TITLE, 'Done',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(renewed.expiresAt), '100', '',
    ]);
    expect(rows.slice(1).every((r) => r[5] === TITLE && r[6] === 'Done')).toBe(true);

    await learner.goto(`${baseUrl}/learning-record`);
    await learner.getByRole('heading', { name: 'My learning record', level: 1 }).waitFor();
    await learner.getByRole('table', { name: 'Completed courses' }).getByText(TITLE).first().waitFor();
    await checkScreen(learner, 'journey-5-learning-record');
    const pdfDownload = learner.waitForEvent('download');
    await learner.getByRole('button', { name: 'Download PDF' }).click();
    const pdf = await pdfDownload;
    expect(pdf.suggestedFilename()).toMatch(new RegExp(`^learning-record-${person.username}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
    const pdfBytes = await downloaded(pdf);
    expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdfBytes);
    for (const expected of ['Learning record', person.name, 'Completed courses', TITLE, ukDate(renewed.expiresAt), 'Expired']) {
      expect(text, `the PDF shows "${expected}"`).toContain(expected);
    }
    // Both completions are in the record: the first (now expired) and the recertification.
    expect(text.split(TITLE).length - 1).toBeGreaterThanOrEqual(2);
  });

  /** Opens the Compliance view filtered to the course and waits for the ambulance row's counts. */
  async function openCompliance(expected: { overdue: number; compliant: number }) {
    await admin.goto(`${baseUrl}/compliance`);
    await admin.getByRole('heading', { name: 'Compliance', level: 1 }).waitFor();
    await admin.getByRole('combobox', { name: 'Course', exact: true }).fill(TITLE);
    await admin.getByRole('option', { name: TITLE }).click();
    const row = complianceRow();
    await expect.poll(() => row.locator('[data-count="overdue"]').textContent(), { timeout: 15_000 }).toBe(String(expected.overdue));
    expect(await row.locator('[data-count="done"]').textContent()).toBe(String(expected.compliant));
  }

  function complianceRow() {
    return admin.locator(`tr[data-service="UKAS"][data-course="${COURSE}"]`);
  }
});
