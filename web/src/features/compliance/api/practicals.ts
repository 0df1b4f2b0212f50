// Practical assessments in compliance: GET /api/compliance/practicals (per organisation or unit, the
// practicals valid, due, overdue and awaiting sign-off), for administrators.
import { useQuery } from '@tanstack/react-query';
import type { CompliancePracticalsRow } from '@shared/competence.ts';
import { api } from '@/lib/api-client';
import { complianceKeys } from '@/lib/query-keys';

export function useCompliancePracticals(filters: { organisationId?: string; unitId?: string }, enabled = true) {
  const p = new URLSearchParams();
  if (filters.organisationId) p.set('organisationId', filters.organisationId);
  if (filters.unitId) p.set('unitId', filters.unitId);
  return useQuery({
    queryKey: complianceKeys.practicals({ ...filters }),
    queryFn: () => api.get<{ items: CompliancePracticalsRow[] }>(`/compliance/practicals?${p}`),
    enabled,
  });
}
