// Certificate validity, recertification and revocation through the API, on the real
// platform: the course's validity (validated), the state every learner answer carries, the PDF's
// 'Valid until', recertification (409 unless expiring or expired, then 0 % and a new certificate with
// the earlier one in the history), public verification (valid / expired / revoked, never the reason)
// and the admin's certificate search and revocation (audited). Dates in the past are written straight
// into the database; nothing in the product changes them.
import { app, assert, assertEquals, call, closePoolAfterTests, db, login, pdfText, register, test, unique } from './helpers.ts';

const londonDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });

interface Fixture {
  admin: string;
  learner: string;
  learnerId: string;
  learnerName: string;
  courseId: string;
  enrollmentId: string;
}

/** A published course without modules (12 months' validity) and a new learner who completed it. */
async function completedCourse(months: number | null = 12): Promise<Fixture> {
  const admin = await login('admin');
  const created = await call('POST', '/api/courses', {
    token: admin,
    body: { title: `Manual handling refresher ${unique()}`, description: 'Lifting and moving people safely.', service: 'UKAS', status: 'ACTIVE', certificateValidMonths: months },
  });
  assertEquals(created.status, 201);
  assertEquals(created.json.certificateValidMonths, months);
  const { user, session } = await register();
  const learner = session.access_token;
  const enrolled = await call('POST', `/api/courses/${created.json.id}/enroll`, { token: learner });
  assertEquals(enrolled.status, 201);
  await complete(learner, enrolled.json.id);
  return { admin, learner, learnerId: user.id, learnerName: user.name, courseId: created.json.id, enrollmentId: enrolled.json.id };
}

/** A course without modules steps 20 % per press: five presses complete it. */
async function complete(token: string, enrollmentId: string) {
  let progress = 0;
  for (let i = 0; i < 5; i++) {
    const step = await call('PUT', `/api/enrollments/${enrollmentId}`, { token });
    assertEquals(step.status, 200);
    progress = step.json.progress;
  }
  assertEquals(progress, 100);
}

async function myEnrolment(f: Fixture) {
  const list = await call('GET', `/api/users/${f.learnerId}/enrollments`, { token: f.learner });
  assertEquals(list.status, 200);
  return list.json.find((e: { courseId: string }) => e.courseId === f.courseId);
}

/** Moves the learner's certificate of the course so that it expires `interval` from now. */
async function expireIn(f: Fixture, interval: string) {
  await db.sql`
    update public.certificates
    set issued_at = least(issued_at, now() + ${interval}::interval - interval '1 year'), expires_at = now() + ${interval}::interval
    where user_id = ${f.learnerId}::uuid and course_id = ${f.courseId}::uuid and revoked_at is null
      and issued_at = (select max(issued_at) from public.certificates where user_id = ${f.learnerId}::uuid and course_id = ${f.courseId}::uuid)`;
}

test("the course's validity: null or 1..120 months, refused otherwise with the field named", async () => {
  const admin = await login('admin');
  const base = { title: `Validity ${unique()}`, description: 'A course to check the validity field.', service: 'MISC' };
  for (const bad of [0, 121, 1.5, '12', -3]) {
    const answer = await call('POST', '/api/courses', { token: admin, body: { ...base, certificateValidMonths: bad } });
    assertEquals(answer.status, 400);
    assert(answer.json.fields?.certificateValidMonths, `no field message for ${bad}`);
  }
  const created = await call('POST', '/api/courses', { token: admin, body: base });
  assertEquals([created.status, created.json.certificateValidMonths], [201, null]);
  const id = created.json.id;
  const set = await call('PUT', `/api/courses/${id}`, { token: admin, body: { certificateValidMonths: 24 } });
  assertEquals([set.status, set.json.certificateValidMonths], [200, 24]);
  const kept = await call('PUT', `/api/courses/${id}`, { token: admin, body: { title: `${base.title} renamed` } });
  assertEquals(kept.json.certificateValidMonths, 24);
  const read = await call('GET', `/api/courses/${id}`, { token: admin });
  assertEquals(read.json.certificateValidMonths, 24);
  const cleared = await call('PUT', `/api/courses/${id}`, { token: admin, body: { certificateValidMonths: null } });
  assertEquals([cleared.status, cleared.json.certificateValidMonths], [200, null]);
  assertEquals((await call('PUT', `/api/courses/${id}`, { token: admin, body: { certificateValidMonths: 500 } })).status, 400);
  assertEquals((await call('DELETE', `/api/courses/${id}`, { token: admin })).status, 204);
});

test('a completed course answers its certificate valid until a year ahead, in the lists and the PDF', async () => {
  const f = await completedCourse(12);
  const enrolment = await myEnrolment(f);
  assertEquals([enrolment.completed, enrolment.cycle, enrolment.certificate.state, enrolment.certificate.cycle], [true, 1, 'valid', 1]);
  const expires = new Date(enrolment.certificate.expiresAt);
  const days = (expires.getTime() - Date.now()) / 86_400_000;
  assert(days > 360 && days < 370, `expires in ${days} days`);

  const current = await call('GET', '/api/certificates?scope=current', { token: f.learner });
  assertEquals(current.status, 200);
  const mine = current.json.items.find((c: { courseId: string }) => c.courseId === f.courseId);
  assertEquals([mine.state, mine.current, mine.enrolled, mine.recertifying, mine.revokedAt], ['valid', true, true, false, null]);
  assertEquals((await call('GET', '/api/certificates?scope=history', { token: f.learner })).json.total, 0);
  assertEquals((await call('GET', '/api/certificates?scope=past', { token: f.learner })).status, 400);

  const pdf = await call('GET', `/api/certificates/${mine.id}/pdf`, { token: f.learner });
  assertEquals(pdf.status, 200);
  const download = await app.request(`/api/certificates/${mine.id}/pdf`, { headers: { authorization: `Bearer ${f.learner}` } });
  const bytes = new Uint8Array(await download.arrayBuffer());
  const text = await pdfText(bytes);
  assert(text.includes(`Valid until ${londonDate.format(expires)}`), text);

  const verified = await call('GET', `/api/certificates/verify/${mine.verificationCode}`);
  assertEquals([verified.status, verified.json.state, verified.json.valid, verified.json.expiresAt], [200, 'valid', true, mine.expiresAt]);
});

test('recertification: refused while valid; from expiring, 0 % and a new certificate, the earlier one in the history', async () => {
  const f = await completedCourse(12);
  const refused = await call('POST', `/api/courses/${f.courseId}/recertify`, { token: f.learner });
  assertEquals(refused.status, 409);
  assert(/still valid/.test(refused.json.message), refused.json.message);
  assertEquals((await call('POST', `/api/courses/${f.courseId}/recertify`)).status, 401);
  const other = await register();
  assertEquals((await call('POST', `/api/courses/${f.courseId}/recertify`, { token: other.session.access_token })).status, 404);
  assertEquals((await call('POST', '/api/courses/not-a-uuid/recertify', { token: f.learner })).status, 404);

  await expireIn(f, '30 days');
  const before = await myEnrolment(f);
  assertEquals(before.certificate.state, 'expiring');
  const started = await call('POST', `/api/courses/${f.courseId}/recertify`, { token: f.learner });
  assertEquals(started.status, 200);
  assertEquals([started.json.progress, started.json.completed, started.json.completedAt], [0, false, null]);
  const again = await call('POST', `/api/courses/${f.courseId}/recertify`, { token: f.learner });
  assertEquals([again.status, again.json.message], [409, 'You have already started recertification for this course']);

  const renewing = await myEnrolment(f);
  assertEquals([renewing.cycle, renewing.progress, renewing.certificate.cycle, renewing.certificate.state], [2, 0, 1, 'expiring']);
  const listed = (await call('GET', '/api/certificates?scope=current', { token: f.learner })).json.items
    .find((c: { courseId: string }) => c.courseId === f.courseId);
  assertEquals(listed.recertifying, true);

  await complete(f.learner, f.enrollmentId);
  const done = await myEnrolment(f);
  assertEquals([done.completed, done.cycle, done.certificate.cycle, done.certificate.state], [true, 2, 2, 'valid']);
  const current = (await call('GET', '/api/certificates?scope=current', { token: f.learner })).json;
  const history = (await call('GET', '/api/certificates?scope=history', { token: f.learner })).json;
  const all = (await call('GET', '/api/certificates', { token: f.learner })).json;
  assertEquals([current.total, history.total, all.total], [1, 1, 2]);
  assertEquals([history.items[0].cycle, history.items[0].current, history.items[0].state], [1, false, 'expiring']);
  assertEquals(current.items[0].id, done.certificate.id);
});

test('from an expired certificate too; verification says expired since its date', async () => {
  const f = await completedCourse(6);
  await expireIn(f, '-3 days');
  const enrolment = await myEnrolment(f);
  assertEquals(enrolment.certificate.state, 'expired');
  const code = (await call('GET', '/api/certificates', { token: f.learner })).json.items[0].verificationCode;
  const verified = await call('GET', `/api/certificates/verify/${code}`);
  assertEquals([verified.json.state, verified.json.valid], ['expired', false]);
  assert(new Date(verified.json.expiresAt).getTime() < Date.now());
  assertEquals((await call('POST', `/api/courses/${f.courseId}/recertify`, { token: f.learner })).status, 200);
});

test('admin certificates: search by learner name or code, paged; revoke with a reason, audited; verification says revoked', async () => {
  const f = await completedCourse(12);
  const code = (await call('GET', '/api/certificates', { token: f.learner })).json.items[0].verificationCode as string;

  assertEquals((await call('GET', '/api/admin/certificates', { token: f.learner })).status, 403);
  assertEquals((await call('GET', '/api/admin/certificates')).status, 401);
  assertEquals((await call('GET', '/api/admin/certificates?page=0', { token: f.admin })).status, 400);
  assertEquals((await call('GET', '/api/admin/certificates?pageSize=101', { token: f.admin })).status, 400);
  const byName = await call('GET', `/api/admin/certificates?search=${encodeURIComponent(f.learnerName.toUpperCase())}`, { token: f.admin });
  assertEquals([byName.status, byName.json.total, byName.json.items[0].verificationCode], [200, 1, code]);
  const byCode = await call('GET', `/api/admin/certificates?search=${code.slice(2, 12).toLowerCase()}`, { token: f.admin });
  assertEquals(byCode.json.items.map((c: { verificationCode: string }) => c.verificationCode), [code]);
  const first = await call('GET', '/api/admin/certificates?pageSize=1&page=1', { token: f.admin });
  assertEquals([first.json.items.length, first.json.pageSize], [1, 1]);
  assert(first.json.total >= 1);
  const id = byName.json.items[0].id as string;

  assertEquals((await call('POST', `/api/admin/certificates/${id}/revoke`, { token: f.learner, body: { reason: 'No' } })).status, 403);
  const empty = await call('POST', `/api/admin/certificates/${id}/revoke`, { token: f.admin, body: { reason: '   ' } });
  assertEquals([empty.status, typeof empty.json.fields?.reason], [400, 'string']);
  assertEquals((await call('POST', `/api/admin/certificates/${id}/revoke`, { token: f.admin, body: { reason: 'x'.repeat(501) } })).status, 400);
  assertEquals((await call('POST', `/api/admin/certificates/${id}/revoke`, { token: f.admin, body: {} })).status, 400);
  assertEquals((await call('POST', `/api/admin/certificates/${id}/revoke`, { token: f.admin, raw: 'reason', headers: { 'content-type': 'application/json' } })).status, 400);
  assertEquals((await call('POST', '/api/admin/certificates/nope/revoke', { token: f.admin, body: { reason: 'Gone' } })).status, 404);
  assertEquals((await call('POST', '/api/admin/certificates/60000000-0000-4000-a000-0000000000ff/revoke', { token: f.admin, body: { reason: 'Gone' } })).status, 404);

  const reason = `Issued in error ${unique()}`;
  const revoked = await call('POST', `/api/admin/certificates/${id}/revoke`, { token: f.admin, body: { reason } });
  assertEquals(revoked.status, 200);
  assertEquals([revoked.json.state, revoked.json.revokedReason, revoked.json.revokedBy?.id], ['revoked', reason, '00000000-0000-4000-a000-000000000001']);
  assertEquals((await call('POST', `/api/admin/certificates/${id}/revoke`, { token: f.admin, body: { reason } })).status, 409);

  const verified = await call('GET', `/api/certificates/verify/${code}`);
  assertEquals([verified.json.state, verified.json.valid], ['revoked', false]);
  assert(verified.json.revokedAt);
  assert(!verified.text.includes(reason), 'the reason is not published');

  const audit = await call('GET', '/api/audit?pageSize=50', { token: f.admin });
  const event = audit.json.items.find((e: { action: string; targetId: string }) => e.action === 'certificate.revoked' && e.targetId === id);
  assertEquals(event?.newData?.reason, reason);

  const mine = await myEnrolment(f);
  assertEquals(mine.certificate.state, 'revoked');
  assertEquals((await call('GET', `/api/certificates/${id}/pdf`, { token: f.learner })).status, 409);
  const refused = await call('POST', `/api/courses/${f.courseId}/recertify`, { token: f.learner });
  assertEquals(refused.status, 409);
});

test('a recertifying learner reads the module and passes its quiz again: earlier passes do not count', async () => {
  const admin = await login('admin');
  const course = (await call('POST', '/api/courses', {
    token: admin,
    body: { title: `Quiz recertification ${unique()}`, description: 'A course with one module and its quiz.', service: 'UKFRS', status: 'ACTIVE', certificateValidMonths: 12 },
  })).json;
  const module = (await call('POST', `/api/courses/${course.id}/modules`, {
    token: admin,
    body: { title: 'Breathing apparatus checks', content: 'Check the cylinder, the gauge and the warning whistle before entry.' },
  })).json;
  const quiz = (await call('PUT', `/api/modules/${module.id}/quiz`, { token: admin, body: { title: 'Apparatus check', passingScore: 100 } })).json;
  assertEquals((await call('POST', `/api/quizzes/${quiz.id}/questions`, {
    token: admin,
    body: { questionText: 'Is the whistle tested before entry?', questionType: 'TRUE_FALSE', options: [{ text: 'True', isCorrect: true }, { text: 'False', isCorrect: false }], points: 1 },
  })).status, 201);
  const { user, session } = await register();
  const learner = session.access_token;
  const enrolment = (await call('POST', `/api/courses/${course.id}/enroll`, { token: learner })).json;
  const f: Fixture = { admin, learner, learnerId: user.id, learnerName: user.name, courseId: course.id, enrollmentId: enrolment.id };

  /** Reads the module, opens the quiz and answers it; the quiz's `passed` before answering. */
  async function pass(): Promise<boolean> {
    assertEquals((await call('POST', `/api/modules/${module.id}/complete`, { token: learner })).status, 200);
    const opened = await call('GET', `/api/modules/${module.id}/quiz`, { token: learner });
    assertEquals(opened.status, 200);
    const questionId = opened.json.questions[0].id as string;
    const answered = await call('POST', `/api/quizzes/${quiz.id}/attempts`, { token: learner, body: { answers: { [questionId]: 0 } } });
    assertEquals([answered.status, answered.json.passed], [201, true]);
    return opened.json.passed;
  }

  assertEquals(await pass(), false);
  assertEquals((await myEnrolment(f)).completed, true);
  await expireIn(f, '10 days');
  assertEquals((await call('POST', `/api/courses/${course.id}/recertify`, { token: learner })).status, 200);

  const outline = await call('GET', `/api/courses/${course.id}/modules`, { token: learner });
  assertEquals(outline.json.map((m: { completed: boolean; read: boolean; quizPassed: boolean }) => [m.completed, m.read, m.quizPassed]), [[false, false, false]]);
  // Reading alone no longer completes the course: the quiz must be passed in this cycle.
  assertEquals((await call('POST', `/api/modules/${module.id}/complete`, { token: learner })).json.progress, 0);
  assertEquals(await pass(), false);
  const done = await myEnrolment(f);
  assertEquals([done.completed, done.cycle, done.certificate.cycle], [true, 2, 2]);
  const [attempts] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from public.quiz_attempts where quiz_id = ${quiz.id}::uuid and user_id = ${user.id}::uuid and completed_at is not null`;
  assertEquals(attempts.n, 2);
  // A course with learner records is archived, never deleted (409); the owner erases the fixture.
  assertEquals((await call('DELETE', `/api/courses/${course.id}`, { token: admin })).status, 409);
  await db.sql`select private.erase_course(${course.id}::uuid)`;
});

closePoolAfterTests();
