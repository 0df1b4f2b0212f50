// Correctness under load: the same learner fires the same write 50 times at once.
// One enrolment, one module completion, course progress that never skips a step or exceeds 100, and
// an offline queue's item accepted once whichever tabs and devices send it.
// `npm run bench` runs the same three checks against the platform on the scaled database.
// On PGlite the platform runs one statement at a time; on Postgres (TEST_DATABASE_URL, the backup
// test) the transactions really race.
import { assertEquals, call, closePoolAfterTests, db, register, test, unique } from './helpers.ts';

const N = 50;

function burst(send: () => ReturnType<typeof call>) {
  return Promise.all(Array.from({ length: N }, send));
}

function statuses(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** A published course by a fresh instructor, with `modules` modules (none: progress steps by 20 %). */
async function publishedCourse(modules: number): Promise<{ courseId: string; moduleIds: string[] }> {
  const { user, session } = await register();
  await db.sql`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS}' where id = ${user.id}::uuid`;
  const token = session.access_token as string;
  const created = await call('POST', '/api/courses', {
    token,
    body: { title: `Writes ${unique()}`, description: 'A course for the concurrent write checks.', service: 'UKPS', level: 'BEGINNER', duration: 1, status: 'ACTIVE' },
  });
  assertEquals(created.status, 201, created.text);
  const moduleIds: string[] = [];
  for (let n = 1; n <= modules; n += 1) {
    const m = await call('POST', `/api/courses/${created.json.id}/modules`, {
      token,
      body: { title: `Module ${n}`, content: `The content of module ${n}, long enough to pass validation.` },
    });
    assertEquals(m.status, 201, m.text);
    moduleIds.push(m.json.id);
  }
  return { courseId: created.json.id, moduleIds };
}

test('enrol 50 times at once: exactly one enrolment (201), 49 conflicts (409)', async () => {
  const { courseId } = await publishedCourse(1);
  const { user, session } = await register();
  const answers = await burst(() => call('POST', `/api/courses/${courseId}/enroll`, { token: session.access_token }));
  assertEquals(statuses(answers), { 201: 1, 409: N - 1 });
  const [{ n }] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from public.enrollments where user_id = ${user.id}::uuid and course_id = ${courseId}::uuid`;
  assertEquals(n, 1);
});

test('complete the same module 50 times at once: one completion, progress 50 of 100, never more', async () => {
  const { courseId, moduleIds } = await publishedCourse(2);
  const { user, session } = await register();
  const token = session.access_token as string;
  assertEquals((await call('POST', `/api/courses/${courseId}/enroll`, { token })).status, 201);
  const answers = await burst(() => call('POST', `/api/modules/${moduleIds[0]}/complete`, { token }));
  assertEquals(statuses(answers), { 200: N });
  for (const answer of answers) assertEquals(answer.json.progress, 50, answer.text);
  const rows = await db.sql<{ completed: boolean }[]>`
    select completed from public.user_module_progress where user_id = ${user.id}::uuid and module_id = ${moduleIds[0]}::uuid`;
  assertEquals(rows.map((r) => r.completed), [true]);
  const [enrolment] = await db.sql<{ progress: number; completed: boolean }[]>`
    select progress, completed from public.enrollments where user_id = ${user.id}::uuid and course_id = ${courseId}::uuid`;
  assertEquals(enrolment, { progress: 50, completed: false });
});

test('step progress 50 times at once: 20, 40, 60, 80, 100 each once, never above 100', async () => {
  const { courseId } = await publishedCourse(0);
  const { session } = await register();
  const token = session.access_token as string;
  const enrolled = await call('POST', `/api/courses/${courseId}/enroll`, { token });
  assertEquals(enrolled.status, 201, enrolled.text);
  const answers = await burst(() => call('PUT', `/api/enrollments/${enrolled.json.id}`, { token, body: {} }));
  assertEquals(statuses(answers), { 200: N });
  const values = answers.map((a) => a.json.progress as number).sort((a, b) => a - b);
  assertEquals(values.filter((v) => v < 100), [20, 40, 60, 80], 'each step answered once, none skipped');
  assertEquals(values.filter((v) => v === 100).length, N - 4);
  const [stored] = await db.sql<{ progress: number; completed: boolean }[]>`
    select progress, completed from public.enrollments where id = ${enrolled.json.id}::uuid`;
  assertEquals(stored, { progress: 100, completed: true });
});

test('an offline queue replayed by 50 tabs at once: one key accepted once; 50 devices\' keys for the last module give one completion and one certificate', async () => {
  const { courseId, moduleIds } = await publishedCourse(2);
  const { user, session } = await register();
  const token = session.access_token as string;
  assertEquals((await call('POST', `/api/courses/${courseId}/enroll`, { token })).status, 201);
  const item = (moduleId: string) => ({ kind: 'module-read', personId: user.id, moduleId });
  const key = crypto.randomUUID();
  const same = await burst(() => call('PUT', `/api/offline/items/${key}`, { token, body: item(moduleIds[0]) }));
  assertEquals(statuses(same), { 200: N });
  assertEquals(same.filter((a) => a.json.replayed === false).length, 1, 'the key is accepted once, replayed 49 times');
  const devices = await burst(() => call('PUT', `/api/offline/items/${crypto.randomUUID()}`, { token, body: item(moduleIds[1]) }));
  assertEquals(statuses(devices), { 200: N });
  for (const answer of devices) assertEquals([answer.json.courseProgress, answer.json.courseCompleted], [100, true], answer.text);
  const [row] = await db.sql<{ completions: number; certificates: number }[]>`
    select (select count(*)::int from public.user_module_progress where user_id = ${user.id}::uuid and completed) as completions,
           (select count(*)::int from public.certificates where user_id = ${user.id}::uuid and course_id = ${courseId}::uuid) as certificates`;
  assertEquals(row, { completions: 2, certificates: 1 });
});

closePoolAfterTests();
