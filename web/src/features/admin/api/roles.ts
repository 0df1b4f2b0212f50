// GET /api/roles (the role × service matrix, computed in SQL) and PUT /api/roles/:role/services.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RolePermissions } from '@shared/admin.ts';
import type { Role } from '@shared/domain.ts';
import { api } from '@/lib/api-client';
import { adminKeys } from '@/lib/query-keys';

export const rolesQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.roles(), queryFn: () => api.get<RolePermissions[]>('/roles') });

export const useRolePermissions = () => useQuery(rolesQueryOptions());

export function useSetRoleServices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ role, services }: { role: Role; services: string[] }) =>
      api.put<{ role: Role; services: string[]; updated: number }>(`/roles/${role}/services`, { services }),
    onSuccess: () => adminKeys.invalidate(queryClient),
  });
}
