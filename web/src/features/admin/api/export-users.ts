// GET /api/admin/users/export.csv: the Users tab's current search and filters as a CSV download.
import { useMutation } from '@tanstack/react-query';
import { downloadFromApi } from '@/lib/download';

export interface UserExportFilters {
  search: string;
  service: string | null;
  role?: string | null;
  organisationId?: string | null;
  unitId?: string | null;
  managerId?: string | null;
}

export async function exportUsersCsv({ search, service, role, organisationId, unitId, managerId }: UserExportFilters): Promise<string> {
  const params = new URLSearchParams();
  if (search.trim()) params.set('search', search.trim());
  if (service) params.set('service', service);
  if (role) params.set('role', role);
  if (organisationId) params.set('organisationId', organisationId);
  if (unitId) params.set('unitId', unitId);
  if (managerId) params.set('managerId', managerId);
  return downloadFromApi(`/admin/users/export.csv?${params}`, 'text/csv', 'users.csv');
}

export const useExportUsers = () => useMutation({ mutationFn: exportUsersCsv });
