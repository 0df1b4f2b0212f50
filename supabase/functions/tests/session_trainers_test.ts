// Classroom sessions through the API, the course's and the date's people: a course's
// sessionsNeedManagerApproval set and read back through /api/courses (a learner with a line manager
// then asks rather than books), and GET /api/modules/:moduleId/trainers, the people who may run the
// course's dates, offered by the same rule (private.may_train) that refuses anyone else as a trainer.
import { SESSION_MESSAGES } from '../_shared/sessions.ts';
import { assertEquals, call, closePoolAfterTests, db, register, test, unique } from './helpers.ts';

const DAY = 86_400_000;
const NOT_A_TRAINER = "Each trainer is an administrator, or an instructor of the course's service, of the session's organisation";

type Role = 'STUDENT' | 'INSTRUCTOR' | 'ADMIN';

/** A registered person with the role, services and organisation given, named `Name <tag>` so a search finds only this test's. */
async function person(role: Role, opts: { name?: string; services?: string[]; organisationId?: string | null } = {}) {
  const { user, session } = await register();
  await db.sql`
    update public.profiles set role = ${role}::public.user_role, services = ${opts.services ?? ['UKFRS']}::public.service_code[],
      organisation_id = ${opts.organisationId ?? null}::uuid, name = ${opts.name ?? `Person ${unique()}`}
    where id = ${user.id}::uuid`;
  return { id: user.id as string, token: session.access_token as string };
}

async function organisation(): Promise<string> {
  const [org] = await db.sql<{ id: string }[]>`
    insert into public.organisations (name, code, service) values (${`Trainers FRS ${unique()}`}, ${`T${unique().slice(-6)}`}, 'UKFRS') returning id`;
  return org.id;
}

const courseBody = (extra: Record<string, unknown> = {}) => ({
  title: `BA practical ${unique()}`, description: 'Breathing apparatus practical day.', service: 'UKFRS', level: 'BEGINNER', duration: 6,
  status: 'ACTIVE', ...extra,
});

async function sessionModule(token: string, courseId: string): Promise<string> {
  const module = await call('POST', `/api/courses/${courseId}/modules`, {
    token, body: { kind: 'session', title: 'BA practical day', content: 'Bring your fire kit.' },
  });
  assertEquals(module.status, 201, module.text);
  return module.json.id;
}

function dateBody(extra: Record<string, unknown> = {}) {
  // Fixed far-future instants: the answers do not depend on today.
  return { startsAt: '2099-03-10T09:00:00Z', endsAt: '2099-03-10T15:00:00Z', venueName: 'Training Centre', capacity: 8, ...extra };
}

test("a course's manager approval of session bookings: set, read back and changed through the API; then a learner with a manager asks", async () => {
  const instructor = await person('INSTRUCTOR');
  const plain = await call('POST', '/api/courses', { token: instructor.token, body: courseBody() });
  assertEquals([plain.status, plain.json.sessionsNeedManagerApproval], [201, false], plain.text);
  const created = await call('POST', '/api/courses', { token: instructor.token, body: courseBody({ sessionsNeedManagerApproval: true }) });
  assertEquals([created.status, created.json.sessionsNeedManagerApproval], [201, true], created.text);
  const courseId = created.json.id as string;
  assertEquals((await call('GET', `/api/courses/${courseId}`, { token: instructor.token })).json.sessionsNeedManagerApproval, true);

  const bad = await call('PUT', `/api/courses/${courseId}`, { token: instructor.token, body: { sessionsNeedManagerApproval: 'yes' } });
  assertEquals([bad.status, bad.json.fields.sessionsNeedManagerApproval], [400, 'Manager approval of session bookings must be true or false']);
  const off = await call('PUT', `/api/courses/${courseId}`, { token: instructor.token, body: { sessionsNeedManagerApproval: false } });
  assertEquals([off.status, off.json.sessionsNeedManagerApproval], [200, false]);
  // Another field changed leaves it as it is.
  const titled = await call('PUT', `/api/courses/${courseId}`, { token: instructor.token, body: { title: `BA practical ${unique()}` } });
  assertEquals([titled.status, titled.json.sessionsNeedManagerApproval], [200, false]);
  const on = await call('PUT', `/api/courses/${courseId}`, { token: instructor.token, body: { sessionsNeedManagerApproval: true } });
  assertEquals([on.status, on.json.sessionsNeedManagerApproval], [200, true]);
  const [row] = await db.sql<{ on: boolean }[]>`select sessions_need_manager_approval as on from public.courses where id = ${courseId}::uuid`;
  assertEquals(row.on, true);

  const moduleId = await sessionModule(instructor.token, courseId);
  const date = await call('POST', `/api/modules/${moduleId}/sessions`, { token: instructor.token, body: dateBody() });
  assertEquals(date.status, 201, date.text);
  const org = await organisation();
  const manager = await person('STUDENT', { organisationId: org });
  const learner = await person('STUDENT', { organisationId: org });
  await db.sql`update public.profiles set manager_id = ${manager.id}::uuid where id = ${learner.id}::uuid`;
  assertEquals((await call('POST', `/api/courses/${courseId}/enroll`, { token: learner.token })).status, 201);
  const asked = await call('POST', `/api/modules/${moduleId}/booking`, { token: learner.token, body: { sessionId: date.json.id } });
  assertEquals([asked.status, asked.json.status], [201, 'requested'], asked.text);
  // A learner without a line manager books at once.
  const alone = await person('STUDENT', { organisationId: org });
  assertEquals((await call('POST', `/api/courses/${courseId}/enroll`, { token: alone.token })).status, 201);
  const booked = await call('POST', `/api/modules/${moduleId}/booking`, { token: alone.token, body: { sessionId: date.json.id } });
  assertEquals([booked.status, booked.json.status], [201, 'booked'], booked.text);
});

test("a session module's trainers: administrators and instructors of the course's service, of the date's organisation; anyone else neither offered nor accepted", async () => {
  const tag = `tr${unique().replace(/\W/g, '')}`;
  const orgA = await organisation();
  const orgB = await organisation();
  const author = await person('INSTRUCTOR', { name: `Author ${tag}` });
  const instructorA = await person('INSTRUCTOR', { name: `Alice ${tag}`, organisationId: orgA });
  const adminA = await person('ADMIN', { name: `Bryn ${tag}`, organisationId: orgA });
  const policeA = await person('INSTRUCTOR', { name: `Carys ${tag}`, services: ['UKPS'], organisationId: orgA });
  const learnerA = await person('STUDENT', { name: `Dai ${tag}`, organisationId: orgA });
  const goneA = await person('INSTRUCTOR', { name: `Efa ${tag}`, organisationId: orgA });
  await db.sql`update public.profiles set deactivated_at = now() where id = ${goneA.id}::uuid`;
  const instructorB = await person('INSTRUCTOR', { name: `Ffion ${tag}`, organisationId: orgB });

  const course = await call('POST', '/api/courses', { token: author.token, body: courseBody() });
  assertEquals(course.status, 201, course.text);
  const moduleId = await sessionModule(author.token, course.json.id);
  const names = async (token: string, query = `q=${tag}`) => {
    const answer = await call('GET', `/api/modules/${moduleId}/trainers?${query}`, { token });
    assertEquals(answer.status, 200, answer.text);
    return answer.json.map((p: { name: string }) => p.name);
  };
  // The national author, for a national date: the staff of any organisation, by name.
  assertEquals(await names(author.token), [`Alice ${tag}`, `Author ${tag}`, `Bryn ${tag}`, `Ffion ${tag}`]);
  // For organisation A's date: its own staff only; a name's part or a username finds them.
  assertEquals(await names(author.token, `q=${tag}&organisationId=${orgA}`), [`Alice ${tag}`, `Bryn ${tag}`]);
  assertEquals(await names(author.token, `q=${encodeURIComponent(`ALICE ${tag}`)}&organisationId=${orgA}`), [`Alice ${tag}`]);
  // Organisation A's administrator: organisation A's, whatever organisation is asked for.
  assertEquals(await names(adminA.token, `q=${tag}&organisationId=${orgB}`), [`Alice ${tag}`, `Bryn ${tag}`]);

  // Refused: a learner, an instructor who does not run the course's dates, the signed out, bad input.
  const refused = async (token: string | undefined, path = `/api/modules/${moduleId}/trainers?q=${tag}`) =>
    (await call('GET', path, { token })).status;
  assertEquals(await refused(learnerA.token), 403);
  assertEquals(await refused(instructorA.token), 403);
  assertEquals(await refused(undefined), 401);
  assertEquals(await refused(author.token, `/api/modules/${crypto.randomUUID()}/trainers`), 404);
  const content = await call('POST', `/api/courses/${course.json.id}/modules`, { token: author.token, body: { title: 'Theory', content: 'Read this.' } });
  assertEquals(await refused(author.token, `/api/modules/${content.json.id}/trainers`), 404);
  const long = await call('GET', `/api/modules/${moduleId}/trainers?q=${'x'.repeat(101)}`, { token: author.token });
  assertEquals([long.status, long.json.fields.q], [400, SESSION_MESSAGES.query]);
  const badOrg = await call('GET', `/api/modules/${moduleId}/trainers?organisationId=nope`, { token: author.token });
  assertEquals([badOrg.status, badOrg.json.fields.organisationId], [400, SESSION_MESSAGES.id]);

  // The same rule when the date is written: those offered are accepted, nobody else.
  const dateOfA = (trainerIds: string[]) => call('POST', `/api/modules/${moduleId}/sessions`, {
    token: author.token, body: dateBody({ organisationId: orgA, trainerIds }),
  });
  for (const outsider of [policeA, learnerA, goneA, instructorB]) {
    const answer = await dateOfA([instructorA.id, outsider.id]);
    assertEquals([answer.status, answer.json.fields?.trainerIds], [400, NOT_A_TRAINER], answer.text);
  }
  const good = await dateOfA([instructorA.id, adminA.id]);
  assertEquals(good.status, 201, good.text);
  assertEquals(good.json.trainers.map((t: { name: string }) => t.name).sort(), [`Alice ${tag}`, `Bryn ${tag}`]);
  const changed = await call('PATCH', `/api/sessions/${good.json.id}`, { token: author.token, body: { trainerIds: [instructorB.id] } });
  assertEquals([changed.status, changed.json.fields?.trainerIds], [400, NOT_A_TRAINER]);
  const national = await call('POST', `/api/modules/${moduleId}/sessions`, { token: author.token, body: dateBody({ trainerIds: [instructorB.id] }) });
  assertEquals([national.status, national.json.trainers.map((t: { name: string }) => t.name)], [201, [`Ffion ${tag}`]], national.text);
});

closePoolAfterTests();
