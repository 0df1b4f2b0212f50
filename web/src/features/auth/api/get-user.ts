// GET /api/user: the current user; a 401 means "no user" (specification §4, §7).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@shared/domain.ts';
import { api, ApiError } from '@/lib/api-client';

export const userQueryKey = ['user'] as const;

export async function getUser(): Promise<User | null> {
  try {
    return await api.get<User>('/user');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function userQueryOptions() {
  return queryOptions({ queryKey: userQueryKey, queryFn: getUser });
}

export function useUser() {
  return useQuery(userQueryOptions());
}
