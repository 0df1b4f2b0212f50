// Organisations' administrators through /api: an organisation's administrator lists,
// changes, deactivates, resets, deletes, reads the learning record of, imports and exports their own
// organisation's people only; another organisation's people and people of none are 404 to them;
// they cannot move anyone out of their organisation (nor make a national administrator), and the
// national-only routes stay 403. The Users list's organisation, unit and manager filters, and the
// CSV import's organisation, unit and manager columns (two bad rows reported).
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, register, test, unique } from './helpers.ts';

const suffix = unique().slice(-10).toUpperCase();
const CODE_A = `OA${suffix}`;
const CODE_B = `OB${suffix}`;
const [{ id: ORG_A }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values (${`Orgadminshire Police ${suffix}`}, ${CODE_A}, 'UKPS') returning id`;
const [{ id: ORG_B }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values (${`Orgadminshire Ambulance ${suffix}`}, ${CODE_B}, 'UKAS') returning id`;
async function unitOf(organisation: string, parent: string | null, name: string): Promise<string> {
  const [row] = await db.sql<{ id: string }[]>`
    insert into public.units (organisation_id, parent_id, name) values (${organisation}, ${parent}, ${name}) returning id`;
  return row.id;
}
const NORTH = await unitOf(ORG_A, null, 'North Area');
const CENTRAL = await unitOf(ORG_A, NORTH, 'Central Station');
const HARBOUR = await unitOf(ORG_A, NORTH, 'Harbour Station');
await unitOf(ORG_A, HARBOUR, 'Red Watch');
await unitOf(ORG_A, CENTRAL, 'Red Watch'); // two units named Red Watch: only a path finds one
const EAST = await unitOf(ORG_B, null, 'East Division');

interface Account { id: string; username: string; email: string; token: string }
async function account(role: string, organisation: string | null, unit: string | null = null, manager: string | null = null): Promise<Account> {
  const { user, session, input } = await register();
  await db.sql`update public.profiles set role = ${role}::public.user_role, organisation_id = ${organisation}::uuid,
    unit_id = ${unit}::uuid, manager_id = ${manager}::uuid where id = ${user.id}::uuid`;
  return { id: user.id, username: input.username, email: input.email, token: session.access_token };
}
const adminA = await account('ADMIN', ORG_A);
const adminB = await account('ADMIN', ORG_B);
const national = await account('ADMIN', null);
const leadA = await account('STUDENT', ORG_A, CENTRAL);
const personA = await account('STUDENT', ORG_A, CENTRAL, leadA.id);
const harbourA = await account('STUDENT', ORG_A, HARBOUR);
const personB = await account('STUDENT', ORG_B, EAST);
const nobody = await account('STUDENT', null); // of no organisation

interface Row { id: string; organisationId?: string; unitId?: string; managerId?: string; organisationName?: string; unitName?: string; managerName?: string }
const list = async (token: string, query = '') => {
  const answer = await call('GET', `/api/users?pageSize=100${query}`, { token });
  assert.equal(answer.status, 200, answer.text);
  return answer.json as { items: Row[]; total: number };
};
const ids = (rows: Row[]) => new Set(rows.map((r) => r.id));

test('org admin: lists their organisation\'s people only, with the names of organisation, unit and manager', async () => {
  const all = await list(adminA.token);
  assert.ok(all.items.every((r) => r.organisationId === ORG_A), 'only organisation A');
  for (const p of [adminA, leadA, personA, harbourA]) assert.ok(ids(all.items).has(p.id));
  assert.equal(all.total, 4);
  const row = all.items.find((r) => r.id === personA.id)!;
  assert.deepEqual(
    [row.organisationName, row.unitName, row.managerName, row.unitId, row.managerId],
    [`Orgadminshire Police ${suffix}`, 'Central Station', (await nameOf(leadA.id)), CENTRAL, leadA.id],
  );
  // A search (the national administrators' search function answers no one else) and every filter
  // keep to their organisation.
  assert.equal((await list(adminA.token, `&search=${personB.username}`)).total, 0);
  assert.equal((await list(adminA.token, `&search=${nobody.username}`)).total, 0);
  const found = await list(adminA.token, `&search=${personA.username}`);
  assert.deepEqual([...ids(found.items)], [personA.id]);
  assert.equal(found.items[0].unitName, 'Central Station');
  assert.equal((await list(adminA.token, `&organisationId=${ORG_B}`)).total, 0);
  assert.equal((await list(adminA.token, `&unitId=${EAST}`)).total, 0);
  assert.equal((await list(adminA.token, '&status=active&role=STUDENT')).total, 3);
  // B's administrator sees B's, not A's.
  const b = await list(adminB.token);
  assert.deepEqual(ids(b.items), new Set([adminB.id, personB.id]));
});

async function nameOf(id: string): Promise<string> {
  const [row] = await db.sql<{ name: string }[]>`select name from public.profiles where id = ${id}::uuid`;
  return row.name;
}

test('users list: filters by organisation, unit (with its sub-units) and manager, validated', async () => {
  const token = national.token;
  assert.deepEqual(ids((await list(token, `&organisationId=${ORG_A}`)).items), new Set([adminA.id, leadA.id, personA.id, harbourA.id]));
  assert.deepEqual(ids((await list(token, `&unitId=${NORTH}`)).items), new Set([leadA.id, personA.id, harbourA.id]));
  assert.deepEqual(ids((await list(token, `&unitId=${HARBOUR}`)).items), new Set([harbourA.id]));
  assert.deepEqual(ids((await list(token, `&managerId=${leadA.id}`)).items), new Set([personA.id]));
  assert.deepEqual(ids((await list(token, `&organisationId=${ORG_A}&unitId=${CENTRAL}&search=${personA.username}`)).items), new Set([personA.id]));
  assert.deepEqual(ids((await list(token, `&search=${personB.username}`)).items), new Set([personB.id]));
  assert.equal((await list(token, `&search=${personB.username}`)).items[0].organisationName, `Orgadminshire Ambulance ${suffix}`);
  for (const [key, value] of [['organisationId', 'abc'], ['unitId', '1234'], ['managerId', 'not-a-uuid']]) {
    const answer = await call('GET', `/api/users?${key}=${value}`, { token });
    assert.equal(answer.status, 400, answer.text);
    assert.ok(answer.json.fields[key], answer.text);
  }
});

test('org admin: another organisation\'s person, or a person of none, is not found (404) on every route', async () => {
  for (const other of [personB, nobody, national]) {
    for (const [method, path, body] of [
      ['PUT', `/api/users/${other.id}`, { name: 'Taken Over' }],
      ['DELETE', `/api/users/${other.id}`, undefined],
      ['POST', `/api/users/${other.id}/deactivate`, undefined],
      ['POST', `/api/users/${other.id}/reactivate`, undefined],
      ['POST', `/api/users/${other.id}/reset-password`, undefined],
      ['GET', `/api/users/${other.id}/enrollments`, undefined],
      ['GET', `/api/admin/users/${other.id}/learning-record`, undefined],
      ['GET', `/api/admin/users/${other.id}/learning-record.pdf`, undefined],
      ['GET', `/api/admin/users/${other.id}/learning-record.csv`, undefined],
    ] as const) {
      const answer = await call(method, path, { token: adminA.token, body });
      assert.equal(answer.status, 404, `${method} ${path}: ${answer.text}`);
    }
  }
  // Nothing happened to them.
  const [row] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from public.profiles
    where id in (${personB.id}::uuid, ${nobody.id}::uuid, ${national.id}::uuid) and deactivated_at is null and name <> 'Taken Over'
      and not must_change_password`;
  assert.equal(row.n, 3);
});

test('org admin: changes, places, deactivates, resets and reads the record of their own people', async () => {
  const url = `/api/users/${harbourA.id}`;
  const renamed = await call('PUT', url, { token: adminA.token, body: { name: 'Harbour Person', unitId: CENTRAL, managerId: leadA.id } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.deepEqual([renamed.json.name, renamed.json.unitId, renamed.json.managerId], ['Harbour Person', CENTRAL, leadA.id]);
  // A unit or manager of another organisation is refused (400), as for a national administrator.
  assert.equal((await call('PUT', url, { token: adminA.token, body: { unitId: EAST } })).status, 400);
  assert.equal((await call('PUT', url, { token: adminA.token, body: { managerId: personB.id } })).status, 400);
  // Never a move out of their organisation, to another or to none (a national administrator).
  for (const organisationId of [ORG_B, null]) {
    const moved = await call('PUT', url, { token: adminA.token, body: { organisationId } });
    assert.equal(moved.status, 403, moved.text);
    const made = await call('PUT', url, { token: adminA.token, body: { organisationId, role: 'ADMIN' } });
    assert.equal(made.status, 403, made.text);
  }
  // Made an administrator, the person administers organisation A only.
  const promoted = await call('PUT', url, { token: adminA.token, body: { role: 'ADMIN', organisationId: ORG_A } });
  assert.equal(promoted.status, 200, promoted.text);
  assert.equal(promoted.json.organisationId, ORG_A);
  const [{ national: isNational }] = await db.sql<{ national: boolean }[]>`
    select role = 'ADMIN' and organisation_id is null as national from public.profiles where id = ${harbourA.id}::uuid`;
  assert.equal(isNational, false);
  assert.equal((await call('PUT', url, { token: adminA.token, body: { role: 'STUDENT', unitId: HARBOUR, managerId: null } })).status, 200);

  const off = await call('POST', `${url}/deactivate`, { token: adminA.token });
  assert.equal(off.status, 200, off.text);
  assert.ok(off.json.deactivatedAt);
  assert.equal((await call('POST', `${url}/reactivate`, { token: adminA.token })).status, 200);
  const reset = await call('POST', `${url}/reset-password`, { token: adminA.token });
  assert.equal(reset.status, 200, reset.text);
  assert.ok(reset.json.temporaryPassword);
  assert.equal((await call('GET', `/api/users/${personA.id}/enrollments`, { token: adminA.token })).status, 200);
  const record = await call('GET', `/api/admin/users/${personA.id}/learning-record`, { token: adminA.token });
  assert.equal(record.status, 200, record.text);
  assert.equal(record.json.learner.id, personA.id);
  assert.equal((await call('GET', `/api/admin/users/${personA.id}/learning-record.csv`, { token: adminA.token })).status, 200);

  // Delete: their person goes; B's administrator could not have.
  const victim = await account('STUDENT', ORG_A);
  assert.equal((await call('DELETE', `/api/users/${victim.id}`, { token: adminB.token })).status, 404);
  assert.equal((await call('DELETE', `/api/users/${victim.id}`, { token: adminA.token })).status, 204);
  assert.equal((await db.sql`select 1 from public.profiles where id = ${victim.id}::uuid`).length, 0);
});

test('org admin: the national-only routes stay 403', async () => {
  const token = adminA.token;
  assert.equal((await call('PUT', '/api/settings', { token, body: {} })).status, 403);
  assert.equal((await call('GET', '/api/roles', { token })).status, 403);
  assert.equal((await call('PUT', '/api/roles/INSTRUCTOR/services', { token, body: { services: ['UKPS'] } })).status, 403);
  assert.equal((await call('POST', '/api/organisations', { token, body: { name: 'Mine', code: `M${unique().slice(-8)}`, service: 'UKPS' } })).status, 403);
  // Adding one account (the Add User dialog) stays national: an organisation's administrator imports.
  const id = unique();
  assert.equal((await call('POST', '/api/users', { token, body: { username: `oa_${id}`, email: `oa_${id}@example.test`, name: 'Added', role: 'ADMIN' } })).status, 403);
});

test('org admin: the activity trail holds the events by or about their people only (row-level security on audit_events)', async () => {
  await db.sql`insert into public.audit_events (action, target_type, target_id, target_label) values
    ('orgadmintest.about', 'user', ${personA.id}::uuid, ${personA.username}),
    ('orgadmintest.about', 'user', ${personB.id}::uuid, ${personB.username}),
    ('orgadmintest.about', 'user', ${nobody.id}::uuid, ${nobody.username})`;
  const page = await call('GET', '/api/audit?action=orgadmintest.about&pageSize=100', { token: adminA.token });
  assert.equal(page.status, 200, page.text);
  assert.deepEqual(page.json.items.map((e: { targetLabel: string }) => e.targetLabel), [personA.username]);
  const csv = await call('GET', '/api/audit/export.csv?action=orgadmintest.about', { token: adminA.token });
  assert.equal(csv.status, 200, csv.text);
  assert.ok(csv.text.includes(personA.username) && !csv.text.includes(personB.username) && !csv.text.includes(nobody.username));
  const all = await call('GET', '/api/audit?action=orgadmintest.about&pageSize=100', { token: national.token });
  assert.equal(all.json.total, 3);
  // A person who administers nothing still reads nothing.
  assert.equal((await call('GET', '/api/audit', { token: personA.token })).status, 403);
  await db.sql`delete from public.audit_events where action = 'orgadmintest.about'`;
});

test('import: organisation, unit and manager columns, checked in the preview and applied on import; an org admin imports into theirs only', async () => {
  const id = unique().slice(-8);
  const u = (n: number) => `imp${n}_${id}`;
  const csv = [
    'username,email,name,organisation,unit,manager',
    `${u(1)},${u(1)}@example.test,Imported Lead,,North Area/Central Station/Red Watch,${leadA.username}`,
    `${u(2)},${u(2)}@example.test,Imported Constable,${CODE_A.toLowerCase()},Harbour Station,${u(1)}@example.test`,
    `${u(3)},${u(3)}@example.test,Wrong Organisation,${CODE_B},,`, // bad: another organisation
    `${u(4)},${u(4)}@example.test,Unknown Manager,,Central Station,${personB.username}`, // bad: B's person
    `${u(5)},${u(5)}@example.test,Ambiguous Unit,,Red Watch,`, // bad: two Red Watches
  ].join('\n');
  const preview = await call('POST', '/api/admin/users/import/preview', { token: adminA.token, body: { csv } });
  assert.equal(preview.status, 200, preview.text);
  const problems = Object.fromEntries(preview.json.rows.map((r: { line: number; problems: { field: string }[] }) => [r.line, r.problems.map((p) => p.field)]));
  assert.deepEqual(problems, { 2: [], 3: [], 4: ['organisation'], 5: ['manager'], 6: ['unit'] });
  assert.equal(preview.json.rows[0].organisation, `Orgadminshire Police ${suffix}`);
  assert.equal(preview.json.rows[0].unit, 'North Area/Central Station/Red Watch');
  assert.equal(preview.json.invalid, 3);

  // The import checks again: every row sent, the bad ones skipped with the same reasons.
  const rows = preview.json.rows.map((r: Record<string, unknown>) => ({
    line: r.line, username: r.username, email: r.email, name: r.name, role: r.role, services: '',
    organisation: r.organisation, unit: r.unit, manager: r.manager,
  }));
  const done = await call('POST', '/api/admin/users/import', { token: adminA.token, body: { importId: crypto.randomUUID(), part: 1, rows } });
  assert.equal(done.status, 201, done.text);
  assert.deepEqual(done.json.created.map((r: { line: number }) => r.line), [2, 3]);
  assert.deepEqual(done.json.skipped.map((r: { line: number; problems: { field: string }[] }) => [r.line, r.problems[0].field]),
    [[4, 'organisation'], [5, 'manager'], [6, 'unit']]);
  const placed = await db.sql<{ username: string; organisationId: string; unit: string; manager: string }[]>`
    select p.username, p.organisation_id, u.name as unit, m.username as manager
    from public.profiles p join public.units u on u.id = p.unit_id join public.profiles m on m.id = p.manager_id
    where p.username in (${u(1)}, ${u(2)}) order by p.username`;
  assert.deepEqual(placed.map((r) => [r.username, r.organisationId, r.unit, r.manager]), [
    [u(1), ORG_A, 'Red Watch', leadA.username],
    [u(2), ORG_A, 'Harbour Station', u(1)],
  ]);
  // A request naming another organisation's id, or a unit of it, cannot slip past: the row is skipped.
  const sneaky = await call('POST', '/api/admin/users/import', {
    token: adminA.token,
    body: { importId: crypto.randomUUID(), part: 1, rows: [{ line: 2, username: u(7), email: `${u(7)}@example.test`, name: 'Sneaky', organisation: CODE_B, unit: 'East Division' }] },
  });
  assert.equal(sneaky.status, 200, sneaky.text);
  assert.equal(sneaky.json.created.length, 0);

  // A national administrator imports into any organisation, with its units.
  const nationalCsv = `username,email,name,organisation,unit\n${u(8)},${u(8)}@example.test,Trust Person,${CODE_B},East Division\n`;
  const nationalPreview = await call('POST', '/api/admin/users/import/preview', { token: national.token, body: { csv: nationalCsv } });
  assert.equal(nationalPreview.status, 200, nationalPreview.text);
  assert.deepEqual(nationalPreview.json.rows[0].problems, []);
  assert.equal(nationalPreview.json.rows[0].organisation, `Orgadminshire Ambulance ${suffix}`);
});

test('export: an org admin exports their people only, with organisation, unit path and manager', async () => {
  const answer = await call('GET', '/api/admin/users/export.csv', { token: adminA.token });
  assert.equal(answer.status, 200, answer.text);
  const lines = answer.text.replace(/^\uFEFF/, '').trim().split('\r\n');
  assert.equal(lines[0], 'username,email,name,role,services,organisation,unit,manager,joined');
  const personLine = lines.find((l) => l.startsWith(`${personA.username},`));
  assert.ok(personLine, 'their person is there');
  assert.match(personLine!, new RegExp(`,${CODE_A},North Area/Central Station,${leadA.username},`));
  assert.ok(!lines.some((l) => l.startsWith(`${personB.username},`) || l.startsWith(`${nobody.username},`)), 'nobody else');
  const filtered = await call('GET', `/api/admin/users/export.csv?unitId=${HARBOUR}`, { token: national.token });
  assert.equal(filtered.status, 200, filtered.text);
  const rows = filtered.text.trim().split('\r\n').slice(1);
  assert.ok(rows.length >= 1 && rows.every((l) => l.includes(',North Area/Harbour Station')), filtered.text);
});

test('(clean up the people, units and organisations made here)', async () => {
  await db.sql`delete from auth.users where id in (select id from public.profiles where organisation_id in (${ORG_A}::uuid, ${ORG_B}::uuid))`;
  await db.sql`delete from auth.users where id in (${national.id}::uuid, ${nobody.id}::uuid)`;
  await db.sql`delete from public.units where organisation_id in (${ORG_A}::uuid, ${ORG_B}::uuid) and parent_id is not null and id not in (select parent_id from public.units where parent_id is not null)`;
  await db.sql`delete from public.units where organisation_id in (${ORG_A}::uuid, ${ORG_B}::uuid) and parent_id is not null and id not in (select parent_id from public.units where parent_id is not null)`;
  await db.sql`delete from public.units where organisation_id in (${ORG_A}::uuid, ${ORG_B}::uuid)`;
  await db.sql`delete from public.organisations where id in (${ORG_A}::uuid, ${ORG_B}::uuid)`;
});

closePoolAfterTests();
