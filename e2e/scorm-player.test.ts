// The SCORM player in Chromium against the real platform: a hand-made SCORM 1.2 package (its page
// calls the run-time as authoring tools' exports do) is put into the scorm-content bucket with the
// service role and recorded for a kind='scorm' module; a learner plays it in the module page. The
// API is found in the launcher on the content origin, what the content reports reaches the server
// (read back in the database), leaving half-way and coming back resumes (entry 'resume', location
// restored), and the content cannot reach the app: not its storage, its token or the top window.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, uiLogin } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const serviceKey = process.env.SUPABASE_SERVICE_ROLE_KEY ?? '';
const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}`;

/** The package's page: SCORM 1.2 calls, and what a hostile package would try against the app. */
const SCO_PAGE = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>Fire safety basics</title></head>
<body>
<h1>Fire safety basics</h1>
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
    api.LMSCommit('');
    document.getElementById('location').textContent = 'page-2 (committed)';
  };
  document.getElementById('page3').onclick = function () {
    api.LMSSetValue('cmi.core.lesson_location', 'page-3');
    document.getElementById('location').textContent = 'page-3 (not committed)';
  };
  document.getElementById('finish').onclick = function () {
    api.LMSSetValue('cmi.core.score.raw', '85');
    api.LMSSetValue('cmi.core.lesson_status', 'passed');
    api.LMSSetValue('cmi.core.exit', '');
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

/** A SCORM 2004 SCO that reports itself completed as soon as it runs (one page for both parts). */
const SCO_2004_PAGE = `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>Part</title></head>
<body><p>2004 API: <span id="found">looking</span>; <span id="done"></span></p>
<script>
  var win = window, api = null;
  for (var n = 0; win && n < 10; n++) { if (win.API_1484_11) { api = win.API_1484_11; break; } if (win.parent === win) break; win = win.parent; }
  document.getElementById('found').textContent = api ? 'found' : 'missing';
  api.Initialize('');
  api.SetValue('cmi.location', 'end');
  api.SetValue('cmi.completion_status', 'completed');
  api.Commit('');
  api.Terminate('');
  document.getElementById('done').textContent = 'terminated';
</script></body></html>`;

describe('the SCORM player end to end', () => {
  let browser: Browser;
  let page: Page;
  let sql: postgres.Sql;
  let courseId = '';
  let moduleId = '';
  let learnerId = '';
  let module2004Id = '';
  const learner = { username: `scp_${suffix}`, email: `scp.${suffix}@example.uk`, name: `Sam Scorm ${suffix}`, password: 'scorm-pass-1' };
  const modulePath = () => `/course/${courseId}/module/${moduleId}`;
  const sco = (): FrameLocator => page.frameLocator('[data-testid="scorm-frame"]').frameLocator('#sco');
  const savedCmi = async () => {
    const [row] = await sql`select cmi from public.scorm_attempts where module_id = ${moduleId}::uuid and user_id = ${learnerId}::uuid order by attempt desc limit 1`;
    return (row?.cmi ?? {}) as Record<string, string>;
  };

  beforeAll(async () => {
    expect(serviceKey, 'SUPABASE_SERVICE_ROLE_KEY').not.toBe('');
    sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    const admin = await apiLogin('admin');
    [{ id: courseId }] = await sql`insert into public.courses (title, description, service, author_id, status)
      values (${`SCORM course ${suffix}`}, 'A course with a SCORM package.', 'UKFRS', ${admin.userId}::uuid, 'ACTIVE') returning id`;
    [{ id: moduleId }] = await sql`insert into public.course_modules (course_id, title, order_index, kind)
      values (${courseId}::uuid, 'Fire safety basics', 1, 'scorm') returning id`;
    await sql`insert into public.scorm_packages (module_id, course_id, version, title, scos, storage_prefix, file_count, unpacked_bytes)
      values (${moduleId}::uuid, ${courseId}::uuid, '1.2', 'Fire safety basics',
              ${sql.json([{ id: 'sco-1', title: 'Fire safety basics', href: 'index.html' }])}::jsonb, ${`${moduleId}/1/`}, 1, ${SCO_PAGE.length})`;
    const stored = await fetch(`${baseUrl}/storage/v1/object/scorm-content/${moduleId}/1/index.html`, {
      method: 'POST',
      headers: { apikey: serviceKey, authorization: `Bearer ${serviceKey}`, 'content-type': 'text/html' },
      body: SCO_PAGE,
    });
    expect(stored.status, await stored.clone().text()).toBe(200);
    [{ id: module2004Id }] = await sql`insert into public.course_modules (course_id, title, order_index, kind)
      values (${courseId}::uuid, 'Breathing apparatus', 2, 'scorm') returning id`;
    await sql`insert into public.scorm_packages (module_id, course_id, version, edition, title, scos, storage_prefix, file_count, unpacked_bytes)
      values (${module2004Id}::uuid, ${courseId}::uuid, '2004', '3rd', 'Breathing apparatus',
              ${sql.json([{ id: 'part-1', title: 'Part one', href: 'sco.html?part=1' }, { id: 'part-2', title: 'Part two', href: 'sco.html?part=2' }])}::jsonb,
              ${`${module2004Id}/1/`}, 1, ${SCO_2004_PAGE.length})`;
    const stored2004 = await fetch(`${baseUrl}/storage/v1/object/scorm-content/${module2004Id}/1/sco.html`, {
      method: 'POST',
      headers: { apikey: serviceKey, authorization: `Bearer ${serviceKey}`, 'content-type': 'text/html' },
      body: SCO_2004_PAGE,
    });
    expect(stored2004.status, await stored2004.clone().text()).toBe(200);
    const registered = await apiCall('POST', '/register', undefined, { ...learner, confirmPassword: learner.password });
    expect(registered.status, registered.text).toBe(201);
    learnerId = registered.json.user.id;
    const token = (await apiLogin(learner.username, learner.password)).token;
    expect((await apiCall('POST', `/courses/${courseId}/enroll`, token)).status).toBe(201);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await uiLogin(page, learner.username, learner.password);
  });
  afterAll(async () => {
    await browser?.close();
    if (sql) {
      if (courseId) await sql`select private.erase_course(id) from public.courses where id = ${courseId}::uuid`;
      await sql.end({ timeout: 5 });
    }
  });

  it('plays the package in a sandboxed frame on another origin, where the content finds the API', async () => {
    await page.goto(`${baseUrl}${modulePath()}`);
    await page.getByRole('heading', { level: 2, name: 'Fire safety basics' }).waitFor();
    await page.getByRole('button', { name: 'Start' }).click();
    const frame = page.locator('[data-testid="scorm-frame"]');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms allow-modals');
    expect(await frame.getAttribute('title')).toBe('Fire safety basics (SCORM package)');
    const src = new URL(String(await frame.getAttribute('src')));
    expect(src.origin).not.toBe(new URL(baseUrl).origin);
    expect(src.pathname).toBe('/storage/v1/object/public/scorm-content/_player/launcher.html');
    await expect.poll(() => sco().locator('#found').textContent(), { timeout: 15_000 }).toBe('found');
    expect(await sco().locator('#entry').textContent()).toBe('ab-initio');
    await page.getByTestId('scorm-status').getByText('Started.').waitFor();
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
    await page.getByRole('heading', { level: 1, name: 'Fire safety basics' }).waitFor();
    // The token is in the app's storage, and nowhere the content origin can read.
    const token = await page.evaluate(() => Object.keys(localStorage).find((key) => key.endsWith('-auth-token')) ?? '');
    expect(token).not.toBe('');
  });

  it('saves what the content commits, and what it set when the page goes away', async () => {
    await sco().getByRole('button', { name: 'Half way' }).click();
    await expect.poll(async () => (await savedCmi())['cmi.core.lesson_location'], { timeout: 10_000 }).toBe('page-2');
    const saved = await savedCmi();
    expect(saved['cmi.suspend_data']).toBe('half-way');
    // Not the 'passed' and 100 the page posted to the app directly.
    expect(saved['cmi.core.lesson_status']).toBe('incomplete');
    expect(saved['cmi.core.score.raw']).toBeUndefined();
    await page.getByTestId('scorm-status').getByText(/Progress saved at/).waitFor();
    // Set, not committed, then the tab goes elsewhere: the keepalive save on pagehide carries it.
    await sco().getByRole('button', { name: 'Page 3' }).click();
    await expect.poll(() => sco().locator('#location').textContent()).toBe('page-3 (not committed)');
    await page.goto(`${baseUrl}/`);
    await expect.poll(async () => (await savedCmi())['cmi.core.lesson_location'], { timeout: 10_000 }).toBe('page-3');
  });

  it('resumes where the learner left off', async () => {
    await page.goto(`${baseUrl}${modulePath()}`);
    await page.getByText('In progress', { exact: true }).waitFor();
    expect(await page.getByTestId('scorm-player').textContent()).not.toContain('score');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => sco().locator('#entry').textContent(), { timeout: 15_000 }).toBe('resume');
    expect(await sco().locator('#location').textContent()).toBe('page-3');
    expect(await sco().locator('#suspend').textContent()).toBe('half-way');
    await page.getByTestId('scorm-status').getByText('Resumed where you left off.').waitFor();
  });

  it('is accessible at 1366 and 390 px, the frame full width on a phone', async () => {
    await screenshot(page, 'scorm-player-1366');
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => (await page.locator('[data-testid="scorm-frame"]').boundingBox())?.width ?? 0, { timeout: 5_000 }).toBeGreaterThan(330);
    await screenshot(page, 'scorm-player-390');
    await expectAccessible(page);
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('finishes: the pass and score reach the server and the module completes', async () => {
    await sco().getByRole('button', { name: 'Finish' }).click();
    await page.getByTestId('scorm-status').getByText('Finished and saved: you have completed this module.').waitFor();
    const saved = await savedCmi();
    expect(saved['cmi.core.lesson_status']).toBe('passed');
    expect(saved['cmi.core.score.raw']).toBe('85');
    const [progress] = await sql`select completed from public.user_module_progress where module_id = ${moduleId}::uuid and user_id = ${learnerId}::uuid`;
    expect(progress?.completed).toBe(true);
  });

  it('"Save and exit" closes the frame and keeps the place', async () => {
    await page.goto(`${baseUrl}${modulePath()}`);
    // The module is complete: the button says what it does, and that the completion is kept.
    await page.getByText('You have completed this package. Playing it again starts a new attempt; your completion and best score are kept.').waitFor();
    await page.getByRole('button', { name: 'Play again' }).click();
    await expect.poll(() => sco().locator('#found').textContent(), { timeout: 15_000 }).toBe('found');
    await page.getByRole('button', { name: 'Save and exit' }).click();
    await page.getByTestId('scorm-status').getByText('Saved: you can carry on from where you left off.').waitFor();
    expect(await page.locator('[data-testid="scorm-frame"]').count()).toBe(0);
  });

  it('plays a multi-SCO 2004 package part by part: API_1484_11 found, completion saved per part', async () => {
    await page.goto(`${baseUrl}/course/${courseId}/module/${module2004Id}`);
    const parts = page.getByRole('list', { name: 'Parts of this package' });
    await parts.getByText('Part one · Not started').waitFor();
    await parts.getByText('Part two · Not started').waitFor();
    await page.getByRole('button', { name: 'Start Part one' }).click();
    await expect.poll(() => sco().locator('#done').textContent(), { timeout: 15_000 }).toBe('terminated');
    expect(await sco().locator('#found').textContent()).toBe('found');
    await page.getByTestId('scorm-status').getByText('Finished and saved.').waitFor();
    const [attempt] = await sql`select cmi from public.scorm_attempts where module_id = ${module2004Id}::uuid and user_id = ${learnerId}::uuid and sco_id = 'part-1'`;
    expect(attempt?.cmi['cmi.completion_status']).toBe('completed');
    expect(attempt?.cmi['cmi.location']).toBe('end');
    await parts.getByText('Part one · Completed').waitFor();
    await page.getByRole('button', { name: 'Start Part two' }).click();
    await page.getByTestId('scorm-status').getByText('Finished and saved: you have completed this module.').waitFor();
    await parts.getByText('Part two · Completed').waitFor();
    await expectAccessible(page);
  });
});
