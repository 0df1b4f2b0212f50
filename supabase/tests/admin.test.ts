// Administration in SQL (supabase/schemas/01_profiles_and_settings.sql and 10_audit.sql): the audit trail (written by triggers, read by
// admins only), last-admin protection, bulk role services, the permission matrix, user deletion and
// the contact email, for every persona.
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

const { admin, instructor, learner, otherInstructor } = personas;
const visitor = null;

interface AuditRow {
  action: string;
  actor_id: string | null;
  actor_username: string | null;
  target_id: string | null;
  target_label: string | null;
  old_data: Record<string, unknown> | null;
  new_data: Record<string, unknown> | null;
}

describe.each(backends)('administration on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  const lastEvent = async (action: string) =>
    (await db.query<AuditRow>('select * from public.audit_events where action = $1 order by id desc limit 1', [action])).rows[0];

  describe('audit trail', () => {
    it('admins read it; learners, instructors and visitors see nothing', async () => {
      await queryAs(db, admin, `update public.settings set footer_text = 'Audited footer'`);
      expect((await queryAs(db, admin, 'select id from public.audit_events')).rows.length).toBeGreaterThan(0);
      for (const persona of [learner, instructor, otherInstructor]) {
        expect((await queryAs(db, persona, 'select id from public.audit_events')).rows).toHaveLength(0);
      }
      expect(await sqlState(() => queryAs(db, visitor, 'select id from public.audit_events'))).toBe('42501');
    });

    it('nobody writes, edits or deletes it through the API roles, not even an admin', async () => {
      const insert = `insert into public.audit_events (action, target_type) values ('forged', 'x')`;
      for (const persona of [admin, learner, visitor]) {
        expect(await sqlState(() => queryAs(db, persona, insert))).toBe('42501');
        expect(await sqlState(() => queryAs(db, persona, 'delete from public.audit_events'))).toBe('42501');
        expect(await sqlState(() => queryAs(db, persona, `update public.audit_events set action = 'x'`))).toBe('42501');
      }
    });

    it('a settings change records who and only the fields that changed', async () => {
      await queryAs(db, admin, `update public.settings set site_name = 'Audit Test Site', enable_analytics = enable_analytics`);
      const event = await lastEvent('settings.updated');
      expect(event.actor_id).toBe(admin.id);
      expect(event.actor_username).toBe('admin');
      expect(event.new_data).toEqual({ site_name: 'Audit Test Site' });
      expect(event.old_data).toEqual({ site_name: 'Emergency Services Learning v3' });
      await db.query(`update public.settings set site_name = 'Emergency Services Learning v3', footer_text = $1`, [
        '© 2026 Emergency Services Learning. All rights reserved.',
      ]);
    });

    it('a role change records old and new role and services', async () => {
      const id = '00000000-0000-4000-a000-0000000000b1';
      await createUser(db, { id, email: 'promote.me@example.uk', username: 'promote_me', name: 'Promote Me' });
      const created = await lastEvent('user.created');
      expect(created.target_id).toBe(id);
      expect(created.actor_id).toBeNull();
      await queryAs(db, admin, `update public.profiles set role = 'INSTRUCTOR', services = '{UKAS}' where id = $1`, [id]);
      const event = await lastEvent('user.permissions_changed');
      expect(event).toMatchObject({
        actor_id: admin.id,
        target_id: id,
        old_data: { role: 'STUDENT', services: [] },
        new_data: { role: 'INSTRUCTOR', services: ['UKAS'] },
      });
      // A name change alone is not a permission change.
      const before = (await db.query('select count(*)::int as n from public.audit_events')).rows[0];
      await queryAs(db, admin, `update public.profiles set name = 'Promoted' where id = $1`, [id]);
      expect((await db.query('select count(*)::int as n from public.audit_events')).rows[0]).toEqual(before);
    });

    it('an account created by an admin through Auth names the admin (app_metadata.created_by)', async () => {
      const id = '00000000-0000-4000-a000-0000000000b2';
      await db.query(
        `insert into auth.users (instance_id, id, aud, role, email, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
         values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', 'made.by.admin@example.uk',
           ($2::text)::jsonb, '{"username":"made_by_admin","name":"Made"}', now(), now())`,
        [id, JSON.stringify({ provider: 'email', created_by: admin.id })],
      );
      const event = await lastEvent('user.created');
      expect(event).toMatchObject({ target_id: id, actor_id: admin.id, actor_username: 'admin', target_label: 'made_by_admin' });
    });

    it('a course deletion is recorded with its title', async () => {
      await queryAs(db, admin, 'delete from public.courses where id = $1', [ids.course(17)]);
      const event = await lastEvent('course.deleted');
      expect(event).toMatchObject({ actor_id: admin.id, target_id: ids.course(17) });
      expect(event.old_data).toMatchObject({ status: 'ARCHIVED' });
    });
  });

  describe('user deletion', () => {
    it('only an admin deletes an account; the profile goes with it and the trail names the admin', async () => {
      const id = '00000000-0000-4000-a000-0000000000b3';
      await createUser(db, { id, email: 'delete.me@example.uk', username: 'delete_me', name: 'Delete Me' });
      expect(await sqlState(() => queryAs(db, learner, 'select private.delete_user($1)', [id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, instructor, 'select private.delete_user($1)', [id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, 'select private.delete_user($1)', [id]))).toBe('42501');
      const r = await queryAs<{ deleted: boolean }>(db, admin, 'select private.delete_user($1) as deleted', [id]);
      expect(r.rows[0].deleted).toBe(true);
      expect((await db.query('select 1 from public.profiles where id = $1', [id])).rows).toHaveLength(0);
      const event = await lastEvent('user.deleted');
      expect(event).toMatchObject({ actor_id: admin.id, target_id: id, target_label: 'delete_me' });
      const again = await queryAs<{ deleted: boolean }>(db, admin, 'select private.delete_user($1) as deleted', [id]);
      expect(again.rows[0].deleted).toBe(false);
    });
  });

  describe('last administrator', () => {
    it('the only admin can be neither demoted nor deleted, by anyone', async () => {
      expect(await sqlState(() => rolledBack(db, admin, (tx) => tx.query(`update public.profiles set role = 'STUDENT' where id = $1`, [admin.id])))).toBe('P0409');
      expect(await sqlState(() => rolledBack(db, admin, (tx) => tx.query('select private.delete_user($1)', [admin.id])))).toBe('P0409');
      // Even the Auth service (no API role) deleting the account.
      expect(await sqlState(() => db.query('delete from auth.users where id = $1', [admin.id]))).toBe('P0409');
    });

    it('with a second admin, one of them may be demoted, and then the other is protected again', async () => {
      const id = '00000000-0000-4000-a000-0000000000b4';
      await createUser(db, { id, email: 'second.admin@example.uk', username: 'second_admin', name: 'Second Admin', role: 'ADMIN' });
      await rolledBack(db, admin, async (tx) => {
        await tx.query(`update public.profiles set role = 'STUDENT' where id = $1`, [id]);
        expect(await sqlState(() => tx.query(`update public.profiles set role = 'STUDENT' where id = $1`, [admin.id]))).toBe('P0409');
      });
      await queryAs(db, admin, 'select private.delete_user($1)', [id]);
    });
  });

  describe('role services', () => {
    it('an admin sets the services of every user of a role in one statement', async () => {
      await rolledBack(db, admin, async (tx) => {
        const differing = await tx.query<{ n: number }>(
          `select count(*)::int as n from public.profiles where role = 'INSTRUCTOR' and services <> '{UKPS,MISC}'`,
        );
        expect(differing.rows[0].n).toBeGreaterThan(1);
        const r = await tx.query<{ n: number }>(`select private.set_role_services('INSTRUCTOR', '{MISC,UKPS,MISC}') as n`);
        const count = await tx.query<{ n: number }>(`select count(*)::int as n from public.profiles where role = 'INSTRUCTOR'`);
        expect(r.rows[0].n).toBe(count.rows[0].n);
        const services = await tx.query<{ services: string }>(
          `select distinct services::text as services from public.profiles where role = 'INSTRUCTOR'`,
        );
        expect(services.rows).toEqual([{ services: '{UKPS,MISC}' }]);
        // One summary event for the users it changed, not one per user.
        const events = await tx.query<AuditRow>(`select * from public.audit_events where action = 'users.permissions_changed' order by id desc limit 1`);
        expect(events.rows[0].new_data).toMatchObject({ count: differing.rows[0].n, roles: ['INSTRUCTOR'] });
      });
    });

    it('no one else may', async () => {
      for (const persona of [learner, instructor, visitor]) {
        expect(await sqlState(() => queryAs(db, persona, `select private.set_role_services('STUDENT', '{UKPS}')`))).toBe('42501');
      }
      const r = await db.query<{ services: string }>('select services::text as services from public.profiles where id = $1', [learner.id]);
      expect(r.rows[0].services).not.toBe('{UKPS}');
    });

    it('the matrix says how many users of each role hold each service', async () => {
      const r = await queryAs<{ role: string; users: number; service: string; holders: number }>(
        db, admin, 'select role::text, users::int, service::text, holders::int from private.role_service_matrix()',
      );
      expect(r.rows).toHaveLength(18);
      const instructors = r.rows.filter((row) => row.role === 'INSTRUCTOR');
      // Seed instructor (UKPS, MISC) and the other instructor (UKPS, UKAS).
      const truth = await db.query<{ users: number; ukps: number; ukas: number; misc: number }>(
        `select count(*)::int as users, count(*) filter (where 'UKPS' = any(services))::int as ukps,
           count(*) filter (where 'UKAS' = any(services))::int as ukas, count(*) filter (where 'MISC' = any(services))::int as misc
         from public.profiles where role = 'INSTRUCTOR'`,
      );
      expect(instructors.find((x) => x.service === 'UKPS')).toMatchObject({ users: truth.rows[0].users, holders: truth.rows[0].ukps });
      expect(instructors.find((x) => x.service === 'UKAS')?.holders).toBe(truth.rows[0].ukas);
      expect(instructors.find((x) => x.service === 'MISC')?.holders).toBe(truth.rows[0].misc);
      for (const persona of [learner, instructor, visitor]) {
        expect(await sqlState(() => queryAs(db, persona, 'select * from private.role_service_matrix()'))).toBe('42501');
      }
    });
  });

  describe('contact email', () => {
    it('signed-in users read the contact address; visitors get null; admin_email stays column-hidden', async () => {
      const signedIn = await queryAs<{ c: string }>(db, learner, 'select private.contact_email() as c');
      expect(signedIn.rows[0].c).toBe('admin@emergency-services-learning.uk');
      const anon = await queryAs<{ c: string | null }>(db, visitor, 'select private.contact_email() as c');
      expect(anon.rows[0].c).toBeNull();
      expect(await sqlState(() => queryAs(db, learner, 'select admin_email from public.settings'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, learner, 'select private.admin_email()'))).toBe('42501');
    });
  });

  it('the user list query is served by indexes', async () => {
    const r = await asUser(db, admin, (tx) =>
      tx.query<{ indexname: string }>(`select indexname from pg_indexes where tablename = 'profiles' order by indexname`));
    const names = r.rows.map((row) => row.indexname);
    expect(names).toEqual(expect.arrayContaining(['profiles_created_at_idx', 'profiles_services_idx']));
    const audit = await db.query<{ indexname: string }>(`select indexname from pg_indexes where tablename = 'audit_events'`);
    expect(audit.rows.map((row) => row.indexname)).toEqual(expect.arrayContaining(['audit_events_occurred_at_idx']));
  });
});
