// The Organisation tab's requests: GET/POST /api/organisations (national administrators) and an
// organisation's units, GET/POST /api/organisations/:id/units and PUT …/units/:unitId (rename, move).
// The lists are cached under organisationKeys, the same entries the admin's pickers read.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Organisation, OrganisationInput, Unit, UnitCreateInput, UnitUpdateInput } from '@shared/organisations.ts';
import { api } from '@/lib/api-client';
import { organisationsQueryOptions, unitsQueryOptions } from '@/lib/organisation-options';
import { organisationKeys } from '@/lib/query-keys';

export const useOrganisations = () => useQuery(organisationsQueryOptions());

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
