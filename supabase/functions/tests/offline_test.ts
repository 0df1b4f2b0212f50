// Offline learning through the api against the real platform: the course an enrolled learner keeps
// offline (modules, untimed quizzes' questions without answers, files with sizes; nobody else's), and
// the offline queue's items accepted exactly once by their key: replays change nothing, another
// person's queue is refused, an item no longer valid is refused with its reason. Sent by many tabs and
// devices at once: concurrency_writes_test.ts (on Postgres too). A SCORM package's signed manifest:
// verified with the public key, its hashes those of the bytes served; none without hashes or a key.
import assert from 'node:assert/strict';
import { createApp } from '../api/app.ts';
import { call, closePoolAfterTests, config, db, login, register, test, uniqueIp } from './helpers.ts';
import { scorm12Package } from './scorm_packages.ts';

const INSTRUCTOR = '00000000-0000-4000-a000-000000000002';

interface World {
  course: string;
  intro: string;
  cordons: string;
  quiz: string;
  q1: string;
  q2: string;
  triage: string;
  timedQuiz: string;
}

/** A published course by the seed instructor: a module to read, one with an untimed quiz of two
 * questions, and one with a timed quiz. */
async function world(options: { maxAttempts?: number } = {}): Promise<World> {
  const [row] = await db.sql<World[]>`
    with course as (
      insert into public.courses (title, description, service, author_id, status)
      values ('Offline course', 'A course learnt in an ambulance on standby, without signal.', 'MISC', ${INSTRUCTOR}::uuid, 'ACTIVE')
      returning id
    ), intro as (
      insert into public.course_modules (course_id, title, content, order_index)
      select id, 'Introduction', '# Scene safety' || chr(10) || 'Look before you step in.', 1 from course returning id
    ), cordons as (
      insert into public.course_modules (course_id, title, content, order_index)
      select id, 'Cordons', 'Inner and outer cordons at a scene.', 2 from course returning id
    ), quiz as (
      insert into public.quizzes (module_id, title, passing_score, max_attempts)
      select id, 'Cordons quiz', 100, ${options.maxAttempts ?? null}::integer from cordons returning id
    ), q1 as (
      insert into public.quiz_questions (quiz_id, question_text, question_type, options, correct_answers, explanation, order_index)
      select id, 'The inner cordon is the closest to the scene.', 'TRUE_FALSE',
        '[{"text":"True","isCorrect":true},{"text":"False","isCorrect":false}]', '[0]', 'SECRET-EXPLANATION one', 1
      from quiz returning id
    ), q2 as (
      insert into public.quiz_questions (quiz_id, question_text, question_type, options, correct_answers, explanation, order_index)
      select id, 'Who controls the outer cordon?', 'MULTIPLE_CHOICE',
        '[{"text":"Police","isCorrect":true},{"text":"Nobody","isCorrect":false},{"text":"The public","isCorrect":false}]', '[0]',
        'SECRET-EXPLANATION two', 2
      from quiz returning id
    ), triage as (
      insert into public.course_modules (course_id, title, content, order_index)
      select id, 'Triage', 'Sieve and sort.', 3 from course returning id
    ), timed as (
      insert into public.quizzes (module_id, title, passing_score, time_limit) select id, 'Triage quiz', 50, 10 from triage returning id
    ), timed_question as (
      insert into public.quiz_questions (quiz_id, question_text, question_type, options, correct_answers)
      select id, 'Triage sieve comes before sort.', 'TRUE_FALSE',
        '[{"text":"True","isCorrect":true},{"text":"False","isCorrect":false}]', '[0]' from timed returning id
    )
    select (select id from course) as course, (select id from intro) as intro, (select id from cordons) as cordons,
           (select id from quiz) as quiz, (select id from q1) as q1, (select id from q2) as q2,
           (select id from triage) as triage, (select id from timed) as timed_quiz,
           (select count(*) from timed_question) as n`;
  return row;
}

async function enrolledLearner(course: string) {
  const { session, user } = await register();
  const token = session.access_token;
  const enrolled = await call('POST', `/api/courses/${course}/enroll`, { token, body: {} });
  assert.equal(enrolled.status, 201, enrolled.text);
  return { token, id: user.id as string };
}

const put = (token: string, key: string, body: Record<string, unknown>) => call('PUT', `/api/offline/items/${key}`, { token, body });

test('the course kept offline: modules with their text, the untimed quiz\'s questions without answers, files with sizes; private, no-store', async () => {
  const w = await world();
  const learner = await enrolledLearner(w.course);
  // A stored module image of this course, and one of another course's folder that must not be listed.
  await db.sql`
    insert into storage.objects (bucket_id, name, metadata) values
      ('module-images', ${`${w.course}/11111111-1111-4111-8111-111111111111.png`}, '{"size": 2048, "mimetype": "image/png"}'),
      ('module-images', ${`${crypto.randomUUID()}/22222222-2222-4222-8222-222222222222.png`}, '{"size": 999, "mimetype": "image/png"}')`;
  const answer = await call('GET', `/api/offline/courses/${w.course}`, { token: learner.token });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get('cache-control'), 'private, no-store');
  const bundle = answer.json;
  assert.equal(bundle.personId, learner.id);
  assert.equal(bundle.course.title, 'Offline course');
  assert.deepEqual(bundle.enrollment.progress, 0);
  assert.deepEqual(bundle.modules.map((m: { title: string }) => m.title), ['Introduction', 'Cordons', 'Triage']);
  assert.equal(bundle.modules[0].content, '# Scene safety\nLook before you step in.');
  assert.equal(bundle.modules[0].quiz, null);
  const quiz = bundle.modules[1].quiz;
  assert.equal(quiz.offline, true);
  assert.equal(quiz.notOffline, null);
  assert.deepEqual(quiz.questions.map((q: { id: string }) => q.id), [w.q1, w.q2]);
  assert.deepEqual(quiz.questions[1].options, [{ text: 'Police' }, { text: 'Nobody' }, { text: 'The public' }]);
  // Never the answers: no key, no explanation anywhere in the answer.
  assert.doesNotMatch(answer.text, /isCorrect|correctAnswers|SECRET-EXPLANATION/);
  const timed = bundle.modules[2].quiz;
  assert.deepEqual([timed.offline, timed.notOffline, timed.questions, timed.timeLimit], [false, 'timed', [], 10]);
  assert.deepEqual(bundle.files, [{
    url: `${config.supabaseUrl}/storage/v1/object/public/module-images/${w.course}/11111111-1111-4111-8111-111111111111.png`,
    bytes: 2048,
    type: 'image/png',
    sha256: null,
  }]);
  assert.equal(bundle.totalBytes, 2048);
  assert.match(bundle.generatedAt, /^\d{4}-\d{2}-\d{2}T/);
  assert.match(bundle.updatedAt, /^\d{4}-\d{2}-\d{2}T/);
});

test('the course kept offline is the enrolled learner\'s only: 401 visitor, 403 not enrolled or pending, 404 unknown or unpublished', async () => {
  const w = await world();
  assert.equal((await call('GET', `/api/offline/courses/${w.course}`)).status, 401);
  const stranger = await register();
  const refused = await call('GET', `/api/offline/courses/${w.course}`, { token: stranger.session.access_token });
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.json.message, 'Enrol in this course to keep it offline');
  // The author and an administrator may read the course, but keep it offline only once enrolled.
  assert.equal((await call('GET', `/api/offline/courses/${w.course}`, { token: await login('instructor') })).status, 403);
  assert.equal((await call('GET', `/api/offline/courses/${crypto.randomUUID()}`, { token: stranger.session.access_token })).status, 404);
  assert.equal((await call('GET', '/api/offline/courses/not-a-uuid', { token: stranger.session.access_token })).status, 404);
  const learner = await enrolledLearner(w.course);
  await db.sql`update public.enrollments set status = 'PENDING' where course_id = ${w.course}::uuid and user_id = ${learner.id}::uuid`;
  const pending = await call('GET', `/api/offline/courses/${w.course}`, { token: learner.token });
  assert.equal(pending.status, 403);
  assert.equal(pending.json.message, 'Your enrolment is waiting for approval');
  await db.sql`update public.enrollments set status = 'ACTIVE' where course_id = ${w.course}::uuid and user_id = ${learner.id}::uuid`;
  await db.sql`update public.courses set status = 'DRAFT' where id = ${w.course}::uuid`;
  assert.equal((await call('GET', `/api/offline/courses/${w.course}`, { token: learner.token })).status, 404);
});

test('the queue replayed: two modules read and the quiz answered give progress, a score and one certificate; replayed twice nothing changes', async () => {
  const w = await world();
  const learner = await enrolledLearner(w.course);
  // The timed quiz's module is read online first: the offline items complete the rest.
  await db.sql`delete from public.quizzes where id = ${w.timedQuiz}::uuid`;
  assert.equal((await call('POST', `/api/modules/${w.triage}/complete`, { token: learner.token, body: {} })).status, 200);
  const queue = [
    { key: crypto.randomUUID(), body: { kind: 'module-read', personId: learner.id, moduleId: w.intro, recordedAt: '2026-11-30T08:00:00Z' } },
    { key: crypto.randomUUID(), body: { kind: 'module-read', personId: learner.id, moduleId: w.cordons } },
    { key: crypto.randomUUID(), body: { kind: 'quiz-answers', personId: learner.id, quizId: w.quiz, answers: { [w.q1]: 0, [w.q2]: [0] } } },
  ];
  const first = [];
  for (const item of queue) first.push(await put(learner.token, item.key, item.body));
  for (const answer of first) assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(first.map((a) => [a.json.replayed, a.json.moduleCompleted, a.json.courseProgress]), [
    [false, true, 67],
    [false, false, 67],
    [false, true, 100],
  ]);
  assert.deepEqual(first[2].json.quiz, { quizId: w.quiz, attemptId: first[2].json.quiz.attemptId, score: 2, maxScore: 2, passed: true });
  assert.equal(first[2].json.courseCompleted, true);
  assert.match(first[2].json.certificateId, /^[0-9a-f-]{36}$/);

  const counts = async () => (await db.sql<{ attempts: number; certificates: number; completed: number }[]>`
    select (select count(*)::int from public.quiz_attempts where user_id = ${learner.id}::uuid) as attempts,
           (select count(*)::int from public.certificates where user_id = ${learner.id}::uuid) as certificates,
           (select count(*)::int from public.user_module_progress where user_id = ${learner.id}::uuid and completed) as completed`)[0];
  const before = await counts();
  assert.deepEqual(before, { attempts: 1, certificates: 1, completed: 3 });
  // The same queue again (the device did not hear the answers): the same answers, marked replayed.
  for (const [i, item] of queue.entries()) {
    const again = await put(learner.token, item.key, item.body);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual({ ...again.json, replayed: false }, first[i].json);
    assert.equal(again.json.replayed, true);
  }
  assert.deepEqual(await counts(), before);
  const enrolments = await call('GET', `/api/users/${learner.id}/enrollments`, { token: learner.token });
  const enrolment = enrolments.json.find((e: { courseId: string }) => e.courseId === w.course);
  assert.deepEqual([enrolment.progress, enrolment.completed, enrolment.certificateId], [100, true, first[2].json.certificateId]);
});

test('another person\'s queue is refused (403); a key is the person\'s own, never another\'s answer', async () => {
  const w = await world();
  const owner = await enrolledLearner(w.course);
  const other = await enrolledLearner(w.course);
  const key = crypto.randomUUID();
  const item = { kind: 'module-read', personId: owner.id, moduleId: w.intro };
  assert.equal((await put(owner.token, key, item)).status, 200);
  const replayed = await put(other.token, key, item);
  assert.equal(replayed.status, 403, replayed.text);
  assert.equal(replayed.json.reason, 'another_person');
  // The same key sent by the other person for themselves is their own item, accepted for them.
  const theirs = await put(other.token, key, { ...item, personId: other.id });
  assert.equal(theirs.status, 200, theirs.text);
  assert.equal(theirs.json.replayed, false);
  const [read] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from public.user_module_progress where module_id = ${w.intro}::uuid and read_at is not null`;
  assert.equal(read.n, 2);
  assert.equal((await call('PUT', `/api/offline/items/${key}`, { body: item })).status, 401);
});

test('an item no longer valid is refused with its reason and nothing is kept: unpublished, not enrolled, timed, attempts used, key reused', async () => {
  const w = await world({ maxAttempts: 1 });
  const learner = await enrolledLearner(w.course);
  const refusal = async (key: string, body: Record<string, unknown>, reason: string, status = 409) => {
    const answer = await put(learner.token, key, body);
    assert.equal(answer.status, status, answer.text);
    assert.equal(answer.json.reason, reason, answer.text);
    assert.equal(typeof answer.json.message, 'string');
    return answer;
  };
  const timed = await refusal(crypto.randomUUID(), { kind: 'quiz-answers', personId: learner.id, quizId: w.timedQuiz, answers: {} }, 'needs_connection');
  assert.equal(timed.json.message, 'A timed quiz needs a connection');

  const answers = { [w.q1]: 1, [w.q2]: 1 };
  const used = await put(learner.token, crypto.randomUUID(), { kind: 'quiz-answers', personId: learner.id, quizId: w.quiz, answers });
  assert.equal(used.status, 200, used.text);
  assert.deepEqual([used.json.quiz.score, used.json.quiz.passed], [0, false]);
  const limit = await refusal(crypto.randomUUID(), { kind: 'quiz-answers', personId: learner.id, quizId: w.quiz, answers }, 'no_attempts_left');
  assert.equal(limit.json.message, 'You have used all 1 attempt at this quiz.');

  const key = crypto.randomUUID();
  assert.equal((await put(learner.token, key, { kind: 'module-read', personId: learner.id, moduleId: w.intro })).status, 200);
  await refusal(key, { kind: 'module-read', personId: learner.id, moduleId: w.cordons }, 'key_reused');

  await db.sql`update public.courses set status = 'ARCHIVED' where id = ${w.course}::uuid`;
  const gone = await refusal(crypto.randomUUID(), { kind: 'module-read', personId: learner.id, moduleId: w.cordons }, 'course_unavailable');
  assert.equal(gone.json.message, 'This course is no longer available');
  await db.sql`update public.courses set status = 'ACTIVE' where id = ${w.course}::uuid`;

  await db.sql`delete from public.enrollments where course_id = ${w.course}::uuid and user_id = ${learner.id}::uuid`;
  await refusal(crypto.randomUUID(), { kind: 'module-read', personId: learner.id, moduleId: w.cordons }, 'not_enrolled');
  const [kept] = await db.sql<{ read: number; attempts: number }[]>`
    select (select count(*)::int from public.user_module_progress
             where user_id = ${learner.id}::uuid and module_id = ${w.cordons}::uuid and read_at is not null) as read,
           (select count(*)::int from public.quiz_attempts where user_id = ${learner.id}::uuid) as attempts`;
  assert.deepEqual(kept, { read: 0, attempts: 1 });
});

test('a deactivated person\'s queue is refused: their session is gone (401) and nothing is written', async () => {
  const w = await world();
  const learner = await enrolledLearner(w.course);
  const admin = await login('admin');
  assert.equal((await call('POST', `/api/users/${learner.id}/deactivate`, { token: admin })).status, 200);
  const answer = await put(learner.token, crypto.randomUUID(), { kind: 'module-read', personId: learner.id, moduleId: w.intro });
  assert.equal(answer.status, 401, answer.text);
  const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.user_module_progress where user_id = ${learner.id}::uuid`;
  assert.equal(row.n, 0);
});

test('bad items are 400 with field messages, never 500', async () => {
  const w = await world();
  const learner = await enrolledLearner(w.course);
  const bad = await put(learner.token, 'not-a-key', { kind: 'module-read', personId: learner.id, moduleId: w.intro });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.fields.key, 'The key must be a UUID');
  const key = crypto.randomUUID();
  for (
    const body of [
      { kind: 'module-read', personId: learner.id },
      { kind: 'walk', personId: learner.id, moduleId: w.intro },
      { kind: 'module-read', personId: 'me', moduleId: w.intro },
      { kind: 'module-read', personId: learner.id, moduleId: w.intro, extra: 1 },
      { kind: 'quiz-answers', personId: learner.id, quizId: w.quiz, answers: { [w.q1]: 'yes' } },
      { kind: 'module-read', personId: learner.id, moduleId: w.intro, recordedAt: 'yesterday' },
      { kind: 'scorm-sitting', personId: learner.id, moduleId: w.intro, scoId: 'sco', values: { 'cmi.core.lesson_status': 'done' } },
    ]
  ) {
    const answer = await put(learner.token, key, body);
    assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${answer.text}`);
  }
  // A SCORM sitting for a module that is not a SCORM module: 400; reading a module that does not exist: refused.
  const notScorm = await put(learner.token, key, {
    kind: 'scorm-sitting', personId: learner.id, moduleId: w.intro, scoId: 'sco', values: { 'cmi.core.lesson_status': 'completed' },
  });
  assert.equal(notScorm.status, 400, notScorm.text);
  const missing = await put(learner.token, key, { kind: 'module-read', personId: learner.id, moduleId: crypto.randomUUID() });
  assert.equal(missing.status, 409, missing.text);
  assert.equal(missing.json.reason, 'course_unavailable');
});

test('a SCORM module kept offline: the package\'s files and each SCO\'s run-time start; a sitting replayed once completes it', async () => {
  const [w] = await db.sql<{ course: string; module: string }[]>`
    with course as (
      insert into public.courses (title, description, service, author_id, status)
      values ('Offline SCORM course', 'A SCORM course played in a fire station with no signal.', 'MISC', ${INSTRUCTOR}::uuid, 'ACTIVE')
      returning id
    ), module as (
      insert into public.course_modules (course_id, title, order_index, kind)
      select id, 'Fire safety package', 1, 'scorm' from course returning id, course_id
    ), package as (
      insert into public.scorm_packages (module_id, course_id, version, title, scos, storage_prefix, file_count, unpacked_bytes)
      select id, course_id, '1.2', 'Fire safety', '[{"id":"sco-1","title":"One","href":"index.html","masteryScore":"80"}]',
             id::text || '/1/', 2, 300
      from module returning module_id
    )
    select (select id from course) as course, (select module_id from package) as module`;
  await db.sql`
    insert into storage.objects (bucket_id, name, metadata) values
      ('scorm-content', ${`${w.module}/1/index.html`}, '{"size": 200, "mimetype": "text/html; charset=utf-8"}'),
      ('scorm-content', ${`${w.module}/1/story content/logo.png`}, '{"size": 100, "mimetype": "image/png"}')`;
  const learner = await enrolledLearner(w.course);
  const bundle = await call('GET', `/api/offline/courses/${w.course}`, { token: learner.token });
  assert.equal(bundle.status, 200, bundle.text);
  const [pkg] = bundle.json.scorm;
  const base = `${config.scormContentUrl ?? `${config.supabaseUrl}/storage/v1/object/public/scorm-content`}/${w.module}/1/`;
  assert.deepEqual([pkg.moduleId, pkg.version, pkg.contentBase, pkg.minSeconds], [w.module, '1.2', base, 0]);
  assert.deepEqual(pkg.scos.map((s: { id: string; status: string }) => [s.id, s.status]), [['sco-1', 'not attempted']]);
  assert.equal(pkg.scos[0].cmi['cmi.core.entry'], 'ab-initio');
  assert.equal(pkg.scos[0].cmi['cmi.core.student_id'], learner.id);
  assert.equal(pkg.scos[0].cmi['cmi.student_data.mastery_score'], '80');
  assert.deepEqual(bundle.json.files.map((f: { url: string; bytes: number; sha256: string | null }) => [f.url, f.bytes, f.sha256]), [
    [`${base}index.html`, 200, null],
    [`${base}story%20content/logo.png`, 100, null],
  ]);
  // Stored before hashes were kept: nothing to sign, so no manifest (the module needs a connection).
  assert.equal(pkg.manifest, null);
  assert.equal(bundle.json.totalBytes, 300);

  // Reading a SCORM module does not complete it: its package does.
  const read = await put(learner.token, crypto.randomUUID(), { kind: 'module-read', personId: learner.id, moduleId: w.module });
  assert.deepEqual([read.status, read.json.reason], [409, 'needs_connection']);
  const key = crypto.randomUUID();
  const sitting = {
    kind: 'scorm-sitting', personId: learner.id, moduleId: w.module, scoId: 'sco-1',
    values: { 'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': '90', 'cmi.core.session_time': '00:12:00' },
  };
  const first = await put(learner.token, key, sitting);
  assert.equal(first.status, 200, first.text);
  assert.deepEqual([first.json.replayed, first.json.moduleCompleted, first.json.courseProgress, first.json.scorm],
    [false, true, 100, { scoId: 'sco-1', status: 'passed', secondsToMinimum: null }]);
  const again = await put(learner.token, key, sitting);
  assert.deepEqual({ ...again.json, replayed: false }, first.json);
  const [row] = await db.sql<{ attempts: number; sessions: number; seconds: number }[]>`
    select count(distinct a.id)::int as attempts, count(s.id)::int as sessions, max(a.total_seconds)::int as seconds
    from public.scorm_attempts a join public.scorm_sessions s on s.attempt_id = a.id
    where a.user_id = ${learner.id}::uuid and a.module_id = ${w.module}::uuid`;
  assert.deepEqual(row, { attempts: 1, sessions: 1, seconds: 720 });
});

const ECDSA = { name: 'ECDSA', hash: 'SHA-256' } as const;
const fromBase64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (ch) => ch.charCodeAt(0));
const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** The platform's public key (scripts/test.mjs passes it from keys.json), as the content origin holds it. */
async function publicKey(): Promise<CryptoKey> {
  const jwk = Deno.env.get('SCORM_OFFLINE_PUBLIC_KEY');
  assert.ok(jwk && config.scormOfflineSigningKey, 'SCORM_OFFLINE_PUBLIC_KEY and SCORM_OFFLINE_SIGNING_KEY are set (scripts/test.mjs, from keys.json)');
  return await crypto.subtle.importKey('jwk', JSON.parse(jwk), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
}

const verify = async (key: CryptoKey, manifest: { payload: string; signature: string }) =>
  await crypto.subtle.verify(ECDSA, key, fromBase64url(manifest.signature), new TextEncoder().encode(manifest.payload));

test('a SCORM package kept offline carries a manifest signed by the server: it verifies with the public key and names the SHA-256 of every stored file', async () => {
  const [w] = await db.sql<{ course: string; module: string }[]>`
    with course as (
      insert into public.courses (title, description, service, author_id, status)
      values ('Signed SCORM course', 'A SCORM course kept on a tablet in an appliance bay.', 'MISC', ${INSTRUCTOR}::uuid, 'ACTIVE')
      returning id
    ), module as (
      insert into public.course_modules (course_id, title, order_index, kind)
      select id, 'Hose reel package', 1, 'scorm' from course returning id
    )
    select (select id from course) as course, (select id from module) as module`;
  // Uploaded as an author does: the hashes are the function's, of the files it inflated and stored.
  const zip = scorm12Package({ extra: { 'story content/notes (1).txt': 'Percent-encoded in its URL, decoded in the manifest.\n' } });
  const uploaded = await call('POST', `/api/modules/${w.module}/scorm`, {
    token: await login('instructor'),
    raw: zip as Uint8Array<ArrayBuffer>,
    headers: { 'content-type': 'application/zip' },
  });
  assert.equal(uploaded.status, 201, uploaded.text);
  const learner = await enrolledLearner(w.course);
  const answer = await call('GET', `/api/offline/courses/${w.course}`, { token: learner.token });
  assert.equal(answer.status, 200, answer.text);
  const [pkg] = answer.json.scorm;
  assert.ok(pkg.manifest, 'a manifest');

  const key = await publicKey();
  assert.equal(await verify(key, pkg.manifest), true);
  assert.equal(fromBase64url(pkg.manifest.signature).byteLength, 64);
  assert.doesNotMatch(pkg.manifest.signature, /[=+/]/);
  const payload = JSON.parse(pkg.manifest.payload);
  const base = decodeURIComponent(new URL(pkg.contentBase).pathname);
  assert.deepEqual([payload.v, payload.moduleId, payload.base], [1, w.module, base]);
  assert.equal(base, `/storage/v1/object/public/scorm-content/${w.module}/1/`);

  // Every file as served: its bytes' SHA-256 is the manifest's for its decoded path, and the file's own.
  const files = answer.json.files as { url: string; sha256: string | null }[];
  assert.equal(files.length, 7);
  const served: Record<string, string> = {};
  for (const file of files) {
    const response = await fetch(file.url);
    assert.equal(response.status, 200, file.url);
    const sha256 = hex(await crypto.subtle.digest('SHA-256', await response.arrayBuffer()));
    const path = decodeURIComponent(new URL(file.url).pathname);
    assert.ok(path.startsWith(base), path);
    served[path.slice(base.length)] = sha256;
    assert.equal(file.sha256, sha256, file.url);
  }
  assert.deepEqual(payload.files, served);
  assert.ok(Object.hasOwn(served, 'story content/notes (1).txt'));

  // Tampered with: another hash, another module, another base, or another signature never verifies.
  const [first] = Object.keys(payload.files);
  const forged = [
    { ...payload, files: { ...payload.files, [first]: '0'.repeat(64) } },
    { ...payload, files: { ...payload.files, 'evil.html': '0'.repeat(64) } },
    { ...payload, moduleId: crypto.randomUUID() },
    { ...payload, base: '/storage/v1/object/public/scorm-content/' },
  ];
  for (const p of forged) assert.equal(await verify(key, { payload: JSON.stringify(p), signature: pkg.manifest.signature }), false);
  assert.equal(await verify(key, { payload: `${pkg.manifest.payload} `, signature: pkg.manifest.signature }), false);
  const signature = fromBase64url(pkg.manifest.signature);
  signature[10] ^= 1;
  const flipped = btoa(String.fromCharCode(...signature)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  assert.equal(await verify(key, { payload: pkg.manifest.payload, signature: flipped }), false);
  // Another key's signature of the same payload: not the server's.
  const other = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const foreign = new Uint8Array(await crypto.subtle.sign(ECDSA, other.privateKey, new TextEncoder().encode(pkg.manifest.payload)));
  const foreignText = btoa(String.fromCharCode(...foreign)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  assert.equal(await verify(key, { payload: pkg.manifest.payload, signature: foreignText }), false);

  // A function without the key: the hashes still listed, no manifest (the module needs a connection).
  const unsigned = createApp({ ...config, scormOfflineSigningKey: undefined }, db);
  const plain = await unsigned.request(`/api/offline/courses/${w.course}`, {
    headers: { authorization: `Bearer ${learner.token}`, 'x-forwarded-for': uniqueIp() },
  });
  assert.equal(plain.status, 200);
  const plainJson = await plain.json();
  assert.equal(plainJson.scorm[0].manifest, null);
  assert.deepEqual(plainJson.files.map((f: { sha256: string }) => f.sha256), files.map((f) => f.sha256));
  // A revision without hashes (stored before they were kept): no manifest, no file's hash.
  await db.sql`update public.scorm_packages set file_hashes = null where module_id = ${w.module}::uuid`;
  const before = await call('GET', `/api/offline/courses/${w.course}`, { token: learner.token });
  assert.equal(before.json.scorm[0].manifest, null);
  assert.deepEqual(before.json.files.map((f: { sha256: string | null }) => f.sha256), files.map(() => null));
});

test('the files\' hashes are kept with each revision: a replacement signs the new files under the new base', async () => {
  const [w] = await db.sql<{ course: string; module: string }[]>`
    with course as (
      insert into public.courses (title, description, service, author_id, status)
      values ('Replaced SCORM course', 'A SCORM course whose package is exported again.', 'MISC', ${INSTRUCTOR}::uuid, 'ACTIVE')
      returning id
    ), module as (
      insert into public.course_modules (course_id, title, order_index, kind)
      select id, 'Ladder package', 1, 'scorm' from course returning id
    )
    select (select id from course) as course, (select id from module) as module`;
  const instructor = await login('instructor');
  const upload = (title: string) =>
    call('POST', `/api/modules/${w.module}/scorm`, {
      token: instructor,
      raw: scorm12Package({ title }) as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': 'application/zip' },
    });
  assert.equal((await upload('Ladders, first edition')).status, 201);
  const [one] = await db.sql<{ hashes: string }[]>`select file_hashes::text as hashes from public.scorm_packages where module_id = ${w.module}::uuid`;
  assert.equal((await upload('Ladders, second edition')).status, 200);
  const [two] = await db.sql<{ hashes: string }[]>`select file_hashes::text as hashes from public.scorm_packages where module_id = ${w.module}::uuid`;
  const [first, second] = [JSON.parse(one.hashes), JSON.parse(two.hashes)];
  assert.deepEqual(Object.keys(second).sort(), Object.keys(first).sort());
  // The title is in the manifest and the launch page: those two changed, the rest did not.
  const changed = Object.keys(first).filter((path) => first[path] !== second[path]).sort();
  assert.deepEqual(changed, ['imsmanifest.xml', 'index_lms.html']);
  const learner = await enrolledLearner(w.course);
  const answer = await call('GET', `/api/offline/courses/${w.course}`, { token: learner.token });
  const payload = JSON.parse(answer.json.scorm[0].manifest.payload);
  assert.equal(payload.base, `/storage/v1/object/public/scorm-content/${w.module}/2/`);
  assert.deepEqual(payload.files, second);
  assert.equal(await verify(await publicKey(), answer.json.scorm[0].manifest), true);
});

closePoolAfterTests();
