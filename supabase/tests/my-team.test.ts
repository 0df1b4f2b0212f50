// A line manager's "My team" (supabase/schemas/14_my_team.sql), straight at the database
// as the database API would be used: a manager sees their direct and indirect reports with the
// status of their required training, certificates expiring and last activity, and nothing of
// anyone else (another unit's manager's people, another organisation's); the drill-down gives a
// report's completions and certificates, never their CPD, and nothing for a non-report.
//
// Organisation A: managerA manages leadA (Red Watch) and learnerA4 (no unit) directly, and through
// leadA learnerA (Red Watch) and learnerA3 (Central Station). otherManagerA manages learnerA2.
// Organisation B: managerB manages learnerB. One rule: JESIP (course 1) for UKPS, due within 60 days.
// leadA: certificate expiring in 20 days (due soon); learnerA: enrolled 100 days ago (overdue);
// learnerA3: completed, certificate that never expires (done); learnerA4: new (in progress).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, ids, personas, queryAs, sqlState, type Persona, type TestDatabase } from './helpers/database';

const person = (n: number, email: string): Persona => ({ id: `00000000-0000-4000-a000-00000000c${String(n).padStart(3, '0')}`, email });
const orgAdminA = person(1, 'team.org.admin.a@example.uk');
const managerA = person(2, 'team.manager.a@example.uk');
const leadA = person(3, 'team.lead.a@example.uk');
const learnerA = person(4, 'team.learner.a@example.uk');
const learnerA3 = person(5, 'team.learner.a3@example.uk');
const learnerA4 = person(6, 'team.learner.a4@example.uk');
const otherManagerA = person(7, 'team.other.manager.a@example.uk');
const learnerA2 = person(8, 'team.learner.a2@example.uk');
const managerB = person(9, 'team.manager.b@example.uk');
const learnerB = person(10, 'team.learner.b@example.uk');

const orgA = 'b0000000-0000-4000-a000-000000000001';
const orgB = 'b0000000-0000-4000-a000-000000000002';
const areaA = 'b1000000-0000-4000-a000-000000000001';
const stationA = 'b1000000-0000-4000-a000-000000000002';
const watchA = 'b1000000-0000-4000-a000-000000000003';
const station2A = 'b1000000-0000-4000-a000-000000000004';
const areaB = 'b1000000-0000-4000-a000-000000000005';
const jesip = ids.course(1);

interface Member {
  user_id: string;
  username: string;
  unit_id: string | null;
  unit_name: string | null;
  direct: boolean;
  overdue: number;
  due_soon: number;
  in_progress: number;
  done: number;
  expiring_certificates: number;
  next_expiry: unknown;
  last_activity_at: unknown;
  total: string | number;
}

const MEMBERS = 'select * from private.team_members($1, $2, $3, $4, $5)';

describe.each(backends)('My team on $name', ({ create }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Teamshire Police', 'TMP', 'UKPS'), ($2, 'Teamshire Ambulance Trust', 'TMAT', 'UKAS')`, [orgA, orgB]);
    await db.query(`insert into public.units (id, organisation_id, parent_id, name) values
      ($1, $5, null, 'North Area'), ($2, $5, $1, 'Central Station'), ($3, $5, $2, 'Red Watch'),
      ($4, $5, $1, 'Harbour Station'), ($6, $7, null, 'East Division')`,
      [areaA, stationA, watchA, station2A, orgA, areaB, orgB]);
    const people: [Persona, string, string, string, string | null][] = [
      [orgAdminA, 'team_org_admin_a', 'ADMIN', orgA, null],
      [managerA, 'team_manager_a', 'STUDENT', orgA, stationA],
      [leadA, 'team_lead_a', 'STUDENT', orgA, watchA],
      [learnerA, 'team_learner_a', 'STUDENT', orgA, watchA],
      [learnerA3, 'team_learner_a3', 'STUDENT', orgA, stationA],
      [learnerA4, 'team_learner_a4', 'STUDENT', orgA, null],
      [otherManagerA, 'team_other_manager_a', 'STUDENT', orgA, station2A],
      [learnerA2, 'team_learner_a2', 'STUDENT', orgA, station2A],
      [managerB, 'team_manager_b', 'STUDENT', orgB, areaB],
      [learnerB, 'team_learner_b', 'STUDENT', orgB, areaB],
    ];
    for (const [p, username, role, org, unit] of people) {
      await createUser(db, { id: p.id, email: p.email, username, name: username.replace(/_/g, ' '), role, services: ['UKPS'] });
      await db.query('update public.profiles set organisation_id = $2, unit_id = $3 where id = $1', [p.id, org, unit]);
    }
    const reports: [Persona, Persona][] = [
      [leadA, managerA], [learnerA4, managerA], [learnerA, leadA], [learnerA3, leadA],
      [learnerA2, otherManagerA], [learnerB, managerB],
    ];
    for (const [p, m] of reports) await db.query('update public.profiles set manager_id = $2 where id = $1', [p.id, m.id]);
    // The rule enrols every UKPS person in JESIP now; learnerA and learnerA2 joined long ago.
    await db.query(`insert into public.required_training (course_id, service, due_within_days, renew_before_days)
      values ($1, 'UKPS', 60, 30)`, [jesip]);
    await db.query(`update public.required_training set created_at = now() - interval '100 days' where course_id = $1`, [jesip]);
    for (const p of people.map(([p]) => p)) {
      const since = p === learnerA || p === learnerA2 ? `now() - interval '100 days'` : 'now()';
      await db.query(`update public.profiles set created_at = ${since} where id = $1`, [p.id]);
      await db.query(`update public.enrollments set created_at = ${since}, started_at = ${since} where user_id = $1`, [p.id]);
    }
    await db.query(`update public.enrollments set progress = 100, completed = true, completed_at = now() - interval '3 days'
      where user_id = $1 and course_id = $2`, [learnerA3.id, jesip]);
    await db.query(`insert into public.certificates (user_id, course_id, cycle, learner_name, course_title, verification_code,
        issued_at, expires_at) values
      ($1, $3, 1, 'team lead a', 'JESIP', 'TEAMTEST0001', now() - interval '340 days', now() + interval '20 days'),
      ($2, $3, 1, 'team learner a3', 'JESIP', 'TEAMTEST0002', now() - interval '3 days', null)`,
      [leadA.id, learnerA3.id, jesip]);
    await db.query(`insert into public.user_module_progress (user_id, module_id, read_at, updated_at)
      values ($1, $2, now() - interval '2 days', now() - interval '2 days')`, [learnerA.id, ids.module(1, 1)]);
    await db.query(`insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed, started_at, completed_at)
      values ($1, $2, 1, 3, false, now() - interval '1 day', now() - interval '1 day')`, [learnerA.id, ids.quiz(1, 2)]);
    await db.query(`insert into public.cpd_entries (user_id, activity_date, activity, hours, learnt, reflection)
      values ($1, current_date - 1, 'Custody reading', 1, 'Notes', 'A private reflection')`, [learnerA.id]);
  });
  afterAll(async () => {
    await db?.close();
  });

  const members = async (p: Persona | null, unit: string | null = null, status: string | null = null,
    search: string | null = null, limit = 20, offset = 0) =>
    (await queryAs<Member>(db, p, MEMBERS, [unit, status, search, limit, offset])).rows;
  const names = (rows: { username: string }[]) => rows.map((r) => r.username);

  it('a manager sees their direct and indirect reports, grouped by unit, with their statuses', async () => {
    const rows = await members(managerA);
    // Central Station, Red Watch (two), then no unit.
    expect(names(rows)).toEqual(['team_learner_a3', 'team_lead_a', 'team_learner_a', 'team_learner_a4']);
    const by = Object.fromEntries(rows.map((r) => [r.username, r]));
    expect(by.team_lead_a).toMatchObject({ direct: true, unit_id: watchA, unit_name: 'Red Watch', overdue: 0, due_soon: 1,
      in_progress: 0, done: 0, expiring_certificates: 1 });
    expect(by.team_lead_a.next_expiry).not.toBeNull();
    expect(by.team_learner_a).toMatchObject({ direct: false, overdue: 1, due_soon: 0, in_progress: 0, done: 0,
      expiring_certificates: 0, next_expiry: null });
    expect(by.team_learner_a3).toMatchObject({ direct: false, unit_name: 'Central Station', overdue: 0, done: 1 });
    expect(by.team_learner_a4).toMatchObject({ direct: true, unit_id: null, in_progress: 1, overdue: 0 });
    expect(Number(rows[0].total)).toBe(4);
    // The last activity is the latest of progress, attempt, enrolment and completion.
    const last = new Date(String(by.team_learner_a.last_activity_at)).getTime();
    expect(Math.abs(last - (Date.now() - 86_400_000))).toBeLessThan(60_000);
    expect(by.team_learner_a3.last_activity_at).not.toBeNull();
  });

  it('filters by status, unit (with its sub-units) and name or username, and pages', async () => {
    expect(names(await members(managerA, null, 'overdue'))).toEqual(['team_learner_a']);
    expect(names(await members(managerA, null, 'due-soon'))).toEqual(['team_lead_a']);
    expect(names(await members(managerA, null, 'in-progress'))).toEqual(['team_learner_a4']);
    expect(names(await members(managerA, null, 'done'))).toEqual(['team_learner_a3']);
    expect(names(await members(managerA, stationA))).toEqual(['team_learner_a3', 'team_lead_a', 'team_learner_a']);
    expect(names(await members(managerA, watchA))).toEqual(['team_lead_a', 'team_learner_a']);
    expect(await members(managerA, station2A)).toEqual([]);
    expect(await members(managerA, areaB)).toEqual([]);
    expect(names(await members(managerA, null, null, 'LEAD'))).toEqual(['team_lead_a']);
    expect(names(await members(managerA, null, null, '%'))).toEqual([]);
    const page = await members(managerA, null, null, null, 2, 2);
    expect(names(page)).toEqual(['team_learner_a', 'team_learner_a4']);
    expect(Number(page[0].total)).toBe(4);
    expect(Number((await members(managerA, null, 'overdue', null, 1, 0))[0].total)).toBe(1);
  });

  it('a manager of another unit or organisation sees only their own people; anyone without reports sees nobody', async () => {
    expect(names(await members(otherManagerA))).toEqual(['team_learner_a2']);
    expect(names(await members(managerB))).toEqual(['team_learner_b']);
    expect(names(await members(leadA))).toEqual(['team_learner_a3', 'team_learner_a']);
    for (const nobody of [learnerA, orgAdminA, personas.admin, personas.instructor, learnerB]) {
      expect(await members(nobody)).toEqual([]);
      expect(await members(nobody, null, 'overdue')).toEqual([]);
    }
    expect(names(await members(otherManagerA, null, 'overdue'))).toEqual(['team_learner_a2']);
  });

  it('the summary counts the caller\'s people only', async () => {
    const summary = async (p: Persona) => (await queryAs<Record<string, string>>(db, p, 'select * from private.team_summary()')).rows[0];
    const a = await summary(managerA);
    expect(Object.fromEntries(Object.entries(a).map(([k, v]) => [k, Number(v)])))
      .toEqual({ people: 4, direct: 2, overdue: 1, due_soon: 1, expiring: 1, sessions_booked: 0, practicals_due: 0, practicals_overdue: 0 });
    const nobody = await summary(orgAdminA);
    expect(Number(nobody.people)).toBe(0);
    expect(Number(nobody.overdue)).toBe(0);
  });

  it('the drill-down gives a report\'s required training, completions and certificates, never CPD', async () => {
    const record = async (p: Persona, of: Persona) =>
      (await queryAs<Record<string, unknown>>(db, p, 'select * from private.team_member_record($1)', [of.id])).rows;
    const [a3] = await record(managerA, learnerA3);
    expect(a3).toMatchObject({ username: 'team_learner_a3', unit_name: 'Central Station', direct: false });
    expect(a3.completions).toEqual([expect.objectContaining({ courseId: jesip, courseTitle: expect.stringContaining('JESIP') })]);
    expect(a3.certificates).toEqual([expect.objectContaining({ courseTitle: 'JESIP', expiresAt: null, state: 'valid' })]);
    expect(a3.required).toEqual([expect.objectContaining({ courseId: jesip, status: 'done' })]);
    const [a] = await record(managerA, learnerA);
    expect(a.required).toEqual([expect.objectContaining({ status: 'overdue' })]);
    expect(a.completions).toEqual([]);
    expect(JSON.stringify(a)).not.toMatch(/reflection|Custody reading|cpd/i);
    expect(Object.keys(a).sort()).toEqual(['certificates', 'completions', 'direct', 'name', 'practicals', 'required', 'sessions', 'unit_id', 'unit_name', 'user_id', 'username']);
    const [lead] = await record(managerA, leadA);
    expect(lead.certificates).toEqual([expect.objectContaining({ state: 'expiring' })]);
    // Refused: another unit's manager's report, another organisation's, one's own manager, oneself.
    expect(await record(managerA, learnerA2)).toEqual([]);
    expect(await record(managerA, learnerB)).toEqual([]);
    expect(await record(managerA, managerA)).toEqual([]);
    expect(await record(leadA, managerA)).toEqual([]);
    expect(await record(otherManagerA, learnerA)).toEqual([]);
    expect(await record(orgAdminA, learnerA)).toEqual([]);
    expect(await record(personas.admin, learnerA)).toEqual([]);
    expect(await record(managerB, learnerA)).toEqual([]);
  });

  it('a bad status is refused, and visitors may call nothing', async () => {
    expect(await sqlState(() => members(managerA, null, 'late'))).toBe('22023');
    expect(await sqlState(() => members(null))).toBe('42501');
    expect(await sqlState(() => queryAs(db, null, 'select * from private.team_member_record($1)', [learnerA.id]))).toBe('42501');
    expect(await sqlState(() => queryAs(db, null, 'select * from private.team_summary()'))).toBe('42501');
  });
});
