// The training passport end to end in Chromium, on the real platform: a paramedic of Southshire
// finishes Southshire's course and finds its signed Open Badges credential in their passport, downloads
// it (JSON and the baked PNG) and shares it; anyone opening the share link sees it verified, and a copy
// with a changed name is reported as changed. The paramedic moves to Eastshire (written straight
// into the database, as an administrator's move would), adds the credential to their passport there,
// and Eastshire's administrator trusts Southshire's issuer and accepts its course as equivalent to
// Eastshire's required one, both filled in from the credential; Eastshire's compliance then shows
// the paramedic's required course as "Recognised", with its origin and expiry, until the credential
// expires. axe and the contrast check on every screen, at 1366 px and 390 px. The details are
// proved by the function's, the database's and the web's own tests; this walks the journey once.
import fs from 'node:fs';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, closeToasts, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, removeCourse, uiLogin } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const ukDate = (when: string | Date) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' }).format(new Date(when));

interface Person { username: string; name: string; password: string; id: string }

describe('training passport end to end', () => {
  let browser: Browser;
  let sql: postgres.Sql;
  let adminToken: string;
  const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const southTitle = `Manual Handling ${suffix}`;
  const eastTitle = `Moving and Handling ${suffix}`;
  const southName = `Southshire Ambulance ${suffix}`;
  const eastName = `Eastshire Ambulance ${suffix}`;
  let southCourse = '';
  let eastCourse = '';
  let moduleId = '';
  const organisations: string[] = [];
  const person = (key: string, name: string): Person => ({ username: `${key}_${suffix}`, name: `${name} ${suffix}`, password: `pw-${suffix}-Passport!`, id: '' });
  const paramedic = person('medic', 'Priya Paramedic');
  const eastAdmin = person('eadmin', 'Eden Administrator');
  let paramedicPage: Page;
  let credentialJson = '';
  let shareLink = '';
  let validUntil: Date;

  async function open(who: Person, path: string, width = 1366): Promise<Page> {
    const context: BrowserContext = await browser.newContext({ acceptDownloads: true, viewport: { width, height: 900 }, timezoneId: 'Europe/London', locale: 'en-GB' });
    const page = await context.newPage();
    await uiLogin(page, who.username, who.password, path);
    return page;
  }

  /** axe and the contrast check at 1366 px, then again at 390 px (no sideways scroll), on the same page. */
  async function checkBothWidths(page: Page, name: string) {
    await closeToasts(page);
    await expectAccessible(page);
    await screenshot(page, `${name}-1366`);
    await page.setViewportSize({ width: 390, height: 900 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, `${name}-390`);
    await page.setViewportSize({ width: 1366, height: 900 });
  }

  beforeAll(async () => {
    sql = postgres(dbUrl, { max: 1, onnotice: () => {}, prepare: false });
    adminToken = (await apiLogin('admin')).token;
    const [south] = await sql<{ id: string }[]>`insert into public.organisations (name, code, service)
      values (${southName}, ${`SP${suffix}`.slice(0, 16)}, 'UKAS') returning id`;
    const [east] = await sql<{ id: string }[]>`insert into public.organisations (name, code, service)
      values (${eastName}, ${`EP${suffix}`.slice(0, 16)}, 'UKAS') returning id`;
    organisations.push(south.id, east.id);
    for (const [title, organisation] of [[southTitle, south.id], [eastTitle, east.id]] as const) {
      const course = await apiCall('POST', '/courses', adminToken, {
        title, description: 'Safe moving and handling of patients, refreshed every year.', service: 'UKAS', status: 'ACTIVE', certificateValidMonths: 12,
      });
      expect(course.status).toBe(201);
      await sql`update public.courses set organisation_id = ${organisation} where id = ${course.json.id}`;
      if (organisation === south.id) southCourse = course.json.id;
      else eastCourse = course.json.id;
    }
    const module = await apiCall('POST', `/courses/${southCourse}/modules`, adminToken, { title: 'Lifting safely', content: 'Bend the knees, keep the load close.' });
    expect(module.status).toBe(201);
    moduleId = module.json.id;
    // Eastshire requires its own course of all its people.
    await sql`insert into public.required_training (course_id, organisation_id, due_within_days, renew_before_days) values (${eastCourse}, ${east.id}, 30, 30)`;
    for (const p of [paramedic, eastAdmin]) {
      const answer = await apiCall('POST', '/register', undefined, {
        username: p.username, email: `${p.username}@example.test`, name: p.name, password: p.password, confirmPassword: p.password,
      });
      expect(answer.status).toBe(201);
      p.id = answer.json.user.id;
    }
    await sql`update public.profiles set services = '{UKAS}', organisation_id = ${south.id} where id = ${paramedic.id}`;
    await sql`update public.profiles set role = 'ADMIN', services = '{UKAS}', organisation_id = ${east.id} where id = ${eastAdmin.id}`;
    const { token } = await apiLogin(paramedic.username, paramedic.password);
    expect((await apiCall('POST', `/courses/${southCourse}/enroll`, token)).status).toBe(201);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    for (const id of [southCourse, eastCourse].filter(Boolean)) {
      await sql`delete from public.required_training where course_id = ${id}`;
      await removeCourse(id, adminToken);
    }
    const people = [paramedic, eastAdmin].map((p) => p.id).filter(Boolean);
    if (people.length > 0) await sql`update public.profiles set organisation_id = null, role = 'STUDENT' where id in ${sql(people)}`;
    if (organisations.length > 0) {
      await sql`delete from public.recognition_equivalences where organisation_id in ${sql(organisations)}`;
      await sql`delete from public.trusted_issuers where organisation_id in ${sql(organisations)}`;
      // A course with certificates is archived, not deleted: it stays, without its organisation.
      await sql`update public.courses set organisation_id = null where organisation_id in ${sql(organisations)}`;
      await sql`delete from public.organisations where id in ${sql(organisations)}`;
    }
    await sql?.end();
  });

  it('a paramedic of Southshire finishes the course, then downloads and shares its credential from the passport', async () => {
    paramedicPage = await open(paramedic, `/course/${southCourse}/module/${moduleId}`);
    const page = paramedicPage;
    await page.getByRole('button', { name: 'Mark as complete', exact: true }).click();
    await page.getByText('You have completed this module.').waitFor();
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Training passport' }).click();
    await page.waitForURL(`${baseUrl}/passport`);
    await page.getByRole('heading', { name: 'Training passport', level: 1 }).waitFor();
    const card = page.getByRole('article', { name: southTitle });
    [{ validUntil }] = await sql<{ validUntil: Date }[]>`
      select expires_at as "validUntil" from public.certificates where user_id = ${paramedic.id} and course_id = ${southCourse}`;
    await card.getByText(`Valid until ${ukDate(validUntil)}`).waitFor();
    await card.getByText(`Issued by ${southName} on`, { exact: false }).waitFor();

    const [json] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download JSON' }).click()]);
    credentialJson = fs.readFileSync((await json.path())!, 'utf8');
    const credential = JSON.parse(credentialJson);
    expect(credential.type).toEqual(expect.arrayContaining(['VerifiableCredential', 'OpenBadgeCredential']));
    expect(credential.issuer.name).toBe(southName);
    expect(credential.credentialSubject.achievement.name).toBe(southTitle);
    expect(credential.proof.cryptosuite).toBe('eddsa-rdfc-2022');
    const [png] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download badge (PNG)' }).click()]);
    const bytes = fs.readFileSync((await png.path())!);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.includes(Buffer.from('openbadgecredential'))).toBe(true);

    const linkedIn = new URL((await card.getByRole('link', { name: /Add to LinkedIn/ }).getAttribute('href'))!);
    expect(linkedIn.searchParams.get('name')).toBe(southTitle);
    expect(linkedIn.searchParams.get('organizationName')).toBe(southName);
    const share = card.getByRole('switch', { name: 'Public link' });
    await share.click();
    const link = card.getByRole('textbox', { name: 'Public link to this credential' });
    await link.waitFor();
    expect(await share.evaluate((el) => el === document.activeElement)).toBe(true);
    shareLink = await link.inputValue();
    expect(shareLink).toMatch(new RegExp(`^${baseUrl}/verify-credential\\?shared=[0-9a-f]+$`));
    await checkBothWidths(page, 'passport');
  });

  it('anyone opening the share link sees it verified; a copy with a changed name is reported as changed', async () => {
    const visitor = await (await browser.newContext({ timezoneId: 'Europe/London', locale: 'en-GB' })).newPage();
    await visitor.goto(shareLink);
    await visitor.getByRole('heading', { name: 'Verify a credential', level: 1 }).waitFor();
    const box = visitor.getByRole('textbox', { name: 'Credential (JSON)' });
    const result = visitor.getByRole('region', { name: 'Verified' });
    await result.getByText(`Signed by ${southName}; valid until ${ukDate(validUntil)}.`).waitFor();
    await checkBothWidths(visitor, 'verify-credential');

    const changed = JSON.parse(credentialJson);
    changed.credentialSubject.achievement.name = 'Advanced Paramedic Practice';
    await box.fill(JSON.stringify(changed));
    await visitor.getByRole('button', { name: 'Verify', exact: true }).click();
    await visitor.getByRole('region', { name: 'Changed since it was signed' }).getByText(/proves nothing/).waitFor();
    await visitor.context().close();
  });

  it('after the move, Eastshire trusts Southshire and accepts its course, filled in from the credential', async () => {
    const [east] = organisations.slice(1);
    await sql`update public.profiles set organisation_id = ${east} where id = ${paramedic.id}`;
    // The paramedic adds the credential they carry to their passport at Eastshire.
    const page = paramedicPage;
    await page.goto(`${baseUrl}/passport`);
    const add = page.getByRole('form', { name: 'Add a credential' });
    await add.getByRole('textbox', { name: 'Credential (JSON)' }).fill(credentialJson);
    await add.getByRole('button', { name: 'Add credential' }).click();
    await page.getByRole('region', { name: 'Credentials from other issuers' }).getByRole('listitem').getByText(southTitle).waitFor();

    const admin = await open(eastAdmin, '/admin?tab=recognition');
    await admin.getByRole('heading', { name: 'Recognised training', level: 2 }).waitFor();
    const trust = admin.getByRole('form', { name: 'Trust an issuer' });
    await trust.getByRole('button', { name: 'Fill in from a credential' }).click();
    await trust.getByRole('textbox', { name: 'Credential (JSON)' }).fill(credentialJson);
    await trust.getByRole('button', { name: 'Use this credential' }).click();
    await trust.getByRole('button', { name: 'Trust an issuer' }).click();
    await admin.getByRole('table', { name: 'Trusted issuers' }).getByText(southName).waitFor();

    const equivalence = admin.getByRole('form', { name: 'Add an equivalence' });
    await equivalence.getByRole('button', { name: 'Fill in from a credential' }).click();
    await equivalence.getByRole('textbox', { name: 'Credential (JSON)' }).fill(credentialJson);
    await equivalence.getByRole('button', { name: 'Use this credential' }).click();
    await equivalence.getByRole('combobox', { name: /Your course/ }).fill(eastTitle);
    await admin.getByRole('option', { name: eastTitle }).click();
    await equivalence.getByRole('button', { name: 'Add an equivalence' }).click();
    const row = admin.getByRole('table', { name: 'Equivalent courses' }).locator('tr', { hasText: eastTitle });
    await row.getByText(southTitle).waitFor();
    await checkBothWidths(admin, 'recognised-training');

    // Compliance: the paramedic's required course is done, as recognised, with its origin and expiry.
    await admin.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Compliance' }).click();
    await admin.getByRole('heading', { name: 'Compliance', level: 1 }).waitFor();
    await admin.getByRole('combobox', { name: 'Course', exact: true }).fill(eastTitle);
    await admin.getByRole('option', { name: eastTitle }).click();
    const summary = admin.locator(`tr[data-course="${eastCourse}"]`).first();
    await summary.locator('[data-count="done"]').getByRole('button').click();
    const mine = admin.getByRole('region', { name: `People: ${eastTitle}` }).locator(`tr[data-user="${paramedic.id}"]`);
    await mine.getByText('Recognised', { exact: true }).waitFor();
    await mine.getByText(`From ${southTitle} (${southName}), until ${ukDate(validUntil)}.`).waitFor();
    await checkBothWidths(admin, 'compliance-recognised');

    // Past its expiry it no longer counts: the required course is overdue again.
    await sql`update public.certificates set issued_at = now() - interval '13 months', expires_at = now() - interval '1 day'
              where user_id = ${paramedic.id} and course_id = ${southCourse}`;
    await sql`update public.held_credentials set valid_until = now() - interval '1 day' where user_id = ${paramedic.id}`;
    const token = (await apiLogin(eastAdmin.username, eastAdmin.password)).token;
    await expect.poll(async () => {
      const people = await apiCall('GET', `/compliance/people?courseId=${eastCourse}&pageSize=50`, token);
      return people.json.items?.find((p: { user: { id: string } }) => p.user.id === paramedic.id)?.status;
    }, { timeout: 15_000 }).not.toBe('recognised');
    await admin.context().close();
    await paramedicPage.context().close();
  });
});
