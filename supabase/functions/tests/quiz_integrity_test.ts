// Quiz integrity through the api against the real platform: the author sets when the
// correct answers are shown, the maximum number of attempts and the wait between attempts (400 with
// field messages for bad values); the learner's quiz routes refuse a start or a submission beyond
// the maximum or within the wait (409 with a message), never send the correct answers unless the
// setting allows, and say how many attempts remain and when the next may start.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, login, register, test } from './helpers.ts';

const INSTRUCTOR = '00000000-0000-4000-a000-000000000002';

interface World {
  course: string;
  module: string;
  quiz: string;
  question: string;
}

/** A published course by the seed instructor with one module, its quiz (default settings) and one true/false question. */
async function world(): Promise<World> {
  const [row] = await db.sql<World[]>`
    with course as (
      insert into public.courses (title, description, service, author_id, status)
      values ('Quiz integrity course', 'A course whose quiz limits attempts and hides its answers.', 'MISC', ${INSTRUCTOR}::uuid, 'ACTIVE')
      returning id
    ), module as (
      insert into public.course_modules (course_id, title, content, order_index)
      select id, 'Cordons', 'Inner and outer cordons at a scene.', 1 from course returning id
    ), quiz as (
      insert into public.quizzes (module_id, title, passing_score) select id, 'Cordons quiz', 100 from module returning id
    ), question as (
      insert into public.quiz_questions (quiz_id, question_text, question_type, options, correct_answers, explanation)
      select id, 'The inner cordon is the closest to the scene.', 'TRUE_FALSE',
        '[{"text":"True","isCorrect":true},{"text":"False","isCorrect":false}]', '[0]', 'SECRET-EXPLANATION: the inner one.'
      from quiz returning id
    )
    select (select id from course) as course, (select id from module) as module, (select id from quiz) as quiz,
           (select id from question) as question`;
  return row;
}

async function enrolledLearner(course: string): Promise<string> {
  const { session } = await register();
  const token = session.access_token;
  const enrolled = await call('POST', `/api/courses/${course}/enroll`, { token, body: {} });
  assert.equal(enrolled.status, 201, enrolled.text);
  return token;
}

/** Opens the quiz and submits one answer; returns the submission's answer. */
async function attempt(w: World, token: string, choice: number) {
  const opened = await call('GET', `/api/modules/${w.module}/quiz`, { token });
  assert.equal(opened.status, 200, opened.text);
  return await call('POST', `/api/quizzes/${w.quiz}/attempts`, { token, body: { answers: { [w.question]: [choice] } } });
}

const settingsBody = (extra: Record<string, unknown>) => ({ title: 'Cordons quiz', passingScore: 100, ...extra });

test('the author\'s settings are validated (400 with field messages) and saved; left out, they are kept', async () => {
  const w = await world();
  try {
    const token = await login('instructor');
    const bad = await call('PUT', `/api/modules/${w.module}/quiz`, {
      token,
      body: settingsBody({ showCorrectAnswers: 'SOMETIMES', maxAttempts: 0, retryWaitMinutes: -5 }),
    });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.json.fields.showCorrectAnswers, /never, after passing or after every attempt/);
    assert.match(bad.json.fields.maxAttempts, /from 1 to 100/);
    assert.match(bad.json.fields.retryWaitMinutes, /from 0 minutes to 30 days/);
    for (const body of [{ maxAttempts: 2.5 }, { maxAttempts: 101 }, { retryWaitMinutes: 43201 }, { retryWaitMinutes: '60' }]) {
      const answer = await call('PUT', `/api/modules/${w.module}/quiz`, { token, body: settingsBody(body) });
      assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${answer.text}`);
    }
    const before = await call('GET', `/api/modules/${w.module}/quiz/authoring`, { token });
    assert.deepEqual(
      [before.json.showCorrectAnswers, before.json.maxAttempts, before.json.retryWaitMinutes],
      ['AFTER_PASSING', null, 0],
      'an existing quiz has the defaults',
    );
    const saved = await call('PUT', `/api/modules/${w.module}/quiz`, {
      token,
      body: settingsBody({ showCorrectAnswers: 'NEVER', maxAttempts: 2, retryWaitMinutes: 90 }),
    });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual([saved.json.showCorrectAnswers, saved.json.maxAttempts, saved.json.retryWaitMinutes], ['NEVER', 2, 90]);
    const kept = await call('PUT', `/api/modules/${w.module}/quiz`, { token, body: settingsBody({ title: 'Cordons quiz, renamed' }) });
    assert.equal(kept.status, 200, kept.text);
    assert.deepEqual([kept.json.showCorrectAnswers, kept.json.maxAttempts, kept.json.retryWaitMinutes], ['NEVER', 2, 90]);
    const unlimited = await call('PUT', `/api/modules/${w.module}/quiz`, { token, body: settingsBody({ maxAttempts: null }) });
    assert.equal(unlimited.json.maxAttempts, null);
    // A learner is not the author: 403 or 404, and nothing changes.
    const learner = await enrolledLearner(w.course);
    const refused = await call('PUT', `/api/modules/${w.module}/quiz`, { token: learner, body: settingsBody({ maxAttempts: 100 }) });
    assert.ok([403, 404].includes(refused.status), refused.text);
  } finally {
    await db.sql`select private.erase_course(id) from public.courses where id = ${w.course}::uuid`;
  }
});

test('default (after passing): a failed attempt sends no correct answer, a passed one does', async () => {
  const w = await world();
  try {
    const token = await enrolledLearner(w.course);
    const failed = await attempt(w, token, 1);
    assert.equal(failed.status, 201, failed.text);
    assert.equal(failed.json.passed, false);
    assert.equal(failed.json.answersShown, false);
    assert.equal(failed.json.questions[0].correctAnswers, null);
    assert.equal(failed.json.questions[0].correct, null);
    assert.ok(!failed.text.includes('"isCorrect":true'), failed.text);
    assert.ok(!failed.text.includes('SECRET-EXPLANATION'), failed.text);
    assert.deepEqual(failed.json.questions[0].chosen, [1]);
    const passed = await attempt(w, token, 0);
    assert.equal(passed.json.passed, true, passed.text);
    assert.equal(passed.json.answersShown, true);
    assert.deepEqual(passed.json.questions[0].correctAnswers, [0]);
    assert.ok(passed.text.includes('SECRET-EXPLANATION'));
    assert.deepEqual(passed.json.attempts, { used: 2, max: null, remaining: null, nextAttemptAt: null });
  } finally {
    await db.sql`select private.erase_course(id) from public.courses where id = ${w.course}::uuid`;
  }
});

test('after every attempt: a failed attempt shows the correct answers', async () => {
  const w = await world();
  try {
    await db.sql`update public.quizzes set show_correct_answers = 'ALWAYS' where id = ${w.quiz}::uuid`;
    const token = await enrolledLearner(w.course);
    const failed = await attempt(w, token, 1);
    assert.equal(failed.json.passed, false);
    assert.equal(failed.json.answersShown, true);
    assert.deepEqual(failed.json.questions[0].correctAnswers, [0]);
  } finally {
    await db.sql`select private.erase_course(id) from public.courses where id = ${w.course}::uuid`;
  }
});

test('the maximum: attempts remaining are reported; beyond it, start and submit are refused with 409', async () => {
  const w = await world();
  try {
    await db.sql`update public.quizzes set show_correct_answers = 'NEVER', max_attempts = 2 where id = ${w.quiz}::uuid`;
    const token = await enrolledLearner(w.course);
    const module = await call('GET', `/api/modules/${w.module}`, { token });
    assert.deepEqual(module.json.quiz.attempts, { used: 0, max: 2, remaining: 2, nextAttemptAt: null });
    assert.equal(module.json.quiz.showCorrectAnswers, 'NEVER');
    const first = await attempt(w, token, 1);
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(first.json.attempts, { used: 1, max: 2, remaining: 1, nextAttemptAt: null });
    const second = await attempt(w, token, 0);
    assert.equal(second.json.passed, true);
    assert.equal(second.json.answersShown, false, 'never: not even after passing');
    assert.ok(!second.text.includes('"isCorrect":true') && !second.text.includes('SECRET-EXPLANATION'), second.text);
    assert.equal(second.json.attempts.remaining, 0);
    const third = await call('GET', `/api/modules/${w.module}/quiz`, { token });
    assert.equal(third.status, 409, third.text);
    assert.equal(third.json.message, 'You have used all 2 attempts at this quiz.');
    assert.equal(third.json.questions, undefined);
    const submit = await call('POST', `/api/quizzes/${w.quiz}/attempts`, { token, body: { answers: { [w.question]: [0] } } });
    assert.equal(submit.status, 409, submit.text);
    assert.equal(submit.json.message, 'You have used all 2 attempts at this quiz.');
    const [{ n }] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.quiz_attempts where quiz_id = ${w.quiz}::uuid and completed_at is not null`;
    assert.equal(n, 2);
  } finally {
    await db.sql`select private.erase_course(id) from public.courses where id = ${w.course}::uuid`;
  }
});

test('the wait: the next start and submission are refused with 409 and Retry-After until it has passed', async () => {
  const w = await world();
  try {
    await db.sql`update public.quizzes set retry_wait_minutes = 120 where id = ${w.quiz}::uuid`;
    const token = await enrolledLearner(w.course);
    const first = await attempt(w, token, 1);
    assert.equal(first.status, 201, first.text);
    const next = new Date(first.json.attempts.nextAttemptAt).getTime();
    assert.ok(Math.abs(next - (Date.now() + 120 * 60_000)) < 60_000, first.text);
    const again = await call('GET', `/api/modules/${w.module}/quiz`, { token });
    assert.equal(again.status, 409, again.text);
    assert.match(again.json.message, /^You can take this quiz again from \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2}\.$/);
    const retryAfter = Number(again.headers.get('retry-after'));
    assert.ok(retryAfter > 7000 && retryAfter <= 7200, String(retryAfter));
    const submit = await call('POST', `/api/quizzes/${w.quiz}/attempts`, { token, body: { answers: { [w.question]: [0] } } });
    assert.equal(submit.status, 409, submit.text);
    const module = await call('GET', `/api/modules/${w.module}`, { token });
    assert.equal(module.json.quiz.attempts.nextAttemptAt, first.json.attempts.nextAttemptAt);
    // Two hours later the learner may try again.
    await db.sql`update public.quiz_attempts set started_at = started_at - interval '121 minutes', completed_at = completed_at - interval '121 minutes'
                 where quiz_id = ${w.quiz}::uuid`;
    const later = await attempt(w, token, 0);
    assert.equal(later.status, 201, later.text);
    assert.equal(later.json.passed, true);
  } finally {
    await db.sql`select private.erase_course(id) from public.courses where id = ${w.course}::uuid`;
  }
});

closePoolAfterTests();
