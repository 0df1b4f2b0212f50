// Recognition when people move, through the API on the real platform: a paramedic of one ambulance
// trust earns a certificate of its course here (signed as an Open Badges credential by the trust's
// issuer), moves to a neighbouring trust that trusts that issuer and accepts the course as
// equivalent to its own required course, and the new trust's required training, compliance (with
// its CSV) and My team show "recognised" with the origin until the certificate's expiry; a
// revocation ends it at once. The learner's upload of a credential: verified, their own, kept;
// someone else's, a tampered one or no credential at all are refused. The trusted issuers and
// equivalences endpoints: validation and the organisation's administrators only. The certificate's
// expiry is a fixed date (3 March 2099), so every answer is the same on any day.
import { assert, assertEquals, call, closePoolAfterTests, config, db, login, register, test, unique } from './helpers.ts';

const API = `${config.supabaseUrl}/functions/v1/api`;
const VALID_UNTIL = '2099-03-03T00:00:00.000Z';

interface World {
  admin: string;
  south: string;
  west: string;
  southCourse: string;
  westCourse: string;
  westAdmin: string;
  learner: string;
  learnerId: string;
  certificateId: string;
  manager: string;
  managerId: string;
}

/** Two trusts, each with a course; West requires its own; a paramedic of South completes South's. */
async function world(): Promise<World> {
  const admin = await login('admin');
  const [orgs] = await db.sql<{ south: string; west: string }[]>`
    with s as (insert into public.organisations (name, code, service) values (${`South ${unique()}`}, ${`S${unique().slice(-10)}`}, 'UKAS') returning id),
         w as (insert into public.organisations (name, code, service) values (${`West ${unique()}`}, ${`W${unique().slice(-10)}`}, 'UKAS') returning id)
    select (select id from s) as south, (select id from w) as west`;
  const [courses] = await db.sql<{ southCourse: string; westCourse: string }[]>`
    with s as (
      insert into public.courses (title, description, service, status, organisation_id, certificate_valid_months)
      values ('South emergency driving', 'Driving under blue lights.', 'UKAS', 'ACTIVE', ${orgs.south}, 12) returning id
    ), w as (
      insert into public.courses (title, description, service, status, organisation_id, certificate_valid_months)
      values ('West emergency driving', 'Driving under blue lights.', 'UKAS', 'ACTIVE', ${orgs.west}, 12) returning id
    )
    select (select id from s) as south_course, (select id from w) as west_course`;
  await db.sql`insert into public.required_training (course_id, organisation_id, role, due_within_days)
    values (${courses.westCourse}, ${orgs.west}, 'STUDENT', 365)`;
  const westAdmin = await register();
  await db.sql`update public.profiles set role = 'ADMIN', organisation_id = ${orgs.west} where id = ${westAdmin.user.id}`;
  const manager = await register();
  await db.sql`update public.profiles set organisation_id = ${orgs.west} where id = ${manager.user.id}`;
  const { user, session } = await register();
  await db.sql`update public.profiles set organisation_id = ${orgs.south}, services = '{UKAS}' where id = ${user.id}`;
  const enrolled = await call('POST', `/api/courses/${courses.southCourse}/enroll`, { token: session.access_token });
  assertEquals(enrolled.status, 201, enrolled.text);
  for (let i = 0; i < 5; i++) await call('PUT', `/api/enrollments/${enrolled.json.id}`, { token: session.access_token });
  const [certificate] = await db.sql<{ id: string }[]>`
    update public.certificates set expires_at = ${VALID_UNTIL}
    where user_id = ${user.id}::uuid and course_id = ${courses.southCourse}::uuid returning id`;
  assert(certificate, 'the course issued its certificate');
  // The function signs new credentials in the background after a write: a run that read the
  // certificate before its expiry was fixed writes the first date. Once that run has written (or
  // none is under way), the credential is made pending again, and is signed with the fixed date.
  for (let waited = 0; waited < 5000; waited += 50) {
    const [signed] = await db.sql<{ done: boolean }[]>`
      select bool_and(credential is not null) as done from public.credentials where certificate_id = ${certificate.id}::uuid`;
    if (signed?.done) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await db.sql`update public.credentials set credential = null, signed_at = null, key_id = null where certificate_id = ${certificate.id}::uuid`;
  return {
    admin, ...orgs, ...courses, westAdmin: westAdmin.session.access_token, learner: session.access_token, learnerId: user.id,
    certificateId: certificate.id, manager: manager.session.access_token, managerId: manager.user.id,
  };
}

/** The learner's signed credential of the certificate, as their passport gives it. */
async function credentialOf(w: World) {
  const list = await call('GET', '/api/passport', { token: w.learner });
  assertEquals(list.status, 200, list.text);
  const item = list.json.items.find((i: { certificateId: string }) => i.certificateId === w.certificateId);
  const answer = await call('GET', `/api/passport/${item.id}/credential.json`, { token: w.learner });
  assertEquals(answer.status, 200, answer.text);
  return answer.json;
}

async function westRequired(w: World) {
  const mine = await call('GET', '/api/me/required-training', { token: w.learner });
  assertEquals(mine.status, 200, mine.text);
  return mine.json.items.find((i: { course: { id: string } }) => i.course.id === w.westCourse);
}

/** West trusts South's issuer and counts South's course for its own, as West's administrator. */
async function westRecognisesSouth(w: World, credential: { issuer: { id: string }; credentialSubject: { achievement: { id: string } } }) {
  const trusted = await call('POST', '/api/recognition/trusted-issuers', {
    token: w.westAdmin, body: { issuerId: credential.issuer.id, name: 'Southshire Ambulance' },
  });
  assertEquals(trusted.status, 201, trusted.text);
  assertEquals(trusted.json.platformIssuer, w.south);
  const equivalence = await call('POST', '/api/recognition/equivalences', {
    token: w.westAdmin,
    body: { courseId: w.westCourse, issuerId: credential.issuer.id, achievementId: credential.credentialSubject.achievement.id, achievementName: 'Emergency driving' },
  });
  assertEquals(equivalence.status, 201, equivalence.text);
  assertEquals(equivalence.json.platformCourseId, w.southCourse);
  return { trusted: trusted.json.id as string, equivalence: equivalence.json.id as string };
}

test('a paramedic who moves keeps a certificate earned at the former trust as "recognised" at the new one, until it is revoked', async () => {
  const w = await world();
  const credential = await credentialOf(w);
  assertEquals(credential.issuer.id, `${API}/issuers/${w.south}`);
  await westRecognisesSouth(w, credential);
  // Not yet West's: nothing of West's applies.
  assertEquals(await westRequired(w), undefined);
  await db.sql`update public.profiles set organisation_id = ${w.west}, manager_id = ${w.managerId} where id = ${w.learnerId}`;
  const item = await westRequired(w);
  assertEquals(item.status, 'recognised');
  assertEquals(item.certified, true);
  assertEquals(item.validUntil, VALID_UNTIL);
  assertEquals(item.recognised, { source: 'platform', issuerName: 'Southshire Ambulance', achievementName: 'Emergency driving', validUntil: VALID_UNTIL });

  // West's compliance: compliant, with the origin in the list and the CSV.
  const summary = await call('GET', `/api/compliance?courseId=${w.westCourse}&service=UKAS`, { token: w.westAdmin });
  assertEquals(summary.status, 200, summary.text);
  assertEquals(summary.json.items.map((r: { people: number; compliant: number }) => [r.people, r.compliant]), [[1, 1]]);
  const people = await call('GET', `/api/compliance/people?courseId=${w.westCourse}&status=done`, { token: w.westAdmin });
  assertEquals(people.json.items.map((p: { status: string; recognised: unknown }) => [p.status, p.recognised]), [
    ['recognised', { source: 'platform', issuerName: 'Southshire Ambulance', achievementName: 'Emergency driving', validUntil: VALID_UNTIL }],
  ]);
  const csv = await call('GET', `/api/compliance/export.csv?courseId=${w.westCourse}`, { token: w.westAdmin });
  const [header, ...rows] = csv.text.trim().split(/\r?\n/);
  assert(header.endsWith('Progress (%),Recognised from'), header);
  // The learner's row (the manager, also required, is in progress and comes first).
  const row = rows.find((r) => r.includes(',Recognised,'));
  assert(row?.endsWith('Southshire Ambulance: Emergency driving'), rows.join('\n'));

  // My team: the manager sees it recognised, with its origin, and counted done.
  const record = await call('GET', `/api/team/${w.learnerId}`, { token: w.manager });
  assertEquals(record.status, 200, record.text);
  const required = record.json.required.find((r: { course: { id: string } }) => r.course.id === w.westCourse);
  assertEquals(required.status, 'recognised');
  assertEquals(required.recognised.issuerName, 'Southshire Ambulance');
  assertEquals(required.recognised.validUntil, VALID_UNTIL);

  // Revoked by South: no longer recognised, at once.
  const revoked = await call('POST', `/api/admin/certificates/${w.certificateId}/revoke`, { token: w.admin, body: { reason: 'Issued in error' } });
  assert(revoked.status < 300, revoked.text);
  const after = await westRequired(w);
  assertEquals(after.status, 'in-progress');
  assertEquals(after.recognised, null);
});

test('a learner uploads their own verified credential; someone else\'s, a tampered one or no credential is refused', async () => {
  const w = await world();
  const credential = await credentialOf(w);
  const upload = (token: string, body: unknown) => call('POST', '/api/passport/held', { token, body });

  const stranger = await register();
  const theirs = await upload(stranger.session.access_token, credential);
  assertEquals(theirs.status, 403, theirs.text);
  const tampered = structuredClone(credential);
  tampered.credentialSubject.achievement.name = 'Advanced emergency driving';
  assertEquals((await upload(w.learner, tampered)).status, 400);
  const notOne = await upload(w.learner, { hello: 'world' });
  assertEquals(notOne.status, 400);
  assert(notOne.json.fields.credential, notOne.text);
  assertEquals((await call('POST', '/api/passport/held', { token: w.learner, raw: 'x', headers: { 'content-type': 'text/plain' } })).status, 415);

  const kept = await upload(w.learner, credential);
  assertEquals(kept.status, 201, kept.text);
  assertEquals(kept.json.verification.verified, true);
  assertEquals(kept.json.heldCredential.state, 'valid');
  assertEquals(kept.json.heldCredential.issuerId, `${API}/issuers/${w.south}`);
  assertEquals(kept.json.heldCredential.validUntil, VALID_UNTIL);
  // The same credential again is the same row.
  assertEquals((await upload(w.learner, credential)).json.heldCredential.id, kept.json.heldCredential.id);
  const list = await call('GET', '/api/passport/held', { token: w.learner });
  assertEquals(list.json.items.map((i: { id: string }) => i.id), [kept.json.heldCredential.id]);
  assertEquals((await call('GET', '/api/passport/held', { token: stranger.session.access_token })).json.items, []);

  // Counted through the upload: an equivalence of the achievement without the platform's course.
  await db.sql`update public.profiles set organisation_id = ${w.west} where id = ${w.learnerId}`;
  await db.sql`insert into public.trusted_issuers (organisation_id, issuer_id, name) values (${w.west}, ${credential.issuer.id}, 'South (uploaded)')`;
  await db.sql`insert into public.recognition_equivalences (organisation_id, course_id, issuer_id, achievement_id, achievement_name)
    values (${w.west}, ${w.westCourse}, ${credential.issuer.id}, ${credential.credentialSubject.achievement.id}, 'Driving (uploaded)')`;
  const item = await westRequired(w);
  assertEquals(item.status, 'recognised');
  assertEquals(item.recognised.source, 'upload');

  const json = await call('GET', `/api/passport/held/${kept.json.heldCredential.id}/credential.json`, { token: w.learner });
  assertEquals(json.json.id, credential.id);
  assertEquals((await call('DELETE', `/api/passport/held/${kept.json.heldCredential.id}`, { token: stranger.session.access_token })).status, 404);
  assertEquals((await call('DELETE', `/api/passport/held/${kept.json.heldCredential.id}`, { token: w.learner })).status, 204);
  assertEquals((await westRequired(w)).status, 'in-progress');
});

test('trusted issuers and equivalences: validated, and an organisation\'s administrators manage only their own', async () => {
  const w = await world();
  const bad = await call('POST', '/api/recognition/trusted-issuers', { token: w.westAdmin, body: { issuerId: 'ftp://x', name: '' } });
  assertEquals(bad.status, 400);
  assert(bad.json.fields.issuerId && bad.json.fields.name, bad.text);
  const elsewhere = await call('POST', '/api/recognition/trusted-issuers', {
    token: w.westAdmin, body: { organisationId: w.south, issuerId: 'https://college.example.org/issuer', name: 'College' },
  });
  assertEquals(elsewhere.status, 403);
  const national = await call('POST', '/api/recognition/trusted-issuers', { token: w.admin, body: { issuerId: 'https://college.example.org/issuer', name: 'College' } });
  assertEquals(national.status, 400);
  assert(national.json.fields.organisationId, national.text);
  const added = await call('POST', '/api/recognition/trusted-issuers', {
    token: w.admin, body: { organisationId: w.west, issuerId: 'https://college.example.org/issuer', name: 'College' },
  });
  assertEquals(added.status, 201, added.text);
  assertEquals(added.json.platformIssuer, null);
  const again = await call('POST', '/api/recognition/trusted-issuers', { token: w.westAdmin, body: { issuerId: 'https://college.example.org/issuer', name: 'College' } });
  assertEquals(again.status, 409);
  const untrusted = await call('POST', '/api/recognition/equivalences', {
    token: w.westAdmin, body: { courseId: w.westCourse, issuerId: 'https://other.example.org/issuer', achievementId: 'https://other.example.org/a', achievementName: 'A' },
  });
  assertEquals(untrusted.status, 400);
  assert(untrusted.json.fields.issuerId, untrusted.text);
  const notOurs = await call('POST', '/api/recognition/equivalences', {
    token: w.westAdmin, body: { courseId: w.southCourse, issuerId: 'https://college.example.org/issuer', achievementId: 'https://college.example.org/a', achievementName: 'A' },
  });
  assertEquals(notOurs.status, 400);
  assert(notOurs.json.fields.courseId, notOurs.text);
  const equivalence = await call('POST', '/api/recognition/equivalences', {
    token: w.westAdmin, body: { courseId: w.westCourse, issuerId: 'https://college.example.org/issuer', achievementId: 'https://college.example.org/a', achievementName: 'Driving 1' },
  });
  assertEquals(equivalence.status, 201, equivalence.text);
  assertEquals(equivalence.json.course, { id: w.westCourse, title: 'West emergency driving' });
  assertEquals(equivalence.json.issuerName, 'College');
  const listed = await call('GET', '/api/recognition/equivalences', { token: w.westAdmin });
  assertEquals(listed.json.items.map((e: { id: string }) => e.id), [equivalence.json.id]);
  assertEquals((await call('GET', `/api/recognition/trusted-issuers?organisationId=${w.south}`, { token: w.westAdmin })).status, 403);
  assertEquals((await call('GET', '/api/recognition/trusted-issuers?page=0', { token: w.westAdmin })).status, 400);
  assertEquals((await call('DELETE', `/api/recognition/trusted-issuers/${added.json.id}`, { token: w.learner })).status, 403);
  assertEquals((await call('DELETE', `/api/recognition/trusted-issuers/${added.json.id}`, { token: w.westAdmin })).status, 204);
  // The equivalence went with its issuer.
  assertEquals((await call('DELETE', `/api/recognition/equivalences/${equivalence.json.id}`, { token: w.westAdmin })).status, 404);
  assertEquals((await call('DELETE', '/api/recognition/equivalences/not-an-id', { token: w.westAdmin })).status, 404);
});

closePoolAfterTests();
