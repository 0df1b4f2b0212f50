// GET /api/audit: the Activity tab, newest first, filtered and paged on the server;
// GET /api/audit/export.csv: the same filters as a CSV download (admins only).
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { AuditEvent, Paged } from '@shared/admin.ts';
import { api } from '@/lib/api-client';
import { downloadFromApi } from '@/lib/download';
import { adminKeys } from '@/lib/query-keys';

export const AUDIT_PAGE_SIZE = 25;

export interface AuditFilterValues {
  actor: string | null;
  action: string | null;
  from: string;
  to: string;
  search: string;
}

export const NO_AUDIT_FILTERS: AuditFilterValues = { actor: null, action: null, from: '', to: '', search: '' };

function filterParams(f: AuditFilterValues): URLSearchParams {
  const params = new URLSearchParams();
  if (f.actor) params.set('actor', f.actor);
  if (f.action) params.set('action', f.action);
  if (f.from) params.set('from', f.from);
  if (f.to) params.set('to', f.to);
  if (f.search.trim()) params.set('search', f.search.trim());
  return params;
}

export const auditQueryOptions = (page: number, filters: AuditFilterValues = NO_AUDIT_FILTERS) =>
  queryOptions({
    queryKey: adminKeys.audit(page, filters),
    queryFn: () => {
      const params = filterParams(filters);
      params.set('page', String(page));
      params.set('pageSize', String(AUDIT_PAGE_SIZE));
      return api.get<Paged<AuditEvent>>(`/audit?${params}`);
    },
    placeholderData: keepPreviousData,
  });

export const useAudit = (page: number, filters: AuditFilterValues = NO_AUDIT_FILTERS) => useQuery(auditQueryOptions(page, filters));

export const useExportAudit = () =>
  useMutation({
    mutationFn: (filters: AuditFilterValues) => downloadFromApi(`/audit/export.csv?${filterParams(filters)}`, 'text/csv', 'activity.csv'),
  });
