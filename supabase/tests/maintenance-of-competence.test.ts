// Maintenance of competence (supabase/schemas/27_maintenance_of_competence.sql and the team functions
// of 14_my_team.sql): where each person's practical assessments stand at a time passed in (valid,
// due within 60 days, overdue when the validity ended or nobody signed them off, awaiting sign-off),
// their upcoming session bookings, and who reads them: a line manager their reports only (My team),
// an organisation's administrator their organisation by unit (compliance), national administrators
// every organisation; nobody calls the internal functions straight.
//
// Organisation A (Red Watch, Blue Watch): manager manages Fay, Gus (Red Watch) and Hal (Blue Watch);
// another manager manages Ivy. Organisation B: Bea. One published fire course with two practicals
// (12 months, no verifier; 24 months with a verifier) and two session modules; everyone enrolled.
// Times are relative to `base`, a moment the test takes and passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, personas, queryAs, sqlState, type Persona, type TestDatabase } from './helpers/database';

const person = (n: number, email: string): Persona => ({ id: `27000000-0000-4000-a000-0000000001${String(n).padStart(2, '0')}`, email });
const manager = person(1, 'moc.manager@example.uk');
const fay = person(2, 'moc.fay@example.uk');
const gus = person(3, 'moc.gus@example.uk');
const hal = person(4, 'moc.hal@example.uk');
const otherManager = person(5, 'moc.other.manager@example.uk');
const ivy = person(6, 'moc.ivy@example.uk');
const orgAdminA = person(7, 'moc.org.admin.a@example.uk');
const bea = person(8, 'moc.bea@example.uk');
const orgAdminB = person(9, 'moc.org.admin.b@example.uk');

const orgA = '27000000-0000-4000-a000-0000000000a1';
const orgB = '27000000-0000-4000-a000-0000000000a2';
const redWatch = '27000000-0000-4000-a000-0000000000b1';
const blueWatch = '27000000-0000-4000-a000-0000000000b2';
const course = '27000000-0000-4000-a000-0000000000c1';
const annual = '27000000-0000-4000-a000-0000000000d1';
const biennial = '27000000-0000-4000-a000-0000000000d2';
const dayOne = '27000000-0000-4000-a000-0000000000d3';
const dayTwo = '27000000-0000-4000-a000-0000000000d4';

const DAY = 86_400_000;
const base = new Date(Math.floor(Date.now() / 1000) * 1000);
const at = (days: number) => new Date(base.getTime() + days * DAY).toISOString();

interface State { user_id: string; module_id: string; state: string; signed_off_at: unknown; valid_until: unknown }

describe.each(backends)('Maintenance of competence on $name', ({ create }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Competenceshire Fire and Rescue', 'CFR', 'UKFRS'), ($2, 'Other Fire and Rescue', 'OFRS', 'UKFRS')`, [orgA, orgB]);
    await db.query(`insert into public.units (id, organisation_id, parent_id, name) values
      ($1, $3, null, 'Red Watch'), ($2, $3, null, 'Blue Watch')`, [redWatch, blueWatch, orgA]);
    const people: [Persona, string, string, string, string | null, Persona | null][] = [
      [manager, 'moc_manager', 'STUDENT', orgA, redWatch, null], [fay, 'moc_fay', 'STUDENT', orgA, redWatch, manager],
      [gus, 'moc_gus', 'STUDENT', orgA, redWatch, manager], [hal, 'moc_hal', 'STUDENT', orgA, blueWatch, manager],
      [otherManager, 'moc_other_manager', 'STUDENT', orgA, blueWatch, null], [ivy, 'moc_ivy', 'STUDENT', orgA, blueWatch, otherManager],
      [orgAdminA, 'moc_org_admin_a', 'ADMIN', orgA, null, null], [bea, 'moc_bea', 'STUDENT', orgB, null, null],
      [orgAdminB, 'moc_org_admin_b', 'ADMIN', orgB, null, null],
    ];
    for (const [p, username, role, org, unit, boss] of people) {
      await createUser(db, { id: p.id, email: p.email, username, name: username.replace(/_/g, ' '), role, services: ['UKFRS'] });
      await db.query('update public.profiles set organisation_id = $2, unit_id = $3, manager_id = $4 where id = $1',
        [p.id, org, unit, boss?.id ?? null]);
    }
    await db.query(`insert into public.courses (id, title, description, service, author_id, status)
      values ($1, 'Breathing apparatus wearer', 'Wearing breathing apparatus safely, checked in practice.', 'UKFRS', $2, 'ACTIVE')`,
    [course, personas.instructor.id]);
    await db.query(`insert into public.course_modules (id, course_id, title, order_index, kind) values
      ($1, $5, 'BA wearer: annual practical', 1, 'assessment'), ($2, $5, 'BA instructor: two-yearly practical', 2, 'assessment'),
      ($3, $5, 'Hot fire training day', 3, 'session'), ($4, $5, 'Compartment fire behaviour day', 4, 'session')`,
    [annual, biennial, dayOne, dayTwo, course]);
    await db.query(`insert into public.assessment_settings (module_id, needs_verifier, valid_months) values
      ($1, false, 12), ($2, true, 24)`, [annual, biennial]);
    for (const p of [fay, gus, hal, ivy, bea]) {
      await db.query('insert into public.enrollments (user_id, course_id) values ($1, $2)', [p.id, course]);
    }
    const record = (learner: Persona, module: string, outcome: string | null, created: number, signed: number | null,
      verified: number | null = null) => db.query(
      `insert into public.assessment_records (module_id, course_id, learner_id, cycle, assessor_id, outcome, created_at,
         signed_at, verifier_id, verified_at, learner_name, assessor_name, verifier_name)
       values ($1, $2, $3, 1, $4, $5, $6, $7, $8, $9, 'Learner', 'Ian Instructor', $10)`,
      [module, course, learner.id, personas.instructor.id, outcome, at(created), signed === null ? null : at(signed),
        verified === null ? null : orgAdminA.id, verified === null ? null : at(verified), verified === null ? null : 'Ada Admin']);
    // Fay: annual signed off 330 days ago (ends in about 35 days: due); two-yearly countersigned 100 days ago (valid).
    await record(fay, annual, 'competent', -331, -330);
    await record(fay, biennial, 'competent', -101, -101, -100);
    // Gus: annual lapsed (400 days ago); two-yearly signed competent 5 days ago, not yet countersigned.
    await record(gus, annual, 'competent', -401, -400);
    await record(gus, biennial, 'competent', -6, -5);
    // Hal: never assessed; a not-yet-competent record does not sign anything off.
    await record(hal, annual, 'not-yet-competent', -21, -20);
    // Ivy (another manager's): annual signed off 100 days ago; Bea (organisation B): lapsed.
    await record(ivy, annual, 'competent', -101, -100);
    await record(bea, annual, 'competent', -501, -500);
    const session = async (module: string, starts: number, cancelled = false) => (await db.query<{ id: string }>(
      `insert into public.classroom_sessions (module_id, course_id, starts_at, ends_at, venue_name, capacity, booking_closes_at, cancelled_at, cancelled_reason)
       values ($1, $2, $3, $4, 'Training centre', 10, $3, $5, $6) returning id`,
      [module, course, at(starts), at(starts + 0.25), cancelled ? at(-1) : null, cancelled ? 'Instructor ill' : null])).rows[0].id;
    const soon = await session(dayOne, 10);
    const later = await session(dayOne, 20);
    const past = await session(dayTwo, -10);
    const cancelled = await session(dayTwo, 15, true);
    const book = (p: Persona, s: string, status: string) => db.query(
      `insert into public.session_bookings (session_id, user_id, status, waiting_since) values ($1, $2, $3, $4)`,
      [s, p.id, status, status === 'waiting' ? at(-1) : null]);
    await book(fay, soon, 'booked');
    await book(fay, past, 'booked');
    await book(gus, later, 'waiting');
    await book(hal, cancelled, 'cancelled');
    await book(ivy, soon, 'booked');
    await book(bea, later, 'requested');
  });
  afterAll(async () => {
    await db?.close();
  });

  const states = async (people: Persona[], now: string) =>
    (await db.query<State>('select * from private.practical_states($1::uuid[], $2)', [people.map((p) => p.id), now])).rows;
  const stateOf = (rows: State[], p: Persona, module: string) => rows.find((r) => r.user_id === p.id && r.module_id === module)?.state;

  it('judges each practical at the time passed: valid, due within 60 days, overdue, awaiting sign-off', async () => {
    const now = await states([fay, gus, hal], at(0));
    expect(now).toHaveLength(6);
    expect(stateOf(now, fay, annual)).toBe('due');
    expect(stateOf(now, fay, biennial)).toBe('valid');
    expect(stateOf(now, gus, annual)).toBe('overdue');
    expect(stateOf(now, gus, biennial)).toBe('awaiting-sign-off');
    expect(stateOf(now, hal, annual)).toBe('overdue');
    expect(stateOf(now, hal, biennial)).toBe('overdue');
    const fayAnnual = now.find((r) => r.user_id === fay.id && r.module_id === annual)!;
    const signed = new Date(String(fayAnnual.signed_off_at));
    expect(signed.toISOString()).toBe(at(-330));
    const until = new Date(String(fayAnnual.valid_until));
    expect(until.getUTCMonth()).toBe((signed.getUTCMonth()) % 12);
    expect(until.getUTCFullYear()).toBe(signed.getUTCFullYear() + 1);
    expect(now.find((r) => r.user_id === hal.id && r.module_id === annual)).toMatchObject({ signed_off_at: null, valid_until: null });
    // Later: Fay's annual has lapsed. Earlier: nothing was signed off yet, and Fay's annual was valid.
    expect(stateOf(await states([fay], at(40)), fay, annual)).toBe('overdue');
    expect(stateOf(await states([fay], at(-340)), fay, annual)).toBe('overdue');
    expect(stateOf(await states([fay], at(-300)), fay, annual)).toBe('valid');
    // Before the countersignature's draft existed, Gus's two-yearly was simply never signed off.
    expect(stateOf(await states([gus], at(-10)), gus, biennial)).toBe('overdue');
  });

  it('lists upcoming live bookings only: not cancelled, not over, not cancelled dates', async () => {
    const rows = (await db.query<{ user_id: string; status: string; module_id: string }>(
      'select * from private.upcoming_session_bookings($1::uuid[], $2) order by starts_at', [[fay.id, gus.id, hal.id].map(String), at(0)])).rows;
    expect(rows.map((r) => [r.user_id, r.status])).toEqual([[fay.id, 'booked'], [gus.id, 'waiting']]);
    // Passed a time after the dates, nothing is upcoming.
    expect((await db.query('select * from private.upcoming_session_bookings($1::uuid[], $2)', [[fay.id], at(30)])).rows).toEqual([]);
  });

  it('a manager sees their reports\' sessions and practicals, counted in the summary, and nobody else\'s', async () => {
    const rows = (await queryAs<Record<string, unknown>>(db, manager, 'select * from private.team_members(null, null, null, 20, 0)')).rows;
    expect(rows.map((r) => r.username).sort()).toEqual(['moc_fay', 'moc_gus', 'moc_hal']);
    const by = Object.fromEntries(rows.map((r) => [r.username, r]));
    expect(by.moc_fay).toMatchObject({ sessions_booked: 1, practicals_due: 1, practicals_overdue: 0, practicals_awaiting: 0,
      practicals_overdue_since: null });
    expect(by.moc_fay.next_session).toMatchObject({ moduleId: dayOne, moduleTitle: 'Hot fire training day', status: 'booked' });
    expect(new Date(String(by.moc_fay.next_practical_due)).getTime()).toBeGreaterThan(base.getTime());
    expect(by.moc_gus).toMatchObject({ sessions_booked: 0, practicals_due: 0, practicals_overdue: 1, practicals_awaiting: 1,
      next_practical_due: null });
    expect(by.moc_gus.next_session).toMatchObject({ status: 'waiting' });
    expect(new Date(String(by.moc_gus.practicals_overdue_since)).getTime()).toBeLessThan(base.getTime());
    expect(by.moc_hal).toMatchObject({ sessions_booked: 0, next_session: null, practicals_overdue: 2, practicals_overdue_since: null });
    const [summary] = (await queryAs<Record<string, string>>(db, manager, 'select * from private.team_summary()')).rows;
    expect([summary.people, summary.sessions_booked, summary.practicals_due, summary.practicals_overdue].map(Number)).toEqual([3, 1, 1, 2]);
    // The other manager sees Ivy only (booked; annual valid, two-yearly never assessed).
    const [other] = (await queryAs<Record<string, string>>(db, otherManager, 'select * from private.team_summary()')).rows;
    expect([other.people, other.sessions_booked, other.practicals_due, other.practicals_overdue].map(Number)).toEqual([1, 1, 0, 1]);
  });

  it('the drill-down lists a report\'s sessions and practicals; never another manager\'s report\'s', async () => {
    const record = async (p: Persona, of: Persona) =>
      (await queryAs<{ sessions: { status: string }[]; practicals: { moduleId: string; state: string; validMonths: number }[] }>(
        db, p, 'select sessions, practicals from private.team_member_record($1)', [of.id])).rows;
    const [g] = await record(manager, gus);
    expect(g.sessions).toEqual([expect.objectContaining({ status: 'waiting', courseTitle: 'Breathing apparatus wearer', venueName: 'Training centre', online: false })]);
    // Most urgent first.
    expect(g.practicals.map((x) => [x.moduleId, x.state, x.validMonths])).toEqual([[annual, 'overdue', 12], [biennial, 'awaiting-sign-off', 24]]);
    expect(await record(manager, ivy)).toEqual([]);
    expect(await record(manager, bea)).toEqual([]);
    expect(await record(otherManager, gus)).toEqual([]);
    expect(await record(orgAdminA, gus)).toEqual([]);
  });

  it('compliance: an organisation\'s administrator sees its practicals by unit and person; others are refused', async () => {
    type Group = { unit_id: string | null; name: string | null; people: string; due: string; overdue: string; awaiting: string; valid: string };
    const groups = (await queryAs<Group>(db, orgAdminA, 'select * from private.compliance_practicals(null, null)')).rows;
    const figures = (g: Group | undefined) => g && [g.people, g.valid, g.due, g.overdue, g.awaiting].map(Number);
    expect(groups.map((g) => g.name)).toEqual(['Blue Watch', 'Red Watch']);
    expect(figures(groups.find((g) => g.unit_id === redWatch))).toEqual([2, 1, 1, 1, 1]);
    // Ivy was never assessed on the two-yearly practical.
    expect(figures(groups.find((g) => g.unit_id === blueWatch))).toEqual([2, 1, 0, 3, 0]);
    const blue = (await queryAs<Group>(db, orgAdminA, 'select * from private.compliance_practicals(null, $1)', [blueWatch])).rows;
    expect(blue.map((g) => [g.unit_id, Number(g.overdue)])).toEqual([[blueWatch, 3]]);
    const people = (await queryAs<{ username: string; state: string; total: string }>(db, orgAdminA,
      'select * from private.compliance_practical_people(null, null, $1, 20, 0)', ['overdue'])).rows;
    expect(Number(people[0].total)).toBe(4);
    // Never assessed comes first (no date), then the earliest lapsed.
    expect(people.map((p) => p.username)).toEqual(['moc_hal', 'moc_hal', 'moc_ivy', 'moc_gus']);
    // Organisation B's administrator sees Bea's two practicals only; a national administrator both organisations.
    const b = (await queryAs<{ username: string }>(db, orgAdminB, 'select * from private.compliance_practical_people(null, null, null, 20, 0)')).rows;
    expect(b.map((p) => p.username)).toEqual(['moc_bea', 'moc_bea']);
    const national = (await queryAs<{ name: string | null }>(db, personas.admin, 'select * from private.compliance_practicals(null, null)')).rows;
    expect(national.map((g) => g.name)).toEqual(expect.arrayContaining(['Competenceshire Fire and Rescue', 'Other Fire and Rescue']));
    expect(await sqlState(() => queryAs(db, orgAdminB, 'select * from private.compliance_practicals($1, null)', [orgA]))).toBe('P0002');
    expect(await sqlState(() => queryAs(db, orgAdminA, 'select * from private.compliance_practicals(null, $1)', ['27000000-0000-4000-a000-0000000000ff']))).toBe('P0002');
    expect(await sqlState(() => queryAs(db, orgAdminA, 'select * from private.compliance_practical_people(null, null, $1, 20, 0)', ['late']))).toBe('22023');
    for (const who of [manager, fay, personas.instructor]) {
      expect(await sqlState(() => queryAs(db, who, 'select * from private.compliance_practicals(null, null)')), who.email).toBe('42501');
      expect(await sqlState(() => queryAs(db, who, 'select * from private.compliance_practical_people(null, null, null, 20, 0)')), who.email).toBe('42501');
    }
  });

  it('the internal functions are nobody\'s to call through the database API', async () => {
    for (const who of [null, manager, orgAdminA, personas.admin]) {
      expect(await sqlState(() => queryAs(db, who, 'select * from private.practical_states($1::uuid[], now())', [[fay.id]]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, who, 'select * from private.upcoming_session_bookings($1::uuid[], now())', [[fay.id]]))).toBe('42501');
    }
  });
});
