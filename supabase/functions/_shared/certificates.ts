// Certificate validity: the states the database computes (private.certificate_state is the
// one rule: expiring = within 60 days), the shapes the API answers, and the schemas of the admin's
// certificate search and revocation. Shared by the api function and the web app.
import { z } from 'zod';
import { longDate } from './dates.ts';

export const CERTIFICATE_STATES = ['valid', 'expiring', 'expired', 'revoked'] as const;
export type CertificateState = (typeof CERTIFICATE_STATES)[number];

/** The badge text of each state. */
export const CERTIFICATE_STATE_LABELS: Record<CertificateState, string> = {
  valid: 'Valid',
  expiring: 'Expiring soon',
  expired: 'Expired',
  revoked: 'Revoked',
};

/**
 * The one wording of a certificate's validity, beside its state badge on every screen:
 * `Valid until 22 November 2027` (valid, and expiring: the badge says 'Expiring soon'), `Does not expire`,
 * `Expired on …`, `Revoked on …`. The state comes from the server (private.certificate_state).
 */
export function validityText(c: { state: CertificateState; expiresAt: string | Date | null; revokedAt: string | Date | null }): string {
  switch (c.state) {
    case 'revoked':
      return c.revokedAt ? `Revoked on ${longDate(c.revokedAt)}` : 'Revoked';
    case 'expired':
      return c.expiresAt ? `Expired on ${longDate(c.expiresAt)}` : 'Expired';
    default:
      return c.expiresAt ? `Valid until ${longDate(c.expiresAt)}` : 'Does not expire';
  }
}

/**
 * The same where no badge stands beside it (the learning record PDF): an expiring certificate's line
 * starts with the badge's words, `Expiring soon: valid until 22 November 2027`.
 */
export function validityTextWithState(c: { state: CertificateState; expiresAt: string | Date | null; revokedAt: string | Date | null }): string {
  if (c.state !== 'expiring') return validityText(c);
  return c.expiresAt ? `${CERTIFICATE_STATE_LABELS.expiring}: valid until ${longDate(c.expiresAt)}` : CERTIFICATE_STATE_LABELS.expiring;
}

/** Recertification opens from these states (private.start_recertification decides). */
export function canRecertify(state: CertificateState | null | undefined): boolean {
  return state === 'expiring' || state === 'expired';
}

/** A course's certificate validity in months: null (never expires) or 1..120. */
export const CERTIFICATE_VALIDITY_MAX_MONTHS = 120;
export const CERTIFICATE_VALIDITY_MESSAGE = `Certificate validity must be a whole number of months from 1 to ${CERTIFICATE_VALIDITY_MAX_MONTHS}, or empty for never`;
export const certificateValidMonthsField = z
  .number({ error: CERTIFICATE_VALIDITY_MESSAGE })
  .int(CERTIFICATE_VALIDITY_MESSAGE)
  .min(1, CERTIFICATE_VALIDITY_MESSAGE)
  .max(CERTIFICATE_VALIDITY_MAX_MONTHS, CERTIFICATE_VALIDITY_MESSAGE)
  .nullable();

export const REVOKE_REASON_MESSAGE = 'Give a reason of 1 to 500 characters';
/** POST /api/admin/certificates/:id/revoke. */
export const certificateRevokeSchema = z.object({
  reason: z.string({ error: REVOKE_REASON_MESSAGE }).trim().min(1, REVOKE_REASON_MESSAGE).max(500, REVOKE_REASON_MESSAGE),
});

/** GET /api/admin/certificates: search by learner name or verification code, paged. */
export const certificateSearchQuerySchema = z.object({
  search: z.string().trim().max(200, 'Search is too long').optional(),
  page: z.coerce.number({ error: 'Page must be a whole number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(100000, 'Page is too large').default(1),
  pageSize: z.coerce.number({ error: 'Page size must be a whole number' }).int('Page size must be a whole number').min(1, 'Page size must be at least 1').max(100, 'Page size must be at most 100').default(20),
});

/** GET /api/certificates?scope=: current (the latest of each course), history (earlier ones) or all. */
export const CERTIFICATE_SCOPES = ['all', 'current', 'history'] as const;
export type CertificateScope = (typeof CERTIFICATE_SCOPES)[number];

/** The validity of a certificate, as every answer that carries one shows it. */
export interface CertificateValidity {
  cycle: number;
  issuedAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  state: CertificateState;
}

/** A learner's certificate (GET /api/certificates). */
export interface LearnerCertificate extends CertificateValidity {
  id: string;
  verificationCode: string;
  userId: string | null;
  courseId: string | null;
  learnerName: string;
  courseTitle: string;
  /** The course's Welsh title as issued; null when it had none. */
  courseTitleCy: string | null;
  service: string | null;
  serviceLabel: string | null;
  template: string;
  /** Only the learner and admins read it; verification never shows it. */
  revokedReason: string | null;
  /** The latest certificate of its course (earlier ones are the learner's history). */
  current: boolean;
  /** The learner is enrolled in the course (recertification works on the enrolment). */
  enrolled: boolean;
  /** A later cycle of the enrolment has started (recertification under way). */
  recertifying: boolean;
  verifyPath: string;
}

/** An enrolment's current certificate (GET /api/users/:id/enrollments). */
export interface EnrollmentCertificate extends CertificateValidity {
  id: string;
}

/** Public verification (GET /api/certificates/verify/:code). */
export interface VerifiedCertificate {
  verificationCode: string;
  learnerName: string;
  /** The learner's organisation when the certificate was issued; absent for none. */
  organisationName?: string;
  courseTitle: string;
  /** The course's Welsh title as issued; null when it had none. */
  courseTitleCy: string | null;
  service: string | null;
  serviceLabel: string | null;
  issuedAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  state: CertificateState;
  /** True only for valid and expiring: a revoked or expired certificate fails verification. */
  valid: boolean;
  /**
   * The public URL of the certificate's signed Open Badges 3.0 credential (its share link), present
   * only while its holder shares a signed one.
   */
  credentialUrl?: string;
}

/** A certificate in the admin's list (GET /api/admin/certificates). */
export interface AdminCertificate extends CertificateValidity {
  id: string;
  verificationCode: string;
  userId: string | null;
  learnerName: string;
  learnerUsername: string | null;
  courseId: string | null;
  courseTitle: string;
  /** The course's Welsh title as issued; null when it had none. */
  courseTitleCy: string | null;
  service: string | null;
  revokedReason: string | null;
  revokedBy: { id: string; name: string } | null;
  /** When an admin last reissued it (same code, new snapshot); null if never. */
  reissuedAt: string | null;
}
