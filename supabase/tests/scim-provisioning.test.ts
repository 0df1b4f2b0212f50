// SCIM provisioning straight at the database, as a client of the database API could call it: who
// reads and manages an organisation's SCIM tokens (its administrators and national admins, never
// the hash), and that every SCIM function checks the token itself (malformed, unknown or revoked:
// 28000) and keeps to the token's organisation (another organisation's person or unit is not
// found, its manager or unit cannot be set, nothing of it changes). Proven both ways for each kind
// of caller (supabase/schemas/23_scim_provisioning.sql).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asUser, backends, createUser, personas, rolledBack, sqlState, type Persona, type TestDatabase,
} from './helpers/database';

const national = personas.admin;
const person = (n: number, email: string): Persona => ({ id: `00000000-0000-4000-a000-00000000d${String(n).padStart(3, '0')}`, email });
const orgAdminA = person(1, 'scim.admin.a@example.uk');
const learnerA = person(2, 'scim.learner.a@example.uk');
const orgAdminB = person(3, 'scim.admin.b@example.uk');
const managerB = person(4, 'scim.manager.b@example.uk');

const orgA = 'd0000000-0000-4000-a000-000000000001';
const orgB = 'd0000000-0000-4000-a000-000000000002';
const unitA = 'd1000000-0000-4000-a000-000000000001';
const unitB = 'd1000000-0000-4000-a000-000000000002';
const TOKEN_PATTERN = /^scim_[0-9a-f]{64}$/;

describe.each(backends)('SCIM provisioning in the database on $name', ({ create }) => {
  let db: TestDatabase;
  let tokenA = '';
  let tokenB = '';
  let tokenAId = '';
  let personB = '';

  /** A SCIM function as the API calls it: role anon, the token as the only credential. */
  const asToken = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    asUser(db, null, (tx) => tx.query<T>(text, params));
  const stateAs = (p: Persona | null, text: string, params: unknown[] = []) =>
    sqlState(() => rolledBack(db, p, (tx) => tx.query(text, params)));
  const rowsAs = async (p: Persona | null, text: string, params: unknown[] = []) =>
    (await rolledBack(db, p, (tx) => tx.query(text, params))).rows;

  async function newToken(p: Persona, organisation: string, label: string): Promise<{ token: string; id: string }> {
    const result = await asUser(db, p, (tx) =>
      tx.query<{ token: string; id: string }>('select token, id from private.create_scim_token($1, $2)', [organisation, label]));
    return result.rows[0];
  }

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Scimshire Police', 'SCP', 'UKPS'), ($2, 'Scimshire Ambulance', 'SCA', 'UKAS')`, [orgA, orgB]);
    await db.query(`insert into public.units (id, organisation_id, parent_id, name) values
      ($1, $2, null, 'North Area'), ($3, $4, null, 'East Division')`, [unitA, orgA, unitB, orgB]);
    const people: [Persona, string, string, string][] = [
      [orgAdminA, 'scim_admin_a', 'ADMIN', orgA], [learnerA, 'scim_learner_a', 'STUDENT', orgA],
      [orgAdminB, 'scim_admin_b', 'ADMIN', orgB], [managerB, 'scim_manager_b', 'STUDENT', orgB],
    ];
    for (const [p, username, role, org] of people) {
      await createUser(db, { id: p.id, email: p.email, username, name: username.replace(/_/g, ' '), role });
      await db.query('update public.profiles set organisation_id = $2 where id = $1', [p.id, org]);
    }
    ({ token: tokenA, id: tokenAId } = await newToken(orgAdminA, orgA, 'Entra ID'));
    ({ token: tokenB } = await newToken(national, orgB, 'Entra ID of B'));
    const created = await asToken<{ user: { id: string } }>(
      `select private.scim_create_user($1, '{"userName": "b.person@scimshire.example", "email": "b.person@scimshire.example",
        "givenName": "Bea", "familyName": "Person", "department": "East Division"}') as user`, [tokenB]);
    personB = created.rows[0].user.id;
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('public.scim_tokens and the token functions', () => {
    it('the organisation\'s administrator and national admins read its tokens; another organisation\'s admin, a learner and a visitor do not', async () => {
      const read = (p: Persona | null) => rowsAs(p, 'select label from public.scim_tokens where id = $1', [tokenAId]);
      expect(await read(orgAdminA)).toEqual([{ label: 'Entra ID' }]);
      expect(await read(national)).toEqual([{ label: 'Entra ID' }]);
      expect(await read(orgAdminB)).toEqual([]);
      expect(await read(learnerA)).toEqual([]);
      expect(await stateAs(null, 'select label from public.scim_tokens')).toBe('42501');
    });

    it('never lets anyone read the hash, and keeps no token in clear', async () => {
      for (const p of [orgAdminA, national, learnerA, null]) {
        expect(await stateAs(p, 'select token_hash from public.scim_tokens')).toBe('42501');
      }
      const [row] = (await db.query<{ hash_ok: boolean; hint: string; row: string }>(
        `select token_hash = sha256(convert_to($2, 'UTF8')) as hash_ok, token_hint as hint, t::text as row
         from public.scim_tokens t where id = $1`, [tokenAId, tokenA])).rows;
      expect(row.hash_ok).toBe(true);
      expect(row.hint).toBe(tokenA.slice(-4));
      expect(row.row).not.toContain(tokenA.slice(5));
      expect(tokenA).toMatch(TOKEN_PATTERN);
    });

    it('no API role writes tokens directly', async () => {
      for (const p of [orgAdminA, national, learnerA, null]) {
        expect(await stateAs(p, `insert into public.scim_tokens (organisation_id, label, token_hash, token_hint)
          values ($1, 'x', sha256('x'), 'abcd')`, [orgA])).toBe('42501');
        expect(await stateAs(p, 'update public.scim_tokens set revoked_at = null where id = $1', [tokenAId])).toBe('42501');
        expect(await stateAs(p, 'delete from public.scim_tokens where id = $1', [tokenAId])).toBe('42501');
      }
    });

    it('creating a token: refused to a learner, another organisation\'s admin and a visitor; its own admin and a national admin may', async () => {
      const make = 'select token from private.create_scim_token($1, $2)';
      expect(await stateAs(learnerA, make, [orgA, 'x'])).toBe('42501');
      expect(await stateAs(orgAdminB, make, [orgA, 'x'])).toBe('42501');
      expect(await stateAs(null, make, [orgA, 'x'])).toBe('42501');
      expect(await stateAs(orgAdminA, make, [orgA, ' '])).toBe('22023');
      expect(await stateAs(national, make, ['d0000000-0000-4000-a000-0000000000ff', 'x'])).toBe('P0002');
      const [made] = await rowsAs(orgAdminA, make, [orgA, 'Second']);
      expect(made.token).toMatch(TOKEN_PATTERN);
      expect((await rowsAs(national, make, [orgA, 'By national'])).length).toBe(1);
    });

    it('revoking: another organisation\'s admin finds no token, a learner is refused; the admin revokes and the token stops working at once', async () => {
      const { token, id } = await newToken(orgAdminA, orgA, 'To revoke');
      const revoke = 'select revoked_at from private.revoke_scim_token($1)';
      expect(await stateAs(orgAdminB, revoke, [id])).toBe('P0002');
      expect(await stateAs(learnerA, revoke, [id])).toBe('42501');
      expect(await stateAs(null, revoke, [id])).toBe('42501');
      expect((await asToken('select private.scim_list_users($1, null, null, 0, 10) as page', [token])).rows).toHaveLength(1);
      await asUser(db, orgAdminA, (tx) => tx.query(revoke, [id]));
      expect(await sqlState(() => asToken('select private.scim_list_users($1, null, null, 0, 10)', [token]))).toBe('28000');
      const events = await db.query(`select 1 from public.audit_events where action = 'scim_token.revoked' and new_data ->> 'tokenId' = $1`, [id]);
      expect(events.rows).toHaveLength(1);
    });

    it('notes the last use at most once a minute', async () => {
      await db.query('update public.scim_tokens set last_used_at = null where id = $1', [tokenAId]);
      await asToken('select private.scim_list_users($1, null, null, 0, 1)', [tokenA]);
      const first = (await db.query<{ at: Date }>('select last_used_at as at from public.scim_tokens where id = $1', [tokenAId])).rows[0].at;
      expect(first).not.toBeNull();
      await asToken('select private.scim_list_users($1, null, null, 0, 1)', [tokenA]);
      const second = (await db.query<{ at: Date }>('select last_used_at as at from public.scim_tokens where id = $1', [tokenAId])).rows[0].at;
      expect(new Date(second).getTime()).toBe(new Date(first).getTime());
      await db.query(`update public.scim_tokens set last_used_at = now() - interval '2 minutes' where id = $1`, [tokenAId]);
      await asToken('select private.scim_list_users($1, null, null, 0, 1)', [tokenA]);
      const third = (await db.query<{ old: boolean }>(`select last_used_at > now() - interval '1 minute' as old from public.scim_tokens where id = $1`, [tokenAId])).rows[0];
      expect(third.old).toBe(true);
    });
  });

  describe('every SCIM function checks the token itself', () => {
    const someone = 'd2000000-0000-4000-a000-000000000001';
    const calls: [string, unknown[]][] = [
      ['select private.scim_list_users($1, null, null, 0, 10)', []],
      ['select private.scim_get_user($1, $2)', [someone]],
      [`select private.scim_create_user($1, '{"userName": "intruder"}')`, []],
      [`select private.scim_replace_user($1, $2, '{"userName": "intruder"}')`, [someone]],
      [`select private.scim_patch_user($1, $2, '{"active": false}')`, [someone]],
      ['select private.scim_delete_user($1, $2)', [someone]],
      ['select private.scim_list_groups($1, null, 0, 10, true)', []],
      ['select private.scim_get_group($1, $2, true)', [unitA]],
      [`select private.scim_create_group($1, 'Intruders', '{}')`, []],
      ['select private.scim_patch_group($1, $2, $3, null, null, null)', [unitA, 'Renamed']],
      ['select private.scim_delete_group($1, $2)', [unitA]],
    ];

    it('refuses a missing, malformed, unknown or revoked token (28000), as anon and as anyone', async () => {
      const { token: revoked, id } = await newToken(orgAdminA, orgA, 'Revoked');
      await asUser(db, orgAdminA, (tx) => tx.query('select private.revoke_scim_token($1)', [id]));
      const bad = [null, '', 'Bearer x', 'scim_' + '0'.repeat(64), revoked, tokenA.toUpperCase()];
      for (const [text, params] of calls) {
        for (const token of bad) {
          expect(await sqlState(() => asToken(text, [token, ...params])), `${text} with ${token}`).toBe('28000');
        }
        // Granted to anon only: a signed-in caller goes through the same API as everyone.
        expect(await stateAs(learnerA, text, [tokenA, ...params])).toBe('42501');
      }
      // The internal pieces are granted to nobody.
      for (const fn of ['scim_token_organisation($1)', 'scim_user_page($1, null, null, null, 0, 1)']) {
        expect(await stateAs(null, `select private.${fn}`, [fn.startsWith('scim_user') ? orgA : tokenA])).toBe('42501');
      }
      expect(await stateAs(null, 'select * from private.scim_users')).toBe('42501');
    });

    it('a token of organisation A never reaches organisation B: its person and unit are not found, nothing of B changes', async () => {
      const before = (await db.query('select p.*, s.* from public.profiles p join private.scim_users s on s.profile_id = p.id where p.id = $1', [personB])).rows;
      const unitBefore = (await db.query('select * from public.units where id = $1', [unitB])).rows;
      const auditBefore = (await db.query<{ n: number }>('select count(*)::int as n from public.audit_events')).rows[0].n;
      const attempts: [string, unknown[]][] = [
        ['select private.scim_get_user($1, $2)', [personB]],
        [`select private.scim_replace_user($1, $2, '{"userName": "taken.over@example"}')`, [personB]],
        [`select private.scim_patch_user($1, $2, '{"active": false}')`, [personB]],
        ['select private.scim_delete_user($1, $2)', [personB]],
        ['select private.scim_get_group($1, $2, true)', [unitB]],
        ['select private.scim_patch_group($1, $2, $3, null, null, null)', [unitB, 'Taken over']],
        ['select private.scim_delete_group($1, $2)', [unitB]],
      ];
      for (const [text, params] of attempts) {
        expect(await sqlState(() => asToken(text, [tokenA, ...params])), text).toBe('P0002');
      }
      // Not in A's lists either, by filter or page.
      const listed = await asToken<{ page: { total: number } }>(`select private.scim_list_users($1, 'b.person@scimshire.example', null, 0, 10) as page`, [tokenA]);
      expect(listed.rows[0].page.total).toBe(0);
      const groups = await asToken<{ page: { total: number } }>(`select private.scim_list_groups($1, 'East Division', 0, 10, true) as page`, [tokenA]);
      expect(groups.rows[0].page.total).toBe(0);
      // B's person cannot be made a member of A's unit, nor the manager of A's person; B's unit is no department of A.
      expect(await sqlState(() => asToken('select private.scim_patch_group($1, $2, null, $3, null, null)', [tokenA, unitA, `{${personB}}`]))).toBe('22023');
      expect(await sqlState(() => asToken(`select private.scim_create_user($1, $2::text::jsonb)`,
        [tokenA, JSON.stringify({ userName: 'a.one@example', manager: managerB.id })]))).toBe('22023');
      expect(await sqlState(() => asToken(`select private.scim_create_user($1, $2::text::jsonb)`,
        [tokenA, JSON.stringify({ userName: 'a.two@example', department: 'East Division' })]))).toBe('22023');
      expect((await db.query('select p.*, s.* from public.profiles p join private.scim_users s on s.profile_id = p.id where p.id = $1', [personB])).rows).toEqual(before);
      expect((await db.query('select * from public.units where id = $1', [unitB])).rows).toEqual(unitBefore);
      expect((await db.query<{ n: number }>('select count(*)::int as n from public.audit_events')).rows[0].n).toBe(auditBefore);
    });
  });

  describe('what a token does in its own organisation', () => {
    it('creates a passwordless STUDENT of the organisation\'s service, placed by department and manager, audited with the token as actor', async () => {
      const created = await asToken<{ user: Record<string, unknown> }>('select private.scim_create_user($1, $2::text::jsonb) as user', [tokenA, JSON.stringify({
        userName: 'Casey.Jones@scimshire.example', externalId: 'hr-1001', givenName: 'Casey', familyName: 'Jones',
        email: 'Casey.Jones@scimshire.example', department: 'north area', manager: orgAdminA.id, active: true,
      })]);
      const user = created.rows[0].user;
      expect(user).toMatchObject({ userName: 'Casey.Jones@scimshire.example', externalId: 'hr-1001', displayName: 'Casey Jones', active: true });
      const [row] = (await db.query(`select p.role, p.services::text[] as services, p.organisation_id, p.unit_id, p.manager_id, p.email,
          p.must_change_password, u.encrypted_password from public.profiles p join auth.users u on u.id = p.id where p.id = $1`, [user.id])).rows;
      expect(row).toEqual({ role: 'STUDENT', services: ['UKPS'], organisation_id: orgA, unit_id: unitA, manager_id: orgAdminA.id,
        email: 'casey.jones@scimshire.example', must_change_password: false, encrypted_password: null });
      const audit = (await db.query(`select actor_id, actor_name, actor_username from public.audit_events
        where action = 'user.created' and target_id = $1`, [user.id])).rows;
      expect(audit).toEqual([{ actor_id: null, actor_name: 'SCIM: Entra ID', actor_username: 'scim' }]);
      // The same userName (any case) or externalId again is taken.
      expect(await sqlState(() => asToken('select private.scim_create_user($1, $2::text::jsonb)', [tokenA, JSON.stringify({ userName: 'casey.jones@SCIMSHIRE.example' })]))).toBe('23505');
      expect(await sqlState(() => asToken('select private.scim_create_user($1, $2::text::jsonb)', [tokenA, JSON.stringify({ userName: 'other', externalId: 'hr-1001' })]))).toBe('23505');
      // Another organisation may hold the same userName: it is unique within an organisation.
      const elsewhere = await asToken<{ user: { id: string } }>('select private.scim_create_user($1, $2::text::jsonb) as user', [tokenB, JSON.stringify({ userName: 'Casey.Jones@scimshire.example' })]);
      expect(elsewhere.rows[0].user.id).not.toBe(user.id);
    });

    it('deactivating through SCIM has set_user_active\'s effects: banned, every session gone, audited; an update that changes nothing writes nothing', async () => {
      const created = await asToken<{ user: { id: string } }>('select private.scim_create_user($1, $2::text::jsonb) as user', [tokenA, JSON.stringify({ userName: 'leaver@scimshire.example', email: 'leaver@scimshire.example' })]);
      const id = created.rows[0].user.id;
      await db.query(`insert into auth.sessions (id, user_id, created_at, updated_at, aal) values (gen_random_uuid(), $1, now(), now(), 'aal1')`, [id]);
      await asToken(`select private.scim_patch_user($1, $2, '{"active": false}')`, [tokenA, id]);
      const [state] = (await db.query(`select p.deactivated_at is not null as deactivated, u.banned_until > now() as banned,
          (select count(*)::int from auth.sessions s where s.user_id = p.id) as sessions
        from public.profiles p join auth.users u on u.id = p.id where p.id = $1`, [id])).rows;
      expect(state).toEqual({ deactivated: true, banned: true, sessions: 0 });
      const count = async () => (await db.query<{ n: number }>('select count(*)::int as n from public.audit_events where target_id = $1', [id])).rows[0].n;
      const events = await count();
      await asToken(`select private.scim_patch_user($1, $2, '{"active": false}')`, [tokenA, id]);
      await asToken(`select private.scim_replace_user($1, $2, '{"userName": "leaver@scimshire.example", "email": "leaver@scimshire.example", "active": false}')`, [tokenA, id]);
      expect(await count()).toBe(events);
      // DELETE keeps the person and their records, deactivated, and SCIM no longer finds them.
      await asToken('select private.scim_delete_user($1, $2)', [tokenA, id]);
      expect((await db.query('select 1 from public.profiles where id = $1', [id])).rows).toHaveLength(1);
      expect(await sqlState(() => asToken('select private.scim_get_user($1, $2)', [tokenA, id]))).toBe('P0002');
      // Back with the same email (a new userName and externalId): the same person, active again.
      const back = await asToken<{ user: { id: string; active: boolean; userName: string } }>('select private.scim_create_user($1, $2::text::jsonb) as user',
        [tokenA, JSON.stringify({ userName: 'returner@scimshire.example', externalId: 'hr-2002', email: 'Leaver@scimshire.example' })]);
      expect(back.rows[0].user).toMatchObject({ id, active: true, userName: 'returner@scimshire.example' });
      const [again] = (await db.query(`select p.deactivated_at is null as active, u.banned_until is null as unbanned
        from public.profiles p join auth.users u on u.id = p.id where p.id = $1`, [id])).rows;
      expect(again).toEqual({ active: true, unbanned: true });
      // Another organisation's token cannot claim them by their email: it makes nobody of its own either (the email is taken).
      expect(await sqlState(() => asToken('select private.scim_create_user($1, $2::text::jsonb)',
        [tokenB, JSON.stringify({ userName: 'claimer', email: 'leaver@scimshire.example' })]))).toBe('23505');
    });

    it('a department is the unit of that name nearest the root, then the oldest, ignoring case; an unknown one is refused', async () => {
      const unit = (n: number) => `d1000000-0000-4000-a000-0000000000a${n}`;
      const rollback = new Error('rolled back');
      const placed: Record<string, unknown> = {};
      try {
        await db.transaction(async (tx) => {
          // Under a new West Area: a station with a Blue Watch (the oldest), a Blue Watch one level
          // nearer the root, and a Red Watch older than North Area's.
          const units: [string, string | null, string, string][] = [
            [unit(1), null, 'West Area', '4 days'], [unit(2), unit(1), 'West Station', '4 days'],
            [unit(3), unit(2), 'Blue Watch', '3 days'], [unit(4), unit(1), 'Blue Watch', '2 days'],
            [unit(5), unit(1), 'Red Watch', '2 days'], [unit(6), unitA, 'red watch', '1 day'],
          ];
          for (const [id, parent, name, age] of units) {
            await tx.query(`insert into public.units (id, organisation_id, parent_id, name, created_at)
              values ($1, $2, $3, $4, now() - $5::interval)`, [id, orgA, parent, name, age]);
          }
          await tx.query('set local role anon');
          await tx.query(`select set_config('request.jwt.claims', '{"role":"anon"}', true)`);
          const made = await tx.query<{ user: { id: string } }>('select private.scim_create_user($1, $2::text::jsonb) as user',
            [tokenA, JSON.stringify({ userName: 'watch.member@scimshire.example', department: 'BLUE WATCH' })]);
          const id = made.rows[0].user.id;
          const unitNow = async () => {
            await tx.query('reset role');
            const row = (await tx.query<{ unit_id: string }>('select unit_id from public.profiles where id = $1', [id])).rows[0];
            await tx.query('set local role anon');
            return row.unit_id;
          };
          placed.blue = await unitNow();
          await tx.query(`select private.scim_patch_user($1, $2, '{"department": "Red Watch"}')`, [tokenA, id]);
          placed.red = await unitNow();
          await tx.query('savepoint unknown');
          placed.unknown = await sqlState(() => tx.query(`select private.scim_patch_user($1, $2, '{"department": "Green Watch"}')`, [tokenA, id]));
          await tx.query('rollback to savepoint unknown');
          throw rollback;
        });
      } catch (error) {
        if (error !== rollback) throw error;
      }
      expect(placed).toEqual({ blue: unit(4), red: unit(5), unknown: '22023' });
    });
  });
});
