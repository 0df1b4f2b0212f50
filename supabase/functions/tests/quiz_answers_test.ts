// Questions with several correct answers through the api: a question with several correct answers tells the learner so
// (multipleAnswers), and is scored only when exactly those options are chosen, so the quiz can be passed.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, register, test } from './helpers.ts';

const INSTRUCTOR = '00000000-0000-4000-a000-000000000002';

test('a question with several correct answers is marked as such and passed by choosing exactly those', async () => {
  const [world] = await db.sql<{ course: string; module: string; quiz: string; question: string }[]>`
    with course as (
      insert into public.courses (title, description, service, author_id, status)
      values ('Several answers course', 'A course whose quiz has a question with two right answers.', 'MISC', ${INSTRUCTOR}::uuid, 'ACTIVE')
      returning id
    ), module as (
      insert into public.course_modules (course_id, title, content, order_index)
      select id, 'Principles', 'The five JESIP principles.', 1 from course returning id
    ), quiz as (
      insert into public.quizzes (module_id, title, passing_score) select id, 'Principles quiz', 100 from module returning id
    ), question as (
      insert into public.quiz_questions (quiz_id, question_text, options, correct_answers)
      select id, 'Which of these are JESIP principles?',
        '[{"text":"Co-locate","isCorrect":true},{"text":"Delegate","isCorrect":false},{"text":"Communicate","isCorrect":true}]', '[0, 2]'
      from quiz returning id
    )
    select (select id from course) as course, (select id from module) as module, (select id from quiz) as quiz,
           (select id from question) as question`;
  try {
    const { session } = await register();
    const token = session.access_token;
    assert.equal((await call('POST', `/api/courses/${world.course}/enroll`, { token, body: {} })).status, 201);
    const opened = await call('GET', `/api/modules/${world.module}/quiz`, { token });
    assert.equal(opened.status, 200, opened.text);
    assert.equal(opened.json.questions[0].multipleAnswers, true);
    assert.ok(!JSON.stringify(opened.json).includes('isCorrect'), 'no answers before submitting');
    const one = await call('POST', `/api/quizzes/${world.quiz}/attempts`, { token, body: { answers: { [world.question]: [0] } } });
    assert.equal(one.status, 201, one.text);
    assert.equal(one.json.passed, false, 'one of the two is not enough');
    await call('GET', `/api/modules/${world.module}/quiz`, { token });
    const both = await call('POST', `/api/quizzes/${world.quiz}/attempts`, { token, body: { answers: { [world.question]: [2, 0] } } });
    assert.equal(both.status, 201, both.text);
    assert.equal(both.json.passed, true, both.text);
  } finally {
    await db.sql`select private.erase_course(id) from public.courses where id = ${world.course}::uuid`;
  }
});

closePoolAfterTests();
