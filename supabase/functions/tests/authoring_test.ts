// Authoring API against the real platform: course writes, covers, modules and their order, module
// images, quizzes and questions, each proved for the author and refused for the others.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, config, db, login, register, test } from './helpers.ts';

const SEED_INSTRUCTOR = '00000000-0000-4000-a000-000000000002';
const ADMIN_COURSE = '10000000-0000-4000-a000-000000000004';

/** A fresh user made INSTRUCTOR in UKPS and MISC by the test (as an admin would). */
async function otherInstructor(): Promise<string> {
  const { user, session } = await register();
  await db.sql`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS,MISC}' where id = ${user.id}::uuid`;
  return session.access_token;
}

/** A real 1x1 PNG (signature, IHDR, IDAT, IEND with correct CRCs). */
const PNG = Uint8Array.from(atob(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
), (ch) => ch.charCodeAt(0));

function multipart(field: string, bytes: Uint8Array<ArrayBuffer>, filename = 'image.png', type = 'image/png'): FormData {
  const form = new FormData();
  form.append(field, new File([bytes], filename, { type }));
  return form;
}

async function upload(path: string, token: string, form: FormData) {
  // FormData sets its own multipart content type with the boundary.
  return await call('POST', path, { token, raw: form });
}

const courseBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Authoring test course',
  description: 'A course made by the authoring API tests, long enough.',
  service: 'UKPS',
  level: 'INTERMEDIATE',
  duration: 3,
  ...overrides,
});

const moduleBody = (n: number) => ({
  title: `Module number ${n}`,
  content: `The content of module ${n}, long enough to pass validation.`,
});

let instructorToken = '';
let adminToken = '';
let studentToken = '';
let otherToken = '';

test('setup: sign in the seeded instructor and admin, register a learner and another instructor', async () => {
  instructorToken = await login('instructor');
  adminToken = await login('admin');
  studentToken = (await register()).session.access_token;
  otherToken = await otherInstructor();
});

test('POST /api/courses: visitor 401, learner 403, instructor outside their services 403, bad input 400', async () => {
  assert.deepEqual((await call('POST', '/api/courses', { body: courseBody() })).status, 401);
  const student = await call('POST', '/api/courses', { token: studentToken, body: courseBody() });
  assert.deepEqual(student.status, 403);
  const outside = await call('POST', '/api/courses', { token: instructorToken, body: courseBody({ service: 'UKAS' }) });
  assert.deepEqual(outside.status, 403);
  assert.deepEqual(outside.json.message, 'You can only create courses in your services');
  const bad = await call('POST', '/api/courses', { token: instructorToken, body: { title: 'ab', description: 'short', service: 'NOPE', duration: 0 } });
  assert.deepEqual(bad.status, 400);
  assert.deepEqual(bad.json.fields.title, 'Title must be at least 3 characters');
  assert.deepEqual(bad.json.fields.description, 'Description must be at least 20 characters');
  assert.deepEqual(bad.json.fields.service, 'Service is required');
  assert.deepEqual(bad.json.fields.duration, 'Duration must be at least 1 hour');
  const notJson = await call('POST', '/api/courses', { token: instructorToken, raw: '{oops', headers: { 'content-type': 'application/json' } });
  assert.deepEqual(notJson.status, 400);
});

test('course lifecycle: create, update, refused to others, cover upload and replace, delete', async () => {
  const created = await call('POST', '/api/courses', { token: instructorToken, body: courseBody() });
  assert.deepEqual(created.status, 201);
  const course = created.json;
  assert.deepEqual(course.authorId, SEED_INSTRUCTOR);
  assert.deepEqual(course.status, 'DRAFT');
  assert.deepEqual(course.level, 'INTERMEDIATE');
  assert.deepEqual(course.modules, 0);
  assert.deepEqual(course.coverImage, null);

  // A draft is invisible to another instructor: 404; once published, visible but not theirs: 403.
  assert.deepEqual((await call('PUT', `/api/courses/${course.id}`, { token: otherToken, body: { title: 'Hijacked title' } })).status, 404);
  const published = await call('PUT', `/api/courses/${course.id}`, { token: instructorToken, body: { status: 'ACTIVE', title: 'Authoring test course, published' } });
  assert.deepEqual(published.status, 200);
  assert.deepEqual(published.json.status, 'ACTIVE');
  assert.deepEqual(published.json.title, 'Authoring test course, published');
  assert.deepEqual(published.json.level, 'INTERMEDIATE');
  assert.deepEqual((await call('PUT', `/api/courses/${course.id}`, { token: otherToken, body: { title: 'Hijacked title' } })).status, 403);
  assert.deepEqual((await call('PUT', `/api/courses/${course.id}`, { token: studentToken, body: { title: 'Hijacked title' } })).status, 403);
  assert.deepEqual((await call('DELETE', `/api/courses/${course.id}`, { token: otherToken })).status, 403);
  const outside = await call('PUT', `/api/courses/${course.id}`, { token: instructorToken, body: { service: 'UKFRS' } });
  assert.deepEqual(outside.status, 403);
  assert.deepEqual((await call('PUT', `/api/courses/${course.id}`, { token: instructorToken, body: {} })).status, 400);
  assert.deepEqual((await call('PUT', '/api/courses/not-a-uuid', { token: instructorToken, body: { title: 'Whatever title' } })).status, 404);
  // The admin may change anyone's course.
  const byAdmin = await call('PUT', `/api/courses/${course.id}`, { token: adminToken, body: { featured: false, duration: 4 } });
  assert.deepEqual(byAdmin.status, 200);
  assert.deepEqual(byAdmin.json.duration, 4);
  // An instructor may not edit the admin's course.
  assert.deepEqual((await call('PUT', `/api/courses/${ADMIN_COURSE}`, { token: instructorToken, body: { title: 'Hijacked title' } })).status, 403);

  // Cover: a real PNG is stored and served at the returned public URL.
  const cover = await upload(`/api/courses/${course.id}/cover`, instructorToken, multipart('coverImage', PNG));
  assert.deepEqual(cover.status, 200, cover.text);
  const url: string = cover.json.coverImage;
  assert.match(url, new RegExp(`^${config.supabaseUrl}/storage/v1/object/public/course-covers/${course.id}/[0-9a-f-]{36}\\.png$`));
  const served = await fetch(url);
  assert.deepEqual(served.status, 200);
  assert.deepEqual(new Uint8Array(await served.arrayBuffer()), PNG);

  // Not an image by content (even named .png): 415; too large: 413; wrong field: 400; not multipart: 415.
  const text = await upload(`/api/courses/${course.id}/cover`, instructorToken, multipart('coverImage', new TextEncoder().encode('hello, not a picture'), 'fake.png'));
  assert.deepEqual(text.status, 415);
  assert.deepEqual(text.json.message, 'Only PNG, JPEG, WebP or GIF images are allowed');
  const big = new Uint8Array(5 * 1024 * 1024 + 10);
  big.set(PNG);
  assert.deepEqual((await upload(`/api/courses/${course.id}/cover`, instructorToken, multipart('coverImage', big))).status, 413);
  assert.deepEqual((await upload(`/api/courses/${course.id}/cover`, instructorToken, multipart('other', PNG))).status, 400);
  assert.deepEqual((await call('POST', `/api/courses/${course.id}/cover`, { token: instructorToken, body: { coverImage: 'x' } })).status, 415);
  // Others may not upload, and nothing is stored for them.
  assert.deepEqual((await upload(`/api/courses/${course.id}/cover`, otherToken, multipart('coverImage', PNG))).status, 403);
  assert.deepEqual((await upload(`/api/courses/${course.id}/cover`, studentToken, multipart('coverImage', PNG))).status, 403);

  // Replacing removes the old object.
  const gif = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;');
  const replaced = await upload(`/api/courses/${course.id}/cover`, instructorToken, multipart('coverImage', gif, 'c.gif', 'image/gif'));
  assert.deepEqual(replaced.status, 200);
  assert.match(replaced.json.coverImage, /\.gif$/);
  const oldServed = await fetch(url);
  await oldServed.body?.cancel();
  assert.deepEqual(oldServed.status, 404);

  // Delete: 204, the row and the cover object are gone.
  assert.deepEqual((await call('DELETE', `/api/courses/${course.id}`, { token: instructorToken })).status, 204);
  const rows = await db.sql`select 1 from public.courses where id = ${course.id}::uuid`;
  assert.deepEqual(rows.length, 0);
  const gone = await fetch(replaced.json.coverImage);
  await gone.body?.cancel();
  assert.deepEqual(gone.status, 404);
  assert.deepEqual((await call('DELETE', `/api/courses/${course.id}`, { token: instructorToken })).status, 404);
});

test('modules: default order, insert at a position, reorder the full set, update, delete renumbers, image', async () => {
  const course = (await call('POST', '/api/courses', { token: instructorToken, body: courseBody({ service: 'MISC' }) })).json;
  const ids: string[] = [];
  for (const n of [1, 2, 3]) {
    const m = await call('POST', `/api/courses/${course.id}/modules`, { token: instructorToken, body: { ...moduleBody(n), courseId: course.id } });
    assert.deepEqual(m.status, 201, m.text);
    assert.deepEqual(m.json.orderIndex, n);
    assert.deepEqual(m.json.duration, 15);
    assert.deepEqual(m.json.hasQuiz, false);
    ids.push(m.json.id);
  }
  const order = async () =>
    (await db.sql<{ id: string; orderIndex: number }[]>`
      select id, order_index from public.course_modules where course_id = ${course.id}::uuid order by order_index`)
      .map((r) => r.id);

  const bad = await call('POST', `/api/courses/${course.id}/modules`, { token: instructorToken, body: { title: 'ab', content: 'too short', duration: 0 } });
  assert.deepEqual(bad.status, 400);
  assert.deepEqual(bad.json.fields.content, 'Content must be at least 20 characters');
  assert.deepEqual(bad.json.fields.duration, 'Duration must be at least 1 minute');
  assert.deepEqual((await call('POST', `/api/courses/${course.id}/modules`, { token: otherToken, body: moduleBody(9) })).status, 404);
  assert.deepEqual((await call('POST', `/api/courses/${ADMIN_COURSE}/modules`, { token: instructorToken, body: moduleBody(9) })).status, 403);

  // Inserted at position 1: the others move down.
  const first = await call('POST', `/api/courses/${course.id}/modules`, { token: instructorToken, body: { ...moduleBody(0), orderIndex: 1, duration: 20 } });
  assert.deepEqual(first.status, 201);
  assert.deepEqual(first.json.orderIndex, 1);
  assert.deepEqual(await order(), [first.json.id, ...ids]);

  // Reorder: exactly the full set, else 400 and nothing changes.
  const all = [first.json.id, ...ids];
  const reversed = [...all].reverse();
  for (const moduleIds of [all.slice(1), [...all, all[0]], ['not-a-uuid'], []]) {
    const r = await call('PUT', `/api/courses/${course.id}/modules/reorder`, { token: instructorToken, body: { moduleIds } });
    assert.deepEqual(r.status, 400, JSON.stringify(moduleIds));
  }
  assert.deepEqual(await order(), all);
  assert.deepEqual((await call('PUT', `/api/courses/${course.id}/modules/reorder`, { token: studentToken, body: { moduleIds: reversed } })).status, 404);
  const reordered = await call('PUT', `/api/courses/${course.id}/modules/reorder`, { token: instructorToken, body: { moduleIds: reversed } });
  assert.deepEqual(reordered.status, 200);
  assert.deepEqual(reordered.json.map((m: { id: string }) => m.id), reversed);
  assert.deepEqual(reordered.json.map((m: { orderIndex: number }) => m.orderIndex), [1, 2, 3, 4]);

  // Update: fields, and a new position moves it.
  const updated = await call('PUT', `/api/modules/${reversed[3]}`, { token: instructorToken, body: { title: 'Renamed module', orderIndex: 1 } });
  assert.deepEqual(updated.status, 200);
  assert.deepEqual(updated.json.title, 'Renamed module');
  assert.deepEqual(updated.json.orderIndex, 1);
  assert.deepEqual(await order(), [reversed[3], reversed[0], reversed[1], reversed[2]]);
  assert.deepEqual((await call('PUT', `/api/modules/${reversed[3]}`, { token: otherToken, body: { title: 'Hijacked' } })).status, 404);
  assert.deepEqual((await call('PUT', '/api/modules/123', { token: instructorToken, body: { title: 'Whatever' } })).status, 404);

  // Image on a module.
  const image = await upload(`/api/modules/${reversed[0]}/images`, instructorToken, multipart('moduleImage', PNG));
  assert.deepEqual(image.status, 200, image.text);
  assert.match(image.json.image, new RegExp(`/storage/v1/object/public/module-images/${course.id}/[0-9a-f-]{36}\\.png$`));
  assert.deepEqual((await upload(`/api/modules/${reversed[0]}/images`, instructorToken, multipart('moduleImage', new Uint8Array([1, 2, 3, 4])))).status, 415);

  // Delete the second: the rest close up, and its image goes.
  assert.deepEqual((await call('DELETE', `/api/modules/${reversed[0]}`, { token: instructorToken })).status, 204);
  const left = await db.sql<{ id: string; orderIndex: number }[]>`
    select id, order_index from public.course_modules where course_id = ${course.id}::uuid order by order_index`;
  assert.deepEqual(left.map((r) => r.id), [reversed[3], reversed[1], reversed[2]]);
  assert.deepEqual(left.map((r) => r.orderIndex), [1, 2, 3]);
  const imageGone = await fetch(image.json.image);
  await imageGone.body?.cancel();
  assert.deepEqual(imageGone.status, 404);

  assert.deepEqual((await call('DELETE', `/api/courses/${course.id}`, { token: instructorToken })).status, 204);
});

test('quizzes and questions: create, validate, reorder, update, delete; has_quiz follows; others refused', async () => {
  const course = (await call('POST', '/api/courses', { token: instructorToken, body: courseBody({ status: 'ACTIVE' }) })).json;
  const module = (await call('POST', `/api/courses/${course.id}/modules`, { token: instructorToken, body: moduleBody(1) })).json;

  const none = await call('GET', `/api/modules/${module.id}/quiz/authoring`, { token: instructorToken });
  assert.deepEqual(none.status, 200);
  assert.deepEqual(none.json, null);

  const badQuiz = await call('PUT', `/api/modules/${module.id}/quiz`, { token: instructorToken, body: { title: 'Q', description: 'short', passingScore: 101, timeLimit: 0 } });
  assert.deepEqual(badQuiz.status, 400);
  assert.deepEqual(Object.keys(badQuiz.json.fields).sort(), ['description', 'passingScore', 'timeLimit', 'title']);

  const created = await call('PUT', `/api/modules/${module.id}/quiz`, { token: instructorToken, body: { title: 'Module check', description: '' } });
  assert.deepEqual(created.status, 201, created.text);
  assert.deepEqual(created.json.passingScore, 70);
  assert.deepEqual(created.json.description, null);
  assert.deepEqual(created.json.questions, []);
  const quizId = created.json.id;
  const [flag] = await db.sql<{ hasQuiz: boolean }[]>`select has_quiz from public.course_modules where id = ${module.id}::uuid`;
  assert.deepEqual(flag.hasQuiz, true);

  const updated = await call('PUT', `/api/modules/${module.id}/quiz`, { token: instructorToken, body: { title: 'Module check', passingScore: 80, timeLimit: 10, randomizeQuestions: true } });
  assert.deepEqual(updated.status, 200);
  assert.deepEqual(updated.json.id, quizId);
  assert.deepEqual(updated.json.passingScore, 80);
  assert.deepEqual(updated.json.timeLimit, 10);

  // Others: the published course's quiz is visible but not theirs (403); its answers never shown.
  assert.deepEqual((await call('GET', `/api/modules/${module.id}/quiz/authoring`, { token: otherToken })).status, 403);
  assert.deepEqual((await call('GET', `/api/modules/${module.id}/quiz/authoring`, { token: studentToken })).status, 403);
  assert.deepEqual((await call('PUT', `/api/modules/${module.id}/quiz`, { token: otherToken, body: { title: 'Hijacked quiz' } })).status, 403);

  const mc = {
    questionText: 'Which principle comes first?',
    questionType: 'MULTIPLE_CHOICE',
    options: [{ text: 'Co-locate', isCorrect: true }, { text: 'Delegate', isCorrect: false }, { text: 'Escalate', isCorrect: true }],
    points: 2,
    explanation: 'Because it does.',
  };
  const q1 = await call('POST', `/api/quizzes/${quizId}/questions`, { token: instructorToken, body: mc });
  assert.deepEqual(q1.status, 201, q1.text);
  assert.deepEqual(q1.json.correctAnswers, [0, 2]);
  assert.deepEqual(q1.json.orderIndex, 1);
  const tf = {
    questionText: 'Radios are always encrypted.',
    questionType: 'TRUE_FALSE',
    options: [{ text: 'True', isCorrect: false }, { text: 'False', isCorrect: true }],
  };
  const q2 = await call('POST', `/api/quizzes/${quizId}/questions`, { token: instructorToken, body: tf });
  assert.deepEqual(q2.status, 201);
  assert.deepEqual(q2.json.correctAnswers, [1]);
  assert.deepEqual(q2.json.points, 1);
  assert.deepEqual(q2.json.orderIndex, 2);

  const fewOptions = await call('POST', `/api/quizzes/${quizId}/questions`, { token: instructorToken, body: { ...mc, options: [{ text: 'Only one', isCorrect: true }] } });
  assert.deepEqual(fewOptions.status, 400);
  assert.deepEqual(fewOptions.json.fields.options, 'At least 2 options are required');
  const noCorrect = await call('POST', `/api/quizzes/${quizId}/questions`, { token: instructorToken, body: { ...mc, options: [{ text: 'A', isCorrect: false }, { text: 'B', isCorrect: false }] } });
  assert.deepEqual(noCorrect.status, 400);
  assert.deepEqual(noCorrect.json.fields.options, 'Mark at least one option as correct');
  const badTf = await call('POST', `/api/quizzes/${quizId}/questions`, { token: instructorToken, body: { ...tf, options: [{ text: 'Yes', isCorrect: true }, { text: 'No', isCorrect: false }] } });
  assert.deepEqual(badTf.status, 400);
  const emptyOption = await call('POST', `/api/quizzes/${quizId}/questions`, { token: instructorToken, body: { ...mc, questionText: 'Hi', points: 0, options: [{ text: '', isCorrect: true }, { text: 'B' }] } });
  assert.deepEqual(emptyOption.status, 400);
  assert.deepEqual(emptyOption.json.fields.questionText, 'Question text must be at least 5 characters');
  assert.deepEqual(emptyOption.json.fields.points, 'Points must be at least 1');
  assert.deepEqual(emptyOption.json.fields['options.0.text'], 'Option text is required');
  assert.deepEqual((await call('POST', `/api/quizzes/${quizId}/questions`, { token: otherToken, body: mc })).status, 403);

  // Reorder questions: the full set only.
  assert.deepEqual((await call('PUT', `/api/quizzes/${quizId}/questions/reorder`, { token: instructorToken, body: { questionIds: [q1.json.id] } })).status, 400);
  const reordered = await call('PUT', `/api/quizzes/${quizId}/questions/reorder`, { token: instructorToken, body: { questionIds: [q2.json.id, q1.json.id] } });
  assert.deepEqual(reordered.status, 200);
  assert.deepEqual(reordered.json.map((q: { id: string }) => q.id), [q2.json.id, q1.json.id]);

  // Update a question (whole), then read the authoring view.
  const edited = await call('PUT', `/api/questions/${q1.json.id}`, { token: instructorToken, body: { ...mc, options: [{ text: 'Co-locate', isCorrect: true }, { text: 'Delegate', isCorrect: false }] } });
  assert.deepEqual(edited.status, 200);
  assert.deepEqual(edited.json.correctAnswers, [0]);
  assert.deepEqual((await call('PUT', `/api/questions/${q1.json.id}`, { token: otherToken, body: mc })).status, 404);
  const view = await call('GET', `/api/modules/${module.id}/quiz/authoring`, { token: instructorToken });
  assert.deepEqual(view.json.questions.map((q: { id: string }) => q.id), [q2.json.id, q1.json.id]);
  assert.deepEqual(view.json.questions[1].options[0], { text: 'Co-locate', isCorrect: true });

  // Delete a question: the rest renumber.
  assert.deepEqual((await call('DELETE', `/api/questions/${q2.json.id}`, { token: instructorToken })).status, 204);
  const after = await call('GET', `/api/modules/${module.id}/quiz/authoring`, { token: adminToken });
  assert.deepEqual(after.status, 200);
  assert.deepEqual(after.json.questions.map((q: { orderIndex: number }) => q.orderIndex), [1]);

  // Delete the quiz: has_quiz off.
  assert.deepEqual((await call('DELETE', `/api/modules/${module.id}/quiz`, { token: otherToken })).status, 403);
  assert.deepEqual((await call('DELETE', `/api/modules/${module.id}/quiz`, { token: instructorToken })).status, 204);
  assert.deepEqual((await call('DELETE', `/api/modules/${module.id}/quiz`, { token: instructorToken })).status, 404);
  const [flagAfter] = await db.sql<{ hasQuiz: boolean }[]>`select has_quiz from public.course_modules where id = ${module.id}::uuid`;
  assert.deepEqual(flagAfter.hasQuiz, false);
  assert.equal((await call('DELETE', `/api/courses/${course.id}`, { token: adminToken })).status, 204);
});

closePoolAfterTests();
