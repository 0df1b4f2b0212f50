// The organisations and units an administrator may choose from, for the compliance
// filters, the required-training rule form and the Organisation tab: GET /api/organisations (a
// national administrator every organisation, an organisation's its own) and GET
// /api/organisations/:id/units. One query per endpoint under organisationKeys, so a change made in
// the Organisation tab (which invalidates organisationKeys.all) refreshes every filter too; the
// options label units with their path ("North Area › Central Station") and sort by it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Organisation, Unit } from '@shared/organisations.ts';
import { api } from '@/lib/api-client';
import { organisationKeys } from '@/lib/query-keys';

export const organisationsQueryOptions = () =>
  queryOptions({ queryKey: organisationKeys.list(), queryFn: () => api.get<Organisation[]>('/organisations') });

export const unitsQueryOptions = (organisationId: string) =>
  queryOptions({
    queryKey: organisationKeys.units(organisationId),
    queryFn: () => api.get<Unit[]>(`/organisations/${encodeURIComponent(organisationId)}/units`),
  });

export interface Option {
  value: string;
  label: string;
}

export function useOrganisationOptions(enabled: boolean) {
  return useQuery({
    ...organisationsQueryOptions(),
    select: (list): Option[] => list.map((o) => ({ value: o.id, label: o.name })),
    enabled,
    staleTime: 60_000,
  });
}

/** Each unit's label is its path from the top of the tree. */
export function unitOptions(units: Pick<Unit, 'id' | 'parentId' | 'name'>[]): Option[] {
  const byId = new Map(units.map((u) => [u.id, u]));
  const path = (u: Pick<Unit, 'id' | 'parentId' | 'name'>): string => {
    const names = [u.name];
    let parent = u.parentId ? byId.get(u.parentId) : undefined;
    for (let depth = 0; parent && depth < 64; depth++) {
      names.unshift(parent.name);
      parent = parent.parentId ? byId.get(parent.parentId) : undefined;
    }
    return names.join(' › ');
  };
  return units.map((u) => ({ value: u.id, label: path(u) })).sort((a, b) => a.label.localeCompare(b.label, 'en-GB'));
}

export function useUnitOptions(organisationId: string | null | undefined) {
  return useQuery({
    ...unitsQueryOptions(organisationId ?? ''),
    select: unitOptions,
    enabled: Boolean(organisationId),
    staleTime: 60_000,
  });
}
