// Classroom sessions (supabase/schemas/25_classroom_sessions.sql): who sees and books which dates
// (learner, trainer, author, other organisation, line manager, administrators), the waiting list and
// its offers lapsing by time, the manager's approval, the register (idempotent; attended completes the
// module and the course with a certificate, taken back while the course is not complete), the notices
// and the schedule's reminders. Times are relative to the sessions' own, passed as p_now.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, personas, queryAs, sqlState, type Persona, type TestDatabase } from './helpers/database';

const orgA = '0c000000-0000-4000-a000-00000000000a';
const orgB = '0c000000-0000-4000-a000-00000000000b';
const person = (n: number, name: string): Persona => ({ id: `0c000000-0000-4000-a000-0000000001${String(n).padStart(2, '0')}`, email: `${name}@example.uk` });
const learnerA = person(1, 'cs.learner.a');
const learnerA2 = person(2, 'cs.learner.a2');
const learnerB = person(3, 'cs.learner.b');
const managerA = person(4, 'cs.manager.a');
const trainerA = person(5, 'cs.trainer.a');
const orgAdminA = person(6, 'cs.org.admin.a');
const orgAdminB = person(7, 'cs.org.admin.b');
const outsider = person(8, 'cs.outsider');

const DAY = 86_400_000;

describe.each(backends)('Classroom sessions on $name', ({ create }) => {
  let db: TestDatabase;
  let n = 0;

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Sessionshire Fire and Rescue', 'SFR', 'UKFRS'), ($2, 'Other Fire and Rescue', 'OFR', 'UKFRS')`, [orgA, orgB]);
    const people: [Persona, string, string, string | null][] = [
      [learnerA, 'cs_learner_a', 'STUDENT', orgA], [learnerA2, 'cs_learner_a2', 'STUDENT', orgA],
      [learnerB, 'cs_learner_b', 'STUDENT', orgB], [managerA, 'cs_manager_a', 'STUDENT', orgA],
      [trainerA, 'cs_trainer_a', 'INSTRUCTOR', orgA], [orgAdminA, 'cs_org_admin_a', 'ADMIN', orgA],
      [orgAdminB, 'cs_org_admin_b', 'ADMIN', orgB], [outsider, 'cs_outsider', 'STUDENT', null],
    ];
    for (const [p, username, role, org] of people) {
      await createUser(db, { id: p.id, email: p.email, username, name: username.replace(/_/g, ' '), role, services: ['UKFRS'] });
      await db.query('update public.profiles set organisation_id = $2 where id = $1', [p.id, org]);
    }
    await db.query('update public.profiles set manager_id = $2 where id = $1', [learnerA.id, managerA.id]);
  });
  afterAll(async () => {
    await db?.close();
  });

  /** A published national UKFRS course of the instructor's: one session module (and a content module when asked), learners enrolled. */
  async function course(opts: { approval?: boolean; secondModule?: boolean; learners?: Persona[] } = {}) {
    n += 1;
    const [{ id: courseId }] = (await db.query<{ id: string }>(
      `insert into public.courses (title, description, service, author_id, status, sessions_need_manager_approval)
       values ($1, 'Breathing apparatus practical day', 'UKFRS', $2, 'ACTIVE', $3) returning id`,
      [`BA course ${n}`, personas.instructor.id, opts.approval ?? false],
    )).rows;
    const [{ id: moduleId }] = (await db.query<{ id: string }>(
      `insert into public.course_modules (course_id, title, order_index, kind) values ($1, 'BA practical', 1, 'session') returning id`,
      [courseId],
    )).rows;
    if (opts.secondModule) {
      await db.query(`insert into public.course_modules (course_id, title, order_index) values ($1, 'Theory', 2)`, [courseId]);
    }
    for (const p of opts.learners ?? [learnerA, learnerA2, learnerB, outsider]) {
      await db.query(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'ACTIVE')`, [p.id, courseId]);
    }
    return { courseId, moduleId };
  }

  interface Session { id: string; starts_at: Date; booking_closes_at: Date; places_taken: number; sequence: number; organisation_id: string | null }
  async function session(who: Persona, moduleId: string, opts: { capacity?: number; org?: string | null; trainers?: string[]; inDays?: number } = {}) {
    const starts = `now() + interval '${opts.inDays ?? 10} days'`;
    return (await queryAs<Session>(db, who,
      `select * from private.create_session($1, ${starts}, ${starts} + interval '6 hours', 'Training centre', '1 Drill Yard',
         null, $2, ${starts} - interval '1 day', 'Bring your kit', $3, $4)`,
      [moduleId, opts.capacity ?? 10, opts.org ?? null, opts.trainers ?? []])).rows[0];
  }
  interface Booking { id: string; status: string; sequence: number; offered_until: Date | null; attendance: string | null; session_id: string }
  const book = async (who: Persona, sessionId: string) =>
    (await queryAs<Booking>(db, who, 'select * from private.book_session($1)', [sessionId])).rows[0];
  const call = async (who: Persona, sql: string, params: unknown[]) => (await queryAs<Booking>(db, who, sql, params)).rows[0];
  const seen = async (who: Persona, table: string, ids: string[]) =>
    (await queryAs<{ id: string }>(db, who, `select id from public.${table} where id = any ($1::uuid[]) order by id`, [ids])).rows.map((r) => r.id).sort();
  const notices = async (bookingId: string) =>
    (await db.query<{ kind: string; recipient_id: string; cycle: number; threshold: number; data: Record<string, unknown>; link_path: string }>(
      'select kind, recipient_id, cycle, threshold, data, link_path from public.notifications where subject_id = $1 order by created_at, kind', [bookingId])).rows;

  it('sessions and bookings: each persona reads what is theirs and no other organisation\'s; nobody writes them directly', async () => {
    const { moduleId } = await course();
    const national = await session(personas.instructor, moduleId, { trainers: [] });
    const ofA = await session(personas.instructor, moduleId, { org: orgA, trainers: [trainerA.id] });
    const ofB = await session(orgAdminB, moduleId);
    expect([national.organisation_id, ofA.organisation_id, ofB.organisation_id]).toEqual([null, orgA, orgB]);
    const all = [national.id, ofA.id, ofB.id].sort();
    expect(await seen(learnerA, 'classroom_sessions', all)).toEqual([national.id, ofA.id].sort());
    expect(await seen(learnerB, 'classroom_sessions', all)).toEqual([national.id, ofB.id].sort());
    expect(await seen(outsider, 'classroom_sessions', all)).toEqual([national.id]);
    expect(await seen(trainerA, 'classroom_sessions', all)).toEqual([ofA.id]);
    expect(await seen(orgAdminA, 'classroom_sessions', all)).toEqual([ofA.id]);
    expect(await seen(orgAdminB, 'classroom_sessions', all)).toEqual([ofB.id]);
    expect(await seen(personas.instructor, 'classroom_sessions', all)).toEqual(all);
    expect(await seen(personas.admin, 'classroom_sessions', all)).toEqual(all);
    expect(await seen(personas.learner, 'classroom_sessions', all)).toEqual([]);
    // An organisation's person cannot book another organisation's date: it is not there for them.
    expect(await sqlState(() => book(learnerA, ofB.id))).toBe('P0002');

    const a = await book(learnerA, ofA.id);
    const b = await book(learnerB, national.id);
    const bookings = [a.id, b.id].sort();
    expect(await seen(learnerA, 'session_bookings', bookings)).toEqual([a.id]);
    expect(await seen(learnerA2, 'session_bookings', bookings)).toEqual([]);
    expect(await seen(managerA, 'session_bookings', bookings)).toEqual([a.id]);
    expect(await seen(trainerA, 'session_bookings', bookings)).toEqual([a.id]);
    expect(await seen(orgAdminA, 'session_bookings', bookings)).toEqual([a.id]);
    expect(await seen(orgAdminB, 'session_bookings', bookings)).toEqual([b.id]);
    expect(await seen(personas.instructor, 'session_bookings', bookings)).toEqual(bookings);
    expect(await seen(personas.admin, 'session_bookings', bookings)).toEqual(bookings);
    const trainers = (await queryAs<{ trainer_id: string }>(db, learnerB, 'select trainer_id from public.session_trainers where session_id = $1', [ofA.id])).rows;
    expect(trainers).toEqual([]);
    expect((await queryAs(db, learnerA, 'select trainer_id from public.session_trainers where session_id = $1', [ofA.id])).rows).toHaveLength(1);

    // Straight to the tables: no API role may write them, whatever the row.
    for (const who of [learnerA, personas.instructor, personas.admin]) {
      expect(await sqlState(() => queryAs(db, who, `update public.session_bookings set status = 'booked', attendance = 'attended' where id = $1`, [a.id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, who, `insert into public.session_bookings (session_id, module_id, user_id, status) values ($1, $2, $3, 'booked')`, [national.id, moduleId, who.id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, who, 'update public.classroom_sessions set places_taken = 0 where id = $1', [national.id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, who, 'delete from public.session_trainers where session_id = $1', [ofA.id]))).toBe('42501');
    }
    // Managing dates: the author and administrators of the reach, not a learner, not another organisation.
    expect(await sqlState(() => session(learnerA, moduleId))).toBe('42501');
    expect(await sqlState(() => queryAs(db, orgAdminB, `select private.cancel_session($1, 'No')`, [ofA.id]))).toBe('P0002');
    expect(await sqlState(() => queryAs(db, trainerA, `select private.cancel_session($1, 'No')`, [ofA.id]))).toBe('42501');
    expect(await sqlState(() => queryAs(db, orgAdminA, `select private.cancel_session($1, 'No')`, [national.id]))).toBe('P0002');
  });

  it('the dates page (private.module_sessions) lists what a direct select shows each persona: a learner the next dates and their own, lighter', async () => {
    const { courseId, moduleId } = await course();
    const national = await session(personas.instructor, moduleId);
    const ofA = await session(personas.instructor, moduleId, { org: orgA, trainers: [trainerA.id] });
    const ofB = await session(orgAdminB, moduleId);
    const cancelled = await session(personas.instructor, moduleId, { inDays: 12 });
    const past = await session(personas.instructor, moduleId, { inDays: 14 });
    const mine = await book(learnerA, ofA.id);
    const pastBooking = await book(learnerA2, past.id);
    await call(personas.instructor, `select * from private.cancel_session($1, 'Trainer unwell')`, [cancelled.id]);
    // Over a month ago: what a learner no longer needs, unless it was theirs.
    await db.query(`update public.classroom_sessions set starts_at = starts_at - interval '44 days', ends_at = ends_at - interval '44 days',
      booking_closes_at = booking_closes_at - interval '44 days' where id = $1`, [past.id]);
    const [{ now }] = (await db.query<{ now: Date }>('select now() as now')).rows;

    interface Managed { id: string; keepsRegister: boolean; canManage: boolean; trainers: { id: string; name: string }[]; counts: unknown; endsAt: string }
    interface Dated { id: string; trainers: string[]; endsAt: string }
    type Page = { view: 'manage'; moduleId: string; courseId: string; sessions: Managed[]; myBooking: { id: string } | null; canAdd: boolean }
      | { view: 'learner'; moduleId: string; courseId: string; sessions: Dated[]; more: boolean; myBooking: { id: string } | null };
    const pageOf = async (who: Persona, limit?: number) => (await queryAs<{ page: Page }>(db, who,
      `select private.module_sessions($1, $2${limit ? ', $3' : ''}) as page`, limit ? [moduleId, now, limit] : [moduleId, now])).rows[0].page;
    const checked: string[] = [];
    for (const who of [learnerA, learnerA2, learnerB, outsider, managerA, trainerA, orgAdminA, orgAdminB, personas.instructor, personas.admin, personas.learner]) {
      const page = await pageOf(who);
      const direct = (await queryAs<{ id: string; keeps: boolean; ends_at: Date; cancelled: boolean; can_manage: boolean }>(db, who,
        `select s.id, s.ends_at, s.cancelled_at is not null as cancelled, (select private.is_admin()) or s.id in (select private.run_session_ids()) as keeps,
                private.may_manage_sessions(s.course_id, s.organisation_id) as can_manage
         from public.classroom_sessions s where s.module_id = $1 order by s.starts_at, s.id`, [moduleId])).rows;
      const booked = (await queryAs<{ session_id: string; id: string }>(db, who,
        `select session_id, id from public.session_bookings where user_id = $1 and module_id = $2
         order by status in ('requested', 'booked', 'waiting', 'offered') desc, updated_at desc, id`, [who.id, moduleId])).rows;
      const [{ can_add: canAdd }] = (await queryAs<{ can_add: boolean }>(db, who,
        'select private.may_manage_sessions($1, coalesce(c.organisation_id, private.current_organisation_id())) as can_add from public.courses c where c.id = $1',
        [courseId])).rows;
      const runs = canAdd || direct.some((d) => d.keeps);
      expect([page.view, page.moduleId, page.courseId, page.myBooking?.id ?? null], who.email)
        .toEqual([runs ? 'manage' : 'learner', moduleId, courseId, booked[0]?.id ?? null]);
      const expected = runs ? direct : direct.filter((d) => (d.ends_at > now && !d.cancelled) || d.id === booked[0]?.session_id);
      expect(page.sessions.map((x) => x.id), who.email).toEqual(expected.map((d) => d.id));
      const names = (await queryAs<{ session_id: string; trainer_id: string; name: string }>(db, who,
        'select session_id, trainer_id, name from private.session_trainer_names($1::uuid[])', [expected.map((d) => d.id)])).rows;
      if (page.view === 'manage') {
        expect(page.sessions.map((x) => [x.keepsRegister, x.canManage, x.counts !== null]), who.email)
          .toEqual(expected.map((d) => [d.keeps, d.can_manage, d.keeps]));
        expect(page.canAdd, who.email).toBe(canAdd);
        expect(page.sessions.flatMap((x) => x.trainers.map((t) => [x.id, t.id, t.name])).sort(), who.email)
          .toEqual(names.map((t) => [t.session_id, t.trainer_id, t.name]).sort());
      } else {
        expect(page.more, who.email).toBe(false);
        expect(page.sessions.flatMap((x) => x.trainers.map((t) => [x.id, t])).sort(), who.email)
          .toEqual(names.map((t) => [t.session_id, t.name]).sort());
      }
      checked.push(`${who.email}: ${page.sessions.length}`);
    }
    // What each saw: a learner the live dates of their reach (and their own past one), the runners all of theirs.
    expect(checked).toEqual([
      'cs.learner.a@example.uk: 2', 'cs.learner.a2@example.uk: 3', 'cs.learner.b@example.uk: 2', 'cs.outsider@example.uk: 1',
      'cs.manager.a@example.uk: 0', 'cs.trainer.a@example.uk: 1', 'cs.org.admin.a@example.uk: 1', 'cs.org.admin.b@example.uk: 1',
      `${personas.instructor.email}: 5`, `${personas.admin.email}: 5`, `${personas.learner.email}: 0`,
    ]);
    expect([mine.status, pastBooking.status]).toEqual(['booked', 'booked']);
    // A learner's date: what choosing one needs and no more (no module, course, organisation, capacity,
    // register or sequence), times as the API writes them (toISOString).
    const page = await pageOf(learnerB);
    expect(page.sessions.map((x) => x.id)).toEqual([national.id, ofB.id]);
    const first = page.sessions[0];
    expect(Object.keys(first).sort()).toEqual(['bookingOpen', 'cancelledAt', 'endsAt', 'id', 'note', 'onlineUrl', 'placesLeft', 'startsAt', 'trainers',
      'venueAddress', 'venueName']);
    expect(first).toMatchObject({ venueName: 'Training centre', venueAddress: '1 Drill Yard', onlineUrl: null, placesLeft: 10, bookingOpen: true,
      note: 'Bring your kit', cancelledAt: null, trainers: [] });
    expect(first.endsAt).toBe(new Date(first.endsAt).toISOString());
    // The limit: the next dates up to it (1 to 100), whether more follow, and the learner's own date wherever it is.
    const [next] = [national, ofA].sort((x, y) => +x.starts_at - +y.starts_at || (x.id < y.id ? -1 : 1));
    const one = await pageOf(learnerA2, 1);
    expect(one.view === 'learner' && [one.sessions.map((x) => x.id), one.more]).toEqual([[past.id, next.id], true]);
    const all = await pageOf(learnerA2, 500);
    expect(all.view === 'learner' && [all.sessions.length, all.more]).toEqual([3, false]);
    expect(await sqlState(() => queryAs(db, learnerA, 'select private.module_sessions($1)', ['0c000000-0000-4000-a000-00000000ffff']))).toBe('P0002');
  });

  it('the last place: the second learner waits; a cancellation offers it for the offer window; unaccepted it lapses and passes on', async () => {
    const { moduleId } = await course();
    const s = await session(personas.instructor, moduleId, { capacity: 1 });
    const first = await book(learnerA, s.id);
    expect(first.status).toBe('booked');
    expect(await book(learnerA, s.id)).toMatchObject({ id: first.id, status: 'booked' }); // the same date again
    const second = await book(learnerA2, s.id);
    const third = await book(outsider, s.id);
    expect([second.status, third.status]).toEqual(['waiting', 'waiting']);
    expect((await notices(first.id)).map((x) => [x.kind, x.data.method])).toEqual([['session-booked', 'REQUEST']]);
    expect((await notices(second.id)).map((x) => x.kind)).toEqual(['session-waiting']);

    const cancelled = await call(learnerA, 'select * from private.cancel_booking($1)', [first.id]);
    expect([cancelled.status, cancelled.sequence]).toEqual(['cancelled', 1]);
    const [cancelNotice] = (await notices(first.id)).filter((x) => x.kind === 'session-cancelled');
    expect(cancelNotice).toMatchObject({ cycle: 1, data: { method: 'CANCEL', sequence: 1 } });
    const offered = (await db.query<Booking>('select * from public.session_bookings where id = $1', [second.id])).rows[0];
    expect(offered.status).toBe('offered');
    // 48 hours (settings.session_offer_hours), since the offer was made.
    const [{ hours }] = (await db.query<{ hours: number }>(
      `select round(extract(epoch from offered_until - updated_at) / 3600)::int as hours from public.session_bookings where id = $1`, [second.id])).rows;
    expect(hours).toBe(48);
    expect((await notices(second.id)).map((x) => x.kind)).toEqual(['session-waiting', 'session-place-offered']);
    expect((await db.query('select places_taken from public.classroom_sessions where id = $1', [s.id])).rows[0]).toEqual({ places_taken: 1 });

    // Not accepted in time: at offered_until the schedule lapses it and offers the place to the next.
    const at = new Date(offered.offered_until!.getTime() + 1000);
    await db.query('select private.decide_notifications($1)', [at]);
    const after = (await db.query<Booking>('select id, status from public.session_bookings where id = any ($1::uuid[]) order by status', [[second.id, third.id]])).rows;
    expect(after.map((x) => [x.id, x.status]).sort()).toEqual([[second.id, 'lapsed'], [third.id, 'offered']].sort());
    // An expired offer cannot be accepted; the current one can.
    expect(await sqlState(() => call(learnerA2, 'select * from private.answer_offer($1, true)', [second.id]))).toBe('55000');
    expect((await call(outsider, 'select * from private.answer_offer($1, true)', [third.id])).status).toBe('booked');
    expect((await db.query('select places_taken from public.classroom_sessions where id = $1', [s.id])).rows[0]).toEqual({ places_taken: 1 });
  });

  it('a course asking for approval: the booking waits for the line manager, who alone approves it', async () => {
    const { moduleId } = await course({ approval: true });
    const s = await session(personas.instructor, moduleId, { capacity: 2 });
    const asked = await book(learnerA, s.id);
    expect(asked.status).toBe('requested');
    const [toManager] = await notices(asked.id);
    expect(toManager).toMatchObject({ kind: 'session-approval-requested', recipient_id: managerA.id, link_path: '/team', data: { learnerName: 'cs learner a' } });
    // Without a manager the learner books at once.
    expect((await book(learnerA2, s.id)).status).toBe('booked');
    expect((await queryAs<{ booking_id: string }>(db, managerA, 'select booking_id from private.session_requests()', [])).rows.map((r) => r.booking_id)).toEqual([asked.id]);
    expect((await queryAs(db, trainerA, 'select booking_id from private.session_requests()', [])).rows).toEqual([]);
    for (const who of [learnerA, trainerA, orgAdminB, personas.instructor]) {
      expect(await sqlState(() => call(who, 'select * from private.decide_booking($1, true)', [asked.id]))).toBe('P0002');
    }
    expect((await call(managerA, 'select * from private.decide_booking($1, true)', [asked.id])).status).toBe('booked');
    expect((await notices(asked.id)).map((x) => x.kind)).toEqual(['session-approval-requested', 'session-booked']);
    expect(await sqlState(() => call(managerA, 'select * from private.decide_booking($1, false)', [asked.id]))).toBe('55000');
  });

  it('the register: twenty taps of attended complete once, with one audit event; the course completes with a certificate', async () => {
    const { courseId, moduleId } = await course({ learners: [learnerA, learnerA2] });
    const s = await session(personas.instructor, moduleId, { org: orgA, trainers: [trainerA.id] });
    const a = await book(learnerA, s.id);
    expect(await sqlState(() => call(learnerA, `select * from private.mark_attendance($1, 'attended')`, [a.id]))).toBe('42501');
    expect(await sqlState(() => call(orgAdminB, `select * from private.mark_attendance($1, 'attended')`, [a.id]))).toBe('42501');
    expect(await sqlState(() => call(trainerA, `select * from private.mark_attendance($1, 'present')`, [a.id]))).toBe('22023');
    for (let i = 0; i < 20; i++) {
      expect((await call(trainerA, `select * from private.mark_attendance($1, 'attended')`, [a.id])).attendance).toBe('attended');
    }
    const audit = (await db.query<{ action: string; target_id: string }>(
      `select action, target_id from public.audit_events where action = 'session.attendance_marked' and new_data ->> 'bookingId' = $1`, [a.id])).rows;
    expect(audit).toEqual([{ action: 'session.attendance_marked', target_id: learnerA.id }]);
    expect((await db.query('select progress, completed from public.enrollments where user_id = $1 and course_id = $2', [learnerA.id, courseId])).rows[0])
      .toEqual({ progress: 100, completed: true });
    expect((await db.query('select count(*)::int as n from public.certificates where user_id = $1 and course_id = $2', [learnerA.id, courseId])).rows[0]).toEqual({ n: 1 });
    // Marking before: reading a session module alone completes nothing.
    const other = await book(learnerA2, s.id);
    await queryAs(db, learnerA2, 'select private.mark_module_read($1)', [moduleId]);
    expect((await db.query('select completed from public.user_module_progress where user_id = $1 and module_id = $2', [learnerA2.id, moduleId])).rows[0]).toEqual({ completed: false });
    // The org's administrator keeps it too; mark all attended marks the rest.
    expect((await queryAs<{ n: number }>(db, orgAdminA, 'select private.mark_all_attended($1) as n', [s.id])).rows[0].n).toBe(1);
    expect((await db.query('select attendance from public.session_bookings where id = $1', [other.id])).rows[0]).toEqual({ attendance: 'attended' });
  });

  it('attended taken back before the course completes takes the module\'s completion back', async () => {
    const { courseId, moduleId } = await course({ secondModule: true, learners: [learnerA2] });
    const s = await session(personas.instructor, moduleId);
    const b = await book(learnerA2, s.id);
    await call(personas.instructor, `select * from private.mark_attendance($1, 'attended')`, [b.id]);
    expect((await db.query('select progress from public.enrollments where user_id = $1 and course_id = $2', [learnerA2.id, courseId])).rows[0]).toEqual({ progress: 50 });
    await call(personas.instructor, `select * from private.mark_attendance($1, 'no-show')`, [b.id]);
    expect((await db.query('select progress from public.enrollments where user_id = $1 and course_id = $2', [learnerA2.id, courseId])).rows[0]).toEqual({ progress: 0 });
    expect((await db.query('select completed from public.user_module_progress where user_id = $1 and module_id = $2', [learnerA2.id, moduleId])).rows[0]).toEqual({ completed: false });
  });

  it('moving, a change of time, reminders 7 and 1 days before, and the instructor\'s cancellation tell the learners', async () => {
    const { moduleId } = await course();
    const s1 = await session(personas.instructor, moduleId, { capacity: 1, inDays: 20 });
    const s2 = await session(personas.instructor, moduleId, { capacity: 1, inDays: 30 });
    const b = await book(learnerA2, s1.id);
    const waiting = await book(outsider, s1.id);
    // Another date of the module is a move, not a second booking.
    expect(await sqlState(() => book(learnerA2, s2.id))).toBe('55000');
    const moved = await call(learnerA2, 'select * from private.move_booking($1, $2)', [b.id, s2.id]);
    expect([moved.id, moved.session_id, moved.sequence]).toEqual([b.id, s2.id, 1]);
    expect((await notices(b.id)).map((x) => [x.kind, x.cycle, x.data.method])).toEqual([['session-booked', 0, 'REQUEST'], ['session-changed', 1, 'REQUEST']]);
    expect((await db.query('select status from public.session_bookings where id = $1', [waiting.id])).rows[0]).toEqual({ status: 'offered' });
    // The full date refuses a move to it.
    expect(await sqlState(() => call(outsider, 'select * from private.move_booking($1, $2)', [waiting.id, s2.id]))).toBe('55000');

    // The date's time changes: sequence raised, the booked learner told.
    const [updated] = (await queryAs<Session>(db, personas.instructor,
      `select u.* from public.classroom_sessions s, private.update_session(s.id, s.starts_at + interval '1 hour',
         s.ends_at + interval '1 hour', s.venue_name, s.venue_address, s.online_url, s.capacity, s.booking_closes_at, s.note) u
       where s.id = $1`, [s2.id])).rows;
    expect(updated.sequence).toBe(1);
    expect((await notices(b.id)).map((x) => [x.kind, x.cycle])).toContainEqual(['session-changed', 2]);

    // Reminders, by the schedule's time.
    const starts = updated.starts_at.getTime();
    const reminders = async () => (await notices(b.id)).filter((x) => x.kind === 'session-reminder').map((x) => x.threshold);
    await db.query('select private.decide_notifications($1)', [new Date(starts - 8 * DAY)]);
    expect(await reminders()).toEqual([]);
    await db.query('select private.decide_notifications($1)', [new Date(starts - 7 * DAY + 3600_000)]);
    await db.query('select private.decide_notifications($1)', [new Date(starts - 7 * DAY + 7200_000)]);
    expect(await reminders()).toEqual([7]);
    await db.query('select private.decide_notifications($1)', [new Date(starts - DAY + 3600_000)]);
    expect(await reminders()).toEqual([7, 1]);
    expect((await notices(b.id)).filter((x) => x.kind === 'session-reminder').map((x) => x.data.threshold)).toEqual([7, 1]);

    // Cancelled by the instructor: everyone booked or waiting is told, the booked with CANCEL.
    const waits = await book(learnerA, s2.id);
    expect(waits.status).toBe('waiting');
    expect(await sqlState(() => queryAs(db, personas.instructor, `select private.cancel_session($1, '')`, [s2.id]))).toBe('22023');
    await queryAs(db, personas.instructor, `select private.cancel_session($1, 'Instructor unwell')`, [s2.id]);
    const told = (await db.query<{ subject_id: string; data: Record<string, unknown> }>(
      `select subject_id, data from public.notifications where kind = 'session-cancelled' and subject_id = any ($1::uuid[])`, [[b.id, waits.id]])).rows;
    expect(told.map((x) => [x.subject_id, x.data.method, x.data.reason]).sort()).toEqual([[b.id, 'CANCEL', 'Instructor unwell'], [waits.id, null, 'Instructor unwell']].sort());
    expect((await db.query('select status from public.session_bookings where id = $1', [b.id])).rows[0]).toEqual({ status: 'cancelled' });
    // The learner still sees the cancelled date they had booked.
    expect(await seen(learnerA2, 'classroom_sessions', [s2.id])).toEqual([s2.id]);
  });

  it('a walk-in of the organisation is enrolled on the spot and booked over capacity; one of another organisation is refused', async () => {
    const { courseId, moduleId } = await course({ learners: [learnerA2] });
    const s = await session(personas.instructor, moduleId, { capacity: 1, org: orgA, trainers: [trainerA.id] });
    await book(learnerA2, s.id);
    const walkIn = await call(trainerA, 'select * from private.add_walk_in($1, $2)', [s.id, learnerA.id]);
    expect(walkIn).toMatchObject({ status: 'booked' });
    expect((await db.query('select status from public.enrollments where user_id = $1 and course_id = $2', [learnerA.id, courseId])).rows[0]).toEqual({ status: 'ACTIVE' });
    expect((await db.query('select places_taken, capacity from public.classroom_sessions where id = $1', [s.id])).rows[0]).toEqual({ places_taken: 2, capacity: 1 });
    expect(await sqlState(() => call(trainerA, 'select * from private.add_walk_in($1, $2)', [s.id, learnerB.id]))).toBe('22023');
    expect(await sqlState(() => call(learnerA2, 'select * from private.add_walk_in($1, $2)', [s.id, learnerA2.id]))).toBe('P0002');
    const found = (await queryAs<{ name: string }>(db, trainerA, 'select name from private.session_people($1, $2)', [s.id, 'cs learner'])).rows.map((r) => r.name);
    expect(found).toEqual(['cs learner a', 'cs learner a2']);
    expect(await sqlState(() => queryAs(db, learnerA, 'select * from private.session_register($1)', [s.id]))).toBe('P0002');
    expect((await queryAs(db, trainerA, 'select * from private.session_register($1)', [s.id])).rows).toHaveLength(2);
  });

  it("the trainers offered are those private.may_train accepts: of the course's service and the date's organisation, to those who manage its dates", async () => {
    const { moduleId } = await course({ learners: [] });
    const offered = async (who: Persona, org: string | null) =>
      (await queryAs<{ name: string }>(db, who, 'select name from private.session_trainer_candidates($1, $2, $3)', [moduleId, org, '%cs %'])).rows
        .map((r) => r.name);
    // The national author, for organisation A's date and for a national one; each organisation's administrator, its own.
    expect(await offered(personas.instructor, orgA)).toEqual(['cs org admin a', 'cs trainer a']);
    expect(await offered(personas.instructor, null)).toEqual(['cs org admin a', 'cs org admin b', 'cs trainer a']);
    expect(await offered(orgAdminB, orgA)).toEqual(['cs org admin b']);
    // Nobody else asks: a learner, a trainer who does not manage the course's dates.
    for (const who of [learnerA, trainerA, outsider]) expect(await sqlState(() => offered(who, orgA))).toBe('42501');
    expect(await sqlState(() => queryAs(db, personas.instructor, 'select * from private.session_trainer_candidates($1, null, $2)',
      [crypto.randomUUID(), '%']))).toBe('P0002');
    // The same rule writes them: offered is accepted, anyone else refused.
    expect((await session(personas.instructor, moduleId, { org: orgA, trainers: [trainerA.id, orgAdminA.id] })).organisation_id).toBe(orgA);
    for (const refused of [orgAdminB.id, learnerA.id, crypto.randomUUID()]) {
      expect(await sqlState(() => session(personas.instructor, moduleId, { org: orgA, trainers: [trainerA.id, refused] }))).toBe('22023');
    }
    await db.query(`update public.profiles set services = '{UKPS}' where id = $1`, [trainerA.id]);
    try {
      expect(await offered(personas.instructor, orgA)).toEqual(['cs org admin a']);
      expect(await sqlState(() => session(personas.instructor, moduleId, { org: orgA, trainers: [trainerA.id] }))).toBe('22023');
    } finally {
      await db.query(`update public.profiles set services = '{UKFRS}' where id = $1`, [trainerA.id]);
    }
  });
});
