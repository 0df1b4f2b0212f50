// Maintenance of competence through the API: GET /api/team (summary and rows) and /api/team/:personId
// answer a report's upcoming sessions and practical assessments, the team CSV carries them (ISO dates,
// English or Welsh headers), and /api/compliance/practicals counts practicals per unit and lists the
// people behind them for administrators only (403 for a manager, 404 for another organisation, 400 for
// a bad state). Times are relative to the database's now(): the same answers on any day.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, register, test, unique } from './helpers.ts';

const INSTRUCTOR_ID = '00000000-0000-4000-a000-000000000002';
const suffix = unique().slice(-10).toUpperCase();
const [{ id: FIRE }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values ('Competence Fire', ${`CF${suffix}`}, 'UKFRS') returning id`;
const [{ id: OTHER }] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service) values ('Competence Other', ${`CO${suffix}`}, 'UKFRS') returning id`;
const [{ id: RED }] = await db.sql<{ id: string }[]>`
  insert into public.units (organisation_id, name) values (${FIRE}, 'Red Watch') returning id`;
const [{ id: BLUE }] = await db.sql<{ id: string }[]>`
  insert into public.units (organisation_id, name) values (${FIRE}, 'Blue Watch') returning id`;

interface Account { id: string; username: string; token: string }
async function account(role: string, organisation: string, unit: string | null, manager: string | null = null, name?: string): Promise<Account> {
  const { user, session, input } = await register();
  await db.sql`update public.profiles set role = ${role}::public.user_role, services = '{UKFRS}', organisation_id = ${organisation}::uuid,
    unit_id = ${unit}::uuid, manager_id = ${manager}::uuid, name = coalesce(${name ?? null}, name) where id = ${user.id}::uuid`;
  return { id: user.id, username: input.username, token: session.access_token };
}
const boss = await account('STUDENT', FIRE, RED);
const fay = await account('STUDENT', FIRE, RED, boss.id, 'Fay Firefighter');
const gus = await account('STUDENT', FIRE, BLUE, boss.id, 'Gus Grey');
const admin = await account('ADMIN', FIRE, null);
const otherAdmin = await account('ADMIN', OTHER, null);

const [{ id: COURSE }] = await db.sql<{ id: string }[]>`
  insert into public.courses (title, title_cy, description, service, author_id, status)
  values (${`BA wearer ${suffix}`}, ${`Gwisgwr BA ${suffix}`}, 'Breathing apparatus, checked in practice.', 'UKFRS', ${INSTRUCTOR_ID}, 'ACTIVE')
  returning id`;
const [{ id: PRACTICAL }] = await db.sql<{ id: string }[]>`
  insert into public.course_modules (course_id, title, order_index, kind) values (${COURSE}, 'BA wearer: annual practical', 1, 'assessment')
  returning id`;
const [{ id: DAY }] = await db.sql<{ id: string }[]>`
  insert into public.course_modules (course_id, title, order_index, kind) values (${COURSE}, 'Hot fire training day', 2, 'session')
  returning id`;
await db.sql`insert into public.assessment_settings (module_id, valid_months) values (${PRACTICAL}, 12)`;
for (const p of [fay, gus]) await db.sql`insert into public.enrollments (user_id, course_id) values (${p.id}, ${COURSE})`;
// Fay: signed off 330 days ago (valid for another month or so: due). Gus: never assessed (overdue).
await db.sql`insert into public.assessment_records (module_id, course_id, learner_id, cycle, assessor_id, outcome, created_at,
    signed_at, learner_name, assessor_name)
  values (${PRACTICAL}, ${COURSE}, ${fay.id}, 1, ${INSTRUCTOR_ID}, 'competent', now() - interval '331 days', now() - interval '330 days',
    'Fay Firefighter', 'Ian Instructor')`;
const [{ id: SESSION }] = await db.sql<{ id: string }[]>`
  insert into public.classroom_sessions (module_id, course_id, starts_at, ends_at, venue_name, capacity, booking_closes_at)
  values (${DAY}, ${COURSE}, now() + interval '10 days', now() + interval '10 days 6 hours', 'Training centre', 10, now() + interval '9 days')
  returning id`;
await db.sql`insert into public.session_bookings (session_id, user_id, status) values (${SESSION}, ${fay.id}, 'booked')`;

test('team: the summary, each report\'s next session and practicals', async () => {
  const answer = await call('GET', '/api/team', { token: boss.token });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.json.summary, {
    people: 2, direct: 2, overdue: 0, dueSoon: 0, expiring: 0, sessionsBooked: 1, practicalsDue: 1, practicalsOverdue: 1,
  });
  const by = Object.fromEntries(answer.json.items.map((m: { user: { username: string } }) => [m.user.username, m]));
  const f = by[fay.username];
  assert.equal(f.sessionsBooked, 1);
  assert.equal(f.nextSession.status, 'booked');
  assert.equal(f.nextSession.sessionId, SESSION);
  assert.deepEqual(f.nextSession.module, { id: DAY, title: 'Hot fire training day', titleCy: null });
  assert.equal(f.nextSession.course.titleCy, `Gwisgwr BA ${suffix}`);
  assert.match(f.nextSession.startsAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.equal(f.practicals.due, 1);
  assert.equal(f.practicals.overdue, 0);
  assert.ok(Date.parse(f.practicals.nextDueAt) > Date.now());
  const g = by[gus.username];
  assert.deepEqual({ ...g.practicals, sessions: g.sessionsBooked, next: g.nextSession },
    { due: 0, overdue: 1, awaiting: 0, nextDueAt: null, overdueSince: null, sessions: 0, next: null });
});

test('team: a report\'s record lists their sessions and practicals; 404 for anyone not a report', async () => {
  const answer = await call('GET', `/api/team/${fay.id}`, { token: boss.token });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.sessions.length, 1);
  assert.deepEqual(
    { ...answer.json.sessions[0], startsAt: undefined, endsAt: undefined },
    {
      bookingId: answer.json.sessions[0].bookingId, sessionId: SESSION, status: 'booked', venueName: 'Training centre', online: false,
      offeredUntil: null, course: { id: COURSE, title: `BA wearer ${suffix}`, titleCy: `Gwisgwr BA ${suffix}` },
      module: { id: DAY, title: 'Hot fire training day', titleCy: null }, startsAt: undefined, endsAt: undefined,
    },
  );
  assert.equal(answer.json.practicals.length, 1);
  const [p] = answer.json.practicals;
  assert.equal(p.state, 'due');
  assert.equal(p.validMonths, 12);
  assert.equal(p.module.id, PRACTICAL);
  assert.ok(Date.parse(p.signedOffAt) < Date.parse(p.validUntil));
  const gusRecord = await call('GET', `/api/team/${gus.id}`, { token: boss.token });
  assert.deepEqual(gusRecord.json.practicals.map((x: { state: string; signedOffAt: null }) => [x.state, x.signedOffAt]), [['overdue', null]]);
  assert.deepEqual(gusRecord.json.sessions, []);
  assert.equal((await call('GET', `/api/team/${fay.id}`, { token: admin.token })).status, 404);
  assert.equal((await call('GET', `/api/team/${boss.id}`, { token: fay.token })).status, 404);
});

test('team: the CSV carries sessions and practicals with ISO dates, in the caller\'s language', async () => {
  const answer = await call('GET', '/api/team/export.csv', { token: boss.token });
  assert.equal(answer.status, 200, answer.text);
  const lines = answer.text.split('\r\n').filter(Boolean);
  assert.ok(lines[0].endsWith(',Sessions booked,Next session,Next session status,Practicals due,Next practical due,Practicals overdue,Practicals overdue since,Practicals awaiting sign-off'), lines[0]);
  const f = lines.find((l) => l.includes(fay.username))!;
  assert.match(f, /,1,\d{4}-\d{2}-\d{2},Booked,1,\d{4}-\d{2}-\d{2},0,,0$/);
  const g = lines.find((l) => l.includes(gus.username))!;
  assert.match(g, /,0,,,0,,1,,0$/);
  await db.sql`update public.profiles set language = 'cy' where id = ${boss.id}`;
  try {
    const welsh = await call('GET', '/api/team/export.csv', { token: boss.token });
    assert.ok(welsh.text.split('\r\n')[0].includes(',Sesiynau wedi\'u harchebu,Sesiwn nesaf,'), welsh.text);
    assert.match(welsh.text, /,1,\d{4}-\d{2}-\d{2},Wedi'i harchebu,1,/);
  } finally {
    await db.sql`update public.profiles set language = 'en-GB' where id = ${boss.id}`;
  }
});

test('compliance practicals: an administrator sees them by unit and person; others are refused', async () => {
  const groups = await call('GET', '/api/compliance/practicals', { token: admin.token });
  assert.equal(groups.status, 200, groups.text);
  assert.deepEqual(groups.json.items.map((g: { name: string; people: number; due: number; overdue: number; valid: number; awaiting: number }) =>
    [g.name, g.people, g.valid, g.due, g.overdue, g.awaiting]), [['Blue Watch', 1, 0, 0, 1, 0], ['Red Watch', 1, 0, 1, 0, 0]]);
  const red = await call('GET', `/api/compliance/practicals?unitId=${RED}`, { token: admin.token });
  assert.deepEqual(red.json.items.map((g: { unitId: string; due: number }) => [g.unitId, g.due]), [[RED, 1]]);
  const people = await call('GET', '/api/compliance/practicals/people?state=overdue', { token: admin.token });
  assert.equal(people.status, 200, people.text);
  assert.equal(people.json.total, 1);
  assert.deepEqual(people.json.items.map((p: { user: { username: string }; unitName: string; state: string }) =>
    [p.user.username, p.unitName, p.state]), [[gus.username, 'Blue Watch', 'overdue']]);
  const all = await call('GET', '/api/compliance/practicals/people?pageSize=1&page=2', { token: admin.token });
  assert.deepEqual([all.json.total, all.json.items.length, all.json.page], [2, 1, 2]);
  // Refused: a line manager (403), another organisation's administrator for this one (404), a bad state or unit (400).
  assert.equal((await call('GET', '/api/compliance/practicals', { token: boss.token })).status, 403);
  assert.equal((await call('GET', '/api/compliance/practicals/people', { token: fay.token })).status, 403);
  assert.equal((await call('GET', `/api/compliance/practicals?organisationId=${FIRE}`, { token: otherAdmin.token })).status, 404);
  const bad = await call('GET', '/api/compliance/practicals/people?state=late', { token: admin.token });
  assert.equal(bad.status, 400);
  assert.ok(bad.json.fields.state);
  assert.equal((await call('GET', '/api/compliance/practicals?unitId=nope', { token: admin.token })).status, 400);
  assert.equal((await call('GET', '/api/compliance/practicals')).status, 401);
  const theirs = await call('GET', '/api/compliance/practicals', { token: otherAdmin.token });
  assert.deepEqual(theirs.json.items, []);
});

test('(clean up the competence fixtures)', async () => {
  await db.sql`select private.erase_course(id) from public.courses where id = ${COURSE}`;
});

closePoolAfterTests();
