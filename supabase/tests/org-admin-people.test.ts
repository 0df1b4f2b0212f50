// An organisation's administrator administers their own organisation's people, straight
// at the database as the database API would be used: the security-definer functions behind /api/users
// and the import (deactivate, delete, new password, learning record, import, clash check) answer for
// their people and refuse or ignore everyone else (another organisation's, or of none); a national
// administrator keeps administering everyone; a person who is no administrator is refused. The rule
// they all keep, private.people_i_administer (and private.administers for one person), is proven
// here both ways for each kind of caller.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, personas, queryAs, rolledBack, sqlState, type Persona, type TestDatabase } from './helpers/database';

const national = personas.admin;
const nobody = personas.learner; // of no organisation

const person = (n: number, email: string): Persona => ({ id: `00000000-0000-4000-a000-00000000c${String(n).padStart(3, '0')}`, email });
const orgAdminA = person(1, 'oap.admin.a@example.uk');
const managerA = person(2, 'oap.manager.a@example.uk');
const learnerA = person(3, 'oap.learner.a@example.uk');
const orgAdminB = person(4, 'oap.admin.b@example.uk');
const learnerB = person(5, 'oap.learner.b@example.uk');

const orgA = 'c0000000-0000-4000-a000-000000000001';
const orgB = 'c0000000-0000-4000-a000-000000000002';
const unitA = 'c1000000-0000-4000-a000-000000000001';
const unitB = 'c1000000-0000-4000-a000-000000000002';

const password = () => randomBytes(15).toString('base64url');

describe.each(backends)('an organisation administrator and their people on $name', ({ create }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Peopleshire Police', 'PSP', 'UKPS'), ($2, 'Peopleshire Ambulance', 'PSA', 'UKAS')`, [orgA, orgB]);
    await db.query(`insert into public.units (id, organisation_id, parent_id, name) values
      ($1, $2, null, 'North Area'), ($3, $4, null, 'East Division')`, [unitA, orgA, unitB, orgB]);
    const people: [Persona, string, string, string | null][] = [
      [orgAdminA, 'oap_admin_a', 'ADMIN', orgA],
      [managerA, 'oap_manager_a', 'STUDENT', orgA],
      [learnerA, 'oap_learner_a', 'STUDENT', orgA],
      [orgAdminB, 'oap_admin_b', 'ADMIN', orgB],
      [learnerB, 'oap_learner_b', 'STUDENT', orgB],
    ];
    for (const [p, username, role, org] of people) {
      await createUser(db, { id: p.id, email: p.email, username, name: username.replace(/_/g, ' '), role, services: ['UKPS'] });
      await db.query('update public.profiles set organisation_id = $2 where id = $1', [p.id, org]);
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  const value = async (p: Persona | null, text: string, params: unknown[] = []) =>
    (await rolledBack(db, p, (tx) => tx.query<{ v: unknown }>(text, params))).rows[0]?.v;
  const state = (p: Persona | null, text: string, params: unknown[] = []) =>
    sqlState(() => rolledBack(db, p, (tx) => tx.query(text, params)));

  describe('the one rule: private.people_i_administer and private.administers', () => {
    const people = async (p: Persona) =>
      (await rolledBack(db, p, (tx) => tx.query<{ id: string }>('select a as id from private.people_i_administer() a order by 1'))).rows.map((r) => r.id);
    const administers = (p: Persona, whom: Persona) => value(p, 'select private.administers($1) as v', [whom.id]);
    const everyone = async () => (await db.query<{ id: string }>('select id from public.profiles order by 1')).rows.map((r) => r.id);

    it('a national administrator administers everyone: of any organisation, of none, themselves', async () => {
      expect(await people(national)).toEqual(await everyone());
      for (const whom of [learnerA, orgAdminA, learnerB, nobody, personas.instructor, national]) {
        expect(await administers(national, whom), whom.email).toBe(true);
      }
    });

    it("an organisation's administrator administers their organisation's people, and nobody else", async () => {
      expect(await people(orgAdminA)).toEqual([orgAdminA.id, managerA.id, learnerA.id].sort());
      for (const whom of [orgAdminA, managerA, learnerA]) expect(await administers(orgAdminA, whom), whom.email).toBe(true);
      for (const whom of [learnerB, orgAdminB, nobody, personas.instructor, national]) {
        expect(await administers(orgAdminA, whom), whom.email).toBe(false);
      }
      expect(await people(orgAdminB)).toEqual([orgAdminB.id, learnerB.id].sort());
      expect(await administers(orgAdminB, learnerA)).toBe(false);
    });

    it('an instructor, a learner and a manager administer nobody, not even themselves', async () => {
      for (const p of [personas.instructor, personas.learner, managerA]) {
        expect(await people(p), p.email).toEqual([]);
        for (const whom of [p, learnerA, learnerB, nobody]) expect(await administers(p, whom), `${p.email} ${whom.email}`).toBe(false);
      }
    });

    it('a visitor cannot ask', async () => {
      expect(await state(null, 'select count(*) from private.people_i_administer()')).toBe('42501');
      expect(await state(null, 'select private.administers($1)', [learnerA.id])).toBe('42501');
    });
  });

  it('deactivate and reactivate: their people only; nobody else is found', async () => {
    const ask = 'select private.set_user_active($1, false) as v';
    expect(await value(orgAdminA, ask, [learnerA.id])).toBe(true);
    expect(await value(orgAdminA, ask, [learnerB.id])).toBe(false);
    expect(await value(orgAdminA, ask, [nobody.id])).toBe(false);
    expect(await value(orgAdminA, ask, [national.id])).toBe(false);
    expect(await value(orgAdminB, ask, [learnerB.id])).toBe(true);
    expect(await value(national, ask, [learnerB.id])).toBe(true);
    expect(await state(managerA, ask, [learnerA.id])).toBe('42501');
    // Nothing was changed by the refusals above (every call rolled back, and those found nobody).
    const active = await db.query<{ n: number }>('select count(*)::int as n from public.profiles where deactivated_at is not null and id = any($1)',
      [[learnerA.id, learnerB.id]]);
    expect(active.rows[0].n).toBe(0);
  });

  it('reactivation enrols a person only in the required training whose rule reaches them (organisation and unit too)', async () => {
    // Another organisation's required course: a rule of organisation B reaches none of A's people.
    const course = randomUUID();
    await db.query(`insert into public.courses (id, title, description, service, status, organisation_id)
      values ($1, 'Peopleshire Ambulance driving', 'B''s own course.', 'UKAS', 'ACTIVE', $2)`, [course, orgB]);
    await db.query('insert into public.required_training (course_id, organisation_id) values ($1, $2)', [course, orgB]);
    try {
      const enrolled = await rolledBack(db, national, async (tx) => {
        for (const who of [learnerA, learnerB]) {
          await tx.query('select private.set_user_active($1, false)', [who.id]);
          await tx.query('delete from public.enrollments where user_id = $1 and course_id = $2', [who.id, course]);
          await tx.query('select private.set_user_active($1, true)', [who.id]);
        }
        return (await tx.query<{ id: string }>('select user_id as id from public.enrollments where course_id = $1 and user_id = any($2) order by 1',
          [course, [learnerA.id, learnerB.id]])).rows.map((r) => r.id);
      });
      expect(enrolled).toEqual([learnerB.id]);
    } finally {
      await db.query('delete from public.required_training where course_id = $1', [course]);
      await db.query('delete from public.enrollments where course_id = $1', [course]);
      await db.query('delete from public.courses where id = $1', [course]);
    }
  });

  it('delete: their people only', async () => {
    const ask = 'select private.delete_user($1) as v';
    expect(await value(orgAdminA, ask, [learnerA.id])).toBe(true);
    expect(await value(orgAdminA, ask, [learnerB.id])).toBe(false);
    expect(await value(orgAdminA, ask, [nobody.id])).toBe(false);
    expect(await value(national, ask, [learnerB.id])).toBe(true);
    expect(await state(managerA, ask, [learnerA.id])).toBe('42501');
    const left = await db.query<{ n: number }>('select count(*)::int as n from auth.users where id = any($1)', [[learnerB.id, nobody.id]]);
    expect(left.rows[0].n).toBe(2);
  });

  it('a new temporary password: their people only (another is unknown: P0002)', async () => {
    const ask = 'select private.reset_password_flag($1) as v';
    expect(await value(orgAdminA, ask, [learnerA.id])).toBe(true);
    expect(await state(orgAdminA, ask, [learnerB.id])).toBe('P0002');
    expect(await state(orgAdminA, ask, [nobody.id])).toBe('P0002');
    expect(await value(national, ask, [learnerB.id])).toBe(true);
    expect(await state(managerA, ask, [learnerA.id])).toBe('42501');
  });

  it('a learning record: their people only', async () => {
    const ask = 'select count(*)::int as v from private.learning_record($1)';
    expect(await value(orgAdminA, ask, [learnerA.id])).toBe(0);
    expect(await state(orgAdminA, ask, [learnerB.id])).toBe('42501');
    expect(await state(orgAdminA, ask, [nobody.id])).toBe('42501');
    expect(await state(managerA, ask, [learnerA.id])).toBe('42501');
    expect(await value(national, ask, [learnerB.id])).toBe(0);
  });

  it('the user search function answers national administrators only (organisation administrators list through RLS)', async () => {
    const ask = `select count(*)::int as v from private.user_search_page('%oap%', null, null, null, 20, 0, 1000) where id is not null`;
    expect(await value(national, ask)).toBe(5);
    expect(await value(orgAdminA, ask)).toBe(0);
  });

  describe('the import', () => {
    const row = (line: number, prefix: string, extra: Record<string, unknown> = {}) => ({
      line, username: `${prefix}_${line}`, email: `${prefix}.${line}@example.uk`, name: `Person ${line}`,
      role: 'STUDENT', services: ['UKPS'], password: password(), ...extra,
    });
    const importAs = (p: Persona | null, rows: unknown[]) => rolledBack(db, p, async (tx) => {
      const outcome = (await tx.query<{ line: number; user_id: string | null; field: string | null; problem: string | null }>(
        'select * from private.import_users($1::uuid, 1, $2::text::jsonb)', [randomUUID(), JSON.stringify(rows)])).rows;
      const placed = (await tx.query<{ username: string; organisation_id: string | null; unit_id: string | null; manager: string | null }>(
        `select p.username, p.organisation_id, p.unit_id, m.username as manager
         from public.profiles p left join public.profiles m on m.id = p.manager_id
         where p.username like 'imp%' order by p.username`)).rows;
      return { outcome, placed };
    });

    it('an organisation administrator imports into their organisation, with units and managers (existing or of the file)', async () => {
      const { outcome, placed } = await importAs(orgAdminA, [
        row(1, 'impa', { unit_id: unitA, manager: 'OAP_MANAGER_A' }),
        row(2, 'impa', { organisation_id: orgA, manager: 'impa.1@example.uk' }),
        row(3, 'impa', { manager: 'oap_learner_b' }), // of another organisation: not found
        row(4, 'impa', { manager: 'impa_3' }), // its manager's row is skipped: skipped too
      ]);
      expect(outcome.map((o) => [o.line, o.user_id !== null, o.field])).toEqual([
        [1, true, null], [2, true, null], [3, false, 'manager'], [4, false, 'manager'],
      ]);
      expect(placed).toEqual([
        { username: 'impa_1', organisation_id: orgA, unit_id: unitA, manager: 'oap_manager_a' },
        { username: 'impa_2', organisation_id: orgA, unit_id: null, manager: 'impa_1' },
      ]);
    });

    it('an organisation administrator cannot import into another organisation, nor a unit of one', async () => {
      expect(await sqlState(() => importAs(orgAdminA, [row(1, 'impb', { organisation_id: orgB })]))).toBe('42501');
      expect(await sqlState(() => importAs(orgAdminA, [row(1, 'impb', { unit_id: unitB })]))).toBe('22023');
      expect(await sqlState(() => importAs(managerA, [row(1, 'impb')]))).toBe('42501');
      expect(await state(managerA, `select * from private.user_import_clashes('{oap_admin_a}', '{}')`)).toBe('42501');
      expect(await value(orgAdminA, `select count(*)::int as v from private.user_import_clashes('{oap_admin_a}', '{}')`)).toBe(1);
    });

    it('a national administrator imports into any organisation, or none', async () => {
      const { outcome, placed } = await importAs(national, [
        row(1, 'impn', { organisation_id: orgB, unit_id: unitB, manager: 'oap_learner_b' }),
        row(2, 'impn'),
        row(3, 'impn', { organisation_id: orgA, manager: 'oap_learner_b' }), // the manager is of B
      ]);
      expect(outcome.map((o) => [o.line, o.user_id !== null, o.field])).toEqual([[1, true, null], [2, true, null], [3, false, 'manager']]);
      expect(placed).toEqual([
        { username: 'impn_1', organisation_id: orgB, unit_id: unitB, manager: 'oap_learner_b' },
        { username: 'impn_2', organisation_id: null, unit_id: null, manager: null },
      ]);
    });
  });

  it('the profile rules still hold straight through the database API: no move to another organisation, no national administrator', async () => {
    expect(await state(orgAdminA, 'update public.profiles set organisation_id = $2 where id = $1', [learnerA.id, orgB])).toBe('42501');
    expect(await state(orgAdminA, 'update public.profiles set organisation_id = null, role = \'ADMIN\' where id = $1', [learnerA.id])).toBe('42501');
    // Made ADMIN, the person stays in the organisation: its administrator, not a national one.
    const made = await rolledBack(db, orgAdminA, async (tx) => {
      await tx.query(`update public.profiles set role = 'ADMIN' where id = $1`, [learnerA.id]);
      return (await tx.query<{ organisation_id: string }>('select organisation_id from public.profiles where id = $1', [learnerA.id])).rows[0];
    });
    expect(made.organisation_id).toBe(orgA);
    // Another organisation's person is not theirs to change (no row matches).
    const changed = await rolledBack(db, orgAdminA, (tx) => tx.query(`update public.profiles set name = 'X' where id = $1`, [learnerB.id]));
    expect(changed.rowCount ?? 0).toBe(0);
    expect((await queryAs(db, orgAdminA, 'select id from public.profiles where id = $1', [learnerB.id])).rows).toHaveLength(0);
  });
});
