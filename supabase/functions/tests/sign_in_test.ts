// Sign-in through an organisation's identity provider, through the api function against the real
// platform: who reads and changes an organisation's sign-in settings and domains (403, 404), the
// validation of each write (400), switching on only after a passed test (409), the sign-in page's
// lookup by work address, and a password sign-in refused with its reason once the organisation has
// switched passwords off (its administrator keeps theirs). The protocol itself (an OpenID Connect
// or SAML sign-in end to end) is proven in platform/oauth.test.mjs, platform/saml.test.mjs and the
// browser test; what decides placement, in supabase/tests/organisation-sign-in.test.ts.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, login, register, test, unique } from './helpers.ts';

const suffix = unique().slice(-10).toLowerCase();
const DOMAIN = `signin-${suffix}.police.example`;
const TENANT = '6f1c2b7e-3d4a-4e8b-9c21-5a7d0e4f8b13';
const [{ id: POLICE }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values ('Signshire Police', ${`G${suffix.toUpperCase()}`}, 'UKPS') returning id`;
const [{ id: AMBULANCE }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values ('Signshire Ambulance', ${`H${suffix.toUpperCase()}`}, 'UKAS') returning id`;

async function account(role: string, organisation: string | null) {
  const registration = await register();
  await db.sql`update public.profiles set role = ${role}::public.user_role, organisation_id = ${organisation}::uuid
    where id = ${registration.user.id}::uuid`;
  return { id: registration.user.id as string, username: registration.input.username, password: registration.input.password, token: registration.session.access_token as string };
}
const policeAdmin = await account('ADMIN', POLICE);
const ambulanceAdmin = await account('ADMIN', AMBULANCE);
const officer = await account('STUDENT', POLICE);
const national = { token: await login('admin') };

const settingsOf = (token: string, organisation = POLICE) => call('GET', `/api/organisations/${organisation}/sign-in`, { token });
const OIDC = { protocol: 'oidc', tenantId: TENANT, attributeMapping: { unit: 'department', employee_number: 'employeeid' }, newPersonServices: ['UKPS'] };

test('only the organisation\'s administrators and national ones read and change its sign-in', async () => {
  assert.equal((await call('GET', `/api/organisations/${POLICE}/sign-in`)).status, 401);
  assert.equal((await settingsOf(officer.token)).status, 403);
  assert.equal((await settingsOf(ambulanceAdmin.token)).status, 404);
  assert.equal((await call('PUT', `/api/organisations/${POLICE}/sign-in`, { token: ambulanceAdmin.token, body: OIDC })).status, 404);
  const empty = await settingsOf(policeAdmin.token);
  assert.equal(empty.status, 200, empty.text);
  assert.equal(empty.json.settings, null);
  assert.match(empty.json.provider.redirectUri, /\/auth\/v1\/callback$/);
  assert.match(empty.json.provider.samlAcsUrl, /\/auth\/v1\/sso\/saml\/acs$/);
  assert.equal((await settingsOf(national.token)).status, 200);
});

test('refuses bad settings with a message for each field', async () => {
  const put = (body: unknown) => call('PUT', `/api/organisations/${POLICE}/sign-in`, { token: policeAdmin.token, body });
  const noTenant = await put({ protocol: 'oidc' });
  assert.equal(noTenant.status, 400);
  assert.equal(noTenant.json.fields.tenantId, 'Give the Microsoft Entra ID tenant id');
  const badTenant = await put({ ...OIDC, tenantId: 'contoso' });
  assert.match(badTenant.json.fields.tenantId, /GUID/);
  const noMetadata = await put({ protocol: 'saml' });
  assert.equal(noMetadata.json.fields.samlMetadataUrl, 'Give the metadata URL or paste the metadata XML');
  const strayField = await put({ ...OIDC, attributeMapping: { password: 'x' } });
  assert.equal(strayField.status, 400);
  const adminRole = await put({ ...OIDC, newPersonRole: 'ADMIN' });
  assert.equal(adminRole.json.fields.newPersonRole, 'New people are learners or instructors');
  const otherService = await put({ ...OIDC, newPersonServices: ['UKAS'] });
  assert.equal(otherService.json.fields.newPersonServices, "New people can be given only the organisation's own service");
  const [{ count }] = await db.sql<{ count: number }[]>`select count(*)::int from public.organisation_sign_in where organisation_id = ${POLICE}`;
  assert.equal(count, 0);
});

test('gives domains through national administrators only, each to one organisation', async () => {
  const add = (token: string, organisation: string, domain: string) =>
    call('POST', `/api/organisations/${organisation}/domains`, { token, body: { domain } });
  assert.equal((await add(policeAdmin.token, POLICE, DOMAIN)).status, 403);
  assert.equal((await add(national.token, POLICE, 'not a domain')).status, 400);
  const added = await add(national.token, POLICE, DOMAIN.toUpperCase());
  assert.equal(added.status, 200, added.text);
  assert.deepEqual(added.json.domains, [DOMAIN]);
  const taken = await add(national.token, AMBULANCE, DOMAIN);
  assert.equal(taken.status, 409);
  assert.equal(taken.json.message, 'Another organisation has this domain');
  assert.deepEqual((await settingsOf(policeAdmin.token)).json.domains, [DOMAIN]);
  assert.equal((await call('DELETE', `/api/organisations/${POLICE}/domains/${DOMAIN}`, { token: policeAdmin.token })).status, 403);
  assert.equal((await call('DELETE', `/api/organisations/${AMBULANCE}/domains/${DOMAIN}`, { token: national.token })).status, 404);
});

test('switches sign-in on only after a passed test, then refuses its people\'s passwords with the reason', async () => {
  const saved = await call('PUT', `/api/organisations/${POLICE}/sign-in`, { token: policeAdmin.token, body: OIDC });
  assert.equal(saved.status, 200, saved.text);
  assert.deepEqual(saved.json.settings.attributeMapping, { unit: 'department', employee_number: 'employeeid' });
  assert.equal(saved.json.settings.enabled, false);
  const early = await call('POST', `/api/organisations/${POLICE}/sign-in/switch`, { token: policeAdmin.token, body: { enabled: true, passwordSignIn: false } });
  assert.equal(early.status, 409);
  assert.equal(early.json.message, 'Run a test sign-in that passes before switching it on');
  const lookupBefore = await call('GET', `/api/sign-in/organisation?email=${encodeURIComponent(`pc.test@${DOMAIN}`)}`);
  assert.equal(lookupBefore.status, 404);
  assert.equal(lookupBefore.json.message, `No organisation signs in with addresses at ${DOMAIN} here`);

  // A test sign-in as Auth's hook receives it from the provider: kept, refused, and it passes.
  const email = `pc.test@${DOMAIN}`;
  const [{ answer }] = await db.sql<{ answer: string }[]>`select private.before_user_created(${db.sql.json({
    user: { email, app_metadata: { provider: 'azure', providers: ['azure'] },
      user_metadata: { email, full_name: 'PC Test', custom_claims: { tid: TENANT, employeeid: 'NP1' } } },
  })}::jsonb)::text as answer`;
  assert.equal(JSON.parse(answer).error.http_code, 403);
  const tested = await settingsOf(policeAdmin.token);
  assert.equal(tested.json.tests[0].passed, true);
  assert.equal(tested.json.tests[0].mapped.employeeNumber, 'NP1');
  assert.equal(tested.json.tests[0].received.full_name, 'PC Test');
  assert.ok(tested.json.settings.testedAt);
  // In the organisation's Activity list, acted by its sign-in, with what it said.
  const activity = await call('GET', '/api/audit?action=sign_in.tested', { token: policeAdmin.token });
  assert.equal(activity.status, 200, activity.text);
  assert.equal(activity.json.items[0]?.actor?.name, 'Signshire Police sign-in');
  const csv = await call('GET', '/api/audit/export.csv?action=sign_in.tested', { token: policeAdmin.token });
  assert.match(csv.text, new RegExp(`Signshire Police sign-in: a test sign-in for ${email.replace(/\./g, '\\.')} passed`));

  const on = await call('POST', `/api/organisations/${POLICE}/sign-in/switch`, { token: policeAdmin.token, body: { enabled: true, passwordSignIn: false } });
  assert.equal(on.status, 200, on.text);
  assert.deepEqual([on.json.settings.enabled, on.json.settings.passwordSignIn], [true, false]);
  const lookup = await call('GET', `/api/sign-in/organisation?email=${encodeURIComponent(email.toUpperCase())}`);
  assert.deepEqual(lookup.json, { protocol: 'oidc', organisationName: 'Signshire Police', domain: DOMAIN, passwordSignIn: false });
  assert.equal((await call('GET', '/api/sign-in/organisation?email=nobody')).status, 400);

  const refused = await call('POST', '/api/login', { body: { username: officer.username, password: officer.password } });
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.json.message, 'Signshire Police signs its people in through its own identity provider. Use "Sign in with your organisation".');
  const wrongPassword = await call('POST', '/api/login', { body: { username: officer.username, password: 'not-the-password' } });
  assert.equal(wrongPassword.status, 401);
  const adminSignIn = await call('POST', '/api/login', { body: { username: policeAdmin.username, password: policeAdmin.password } });
  assert.equal(adminSignIn.status, 200, adminSignIn.text);

  // Switched off again: the officer's password works once more.
  const off = await call('POST', `/api/organisations/${POLICE}/sign-in/switch`, { token: policeAdmin.token, body: { enabled: false, passwordSignIn: false } });
  assert.deepEqual([off.json.settings.enabled, off.json.settings.passwordSignIn], [false, true]);
  assert.equal((await call('POST', '/api/login', { body: { username: officer.username, password: officer.password } })).status, 200);
});

closePoolAfterTests();
