// The Organisation tab (issue 18): GET/POST /api/organisations (national administrators) and an
// organisation's units, GET/POST /api/organisations/:id/units and PUT …/units/:unitId (rename, move).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Organisation, OrganisationInput, Unit, UnitCreateInput, UnitUpdateInput } from '@shared/organisations.ts';
import { api } from '@/lib/api-client';
import { organisationKeys } from '@/lib/query-keys';

export const organisationsQueryOptions = () =>
  queryOptions({ queryKey: organisationKeys.list(), queryFn: () => api.get<Organisation[]>('/organisations') });

export const useOrganisations = (enabled = true) => useQuery({ ...organisationsQueryOptions(), enabled });

export const unitsQueryOptions = (organisationId: string) =>
  queryOptions({
    queryKey: organisationKeys.units(organisationId),
    queryFn: () => api.get<Unit[]>(`/organisations/${organisationId}/units`),
  });

export const useUnits = (organisationId: string) => useQuery(unitsQueryOptions(organisationId));

export function useCreateOrganisation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OrganisationInput) => api.post<Organisation>('/organisations', input),
    onSuccess: () => organisationKeys.invalidate(queryClient),
  });
}

export function useCreateUnit(organisationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UnitCreateInput) => api.post<Unit>(`/organisations/${organisationId}/units`, input),
    onSuccess: () => organisationKeys.invalidate(queryClient),
  });
}

export function useUpdateUnit(organisationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: UnitUpdateInput & { id: string }) =>
      api.put<Unit>(`/organisations/${organisationId}/units/${id}`, input),
    onSuccess: () => organisationKeys.invalidate(queryClient),
  });
}
