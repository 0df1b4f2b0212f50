// profiles.must_change_password (supabase/schemas/01_profiles_and_settings.sql). Only the trusted path writes
// it: the sign-up trigger (from Auth app_metadata, which only the service role writes) and the
// service role. While it is set the person's own profile edits through the database API are refused.
// Also the certificate reissue (supabase/schemas/05_certificates.sql): admins only, same code, new snapshot, audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, backends, ids, personas, queryAs, sqlState, type Persona, type TestDatabase } from './helpers/database';

const flagged: Persona = { id: '00000000-0000-4000-a000-0000000000f1', email: 'flagged@example.uk' };
const plain: Persona = { id: '00000000-0000-4000-a000-0000000000f2', email: 'plain@example.uk' };

async function insertAuthUser(db: TestDatabase, persona: Persona, username: string, appMeta: Record<string, unknown>) {
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       extensions.crypt('password123', extensions.gen_salt('bf', 4)), now(),
       ($3::text)::jsonb, ($4::text)::jsonb, now(), now())`,
    [persona.id, persona.email, JSON.stringify({ provider: 'email', providers: ['email'], ...appMeta }),
      JSON.stringify({ username, name: `Person ${username}` })],
  );
}

const flagOf = async (db: TestDatabase, id: string) =>
  (await db.query<{ f: boolean }>('select must_change_password as f from public.profiles where id = $1', [id])).rows[0].f;

describe.each(backends)('forced password change on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await insertAuthUser(db, flagged, 'flagged_person', { must_change_password: true });
    await insertAuthUser(db, plain, 'plain_person', {});
  });
  afterAll(async () => {
    await db?.close();
  });

  it('a profile is born flagged only when Auth app_metadata says so', async () => {
    expect(await flagOf(db, flagged.id)).toBe(true);
    expect(await flagOf(db, plain.id)).toBe(false);
    // user_metadata is the person's own to write at sign-up: it does not set (or avoid) the flag.
    const viaUserMeta: Persona = { id: '00000000-0000-4000-a000-0000000000f3', email: 'usermeta@example.uk' };
    await db.query(
      `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '{}'::jsonb,
         '{"username":"user_meta_person","name":"U M","must_change_password":true}'::jsonb, now(), now())`,
      [viaUserMeta.id, viaUserMeta.email],
    );
    expect(await flagOf(db, viaUserMeta.id)).toBe(false);
  });

  it('private.password_change_pending() answers for the caller; a visitor may not call it', async () => {
    expect((await queryAs<{ p: boolean }>(db, flagged, 'select private.password_change_pending() as p')).rows[0].p).toBe(true);
    expect((await queryAs<{ p: boolean }>(db, plain, 'select private.password_change_pending() as p')).rows[0].p).toBe(false);
    expect(await sqlState(() => queryAs(db, null, 'select private.password_change_pending()'))).toBe('42501');
  });

  it('no API role, not even an admin, sets or clears the flag', async () => {
    for (const [who, id] of [[flagged, flagged.id], [plain, plain.id], [personas.admin, flagged.id], [personas.admin, plain.id]] as const) {
      expect(await sqlState(() => queryAs(db, who, 'update public.profiles set must_change_password = not must_change_password where id = $1', [id]))).toBe('42501');
    }
    expect(await sqlState(() => queryAs(db, null, 'update public.profiles set must_change_password = false where id = $1', [flagged.id]))).toBe('42501');
    expect(await flagOf(db, flagged.id)).toBe(true);
    expect(await flagOf(db, plain.id)).toBe(false);
  });

  it('a flagged person cannot change their own profile straight through the database; others can', async () => {
    expect(await sqlState(() => queryAs(db, flagged, `update public.profiles set name = 'Taken Over', email = 'evil@example.uk' where id = $1`, [flagged.id]))).toBe('42501');
    const rows = await asUser(db, plain, async (tx) => {
      const r = await tx.query(`update public.profiles set name = 'Plain Person Renamed' where id = $1 returning name`, [plain.id]);
      return r.rows;
    });
    expect(rows).toEqual([{ name: 'Plain Person Renamed' }]);
    // An admin correcting the flagged person's name is not held back by that person's flag.
    const byAdmin = await queryAs(db, personas.admin, `update public.profiles set name = 'Flagged Corrected' where id = $1 returning name`, [flagged.id]);
    expect(byAdmin.rows).toEqual([{ name: 'Flagged Corrected' }]);
  });

  it('the service role (the function, after a successful password change) clears it', async () => {
    await db.transaction(async (tx) => {
      await tx.query('set local role service_role');
      await tx.query('update public.profiles set must_change_password = false where id = $1', [flagged.id]);
    });
    expect(await flagOf(db, flagged.id)).toBe(false);
    const rows = await queryAs(db, flagged, `update public.profiles set name = 'Own Name' where id = $1 returning name`, [flagged.id]);
    expect(rows.rows).toEqual([{ name: 'Own Name' }]);
  });
});

describe.each(backends)('certificate reissue on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db?.close();
  });
  const certificate = () =>
    db.query<{ verification_code: string; learner_name: string; reissued_at: string | null }>(
      'select verification_code, learner_name, reissued_at from public.certificates where id = $1', [ids.certificate]).then((r) => r.rows[0]);

  it('only an admin reissues; the learner, an instructor and a visitor are refused, nothing changes', async () => {
    const before = await certificate();
    for (const who of [personas.learner, personas.instructor]) {
      expect(await sqlState(() => queryAs(db, who, 'select private.reissue_certificate($1)', [ids.certificate]))).toBe('42501');
    }
    expect(await sqlState(() => queryAs(db, null, 'select private.reissue_certificate($1)', [ids.certificate]))).toBe('42501');
    // Nor may anyone update the snapshot straight through the database API.
    expect(await sqlState(() => queryAs(db, personas.admin, `update public.certificates set learner_name = 'X' where id = $1`, [ids.certificate]))).toBe('42501');
    expect(await certificate()).toEqual(before);
  });

  it("an admin's reissue keeps the code, takes the corrected name and writes certificate.reissued", async () => {
    const before = await certificate();
    await queryAs(db, personas.admin, `update public.profiles set name = 'Corrected Learner Name' where id = $1`, [ids.student]);
    const rows = await queryAs<{ verification_code: string; learner_name: string }>(db, personas.admin,
      'select verification_code, learner_name from private.reissue_certificate($1)', [ids.certificate]);
    expect(rows.rows).toEqual([{ verification_code: before.verification_code, learner_name: 'Corrected Learner Name' }]);
    const after = await certificate();
    expect(after.reissued_at).not.toBeNull();
    const events = await db.query<{ actor_id: string; target_id: string; old_data: { learnerName: string }; new_data: { learnerName: string; verificationCode: string } }>(
      `select actor_id, target_id, old_data, new_data from public.audit_events where action = 'certificate.reissued'`);
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0].actor_id).toBe(ids.admin);
    expect(events.rows[0].target_id).toBe(ids.certificate);
    expect(events.rows[0].old_data.learnerName).toBe(before.learner_name);
    expect(events.rows[0].new_data).toMatchObject({ learnerName: 'Corrected Learner Name', verificationCode: before.verification_code });
  });

  it('a revoked certificate is not reissued (P0409); an unknown one is P0002', async () => {
    await queryAs(db, personas.admin, `select private.revoke_certificate($1, 'Issued in error')`, [ids.certificate]);
    expect(await sqlState(() => queryAs(db, personas.admin, 'select private.reissue_certificate($1)', [ids.certificate]))).toBe('P0409');
    expect(await sqlState(() => queryAs(db, personas.admin, 'select private.reissue_certificate($1)', ['00000000-0000-4000-a000-00000000dead']))).toBe('P0002');
  });
});
