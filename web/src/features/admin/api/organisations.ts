// Organisations, units and people as the Users tab's filters and the user dialog choose them:
// GET /api/organisations, /api/organisations/:id/units and /api/users?organisationId=… (the
// Organisation tab itself is web/src/features/organisations).
import { useQuery } from '@tanstack/react-query';
import type { Unit } from '@shared/organisations.ts';
import { api } from '@/lib/api-client';
import { organisationsQueryOptions, unitsQueryOptions } from '@/lib/organisation-options';
import type { UserList } from '@shared/admin.ts';
import { adminKeys } from '@/lib/query-keys';

export const useOrganisations = (enabled = true) => useQuery({ ...organisationsQueryOptions(), enabled });

// ---- The Users tab's filters and the user dialog (people's organisation, unit, manager).

/** An organisation's units for a picker: none until an organisation is chosen. */
export const useUnitsOf = (organisationId: string | null) =>
  useQuery({ ...unitsQueryOptions(organisationId ?? ''), enabled: Boolean(organisationId) });

/** A unit's path from the top, e.g. "North Area / Central Station", and the units in that order. */
export function unitOptions(units: readonly Unit[]): { value: string; label: string }[] {
  const byId = new Map(units.map((u) => [u.id, u]));
  const path = (unit: Unit) => {
    const names: string[] = [];
    for (let u: Unit | undefined = unit; u && names.length < 64; u = u.parentId ? byId.get(u.parentId) : undefined) names.unshift(u.name);
    return names.join(' / ');
  };
  return units.map((u) => ({ value: u.id, label: path(u) })).sort((a, b) => a.label.localeCompare(b.label, 'en-GB'));
}

/** People of an organisation whose name, username or email holds the search (the manager picker). */
export const usePeopleOf = (organisationId: string | null, search: string) =>
  useQuery({
    queryKey: adminKeys.people(organisationId ?? '', search.trim()),
    queryFn: () => {
      const params = new URLSearchParams({ organisationId: organisationId!, pageSize: '20', status: 'active' });
      if (search.trim()) params.set('search', search.trim());
      return api.get<UserList>(`/users?${params}`);
    },
    enabled: Boolean(organisationId),
    staleTime: 30_000,
  });
