// The learner's records API against the real platform: enrolments, certificates (list, PDF in each
// template, public verification) and the profile (name, email through Auth, password).

import { assert, assertEquals, assertMatch, assertNotEquals, call, closePoolAfterTests, db, login, pdfText, register, test, unique, uniqueIp } from './helpers.ts';

const STUDENT = '00000000-0000-4000-a000-000000000003';
const CERTIFICATE = '60000000-0000-4000-a000-000000000001';
const CODE = 'DEMO2026CERT0001';
const AIRWAVE = '10000000-0000-4000-a000-000000000003';
const JESIP = '10000000-0000-4000-a000-000000000001';

/** Enrols the user as they would through the API: one insert under their own RLS. */
async function enrolAs(token: string, userId: string, courseId: string): Promise<string> {
  const claims = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
  const [row] = await db.withCaller({ role: 'authenticated', claims }, (tx) =>
    tx<{ id: string }[]>`insert into public.enrollments (user_id, course_id) values (${userId}::uuid, ${courseId}::uuid) returning id`);
  return row.id;
}

async function setTemplate(template: string) {
  await db.sql`update public.settings set certificate_template = ${template}::public.certificate_template where id`;
}

test('enrolments: the learner sees their own, each with its course, module count, modules done and certificate', async () => {
  const token = await login('student');
  const answer = await call('GET', `/api/users/${STUDENT}/enrollments`, { token });
  assertEquals(answer.status, 200);
  const list = answer.json as Array<Record<string, any>>;
  assert(list.length >= 3, `expected the seed's three enrolments, got ${list.length}`);
  const airwave = list.find((e) => e.courseId === AIRWAVE)!;
  assertEquals(airwave.progress, 100);
  assertEquals(airwave.completed, true);
  assertEquals(airwave.status, 'ACTIVE');
  assertEquals(airwave.certificateId, CERTIFICATE);
  assertEquals(airwave.course.title, 'Airwave Radio Voice Procedure');
  assertEquals(airwave.course.service, 'UKPS');
  assertEquals(airwave.course.modules, 3);
  assertEquals(airwave.completedModules, 3);
  assertMatch(airwave.completedAt, /^\d{4}-\d{2}-\d{2}T/);
  assertMatch(airwave.lastActivityAt, /^\d{4}-\d{2}-\d{2}T/);
  const jesip = list.find((e) => e.courseId === JESIP)!;
  assertEquals(jesip.progress, 50);
  assertEquals(jesip.completed, false);
  assertEquals(jesip.completedModules, 2);
  assertEquals(jesip.course.modules, 4);
  assertEquals(jesip.certificateId, null);
  assert(list.every((e) => e.userId === STUDENT));
});

test("enrolments: another learner is refused the student's (403); the course's instructor sees them; visitors 401; bad ids 404", async () => {
  const other = await register();
  assertEquals((await call('GET', `/api/users/${STUDENT}/enrollments`, { token: other.session.access_token })).status, 403);
  const instructor = await login('instructor');
  const seen = await call('GET', `/api/users/${STUDENT}/enrollments`, { token: instructor });
  assertEquals(seen.status, 200);
  assert(seen.json.some((e: { courseId: string }) => e.courseId === AIRWAVE), 'the author of Airwave sees that enrolment');
  assertEquals((await call('GET', `/api/users/${STUDENT}/enrollments`)).status, 401);
  const bad = await call('GET', '/api/users/not-a-uuid/enrollments', { token: other.session.access_token });
  assertEquals(bad.status, 404);
  assertEquals(bad.json.message, 'User not found');
  const mine = await call('GET', `/api/users/${other.user.id}/enrollments`, { token: other.session.access_token });
  assertEquals(mine.status, 200);
  assertEquals(mine.json, []);
});

test('unenrol: only the learner (RLS) removes their enrolment; others and repeats are 404', async () => {
  const learner = await register();
  const other = await register();
  const id = await enrolAs(learner.session.access_token, learner.user.id, JESIP);
  const listed = await call('GET', `/api/users/${learner.user.id}/enrollments`, { token: learner.session.access_token });
  assertEquals(listed.json.length, 1);
  assertEquals(listed.json[0].progress, 0);
  assertEquals(listed.json[0].completedModules, 0);
  assertEquals((await call('DELETE', `/api/enrollments/${id}`, { token: other.session.access_token })).status, 404);
  assertEquals((await call('DELETE', `/api/enrollments/${id}`)).status, 401);
  assertEquals((await call('DELETE', '/api/enrollments/123', { token: learner.session.access_token })).status, 404);
  assertEquals((await call('DELETE', `/api/enrollments/${id}`, { token: learner.session.access_token })).status, 204);
  assertEquals((await call('DELETE', `/api/enrollments/${id}`, { token: learner.session.access_token })).status, 404);
  assertEquals((await call('GET', `/api/users/${learner.user.id}/enrollments`, { token: learner.session.access_token })).json, []);
});

test('certificates: the caller\'s own, paged; bad paging is 400; visitors 401', async () => {
  const token = await login('student');
  const answer = await call('GET', '/api/certificates', { token });
  assertEquals(answer.status, 200);
  assertEquals(answer.json.total, 1);
  assertEquals(answer.json.page, 1);
  assertEquals(answer.json.pageSize, 20);
  const [cert] = answer.json.items;
  assertEquals(cert.id, CERTIFICATE);
  assertEquals(cert.verificationCode, CODE);
  assertEquals(cert.learnerName, 'Sam Patel');
  assertEquals(cert.courseTitle, 'Airwave Radio Voice Procedure');
  assertEquals(cert.serviceLabel, 'United Kingdom Police Service');
  assertEquals(cert.verifyPath, `/verify/${CODE}`);
  const second = await call('GET', '/api/certificates?page=2&pageSize=1', { token });
  assertEquals(second.json.items, []);
  assertEquals(second.json.total, 1);
  const bad = await call('GET', '/api/certificates?pageSize=0&page=x', { token });
  assertEquals(bad.status, 400);
  assertEquals(bad.json.fields.pageSize, 'Page size must be between 1 and 100');
  assertEquals(bad.json.fields.page, 'Page must be a whole number of at least 1');
  assertEquals((await call('GET', '/api/certificates?pageSize=101', { token })).status, 400);
  // The admin may read every certificate under RLS, but this list is the caller's own.
  const admin = await login('admin');
  assertEquals((await call('GET', '/api/certificates', { token: admin })).json.total, 0);
  const newcomer = await register();
  assertEquals((await call('GET', '/api/certificates', { token: newcomer.session.access_token })).json.total, 0);
  assertEquals((await call('GET', '/api/certificates')).status, 401);
});

test('certificate PDF: an attachment with name, course, service, en-GB date, code and verify URL', async () => {
  const token = await login('student');
  const response = await call('GET', `/api/certificates/${CERTIFICATE}/pdf`, { token });
  assertEquals(response.status, 200);
  assertEquals(response.headers.get('content-type'), 'application/pdf');
  assertEquals(
    response.headers.get('content-disposition'),
    `attachment; filename="certificate-airwave-radio-voice-procedure-${CODE}.pdf"`,
  );
  const raw = await app_pdf(token);
  assertEquals(new TextDecoder().decode(raw.slice(0, 5)), '%PDF-');
  assert(new TextDecoder('latin1').decode(raw).includes(`/VerificationCode (${CODE})`));
  const text = await pdfText(raw);
  const [row] = await db.sql<{ issuedAt: Date }[]>`select issued_at from public.certificates where id = ${CERTIFICATE}::uuid`;
  const date = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' })
    .format(row.issuedAt);
  assertMatch(date, /^\d{1,2} [A-Z][a-z]+ \d{4}$/);
  for (const expected of ['Certificate of Completion', 'Sam Patel', 'Airwave Radio Voice Procedure',
    'United Kingdom Police Service', `Completed on ${date}`, `Verification code: ${CODE}`, `/verify/${CODE}`]) {
    assert(text.includes(expected), `the PDF shows "${expected}"; it shows:\n${text}`);
  }
});

async function app_pdf(token: string): Promise<Uint8Array> {
  const { app } = await import('./helpers.ts');
  const response = await app.request(`/api/certificates/${CERTIFICATE}/pdf`, { headers: { authorization: `Bearer ${token}` } });
  assertEquals(response.status, 200);
  return new Uint8Array(await response.arrayBuffer());
}

test('certificate PDF: each template of the settings is a different layout', async () => {
  const token = await login('student');
  const texts: Record<string, string> = {};
  try {
    for (const template of ['standard', 'professional', 'service', 'custom']) {
      await setTemplate(template);
      const bytes = await app_pdf(token);
      assert(new TextDecoder('latin1').decode(bytes).includes(`/Template (${template})`));
      texts[template] = await pdfText(bytes);
      assert(texts[template].includes('Sam Patel'), `${template} shows the learner`);
      assert(texts[template].includes(CODE), `${template} shows the code`);
    }
  } finally {
    await setTemplate('standard');
  }
  assert(texts.professional.includes('CERTIFICATE OF ACHIEVEMENT'));
  assert(texts.service.includes('UKPS Training Certificate'));
  assert(texts.custom.includes('Emergency Services Learning v3'), 'custom shows the site name');
  assert(texts.custom.includes('All rights reserved.'), 'custom shows the footer');
  const distinct = new Set(Object.values(texts));
  assertEquals(distinct.size, 4);
});

test("certificate PDF: others' certificates and unknown ids are 404, visitors 401", async () => {
  const other = await register();
  const refused = await call('GET', `/api/certificates/${CERTIFICATE}/pdf`, { token: other.session.access_token });
  assertEquals(refused.status, 404);
  assertEquals(refused.json.message, 'Certificate not found');
  assertEquals((await call('GET', `/api/certificates/${crypto.randomUUID()}/pdf`, { token: other.session.access_token })).status, 404);
  assertEquals((await call('GET', '/api/certificates/nope/pdf', { token: other.session.access_token })).status, 404);
  assertEquals((await call('GET', `/api/certificates/${CERTIFICATE}/pdf`)).status, 401);
});

test('verify: public, no sign-in; unknown or malformed codes are 404 Certificate not found', async () => {
  const answer = await call('GET', `/api/certificates/verify/${CODE}`);
  assertEquals(answer.status, 200);
  assertEquals(answer.json.learnerName, 'Sam Patel');
  assertEquals(answer.json.courseTitle, 'Airwave Radio Voice Procedure');
  assertEquals(answer.json.service, 'UKPS');
  assertEquals(answer.json.serviceLabel, 'United Kingdom Police Service');
  assertMatch(answer.json.issuedAt, /^\d{4}-\d{2}-\d{2}T/);
  assertEquals(answer.json.userId, undefined);
  assertEquals((await call('GET', `/api/certificates/verify/${CODE.toLowerCase()}`)).status, 200);
  const unknown = await call('GET', '/api/certificates/verify/NOTAREALCODE1234');
  assertEquals(unknown.status, 404);
  assertEquals(unknown.json.message, 'Certificate not found');
  assertEquals((await call('GET', "/api/certificates/verify/'%20or%201=1")).status, 404);
});

test('profile: name and email change together; sign-in follows the new email; the old one stops working', async () => {
  const { input, session, user } = await register();
  const newEmail = `renamed_${unique()}@example.test`;
  const answer = await call('PUT', '/api/profile', {
    token: session.access_token,
    body: { name: '  Renamed Learner  ', email: newEmail.toUpperCase() },
  });
  assertEquals(answer.status, 200);
  assertEquals(answer.json.name, 'Renamed Learner');
  assertEquals(answer.json.email, newEmail);
  assertEquals(answer.json.username, input.username);
  const [authUser] = await db.sql<{ email: string }[]>`select email from auth.users where id = ${user.id}::uuid`;
  assertEquals(authUser.email, newEmail);
  assertEquals((await call('POST', '/api/login', { body: { username: newEmail, password: input.password } })).status, 200);
  assertEquals((await call('POST', '/api/login', { body: { username: input.email, password: input.password } })).status, 401);
  // The name alone, email unchanged.
  const again = await call('PUT', '/api/profile', { token: session.access_token, body: { name: 'Second Name', email: newEmail } });
  assertEquals(again.status, 200);
  assertEquals(again.json.name, 'Second Name');
});

test('profile: a taken email is 409 and changes nothing; bad input is 400 with field messages', async () => {
  const { input, session, user } = await register();
  const taken = await call('PUT', '/api/profile', { token: session.access_token, body: { name: 'Someone Else', email: 'student@example.uk' } });
  assertEquals(taken.status, 409);
  assertEquals(taken.json.fields.email, 'Email is already registered');
  const [profile] = await db.sql<{ name: string; email: string }[]>`select name, email from public.profiles where id = ${user.id}::uuid`;
  assertEquals(profile, { name: input.name, email: input.email });
  const bad = await call('PUT', '/api/profile', { token: session.access_token, body: { name: 'A', email: 'not-an-email' } });
  assertEquals(bad.status, 400);
  assertEquals(bad.json.fields, { name: 'Name must be at least 2 characters', email: 'Invalid email address' });
  assertEquals((await call('PUT', '/api/profile', { token: session.access_token, raw: 'name=x', headers: { 'content-type': 'text/plain' } })).status, 400);
  assertEquals((await call('PUT', '/api/profile', { token: session.access_token, body: [] })).status, 400);
  assertEquals((await call('PUT', '/api/profile', { body: { name: 'Visitor Name', email: 'v@example.test' } })).status, 401);
});

test('password: the current password is checked; a wrong one is 400 on currentPassword; then the new one signs in', async () => {
  const { input, session, user } = await register();
  const sessions = async () =>
    (await db.sql<{ n: number }[]>`select count(*)::int as n from auth.sessions where user_id = ${user.id}::uuid`)[0].n;
  const before = await sessions();
  const wrong = await call('PUT', '/api/profile/password', {
    token: session.access_token,
    body: { currentPassword: 'not-my-password', newPassword: 'brand-new-pw', confirmPassword: 'brand-new-pw' },
  });
  assertEquals(wrong.status, 400);
  assertEquals(wrong.json.fields, { currentPassword: 'Current password is incorrect' });
  const mismatch = await call('PUT', '/api/profile/password', {
    token: session.access_token,
    body: { currentPassword: input.password, newPassword: 'brand-new-pw', confirmPassword: 'different-pw' },
  });
  assertEquals(mismatch.status, 400);
  assertEquals(mismatch.json.fields.confirmPassword, 'Passwords do not match');
  const short = await call('PUT', '/api/profile/password', {
    token: session.access_token,
    body: { currentPassword: input.password, newPassword: '123', confirmPassword: '123' },
  });
  assertEquals(short.json.fields.newPassword, 'Password must be at least 6 characters');
  const ok = await call('PUT', '/api/profile/password', {
    token: session.access_token,
    body: { currentPassword: input.password, newPassword: 'brand-new-pw', confirmPassword: 'brand-new-pw' },
  });
  assertEquals(ok.status, 204);
  // The password check's own session was closed again.
  assertEquals(await sessions(), before);
  assertEquals((await call('POST', '/api/login', { body: { username: input.username, password: 'brand-new-pw' } })).status, 200);
  assertEquals((await call('POST', '/api/login', { body: { username: input.username, password: input.password } })).status, 401);
  assertNotEquals((await call('GET', '/api/user', { token: session.access_token })).status, 401);
});

test('password: visitors 401; repeated wrong current passwords are limited like sign-in (429)', async () => {
  assertEquals((await call('PUT', '/api/profile/password', { body: { currentPassword: 'x', newPassword: 'abcdef', confirmPassword: 'abcdef' } })).status, 401);
  const { session } = await register();
  const ip = uniqueIp(); // one address for this user's attempts, fresh on every run
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const answer = await call('PUT', '/api/profile/password', {
      token: session.access_token,
      ip,
      body: { currentPassword: `wrong-${i}`, newPassword: 'abcdef', confirmPassword: 'abcdef' },
    });
    statuses.push(answer.status);
  }
  assertEquals(statuses, [400, 400, 400, 400, 400, 429]);
});

test('enrolments: under login-approval a new enrolment is listed as PENDING', async () => {
  const learner = await register();
  await db.sql`update public.settings set course_access = 'login-approval' where id`;
  try {
    await enrolAs(learner.session.access_token, learner.user.id, JESIP);
  } finally {
    await db.sql`update public.settings set course_access = 'public-login' where id`;
  }
  const listed = await call('GET', `/api/users/${learner.user.id}/enrollments`, { token: learner.session.access_token });
  assertEquals(listed.json.map((e: { status: string; progress: number }) => [e.status, e.progress]), [['PENDING', 0]]);
});

test('certificate PDF: names outside the standard fonts are drawn without failing, and the file name stays ASCII', async () => {
  const { session, user } = await register();
  const [course] = await db.sql<{ id: string }[]>`
    insert into public.courses (title, description, service, status)
    values (${'Łódź “Résumé” Safety ' + unique()}, 'A course with a title outside WinAnsi for the PDF test.', 'UKAS', 'ACTIVE')
    returning id`;
  const [cert] = await db.sql<{ id: string; verificationCode: string }[]>`
    insert into public.certificates (user_id, course_id, learner_name, course_title, service)
    values (${user.id}::uuid, ${course.id}::uuid, 'Zoë Łukasiewicz 山田', ${'Łódź “Résumé” Safety'}, 'UKAS')
    returning id, verification_code`;
  try {
    const response = await call('GET', `/api/certificates/${cert.id}/pdf`, { token: session.access_token });
    assertEquals(response.status, 200);
    assertEquals(
      response.headers.get('content-disposition'),
      `attachment; filename="certificate-lodz-resume-safety-${cert.verificationCode}.pdf"`,
    );
  } finally {
    await db.sql`select private.erase_course(id) from public.courses where id = ${course.id}::uuid`;
  }
});

closePoolAfterTests();
