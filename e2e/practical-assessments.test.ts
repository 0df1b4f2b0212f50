// Practical assessments in Chromium against the real platform: the course's author sets a second
// signature and 12 months' validity and writes two criteria (one critical) in the course editor; an
// assessor of the service, on a 390 px phone, judges the learner, takes a photo as evidence through
// the camera input, sees Competent refused while the critical criterion is not yet competent, and
// signs off after confirming; a second assessor verifies; the learner then reads Competent, the date
// it is valid until, the assessor's note and their certificate expiring on that date. axe and the
// text contrast check on every screen, at 1366 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, chooseOption, closeToasts, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiChooseNewPassword, apiLogin, removeCourse, uiLogin } from './api';
import { makePng } from './files';

const ukDate = (iso: string | Date) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' }).format(new Date(iso));

describe('practical assessments: author, assessor on a phone, verifier, learner', () => {
  let browser: Browser;
  let adminToken = '';
  let authorToken = '';
  let courseId = '';
  let moduleId = '';
  const suffix = Date.now().toString(36);
  const courseTitle = `Hydrant drill ${suffix}`;
  const moduleTitle = `Hydrant practical ${suffix}`;
  const learner = { username: `pa_learner_${suffix}`, name: `Lee Hydrant ${suffix}`, password: `pw-${suffix}-Learner!`, token: '' };
  const assessor = { username: `pa_assessor_${suffix}`, name: `Ada Assessor ${suffix}`, password: '' };

  async function page(width: number, height = 900): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height }, timezoneId: 'Europe/London', locale: 'en-GB' });
    return context.newPage();
  }

  beforeAll(async () => {
    adminToken = (await apiLogin('admin')).token;
    authorToken = (await apiLogin('instructor')).token;
    const course = await apiCall('POST', '/courses', adminToken, {
      title: courseTitle, description: 'Setting into a hydrant and running out hose, assessed on the drill ground.', service: 'UKPS', status: 'ACTIVE',
    });
    expect(course.status, course.text).toBe(201);
    courseId = course.json.id;
    const module = await apiCall('POST', `/courses/${courseId}/modules`, adminToken, { kind: 'assessment', title: moduleTitle, content: '' });
    expect(module.status, module.text).toBe(201);
    moduleId = module.json.id;

    // A second instructor of the service: the assessor (the seeded instructor verifies).
    const created = await apiCall('POST', '/users', adminToken, {
      username: assessor.username, email: `${assessor.username}@example.uk`, name: assessor.name, role: 'INSTRUCTOR', services: ['UKPS'],
    });
    expect(created.status, created.text).toBe(201);
    const signedIn = await apiLogin(assessor.username, created.json.temporaryPassword);
    assessor.password = await apiChooseNewPassword(signedIn.token, created.json.temporaryPassword);

    const registered = await apiCall('POST', '/register', undefined, {
      username: learner.username, email: `${learner.username}@example.test`, name: learner.name, password: learner.password, confirmPassword: learner.password,
    });
    expect(registered.status, registered.text).toBe(201);
    learner.token = registered.json.session.access_token;
    const enrolled = await apiCall('POST', `/courses/${courseId}/enroll`, learner.token);
    expect([200, 201], enrolled.text).toContain(enrolled.status);

    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (courseId) await removeCourse(courseId, adminToken);
  });

  it('the author sets a verifier, 12 months and two criteria in the course editor', async () => {
    const author = await page(1366);
    await uiLogin(author, 'admin', 'password123', `/course/edit/${courseId}`);
    await author.getByRole('tab', { name: /Modules & Quizzes/ }).click();
    await author.getByRole('button', { name: `Assessment: ${moduleTitle}` }).click();
    const dialog = author.getByRole('dialog', { name: `Assessment: ${moduleTitle}` });
    await dialog.getByRole('checkbox', { name: /Needs a second signature/ }).check();
    await dialog.getByLabel('Valid for (months)').fill('12');
    await dialog.getByRole('button', { name: 'Save settings' }).click();
    await author.getByText('Settings saved').waitFor();

    for (const [title, titleCy, critical] of [['Sets into the hydrant safely', "Yn gosod i mewn i'r hydrant yn ddiogel", true], ['Runs out and makes up the hose', null, false]] as const) {
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
    await closeToasts(author);
    await expectAccessible(author);
    await screenshot(author, 'assessment-author');

    const saved = await apiCall('GET', `/modules/${moduleId}/assessment`, authorToken);
    expect(saved.json.settings).toEqual({ moduleId, needsVerifier: true, validMonths: 12 });
    expect(saved.json.criteria.map((c: { title: string; critical: boolean }) => [c.title, c.critical])).toEqual([
      ['Sets into the hydrant safely', true], ['Runs out and makes up the hose', false],
    ]);
    await author.context().close();
  });

  it('the assessor, on a phone, judges the learner with a photo as evidence and signs off', async () => {
    const phone = await page(390, 844);
    await uiLogin(phone, assessor.username, assessor.password, `/instructor/assessments/module/${moduleId}`);
    await phone.getByRole('heading', { level: 1, name: `Assess: ${moduleTitle}` }).waitFor();
    await expectAccessible(phone);
    await phone.getByRole('button', { name: `Assess ${learner.name}` }).click();
    await phone.getByRole('heading', { level: 1, name: `Assessment of ${learner.name}` }).waitFor();

    const [critical, hose] = [phone.getByTestId('judgement').nth(0), phone.getByTestId('judgement').nth(1)];
    await critical.getByRole('radio', { name: 'Not yet competent' }).check();
    await hose.getByRole('radio', { name: 'Competent', exact: true }).check();
    const overall = phone.getByRole('radiogroup', { name: 'Overall outcome' });
    expect(await overall.getByRole('radio', { name: 'Competent', exact: true }).isDisabled()).toBe(true);
    await phone.getByText(/a critical criterion is not yet competent \(Sets into the hydrant safely\)/).waitFor();
    await expectAccessible(phone);
    await screenshot(phone, 'assessment-assessor-critical-390');

    await critical.getByRole('radio', { name: 'Competent', exact: true }).check();
    await critical.getByLabel('Note on criterion 1').fill('Cap off, flushed, stood clear.');
    await overall.getByRole('radio', { name: 'Competent', exact: true }).check();

    // The camera's input: the phone's camera opens on it; here the photo is handed to it.
    const camera = phone.locator('input[type=file][capture]');
    expect(await camera.getAttribute('accept')).toBe('image/*,application/pdf');
    await camera.setInputFiles({ name: 'hydrant.png', mimeType: 'image/png', buffer: makePng(64, 48, [200, 40, 40]) });
    await phone.getByRole('button', { name: 'Open hydrant.png' }).waitFor();
    // A file that only claims to be a photo: the server reads its bytes and refuses it (415).
    await camera.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not really a picture') });
    await phone.getByRole('alert').getByText(/This kind of file cannot be kept/).waitFor();
    await expect.poll(() => phone.evaluate(() => document.activeElement?.textContent)).toBe('Take a photo');
    await closeToasts(phone);
    await expectAccessible(phone);
    await screenshot(phone, 'assessment-assessor-evidence-390');

    await phone.getByRole('button', { name: 'Sign off' }).click();
    const confirm = phone.getByRole('dialog', { name: 'Sign off this record?' });
    await confirm.getByText(/A signed record cannot be changed/).waitFor();
    await expectAccessible(phone);
    await confirm.getByRole('button', { name: 'Sign off' }).click();
    await phone.getByText('This record waits for a second assessor to verify it.').waitFor();
    await expect.poll(() => phone.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await closeToasts(phone);
    await expectAccessible(phone);
    await screenshot(phone, 'assessment-assessor-signed-390');
    await phone.context().close();
  });

  it('a second assessor finds it waiting for verification, downloads the queue and verifies', async () => {
    const verifier = await page(1366);
    await uiLogin(verifier, 'instructor', 'password123', '/instructor?tab=assessments');
    await chooseOption(verifier, verifier, 'Show', 'Waiting for verification');
    const link = verifier.getByRole('link', { name: `Open the record of ${learner.name}, ${moduleTitle}` });
    await link.waitFor();
    await expectAccessible(verifier);
    await screenshot(verifier, 'assessment-queue');
    const [download] = await Promise.all([verifier.waitForEvent('download'), verifier.getByRole('button', { name: 'Download (CSV)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);

    await link.click();
    await verifier.getByRole('heading', { level: 1, name: `Assessment of ${learner.name}` }).waitFor();
    await verifier.getByRole('button', { name: 'Verify' }).click();
    await verifier.getByText(/Verified by .* on /).waitFor();
    await closeToasts(verifier);
    await expectAccessible(verifier);
    await screenshot(verifier, 'assessment-verified');
    await verifier.context().close();
  });

  it('the learner sees Competent, until when, the notes, and the certificate expiring then', async () => {
    const standing = await apiCall('GET', `/modules/${moduleId}/assessment`, learner.token);
    expect(standing.json.signedOff).toBe(true);
    const validUntil = standing.json.validUntil as string;
    expect(validUntil).not.toBeNull();

    for (const width of [1366, 390]) {
      const view = await page(width);
      await uiLogin(view, learner.username, learner.password, `/course/${courseId}/module/${moduleId}`);
      await view.getByTestId('assessment-standing').getByText('Competent', { exact: true }).waitFor();
      await view.getByText(`valid until ${ukDate(validUntil)}`, { exact: false }).waitFor();
      await view.getByText('Cap off, flushed, stood clear.').waitFor();
      await view.getByRole('button', { name: 'Open hydrant.png' }).waitFor();
      await expectAccessible(view);
      await screenshot(view, `assessment-learner-${width}`);
      if (width === 1366) {
        await view.goto(`${baseUrl}/certificates`);
        const card = view.getByRole('article', { name: `Certificate: ${courseTitle}` });
        await card.getByText(`Valid until ${ukDate(validUntil)}`).waitFor();
        await expectAccessible(view);
        await screenshot(view, 'assessment-certificate');
      }
      await view.context().close();
    }
  });
});
