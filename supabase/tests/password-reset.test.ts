// An administrator resets a person's password (private.reset_password_flag, supabase/schemas/01_profiles_and_settings.sql). The api function
// sets the new temporary password through Auth admin; private.reset_password_flag does the database
// half under the admin's identity: the person must choose a new password, their sessions end, and
// 'password.reset' is recorded. Nobody else may use it through the database API, and an admin may
// not use it on their own account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, ids, personas, queryAs, sqlState, type TestDatabase } from './helpers/database';

const sessionA = '00000000-0000-4000-a000-0000000005e1';
const sessionB = '00000000-0000-4000-a000-0000000005e2';

describe.each(backends)('admin password reset on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    for (const id of [sessionA, sessionB]) {
      await db.query(`insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')`, [id, ids.student]);
    }
    await db.query(
      `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, session_id)
       values ('00000000-0000-0000-0000-000000000000', 'refresh-token-reset-test', $1, false, now(), now(), $2)`,
      [ids.student, sessionA],
    );
  });
  afterAll(async () => {
    await db?.close();
  });

  const state = async () => {
    const flag = (await db.query<{ f: boolean }>('select must_change_password as f from public.profiles where id = $1', [ids.student])).rows[0].f;
    const sessions = (await db.query<{ n: number }>('select count(*)::int as n from auth.sessions where user_id = $1', [ids.student])).rows[0].n;
    const events = (await db.query<{ n: number }>(`select count(*)::int as n from public.audit_events where action = 'password.reset'`)).rows[0].n;
    return { flag, sessions, events };
  };

  it('refuses non-admins both ways: the function (learner, instructor, visitor) and the flag column itself', async () => {
    const before = await state();
    expect(before).toEqual({ flag: false, sessions: 2, events: 0 });
    for (const who of [personas.learner, personas.instructor]) {
      expect(await sqlState(() => queryAs(db, who, 'select private.reset_password_flag($1)', [ids.student]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, who, 'select private.reset_password_flag($1)', [ids.admin]))).toBe('42501');
    }
    expect(await sqlState(() => queryAs(db, null, 'select private.reset_password_flag($1)', [ids.student]))).toBe('42501');
    // Nor can a caller flag someone (or end their sessions) straight through the database API.
    for (const who of [personas.learner, personas.instructor, personas.admin]) {
      expect(await sqlState(() => queryAs(db, who, 'update public.profiles set must_change_password = true where id = $1', [ids.student]))).toBe('42501');
      const gone = await sqlState(() => queryAs(db, who, 'delete from auth.sessions where user_id = $1', [ids.student]));
      expect(gone).toBe('42501');
    }
    expect(await state()).toEqual(before);
  });

  it('an admin may not reset their own password this way (P0409); an unknown person is P0002', async () => {
    expect(await sqlState(() => queryAs(db, personas.admin, 'select private.reset_password_flag($1)', [ids.admin]))).toBe('P0409');
    expect(await sqlState(() => queryAs(db, personas.admin, 'select private.reset_password_flag($1)', ['00000000-0000-4000-a000-00000000dead']))).toBe('P0002');
    const admin = (await db.query<{ f: boolean }>('select must_change_password as f from public.profiles where id = $1', [ids.admin])).rows[0].f;
    expect(admin).toBe(false);
    expect((await state()).events).toBe(0);
  });

  it("an admin's reset flags the person, ends every session (and refresh token) and writes password.reset", async () => {
    const rows = await queryAs<{ ok: boolean }>(db, personas.admin, 'select private.reset_password_flag($1) as ok', [ids.student]);
    expect(rows.rows).toEqual([{ ok: true }]);
    expect(await state()).toEqual({ flag: true, sessions: 0, events: 1 });
    const tokens = (await db.query<{ n: number }>('select count(*)::int as n from auth.refresh_tokens where user_id = $1', [ids.student])).rows[0].n;
    expect(tokens).toBe(0);
    const events = await db.query<{ actor_id: string; target_type: string; target_id: string; new_data: Record<string, unknown> }>(
      `select actor_id, target_type, target_id, new_data from public.audit_events where action = 'password.reset'`);
    expect(events.rows[0]).toMatchObject({ actor_id: ids.admin, target_type: 'user', target_id: ids.student });
    expect(events.rows[0].new_data).toMatchObject({ mustChangePassword: true, sessionsEnded: 2 });
    expect(JSON.stringify(events.rows[0])).not.toMatch(/password123/);
  });
});
