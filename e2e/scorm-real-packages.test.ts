// Packages as authoring tools really export them, played to the end in Chromium: a
// SCORM 2004 3rd edition package whose manifest declares objectives, a passing score (imsss
// minNormalizedMeasure 0.8) and a completion threshold, which finds its objectives by id, records
// interactions of every response type, asks to resume with confirm() and tells its score with
// alert(); a SCORM 1.2 package with adlcp:masteryscore 80 and 4,096 characters of suspend data that
// reports only "completed" with its score; and a package that writes invalid values among valid
// ones. Each completes its module with its score, resumes where the learner left, and the
// instructor sees the right status. Packages: supabase/functions/tests/scorm_packages.ts.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Dialog, FrameLocator, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, apiUrl, uiLogin } from './api';
import {
  INTERACTIONS_2004,
  INVALID_WRITES_2004,
  real12Package,
  real2004Manifest,
  real2004Package,
  scorm2004Page,
  SUSPEND_4096,
  zipOf,
} from '../supabase/functions/tests/scorm_packages';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;
const COURSE = `Real SCORM packages ${suffix}`;
const M2004 = 'Major incident triage';
const M12 = 'Water rescue awareness';
const MBAD = 'Invalid writes';

describe('real SCORM packages, played to the end (issue 27)', () => {
  let browser: Browser;
  let page: Page;
  let staffPage: Page;
  let sql: postgres.Sql;
  let token = '';
  let courseId = '';
  let learnerId = '';
  const ids: Record<string, string> = {};
  const dialogs: string[] = [];
  const learner = { username: `srp_${suffix}`, email: `srp.${suffix}@example.uk`, name: `Riley Real ${suffix}`, password: 'real-scorm-1' };
  const sco = (): FrameLocator => page.frameLocator('[data-testid="scorm-frame"]').frameLocator('#sco');
  const status = () => page.getByTestId('scorm-status');
  const attempt = async (moduleId: string) => {
    const [row] = await sql`select cmi, completion_status, success_status, score::float8 as score, total_seconds::float8 as total,
                                   server_seconds::float8 as server
                            from public.scorm_attempts where module_id = ${moduleId}::uuid and user_id = ${learnerId}::uuid
                            order by attempt desc limit 1`;
    return row as { cmi: Record<string, string>; completion_status: string; success_status: string; score: number | null; total: number; server: number };
  };

  async function scormModule(title: string, zip: Uint8Array, settings: Record<string, unknown>) {
    const created = await apiCall('POST', `/courses/${courseId}/modules`, token, { kind: 'scorm', title });
    expect(created.status, created.text).toBe(201);
    ids[title] = created.json.id;
    const uploaded = await fetch(`${apiUrl}/modules/${created.json.id}/scorm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/zip' },
      body: Buffer.from(zip),
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const set = await apiCall('PUT', `/modules/${created.json.id}/scorm/settings`, token, settings);
    expect(set.status, set.text).toBe(200);
  }

  beforeAll(async () => {
    sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    token = (await apiLogin('instructor')).token;
    const course = await apiCall('POST', '/courses', token, {
      title: COURSE, description: 'Packages exported the way authoring tools export them.', service: 'UKPS', duration: 1,
    });
    expect(course.status, course.text).toBe(201);
    courseId = course.json.id;
    await scormModule(M2004, real2004Package({ title: M2004, passingScore: '0.8', completionThreshold: '0.75' }), { completionRule: 'passed', scoreIsQuizScore: false });
    await scormModule(M12, real12Package({ title: M12 }), { completionRule: 'passed', scoreIsQuizScore: true });
    await scormModule(MBAD, zipOf({
      'imsmanifest.xml': real2004Manifest({ title: MBAD }),
      'scormcontent/index.html': scorm2004Page(MBAD, INVALID_WRITES_2004),
    }), { completionRule: 'completed-or-passed', scoreIsQuizScore: false });
    await sql`update public.courses set status = 'ACTIVE' where id = ${courseId}::uuid`;
    const registered = await apiCall('POST', '/register', undefined, { ...learner, confirmPassword: learner.password });
    expect(registered.status, registered.text).toBe(201);
    learnerId = registered.json.user.id;
    const learnerToken = (await apiLogin(learner.username, learner.password)).token;
    expect((await apiCall('POST', `/courses/${courseId}/enroll`, learnerToken)).status).toBe(201);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    // The packages' confirm() and alert() reach the learner (the frame allows modals): accepted here.
    page.on('dialog', (dialog: Dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
    await uiLogin(page, learner.username, learner.password);
    staffPage = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await uiLogin(staffPage, 'instructor');
  }, 120_000);
  afterAll(async () => {
    if (courseId) await apiCall('DELETE', `/courses/${courseId}`, token);
    await browser?.close();
    await sql?.end({ timeout: 5 });
  });

  it('2004: the package gets the page\'s width, its manifest objectives and passing score, and the status says it runs', async () => {
    await page.goto(`${baseUrl}/course/${courseId}/module/${ids[M2004]}`);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => sco().locator('#entry').textContent(), { timeout: 20_000 }).toBe('ab-initio');
    expect(await sco().locator('#objectives').textContent()).toBe('3');
    expect(await sco().locator('#passing').textContent()).toBe('0.8');
    const box = await page.getByTestId('scorm-frame').boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(900);
    expect(box?.height ?? 0).toBeGreaterThan(600);
    await page.getByTestId('scorm-sco-status').getByText('In progress', { exact: true }).waitFor();
    await screenshot(page, 'scorm-real-2004-1366');
    await expectAccessible(page);
    // Full screen: the package and its controls fill the screen, and come back.
    await page.getByRole('button', { name: 'Full screen' }).click();
    await page.getByRole('button', { name: 'Leave full screen' }).waitFor();
    expect(await page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid'))).toBe('scorm-box');
    await expect.poll(async () => (await page.getByTestId('scorm-frame').boundingBox())?.height ?? 0).toBeGreaterThan(780);
    await page.getByRole('button', { name: 'Leave full screen' }).click();
    await page.getByRole('button', { name: 'Full screen' }).waitFor();
    expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
  });

  it('2004: "Save and exit" lets the package report its exit and session time before the frame goes', async () => {
    await sco().getByRole('button', { name: 'Next' }).click();
    await sco().getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => sco().locator('#slide-title').textContent()).toBe('Slide 3 of 3');
    await page.getByRole('button', { name: 'Save and exit' }).click();
    await status().getByText('Saved: you can carry on from where you left off.').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('scorm-frame').count()).toBe(0);
    await expect.poll(async () => (await attempt(ids[M2004])).total, { timeout: 10_000 }).toBeGreaterThan(0);
    const saved = await attempt(ids[M2004]);
    expect([saved.cmi['cmi.exit'], saved.cmi['cmi.location'], saved.completion_status, saved.score]).toEqual(['suspend', '2', 'incomplete', null]);
    const [session] = await sql`select session_time, finished_at is not null as finished from public.scorm_sessions s
      join public.scorm_attempts a on a.id = s.attempt_id where a.module_id = ${ids[M2004]}::uuid and a.user_id = ${learnerId}::uuid`;
    expect(session.session_time).toMatch(/^PT\d+(\.\d+)?S$/);
    expect(session.finished).toBe(true);
    // No score reported: none shown (never 0 %).
    expect(await page.getByTestId('scorm-player').textContent()).not.toContain('%');
  });

  it('2004: resumes where the learner left after the package\'s own confirm(), then passes with 100% from the manifest\'s passing score', async () => {
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect.poll(() => sco().locator('#entry').textContent(), { timeout: 20_000 }).toBe('resume');
    await expect.poll(() => sco().locator('#slide-title').textContent()).toBe('Slide 3 of 3');
    expect(dialogs).toContain('confirm: Would you like to resume where you left off?');
    await sco().getByRole('button', { name: 'Next' }).click();
    await sco().getByRole('button', { name: 'Submit quiz' }).click();
    await expect.poll(() => sco().locator('#result').textContent()).toBe('Score 100%; success passed');
    expect(dialogs).toContain('alert: You scored 100%.');
    await sco().getByRole('button', { name: 'Exit course' }).click();
    await status().getByText('Finished and saved: you have completed this module.').waitFor({ timeout: 15_000 });
    await page.getByTestId('scorm-sco-status').getByText('Passed · score 100%', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    const saved = await attempt(ids[M2004]);
    expect([saved.completion_status, saved.success_status, saved.score]).toEqual(['completed', 'passed', 1]);
    // Every interaction type, and the objectives by the ids the manifest gave.
    expect(INTERACTIONS_2004.map((_, n) => saved.cmi[`cmi.interactions.${n}.type`])).toEqual(INTERACTIONS_2004.map((row) => row[1]));
    expect([saved.cmi['cmi.objectives.1.success_status'], saved.cmi['cmi.objectives.2.success_status']]).toEqual(['passed', 'passed']);
    expect(Object.keys(saved.cmi).some((key) => key.includes('undefined'))).toBe(false);
    // Played again, the completed module offers a new attempt, saying the completion is kept.
    await page.getByRole('button', { name: 'Play again' }).waitFor();
  });

  it('1.2: keeps 4,096 characters of suspend data, resumes after confirm(), and its mastery score makes "completed" with 90 passed', async () => {
    await page.goto(`${baseUrl}/course/${courseId}/module/${ids[M12]}`);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => sco().locator('#mastery').textContent(), { timeout: 20_000 }).toBe('80');
    await sco().getByRole('button', { name: 'Half way' }).click();
    await status().getByText(/Progress saved at/).waitFor({ timeout: 15_000 });
    expect((await attempt(ids[M12])).cmi['cmi.suspend_data']).toBe(SUSPEND_4096);
    await page.reload();
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect.poll(() => sco().locator('#entry').textContent(), { timeout: 20_000 }).toBe('resume');
    expect(await sco().locator('#suspend-length').textContent()).toBe('4096');
    expect(await sco().locator('#intact').textContent()).toBe('true');
    await expect.poll(() => sco().locator('#slide-title').textContent()).toBe('Resumed at slide-7');
    expect(dialogs).toContain('confirm: Resume where you left off?');
    await sco().getByRole('button', { name: 'Finish' }).click();
    await status().getByText('Finished and saved: you have completed this module.').waitFor({ timeout: 15_000 });
    await page.getByTestId('scorm-sco-status').getByText('Passed · score 90%', { exact: true }).waitFor();
    const saved = await attempt(ids[M12]);
    expect([saved.completion_status, saved.success_status, saved.score]).toEqual(['completed', 'passed', 0.9]);
    expect(saved.cmi['cmi.core.lesson_status']).toBe('completed');
  });

  it('a package that writes invalid values among valid ones keeps working: the valid ones complete the module and the course', async () => {
    await page.goto(`${baseUrl}/course/${courseId}/module/${ids[MBAD]}`);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await status().getByText('Finished and saved: you have completed this module.').waitFor({ timeout: 20_000 });
    const saved = await attempt(ids[MBAD]);
    expect([saved.cmi['cmi.location'], saved.completion_status, saved.success_status, saved.score]).toEqual(['end', 'completed', 'passed', 0.9]);
    expect(Object.keys(saved.cmi).filter((key) => /undefined|learner_id|lesson_status/.test(key))).toEqual([]);
    // The run-time took 251 interactions; the server keeps 250, and the rest of that save with them.
    expect([saved.cmi['cmi.interactions.249.id'], saved.cmi['cmi.interactions.250.id']]).toEqual(['q249', undefined]);
    await page.getByText('You have completed every module of this course. Your certificate is ready.').waitFor({ timeout: 15_000 });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl}/course/${courseId}/module/${ids[M2004]}`);
    await page.getByRole('button', { name: 'Play again' }).click();
    await expect.poll(() => sco().locator('#entry').textContent(), { timeout: 20_000 }).toBe('ab-initio');
    await screenshot(page, 'scorm-real-2004-390');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save and exit' }).click();
    await status().getByText('Saved: you can carry on from where you left off.').waitFor({ timeout: 15_000 });
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('the instructor sees the right status, score and a real time spent, with an instructor\'s text', async () => {
    await staffPage.goto(`${baseUrl}/course/${courseId}/module/${ids[M2004]}`);
    const table = staffPage.getByRole('table', { name: `Learners' progress on ${M2004}` });
    await table.waitFor();
    const row = table.getByRole('row', { name: new RegExp(learner.name) });
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[0]).toMatch(/^Passed/);
    expect(cells[1]).toBe('100%');
    expect(cells[2]).not.toBe('None');
    expect(cells[2]).toMatch(/^\d+ (second|minute)s?/);
    const player = staffPage.getByTestId('scorm-player');
    expect(await player.textContent()).toContain('Learners play this package here once they are enrolled; their progress is below.');
    expect(await player.textContent()).not.toContain('Not started');
    await expectAccessible(staffPage);
    await screenshot(staffPage, 'scorm-real-instructor-1366');
    await staffPage.goto(`${baseUrl}/instructor?tab=students`);
    const students = staffPage.getByRole('row', { name: new RegExp(learner.name) }).filter({ hasText: COURSE });
    await students.first().waitFor();
    await expect.poll(() => students.first().textContent()).toContain(`${M12}: Passed, 90% (1 attempt)`);
    expect(await students.first().textContent()).toContain(`${M2004}: Passed, 100%`);
  });

  it('an author\'s minimum time: set in the package dialog, a quicker finish says how long is left and completes nothing', async () => {
    const title = 'Minimum time';
    await scormModule(title, zipOf({
      'imsmanifest.xml': real2004Manifest({ title }),
      'scormcontent/index.html': scorm2004Page(title, `
        api.SetValue('cmi.score.scaled', '1');
        api.SetValue('cmi.completion_status', 'completed');
        api.Commit('');
        api.Terminate('');`),
    }), { completionRule: 'passed', scoreIsQuizScore: false });
    await staffPage.goto(`${baseUrl}/course/edit/${courseId}`);
    await staffPage.getByRole('tab', { name: /Modules & Quizzes/ }).click();
    await staffPage.getByRole('button', { name: `Package: ${title}` }).click();
    const dialog = staffPage.getByRole('dialog', { name: `SCORM package: ${title}` });
    const minimum = dialog.getByRole('textbox', { name: 'Minimum time (minutes)' });
    await minimum.fill('30');
    await dialog.getByRole('button', { name: 'Save settings' }).click();
    await staffPage.getByText('Settings saved', { exact: true }).waitFor();
    // The pointer leaves the button it pressed (a hovered button is not what is checked here).
    await staffPage.mouse.move(0, 0);
    await expectAccessible(staffPage);
    await screenshot(staffPage, 'scorm-real-minimum-time-1366');
    expect((await apiCall('GET', `/modules/${ids[title]}/scorm`, token)).json.minMinutes).toBe(30);

    await page.goto(`${baseUrl}/course/${courseId}/module/${ids[title]}`);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await status().getByText(/^Saved\. This package asks for more of your time before it counts: the module completes once you have spent another (29|30) minutes on it\.$/)
      .waitFor({ timeout: 20_000 });
    const [progress] = await sql`select coalesce(bool_or(completed), false) as completed from public.user_module_progress
      where module_id = ${ids[title]}::uuid and user_id = ${learnerId}::uuid`;
    expect(progress.completed).toBe(false);
    const saved = await attempt(ids[title]);
    expect([saved.success_status, saved.server < 60]).toEqual(['passed', true]);
  });
});
