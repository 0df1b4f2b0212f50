// Practical assessments through the API against the real platform: the author adds a practical
// module with its settings and criteria; an assessor records, attaches evidence (type and size
// checked: 415, 413), signs; another assessor countersigns; the learner's certificate appears with
// the practical's expiry. Field messages for bad input, 403/404/409 for the wrong people and states,
// the evidence read through the API and straight from Storage by the right people only, the queue
// and its CSV.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, config, db, login, register, test } from './helpers.ts';

let author = '';
let learner = '';
let learnerId = '';
let verifier = '';
let stranger = '';
let courseId = '';
let moduleId = '';
let recordId = '';
let evidenceId = '';
const criteria: string[] = [];

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0,
]);

function upload(bytes: Uint8Array, name: string, type: string, token = author) {
  const form = new FormData();
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
  return call('POST', `/api/assessment-records/${recordId}/evidence`, { token, raw: form });
}

test('setup: the author\'s course with a practical module, its settings and criteria; a learner; a second assessor', async () => {
  author = await login('instructor');
  const course = await call('POST', '/api/courses', {
    token: author,
    body: { title: 'Scene safety practical', description: 'Scene safety shown in practice to an assessor.', service: 'UKPS', duration: 1 },
  });
  assert.equal(course.status, 201, course.text);
  courseId = course.json.id;
  await db.sql`update public.courses set status = 'ACTIVE', certificate_valid_months = 36 where id = ${courseId}::uuid`;

  const bad = await call('POST', `/api/courses/${courseId}/modules`, { token: author, body: { kind: 'assessment', title: 'x' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.fields.title, 'Title must be at least 3 characters');
  const created = await call('POST', `/api/courses/${courseId}/modules`, {
    token: author, body: { kind: 'assessment', title: 'Cordon and scene safety: annual practical' },
  });
  assert.equal(created.status, 201, created.text);
  moduleId = created.json.id;

  const l = await register();
  learner = l.session.access_token;
  learnerId = l.user.id;
  const v = await register();
  await db.sql`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS}' where id = ${v.user.id}::uuid`;
  verifier = v.session.access_token;
  stranger = (await register()).session.access_token;
  assert.equal((await call('POST', `/api/courses/${courseId}/enroll`, { token: learner })).status, 201);
});

test('PUT /assessment: the author sets a verifier and the validity; bad values get field messages; others 403', async () => {
  const path = `/api/modules/${moduleId}/assessment`;
  const bad = await call('PUT', path, { token: author, body: { validMonths: 0, needsVerifier: 'yes' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.fields.validMonths, 'Validity must be a whole number of months from 1 to 120, or empty for none');
  assert.equal(bad.json.fields.needsVerifier, 'Say whether a second signature is needed');
  assert.equal((await call('PUT', path, { token: learner, body: { validMonths: 12 } })).status, 403);
  const ok = await call('PUT', path, { token: author, body: { needsVerifier: true, validMonths: 12 } });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.json, { moduleId, needsVerifier: true, validMonths: 12 });
  assert.equal((await call('PUT', `/api/modules/${courseId}/assessment`, { token: author, body: { validMonths: 12 } })).status, 404);
});

test('criteria: the author adds, changes and deletes them; a learner may not', async () => {
  const path = `/api/modules/${moduleId}/assessment/criteria`;
  const bad = await call('POST', path, { token: author, body: { title: 'ab', critical: 'no' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.fields.title, 'The criterion must be 3 to 300 characters');
  assert.equal(bad.json.fields.critical, 'Say whether the criterion is critical');
  assert.equal((await call('POST', path, { token: learner, body: { title: 'Forged criterion' } })).status, 403);
  for (const [title, critical] of [['Makes the scene safe before approaching', true], ['Sets a cordon', false], ['Briefs the team', false], ['Spare', false]] as const) {
    const r = await call('POST', path, { token: author, body: { title, critical, guidance: 'Watch for it' } });
    assert.equal(r.status, 201, r.text);
    criteria.push(r.json.id);
  }
  const changed = await call('PUT', `/api/assessment-criteria/${criteria[2]}`, { token: author, body: { title: 'Briefs the team clearly', critical: false } });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.json.guidance, null);
  assert.equal((await call('DELETE', `/api/assessment-criteria/${criteria[3]}`, { token: learner })).status, 403);
  assert.equal((await call('DELETE', `/api/assessment-criteria/${criteria[3]}`, { token: author })).status, 204);
  criteria.pop();
  const list = await call('GET', `/api/modules/${moduleId}/assessment`, { token: learner });
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.json.criteria.map((c: { orderIndex: number }) => c.orderIndex), [1, 2, 3]);
  assert.equal(list.json.isAssessor, false);
  assert.equal(list.json.signedOff, false);
});

test('records: only an assessor starts one; the learner list shows where each learner stands', async () => {
  const path = `/api/modules/${moduleId}/assessment/records`;
  const badBody = await call('POST', path, { token: author, body: { learnerId: 'nobody' } });
  assert.equal(badBody.status, 400);
  assert.equal(badBody.json.fields.learnerId, 'Choose a learner');
  assert.equal((await call('POST', path, { token: learner, body: { learnerId } })).status, 403);
  assert.equal((await call('POST', path, { token: stranger, body: { learnerId } })).status, 403);
  const started = await call('POST', path, { token: author, body: { learnerId } });
  assert.equal(started.status, 201, started.text);
  recordId = started.json.id;
  assert.equal(started.json.state, 'draft');
  assert.equal((await call('POST', path, { token: verifier, body: { learnerId } })).status, 409);
  const learners = await call('GET', `/api/modules/${moduleId}/assessment/learners?status=draft`, { token: verifier });
  assert.equal(learners.status, 200, learners.text);
  assert.deepEqual(learners.json.items.map((l: { learnerId: string; state: string }) => [l.learnerId, l.state]), [[learnerId, 'draft']]);
  assert.equal((await call('GET', `/api/modules/${moduleId}/assessment/learners?status=lost`, { token: verifier })).json.fields.status,
    'Status must be not-assessed, draft, awaiting-verification, competent or not-yet-competent');
  // The learner does not see a draft.
  assert.equal((await call('GET', `/api/assessment-records/${recordId}`, { token: learner })).status, 404);
});

test('evidence: JPEG, PNG or PDF by its first bytes, at most 10 MB, on a draft, by its assessor', async () => {
  const text = await upload(new TextEncoder().encode('not a photo'), 'notes.png', 'image/png');
  assert.equal(text.status, 415);
  assert.equal(text.json.fields.file, 'Evidence must be a JPEG or PNG photo or a PDF');
  const big = new Uint8Array(10 * 1024 * 1024 + 1);
  big.set(PNG);
  const tooBig = await upload(big, 'huge.png', 'image/png');
  assert.equal(tooBig.status, 413);
  assert.equal(tooBig.json.fields.file, 'Evidence files must be 10 MB or smaller');
  const json = await call('POST', `/api/assessment-records/${recordId}/evidence`, { token: author, body: { file: 'x' } });
  assert.equal(json.status, 415);
  assert.equal((await upload(PNG, 'board.png', 'image/png', verifier)).status, 403);
  const ok = await upload(PNG, 'entry board.png', 'application/octet-stream');
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.json.evidence.length, 1);
  assert.equal(ok.json.evidence[0].contentType, 'image/png');
  assert.equal(ok.json.evidence[0].originalName, 'entry board.png');
  evidenceId = ok.json.evidence[0].id;
});

test('save and sign: field messages, every criterion judged, no competent over a critical failure; only its assessor signs', async () => {
  const path = `/api/assessment-records/${recordId}`;
  const bad = await call('PUT', path, { token: author, body: { judgements: [{ criterionId: criteria[0], result: 'maybe' }], outcome: 'great' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.fields['judgements.0.result'], 'Each judgement is competent or not yet competent');
  assert.equal(bad.json.fields.outcome, 'Choose competent or not yet competent');
  const partial = await call('PUT', path, { token: author, body: { judgements: [{ criterionId: criteria[1], result: 'competent' }], outcome: 'competent' } });
  assert.equal(partial.status, 200, partial.text);
  const early = await call('POST', `${path}/sign`, { token: author });
  assert.equal(early.status, 400);
  assert.equal(early.json.fields.judgements, 'Judge every criterion before signing');
  const criticalFailed = criteria.map((id, i) => ({ criterionId: id, result: i === 0 ? 'not-yet-competent' : 'competent' }));
  await call('PUT', path, { token: author, body: { judgements: criticalFailed, outcome: 'competent' } });
  const contradicted = await call('POST', `${path}/sign`, { token: author });
  assert.equal(contradicted.status, 400);
  assert.equal(contradicted.json.fields.outcome, 'The outcome cannot be competent while a critical criterion is not yet competent');
  const all = criteria.map((id) => ({ criterionId: id, result: 'competent', note: 'Confident and clear' }));
  assert.equal((await call('PUT', path, { token: verifier, body: { judgements: all, outcome: 'competent' } })).status, 403);
  assert.equal((await call('PUT', path, { token: author, body: { judgements: all, outcome: 'competent', notes: 'Well done.' } })).status, 200);
  assert.equal((await call('POST', `${path}/sign`, { token: verifier })).status, 403);
  const signed = await call('POST', `${path}/sign`, { token: author });
  assert.equal(signed.status, 200, signed.text);
  assert.equal(signed.json.state, 'signed');
  assert.equal((await call('PUT', path, { token: author, body: { judgements: all, outcome: 'competent' } })).status, 409);
  assert.equal((await upload(PNG, 'late.png', 'image/png')).status, 409);
});

test('evidence reads: the learner and assessors through the API and from Storage; a stranger neither', async () => {
  const mine = await call('GET', `/api/assessment-evidence/${evidenceId}`, { token: learner });
  assert.equal(mine.status, 200);
  assert.equal(mine.headers.get('content-type'), 'image/png');
  assert.match(mine.headers.get('content-disposition') ?? '', /attachment/);
  assert.equal((await call('GET', `/api/assessment-evidence/${evidenceId}`, { token: verifier })).status, 200);
  assert.equal((await call('GET', `/api/assessment-evidence/${evidenceId}`, { token: stranger })).status, 404);
  const [{ name }] = await db.sql<{ name: string }[]>`select object_name as name from public.assessment_evidence where id = ${evidenceId}::uuid`;
  const direct = (token: string) => fetch(`${config.supabaseUrl}/storage/v1/object/authenticated/assessment-evidence/${name}`, {
    headers: { apikey: config.anonKey, authorization: `Bearer ${token}` },
  });
  const allowed = await direct(learner);
  assert.equal(allowed.status, 200);
  await allowed.body?.cancel();
  const refused = await direct(stranger);
  assert.notEqual(refused.status, 200);
  await refused.body?.cancel();
  const planted = await fetch(`${config.supabaseUrl}/storage/v1/object/assessment-evidence/${recordId}/planted.png`, {
    method: 'POST', headers: { apikey: config.anonKey, authorization: `Bearer ${author}`, 'content-type': 'image/png' }, body: PNG,
  });
  assert.equal(planted.status, 403);
  await planted.body?.cancel();
});

test('verify: another assessor countersigns; the certificate appears with the practical\'s expiry', async () => {
  const queue = await call('GET', '/api/instructor/assessments?state=awaiting-verification', { token: verifier });
  assert.equal(queue.status, 200, queue.text);
  assert.deepEqual(queue.json.items.map((q: { recordId: string }) => q.recordId), [recordId]);
  assert.equal((await call('GET', '/api/instructor/assessments?state=awaiting-verification', { token: author })).json.total, 0);
  assert.equal((await call('GET', '/api/instructor/assessments?state=later', { token: author })).status, 400);
  assert.equal((await call('POST', `/api/assessment-records/${recordId}/verify`, { token: author })).status, 403);
  assert.equal((await call('POST', `/api/assessment-records/${recordId}/verify`, { token: learner })).status, 404);
  const verified = await call('POST', `/api/assessment-records/${recordId}/verify`, { token: verifier });
  assert.equal(verified.status, 200, verified.text);
  assert.equal(verified.json.state, 'verified');
  assert.equal((await call('POST', `/api/assessment-records/${recordId}/verify`, { token: verifier })).status, 409);
  const [cert] = await db.sql<{ exact: boolean }[]>`
    select c.expires_at = r.verified_at + interval '12 months' as exact
    from public.certificates c join public.assessment_records r on r.id = ${recordId}::uuid
    where c.user_id = ${learnerId}::uuid and c.course_id = ${courseId}::uuid`;
  assert.deepEqual(cert, { exact: true });
  const mine = await call('GET', `/api/modules/${moduleId}/assessment`, { token: learner });
  assert.equal(mine.json.signedOff, true);
  assert.equal(mine.json.records[0].state, 'verified');
  assert.equal(mine.json.records[0].notes, 'Well done.');
  assert.equal(mine.json.canRequestReassessment, false);
  const asked = await call('POST', `/api/modules/${moduleId}/assessment/reassessment`, { token: learner, body: { reason: 'Again please' } });
  assert.equal(asked.status, 409);
  const blank = await call('POST', `/api/modules/${moduleId}/assessment/reassessment`, { token: learner, body: { reason: ' ' } });
  assert.equal(blank.json.fields.reason, 'Give a reason of 1 to 1000 characters');
});

test('the export: the signed records of the learners the caller assesses, as CSV', async () => {
  const csv = await call('GET', '/api/instructor/assessments/export.csv', { token: verifier });
  assert.equal(csv.status, 200);
  assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
  assert.match(csv.text, /Course,Module,Learner,Cycle,Outcome/);
  assert.match(csv.text, /Cordon and scene safety: annual practical/);
  const none = await call('GET', '/api/instructor/assessments/export.csv', { token: stranger });
  assert.equal(none.text.trim().split('\n').length, 1);
});

test('course assessors: only an administrator names them', async () => {
  const [{ id }] = await db.sql<{ id: string }[]>`select id from public.profiles where username = 'student'`;
  const refused = await call('POST', `/api/courses/${courseId}/assessors`, { token: author, body: { personId: id } });
  assert.equal(refused.status, 403);
  const bad = await call('POST', `/api/courses/${courseId}/assessors`, { token: author, body: { personId: 'x' } });
  assert.equal(bad.json.fields.personId, 'Choose a person');
  const admin = await login('admin');
  // A person of no organisation: the national instructors of the service assess them already.
  const national = await call('POST', `/api/courses/${courseId}/assessors`, { token: admin, body: { personId: id } });
  assert.equal(national.status, 400);
  assert.ok(national.json.fields.personId);
  assert.deepEqual((await call('GET', `/api/courses/${courseId}/assessors`, { token: admin })).json, []);
});

closePoolAfterTests();
