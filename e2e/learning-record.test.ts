// The CPD record in a real browser: a new learner completes Airwave through the API (modules read,
// quiz passed), opens "My learning record" from the dashboard, adds, edits and deletes CPD
// activities in the modal form, downloads the PDF (its text read back) and the CSV (parsed), and an
// admin opens the learner's record read-only from the Users tab. axe on every screen, screenshots.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, closeToasts, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin } from './api';
import { parseCsv, pdfText } from './files';

const AIRWAVE = '10000000-0000-4000-a000-000000000003';
const AIRWAVE_TITLE = 'Airwave Radio Voice Procedure';
const module = (m: number) => `20000000-0000-4000-a000-00000300000${m}`;
const QUIZ = '30000000-0000-4000-a000-000003000003';
const question = (q: number) => `40000000-0000-4000-a000-00030003000${q}`;

const londonToday = () => {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'Europe/London' })
    .formatToParts(new Date()).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
};

async function saveDownload(page: Page, click: () => Promise<void>, name: string) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = path.resolve('test-results', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await download.saveAs(file);
  return { fileName: download.suggestedFilename(), bytes: fs.readFileSync(file) };
}

describe('learning record end to end', () => {
  let browser: Browser;
  let page: Page;
  const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const learner = { username: `cpd_${suffix}`, email: `cpd_${suffix}@example.uk`, name: 'Morgan Reeve', password: 'cpd-record-pass-7' };

  beforeAll(async () => {
    const registered = await apiCall('POST', '/register', undefined, { ...learner, confirmPassword: learner.password });
    expect(registered.status).toBe(201);
    const { token } = await apiLogin(learner.username, learner.password);
    // Completing Airwave as a learner does: enrol (a mandatory rule of another suite may have done it), read the
    // modules, start the quiz and pass it; the certificate is issued by the server.
    expect([201, 409]).toContain((await apiCall('POST', `/courses/${AIRWAVE}/enroll`, token)).status);
    for (const m of [1, 2, 3]) expect((await apiCall('POST', `/modules/${module(m)}/complete`, token)).status).toBe(200);
    expect((await apiCall('GET', `/modules/${module(3)}/quiz`, token)).status).toBe(200);
    const attempt = await apiCall('POST', `/quizzes/${QUIZ}/attempts`, token, { answers: { [question(1)]: [1], [question(2)]: [2], [question(3)]: [1] } });
    expect(attempt.status).toBe(201);
    expect(attempt.json.passed).toBe(true);

    browser = await launchBrowser();
    page = await (await browser.newContext({ acceptDownloads: true, timezoneId: 'Europe/London', locale: 'en-GB' })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens My learning record from the dashboard with the completed course', async () => {
    await uiLogin(page, learner.username, learner.password, '/dashboard');
    await page.getByRole('link', { name: 'My learning record' }).click();
    await page.waitForURL(`${baseUrl}/learning-record`);
    await page.getByRole('heading', { name: 'My learning record', level: 1 }).waitFor();
    const completed = page.getByRole('table', { name: 'Completed courses' });
    const row = completed.getByRole('row').filter({ hasText: AIRWAVE_TITLE });
    await row.waitFor();
    await row.getByText('100%').waitFor();
    await row.getByText('Valid', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('figure-total-hours').textContent(), { timeout: 10_000 }).toBe('2');
    await page.getByText('No CPD activities yet.', { exact: false }).waitFor();
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Learning Record' }).getAttribute('aria-current')).resolves.toBe('page');
    // axe runs on the filled record below (the same page with more in it).
    await screenshot(page, 'learning-record-empty');
  });

  it('adds, edits and deletes CPD activities in the modal form', async () => {
    await page.getByRole('button', { name: 'Add CPD activity' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add CPD activity' });
    await dialog.waitFor();
    // Nothing is sent while the form is wrong: the shared messages show at the fields.
    await dialog.getByRole('button', { name: 'Add activity' }).click();
    await dialog.getByText('Describe the activity in at least 3 characters').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'learning-record-add-errors');

    await dialog.getByLabel('Date').fill('2026-03-14');
    await dialog.getByLabel('Hours').fill('6.5');
    await dialog.getByRole('textbox', { name: 'Activity' }).fill('Major trauma study day, Birmingham');
    await dialog.getByLabel('What I learnt').fill('Catastrophic haemorrhage: tourniquet first.\nThen pack and press.');
    await dialog.getByLabel('Reflection').fill('=SUM(1,2) is not a formula here');
    await dialog.getByRole('button', { name: 'Add activity' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const cpd = page.getByRole('table', { name: 'CPD activities' });
    await cpd.getByText('Major trauma study day, Birmingham').waitFor();
    await cpd.getByText('14 March 2026').waitFor();
    await expect.poll(() => page.getByTestId('figure-total-hours').textContent(), { timeout: 10_000 }).toBe('8.5');

    await page.getByRole('button', { name: 'Edit Major trauma study day, Birmingham' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit CPD activity' });
    await edit.waitFor();
    await expect(edit.getByRole('textbox', { name: 'Activity' }).inputValue()).resolves.toBe('Major trauma study day, Birmingham');
    await edit.getByLabel('Hours').fill('7.25');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('figure-total-hours').textContent(), { timeout: 10_000 }).toBe('9.25');

    // A second activity, then deleted after the confirmation.
    await page.getByRole('button', { name: 'Add CPD activity' }).click();
    const second = page.getByRole('dialog', { name: 'Add CPD activity' });
    await second.getByLabel('Date').fill(londonToday());
    await second.getByLabel('Hours').fill('1');
    await second.getByRole('textbox', { name: 'Activity' }).fill('Journal article on sepsis');
    await second.getByLabel('What I learnt').fill('NEWS2 thresholds.');
    // The two toasts before (added, updated) stack over the dialog's foot on a 720 px screen, and a
    // pointer resting on a toast keeps it open: closed as a person would.
    await closeToasts(page);
    await second.getByRole('button', { name: 'Add activity' }).click();
    await cpd.getByText('Journal article on sepsis').waitFor();
    await expect.poll(() => page.getByTestId('figure-total-hours').textContent(), { timeout: 10_000 }).toBe('10.25');
    await expectAccessible(page);
    await screenshot(page, 'learning-record');

    await page.getByRole('button', { name: 'Delete Journal article on sepsis' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this CPD activity?' });
    await confirm.getByText('This permanently deletes "Journal article on sepsis"').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await cpd.getByText('Journal article on sepsis').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('figure-total-hours').textContent(), { timeout: 10_000 }).toBe('9.25');
  });

  it('downloads the PDF and the CSV, which read back correctly', async () => {
    // Named with the London day it was made: the day before the download or after it (they differ only at midnight).
    const named = (from: string, by: string, ext: string) => [from, by].map((day) => `learning-record-${learner.username}-${day}.${ext}`);
    let from = londonToday();
    const pdf = await saveDownload(page, () => page.getByRole('button', { name: 'Download PDF' }).click(), `learning-record-${suffix}.pdf`);
    expect(named(from, londonToday(), 'pdf')).toContain(pdf.fileName);
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf.bytes);
    for (const expected of ['Learning record', learner.name, 'Total hours: 9.25', 'Completed courses', AIRWAVE_TITLE, '100%',
      'CPD activities', 'Major trauma study day, Birmingham', '14 March 2026', '=SUM(1,2) is not a formula here', 'Page 1 of 1']) {
      expect(text, `the PDF shows "${expected}"`).toContain(expected);
    }

    from = londonToday();
    const csv = await saveDownload(page, () => page.getByRole('button', { name: 'Download CSV' }).click(), `learning-record-${suffix}.csv`);
    expect(named(from, londonToday(), 'csv')).toContain(csv.fileName);
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(csv.bytes.subarray(3).toString('utf8'));
    expect(rows[0]).toEqual(['Type', 'Date', 'Course or activity', 'Service', 'Hours', 'Score (%)', 'Certificate code',
      'Certificate status', 'Valid until', 'What I learnt', 'Reflection']);
    const course = rows.find((r) => r[2] === AIRWAVE_TITLE)!;
    expect(course.slice(0, 8)).toEqual(['Course', expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), AIRWAVE_TITLE,
      'United Kingdom Police Service', '2', '100', expect.stringMatching(/^[A-Z0-9]{8,32}$/), 'Valid']);
    expect(rows.find((r) => r[0] === 'CPD activity')).toEqual(['CPD activity', '2026-03-14', 'Major trauma study day, Birmingham', '',
      '7.25', '', '', '', '', 'Catastrophic haemorrhage: tourniquet first.\nThen pack and press.', "'=SUM(1,2) is not a formula here"]);
    expect(rows).toHaveLength(3);
  });

  it('an admin opens the learner\'s record read-only from the Users tab', async () => {
    const admin = await (await browser.newContext({ timezoneId: 'Europe/London', locale: 'en-GB' })).newPage();
    await uiLogin(admin, 'admin', 'password123', '/admin');
    await admin.getByLabel('Search users').fill(learner.username);
    const row = admin.locator(`tr[data-user="${learner.username}"]`);
    await row.waitFor();
    await row.getByRole('link', { name: `Learning record of ${learner.name}` }).click();
    await admin.getByRole('heading', { name: `Learning record: ${learner.name}`, level: 1 }).waitFor();
    await admin.getByRole('table', { name: 'CPD activities' }).getByText('Major trauma study day, Birmingham').waitFor();
    await admin.getByRole('table', { name: 'Completed courses' }).getByText(AIRWAVE_TITLE).waitFor();
    await expect(admin.getByRole('button', { name: 'Add CPD activity' }).count()).resolves.toBe(0);
    await expect(admin.getByRole('button', { name: /^Edit / }).count()).resolves.toBe(0);
    await admin.getByRole('button', { name: 'Download PDF' }).waitFor();
    await expectAccessible(admin);
    await screenshot(admin, 'learning-record-admin');
    await admin.close();
  });
});
