// Content safety in a real browser: script, event-handler and javascript:/data: URL payloads are
// planted in a course's title and description, a module's title and markdown (raw HTML, links,
// images, reference links, autolinks), a quiz's title, description, question and options, and a
// learner's name; then every screen that shows them is opened in Chromium. Nothing may run (a
// window flag the payloads would set, any dialog, any CSP violation), no element may carry an
// event-handler attribute or a script the app did not ship, and no link may have a script URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, launchBrowser, screenshot } from './browser';
import { apiCall, apiChooseNewPassword, apiLogin, uiLogin } from './api';

const s = Date.now().toString(36);
const run = (tag: string) => `__xss.push('${tag}')`;
const payload = (tag: string) =>
  `<script>${run(`${tag}-script`)}</script><img src=x onerror="${run(`${tag}-img`)}"><svg onload="${run(`${tag}-svg`)}"></svg>`;

const courseTitle = `Safe ${s} <img src=x onerror="${run('title')}">`;
const courseDescription = `Description ${s} ${payload('description')} <a href="javascript:${run('description-link')}">x</a>`;
const moduleTitle = `Module ${s} <svg onload="${run('module-title')}">`;
const moduleContent = [
  `# Heading ${s}`,
  payload('module'),
  '<div onmouseover="alert(1)">raw block</div>',
  `<a href="javascript:${run('raw-a')}">raw anchor</a>`,
  `[plain](javascript:${run('md-link')})`,
  '[mixed case](JaVaScRiPt:alert(1))',
  '[entity](&#106;avascript:alert(1))',
  '[tab entity](java&#x09;script:alert(1))',
  '[encoded](javascript%3Aalert(1))',
  '[angle](<javascript:alert(1)>)',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[vb](vbscript:msgbox(1))',
  '[spaced]( javascript:alert(1))',
  '![image](javascript:alert(1))',
  '![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '<javascript:alert(1)>',
  '[reference][evil]',
  '',
  '[evil]: javascript:alert(1)',
  '',
  '[fine](https://www.gov.uk/) and [relative](/certificates) stay links.',
].join('\n\n');
const quiz = { title: `Quiz ${s} <img src=x onerror="${run('quiz-title')}">`, description: `Quiz description ${payload('quiz-description')}` };
const question = {
  questionText: `Question ${s} ${payload('question')}`,
  questionType: 'MULTIPLE_CHOICE',
  options: [
    { text: `<img src=x onerror="${run('option')}">`, isCorrect: true },
    { text: `<a href="javascript:${run('option-link')}">b</a>`, isCorrect: false },
  ],
  explanation: `Explanation <script>${run('explanation')}</script>`,
};
const learnerName = `Xena ${s} <img src=x onerror="${run('name')}">`;

/** What the page's guard saw: payloads run, CSP violations, elements with handlers, foreign scripts, script links. */
async function inspect(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as { __xss: string[]; __csp: string[] };
    const handlers = [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).map((el) => el.outerHTML.slice(0, 120));
    // A course page rendered on request carries the answers it was rendered with as a JSON data block
    // (platform/page-render.mjs): never run (its type; the CSP), and with every '<' escaped, so no
    // text in it can close the element. Any other script is the app's files or a planted one.
    const dataBlock = (el: HTMLScriptElement) => el.id === 'page-data' && el.type === 'application/json' && !el.src && !el.text.includes('<');
    const scripts = [...document.scripts]
      .filter((el) => !dataBlock(el))
      .filter((el) => !/^\/(assets\/|theme-init\.js)/.test(new URL(el.src || 'inline:', location.href).pathname) || !el.src)
      .map((el) => el.outerHTML.slice(0, 120));
    const links = [...document.querySelectorAll('[href], [src], [action], [formaction]')]
      .flatMap((el) => ['href', 'src', 'action', 'formaction'].map((name) => el.getAttribute(name)).filter((v): v is string => v !== null))
      // As the browser resolves it: javascript%3A... is a harmless relative path, java&#9;script: is not.
      .filter((value) => {
        try {
          return ['javascript:', 'vbscript:', 'data:'].includes(new URL(value, location.href).protocol);
        } catch {
          return false;
        }
      });
    return { executed: [...w.__xss], csp: [...w.__csp], handlers, scripts, links };
  });
}

describe('content safety: planted payloads never run', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const consoleProblems: string[] = [];
  let courseId = '';
  let moduleId = '';
  let learner = { username: `xena_${s}`, password: '' };

  beforeAll(async () => {
    const instructor = await apiLogin('instructor');
    const admin = await apiLogin('admin');
    const course = await apiCall('POST', '/courses', instructor.token, {
      title: courseTitle, description: courseDescription, service: 'UKPS', status: 'ACTIVE', requiresEnrollment: true,
    });
    expect(course.status, course.text).toBe(201);
    courseId = course.json.id;
    const mod = await apiCall('POST', `/courses/${courseId}/modules`, instructor.token, { title: moduleTitle, content: moduleContent });
    expect(mod.status, mod.text).toBe(201);
    moduleId = mod.json.id;
    const created = await apiCall('PUT', `/modules/${moduleId}/quiz`, instructor.token, { ...quiz, passingScore: 50 });
    expect([200, 201], created.text).toContain(created.status);
    const added = await apiCall('POST', `/quizzes/${created.json.id}/questions`, instructor.token, question);
    expect(added.status, added.text).toBe(201);
    const user = await apiCall('POST', '/users', admin.token, {
      username: learner.username, email: `xena.${s}@example.uk`, name: learnerName, role: 'STUDENT', services: ['UKPS'],
    });
    expect(user.status, user.text).toBe(201);
    learner = { ...learner, password: user.json.temporaryPassword };
    const signedIn = await apiLogin(learner.username, learner.password);
    learner = { ...learner, password: await apiChooseNewPassword(signedIn.token, learner.password) };
    const enrolled = await apiCall('POST', `/courses/${courseId}/enroll`, signedIn.token);
    expect([200, 201], enrolled.text).toContain(enrolled.status);

    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function open(username: string, password?: string, path = '/') {
    await context?.close();
    context = await browser.newContext();
    await context.addInitScript(() => {
      const w = window as unknown as { __xss: string[]; __csp: string[] };
      w.__xss = [];
      w.__csp = [];
      document.addEventListener('securitypolicyviolation', (event) => w.__csp.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) consoleProblems.push(message.text());
    });
    page.on('pageerror', (error) => consoleProblems.push(`pageerror: ${error.message}`));
    await uiLogin(page, username, password, path);
  }

  async function expectInert(name: string) {
    // Give any planted handler (onerror of a broken image, onload of an svg) time to fire.
    await page.waitForTimeout(300);
    const seen = await inspect(page);
    await screenshot(page, `content-safety-${name}`);
    expect({ screen: name, ...seen, dialogs, consoleProblems }).toEqual({
      screen: name, executed: [], csp: [], handlers: [], scripts: [], links: [], dialogs: [], consoleProblems: [],
    });
  }

  it('as the learner: catalogue, course page, module with its quiz, My Courses and the dashboard', async () => {
    await open(learner.username, learner.password);
    // The payload text is shown as text.
    await page.goto(`${baseUrl}/?search=${encodeURIComponent(`Safe ${s}`)}`);
    await page.getByText(courseTitle, { exact: true }).first().waitFor();
    await expectInert('catalogue');

    await page.goto(`${baseUrl}/course/${courseId}`);
    await page.getByRole('heading', { level: 1, name: courseTitle }).waitFor();
    await page.getByText(moduleTitle, { exact: true }).first().waitFor();
    await expectInert('course');

    await page.goto(`${baseUrl}/course/${courseId}/module/${moduleId}`);
    await page.getByRole('heading', { level: 1, name: moduleTitle }).waitFor();
    await page.getByText('<div onmouseover="alert(1)">raw block</div>').waitFor();
    // Safe links stay links; every script URL became '#'.
    await page.getByRole('link', { name: 'fine' }).waitFor();
    expect(await page.getByRole('link', { name: 'fine' }).getAttribute('href')).toBe('https://www.gov.uk/');
    for (const name of ['plain', 'mixed case', 'entity', 'tab entity', 'angle', 'data', 'vb', 'reference']) {
      const link = page.getByRole('link', { name, exact: true });
      if ((await link.count()) > 0) expect(await link.getAttribute('href'), name).not.toMatch(/script|data:/i);
    }
    await page.locator('[data-markdown]').hover();
    await page.getByText(`Quiz: ${quiz.title}`).waitFor();
    await page.getByRole('button', { name: 'Start quiz' }).click();
    await page.getByText(question.questionText).waitFor();
    await page.getByRole('radio', { name: question.options[0].text }).check();
    await expectInert('module-quiz');
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByText('Quiz passed').waitFor();
    await expectInert('quiz-result');

    await page.goto(`${baseUrl}/my-courses`);
    await page.getByText(courseTitle, { exact: true }).first().waitFor();
    await expectInert('my-courses');

    await page.goto(`${baseUrl}/dashboard`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expectInert('dashboard');
  });

  it("as the admin: the users list shows the learner's name as text", async () => {
    await open('admin', undefined, '/admin');
    await page.getByRole('table', { name: 'Users' }).waitFor();
    await page.getByLabel('Search users').fill(learner.username);
    await page.locator(`tr[data-user="${learner.username}"]`).getByText(learnerName, { exact: true }).waitFor();
    await expectInert('admin-users');
  });

  it("as the instructor: Students shows the learner's name, My Courses the course title, as text", async () => {
    await open('instructor', undefined, '/instructor?tab=students');
    await page.getByRole('table', { name: 'Students' }).waitFor();
    await page.getByRole('row', { name: new RegExp(`Xena ${s}`) }).first().waitFor();
    await expectInert('instructor-students');
    await page.goto(`${baseUrl}/instructor?tab=courses`);
    await page.getByText(courseTitle, { exact: true }).first().waitFor();
    await expectInert('instructor-courses');
    await context.close();
  });
});
