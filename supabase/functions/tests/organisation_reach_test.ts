// The attack on a private instance that let one organisation reach every other's people, replayed
// end to end against the real platform: Northshire Police's administrator promotes one of their
// people with another service, their instructor makes a course and a required-training rule for
// their service, then reads the students list and the platform emails the rule's people. Each step
// now keeps to Northshire's own people: the promotion is refused, the course and rule are the
// force's, the list and the emails hold only its people.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, config, db, register, test, unique } from './helpers.ts';

// The demo organisations (supabase/seed-organisations.sql), made here: the test platform has
// seed.sql's people only. Eastshire Police is another force of the same service.
const suffix = unique().slice(-8).toUpperCase();
async function organisation(name: string, code: string, service: string): Promise<string> {
  const [row] = await db.sql<{ id: string }[]>`
    insert into public.organisations (name, code, service) values (${`${name} ${suffix}`}, ${`${code}${suffix}`}, ${service}::public.service_code)
    returning id`;
  return row.id;
}
const NORTHSHIRE = await organisation('Northshire Police', 'NSP', 'UKPS');
const SOUTHSHIRE = await organisation('Southshire Ambulance Service NHS Trust', 'SSAS', 'UKAS');
const EASTSHIRE = await organisation('Eastshire Police', 'ESP', 'UKPS');

interface Account { id: string; email: string; token: string }
async function account(role: string, services: string[], organisation: string | null): Promise<Account> {
  const { user, session, input } = await register();
  await db.sql`update public.profiles set role = ${role}::public.user_role, services = ${`{${services.join(',')}}`}::public.service_code[],
    organisation_id = ${organisation}::uuid where id = ${user.id}::uuid`;
  return { id: user.id, email: input.email.toLowerCase(), token: session.access_token };
}
const orgadmin = await account('ADMIN', ['UKPS'], NORTHSHIRE);
const harbour = await account('STUDENT', ['UKPS'], NORTHSHIRE); // made an instructor by orgadmin below
const constable = await account('STUDENT', ['UKPS'], NORTHSHIRE);
const paramedic = await account('STUDENT', ['UKAS', 'UKPS'], SOUTHSHIRE);
const eastConstable = await account('STUDENT', ['UKPS'], EASTSHIRE);
const nationalOfficer = await account('STUDENT', ['UKPS'], null);
const NORTHSHIRE_PEOPLE = new Set([orgadmin.id, harbour.id, constable.id]);
const OUTSIDERS = [paramedic, eastConstable, nationalOfficer];

const mailUrl = (Deno.env.get('MAIL_URL') ?? '').replace(/\/+$/, '');
const title = `Northshire briefing ${suffix}`;
let courseId = '';

test("Northshire's administrator cannot give their person another organisation's service; within the force they may", async () => {
  const attack = await call('PUT', `/api/users/${constable.id}`, { token: orgadmin.token, body: { role: 'INSTRUCTOR', services: ['UKAS'] } });
  assert.equal(attack.status, 403, attack.text);
  assert.equal(attack.json.message, "You can give only your organisation's service.");
  assert.equal(attack.json.fields.services, "You can give only your organisation's service.");
  const [kept] = await db.sql<{ role: string; services: string[] }[]>`
    select role::text, services::text[] from public.profiles where id = ${constable.id}::uuid`;
  assert.deepEqual(kept, { role: 'STUDENT', services: ['UKPS'] }, 'nothing of the refused change is written');
  // Their own services neither, by the API nor straight through the database API.
  const own = await call('PUT', `/api/users/${orgadmin.id}`, { token: orgadmin.token, body: { services: ['UKPS', 'UKAS'] } });
  assert.equal(own.status, 403, own.text);
  const bySql = await db.withCaller({ role: 'authenticated', claims: { role: 'authenticated', sub: orgadmin.id, aud: 'authenticated' } }, (tx) =>
    tx`update public.profiles set services = '{UKPS,UKAS}' where id = ${orgadmin.id}::uuid`).then(() => null, (error) => error.code);
  assert.equal(bySql, '42501');

  const promote = await call('PUT', `/api/users/${harbour.id}`, { token: orgadmin.token, body: { role: 'INSTRUCTOR', services: ['UKPS'] } });
  assert.equal(promote.status, 200, promote.text);
  assert.equal(promote.json.role, 'INSTRUCTOR');
});

test("Northshire's instructor's course and required-training rule are Northshire's", async () => {
  // The role is read from the database on every request: the session the person had goes on.
  const harbourToken = harbour.token;
  const created = await call('POST', '/api/courses', {
    token: harbourToken,
    body: { title, description: 'A briefing every officer must read at once.', service: 'UKPS', level: 'BEGINNER', duration: 1, status: 'DRAFT' },
  });
  assert.equal(created.status, 201, created.text);
  courseId = created.json.id;
  const [course] = await db.sql<{ organisationId: string | null }[]>`select organisation_id from public.courses where id = ${courseId}::uuid`;
  assert.equal(course.organisationId, NORTHSHIRE);
  const published = await call('PUT', `/api/courses/${courseId}`, { token: harbourToken, body: { status: 'ACTIVE' } });
  assert.equal(published.status, 200, published.text);

  // A national rule, asked for outright, is refused with the field that is wrong.
  const national = await call('POST', '/api/required-training', { token: harbourToken, body: { courseId, service: 'UKPS', organisationId: null } });
  assert.ok(national.status === 400 || national.status === 403, national.text);
  assert.ok(national.json.fields?.organisationId, national.text);
  const rule = await call('POST', '/api/required-training', { token: harbourToken, body: { courseId, service: 'UKPS' } });
  assert.equal(rule.status, 201, rule.text);
  assert.equal(rule.json.organisation?.id, NORTHSHIRE, rule.text);
});

test("the rule enrols Northshire's people only, and the students list shows only them", async () => {
  assert.ok(courseId, 'the course of the test before');
  const [{ count }] = await db.sql<{ count: string }[]>`
    select count(*) from public.enrollments where course_id = ${courseId}::uuid and user_id = any (${OUTSIDERS.map((o) => o.id)}::uuid[])`;
  assert.equal(Number(count), 0, 'nobody outside Northshire is enrolled');
  const students = await call('GET', `/api/instructor/students?pageSize=100`, { token: harbour.token });
  assert.equal(students.status, 200, students.text);
  const listed = students.json.items.map((s: { learner: { id: string } }) => s.learner.id) as string[];
  assert.ok(listed.includes(constable.id), 'the force\'s constable is listed');
  for (const id of listed) assert.ok(NORTHSHIRE_PEOPLE.has(id), `only Northshire's people are listed (${id})`);
});

test("the platform emails the rule's notice to Northshire's people only", async () => {
  assert.ok(courseId, 'the course of the test before');
  await db.sql`select private.decide_notifications(now())`;
  // Every queued email, whatever other tests left queued on the shared platform, until none is
  // claimed; the mail catcher is read after each round (it keeps the newest 1,000).
  const recipients = new Set<string>();
  for (let round = 0; round < 10; round++) {
    const delivered = await fetch(`${config.supabaseUrl}/functions/v1/api/notifications/deliver`, {
      method: 'POST', headers: { authorization: `Bearer ${config.serviceRoleKey}`, 'content-type': 'application/json' }, body: '{"max":500}',
    });
    const text = await delivered.text();
    assert.equal(delivered.status, 200, text);
    const list = await (await fetch(`${mailUrl}/api/v1/messages`)).json() as { messages: { Subject: string; To: { Address: string }[] }[] };
    for (const m of list.messages) {
      if (m.Subject === `Required training: ${title}`) for (const t of m.To) recipients.add(t.Address.toLowerCase());
    }
    if (JSON.parse(text).claimed === 0) break;
  }
  assert.ok(recipients.has(constable.email), 'the force\'s constable is told');
  for (const outsider of OUTSIDERS) assert.ok(!recipients.has(outsider.email), `no email to ${outsider.email}`);
});

test('(clean up the people, course and organisations made here)', async () => {
  const people = [orgadmin, harbour, constable, paramedic, eastConstable, nationalOfficer].map((p) => p.id);
  await db.sql`delete from public.notifications where recipient_id = any (${people}::uuid[])`;
  if (courseId) {
    await db.sql`delete from public.required_training where course_id = ${courseId}::uuid`;
    await db.sql`delete from public.enrollments where course_id = ${courseId}::uuid`;
    await db.sql`delete from public.courses where id = ${courseId}::uuid`;
  }
  await db.sql`delete from auth.users where id = any (${people}::uuid[])`;
  await db.sql`delete from public.organisations where id in (${NORTHSHIRE}::uuid, ${SOUTHSHIRE}::uuid, ${EASTSHIRE}::uuid)`;
});

closePoolAfterTests();
