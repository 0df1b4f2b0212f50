// Administration in SQL: leavers (private.set_user_active, supabase/schemas/01_profiles_and_settings.sql) and the audit trail's
// completeness (supabase/schemas/10_audit.sql). Both ways: what an admin may do, and what a learner, an
// instructor or a direct database API client may not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor,
  withCourseAccess,
  asUser,
  backends,
  createUser,
  ids,
  personas,
  queryAs,
  rolledBack,
  sqlState,
  type TestDatabase,
} from './helpers/database';

const { admin, instructor, learner } = personas;
const visitor = null;
const leaver = { id: '00000000-0000-4000-a000-0000000001e1', email: 'leaver.one@example.uk' };
const SESSION = '00000000-0000-4000-b000-0000000001e1';

interface AuditRow {
  id: string;
  action: string;
  actor_id: string | null;
  target_id: string | null;
  target_label: string | null;
  old_data: Record<string, unknown> | null;
  new_data: Record<string, unknown> | null;
}

describe.each(backends)('leavers and the audit trail on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
    await createUser(db, { id: leaver.id, email: leaver.email, username: 'leaver_one', name: 'Lee Leaver', services: ['UKAS'] });
  });
  afterAll(async () => {
    await db?.close();
  });

  const events = async (action: string, target: string | null = null) =>
    (await db.query<AuditRow>(
      'select * from public.audit_events where action = $1 and ($2::uuid is null or target_id = $2::uuid) order by id',
      [action, target],
    )).rows;
  const profile = async (id: string) =>
    (await db.query<{ deactivated_at: Date | null; banned_until: Date | null; sessions: number }>(
      `select p.deactivated_at, u.banned_until, (select count(*)::int from auth.sessions s where s.user_id = p.id) as sessions
       from public.profiles p join auth.users u on u.id = p.id where p.id = $1`, [id])).rows[0];
  const addSession = (id: string, session: string) =>
    db.query(`insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`, [session, id]);

  describe('deactivation (leavers)', () => {
    it('learners, instructors and visitors cannot deactivate, reactivate or write deactivated_at', async () => {
      for (const persona of [learner, instructor]) {
        expect(await sqlState(() => queryAs(db, persona, 'select private.set_user_active($1, false)', [leaver.id]))).toBe('42501');
        expect(await sqlState(() => queryAs(db, persona, 'select private.set_user_active($1, true)', [leaver.id]))).toBe('42501');
      }
      expect(await sqlState(() => queryAs(db, visitor, 'select private.set_user_active($1, false)', [leaver.id]))).toBe('42501');
      // Not even an admin writes the column directly: only the function (which also bans and signs out).
      for (const persona of [admin, learner]) {
        expect(await sqlState(() => queryAs(db, persona, 'update public.profiles set deactivated_at = now() where id = $1', [leaver.id])))
          .toBe('42501');
      }
      expect((await profile(leaver.id)).deactivated_at).toBeNull();
    });

    it('an admin cannot deactivate their own account', async () => {
      expect(await sqlState(() => queryAs(db, admin, 'select private.set_user_active($1, false)', [admin.id]))).toBe('P0403');
    });

    it('is recorded in the same transaction: rolled back, neither the change nor the event remains', async () => {
      await rolledBack(db, admin, (tx) => tx.query('select private.set_user_active($1, false)', [leaver.id]));
      expect((await profile(leaver.id)).deactivated_at).toBeNull();
      expect(await events('user.deactivated', leaver.id)).toHaveLength(0);
    });

    it('bans the Auth account, ends every session at once and records who did it', async () => {
      await addSession(leaver.id, SESSION);
      expect((await profile(leaver.id)).sessions).toBe(1);
      const r = await queryAs<{ done: boolean }>(db, admin, 'select private.set_user_active($1, false) as done', [leaver.id]);
      expect(r.rows[0].done).toBe(true);
      const now = await profile(leaver.id);
      expect(now.deactivated_at).not.toBeNull();
      expect(new Date(now.banned_until!).getTime()).toBeGreaterThan(Date.now() + 50 * 365 * 86_400_000);
      expect(now.sessions).toBe(0);
      const [event] = await events('user.deactivated', leaver.id);
      expect(event.actor_id).toBe(admin.id);
      expect(event.old_data).toMatchObject({ status: 'active' });
      expect(event.new_data).toMatchObject({ status: 'deactivated' });
      // The function's session check (lib/db.ts) finds no session: every direct call is refused.
      expect((await db.query('select 1 from auth.sessions where id = $1', [SESSION])).rows).toHaveLength(0);
    });

    it('the ban cannot be lifted behind the profile, even by writing auth.users', async () => {
      await db.query('update auth.users set banned_until = null where id = $1', [leaver.id]);
      expect(new Date((await profile(leaver.id)).banned_until!).getTime()).toBeGreaterThan(Date.now());
    });

    it('keeps their records; leaves them out of compliance and of required training rules', async () => {
      const rule = await db.query<{ id: string }>(
        `insert into public.required_training (course_id, role, service) values ($1, null, 'UKAS') returning id`, [ids.course(5)]);
      expect((await db.query('select 1 from public.enrollments where user_id = $1 and course_id = $2', [leaver.id, ids.course(5)])).rows)
        .toHaveLength(0);
      const people = await queryAs<{ user_id: string }>(db, admin, 'select user_id from private.compliance_people(null, null, null, null, 1000, 0)');
      expect(people.rows.map((p) => p.user_id)).not.toContain(leaver.id);
      // Reactivated: enrolled in the rules they match, back in compliance, the ban lifted, recorded.
      await queryAs(db, admin, 'select private.set_user_active($1, true)', [leaver.id]);
      const back = await profile(leaver.id);
      expect(back.deactivated_at).toBeNull();
      expect(back.banned_until).toBeNull();
      expect((await db.query('select status from public.enrollments where user_id = $1 and course_id = $2', [leaver.id, ids.course(5)])).rows)
        .toEqual([{ status: 'ACTIVE' }]);
      const again = await queryAs<{ user_id: string }>(db, admin, 'select user_id from private.compliance_people(null, null, null, null, 1000, 0)');
      expect(again.rows.map((p) => p.user_id)).toContain(leaver.id);
      expect(await events('user.reactivated', leaver.id)).toHaveLength(1);
      await db.query('delete from public.required_training where id = $1', [rule.rows[0].id]);
    });

    it('a deactivated learner keeps their certificate, still verifiable', async () => {
      await queryAs(db, admin, 'select private.set_user_active($1, false)', [learner.id]);
      const [cert] = (await db.query<{ verification_code: string }>('select verification_code from public.certificates where user_id = $1', [learner.id])).rows;
      expect(cert).toBeDefined();
      const verified = await queryAs<{ state: string }>(db, visitor, 'select state from private.verify_certificate($1)', [cert.verification_code]);
      expect(verified.rows).toHaveLength(1);
      await queryAs(db, admin, 'select private.set_user_active($1, true)', [learner.id]);
    });

    it('the last active administrator cannot be deactivated by another (deactivated) admin', async () => {
      const second = { id: '00000000-0000-4000-a000-0000000001e2', email: 'second.admin@example.uk' };
      await createUser(db, { id: second.id, email: second.email, username: 'second_admin', name: 'Sam Second', role: 'ADMIN' });
      await queryAs(db, admin, 'select private.set_user_active($1, false)', [second.id]);
      expect(await sqlState(() => asUser(db, second, (tx) => tx.query('select private.set_user_active($1, false)', [admin.id]))))
        .not.toBeNull();
      expect((await profile(admin.id)).deactivated_at).toBeNull();
    });
  });

  describe('audit trail completeness', () => {
    const courseInsert = `insert into public.courses (title, description, service, level, duration, status, author_id)
      values ('Radio procedure', 'Talking on the radio', 'UKPS', 'BEGINNER', 60, 'DRAFT', $1) returning id`;

    it('a course created, published, archived and deleted: one event each, naming who', async () => {
      const created = await queryAs<{ id: string }>(db, instructor, courseInsert, [instructor.id]);
      const id = created.rows[0].id;
      const [made] = await events('course.created', id);
      expect(made).toMatchObject({ actor_id: instructor.id, target_label: 'Radio procedure' });
      await queryAs(db, instructor, `update public.courses set status = 'ACTIVE' where id = $1`, [id]);
      const [published] = await events('course.published', id);
      expect(published).toMatchObject({ actor_id: instructor.id, old_data: { status: 'DRAFT' }, new_data: { status: 'ACTIVE' } });
      await queryAs(db, admin, `update public.courses set status = 'ARCHIVED' where id = $1`, [id]);
      expect((await events('course.archived', id))[0].actor_id).toBe(admin.id);
      // An edit that leaves the status alone records no status event.
      await queryAs(db, admin, `update public.courses set title = 'Radio procedure 2' where id = $1`, [id]);
      expect(await events('course.published', id)).toHaveLength(1);
      await queryAs(db, admin, 'delete from public.courses where id = $1', [id]);
      expect((await events('course.deleted', id))[0].actor_id).toBe(admin.id);
    });

    it('rolled back with the change: no event for a course that was never made', async () => {
      const before = (await events('course.created')).length;
      await rolledBack(db, instructor, (tx) => tx.query(courseInsert, [instructor.id]));
      expect(await events('course.created')).toHaveLength(before);
    });

    it('enrolment approval and decline are recorded; a learner withdrawing their own request is not', async () => {
      const a = { id: '00000000-0000-4000-a000-0000000001e3', email: 'asker.one@example.uk' };
      const b = { id: '00000000-0000-4000-a000-0000000001e4', email: 'asker.two@example.uk' };
      await createUser(db, { id: a.id, email: a.email, username: 'asker_one', name: 'Ava Asker' });
      await createUser(db, { id: b.id, email: b.email, username: 'asker_two', name: 'Bo Asker' });
      const pending: string[] = [];
      await withCourseAccess(db, 'login-approval', async () => {
        for (const who of [a, b]) {
          const r = await queryAs<{ id: string }>(db, who, 'insert into public.enrollments (user_id, course_id) values ($1, $2) returning id',
            [who.id, ids.course(2)]);
          pending.push(r.rows[0].id);
        }
      });
      await queryAs(db, instructor, 'select private.approve_enrollment($1)', [pending[0]]);
      const [approved] = await events('enrollment.approved', pending[0]);
      expect(approved).toMatchObject({ actor_id: instructor.id, new_data: { status: 'ACTIVE', learner: 'Ava Asker' } });
      await queryAs(db, admin, 'select private.decline_enrollment($1)', [pending[1]]);
      const [declined] = await events('enrollment.declined', pending[1]);
      expect(declined).toMatchObject({ actor_id: admin.id, old_data: { status: 'PENDING', learner: 'Bo Asker' } });
    });

    it('required training rules added, changed and removed, with how many people were enrolled', async () => {
      const rule = await queryAs<{ id: string }>(db, admin,
        `insert into public.required_training (course_id, role, service) values ($1, 'STUDENT', 'UKAS') returning id`, [ids.course(6)]);
      const id = rule.rows[0].id;
      const enrolled = await db.query<{ n: number }>(
        `select count(*)::int as n from public.profiles where role = 'STUDENT' and services @> '{UKAS}' and deactivated_at is null`);
      const [added] = await events('required_training.added', id);
      expect(added.actor_id).toBe(admin.id);
      expect(added.new_data).toMatchObject({ role: 'STUDENT', service: 'UKAS', enrolled: enrolled.rows[0].n });
      expect(enrolled.rows[0].n).toBeGreaterThan(0);
      await queryAs(db, admin, 'update public.required_training set due_within_days = 60 where id = $1', [id]);
      const [changed] = await events('required_training.changed', id);
      expect(changed.old_data).toMatchObject({ dueWithinDays: 30 });
      expect(changed.new_data).toMatchObject({ dueWithinDays: 60, enrolled: 0 });
      await queryAs(db, admin, 'delete from public.required_training where id = $1', [id]);
      expect((await events('required_training.removed', id))[0].old_data).toMatchObject({ role: 'STUDENT', service: 'UKAS' });
    });

    it('the helper records an admin\'s event; refuses others, unknown shapes and the kinds triggers own', async () => {
      const record = `select private.record_audit_event($1, 'user', $2, 'Lee Leaver', null, ($3::text)::jsonb)`;
      await queryAs(db, admin, record, ['password.forced_change', leaver.id, '{"reason":"test"}']);
      expect((await events('password.forced_change', leaver.id))[0]).toMatchObject({ actor_id: admin.id, new_data: { reason: 'test' } });
      for (const persona of [learner, instructor]) {
        expect(await sqlState(() => queryAs(db, persona, record, ['certificate.reissued', leaver.id, '{}']))).toBe('42501');
      }
      expect(await sqlState(() => queryAs(db, visitor, record, ['certificate.reissued', leaver.id, '{}']))).toBe('42501');
      expect(await sqlState(() => queryAs(db, admin, record, ['user.deleted', leaver.id, '{}']))).toBe('22023');
      expect(await sqlState(() => queryAs(db, admin, record, ['Robert; drop', leaver.id, '{}']))).toBe('22023');
      // Still no direct write, for anyone.
      expect(await sqlState(() => queryAs(db, instructor, `insert into public.audit_events (action, target_type) values ('x.y', 'x')`)))
        .toBe('42501');
      expect(await sqlState(() => queryAs(db, learner, 'select private.write_audit($1, $2, null, null, null, null)', ['x.y', 'x'])))
        .toBe('42501');
      expect((await queryAs(db, instructor, 'select id from public.audit_events')).rows).toHaveLength(0);
    });
  });
});
