// The messages catalogue (web/src/locales/<language>/messages.json): the API's English messages and
// those of the shared zod schemas come out in the reader's language; a message the catalogue does
// not know stays as the server wrote it; and every message of the shared schemas is catalogued.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as admin from '@shared/admin.ts';
import * as assessments from '@shared/assessments.ts';
import * as audit from '@shared/audit.ts';
import * as authoring from '@shared/authoring.ts';
import * as catalogue from '@shared/catalogue.ts';
import * as certificates from '@shared/certificates.ts';
import * as competence from '@shared/competence.ts';
import * as compliance from '@shared/compliance.ts';
import * as cpd from '@shared/cpd.ts';
import * as credentials from '@shared/credentials.ts';
import * as notifications from '@shared/notifications.ts';
import * as organisations from '@shared/organisations.ts';
import * as profile from '@shared/profile.ts';
import * as quiz from '@shared/quiz.ts';
import * as recognition from '@shared/recognition.ts';
import * as schemas from '@shared/schemas.ts';
import * as scim from '@shared/scim.ts';
import * as scorm from '@shared/scorm.ts';
import * as sessions from '@shared/sessions.ts';
import * as signIn from '@shared/sign-in.ts';
import * as team from '@shared/team.ts';
import * as userImport from '@shared/user-import.ts';
import english from '@/locales/en-GB/messages.json';
import welsh from '@/locales/cy/messages.json';
import { errorDescription } from '@/lib/api-client';
import { PROVIDER_NOT_ANSWERING, providerProblem, SIGN_IN_CANCELLED, SIGN_IN_EXPIRED } from '@/lib/auth/organisation-sign-in';
import { i18n } from './i18n';
import { translateFields, translateMessage } from './messages';

const catalogued = new Set(Object.keys(english));

describe('translateMessage', () => {
  it('gives the API’s messages and a shared schema’s message in Welsh', async () => {
    await i18n.changeLanguage('cy');
    expect(translateMessage('Not signed in')).toBe('Nid ydych wedi mewngofnodi');
    expect(translateMessage('Invalid username or password')).toBe('Enw defnyddiwr neu gyfrinair annilys');
    expect(translateMessage('You are already enrolled in this course')).toBe('Rydych chi eisoes wedi cofrestru ar y cwrs hwn');
    expect(translateMessage(schemas.COMMON_PASSWORD)).toBe("Mae'r cyfrinair hwn yn rhy gyffredin ac yn hawdd ei ddyfalu. Dewiswch un gwahanol.");
    expect(translateFields({ username: 'Username is already taken', email: 'Invalid email address' })).toEqual({
      username: "Mae'r enw defnyddiwr hwn eisoes yn cael ei ddefnyddio",
      email: 'Cyfeiriad e-bost annilys',
    });
    // A schema's own message, as a form shows it.
    const result = schemas.loginSchema.safeParse({ username: ' ', password: '' });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => translateMessage(issue.message))).toEqual(['Mae angen enw defnyddiwr', 'Mae angen cyfrinair']);
    // The web app's own messages.
    expect(translateMessage(SIGN_IN_CANCELLED)).toBe('Cafodd y mewngofnodi ei ganslo.');
  });

  it('gives the English as it is in English', () => {
    expect(translateMessage('Not signed in')).toBe('Not signed in');
    expect(translateMessage(schemas.COMMON_PASSWORD)).toBe(schemas.COMMON_PASSWORD);
  });

  it('gives a refused sign-in and an Auth error in Welsh', async () => {
    await i18n.changeLanguage('cy');
    expect(providerProblem({ error: 'access_denied', description: '' })).toBe('Cafodd y mewngofnodi ei ganslo.');
    expect(providerProblem({ error: 'server_error', description: 'Error getting user profile from external provider' })).toBe(
      "Nid yw mewngofnodi eich sefydliad yn ateb. Rhowch gynnig arall arni, neu mewngofnodwch gyda'ch cyfrinair.",
    );
    expect(errorDescription(new Error('Email rate limit exceeded'), 'fallback')).toBe(
      'Mae gormod o e-byst wedi\'u hanfon. Rhowch gynnig arall arni yn nes ymlaen',
    );
  });

  it('leaves a message the catalogue does not know as it is', async () => {
    await i18n.changeLanguage('cy');
    expect(translateMessage('No organisation signs in with addresses at example.org here')).toBe(
      'No organisation signs in with addresses at example.org here',
    );
    expect(translateMessage('')).toBe('');
    expect(translateFields(undefined)).toBeUndefined();
  });
});

/** Every string in a value of constants (a message, or an object of messages). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

const sharedModules = {
  admin, assessments, audit, authoring, catalogue, certificates, competence, compliance, cpd, credentials, notifications, organisations, profile, quiz,
  recognition, schemas, scim, scorm, sessions, signIn, team, userImport,
};

/** Values that break a schema's rules in as many ways as can be guessed without knowing it. */
const PROBES: unknown[] = [
  undefined, null, '', ' ', 'x', 'not a date', '2999-01-01', '1900-01-01', 'a'.repeat(100_001), '\u200B', -1, 0, 0.3, 1.5,
  10 ** 9, true, [], [1, 1], Array.from({ length: 20 }, (_, i) => i), {},
];

/** The messages a schema gives to the probes: the schema whole, and each field of an object schema alone. */
function probeMessages(schema: z.ZodType): string[] {
  const found = new Set<string>();
  const parse = (value: unknown) => {
    const result = schema.safeParse(value);
    if (!result.success) for (const issue of result.error.issues) found.add(issue.message);
  };
  for (const probe of PROBES) parse(probe);
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (shape) for (const key of Object.keys(shape)) for (const probe of PROBES) parse({ [key]: probe });
  return [...found];
}

/** zod's own English (a schema without a message of its own), which no catalogue holds. */
const ZOD_DEFAULT = /^(Invalid input|Invalid option|Invalid string|Invalid number|Invalid element|Invalid key|Unrecognized key|Too small|Too big|Expected)/;

describe('the messages catalogue', () => {
  it('has every exported message constant of the shared modules', () => {
    const constants = Object.entries(sharedModules).flatMap(([module, exports]) =>
      Object.entries(exports)
        .filter(([name]) => /(^|_)MESSAGES?$|^NAME_INVISIBLE$|^COMMON_PASSWORD$|^CURRENT_PASSWORD_INCORRECT$|^ORGANISATION_SERVICE_ONLY$/.test(name))
        .flatMap(([name, value]) => strings(value).map((message) => ({ at: `${module}.${name}`, message }))),
    );
    expect(constants.length).toBeGreaterThan(30);
    expect(constants.filter(({ message }) => !catalogued.has(message))).toEqual([]);
  });

  it('has every message the shared zod schemas give', () => {
    const missing: string[] = [];
    let count = 0;
    for (const [module, exports] of Object.entries(sharedModules)) {
      for (const [name, value] of Object.entries(exports)) {
        if (!(value instanceof z.ZodType)) continue;
        for (const message of probeMessages(value)) {
          count += 1;
          if (!catalogued.has(message) && !ZOD_DEFAULT.test(message)) missing.push(`${module}.${name}: ${message}`);
        }
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it('has the web app’s own sign-in messages', () => {
    for (const message of [SIGN_IN_CANCELLED, PROVIDER_NOT_ANSWERING, SIGN_IN_EXPIRED]) expect(catalogued).toContain(message);
  });

  it('has a Welsh message for every English one', () => {
    expect(Object.keys(welsh).sort()).toEqual([...catalogued].sort());
  });
});
