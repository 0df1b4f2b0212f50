// Deleting, archiving and restoring a course through /api/courses: a course nobody started is
// deleted (204); one with learner records answers 409 with the reason and is archived instead
// (POST /archive), which takes it out of the catalogue and closes it to new enrolment (409) while the
// learner's enrolment stays; POST /restore makes it a draft again. GET /deletion tells the dialog
// which a delete will do. Only the author and admins may do any of it.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, register, test } from './helpers.ts';

async function login(username: string): Promise<string> {
  const answer = await call('POST', '/api/login', { body: { username, password: 'password123' } });
  if (answer.status !== 200) throw new Error(`login ${username} failed: ${answer.status} ${answer.text}`);
  return answer.json.session.access_token;
}

const instructor = await login('instructor');
const admin = await login('admin');
const student = await login('student');

async function newCourse(title: string): Promise<string> {
  const created = await call('POST', '/api/courses', {
    token: instructor,
    body: { title, description: 'A course made by the archive tests.', service: 'MISC', level: 'BEGINNER', duration: 1, status: 'ACTIVE' },
  });
  assert.equal(created.status, 201, created.text);
  return created.json.id;
}

test('a course nobody started: GET /deletion says deletable, DELETE answers 204', async () => {
  const id = await newCourse('Archive API: unstarted');
  assert.equal((await call('GET', `/api/courses/${id}/deletion`)).status, 401);
  assert.equal((await call('GET', `/api/courses/${id}/deletion`, { token: student })).status, 403);
  const answer = await call('GET', `/api/courses/${id}/deletion`, { token: instructor });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.json, { deletable: true, status: 'ACTIVE' });
  assert.equal((await call('DELETE', `/api/courses/${id}`, { token: student })).status, 403);
  assert.equal((await call('DELETE', `/api/courses/${id}`, { token: instructor })).status, 204);
  assert.equal((await call('GET', `/api/courses/${id}`, { token: instructor })).status, 404);
});

test('a course with a learner: DELETE answers 409 with the reason, archive hides it and closes enrolment, restore makes a draft', async () => {
  const id = await newCourse('Archive API: started');
  const learner = await register();
  const learnerToken = learner.session.access_token as string;
  try {
    assert.equal((await call('POST', `/api/courses/${id}/enroll`, { token: learnerToken })).status, 201);

    const check = await call('GET', `/api/courses/${id}/deletion`, { token: admin });
    assert.deepEqual(check.json, { deletable: false, status: 'ACTIVE' });
    for (const token of [instructor, admin]) {
      const refused = await call('DELETE', `/api/courses/${id}`, { token });
      assert.equal(refused.status, 409, refused.text);
      assert.equal(refused.json.message, 'This course has learner records, so it cannot be deleted: archive it instead');
    }
    assert.equal((await call('DELETE', `/api/courses/${id}`, { token: student })).status, 403);
    const [kept] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.enrollments where course_id = ${id}::uuid`;
    assert.equal(kept.n, 1);

    // Archive: only the author and admins.
    assert.equal((await call('POST', `/api/courses/${id}/archive`)).status, 401);
    assert.equal((await call('POST', `/api/courses/${id}/archive`, { token: student })).status, 403);
    assert.equal((await call('POST', `/api/courses/${id}/archive`, { token: learnerToken })).status, 403);
    const archived = await call('POST', `/api/courses/${id}/archive`, { token: instructor });
    assert.equal(archived.status, 200, archived.text);
    assert.equal(archived.json.status, 'ARCHIVED');

    // Out of the catalogue, even an admin's, unless a manager's list asks for archived courses.
    const catalogue = await call('GET', `/api/courses?search=${encodeURIComponent('Archive API: started')}&pageSize=100`, { token: admin });
    assert.equal(catalogue.status, 200);
    assert.equal(catalogue.json.items.some((c: { id: string }) => c.id === id), false);
    const managed = await call('GET', `/api/courses?search=${encodeURIComponent('Archive API: started')}&includeArchived=true&pageSize=100`, { token: admin });
    assert.equal(managed.json.items.find((c: { id: string }) => c.id === id)?.status, 'ARCHIVED');
    const mine = await call('GET', '/api/courses?mine=true&status=ARCHIVED&pageSize=100', { token: instructor });
    assert.ok(mine.json.items.some((c: { id: string }) => c.id === id));
    assert.equal((await call('GET', '/api/courses?includeArchived=maybe', { token: admin })).status, 400);

    // No one new enrols; the learner's enrolment stays.
    const newcomer = await register();
    const enrol = await call('POST', `/api/courses/${id}/enroll`, { token: newcomer.session.access_token });
    assert.ok([404, 409].includes(enrol.status), enrol.text); // not visible to a learner: 404
    const byAdmin = await call('POST', `/api/courses/${id}/enroll`, { token: admin });
    assert.equal(byAdmin.status, 409, byAdmin.text);
    assert.equal(byAdmin.json.message, 'This course is archived: no one new can enrol');
    const [still] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.enrollments where course_id = ${id}::uuid`;
    assert.equal(still.n, 1);

    // Still not deletable; the dialog knows it is archived already.
    assert.deepEqual((await call('GET', `/api/courses/${id}/deletion`, { token: instructor })).json, { deletable: false, status: 'ARCHIVED' });
    assert.equal((await call('DELETE', `/api/courses/${id}`, { token: admin })).status, 409);

    // Restore: a draft again; restoring what is not archived is a conflict.
    // An archived course is not a learner's to see: 404.
    assert.equal((await call('POST', `/api/courses/${id}/restore`, { token: student })).status, 404);
    const restored = await call('POST', `/api/courses/${id}/restore`, { token: instructor });
    assert.equal(restored.status, 200, restored.text);
    assert.equal(restored.json.status, 'DRAFT');
    const again = await call('POST', `/api/courses/${id}/restore`, { token: admin });
    assert.equal(again.status, 409);
    assert.equal(again.json.message, 'This course is not archived');
    assert.equal((await call('POST', `/api/courses/${id}/archive`, { token: admin, raw: '{', headers: { 'content-type': 'application/json' } })).status, 400);
  } finally {
    await db.sql`select private.erase_course(${id}::uuid)`;
  }
});

test('a direct delete of a course with a learner is refused by the database too, with its reason', async () => {
  const id = await newCourse('Archive API: direct');
  try {
    await db.sql`insert into public.enrollments (user_id, course_id) values ('00000000-0000-4000-a000-000000000003', ${id}::uuid)`;
    await assert.rejects(db.sql`delete from public.courses where id = ${id}::uuid`, (error: { code?: string; message?: string }) => {
      assert.equal(error.code, '23503');
      assert.equal(error.message, 'This course has learner records, so it cannot be deleted: archive it instead');
      return true;
    });
  } finally {
    await db.sql`select private.erase_course(${id}::uuid)`;
  }
});

closePoolAfterTests();
