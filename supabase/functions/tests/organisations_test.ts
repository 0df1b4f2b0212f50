// /api/organisations against the real platform: who may list and create organisations and
// manage their unit trees, and the validation of each write (400, 403, 404, 409); a person's
// organisation, unit and manager in the admin's user list and PUT /api/users/:id.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, register, test, unique } from './helpers.ts';

// The organisations of this file (the test platform has seed.sql's people only): a police force
// with North Area > Central Station > Response Team 1 and 2, and an ambulance trust with East
// Division; orgadmin administers the force; manager manages sergeant, who manages constable1 and
// constable2; paramedic belongs to the trust.
const suffix = unique().slice(-10).toUpperCase();
const [{ id: POLICE }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values ('Testshire Police', ${`P${suffix}`}, 'UKPS') returning id`;
const [{ id: AMBULANCE }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values ('Testshire Ambulance', ${`A${suffix}`}, 'UKAS') returning id`;
async function unitOf(organisation: string, parent: string | null, name: string): Promise<string> {
  const [row] = await db.sql<{ id: string }[]>`
    insert into public.units (organisation_id, parent_id, name) values (${organisation}, ${parent}, ${name}) returning id`;
  return row.id;
}
const NORTH_AREA = await unitOf(POLICE, null, 'North Area');
const CENTRAL_STATION = await unitOf(POLICE, NORTH_AREA, 'Central Station');
const RESPONSE_TEAM_1 = await unitOf(POLICE, CENTRAL_STATION, 'Response Team 1');
const RESPONSE_TEAM_2 = await unitOf(POLICE, CENTRAL_STATION, 'Response Team 2');
const EAST_DIVISION = await unitOf(AMBULANCE, null, 'East Division');

interface Account { id: string; username: string; token: string }
async function account(role: string, organisation: string, unit: string | null, manager: string | null = null): Promise<Account> {
  const { user, session, input } = await register();
  await db.sql`update public.profiles set role = ${role}::public.user_role, organisation_id = ${organisation}::uuid,
    unit_id = ${unit}::uuid, manager_id = ${manager}::uuid where id = ${user.id}::uuid`;
  return { id: user.id, username: input.username, token: session.access_token };
}
const orgadmin = await account('ADMIN', POLICE, null);
const managerAccount = await account('STUDENT', POLICE, CENTRAL_STATION);
const sergeant = await account('STUDENT', POLICE, RESPONSE_TEAM_1, managerAccount.id);
const constable1 = await account('STUDENT', POLICE, RESPONSE_TEAM_1, sergeant.id);
const constable2 = await account('STUDENT', POLICE, RESPONSE_TEAM_2, sergeant.id);
const paramedic = await account('STUDENT', AMBULANCE, EAST_DIVISION);

async function login(username: string): Promise<string> {
  if (username === 'orgadmin') return orgadmin.token;
  if (username === 'manager') return managerAccount.token;
  const answer = await call('POST', '/api/login', { body: { username, password: 'password123' } });
  assert.equal(answer.status, 200, answer.text);
  return answer.json.session.access_token;
}

/** Units made here, removed at the end (children first). */
const madeUnits: string[] = [];
const madeOrganisations: string[] = [];

test('organisations: visitors 401, people who administer nothing 403', async () => {
  assert.equal((await call('GET', '/api/organisations')).status, 401);
  assert.equal((await call('POST', '/api/organisations', { body: { name: 'X', code: 'XX', service: 'UKPS' } })).status, 401);
  const learner = (await register()).session.access_token;
  for (const token of [learner, await login('student'), await login('instructor'), await login('manager')]) {
    assert.equal((await call('GET', '/api/organisations', { token })).status, 403);
    assert.equal((await call('POST', '/api/organisations', { token, body: { name: 'Mine', code: `M${unique().slice(-8)}`, service: 'UKPS' } })).status, 403);
    assert.equal((await call('GET', `/api/organisations/${POLICE}/units`, { token })).status, 403);
    assert.equal((await call('POST', `/api/organisations/${POLICE}/units`, { token, body: { name: 'Mine' } })).status, 403);
    assert.equal((await call('PUT', `/api/organisations/${POLICE}/units/${RESPONSE_TEAM_1}`, { token, body: { name: 'Mine' } })).status, 403);
  }
});

test('organisations: a national administrator lists every organisation and creates one; codes are unique ignoring case', async () => {
  const admin = await login('admin');
  const list = await call('GET', '/api/organisations', { token: admin });
  assert.equal(list.status, 200, list.text);
  const ids = list.json.map((o: { id: string }) => o.id);
  assert.ok(ids.includes(POLICE) && ids.includes(AMBULANCE));
  assert.deepEqual(Object.keys(list.json[0]).sort(), ['code', 'createdAt', 'id', 'name', 'people', 'service']);
  const counted = new Map(list.json.map((o: { id: string; people: number }) => [o.id, o.people]));
  assert.equal(counted.get(POLICE), 5); // orgadmin, manager, sergeant, constable1 and constable2
  assert.equal(counted.get(AMBULANCE), 1);

  const code = `T${unique().slice(-10)}`.toUpperCase();
  const created = await call('POST', '/api/organisations', { token: admin, body: { name: '  Testshire Fire and Rescue  ', code, service: 'UKFRS' } });
  assert.equal(created.status, 201, created.text);
  madeOrganisations.push(created.json.id);
  assert.equal(created.json.name, 'Testshire Fire and Rescue');
  assert.equal(created.json.service, 'UKFRS');
  assert.equal(created.json.people, 0);
  const again = await call('POST', '/api/organisations', { token: admin, body: { name: 'Copy', code: code.toLowerCase(), service: 'UKFRS' } });
  assert.equal(again.status, 409, again.text);
  assert.ok(again.json.fields.code);

  for (const body of [
    { name: '', code: 'OK1', service: 'UKPS' },
    { name: 'Bad code', code: 'N S P', service: 'UKPS' },
    { name: 'Bad code', code: 'X', service: 'UKPS' },
    { name: 'Bad service', code: 'OK2', service: 'NOPE' },
    { name: 'Invisible\u200Bname', code: 'OK3', service: 'UKPS' },
    {},
  ]) {
    const answer = await call('POST', '/api/organisations', { token: admin, body });
    assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${answer.text}`);
  }
});

test('organisations: an organisation administrator sees only their own, and creates none', async () => {
  const orgadmin = await login('orgadmin');
  const list = await call('GET', '/api/organisations', { token: orgadmin });
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.json.map((o: { id: string }) => o.id), [POLICE]);
  const create = await call('POST', '/api/organisations', { token: orgadmin, body: { name: 'Mine', code: `M${unique().slice(-8)}`, service: 'UKPS' } });
  assert.equal(create.status, 403);
});

test('units: read the tree of one\'s own organisation with each unit\'s people; another organisation is not found', async () => {
  const orgadmin = await login('orgadmin');
  const units = await call('GET', `/api/organisations/${POLICE}/units`, { token: orgadmin });
  assert.equal(units.status, 200, units.text);
  const byId = new Map(units.json.map((u: { id: string }) => [u.id, u]));
  assert.equal((byId.get(CENTRAL_STATION) as { parentId: string }).parentId, NORTH_AREA);
  assert.equal((byId.get(NORTH_AREA) as { parentId: string | null }).parentId, null);
  assert.equal((byId.get(RESPONSE_TEAM_1) as { people: number }).people, 2); // sergeant and constable1
  assert.equal(units.json.some((u: { organisationId: string }) => u.organisationId !== POLICE), false);

  assert.equal((await call('GET', `/api/organisations/${AMBULANCE}/units`, { token: orgadmin })).status, 404);
  assert.equal((await call('GET', `/api/organisations/${crypto.randomUUID()}/units`, { token: orgadmin })).status, 404);
  assert.equal((await call('GET', '/api/organisations/not-a-uuid/units', { token: orgadmin })).status, 404);
  const admin = await login('admin');
  assert.equal((await call('GET', `/api/organisations/${AMBULANCE}/units`, { token: admin })).status, 200);
  assert.equal((await call('GET', `/api/organisations/${crypto.randomUUID()}/units`, { token: admin })).status, 404);
});

test('units: each unit counts its people and its sub-units\' people, in one statement', async () => {
  const orgadmin = await login('orgadmin');
  const base = `/api/organisations/${POLICE}/units`;
  const people = async () => {
    const units = await call('GET', base, { token: orgadmin });
    assert.equal(units.status, 200, units.text);
    return new Map(units.json.map((u: { id: string; people: number }) => [u.id, u.people]));
  };
  const before = await people();
  // manager in Central Station; sergeant and constable1 in Response Team 1; constable2 in Team 2.
  assert.equal(before.get(RESPONSE_TEAM_1), 2);
  assert.equal(before.get(RESPONSE_TEAM_2), 1);
  assert.equal(before.get(CENTRAL_STATION), 4);
  assert.equal(before.get(NORTH_AREA), 4);

  // A moved unit carries its people to its new ancestors; the answer of the move counts its subtree.
  const moved = await call('PUT', `${base}/${RESPONSE_TEAM_2}`, { token: orgadmin, body: { parentId: null } });
  assert.equal(moved.status, 200, moved.text);
  assert.equal(moved.json.people, 1);
  const after = await people();
  assert.equal(after.get(CENTRAL_STATION), 3);
  assert.equal(after.get(NORTH_AREA), 3);
  assert.equal(after.get(RESPONSE_TEAM_2), 1);
  const back = await call('PUT', `${base}/${RESPONSE_TEAM_2}`, { token: orgadmin, body: { parentId: CENTRAL_STATION } });
  assert.equal(back.status, 200, back.text);
  assert.equal((await people()).get(NORTH_AREA), 4);

  // The national administrator sees the same counts.
  const national = await call('GET', base, { token: await login('admin') });
  assert.equal(national.json.find((u: { id: string }) => u.id === NORTH_AREA).people, 4);
});

test('units: add, rename and move within one\'s organisation, with 400, 404 and 409', async () => {
  const orgadmin = await login('orgadmin');
  const base = `/api/organisations/${POLICE}/units`;
  const name = `Night Team ${unique()}`;
  const team = await call('POST', base, { token: orgadmin, body: { name, parentId: CENTRAL_STATION } });
  assert.equal(team.status, 201, team.text);
  madeUnits.unshift(team.json.id);
  assert.deepEqual({ parentId: team.json.parentId, people: team.json.people }, { parentId: CENTRAL_STATION, people: 0 });
  const sub = await call('POST', base, { token: orgadmin, body: { name: `Night Squad ${unique()}`, parentId: team.json.id } });
  assert.equal(sub.status, 201, sub.text);
  madeUnits.unshift(sub.json.id);
  const top = await call('POST', base, { token: orgadmin, body: { name: `South Area ${unique()}` } });
  assert.equal(top.status, 201, top.text);
  madeUnits.push(top.json.id);
  assert.equal(top.json.parentId, null);

  // 409: the same name under the same parent, whatever its case.
  assert.equal((await call('POST', base, { token: orgadmin, body: { name: name.toUpperCase(), parentId: CENTRAL_STATION } })).status, 409);
  // 404: a parent of another organisation, or none at all; the other organisation itself.
  assert.equal((await call('POST', base, { token: orgadmin, body: { name: 'Stray', parentId: EAST_DIVISION } })).status, 404);
  assert.equal((await call('POST', base, { token: orgadmin, body: { name: 'Stray', parentId: crypto.randomUUID() } })).status, 404);
  assert.equal((await call('POST', `/api/organisations/${AMBULANCE}/units`, { token: orgadmin, body: { name: 'Stray' } })).status, 404);
  // 400: no name, a name too long or invisible, a parent that is not an id.
  for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(201) }, { name: 'A\u202Eb' }, { name: 'Ok', parentId: 'abc' }]) {
    assert.equal((await call('POST', base, { token: orgadmin, body })).status, 400, JSON.stringify(body));
  }

  // Rename, then move under the new top unit, then back to top level.
  const unit = `${base}/${team.json.id}`;
  const renamed = await call('PUT', unit, { token: orgadmin, body: { name: `${name} (renamed)` } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.deepEqual({ name: renamed.json.name, parentId: renamed.json.parentId }, { name: `${name} (renamed)`, parentId: CENTRAL_STATION });
  const moved = await call('PUT', unit, { token: orgadmin, body: { parentId: top.json.id } });
  assert.equal(moved.status, 200, moved.text);
  assert.equal(moved.json.parentId, top.json.id);
  // 409: below itself (its own sub-unit) or itself.
  assert.equal((await call('PUT', unit, { token: orgadmin, body: { parentId: sub.json.id } })).status, 409);
  assert.equal((await call('PUT', unit, { token: orgadmin, body: { parentId: team.json.id } })).status, 409);
  // 404: a parent elsewhere, a unit of another organisation, an unknown unit.
  assert.equal((await call('PUT', unit, { token: orgadmin, body: { parentId: EAST_DIVISION } })).status, 404);
  assert.equal((await call('PUT', `/api/organisations/${AMBULANCE}/units/${EAST_DIVISION}`, { token: orgadmin, body: { name: 'Mine' } })).status, 404);
  assert.equal((await call('PUT', `${base}/${EAST_DIVISION}`, { token: orgadmin, body: { name: 'Mine' } })).status, 404);
  assert.equal((await call('PUT', `${base}/${crypto.randomUUID()}`, { token: orgadmin, body: { name: 'Mine' } })).status, 404);
  // 400: nothing to change.
  assert.equal((await call('PUT', unit, { token: orgadmin, body: {} })).status, 400);
  const back = await call('PUT', unit, { token: orgadmin, body: { parentId: null } });
  assert.equal(back.status, 200, back.text);
  assert.equal(back.json.parentId, null);

  // The national administrator manages any organisation's units.
  const admin = await login('admin');
  const renamedByAdmin = await call('PUT', unit, { token: admin, body: { name: `${name} (national)` } });
  assert.equal(renamedByAdmin.status, 200, renamedByAdmin.text);
});

const MANAGER = managerAccount.id;
const SERGEANT = sergeant.id;
const CONSTABLE1 = constable1.id;
const CONSTABLE2 = constable2.id;
const PARAMEDIC = paramedic.id;

test('users: the admin list and PUT /api/users/:id carry organisation, unit and manager, validated', async () => {
  const admin = await login('admin');
  const found = await call('GET', `/api/users?search=${constable1.username}`, { token: admin });
  assert.equal(found.status, 200, found.text);
  const constable = found.json.items.find((u: { id: string }) => u.id === CONSTABLE1);
  assert.deepEqual(
    { organisationId: constable.organisationId, unitId: constable.unitId, managerId: constable.managerId },
    { organisationId: POLICE, unitId: RESPONSE_TEAM_1, managerId: SERGEANT },
  );
  const student = (await call('GET', '/api/users?search=student', { token: admin })).json.items[0];
  assert.equal('organisationId' in student || 'unitId' in student || 'managerId' in student, false);

  const url = `/api/users/${CONSTABLE2}`;
  try {
    const moved = await call('PUT', url, { token: admin, body: { unitId: RESPONSE_TEAM_1, managerId: MANAGER } });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual({ unitId: moved.json.unitId, managerId: moved.json.managerId }, { unitId: RESPONSE_TEAM_1, managerId: MANAGER });

    // 400: a unit or manager of another organisation, oneself as manager, an unknown organisation, not an id.
    for (const [body, field] of [
      [{ unitId: EAST_DIVISION }, 'unitId'],
      [{ managerId: PARAMEDIC }, 'managerId'],
      [{ managerId: CONSTABLE2 }, 'managerId'],
      [{ organisationId: crypto.randomUUID() }, 'organisationId'],
      [{ unitId: 'abc' }, 'unitId'],
    ] as const) {
      const answer = await call('PUT', url, { token: admin, body });
      assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${answer.text}`);
      assert.ok(answer.json.fields[field], answer.text);
    }
    // 409: a management cycle (the manager managed by one of their reports).
    const cycle = await call('PUT', `/api/users/${MANAGER}`, { token: admin, body: { managerId: CONSTABLE1 } });
    assert.equal(cycle.status, 409, cycle.text);

    // A move to another organisation leaves unit and manager unless new ones are given.
    const away = await call('PUT', url, { token: admin, body: { organisationId: AMBULANCE } });
    assert.equal(away.status, 200, away.text);
    assert.deepEqual([away.json.organisationId, away.json.unitId, away.json.managerId], [AMBULANCE, undefined, undefined]);
    // (That the old organisation's administrator no longer sees them is row-level security's:
    // supabase/tests/organisations.test.ts.)
  } finally {
    const back = await call('PUT', url, { token: admin, body: { organisationId: POLICE, unitId: RESPONSE_TEAM_2, managerId: SERGEANT } });
    assert.equal(back.status, 200, back.text);
  }

  // Nobody places themselves; an organisation's administrator places their own people (the rest of
  // what they may do: org_admin_test.ts).
  const me = (await call('GET', '/api/user', { token: admin })).json;
  assert.equal((await call('PUT', `/api/users/${me.id}`, { token: admin, body: { organisationId: POLICE } })).status, 403);
  const orgadmin = await login('orgadmin');
  const placed = await call('PUT', url, { token: orgadmin, body: { unitId: RESPONSE_TEAM_1 } });
  assert.equal(placed.status, 200, placed.text);
  assert.equal((await call('PUT', url, { token: orgadmin, body: { unitId: RESPONSE_TEAM_2 } })).status, 200);
  const manager = await login('manager');
  assert.equal((await call('PUT', url, { token: manager, body: { managerId: MANAGER } })).status, 403);
});

test('certificates: the public verification names the organisation of issue, and none for a learner of none', async () => {
  const course = '10000000-0000-4000-a000-000000000001';
  const loner = (await register()).user;
  try {
    for (const id of [constable1.id, loner.id]) {
      await db.sql`insert into public.enrollments (user_id, course_id) values (${id}::uuid, ${course}::uuid) on conflict do nothing`;
      await db.sql`select private.issue_certificate(${id}::uuid, ${course}::uuid)`;
    }
    const codes = await db.sql<{ userId: string; code: string }[]>`
      select user_id as "userId", verification_code as code from public.certificates
      where course_id = ${course}::uuid and user_id in (${constable1.id}::uuid, ${loner.id}::uuid)`;
    const codeOf = (id: string) => codes.find((c) => c.userId === id)!.code;
    const police = await call('GET', `/api/certificates/verify/${codeOf(constable1.id)}`);
    assert.equal(police.status, 200, police.text);
    assert.equal(police.json.organisationName, 'Testshire Police');
    const none = await call('GET', `/api/certificates/verify/${codeOf(loner.id)}`);
    assert.equal(none.status, 200, none.text);
    assert.equal('organisationName' in none.json, false);
  } finally {
    await db.sql`delete from public.certificates where course_id = ${course}::uuid and user_id in (${constable1.id}::uuid, ${loner.id}::uuid)`;
    await db.sql`delete from public.enrollments where course_id = ${course}::uuid and user_id in (${constable1.id}::uuid, ${loner.id}::uuid)`;
  }
});

test('(clean up the units and organisations made here)', async () => {
  for (const id of madeUnits) await db.sql`delete from public.units where id = ${id}`;
  for (const id of madeOrganisations) await db.sql`delete from public.organisations where id = ${id}`;
  // This file's people leave its organisations as learners (their accounts stay, as other tests'
  // do; an administrator without an organisation would be a national one), and the organisations go.
  await db.sql`update public.profiles set role = 'STUDENT', organisation_id = null
    where organisation_id in (${POLICE}, ${AMBULANCE})`;
  await db.sql`delete from public.organisations where id in (${POLICE}, ${AMBULANCE})`;
});

closePoolAfterTests();
