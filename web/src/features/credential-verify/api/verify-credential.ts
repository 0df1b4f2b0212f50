// POST /api/credentials/verify (public): any issuer's Open Badges 3.0 credential, as JSON, checked on
// the server (the proof, the issuer's key, the status list, the dates, the data model). The answer
// lists each check's outcome and machine codes; the page turns them into plain words.
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** What can be wrong with a credential, most serious first. */
export const VERIFICATION_CODES = ['malformed', 'tampered', 'unknown-issuer-key', 'revoked', 'expired', 'not-yet-valid', 'untrusted-issuer'] as const;
export type VerificationCode = (typeof VERIFICATION_CODES)[number];

export type CheckOutcome = 'passed' | 'failed' | 'skipped';

export interface CredentialCheck {
  /** schema | proof | issuerKey | status | dates | trust (another name is shown as it is). */
  name: string;
  outcome: CheckOutcome;
  code?: VerificationCode | null;
}

export interface CredentialVerification {
  /** Every check passed: signed, unaltered, not revoked, in date. */
  verified: boolean;
  codes: VerificationCode[];
  checks: CredentialCheck[];
  issuer: { id: string; name: string | null } | null;
  achievementName: string | null;
  validFrom: string | null;
  validUntil: string | null;
}

export function verifyCredential(credential: unknown): Promise<CredentialVerification> {
  return api.post<CredentialVerification>('/credentials/verify', credential);
}

export function useVerifyCredential() {
  return useMutation({ mutationFn: verifyCredential });
}
