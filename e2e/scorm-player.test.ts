// SCORM packages played in Chromium against the real platform, from a learner's first launch to the
// instructor's figures. One published course, its packages uploaded through the API, one learner
// enrolled through it: a SCORM 1.2 package whose page also tries what a hostile package would
// against the app; packages exported as authoring tools export them (a 2004 3rd edition package
// whose manifest declares objectives, a passing score and a completion threshold, which records
// interactions of every type and tells its score with alert(); a 1.2 package with a mastery score of
// 80 and 4,096 characters of suspend data, which asks to resume with confirm() and reports only
// "completed" with its score); one that writes invalid values among valid ones; and a multi-SCO 2004
// package played part by part, which completes the course. Then the instructor's Students tab and
// the module pages' learners, and an author's minimum time. Packages: supabase/functions/tests/scorm_packages.ts.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Dialog, FrameLocator, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, apiUrl, removeCourse, uiLogin } from './api';
import {
  INTERACTIONS_2004,
  INVALID_WRITES_2004,
  real12Package,
  real2004Manifest,
  real2004Package,
  scorm12Package,
  scorm2004Package,
  scorm2004Page,
  SUSPEND_4096,
  zipOf,
} from '../supabase/functions/tests/scorm_packages';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;
const COURSE = `SCORM packages ${suffix}`;
const BASIC = 'Fire safety basics';
const REAL_2004 = 'Major incident triage';
const REAL_12 = 'Water rescue awareness';
const INVALID = 'Invalid writes';
const PARTS = 'Casualty care';
const MINIMUM = 'Minimum time';

/**
 * The 1.2 package's page: it shows what the run-time gives it (entry, location, suspend data), and
 * tries what a hostile package would against the app. 'Half way' commits a place to come back to
 * after 5 reported minutes, 'Page 3' sets a place without committing it, 'Finish' passes with 85
 * after another 12 minutes 30 seconds.
 */
const BASIC_PAGE = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>${BASIC}</title></head>
<body>
<h1>${BASIC}</h1>
<p>API: <span id="found">looking</span></p>
<p>Entry: <span id="entry"></span>; location: <span id="location"></span>; suspend data: <span id="suspend"></span></p>
<p>Reach the app: <span id="attack"></span></p>
<button id="half" type="button">Half way</button>
<button id="page3" type="button">Page 3</button>
<button id="finish" type="button">Finish</button>
<button id="navigate" type="button">Take over the window</button>
<script>
  function findAPI(win) {
    for (var n = 0; win && n < 10; n++) { if (win.API) return win.API; if (win.parent === win) break; win = win.parent; }
    return null;
  }
  var api = findAPI(window);
  document.getElementById('found').textContent = api ? 'found' : 'missing';
  api.LMSInitialize('');
  document.getElementById('entry').textContent = api.LMSGetValue('cmi.core.entry') || '(none)';
  document.getElementById('location').textContent = api.LMSGetValue('cmi.core.lesson_location') || '(none)';
  document.getElementById('suspend').textContent = api.LMSGetValue('cmi.suspend_data') || '(none)';
  var results = [];
  function attempt(name, fn) {
    try { var value = fn(); results.push(name + ':' + (value === undefined || value === null || value === '' ? 'empty' : 'READ ' + String(value).slice(0, 40))); }
    catch (e) { results.push(name + ':blocked'); }
  }
  attempt('top-storage', function () { return Object.keys(window.top.localStorage).join(','); });
  attempt('top-document', function () { return window.top.document.title; });
  attempt('parent-parent-storage', function () { return Object.keys(window.parent.parent.localStorage).join(','); });
  attempt('own-storage', function () { return Object.keys(window.localStorage).join(','); });
  attempt('cookie', function () { return document.cookie; });
  document.getElementById('attack').textContent = results.join(' ');
  // Straight to the app, around the run-time: the app listens only to the launcher's frame.
  window.top.postMessage({ type: 'value', element: 'cmi.core.lesson_status', value: 'passed' }, '*');
  window.top.postMessage({ type: 'value', element: 'cmi.core.score.raw', value: '100' }, '*');
  document.getElementById('half').onclick = function () {
    api.LMSSetValue('cmi.core.lesson_location', 'page-2');
    api.LMSSetValue('cmi.suspend_data', 'half-way');
    api.LMSSetValue('cmi.core.lesson_status', 'incomplete');
    api.LMSSetValue('cmi.core.exit', 'suspend');
    api.LMSSetValue('cmi.core.session_time', '0000:05:00.00');
    api.LMSCommit('');
    document.getElementById('location').textContent = 'page-2 (committed)';
  };
  document.getElementById('page3').onclick = function () {
    api.LMSSetValue('cmi.core.lesson_location', 'page-3');
    document.getElementById('location').textContent = 'page-3 (not committed)';
  };
  document.getElementById('finish').onclick = function () {
    api.LMSSetValue('cmi.core.score.raw', '85');
    api.LMSSetValue('cmi.core.score.min', '0');
    api.LMSSetValue('cmi.core.score.max', '100');
    api.LMSSetValue('cmi.core.lesson_status', 'passed');
    api.LMSSetValue('cmi.core.exit', '');
    api.LMSSetValue('cmi.core.session_time', '0000:12:30.00');
    api.LMSCommit('');
    api.LMSFinish('');
    document.getElementById('location').textContent = 'finished';
  };
  document.getElementById('navigate').onclick = function () {
    try { window.top.location.href = 'https://example.org/hijacked'; document.getElementById('attack').textContent += ' navigate:allowed'; }
    catch (e) { document.getElementById('attack').textContent += ' navigate:blocked'; }
  };
</script>
</body></html>`;

describe('SCORM packages played, from the first launch to the instructor\'s figures', () => {
  let browser: Browser;
  let page: Page;
  let staffPage: Page;
  let sql: postgres.Sql;
  let token = '';
  let courseId = '';
  let learnerId = '';
  const ids: Record<string, string> = {};
  const dialogs: string[] = [];
  const learner = { username: `scp_${suffix}`, email: `scp.${suffix}@example.uk`, name: `Sam Scorm ${suffix}`, password: 'scorm-pass-1' };
  const moduleUrl = (title: string) => `${baseUrl}/course/${courseId}/module/${ids[title]}`;
  const sco = (): FrameLocator => page.frameLocator('[data-testid="scorm-frame"]').frameLocator('#sco');
  const status = () => page.getByTestId('scorm-status');
  const scoStatus = () => page.getByTestId('scorm-sco-status');
  /** The learner's latest attempt at a module, as the server saved it. */
  const attempt = async (title: string) => {
    const [row] = await sql`select cmi, completion_status, success_status, score::float8 as score, total_seconds::float8 as total,
                                   server_seconds::float8 as server
                            from public.scorm_attempts where module_id = ${ids[title]}::uuid and user_id = ${learnerId}::uuid
                            order by attempt desc limit 1`;
    return (row ?? { cmi: {} }) as { cmi: Record<string, string>; completion_status: string; success_status: string; score: number | null; total: number; server: number };
  };
  /** The learner's latest sitting of a module: the session time the package reported, and whether it ended. */
  const sitting = async (title: string) => {
    const [row] = await sql`select s.session_time, s.finished_at is not null as finished from public.scorm_sessions s
      join public.scorm_attempts a on a.id = s.attempt_id
      where a.module_id = ${ids[title]}::uuid and a.user_id = ${learnerId}::uuid order by s.started_at desc limit 1`;
    return row as { session_time: string | null; finished: boolean } | undefined;
  };

  /** A SCORM module of the course with its package uploaded and, when given, its settings. */
  async function scormModule(title: string, zip: Uint8Array, settings?: Record<string, unknown>) {
    const created = await apiCall('POST', `/courses/${courseId}/modules`, token, { kind: 'scorm', title });
    expect(created.status, created.text).toBe(201);
    ids[title] = created.json.id;
    const uploaded = await fetch(`${apiUrl}/modules/${created.json.id}/scorm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/zip' },
      body: Buffer.from(zip),
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    if (settings) {
      const set = await apiCall('PUT', `/modules/${created.json.id}/scorm/settings`, token, settings);
      expect(set.status, set.text).toBe(200);
    }
  }

  beforeAll(async () => {
    sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    token = (await apiLogin('instructor')).token;
    const course = await apiCall('POST', '/courses', token, {
      title: COURSE, description: 'The services\' own e-learning, played and tracked here.', service: 'UKPS', duration: 1, status: 'ACTIVE',
    });
    expect(course.status, course.text).toBe(201);
    courseId = course.json.id;
    await scormModule(BASIC, scorm12Package({ title: BASIC, extra: { 'index_lms.html': BASIC_PAGE } }));
    await scormModule(REAL_2004, real2004Package({ title: REAL_2004, passingScore: '0.8', completionThreshold: '0.75' }), { completionRule: 'passed', scoreIsQuizScore: false });
    await scormModule(REAL_12, real12Package({ title: REAL_12 }), { completionRule: 'passed', scoreIsQuizScore: true });
    await scormModule(INVALID, zipOf({
      'imsmanifest.xml': real2004Manifest({ title: INVALID }),
      'scormcontent/index.html': scorm2004Page(INVALID, INVALID_WRITES_2004),
    }), { completionRule: 'completed-or-passed', scoreIsQuizScore: false });
    await scormModule(PARTS, scorm2004Package({ title: PARTS }));
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
  }, 180_000);
  afterAll(async () => {
    if (courseId) await removeCourse(courseId, token);
    await browser?.close();
    await sql?.end({ timeout: 5 });
  });

  it('plays a package in a sandboxed frame on another origin, where it finds the API; a learner sees no one else\'s progress', async () => {
    await page.goto(moduleUrl(BASIC));
    await page.getByRole('heading', { level: 2, name: BASIC }).waitFor();
    // The learners' table is the instructor's: a learner's page has none, and no one's name.
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('scorm-learners').count()).toBe(0);
    expect(await page.getByText(learner.username, { exact: false }).count()).toBe(0);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const frame = page.getByTestId('scorm-frame');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms allow-modals');
    expect(await frame.getAttribute('title')).toBe(`${BASIC} (SCORM package)`);
    const src = new URL(String(await frame.getAttribute('src')));
    expect(src.origin).not.toBe(new URL(baseUrl).origin);
    expect(src.pathname).toBe('/storage/v1/object/public/scorm-content/_player/launcher.html');
    await expect.poll(() => sco().locator('#found').textContent(), { timeout: 20_000 }).toBe('found');
    expect(await sco().locator('#entry').textContent()).toBe('ab-initio');
    expect(await sco().locator('#location').textContent()).toBe('(none)');
    await status().getByText('Started.').waitFor();
  });

  it('keeps the content away from the app: no storage, token, document or top navigation', async () => {
    const attack = String(await sco().locator('#attack').textContent());
    expect(attack).toContain('top-storage:blocked');
    expect(attack).toContain('top-document:blocked');
    expect(attack).toContain('parent-parent-storage:blocked');
    // Its own origin's storage and cookies hold nothing of the app's.
    expect(attack).toMatch(/own-storage:(empty|READ (?!.*auth-token))/);
    expect(attack).toContain('cookie:empty');
    const appUrl = page.url();
    await sco().getByRole('button', { name: 'Take over the window' }).click();
    await expect.poll(() => sco().locator('#attack').textContent()).toContain('navigate:');
    await page.waitForTimeout(500);
    expect(page.url()).toBe(appUrl);
    await page.getByRole('heading', { level: 1, name: BASIC }).waitFor();
    // The token is in the app's storage, and nowhere the content origin can read.
    const appToken = await page.evaluate(() => Object.keys(localStorage).find((key) => key.endsWith('-auth-token')) ?? '');
    expect(appToken).not.toBe('');
  });

  it('saves what the content commits, and what it set when the page goes away', async () => {
    await sco().getByRole('button', { name: 'Half way' }).click();
    await expect.poll(async () => (await attempt(BASIC)).cmi['cmi.core.lesson_location'], { timeout: 10_000 }).toBe('page-2');
    const saved = await attempt(BASIC);
    expect(saved.cmi['cmi.suspend_data']).toBe('half-way');
    // Not the 'passed' and 100 the page posted to the app directly.
    expect(saved.cmi['cmi.core.lesson_status']).toBe('incomplete');
    expect(saved.cmi['cmi.core.score.raw']).toBeUndefined();
    await status().getByText(/Progress saved at/).waitFor();
    // Set, not committed, then the tab goes elsewhere: the keepalive save on pagehide carries it.
    await sco().getByRole('button', { name: 'Page 3' }).click();
    await expect.poll(() => sco().locator('#location').textContent()).toBe('page-3 (not committed)');
    await page.goto(`${baseUrl}/`);
    await expect.poll(async () => (await attempt(BASIC)).cmi['cmi.core.lesson_location'], { timeout: 10_000 }).toBe('page-3');
  });

  it('resumes where the learner left off, no score shown before there is one', async () => {
    await page.goto(moduleUrl(BASIC));
    await scoStatus().getByText('In progress', { exact: true }).waitFor();
    expect(await page.getByTestId('scorm-player').textContent()).not.toMatch(/score|%/);
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect.poll(() => sco().locator('#entry').textContent(), { timeout: 20_000 }).toBe('resume');
    expect(await sco().locator('#location').textContent()).toBe('page-3');
    expect(await sco().locator('#suspend').textContent()).toBe('half-way');
    await status().getByText('Resumed where you left off.').waitFor();
  });

  it('is accessible at 1366 and 390 px while a package plays, the frame full width on a phone', async () => {
    await screenshot(page, 'scorm-player-1366');
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => (await page.getByTestId('scorm-frame').boundingBox())?.width ?? 0, { timeout: 5_000 }).toBeGreaterThan(330);
    await screenshot(page, 'scorm-player-390');
    await expectAccessible(page);
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('finishes: the pass and score reach the server and the module completes', async () => {
    await sco().getByRole('button', { name: 'Finish' }).click();
    await status().getByText('Finished and saved: you have completed this module.').waitFor({ timeout: 15_000 });
    await scoStatus().getByText('Passed · score 85%', { exact: true }).waitFor();
    const saved = await attempt(BASIC);
    expect([saved.cmi['cmi.core.lesson_status'], saved.cmi['cmi.core.score.raw']]).toEqual(['passed', '85']);
    const [progress] = await sql`select completed from public.user_module_progress where module_id = ${ids[BASIC]}::uuid and user_id = ${learnerId}::uuid`;
    expect(progress?.completed).toBe(true);
  });

  it('2004 as tools export it: the manifest\'s objectives and passing score reach the package, which gets the page\'s width and full screen', async () => {
    await page.goto(moduleUrl(REAL_2004));
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => sco().locator('#entry').textContent(), { timeout: 20_000 }).toBe('ab-initio');
    expect(await sco().locator('#objectives').textContent()).toBe('3');
    expect(await sco().locator('#passing').textContent()).toBe('0.8');
    const box = await page.getByTestId('scorm-frame').boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(900);
    expect(box?.height ?? 0).toBeGreaterThan(600);
    await scoStatus().getByText('In progress', { exact: true }).waitFor();
    await screenshot(page, 'scorm-real-2004-1366');
    // Full screen: the package and its controls fill the screen, and come back.
    await page.getByRole('button', { name: 'Full screen', exact: true }).click();
    await page.getByRole('button', { name: 'Leave full screen' }).waitFor();
    expect(await page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid'))).toBe('scorm-box');
    await expect.poll(async () => (await page.getByTestId('scorm-frame').boundingBox())?.height ?? 0).toBeGreaterThan(780);
    await page.getByRole('button', { name: 'Leave full screen' }).click();
    await page.getByRole('button', { name: 'Full screen', exact: true }).waitFor();
    expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
  });

  it('2004: every interaction type and the objectives by their ids are kept, its alert() is shown, and the manifest\'s passing score makes 100% passed', async () => {
    for (const title of ['Slide 2 of 3', 'Slide 3 of 3', 'Quiz']) {
      await sco().getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => sco().locator('#slide-title').textContent()).toBe(title);
    }
    await sco().getByRole('button', { name: 'Submit quiz' }).click();
    await expect.poll(() => sco().locator('#result').textContent()).toBe('Score 100%; success passed');
    expect(dialogs).toContain('alert: You scored 100%.');
    await sco().getByRole('button', { name: 'Exit course' }).click();
    await status().getByText('Finished and saved: you have completed this module.').waitFor({ timeout: 15_000 });
    await scoStatus().getByText('Passed · score 100%', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Play again' }).waitFor();
    const saved = await attempt(REAL_2004);
    expect([saved.completion_status, saved.success_status, saved.score]).toEqual(['completed', 'passed', 1]);
    // Every interaction type, and the objectives by the ids the manifest gave.
    expect(INTERACTIONS_2004.map((_, n) => saved.cmi[`cmi.interactions.${n}.type`])).toEqual(INTERACTIONS_2004.map((row) => row[1]));
    expect([saved.cmi['cmi.objectives.1.success_status'], saved.cmi['cmi.objectives.2.success_status']]).toEqual(['passed', 'passed']);
    expect(Object.keys(saved.cmi).some((key) => key.includes('undefined'))).toBe(false);
    // Its own exit reported the sitting's time, in 2004's format.
    expect(await sitting(REAL_2004)).toEqual({ session_time: expect.stringMatching(/^PT\d+(\.\d+)?S$/), finished: true });
  });

  it('1.2 as tools export it: the mastery score reaches it, 4,096 characters of suspend data are kept, and "Save and exit" lets it report its exit and time before the frame goes', async () => {
    await page.goto(moduleUrl(REAL_12));
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(() => sco().locator('#mastery').textContent(), { timeout: 20_000 }).toBe('80');
    await sco().getByRole('button', { name: 'Half way' }).click();
    await status().getByText(/Progress saved at/).waitFor({ timeout: 15_000 });
    expect((await attempt(REAL_12)).cmi['cmi.suspend_data']).toBe(SUSPEND_4096);
    await page.getByRole('button', { name: 'Save and exit' }).click();
    await status().getByText('Saved: you can carry on from where you left off.').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('scorm-frame').count()).toBe(0);
    await expect.poll(async () => (await sitting(REAL_12))?.finished, { timeout: 10_000 }).toBe(true);
    expect((await sitting(REAL_12))?.session_time).toMatch(/^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$/);
    const saved = await attempt(REAL_12);
    expect([saved.cmi['cmi.core.exit'], saved.cmi['cmi.core.lesson_location'], saved.completion_status, saved.score]).toEqual(['suspend', 'slide-7', 'incomplete', null]);
    // No score reported: none shown (never 0 %).
    await scoStatus().getByText('In progress', { exact: true }).waitFor();
    expect(await page.getByTestId('scorm-player').textContent()).not.toContain('%');
  });

  it('1.2: its confirm() on resuming reaches the learner, its suspend data comes back intact, and its mastery score makes "completed" with 90 passed', async () => {
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect.poll(() => sco().locator('#entry').textContent(), { timeout: 20_000 }).toBe('resume');
    expect(await sco().locator('#suspend-length').textContent()).toBe('4096');
    expect(await sco().locator('#intact').textContent()).toBe('true');
    await expect.poll(() => sco().locator('#slide-title').textContent()).toBe('Resumed at slide-7');
    expect(dialogs).toContain('confirm: Resume where you left off?');
    await sco().getByRole('button', { name: 'Finish' }).click();
    await status().getByText('Finished and saved: you have completed this module.').waitFor({ timeout: 15_000 });
    await scoStatus().getByText('Passed · score 90%', { exact: true }).waitFor();
    const saved = await attempt(REAL_12);
    expect([saved.completion_status, saved.success_status, saved.score]).toEqual(['completed', 'passed', 0.9]);
    expect(saved.cmi['cmi.core.lesson_status']).toBe('completed');
  });

  it('a package that writes invalid values among valid ones keeps working: the valid ones complete the module', async () => {
    await page.goto(moduleUrl(INVALID));
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await status().getByText('Finished and saved: you have completed this module.').waitFor({ timeout: 20_000 });
    const saved = await attempt(INVALID);
    expect([saved.cmi['cmi.location'], saved.completion_status, saved.success_status, saved.score]).toEqual(['end', 'completed', 'passed', 0.9]);
    expect(Object.keys(saved.cmi).filter((key) => /undefined|learner_id|lesson_status/.test(key))).toEqual([]);
    // The run-time took 251 interactions; the server keeps 250, and the rest of that save with them.
    expect([saved.cmi['cmi.interactions.249.id'], saved.cmi['cmi.interactions.250.id']]).toEqual(['q249', undefined]);
  });

  it('plays a multi-SCO 2004 package part by part, and the course completes with its certificate', async () => {
    await page.goto(moduleUrl(PARTS));
    const parts = page.getByRole('list', { name: 'Parts of this package' });
    const titles = ['Primary survey', 'Catastrophic bleeding', 'Airway management'];
    for (const part of titles) await parts.getByText(`${part} · Not started`).waitFor();
    for (const [index, part] of titles.entries()) {
      await page.getByRole('button', { name: `Start ${part}` }).click();
      // The part's page finds API_1484_11 (it says 'No LMS API' otherwise) and reports itself completed.
      if (index === 0) await expect.poll(() => sco().locator('#status').textContent(), { timeout: 20_000 }).toBe('Done');
      await status().getByText(index < 2 ? 'Finished and saved.' : 'Finished and saved: you have completed this module.', { exact: true }).waitFor({ timeout: 20_000 });
      await parts.getByText(`${part} · Completed`).waitFor();
    }
    await page.getByText('You have completed every module of this course. Your certificate is ready.').waitFor({ timeout: 15_000 });
    await expectAccessible(page);
  });

  it('a completed package offers a new attempt, saying its completion and best score are kept', async () => {
    await page.goto(moduleUrl(REAL_2004));
    await page.getByText('You have completed this package. Playing it again starts a new attempt; your completion and best score are kept.').waitFor();
    await page.getByRole('button', { name: 'Play again' }).click();
    await expect.poll(() => sco().locator('#entry').textContent(), { timeout: 20_000 }).toBe('ab-initio');
  });

  it('the instructor sees each SCORM module\'s status, best score and attempts in Students, accessibly, wide and narrow', async () => {
    await staffPage.goto(`${baseUrl}/instructor?tab=students`);
    const table = staffPage.getByRole('table', { name: 'Students' });
    await table.waitFor();
    await table.getByRole('columnheader', { name: 'SCORM' }).waitFor();
    const row = staffPage.getByRole('row', { name: new RegExp(learner.name) });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(`${BASIC}: Passed, 85% (1 attempt)`);
    const text = String(await row.textContent());
    // The best score stays after a new attempt is opened.
    expect(text).toContain(`${REAL_2004}: Passed, 100%`);
    expect(text).toContain(`${REAL_12}: Passed, 90% (1 attempt)`);
    expect(text).toContain(`${PARTS}: Completed`);
    expect(await row.getByText(`${BASIC}:`).count()).toBe(1);
    // The course's own status: every module done.
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('Completed');
    await expectAccessible(staffPage);
    await screenshot(staffPage, 'instructor-students-scorm');
    await staffPage.setViewportSize({ width: 390, height: 844 });
    await row.waitFor();
    await expectAccessible(staffPage);
    await screenshot(staffPage, 'instructor-students-scorm-390');
    await staffPage.setViewportSize({ width: 1366, height: 900 });
  });

  it('and in the module\'s page: status, score, time spent and attempts, accessibly, wide and narrow', async () => {
    await staffPage.goto(moduleUrl(BASIC));
    const table = staffPage.getByRole('table', { name: `Learners' progress on ${BASIC}` });
    await table.waitFor();
    const player = String(await staffPage.getByTestId('scorm-player').textContent());
    expect(player).toContain('Learners play this package here once they are enrolled; their progress is below.');
    expect(player).not.toContain('Not started');
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Learner', 'Status', 'Score', 'Time spent', 'Attempts', 'Last activity']);
    const row = table.getByRole('row', { name: new RegExp(learner.name) });
    const cells = await row.getByRole('cell').allTextContents();
    // Two sittings of one attempt: the package reported 5 minutes before leaving and 12 minutes 30
    // seconds after resuming; by the server's clock they lasted far less, which is flagged.
    expect(cells.slice(0, 4)).toEqual([
      'PassedFar quicker than the package reported',
      '85%',
      expect.stringMatching(/^(Less than a second|\d+ seconds?|\d+ minutes?) \(package reported 17 minutes\)$/),
      '1',
    ]);
    expect(cells[4]).toMatch(/^\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}$/);
    expect(await row.getByRole('rowheader').textContent()).toContain('module completed');
    await expectAccessible(staffPage);
    await screenshot(staffPage, 'scorm-module-learners-1366');
    // On a phone: a card per learner, every column a named field.
    await staffPage.setViewportSize({ width: 390, height: 844 });
    const card = staffPage.getByRole('list', { name: 'Learners\' progress' }).getByRole('listitem').filter({ hasText: learner.name });
    await card.waitFor();
    expect(await card.locator('dt').allTextContents()).toEqual(['Status', 'Score', 'Time spent', 'Attempts', 'Last activity']);
    expect(await card.locator('dd').allTextContents()).toEqual(['PassedFar quicker than the package reported', '85%', cells[2], '1', cells[4]]);
    await expectAccessible(staffPage);
    await screenshot(staffPage, 'scorm-module-learners-390');
    await staffPage.setViewportSize({ width: 1366, height: 900 });
  });

  it('and, for a multi-SCO package, part by part', async () => {
    await staffPage.goto(moduleUrl(PARTS));
    const table = staffPage.getByRole('table', { name: `Learners' progress on ${PARTS}` });
    await table.waitFor();
    const rows = table.getByRole('row', { name: new RegExp(learner.name) });
    await expect.poll(() => rows.count()).toBe(3);
    const parts = [];
    for (let i = 0; i < 3; i++) parts.push((await rows.nth(i).getByRole('cell').allTextContents()).slice(0, 2));
    expect(parts).toEqual([['Primary survey', 'Completed'], ['Catastrophic bleeding', 'Completed'], ['Airway management', 'Completed']]);
    await expectAccessible(staffPage);
  });

  it('an author\'s minimum time: a quicker finish says how long is left and completes nothing', async () => {
    // Added after the course is complete, so that the journey above could complete it.
    await scormModule(MINIMUM, zipOf({
      'imsmanifest.xml': real2004Manifest({ title: MINIMUM }),
      'scormcontent/index.html': scorm2004Page(MINIMUM, `
        api.SetValue('cmi.score.scaled', '1');
        api.SetValue('cmi.completion_status', 'completed');
        api.Commit('');
        api.Terminate('');`),
    }), { completionRule: 'passed', scoreIsQuizScore: false, minMinutes: 30 });
    await page.goto(moduleUrl(MINIMUM));
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await status().getByText(/^Saved\. This package asks for more of your time before it counts: the module completes once you have spent another (29|30) minutes on it\.$/)
      .waitFor({ timeout: 20_000 });
    const [progress] = await sql`select coalesce(bool_or(completed), false) as completed from public.user_module_progress
      where module_id = ${ids[MINIMUM]}::uuid and user_id = ${learnerId}::uuid`;
    expect(progress.completed).toBe(false);
    const saved = await attempt(MINIMUM);
    expect([saved.success_status, saved.server < 60]).toEqual(['passed', true]);
  });
});
