// Per-course approval and the instructor's Overview figures, against the real platform:
// a course that requires approval makes enrolments pending (through the api and straight through the
// database) whatever the site rule, a course that waives it enrols at once under login-approval, and
// the Overview gives the completion rate, the average progress and the pending requests as SQL
// computes them from the enrolments.
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { call, closePoolAfterTests, db, login, register, test } from './helpers.ts';

const INSTRUCTOR_ID = '00000000-0000-4000-a000-000000000002';

/** Enrols straight through the database API (RLS and the enrolment trigger), asking for ACTIVE. */
async function enrolDirectly(token: string, courseId: string): Promise<string> {
  const claims = decodeJwt(token) as Record<string, unknown>;
  return await db.withCaller({ role: 'authenticated', claims }, async (tx) => {
    const [row] = await tx<{ status: string }[]>`
      insert into public.enrollments (user_id, course_id, status) values (${claims.sub as string}, ${courseId}, 'ACTIVE')
      returning status::text as status`;
    return row.status;
  });
}

async function withCourseAccess(value: string, fn: () => Promise<void>) {
  const [before] = await db.sql<{ courseAccess: string }[]>`select course_access::text from public.settings`;
  await db.sql`update public.settings set course_access = ${value}::public.course_access`;
  try {
    await fn();
  } finally {
    await db.sql`update public.settings set course_access = ${before.courseAccess}::public.course_access`;
  }
}

const instructor = await login('instructor');

async function newCourse(requiresApproval: boolean | null | undefined): Promise<string> {
  const body: Record<string, unknown> = {
    title: 'Approval test course',
    description: 'A course made by the per-course approval tests.',
    service: 'UKPS',
    level: 'BEGINNER',
    duration: 2,
    status: 'ACTIVE',
  };
  if (requiresApproval !== undefined) body.requiresApproval = requiresApproval;
  const created = await call('POST', '/api/courses', { token: instructor, body });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.json.requiresApproval, requiresApproval ?? null);
  return created.json.id;
}

async function removeCourse(id: string) {
  await db.sql`delete from public.enrollments where course_id = ${id}::uuid`;
  assert.equal((await call('DELETE', `/api/courses/${id}`, { token: instructor })).status, 204);
}

test('a course that requires approval: enrolments are pending under public-login, through the api and directly', async () => {
  const id = await newCourse(true);
  try {
    await withCourseAccess('public-login', async () => {
      const page = await call('GET', `/api/courses/${id}`);
      assert.equal(page.status, 200);
      assert.equal(page.json.approvalRequired, true);
      assert.equal(page.json.requiresApproval, true);

      const viaApi = (await register()).session.access_token;
      const enrolled = await call('POST', `/api/courses/${id}/enroll`, { token: viaApi });
      assert.equal(enrolled.status, 201, enrolled.text);
      assert.equal(enrolled.json.status, 'PENDING');

      const direct = (await register()).session.access_token;
      assert.equal(await enrolDirectly(direct, id), 'PENDING');
    });
  } finally {
    await removeCourse(id);
  }
});

test('a course that waives approval enrols at once under the site-wide login-approval; null follows the site', async () => {
  const waived = await newCourse(false);
  const inherits = await newCourse(undefined);
  try {
    await withCourseAccess('login-approval', async () => {
      assert.equal((await call('GET', `/api/courses/${waived}`)).json.approvalRequired, false);
      assert.equal((await call('GET', `/api/courses/${inherits}`)).json.approvalRequired, true);
      const learner = (await register()).session.access_token;
      assert.equal((await call('POST', `/api/courses/${waived}/enroll`, { token: learner })).json.status, 'ACTIVE');
      assert.equal(await enrolDirectly(learner, inherits), 'PENDING');
    });
  } finally {
    await removeCourse(waived);
    await removeCourse(inherits);
  }
});

test('PUT /api/courses/:id sets, clears and validates requiresApproval', async () => {
  const id = await newCourse(undefined);
  try {
    const set = await call('PUT', `/api/courses/${id}`, { token: instructor, body: { requiresApproval: true } });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.json.requiresApproval, true);
    const untouched = await call('PUT', `/api/courses/${id}`, { token: instructor, body: { title: 'Approval test course, renamed' } });
    assert.equal(untouched.json.requiresApproval, true);
    const cleared = await call('PUT', `/api/courses/${id}`, { token: instructor, body: { requiresApproval: null } });
    assert.equal(cleared.json.requiresApproval, null);
    const bad = await call('PUT', `/api/courses/${id}`, { token: instructor, body: { requiresApproval: 'yes' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.fields.requiresApproval, 'Requires approval must be true, false or null');
    const student = await login('student');
    assert.equal((await call('PUT', `/api/courses/${id}`, { token: student, body: { requiresApproval: false } })).status, 403);
  } finally {
    await removeCourse(id);
  }
});

test('GET /api/instructor/stats: completion rate, average progress and pending requests as SQL computes them', async () => {
  const id = await newCourse(true);
  try {
    // One pending request on the instructor's course, and one enrolment completed at 100 %.
    const asker = (await register()).session.access_token;
    assert.equal(await enrolDirectly(asker, id), 'PENDING');
    const figures = async () => (await db.sql<{ total: number; done: number; rate: number; average: number; pending: number }[]>`
      select count(*) filter (where e.status = 'ACTIVE')::int as total,
             count(*) filter (where e.status = 'ACTIVE' and e.completed)::int as done,
             coalesce(round(100.0 * count(*) filter (where e.status = 'ACTIVE' and e.completed)
               / nullif(count(*) filter (where e.status = 'ACTIVE'), 0)), 0)::int as rate,
             coalesce(round(avg(e.progress) filter (where e.status = 'ACTIVE')), 0)::int as average,
             count(*) filter (where e.status = 'PENDING')::int as pending
      from public.enrollments e join public.courses c on c.id = e.course_id
      where c.author_id = ${INSTRUCTOR_ID}`)[0];
    // The two figures must differ for the test to tell them apart, and the run's other tests change
    // the instructor's enrolments: add half-way enrolments on this course until they differ.
    let expected = await figures();
    for (let i = 0; i < 5 && expected.rate === expected.average; i++) {
      const { user } = await register();
      await db.sql`insert into public.enrollments (user_id, course_id, status) values (${user.id}, ${id}, 'ACTIVE')`;
      await db.sql`update public.enrollments set status = 'ACTIVE', progress = 50 where user_id = ${user.id} and course_id = ${id}`;
      expected = await figures();
    }
    assert.notEqual(expected.rate, expected.average);
    const answer = await call('GET', '/api/instructor/stats', { token: instructor });
    assert.equal(answer.status, 200);
    assert.ok(expected.pending >= 1);
    assert.ok(expected.done >= 1 && expected.done < expected.total, 'the seed has completed and unfinished enrolments');
    assert.equal(answer.json.pendingRequests, expected.pending);
    assert.equal(answer.json.totalEnrolments, expected.total);
    assert.equal(answer.json.completedEnrolments, expected.done);
    assert.equal(answer.json.completionRate, expected.rate);
    assert.equal(answer.json.averageProgress, expected.average);
    // The old "Average Completion" was the average progress: the two are different figures.
    assert.notEqual(answer.json.completionRate, answer.json.averageProgress);
  } finally {
    await removeCourse(id);
  }
});

closePoolAfterTests();
