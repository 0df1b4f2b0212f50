// An organisation's sign-in through its identity provider, as the routes under routes/sign-in/ share
// it: who may manage it, how it reads, and Auth's admin API for its SAML provider (the service role
// key never leaves the server). The database decides who may change what
// (supabase/schemas/24_organisation_sign_in.sql).
import type { AttributeMapping, OrganisationSignIn, SignInProtocol, SignInTest } from '../../_shared/sign-in.ts';
import type { Config } from './config.ts';
import type { Tx } from './db.ts';
import { ApiError } from './errors.ts';
import { forbidden, peopleAdmin } from './admin.ts';

export const NO_ORGANISATION = 'Organisation not found';
/** Where Entra ID's SAML tokens carry the email, unless an organisation maps it otherwise. */
const SAML_EMAIL_ATTRIBUTES = ['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'email', 'mail'];
const SAML_NAME_ATTRIBUTE = 'http://schemas.microsoft.com/identity/claims/displayname';

export interface SettingsRow {
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

export interface TestRow {
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
export async function administeredOrganisation(tx: Tx, id: string): Promise<{ national: boolean }> {
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

export async function readSettingsRow(tx: Tx, id: string): Promise<SettingsRow | undefined> {
  const [row] = await tx<SettingsRow[]>`
    select protocol, oidc_tenant_id, saml_metadata_url, saml_provider_id, attribute_mapping::text as attribute_mapping,
      new_person_role, new_person_services, enabled, password_sign_in, tested_at, updated_at
    from public.organisation_sign_in where organisation_id = ${id}`;
  // jsonb is read as text: the driver's camelCase transform would rename the keys inside it.
  return row ? { ...row, attributeMapping: JSON.parse(row.attributeMapping as unknown as string) } : undefined;
}

/** The organisation's sign-in as its administrators see it (read under their row-level security). */
export async function readSignIn(tx: Tx, config: Config, id: string): Promise<OrganisationSignIn> {
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
export async function authAdmin(config: Config, method: string, path: string, body?: unknown): Promise<Response> {
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
export async function registerSamlProvider(
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
export async function syncSamlDomains(config: Config, providerId: string | null, domains: string[]): Promise<void> {
  if (!providerId) return;
  const response = await authAdmin(config, 'PUT', `/${providerId}`, { domains });
  if (!response.ok && response.status !== 404) {
    const answer = await response.json().catch(() => ({})) as { msg?: string };
    throw new ApiError(502, `Supabase Auth could not update the provider's domains: ${answer.msg ?? response.status}`);
  }
}
