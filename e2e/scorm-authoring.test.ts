// SCORM authoring in Chromium against the real platform: the instructor adds a module of type
// "SCORM package" in the course editor, uploads a renamed PNG (refused with the server's reason under
// the file input, focus kept on the upload button; the server's reasons for every malformed package
// are proven in supabase/functions/tests/scorm_test.ts), then a multi-SCO SCORM 2004 package, sees
// its title, version and SCOs in order with their launch files, and saves from the keyboard what
// completes the module, the score as quiz score and a minimum time; the upload control states the
// site's size limit and refuses a file over it before sending it. axe and the contrast check on each
// state of the dialog, at 1366 and 390 px. The limit changed here is restored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin, removeCourse } from './api';
import { malformed, scorm2004Package } from '../supabase/functions/tests/scorm_packages';

/** The site's limit (MB), set as the Settings tab does: the whole form with the new value. */
async function setLimit(megabytes: number) {
  const admin = (await apiLogin('admin')).token;
  const current = (await apiCall('GET', '/settings', admin)).json;
  const saved = await apiCall('PUT', '/settings', admin, { ...current, scormMaxUploadMb: megabytes });
  expect(saved.status, saved.text).toBe(200);
}

describe('SCORM package authoring', () => {
  let browser: Browser;
  let page: Page;
  let courseId = '';
  let token = '';
  let limitChanged = false;

  beforeAll(async () => {
    token = (await apiLogin('instructor')).token;
    const course = await apiCall('POST', '/courses', token, {
      title: 'SCORM authoring journey', description: 'A course that plays SCORM packages.', service: 'UKPS', duration: 1,
    });
    expect(course.status, course.text).toBe(201);
    courseId = course.json.id;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
  });
  afterAll(async () => {
    if (limitChanged) await setLimit(200);
    if (courseId) await removeCourse(courseId, token);
    await browser?.close();
  });

  it('adds a module of type SCORM package', async () => {
    await uiLogin(page, 'instructor', 'password123', `/course/edit/${courseId}`);
    await page.getByRole('tab', { name: /Modules & Quizzes/ }).click();
    await page.getByRole('button', { name: 'Add Your First Module' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Module' });
    await dialog.getByRole('radio', { name: 'SCORM package' }).check();
    await expect.poll(() => dialog.getByLabel('Module Content', { exact: true }).count()).toBe(0);
    await dialog.getByLabel('Module Title', { exact: true }).fill('Casualty care package');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create Module' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('SCORM package', { exact: true }).waitFor();
  });

  it('refuses a renamed PNG with the server\'s reason and keeps focus on the upload button', async () => {
    await page.getByRole('button', { name: 'Package: Casualty care package' }).click();
    const dialog = page.getByRole('dialog', { name: 'SCORM package: Casualty care package' });
    await dialog.getByText('No package uploaded yet', { exact: false }).waitFor();
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'course.zip', mimeType: 'application/zip', buffer: Buffer.from(malformed.renamedPng()) });
    await dialog.getByRole('button', { name: 'Upload package' }).click();
    await dialog.getByText('The file is not a zip archive: export the course again as a SCORM 1.2 or 2004 package').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Upload package');
    await expectAccessible(page);
  });

  it('uploads a multi-SCO SCORM 2004 package and shows its SCOs in order with their launch files', async () => {
    const dialog = page.getByRole('dialog', { name: 'SCORM package: Casualty care package' });
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'casualty.zip', mimeType: 'application/zip', buffer: Buffer.from(scorm2004Package()) });
    await dialog.getByRole('button', { name: 'Upload package' }).click();
    await dialog.getByRole('heading', { name: 'Casualty care' }).waitFor();
    await dialog.getByText(/SCORM 2004 \(3rd edition\) · 8 files, \d+ KB · revision 1/).waitFor();
    const items = dialog.getByRole('list', { name: '3 parts (SCOs), in order' }).getByRole('listitem');
    await expect.poll(() => items.allTextContents()).toEqual([
      'Primary survey assess/index.html',
      'Catastrophic bleeding bleeding/index.html?section=bleeding',
      'Airway management airway/index.html',
    ]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Upload replacement');
    await screenshot(page, 'scorm-package-1366');
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'scorm-package-390');
    await expectAccessible(page);
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('saves from the keyboard what completes the module, the score as quiz score and a minimum time', async () => {
    const dialog = page.getByRole('dialog', { name: 'SCORM package: Casualty care package' });
    await dialog.getByRole('radio', { name: 'Completed or passed (either)' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => dialog.getByRole('radio', { name: 'Passed', exact: true }).isChecked()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'The package\'s score counts as the module\'s quiz score' }).focus();
    await page.keyboard.press('Space');
    await dialog.getByRole('textbox', { name: 'Minimum time (minutes)' }).focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('30');
    await dialog.getByRole('button', { name: 'Save settings' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Settings saved', { exact: true }).waitFor();
    // The pointer leaves the button it last pressed (a hovered button is not what is checked here).
    await page.mouse.move(0, 0);
    await expectAccessible(page);
    await screenshot(page, 'scorm-package-settings-saved');
    const modules = await apiCall('GET', `/courses/${courseId}/modules`, token);
    const scorm = await apiCall('GET', `/modules/${modules.json[0].id}/scorm`, token);
    expect([scorm.json.completionRule, scorm.json.scoreIsQuizScore, scorm.json.minMinutes]).toEqual(['passed', true, 30]);
  });

  it('states the site\'s size limit and refuses a file over it before sending it, in the server\'s words', async () => {
    const dialog = page.getByRole('dialog', { name: 'SCORM package: Casualty care package' });
    // The dialog reads the limit when the page loads it: set, then open afresh.
    const reopen = async (megabytes: number) => {
      limitChanged = true;
      await setLimit(megabytes);
      await page.reload();
      await page.getByRole('tab', { name: /Modules & Quizzes/ }).click();
      await page.getByRole('button', { name: 'Package: Casualty care package' }).click();
      await dialog.getByText(`SCORM 1.2 or 2004 (2nd, 3rd or 4th edition), up to ${megabytes} MB`).waitFor();
    };
    await reopen(200);
    await reopen(1);
    let uploads = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/modules\/[^/]+\/scorm$/.test(new URL(request.url()).pathname)) uploads += 1;
    });
    // 1.5 MB: over the limit, refused as soon as it is chosen and again on Upload, and never sent.
    const big = Buffer.concat([Buffer.from(scorm2004Package()), Buffer.alloc(1.5 * 1024 * 1024 - scorm2004Package().length)]);
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'big.zip', mimeType: 'application/zip', buffer: big });
    const message = 'The package is 1.5 MB; the largest package this site accepts is 1 MB. Export it again with smaller media (compressed video and audio), or split the course into several packages; a national administrator can raise the limit in Settings.';
    await dialog.getByText(message).waitFor();
    await dialog.getByRole('button', { name: 'Upload replacement' }).click();
    await dialog.getByText(message).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Upload replacement');
    const input = dialog.getByRole('button', { name: /Replace the package/ });
    await expect(input.getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessible(page);
    await screenshot(page, 'scorm-package-over-limit');
    expect(uploads).toBe(0);
    const modules = await apiCall('GET', `/courses/${courseId}/modules`, token);
    expect((await apiCall('GET', `/modules/${modules.json[0].id}/scorm`, token)).json.revision).toBe(1);
  });
});
