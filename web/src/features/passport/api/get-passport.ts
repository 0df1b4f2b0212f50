// GET /api/passport?page=&pageSize=: the signed-in learner's credentials, a page at a time (one per
// certificate, signed Open Badges 3.0), each with its status, its verification URL and its public
// share link while sharing is on.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { passportKeys } from '@/lib/query-keys';

/** valid | expired | revoked, computed on the server. */
export type PassportState = 'valid' | 'expired' | 'revoked';

export interface PassportCredential {
  id: string;
  certificateId: string;
  /** The certificate's verification code (the /verify/:code page). */
  verificationCode: string;
  courseTitle: string;
  achievementName: string | null;
  issuerId: string;
  issuerName: string | null;
  issuedAt: string;
  validUntil: string | null;
  status: PassportState;
  /** False only for a credential still being signed (a moment after its certificate is issued). */
  signed: boolean;
  shareEnabled: boolean;
  /** The public link to the credential while sharing is on. */
  shareUrl: string | null;
  /** The certificate's verification page, for "Add to LinkedIn" when sharing is off. */
  verifyUrl: string;
}

export interface PassportPage {
  items: PassportCredential[];
  total: number;
  page: number;
  pageSize: number;
}

export const PASSPORT_PAGE_SIZE = 12;

export function passportQueryOptions(userId: string, page = 1) {
  return queryOptions({
    queryKey: passportKeys.credentials(userId, page),
    queryFn: ({ signal }) => api.get<PassportPage>(`/passport?page=${page}&pageSize=${PASSPORT_PAGE_SIZE}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function usePassport(userId: string, page = 1) {
  return useQuery(passportQueryOptions(userId, page));
}
