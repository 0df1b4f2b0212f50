// Organisations, units and line managers, straight at the database as the database API
// would be used (role authenticated with the persona's claims): each rule allowed and refused.
// Two organisations: a police force (A) with a unit tree, an organisation administrator, a manager
// with a direct and an indirect report, a manager of another unit; an ambulance trust (B) with its
// own administrator, learner and instructor. The seed's admin is national; the seed's instructor
// and student belong to no organisation and behave as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends, createUser, ids, personas, queryAs, rolledBack, sqlState, type Persona, type TestDatabase,
} from './helpers/database';

const national = personas.admin;
const student = personas.learner; // no organisation

const person = (n: number, email: string): Persona => ({ id: `00000000-0000-4000-a000-00000000b${String(n).padStart(3, '0')}`, email });
const orgAdminA = person(1, 'org.admin.a@example.uk');
const managerA = person(2, 'manager.a@example.uk'); // manages leadA, and learnerA through leadA
const leadA = person(3, 'lead.a@example.uk');
const learnerA = person(4, 'learner.a@example.uk');
const otherManagerA = person(5, 'other.manager.a@example.uk'); // another unit, manages learnerA2
const learnerA2 = person(6, 'learner.a2@example.uk');
const instructorA = person(7, 'instructor.a@example.uk');
const orgAdminB = person(8, 'org.admin.b@example.uk');
const learnerB = person(9, 'learner.b@example.uk');
const instructorB = person(10, 'instructor.b@example.uk');

const orgA = 'a0000000-0000-4000-a000-000000000001';
const orgB = 'a0000000-0000-4000-a000-000000000002';
const areaA = 'a1000000-0000-4000-a000-000000000001';
const stationA = 'a1000000-0000-4000-a000-000000000002';
const watchA = 'a1000000-0000-4000-a000-000000000003';
const station2A = 'a1000000-0000-4000-a000-000000000004';
const areaB = 'a1000000-0000-4000-a000-000000000005';
const courseA = 'a2000000-0000-4000-a000-000000000001'; // published, of organisation A
const certificateA = 'a3000000-0000-4000-a000-000000000001';
const certificateB = 'a3000000-0000-4000-a000-000000000002';
const cpdA = 'a4000000-0000-4000-a000-000000000001';
const enrolmentA = 'a5000000-0000-4000-a000-000000000001';
const enrolmentB = 'a5000000-0000-4000-a000-000000000002';

describe.each(backends)('organisations, units and managers on $name', ({ create }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Testshire Police', 'TNP', 'UKPS'), ($2, 'Testshire Ambulance Trust', 'TSAT', 'UKAS')`, [orgA, orgB]);
    await db.query(`insert into public.units (id, organisation_id, parent_id, name) values
      ($1, $5, null, 'North Area'), ($2, $5, $1, 'Central Station'), ($3, $5, $2, 'Red Watch'),
      ($4, $5, $1, 'Harbour Station'), ($6, $7, null, 'East Division')`,
      [areaA, stationA, watchA, station2A, orgA, areaB, orgB]);
    const people: [Persona, string, string, string | null, string | null][] = [
      [orgAdminA, 'org_admin_a', 'ADMIN', orgA, null],
      [managerA, 'manager_a', 'STUDENT', orgA, stationA],
      [leadA, 'lead_a', 'STUDENT', orgA, watchA],
      [learnerA, 'learner_a', 'STUDENT', orgA, watchA],
      [otherManagerA, 'other_manager_a', 'STUDENT', orgA, station2A],
      [learnerA2, 'learner_a2', 'STUDENT', orgA, station2A],
      [instructorA, 'instructor_a', 'INSTRUCTOR', orgA, null],
      [orgAdminB, 'org_admin_b', 'ADMIN', orgB, null],
      [learnerB, 'learner_b', 'STUDENT', orgB, areaB],
      [instructorB, 'instructor_b', 'INSTRUCTOR', orgB, null],
    ];
    for (const [p, username, role, org, unit] of people) {
      await createUser(db, { id: p.id, email: p.email, username, name: username.replace(/_/g, ' '), role, services: ['UKPS'] });
      await db.query('update public.profiles set organisation_id = $2, unit_id = $3 where id = $1', [p.id, org, unit]);
    }
    await db.query('update public.profiles set manager_id = $2 where id = $1', [leadA.id, managerA.id]);
    await db.query('update public.profiles set manager_id = $2 where id = $1', [learnerA.id, leadA.id]);
    await db.query('update public.profiles set manager_id = $2 where id = $1', [learnerA2.id, otherManagerA.id]);
    await db.query(`insert into public.courses (id, title, description, service, author_id, status, organisation_id)
      values ($1, 'Northshire custody procedures', 'Custody procedures of Northshire Police only.', 'UKPS', $2, 'ACTIVE', $3)`,
      [courseA, instructorA.id, orgA]);
    await db.query(`insert into public.enrollments (id, user_id, course_id) values ($1, $2, $5), ($3, $4, $5)`,
      [enrolmentA, learnerA.id, enrolmentB, learnerB.id, ids.course(1)]);
    await db.query(`insert into public.user_module_progress (user_id, module_id, read_at, completed, completed_at)
      values ($1, $2, now(), true, now()), ($3, $2, now(), true, now())`, [learnerA.id, ids.module(1, 1), learnerB.id]);
    await db.query(`insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed)
      values ($1, $2, 3, 3, true), ($3, $2, 3, 3, true)`, [learnerA.id, ids.quiz(1, 2), learnerB.id]);
    await db.query(`insert into public.certificates (id, user_id, course_id, cycle, learner_name, course_title, verification_code)
      values ($1, $2, $5, 1, 'learner a', 'JESIP', 'ORGTESTA0001'), ($3, $4, $5, 1, 'learner b', 'JESIP', 'ORGTESTB0001')`,
      [certificateA, learnerA.id, certificateB, learnerB.id, ids.course(1)]);
    await db.query(`insert into public.cpd_entries (id, user_id, activity_date, activity, hours, learnt, reflection)
      values ($1, $2, current_date - 1, 'Custody reading', 1, 'Notes', 'A private reflection')`, [cpdA, learnerA.id]);
    await db.query(`insert into public.audit_events (action, target_type, target_id, target_label) values
      ('orgtest.about.a', 'user', $1, 'learner_a'), ('orgtest.about.b', 'user', $2, 'learner_b')`, [learnerA.id, learnerB.id]);
  });
  afterAll(async () => {
    await db?.close();
  });

  const state = (p: Persona | null, text: string, params: unknown[] = []) =>
    sqlState(() => rolledBack(db, p, (tx) => tx.query(text, params)));
  /** Rows returned, written or removed (PGlite counts no rows for a select). */
  const count = async (p: Persona | null, text: string, params: unknown[] = []) => {
    const result = await rolledBack(db, p, (tx) => tx.query(text, params));
    return Math.max(result.rows.length, result.rowCount ?? 0);
  };
  const one = async <T>(p: Persona | null, text: string, params: unknown[] = []) =>
    (await queryAs<Record<string, T>>(db, p, text, params)).rows[0];

  describe('the helpers', () => {
    it('tell national from organisation administrators', async () => {
      const ask = `select private.is_admin() as admin, private.is_national_admin() as national,
        private.is_org_admin() as org_admin, private.administered_organisation_id() as org,
        private.current_organisation_id() as mine`;
      expect(await one(national, ask)).toEqual({ admin: true, national: true, org_admin: false, org: null, mine: null });
      expect(await one(orgAdminA, ask)).toEqual({ admin: false, national: false, org_admin: true, org: orgA, mine: orgA });
      expect(await one(managerA, ask)).toEqual({ admin: false, national: false, org_admin: false, org: null, mine: orgA });
      expect(await one(student, ask)).toEqual({ admin: false, national: false, org_admin: false, org: null, mine: null });
    });

    it('manages follows the manager chain, and only down it', async () => {
      const ask = 'select private.manages($1) as m';
      expect((await one(managerA, ask, [leadA.id])).m).toBe(true);
      expect((await one(managerA, ask, [learnerA.id])).m).toBe(true); // through leadA
      expect((await one(leadA, ask, [learnerA.id])).m).toBe(true);
      expect((await one(leadA, ask, [managerA.id])).m).toBe(false);
      expect((await one(otherManagerA, ask, [learnerA.id])).m).toBe(false);
      expect((await one(managerA, ask, [learnerA2.id])).m).toBe(false);
      expect((await one(managerA, ask, [managerA.id])).m).toBe(false);
      const reports = await queryAs<{ id: string }>(db, managerA, 'select private.managed_person_ids() as id order by 1');
      expect(reports.rows.map((r) => r.id).sort()).toEqual([leadA.id, learnerA.id].sort());
    });

    it('unit_subtree gives the unit and every unit below it', async () => {
      const tree = await queryAs<{ id: string }>(db, orgAdminA, 'select private.unit_subtree($1) as id', [areaA]);
      expect(tree.rows.map((r) => r.id).sort()).toEqual([areaA, stationA, watchA, station2A].sort());
      const leaf = await queryAs<{ id: string }>(db, orgAdminA, 'select private.unit_subtree($1) as id', [watchA]);
      expect(leaf.rows.map((r) => r.id)).toEqual([watchA]);
    });

    it('the API roles cannot call what is not theirs', async () => {
      expect(await state(null, 'select private.managed_person_ids()')).toBe('42501');
      expect(await state(null, 'select private.administered_organisation_id()')).toBe('42501');
    });
  });

  describe('the data model', () => {
    it('a short code is unique whatever its case, and has a shape', async () => {
      expect(await sqlState(() => db.query(`insert into public.organisations (name, code, service) values ('Copy', 'tnp', 'UKPS')`))).toBe('23505');
      expect(await sqlState(() => db.query(`insert into public.organisations (name, code, service) values ('Bad', 'N S P', 'UKPS')`))).toBe('23514');
      expect(await sqlState(() => db.query(`insert into public.organisations (name, code, service) values ('Bad', 'XYZ', 'NOPE')`))).toBe('22P02');
    });

    it('a unit\'s parent is of its organisation, and the tree has no cycle', async () => {
      expect(await sqlState(() => db.query(`insert into public.units (organisation_id, parent_id, name) values ($1, $2, 'Stray')`, [orgB, areaA]))).toBe('23503');
      expect(await sqlState(() => db.query('update public.units set parent_id = $2 where id = $1', [areaA, watchA]))).toBe('23514');
      expect(await sqlState(() => db.query('update public.units set parent_id = id where id = $1', [areaA]))).toBe('23514');
      expect(await sqlState(() => db.query('update public.units set organisation_id = $2 where id = $1', [watchA, orgB]))).toBe('23514');
      expect(await sqlState(() => db.query(`insert into public.units (organisation_id, parent_id, name) values ($1, $2, 'red watch')`, [orgA, stationA]))).toBe('23505');
    });

    it('a person\'s unit is of their organisation; their manager too, never themselves nor one of their reports', async () => {
      expect(await sqlState(() => db.query('update public.profiles set unit_id = $2 where id = $1', [learnerA.id, areaB]))).toBe('23503');
      expect(await sqlState(() => db.query('update public.profiles set unit_id = $2 where id = $1', [ids.student, areaA]))).toBe('23514');
      expect(await sqlState(() => db.query('update public.profiles set manager_id = $2 where id = $1', [learnerA.id, learnerB.id]))).toBe('23514');
      expect(await sqlState(() => db.query('update public.profiles set manager_id = id where id = $1', [learnerA.id]))).toBe('23514');
      expect(await sqlState(() => db.query('update public.profiles set manager_id = $2 where id = $1', [managerA.id, learnerA.id]))).toBe('23514');
      expect(await sqlState(() => db.query('update public.profiles set manager_id = $2 where id = $1', [ids.student, managerA.id]))).toBe('23514');
    });

    it('a mover to another organisation leaves unit, manager and reports, and keeps their record', async () => {
      class Undo extends Error {}
      await db.transaction(async (tx) => {
        await tx.query('update public.profiles set organisation_id = $2 where id = $1', [leadA.id, orgB]);
        const moved = await tx.query<{ unit_id: string | null; manager_id: string | null }>(
          'select unit_id, manager_id from public.profiles where id = $1', [leadA.id]);
        expect(moved.rows[0]).toEqual({ unit_id: null, manager_id: null });
        const report = await tx.query<{ manager_id: string | null }>('select manager_id from public.profiles where id = $1', [learnerA.id]);
        expect(report.rows[0].manager_id).toBeNull();
        const kept = await tx.query('select 1 from public.enrollments where user_id = $1', [leadA.id]);
        expect(kept.rows.length).toBe(0); // leadA has none; the record is theirs whatever the organisation
        throw new Undo();
      }).catch((error) => {
        if (!(error instanceof Undo)) throw error;
      });
      expect((await db.query<{ organisation_id: string }>('select organisation_id from public.profiles where id = $1', [leadA.id])).rows[0].organisation_id).toBe(orgA);
    });
  });

  describe('an organisation administrator', () => {
    it('reads the people of their organisation only', async () => {
      const seen = await queryAs<{ id: string }>(db, orgAdminA, 'select id from public.profiles');
      const ids_ = seen.rows.map((r) => r.id);
      for (const p of [orgAdminA, managerA, leadA, learnerA, otherManagerA, learnerA2, instructorA]) expect(ids_).toContain(p.id);
      for (const p of [learnerB, orgAdminB, student, national]) expect(ids_).not.toContain(p.id);
    });

    it('reads their people\'s enrolments, progress, attempts, certificates, CPD and audit events, none of another organisation\'s', async () => {
      for (const table of ['enrollments', 'user_module_progress', 'quiz_attempts', 'certificates', 'cpd_entries']) {
        expect(await count(orgAdminA, `select 1 from public.${table} where user_id = $1`, [learnerA.id]), table).toBeGreaterThan(0);
        expect(await count(orgAdminA, `select 1 from public.${table} where user_id = $1`, [learnerB.id]), table).toBe(0);
        expect(await count(orgAdminA, `select 1 from public.${table} where user_id = $1`, [ids.student]), table).toBe(0);
      }
      expect(await count(orgAdminA, `select 1 from public.audit_events where action = 'orgtest.about.a'`)).toBe(1);
      expect(await count(orgAdminA, `select 1 from public.audit_events where action = 'orgtest.about.b'`)).toBe(0);
      expect(await count(orgAdminB, `select 1 from public.audit_events where action = 'orgtest.about.b'`)).toBe(1);
    });

    it('changes their people (unit, manager, role) but not another organisation\'s, nor anyone\'s organisation', async () => {
      expect(await count(orgAdminA, 'update public.profiles set unit_id = $2, manager_id = $3 where id = $1 returning id',
        [learnerA.id, station2A, otherManagerA.id])).toBe(1);
      expect(await count(orgAdminA, `update public.profiles set role = 'INSTRUCTOR' where id = $1 returning id`, [learnerA.id])).toBe(1);
      expect(await count(orgAdminA, `update public.profiles set name = 'x' where id = $1 returning id`, [learnerB.id])).toBe(0);
      expect(await count(orgAdminA, `update public.profiles set name = 'x' where id = $1 returning id`, [ids.student])).toBe(0);
      expect(await state(orgAdminA, 'update public.profiles set organisation_id = $2 where id = $1', [learnerA.id, orgB])).toBe('42501');
      expect(await state(orgAdminA, 'update public.profiles set organisation_id = null where id = $1', [learnerA.id])).toBe('42501');
      expect(await state(orgAdminA, 'update public.profiles set unit_id = $2 where id = $1', [learnerA.id, areaB])).toBe('23503');
      expect(await state(orgAdminA, 'update public.profiles set manager_id = $2 where id = $1', [learnerA.id, learnerB.id])).toBe('23514');
      // Nobody places themselves, nor (an organisation's administrator) changes their own role.
      expect(await state(orgAdminA, 'update public.profiles set unit_id = $2 where id = $1', [orgAdminA.id, areaA])).toBe('42501');
      expect(await state(orgAdminA, `update public.profiles set role = 'STUDENT' where id = $1`, [orgAdminA.id])).toBe('42501');
    });

    it('cannot use the national administrator\'s functions, and the people functions only for their people', async () => {
      expect(await state(orgAdminA, `select private.set_role_services('STUDENT', '{UKPS}')`)).toBe('42501');
      expect(await state(orgAdminA, 'select private.role_service_matrix()')).toBe('42501');
      expect(await state(orgAdminA, 'select private.admin_email()')).toBe('42501');
      // Deactivating or deleting another organisation's person finds no one (supabase/tests/org-admin-people.test.ts).
      expect((await one(orgAdminA, 'select private.set_user_active($1, false) as done', [learnerB.id])).done).toBe(false);
      expect((await one(orgAdminA, 'select private.delete_user($1) as done', [learnerB.id])).done).toBe(false);
    });

    it('changes and removes their people\'s enrolments, not another organisation\'s', async () => {
      expect(await count(orgAdminA, 'update public.enrollments set status = status where id = $1 returning id', [enrolmentA])).toBe(1);
      expect(await count(orgAdminA, 'delete from public.enrollments where id = $1 returning id', [enrolmentA])).toBe(1);
      expect(await count(orgAdminA, 'update public.enrollments set status = status where id = $1 returning id', [enrolmentB])).toBe(0);
      expect(await count(orgAdminA, 'delete from public.enrollments where id = $1 returning id', [enrolmentB])).toBe(0);
      expect(await count(orgAdminA, 'insert into public.enrollments (user_id, course_id) values ($1, $2) returning id', [learnerA2.id, ids.course(2)])).toBe(1);
      expect(await state(orgAdminA, 'insert into public.enrollments (user_id, course_id) values ($1, $2)', [learnerB.id, ids.course(2)])).toBe('42501');
    });

    it('manages the units of their organisation only, and reads no other organisation', async () => {
      expect(await count(orgAdminA, `insert into public.units (organisation_id, parent_id, name) values ($1, $2, 'Blue Watch') returning id`, [orgA, stationA])).toBe(1);
      expect(await state(orgAdminA, `insert into public.units (organisation_id, name) values ($1, 'Stray')`, [orgB])).toBe('42501');
      expect(await count(orgAdminA, `update public.units set name = 'Red Watch (Central)' where id = $1 returning id`, [watchA])).toBe(1);
      expect(await count(orgAdminA, 'update public.units set parent_id = $2 where id = $1 returning id', [watchA, station2A])).toBe(1);
      expect(await state(orgAdminA, 'update public.units set parent_id = $2 where id = $1', [stationA, watchA])).toBe('23514');
      expect(await count(orgAdminA, `update public.units set name = 'x' where id = $1 returning id`, [areaB])).toBe(0);
      expect(await count(orgAdminA, 'delete from public.units where id = $1 returning id', [areaB])).toBe(0);
      expect(await count(orgAdminA, 'select 1 from public.units where organisation_id = $1', [orgB])).toBe(0);
      expect(await count(orgAdminA, 'select 1 from public.organisations')).toBe(1);
      expect(await state(orgAdminA, `insert into public.organisations (name, code, service) values ('Mine', 'MINE', 'UKPS')`)).toBe('42501');
      expect(await count(orgAdminA, `update public.organisations set name = 'Renamed' where id = $1 returning id`, [orgA])).toBe(0);
    });
  });

  describe('a manager', () => {
    it('reads their reports\' (direct and indirect) profiles, enrolments, progress and certificates', async () => {
      for (const p of [leadA, learnerA]) expect(await count(managerA, 'select 1 from public.profiles where id = $1', [p.id])).toBe(1);
      for (const table of ['enrollments', 'user_module_progress', 'certificates']) {
        expect(await count(managerA, `select 1 from public.${table} where user_id = $1`, [learnerA.id]), table).toBeGreaterThan(0);
      }
    });

    it('never their CPD reflections, attempts or the audit trail, nor anyone outside their reports', async () => {
      expect(await count(managerA, 'select 1 from public.cpd_entries where user_id = $1', [learnerA.id])).toBe(0);
      expect(await count(managerA, 'select 1 from public.quiz_attempts where user_id = $1', [learnerA.id])).toBe(0);
      expect(await count(managerA, `select 1 from public.audit_events`)).toBe(0);
      for (const p of [learnerA2, otherManagerA, learnerB, ids.student]) {
        const id = typeof p === 'string' ? p : p.id;
        expect(await count(managerA, 'select 1 from public.profiles where id = $1', [id])).toBe(0);
        expect(await count(managerA, 'select 1 from public.enrollments where user_id = $1', [id])).toBe(0);
      }
      // The manager of another unit sees nothing of them.
      for (const table of ['profiles', 'enrollments', 'user_module_progress', 'certificates']) {
        const column = table === 'profiles' ? 'id' : 'user_id';
        expect(await count(otherManagerA, `select 1 from public.${table} where ${column} = $1`, [learnerA.id]), table).toBe(0);
      }
      expect(await count(otherManagerA, 'select 1 from public.enrollments where user_id = $1', [learnerA2.id])).toBe(0);
    });

    it('reads their reports\' required-training status, and writes nothing of theirs', async () => {
      await db.query(`insert into public.required_training (course_id, service, created_by) values ($1, 'UKPS', $2)`, [ids.course(1), ids.admin]);
      const status = (p: Persona) => count(p, 'select 1 from private.required_training_status(p_user_id => $1)', [learnerA.id]);
      expect(await status(managerA)).toBeGreaterThan(0);
      expect(await status(orgAdminA)).toBeGreaterThan(0);
      expect(await status(otherManagerA)).toBe(0);
      expect(await status(orgAdminB)).toBe(0);
      expect(await count(managerA, 'update public.enrollments set status = status where user_id = $1 returning id', [learnerA.id])).toBe(0);
      expect(await count(managerA, 'delete from public.enrollments where user_id = $1 returning id', [learnerA.id])).toBe(0);
      expect(await count(managerA, `update public.profiles set name = 'x' where id = $1 returning id`, [learnerA.id])).toBe(0);
      expect(await state(managerA, 'update public.profiles set manager_id = null where id = $1', [leadA.id])).toBeNull();
      expect(await count(managerA, 'update public.profiles set manager_id = null where id = $1 returning id', [leadA.id])).toBe(0);
    });
  });

  describe('people of no organisation and of another', () => {
    it('nobody places themselves: not a learner, not the national administrator', async () => {
      expect(await state(learnerA, 'update public.profiles set unit_id = $2 where id = $1', [learnerA.id, stationA])).toBe('42501');
      expect(await state(learnerA, 'update public.profiles set manager_id = null where id = $1', [learnerA.id])).toBe('42501');
      expect(await state(learnerA, 'update public.profiles set organisation_id = null where id = $1', [learnerA.id])).toBe('42501');
      expect(await state(student, 'update public.profiles set organisation_id = $2 where id = $1', [ids.student, orgA])).toBe('42501');
      // Refused whichever check speaks first: placing oneself (42501), or the last national administrator (P0409).
      expect(['42501', 'P0409']).toContain(await state(national, 'update public.profiles set organisation_id = $2 where id = $1', [ids.admin, orgA]));
      // The national administrator places anyone else.
      expect(await count(national, 'update public.profiles set organisation_id = $2, unit_id = $3 where id = $1 returning id',
        [ids.student, orgA, stationA])).toBe(1);
    });

    it('a learner of another organisation sees nothing of organisation A', async () => {
      for (const p of [learnerA, orgAdminA, managerA]) expect(await count(learnerB, 'select 1 from public.profiles where id = $1', [p.id])).toBe(0);
      expect(await count(learnerB, 'select 1 from public.units where organisation_id = $1', [orgA])).toBe(0);
      expect(await count(learnerB, 'select 1 from public.units where organisation_id = $1', [orgB])).toBe(1);
      expect(await count(learnerB, 'select 1 from public.organisations')).toBe(1);
      expect(await count(learnerB, 'select 1 from public.enrollments where user_id = $1', [learnerA.id])).toBe(0);
      expect(await count(learnerB, 'select 1 from public.certificates where user_id = $1', [learnerA.id])).toBe(0);
    });

    it('the national administrator sees every organisation, unit and person, as before', async () => {
      expect(await count(national, 'select 1 from public.organisations where id in ($1, $2)', [orgA, orgB])).toBe(2);
      expect(await count(national, 'select 1 from public.units where organisation_id in ($1, $2)', [orgA, orgB])).toBe(5);
      for (const p of [learnerA, learnerB, orgAdminA]) expect(await count(national, 'select 1 from public.profiles where id = $1', [p.id])).toBe(1);
      expect(await count(national, `insert into public.organisations (name, code, service) values ('Testshire Fire', 'TFRS', 'UKFRS') returning id`)).toBe(1);
      expect(await count(national, `insert into public.units (organisation_id, name) values ($1, 'West Division') returning id`, [orgB])).toBe(1);
    });

    it('certificate verification stays public', async () => {
      const verified = await queryAs<{ course_title: string }>(db, null, 'select * from private.verify_certificate($1)', ['ORGTESTA0001']);
      expect(verified.rows).toHaveLength(1);
    });
  });

  describe('an organisation\'s courses', () => {
    it('are seen only by its people and the national administrators', async () => {
      const sees = (p: Persona | null) => count(p, 'select 1 from public.courses where id = $1', [courseA]);
      for (const p of [learnerA, orgAdminA, instructorA, managerA, national]) expect(await sees(p)).toBe(1);
      for (const p of [learnerB, orgAdminB, instructorB, student, personas.instructor, null]) expect(await sees(p)).toBe(0);
      const viewable = (p: Persona | null) => one<boolean>(p, 'select private.can_view_course($1) as v', [courseA]);
      expect((await viewable(learnerA)).v).toBe(true);
      expect((await viewable(learnerB)).v).toBe(false);
      expect((await viewable(null)).v).toBe(false);
      const modules = (p: Persona) => count(p, 'select 1 from public.course_modules where course_id = $1', [courseA]);
      expect(await modules(learnerB)).toBe(0);
    });

    it('national courses are seen by every organisation\'s people, as before', async () => {
      for (const p of [learnerA, learnerB, orgAdminA, student, null]) {
        expect(await count(p, 'select 1 from public.courses where id = $1', [ids.course(1)])).toBe(1);
      }
    });

    it('the catalogue\'s counts and search follow the same rule', async () => {
      const total = async (p: Persona | null) => Number((await one<number>(p, 'select private.visible_course_count(null, null) as n')).n);
      const search = (p: Persona | null) => count(p, `select private.course_search_ids('%custody procedures%')`);
      expect(await total(learnerA)).toBe((await total(student)) + 1);
      expect(await total(learnerB)).toBe(await total(student));
      expect(await search(learnerA)).toBe(1);
      expect(await search(learnerB)).toBe(0);
      expect(await search(null)).toBe(0);
      const all = await db.query<{ n: number }>(`select count(*)::int as n from public.courses where status <> 'ARCHIVED'`);
      expect(await total(national)).toBe(all.rows[0].n);
    });

    it('are changed by its instructors (their own) and administrators, and the national administrators only', async () => {
      const rename = (p: Persona) => count(p, `update public.courses set title = 'Northshire custody' where id = $1 returning id`, [courseA]);
      expect(await rename(instructorA)).toBe(1);
      expect(await rename(orgAdminA)).toBe(1);
      expect(await rename(national)).toBe(1);
      for (const p of [instructorB, orgAdminB, personas.instructor, learnerA]) expect(await rename(p)).toBe(0);
      expect(await count(orgAdminB, 'delete from public.courses where id = $1 returning id', [courseA])).toBe(0);
      const create = (p: Persona, org: string | null) => state(p, `insert into public.courses (title, description, service, author_id, organisation_id)
        values ('An organisation course', 'A course for one organisation.', 'UKPS', auth.uid(), $1)`, [org]);
      expect(await create(instructorA, orgA)).toBeNull();
      expect(await create(instructorA, orgB)).toBe('42501');
      expect(await create(orgAdminA, orgA)).toBeNull();
      expect(await create(orgAdminA, orgB)).toBe('42501');
      expect(await create(personas.instructor, orgA)).toBe('42501');
      expect(await create(personas.instructor, null)).toBeNull();
      // Nor may an instructor hand a course of theirs to another organisation.
      expect(await state(instructorA, 'update public.courses set organisation_id = $2 where id = $1', [courseA, orgB])).toBe('42501');
    });
  });

  describe('a person\'s own placement (private.my_placement)', () => {
    it('names their organisation, unit and manager, and says whether anyone reports to them', async () => {
      type Place = { organisation_name: string | null; unit_name: string | null; manager_name: string | null; has_reports: boolean };
      const place = async (p: Persona) => (await queryAs<Place>(db, p, 'select * from private.my_placement()')).rows;
      const [learner] = await place(learnerA);
      expect(learner).toMatchObject({ organisation_name: 'Testshire Police', unit_name: 'Red Watch', manager_name: 'lead a', has_reports: false });
      expect((await place(leadA))[0]).toMatchObject({ manager_name: 'manager a', has_reports: true });
      expect((await place(managerA))[0]).toMatchObject({ unit_name: 'Central Station', manager_name: null, has_reports: true });
      // A person of no organisation: nulls and no reports; a visitor may not ask.
      expect((await place(student))[0]).toMatchObject({ organisation_name: null, unit_name: null, manager_name: null, has_reports: false });
      expect((await queryAs(db, null, 'select * from private.my_placement()').catch((e: { code?: string }) => e.code))).toBe('42501');
    });
  });
});
