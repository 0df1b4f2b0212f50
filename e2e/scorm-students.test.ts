// The instructor's Students tab shows a learner's SCORM status and score: a course with a
// SCORM module (the package row as the upload writes it), a learner who reported passed with 88
// through the run-time API, and the row that says so. axe and the contrast check at 1366 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, expectAccessible, launchBrowser, screenshot } from './browser';
import { apiCall, uiLogin } from './api';

const dbUrl = process.env.SUPABASE_DB_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54322/postgres';
const INSTRUCTOR = '00000000-0000-4000-a000-000000000002';

describe('SCORM status in the Students tab', () => {
  let browser: Browser;
  let page: Page;
  let sql: postgres.Sql;
  let courseId: string;
  const suffix = Date.now().toString(36);
  const learnerName = `Sasha Scorm ${suffix}`;

  beforeAll(async () => {
    sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    [{ id: courseId }] = await sql<{ id: string }[]>`
      insert into public.courses (title, description, service, author_id, status)
      values (${`SCORM students ${suffix}`}, 'A SCORM course for the Students tab test.', 'MISC', ${INSTRUCTOR}::uuid, 'ACTIVE')
      returning id::text`;
    const [module] = await sql<{ id: string }[]>`
      insert into public.course_modules (course_id, title, order_index, kind)
      values (${courseId}::uuid, 'Safeguarding package', 1, 'scorm') returning id::text`;
    await sql`
      insert into public.scorm_packages (module_id, course_id, version, title, scos, storage_prefix, file_count, unpacked_bytes)
      values (${module.id}::uuid, ${courseId}::uuid, '1.2', 'Safeguarding',
              ${sql.json([{ id: 'sco-1', title: 'Safeguarding', href: 'index.html' }])}, ${module.id + '/1/'}, 1, 1)`;
    const password = 'secret-pass-1';
    const registered = await apiCall<{ user: { id: string }; session: { access_token: string } }>('POST', '/register', undefined, {
      username: `scorm_${suffix}`, email: `scorm_${suffix}@example.uk`, name: learnerName, password, confirmPassword: password,
    });
    expect(registered.status).toBe(201);
    await sql`insert into public.enrollments (user_id, course_id, status) values (${registered.json.user.id}::uuid, ${courseId}::uuid, 'ACTIVE')`;
    const token = registered.json.session.access_token;
    const opened = await apiCall<{ sessionId: string }>('POST', `/modules/${module.id}/scorm/scos/sco-1/sessions`, token);
    expect(opened.status).toBe(201);
    const saved = await apiCall('PUT', `/scorm/sessions/${opened.json.sessionId}`, token, {
      seq: 1, values: { 'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': '88' }, finish: true,
    });
    expect(saved.status).toBe(200);

    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await uiLogin(page, 'instructor');
  });
  afterAll(async () => {
    if (courseId) await sql`select private.erase_course(id) from public.courses where id = ${courseId}::uuid`;
    await sql?.end();
    await browser?.close();
  });

  it('shows the learner\'s SCORM status, score and attempts, accessibly, wide and narrow', async () => {
    await page.goto(`${baseUrl}/instructor?tab=students`);
    const table = page.getByRole('table', { name: 'Students' });
    await table.waitFor();
    await table.getByRole('columnheader', { name: 'SCORM' }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(learnerName) });
    await row.waitFor();
    await expect(row.getByText('Safeguarding package:').count()).resolves.toBe(1);
    expect(await row.textContent()).toContain('Passed, 88% (1 attempt)');
    expect(await row.textContent()).toContain('Completed');
    await expectAccessible(page);
    await screenshot(page, 'instructor-students-scorm');
    await page.setViewportSize({ width: 390, height: 844 });
    await row.waitFor();
    await expectAccessible(page);
    await screenshot(page, 'instructor-students-scorm-390');
  });
});
