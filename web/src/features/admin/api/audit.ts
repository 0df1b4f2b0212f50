// GET /api/audit: the Activity tab, newest first, paged on the server.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditEvent, Paged } from '@shared/admin.ts';
import { api } from '@/lib/api-client';
import { adminKeys } from './keys';

export const AUDIT_PAGE_SIZE = 25;

export const auditQueryOptions = (page: number) =>
  queryOptions({
    queryKey: adminKeys.audit(page),
    queryFn: () => api.get<Paged<AuditEvent>>(`/audit?page=${page}&pageSize=${AUDIT_PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });

export const useAudit = (page: number) => useQuery(auditQueryOptions(page));
