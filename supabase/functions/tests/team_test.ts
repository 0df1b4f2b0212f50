// /api/team against the real platform: a line manager's reports, direct and down the
// chain, with their required-training statuses, filters and paging, the drill-down (404 for anyone
// who is not a report) and the CSV export; 400 for bad parameters, 401 for visitors, an empty team
// for a person with no reports.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, register, test, unique } from './helpers.ts';

const INSTRUCTOR_ID = '00000000-0000-4000-a000-000000000002';

// A police force: North Area > Central Station > Response Team 1 and 2. boss manages sergeant
// directly, and through sergeant constable1 (Response Team 1, overdue) and constable2 (Response
// Team 2, done with a certificate expiring in 20 days: due soon). otherBoss manages outsider. An
// ambulance trust: its manager manages paramedic. One course of our own, required for UKHW (the
// service of every person here), due within 60 days.
const suffix = unique().slice(-10).toUpperCase();
const [{ id: POLICE }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values ('Teamtest Police', ${`TP${suffix}`}, 'UKPS') returning id`;
const [{ id: AMBULANCE }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values ('Teamtest Ambulance', ${`TA${suffix}`}, 'UKAS') returning id`;
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
async function account(organisation: string, unit: string | null, manager: string | null = null, name?: string): Promise<Account> {
  const { user, session, input } = await register();
  await db.sql`update public.profiles set services = '{UKHW}', organisation_id = ${organisation}::uuid,
    unit_id = ${unit}::uuid, manager_id = ${manager}::uuid, name = coalesce(${name ?? null}, name) where id = ${user.id}::uuid`;
  return { id: user.id, username: input.username, token: session.access_token };
}
const boss = await account(POLICE, CENTRAL_STATION);
const sergeant = await account(POLICE, RESPONSE_TEAM_1, boss.id, 'Sam Sergeant');
const constable1 = await account(POLICE, RESPONSE_TEAM_1, sergeant.id, '=HYPERLINK("http://x.test","Connie")');
const constable2 = await account(POLICE, RESPONSE_TEAM_2, sergeant.id, 'Colin Constable');
const otherBoss = await account(POLICE, RESPONSE_TEAM_2);
const outsider = await account(POLICE, RESPONSE_TEAM_2, otherBoss.id, 'Olive Outsider');
const ambulanceManager = await account(AMBULANCE, EAST_DIVISION);
const paramedic = await account(AMBULANCE, EAST_DIVISION, ambulanceManager.id, 'Pat Paramedic');

const [{ id: COURSE }] = await db.sql<{ id: string }[]>`
  insert into public.courses (title, description, service, author_id, status, certificate_valid_months)
  values (${`Team safety ${suffix}`}, 'A course made by the team tests.', 'UKHW', ${INSTRUCTOR_ID}, 'ACTIVE', 12)
  returning id`;
await db.sql`insert into public.required_training (course_id, service, due_within_days, renew_before_days)
  values (${COURSE}, 'UKHW', 60, 30)`;
await db.sql`update public.required_training set created_at = now() - interval '100 days' where course_id = ${COURSE}`;
for (const p of [constable1, outsider]) {
  await db.sql`update public.profiles set created_at = now() - interval '100 days' where id = ${p.id}`;
  await db.sql`update public.enrollments set created_at = now() - interval '100 days', started_at = now() - interval '100 days'
    where user_id = ${p.id} and course_id = ${COURSE}`;
}
await db.sql`update public.enrollments set progress = 100, completed = true, completed_at = now() - interval '345 days'
  where user_id = ${constable2.id} and course_id = ${COURSE}`;
await db.sql`insert into public.certificates (user_id, course_id, cycle, learner_name, course_title, issued_at, expires_at)
  values (${constable2.id}, ${COURSE}, 1, 'Colin Constable', ${`Team safety ${suffix}`}, now() - interval '345 days', now() + interval '20 days')`;
await db.sql`insert into public.cpd_entries (user_id, activity_date, activity, hours, learnt, reflection)
  values (${constable1.id}, current_date - 1, 'Private reading', 1, 'Notes', 'A private reflection')`;

const usernames = (items: { user: { username: string } }[]) => items.map((m) => m.user.username);

test('team: visitors 401 on every path', async () => {
  for (const path of ['/api/team', '/api/team/export.csv', `/api/team/${sergeant.id}`]) {
    assert.equal((await call('GET', path)).status, 401, path);
  }
});

test('team: a manager sees their direct and indirect reports by unit, with statuses and a summary', async () => {
  const answer = await call('GET', '/api/team', { token: boss.token });
  assert.equal(answer.status, 200, answer.text);
  // Response Team 1 (constable1's name sorts first), Response Team 2.
  assert.deepEqual(usernames(answer.json.items), [constable1.username, sergeant.username, constable2.username]);
  assert.equal(answer.json.total, 3);
  assert.equal(answer.json.page, 1);
  assert.equal(answer.json.pageSize, 20);
  assert.deepEqual(answer.json.summary, { people: 3, direct: 1, overdue: 1, dueSoon: 1, expiring: 1, sessionsBooked: 0, practicalsDue: 0, practicalsOverdue: 0 });
  assert.deepEqual(answer.json.units.map((u: { name: string }) => u.name), ['Response Team 1', 'Response Team 2']);
  const [c1, sarge, c2] = answer.json.items;
  assert.deepEqual(c1.counts, { overdue: 1, dueSoon: 0, inProgress: 0, done: 0 });
  assert.equal(c1.direct, false);
  assert.deepEqual(c1.unit, { id: RESPONSE_TEAM_1, name: 'Response Team 1' });
  assert.deepEqual(sarge.counts, { overdue: 0, dueSoon: 0, inProgress: 1, done: 0 });
  assert.equal(sarge.direct, true);
  assert.deepEqual(c2.counts, { overdue: 0, dueSoon: 1, inProgress: 0, done: 0 });
  assert.equal(c2.expiringCertificates, 1);
  assert.match(c2.nextExpiry, /^\d{4}-\d{2}-\d{2}T/);
  assert.match(c2.lastActivityAt, /^\d{4}-\d{2}-\d{2}T/);
  assert.deepEqual(Object.keys(c1).sort(), ['counts', 'direct', 'expiringCertificates', 'lastActivityAt', 'nextExpiry', 'nextSession', 'practicals', 'sessionsBooked', 'unit', 'user']);
  assert.ok(!answer.text.includes(outsider.username) && !answer.text.includes(paramedic.username));
});

test('team: filters by status, unit (with sub-units) and search, and pages', async () => {
  const list = async (query: string) => {
    const answer = await call('GET', `/api/team?${query}`, { token: boss.token });
    assert.equal(answer.status, 200, `${query}: ${answer.text}`);
    return answer.json;
  };
  assert.deepEqual(usernames((await list('status=overdue')).items), [constable1.username]);
  assert.deepEqual(usernames((await list('status=due-soon')).items), [constable2.username]);
  assert.deepEqual(usernames((await list('status=in-progress')).items), [sergeant.username]);
  assert.deepEqual(usernames((await list('status=done')).items), []);
  assert.deepEqual(usernames((await list(`unitId=${RESPONSE_TEAM_2}`)).items), [constable2.username]);
  assert.equal((await list(`unitId=${CENTRAL_STATION}`)).total, 3);
  assert.equal((await list(`unitId=${EAST_DIVISION}`)).total, 0);
  assert.deepEqual(usernames((await list('search=sam')).items), [sergeant.username]);
  assert.deepEqual(usernames((await list(`search=${sergeant.username.toUpperCase()}`)).items), [sergeant.username]);
  assert.deepEqual(usernames((await list('search=%25')).items), []);
  const second = await list('page=2&pageSize=2');
  assert.deepEqual(usernames(second.items), [constable2.username]);
  assert.equal(second.total, 3);
  assert.equal(second.summary.people, 3);
  // Empty filters are no filters.
  assert.equal((await list('status=&unitId=&search=')).total, 3);
});

test('team: bad parameters are 400 with a message per field', async () => {
  for (const [query, field] of [
    ['status=late', 'status'], ['unitId=nope', 'unitId'], ['page=0', 'page'], ['pageSize=101', 'pageSize'],
    ['page=x', 'page'], [`search=${'a'.repeat(101)}`, 'search'],
  ]) {
    const answer = await call('GET', `/api/team?${query}`, { token: boss.token });
    assert.equal(answer.status, 400, `${query}: ${answer.text}`);
    assert.ok(answer.json.fields[field], `${query}: ${answer.text}`);
  }
  const csv = await call('GET', '/api/team/export.csv?status=late', { token: boss.token });
  assert.equal(csv.status, 400);
  assert.ok(csv.json.fields.status);
});

test('team: another unit\'s or organisation\'s manager sees only their own; a person without reports an empty team', async () => {
  const other = await call('GET', '/api/team', { token: otherBoss.token });
  assert.deepEqual(usernames(other.json.items), [outsider.username]);
  const ambulance = await call('GET', '/api/team', { token: ambulanceManager.token });
  assert.deepEqual(usernames(ambulance.json.items), [paramedic.username]);
  const sergeantsTeam = await call('GET', '/api/team', { token: sergeant.token });
  assert.deepEqual(usernames(sergeantsTeam.json.items), [constable1.username, constable2.username]);
  for (const nobody of [constable1, paramedic, (await register()).session.access_token]) {
    const token = typeof nobody === 'string' ? nobody : nobody.token;
    const answer = await call('GET', '/api/team', { token });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json.items, []);
    assert.equal(answer.json.total, 0);
    assert.deepEqual(answer.json.summary, { people: 0, direct: 0, overdue: 0, dueSoon: 0, expiring: 0, sessionsBooked: 0, practicalsDue: 0, practicalsOverdue: 0 });
    assert.deepEqual(answer.json.units, []);
    for (const id of [sergeant.id, constable1.id, paramedic.id, boss.id]) {
      assert.equal((await call('GET', `/api/team/${id}`, { token })).status, 404);
    }
    const csv = await call('GET', '/api/team/export.csv', { token });
    assert.equal(csv.status, 200);
    assert.equal(csv.text.split('\r\n').filter(Boolean).length, 1); // the header only
  }
});

test('team: the drill-down gives a report\'s training, completions and certificates, never CPD; 404 for anyone else', async () => {
  const c2 = await call('GET', `/api/team/${constable2.id}`, { token: boss.token });
  assert.equal(c2.status, 200, c2.text);
  assert.deepEqual(c2.json.user, { id: constable2.id, name: 'Colin Constable', username: constable2.username });
  assert.deepEqual(c2.json.unit, { id: RESPONSE_TEAM_2, name: 'Response Team 2' });
  assert.equal(c2.json.direct, false);
  assert.deepEqual(c2.json.completions.map((x: { course: { id: string } }) => x.course.id), [COURSE]);
  assert.match(c2.json.completions[0].completedAt, /^\d{4}-\d{2}-\d{2}T/);
  assert.equal(c2.json.certificates.length, 1);
  assert.equal(c2.json.certificates[0].state, 'expiring');
  assert.deepEqual(c2.json.required.map((r: { status: string }) => r.status), ['due-soon']);
  const c1 = await call('GET', `/api/team/${constable1.id}`, { token: boss.token });
  assert.equal(c1.status, 200);
  assert.deepEqual(c1.json.required.map((r: { status: string }) => r.status), ['overdue']);
  assert.deepEqual(Object.keys(c1.json).sort(), ['certificates', 'completions', 'direct', 'practicals', 'required', 'sessions', 'unit', 'user']);
  // The CPD entry's own words (not the letters "cpd", which a generated username may hold).
  assert.ok(!/A private reflection|Private reading/.test(c1.text), c1.text);
  for (const id of [outsider.id, paramedic.id, boss.id, crypto.randomUUID()]) {
    const answer = await call('GET', `/api/team/${id}`, { token: boss.token });
    assert.equal(answer.status, 404, id);
    assert.ok(answer.json.message);
  }
  assert.equal((await call('GET', '/api/team/not-a-uuid', { token: boss.token })).status, 404);
  assert.equal((await call('GET', `/api/team/${boss.id}`, { token: sergeant.token })).status, 404);
  assert.equal((await call('GET', `/api/team/${constable1.id}`, { token: otherBoss.token })).status, 404);
});

test('team: the CSV export holds every report, ISO dates, formulas neutralised', async () => {
  const answer = await call('GET', '/api/team/export.csv', { token: boss.token });
  assert.equal(answer.status, 200, answer.text);
  assert.match(answer.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/);
  assert.match(answer.headers.get('content-disposition') ?? '', /attachment; filename="my-team-\d{4}-\d{2}-\d{2}\.csv"/);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.ok(answer.text.startsWith('\uFEFFName,Username,Unit,Direct report,Overdue,Due soon,In progress,Done,Certificates expiring (60 days),Next expiry,Last activity,Sessions booked,Next session,Next session status,Practicals due,Next practical due,Practicals overdue,Practicals overdue since,Practicals awaiting sign-off\r\n'), answer.text);
  const lines = answer.text.split('\r\n').filter(Boolean);
  assert.equal(lines.length, 4);
  const c1 = lines.find((l) => l.includes(constable1.username))!;
  assert.ok(c1.startsWith(`"'=HYPERLINK(""http://x.test"",""Connie"")"`), c1);
  assert.match(c1, /,Response Team 1,No,1,0,0,0,0,,\d{4}-\d{2}-\d{2},0,,,0,,0,,0$/);
  const c2 = lines.find((l) => l.includes(constable2.username))!;
  assert.match(c2, /^Colin Constable,.*,Response Team 2,No,0,1,0,0,1,\d{4}-\d{2}-\d{2},\d{4}-\d{2}-\d{2},0,,,0,,0,,0$/);
  assert.ok(!answer.text.includes(outsider.username));
  const overdue = await call('GET', '/api/team/export.csv?status=overdue', { token: boss.token });
  assert.equal(overdue.text.split('\r\n').filter(Boolean).length, 2);
});

test('(clean up the team fixtures)', async () => {
  await db.sql`delete from public.required_training where course_id = ${COURSE}`;
  await db.sql`delete from public.certificates where course_id = ${COURSE}`;
  await db.sql`select private.erase_course(id) from public.courses where id = ${COURSE}`;
});

closePoolAfterTests();
