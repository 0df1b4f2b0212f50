// One organisation keeps to its own people: what an attack on a private instance did
// straight through the database API, performed again for every persona, refused where it was the
// hole and allowed beside it where it is a right. An organisation's administrator gives only roles
// inside the organisation and only its service; a course or a required-training rule made by a
// person of an organisation is of that organisation (national ones are made by national people);
// an organisation's course reaches its people only (enrolments, rules, students lists, compliance,
// notices); private.unit_subtree and private.course_summaries answer only for what the caller may see.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends, createUser, ids, personas, queryAs, rolledBack, sqlState, type Persona, type TestDatabase,
} from './helpers/database';

const orgA = '81000000-0000-4000-a000-0000000000a1'; // a police force (UKPS)
const orgB = '81000000-0000-4000-a000-0000000000a2'; // an ambulance trust (UKAS)
const unitA = '81000000-0000-4000-a000-0000000000b1';
const unitA2 = '81000000-0000-4000-a000-0000000000b2';
const unitB = '81000000-0000-4000-a000-0000000000b3';
const person = (n: number, email: string): Persona => ({ id: `81000000-0000-4000-a000-0000000000${String(n).padStart(2, '0')}`, email });
const orgAdminA = person(11, 'reach.orgadmin.a@example.uk');
const instructorA = person(12, 'reach.instructor.a@example.uk');
const learnerA = person(13, 'reach.learner.a@example.uk');
const ambulanceA = person(14, 'reach.ambulance.a@example.uk'); // of A, given UKAS by a national admin
const orgAdminB = person(21, 'reach.orgadmin.b@example.uk');
const learnerB = person(22, 'reach.learner.b@example.uk'); // UKPS and UKAS, of B
const nationalLearner = person(31, 'reach.national@example.uk'); // UKPS and UKAS, of no organisation
const { admin, instructor } = personas; // national (the instructor: UKPS)
const courseA = '81000000-0000-4000-a000-0000000000c1'; // A's course, by A's instructor
const courseB = '81000000-0000-4000-a000-0000000000c2'; // B's course

const PERSONAS: [string, Persona | null][] = [
  ['visitor', null], ['national admin', admin], ['national instructor', instructor], ['national learner', nationalLearner],
  ["A's admin", orgAdminA], ["A's instructor", instructorA], ["A's learner", learnerA], ["B's admin", orgAdminB], ["B's learner", learnerB],
];

describe.each(backends)('an organisation keeps to its own people on $name', ({ create }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Reach Police', 'RCHP', 'UKPS'), ($2, 'Reach Ambulance', 'RCHA', 'UKAS')`, [orgA, orgB]);
    await db.query(`insert into public.units (id, organisation_id, parent_id, name) values
      ($1, $4, null, 'Reach Area'), ($2, $4, $1, 'Reach Station'), ($3, $5, null, 'Reach Division')`, [unitA, unitA2, unitB, orgA, orgB]);
    const add = async (p: Persona, username: string, role: string, services: string[], org: string | null, unit: string | null) => {
      await createUser(db, { id: p.id, email: p.email, username, name: username.replace(/_/g, ' '), role, services });
      if (org) await db.query('update public.profiles set organisation_id = $2, unit_id = $3 where id = $1', [p.id, org, unit]);
    };
    await add(orgAdminA, 'reach_orgadmin_a', 'ADMIN', ['UKPS'], orgA, null);
    await add(instructorA, 'reach_instructor_a', 'INSTRUCTOR', ['UKPS'], orgA, unitA);
    await add(learnerA, 'reach_learner_a', 'STUDENT', ['UKPS'], orgA, unitA2);
    await add(ambulanceA, 'reach_ambulance_a', 'STUDENT', ['UKAS'], orgA, unitA2);
    await add(orgAdminB, 'reach_orgadmin_b', 'ADMIN', ['UKAS'], orgB, null);
    await add(learnerB, 'reach_learner_b', 'STUDENT', ['UKPS', 'UKAS'], orgB, unitB);
    await add(nationalLearner, 'reach_national', 'STUDENT', ['UKPS', 'UKAS'], null, null);
    await db.query(`insert into public.courses (id, title, description, service, status, author_id, organisation_id) values
      ($1, 'Reach course of A', 'A course of organisation A for its people.', 'UKPS', 'ACTIVE', $2, $3),
      ($4, 'Reach course of B', 'A course of organisation B for its people.', 'UKAS', 'ACTIVE', null, $5)`,
    [courseA, instructorA.id, orgA, courseB, orgB]);
  });
  afterAll(async () => {
    await db?.close();
  });

  const state = (persona: Persona | null, text: string, params: unknown[] = []) =>
    sqlState(() => rolledBack(db, persona, (tx) => tx.query(text, params)));
  /** The rows the statement returns as the persona, rolled back. */
  const rows = async <T = Record<string, unknown>>(persona: Persona | null, text: string, params: unknown[] = []) =>
    (await rolledBack(db, persona, (tx) => tx.query<T>(text, params))).rows;

  describe("an organisation's administrator gives only roles inside it and only its service", () => {
    const setPerson = (by: Persona, target: Persona, role: string, services: string) =>
      state(by, `update public.profiles set role = $2::public.user_role, services = $3::public.service_code[] where id = $1 returning id`,
        [target.id, role, services]);

    it("refuses the attack: A's administrator making their person an instructor of another service", async () => {
      expect(await setPerson(orgAdminA, learnerA, 'INSTRUCTOR', '{UKAS}')).toBe('42501');
      expect(await setPerson(orgAdminA, learnerA, 'STUDENT', '{UKPS,UKFRS}')).toBe('42501');
      // Only a changed services list is checked: A's person a national admin gave UKAS keeps it.
      expect(await state(orgAdminA, `update public.profiles set role = 'INSTRUCTOR' where id = $1`, [ambulanceA.id])).toBeNull();
    });

    it("lets A's administrator give roles below national administrator with the organisation's service", async () => {
      for (const role of ['STUDENT', 'INSTRUCTOR', 'ADMIN']) {
        expect(await setPerson(orgAdminA, learnerA, role, '{UKPS}'), role).toBeNull();
      }
      expect(await setPerson(orgAdminA, learnerA, 'STUDENT', '{}')).toBeNull();
      // Whatever role they give, the person stays in A: the organisation never changes.
      expect(await state(orgAdminA, 'update public.profiles set organisation_id = null where id = $1', [learnerA.id])).toBe('42501');
    });

    it('refuses an organisation administrator their own role and services, by SQL as through the API', async () => {
      expect(await state(orgAdminA, `update public.profiles set services = '{UKPS,UKAS}' where id = $1`, [orgAdminA.id])).toBe('42501');
      expect(await state(orgAdminA, `update public.profiles set services = '{}' where id = $1`, [orgAdminA.id])).toBe('42501');
      expect(await state(orgAdminA, `update public.profiles set role = 'STUDENT' where id = $1`, [orgAdminA.id])).toBe('42501');
      expect(await state(orgAdminA, `update public.profiles set name = 'Reach Admin A' where id = $1`, [orgAdminA.id])).toBeNull();
    });

    it("reaches nobody of another organisation; a national admin gives any role and service", async () => {
      expect(await rows(orgAdminA, `update public.profiles set services = '{UKAS}' where id = $1 returning id`, [learnerB.id])).toEqual([]);
      expect(await rows(orgAdminB, `update public.profiles set services = '{UKAS}' where id = $1 returning id`, [learnerA.id])).toEqual([]);
      expect(await setPerson(admin, learnerA, 'INSTRUCTOR', '{UKAS,UKFRS}')).toBeNull();
      for (const persona of [instructorA, learnerA, learnerB, nationalLearner, instructor]) {
        expect(await state(persona, `update public.profiles set services = '{UKAS}' where id = $1`, [persona.id]), persona.email).toBe('42501');
      }
    });

    it("imports people with the organisation's service only", async () => {
      const row = (line: number, services: string[]) => ({
        line, username: `reach_import_${line}`, email: `reach.import.${line}@example.uk`, name: `Reach Import ${line}`,
        role: 'STUDENT', services, password: 'a-generated-password-1234',
      });
      const outcome = await rows<{ line: number; field: string | null }>(orgAdminA, 'select line, field from private.import_users($1::uuid, 1, $2::text::jsonb)',
        [randomUUID(), JSON.stringify([row(1, ['UKPS']), row(2, ['UKAS']), row(3, [])])]);
      expect(outcome.map((o) => [o.line, o.field])).toEqual([[1, null], [2, 'services'], [3, null]]);
      const national = await rows<{ field: string | null }>(admin, 'select field from private.import_users($1::uuid, 1, $2::text::jsonb)',
        [randomUUID(), JSON.stringify([{ ...row(4, ['UKAS']), organisation_id: orgA }])]);
      expect(national.map((o) => o.field)).toEqual([null]);
    });
  });

  describe('a course made by a person of an organisation is of that organisation', () => {
    const insertCourse = (persona: Persona, organisation: string | null, author: string = persona.id) =>
      rows<{ organisation_id: string | null }>(persona, `insert into public.courses (title, description, service, author_id, organisation_id)
        values ('Reach attack course', 'A course an attacker would make national.', 'UKPS', $1, $2) returning organisation_id`, [author, organisation]);
    const insertState = (persona: Persona, organisation: string | null, author: string = persona.id) =>
      sqlState(() => insertCourse(persona, organisation, author));

    it("makes A's instructor's course without an organisation A's, and refuses any other", async () => {
      expect(await insertCourse(instructorA, null)).toEqual([{ organisation_id: orgA }]);
      expect(await insertCourse(instructorA, orgA)).toEqual([{ organisation_id: orgA }]);
      expect(await insertState(instructorA, orgB)).toBe('42501');
      // Nor may their course be made national afterwards.
      expect(await state(instructorA, 'update public.courses set organisation_id = null where id = $1', [courseA])).toBe('42501');
    });

    it("makes A's administrator's course A's, authored by A's people only", async () => {
      expect(await insertCourse(orgAdminA, null)).toEqual([{ organisation_id: orgA }]);
      expect(await insertCourse(orgAdminA, orgA, instructorA.id)).toEqual([{ organisation_id: orgA }]);
      expect(await insertState(orgAdminA, orgA, learnerB.id)).toBe('42501');
      expect(await insertState(orgAdminA, orgA, ids.instructor)).toBe('42501');
      expect(await insertState(orgAdminA, orgB)).toBe('42501');
      expect(await state(orgAdminA, 'update public.courses set author_id = $2 where id = $1', [courseA, learnerB.id])).toBe('42501');
      expect(await state(orgAdminA, 'update public.courses set author_id = $2 where id = $1', [courseA, orgAdminA.id])).toBeNull();
    });

    it('keeps national courses to national people', async () => {
      expect(await insertCourse(instructor, null)).toEqual([{ organisation_id: null }]);
      expect(await insertState(instructor, orgA)).toBe('42501');
      expect(await insertCourse(admin, null)).toEqual([{ organisation_id: null }]);
      // A national admin places a course in an organisation with an author of it, never another's.
      expect(await insertCourse(admin, orgA, instructorA.id)).toEqual([{ organisation_id: orgA }]);
      expect(await insertState(admin, orgA, ids.instructor)).toBe('42501');
      expect(await insertState(admin, null, instructorA.id)).toBe('42501');
      for (const persona of [learnerA, learnerB, nationalLearner]) expect(await insertState(persona, null), persona.email).toBe('42501');
    });
  });

  describe('a required-training rule made by a person of an organisation is of it', () => {
    const rule = (persona: Persona, course: string, service: string | null, organisation: string | null) =>
      state(persona, `insert into public.required_training (course_id, service, organisation_id) values ($1, $2::public.service_code, $3)`,
        [course, service, organisation]);
    const manages = async (persona: Persona, course: string, service: string, organisation: string | null) =>
      (await rows<{ ok: boolean }>(persona, 'select private.manages_required_training($1, $2::public.service_code, $3) as ok',
        [course, service, organisation]))[0].ok;

    it("refuses A's instructor a national rule, or one of another organisation, for their own service", async () => {
      // A national course that A's instructor authored before (the hole let them make it).
      await db.query(`update public.courses set author_id = $2 where id = $1`, [ids.course(2), instructorA.id]);
      try {
        expect(await rule(instructorA, ids.course(2), 'UKPS', null)).toBe('42501');
        expect(await rule(instructorA, ids.course(2), 'UKPS', orgB)).toBe('42501');
        expect(await manages(instructorA, ids.course(2), 'UKPS', null)).toBe(false);
        expect(await rule(instructorA, ids.course(2), 'UKPS', orgA)).toBeNull();
        expect(await rule(instructorA, courseA, 'UKPS', orgA)).toBeNull();
        expect(await manages(instructorA, courseA, 'UKPS', orgA)).toBe(true);
        // A's own course: required only in A (the course's own rule answers first).
        expect(await rule(instructorA, courseA, 'UKPS', null)).toBe('22023');
      } finally {
        await db.query(`update public.courses set author_id = $2 where id = $1`, [ids.course(2), ids.instructor]);
      }
    });

    it("refuses A's administrator a national rule or B's; national people make national rules", async () => {
      expect(await rule(orgAdminA, ids.course(2), 'UKPS', null)).toBe('42501');
      expect(await rule(orgAdminA, ids.course(2), 'UKPS', orgB)).toBe('42501');
      expect(await rule(orgAdminA, ids.course(2), 'UKPS', orgA)).toBeNull();
      expect(await rule(instructor, ids.course(2), 'UKPS', null)).toBeNull();
      expect(await rule(instructor, ids.course(2), 'UKPS', orgA)).toBe('42501');
      expect(await manages(instructor, ids.course(2), 'UKPS', orgA)).toBe(false);
      expect(await rule(admin, ids.course(2), 'UKPS', null)).toBeNull();
      expect(await rule(admin, ids.course(2), 'UKPS', orgA)).toBeNull();
      for (const persona of [learnerA, learnerB, nationalLearner, orgAdminB]) {
        expect(await rule(persona, ids.course(2), 'UKPS', null), persona.email).toBe('42501');
      }
    });

    it("refuses turning A's rule of a national course into a national one", async () => {
      await db.query(`update public.courses set author_id = $2 where id = $1`, [ids.course(2), instructorA.id]);
      const [{ id }] = (await queryAs<{ id: string }>(db, instructorA,
        `insert into public.required_training (course_id, service, organisation_id) values ($1, 'UKPS', $2) returning id`, [ids.course(2), orgA])).rows;
      try {
        expect(await state(instructorA, 'update public.required_training set organisation_id = null where id = $1', [id])).toBe('42501');
        expect(await state(orgAdminA, 'update public.required_training set organisation_id = null where id = $1', [id])).toBe('42501');
        expect(await state(instructorA, 'update public.required_training set due_within_days = 10 where id = $1', [id])).toBeNull();
      } finally {
        await db.query('delete from public.required_training where id = $1', [id]);
        await db.query(`update public.courses set author_id = $2 where id = $1`, [ids.course(2), ids.instructor]);
      }
    });
  });

  describe("an organisation's course reaches its people only", () => {
    let attackCourse = '';
    beforeAll(async () => {
      // The attack, as A's instructor straight through the database API: a course with no
      // organisation, published, then required of every UKPS person with no organisation. Where a
      // statement is refused, the instructor's rightful one (of their organisation) is made instead.
      const [course] = (await queryAs<{ id: string }>(db, instructorA, `insert into public.courses (title, description, service, author_id)
        values ('Reach attack course', 'A course required of every officer of every force.', 'UKPS', auth.uid()) returning id`)).rows;
      attackCourse = course.id;
      await db.query(`update public.courses set status = 'ACTIVE' where id = $1`, [attackCourse]);
      const national = await sqlState(() => queryAs(db, instructorA,
        `insert into public.required_training (course_id, service) values ($1, 'UKPS')`, [attackCourse]));
      if (national !== null) {
        await queryAs(db, instructorA, `insert into public.required_training (course_id, service, organisation_id) values ($1, 'UKPS', $2)`, [attackCourse, orgA]);
      }
    });

    it("the attack's course and rule are A's and enrol A's UKPS people only", async () => {
      const rule = await db.query('select c.organisation_id as course, r.organisation_id as rule from public.required_training r join public.courses c on c.id = r.course_id where r.course_id = $1', [attackCourse]);
      expect(rule.rows).toEqual([{ course: orgA, rule: orgA }]);
      const enrolled = await db.query<{ user_id: string }>('select user_id from public.enrollments where course_id = $1 order by user_id', [attackCourse]);
      expect(enrolled.rows.map((r) => r.user_id)).toEqual([orgAdminA.id, instructorA.id, learnerA.id].sort());
    });

    it("refuses an enrolment of anyone else on A's course, whoever writes it", async () => {
      for (const [by, who] of [[admin, learnerB], [admin, nationalLearner], [learnerB, learnerB], [nationalLearner, nationalLearner]] as const) {
        expect(await state(by, 'insert into public.enrollments (user_id, course_id) values ($1, $2)', [who.id, courseA]), `${by.email} ${who.email}`).toBe('42501');
      }
      expect(await sqlState(() => db.query('insert into public.enrollments (user_id, course_id) values ($1, $2)', [learnerB.id, courseA]))).toBe('42501');
      expect(await state(admin, 'insert into public.enrollments (user_id, course_id) values ($1, $2)', [ambulanceA.id, courseA])).toBeNull();
      expect(await state(ambulanceA, 'insert into public.enrollments (user_id, course_id) values ($1, $2)', [ambulanceA.id, courseA])).toBeNull();
      // Nor moved onto it.
      expect(await state(admin, 'update public.enrollments set user_id = $2 where course_id = $1 and user_id = $3', [courseA, learnerB.id, learnerA.id])).toBe('42501');
    });

    it('a new sign-up is not enrolled in a featured course of an organisation', async () => {
      await db.query('update public.courses set featured = true where id = $1', [courseA]);
      await db.query('update public.settings set auto_enrollment = true');
      try {
        const id = randomUUID();
        await createUser(db, { id, email: `reach.new.${id.slice(0, 8)}@example.uk` });
        const enrolled = await db.query('select course_id from public.enrollments where user_id = $1 and course_id = $2', [id, courseA]);
        expect(enrolled.rows).toEqual([]);
        const national = await db.query(`select 1 from public.enrollments e join public.courses c on c.id = e.course_id
          where e.user_id = $1 and c.featured and c.organisation_id is null`, [id]);
        expect(national.rows.length).toBeGreaterThan(0);
      } finally {
        await db.query('update public.settings set auto_enrollment = false');
        await db.query('update public.courses set featured = false where id = $1', [courseA]);
      }
    });

    it("A's instructor lists and reads only A's people, even on a national course of theirs", async () => {
      // A national course of theirs (made before the rule) with people of everywhere on it.
      await db.query('update public.courses set author_id = $2 where id = $1', [ids.course(3), instructorA.id]);
      await db.query(`insert into public.enrollments (user_id, course_id) values ($1, $4), ($2, $4), ($3, $4) on conflict do nothing`,
        [learnerB.id, nationalLearner.id, learnerA.id, ids.course(3)]);
      try {
        const students = await rows<{ user_id: string }>(instructorA, 'select user_id from private.instructor_students(null, null, 1000, 0)');
        const listed = new Set(students.map((s) => s.user_id));
        expect(listed.has(learnerA.id)).toBe(true);
        expect(listed.has(learnerB.id)).toBe(false);
        expect(listed.has(nationalLearner.id)).toBe(false);
        expect(listed.has(ids.student)).toBe(false);
        const profiles = await rows<{ id: string }>(instructorA, 'select id from public.profiles where id = any ($1::uuid[])',
          [[learnerA.id, learnerB.id, nationalLearner.id]]);
        expect(profiles.map((p) => p.id)).toEqual([learnerA.id]);
        // The national instructor still reads every learner of their courses.
        const national = await rows<{ user_id: string }>(instructor, 'select user_id from private.instructor_students(null, null, 1000, 0)');
        expect(national.some((s) => s.user_id === ids.student)).toBe(true);
      } finally {
        await db.query('delete from public.enrollments where course_id = $1 and user_id = any ($2::uuid[])', [ids.course(3), [learnerB.id, nationalLearner.id, learnerA.id]]);
        await db.query('update public.courses set author_id = $2 where id = $1', [ids.course(3), ids.instructor]);
      }
    });

    it("compliance for A's course counts A's people only, for every persona", async () => {
      for (const [name, persona] of PERSONAS) {
        if (!persona) continue;
        const statuses = await rows<{ user_id: string }>(persona, 'select user_id from private.required_training_status(null, null, null, $1)', [attackCourse]);
        const outside = statuses.filter((s) => ![orgAdminA.id, instructorA.id, learnerA.id].includes(s.user_id));
        expect(outside, name).toEqual([]);
      }
      const all = await rows<{ user_id: string }>(admin, 'select user_id from private.required_training_status(null, null, null, $1)', [attackCourse]);
      expect(all.map((r) => r.user_id).sort()).toEqual([orgAdminA.id, instructorA.id, learnerA.id].sort());
    });

    it("the notices of A's rule go to A's people only", async () => {
      await db.query('select private.decide_notifications(now())');
      const notices = await db.query<{ recipient_id: string }>(`select distinct recipient_id from public.notifications
        where title = 'Required training: Reach attack course' order by recipient_id`);
      expect(notices.rows.map((n) => n.recipient_id)).toEqual([orgAdminA.id, instructorA.id, learnerA.id].sort());
    });
  });

  describe('the helpers answer only for what the caller may see', () => {
    it('private.unit_subtree: own organisation\'s units; a national admin and the service role any', async () => {
      const subtree = async (persona: Persona, unit: string) =>
        (await rows<{ id: string }>(persona, 'select private.unit_subtree($1) as id', [unit])).map((r) => r.id).sort();
      for (const [name, persona] of PERSONAS) {
        if (!persona) continue;
        const inA = persona === admin || [orgAdminA, instructorA, learnerA].includes(persona);
        const inB = persona === admin || [orgAdminB, learnerB].includes(persona);
        expect(await subtree(persona, unitA), name).toEqual(inA ? [unitA, unitA2].sort() : []);
        expect(await subtree(persona, unitB), name).toEqual(inB ? [unitB] : []);
      }
      const service = await db.query<{ id: string }>('select private.unit_subtree($1) as id', [unitB]);
      expect(service.rows.map((r) => r.id)).toEqual([unitB]);
    });

    it("private.course_summaries: another organisation's course for nobody but its people and national admins", async () => {
      const summaries = async (persona: Persona | null) =>
        (await rows<{ course_id: string }>(persona, 'select course_id from private.course_summaries($1::uuid[])', [[courseA, courseB, ids.course(1)]]))
          .map((r) => r.course_id).sort();
      const expected: Record<string, string[]> = {
        visitor: [ids.course(1)],
        'national admin': [courseA, courseB, ids.course(1)],
        'national instructor': [ids.course(1)],
        'national learner': [ids.course(1)],
        "A's admin": [courseA, ids.course(1)],
        "A's instructor": [courseA, ids.course(1)],
        "A's learner": [courseA, ids.course(1)],
        "B's admin": [courseB, ids.course(1)],
        "B's learner": [courseB, ids.course(1)],
      };
      for (const [name, persona] of PERSONAS) expect(await summaries(persona), name).toEqual(expected[name].sort());
    });
  });

  describe('notification writes are limited per person', () => {
    it('60 writes in 10 minutes per person, whatever the address; another person is not held', async () => {
      const take = async (account: string, address: string) =>
        (await db.query<{ retry_after: number }>(`select retry_after from private.rate_limit_take('notifications', $1, $2)`, [account, address])).rows[0].retry_after;
      for (let i = 0; i < 60; i++) expect(await take(learnerA.id, `10.0.0.${i % 3}`)).toBe(0);
      const wait = await take(learnerA.id, '10.0.0.9');
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(600);
      expect(await take(learnerB.id, '10.0.0.1')).toBe(0);
      // The limit is the service role's: no API role may call it.
      expect(await state(learnerA, `select private.rate_limit_take('notifications', $1, '')`, [learnerA.id])).toBe('42501');
    });
  });
});
