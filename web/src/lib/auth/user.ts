// GET /api/user: the current user; no stored session, or a 401, means "no user".
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@shared/domain.ts';
import { api, ApiError } from '@/lib/api-client';
import { userKeys } from '@/lib/query-keys';
import { storedUserId } from '@/lib/supabase';

export async function getUser(): Promise<CurrentUser | null> {
  // A visitor holds no session: the answer could only be a 401, a failed request in the console of
  // every visitor. Ask only when a session is stored.
  if (storedUserId() === null) return null;
  try {
    return await api.get<CurrentUser>('/user');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function userQueryOptions() {
  return queryOptions({ queryKey: userKeys.current, queryFn: getUser });
}

export function useUser() {
  return useQuery(userQueryOptions());
}
