// The instructor endpoints against the real platform: figures equal to what SQL computes from the
// enrolments and attempts, students paged and filtered, approval and decline of pending enrolments,
// analytics on and off, and refusals (401 visitor, 403 learner, 404 unknown or malformed ids).
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { call, closePoolAfterTests, db, ids, login, register, test } from './helpers.ts';

const INSTRUCTOR_ID = '00000000-0000-4000-a000-000000000002';
const course = ids.course;

/** Enrols the user as they would themselves: through RLS and the enrolment trigger. */
async function enrolAs(token: string, courseId: string): Promise<{ id: string; status: string }> {
  const claims = decodeJwt(token) as Record<string, unknown>;
  return await db.withCaller({ role: 'authenticated', claims }, async (tx) => {
    const [row] = await tx<{ id: string; status: string }[]>`
      insert into public.enrollments (user_id, course_id) values (${claims.sub as string}, ${courseId}) returning id, status`;
    return row;
  });
}

/** Runs fn with a setting changed, restoring it afterwards whatever happens. */
async function withSetting(column: 'course_access' | 'enable_analytics', value: string | boolean, fn: () => Promise<void>) {
  const [before] = await db.sql<Record<string, unknown>[]>`select course_access::text, enable_analytics from public.settings`;
  await db.sql`update public.settings set ${db.sql({ [column]: value })}`;
  try {
    await fn();
  } finally {
    const key = column === 'course_access' ? 'courseAccess' : 'enableAnalytics';
    await db.sql`update public.settings set ${db.sql({ [column]: before[key] as string | boolean })}`;
  }
}

const instructor = await login('instructor');
const student = await login('student');
const admin = await login('admin');

test('GET /api/instructor/stats gives the figures SQL computes for the instructor\'s own courses', async () => {
  const answer = await call('GET', '/api/instructor/stats', { token: instructor });
  assert.deepEqual(answer.status, 200);
  const [expected] = await db.sql<{ courses: number; students: number; average: number; hours: number }[]>`
    select (select count(*)::int from public.courses where author_id = ${INSTRUCTOR_ID}) as courses,
           (select count(distinct e.user_id)::int from public.enrollments e join public.courses c on c.id = e.course_id
             where c.author_id = ${INSTRUCTOR_ID} and e.status = 'ACTIVE') as students,
           (select coalesce(round(avg(e.progress)), 0)::int from public.enrollments e join public.courses c on c.id = e.course_id
             where c.author_id = ${INSTRUCTOR_ID} and e.status = 'ACTIVE') as average,
           (select sum(duration)::int from public.courses where author_id = ${INSTRUCTOR_ID}) as hours`;
  assert.deepEqual(answer.json.totalCourses, expected.courses);
  assert.deepEqual(answer.json.totalStudents, expected.students);
  assert.deepEqual(answer.json.averageCompletion, expected.average);
  assert.deepEqual(answer.json.totalCourseHours, expected.hours);
  assert.deepEqual(answer.json.recentlyUpdated.length, 3);
  const recent = await db.sql<{ id: string }[]>`
    select id from public.courses where author_id = ${INSTRUCTOR_ID} order by updated_at desc, id limit 3`;
  assert.deepEqual(answer.json.recentlyUpdated.map((c: { id: string }) => c.id), recent.map((r) => r.id));
  assert.ok(answer.json.recentlyUpdated[0].title.length > 0);
});

test('instructor endpoints refuse visitors (401) and learners (403)', async () => {
  for (const path of ['/api/instructor/stats', '/api/instructor/students', '/api/instructor/analytics']) {
    assert.deepEqual((await call('GET', path)).status, 401, path);
    const refused = await call('GET', path, { token: student });
    assert.deepEqual(refused.status, 403, path);
    assert.deepEqual(refused.json.message, "You don't have instructor permissions.");
  }
});

test('GET /api/instructor/students lists the learners of the instructor\'s courses, filtered and paged', async () => {
  const all = await call('GET', '/api/instructor/students', { token: instructor });
  assert.deepEqual(all.status, 200);
  const [{ n }] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from public.enrollments e join public.courses c on c.id = e.course_id where c.author_id = ${INSTRUCTOR_ID}`;
  assert.deepEqual(all.json.total, n);
  assert.deepEqual(all.json.page, 1);
  assert.deepEqual(all.json.pageSize, 20);
  // Other suites share this platform and enrol their own learners: look for the seeded student.
  const everyone = await call('GET', '/api/instructor/students?pageSize=100', { token: instructor });
  const jesip = everyone.json.items.find(
    (s: { course: { id: string }; learner: { name: string } }) => s.course.id === course(1) && s.learner.name === 'Sam Patel',
  );
  assert.ok(jesip, 'the seeded student is listed on JESIP');
  assert.deepEqual(jesip.progress, 50);
  assert.deepEqual(jesip.status, 'in-progress');
  assert.ok(!Number.isNaN(Date.parse(jesip.lastActivity)));

  const completed = await call('GET', '/api/instructor/students?status=completed', { token: instructor });
  assert.ok(completed.json.items.some((s: { course: { id: string } }) => s.course.id === course(3)));
  assert.ok(completed.json.items.every((s: { status: string }) => s.status === 'completed'));
  const byCourse = await call('GET', `/api/instructor/students?courseId=${course(12)}`, { token: instructor });
  assert.ok(byCourse.json.items.length > 0);
  assert.ok(byCourse.json.items.every((s: { course: { id: string } }) => s.course.id === course(12)));
  const paged = await call('GET', '/api/instructor/students?page=2&pageSize=1', { token: instructor });
  assert.deepEqual(paged.json.items.length, 1);
  assert.deepEqual(paged.json.total, n);
  const past = await call('GET', '/api/instructor/students?page=50&pageSize=100', { token: instructor });
  assert.deepEqual(past.json.items.length, 0);
  assert.deepEqual(past.json.total, n);
});

test('GET /api/instructor/students validates its query (400 with field messages)', async () => {
  const badStatus = await call('GET', '/api/instructor/students?status=finished', { token: instructor });
  assert.deepEqual(badStatus.status, 400);
  assert.deepEqual(badStatus.json.fields.status, 'Status must be pending, in-progress or completed');
  const badCourse = await call('GET', '/api/instructor/students?courseId=not-a-uuid', { token: instructor });
  assert.deepEqual(badCourse.status, 400);
  assert.deepEqual(badCourse.json.fields.courseId, 'Course id must be a valid id');
  const badPage = await call('GET', '/api/instructor/students?pageSize=1000', { token: instructor });
  assert.deepEqual(badPage.status, 400);
  assert.deepEqual(badPage.json.fields.pageSize, 'Page size must be between 1 and 100');
  assert.deepEqual((await call('GET', '/api/instructor/students?page=abc', { token: instructor })).status, 400);
});

test('an admin sees the learners of every course', async () => {
  const answer = await call('GET', '/api/instructor/students?pageSize=100', { token: admin });
  assert.deepEqual(answer.status, 200);
  const [{ n }] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.enrollments`;
  assert.deepEqual(answer.json.total, n);
});

test('approve and decline pending enrolments under login-approval', async () => {
  await withSetting('course_access', 'login-approval', async () => {
    const first = await register();
    const second = await register();
    const pendingA = await enrolAs(first.session.access_token, course(2));
    const pendingB = await enrolAs(second.session.access_token, course(2));
    assert.deepEqual(pendingA.status, 'PENDING');

    const listed = await call('GET', `/api/instructor/students?status=pending&courseId=${course(2)}`, { token: instructor });
    const ids = listed.json.items.map((s: { id: string }) => s.id);
    assert.ok(ids.includes(pendingA.id) && ids.includes(pendingB.id));
    assert.deepEqual(listed.json.items[0].status, 'pending');

    // The learner may not approve themselves; another instructor cannot see it; bad ids are 404.
    assert.deepEqual((await call('POST', `/api/enrollments/${pendingA.id}/approve`, { token: first.session.access_token })).status, 403);
    const other = await register();
    await db.sql`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS}' where id = ${other.user.id}`;
    assert.deepEqual((await call('POST', `/api/enrollments/${pendingA.id}/approve`, { token: other.session.access_token })).status, 404);
    assert.deepEqual((await call('POST', `/api/enrollments/${pendingA.id}/decline`, { token: other.session.access_token })).status, 404);
    assert.deepEqual((await call('POST', '/api/enrollments/not-a-uuid/approve', { token: instructor })).status, 404);
    assert.deepEqual((await call('POST', `/api/enrollments/${crypto.randomUUID()}/approve`, { token: instructor })).status, 404);
    assert.deepEqual((await call('POST', `/api/enrollments/${pendingA.id}/approve`)).status, 401);

    const approved = await call('POST', `/api/enrollments/${pendingA.id}/approve`, { token: instructor });
    assert.deepEqual(approved.status, 200);
    assert.deepEqual(approved.json.status, 'ACTIVE');
    assert.deepEqual(approved.json.id, pendingA.id);
    const again = await call('POST', `/api/enrollments/${pendingA.id}/approve`, { token: instructor });
    assert.deepEqual(again.status, 409);
    assert.deepEqual((await call('POST', `/api/enrollments/${pendingA.id}/decline`, { token: instructor })).status, 409);

    const declined = await call('POST', `/api/enrollments/${pendingB.id}/decline`, { token: admin });
    assert.deepEqual(declined.status, 204);
    const [{ n }] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.enrollments where id = ${pendingB.id}`;
    assert.deepEqual(n, 0);
    assert.deepEqual((await call('POST', `/api/enrollments/${pendingB.id}/decline`, { token: admin })).status, 404);

    await db.sql`delete from public.enrollments where id = ${pendingA.id}`;
  });
});

test('GET /api/instructor/analytics gives per-course figures SQL computes, or { enabled: false }', async () => {
  const answer = await call('GET', '/api/instructor/analytics?pageSize=100', { token: instructor });
  assert.deepEqual(answer.status, 200);
  assert.deepEqual(answer.json.enabled, true);
  const expected = await db.sql<{ id: string; enrolled: number; completed: number; average: number; attempts: number; passed: number }[]>`
    select c.id,
           (select count(*)::int from public.enrollments e where e.course_id = c.id and e.status = 'ACTIVE') as enrolled,
           (select count(*)::int from public.enrollments e where e.course_id = c.id and e.status = 'ACTIVE' and e.completed) as completed,
           (select coalesce(round(avg(e.progress)), 0)::int from public.enrollments e where e.course_id = c.id and e.status = 'ACTIVE') as average,
           (select count(*)::int from public.quiz_attempts a join public.quizzes q on q.id = a.quiz_id
              join public.course_modules m on m.id = q.module_id where m.course_id = c.id and a.completed_at is not null) as attempts,
           (select count(*)::int from public.quiz_attempts a join public.quizzes q on q.id = a.quiz_id
              join public.course_modules m on m.id = q.module_id where m.course_id = c.id and a.completed_at is not null and a.passed) as passed
    from public.courses c where c.author_id = ${INSTRUCTOR_ID}`;
  assert.deepEqual(answer.json.total, expected.length);
  for (const row of expected) {
    const item = answer.json.items.find((i: { courseId: string }) => i.courseId === row.id);
    assert.deepEqual(item.enrollments, row.enrolled);
    assert.deepEqual(item.averageProgress, row.average);
    assert.deepEqual(item.completionRate, row.enrolled === 0 ? 0 : Math.round((100 * row.completed) / row.enrolled));
    assert.deepEqual(item.quizAttempts, row.attempts);
    assert.deepEqual(item.quizPassRate, row.attempts === 0 ? null : Math.round((100 * row.passed) / row.attempts));
  }
  assert.ok(answer.json.items.find((i: { courseId: string }) => i.courseId === course(1)).quizAttempts > 0);

  await withSetting('enable_analytics', false, async () => {
    const off = await call('GET', '/api/instructor/analytics', { token: instructor });
    assert.deepEqual(off.status, 200);
    assert.deepEqual(off.json, { enabled: false });
    assert.deepEqual((await call('GET', '/api/instructor/analytics', { token: student })).status, 403);
  });
  assert.deepEqual((await call('GET', '/api/instructor/analytics?pageSize=0', { token: instructor })).status, 400);
});

closePoolAfterTests();
