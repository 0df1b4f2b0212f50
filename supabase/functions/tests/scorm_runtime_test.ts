// The SCORM run-time API against the real platform: the player's start, sessions, saves
// validated against the data model (400 per element), order (409), finish, ownership (404), the
// completion flowing into course progress, a certificate and the learning record's score from the
// package, and the instructor's view of learners both ways.
import nodeAssert from 'node:assert/strict';
import { call, closePoolAfterTests, config, db, register, test } from './helpers.ts';

const assert = (value: unknown, message?: string) => nodeAssert.ok(value, message);
const assertEquals = (actual: unknown, expected: unknown) => nodeAssert.deepStrictEqual(actual, expected);

const INSTRUCTOR = '00000000-0000-4000-a000-000000000002';

async function login(username: string, password = 'password123'): Promise<string> {
  const answer = await call('POST', '/api/login', { body: { username, password } });
  if (answer.status !== 200) throw new Error(`login ${username} failed: ${answer.status} ${answer.text}`);
  return answer.json.session.access_token;
}

/** A published MISC course of the demo instructor's with one SCORM module (the package row as the
 * upload would write it; no files needed here). */
async function scormCourse(
  version: '1.2' | '2004',
  scos: (string | Record<string, unknown> & { id: string })[],
  rule = 'completed-or-passed',
  quizScore = false,
  minSeconds = 0,
) {
  const [course] = await db.sql<{ id: string }[]>`
    insert into public.courses (title, description, service, author_id, status)
    values (${`SCORM API ${crypto.randomUUID().slice(0, 8)}`}, 'SCORM run-time API test', 'MISC', ${INSTRUCTOR}::uuid, 'ACTIVE')
    returning id`;
  const [module] = await db.sql<{ id: string }[]>`
    insert into public.course_modules (course_id, title, order_index, kind) values (${course.id}::uuid, 'The package', 1, 'scorm')
    returning id`;
  const scoList = db.sql.json(scos.map((s) => (typeof s === 'string' ? { id: s } : s)).map((s) => ({ title: `SCO ${s.id}`, href: `${s.id}/index.html?x=1`, ...s })));
  await db.sql`
    insert into public.scorm_packages (module_id, course_id, version, edition, title, scos, storage_prefix, file_count,
      unpacked_bytes, completion_rule, score_is_quiz_score, min_seconds)
    values (${module.id}::uuid, ${course.id}::uuid, ${version}, ${version === '2004' ? '3rd' : null}, 'Test package',
      ${scoList}, ${module.id + '/1/'}, 4, 2048, ${rule}, ${quizScore}, ${minSeconds})`;
  return { courseId: course.id, moduleId: module.id };
}

async function enrolledLearner(courseId: string) {
  const learner = await register();
  await db.sql`insert into public.enrollments (user_id, course_id, status) values (${learner.user.id}::uuid, ${courseId}::uuid, 'ACTIVE')`;
  return { token: learner.session.access_token as string, id: learner.user.id as string, name: learner.input.name };
}

test('SCORM 1.2: player, session, validation, order, finish, ownership; passed completes the course with the package\'s score', async () => {
  const { courseId, moduleId } = await scormCourse('1.2', ['sco-1'], 'passed', true);
  const learner = await enrolledLearner(courseId);
  const other = await enrolledLearner(courseId);

  const player = await call('GET', `/api/modules/${moduleId}/scorm/player`, { token: learner.token });
  assertEquals(player.status, 200);
  assertEquals(player.json, {
    moduleId,
    version: '1.2',
    title: 'Test package',
    contentBase: `${config.supabaseUrl}/storage/v1/object/public/scorm-content/${moduleId}/1/`,
    scos: [{ id: 'sco-1', title: 'SCO sco-1', href: 'sco-1/index.html?x=1', status: 'not attempted', score: null }],
    moduleCompleted: false,
  });

  const opened = await call('POST', `/api/modules/${moduleId}/scorm/scos/sco-1/sessions`, { token: learner.token });
  assertEquals(opened.status, 201);
  assertEquals(opened.json.seq, 0);
  assertEquals(opened.json.cmi['cmi.core.entry'], 'ab-initio');
  assertEquals(opened.json.cmi['cmi.core.student_id'], learner.id);
  assertEquals(opened.json.cmi['cmi.core.lesson_status'], 'not attempted');
  const session = opened.json.sessionId as string;
  const put = (token: string, body: unknown) => call('PUT', `/api/scorm/sessions/${session}`, { token, body });

  // Validation: each refused element named, nothing saved.
  const bad = await put(learner.token, {
    seq: 1,
    values: { 'cmi.core.lesson_status': 'done', 'cmi.core.student_id': 'x', 'cmi.suspend_data': 'x'.repeat(4097), 'cmi.core.score.raw': 'lots' },
  });
  assertEquals(bad.status, 400);
  assertEquals(Object.keys(bad.json.fields).sort(), [
    'values.cmi.core.lesson_status', 'values.cmi.core.score.raw', 'values.cmi.core.student_id', 'values.cmi.suspend_data',
  ]);
  // Values of the other version's data model (checked before the session's version is read): refused
  // by the save itself, with the message of this session's version, and nothing saved.
  const otherVersion = await put(learner.token, { seq: 1, values: { 'cmi.completion_status': 'completed', 'cmi.success_status': 'passed' } });
  assertEquals(otherVersion.status, 400);
  assertEquals(otherVersion.json.fields, {
    'values.cmi.completion_status': 'Not an element the content may write in SCORM 1.2',
    'values.cmi.success_status': 'Not an element the content may write in SCORM 1.2',
  });
  assertEquals((await put(other.token, { seq: 1, values: { 'cmi.completion_status': 'completed' } })).status, 404);
  assertEquals((await put(other.token, { seq: 1, values: { 'cmi.core.lesson_status': 'done' } })).status, 404);
  assertEquals((await put(learner.token, { seq: 0, values: {} })).status, 400);
  assertEquals((await put(learner.token, { seq: 1, values: [] })).status, 400);
  assertEquals((await put(learner.token, { seq: 1, values: {}, extra: true })).status, 400);

  const first = await put(learner.token, { seq: 1, values: { 'cmi.core.lesson_status': 'incomplete', 'cmi.core.lesson_location': 'p2' } });
  assertEquals(first.status, 200);
  assertEquals(first.json, { seq: 1, scoStatus: 'incomplete', moduleCompleted: false, courseProgress: 0 });
  // Replayed or out of order: 409.
  assertEquals((await put(learner.token, { seq: 1, values: { 'cmi.core.lesson_status': 'passed' } })).status, 409);
  // Another learner, or nobody: not found / not signed in.
  assertEquals((await put(other.token, { seq: 2, values: { 'cmi.core.lesson_status': 'passed' } })).status, 404);
  assertEquals((await call('PUT', `/api/scorm/sessions/${session}`, { body: { seq: 2, values: {} } })).status, 401);
  assertEquals((await put(learner.token, { seq: 2, values: {} })).status, 200);

  const done = await put(learner.token, {
    seq: 5,
    values: { 'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': '92', 'cmi.core.session_time': '0000:05:00', 'cmi.core.exit': '' },
    finish: true,
  });
  assertEquals(done.status, 200);
  assertEquals(done.json, { seq: 5, scoStatus: 'passed', moduleCompleted: true, courseProgress: 100 });
  // A finished session accepts nothing more.
  assertEquals((await put(learner.token, { seq: 6, values: {} })).status, 409);

  const after = await call('GET', `/api/modules/${moduleId}/scorm/player`, { token: learner.token });
  assertEquals(after.json.moduleCompleted, true);
  assertEquals(after.json.scos[0].status, 'passed');
  assertEquals(after.json.scos[0].score, 92);

  const [certificate] = await db.sql<{ id: string }[]>`
    select id from public.certificates where user_id = ${learner.id}::uuid and course_id = ${courseId}::uuid`;
  assert(certificate, 'a certificate was issued');
  const record = await call('GET', '/api/me/learning-record', { token: learner.token });
  assertEquals(record.status, 200);
  const course = (record.json.completedCourses as { courseId: string; score: number | null }[]).find((c) => c.courseId === courseId);
  assertEquals(course?.score, 92);

  // The other learner never reported anything: their module is not complete.
  const theirs = await call('GET', `/api/modules/${moduleId}/scorm/player`, { token: other.token });
  assertEquals(theirs.json.moduleCompleted, false);
  assertEquals(theirs.json.scos[0].status, 'not attempted');
});

test('SCORM 2004: leaving suspended and coming back resumes the attempt where the learner was, with the total time', async () => {
  const { courseId, moduleId } = await scormCourse('2004', ['a', 'b']);
  const learner = await enrolledLearner(courseId);
  const open = async (sco: string) => await call('POST', `/api/modules/${moduleId}/scorm/scos/${sco}/sessions`, { token: learner.token });
  const s1 = await open('a');
  assertEquals(s1.json.cmi['cmi.entry'], 'ab-initio');
  assertEquals(s1.json.cmi['cmi.completion_status'], 'unknown');
  const bad = await call('PUT', `/api/scorm/sessions/${s1.json.sessionId}`, {
    token: learner.token,
    body: { seq: 1, values: { 'cmi.session_time': '0000:01:00', 'cmi.core.lesson_status': 'passed', 'cmi.location': 'x'.repeat(1001) } },
  });
  assertEquals(bad.status, 400);
  assertEquals(Object.keys(bad.json.fields).length, 3);
  const saved = await call('PUT', `/api/scorm/sessions/${s1.json.sessionId}`, {
    token: learner.token,
    body: {
      seq: 1,
      values: { 'cmi.completion_status': 'incomplete', 'cmi.location': 'slide-7', 'cmi.suspend_data': '{"p":7}', 'cmi.exit': 'suspend', 'cmi.session_time': 'PT2M30S' },
      finish: true,
    },
  });
  assertEquals(saved.json, { seq: 1, scoStatus: 'incomplete', moduleCompleted: false, courseProgress: 0 });
  const s2 = await open('a');
  assertEquals(s2.json.cmi['cmi.entry'], 'resume');
  assertEquals(s2.json.cmi['cmi.location'], 'slide-7');
  assertEquals(s2.json.cmi['cmi.suspend_data'], '{"p":7}');
  assertEquals(s2.json.cmi['cmi.total_time'], 'PT2M30S');
  assertEquals(s2.json.cmi['cmi.learner_name'].includes(','), true);
  const a = await call('PUT', `/api/scorm/sessions/${s2.json.sessionId}`, {
    token: learner.token,
    body: { seq: 1, values: { 'cmi.completion_status': 'completed', 'cmi.exit': 'normal' }, finish: true },
  });
  assertEquals(a.json.moduleCompleted, false); // SCO b is still to do
  const b = await open('b');
  const last = await call('PUT', `/api/scorm/sessions/${b.json.sessionId}`, {
    token: learner.token,
    body: { seq: 1, values: { 'cmi.completion_status': 'completed', 'cmi.success_status': 'passed', 'cmi.score.scaled': '0.8' }, finish: true },
  });
  assertEquals(last.json, { seq: 1, scoStatus: 'passed', moduleCompleted: true, courseProgress: 100 });
});

test('SCORM routes refuse visitors (401), the unenrolled (403), unknown modules, SCOs and sessions (404)', async () => {
  const { courseId, moduleId } = await scormCourse('1.2', ['s']);
  const stranger = await register();
  const token = stranger.session.access_token as string;
  assertEquals((await call('GET', `/api/modules/${moduleId}/scorm/player`)).status, 401);
  assertEquals((await call('POST', `/api/modules/${moduleId}/scorm/scos/s/sessions`)).status, 401);
  assertEquals((await call('POST', `/api/modules/${moduleId}/scorm/scos/s/sessions`, { token })).status, 403);
  assertEquals((await call('GET', `/api/modules/${moduleId}/scorm/player`, { token })).status, 403);
  const learner = await enrolledLearner(courseId);
  assertEquals((await call('POST', `/api/modules/${moduleId}/scorm/scos/nope/sessions`, { token: learner.token })).status, 404);
  assertEquals((await call('GET', `/api/modules/${crypto.randomUUID()}/scorm/player`, { token: learner.token })).status, 404);
  assertEquals((await call('GET', '/api/modules/not-a-uuid/scorm/player', { token: learner.token })).status, 404);
  assertEquals((await call('PUT', `/api/scorm/sessions/${crypto.randomUUID()}`, { token: learner.token, body: { seq: 1, values: {} } })).status, 404);
  // A content module has no package.
  const [content] = await db.sql<{ id: string }[]>`
    insert into public.course_modules (course_id, title, order_index) values (${courseId}::uuid, 'Reading', 2) returning id`;
  assertEquals((await call('GET', `/api/modules/${content.id}/scorm/player`, { token: learner.token })).status, 404);
  // The content modules' "mark read" does not complete a SCORM module, and says so (409 with the reason).
  const marked = await call('POST', `/api/modules/${moduleId}/complete`, { token: learner.token });
  assertEquals([marked.status, marked.json.message], [409, 'This module completes when its SCORM package reports it complete: play the package to the end']);
  const [progress] = await db.sql<{ completed: boolean }[]>`
    select coalesce(bool_or(completed), false) as completed from public.user_module_progress
    where user_id = ${learner.id}::uuid and module_id = ${moduleId}::uuid`;
  assertEquals(progress.completed, false);
});

test('SCORM learners: the course\'s instructor and admins see each learner\'s status per SCO; learners and other instructors do not', async () => {
  const { courseId, moduleId } = await scormCourse('1.2', ['s']);
  const learner = await enrolledLearner(courseId);
  const opened = await call('POST', `/api/modules/${moduleId}/scorm/scos/s/sessions`, { token: learner.token });
  await call('PUT', `/api/scorm/sessions/${opened.json.sessionId}`, {
    token: learner.token,
    body: { seq: 1, values: { 'cmi.core.lesson_status': 'completed', 'cmi.core.score.raw': '64', 'cmi.core.session_time': '0001:00:00' }, finish: true },
  });
  const instructor = await login('instructor');
  const list = await call('GET', `/api/modules/${moduleId}/scorm/learners?pageSize=10`, { token: instructor });
  assertEquals(list.status, 200);
  assertEquals(list.json.total, 1);
  assertEquals(list.json.page, 1);
  const [row] = list.json.items;
  assertEquals(row.userId, learner.id);
  assertEquals(row.moduleCompleted, true);
  assertEquals(row.scos.length, 1);
  assertEquals({ ...row.scos[0], lastActivity: typeof row.scos[0].lastActivity, serverSeconds: row.scos[0].serverSeconds < 60 }, {
    scoId: 's', status: 'completed', score: 64, totalSeconds: 3600, attempts: 1, lastActivity: 'string',
    // The package reported an hour; by the server's clock it lasted seconds: flagged.
    serverSeconds: true, typicalSeconds: null, quick: true,
  });
  // The Students view shows the course's SCORM modules with the learner's status and score.
  const students = await call('GET', `/api/instructor/students?courseId=${courseId}`, { token: instructor });
  assertEquals(students.status, 200);
  assertEquals(students.json.items.length, 1);
  assertEquals(students.json.items[0].scorm, [{ moduleId, title: 'The package', status: 'completed', score: 64, attempts: 1 }]);
  const other = await call('GET', '/api/instructor/students?pageSize=100', { token: await login('instructor') });
  const contentRows = (other.json.items as { course: { id: string }; scorm: unknown[] }[]).filter((i) => i.course.id !== courseId);
  assert(contentRows.every((i) => Array.isArray(i.scorm)), 'every row has its SCORM list');
  assertEquals((await call('GET', `/api/modules/${moduleId}/scorm/learners`, { token: await login('admin') })).status, 200);
  assertEquals((await call('GET', `/api/modules/${moduleId}/scorm/learners`, { token: learner.token })).status, 403);
  // An instructor who does not manage the course (another author's) is refused, and sees no learner.
  const outsider = await register();
  await db.sql`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS,MISC}' where id = ${outsider.user.id}::uuid`;
  const outsiderToken = await login(outsider.input.username, outsider.input.password);
  const refused = await call('GET', `/api/modules/${moduleId}/scorm/learners`, { token: outsiderToken });
  assertEquals(refused.status, 403);
  assert(!refused.text.includes(learner.id), 'no learner in the refusal');
  assertEquals((await call('GET', `/api/modules/${moduleId}/scorm/learners?pageSize=101`, { token: instructor })).status, 400);
  assertEquals((await call('GET', `/api/modules/${moduleId}/scorm/learners?page=abc`, { token: instructor })).status, 400);
  // Paged: the second page of one learner is empty, and still says how many there are.
  const second = await call('GET', `/api/modules/${moduleId}/scorm/learners?page=2&pageSize=1`, { token: instructor });
  assertEquals([second.status, second.json.items, second.json.total], [200, [], 1]);
  assertEquals((await call('GET', `/api/modules/${moduleId}/scorm/learners`)).status, 401);
  assertEquals((await call('GET', `/api/modules/${moduleId}/scorm/learners?page=0`, { token: instructor })).status, 400);
  assertEquals((await call('GET', `/api/modules/${crypto.randomUUID()}/scorm/learners`, { token: instructor })).status, 404);
});

test('a session starts with the manifest\'s objectives, passing score and threshold; refused elements are named and the rest saves without them', async () => {
  const { courseId, moduleId } = await scormCourse('2004', [
    { id: 'sco', objectives: ['PRIMARYOBJ', 'obj_sieve'], passingScore: '0.8', completionThreshold: '0.75', launchData: 'lang=en-GB' },
  ], 'passed');
  const learner = await enrolledLearner(courseId);
  const opened = await call('POST', `/api/modules/${moduleId}/scorm/scos/sco/sessions`, { token: learner.token });
  assertEquals(opened.status, 201);
  const cmi = opened.json.cmi;
  assertEquals([cmi['cmi.objectives.0.id'], cmi['cmi.objectives.1.id'], cmi['cmi.scaled_passing_score'], cmi['cmi.completion_threshold'], cmi['cmi.launch_data']],
    ['PRIMARYOBJ', 'obj_sieve', '0.8', '0.75', 'lang=en-GB']);
  const url = `/api/scorm/sessions/${opened.json.sessionId}`;
  // What a real package wrote with no objectives loaded: the whole save was refused, element by element.
  const refused = await call('PUT', url, {
    token: learner.token,
    body: { seq: 1, values: { 'cmi.objectives.undefined.success_status': 'passed', 'cmi.score.scaled': '1', 'cmi.progress_measure': '1' } },
  });
  assertEquals([refused.status, Object.keys(refused.json.fields)], [400, ['values.cmi.objectives.undefined.success_status']]);
  // The same save without the refused element is taken; the passing score makes 1 passed.
  const saved = await call('PUT', url, {
    token: learner.token,
    body: { seq: 2, values: { 'cmi.objectives.1.success_status': 'passed', 'cmi.score.scaled': '1', 'cmi.progress_measure': '1', 'cmi.session_time': 'PT4M' }, finish: true },
  });
  assertEquals(saved.json, { seq: 2, scoStatus: 'passed', moduleCompleted: true, courseProgress: 100 });
  // A resumed session gets its objectives back where the content left them.
  const [attempt] = await db.sql<{ score: string }[]>`select score::text from public.scorm_attempts where module_id = ${moduleId}::uuid`;
  assertEquals(Number(attempt.score), 1);
});

test('three calls cannot complete a package with a minimum time: the save says how long is left, the module stays open', async () => {
  const { courseId, moduleId } = await scormCourse('1.2', ['s'], 'passed', false, 900);
  const learner = await enrolledLearner(courseId);
  const opened = await call('POST', `/api/modules/${moduleId}/scorm/scos/s/sessions`, { token: learner.token });
  const saved = await call('PUT', `/api/scorm/sessions/${opened.json.sessionId}`, {
    token: learner.token,
    body: { seq: 1, values: { 'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': '100' }, finish: true },
  });
  assertEquals(saved.status, 200);
  assertEquals(saved.json.moduleCompleted, false);
  assert(saved.json.secondsToMinimum > 880 && saved.json.secondsToMinimum <= 900, `seconds left: ${saved.json.secondsToMinimum}`);
  const [certificates] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.certificates where user_id = ${learner.id}::uuid`;
  assertEquals(certificates.n, 0);
  // The author sets the minimum in whole minutes; others may not.
  const instructor = await login('instructor');
  const settings = await call('PUT', `/api/modules/${moduleId}/scorm/settings`, {
    token: instructor, body: { completionRule: 'passed', scoreIsQuizScore: false, minMinutes: 20 },
  });
  assertEquals([settings.status, settings.json.minMinutes], [200, 20]);
  const bad = await call('PUT', `/api/modules/${moduleId}/scorm/settings`, {
    token: instructor, body: { completionRule: 'passed', scoreIsQuizScore: false, minMinutes: 1441 },
  });
  assertEquals([bad.status, bad.json.fields?.minMinutes], [400, 'Minimum time must be from 0 to 1,440 minutes']);
  assertEquals((await call('PUT', `/api/modules/${moduleId}/scorm/settings`, {
    token: learner.token, body: { completionRule: 'passed', scoreIsQuizScore: false, minMinutes: 0 },
  })).status, 403);
});

closePoolAfterTests();
