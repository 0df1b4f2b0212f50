// GET /api/passport?page=&pageSize=: the signed-in learner's credentials, a page at a time (one per
// certificate, signed Open Badges 3.0), each with its status, its verification URL and its public
// share link while sharing is on.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PassportCredential, PassportState } from '@shared/credentials.ts';
import { api } from '@/lib/api-client';
import { passportKeys } from '@/lib/query-keys';

export type { PassportCredential, PassportState };

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
