// Recognition of credentials when people move: the bodies and answers of the trusted issuers,
// the equivalences and the learner's held credentials, shared by the api function and the web app.
// Whether a credential counts is decided only in SQL (29_recognition.sql and THE status rule).
import { z } from 'zod';
import { UUID_PATTERN } from './ids.ts';

/** An issuer's id as its credentials name it: an HTTPS URL (http only for a local address) or a DID. */
const issuerIdField = z
  .string({ error: 'Give the issuer\'s id: its profile URL (https://...) or its DID' })
  .trim()
  .min(8, 'Give the issuer\'s id: its profile URL (https://...) or its DID')
  .max(2000, 'Use at most 2,000 characters')
  .regex(
    /^(https:\/\/\S+|http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/\S*|did:[a-z0-9]+:\S+)$/,
    'Give the issuer\'s id: its profile URL (https://...) or its DID',
  );

const organisationField = z.string({ error: 'Choose an organisation' }).regex(UUID_PATTERN, 'Choose an organisation');

/** The filters of the two lists: an organisation (national administrators; others read their own). */
export const recognitionListSchema = z.object({
  organisationId: z.preprocess((v) => (v === '' ? undefined : v), organisationField.optional()),
});

/** POST /api/recognition/trusted-issuers */
export const trustedIssuerCreateSchema = z
  .object({
    /** Omitted: the administrator's own organisation (a national administrator names one). */
    organisationId: organisationField.optional(),
    issuerId: issuerIdField,
    name: z.string({ error: 'Give the issuer\'s name' }).trim().min(1, 'Give the issuer\'s name').max(200, 'Use at most 200 characters'),
  })
  .strict();
export type TrustedIssuerCreateInput = z.input<typeof trustedIssuerCreateSchema>;

/** POST /api/recognition/equivalences */
export const equivalenceCreateSchema = z
  .object({
    organisationId: organisationField.optional(),
    /** The organisation's own course (or a national one) the achievement counts for. */
    courseId: z.string({ error: 'Choose a course' }).regex(UUID_PATTERN, 'Choose a course'),
    /** A trusted issuer of the organisation. */
    issuerId: issuerIdField,
    /** The achievement's id as credentials name it (credentialSubject.achievement.id). */
    achievementId: z
      .string({ error: 'Give the achievement\'s id' })
      .trim()
      .min(1, 'Give the achievement\'s id')
      .max(2000, 'Use at most 2,000 characters')
      .regex(/^\S+$/, 'An achievement\'s id has no spaces'),
    achievementName: z
      .string({ error: 'Give the achievement\'s name' })
      .trim()
      .min(1, 'Give the achievement\'s name')
      .max(300, 'Use at most 300 characters'),
  })
  .strict();
export type EquivalenceCreateInput = z.input<typeof equivalenceCreateSchema>;

export interface TrustedIssuer {
  id: string;
  organisationId: string;
  issuerId: string;
  name: string;
  /** An issuer of this platform: the organisation's id or 'national' (null for other issuers). */
  platformIssuer: string | null;
  createdAt: string;
}

export interface Equivalence {
  id: string;
  organisationId: string;
  course: { id: string; title: string };
  issuerId: string;
  issuerName: string;
  achievementId: string;
  achievementName: string;
  /** When the achievement is a course of this platform: its certificates count without upload. */
  platformCourseId: string | null;
  createdAt: string;
}

/** Where a requirement is satisfied by a recognised credential: its origin and expiry. */
export interface RecognisedOrigin {
  /** upload: a credential the person uploaded; platform: a certificate they earned here elsewhere. */
  source: 'upload' | 'platform';
  issuerName: string;
  achievementName: string;
  /** Its validUntil (null: it does not expire). */
  validUntil: string | null;
}

export const HELD_STATES = ['valid', 'expired', 'not-verified'] as const;
export type HeldState = (typeof HELD_STATES)[number];

/** One credential of GET /api/passport/held. */
export interface HeldCredential {
  id: string;
  issuerId: string;
  issuerName: string;
  achievementId: string;
  achievementName: string;
  validFrom: string | null;
  validUntil: string | null;
  /** valid: verified on upload and not expired; expired; not-verified: a check failed on upload. */
  state: HeldState;
  /** The verifier's machine codes on upload (revoked, expired, not-yet-valid, status-unavailable...). */
  codes: string[];
  verifiedAt: string;
}

/** The recognised origin of a status row's columns (null when a certificate of the course or nothing satisfies it). */
export function recognisedOrigin(row: {
  recognitionSource: string | null;
  recognisedIssuer: string | null;
  recognisedAchievement: string | null;
}, validUntil: string | null): RecognisedOrigin | null {
  if (row.recognitionSource !== 'upload' && row.recognitionSource !== 'platform') return null;
  return {
    source: row.recognitionSource,
    issuerName: row.recognisedIssuer ?? '',
    achievementName: row.recognisedAchievement ?? '',
    validUntil,
  };
}
