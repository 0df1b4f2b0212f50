// The kept compliance summary of an organisation (supabase/schemas/20_compliance_summary_counts.sql):
// after each kind of change (a completion, an expiry passing, a rule added and removed, a person
// moving organisation or deactivated) the summary its administrator reads is the one the status
// rule computes at that moment (private.required_training_states, counted here per service and
// course), and only those who see the whole organisation are served from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, claimsFor, createUser, ids, personas, queryAs, type Persona, type TestDatabase } from './helpers/database';

const orgA = 'c4000000-0000-4000-a000-000000000001';
const orgB = 'c4000000-0000-4000-a000-000000000002';
const person = (n: number, email: string): Persona => ({ id: `c5000000-0000-4000-a000-${String(n).padStart(12, '0')}`, email });
const adminA = person(1, 'kept.admin.a@example.uk');
const adminB = person(2, 'kept.admin.b@example.uk');
const learners = [3, 4, 5, 6].map((n) => person(n, `kept.learner.${n}@example.uk`));
const learnerB = person(7, 'kept.learner.b@example.uk');
const required = ids.course(8); // published, national
const second = ids.course(9); // published, national

type Row = { service: string | null; course_id: string; people: number; compliant: number; due_soon: number; overdue: number; in_progress: number };

const byKey = (a: Row, b: Row) => `${a.service}/${a.course_id}`.localeCompare(`${b.service}/${b.course_id}`);
const numbers = (rows: Record<string, unknown>[]): Row[] =>
  rows.map((r) => ({
    service: r.service as string | null,
    course_id: r.course_id as string,
    people: Number(r.people),
    compliant: Number(r.compliant),
    due_soon: Number(r.due_soon),
    overdue: Number(r.overdue),
    in_progress: Number(r.in_progress),
  })).sort(byKey);

describe.each(backends)('the kept compliance summary on $name', ({ create }) => {
  let db: TestDatabase;

  /** The summary as served (from the kept counts, for the organisation's administrator). */
  const kept = async (org: string, who: Persona = adminA) =>
    numbers((await queryAs(db, who, 'select * from private.compliance_summary(p_organisation_id => $1)', [org])).rows);
  /** The same counted from the status rule itself, row by row. */
  const computed = async (org: string | null) =>
    numbers((await queryAs(db, personas.admin, `
      select s.service, st.course_id, count(*) as people,
             count(*) filter (where st.status = 'done') as compliant,
             count(*) filter (where st.status = 'due-soon') as due_soon,
             count(*) filter (where st.status = 'overdue') as overdue,
             count(*) filter (where st.status = 'in-progress') as in_progress
      from private.required_training_states(p_organisation_id => $1) st
      cross join lateral unnest(case when cardinality(st.services) = 0 then array[null]::public.service_code[]
                                     else st.services end) s(service)
      group by s.service, st.course_id`, [org])).rows);
  const changesNoted = async (org: string) =>
    Number((await db.query<{ n: string }>('select count(*) as n from private.compliance_summary_changes where organisation_id = $1', [org])).rows[0].n);
  /** The national summary as served to a national administrator (every organisation's kept counts added up). */
  const national = async () => numbers((await queryAs(db, personas.admin, 'select * from private.compliance_summary()')).rows);
  const expectFollows = async (org: string) => {
    const expected = await computed(org);
    expect(await kept(org)).toEqual(expected);
    // the national administrator is served the same counts
    expect(await kept(org, personas.admin)).toEqual(expected);
    // and a national summary that adds up to the status rule's over everyone (people of no organisation too)
    expect(await national()).toEqual(await computed(null));
    return expected;
  };
  const row = (rows: Row[], course: string) => rows.find((r) => r.course_id === course && r.service === 'UKPS');
  const certify = (user: string, course: string, expires: string) =>
    db.query(`insert into public.certificates (user_id, course_id, learner_name, course_title, issued_at, expires_at)
              values ($1, $2, 'Someone', 'Required', now() - interval '400 days', ${expires})`, [user, course]);

  beforeAll(async () => {
    db = await create();
    await db.query('delete from public.required_training');
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Keptshire Police', 'KSP', 'UKPS'), ($2, 'Keptshire Fire', 'KSF', 'UKPS')`, [orgA, orgB]);
    const people: [Persona, string, string][] = [
      [adminA, 'ADMIN', orgA], [adminB, 'ADMIN', orgB], [learnerB, 'STUDENT', orgB],
      ...learners.map((l): [Persona, string, string] => [l, 'STUDENT', orgA]),
    ];
    for (const [p, role, org] of people) {
      const username = p.email.split('@')[0].replace(/\./g, '_');
      await createUser(db, { id: p.id, email: p.email, username, name: username.replace(/_/g, ' '), role, services: ['UKPS'] });
      await db.query('update public.profiles set organisation_id = $2 where id = $1', [p.id, org]);
    }
    await db.query(`insert into public.required_training (course_id, role, organisation_id) values ($1, 'STUDENT', $2), ($1, 'STUDENT', $3)`,
      [required, orgA, orgB]);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('is computed once and kept, and served again while nothing changes', async () => {
    const first = await expectFollows(orgA);
    expect(row(first, required)).toMatchObject({ people: 4, compliant: 0 });
    const [scope] = (await db.query<{ refreshed_at: Date }>('select refreshed_at from private.compliance_summary_scopes where organisation_id = $1', [orgA])).rows;
    expect(scope).toBeDefined();
    expect(await changesNoted(orgA)).toBe(0);
    // Read again: not computed again (the same refresh).
    await kept(orgA);
    const [again] = (await db.query<{ refreshed_at: Date }>('select refreshed_at from private.compliance_summary_scopes where organisation_id = $1', [orgA])).rows;
    expect(again.refreshed_at).toEqual(scope.refreshed_at);
  });

  it('follows a completion (a certificate issued), noting one change however many writes', async () => {
    await kept(orgA);
    await certify(learners[0].id, required, 'null');
    await certify(learners[1].id, required, `now() + interval '300 days'`);
    // two writes, one change waiting; none for B (no one of B's changed)
    expect(await changesNoted(orgA)).toBe(1);
    const after = await expectFollows(orgA);
    expect(row(after, required)).toMatchObject({ people: 4, compliant: 2 });
    expect(await changesNoted(orgA)).toBe(0);
  });

  it('follows a certificate revoked', async () => {
    await kept(orgA);
    await db.query(`update public.certificates set revoked_at = now(), revoked_reason = 'Issued in error'
                    where user_id = $1 and course_id = $2`, [learners[1].id, required]);
    const after = await expectFollows(orgA);
    expect(row(after, required)).toMatchObject({ compliant: 1 });
  });

  it('follows an expiry passing, with no write at all', async () => {
    await certify(learners[2].id, required, `now() + interval '2 seconds'`);
    const before = row(await expectFollows(orgA), required)!;
    expect(before).toMatchObject({ compliant: 1, overdue: 0 }); // the certificate renewable now: due soon
    const [{ until, expires }] = (await db.query<{ until: Date; expires: Date }>(`
      select s.valid_until as until, (select c.expires_at from public.certificates c where c.user_id = $2) as expires
      from private.compliance_summary_scopes s where s.organisation_id = $1`, [orgA, learners[2].id])).rows;
    expect(new Date(until).getTime()).toBeLessThanOrEqual(new Date(expires).getTime());
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, new Date(expires).getTime() - Date.now()) + 500));
    expect(await changesNoted(orgA)).toBe(0);
    const after = await expectFollows(orgA);
    expect(row(after, required)).toMatchObject({ compliant: 1, due_soon: before.due_soon - 1, overdue: 1 });
  });

  it('follows a rule added and removed, of the organisation and national', async () => {
    await kept(orgA);
    await kept(orgB, adminB);
    const [{ id }] = (await db.query<{ id: string }>(`insert into public.required_training (course_id, organisation_id) values ($1, $2) returning id`, [second, orgA])).rows;
    const added = await expectFollows(orgA);
    expect(row(added, second)).toMatchObject({ people: 5 }); // every one of A, administrator included
    await db.query('delete from public.required_training where id = $1', [id]);
    expect(row(await expectFollows(orgA), second)).toBeUndefined();

    // A national rule reaches every organisation's kept counts.
    const [national] = (await db.query<{ id: string }>(`insert into public.required_training (course_id, role) values ($1, 'ADMIN') returning id`, [second])).rows;
    expect(row(await expectFollows(orgA), second)).toMatchObject({ people: 1 });
    expect(await kept(orgB, adminB)).toEqual(await computed(orgB));
    expect(row(await kept(orgB, adminB), second)).toMatchObject({ people: 1 });
    await db.query('delete from public.required_training where id = $1', [national.id]);
    expect(row(await expectFollows(orgA), second)).toBeUndefined();
    expect(row(await kept(orgB, adminB), second)).toBeUndefined();
  });

  it('follows a person moving organisation, in both organisations, and a person deactivated', async () => {
    const beforeA = row(await expectFollows(orgA), required)!;
    const beforeB = row(await kept(orgB, adminB), required)!;
    await db.query('update public.profiles set organisation_id = $2 where id = $1', [learners[0].id, orgB]);
    try {
      expect(row(await expectFollows(orgA), required)!.people).toBe(beforeA.people - 1);
      expect(await kept(orgB, adminB)).toEqual(await computed(orgB));
      expect(row(await kept(orgB, adminB), required)!.people).toBe(beforeB.people + 1);
    } finally {
      await db.query('update public.profiles set organisation_id = $2 where id = $1', [learners[0].id, orgA]);
    }
    expect(row(await expectFollows(orgA), required)!.people).toBe(beforeA.people);

    await db.query('update public.profiles set deactivated_at = now() where id = $1', [learners[3].id]);
    try {
      expect(row(await expectFollows(orgA), required)!.people).toBe(beforeA.people - 1);
    } finally {
      await db.query('update public.profiles set deactivated_at = null where id = $1', [learners[3].id]);
    }
    expect(row(await expectFollows(orgA), required)!.people).toBe(beforeA.people);
  });

  it('in a transaction of one snapshot (repeatable read), is computed for the answer and not kept', async () => {
    await db.query('delete from private.compliance_summary_scopes where organisation_id = $1', [orgA]);
    const rows = await db.transaction(async (tx) => {
      await tx.query('set transaction isolation level repeatable read');
      await tx.query('set local role authenticated');
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claimsFor(adminA))]);
      return (await tx.query('select * from private.compliance_summary(p_organisation_id => $1)', [orgA])).rows;
    });
    expect(numbers(rows)).toEqual(await computed(orgA));
    expect((await db.query('select 1 from private.compliance_summary_scopes where organisation_id = $1', [orgA])).rows).toHaveLength(0);
    await expectFollows(orgA);
  });

  it('is served only to those who see the whole organisation; filters as computed', async () => {
    await kept(orgA);
    // B's administrator asking for A: nothing, as before the counts were kept.
    expect(await kept(orgA, adminB)).toEqual([]);
    // A learner is refused; the counts are not readable directly.
    expect((await queryAs(db, learners[0], 'select 1 from private.compliance_summary()').catch((e: { code: string }) => e.code))).toBe('42501');
    expect(await queryAs(db, adminA, 'select 1 from private.compliance_summary_counts').catch((e: { code: string }) => e.code)).toBe('42501');
    // Filtered by service and by course: the kept rows of that service or course.
    const byService = numbers((await queryAs(db, adminA, `select * from private.compliance_summary('UKPS', null, null, $1)`, [orgA])).rows);
    expect(byService).toEqual((await computed(orgA)).filter((r) => r.service === 'UKPS'));
    const byCourse = numbers((await queryAs(db, adminA, 'select * from private.compliance_summary(null, null, $2, $1)', [orgA, required])).rows);
    expect(byCourse).toEqual((await computed(orgA)).filter((r) => r.course_id === required));
  });
});
