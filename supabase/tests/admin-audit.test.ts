// Issue 15 in SQL: leavers (private.set_user_active, migration 20261125110000) and the audit trail's
// completeness (migration 20261125110100). Both ways: what an admin may do, and what a learner, an
// instructor or a direct database API client may not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor,
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
});
