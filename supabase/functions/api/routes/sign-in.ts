// Sign-in through an organisation's own identity provider:
//   /api/organisations/:id/sign-in   its settings (GET, PUT, DELETE), switching it on (POST /switch)
//   /api/organisations/:id/domains   its email domains (POST, DELETE /:domain; national administrators)
//   /api/sign-in/organisation        how a work address signs in (anyone, for the sign-in page)
// The database decides who may change what (supabase/schemas/24_organisation_sign_in.sql); the
// routes add what only the function can do: registering an organisation's SAML provider with Auth's
// admin API (the service role key never leaves the server) and recording it.
import { type Context, Hono } from 'hono';
import {
  type AttributeMapping, domainSchema, type OrganisationSignIn, type OrganisationSignInOption, type SignInProtocol,
  signInSettingsSchema, type SignInTest, signInSwitchSchema,
} from '../../_shared/sign-in.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser, visitor } from '../lib/auth.ts';
import { jsonBody, validate } from '../lib/body.ts';
import { ApiError, fromSqlFunction, pgError } from '../lib/errors.ts';
import { pathId } from '../lib/params.ts';
import { forbidden, peopleAdmin, pgArray } from '../lib/admin.ts';
import { z } from 'zod';

const NO_ORGANISATION = 'Organisation not found';
const UNTESTED = 'Run a test sign-in that passes before switching it on';
/** Where Entra ID's SAML tokens carry the email, unless an organisation maps it otherwise. */
const SAML_EMAIL_ATTRIBUTES = ['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'email', 'mail'];
const SAML_NAME_ATTRIBUTE = 'http://schemas.microsoft.com/identity/claims/displayname';

interface SettingsRow {
  protocol: SignInProtocol;
  oidcTenantId: string | null;
  samlMetadataUrl: string | null;
  samlProviderId: string | null;
  attributeMapping: AttributeMapping;
  newPersonRole: 'STUDENT' | 'INSTRUCTOR';
  newPersonServices: string[];
  enabled: boolean;
  passwordSignIn: boolean;
  testedAt: Date | null;
  updatedAt: Date;
}

interface TestRow {
  id: string;
  createdAt: Date;
  email: string;
  passed: boolean;
  /** jsonb as text (see readSettingsRow) */
  received: string;
  mapped: string;
}

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** 403 for anyone but an administrator, 404 for an organisation the caller does not administer. */
async function administeredOrganisation(tx: Tx, id: string): Promise<{ national: boolean }> {
  const admin = await peopleAdmin(tx);
  if (!admin) throw forbidden("Only the organisation's administrators may manage its sign-in");
  if (!admin.national && admin.organisationId !== id) throw new ApiError(404, NO_ORGANISATION);
  const [found] = await tx`select 1 from public.organisations where id = ${id}`;
  if (!found) throw new ApiError(404, NO_ORGANISATION);
  return { national: admin.national };
}

function toTest(row: TestRow): SignInTest {
  const m = JSON.parse(row.mapped) as Record<string, unknown>;
  return {
    id: row.id,
    createdAt: iso(row.createdAt)!,
    email: row.email,
    passed: row.passed,
    problem: text(m.problem),
    received: JSON.parse(row.received) as Record<string, unknown>,
    mapped: {
      name: text(m.name),
      unit: text(m.unit),
      manager: text(m.manager),
      employeeNumber: text(m.employee_number),
      role: text(m.role),
      services: Array.isArray(m.services) ? m.services.map(String) : [],
      notes: Array.isArray(m.notes) ? m.notes.map(String) : [],
    },
  };
}

async function readSettingsRow(tx: Tx, id: string): Promise<SettingsRow | undefined> {
  const [row] = await tx<SettingsRow[]>`
    select protocol, oidc_tenant_id, saml_metadata_url, saml_provider_id, attribute_mapping::text as attribute_mapping,
      new_person_role, new_person_services, enabled, password_sign_in, tested_at, updated_at
    from public.organisation_sign_in where organisation_id = ${id}`;
  // jsonb is read as text: the driver's camelCase transform would rename the keys inside it.
  return row ? { ...row, attributeMapping: JSON.parse(row.attributeMapping as unknown as string) } : undefined;
}

/** The organisation's sign-in as its administrators see it (read under their row-level security). */
async function readSignIn(tx: Tx, config: Config, id: string): Promise<OrganisationSignIn> {
  const [settings, domains, tests] = await Promise.all([
    readSettingsRow(tx, id),
    tx<{ domain: string }[]>`select domain from public.organisation_domains where organisation_id = ${id} order by domain`,
    tx<TestRow[]>`select id, created_at, email, passed, received::text as received, mapped::text as mapped from public.sign_in_tests
      where organisation_id = ${id} order by created_at desc, id limit 5`,
  ]);
  const auth = `${config.supabaseUrl}/auth/v1`;
  return {
    organisationId: id,
    domains: domains.map((d) => d.domain),
    settings: settings
      ? {
        protocol: settings.protocol,
        tenantId: settings.oidcTenantId,
        samlMetadataUrl: settings.samlMetadataUrl,
        samlRegistered: settings.samlProviderId !== null,
        attributeMapping: settings.attributeMapping ?? {},
        newPersonRole: settings.newPersonRole,
        newPersonServices: settings.newPersonServices,
        enabled: settings.enabled,
        passwordSignIn: settings.passwordSignIn,
        testedAt: iso(settings.testedAt),
        updatedAt: iso(settings.updatedAt)!,
      }
      : null,
    tests: tests.map(toTest),
    provider: { redirectUri: `${auth}/callback`, samlEntityId: `${auth}/sso/saml/metadata`, samlAcsUrl: `${auth}/sso/saml/acs` },
  };
}

/** Auth's admin API for SSO providers, with the service role key (hosted and local alike). */
async function authAdmin(config: Config, method: string, path: string, body?: unknown): Promise<Response> {
  try {
    return await fetch(`${config.supabaseUrl}/auth/v1/admin/sso/providers${path}`, {
      method,
      headers: { apikey: config.serviceRoleKey, authorization: `Bearer ${config.serviceRoleKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw new ApiError(502, 'Sign-in could not reach Supabase Auth to register the provider. Try again.');
  }
}

/** GoTrue's attribute mapping: our keys, each from the attribute the organisation names. */
function samlAttributeMapping(mapping: AttributeMapping) {
  const keys: Record<string, { name?: string; names?: string[] }> = { email: { names: SAML_EMAIL_ATTRIBUTES } };
  keys.name = { name: mapping.name ?? SAML_NAME_ATTRIBUTE };
  for (const field of ['unit', 'manager', 'employee_number'] as const) {
    const name = mapping[field];
    if (name) keys[field] = { name };
  }
  return { keys };
}

/**
 * Registers (or updates) the organisation's SAML provider with Auth, for its domains; answers the
 * provider's id. Auth's refusals of the metadata come back as the field's message.
 */
async function registerSamlProvider(
  config: Config,
  existing: string | null,
  input: { samlMetadataUrl?: string | null; samlMetadataXml?: string | null; attributeMapping: AttributeMapping },
  domains: string[],
): Promise<string> {
  const body = {
    type: 'saml',
    ...(input.samlMetadataXml ? { metadata_xml: input.samlMetadataXml } : { metadata_url: input.samlMetadataUrl }),
    domains,
    attribute_mapping: samlAttributeMapping(input.attributeMapping),
  };
  let response = existing ? await authAdmin(config, 'PUT', `/${existing}`, body) : await authAdmin(config, 'POST', '', body);
  if (existing && response.status === 404) response = await authAdmin(config, 'POST', '', body);
  const answer = await response.json().catch(() => ({})) as { id?: string; msg?: string; message?: string };
  if (response.ok && typeof answer.id === 'string') return answer.id;
  const reason = answer.msg ?? answer.message ?? 'Auth refused the metadata';
  const field = input.samlMetadataXml ? 'samlMetadataXml' : 'samlMetadataUrl';
  if (response.status >= 400 && response.status < 500) throw new ApiError(400, 'Validation failed', { [field]: reason });
  throw new ApiError(502, `Supabase Auth could not register the provider: ${reason}`);
}

/** The SAML provider's domains follow the organisation's. */
async function syncSamlDomains(config: Config, providerId: string | null, domains: string[]): Promise<void> {
  if (!providerId) return;
  const response = await authAdmin(config, 'PUT', `/${providerId}`, { domains });
  if (!response.ok && response.status !== 404) {
    const answer = await response.json().catch(() => ({})) as { msg?: string };
    throw new ApiError(502, `Supabase Auth could not update the provider's domains: ${answer.msg ?? response.status}`);
  }
}

/** A settings write the database refused, as field messages. */
function settingsRefusal(error: unknown): never {
  const pg = pgError(error);
  if (pg?.code === '23514' && pg.hint === 'services') {
    throw new ApiError(400, 'Validation failed', { newPersonServices: "New people can be given only the organisation's own service" });
  }
  if (pg?.code === '23514' && /enabled/.test(pg.constraint_name ?? '')) throw new ApiError(409, UNTESTED);
  if (pg?.code === '23514' && pg.constraint_name === 'organisation_sign_in_password_off') {
    throw new ApiError(400, 'Validation failed', { passwordSignIn: 'Password sign-in can be switched off only while sign-in through the provider is on' });
  }
  fromSqlFunction(error);
}

export function organisationSignInRoutes(config: Config, db: Db) {
  const app = new Hono<Env>();

  app.get('/', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const answer = await db.withCaller(caller.db, async (tx) => {
      await administeredOrganisation(tx, id);
      return readSignIn(tx, config, id);
    });
    return c.json(answer);
  });

  app.put('/', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const input = await jsonBody(c, signInSettingsSchema);
    const mapping = Object.fromEntries(Object.entries(input.attributeMapping).filter(([, v]) => v)) as AttributeMapping;
    // The settings, as the caller: the policy and the trigger decide (a new provider is untested).
    const { before, domains } = await db.withCaller(caller.db, async (tx) => {
      await administeredOrganisation(tx, id);
      const previous = await readSettingsRow(tx, id);
      try {
        await tx`
          insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id, attribute_mapping, new_person_role, new_person_services)
          values (${id}, ${input.protocol}, ${input.protocol === 'oidc' ? input.tenantId ?? null : null}, ${tx.json(mapping)},
            ${input.newPersonRole}, ${pgArray(input.newPersonServices)}::public.service_code[])
          on conflict (organisation_id) do update set protocol = excluded.protocol, oidc_tenant_id = excluded.oidc_tenant_id,
            attribute_mapping = excluded.attribute_mapping, new_person_role = excluded.new_person_role,
            new_person_services = excluded.new_person_services`;
      } catch (error) {
        settingsRefusal(error);
      }
      const rows = await tx<{ domain: string }[]>`select domain from public.organisation_domains where organisation_id = ${id} order by domain`;
      return { before: previous, domains: rows.map((r) => r.domain) };
    });
    if (input.protocol === 'saml') {
      const providerId = await registerSamlProvider(config, before?.samlProviderId ?? null, input, domains);
      await db.withServiceRole((tx) =>
        tx`select private.record_saml_provider(${id}::uuid, ${providerId}::uuid, ${input.samlMetadataXml ? null : input.samlMetadataUrl ?? null})`);
    } else if (before?.samlProviderId) {
      // Moving to OpenID Connect: Auth forgets the SAML provider, so that it signs nobody in.
      await authAdmin(config, 'DELETE', `/${before.samlProviderId}`);
    }
    return c.json(await db.withCaller(caller.db, (tx) => readSignIn(tx, config, id)));
  });

  app.post('/switch', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const input = await jsonBody(c, signInSwitchSchema);
    const answer = await db.withCaller(caller.db, async (tx) => {
      await administeredOrganisation(tx, id);
      try {
        const changed = await tx`update public.organisation_sign_in
          set enabled = ${input.enabled}, password_sign_in = ${input.enabled ? input.passwordSignIn : true}
          where organisation_id = ${id} returning 1`;
        if (changed.length === 0) throw new ApiError(409, 'Set up the sign-in first');
      } catch (error) {
        if (error instanceof ApiError) throw error;
        settingsRefusal(error);
      }
      return readSignIn(tx, config, id);
    });
    return c.json(answer);
  });

  app.delete('/', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const removed = await db.withCaller(caller.db, async (tx) => {
      await administeredOrganisation(tx, id);
      const [row] = await tx<{ samlProviderId: string | null }[]>`
        delete from public.organisation_sign_in where organisation_id = ${id} returning saml_provider_id`;
      return row;
    });
    if (!removed) throw new ApiError(404, 'This organisation has no sign-in set up');
    if (removed.samlProviderId) await authAdmin(config, 'DELETE', `/${removed.samlProviderId}`);
    return c.body(null, 204);
  });

  return app;
}

export function organisationDomainRoutes(config: Config, db: Db) {
  const app = new Hono<Env>();

  /** Domains are the national administrators'; the SAML provider's follow them. */
  async function changeDomains(c: Context<Env>, change: (tx: Tx, id: string) => Promise<void>) {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const { providerId, domains } = await db.withCaller(caller.db, async (tx) => {
      const { national } = await administeredOrganisation(tx, id);
      if (!national) throw forbidden('Only national administrators give and take email domains, once they have confirmed the organisation owns them');
      await change(tx, id);
      const rows = await tx<{ domain: string }[]>`select domain from public.organisation_domains where organisation_id = ${id} order by domain`;
      const settings = await readSettingsRow(tx, id);
      return { providerId: settings?.samlProviderId ?? null, domains: rows.map((r) => r.domain) };
    });
    await syncSamlDomains(config, providerId, domains);
    return c.json(await db.withCaller(caller.db, (tx) => readSignIn(tx, config, id)));
  }

  app.post('/', async (c) => {
    const input = await jsonBody(c, domainSchema);
    return changeDomains(c, async (tx, id) => {
      const [owner] = await tx<{ organisationId: string }[]>`select organisation_id from public.organisation_domains where domain = ${input.domain}`;
      if (owner?.organisationId === id) throw new ApiError(409, 'The organisation already has this domain');
      try {
        await tx`insert into public.organisation_domains (domain, organisation_id) values (${input.domain}, ${id})`;
      } catch (error) {
        // (the primary key: another organisation has it, or took it a moment ago)
        if (pgError(error)?.code === '23505') throw new ApiError(409, 'Another organisation has this domain');
        throw error;
      }
    });
  });

  app.delete('/:domain', (c) => {
    const domain = validate(domainSchema, { domain: c.req.param('domain') }).domain;
    return changeDomains(c, async (tx, id) => {
      const gone = await tx`delete from public.organisation_domains where domain = ${domain} and organisation_id = ${id} returning 1`;
      if (gone.length === 0) throw new ApiError(404, 'The organisation has no such domain');
    });
  });

  return app;
}

const lookupSchema = z.object({
  email: z.string({ error: 'Give your work email address' }).trim().toLowerCase().max(320, 'At most 320 characters')
    .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'Give your work email address, such as name@force.police.uk'),
});

export function signInLookupRoutes(db: Db) {
  const app = new Hono<Env>();

  app.get('/organisation', async (c) => {
    const { email } = validate(lookupSchema, { email: c.req.query('email') });
    // As a visitor: the function is granted to anon and reads only switched-on sign-ins.
    const [row] = await db.withCaller(visitor.db, (tx) => tx<OrganisationSignInOption[]>`
      select protocol, organisation_name, domain, password_sign_in from private.organisation_sign_in_for(${email})`);
    if (!row) throw new ApiError(404, `No organisation signs in with addresses at ${email.split('@')[1]} here`);
    return c.json(row);
  });

  return app;
}
