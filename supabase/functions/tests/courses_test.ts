// The learner journey's API (routes/courses/, routes/modules/, routes/quizzes/, routes/enrollments.ts)
// against the real running platform and its seeded database: catalogue, course, outline, module, enrolment, progress, quizzes and the time limit.
import { assert, assertEquals, assertExists, assertNotEquals, call, closePoolAfterTests, db, ids, login, register, test } from './helpers.ts';

const { course, module, quiz, question } = ids;
const JESIP = course(1);
const NO_MODULES = course(14);
const DRAFT = course(15);
const JESIP_QUIZ = quiz(1, 2);
const RIGHT = { [question(1, 2, 1)]: 0, [question(1, 2, 2)]: [1], [question(1, 2, 3)]: 0 };
const WRONG = { [question(1, 2, 1)]: 1, [question(1, 2, 2)]: [0], [question(1, 2, 3)]: 0 };

async function newLearner(): Promise<{ token: string; id: string }> {
  const { session, user } = await register();
  return { token: session.access_token, id: user.id };
}

async function enrol(token: string, courseId: string) {
  const answer = await call('POST', `/api/courses/${courseId}/enroll`, { token });
  assertEquals(answer.status, 201, answer.text);
  return answer.json;
}

async function withCourseAccess(value: string, fn: () => Promise<void>) {
  const [{ courseAccess }] = await db.sql`select course_access::text from public.settings where id`;
  await db.sql`update public.settings set course_access = ${value}::public.course_access where id`;
  try {
    await fn();
  } finally {
    await db.sql`update public.settings set course_access = ${courseAccess}::public.course_access where id`;
  }
}

// ---- Catalogue ----

test('visitor lists published courses, paged, featured first, with module counts and authors', async () => {
  const answer = await call('GET', '/api/courses?pageSize=5');
  assertEquals(answer.status, 200);
  const { items, total, page, pageSize } = answer.json;
  assertEquals([page, pageSize], [1, 5]);
  assertEquals(items.length, 5);
  assert(total >= 14, `total ${total}`);
  const all = (await call('GET', '/api/courses?pageSize=100')).json.items;
  assertEquals(all.length, total);
  assert(all.every((c: { status: string }) => c.status === 'ACTIVE'), 'only published courses for a visitor');
  const firstPlain = all.findIndex((c: { featured: boolean }) => !c.featured);
  assert(all.slice(firstPlain).every((c: { featured: boolean }) => !c.featured), 'featured first');
  const jesip = all.find((c: { id: string }) => c.id === JESIP);
  assertEquals(jesip.modules, 4);
  assertEquals(jesip.author, { name: jesip.author.name, username: 'instructor' });
  assertEquals(jesip.enrollment, null);
  assertEquals(all.find((c: { id: string }) => c.id === NO_MODULES).modules, 0);
  const second = (await call('GET', '/api/courses?pageSize=5&page=2')).json;
  assertEquals(second.items.map((c: { id: string }) => c.id), all.slice(5, 10).map((c: { id: string }) => c.id));
  const beyond = (await call('GET', '/api/courses?pageSize=5&page=99')).json;
  assertEquals([beyond.items.length, beyond.total], [0, total]);
});

test('catalogue filters by service and searches title and description case-insensitively', async () => {
  const ukps = (await call('GET', '/api/courses?service=UKPS&pageSize=100')).json;
  assert(ukps.items.length >= 3);
  assert(ukps.items.every((c: { service: string }) => c.service === 'UKPS'));
  const search = (await call('GET', '/api/courses?search=jEsIp')).json;
  assertEquals(search.items.map((c: { id: string }) => c.id), [JESIP]);
  const byDescription = (await call('GET', '/api/courses?search=METHANE')).json;
  assertEquals(byDescription.items.map((c: { id: string }) => c.id), [JESIP]);
  // % and _ are literal characters, not wildcards.
  assertEquals((await call('GET', '/api/courses?search=%25%25%25')).json.total, 0);
  // Every word, in any order, in the title or the description.
  const SMART = '10000000-0000-4000-a000-000000000008';
  for (const words of ['smart motorways safety', 'Safety  SMART motorways', 'motorways stopped vehicle', 'smart scene']) {
    const found = (await call('GET', `/api/courses?search=${encodeURIComponent(words)}`)).json;
    assertEquals(found.items.map((c: { id: string }) => c.id), [SMART], words);
    assertEquals(found.total, 1, words);
  }
  assertEquals((await call('GET', '/api/courses?search=smart%20jesip')).json.total, 0);
});

test('catalogue refuses bad query parameters with field messages', async () => {
  for (const query of ['page=0', 'page=abc', 'pageSize=101', 'service=NOPE', 'status=published', 'mine=yes']) {
    const answer = await call('GET', `/api/courses?${query}`);
    assertEquals(answer.status, 400, query);
    assertExists(answer.json.fields, query);
  }
  assertEquals((await call('GET', '/api/courses?mine=true')).status, 401);
});

test('drafts: hidden from visitors and learners, listed for their author with mine=true', async () => {
  assertEquals((await call('GET', '/api/courses?status=DRAFT')).json.total, 0);
  const student = await login('student');
  assertEquals((await call('GET', '/api/courses?status=DRAFT', { token: student })).json.total, 0);
  const instructor = await login('instructor');
  const mine = (await call('GET', '/api/courses?mine=true&pageSize=100', { token: instructor })).json;
  assert(mine.items.some((c: { id: string }) => c.id === DRAFT));
  assert(mine.items.every((c: { authorId: string }) => c.authorId === '00000000-0000-4000-a000-000000000002'));
});

test('the caller\'s enrolment is embedded in the list and the course', async () => {
  const student = await login('student');
  const list = (await call('GET', '/api/courses?search=JESIP', { token: student })).json;
  assertEquals(list.items[0].enrollment.progress, 50);
  assertEquals(list.items[0].enrollment.status, 'ACTIVE');
  const one = await call('GET', `/api/courses/${JESIP}`, { token: student });
  assertEquals(one.status, 200);
  assertEquals(one.json.enrollment.id, '50000000-0000-4000-a000-000000000002');
});

test('one course: 404 when absent, invisible or malformed', async () => {
  assertEquals((await call('GET', `/api/courses/${JESIP}`)).json.title.startsWith('JESIP'), true);
  for (const id of [DRAFT, course(999), 'abc', '1 or 1=1']) {
    const answer = await call('GET', `/api/courses/${encodeURIComponent(id)}`);
    assertEquals(answer.status, 404, id);
    assertEquals(answer.json.message, 'Course not found');
  }
  const instructor = await login('instructor');
  assertEquals((await call('GET', `/api/courses/${DRAFT}`, { token: instructor })).status, 200);
});

// ---- Outline and modules ----

test('outline: everyone who sees the course gets titles; content only for those who may study it', async () => {
  const visitor = await call('GET', `/api/courses/${JESIP}/modules`);
  assertEquals(visitor.status, 200);
  assertEquals(visitor.json.length, 4);
  assertEquals(visitor.json.map((m: { orderIndex: number }) => m.orderIndex), [1, 2, 3, 4]);
  assert(visitor.json.every((m: { content: unknown }) => m.content === null));
  assertEquals(visitor.json[1].hasQuiz, true);
  const student = await login('student');
  const enrolled = (await call('GET', `/api/courses/${JESIP}/modules`, { token: student })).json;
  assert(enrolled.every((m: { content: string }) => typeof m.content === 'string' && m.content.length > 20));
  assertEquals((await call('GET', `/api/courses/${DRAFT}/modules`)).status, 404);
  assertEquals((await call('GET', '/api/courses/nope/modules')).status, 404);
});

test('module: visitor 401, unenrolled learner 403, enrolled learner reads it with previous and next', async () => {
  const visitor = await call('GET', `/api/modules/${module(1, 2)}`);
  assertEquals(visitor.status, 401);
  const { token, id } = await newLearner();
  const refused = await call('GET', `/api/modules/${module(1, 2)}`, { token });
  assertEquals(refused.status, 403);
  assertEquals(refused.json.message, 'Enrol in this course to read its modules');
  await enrol(token, JESIP);
  const answer = await call('GET', `/api/modules/${module(1, 2)}`, { token });
  assertEquals(answer.status, 200, answer.text);
  assertEquals(answer.json.previousId, module(1, 1));
  assertEquals(answer.json.nextId, module(1, 3));
  assertEquals([answer.json.position, answer.json.total], [2, 4]);
  assertEquals(answer.json.quiz.passingScore, 70);
  assertEquals(answer.json.quiz.timeLimit, 10);
  assert(answer.json.content.includes('#'));
  const [row] = await db.sql`select last_accessed_module_id::text as id from public.enrollments
                              where course_id = ${JESIP}::uuid and user_id = ${id}::uuid`;
  assertEquals(row.id, module(1, 2), 'opening a module remembers it');
  assertEquals((await call('GET', `/api/modules/${module(1, 1)}`, { token })).json.previousId, null);
  assertEquals((await call('GET', `/api/modules/${module(15, 1)}`, { token })).status, 404);
  assertEquals((await call('GET', '/api/modules/xyz', { token })).status, 404);
});

// ---- Enrolment ----

test('enrol: 401 visitor, 201 then 409, 404 for a draft, only oneself', async () => {
  assertEquals((await call('POST', `/api/courses/${JESIP}/enroll`)).status, 401);
  const { token, id } = await newLearner();
  const first = await call('POST', `/api/courses/${course(2)}/enroll`, { token, body: { userId: id, courseId: course(2) } });
  assertEquals(first.status, 201, first.text);
  assertEquals([first.json.progress, first.json.completed, first.json.status, first.json.userId], [0, false, 'ACTIVE', id]);
  assertEquals(first.json.course.modules, 3);
  const again = await call('POST', `/api/courses/${course(2)}/enroll`, { token });
  assertEquals(again.status, 409);
  assertEquals(again.json.message, 'You are already enrolled in this course');
  assertEquals((await call('POST', `/api/courses/${DRAFT}/enroll`, { token })).status, 404);
  assertEquals((await call('POST', '/api/courses/abc/enroll', { token })).status, 404);
  const other = await call('POST', `/api/courses/${course(4)}/enroll`, {
    token,
    body: { userId: '00000000-0000-4000-a000-000000000003' },
  });
  assertEquals(other.status, 403);
  assertEquals((await call('POST', `/api/courses/${course(4)}/enroll`, { token, body: { userId: 'x' } })).status, 400);
  assertEquals((await call('POST', `/api/courses/${course(4)}/enroll`, { token, raw: '{oops', headers: { 'content-type': 'application/json' } })).status, 400);
});

test('login-approval: an enrolment starts PENDING and gives no access to content', async () => {
  await withCourseAccess('login-approval', async () => {
    const { token } = await newLearner();
    const pending = await enrol(token, JESIP);
    assertEquals(pending.status, 'PENDING');
    const read = await call('GET', `/api/modules/${module(1, 1)}`, { token });
    assertEquals(read.status, 403);
    assertEquals(read.json.message, 'Your enrolment is waiting for approval');
    const step = await call('PUT', `/api/enrollments/${pending.id}`, { token, body: { progress: 20 } });
    assertEquals(step.status, 403);
  });
});

// ---- Progress ----

test('a course without modules steps 0, 20, 40, 60, 80, 100 whatever the body says', async () => {
  const { token } = await newLearner();
  const enrollment = await enrol(token, NO_MODULES);
  const seen: number[] = [];
  for (let i = 0; i < 6; i += 1) {
    const answer = await call('PUT', `/api/enrollments/${enrollment.id}`, {
      token,
      body: { id: enrollment.id, progress: 100, completed: true },
    });
    assertEquals(answer.status, 200, answer.text);
    seen.push(answer.json.progress);
  }
  assertEquals(seen, [20, 40, 60, 80, 100, 100]);
  const done = (await call('GET', `/api/courses/${NO_MODULES}`, { token })).json.enrollment;
  assertEquals(done.completed, true);
  assertExists(done.completedAt);
  const [cert] = await db.sql`select 1 from public.certificates where course_id = ${NO_MODULES}::uuid
                               and user_id = (select user_id from public.enrollments where id = ${enrollment.id}::uuid)`;
  assertExists(cert, 'completion issues the certificate');
});

test('progress update: validated body, 404 for others\' enrolments, unchanged for a course with modules', async () => {
  const { token } = await newLearner();
  const enrollment = await enrol(token, JESIP);
  const same = await call('PUT', `/api/enrollments/${enrollment.id}`, { token, body: { progress: 100, completed: true } });
  assertEquals(same.status, 200);
  assertEquals([same.json.progress, same.json.completed], [0, false]);
  const bad = await call('PUT', `/api/enrollments/${enrollment.id}`, { token, body: { progress: 'lots' } });
  assertEquals(bad.status, 400);
  assertEquals(bad.json.fields.progress, 'Progress must be a number');
  const stranger = await newLearner();
  assertEquals((await call('PUT', `/api/enrollments/${enrollment.id}`, { token: stranger.token, body: {} })).status, 404);
  // An instructor can see the enrolment (their course) but it is not theirs to progress.
  const instructor = await login('instructor');
  assertEquals((await call('PUT', `/api/enrollments/${enrollment.id}`, { token: instructor, body: {} })).status, 404);
  assertEquals((await call('PUT', '/api/enrollments/not-a-uuid', { token, body: {} })).status, 404);
  assertEquals((await call('PUT', `/api/enrollments/${enrollment.id}`, { body: {} })).status, 401);
});

// ---- Modules, quiz and completion ----

test('JESIP module by module: read, fail then pass the quiz, reach 100 %', async () => {
  const { token } = await newLearner();
  await enrol(token, JESIP);
  const m1 = await call('POST', `/api/modules/${module(1, 1)}/complete`, { token });
  assertEquals(m1.status, 200, m1.text);
  assertEquals(m1.json.progress, 25);
  const m2 = await call('POST', `/api/modules/${module(1, 2)}/complete`, { token });
  assertEquals(m2.json.progress, 25, 'a module with a quiz waits for the pass');

  const view = await call('GET', `/api/modules/${module(1, 2)}/quiz`, { token });
  assertEquals(view.status, 200, view.text);
  assertEquals(view.json.questions.length, 3);
  assert(!/isCorrect|correctAnswers|explanation/.test(view.text), 'no answers before submitting');
  assertEquals(view.json.questions[0].options[0], { text: 'Co-locate' });
  assertExists(view.json.attempt.deadline);
  assertEquals(
    new Date(view.json.attempt.deadline).getTime() - new Date(view.json.attempt.startedAt).getTime(),
    10 * 60_000,
  );

  const failed = await call('POST', `/api/quizzes/${JESIP_QUIZ}/attempts`, { token, body: { answers: WRONG } });
  assertEquals(failed.status, 201, failed.text);
  assertEquals([failed.json.score, failed.json.maxScore, failed.json.passed], [1, 3, false]);
  assertEquals(failed.json.percentage, 33);
  // Quiz integrity: by default the correct answers come only with a pass.
  assertEquals(failed.json.answersShown, false);
  assertEquals(failed.json.questions[0].correctAnswers, null);
  assertEquals(failed.json.questions[0].correct, null);
  assertEquals(failed.json.questions[0].explanation, null);
  assert(!/"isCorrect":true/.test(failed.text), 'no correct answer after a failed attempt');
  assertEquals(failed.json.enrollment.progress, 25);
  assertEquals(failed.json.moduleCompleted, false);

  // Retry: the next fetch starts a new attempt.
  const again = await call('GET', `/api/modules/${module(1, 2)}/quiz`, { token });
  assertEquals(again.json.lastResult.passed, false);
  const passed = await call('POST', `/api/quizzes/${JESIP_QUIZ}/attempts`, { token, body: { answers: RIGHT } });
  assertEquals([passed.json.score, passed.json.passed, passed.json.moduleCompleted], [3, true, true]);
  assertEquals(passed.json.answersShown, true);
  assertEquals(passed.json.questions[0].correctAnswers, [0]);
  assertEquals(passed.json.questions[0].correct, true);
  assert(passed.json.questions[0].explanation.startsWith('Co-locate'));
  assertEquals(passed.json.enrollment.progress, 50);

  const outline = (await call('GET', `/api/courses/${JESIP}/modules`, { token })).json;
  assertEquals(outline.map((m: { completed: boolean }) => m.completed), [true, true, false, false]);
  await call('POST', `/api/modules/${module(1, 3)}/complete`, { token });
  const last = await call('POST', `/api/modules/${module(1, 4)}/complete`, { token });
  assertEquals([last.json.progress, last.json.completed], [100, true]);
  const attempts = await db.sql`select count(*)::int as n from public.quiz_attempts a
    join public.enrollments e on e.user_id = a.user_id where e.id = ${last.json.id}::uuid and a.quiz_id = ${JESIP_QUIZ}::uuid`;
  assertEquals(attempts[0].n, 2, 'the running attempts were completed, not left behind');
});

test('quiz time limit is enforced by the server; an expired start is restarted on the next fetch', async () => {
  const { token, id } = await newLearner();
  await enrol(token, JESIP);
  const unopened = await call('POST', `/api/quizzes/${JESIP_QUIZ}/attempts`, { token, body: { answers: RIGHT } });
  assertEquals(unopened.status, 400);
  assertEquals(unopened.json.message, 'Open the quiz before submitting your answers');

  const first = (await call('GET', `/api/modules/${module(1, 2)}/quiz`, { token })).json;
  const reload = (await call('GET', `/api/modules/${module(1, 2)}/quiz`, { token })).json;
  assertEquals(reload.attempt.id, first.attempt.id, 'reloading does not restart the clock');
  assertEquals(reload.attempt.startedAt, first.attempt.startedAt);
  // Eleven minutes later (the limit is ten, plus 30 s grace).
  await db.sql`update public.quiz_attempts set started_at = now() - interval '11 minutes'
               where user_id = ${id}::uuid and quiz_id = ${JESIP_QUIZ}::uuid and completed_at is null`;
  const late = await call('POST', `/api/quizzes/${JESIP_QUIZ}/attempts`, { token, body: { answers: RIGHT } });
  assertEquals(late.status, 400);
  assertEquals(late.json.message, 'Time is up: answers must arrive within the time limit. Open the quiz again to retry.');
  // Inside the grace: 10 minutes 10 seconds after the start is still accepted.
  const restarted = (await call('GET', `/api/modules/${module(1, 2)}/quiz`, { token })).json;
  assertNotEquals(restarted.attempt.startedAt, first.attempt.startedAt);
  await db.sql`update public.quiz_attempts set started_at = now() - interval '10 minutes 10 seconds'
               where user_id = ${id}::uuid and quiz_id = ${JESIP_QUIZ}::uuid and completed_at is null`;
  const inGrace = await call('POST', `/api/quizzes/${JESIP_QUIZ}/attempts`, { token, body: { answers: RIGHT } });
  assertEquals(inGrace.status, 201, inGrace.text);
  assertEquals(inGrace.json.passed, true);
});

test('quiz: 401 visitor, 403 unenrolled, 404 no quiz, 400 malformed answers', async () => {
  assertEquals((await call('GET', `/api/modules/${module(1, 2)}/quiz`)).status, 401);
  assertEquals((await call('POST', `/api/quizzes/${JESIP_QUIZ}/attempts`, { body: { answers: RIGHT } })).status, 401);
  const { token } = await newLearner();
  const refused = await call('GET', `/api/modules/${module(1, 2)}/quiz`, { token });
  assertEquals(refused.status, 403);
  assertEquals(refused.json.message, 'Enrol in this course to take its quiz');
  assertEquals((await call('POST', `/api/quizzes/${JESIP_QUIZ}/attempts`, { token, body: { answers: RIGHT } })).status, 403);
  await enrol(token, JESIP);
  const noQuiz = await call('GET', `/api/modules/${module(1, 1)}/quiz`, { token });
  assertEquals(noQuiz.status, 404);
  assertEquals(noQuiz.json.message, 'Quiz not found');
  for (const body of [{}, { answers: [] }, { answers: { nope: 1 } }, { answers: { [question(1, 2, 1)]: -1 } }, { answers: { [question(1, 2, 1)]: 'a' } }]) {
    const answer = await call('POST', `/api/quizzes/${JESIP_QUIZ}/attempts`, { token, body });
    assertEquals(answer.status, 400, JSON.stringify(body));
    assertExists(answer.json.fields);
  }
  assertEquals((await call('POST', '/api/quizzes/zzz/attempts', { token, body: { answers: {} } })).status, 404);
  assertEquals((await call('POST', `/api/quizzes/${quiz(999, 1)}/attempts`, { token, body: { answers: {} } })).status, 404);
});

test('mark complete: 401 visitor, 403 unenrolled, 404 unknown module', async () => {
  assertEquals((await call('POST', `/api/modules/${module(1, 1)}/complete`)).status, 401);
  const { token } = await newLearner();
  assertEquals((await call('POST', `/api/modules/${module(1, 1)}/complete`, { token })).status, 403);
  assertEquals((await call('POST', `/api/modules/${module(999, 1)}/complete`, { token })).status, 404);
  assertEquals((await call('POST', '/api/modules/1/complete', { token })).status, 404);
});

test('the caller\'s completed enrolment names its certificate (course, list and progress answers); null before and once revoked', async () => {
  const { token, id } = await newLearner();
  const enrollment = await enrol(token, NO_MODULES);
  assertEquals(enrollment.certificateId, null);
  assertEquals((await call('GET', `/api/courses/${NO_MODULES}`, { token })).json.enrollment.certificateId, null);
  let last: { certificateId: string | null; completed: boolean } | null = null;
  for (let i = 0; i < 5; i += 1) {
    const answer = await call('PUT', `/api/enrollments/${enrollment.id}`, { token, body: {} });
    assertEquals(answer.status, 200, answer.text);
    last = answer.json;
    if (i < 4) assertEquals(answer.json.certificateId, null, `step ${i + 1}`);
  }
  const [cert] = await db.sql<{ id: string }[]>`select id from public.certificates where course_id = ${NO_MODULES}::uuid and user_id = ${id}::uuid`;
  assertExists(cert);
  assertEquals(last, { ...last, completed: true, certificateId: cert.id });
  assertEquals((await call('GET', `/api/courses/${NO_MODULES}`, { token })).json.enrollment.certificateId, cert.id);
  const listed = (await call('GET', '/api/courses?pageSize=100', { token })).json.items;
  assertEquals(listed.find((c: { id: string }) => c.id === NO_MODULES).enrollment.certificateId, cert.id);
  // Another learner's certificate is never named; a visitor has no enrolment at all.
  const other = await newLearner();
  await enrol(other.token, NO_MODULES);
  assertEquals((await call('GET', `/api/courses/${NO_MODULES}`, { token: other.token })).json.enrollment.certificateId, null);
  assertEquals((await call('GET', `/api/courses/${NO_MODULES}`)).json.enrollment, null);
  // A revoked certificate is not offered.
  await db.sql`update public.certificates set revoked_at = now(), revoked_reason = 'Issued in error' where id = ${cert.id}::uuid`;
  assertEquals((await call('GET', `/api/courses/${NO_MODULES}`, { token })).json.enrollment.certificateId, null);
});

closePoolAfterTests();
