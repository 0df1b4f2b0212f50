// Mandatory training and compliance endpoints against the real platform: rules managed by admins and
// (for their own courses and services) instructors, auto-enrolment, the learner's list with statuses
// from certificates written straight into the database, the compliance counts, drill-down and CSV
// export under each caller's rights, and refusals (400/401/403/404/409).
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, login, register, test, unique } from './helpers.ts';

const ADMIN_ID = '00000000-0000-4000-a000-000000000001';
const INSTRUCTOR_ID = '00000000-0000-4000-a000-000000000002';

const admin = await login('admin');
const instructor = await login('instructor');
const student = await login('student');

// Our own courses, so the suite never changes what other suites see: one UKAS course by the admin
// (certificates valid 12 months), one MISC course by the instructor, one draft.
const tag = unique();
async function makeCourse(title: string, service: string, author: string, status = 'ACTIVE'): Promise<string> {
  const [row] = await db.sql<{ id: string }[]>`
    insert into public.courses (title, description, service, author_id, status, certificate_valid_months)
    values (${title}, 'A course made by the compliance tests.', ${service}, ${author}, ${status}, 12)
    returning id`;
  return row.id;
}
const ukasCourse = await makeCourse(`Compliance UKAS ${tag}`, 'UKAS', ADMIN_ID);
const miscCourse = await makeCourse(`Compliance MISC ${tag}`, 'MISC', INSTRUCTOR_ID);
const draftCourse = await makeCourse(`Compliance draft ${tag}`, 'UKAS', ADMIN_ID, 'DRAFT');

// Two ambulance learners (one with a name that a spreadsheet would run as a formula), one in MISC.
const amy = await register();
const ben = await register();
const mo = await register();
await db.sql`update public.profiles set services = '{UKAS}', name = '=HYPERLINK("http://x.test","Amy")' where id = ${amy.user.id}`;
await db.sql`update public.profiles set services = '{UKAS}' where id = ${ben.user.id}`;
await db.sql`update public.profiles set services = '{MISC}' where id = ${mo.user.id}`;
const amyToken = amy.session.access_token as string;
const moToken = mo.session.access_token as string;

async function certify(userId: string, courseId: string, issuedDaysAgo: number, expiresInDays: number) {
  await db.sql`delete from public.certificates where user_id = ${userId} and course_id = ${courseId}`;
  await db.sql`
    insert into public.certificates (user_id, course_id, learner_name, course_title, issued_at, expires_at)
    values (${userId}, ${courseId}, 'Test', 'Test', now() - make_interval(days => ${issuedDaysAgo}),
            now() + make_interval(days => ${expiresInDays}))`;
}

let adminRuleId = '';

test('visitors get 401 and learners 403 from the management and compliance endpoints', async () => {
  const paths = ['/api/required-training', '/api/compliance', '/api/compliance/people', '/api/compliance/export.csv'];
  for (const path of paths) {
    assert.equal((await call('GET', path)).status, 401, path);
    const refused = await call('GET', path, { token: student });
    assert.equal(refused.status, 403, path);
    assert.ok(refused.json.message.length > 0);
  }
  assert.equal((await call('GET', '/api/me/required-training')).status, 401);
  const post = await call('POST', '/api/required-training', { token: student, body: { courseId: ukasCourse, service: 'UKAS' } });
  assert.equal(post.status, 403);
});

test('POST /api/required-training validates the body (400) and refuses a draft course', async () => {
  const bad: [unknown, string][] = [
    [{ courseId: ukasCourse }, 'role'],
    [{ courseId: 'nope', service: 'UKAS' }, 'courseId'],
    [{ courseId: ukasCourse, service: 'NOPE' }, 'service'],
    [{ courseId: ukasCourse, role: 'KING' }, 'role'],
    [{ courseId: ukasCourse, service: 'UKAS', dueWithinDays: 0 }, 'dueWithinDays'],
    [{ courseId: ukasCourse, service: 'UKAS', dueWithinDays: 2.5 }, 'dueWithinDays'],
    [{ courseId: ukasCourse, service: 'UKAS', renewBeforeDays: 400 }, 'renewBeforeDays'],
    [{ courseId: draftCourse, service: 'UKAS' }, 'courseId'],
  ];
  for (const [body, field] of bad) {
    const answer = await call('POST', '/api/required-training', { token: admin, body });
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.ok(answer.json.fields?.[field], `${JSON.stringify(body)} -> ${answer.text}`);
  }
  const extra = await call('POST', '/api/required-training', { token: admin, body: { courseId: ukasCourse, service: 'UKAS', createdBy: INSTRUCTOR_ID } });
  assert.equal(extra.status, 400);
  const notJson = await call('POST', '/api/required-training', { token: admin, raw: 'x', headers: { 'content-type': 'text/plain' } });
  assert.equal(notJson.status, 400);
});

test('an admin requires a course for a service: everyone in it is enrolled, and sees it as due', async () => {
  const answer = await call('POST', '/api/required-training', { token: admin, body: { courseId: ukasCourse, service: 'UKAS' } });
  assert.equal(answer.status, 201, answer.text);
  adminRuleId = answer.json.id;
  assert.equal(answer.json.course.id, ukasCourse);
  assert.equal(answer.json.service, 'UKAS');
  assert.equal(answer.json.role, null);
  assert.equal(answer.json.dueWithinDays, 30);
  assert.equal(answer.json.canManage, true);
  assert.ok(answer.json.enrolled >= 2);
  const enrolled = await db.sql<{ userId: string }[]>`
    select user_id from public.enrollments where course_id = ${ukasCourse} and status = 'ACTIVE'`;
  const ids = enrolled.map((r) => r.userId);
  assert.ok(ids.includes(amy.user.id) && ids.includes(ben.user.id));
  assert.ok(!ids.includes(mo.user.id));

  const again = await call('POST', '/api/required-training', { token: admin, body: { courseId: ukasCourse, service: 'UKAS' } });
  assert.equal(again.status, 409);

  const mine = await call('GET', '/api/me/required-training', { token: amyToken });
  assert.equal(mine.status, 200);
  const item = mine.json.items.find((i: { course: { id: string } }) => i.course.id === ukasCourse);
  assert.equal(item.status, 'due-soon'); // a 30-day joiner period is due within 30 days
  assert.ok(Math.abs(new Date(item.dueAt).getTime() - (Date.now() + 30 * 86_400_000)) < 86_400_000);
  assert.ok(mine.json.attention >= 1);
  assert.equal(mine.json.counts['due-soon'] >= 1, true);

  const moList = await call('GET', '/api/me/required-training', { token: moToken });
  assert.deepEqual(moList.json.items, []);
  assert.equal(moList.json.attention, 0);
});

test('statuses follow the certificates: expired is overdue, valid is done with its expiry', async () => {
  await certify(amy.user.id, ukasCourse, 400, -20);
  await certify(ben.user.id, ukasCourse, 30, 335);
  const amyList = await call('GET', '/api/me/required-training', { token: amyToken });
  const amyItem = amyList.json.items.find((i: { course: { id: string } }) => i.course.id === ukasCourse);
  assert.equal(amyItem.status, 'overdue');
  assert.equal(amyItem.certified, true);

  const summary = await call('GET', `/api/compliance?courseId=${ukasCourse}`, { token: admin });
  assert.equal(summary.status, 200, summary.text);
  const ukas = summary.json.items.find((r: { service: string }) => r.service === 'UKAS');
  const [expected] = await db.sql<{ people: number }[]>`
    select count(*)::int as people from public.profiles where services @> '{UKAS}'`;
  assert.equal(ukas.people, expected.people);
  assert.ok(ukas.overdue >= 1);
  assert.ok(ukas.compliant >= 1);
  assert.equal(ukas.compliant + ukas.dueSoon + ukas.overdue + ukas.inProgress, ukas.people);

  const overdue = await call('GET', `/api/compliance/people?courseId=${ukasCourse}&status=overdue`, { token: admin });
  assert.equal(overdue.status, 200);
  assert.deepEqual(overdue.json.items.map((p: { user: { id: string } }) => p.user.id), [amy.user.id]);
  const done = await call('GET', `/api/compliance/people?courseId=${ukasCourse}&status=done`, { token: admin });
  const benRow = done.json.items.find((p: { user: { id: string } }) => p.user.id === ben.user.id);
  assert.ok(benRow.validUntil);
  assert.equal(benRow.user.email, ben.input.email);

  const page = await call('GET', `/api/compliance/people?courseId=${ukasCourse}&pageSize=1&page=2`, { token: admin });
  assert.equal(page.json.items.length, 1);
  assert.equal(page.json.total, expected.people);
  assert.equal(page.json.page, 2);
});

test('compliance queries refuse bad filters with 400, never 500', async () => {
  for (const q of ['service=NOPE', 'role=KING', 'courseId=1', 'status=late', 'page=0', 'pageSize=101', 'page=x']) {
    const answer = await call('GET', `/api/compliance/people?${q}`, { token: admin });
    assert.equal(answer.status, 400, q);
    assert.ok(answer.json.fields, q);
  }
  assert.equal((await call('GET', '/api/compliance?service=', { token: admin })).status, 200);
  assert.equal((await call('GET', '/api/compliance/export.csv?status=nope', { token: admin })).status, 400);
});

test('the CSV export is UTF-8 with a header row, ISO dates and formulas neutralised', async () => {
  const answer = await call('GET', `/api/compliance/export.csv?courseId=${ukasCourse}`, { token: admin });
  assert.equal(answer.status, 200);
  assert.match(answer.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/);
  assert.match(answer.headers.get('content-disposition') ?? '', /attachment; filename="compliance-\d{4}-\d{2}-\d{2}\.csv"/);
  assert.ok(answer.text.startsWith('\uFEFFName,Username,Email,Role,Services,Course,Status,Due date,Valid until,Progress (%),Recognised from\r\n'));
  const lines = answer.text.split('\r\n');
  const amyLine = lines.find((l) => l.includes(amy.input.username))!;
  assert.ok(amyLine.startsWith(`"'=HYPERLINK(""http://x.test"",""Amy"")"`), amyLine);
  assert.match(amyLine, /,Overdue,\d{4}-\d{2}-\d{2},/);
  const benLine = lines.find((l) => l.includes(ben.input.username))!;
  assert.match(benLine, /,Done,\d{4}-\d{2}-\d{2},\d{4}-\d{2}-\d{2},0,$/);
});

test('instructors manage rules only for their own courses in their own services', async () => {
  const otherService = await call('POST', '/api/required-training', { token: instructor, body: { courseId: miscCourse, service: 'UKAS' } });
  assert.equal(otherService.status, 403);
  const roleOnly = await call('POST', '/api/required-training', { token: instructor, body: { courseId: miscCourse, role: 'STUDENT' } });
  assert.equal(roleOnly.status, 403);
  const notTheirs = await call('POST', '/api/required-training', { token: instructor, body: { courseId: ukasCourse, service: 'MISC' } });
  assert.equal(notTheirs.status, 403);

  const created = await call('POST', '/api/required-training', { token: instructor, body: { courseId: miscCourse, service: 'MISC', dueWithinDays: 60 } });
  assert.equal(created.status, 201, created.text);
  const id = created.json.id;
  assert.equal(created.json.createdBy?.id, INSTRUCTOR_ID);

  const changed = await call('PUT', `/api/required-training/${id}`, { token: instructor, body: { dueWithinDays: 90, renewBeforeDays: 14 } });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.json.dueWithinDays, 90);
  assert.equal(changed.json.renewBeforeDays, 14);
  assert.equal((await call('PUT', `/api/required-training/${id}`, { token: instructor, body: { service: 'UKAS' } })).status, 403);
  assert.equal((await call('PUT', `/api/required-training/${id}`, { token: instructor, body: {} })).status, 400);
  assert.equal((await call('PUT', `/api/required-training/${id}`, { token: instructor, body: { role: null, service: null } })).status, 400);

  // The admin's UKAS rule is not theirs (they are not in UKAS, so they cannot even see it).
  assert.equal((await call('DELETE', `/api/required-training/${adminRuleId}`, { token: instructor })).status, 404);
  assert.equal((await call('PUT', `/api/required-training/${crypto.randomUUID()}`, { token: admin, body: { dueWithinDays: 5 } })).status, 404);
  assert.equal((await call('DELETE', '/api/required-training/not-an-id', { token: admin })).status, 404);

  const list = await call('GET', `/api/required-training?courseId=${miscCourse}`, { token: instructor });
  assert.equal(list.status, 200);
  assert.deepEqual(list.json.items.map((r: { id: string }) => r.id), [id]);
  assert.equal(list.json.items[0].canManage, true);

  // The learner in MISC now has it, in progress (90 days).
  const moList = await call('GET', '/api/me/required-training', { token: moToken });
  assert.equal(moList.json.items.find((i: { course: { id: string } }) => i.course.id === miscCourse)?.status, 'in-progress');

  assert.equal((await call('DELETE', `/api/required-training/${id}`, { token: instructor })).status, 204);
  assert.equal((await call('DELETE', `/api/required-training/${id}`, { token: instructor })).status, 404);
});

test('an instructor\'s compliance view and export hold only the people of their services', async () => {
  // The seed instructor is in UKPS and MISC: the UKAS staff are not theirs.
  const summary = await call('GET', `/api/compliance?courseId=${ukasCourse}`, { token: instructor });
  assert.equal(summary.status, 200);
  assert.ok(summary.json.items.every((r: { service: string }) => r.service === 'UKPS' || r.service === 'MISC'));
  const people = await call('GET', `/api/compliance/people?courseId=${ukasCourse}&pageSize=100`, { token: instructor });
  const seen = people.json.items.map((p: { user: { id: string } }) => p.user.id);
  assert.ok(!seen.includes(amy.user.id) && !seen.includes(ben.user.id));
  assert.ok(people.json.items.every((p: { user: { email: string | null } }) => p.user.email === null));
  const csv = await call('GET', `/api/compliance/export.csv?courseId=${ukasCourse}`, { token: instructor });
  assert.equal(csv.status, 200);
  assert.ok(!csv.text.includes(amy.input.username) && !csv.text.includes(ben.input.username));
});

// Organisations: A (area > station > watch, and a second station) and B, each with an
// administrator; a learner in A's watch, one in A's second station, one in B.
const orgA = crypto.randomUUID();
const orgB = crypto.randomUUID();
const [areaA, stationA, watchA, station2A, areaB] = [1, 2, 3, 4, 5].map(() => crypto.randomUUID());
await db.sql`insert into public.organisations (id, name, code, service) values
  (${orgA}, ${`Compliance Police ${tag}`}, ${`CP${tag.slice(-6)}`.replace(/[^A-Za-z0-9-]/g, '')}, 'UKPS'),
  (${orgB}, ${`Compliance Ambulance ${tag}`}, ${`CA${tag.slice(-6)}`.replace(/[^A-Za-z0-9-]/g, '')}, 'UKAS')`;
await db.sql`insert into public.units (id, organisation_id, parent_id, name) values
  (${areaA}, ${orgA}, null, 'North Area'), (${stationA}, ${orgA}, ${areaA}, 'Central Station'),
  (${watchA}, ${orgA}, ${stationA}, 'Red Watch'), (${station2A}, ${orgA}, ${areaA}, 'Harbour Station'),
  (${areaB}, ${orgB}, null, 'East Division')`;
const orgAdminA = await register();
const orgAdminB = await register();
const watchLearner = await register();
const station2Learner = await register();
const learnerB = await register();
for (const [who, role, org, unit] of [
  [orgAdminA, 'ADMIN', orgA, null], [orgAdminB, 'ADMIN', orgB, null], [watchLearner, 'STUDENT', orgA, watchA],
  [station2Learner, 'STUDENT', orgA, station2A], [learnerB, 'STUDENT', orgB, areaB],
] as const) {
  await db.sql`update public.profiles set role = ${role}, organisation_id = ${org}, unit_id = ${unit}, services = '{UKPS}' where id = ${who.user.id}`;
}
const orgAdminAToken = orgAdminA.session.access_token as string;
const orgAdminBToken = orgAdminB.session.access_token as string;
const orgCourse = await makeCourse(`Compliance station course ${tag}`, 'UKPS', ADMIN_ID);

test('an organisation administrator makes a rule for one station of their organisation (and only theirs)', async () => {
  const bad: [unknown, string][] = [
    [{ courseId: orgCourse, unitId: 'x' }, 'unitId'],
    [{ courseId: orgCourse, organisationId: 'nope' }, 'organisationId'],
    [{ courseId: orgCourse, organisationId: null, unitId: stationA }, 'organisationId'],
    [{ courseId: orgCourse, organisationId: orgA, unitId: areaB }, 'unitId'],
  ];
  for (const [body, field] of bad) {
    const answer = await call('POST', '/api/required-training', { token: orgAdminAToken, body });
    assert.equal(answer.status, 400, `${JSON.stringify(body)} -> ${answer.text}`);
    assert.ok(answer.json.fields?.[field], `${JSON.stringify(body)} -> ${answer.text}`);
  }
  assert.equal((await call('POST', '/api/required-training', { token: orgAdminAToken, body: { courseId: orgCourse, organisationId: orgB } })).status, 403);
  assert.equal((await call('POST', '/api/required-training', { token: orgAdminAToken, body: { courseId: orgCourse, organisationId: null, service: 'UKPS' } })).status, 403);

  // No organisation named: their own.
  const created = await call('POST', '/api/required-training', { token: orgAdminAToken, body: { courseId: orgCourse, unitId: stationA } });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.json.organisation, { id: orgA, name: `Compliance Police ${tag}` });
  assert.deepEqual(created.json.unit, { id: stationA, name: 'Central Station' });
  assert.equal(created.json.canManage, true);
  const enrolled = await db.sql<{ userId: string }[]>`select user_id from public.enrollments where course_id = ${orgCourse}`;
  const enrolledIds = enrolled.map((r) => r.userId);
  assert.ok(enrolledIds.includes(watchLearner.user.id));
  assert.ok(!enrolledIds.includes(station2Learner.user.id) && !enrolledIds.includes(learnerB.user.id));

  // B's administrator sees nothing of it, and cannot change or remove it.
  const listB = await call('GET', `/api/required-training?courseId=${orgCourse}`, { token: orgAdminBToken });
  assert.equal(listB.status, 200);
  assert.deepEqual(listB.json.items, []);
  assert.equal((await call('PUT', `/api/required-training/${created.json.id}`, { token: orgAdminBToken, body: { dueWithinDays: 5 } })).status, 404);
  assert.equal((await call('DELETE', `/api/required-training/${created.json.id}`, { token: orgAdminBToken })).status, 404);
  // A's administrator cannot change the admin's national rule they can read.
  assert.equal((await call('PUT', `/api/required-training/${adminRuleId}`, { token: orgAdminAToken, body: { dueWithinDays: 5 } })).status, 403);
});

test('compliance by organisation and unit: the breakdown, the filters, and 400 / 403 / 404', async () => {
  const top = await call('GET', '/api/compliance/units', { token: orgAdminAToken });
  assert.equal(top.status, 200, top.text);
  const area = top.json.items.find((r: { unitId: string; course: { id: string } }) => r.unitId === areaA && r.course.id === orgCourse);
  assert.deepEqual({ ...area, course: area.course.id }, {
    organisationId: orgA, unitId: areaA, name: 'North Area', hasUnits: true, course: orgCourse,
    people: 1, compliant: 0, dueSoon: 1, overdue: 0, inProgress: 0,
  });
  const station = await call('GET', `/api/compliance/units?unitId=${stationA}&courseId=${orgCourse}`, { token: orgAdminAToken });
  assert.deepEqual(station.json.items.map((r: { unitId: string; people: number }) => [r.unitId, r.people]), [[watchA, 1]]);
  // Nobody of B in A's figures; B's organisation and units are not A's to ask for.
  const people = await call('GET', `/api/compliance/people?pageSize=100`, { token: orgAdminAToken });
  assert.equal(people.status, 200);
  assert.ok(!people.json.items.some((p: { user: { id: string } }) => p.user.id === learnerB.user.id));
  const summary = await call('GET', `/api/compliance?organisationId=${orgB}`, { token: orgAdminAToken });
  assert.equal(summary.status, 200);
  assert.deepEqual(summary.json.items, []);
  assert.equal((await call('GET', `/api/compliance/units?organisationId=${orgB}`, { token: orgAdminAToken })).status, 404);
  assert.equal((await call('GET', `/api/compliance/units?unitId=${areaB}`, { token: orgAdminAToken })).status, 404);
  for (const q of ['organisationId=1', 'unitId=nope', 'service=NOPE', 'courseId=x']) {
    for (const path of ['/api/compliance/units', '/api/compliance', '/api/compliance/people']) {
      const answer = await call('GET', `${path}?${q}`, { token: orgAdminAToken });
      assert.equal(answer.status, 400, `${path}?${q}`);
      assert.ok(answer.json.fields, `${path}?${q}`);
    }
  }
  // Instructors keep their services' view, but not the breakdown; learners get 403 too.
  assert.equal((await call('GET', '/api/compliance/units', { token: instructor })).status, 403);
  assert.equal((await call('GET', '/api/compliance/units', { token: student })).status, 403);

  // The national administrator: by organisation first, then filtered to A's watch.
  const national = await call('GET', `/api/compliance/units?courseId=${orgCourse}`, { token: admin });
  assert.deepEqual(national.json.items.map((r: { organisationId: string; people: number }) => [r.organisationId, r.people]), [[orgA, 1]]);
  const watch = await call('GET', `/api/compliance?organisationId=${orgA}&unitId=${watchA}&courseId=${orgCourse}`, { token: admin });
  assert.deepEqual(watch.json.items.map((r: { service: string; people: number }) => [r.service, r.people]), [['UKPS', 1]]);
  const watchPeople = await call('GET', `/api/compliance/people?unitId=${watchA}&courseId=${orgCourse}`, { token: admin });
  assert.deepEqual(watchPeople.json.items.map((p: { user: { id: string } }) => p.user.id), [watchLearner.user.id]);
});

test('(clean up the compliance fixtures)', async () => {
  await db.sql`delete from public.required_training where course_id = ${orgCourse}`;
  await db.sql`select private.erase_course(id) from public.courses where id = ${orgCourse}`;
  await db.sql`update public.profiles set organisation_id = null, unit_id = null, role = 'STUDENT'
    where id in (${orgAdminA.user.id}, ${orgAdminB.user.id}, ${watchLearner.user.id}, ${station2Learner.user.id}, ${learnerB.user.id})`;
  await db.sql`delete from public.units where organisation_id in (${orgA}, ${orgB})`;
  await db.sql`delete from public.organisations where id in (${orgA}, ${orgB})`;
  await db.sql`delete from public.required_training where course_id in (${ukasCourse}, ${miscCourse}, ${draftCourse})`;
  await db.sql`delete from public.certificates where course_id in (${ukasCourse}, ${miscCourse})`;
  await db.sql`select private.erase_course(id) from public.courses where id in (${ukasCourse}, ${miscCourse}, ${draftCourse})`;
});

closePoolAfterTests();
