// Open Badges credentials in the database (28_credentials.sql): a certificate's issue and reissue
// each add a pending credential with its issuer and status list entry; the holder reads their own
// and changes only the share flag; achievements are read where the course is and written by those
// who may edit it; the issuers' signing keys are unreachable by every client role, through tables,
// functions and Storage; status lists say which entries are revoked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, ids, personas, queryAs, rolledBack, sqlState, type TestDatabase } from './helpers/database';

const SECRET = `z${'3'.repeat(80)}`;
const PUBLIC = `z${'6'.repeat(47)}`;

describe.each(backends)('Open Badges credentials on $name', ({ create }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into private.issuer_keys (issuer_id, public_key_multibase, secret_key_multibase) values ('national', $1, $2)`, [PUBLIC, SECRET]);
  });
  afterAll(async () => {
    await db?.close();
  });

  const credentialsOf = async (certificateId: string) =>
    (await db.query<{ id: string; issuer_id: string; status_list_id: string; status_index: number; credential: unknown }>(
      'select id, issuer_id, status_list_id, status_index, credential from public.credentials where certificate_id = $1 order by created_at',
      [certificateId],
    )).rows;

  it('adds a pending credential when a certificate is issued and another on each reissue, each with its own status entry', async () => {
    const before = await credentialsOf(ids.certificate);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ issuer_id: 'national', credential: null });
    await db.query(`update public.certificates set reissued_at = now() where id = $1`, [ids.certificate]);
    await db.query(`update public.certificates set learner_name = learner_name where id = $1`, [ids.certificate]);
    const after = await credentialsOf(ids.certificate);
    expect(after).toHaveLength(2);
    expect(after[1].status_index).not.toBe(after[0].status_index);
    expect(after[1].status_list_id).toBe(after[0].status_list_id);
  });

  it('lets the holder read their own credentials and change only the share flag; nobody else reads or writes them', async () => {
    const own = await queryAs(db, personas.learner, 'select id from public.credentials where certificate_id = $1', [ids.certificate]);
    expect(own.rows.length).toBeGreaterThan(0);
    for (const other of [null, personas.instructor, personas.admin]) {
      let seen = 0;
      const state = await sqlState(async () => {
        seen = (await queryAs(db, other, 'select id from public.credentials where certificate_id = $1', [ids.certificate])).rows.length;
      });
      expect([state, seen]).toEqual(other ? [null, 0] : ['42501', 0]);
    }
    await rolledBack(db, personas.learner, async (tx) => {
      const shared = await tx.query('update public.credentials set share_enabled = true where certificate_id = $1 returning id', [ids.certificate]);
      expect(shared.rows.length).toBeGreaterThan(0);
    });
    for (const change of ['credential = \'{}\'::jsonb', 'user_id = null', 'status_index = 99999', `share_id = '${'a'.repeat(32)}'`]) {
      expect(await sqlState(() => rolledBack(db, personas.learner, (tx) => tx.query(`update public.credentials set ${change} where certificate_id = $1`, [ids.certificate]))))
        .toBe('42501');
    }
    await rolledBack(db, personas.admin, async (tx) => {
      const shared = await tx.query('update public.credentials set share_enabled = true where certificate_id = $1 returning id', [ids.certificate]);
      expect(shared.rows).toEqual([]);
    });
    expect(await sqlState(() => rolledBack(db, personas.learner, (tx) => tx.query('delete from public.credentials where certificate_id = $1', [ids.certificate]))))
      .toBe('42501');
  });

  it('answers a shared credential to anyone only while sharing is on and it is signed', async () => {
    const [row] = (await db.query<{ id: string; share_id: string }>('select id, share_id from public.credentials where certificate_id = $1 limit 1', [ids.certificate])).rows;
    await db.query(`update public.credentials set credential = '{"id":"urn:uuid:x"}', key_id = (select id from private.issuer_keys limit 1), signed_at = now() where id = $1`, [row.id]);
    const shared = async () => (await queryAs<{ c: unknown }>(db, null, 'select private.shared_credential($1) as c', [row.share_id])).rows[0].c;
    expect(await shared()).toBeNull();
    await db.query('update public.credentials set share_enabled = true where id = $1', [row.id]);
    expect(await shared()).toEqual({ id: 'urn:uuid:x' });
    await db.query('update public.credentials set share_enabled = false where id = $1', [row.id]);
    expect(await shared()).toBeNull();
  });

  it('lets anyone read a visible course\'s achievement and only its editors write it', async () => {
    const course = ids.course(1); // the instructor's
    const insert = `insert into public.course_achievements (course_id, name, description, criteria) values ($1, 'Airwave', 'Uses Airwave radios', 'Completes every module')`;
    expect(await sqlState(() => rolledBack(db, personas.learner, (tx) => tx.query(insert, [course])))).toBe('42501');
    expect(await sqlState(() => rolledBack(db, null, (tx) => tx.query(insert, [course])))).toBe('42501');
    await rolledBack(db, personas.instructor, (tx) => tx.query(insert, [course]));
    await db.query(insert, [course]);
    expect((await queryAs(db, null, 'select name from public.course_achievements where course_id = $1', [course])).rows).toEqual([{ name: 'Airwave' }]);
    expect((await queryAs(db, personas.learner, 'select name from public.course_achievements where course_id = $1', [course])).rows).toEqual([{ name: 'Airwave' }]);
    const rename = `update public.course_achievements set name = 'Renamed' where course_id = $1 returning name`;
    expect((await rolledBack(db, personas.learner, (tx) => tx.query(rename, [course]))).rows).toEqual([]);
    expect((await rolledBack(db, personas.otherInstructor, (tx) => tx.query(rename, [course]))).rows).toEqual([]);
    expect((await rolledBack(db, personas.instructor, (tx) => tx.query(rename, [course]))).rows).toEqual([{ name: 'Renamed' }]);
    expect((await rolledBack(db, personas.admin, (tx) => tx.query(rename, [course]))).rows).toEqual([{ name: 'Renamed' }]);
    // A draft course's achievement is as hidden as the course.
    const draft = ids.course(15);
    await db.query(insert, [draft]);
    expect((await queryAs(db, null, 'select 1 from public.course_achievements where course_id = $1', [draft])).rows).toEqual([]);
    expect((await queryAs(db, personas.learner, 'select 1 from public.course_achievements where course_id = $1', [draft])).rows).toEqual([]);
  });

  it('keeps the signing key from every client role: no table, no function, no bucket', async () => {
    for (const persona of [null, personas.learner, personas.admin]) {
      expect(await sqlState(() => queryAs(db, persona, 'select secret_key_multibase from private.issuer_keys'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona, 'select 1 from private.credential_status_lists'))).toBe('42501');
      expect(await sqlState(() => rolledBack(db, persona, (tx) =>
        tx.query(`insert into private.issuer_keys (issuer_id, public_key_multibase, secret_key_multibase) values ('national', $1, $2)`, [PUBLIC, SECRET])))).toBe('42501');
      const keys = await queryAs<Record<string, unknown>>(db, persona, `select * from private.issuer_public_keys('national')`);
      expect(keys.rows.map((k) => k.public_key_multibase)).toEqual([PUBLIC]);
      expect(JSON.stringify(keys.rows)).not.toContain(SECRET);
    }
    // No function a client role may call reads the secret column.
    const readers = await db.query<{ name: string }>(`
      select p.oid::regprocedure::text as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'private') and p.prosrc ilike '%secret_key%'
        and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute'))`);
    expect(readers.rows).toEqual([]);
    // No bucket holds it: no Storage object names or describes a key.
    const objects = await db.query(`select 1 from storage.objects where name ilike '%key%' or metadata::text like $1`, [`%${SECRET}%`]);
    expect(objects.rows).toEqual([]);
    const buckets = await db.query(`select id from storage.buckets where id ilike '%key%' or id ilike '%issuer%' or id ilike '%credential%'`);
    expect(buckets.rows).toEqual([]);
  });

  it('lists as revoked the entries of credentials whose certificate was revoked', async () => {
    const [entry] = await credentialsOf(ids.certificate);
    const revoked = async () =>
      (await queryAs<{ revoked: number[] }>(db, null, 'select revoked from private.status_list_revoked($1)', [entry.status_list_id])).rows[0].revoked;
    expect(await revoked()).toEqual([]);
    await db.query(`update public.certificates set revoked_at = now(), revoked_reason = 'Matrix' where id = $1`, [ids.certificate]);
    expect((await revoked()).sort()).toEqual((await credentialsOf(ids.certificate)).map((c) => c.status_index).sort());
    await db.query(`update public.certificates set revoked_at = null, revoked_reason = null where id = $1`, [ids.certificate]);
  });
});
