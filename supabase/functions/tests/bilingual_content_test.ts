// Welsh course content through the API (docs/decisions/bilingual-course-content.md): the Welsh fields
// of courses, modules, quizzes and questions round-trip for their author, are validated with field
// messages, reach the learner (module, quiz, result), and drive availableInWelsh, the catalogue's
// welsh filter and its search by a Welsh word.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, login, register, test, unique } from './helpers.ts';

let instructorToken = '';
let learnerToken = '';
let courseId = '';
let firstModuleId = '';
let secondModuleId = '';
let quizId = '';
let questionId = '';
// A word of the Welsh title and nowhere else, to search by.
const word = `cymraeg${unique()}`;

const course = async (token = instructorToken) => (await call('GET', `/api/courses/${courseId}`, { token })).json;

test('setup: the seeded instructor, and a learner', async () => {
  instructorToken = await login('instructor');
  learnerToken = (await register()).session.access_token;
});

test('POST /api/courses: the Welsh title and description round-trip; blank is none; too short is a field message', async () => {
  const body = {
    title: 'Radio procedure in both languages',
    description: 'A course written in English and in Welsh by the API tests.',
    service: 'UKPS',
  };
  const short = await call('POST', '/api/courses', { token: instructorToken, body: { ...body, titleCy: 'ab', descriptionCy: 'Byr' } });
  assert.equal(short.status, 400);
  assert.equal(short.json.fields.titleCy, 'The Welsh title must be at least 3 characters');
  assert.equal(short.json.fields.descriptionCy, 'The Welsh description must be at least 20 characters');

  const blank = await call('POST', '/api/courses', { token: instructorToken, body: { ...body, titleCy: '  ', descriptionCy: null } });
  assert.equal(blank.status, 201);
  assert.equal(blank.json.titleCy, null);
  assert.equal(blank.json.descriptionCy, null);
  assert.equal(blank.json.availableInWelsh, false);
  await call('DELETE', `/api/courses/${blank.json.id}`, { token: instructorToken });

  const created = await call('POST', '/api/courses', {
    token: instructorToken,
    body: { ...body, titleCy: `Trefn radio ${word}`, descriptionCy: 'Cwrs wedi\'i ysgrifennu yn Saesneg ac yn Gymraeg gan y profion.' },
  });
  assert.equal(created.status, 201);
  courseId = created.json.id;
  assert.equal(created.json.titleCy, `Trefn radio ${word}`);
  assert.equal(created.json.descriptionCy, 'Cwrs wedi\'i ysgrifennu yn Saesneg ac yn Gymraeg gan y profion.');
  // No module yet: the title and description are the whole course.
  assert.equal(created.json.availableInWelsh, true);
});

test('modules: the Welsh title and content round-trip; a module without Welsh makes the course English-only', async () => {
  const first = await call('POST', `/api/courses/${courseId}/modules`, {
    token: instructorToken,
    body: { title: 'Calling the control room', content: 'Say who you are calling, then who you are.', titleCy: 'Galw\'r ystafell reoli', contentCy: 'Dywedwch pwy rydych chi\'n ei alw, yna pwy ydych chi.' },
  });
  assert.equal(first.status, 201);
  firstModuleId = first.json.id;
  assert.equal(first.json.titleCy, 'Galw\'r ystafell reoli');
  assert.equal(first.json.contentCy, 'Dywedwch pwy rydych chi\'n ei alw, yna pwy ydych chi.');
  assert.equal((await course()).availableInWelsh, true);

  const second = await call('POST', `/api/courses/${courseId}/modules`, {
    token: instructorToken,
    body: { title: 'Priority messages', content: 'An urgent message starts with the word priority.' },
  });
  assert.equal(second.status, 201);
  secondModuleId = second.json.id;
  assert.equal(second.json.titleCy, null);
  assert.equal(second.json.contentCy, null);
  assert.equal((await course()).availableInWelsh, false);

  const bad = await call('PUT', `/api/modules/${secondModuleId}`, { token: instructorToken, body: { titleCy: 'ab', contentCy: 'Byr' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.fields.titleCy, 'The Welsh title must be at least 3 characters');
  assert.equal(bad.json.fields.contentCy, 'The Welsh content must be at least 20 characters');

  const put = await call('PUT', `/api/modules/${secondModuleId}`, {
    token: instructorToken,
    body: { titleCy: 'Negeseuon blaenoriaeth', contentCy: 'Mae neges frys yn dechrau gyda\'r gair blaenoriaeth.' },
  });
  assert.equal(put.status, 200);
  assert.equal(put.json.titleCy, 'Negeseuon blaenoriaeth');
  assert.equal((await course()).availableInWelsh, true);

  // Absent leaves the Welsh as it is.
  const titleOnly = await call('PUT', `/api/modules/${secondModuleId}`, { token: instructorToken, body: { title: 'Priority messages again' } });
  assert.equal(titleOnly.json.contentCy, 'Mae neges frys yn dechrau gyda\'r gair blaenoriaeth.');
});

test('a SCORM module takes a Welsh title but no Welsh content', async () => {
  const refused = await call('POST', `/api/courses/${courseId}/modules`, {
    token: instructorToken,
    body: { kind: 'scorm', title: 'A SCORM package', titleCy: 'Pecyn SCORM', contentCy: 'Cynnwys SCORM yn Gymraeg, yn ddigon hir.' },
  });
  assert.equal(refused.status, 400);
  assert.equal(refused.json.fields.contentCy, 'A SCORM module has no Welsh content: its package is one language');
});

test('a session or a practical takes a Welsh introduction; the course is in Welsh once each English introduction has its Welsh', async () => {
  const created = await call('POST', '/api/courses', {
    token: instructorToken,
    body: {
      title: 'Radio day', description: 'A classroom day and a practical check, in both languages.', service: 'UKPS',
      titleCy: 'Diwrnod radio', descriptionCy: 'Diwrnod dosbarth a gwiriad ymarferol, yn y ddwy iaith.',
    },
  });
  assert.equal(created.status, 201, created.text);
  const id = created.json.id;
  const inWelsh = async () => (await call('GET', `/api/courses/${id}`, { token: instructorToken })).json.availableInWelsh;
  const session = await call('POST', `/api/courses/${id}/modules`, {
    token: instructorToken,
    body: { kind: 'session', title: 'Classroom day', titleCy: 'Diwrnod dosbarth', content: 'Meet at the drill yard at nine, in full kit.',
      contentCy: 'Cyfarfod ar yr iard ddril am naw, yn eich cit llawn.' },
  });
  assert.equal(session.status, 201, session.text);
  assert.deepEqual([session.json.kind, session.json.contentCy], ['session', 'Cyfarfod ar yr iard ddril am naw, yn eich cit llawn.']);
  const short = await call('POST', `/api/courses/${id}/modules`, {
    token: instructorToken, body: { kind: 'assessment', title: 'Practical check', titleCy: 'Gwiriad ymarferol', contentCy: 'Byr' },
  });
  assert.deepEqual([short.status, short.json.fields?.contentCy], [400, 'The Welsh content must be at least 20 characters']);
  const practical = await call('POST', `/api/courses/${id}/modules`, {
    token: instructorToken,
    body: { kind: 'assessment', title: 'Practical check', titleCy: 'Gwiriad ymarferol', content: 'Your assessor watches you start the set.',
      contentCy: 'Mae eich aseswr yn eich gwylio yn cychwyn y set.' },
  });
  assert.equal(practical.status, 201, practical.text);
  assert.equal(practical.json.contentCy, 'Mae eich aseswr yn eich gwylio yn cychwyn y set.');
  assert.equal(await inWelsh(), true);
  // The session's Welsh introduction cleared: English-only until it is back.
  const cleared = await call('PUT', `/api/modules/${session.json.id}`, { token: instructorToken, body: { contentCy: null } });
  assert.deepEqual([cleared.status, cleared.json.contentCy], [200, null]);
  assert.equal(await inWelsh(), false);
  const back = await call('PUT', `/api/modules/${session.json.id}`, { token: instructorToken, body: { contentCy: 'Cyfarfod ar yr iard ddril am naw.' } });
  assert.deepEqual([back.status, back.json.contentCy], [200, 'Cyfarfod ar yr iard ddril am naw.']);
  assert.equal(await inWelsh(), true);
  assert.equal((await call('GET', `/api/modules/${practical.json.id}`, { token: instructorToken })).json.contentCy,
    'Mae eich aseswr yn eich gwylio yn cychwyn y set.');
  assert.equal((await call('DELETE', `/api/courses/${id}`, { token: instructorToken })).status, 204);
});

test('quiz and questions: the Welsh round-trips for the author; Welsh options of another length are refused', async () => {
  const quiz = await call('PUT', `/api/modules/${secondModuleId}/quiz`, {
    token: instructorToken,
    body: { title: 'Priority check', titleCy: 'Gwirio blaenoriaeth', passingScore: 50, showCorrectAnswers: 'ALWAYS' },
  });
  assert.equal(quiz.status, 201);
  quizId = quiz.json.id;
  assert.equal(quiz.json.titleCy, 'Gwirio blaenoriaeth');
  assert.equal(quiz.json.descriptionCy, null);

  const question = {
    questionText: 'Which word starts an urgent message?',
    options: [{ text: 'Priority', isCorrect: true }, { text: 'Hello', isCorrect: false }, { text: 'Over', isCorrect: false }],
    explanation: 'Priority tells the control room to listen first.',
    questionCy: 'Pa air sy\'n dechrau neges frys?',
    optionsCy: ['Blaenoriaeth', 'Helo', 'Drosodd'],
    explanationCy: 'Mae blaenoriaeth yn dweud wrth yr ystafell reoli am wrando yn gyntaf.',
  };
  const mismatch = await call('POST', `/api/quizzes/${quizId}/questions`, {
    token: instructorToken,
    body: { ...question, optionsCy: ['Blaenoriaeth', 'Helo'] },
  });
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.json.fields.optionsCy, 'Give a Welsh text for every option, in the same order as the options');
  const blankOption = await call('POST', `/api/quizzes/${quizId}/questions`, {
    token: instructorToken,
    body: { ...question, optionsCy: ['Blaenoriaeth', ' ', 'Drosodd'] },
  });
  assert.equal(blankOption.status, 400);
  assert.equal(blankOption.json.fields['optionsCy.1'], 'Every Welsh option needs a text of at most 500 characters');

  // Without Welsh, the question makes the course English-only.
  const english = await call('POST', `/api/quizzes/${quizId}/questions`, {
    token: instructorToken,
    body: { ...question, questionCy: undefined, optionsCy: undefined, explanationCy: undefined },
  });
  assert.equal(english.status, 201);
  questionId = english.json.id;
  assert.equal(english.json.questionCy, null);
  assert.equal(english.json.optionsCy, null);
  assert.equal((await course()).availableInWelsh, false);

  const put = await call('PUT', `/api/questions/${questionId}`, { token: instructorToken, body: question });
  assert.equal(put.status, 200);
  assert.equal(put.json.questionCy, question.questionCy);
  assert.deepEqual(put.json.optionsCy, question.optionsCy);
  assert.equal(put.json.explanationCy, question.explanationCy);
  assert.equal((await course()).availableInWelsh, true);

  const authoring = await call('GET', `/api/modules/${secondModuleId}/quiz/authoring`, { token: instructorToken });
  assert.equal(authoring.json.titleCy, 'Gwirio blaenoriaeth');
  assert.deepEqual(authoring.json.questions[0].optionsCy, question.optionsCy);
});

test('GET /api/courses: search by a Welsh word, and the welsh filter (400 for an unknown value); a learner may not write the Welsh', async () => {
  assert.equal((await call('PUT', `/api/courses/${courseId}`, { token: instructorToken, body: { status: 'ACTIVE' } })).status, 200);
  // Published, the learner sees the course but may not write its Welsh.
  const refused = await call('PUT', `/api/courses/${courseId}`, { token: learnerToken, body: { titleCy: 'Wedi\'i herwgipio' } });
  assert.equal(refused.status, 403);
  assert.equal((await course()).titleCy, `Trefn radio ${word}`);
  const found = await call('GET', `/api/courses?search=${word}`, { token: learnerToken });
  assert.equal(found.status, 200);
  assert.deepEqual(found.json.items.map((c: { id: string }) => c.id), [courseId]);
  assert.equal(found.json.total, 1);

  const welsh = await call('GET', `/api/courses?welsh=true&pageSize=100`, { token: learnerToken });
  assert.equal(welsh.status, 200);
  assert.ok(welsh.json.items.some((c: { id: string }) => c.id === courseId));
  assert.ok(welsh.json.items.every((c: { availableInWelsh: boolean }) => c.availableInWelsh));
  assert.equal(welsh.json.total, welsh.json.items.length);
  const all = await call('GET', `/api/courses?welsh=false&pageSize=100`, { token: learnerToken });
  assert.ok(all.json.total > welsh.json.total);
  assert.ok(all.json.items.some((c: { availableInWelsh: boolean }) => !c.availableInWelsh));
  for (const item of all.json.items) {
    assert.ok('titleCy' in item && 'descriptionCy' in item && typeof item.availableInWelsh === 'boolean');
  }

  const bad = await call('GET', '/api/courses?welsh=yes', { token: learnerToken });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.fields.welsh, 'welsh must be true or false');
});

test('the learner reads the Welsh of the course, its modules, the quiz and the result', async () => {
  assert.equal((await call('POST', `/api/courses/${courseId}/enroll`, { token: learnerToken })).status, 201);
  const modules = await call('GET', `/api/courses/${courseId}/modules`, { token: learnerToken });
  assert.deepEqual(modules.json.map((m: { titleCy: string }) => m.titleCy), ['Galw\'r ystafell reoli', 'Negeseuon blaenoriaeth']);
  assert.equal(modules.json[0].contentCy, 'Dywedwch pwy rydych chi\'n ei alw, yna pwy ydych chi.');

  const module = await call('GET', `/api/modules/${secondModuleId}`, { token: learnerToken });
  assert.equal(module.status, 200);
  assert.equal(module.json.titleCy, 'Negeseuon blaenoriaeth');
  assert.equal(module.json.contentCy, 'Mae neges frys yn dechrau gyda\'r gair blaenoriaeth.');
  assert.equal(module.json.course.titleCy, `Trefn radio ${word}`);
  assert.equal(module.json.quiz.titleCy, 'Gwirio blaenoriaeth');

  const quiz = await call('GET', `/api/modules/${secondModuleId}/quiz`, { token: learnerToken });
  assert.equal(quiz.status, 200, quiz.text);
  assert.equal(quiz.json.titleCy, 'Gwirio blaenoriaeth');
  assert.equal(quiz.json.questions[0].questionCy, 'Pa air sy\'n dechrau neges frys?');
  assert.deepEqual(quiz.json.questions[0].optionsCy, ['Blaenoriaeth', 'Helo', 'Drosodd']);
  assert.equal('explanationCy' in quiz.json.questions[0], false);

  // Scoring is by index: answering the Welsh option 0 is answering the English option 0.
  const result = await call('POST', `/api/quizzes/${quizId}/attempts`, { token: learnerToken, body: { answers: { [questionId]: 0 } } });
  assert.equal(result.status, 201);
  assert.equal(result.json.passed, true);
  assert.deepEqual(result.json.questions[0].optionsCy, ['Blaenoriaeth', 'Helo', 'Drosodd']);
  assert.equal(result.json.questions[0].explanationCy, 'Mae blaenoriaeth yn dweud wrth yr ystafell reoli am wrando yn gyntaf.');
});

test('PUT /api/courses/:id: null clears the Welsh, absent leaves it', async () => {
  const kept = await call('PUT', `/api/courses/${courseId}`, { token: instructorToken, body: { duration: 2 } });
  assert.equal(kept.json.titleCy, `Trefn radio ${word}`);
  const cleared = await call('PUT', `/api/courses/${courseId}`, { token: instructorToken, body: { descriptionCy: null } });
  assert.equal(cleared.status, 200);
  assert.equal(cleared.json.descriptionCy, null);
  assert.equal(cleared.json.availableInWelsh, false);
  // Out of the catalogue's other tests' way.
  assert.equal((await call('POST', `/api/courses/${courseId}/archive`, { token: instructorToken })).status, 200);
});

closePoolAfterTests();
