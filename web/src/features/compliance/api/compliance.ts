// The compliance view: GET /api/compliance (counts per service and required course),
// /api/compliance/people (the drill-down, paged) and /api/compliance/export.csv (the same filters,
// produced on the server under the caller's rights and handed to the browser as a download), and
// /api/compliance/units (by organisation, then unit, with the share compliant per course).
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { downloadFromApi } from '@/lib/download';
import { complianceKeys } from '@/lib/query-keys';
import type { CompliancePerson, ComplianceSummaryRow, ComplianceUnitRow, TrainingStatus } from '@shared/compliance.ts';

export interface ComplianceFilters {
  service?: string;
  role?: string;
  courseId?: string;
  /** An organisation (national administrators; an organisation's own is implied for theirs). */
  organisationId?: string;
  /** A unit of it, with the units below it. */
  unitId?: string;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export const SUMMARY_PAGE_SIZE = 50;
export const PEOPLE_PAGE_SIZE = 20;

function params(filters: ComplianceFilters & { status?: TrainingStatus }, extra: Record<string, string> = {}) {
  const p = new URLSearchParams(extra);
  for (const key of ['service', 'role', 'courseId', 'organisationId', 'unitId', 'status'] as const) {
    const value = filters[key];
    if (value) p.set(key, value);
  }
  return p;
}

export function useComplianceSummary(filters: ComplianceFilters, page: number) {
  return useQuery(
    queryOptions({
      queryKey: complianceKeys.summary(filters, page),
      queryFn: () =>
        api.get<Page<ComplianceSummaryRow>>(`/compliance?${params(filters, { page: String(page), pageSize: String(SUMMARY_PAGE_SIZE) })}`),
      placeholderData: keepPreviousData,
    }),
  );
}

export function useCompliancePeople(filters: (ComplianceFilters & { status?: TrainingStatus }) | null, page: number) {
  return useQuery({
    queryKey: complianceKeys.people(filters ?? {}, page),
    queryFn: () =>
      api.get<Page<CompliancePerson>>(`/compliance/people?${params(filters ?? {}, { page: String(page), pageSize: String(PEOPLE_PAGE_SIZE) })}`),
    placeholderData: keepPreviousData,
    enabled: filters !== null,
  });
}

/** Per group (organisation, or unit with its sub-units) and course; pass null to not ask (instructors). */
export function useComplianceUnits(filters: ComplianceFilters | null) {
  return useQuery({
    queryKey: complianceKeys.units(filters ?? {}),
    queryFn: () => api.get<{ items: ComplianceUnitRow[] }>(`/compliance/units?${params(filters ?? {})}`),
    placeholderData: keepPreviousData,
    enabled: filters !== null,
  });
}

/** Downloads the CSV of the current filters; resolves to the file name. */
export function downloadComplianceCsv(filters: ComplianceFilters & { status?: TrainingStatus }): Promise<string> {
  return downloadFromApi(`/compliance/export.csv?${params(filters)}`, 'text/csv', 'compliance.csv');
}

export function useDownloadComplianceCsv() {
  return useMutation({ mutationFn: downloadComplianceCsv });
}
