// Classroom sessions and practical assessments as one journey in Chromium against the real platform,
// everyone of one fire and rescue service (so the organisation's rules decide who may assess):
//   - the service's instructor creates the course in the course editor: a session module with two
//     dates of 2 places (entered as London times, one in summer time and one in winter; the summer
//     date's trainer found by a search) and a practical assessment with a second signature, 12
//     months' validity and two criteria (one critical), then publishes it;
//   - three learners book the summer date on their module pages (the third waits); the first
//     cancels after confirming; the third, on a phone, accepts the place offered; the second moves
//     their place to the winter date (the same calendar entry, a later revision);
//   - the trainer keeps the register on a 390 px phone (Attended tapped twice is saved once, the
//     focus stays on it); the learner's module shows it completed; the trainer's calendar lists it;
//   - an assessor on a 390 px phone sees Competent refused while the critical criterion is not yet
//     competent, takes a photo as evidence (a file that only claims to be one is refused, the focus
//     comes back), signs off; a verifier finds it in the queue (CSV), verifies;
//   - the learner reads Competent and the certificate's expiry (verification + 12 months, London);
//     the line manager finds both on My team;
//   - the emails are delivered and read in the mail catcher, their .ics parsed with ical.js.
// People, organisation, manager and enrolments are set up through the API and the database; the
// dates are in 2030, so the journey gives the same answer on any day. axe and the contrast check
// once per screen and state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import ICAL from 'ical.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, chooseOption, closeToasts, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiChooseNewPassword, apiLogin, removeCourse, uiLogin } from './api';
import { makePng } from './files';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const mailUrl = process.env.MAIL_URL ?? 'http://127.0.0.1:54324';
const serviceRoleKey = process.env.SUPABASE_SERVICE_ROLE_KEY ?? '';

const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`.slice(-8).toLowerCase();
const courseTitle = `Breathing apparatus day ${suffix}`;
const sessionTitle = 'Fire house day';
const practicalTitle = 'Donning and start-up';
const summer = '12 June 2030, 09:30–16:00';
const winter = '4 December 2030, 09:30–16:00';

interface Person { username: string; name: string; email: string; password: string; id: string }
const person = (key: string, name: string): Person =>
  ({ username: `${key}_${suffix}`, name: `${name} ${suffix}`, email: `${key}.${suffix}@fire.example.uk`, password: `pw-${suffix}-Secret!`, id: '' });
const trainer = person('jtrainer', 'Tia Trainer');
const assessor = person('jassessor', 'Ash Assessor');
const verifier = person('jverifier', 'Val Verifier');
const manager = person('jmanager', 'Mo Manager');
const [ada, ben, cara] = [person('jada', 'Ada Lovell'), person('jben', 'Ben Carter'), person('jcara', 'Cara Jones')];
const learners = [ada, ben, cara];

/** A date as the screens show it: 22 November 2031, in London. */
const ukDate = (at: Date) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' }).format(at);

/** `at` plus whole months as Postgres adds them (the day kept, or the month's last day). */
function addMonths(at: Date, months: number): Date {
  const out = new Date(at);
  const day = out.getUTCDate();
  out.setUTCDate(1);
  out.setUTCMonth(out.getUTCMonth() + months);
  const last = new Date(Date.UTC(out.getUTCFullYear(), out.getUTCMonth() + 1, 0)).getUTCDate();
  out.setUTCDate(Math.min(day, last));
  return out;
}

interface Mail { ID: string; To: { Address: string }[]; Subject: string }
interface MailPart { PartID: string; FileName: string; ContentType: string }

async function mailTo(address: string): Promise<Mail[]> {
  const listed = await (await fetch(`${mailUrl}/api/v1/messages`)).json() as { messages: Mail[] };
  return listed.messages.filter((m) => m.To.some((t) => t.Address === address)).reverse();
}

async function mailText(id: string): Promise<string> {
  return (await (await fetch(`${mailUrl}/api/v1/message/${id}`)).json() as { Text: string }).Text;
}

/** The message's invite.ics parsed with ical.js (its zone from the file's own VTIMEZONE), or null. */
async function invitation(id: string) {
  const message = await (await fetch(`${mailUrl}/api/v1/message/${id}`)).json() as { Attachments: MailPart[] };
  const part = message.Attachments.find((a) => a.FileName === 'invite.ics');
  if (!part) return null;
  const text = await (await fetch(`${mailUrl}/api/v1/message/${id}/part/${part.PartID}`)).text();
  const calendar = new ICAL.Component(ICAL.parse(text));
  const zone = new ICAL.Timezone(calendar.getFirstSubcomponent('vtimezone')!);
  const event = calendar.getFirstSubcomponent('vevent')!;
  const time = event.getFirstPropertyValue('dtstart') as ICAL.Time;
  const start = new Date(Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second) - zone.utcOffset(time) * 1000);
  return {
    method: calendar.getFirstPropertyValue('method'),
    uid: event.getFirstPropertyValue('uid'),
    sequence: Number(event.getFirstPropertyValue('sequence')),
    start: start.toISOString(),
  };
}

describe('classroom sessions and practical assessments: one course, one fire service, from the editor to the certificate', () => {
  let browser: Browser;
  let sql: postgres.Sql;
  let adminToken = '';
  let organisationId = '';
  let courseId = '';
  let sessionModuleId = '';
  let practicalId = '';
  let summerId = '';
  let verifiedBetween: [Date, Date] = [new Date(0), new Date(0)];
  const contexts: BrowserContext[] = [];

  async function open(who: Person, path: string, width = 1366, height = 900): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height }, locale: 'en-GB', timezoneId: 'Europe/London', acceptDownloads: true });
    contexts.push(context);
    const page = await context.newPage();
    await uiLogin(page, who.username, who.password, path);
    return page;
  }
  /** The booking's status line says it (a toast may say it too). */
  const status = (page: Page, text: string | RegExp) => page.getByTestId('session-status').filter({ hasText: text }).waitFor();
  const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));

  beforeAll(async () => {
    sql = postgres(dbUrl, { max: 1, onnotice: () => {}, prepare: false });
    adminToken = (await apiLogin('admin')).token;
    const [organisation] = await sql<{ id: string }[]>`insert into public.organisations (name, code, service)
      values (${`Westshire Fire and Rescue ${suffix}`}, ${`WF${suffix}`.toUpperCase().slice(0, 16)}, 'UKFRS') returning id`;
    organisationId = organisation.id;
    for (const p of [trainer, assessor, verifier]) {
      const created = await apiCall('POST', '/users', adminToken, { username: p.username, email: p.email, name: p.name, role: 'INSTRUCTOR', services: ['UKFRS'] });
      expect(created.status, created.text).toBe(201);
      const signedIn = await apiLogin(p.username, created.json.temporaryPassword);
      p.id = signedIn.userId;
      p.password = await apiChooseNewPassword(signedIn.token, created.json.temporaryPassword);
    }
    for (const p of [manager, ...learners]) {
      const registered = await apiCall('POST', '/register', undefined, {
        username: p.username, email: p.email, name: p.name, password: p.password, confirmPassword: p.password,
      });
      expect(registered.status, registered.text).toBe(201);
      p.id = registered.json.user.id;
    }
    const everyone = [trainer, assessor, verifier, manager, ...learners].map((p) => p.id);
    await sql`update public.profiles set organisation_id = ${organisationId}, services = '{UKFRS}' where id in ${sql(everyone)}`;
    await sql`update public.profiles set manager_id = ${manager.id} where id in ${sql(learners.map((p) => p.id))}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    if (sql) {
      if (courseId) await removeCourse(courseId, adminToken);
      if (organisationId) {
        await sql`update public.profiles set manager_id = null, organisation_id = null where organisation_id = ${organisationId}`;
        await sql`delete from public.organisations where id = ${organisationId}`.catch(() => undefined);
      }
      await sql.end();
    }
  });

  it('the instructor creates the course, its session module with two dates and its practical assessment in the course editor', async () => {
    const page = await open(trainer, '/course/create');
    await page.getByRole('heading', { name: 'Create New Course' }).waitFor();
    await page.getByLabel('Course Title', { exact: true }).fill(courseTitle);
    await page.getByLabel('Description', { exact: true }).fill('Wearing breathing apparatus in a hot fire house, and being assessed doing it.');
    await page.getByRole('button', { name: 'Save Course' }).click();
    await page.waitForURL(/\/course\/edit\/[0-9a-f-]{36}$/);
    courseId = page.url().split('/').pop()!;
    await closeToasts(page);

    await page.getByRole('tab', { name: /Modules & Quizzes/ }).click();
    await page.getByRole('button', { name: 'Add Your First Module' }).click();
    let moduleDialog = page.getByRole('dialog', { name: 'Add New Module' });
    await moduleDialog.getByRole('radio', { name: 'Classroom session' }).check();
    await moduleDialog.getByLabel('Module Title', { exact: true }).fill(sessionTitle);
    await moduleDialog.getByLabel('Module Content', { exact: true }).fill('A day in the fire house at the training centre.');
    await moduleDialog.getByRole('button', { name: 'Create Module' }).click();
    await moduleDialog.waitFor({ state: 'detached' });
    await closeToasts(page);

    await page.getByRole('button', { name: `Dates of ${sessionTitle}` }).click();
    const dates = page.getByRole('dialog', { name: 'Session dates' });
    for (const day of ['2030-06-12', '2030-12-04']) {
      await dates.getByRole('button', { name: 'Add a date' }).click();
      const form = page.getByRole('dialog', { name: 'Add a date' }).last();
      await form.getByLabel(/^Date/).fill(day);
      await form.getByLabel(/^Starts at/).fill('09:30');
      await form.getByLabel(/^Ends at/).fill('16:00');
      await form.getByLabel(/^Venue/).fill('Westshire Training Centre');
      await form.getByLabel(/^Places/).fill('2');
      if (day === '2030-06-12') {
        // The summer date's trainer: found by typing part of the name, chosen from the list.
        await form.getByLabel('Trainers', { exact: true }).fill('tia trainer');
        await page.getByRole('option', { name: `${trainer.name} (@${trainer.username})` }).click();
        await form.getByRole('list', { name: 'Chosen trainers' }).getByText(trainer.name).waitFor();
        await expectAccessible(page);
      }
      await form.getByRole('button', { name: 'Add the date' }).click();
      await form.waitFor({ state: 'detached' });
    }
    await dates.getByText(summer).waitFor();
    await dates.getByText(winter).waitFor();
    await closeToasts(page);
    await expectAccessible(page);
    await screenshot(page, 'journey-dates');
    await page.keyboard.press('Escape');
    await dates.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Add Module' }).click();
    moduleDialog = page.getByRole('dialog', { name: 'Add New Module' });
    await moduleDialog.getByRole('radio', { name: 'Practical assessment' }).check();
    await moduleDialog.getByLabel('Module Title', { exact: true }).fill(practicalTitle);
    await moduleDialog.getByLabel('Module Content', { exact: true }).fill('Put on the set and start it up, watched on the drill ground.');
    await moduleDialog.getByRole('button', { name: 'Create Module' }).click();
    await moduleDialog.waitFor({ state: 'detached' });
    await closeToasts(page);

    await page.getByRole('button', { name: `Assessment: ${practicalTitle}` }).click();
    const dialog = page.getByRole('dialog', { name: `Assessment: ${practicalTitle}` });
    await dialog.getByRole('checkbox', { name: /Needs a second signature/ }).check();
    await dialog.getByLabel('Valid for (months)').fill('12');
    await dialog.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    for (const [title, titleCy, critical] of [['Starts up the set correctly', "Yn cychwyn y set yn gywir", true], ['Checks the buddy before entry', null, false]] as const) {
      await dialog.getByRole('button', { name: 'Add criterion' }).click();
      const form = dialog.getByRole('form', { name: 'New criterion' });
      await form.getByLabel('Criterion', { exact: true }).fill(title);
      if (titleCy) await form.getByLabel('Criterion (Welsh)').fill(titleCy);
      await form.getByLabel('Guidance for the assessor', { exact: true }).fill(`Watch for: ${title.toLowerCase()}`);
      if (critical) await form.getByRole('checkbox', { name: /Critical/ }).check();
      await form.getByRole('button', { name: 'Save criterion' }).click();
      await dialog.getByText(title, { exact: true }).waitFor();
    }
    await expect.poll(() => dialog.getByTestId('criterion-card').count()).toBe(2);
    await dialog.getByText('Critical', { exact: true }).first().waitFor();
    await closeToasts(page);
    await expectAccessible(page);
    await screenshot(page, 'journey-assessment-author');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await screenshot(page, 'journey-modules');

    await page.getByRole('tab', { name: 'Basic Information' }).click();
    await chooseOption(page, page, 'Status', 'Published');
    await page.getByRole('button', { name: 'Update Course' }).click();
    await page.getByText('Course updated', { exact: true }).waitFor();

    // Stored as instants: 09:30 London is 08:30Z in June (BST) and 09:30Z in December (GMT).
    const token = (await apiLogin(trainer.username, trainer.password)).token;
    const modules = await apiCall('GET', `/courses/${courseId}/modules`, token);
    expect(modules.json.map((m: { kind: string }) => m.kind)).toEqual(['session', 'assessment']);
    [sessionModuleId, practicalId] = modules.json.map((m: { id: string }) => m.id);
    const listed = await apiCall('GET', `/modules/${sessionModuleId}/sessions`, token);
    expect(listed.json.sessions.map((x: { startsAt: string }) => x.startsAt)).toEqual(['2030-06-12T08:30:00.000Z', '2030-12-04T09:30:00.000Z']);
    expect(listed.json.sessions.map((x: { trainers: { name: string }[] }) => x.trainers.map((t) => t.name))).toEqual([[trainer.name], []]);
    summerId = listed.json.sessions[0].id;
    const saved = await apiCall('GET', `/modules/${practicalId}/assessment`, token);
    expect(saved.json.settings).toEqual({ moduleId: practicalId, needsVerifier: true, validMonths: 12 });
    expect(saved.json.criteria.map((c: { title: string; critical: boolean }) => [c.title, c.critical])).toEqual([
      ['Starts up the set correctly', true], ['Checks the buddy before entry', false],
    ]);

    // Enrolment is set-up: proven in the learner's journeys.
    for (const p of learners) {
      const enrolled = await apiCall('POST', `/courses/${courseId}/enroll`, (await apiLogin(p.username, p.password)).token);
      expect([200, 201], enrolled.text).toContain(enrolled.status);
    }
  });

  it('three learners book on their module pages: the third waits; one cancels; the third, on a phone, accepts the place', async () => {
    const modulePath = () => `/course/${courseId}/module/${sessionModuleId}`;
    let page = await open(ada, modulePath());
    await page.getByRole('button', { name: `Book this date: ${summer}` }).click();
    await status(page, `You are booked on ${summer}.`);
    await expect.poll(() => focusedTestId(page)).toBe('session-status');
    await closeToasts(page);
    await expectAccessible(page);

    page = await open(ben, modulePath());
    await page.getByRole('button', { name: `Book this date: ${summer}` }).click();
    await status(page, `You are booked on ${summer}.`);

    page = await open(cara, modulePath());
    await page.getByText('Full — join the waiting list').waitFor();
    await page.getByRole('button', { name: `Join the waiting list: ${summer}` }).click();
    await status(page, `You are on the waiting list for ${summer}.`);

    page = await open(ada, modulePath());
    await page.getByRole('button', { name: 'Cancel my booking' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel your booking?' });
    await confirm.getByRole('button', { name: 'Cancel my booking' }).click();
    await status(page, 'Your booking was cancelled. Choose a date to book again.');
    await expect.poll(() => focusedTestId(page)).toBe('session-status');

    page = await open(cara, modulePath(), 390);
    await status(page, new RegExp(`A place on ${summer} is yours if you accept it by`));
    await expectAccessible(page);
    await screenshot(page, 'journey-offered-390');
    await page.getByRole('button', { name: 'Accept the place' }).click();
    await status(page, `You are booked on ${summer}.`);
  });

  it('the trainer keeps the register on a phone: Attended tapped twice is saved once; the module is completed by it', async () => {
    const phone = await open(trainer, `/sessions/${summerId}/register`, 390);
    await phone.getByText('0 of 2 people marked attended').waitFor();
    await expectAccessible(phone);
    const attended = phone.getByRole('button', { name: `Attended: ${cara.name}` });
    expect((await attended.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await attended.click();
    await attended.click();
    await phone.getByText('1 of 2 people marked attended').waitFor();
    await expect.poll(() => attended.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => phone.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Attended: ${cara.name}`);
    await expectAccessible(phone);
    await screenshot(phone, 'journey-register-390');
    const [{ attendance }] = await sql<{ attendance: string }[]>`select attendance from public.session_bookings
      where session_id = ${summerId} and user_id = ${cara.id} and status = 'booked'`;
    expect(attendance).toBe('attended');

    const page = await open(cara, `/course/${courseId}/module/${sessionModuleId}`);
    await status(page, 'Completed: you attended on 12 June 2030.');
    expect(await page.getByRole('button', { name: /Mark as complete/ }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'journey-session-completed');
  });

  it("shows the date in the trainer's calendar with its bookings, at 1366 and 390 px", async () => {
    for (const width of [1366, 390]) {
      const page = await open(trainer, '/instructor?tab=sessions&month=2030-06', width);
      await page.getByRole('heading', { name: 'June 2030' }).waitFor();
      await page.getByRole('button', { name: `${sessionTitle}, ${summer}` }).click();
      const drawer = page.getByRole('dialog', { name: summer });
      await drawer.getByRole('button', { name: 'Download bookings (CSV)' }).waitFor();
      await drawer.getByText('Booked (2)').waitFor();
      await drawer.getByRole('cell', { name: cara.name }).waitFor();
      await expectAccessible(page);
      await screenshot(page, `journey-calendar-${width}`);
    }
  });

  it('a learner moves their place to the winter date on their module page; the summer date keeps the others', async () => {
    const page = await open(ben, `/course/${courseId}/module/${sessionModuleId}`);
    await status(page, `You are booked on ${summer}.`);
    await page.getByRole('button', { name: `Move to this date: ${winter}` }).click();
    await status(page, `You are booked on ${winter}.`);
    await expect.poll(() => focusedTestId(page)).toBe('session-status');
    const rows = await sql<{ session_id: string; status: string; sequence: number }[]>`
      select session_id, status, sequence from public.session_bookings where user_id = ${ben.id}`;
    // The same booking, moved: no second row, its calendar entry's revision raised.
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'booked', sequence: 1 });
    expect(rows[0].session_id).not.toBe(summerId);
  });

  it('the assessor, on a phone, judges the learner with a photo as evidence and signs off', async () => {
    const phone = await open(assessor, `/instructor/assessments/module/${practicalId}`, 390, 844);
    await phone.getByRole('heading', { level: 1, name: `Assess: ${practicalTitle}` }).waitFor();
    await expectAccessible(phone);
    await phone.getByRole('button', { name: `Assess ${cara.name}` }).click();
    await phone.getByRole('heading', { level: 1, name: `Assessment of ${cara.name}` }).waitFor();

    const [critical, buddy] = [phone.getByTestId('judgement').nth(0), phone.getByTestId('judgement').nth(1)];
    await critical.getByRole('radio', { name: 'Not yet competent' }).check();
    await buddy.getByRole('radio', { name: 'Competent', exact: true }).check();
    const overall = phone.getByRole('radiogroup', { name: 'Overall outcome' });
    expect(await overall.getByRole('radio', { name: 'Competent', exact: true }).isDisabled()).toBe(true);
    await phone.getByText(/a critical criterion is not yet competent \(Starts up the set correctly\)/).waitFor();
    await expectAccessible(phone);
    await screenshot(phone, 'journey-assessor-critical-390');

    await critical.getByRole('radio', { name: 'Competent', exact: true }).check();
    await critical.getByLabel('Note on criterion 1').fill('Cylinder open fully, gauge read, warning whistle heard.');
    await overall.getByRole('radio', { name: 'Competent', exact: true }).check();

    // The camera's input: the phone's camera opens on it; here the photo is handed to it.
    const camera = phone.locator('input[type=file][capture]');
    expect(await camera.getAttribute('accept')).toBe('image/*,application/pdf');
    await camera.setInputFiles({ name: 'start-up.png', mimeType: 'image/png', buffer: makePng(64, 48, [200, 40, 40]) });
    await phone.getByRole('button', { name: 'Open start-up.png' }).waitFor();
    // A file that only claims to be a photo: the server reads its bytes and refuses it (415).
    await camera.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not really a picture') });
    await phone.getByRole('alert').getByText(/This kind of file cannot be kept/).waitFor();
    await expect.poll(() => phone.evaluate(() => document.activeElement?.textContent)).toBe('Take a photo');
    await closeToasts(phone);
    await expectAccessible(phone);
    await screenshot(phone, 'journey-assessor-evidence-390');

    await phone.getByRole('button', { name: 'Sign off' }).click();
    const confirm = phone.getByRole('dialog', { name: 'Sign off this record?' });
    await confirm.getByText(/A signed record cannot be changed/).waitFor();
    await expectAccessible(phone);
    await confirm.getByRole('button', { name: 'Sign off' }).click();
    await phone.getByText('This record waits for a second assessor to verify it.').waitFor();
    await expect.poll(() => phone.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await closeToasts(phone);
    await expectAccessible(phone);
    await screenshot(phone, 'journey-assessor-signed-390');
  });

  it('the verifier finds the record waiting in the queue, downloads the queue and verifies it', async () => {
    const page = await open(verifier, '/instructor?tab=assessments');
    await chooseOption(page, page, 'Show', 'Waiting for verification');
    const link = page.getByRole('link', { name: `Open the record of ${cara.name}, ${practicalTitle}` });
    await link.waitFor();
    await expectAccessible(page);
    await screenshot(page, 'journey-assessment-queue');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download (CSV)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);

    await link.click();
    await page.getByRole('heading', { level: 1, name: `Assessment of ${cara.name}` }).waitFor();
    const before = new Date();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(/Verified by .* on /).waitFor();
    verifiedBetween = [before, new Date()];
    await closeToasts(page);
    await expectAccessible(page);
    await screenshot(page, 'journey-assessment-verified');
  });

  it('the learner reads Competent and the notes, and finds the certificate expiring 12 months after the verification', async () => {
    // The expiry as the test computes it: the verification's London date plus 12 months (either
    // side of the click, should it straddle midnight).
    const expected = [...new Set(verifiedBetween.map((at) => ukDate(addMonths(at, 12))))];
    const validUntil = new RegExp(`valid until (${expected.join('|')})`, 'i');
    for (const width of [1366, 390]) {
      const page = await open(cara, `/course/${courseId}/module/${practicalId}`, width);
      await page.getByTestId('assessment-standing').getByText('Competent', { exact: true }).waitFor();
      await page.getByText(validUntil).first().waitFor();
      await page.getByText('Cylinder open fully, gauge read, warning whistle heard.').waitFor();
      await page.getByRole('button', { name: 'Open start-up.png' }).waitFor();
      await expectAccessible(page);
      await screenshot(page, `journey-learner-practical-${width}`);
    }
    const page = await open(cara, '/certificates');
    const card = page.getByRole('article', { name: `Certificate: ${courseTitle}` });
    await card.getByText(validUntil).waitFor();
    // A valid certificate's card on /certificates: checked by axe in e2e/certificate-validity.test.ts.
    await screenshot(page, 'journey-certificate');
  });

  it("the line manager sees the learner's certificate and practical on My team", async () => {
    const expected = [...new Set(verifiedBetween.map((at) => ukDate(addMonths(at, 12))))];
    const page = await open(manager, '/team');
    const table = page.getByRole('table', { name: 'Your team by unit' });
    await table.locator('tr', { hasText: cara.name }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'journey-team');
    await page.getByRole('link', { name: cara.name }).click();
    await page.getByRole('heading', { name: cara.name, level: 1 }).waitFor();
    const certificate = page.getByRole('table', { name: 'Certificates' }).locator('tr', { hasText: courseTitle });
    await certificate.getByText('Valid').waitFor();
    const certificateText = await certificate.textContent();
    expect(expected.some((d) => certificateText?.includes(d))).toBe(true);
    const practical = page.getByRole('table', { name: 'Practical assessments' }).locator('tr', { hasText: practicalTitle });
    await practical.getByText('Valid').waitFor();
    const practicalText = await practical.textContent();
    expect(expected.some((d) => practicalText?.includes(d))).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'journey-team-member');
  });

  it('delivers the emails: bookings, the move and the cancellation with invitations (.ics) that parse, the waiting list, the offer and the assessment', async () => {
    const delivered = await fetch(`${baseUrl}/functions/v1/api/notifications/deliver`, {
      method: 'POST',
      headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ max: 5000 }),
    });
    expect(delivered.status, await delivered.clone().text()).toBe(200);
    await expect.poll(async () => (await sql<{ n: number }[]>`
      select count(*)::int as n from public.notifications n join public.profiles p on p.id = n.recipient_id
      where p.organisation_id = ${organisationId} and n.email_status = 'queued'`)[0].n, { timeout: 30_000 }).toBe(0);

    const summerStart = '2030-06-12T08:30:00.000Z';
    const adaMail = await mailTo(ada.email);
    const adaSubjects = adaMail.map((m) => m.Subject);
    const adaBooked = adaMail.find((m) => m.Subject.startsWith('Place booked: '));
    const adaCancelled = adaMail.find((m) => m.Subject.startsWith('Session cancelled: '));
    expect(adaBooked, adaSubjects.join('; ')).toBeDefined();
    expect(adaCancelled, adaSubjects.join('; ')).toBeDefined();
    const booked = await invitation(adaBooked!.ID);
    const cancelled = await invitation(adaCancelled!.ID);
    expect(booked).toMatchObject({ method: 'REQUEST', start: summerStart });
    expect(cancelled).toMatchObject({ method: 'CANCEL', uid: booked!.uid, start: summerStart });
    expect(cancelled!.sequence).toBeGreaterThan(booked!.sequence);

    const caraMail = await mailTo(cara.email);
    const caraSubjects = caraMail.map((m) => m.Subject).join('; ');
    const waiting = caraMail.find((m) => m.Subject.startsWith('On the waiting list: '));
    const offered = caraMail.find((m) => m.Subject.startsWith('A place is free for you: '));
    const caraBooked = caraMail.find((m) => m.Subject.startsWith('Place booked: '));
    const recorded = caraMail.filter((m) => m.Subject.startsWith('Assessment recorded: '));
    expect(waiting, caraSubjects).toBeDefined();
    expect(offered, caraSubjects).toBeDefined();
    expect(caraBooked, caraSubjects).toBeDefined();
    // Once at the signature, once at the countersignature.
    expect(recorded.length, caraSubjects).toBe(2);
    expect(await mailText(recorded[1].ID)).toContain('A verifier has checked the result.');
    expect(await invitation(waiting!.ID)).toBeNull();
    expect(await invitation(offered!.ID)).toBeNull();
    for (const m of recorded) expect(await invitation(m.ID)).toBeNull();
    const caraInvite = await invitation(caraBooked!.ID);
    expect(caraInvite).toMatchObject({ method: 'REQUEST', start: summerStart });
    expect(caraInvite!.uid).not.toBe(booked!.uid);
    // Ben's move: the same calendar entry (its UID) at the winter date, a later revision.
    const benMail = await mailTo(ben.email);
    expect(benMail.map((m) => m.Subject.split(':')[0])).toEqual(['Place booked', 'Session changed']);
    const benBooked = await invitation(benMail[0].ID);
    const benMoved = await invitation(benMail[1].ID);
    expect(benMoved).toMatchObject({ method: 'REQUEST', uid: benBooked!.uid, start: '2030-12-04T09:30:00.000Z' });
    expect(benMoved!.sequence).toBeGreaterThan(benBooked!.sequence);
  });
});
