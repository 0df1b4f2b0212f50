// The Open Badges 3.0.3 AchievementCredential's required properties and types as a JSON Schema
// (draft-07), written from the specification (Open Badges Specification v3.0.3, Appendix B.1
// "Credential Data Models": AchievementCredential, Profile, AchievementSubject, Achievement,
// Criteria, Alignment, Evidence, IdentityObject, Image; and B.2 for the proof's type), for the
// verifier's schema check and the tests. No npm package ships 1EdTech's JSON schema; checked here
// with Ajv.
import Ajv from 'ajv';

const uri = { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9+.-]*:\\S+$' };
const dateTimeZ = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$' };
/** A `type` that is this string or an array containing it. */
const typeWith = (name: string) => ({
  oneOf: [
    { type: 'string', const: name },
    { type: 'array', items: { type: 'string' }, contains: { const: name } },
  ],
});
const anyType = { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, minItems: 1 }] };
const image = { oneOf: [uri, { type: 'object', required: ['id', 'type'], properties: { id: uri, type: { const: 'Image' } } }] };
const profile = {
  oneOf: [uri, {
    type: 'object',
    required: ['id', 'type'],
    properties: { id: uri, type: typeWith('Profile'), name: { type: 'string' }, url: uri, image },
  }],
};
const oneOrMany = (schema: object) => ({ oneOf: [schema, { type: 'array', items: schema }] });

export const ACHIEVEMENT_CREDENTIAL_JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Open Badges 3.0.3 AchievementCredential (required properties and types)',
  type: 'object',
  required: ['@context', 'id', 'type', 'issuer', 'validFrom', 'name', 'credentialSubject'],
  properties: {
    '@context': {
      type: 'array',
      minItems: 2,
      items: [{ const: 'https://www.w3.org/ns/credentials/v2' }],
      contains: { type: 'string', pattern: '^https://purl\\.imsglobal\\.org/spec/ob/v3p0/context(-3\\.0\\.\\d+)?\\.json$' },
    },
    id: uri,
    type: {
      type: 'array',
      items: { type: 'string' },
      allOf: [
        { contains: { const: 'VerifiableCredential' } },
        { contains: { enum: ['AchievementCredential', 'OpenBadgeCredential'] } },
      ],
    },
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    issuer: profile,
    validFrom: dateTimeZ,
    validUntil: dateTimeZ,
    credentialSubject: {
      type: 'object',
      required: ['type', 'achievement'],
      properties: {
        id: uri,
        type: typeWith('AchievementSubject'),
        identifier: {
          type: 'array',
          items: {
            type: 'object',
            required: ['type', 'hashed', 'identityHash', 'identityType'],
            properties: {
              type: { const: 'IdentityObject' },
              hashed: { type: 'boolean' },
              identityHash: { type: 'string' },
              identityType: { type: 'string' },
              salt: { type: 'string' },
            },
          },
        },
        achievement: {
          type: 'object',
          required: ['id', 'type', 'criteria', 'description', 'name'],
          properties: {
            id: uri,
            type: typeWith('Achievement'),
            name: { type: 'string', minLength: 1 },
            description: { type: 'string' },
            criteria: {
              type: 'object',
              anyOf: [{ required: ['id'] }, { required: ['narrative'] }],
              properties: { id: uri, narrative: { type: 'string' } },
            },
            image,
            alignment: {
              type: 'array',
              items: {
                type: 'object',
                required: ['type', 'targetName', 'targetUrl'],
                properties: {
                  type: typeWith('Alignment'),
                  targetName: { type: 'string' },
                  targetUrl: uri,
                  targetCode: { type: 'string' },
                  targetFramework: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
    evidence: oneOrMany({ type: 'object', required: ['type'], properties: { id: uri, type: typeWith('Evidence') } }),
    credentialStatus: { type: 'object', required: ['type'], properties: { id: uri, type: anyType } },
    credentialSchema: oneOrMany({ type: 'object', required: ['id', 'type'], properties: { id: uri, type: { type: 'string' } } }),
    proof: oneOrMany({ type: 'object', required: ['type'], properties: { type: anyType } }),
  },
} as const;

// deno-lint-ignore no-explicit-any
const AjvClass = ((Ajv as any).default ?? Ajv) as new (options: object) => {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
};
const validator = new AjvClass({ allErrors: true, strict: false }).compile(ACHIEVEMENT_CREDENTIAL_JSON_SCHEMA);

/** The schema's complaints about a credential (empty when it meets the required properties and types). */
export function achievementCredentialErrors(credential: unknown): string[] {
  if (validator(credential)) return [];
  return (validator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
