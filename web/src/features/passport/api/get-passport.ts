// GET /api/passport: the signed-in learner's credentials (one per certificate, signed Open Badges
// 3.0) with their status and public share link, and the credentials they hold from other issuers.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CertificateState } from '@shared/certificates.ts';
import { api } from '@/lib/api-client';
import { passportKeys } from '@/lib/query-keys';

export interface PassportCredential {
  id: string;
  /** The certificate's verification code (the /verify/:code page). */
  verificationCode: string;
  courseTitle: string;
  achievementName: string;
  issuerName: string;
  issuedAt: string;
  validUntil: string | null;
  /** Computed on the server: valid, expiring (soon), expired or revoked. */
  status: CertificateState;
  revokedAt?: string | null;
  shareEnabled: boolean;
  /** The public link to the credential while sharing is on. */
  shareUrl: string | null;
}

/** A credential from another issuer the learner added (verified on the server when added). */
export interface HeldCredential {
  id: string;
  issuerId: string;
  issuerName: string | null;
  achievementName: string | null;
  validFrom: string | null;
  validUntil: string | null;
  /** The verification's machine codes when it was added ([] when every check passed). */
  codes: string[];
  addedAt: string;
}

export interface Passport {
  credentials: PassportCredential[];
  held: HeldCredential[];
}

export function passportQueryOptions(userId: string) {
  return queryOptions({
    queryKey: passportKeys.mine(userId),
    queryFn: ({ signal }) => api.get<Passport>('/passport', { signal }),
  });
}

export function usePassport(userId: string) {
  return useQuery(passportQueryOptions(userId));
}
