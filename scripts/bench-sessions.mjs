// The classroom sessions' fixtures of `npm run bench` (scripts/bench.mjs): the session module its
// rows read and book, the bench's learners enrolled on its course, and their removal after the run.
//
// The module is the database's session module with the most national dates still open for booking
// (on the scaled database the one `npm run seed:scale` gives 24 national dates and eight for each
// organisation, scripts/seed-scale/05-sessions.sql). A database with none that has at least
// MIN_OPEN_DATES (the demo seed) gets a bench course of its own with 32 national dates across the year,
// as many as a learner of an organisation sees on the scaled one (24 national, 8 of their own), so the
// two databases answer lists of the same length. Removed at the end of the run.
//
//   reads   GET /api/modules/:moduleId/sessions as the bench's learners (the dates, places left and
//           their own booking)
//   writes  POST /api/modules/:moduleId/booking then POST /api/bookings/:id/cancel, one learner's pair
//           on one connection: every booking is a new row (a learner holds one live booking of a
//           module, so cancelling is what lets them book again), with its notices
const MIN_OPEN_DATES = 12;
const FIXTURE_DATES = 32;

/**
 * @param {import('postgres').Sql} sql
 * @param {{ id: string, token: string }[]} learners the bench's learners, signed in
 * @param {string} instructorId the author of a course made here
 */
export async function prepareSessions(sql, learners, instructorId) {
  const since = (await sql`select now() as now`)[0].now;
  const open = () => sql`
    select s.module_id::text, s.course_id::text, count(*)::int as dates
    from public.classroom_sessions s
    join public.courses c on c.id = s.course_id
    where s.organisation_id is null and s.cancelled_at is null and s.booking_closes_at > now() + interval '1 hour'
      and c.status = 'ACTIVE' and c.organisation_id is null
    group by s.module_id, s.course_id
    having count(*) >= ${MIN_OPEN_DATES}
    order by count(*) desc, s.module_id limit 1`;
  let [module] = await open();
  let createdCourseId = null;
  if (!module) {
    createdCourseId = await sql.begin(async (tx) => {
      const [course] = await tx`
        insert into public.courses (title, description, service, author_id, status, requires_enrollment)
        values ('Bench session course', 'A course with a classroom day that the benchmark books and removes afterwards.', 'MISC',
                ${instructorId}::uuid, 'ACTIVE', true)
        returning id`;
      const [m] = await tx`
        insert into public.course_modules (course_id, title, order_index, kind)
        values (${course.id}, 'Bench classroom day', 1, 'session') returning id`;
      await tx`
        insert into public.classroom_sessions (module_id, course_id, starts_at, ends_at, venue_name, venue_address, capacity,
          booking_closes_at, note, created_by)
        select ${m.id}, ${course.id}, t.starts_at, t.starts_at + interval '7 hours', 'National training centre',
               'Training Centre, 1 Station Road', 16, t.starts_at - interval '2 days',
               case when k % 3 = 0 then 'Bring your kit and photo ID.' end, ${instructorId}::uuid
        from generate_series(0, ${FIXTURE_DATES - 1}) k
        cross join lateral (select date_trunc('day', now()) - interval '30 days' + (k * 11) * interval '1 day' + interval '9 hours' as starts_at) t`;
      await tx`
        insert into public.session_trainers (session_id, trainer_id)
        select s.id, ${instructorId}::uuid from public.classroom_sessions s where s.course_id = ${course.id}`;
      return course.id;
    });
    [module] = await open();
  }
  // The bench's learners on the course (ACTIVE), those enrolled here noted for the end of the run.
  const enrolled = (await sql`
    insert into public.enrollments (user_id, course_id, status)
    select l.id, ${module.course_id}::uuid, 'ACTIVE' from unnest(${learners.map((l) => l.id)}::uuid[]) as l(id)
    on conflict do nothing
    returning user_id::text`).map((r) => r.user_id);
  // Those who may book: enrolled, not done with the module, no live booking of it (the scaled
  // database books some of its learners).
  const free = new Set((await sql`
    select e.user_id::text from public.enrollments e
    where e.course_id = ${module.course_id}::uuid and e.status = 'ACTIVE' and e.user_id = any(${learners.map((l) => l.id)}::uuid[])
      and not exists (select 1 from public.user_module_progress u where u.user_id = e.user_id and u.module_id = ${module.module_id}::uuid and u.completed)
      and not exists (select 1 from public.session_bookings b where b.user_id = e.user_id and b.module_id = ${module.module_id}::uuid
                      and b.status in ('requested', 'booked', 'waiting', 'offered'))`).map((r) => r.user_id));
  const sessionIds = (await sql`
    select s.id::text from public.classroom_sessions s
    where s.module_id = ${module.module_id}::uuid and s.organisation_id is null and s.cancelled_at is null
      and s.booking_closes_at > now() + interval '1 hour'
    order by s.starts_at, s.id`).map((r) => r.id);
  return {
    since,
    moduleId: module.module_id,
    courseId: module.course_id,
    dates: module.dates,
    createdCourseId,
    enrolled,
    readers: learners.filter((l) => enrolled.includes(l.id) || free.has(l.id)),
    bookers: learners.filter((l) => free.has(l.id)),
    sessionIds,
  };
}

/** The reads' requests: the module's dates, as each of the bench's learners on the course in turn. */
export function sessionListRequests(fixture, auth) {
  let i = 0;
  return () => ({
    method: 'GET',
    path: `/functions/v1/api/modules/${fixture.moduleId}/sessions`,
    headers: auth(fixture.readers[i++ % fixture.readers.length].token),
  });
}

/**
 * The writes' autocannon sequence: a learner books a date (201), then cancels it (200), on one
 * connection; the next pair is the next learner's. Each learner books always the same date, so a
 * pair cut in two where a measurement ends (booked, not cancelled) is taken up by their next pair:
 * booking the date they hold answers that booking (200), which is then cancelled.
 */
export function bookingSequence(fixture, auth) {
  let i = 0;
  return [
    {
      setupRequest: (req, context) => {
        const k = i++ % fixture.bookers.length;
        context.learner = fixture.bookers[k];
        return Object.assign(req, {
          method: 'POST',
          path: `/functions/v1/api/modules/${fixture.moduleId}/booking`,
          headers: { ...auth(context.learner.token), 'content-type': 'application/json' },
          body: JSON.stringify({ sessionId: fixture.sessionIds[k % fixture.sessionIds.length] }),
        });
      },
      onResponse: (status, body, context) => {
        context.bookingId = status >= 200 && status < 300 ? JSON.parse(body).id : 'none';
      },
    },
    {
      setupRequest: (req, context) =>
        Object.assign(req, {
          method: 'POST',
          path: `/functions/v1/api/bookings/${context.bookingId}/cancel`,
          headers: auth(context.learner.token),
          body: undefined,
        }),
    },
  ];
}

/** Everything the run wrote: the bench's bookings of the module with their notices, the enrolments made, a course made. */
export async function removeSessionFixtures(sql, fixture, learnerIds) {
  await sql.begin(async (tx) => {
    await tx`
      delete from public.notifications n
      using public.session_bookings b
      where n.subject_id = b.id and b.module_id = ${fixture.moduleId}::uuid and b.user_id = any(${learnerIds}::uuid[])
        and b.created_at >= ${fixture.since}`;
    await tx`
      delete from public.session_bookings b
      where b.module_id = ${fixture.moduleId}::uuid and b.user_id = any(${learnerIds}::uuid[]) and b.created_at >= ${fixture.since}`;
    await tx`delete from public.enrollments where course_id = ${fixture.courseId}::uuid and user_id = any(${fixture.enrolled}::uuid[])`;
  });
  if (fixture.createdCourseId) await sql`select private.erase_course(${fixture.createdCourseId}::uuid)`;
}
