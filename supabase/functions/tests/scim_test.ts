// SCIM 2.0 provisioning (/api/scim/v2) against the real platform, as Microsoft Entra ID's
// provisioning service calls it: the requests of Microsoft's "Develop and plan provisioning for a
// SCIM endpoint in Microsoft Entra ID" (section "Protocol requests and responses"), with their
// bodies, then each state-changing request replayed (it must change nothing: no new rows, no new
// audit event), then the people and units as HR left them. Then the attacks: no, malformed, a
// person's or a revoked token (401); one organisation's token on another's person (404, nothing
// changed); a manager or department of another organisation (400); a bad filter (400 invalidFilter).
// The administrators' token routes (/api/organisations/:id/scim) are here too.
import assert from 'node:assert/strict';
import { type Answer, call, closePoolAfterTests, db, login, register, test, unique } from './helpers.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const BASE = '/api/scim/v2';

// Two organisations of this file: a police force with two units, an ambulance trust with one.
const suffix = unique().slice(-10).toUpperCase();
const [{ id: POLICE }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values ('Scimshire Police', ${`S${suffix}`}, 'UKPS') returning id`;
const [{ id: AMBULANCE }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values ('Scimshire Ambulance', ${`T${suffix}`}, 'UKAS') returning id`;
const [{ id: RESPONSE }] = await db.sql<{ id: string }[]>`
  insert into public.units (organisation_id, name) values (${POLICE}, 'Response') returning id`;
await db.sql`insert into public.units (organisation_id, name) values (${AMBULANCE}, 'East Division')`;

// The documentation's addresses are global (a person's email signs in): none is left from a run before.
const DOC_EMAILS = ['test_user_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com', 'updatedemail@microsoft.com'];
await db.sql`delete from auth.users where lower(email) = any(${DOC_EMAILS})`;

async function account(role: string, organisation: string | null) {
  const { user, session } = await register();
  await db.sql`update public.profiles set role = ${role}::public.user_role, organisation_id = ${organisation}::uuid where id = ${user.id}::uuid`;
  return { id: user.id as string, token: session.access_token as string };
}
const policeAdmin = await account('ADMIN', POLICE);
const ambulanceAdmin = await account('ADMIN', AMBULANCE);
const learner = await account('STUDENT', POLICE);
const paramedic = await account('STUDENT', AMBULANCE);

async function newToken(organisation: string, token: string, label: string): Promise<{ token: string; id: string }> {
  const answer = await call('POST', `/api/organisations/${organisation}/scim/tokens`, { token, body: { label } });
  assert.equal(answer.status, 201, answer.text);
  return { token: answer.json.token, id: answer.json.item.id };
}
const police = await newToken(POLICE, policeAdmin.token, 'Microsoft Entra ID');
const ambulance = await newToken(AMBULANCE, ambulanceAdmin.token, 'Entra of the trust');

/** A SCIM request as Entra sends it (application/scim+json, the organisation's token). */
function scim(method: string, path: string, body?: unknown, token = police.token): Promise<Answer> {
  return call(method, `${BASE}${path}`, { token, body, headers: body === undefined ? {} : { 'content-type': 'application/scim+json' } });
}
const filter = (expression: string) => `filter=${encodeURIComponent(expression)}`;

function assertScimError(answer: Answer, status: number, scimType?: string) {
  assert.equal(answer.status, status, answer.text);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/scim\+json/);
  assert.equal(answer.json.schemas[0], ERROR);
  assert.equal(answer.json.status, String(status));
  if (scimType) assert.equal(answer.json.scimType, scimType, answer.text);
  assert.ok(typeof answer.json.detail === 'string' && !/at \w+ \(|select |relation /i.test(answer.json.detail), answer.json.detail);
}

/** What a replayed request must leave as it was: every row SCIM writes, and the audit trail. */
async function snapshot() {
  const [row] = await db.sql<{ state: string }[]>`
    select jsonb_build_object(
      'profiles', (select jsonb_agg(to_jsonb(p) order by p.id) from public.profiles p where p.organisation_id in (${POLICE}, ${AMBULANCE})),
      'links', (select jsonb_agg(to_jsonb(s) order by s.profile_id) from private.scim_users s where s.organisation_id in (${POLICE}, ${AMBULANCE})),
      'units', (select jsonb_agg(to_jsonb(u) order by u.id) from public.units u where u.organisation_id in (${POLICE}, ${AMBULANCE})),
      'audit', (select count(*) from public.audit_events),
      'users', (select count(*) from auth.users))::text as state`;
  return row.state;
}

/** Sends a request, checks its status, then sends it again: the same status, and nothing changed. */
async function replayed(method: string, path: string, body: unknown, status: number, again = status): Promise<Answer> {
  const first = await scim(method, path, body);
  assert.equal(first.status, status, `${method} ${path}: ${first.text}`);
  const before = await snapshot();
  const second = await scim(method, path, body);
  assert.equal(second.status, again, `${method} ${path} again: ${second.text}`);
  assert.equal(await snapshot(), before, `${method} ${path} again changed something`);
  return first;
}

// ---- Microsoft's documented requests, in order ----

const createUser = {
  schemas: [USER, ENTERPRISE],
  externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
  userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1',
  active: true,
  emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com' }],
  meta: { resourceType: 'User' },
  name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
  roles: [],
};
const patchMultiValued = {
  schemas: [PATCH_OP],
  Operations: [
    { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
    { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
  ],
};
const patchSingleValued = {
  schemas: [PATCH_OP],
  Operations: [{ op: 'Replace', path: 'userName', value: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com' }],
};
const disableUser = { Operations: [{ op: 'Replace', path: 'active', value: false }], schemas: [PATCH_OP] };
const createGroup = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group', 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'],
  externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
  displayName: 'displayName',
  meta: { resourceType: 'Group' },
};
const renameGroup = {
  schemas: [PATCH_OP],
  Operations: [{ op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' }],
};
const members = (op: 'Add' | 'Remove', id: string) => ({ schemas: [PATCH_OP], Operations: [{ op, path: 'members', value: [{ $ref: null, value: id }] }] });

test("Entra's user requests: create, get, filter, PATCH multi- and single-valued, disable, delete; each replayed changes nothing", async () => {
  const created = await scim('POST', '/Users', createUser);
  assert.equal(created.status, 201, created.text);
  assert.match(created.headers.get('content-type') ?? '', /^application\/scim\+json/);
  const id = created.json.id as string;
  assert.equal(created.headers.get('location'), created.json.meta.location);
  assert.ok(created.json.meta.location.endsWith(`/api/scim/v2/Users/${id}`));
  assert.equal(created.json.userName, createUser.userName);
  assert.equal(created.json.externalId, createUser.externalId);
  assert.equal(created.json.active, true);
  assert.deepEqual(created.json.name, { formatted: 'givenName familyName', givenName: 'givenName', familyName: 'familyName' });
  assert.equal(created.json.emails[0].value, DOC_EMAILS[0]);
  // Entra's create again (a second cycle, or a retry) meets 409 uniqueness and matches instead.
  const before = await snapshot();
  assertScimError(await scim('POST', '/Users', createUser), 409, 'uniqueness');
  assert.equal(await snapshot(), before);

  const got = await scim('GET', `/Users/${id}`);
  assert.equal(got.status, 200);
  assert.deepEqual(got.json, created.json);
  const found = await scim('GET', `/Users?${filter(`userName eq "${createUser.userName}"`)}`);
  assert.equal(found.status, 200);
  assert.equal(found.json.totalResults, 1);
  assert.equal(found.json.Resources[0].id, id);
  assert.equal(found.json.schemas[0], 'urn:ietf:params:scim:api:messages:2.0:ListResponse');
  const none = await scim('GET', `/Users?${filter('userName eq "non-existent user"')}`);
  assert.deepEqual([none.status, none.json.totalResults, none.json.Resources], [200, 0, []]);
  const byExternalId = await scim('GET', `/Users?${filter(`externalId eq "${createUser.externalId}"`)}`);
  assert.equal(byExternalId.json.totalResults, 1);

  const multi = await replayed('PATCH', `/Users/${id}`, patchMultiValued, 200);
  assert.equal(multi.json.emails[0].value, 'updatedemail@microsoft.com');
  assert.equal(multi.json.name.familyName, 'updatedFamilyName');
  assert.equal(multi.json.displayName, 'givenName updatedFamilyName');
  const single = await replayed('PATCH', `/Users/${id}`, patchSingleValued, 200);
  assert.equal(single.json.userName, '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com');

  const [person] = await db.sql<{ name: string; email: string; organisationId: string; role: string; services: string[] }[]>`
    select name, email, organisation_id, role::text, services::text[] from public.profiles where id = ${id}`;
  assert.deepEqual(person, { name: 'givenName updatedFamilyName', email: 'updatedemail@microsoft.com', organisationId: POLICE, role: 'STUDENT', services: ['UKPS'] });

  const disabled = await replayed('PATCH', `/Users/${id}`, disableUser, 200);
  assert.equal(disabled.json.active, false);
  const [state] = await db.sql<{ deactivated: boolean; banned: boolean }[]>`
    select p.deactivated_at is not null as deactivated, u.banned_until > now() as banned
    from public.profiles p join auth.users u on u.id = p.id where p.id = ${id}`;
  assert.deepEqual(state, { deactivated: true, banned: true });

  // DELETE keeps the person and their records, deactivated; SCIM no longer finds them (a repeat is 404).
  await replayed('DELETE', `/Users/${id}`, undefined, 204, 404);
  assertScimError(await scim('GET', `/Users/${id}`), 404);
  const [kept] = await db.sql<{ deactivated: boolean }[]>`select deactivated_at is not null as deactivated from public.profiles where id = ${id}`;
  assert.deepEqual(kept, { deactivated: true });
  // Every change is in the Activity list, by the token.
  const events = await db.sql<{ action: string; actorName: string; actorId: string | null }[]>`
    select action, actor_name, actor_id from public.audit_events where target_id = ${id} order by id`;
  assert.deepEqual([...new Set(events.map((e) => e.action))], ['user.created', 'user.permissions_changed', 'user.updated', 'user.deactivated', 'user.unlinked']);
  assert.ok(events.every((e) => e.actorName === 'SCIM: Microsoft Entra ID' && e.actorId === null), JSON.stringify(events));
});

test("Entra's group requests: create, get without members, filter by displayName, add and remove a member, rename, delete", async () => {
  const member = await scim('POST', '/Users', { schemas: [USER], userName: `member.${unique()}@scimshire.example`, name: { givenName: 'Morgan', familyName: 'Member' } });
  assert.equal(member.status, 201, member.text);
  const memberId = member.json.id as string;

  const created = await scim('POST', '/Groups', createGroup);
  assert.equal(created.status, 201, created.text);
  const id = created.json.id as string;
  assert.equal(created.json.displayName, 'displayName');
  assertScimError(await scim('POST', '/Groups', createGroup), 409, 'uniqueness');

  const got = await scim('GET', `/Groups/${id}?excludedAttributes=members`);
  assert.equal(got.status, 200);
  assert.equal(got.json.displayName, 'displayName');
  assert.ok(!('members' in got.json));
  const found = await scim('GET', `/Groups?excludedAttributes=members&${filter('displayName eq "displayName"')}`);
  assert.deepEqual([found.json.totalResults, found.json.Resources[0].id, 'members' in found.json.Resources[0]], [1, id, false]);

  await replayed('PATCH', `/Groups/${id}`, members('Add', memberId), 204);
  const [placed] = await db.sql<{ unitId: string }[]>`select unit_id from public.profiles where id = ${memberId}`;
  assert.equal(placed.unitId, id);
  const withMembers = await scim('GET', `/Groups/${id}`);
  assert.deepEqual(withMembers.json.members, [{ value: memberId, display: 'Morgan Member', type: 'User' }]);
  await replayed('PATCH', `/Groups/${id}`, members('Remove', memberId), 204);
  const [unplaced] = await db.sql<{ unitId: string | null }[]>`select unit_id from public.profiles where id = ${memberId}`;
  assert.equal(unplaced.unitId, null);
  await replayed('PATCH', `/Groups/${id}`, renameGroup, 204);
  const [unit] = await db.sql<{ name: string }[]>`select name from public.units where id = ${id}`;
  assert.equal(unit.name, '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName');

  // A unit with people is not deleted (409); an empty one is, and a repeat is 404.
  await scim('PATCH', `/Groups/${id}`, members('Add', memberId));
  assertScimError(await scim('DELETE', `/Groups/${id}`), 409);
  await scim('PATCH', `/Groups/${id}`, members('Remove', memberId));
  await replayed('DELETE', `/Groups/${id}`, undefined, 204, 404);
  assert.equal((await db.sql`select 1 from public.units where id = ${id}`).length, 0);
});

test('department places a person in the unit of that name, and a move of department moves them; Entra\'s non-compliant values are accepted', async () => {
  const manager = await scim('POST', '/Users', { schemas: [USER], userName: `manager.${unique()}@scimshire.example` });
  const created = await scim('POST', '/Users', {
    schemas: [USER, ENTERPRISE], userName: `officer.${unique()}@scimshire.example`, active: 'True',
    [ENTERPRISE]: { department: 'response', manager: manager.json.id },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.json[ENTERPRISE].department, 'Response');
  assert.equal(created.json[ENTERPRISE].manager.value, manager.json.id);
  const id = created.json.id as string;
  const moved = await scim('PATCH', `/Users/${id}`, {
    schemas: [PATCH_OP],
    Operations: [
      { op: 'Add', path: `${ENTERPRISE}:manager`, value: learner.id },
      { op: 'Replace', value: { [`${ENTERPRISE}:department`]: null, active: 'False' } },
    ],
  });
  assert.equal(moved.status, 200, moved.text);
  const [row] = await db.sql<{ unitId: string | null; managerId: string; deactivated: boolean }[]>`
    select unit_id, manager_id, deactivated_at is not null as deactivated from public.profiles where id = ${id}`;
  assert.deepEqual(row, { unitId: null, managerId: learner.id, deactivated: true });
  const back = await scim('PATCH', `/Users/${id}`, {
    schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: 'True' }, { op: 'replace', path: `${ENTERPRISE}:department`, value: 'Response' }],
  });
  assert.equal(back.status, 200, back.text);
  assert.deepEqual([back.json.active, back.json[ENTERPRISE].department], [true, 'Response']);
  assert.equal((await db.sql`select 1 from public.profiles where id = ${id} and unit_id = ${RESPONSE}`).length, 1);
  // An unknown department is refused, not guessed or created.
  assertScimError(await scim('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: `${ENTERPRISE}:department`, value: 'No such unit' }] }), 400, 'invalidValue');
});

test('concurrent creates: each person once, the same userName once (409 uniqueness for the rest), no request waits on the token', async () => {
  const run = unique();
  const many = await Promise.all(Array.from({ length: 24 }, (_, i) =>
    scim('POST', '/Users', { schemas: [USER], userName: `burst.${run}.${i}@scimshire.example` })));
  assert.deepEqual(many.map((a) => a.status), many.map(() => 201), many.map((a) => a.text).join('\n').slice(0, 500));
  const same = await Promise.all(Array.from({ length: 6 }, () =>
    scim('POST', '/Users', { schemas: [USER], userName: `twin.${run}@scimshire.example` })));
  assert.deepEqual(same.map((a) => a.status).sort(), [201, 409, 409, 409, 409, 409]);
  for (const answer of same.filter((a) => a.status === 409)) assertScimError(answer, 409, 'uniqueness');
  const [{ n }] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from private.scim_users where organisation_id = ${POLICE} and user_name like ${`%.${run}%`}`;
  assert.equal(n, 25);
});

test('no token, a malformed one, a person\'s session and a revoked token are 401 in SCIM\'s format', async () => {
  assertScimError(await call('GET', `${BASE}/Users`), 401);
  assertScimError(await scim('GET', '/Users', undefined, 'not-a-token'), 401);
  assertScimError(await scim('GET', '/Users', undefined, policeAdmin.token), 401);
  assertScimError(await scim('GET', '/Users', undefined, `scim_${'0'.repeat(64)}`), 401);
  const revoked = await newToken(POLICE, policeAdmin.token, 'To revoke');
  assert.equal((await scim('GET', '/Users', undefined, revoked.token)).status, 200);
  const answer = await call('DELETE', `/api/organisations/${POLICE}/scim/tokens/${revoked.id}`, { token: policeAdmin.token });
  assert.equal(answer.status, 200, answer.text);
  assert.ok(answer.json.revokedAt);
  assertScimError(await scim('GET', '/Users', undefined, revoked.token), 401);
  assertScimError(await scim('POST', '/Users', createUser, revoked.token), 401);
});

test('one organisation\'s token never reaches another\'s people or units: 404, and nothing changes', async () => {
  const officer = await scim('POST', '/Users', { schemas: [USER], userName: `target.${unique()}@scimshire.example` });
  const id = officer.json.id as string;
  const before = await snapshot();
  assertScimError(await scim('GET', `/Users/${id}`, undefined, ambulance.token), 404);
  assertScimError(await scim('PATCH', `/Users/${id}`, disableUser, ambulance.token), 404);
  assertScimError(await scim('PUT', `/Users/${id}`, { schemas: [USER], userName: 'taken.over' }, ambulance.token), 404);
  assertScimError(await scim('DELETE', `/Users/${id}`, undefined, ambulance.token), 404);
  assertScimError(await scim('GET', `/Groups/${RESPONSE}`, undefined, ambulance.token), 404);
  assertScimError(await scim('PATCH', `/Groups/${RESPONSE}`, renameGroup, ambulance.token), 404);
  assertScimError(await scim('DELETE', `/Groups/${RESPONSE}`, undefined, ambulance.token), 404);
  // Nor is a person of another organisation (one SCIM never made, too) a member, manager or department here.
  assertScimError(await scim('PATCH', `/Groups/${RESPONSE}`, members('Add', paramedic.id)), 400, 'invalidValue');
  assertScimError(await scim('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: `${ENTERPRISE}:manager`, value: paramedic.id }] }), 400, 'invalidValue');
  assertScimError(await scim('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: `${ENTERPRISE}:department`, value: 'East Division' }] }), 400, 'invalidValue');
  const listed = await scim('GET', `/Users?${filter(`userName eq "${officer.json.userName}"`)}`, undefined, ambulance.token);
  assert.equal(listed.json.totalResults, 0);
  assert.equal(await snapshot(), before);
});

test('bad input is 400 in SCIM\'s format, never a 500', async () => {
  for (const expression of ['userName eq', 'foo bar', 'userName co "x"', 'userName eq "a" or userName eq "b"', 'name.familyName eq "x"']) {
    assertScimError(await scim('GET', `/Users?${filter(expression)}`), 400, 'invalidFilter');
  }
  assertScimError(await scim('GET', `/Groups?${filter('members eq "x"')}`), 400, 'invalidFilter');
  assertScimError(await call('POST', `${BASE}/Users`, { token: police.token, raw: '{', headers: { 'content-type': 'application/scim+json' } }), 400, 'invalidSyntax');
  assertScimError(await scim('POST', '/Users', { schemas: [USER] }), 400);
  assertScimError(await scim('POST', '/Users', { schemas: [USER], userName: 'x', active: 'perhaps' }), 400);
  assertScimError(await scim('PATCH', `/Users/${crypto.randomUUID()}`, { schemas: [PATCH_OP], Operations: [{ op: 'jump', path: 'active' }] }), 400);
  // A PATCH whose result breaks the User schema (SCIMMY checks each operation as it applies it):
  // 400, and the person is as they were.
  const target = await scim('POST', '/Users', { schemas: [USER], userName: `schema.${unique()}@scimshire.example` });
  const before = await snapshot();
  const breaking: [unknown, string][] = [
    [{ op: 'remove', path: 'userName' }, 'invalidValue'],
    [{ op: 'replace', value: { userName: null } }, 'invalidValue'],
    [{ op: 'replace', path: 'active', value: 'perhaps' }, 'invalidValue'],
    [{ op: 'replace', path: 'emails', value: 'not-a-list' }, 'invalidValue'],
    [{ op: 'replace', path: 'name.familyName', value: 7 }, 'invalidValue'],
    [{ op: 'replace', path: 'meta.created', value: 'not a date' }, 'invalidValue'],
    [{ op: 'replace', path: 'id', value: crypto.randomUUID() }, 'mutability'],
    [{ op: 'remove', path: 'meta' }, 'mutability'],
  ];
  for (const [operation, scimType] of breaking) {
    assertScimError(await scim('PATCH', `/Users/${target.json.id}`, { schemas: [PATCH_OP], Operations: [operation] }), 400, scimType);
  }
  assert.equal(await snapshot(), before);
  assertScimError(await scim('GET', '/Users/not-an-id'), 404);
  assertScimError(await scim('GET', '/Nothing'), 404);
  const paged = await scim('GET', '/Users?startIndex=2&count=1');
  assert.deepEqual([paged.status, paged.json.startIndex, paged.json.itemsPerPage <= 1], [200, 2, true]);
  assert.ok(paged.json.totalResults >= 2);
  assertScimError(await scim('GET', '/Users?count=lots'), 400, 'invalidValue');
});

test('discovery: ServiceProviderConfig, Schemas and ResourceTypes', async () => {
  const config = await call('GET', `${BASE}/ServiceProviderConfig`);
  assert.equal(config.status, 200);
  assert.equal(config.json.patch.supported, true);
  const schemas = await call('GET', `${BASE}/Schemas`);
  assert.deepEqual(schemas.json.Resources.map((s: { id: string }) => s.id), [USER, ENTERPRISE, 'urn:ietf:params:scim:schemas:core:2.0:Group']);
  const types = await call('GET', `${BASE}/ResourceTypes`);
  assert.deepEqual(types.json.Resources.map((t: { endpoint: string }) => t.endpoint), ['/Users', '/Groups']);
});

test('the token routes: the organisation\'s administrator and national admins; the token is shown once, never its hash', async () => {
  const listed = await call('GET', `/api/organisations/${POLICE}/scim`, { token: policeAdmin.token });
  assert.equal(listed.status, 200, listed.text);
  assert.ok(listed.json.baseUrl.endsWith('/functions/v1/api/scim/v2'));
  const item = listed.json.tokens.find((t: { id: string }) => t.id === police.id);
  assert.equal(item.hint, police.token.slice(-4));
  assert.ok(item.createdByName);
  assert.ok(item.lastUsedAt);
  assert.ok(!listed.text.includes(police.token) && !/hash/i.test(listed.text));
  assert.equal((await call('GET', `/api/organisations/${POLICE}/scim`, { token: ambulanceAdmin.token })).status, 404);
  assert.equal((await call('GET', `/api/organisations/${POLICE}/scim`, { token: learner.token })).status, 403);
  assert.equal((await call('GET', `/api/organisations/${POLICE}/scim`)).status, 401);
  assert.equal((await call('GET', `/api/organisations/${POLICE}/scim`, { token: await login('admin') })).status, 200);
  const bad = await call('POST', `/api/organisations/${POLICE}/scim/tokens`, { token: policeAdmin.token, body: { label: '' } });
  assert.equal(bad.status, 400);
  assert.ok(bad.json.fields.label);
  assert.equal((await call('DELETE', `/api/organisations/${POLICE}/scim/tokens/${ambulance.id}`, { token: policeAdmin.token })).status, 404);
  assert.equal((await call('DELETE', `/api/organisations/${AMBULANCE}/scim/tokens/${ambulance.id}`, { token: policeAdmin.token })).status, 404);
});

test('preferredLanguage: any Welsh tag (cy, cy-GB) makes the person Welsh-speaking, anything else English; on create, replace and patch; returned', async () => {
  const languageOf = async (id: string) =>
    (await db.sql<{ language: string; meta: string | null }[]>`
      select p.language, u.raw_user_meta_data ->> 'language' as meta from public.profiles p join auth.users u on u.id = p.id where p.id = ${id}::uuid`)[0];
  const tag = unique().slice(-8);
  const body = (name: string, preferredLanguage?: string) => ({
    schemas: [USER], userName: `${name}_${tag}@police.example`, externalId: `${name}-${tag}`, active: true,
    name: { givenName: 'Gwenllïan', familyName: name }, emails: [{ primary: true, type: 'work', value: `${name}_${tag}@police.example` }],
    ...(preferredLanguage === undefined ? {} : { preferredLanguage }),
  });
  const welsh = await scim('POST', '/Users', body('cymraeg', 'cy-GB'));
  assert.equal(welsh.status, 201, welsh.text);
  assert.equal(welsh.json.preferredLanguage, 'cy');
  assert.deepEqual({ ...(await languageOf(welsh.json.id)) }, { language: 'cy', meta: 'cy' });
  const plain = await scim('POST', '/Users', body('saesneg'));
  assert.equal(plain.status, 201, plain.text);
  assert.equal(plain.json.preferredLanguage, 'en-GB');
  assert.equal((await languageOf(plain.json.id)).language, 'en-GB');

  // PATCH: cy to Welsh, then fr to English; a repeated PATCH changes nothing.
  const patch = (value: string) => ({ schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'preferredLanguage', value }] });
  const toWelsh = await scim('PATCH', `/Users/${plain.json.id}`, patch('cy'));
  assert.equal(toWelsh.status, 200, toWelsh.text);
  assert.equal(toWelsh.json.preferredLanguage, 'cy');
  assert.deepEqual({ ...(await languageOf(plain.json.id)) }, { language: 'cy', meta: 'cy' });
  const toEnglish = await scim('PATCH', `/Users/${plain.json.id}`, patch('fr-FR'));
  assert.equal(toEnglish.json.preferredLanguage, 'en-GB');
  assert.deepEqual({ ...(await languageOf(plain.json.id)) }, { language: 'en-GB', meta: 'en-GB' });

  // PUT replaces: without preferredLanguage the person reads English; with CY, Welsh.
  const replaced = await scim('PUT', `/Users/${welsh.json.id}`, body('cymraeg'));
  assert.equal(replaced.status, 200, replaced.text);
  assert.equal(replaced.json.preferredLanguage, 'en-GB');
  const again = await scim('PUT', `/Users/${welsh.json.id}`, body('cymraeg', 'CY'));
  assert.equal(again.json.preferredLanguage, 'cy');
  assert.equal((await languageOf(welsh.json.id)).language, 'cy');
});

closePoolAfterTests();
