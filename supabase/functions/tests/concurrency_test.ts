// Concurrency: the same write sent 50 times at once (a double click, a retrying client, a burst)
// has exactly one correct effect, and admins saving different settings at the same moment leave
// one consistent row. Enrol, progress and module completion are in concurrency_writes_test.ts.
// On PGlite the platform runs one statement at a time; the backup test (platform/backup.test.mjs)
// runs this file again against a platform on the machine's Postgres, where transactions race.
import { assert, assertEquals, call, closePoolAfterTests, db, register, test, unique } from './helpers.ts';

const N = 50;

/** Sends the same request n times at once; answers in sending order. */
function burst(n: number, send: (i: number) => ReturnType<typeof call>) {
  return Promise.all(Array.from({ length: n }, (_, i) => send(i)));
}

function statuses(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

async function instructor(): Promise<string> {
  const { user, session } = await register();
  await db.sql`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS,MISC}' where id = ${user.id}::uuid`;
  return session.access_token;
}

async function admin(): Promise<string> {
  const { user, session } = await register();
  await db.sql`update public.profiles set role = 'ADMIN' where id = ${user.id}::uuid`;
  return session.access_token;
}

/** A published course of the instructor's with `modules` modules; the first has a quiz of `questions` questions. */
async function course(token: string, modules: number, questions: number, timeLimit: number | null = null) {
  const created = await call('POST', '/api/courses', {
    token,
    body: { title: `Concurrency ${unique()}`, description: 'A course for the concurrency tests.', service: 'UKPS', level: 'BEGINNER', duration: 1, status: 'ACTIVE' },
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
  const quiz = await call('PUT', `/api/modules/${moduleIds[0]}/quiz`, { token, body: { title: 'Concurrency check', passingScore: 50, timeLimit } });
  assertEquals(quiz.status, 201, quiz.text);
  const questionIds: string[] = [];
  for (let n = 1; n <= questions; n += 1) {
    const q = await call('POST', `/api/quizzes/${quiz.json.id}/questions`, {
      token,
      body: { questionText: `Question number ${n}?`, questionType: 'MULTIPLE_CHOICE', points: 1, options: [{ text: 'Right', isCorrect: true }, { text: 'Wrong', isCorrect: false }] },
    });
    assertEquals(q.status, 201, q.text);
    questionIds.push(q.json.id);
  }
  return { id: created.json.id as string, moduleIds, quizId: quiz.json.id as string, questionIds };
}

/** Runs fn with the global course access changed, restoring it afterwards whatever happens. */
async function withCourseAccess(value: string, fn: () => Promise<void>) {
  const [before] = await db.sql<{ courseAccess: string }[]>`select course_access::text from public.settings where id`;
  await db.sql`update public.settings set course_access = ${value}::public.course_access where id`;
  try {
    await fn();
  } finally {
    await db.sql`update public.settings set course_access = ${before.courseAccess}::public.course_access where id`;
  }
}

const author = await instructor();

for (const timeLimit of [null, 10]) {
  test(`quiz submission (${timeLimit ? 'timed' : 'untimed'}): ${N} identical submissions of one attempt score it once`, async () => {
    const c = await course(author, 2, 2, timeLimit);
    const { user, session } = await register();
    const token = session.access_token;
    assertEquals((await call('POST', `/api/courses/${c.id}/enroll`, { token })).status, 201);
    assertEquals((await call('POST', `/api/modules/${c.moduleIds[0]}/complete`, { token })).status, 200);
    const opened = await call('GET', `/api/modules/${c.moduleIds[0]}/quiz`, { token });
    assertEquals(opened.status, 200, opened.text);
    const answers = Object.fromEntries(c.questionIds.map((id) => [id, [0]]));

    const results = await burst(N, () => call('POST', `/api/quizzes/${c.quizId}/attempts`, { token, body: { answers } }));
    assertEquals(statuses(results), { 201: 1, 400: N - 1 });
    const scored = results.find((r) => r.status === 201)!;
    assertEquals([scored.json.score, scored.json.maxScore, scored.json.passed, scored.json.moduleCompleted], [2, 2, true, true]);
    assertEquals(scored.json.enrollment.progress, 50);
    for (const refused of results.filter((r) => r.status === 400)) {
      assertEquals(refused.json, { message: 'Open the quiz before submitting your answers' });
    }
    const attempts = await db.sql<{ completed: boolean }[]>`
      select completed_at is not null as completed from public.quiz_attempts where user_id = ${user.id}::uuid and quiz_id = ${c.quizId}::uuid`;
    assertEquals(attempts.map((a) => a.completed), [true], 'one scored attempt, no running one left');
    const progress = await db.sql`select completed from public.user_module_progress where user_id = ${user.id}::uuid`;
    assertEquals(progress.map((p) => p.completed), [true]);
    const [enrolment] = await db.sql`select progress from public.enrollments where user_id = ${user.id}::uuid and course_id = ${c.id}::uuid`;
    assertEquals(enrolment.progress, 50);

    // Opening the quiz again starts a new attempt: a retry is still one attempt per opening.
    assertEquals((await call('GET', `/api/modules/${c.moduleIds[0]}/quiz`, { token })).status, 200);
    const again = await burst(5, () => call('POST', `/api/quizzes/${c.quizId}/attempts`, { token, body: { answers } }));
    assertEquals(statuses(again), { 201: 1, 400: 4 });
  });
}

test(`module reorder: ${N} identical reorders all succeed with one order; ${N} different ones leave one whole order`, async () => {
  const c = await course(author, 5, 0);
  const reversed = [...c.moduleIds].reverse();
  const same = await burst(N, () => call('PUT', `/api/courses/${c.id}/modules/reorder`, { token: author, body: { moduleIds: reversed } }));
  assertEquals(statuses(same), { 200: N });
  for (const answer of same) assertEquals(answer.json.map((m: { id: string }) => m.id), reversed);
  const rows = await db.sql<{ id: string; orderIndex: number }[]>`
    select id, order_index from public.course_modules where course_id = ${c.id}::uuid order by order_index`;
  assertEquals(rows.map((r) => r.id), reversed);
  assertEquals(rows.map((r) => r.orderIndex), [1, 2, 3, 4, 5]);

  // Different orders at once: each request is applied whole, one after another; the last wins.
  const orders = Array.from({ length: N }, (_, i) => [...c.moduleIds.slice(i % 5), ...c.moduleIds.slice(0, i % 5)]);
  const mixed = await burst(N, (i) => call('PUT', `/api/courses/${c.id}/modules/reorder`, { token: author, body: { moduleIds: orders[i] } }));
  assertEquals(statuses(mixed), { 200: N });
  for (const [i, answer] of mixed.entries()) assertEquals(answer.json.map((m: { id: string }) => m.id), orders[i], 'each answer shows its own order');
  const after = await db.sql<{ id: string; orderIndex: number }[]>`
    select id, order_index from public.course_modules where course_id = ${c.id}::uuid order by order_index`;
  assertEquals(after.map((r) => r.orderIndex), [1, 2, 3, 4, 5]);
  assert(orders.some((o) => JSON.stringify(o) === JSON.stringify(after.map((r) => r.id))), 'the final order is one that was sent');
});

test(`question reorder: ${N} identical reorders all succeed; ${N} different ones leave one whole order`, async () => {
  const c = await course(author, 1, 4);
  const reversed = [...c.questionIds].reverse();
  const same = await burst(N, () => call('PUT', `/api/quizzes/${c.quizId}/questions/reorder`, { token: author, body: { questionIds: reversed } }));
  assertEquals(statuses(same), { 200: N });
  const rows = await db.sql<{ id: string; orderIndex: number }[]>`
    select id, order_index from public.quiz_questions where quiz_id = ${c.quizId}::uuid order by order_index`;
  assertEquals(rows.map((r) => r.id), reversed);
  assertEquals(rows.map((r) => r.orderIndex), [1, 2, 3, 4]);

  const orders = Array.from({ length: N }, (_, i) => [...c.questionIds.slice(i % 4), ...c.questionIds.slice(0, i % 4)]);
  const mixed = await burst(N, (i) => call('PUT', `/api/quizzes/${c.quizId}/questions/reorder`, { token: author, body: { questionIds: orders[i] } }));
  assertEquals(statuses(mixed), { 200: N });
  const after = await db.sql<{ id: string; orderIndex: number }[]>`
    select id, order_index from public.quiz_questions where quiz_id = ${c.quizId}::uuid order by order_index`;
  assertEquals(after.map((r) => r.orderIndex), [1, 2, 3, 4]);
  assert(orders.some((o) => JSON.stringify(o) === JSON.stringify(after.map((r) => r.id))), 'the final order is one that was sent');
});

test(`role permissions: ${N} identical saves set every holder's services once, with one audit event`, async () => {
  const token = await admin();
  const holders = await db.sql<{ id: string; services: string[] }[]>`
    select id, services::text[] as services from public.profiles where role = 'INSTRUCTOR' order by id`;
  const [{ since }] = await db.sql<{ since: Date }[]>`select clock_timestamp() as since`;
  const wanted = ['UKFRS', 'UKPS', 'MISC'];
  try {
    const results = await burst(N, () => call('PUT', '/api/roles/INSTRUCTOR/services', { token, body: { services: wanted } }));
    assertEquals(statuses(results), { 200: N });
    const after = await db.sql<{ services: string[] }[]>`
      select services::text[] as services from public.profiles where role = 'INSTRUCTOR'`;
    assertEquals(after.length, holders.length);
    for (const row of after) assertEquals([...row.services].sort(), [...wanted].sort());
    const events = await db.sql`
      select 1 from public.audit_events where action = 'users.permissions_changed' and occurred_at >= ${since}`;
    assertEquals(events.length, 1, 'one change, one audit event; the identical saves changed nothing');
  } finally {
    // Every instructor gets back exactly the services they had (other test files rely on them).
    for (const { id, services } of holders) {
      await db.sql`update public.profiles set services = ${services}::public.service_code[] where id = ${id}::uuid`;
    }
  }
});

test(`enrolment approval: ${N} simultaneous approvals of one pending enrolment approve it once`, async () => {
  const c = await course(author, 1, 0);
  await withCourseAccess('login-approval', async () => {
    const learner = await register();
    const enrolled = await call('POST', `/api/courses/${c.id}/enroll`, { token: learner.session.access_token });
    assertEquals(enrolled.status, 201, enrolled.text);
    assertEquals(enrolled.json.status, 'PENDING');
    const results = await burst(N, () => call('POST', `/api/enrollments/${enrolled.json.id}/approve`, { token: author }));
    assertEquals(statuses(results), { 200: 1, 409: N - 1 });
    assertEquals(results.find((r) => r.status === 200)!.json.status, 'ACTIVE');
    for (const refused of results.filter((r) => r.status === 409)) {
      assertEquals(refused.json, { message: 'This enrolment is not awaiting approval' });
    }
    const rows = await db.sql`select status::text from public.enrollments where user_id = ${learner.user.id}::uuid`;
    assertEquals(rows.map((r) => r.status), ['ACTIVE']);
  });
});

const SETTINGS_FIELDS = ['siteName', 'adminEmail', 'courseAccess', 'certificateTemplate', 'footerText', 'enableAnalytics', 'autoEnrollment'] as const;

for (const admins of [10]) {
  test(`settings: ${admins} admins saving different settings at once leave one consistent row`, async () => {
    const tokens = await Promise.all(Array.from({ length: admins }, () => admin()));
    const [before] = await db.sql<Record<string, unknown>[]>`select * from public.settings where id`;
    const templates = ['standard', 'professional', 'service', 'custom'];
    const accesses = ['public-login', 'public-enroll', 'login-browse', 'login-approval'];
    const bodies = tokens.map((_, i) => ({
      siteName: `Concurrent site ${i} ${unique()}`,
      adminEmail: `admin-${i}@example.test`,
      courseAccess: accesses[i % accesses.length],
      certificateTemplate: templates[(i + 1) % templates.length],
      footerText: `Footer written by admin ${i}`,
      enableAnalytics: i % 2 === 0,
      autoEnrollment: false,
    }));
    try {
      const results = await Promise.all(tokens.map((token, i) => call('PUT', '/api/settings', { token, body: bodies[i] })));
      assertEquals(statuses(results), { 200: admins });
      // Each admin sees their own save, whole.
      for (const [i, answer] of results.entries()) {
        for (const field of SETTINGS_FIELDS) assertEquals(answer.json[field], bodies[i][field], `${field} of admin ${i}`);
      }
      // The row is exactly one admin's save, never a mixture of two.
      const [row] = await db.sql<Record<string, unknown>[]>`
        select site_name, admin_email, course_access::text as course_access, certificate_template::text as certificate_template,
               footer_text, enable_analytics, auto_enrollment from public.settings where id`;
      const winner = bodies.find((b) => b.siteName === row.siteName);
      assert(winner, `the site name is one that was sent: ${row.siteName}`);
      for (const field of SETTINGS_FIELDS) assertEquals(row[field], winner![field], field);
      const [{ count }] = await db.sql<{ count: number }[]>`select count(*)::int as count from public.settings`;
      assertEquals(count, 1);
    } finally {
      await db.sql`update public.settings set
        site_name = ${before.siteName as string}, admin_email = ${before.adminEmail as string},
        course_access = ${before.courseAccess as string}::public.course_access,
        certificate_template = ${before.certificateTemplate as string}::public.certificate_template,
        footer_text = ${before.footerText as string}, enable_analytics = ${before.enableAnalytics as boolean},
        auto_enrollment = ${before.autoEnrollment as boolean}
        where id`;
    }
  });
}

closePoolAfterTests();
