// Sign-in through an organisation's identity provider, straight at the database as Auth and a client
// of the database API reach it (supabase/schemas/24_organisation_sign_in.sql): who gives domains and
// sets up an organisation's sign-in (proven both ways), that Auth's hooks let only the organisation
// that configured a tenant or SAML provider, and owns the address's domain, receive a person, that
// a sign-in while testing is kept and refused, and that password sign-in can be switched off for an
// organisation's people but never for its administrators.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asUser, backends, createUser, personas, rolledBack, sqlState, type Persona, type TestDatabase,
} from './helpers/database';

const national = personas.admin;
const person = (n: number, email: string): Persona => ({ id: `00000000-0000-4000-a000-00000000e${String(n).padStart(3, '0')}`, email });
const adminA = person(1, 'admin@northshire.example.uk');
const sergeantA = person(2, 'sergeant@northshire.example.uk');
const adminB = person(3, 'admin@southshire.example.uk');
const learnerA = person(4, 'learner@northshire.example.uk');

const orgA = 'e0000000-0000-4000-a000-000000000001';
const orgB = 'e0000000-0000-4000-a000-000000000002';
const unitA = 'e1000000-0000-4000-a000-000000000001';
const tenantA = '6f1c2b7e-3d4a-4e8b-9c21-5a7d0e4f8b13';
const tenantB = '11111111-2222-4333-8444-555555555555';
const samlB = 'e2000000-0000-4000-a000-000000000002';

/** What Auth's azure provider keeps of an Entra ID sign-in (platform/auth/oauth.mjs azureUserData). */
function entraClaims(email: string, tid: string, extra: Record<string, unknown> = {}) {
  return {
    iss: `https://login.microsoftonline.com/${tid}/v2.0`, sub: `sub-${email}`, provider_id: `sub-${email}`, email,
    full_name: 'PC Amira Khan', email_verified: true,
    custom_claims: { tid, oid: 'a1b2c3d4-0001-4f00-8a00-000000004471', department: 'Response Team 1', manager: sergeantA.email, employeeid: 'NP4471', ...extra },
  };
}

function hookEvent(provider: string, email: string, claims: Record<string, unknown>) {
  return { metadata: { name: 'before-user-created' }, user: { email, app_metadata: { provider, providers: [provider] }, user_metadata: claims } };
}

describe.each(backends)('organisation sign-in in the database on $name', ({ create }) => {
  let db: TestDatabase;

  const stateAs = (p: Persona | null, text: string, params: unknown[] = []) =>
    sqlState(() => rolledBack(db, p, (tx) => tx.query(text, params)));
  const rowsAs = async (p: Persona | null, text: string, params: unknown[] = []) =>
    (await rolledBack(db, p, (tx) => tx.query(text, params))).rows;
  /** Auth's hook as Auth calls it (supabase_auth_admin). */
  const beforeUserCreated = async (event: unknown) =>
    (await db.query<{ r: { error?: { http_code: number; message: string } } }>(
      'select private.before_user_created(($1::text)::jsonb) as r', [JSON.stringify(event)])).rows[0].r;
  /** A user as Auth creates one from a provider's sign-in. */
  const authCreates = (id: string, provider: string, email: string, claims: Record<string, unknown>) =>
    db.query(`insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
        raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user)
      values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(),
        jsonb_build_object('provider', $3::text, 'providers', jsonb_build_array($3::text)), ($4::text)::jsonb, now(), now(), $5)`,
    [id, email, provider, JSON.stringify(claims), provider.startsWith('sso:')]);
  const accessToken = async (userId: string, method: string, amr: string) =>
    (await db.query<{ r: { error?: { http_code: number; message: string }; claims?: unknown } }>(
      'select private.custom_access_token(($1::text)::jsonb) as r',
      [JSON.stringify({ user_id: userId, authentication_method: method, claims: { sub: userId, amr: [{ method: amr, timestamp: 1 }] } })])).rows[0].r;

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Northshire Police', 'NSX', 'UKPS'), ($2, 'Southshire Ambulance', 'SSX', 'UKAS')`, [orgA, orgB]);
    await db.query(`insert into public.units (id, organisation_id, parent_id, name) values ($1, $2, null, 'Response Team 1')`, [unitA, orgA]);
    const people: [Persona, string, string, string][] = [
      [adminA, 'nsx_admin', 'ADMIN', orgA], [sergeantA, 'nsx_sergeant', 'STUDENT', orgA],
      [adminB, 'ssx_admin', 'ADMIN', orgB], [learnerA, 'nsx_learner', 'STUDENT', orgA],
    ];
    for (const [p, username, role, org] of people) {
      await createUser(db, { id: p.id, email: p.email, username, name: username, role });
      await db.query('update public.profiles set organisation_id = $2 where id = $1', [p.id, org]);
    }
    await db.query(`update public.profiles set employee_number = 'NP3058' where id = $1`, [sergeantA.id]);
  });

  afterAll(async () => {
    await db?.close();
  });

  it('lets only national administrators give and take domains, each domain one organisation\'s', async () => {
    expect(await stateAs(adminA, `insert into public.organisation_domains (domain, organisation_id) values ('northshire.example.uk', $1)`, [orgA])).toBe('42501');
    await asUser(db, national, (tx) => tx.query(`insert into public.organisation_domains (domain, organisation_id)
      values ('northshire.example.uk', $1), ('southshire.example.uk', $2)`, [orgA, orgB]));
    expect(await stateAs(national, `insert into public.organisation_domains (domain, organisation_id) values ('northshire.example.uk', $1)`, [orgB])).toBe('23505');
    expect(await stateAs(national, `insert into public.organisation_domains (domain, organisation_id) values ('Not A Domain', $1)`, [orgB])).toBe('23514');
    expect(await rowsAs(adminA, 'select domain from public.organisation_domains')).toEqual([{ domain: 'northshire.example.uk' }]);
    expect(await rowsAs(learnerA, 'select domain from public.organisation_domains')).toEqual([]);
    expect((await rowsAs(adminA, 'delete from public.organisation_domains returning domain'))).toEqual([]);
  });

  it('lets an organisation\'s administrators set up its sign-in, not another\'s, and never switch it on untested', async () => {
    expect(await stateAs(adminB, `insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id) values ($1, 'oidc', $2)`, [orgA, tenantA])).toBe('42501');
    expect(await stateAs(learnerA, `insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id) values ($1, 'oidc', $2)`, [orgA, tenantA])).toBe('42501');
    expect(await stateAs(adminA, `insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id, enabled) values ($1, 'oidc', $2, true)`, [orgA, tenantA])).toBe('23514');
    expect(await stateAs(adminA, `insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id, new_person_services) values ($1, 'oidc', $2, '{UKAS}')`, [orgA, tenantA])).toBe('23514');
    expect(await stateAs(adminA, `insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id, new_person_role) values ($1, 'oidc', $2, 'ADMIN')`, [orgA, tenantA])).toBe('23514');
    expect(await stateAs(adminA, `insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id, attribute_mapping) values ($1, 'oidc', $2, '{"password": "x"}')`, [orgA, tenantA])).toBe('23514');
    await asUser(db, adminA, (tx) => tx.query(`insert into public.organisation_sign_in
      (organisation_id, protocol, oidc_tenant_id, attribute_mapping, new_person_services)
      values ($1, 'oidc', $2, '{"unit": "department", "manager": "manager", "employee_number": "employeeid"}', '{UKPS}')`, [orgA, tenantA]));
    // The SAML provider and the test result are not the administrators' to write.
    expect(await stateAs(adminA, 'update public.organisation_sign_in set tested_at = now()')).toBe('42501');
    expect(await stateAs(adminB, `insert into public.organisation_sign_in (organisation_id, protocol, saml_provider_id) values ($1, 'saml', $2)`, [orgB, samlB])).toBe('42501');
    await asUser(db, adminB, (tx) => tx.query(`insert into public.organisation_sign_in (organisation_id, protocol, attribute_mapping, new_person_services)
      values ($1, 'saml', '{"unit": "department"}', '{UKAS}')`, [orgB]));
    expect(await stateAs(adminB, 'select private.record_saml_provider($1, $2, null)', [orgB, samlB])).toBe('42501');
    await db.query('select private.record_saml_provider($1, $2, $3)', [orgB, samlB, 'http://127.0.0.1:54331/metadata']);
    expect(await rowsAs(adminB, 'select organisation_id from public.organisation_sign_in')).toEqual([{ organisation_id: orgB }]);
    expect(await rowsAs(adminA, `update public.organisation_sign_in set oidc_tenant_id = $1 where organisation_id = $2 returning 1`, [tenantB, orgB])).toEqual([]);
    expect(await stateAs(adminA, 'update public.organisation_sign_in set enabled = true where organisation_id = $1', [orgA])).toBe('23514');
  });

  it('refuses a provider\'s person no organisation configured, or at another organisation\'s domain', async () => {
    const stranger = await beforeUserCreated(hookEvent('azure', 'someone@northshire.example.uk', entraClaims('someone@northshire.example.uk', tenantB)));
    expect(stranger.error).toMatchObject({ http_code: 403, message: expect.stringMatching(/No organisation here signs its people in/) });
    // Northshire's tenant asserting an address at Southshire's domain places nobody anywhere: while
    // Northshire tests, the attempt is kept as a failed test.
    const crossing = await beforeUserCreated(hookEvent('azure', 'x@southshire.example.uk', entraClaims('x@southshire.example.uk', tenantA)));
    expect(crossing.error?.http_code).toBe(403);
    expect(await rowsAs(adminA, `select passed, mapped ->> 'problem' as problem from public.sign_in_tests`))
      .toEqual([{ passed: false, problem: 'The address x@southshire.example.uk is not at one of Northshire Police\'s email domains.' }]);
    // Southshire's SAML provider asserting a Northshire address: a failed test of Southshire's, nobody placed.
    const samlCrossing = await beforeUserCreated(hookEvent(`sso:${samlB}`, 'z@northshire.example.uk', { email: 'z@northshire.example.uk', custom_claims: { department: 'Response Team 1' } }));
    expect(samlCrossing.error?.http_code).toBe(403);
    expect(await rowsAs(adminB, `select passed, mapped ->> 'problem' as problem from public.sign_in_tests`))
      .toEqual([{ passed: false, problem: 'The address z@northshire.example.uk is not at one of Southshire Ambulance\'s email domains.' }]);
    const unknownSaml = await beforeUserCreated(hookEvent('sso:e2000000-0000-4000-a000-0000000000ff', 'p@southshire.example.uk', { email: 'p@southshire.example.uk' }));
    expect(unknownSaml.error?.http_code).toBe(403);
    expect(await sqlState(() => authCreates('00000000-0000-4000-a000-00000000e0f1', 'azure', 'x@southshire.example.uk',
      entraClaims('x@southshire.example.uk', tenantA)))).toBe('42501');
    expect((await db.query('select 1 from public.profiles where email = $1', ['x@southshire.example.uk'])).rows).toEqual([]);
  });

  it('keeps a sign-in while testing, refuses it, and lets a passed test switch sign-in on', async () => {
    const email = 'amira.khan@northshire.example.uk';
    const refusal = await beforeUserCreated(hookEvent('azure', email, entraClaims(email, tenantA)));
    expect(refusal.error).toMatchObject({ http_code: 403, message: expect.stringMatching(/being tested/) });
    // Nor can Auth create the person while it is off, hook or no hook.
    expect(await sqlState(() => authCreates('00000000-0000-4000-a000-00000000e0f2', 'azure', email, entraClaims(email, tenantA)))).toBe('42501');
    const [test] = await rowsAs(adminA, 'select email, passed, mapped from public.sign_in_tests order by created_at desc limit 1') as
      { email: string; passed: boolean; mapped: Record<string, unknown> }[];
    expect(test).toMatchObject({ email, passed: true, mapped: { unit: 'Response Team 1', unit_id: unitA, manager_id: sergeantA.id, employee_number: 'NP4471', name: 'PC Amira Khan' } });
    expect(await rowsAs(adminB, 'select 1 from public.sign_in_tests where organisation_id = $1', [orgA])).toEqual([]);
    expect(await rowsAs(learnerA, 'select 1 from public.sign_in_tests')).toEqual([]);
    const activity = await rowsAs(adminA, `select action, actor_name from public.audit_events where target_id = $1 order by id desc limit 1`, [orgA]);
    expect(activity).toEqual([{ action: 'sign_in.tested', actor_name: 'Northshire Police sign-in' }]);
    await asUser(db, adminA, (tx) => tx.query('update public.organisation_sign_in set enabled = true, password_sign_in = false where organisation_id = $1', [orgA]));
  });

  it('creates a new officer in the organisation, unit and with the manager the provider names, audited with its source', async () => {
    const email = 'amira.khan@northshire.example.uk';
    const id = '00000000-0000-4000-a000-00000000e0f3';
    expect(await beforeUserCreated(hookEvent('azure', email, entraClaims(email, tenantA)))).toEqual({});
    await authCreates(id, 'azure', email, entraClaims(email, tenantA));
    const [profile] = (await db.query('select organisation_id, unit_id, manager_id, role, services, name, employee_number from public.profiles where id = $1', [id])).rows;
    expect(profile).toEqual({ organisation_id: orgA, unit_id: unitA, manager_id: sergeantA.id, role: 'STUDENT', services: ['UKPS'], name: 'PC Amira Khan', employee_number: 'NP4471' });
    const events = await rowsAs(adminA, `select action, actor_name, new_data ->> 'source' as source from public.audit_events where target_id = $1`, [id]);
    expect(events).toEqual([{ action: 'user.created', actor_name: 'Northshire Police sign-in', source: 'OpenID Connect' }]);

    // A later sign-in: the identity's data changes (a move), and the person follows.
    await db.query(`insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
      values ($1, $2, ($3::text)::jsonb, 'azure', now(), now())`, [`sub-${email}`, id, JSON.stringify(entraClaims(email, tenantA))]);
    await db.query(`update auth.identities set identity_data = ($2::text)::jsonb where user_id = $1`,
      [id, JSON.stringify(entraClaims(email, tenantA, { department: 'Nowhere', manager: 'NP3058' }))]);
    const [after] = (await db.query('select unit_id, manager_id from public.profiles where id = $1', [id])).rows;
    expect(after).toEqual({ unit_id: unitA, manager_id: sergeantA.id });
    // Nor can the person move themselves by editing what they may edit (user_metadata).
    expect(await stateAs({ id, email }, 'update public.profiles set employee_number = $2 where id = $1', [id, 'X1'])).toBe('42501');
  });

  it('refuses, once switched on, an address already an account\'s (never linked silently) or at another organisation\'s domain', async () => {
    const refusal = await beforeUserCreated(hookEvent('azure', learnerA.email, entraClaims(learnerA.email, tenantA)));
    expect(refusal.error?.message).toMatch(/already exists/);
    const crossing = await beforeUserCreated(hookEvent('azure', 'y@southshire.example.uk', entraClaims('y@southshire.example.uk', tenantA)));
    expect(crossing.error?.message).toBe('The address y@southshire.example.uk is not at one of Northshire Police\'s email domains.');
    expect(await rowsAs(adminA, `select action from public.audit_events where target_id = $1 and action = 'sign_in.refused'`, [orgA]))
      .toEqual([{ action: 'sign_in.refused' }, { action: 'sign_in.refused' }]);
  });

  it('links the provider to an existing account only for a person of its organisation (Auth\'s manual linking)', async () => {
    const identity = (p: Persona, provider: string, data: Record<string, unknown>) =>
      db.query(`insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
        values ($1, $2, ($3::text)::jsonb, $4, now(), now())`, [`${provider}-${p.id}`, p.id, JSON.stringify(data), provider]);
    for (const p of [learnerA, adminB]) await identity(p, 'email', { sub: p.id, email: p.email });
    await identity(learnerA, 'azure', entraClaims(learnerA.email, tenantA));
    expect(await rowsAs(adminA, `select action from public.audit_events where action = 'sign_in.linked' and target_id = $1`, [learnerA.id]))
      .toEqual([{ action: 'sign_in.linked' }]);
    // Southshire's administrator cannot take Northshire's provider as their own sign-in.
    expect(await sqlState(() => identity(adminB, 'azure', entraClaims('x1@northshire.example.uk', tenantA)))).toBe('42501');
    expect((await db.query(`select 1 from auth.identities where user_id = $1 and provider = 'azure'`, [adminB.id])).rows).toEqual([]);
  });

  it('switches password sign-in off for the organisation\'s people, not for its administrators', async () => {
    expect((await accessToken(learnerA.id, 'password', 'password')).error).toMatchObject({ http_code: 403, message: expect.stringMatching(/Sign in with your organisation/) });
    expect((await accessToken(learnerA.id, 'token_refresh', 'password')).error?.http_code).toBe(403);
    expect((await accessToken(adminA.id, 'password', 'password')).claims).toBeTruthy();
    expect((await accessToken(adminB.id, 'password', 'password')).claims).toBeTruthy();
    const through = await accessToken('00000000-0000-4000-a000-00000000e0f3', 'oauth', 'oauth');
    expect(through.error).toBeUndefined();
    const [signIn] = await rowsAs(adminA, `select action, actor_name from public.audit_events where action = 'sign_in.succeeded'`);
    expect(signIn).toEqual({ action: 'sign_in.succeeded', actor_name: 'PC Amira Khan' });
  });

  it('tells the sign-in page which way a work address signs in, once it is switched on', async () => {
    expect(await rowsAs(null, `select * from private.organisation_sign_in_for('Someone@Northshire.example.uk')`))
      .toEqual([{ protocol: 'oidc', organisation_name: 'Northshire Police', domain: 'northshire.example.uk', password_sign_in: false }]);
    expect(await rowsAs(null, `select * from private.organisation_sign_in_for('p@southshire.example.uk')`)).toEqual([]);
    // A new provider needs a new test: the change switches sign-in off and passwords back on.
    await asUser(db, adminA, (tx) => tx.query('update public.organisation_sign_in set oidc_tenant_id = $2 where organisation_id = $1', [orgA, tenantB]));
    expect((await db.query('select enabled, password_sign_in, tested_at from public.organisation_sign_in where organisation_id = $1', [orgA])).rows)
      .toEqual([{ enabled: false, password_sign_in: true, tested_at: null }]);
  });
});
