// POST /api/credentials/verify (public): any issuer's Open Badges 3.0 credential, as JSON, checked on
// the server (the proof, the issuer's key, the status list, the dates, the data model). The answer
// lists each check's outcome and machine codes; the page turns them into plain words.
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** What can be wrong with a credential, most serious first (the server's machine codes). */
export const VERIFICATION_CODES = [
  'malformed', 'tampered', 'untrusted-issuer', 'unknown-issuer-key', 'revoked', 'expired', 'not-yet-valid', 'status-unavailable',
] as const;
export type VerificationCode = (typeof VERIFICATION_CODES)[number];

export type CheckOutcome = 'passed' | 'failed' | 'not-checked';

/** The checks in the order the page lists them. */
export const CHECK_NAMES = ['schema', 'proof', 'issuerKey', 'status', 'dates'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

export interface CredentialVerification {
  /** Every check passed: the proof, the issuer's key, the status (when it has one), the dates, the schema. */
  verified: boolean;
  codes: VerificationCode[];
  /** status 'none': the credential names no status list (it cannot be revoked). */
  checks: { schema: CheckOutcome; proof: CheckOutcome; issuerKey: CheckOutcome; status: CheckOutcome | 'none'; dates: CheckOutcome };
  schemaErrors: string[];
  credentialId: string | null;
  issuer: { id: string; name: string | null } | null;
  achievement: { id: string | null; name: string | null } | null;
  validFrom: string | null;
  validUntil: string | null;
  verificationMethod: string | null;
}

export function verifyCredential(credential: unknown): Promise<CredentialVerification> {
  return api.post<CredentialVerification>('/credentials/verify', credential);
}

export function useVerifyCredential() {
  return useMutation({ mutationFn: verifyCredential });
}
