// The kept counts' invariant (supabase/schemas/22_kept_counts.sql): after every kind of change, every
// kept count equals its live rule computed from scratch (private.kept_counts_drift): the catalogue's
// counts, the instructors' enrolment figures, and each organisation's compliance summary and
// per-person counts (which "My team" reads), and each classroom session's places taken. Compliance counts are kept by a refresh after a noted
// change, so each change is checked twice: straight after it (a kept count that claims to hold and
// does not means a change went unnoted) and after the reads have refreshed them. The check fails
// when a kept count's trigger is off: one row per kept thing below.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, ids, personas, queryAs, withCourseAccess, type Persona, type Queryable, type TestDatabase } from './helpers/database';
import { keptCountsDrift, keptCountsDriftIn } from './helpers/kept-counts';

const orgA = 'c8000000-0000-4000-a000-000000000001';
const orgB = 'c8000000-0000-4000-a000-000000000002';
const areaA = 'c8100000-0000-4000-a000-000000000001';
const stationA = 'c8100000-0000-4000-a000-000000000002';
const station2A = 'c8100000-0000-4000-a000-000000000003';
const areaB = 'c8100000-0000-4000-a000-000000000004';
const person = (n: number, email: string): Persona => ({ id: `c9000000-0000-4000-a000-${String(n).padStart(12, '0')}`, email });
const adminA = person(1, 'kept.all.admin.a@example.uk');
const manager = person(2, 'kept.all.manager@example.uk');
const [r1, r2, r3] = [3, 4, 5].map((n) => person(n, `kept.all.report.${n}@example.uk`));
const learnerB = person(6, 'kept.all.learner.b@example.uk');
const joiner = person(7, 'kept.all.joiner@example.uk');
const required = ids.course(8); // published, by the admin
const course = ids.course;
// A published national course of the instructor's with a session module of two dates: the first of
// two places (filled, then a waiting list), the second of five.
const sessionCourse = 'c8300000-0000-4000-a000-000000000001';
const sessionModule = 'c8300000-0000-4000-a000-000000000002';
const [date1, date2] = ['c8300000-0000-4000-a000-000000000011', 'c8300000-0000-4000-a000-000000000012'];

/** Every kept thing the check covers, with where its rows are. Adding one: its _live function and a
 * row of private.kept_counts_drift, and a row of BREAKS that shows the check catches it. */
const KEPT_ROWS: Record<string, string> = {
  'private.course_counts': 'private.course_counts',
  'private.course_enrolment_figures': 'private.course_enrolment_figures',
  'private.instructor_learners': 'private.instructor_learners',
  'private.instructor_figures': 'private.instructor_figures',
  'private.compliance_summary_counts': 'private.compliance_summary_counts',
  'private.compliance_person_counts': 'private.compliance_person_counts',
  'public.classroom_sessions.places_taken': 'public.classroom_sessions where places_taken > 0',
};
const KEPT = Object.keys(KEPT_ROWS);

/** A kept thing's trigger turned off in a transaction that is rolled back, and a change it misses. */
const BREAKS: { kept: string[]; broken: string; change: string }[] = [
  {
    kept: ['private.course_counts'],
    broken: 'alter table public.courses disable trigger courses_count_insert',
    change: `insert into public.courses (title, description, service, author_id, status)
             values ('Unkept', 'A course the catalogue''s counts miss.', 'UKPS', '${ids.instructor}', 'ACTIVE')`,
  },
  {
    kept: ['private.course_enrolment_figures', 'private.instructor_learners', 'private.instructor_figures'],
    broken: 'alter table public.enrollments disable trigger enrollments_count_figures_insert',
    change: `insert into public.enrollments (user_id, course_id) values ('${manager.id}', '${course(1)}')`,
  },
  {
    kept: ['private.compliance_summary_counts', 'private.compliance_person_counts'],
    broken: 'alter table public.certificates disable trigger certificates_compliance_insert',
    change: `insert into public.certificates (user_id, course_id, learner_name, course_title, issued_at)
             values ('${manager.id}', '${required}', 'Mandy', 'Required', now())`,
  },
  {
    kept: ['public.classroom_sessions.places_taken'],
    broken: 'alter table public.session_bookings disable trigger session_bookings_count_places',
    change: `insert into public.session_bookings (session_id, user_id, status) values ('${date2}', '${manager.id}', 'booked')`,
  },
];

class Rollback extends Error {}

describe.each(backends)('every kept count against its live rule on $name', ({ create }) => {
  let db: TestDatabase;

  /** Reads that refresh every organisation's kept compliance counts: the manager's team page, the
   * national administrator's summaries. */
  const readAll = async () => {
    await queryAs(db, manager, 'select * from private.team_page(null, null, null, 100, 0)');
    const orgs = (await db.query<{ id: string }>('select id from public.organisations order by id')).rows;
    for (const o of orgs) await queryAs(db, personas.admin, 'select * from private.compliance_summary(p_organisation_id => $1)', [o.id]);
    const current = (await db.query<{ n: number }>(
      'select count(*)::int as n from private.compliance_summary_scopes s where private.compliance_summary_is_current(s.organisation_id)')).rows[0].n;
    expect(current).toBe(orgs.length);
  };
  const enrol = (who: Persona, c: string) =>
    queryAs(db, who, 'insert into public.enrollments (user_id, course_id) values ($1, $2) returning id, status', [who.id, c]);
  const certify = (who: Persona, c: string, expires: string) =>
    db.query(`insert into public.certificates (user_id, course_id, learner_name, course_title, issued_at, expires_at)
              values ($1, $2, 'Someone', 'Required', now() - interval '400 days', ${expires})`, [who.id, c]);
  const firstModule = async (c: string, n = 1) =>
    (await db.query<{ id: string }>('select id from public.course_modules where course_id = $1 order by order_index offset $2 limit 1', [c, n - 1])).rows[0].id;
  const liveBooking = async (who: Persona) =>
    (await db.query<{ id: string }>(`select id from public.session_bookings
      where user_id = $1 and module_id = $2 and status in ('requested', 'booked', 'waiting', 'offered')`, [who.id, sessionModule])).rows[0].id;
  const sleepUntil = async (sql: string, params: unknown[]) => {
    const [{ at }] = (await db.query<{ at: Date }>(sql, params)).rows;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, new Date(at).getTime() - Date.now()) + 300));
  };

  /** Every kind of change, in order (each starts from the last one's state). */
  const CHANGES: { name: string; run: () => Promise<unknown> }[] = [
    { name: 'a learner enrols', run: () => enrol(r1, course(1)) },
    {
      name: 'several enrol in one statement, one of them on two courses of one author',
      run: () => db.query(`insert into public.enrollments (user_id, course_id) values ($1, $3), ($1, $4), ($2, $4), ($5, $6)`,
        [r2.id, r3.id, course(1), course(2), learnerB.id, course(3)]),
    },
    {
      name: 'a request awaits approval and is approved; another is declined',
      run: async () => {
        const [approved, declined] = await withCourseAccess(db, 'login-approval', async () =>
          [(await enrol(r3, course(3))).rows[0], (await enrol(manager, course(3))).rows[0]]);
        await queryAs(db, personas.instructor, 'select private.approve_enrollment($1)', [approved.id]);
        await queryAs(db, personas.instructor, 'select private.decline_enrollment($1)', [declined.id]);
      },
    },
    { name: 'a module read (progress)', run: async () => queryAs(db, r1, 'select private.mark_module_read($1)', [await firstModule(course(1))]) },
    {
      name: 'places booked on a date until it is full, then a turn on its waiting list',
      run: async () => {
        for (const who of [r1, r3, learnerB]) await queryAs(db, who, 'select private.book_session($1)', [date1]);
      },
    },
    {
      name: 'a booking moved to another date, its place offered to the waiting list',
      run: async () => queryAs(db, r1, 'select private.move_booking($1, $2)', [await liveBooking(r1), date2]),
    },
    { name: 'an offered place accepted', run: async () => queryAs(db, learnerB, 'select private.answer_offer($1, true)', [await liveBooking(learnerB)]) },
    { name: 'a booked place cancelled', run: async () => queryAs(db, r3, 'select private.cancel_booking($1)', [await liveBooking(r3)]) },
    {
      name: 'a date cancelled with its bookings',
      run: () => queryAs(db, personas.instructor, `select private.cancel_session($1, 'The trainer is unwell')`, [date1]),
    },
    { name: 'a module opened (nothing counted changes)', run: async () => queryAs(db, r1, 'select private.open_module($1)', [await firstModule(course(1), 2)]) },
    {
      name: 'a course completed',
      run: () => db.query(`update public.enrollments set progress = 100, completed = true, completed_at = now()
                           where user_id = $1 and course_id = $2`, [r2.id, course(2)]),
    },
    { name: 'progress on required training (the rule enrolled them)', run: () =>
      db.query('update public.enrollments set progress = 50 where user_id = $1 and course_id = $2', [r1.id, required]) },
    { name: 'a certificate issued', run: () => certify(r1, required, 'null') },
    { name: 'a certificate\'s expiry brought within the due-soon window', run: () =>
      db.query(`update public.certificates set expires_at = now() + interval '10 days' where user_id = $1`, [r1.id]) },
    { name: 'a certificate revoked', run: () =>
      db.query(`update public.certificates set revoked_at = now(), revoked_reason = 'Issued in error' where user_id = $1`, [r1.id]) },
    {
      name: 'a certificate expires, with no write at all',
      run: async () => {
        await certify(r2, required, `now() + interval '1 second'`);
        await readAll();
        await sleepUntil('select expires_at as at from public.certificates where user_id = $1', [r2.id]);
      },
    },
    { name: 'a rule of a unit added', run: () =>
      db.query('insert into public.required_training (course_id, unit_id, organisation_id) values ($1, $2, $3)', [course(9), stationA, orgA]) },
    { name: 'a rule changed', run: () =>
      db.query('update public.required_training set due_within_days = 5 where course_id = $1 and organisation_id = $2', [required, orgA]) },
    { name: 'a national rule added', run: () =>
      db.query(`insert into public.required_training (course_id, role) values ($1, 'STUDENT')`, [course(10)]) },
    { name: 'a rule removed', run: () => db.query('delete from public.required_training where course_id = $1', [course(9)]) },
    { name: 'a person moves unit', run: () => db.query('update public.profiles set unit_id = $2 where id = $1', [r2.id, station2A]) },
    { name: 'a person\'s manager changes', run: () => db.query('update public.profiles set manager_id = null where id = $1', [r3.id]) },
    { name: 'a person moves organisation', run: () =>
      db.query('update public.profiles set organisation_id = $2, unit_id = $3 where id = $1', [r3.id, orgB, areaB]) },
    { name: 'a person\'s role changes', run: () => db.query(`update public.profiles set role = 'INSTRUCTOR' where id = $1`, [r1.id]) },
    { name: 'a person deactivated', run: () => db.query('update public.profiles set deactivated_at = now() where id = $1', [r2.id]) },
    { name: 'a person reactivated', run: () => db.query('update public.profiles set deactivated_at = null where id = $1', [r2.id]) },
    { name: 'a unit moved', run: () => db.query('update public.units set parent_id = null where id = $1', [station2A]) },
    { name: 'a required course withdrawn', run: () => db.query(`update public.courses set status = 'DRAFT' where id = $1`, [required]) },
    { name: 'a required course published again', run: () => db.query(`update public.courses set status = 'ACTIVE' where id = $1`, [required]) },
    { name: 'a course archived', run: () => queryAs(db, personas.instructor, `update public.courses set status = 'ARCHIVED' where id = $1`, [course(12)]) },
    { name: 'a course changes hands', run: () => queryAs(db, personas.admin, 'update public.courses set author_id = $2 where id = $1', [course(1), personas.admin.id]) },
    {
      name: 'courses added in one statement, national and of an organisation',
      run: () => db.query(`insert into public.courses (title, description, service, author_id, status, organisation_id) values
        ('Kept one', 'A national course.', 'UKPS', $1, 'ACTIVE', null),
        ('Kept two', 'A national draft.', 'UKAS', $1, 'DRAFT', null),
        ('Kept three', 'A course of an organisation.', 'UKPS', $1, 'ACTIVE', $2)`, [ids.instructor, orgA]),
    },
    { name: 'a course erased with its enrolments', run: () => db.query('select private.erase_course($1)', [course(2)]) },
    { name: 'an enrolment withdrawn', run: () => queryAs(db, r1, 'delete from public.enrollments where user_id = $1 and course_id = $2', [r1.id, course(1)]) },
    {
      name: 'a person joins an organisation',
      run: async () => {
        await createUser(db, { id: joiner.id, email: joiner.email, username: 'kept_all_joiner', name: 'Jo Joiner', services: ['UKPS'] });
        await db.query('update public.profiles set organisation_id = $2, unit_id = $3, manager_id = $4 where id = $1', [joiner.id, orgA, stationA, manager.id]);
      },
    },
    { name: 'a person deleted', run: () => db.query('delete from auth.users where id = $1', [r2.id]) },
  ];

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Keptham Police', 'KHP', 'UKPS'), ($2, 'Keptham Fire', 'KHF', 'UKPS')`, [orgA, orgB]);
    await db.query(`insert into public.units (id, organisation_id, parent_id, name) values
      ($1, $5, null, 'North Area'), ($2, $5, $1, 'Keptham Station'), ($3, $5, $1, 'Mill Station'), ($4, $6, null, 'East Division')`,
      [areaA, stationA, station2A, areaB, orgA, orgB]);
    const people: [Persona, string, string, string | null][] = [
      [adminA, 'ADMIN', orgA, null], [manager, 'STUDENT', orgA, stationA], [learnerB, 'STUDENT', orgB, areaB],
      [r1, 'STUDENT', orgA, stationA], [r2, 'STUDENT', orgA, stationA], [r3, 'STUDENT', orgA, station2A],
    ];
    for (const [p, role, org, unit] of people) {
      const username = p.email.split('@')[0].replace(/\./g, '_');
      await createUser(db, { id: p.id, email: p.email, username, name: username.replace(/_/g, ' '), role, services: ['UKPS'] });
      await db.query('update public.profiles set organisation_id = $2, unit_id = $3 where id = $1', [p.id, org, unit]);
    }
    for (const r of [r1, r2, r3]) await db.query('update public.profiles set manager_id = $2 where id = $1', [r.id, manager.id]);
    await db.query(`insert into public.required_training (course_id, role, organisation_id) values ($1, 'STUDENT', $2), ($1, 'STUDENT', $3)`,
      [required, orgA, orgB]);
    await db.query(`insert into public.courses (id, title, description, service, author_id, status)
      values ($1, 'Kept sessions', 'A course with a classroom day.', 'UKPS', $2, 'ACTIVE')`, [sessionCourse, ids.instructor]);
    await db.query(`insert into public.course_modules (id, course_id, title, order_index, kind) values ($1, $2, 'Classroom day', 1, 'session')`,
      [sessionModule, sessionCourse]);
    for (const [id, capacity] of [[date1, 2], [date2, 5]] as const) {
      await db.query(`insert into public.classroom_sessions (id, module_id, course_id, starts_at, ends_at, venue_name, capacity, booking_closes_at)
        values ($1, $2, $3, now() + interval '10 days', now() + interval '10 days 6 hours', 'Keptham Training Centre', $4, now() + interval '9 days')`,
      [id, sessionModule, sessionCourse, capacity]);
    }
    for (const p of [r1, r2, r3, learnerB]) {
      await db.query(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'ACTIVE')`, [p.id, sessionCourse]);
    }
    // A place the person's deletion (the last change) gives back.
    await queryAs(db, r2, 'select private.book_session($1)', [date2]);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('holds on the seed, and the check is not empty-handed (each kept thing has rows to compare)', async () => {
    await readAll();
    expect(await keptCountsDrift(db)).toEqual([]);
    for (const [kept, rowsOf] of Object.entries(KEPT_ROWS)) {
      const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${rowsOf}`);
      expect(rows[0].n, kept).toBeGreaterThan(0);
    }
  });

  it('catches a kept count whose trigger is off (one row per kept thing, all of them covered)', async () => {
    expect([...new Set(BREAKS.flatMap((b) => b.kept))].sort()).toEqual([...KEPT].sort());
    for (const { kept, broken, change } of BREAKS) {
      await readAll();
      let drift: string[] = [];
      try {
        await db.transaction(async (tx: Queryable) => {
          await tx.query(broken);
          await tx.query(change);
          drift = (await keptCountsDriftIn(tx)).map((d) => d.kept);
          throw new Rollback();
        });
      } catch (error) {
        if (!(error instanceof Rollback)) throw error;
      }
      expect([...new Set(drift)].sort(), broken).toEqual([...kept].sort());
      // rolled back: the trigger on again, nothing changed
      expect(await keptCountsDrift(db)).toEqual([]);
    }
  });

  // One test per change, in order: each starts from the state the previous one left.
  describe('holds after every kind of change, straight after it and once the reads have refreshed', () => {
    for (const change of CHANGES) {
      it(change.name, async () => {
        await readAll();
        await change.run();
        expect(await keptCountsDrift(db), 'straight after').toEqual([]);
        await readAll();
        expect(await keptCountsDrift(db), 'refreshed').toEqual([]);
      });
    }
  });
});
