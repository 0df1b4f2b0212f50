// Sign-in through an organisation's own identity provider: the shapes and zod schemas shared by
// the api function (/api/organisations/:id/sign-in, /api/organisations/:id/domains,
// /api/sign-in/organisation) and the web app (the Organisation tab's sign-in settings and the
// sign-in page). The database decides who may change what (supabase/schemas/24_organisation_sign_in.sql).
import { z } from 'zod';
import { SERVICE_CODES } from './services.ts';
import { UUID_PATTERN } from './ids.ts';

export const SIGN_IN_PROTOCOLS = ['oidc', 'saml'] as const;
export type SignInProtocol = (typeof SIGN_IN_PROTOCOLS)[number];

export const SIGN_IN_PROTOCOL_LABELS: Record<SignInProtocol, string> = {
  oidc: 'OpenID Connect (Microsoft Entra ID)',
  saml: 'SAML 2.0',
};

/** The person's fields a provider's attribute can fill, with how the settings name them. */
export const MAPPED_FIELDS = ['name', 'unit', 'manager', 'employee_number'] as const;
export type MappedField = (typeof MAPPED_FIELDS)[number];
export const MAPPED_FIELD_LABELS: Record<MappedField, string> = {
  name: 'Name',
  unit: 'Unit (department)',
  manager: "Manager (their email or employee number)",
  employee_number: 'Employee number',
};
export type AttributeMapping = Partial<Record<MappedField, string>>;

/** What the provider sent in one test sign-in, and how it mapped. */
export interface SignInTest {
  id: string;
  createdAt: string;
  email: string;
  passed: boolean;
  /** Why the person would not be placed, when not passed. */
  problem: string | null;
  /** The claims or attributes as the provider sent them. */
  received: Record<string, unknown>;
  mapped: {
    name: string | null;
    unit: string | null;
    manager: string | null;
    employeeNumber: string | null;
    role: string | null;
    services: string[];
    /** Fields that could not be mapped (left empty rather than refused). */
    notes: string[];
  };
}

/** GET /api/organisations/:id/sign-in */
export interface OrganisationSignIn {
  organisationId: string;
  /** The organisation's email domains (given by national administrators). */
  domains: string[];
  /** null before anything is set up. */
  settings: {
    protocol: SignInProtocol;
    tenantId: string | null;
    samlMetadataUrl: string | null;
    /** Auth has the SAML provider registered. */
    samlRegistered: boolean;
    attributeMapping: AttributeMapping;
    newPersonRole: 'STUDENT' | 'INSTRUCTOR';
    newPersonServices: string[];
    enabled: boolean;
    passwordSignIn: boolean;
    /** When a test sign-in through the current provider last passed. */
    testedAt: string | null;
    updatedAt: string;
  } | null;
  /** Newest first, at most 5. */
  tests: SignInTest[];
  /** What to enter at the identity provider. */
  provider: {
    /** OpenID Connect: the redirect URI of the app registration. */
    redirectUri: string;
    /** SAML: the service provider's entity id (also its metadata URL) and its ACS URL. */
    samlEntityId: string;
    samlAcsUrl: string;
  };
}

const attributeName = z.string().trim().min(1, 'Give the claim or attribute name').max(200, 'At most 200 characters');

/** PUT /api/organisations/:id/sign-in */
export const signInSettingsSchema = z
  .object({
    protocol: z.enum(SIGN_IN_PROTOCOLS, { error: 'Choose OpenID Connect or SAML' }),
    tenantId: z.string().trim().regex(UUID_PATTERN, 'The tenant id is a GUID, such as 6f1c2b7e-3d4a-4e8b-9c21-5a7d0e4f8b13').nullish(),
    samlMetadataUrl: z.string().trim().max(2000, 'At most 2,000 characters')
      .regex(/^https?:\/\/\S+$/, 'Give the metadata URL, starting https://').nullish(),
    samlMetadataXml: z.string().trim().max(200_000, 'The metadata is too long').nullish(),
    attributeMapping: z.object({
      name: attributeName.optional(),
      unit: attributeName.optional(),
      manager: attributeName.optional(),
      employee_number: attributeName.optional(),
    }).strict().default({}),
    newPersonRole: z.enum(['STUDENT', 'INSTRUCTOR'], { error: 'New people are learners or instructors' }).default('STUDENT'),
    newPersonServices: z.array(z.enum(SERVICE_CODES, { error: 'Unknown service' })).max(6).default([]),
  })
  .superRefine((input, ctx) => {
    if (input.protocol === 'oidc' && !input.tenantId) {
      ctx.addIssue({ code: 'custom', path: ['tenantId'], message: 'Give the Microsoft Entra ID tenant id' });
    }
    if (input.protocol === 'saml' && !input.samlMetadataUrl && !input.samlMetadataXml) {
      ctx.addIssue({ code: 'custom', path: ['samlMetadataUrl'], message: 'Give the metadata URL or paste the metadata XML' });
    }
  });
export type SignInSettingsInput = z.input<typeof signInSettingsSchema>;

/** POST /api/organisations/:id/sign-in/switch */
export const signInSwitchSchema = z.object({
  enabled: z.boolean({ error: 'Say whether sign-in is on' }),
  passwordSignIn: z.boolean({ error: 'Say whether people may still use a password' }),
});
export type SignInSwitchInput = z.infer<typeof signInSwitchSchema>;

/** POST /api/organisations/:id/domains */
export const domainSchema = z.object({
  domain: z.string().trim().toLowerCase().max(253, 'At most 253 characters')
    .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/, 'Give a domain such as northshire.police.uk'),
});
export type DomainInput = z.infer<typeof domainSchema>;

/** GET /api/sign-in/organisation?email=: how a work address signs in. */
export interface OrganisationSignInOption {
  protocol: SignInProtocol;
  organisationName: string;
  domain: string;
  passwordSignIn: boolean;
}
