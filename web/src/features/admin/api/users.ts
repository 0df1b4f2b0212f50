// GET/POST /api/users, PUT/DELETE /api/users/:id: the Users tab.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedUser, UserCreateInput, UserList, UserUpdateInput } from '@shared/admin.ts';
import type { User } from '@shared/domain.ts';
import { api } from '@/lib/api-client';
import { adminKeys } from '@/lib/query-keys';

export const USERS_PAGE_SIZE = 20;

export interface UserFilters {
  search: string;
  service: string | null;
  role?: string | null;
  status?: string | null;
  /** The people of an organisation, of a unit (and its sub-units), of a line manager. */
  organisationId?: string | null;
  unitId?: string | null;
  managerId?: string | null;
  page: number;
}

export function usersQueryOptions(
  { search, service, role = null, status = null, organisationId = null, unitId = null, managerId = null, page }: UserFilters,
) {
  const filters = { search: search.trim(), service, role, status, organisationId, unitId, managerId, page, pageSize: USERS_PAGE_SIZE };
  return queryOptions({
    queryKey: adminKeys.userList(filters),
    queryFn: () => {
      const params = new URLSearchParams({ page: String(page), pageSize: String(USERS_PAGE_SIZE) });
      if (filters.search) params.set('search', filters.search);
      if (service) params.set('service', service);
      if (role) params.set('role', role);
      if (status) params.set('status', status);
      if (organisationId) params.set('organisationId', organisationId);
      if (unitId) params.set('unitId', unitId);
      if (managerId) params.set('managerId', managerId);
      return api.get<UserList>(`/users?${params}`);
    },
    placeholderData: keepPreviousData,
  });
}

export const useUsers = (filters: UserFilters) => useQuery(usersQueryOptions(filters));

function useAdminMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // Users, the permission matrix and the activity list all follow a user change.
    onSuccess: () => adminKeys.invalidate(queryClient),
  });
}

export const useCreateUser = () => useAdminMutation((input: UserCreateInput) => api.post<CreatedUser>('/users', input));

export const useUpdateUser = () =>
  useAdminMutation(({ id, input }: { id: string; input: UserUpdateInput }) =>
    api.put<User>(`/users/${encodeURIComponent(id)}`, input));

/** A new temporary password, shown once; the person must replace it at their next sign-in. */
export const useResetPassword = () =>
  useAdminMutation((id: string) => api.post<{ temporaryPassword: string }>(`/users/${encodeURIComponent(id)}/reset-password`, {}));
export const useDeleteUser = () => useAdminMutation((id: string) => api.delete<void>(`/users/${encodeURIComponent(id)}`));

/** POST /api/users/:id/deactivate (a leaver: no sign-in, records kept) and /reactivate. */
export const useSetUserActive = () =>
  useAdminMutation(({ id, active }: { id: string; active: boolean }) =>
    api.post<User>(`/users/${encodeURIComponent(id)}/${active ? 'reactivate' : 'deactivate'}`, {}));
