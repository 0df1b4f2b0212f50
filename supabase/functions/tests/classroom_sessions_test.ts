// Classroom sessions through the API: a session module and its dates (instants with their offset,
// 10:00 London stored as 09:00Z in summer and 10:00Z in winter), field messages for bad dates, the
// statuses of booking, moving, cancelling and the register, the bookings CSV, and the two races that
// must have one outcome: 50 learners booking the last place at once (one booked, the rest waiting)
// and 20 taps of Attended at once (one completion, one certificate, one audit event).
import {
  ATTENDANCE, londonInstant, SESSION_CSV_HEADER, SESSION_MESSAGES,
} from '../_shared/sessions.ts';
import { assert, assertEquals, call, closePoolAfterTests, db, register, test, unique } from './helpers.ts';

const DAY = 86_400_000;

async function person(role: 'INSTRUCTOR' | 'STUDENT' = 'STUDENT') {
  const { user, session } = await register();
  if (role !== 'STUDENT') await db.sql`update public.profiles set role = ${role}, services = '{UKFRS}' where id = ${user.id}::uuid`;
  return { id: user.id as string, token: session.access_token as string };
}

/** A published course of a fresh instructor's with one session module (its content the learners' introduction). */
async function sessionCourse() {
  const instructor = await person('INSTRUCTOR');
  const course = await call('POST', '/api/courses', {
    token: instructor.token,
    body: { title: `BA practical ${unique()}`, description: 'Breathing apparatus practical day.', service: 'UKFRS', level: 'BEGINNER', duration: 6, status: 'ACTIVE' },
  });
  assertEquals(course.status, 201, course.text);
  const module = await call('POST', `/api/courses/${course.json.id}/modules`, {
    token: instructor.token,
    body: { kind: 'session', title: 'BA practical day', content: 'Bring your fire kit; the day is assessed at the drill yard.' },
  });
  assertEquals(module.status, 201, module.text);
  assertEquals(module.json.kind, 'session');
  return { instructor, courseId: course.json.id as string, moduleId: module.json.id as string };
}

/** A date starting `inDays` from now, booking closing a day before. */
function dateBody(inDays: number, capacity: number, extra: Record<string, unknown> = {}) {
  const starts = Date.now() + inDays * DAY;
  return {
    startsAt: new Date(starts).toISOString(),
    endsAt: new Date(starts + 6 * 3_600_000).toISOString(),
    bookingClosesAt: new Date(starts - DAY).toISOString(),
    venueName: 'Service Training Centre',
    venueAddress: '1 Drill Yard, Sessionshire',
    capacity,
    note: 'Bring your kit.',
    ...extra,
  };
}

async function enrolled(courseId: string, n: number) {
  const people = [];
  for (let i = 0; i < n; i += 10) {
    people.push(...await Promise.all(Array.from({ length: Math.min(10, n - i) }, () => person())));
  }
  for (const p of people) {
    const answer = await call('POST', `/api/courses/${courseId}/enroll`, { token: p.token });
    assert(answer.status === 201 || answer.status === 200, answer.text);
  }
  return people;
}

test('a session module\'s dates: London times across the clock change, field messages, who may add them', async () => {
  const { instructor, moduleId } = await sessionCourse();
  // 10:00 to 16:00 London in summer (BST) and in winter (GMT), as the web sends them.
  const summer = { startsAt: londonInstant('2099-07-14', '10:00'), endsAt: londonInstant('2099-07-14', '16:00') };
  const winter = { startsAt: londonInstant('2099-01-14', '10:00'), endsAt: londonInstant('2099-01-14', '16:00') };
  assertEquals([summer.startsAt, winter.startsAt], ['2099-07-14T09:00:00.000Z', '2099-01-14T10:00:00.000Z']);
  for (const [when, expected] of [[summer, '2099-07-14T09:00:00.000Z'], [winter, '2099-01-14T10:00:00.000Z']] as const) {
    const created = await call('POST', `/api/modules/${moduleId}/sessions`, {
      token: instructor.token, body: { ...when, venueName: 'Training Centre', capacity: 12 },
    });
    assertEquals(created.status, 201, created.text);
    assertEquals([created.json.startsAt, created.json.bookingClosesAt, created.json.placesLeft], [expected, expected, 12]);
  }
  // An offset given by the caller is kept as the same instant.
  const offset = await call('POST', `/api/modules/${moduleId}/sessions`, {
    token: instructor.token, body: { startsAt: '2099-07-15T10:00:00+01:00', endsAt: '2099-07-15T16:00:00+01:00', onlineUrl: 'https://meet.example.uk/ba', capacity: 5 },
  });
  assertEquals([offset.status, offset.json.startsAt], [201, '2099-07-15T09:00:00.000Z']);

  const refused = async (body: Record<string, unknown>) => {
    const answer = await call('POST', `/api/modules/${moduleId}/sessions`, { token: instructor.token, body });
    assertEquals(answer.status, 400, answer.text);
    return answer.json.fields;
  };
  const good = { ...summer, venueName: 'Training Centre', capacity: 12 };
  assertEquals((await refused({ ...good, startsAt: '2099-07-14T10:00' })).startsAt, SESSION_MESSAGES.instant);
  assertEquals((await refused({ ...good, endsAt: summer.startsAt })).endsAt, SESSION_MESSAGES.endsAfterStarts);
  assertEquals((await refused({ ...good, venueName: null })).venueName, SESSION_MESSAGES.placeNeeded);
  assertEquals((await refused({ ...good, capacity: 0 })).capacity, SESSION_MESSAGES.capacity);
  assertEquals((await refused({ ...good, onlineUrl: 'http://meet.example.uk' })).onlineUrl, SESSION_MESSAGES.onlineUrl);
  assertEquals((await refused({ ...good, bookingClosesAt: summer.endsAt })).bookingClosesAt, SESSION_MESSAGES.closesByStart);
  assertEquals((await refused({ ...good, trainerIds: ['nope'] }))['trainerIds.0'], SESSION_MESSAGES.id);

  const learner = await person();
  assertEquals((await call('POST', `/api/modules/${moduleId}/sessions`, { token: learner.token, body: good })).status, 403);
  assertEquals((await call('POST', `/api/modules/${moduleId}/sessions`, { body: good })).status, 401);
  assertEquals((await call('POST', `/api/modules/${crypto.randomUUID()}/sessions`, { token: instructor.token, body: good })).status, 404);
  const list = await call('GET', `/api/modules/${moduleId}/sessions`, { token: instructor.token });
  assertEquals([list.status, list.json.view, list.json.sessions.length, list.json.canAdd], [200, 'manage', 3, true]);
  assert(list.json.sessions.every((s: { counts: unknown; keepsRegister: boolean; canManage: boolean }) => s.keepsRegister && s.counts && s.canManage));
  // Not enrolled: no dates to see.
  assertEquals((await call('GET', `/api/modules/${moduleId}/sessions`, { token: learner.token })).json.sessions, []);
});

test('50 learners booking the last place at once: exactly one is booked, the others wait in turn', async () => {
  const { instructor, courseId, moduleId } = await sessionCourse();
  const created = await call('POST', `/api/modules/${moduleId}/sessions`, { token: instructor.token, body: dateBody(10, 1) });
  assertEquals(created.status, 201, created.text);
  const learners = await enrolled(courseId, 50);
  const answers = await Promise.all(learners.map((l) =>
    call('POST', `/api/modules/${moduleId}/booking`, { token: l.token, body: { sessionId: created.json.id } })));
  assertEquals(answers.map((a) => a.status).filter((s) => s !== 201), []);
  const statuses = answers.map((a) => a.json.status);
  assertEquals(statuses.filter((s) => s === 'booked').length, 1);
  assertEquals(statuses.filter((s) => s === 'waiting').length, 49);
  const [row] = await db.sql<{ placesTaken: number }[]>`select places_taken from public.classroom_sessions where id = ${created.json.id}::uuid`;
  assertEquals(row.placesTaken, 1);

  // The booked learner cancels: the first on the list is offered the place; the others still wait.
  const booked = answers.find((a) => a.json.status === 'booked')!;
  const holder = learners[answers.indexOf(booked)];
  assertEquals((await call('POST', `/api/bookings/${booked.json.id}/cancel`, { token: learners[answers.indexOf(booked) === 0 ? 1 : 0].token })).status, 404);
  const cancelled = await call('POST', `/api/bookings/${booked.json.id}/cancel`, { token: holder.token });
  assertEquals([cancelled.status, cancelled.json.status, cancelled.json.sequence], [200, 'cancelled', 1]);
  const [offered] = await db.sql<{ id: string }[]>`
    select id from public.session_bookings where session_id = ${created.json.id}::uuid and status = 'offered'`;
  const first = await db.sql<{ id: string }[]>`
    select id from public.session_bookings where session_id = ${created.json.id}::uuid and status in ('waiting', 'offered')
    order by waiting_since, id limit 1`;
  assertEquals(offered.id, first[0].id);
  const taker = learners[answers.findIndex((a) => a.json.id === offered.id)];
  const accepted = await call('POST', `/api/bookings/${offered.id}/accept`, { token: taker.token });
  assertEquals([accepted.status, accepted.json.status], [200, 'booked']);
  assertEquals((await call('POST', `/api/bookings/${offered.id}/accept`, { token: taker.token })).status, 409);
});

test('booking answers: again 200, another date a move (409 when full), a cancelled date 409, bad bodies 400', async () => {
  const { instructor, courseId, moduleId } = await sessionCourse();
  const first = await call('POST', `/api/modules/${moduleId}/sessions`, { token: instructor.token, body: dateBody(10, 5) });
  const full = await call('POST', `/api/modules/${moduleId}/sessions`, { token: instructor.token, body: dateBody(12, 1) });
  const spare = await call('POST', `/api/modules/${moduleId}/sessions`, { token: instructor.token, body: dateBody(14, 5) });
  const [a, b] = await enrolled(courseId, 2);
  const outsider = await person();
  const book = (who: { token: string }, sessionId: unknown) =>
    call('POST', `/api/modules/${moduleId}/booking`, { token: who.token, body: { sessionId } });
  assertEquals((await book(outsider, first.json.id)).status, 404);
  assertEquals((await book(a, 'x')).json.fields.sessionId, SESSION_MESSAGES.id);
  const mine = await book(a, first.json.id);
  assertEquals([mine.status, mine.json.status], [201, 'booked']);
  assertEquals((await book(a, first.json.id)).status, 200);
  assertEquals((await book(a, spare.json.id)).status, 409);
  assertEquals((await book(b, full.json.id)).json.status, 'booked');
  const toFull = await call('PUT', `/api/bookings/${mine.json.id}`, { token: a.token, body: { sessionId: full.json.id } });
  assertEquals([toFull.status, toFull.json.message], [409, 'That date is full']);
  const moved = await call('PUT', `/api/bookings/${mine.json.id}`, { token: a.token, body: { sessionId: spare.json.id } });
  assertEquals([moved.status, moved.json.id, moved.json.sessionId, moved.json.sequence], [200, mine.json.id, spare.json.id, 1]);
  const view = await call('GET', `/api/modules/${moduleId}/sessions`, { token: a.token });
  assertEquals([view.json.view, view.json.myBooking.sessionId, view.json.more, view.json.moduleId], ['learner', spare.json.id, false, moduleId]);
  // A learner's dates carry what choosing one needs: no register, counts, capacity or right to manage.
  assert(view.json.sessions.every((s: Record<string, unknown>) => !('canManage' in s || 'counts' in s || 'capacity' in s || 'keepsRegister' in s)));
  assertEquals(view.json.sessions.map((s: { id: string; placesLeft: number }) => [s.id, s.placesLeft]),
    [[first.json.id, 5], [full.json.id, 0], [spare.json.id, 4]]);
  const one = await call('GET', `/api/modules/${moduleId}/sessions?limit=1`, { token: a.token });
  assertEquals(one.json.sessions.map((s: { id: string }) => s.id), [first.json.id, spare.json.id]);
  assertEquals(one.json.more, true);
  for (const limit of ['0', '101', 'x', '1.5']) {
    const bad = await call('GET', `/api/modules/${moduleId}/sessions?limit=${limit}`, { token: a.token });
    assertEquals([bad.status, bad.json.fields?.limit], [400, SESSION_MESSAGES.limit], limit);
  }

  // The instructor cancels the spare date: the learner's booking is cancelled with it.
  assertEquals((await call('POST', `/api/sessions/${spare.json.id}/cancel`, { token: instructor.token, body: { reason: ' ' } })).json.fields.reason,
    SESSION_MESSAGES.reason);
  assertEquals((await call('POST', `/api/sessions/${spare.json.id}/cancel`, { token: a.token, body: { reason: 'No' } })).status, 403);
  const cancelled = await call('POST', `/api/sessions/${spare.json.id}/cancel`, { token: instructor.token, body: { reason: 'Instructor unwell' } });
  assertEquals([cancelled.status, cancelled.json.cancelledReason], [200, 'Instructor unwell']);
  const detail = await call('GET', `/api/sessions/${spare.json.id}`, { token: a.token });
  assertEquals([detail.status, detail.json.myBooking.status, detail.json.register], [200, 'cancelled', null]);
  assertEquals((await book(a, spare.json.id)).status, 409);
  const changed = await call('PATCH', `/api/sessions/${first.json.id}`, { token: instructor.token, body: { capacity: 0 } });
  assertEquals(changed.json.fields.capacity, SESSION_MESSAGES.capacity);
  const patched = await call('PATCH', `/api/sessions/${first.json.id}`, { token: instructor.token, body: { venueName: 'North Station', note: null } });
  assertEquals([patched.status, patched.json.venueName, patched.json.note, patched.json.sequence], [200, 'North Station', null, 1]);
});

test('20 taps of Attended at once: one completion, one certificate, one audit event; the register and its CSV', async () => {
  const { instructor, courseId, moduleId } = await sessionCourse();
  const date = await call('POST', `/api/modules/${moduleId}/sessions`, { token: instructor.token, body: dateBody(3, 10) });
  const [learner, other] = await enrolled(courseId, 2);
  const booking = await call('POST', `/api/modules/${moduleId}/booking`, { token: learner.token, body: { sessionId: date.json.id } });
  const path = `/api/sessions/${date.json.id}/register/${booking.json.id}`;
  assertEquals((await call('PUT', path, { token: learner.token, body: { attendance: 'attended' } })).status, 403);
  assertEquals((await call('PUT', path, { token: instructor.token, body: { attendance: 'present' } })).json.fields.attendance,
    SESSION_MESSAGES.attendance);
  assertEquals((await call('PUT', `/api/sessions/${crypto.randomUUID()}/register/${booking.json.id}`, { token: instructor.token, body: { attendance: 'attended' } })).status, 404);
  const taps = await Promise.all(Array.from({ length: 20 }, () => call('PUT', path, { token: instructor.token, body: { attendance: ATTENDANCE[0] } })));
  assertEquals(taps.map((t) => t.status), Array(20).fill(200));
  const [state] = await db.sql<{ progress: number; certificates: number; audits: number }[]>`
    select (select progress from public.enrollments where user_id = ${learner.id}::uuid and course_id = ${courseId}::uuid) as progress,
           (select count(*)::int from public.certificates where user_id = ${learner.id}::uuid and course_id = ${courseId}::uuid) as certificates,
           (select count(*)::int from public.audit_events where action = 'session.attendance_marked'
              and new_data ->> 'bookingId' = ${booking.json.id}) as audits`;
  assertEquals(state, { progress: 100, certificates: 1, audits: 1 });

  // A walk-in found by name, added over nothing; mark all attended marks the rest.
  const found = await call('GET', `/api/sessions/${date.json.id}/people?q=Test%20User`, { token: instructor.token });
  assertEquals(found.status, 200);
  const walkIn = await call('POST', `/api/sessions/${date.json.id}/walk-ins`, { token: instructor.token, body: { userId: other.id } });
  assertEquals([walkIn.status, walkIn.json.walkIn, walkIn.json.status], [201, true, 'booked']);
  const all = await call('POST', `/api/sessions/${date.json.id}/register/all-attended`, { token: instructor.token });
  assertEquals([all.status, all.json.marked, all.json.register.length], [200, 1, 2]);

  const csv = await call('GET', `/api/sessions/${date.json.id}/bookings.csv`, { token: instructor.token });
  assertEquals(csv.status, 200);
  assert(csv.headers.get('content-type')!.startsWith('text/csv'));
  const lines = csv.text.replace(/^\uFEFF/, '').trim().split('\r\n');
  assertEquals(lines[0], SESSION_CSV_HEADER.join(','));
  assertEquals(lines.length, 3);
  assert(/,\d{4}-\d{2}-\d{2},\d{2}:\d{2},\d{2}:\d{2},/.test(lines[1]), lines[1]);
  assertEquals((await call('GET', `/api/sessions/${date.json.id}/bookings.csv`, { token: learner.token })).status, 403);

  // The calendar: the instructor's own dates in the range; a bad range is refused.
  const today = new Date().toISOString().slice(0, 10);
  const later = new Date(Date.now() + 30 * DAY).toISOString().slice(0, 10);
  const calendar = await call('GET', `/api/instructor/sessions?from=${today}&to=${later}`, { token: instructor.token });
  assertEquals([calendar.status, calendar.json.total, calendar.json.items[0].id], [200, 1, date.json.id]);
  assertEquals((await call('GET', `/api/instructor/sessions?from=${later}&to=${today}`, { token: instructor.token })).json.fields.to,
    SESSION_MESSAGES.range);
  assertEquals((await call('GET', `/api/instructor/sessions?from=${today}&to=${later}`, { token: learner.token })).json.total, 0);
});

test('a course asking for approval: the line manager sees the request and approves it; nobody else may', async () => {
  const { instructor, courseId, moduleId } = await sessionCourse();
  await db.sql`update public.courses set sessions_need_manager_approval = true where id = ${courseId}::uuid`;
  const date = await call('POST', `/api/modules/${moduleId}/sessions`, { token: instructor.token, body: dateBody(10, 3) });
  const [learner] = await enrolled(courseId, 1);
  const manager = await person();
  const [org] = await db.sql<{ id: string }[]>`
    insert into public.organisations (name, code, service) values (${`Sessions FRS ${unique()}`}, ${`S${unique().slice(-6)}`}, 'UKFRS') returning id`;
  await db.sql`update public.profiles set organisation_id = ${org.id}::uuid where id in (${learner.id}::uuid, ${manager.id}::uuid)`;
  await db.sql`update public.profiles set manager_id = ${manager.id}::uuid where id = ${learner.id}::uuid`;
  const asked = await call('POST', `/api/modules/${moduleId}/booking`, { token: learner.token, body: { sessionId: date.json.id } });
  assertEquals([asked.status, asked.json.status], [201, 'requested']);
  const requests = await call('GET', '/api/bookings/requests', { token: manager.token });
  assertEquals(requests.json.map((r: { bookingId: string }) => r.bookingId), [asked.json.id]);
  assertEquals((await call('GET', '/api/bookings/requests', { token: instructor.token })).json, []);
  assertEquals((await call('POST', `/api/bookings/${asked.json.id}/approve`, { token: instructor.token })).status, 404);
  assertEquals((await call('POST', `/api/bookings/${asked.json.id}/refuse`, { token: manager.token, body: { reason: 'x'.repeat(501) } })).json.fields.reason,
    SESSION_MESSAGES.reasonMax);
  const approved = await call('POST', `/api/bookings/${asked.json.id}/approve`, { token: manager.token });
  assertEquals([approved.status, approved.json.status], [200, 'booked']);
  assertEquals((await call('POST', `/api/bookings/${asked.json.id}/refuse`, { token: manager.token })).status, 409);
});

closePoolAfterTests();
