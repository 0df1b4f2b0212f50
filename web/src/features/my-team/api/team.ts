// A line manager's team: GET /api/team (one page of reports with the summary and the
// units to filter by), GET /api/team/:personId (one report's record) and the CSV export, produced
// on the server under the caller's rights and handed to the browser as a download.
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { TrainingStatus } from '@shared/compliance.ts';
import type { TeamMemberRecord, TeamPage } from '@shared/team.ts';
import { api } from '@/lib/api-client';
import { downloadFromApi } from '@/lib/download';
import { teamKeys } from '@/lib/query-keys';

export const TEAM_PAGE_SIZE = 20;

export interface TeamFilters {
  unitId?: string;
  status?: TrainingStatus;
  search?: string;
}

function params(filters: TeamFilters, extra: Record<string, string> = {}) {
  const p = new URLSearchParams(extra);
  for (const key of ['unitId', 'status', 'search'] as const) {
    const value = filters[key]?.trim();
    if (value) p.set(key, value);
  }
  return p;
}

export function teamQueryOptions(filters: TeamFilters, page: number) {
  return queryOptions({
    queryKey: teamKeys.list({ ...filters, page, pageSize: TEAM_PAGE_SIZE }),
    queryFn: () => api.get<TeamPage>(`/team?${params(filters, { page: String(page), pageSize: String(TEAM_PAGE_SIZE) })}`),
    placeholderData: keepPreviousData,
  });
}

export function useTeam(filters: TeamFilters, page: number) {
  return useQuery(teamQueryOptions(filters, page));
}

export function useTeamMember(personId: string) {
  return useQuery({
    queryKey: teamKeys.member(personId),
    queryFn: () => api.get<TeamMemberRecord>(`/team/${encodeURIComponent(personId)}`),
  });
}

/** Downloads the CSV of every report matching the filters; resolves to the file name. */
export function downloadTeamCsv(filters: TeamFilters): Promise<string> {
  return downloadFromApi(`/team/export.csv?${params(filters)}`, 'text/csv', 'my-team.csv');
}

export function useDownloadTeamCsv() {
  return useMutation({ mutationFn: downloadTeamCsv });
}
