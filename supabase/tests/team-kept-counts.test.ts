// A line manager's team page reads each report's required-training counts from those kept with the
// organisation's compliance summary (private.compliance_person_counts, 20_compliance_summary_counts.sql;
// private.team_status_counts, 14_my_team.sql). After each kind of change (a completion, a certificate
// expiring with no write, a rule added, a report moving unit or organisation, a person deactivated)
// the page and its summary give what THE status rule (private.required_training_states) gives at
// that moment; a refresh a manager's request starts keeps the whole organisation's figures; the
// kept counts are for no one to read directly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, claimsFor, createUser, ids, personas, queryAs, sqlState, type Persona, type TestDatabase } from './helpers/database';

const orgA = 'c6000000-0000-4000-a000-000000000001';
const orgB = 'c6000000-0000-4000-a000-000000000002';
const areaA = 'c6100000-0000-4000-a000-000000000001';
const stationA = 'c6100000-0000-4000-a000-000000000002';
const station2A = 'c6100000-0000-4000-a000-000000000003';
const areaB = 'c6100000-0000-4000-a000-000000000004';
const person = (n: number, email: string): Persona => ({ id: `c7000000-0000-4000-a000-${String(n).padStart(12, '0')}`, email });
const adminA = person(1, 'kept.team.admin.a@example.uk');
const manager = person(2, 'kept.team.manager@example.uk');
const reports = [3, 4, 5, 6].map((n) => person(n, `kept.team.report.${n}@example.uk`));
const learnerB = person(7, 'kept.team.learner.b@example.uk');
const required = ids.course(8); // published
const second = ids.course(9); // published

type Counts = { overdue: number; due_soon: number; in_progress: number; done: number };
type Summary = { people: number; overdue: number; due_soon: number };
const courses = (c: Counts) => c.overdue + c.due_soon + c.in_progress + c.done;

describe.each(backends)('the team page from kept counts on $name', ({ create }) => {
  let db: TestDatabase;

  /** The page's people and counts, as the manager is served them. */
  const page = async (): Promise<Record<string, Counts>> => {
    const rows = (await queryAs<Record<string, unknown>>(db, manager, 'select * from private.team_members(null, null, null, 100, 0)')).rows;
    return Object.fromEntries(rows.map((r) => [r.user_id as string, {
      overdue: Number(r.overdue), due_soon: Number(r.due_soon), in_progress: Number(r.in_progress), done: Number(r.done),
    }]));
  };
  const summary = async (): Promise<Summary> => {
    const [r] = (await queryAs<Record<string, unknown>>(db, manager, 'select * from private.team_summary()')).rows;
    return { people: Number(r.people), overdue: Number(r.overdue), due_soon: Number(r.due_soon) };
  };
  /** The same from the status rule itself: the manager's active reports, counted per person. */
  const live = async (): Promise<Record<string, Counts>> => {
    const team = (await db.query<{ id: string }>(
      'select id from public.profiles where manager_id = $1 and deactivated_at is null', [manager.id])).rows.map((r) => r.id);
    const rows = (await queryAs<Record<string, unknown>>(db, personas.admin, `
      select st.user_id, count(*) filter (where st.status = 'overdue') as overdue,
             count(*) filter (where st.status = 'due-soon') as due_soon,
             count(*) filter (where st.status = 'in-progress') as in_progress,
             count(*) filter (where st.status = 'done') as done
      from private.required_training_states() st
      where st.user_id = any ($1::uuid[])
      group by st.user_id`, [team])).rows;
    const counted = new Map(rows.map((r) => [r.user_id as string, {
      overdue: Number(r.overdue), due_soon: Number(r.due_soon), in_progress: Number(r.in_progress), done: Number(r.done),
    }]));
    return Object.fromEntries(team.map((id) => [id, counted.get(id) ?? { overdue: 0, due_soon: 0, in_progress: 0, done: 0 }]));
  };
  const expectFollows = async () => {
    const expected = await live();
    expect(await page()).toEqual(expected);
    const people = Object.values(expected);
    expect(await summary()).toEqual({
      people: people.length,
      overdue: people.filter((c) => c.overdue > 0).length,
      due_soon: people.filter((c) => c.due_soon > 0).length,
    });
    // served from the kept counts, with nothing waiting
    expect(Number((await db.query<{ n: string }>(
      'select count(*) as n from private.compliance_summary_changes where organisation_id = $1', [orgA])).rows[0].n)).toBe(0);
    expect(Number((await db.query<{ n: string }>(
      'select count(*) as n from private.compliance_person_counts where organisation_id = $1', [orgA])).rows[0].n)).toBeGreaterThan(0);
    return expected;
  };
  const certify = (user: string, course: string, expires: string) =>
    db.query(`insert into public.certificates (user_id, course_id, learner_name, course_title, issued_at, expires_at)
              values ($1, $2, 'Someone', 'Required', now() - interval '400 days', ${expires})`, [user, course]);
  const refreshedAt = async () =>
    (await db.query<{ at: Date }>('select refreshed_at as at from private.compliance_summary_scopes where organisation_id = $1', [orgA])).rows[0]?.at;

  beforeAll(async () => {
    db = await create();
    await db.query('delete from public.required_training');
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Keptford Police', 'KFP', 'UKPS'), ($2, 'Keptford Fire', 'KFF', 'UKPS')`, [orgA, orgB]);
    await db.query(`insert into public.units (id, organisation_id, parent_id, name) values
      ($1, $5, null, 'South Area'), ($2, $5, $1, 'Keptford Station'), ($3, $5, $1, 'Quay Station'), ($4, $6, null, 'West Division')`,
      [areaA, stationA, station2A, areaB, orgA, orgB]);
    const people: [Persona, string, string, string | null][] = [
      [adminA, 'ADMIN', orgA, null], [manager, 'STUDENT', orgA, stationA], [learnerB, 'STUDENT', orgB, areaB],
      [reports[0], 'STUDENT', orgA, stationA], [reports[1], 'STUDENT', orgA, station2A],
      [reports[2], 'STUDENT', orgA, stationA], [reports[3], 'STUDENT', orgA, null],
    ];
    for (const [p, role, org, unit] of people) {
      const username = p.email.split('@')[0].replace(/\./g, '_');
      await createUser(db, { id: p.id, email: p.email, username, name: username.replace(/_/g, ' '), role, services: ['UKPS'] });
      await db.query('update public.profiles set organisation_id = $2, unit_id = $3 where id = $1', [p.id, org, unit]);
    }
    for (const r of reports) await db.query('update public.profiles set manager_id = $2 where id = $1', [r.id, manager.id]);
    await db.query(`insert into public.required_training (course_id, role, organisation_id, due_within_days, renew_before_days)
      values ($1, 'STUDENT', $2, 60, 30), ($1, 'STUDENT', $3, 60, 30)`, [required, orgA, orgB]);
    // reports[1] joined long ago: overdue
    await db.query(`update public.required_training set created_at = now() - interval '100 days'`);
    await db.query(`update public.profiles set created_at = now() - interval '100 days' where id = $1`, [reports[1].id]);
    await db.query(`update public.enrollments set created_at = now() - interval '100 days' where user_id = $1`, [reports[1].id]);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('is served from counts kept for the whole organisation, computed once while nothing changes', async () => {
    await db.query('delete from private.compliance_summary_scopes');
    const first = await expectFollows();
    expect(first[reports[1].id]).toMatchObject({ overdue: 1 });
    const at = await refreshedAt();
    expect(at).toBeDefined();
    await page();
    expect(await refreshedAt()).toEqual(at);
    // The refresh a manager started kept every person of the organisation, not only the reports:
    // the administrator is served the organisation's summary from it as computed.
    const people = Number((await db.query<{ n: string }>(
      'select count(*) as n from private.compliance_person_counts where organisation_id = $1', [orgA])).rows[0].n);
    expect(people).toBe(5); // the manager and four reports (STUDENT); not the administrator
    const summaryRows = (await queryAs<{ course_id: string; people: string }>(db, adminA,
      'select * from private.compliance_summary(p_organisation_id => $1)', [orgA])).rows;
    expect(Number(summaryRows.find((r) => r.course_id === required)?.people)).toBe(5);
    expect(await refreshedAt()).toEqual(at);
  });

  it('follows a completion', async () => {
    await page();
    await certify(reports[0].id, required, 'null');
    expect((await expectFollows())[reports[0].id]).toMatchObject({ done: 1, in_progress: 0 });
  });

  it('follows a certificate expiring, with no write at all', async () => {
    await certify(reports[2].id, required, `now() + interval '2 seconds'`);
    expect((await expectFollows())[reports[2].id]).toMatchObject({ due_soon: 1 });
    const [{ expires }] = (await db.query<{ expires: Date }>(
      'select expires_at as expires from public.certificates where user_id = $1', [reports[2].id])).rows;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, new Date(expires).getTime() - Date.now()) + 500));
    expect((await expectFollows())[reports[2].id]).toMatchObject({ overdue: 1, due_soon: 0 });
  });

  it('follows a rule added (of a unit), and a report moving unit', async () => {
    await page();
    const [{ id }] = (await db.query<{ id: string }>(
      'insert into public.required_training (course_id, unit_id, organisation_id) values ($1, $2, $3) returning id', [second, stationA, orgA])).rows;
    try {
      const added = await expectFollows();
      expect(courses(added[reports[0].id])).toBe(2);
      expect(courses(added[reports[1].id])).toBe(1); // Quay Station: not this rule
      await db.query('update public.profiles set unit_id = $2 where id = $1', [reports[1].id, stationA]);
      const moved = await expectFollows();
      expect(courses(moved[reports[1].id])).toBe(2);
    } finally {
      await db.query('update public.profiles set unit_id = $2 where id = $1', [reports[1].id, station2A]);
      await db.query('delete from public.required_training where id = $1', [id]);
    }
    expect(courses((await expectFollows())[reports[1].id])).toBe(1);
  });

  it('follows a report moving organisation (they leave the team) and a person deactivated', async () => {
    const before = await expectFollows();
    await db.query('update public.profiles set organisation_id = $2 where id = $1', [reports[3].id, orgB]);
    try {
      const moved = await expectFollows();
      expect(moved[reports[3].id]).toBeUndefined();
      expect((await summary()).people).toBe(Object.keys(before).length - 1);
    } finally {
      await db.query('update public.profiles set organisation_id = $2, manager_id = $3 where id = $1', [reports[3].id, orgA, manager.id]);
    }
    expect(await expectFollows()).toEqual(before);

    await db.query('update public.profiles set deactivated_at = now() where id = $1', [reports[2].id]);
    try {
      expect((await expectFollows())[reports[2].id]).toBeUndefined();
    } finally {
      await db.query('update public.profiles set deactivated_at = null where id = $1', [reports[2].id]);
    }
    expect(await expectFollows()).toEqual(before);
  });

  it('in a transaction of one snapshot (repeatable read), works the rule out for the answer and keeps nothing', async () => {
    await db.query('delete from private.compliance_summary_scopes where organisation_id = $1', [orgA]);
    const rows = await db.transaction(async (tx) => {
      await tx.query('set transaction isolation level repeatable read');
      await tx.query('set local role authenticated');
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claimsFor(manager))]);
      return (await tx.query<Record<string, unknown>>('select * from private.team_members(null, null, null, 100, 0)')).rows;
    });
    const expected = await live();
    expect(Object.fromEntries(rows.map((r) => [r.user_id as string, {
      overdue: Number(r.overdue), due_soon: Number(r.due_soon), in_progress: Number(r.in_progress), done: Number(r.done),
    }]))).toEqual(expected);
    expect(await refreshedAt()).toBeUndefined();
    await expectFollows();
  });

  it('keeps the counts from everyone: not readable, the counting function not callable, no one sees everyone', async () => {
    await page();
    expect(await sqlState(() => queryAs(db, manager, 'select * from private.compliance_person_counts'))).toBe('42501');
    expect(await sqlState(() => queryAs(db, adminA, 'select * from private.compliance_person_counts'))).toBe('42501');
    expect(await sqlState(() => queryAs(db, manager, 'select * from private.team_status_counts($1)', [[learnerB.id]]))).toBe('42501');
    expect(await sqlState(() => queryAs(db, manager, 'insert into private.compliance_refreshes values (pg_current_xact_id())'))).toBe('42501');
    // The manager's own view of the rule is still theirs: their reports and themselves, not the organisation.
    const seen = (await queryAs<{ user_id: string }>(db, manager,
      'select distinct user_id from private.required_training_states(p_organisation_id => $1)', [orgA])).rows.map((r) => r.user_id);
    expect(seen.sort()).toEqual([manager.id, ...reports.map((r) => r.id)].sort());
    expect((await queryAs<{ r: boolean }>(db, manager, 'select private.compliance_refresh_running() as r')).rows[0].r).toBe(false);
  });
});
