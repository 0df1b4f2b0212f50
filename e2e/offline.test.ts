// The installable app in Chromium: a learner downloads a course, the network goes (Chromium's own
// offline emulation, for the page and the service workers alike, as DevTools' "Offline" does), the
// app reloads from the service worker, the learner reads two modules, answers an untimed quiz and
// plays a SCORM package (an authoring tool's 1.2 export) from the content origin's offline cache,
// the network comes back and the queue is replayed: the progress, the quiz's score, the package's
// status and the certificate appear once; the same queue replayed again changes nothing; a package
// file changed in the content origin's cache (as another package could) is not served; sign-out
// empties the caches and the queue. Then a new service worker and its "Reload" prompt, and Chromium's own
// installability check (manifest, icons, service worker).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, apiLogin, apiUrl, removeCourse, uiLogin } from './api';
import { real12Package } from '../supabase/functions/tests/scorm_packages';

const s = Date.now().toString(36);
const courseTitle = `Working without signal ${s}`;
const firstModule = `Standby in the ambulance ${s}`;
const secondModule = `The rural station ${s}`;
const scormModule = `Water rescue awareness ${s}`;

/** The network of the page and of the service workers of its origin, cut or restored through the
 * DevTools protocol (Playwright's setOffline reaches the page only). */
async function setNetwork(browser: Browser, context: BrowserContext, offline: boolean) {
  // The browser's HTTP cache answers without the network even offline: emptied, so that what
  // opens offline is what the service workers kept.
  const page = context.pages()[0];
  if (offline && page) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
  }
  await context.setOffline(offline);
  const session: CDPSession = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await session.send('Target.getTargets');
    // The app's service worker and the SCORM content origin's (the content's port is another origin).
    const workers = targetInfos.filter((target) => target.type === 'service_worker');
    expect(workers.length).toBeGreaterThan(0);
    for (const worker of workers) {
      const { sessionId } = await session.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false });
      const message = (id: number, method: string, params: object) =>
        session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
      await message(1, 'Network.enable', {});
      await message(2, 'Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    }
  } finally {
    await session.detach();
  }
}

/** The service worker controls the page (it claims the page it was installed from). */
async function controlled(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined, null, { timeout: 60_000 });
}

/** The person's own cache holds who they are: the service worker, once in control, was asked again. */
async function personKept(page: Page, personId: string) {
  await page.waitForFunction(async (name) => {
    const keys = await (await caches.open(name)).keys();
    return keys.some((request) => request.url.endsWith('/functions/v1/api/user'));
  }, `esl-person-${personId}`, { timeout: 30_000, polling: 250 });
}

/** What the device keeps of the person: their caches and their IndexedDB databases. */
async function deviceData(page: Page) {
  return page.evaluate(async () => ({
    caches: (await caches.keys()).filter((name) => name.startsWith('esl-person-')),
    databases: ((await indexedDB.databases()) ?? []).map((db) => db.name ?? '').filter((name) => name.startsWith('esl-offline-')),
  }));
}

/** The queue's items as IndexedDB holds them. */
async function queuedItems(page: Page, personId: string): Promise<unknown[]> {
  return page.evaluate((name) => new Promise<unknown[]>((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const request = open.result.transaction('queue').objectStore('queue').getAll();
      request.onsuccess = () => {
        open.result.close();
        resolve(request.result);
      };
      request.onerror = () => reject(request.error);
    };
  }), `esl-offline-${personId}`);
}

/** Puts items back into the queue (the same keys), as a device that sends its queue twice. */
async function requeue(page: Page, personId: string, items: unknown[]) {
  await page.evaluate(({ name, items }) => new Promise<void>((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const transaction = open.result.transaction('queue', 'readwrite');
      for (const item of items as object[]) transaction.objectStore('queue').put(item);
      transaction.oncomplete = () => {
        open.result.close();
        resolve();
      };
      transaction.onerror = () => reject(transaction.error);
    };
  }), { name: `esl-offline-${personId}`, items });
}

describe('the installable app offline', () => {
  let browser: Browser;
  let instructorToken = '';
  let courseId = '';
  let quizId = '';
  let quizModuleId = '';
  let scormModuleId = '';
  let learner = { username: '', password: '', token: '', userId: '' };

  /** A new learner enrolled on the course (each attempt of the journey starts from none of it done). */
  async function newLearner() {
    const username = `offline_${s}_${Math.floor(Math.random() * 1e6)}`;
    const password = `pw-${username}-secret`;
    const registered = await apiCall('POST', '/register', undefined, {
      username, email: `${username}@example.test`, name: 'Morgan Offline', password, confirmPassword: password,
    });
    expect(registered.status, registered.text).toBe(201);
    learner = { username, password, token: registered.json.session.access_token, userId: registered.json.user.id };
    const enrolled = await apiCall('POST', `/courses/${courseId}/enroll`, learner.token);
    expect(enrolled.status, enrolled.text).toBe(201);
  }

  beforeAll(async () => {
    instructorToken = (await apiLogin('instructor')).token;
    const course = await apiCall('POST', '/courses', instructorToken, {
      title: courseTitle, description: 'Learning between jobs, where there is no signal.', service: 'MISC', status: 'ACTIVE',
    });
    expect(course.status, course.text).toBe(201);
    courseId = course.json.id;
    for (const [title, content] of [[firstModule, 'Keep the radio charged and the kit checked.'], [secondModule, 'The station has no signal in the yard.']]) {
      const created = await apiCall('POST', `/courses/${courseId}/modules`, instructorToken, { title, content });
      expect(created.status, created.text).toBe(201);
      if (title === secondModule) {
        quizModuleId = created.json.id;
        const quiz = await apiCall('PUT', `/modules/${created.json.id}/quiz`, instructorToken, { title: 'Signal check', passingScore: 100 });
        expect(quiz.status, quiz.text).toBe(201);
        quizId = quiz.json.id;
        const question = await apiCall('POST', `/quizzes/${quizId}/questions`, instructorToken, {
          questionText: 'Progress made offline is sent when the connection comes back.',
          questionType: 'TRUE_FALSE',
          options: [{ text: 'True', isCorrect: true }, { text: 'False', isCorrect: false }],
        });
        expect(question.status, question.text).toBe(201);
      }
    }
    const created = await apiCall('POST', `/courses/${courseId}/modules`, instructorToken, { kind: 'scorm', title: scormModule });
    expect(created.status, created.text).toBe(201);
    scormModuleId = created.json.id;
    const uploaded = await fetch(`${apiUrl}/modules/${scormModuleId}/scorm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${instructorToken}`, 'content-type': 'application/zip' },
      body: Buffer.from(real12Package({ title: scormModule })),
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    if (courseId) await removeCourse(courseId, instructorToken);
  });

  it('downloads a course, learns offline after a reload, and the progress, score and certificate arrive once', async () => {
    await newLearner();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'allow' });
    const page = await context.newPage();
    await uiLogin(page, learner.username, learner.password, '/my-courses');
    await controlled(page);
    await personKept(page, learner.userId);

    // One tap: the size, the progress, then the badge and Remove.
    const card = page.getByRole('article', { name: courseTitle });
    await card.getByRole('button', { name: `Make ${courseTitle} available offline` }).click();
    await card.getByTestId('offline-badge').waitFor();
    await card.getByRole('button', { name: `Remove ${courseTitle} from this device` }).waitFor();
    await expect(card.getByText(/^Saved on \d{1,2} [A-Z][a-z]+ \d{4}/).count()).resolves.toBe(1);

    // The network goes; the app comes back from the service worker with My Courses.
    await setNetwork(browser, context, true);
    await page.reload();
    await page.getByText('Offline: your progress will be saved when you are back online').waitFor();
    await card.getByTestId('offline-badge').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'offline-my-courses');

    // Two modules read and the untimed quiz answered, offline.
    await card.getByRole('link', { name: 'Continue Course' }).click();
    await page.getByRole('heading', { level: 1, name: courseTitle }).waitFor();
    await page.getByRole('button', { name: 'Start Course' }).click();
    await page.getByRole('heading', { level: 1, name: firstModule }).waitFor();
    await page.getByRole('button', { name: 'Mark as complete and continue' }).click();
    await page.getByRole('heading', { level: 1, name: secondModule }).waitFor();
    await page.getByText('1 item waits to be sent.').waitFor();
    // The outline counts the module read offline (no quiz: reading completes it) before the server does.
    await page.getByTestId('module-progress-text').filter({ hasText: '1 of 3 modules complete' }).waitFor();
    await page.getByRole('button', { name: 'Mark as complete' }).click();
    await page.getByTestId('module-status').filter({ hasText: 'saved on this device' }).waitFor();
    await page.getByRole('button', { name: 'Start quiz' }).click();
    await page.getByText('You are offline: your answers will be scored when you are back online.').waitFor();
    await page.getByRole('radio', { name: 'True' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByTestId('quiz-saved-offline').waitFor();
    await page.getByText('3 items wait to be sent.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'offline-quiz-saved');

    // The SCORM package plays from the content origin's cache; what it reports waits in the queue.
    const sco = page.frameLocator('[data-testid="scorm-frame"]').frameLocator('#sco');
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${baseUrl}/course/${courseId}/module/${scormModuleId}`);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByTestId('scorm-status').getByText(/^Started offline/).waitFor({ timeout: 20_000 });
    await expect.poll(() => sco.locator('#entry').textContent(), { timeout: 20_000 }).toBe('ab-initio');
    await sco.getByRole('button', { name: 'Finish' }).click();
    await page.getByTestId('scorm-status').getByText(/^Finished offline/).waitFor();
    await page.getByText('4 items wait to be sent.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'offline-scorm-kept');
    const queue = await queuedItems(page, learner.userId);
    expect(queue).toHaveLength(4);
    // Nothing reached the server yet.
    const before = await apiCall('GET', `/users/${learner.userId}/enrollments?page=1&pageSize=100`, learner.token);
    expect(before.json.find((e: { courseId: string }) => e.courseId === courseId).progress).toBe(0);

    // Back online: replayed in order, scored by the server, the certificate issued.
    await setNetwork(browser, context, false);
    const outcomes = page.getByTestId('offline-outcomes');
    await outcomes.getByText('Quiz scored 1 out of 1: passed.').waitFor({ timeout: 30_000 });
    await outcomes.getByText('Course completed: your certificate is ready.').waitFor();
    await expect(outcomes.getByText('Module marked as read: saved.').count()).resolves.toBe(2);
    await outcomes.getByText('SCORM progress saved.').waitFor();
    // Each item leaves the queue just after its outcome is shown.
    await expect.poll(() => queuedItems(page, learner.userId)).toHaveLength(0);
    await expectAccessible(page);
    await screenshot(page, 'offline-replayed');

    const serverState = async () => {
      const enrolments = await apiCall('GET', `/users/${learner.userId}/enrollments?page=1&pageSize=100`, learner.token);
      const enrolment = enrolments.json.find((e: { courseId: string }) => e.courseId === courseId);
      const certificates = await apiCall('GET', '/certificates?scope=all&page=1&pageSize=50', learner.token);
      expect(certificates.status, certificates.text).toBe(200);
      const module = await apiCall('GET', `/modules/${quizModuleId}`, learner.token);
      const scorm = await apiCall('GET', `/modules/${scormModuleId}/scorm/player`, learner.token);
      return {
        scorm: { completed: scorm.json.moduleCompleted, status: scorm.json.scos[0].status, score: scorm.json.scos[0].score },
        progress: enrolment.progress,
        completed: enrolment.completed,
        certificates: certificates.json.items.filter((c: { courseId: string | null }) => c.courseId === courseId).length,
        quizAttempts: module.json.quiz.attempts.used,
        quizPassed: module.json.quizPassed,
      };
    };
    const once = await serverState();
    // The package's mastery score is 80: its 90 passes.
    expect(once).toEqual({ progress: 100, completed: true, certificates: 1, quizAttempts: 1, quizPassed: true, scorm: { completed: true, status: 'passed', score: 90 } });

    // The same queue sent again (same keys): the server answers what it did, nothing changes.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    // The first replay's outcomes gone before the second begins: its words are the same.
    await page.getByTestId('offline-outcomes').waitFor({ state: 'detached' });
    await requeue(page, learner.userId, queue);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.getByTestId('offline-outcomes').getByText('Quiz scored 1 out of 1: passed.').waitFor({ timeout: 30_000 });
    await expect(page.getByText('Course completed: your certificate is ready.').count()).resolves.toBe(0);
    // Each item leaves the queue just after its outcome is shown.
    await expect.poll(() => queuedItems(page, learner.userId)).toHaveLength(0);
    expect(await serverState()).toEqual(once);

    // The certificates page shows the course's certificate once.
    await page.goto(`${baseUrl}/certificates`);
    await page.getByText(courseTitle, { exact: true }).first().waitFor();
    await expect(page.getByText(courseTitle, { exact: true }).count()).resolves.toBe(1);

    // A package file changed in the content origin's cache (any package can write that origin's
    // caches) is not served offline: the service worker proves each file against the signed manifest.
    const player = await apiCall('GET', `/modules/${scormModuleId}/scorm/player`, learner.token);
    const scoUrl = new URL(player.json.scos[0].href, player.json.contentBase).href;
    const contentPage = await context.newPage();
    const contentCaches = async () => {
      await contentPage.goto(new URL('/storage/v1/object/public/scorm-content/_player/launcher.html', scoUrl).href);
      return contentPage.evaluate(async () => (await caches.keys()).sort());
    };
    expect(await contentCaches()).toEqual(['scorm-offline', 'scorm-offline-manifests']);
    expect(await contentPage.evaluate(async (url) => {
      const cache = await caches.open('scorm-offline');
      if (!(await cache.match(url))) return 'not kept';
      await cache.put(url, new Response('<p id="entry">changed</p>', { headers: { 'content-type': 'text/html' } }));
      return 'changed';
    }, scoUrl)).toBe('changed');
    await setNetwork(browser, context, true);
    await page.goto(`${baseUrl}/course/${courseId}/module/${scormModuleId}`);
    await page.getByRole('button', { name: /^(Start|Resume|Play again)$/ }).click();
    await expect.poll(() => sco.locator('body').textContent(), { timeout: 20_000 }).toContain('Not available offline');
    await expect(sco.getByText('changed').count()).resolves.toBe(0);
    await setNetwork(browser, context, false);

    // One tap removes the course from the device, its package from the content origin included.
    await page.goto(`${baseUrl}/my-courses`);
    await page.getByRole('tab', { name: /^Completed/ }).click();
    await card.getByRole('button', { name: `Remove ${courseTitle} from this device` }).click();
    await card.getByRole('button', { name: `Make ${courseTitle} available offline` }).waitFor();
    const kept = async () => contentPage.evaluate(async () => ({
      manifests: (await (await caches.open('scorm-offline-manifests')).keys()).length,
      packageFiles: (await (await caches.open('scorm-offline')).keys()).filter((request) => !request.url.includes('/_player/')).length,
    }));
    expect(await kept()).toEqual({ manifests: 0, packageFiles: 0 });

    // Sign-out empties the device, the content origin's offline caches included.
    expect((await deviceData(page)).caches).toEqual([`esl-person-${learner.userId}`]);
    await page.getByRole('button', { name: /Morgan Offline/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByText('You have been successfully logged out').waitFor();
    expect(await deviceData(page)).toEqual({ caches: [], databases: [] });
    expect(await contentCaches()).toEqual([]);
    await context.close();
  });

  it('shows "A new version is available: Reload" when a new service worker is published, and reloads into it', async () => {
    // The platform's build (scripts/test.mjs passes its folder): sw.js and the compressed copies the
    // gateway serves in its place, changed as a new deployment changes them, then put back.
    const webDir = process.env.WEB_DIR;
    expect(webDir, 'WEB_DIR: the folder of the web build the platform serves').toBeTruthy();
    const files = ['sw.js', 'sw.js.br', 'sw.js.gz'].map((name) => path.join(webDir!, name));
    const originals = files.map((file) => (fs.existsSync(file) ? fs.readFileSync(file) : null));
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/`);
      await controlled(page);
      const first = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);
      await expect(page.getByTestId('update-prompt').count()).resolves.toBe(0);

      const published = Buffer.concat([originals[0]!, Buffer.from(`\n// version ${s}\n`)]);
      fs.writeFileSync(files[0], published);
      if (originals[1]) fs.writeFileSync(files[1], zlib.brotliCompressSync(published));
      if (originals[2]) fs.writeFileSync(files[2], zlib.gzipSync(published));
      // The browser checks on navigation; the app also asks every hour. Asked now:
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
      const prompt = page.getByTestId('update-prompt');
      await prompt.getByText('A new version is available').waitFor({ timeout: 30_000 });
      await expectAccessible(page);
      await screenshot(page, 'update-prompt');

      // Reload: the waiting worker takes over and the page reloads under it.
      const reloaded = page.waitForEvent('load');
      await prompt.getByRole('button', { name: 'Reload' }).click();
      await reloaded;
      await controlled(page);
      const script = await page.evaluate(async () => {
        const registration = (await navigator.serviceWorker.getRegistration())!;
        return { active: registration.active?.scriptURL ?? null, waiting: registration.waiting !== null };
      });
      expect(script).toEqual({ active: first, waiting: false });
      const served = await page.evaluate(async () => (await fetch('/sw.js', { cache: 'no-store' })).text());
      expect(served.endsWith(`// version ${s}\n`)).toBe(true);
      await expect(page.getByTestId('update-prompt').count()).resolves.toBe(0);
    } finally {
      files.forEach((file, index) => {
        if (originals[index]) fs.writeFileSync(file, originals[index]!);
      });
      await context.close();
    }
  });

  it('passes Chromium\'s installability check: manifest, icons, service worker', async () => {
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await controlled(page);
    const session = await context.newCDPSession(page);
    const { installabilityErrors } = await session.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const manifest = await (await fetch(`${baseUrl}/manifest.webmanifest`)).json();
    expect(manifest).toMatchObject({ name: 'Emergency Services Learning', start_url: '/dashboard', display: 'standalone' });
    expect(manifest.icons.map((icon: { sizes: string }) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    await context.close();
  });
});
