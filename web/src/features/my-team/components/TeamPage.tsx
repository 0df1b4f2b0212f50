// The "My team" page's state: the filters (the search waits for a pause in typing), the page, the
// query and the export.
import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { TrainingStatus } from '@shared/compliance.ts';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDownloadTeamCsv, useTeam } from '../api/team';
import { TeamView, type TeamViewFilters } from './TeamView';

export function TeamPage() {
  const { t } = useTranslation('my-team');
  const [filters, setFilters] = useState<TeamViewFilters>({});
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const query = { ...filters, search: debouncedSearch || undefined };
  const team = useTeam(query, page);
  const download = useDownloadTeamCsv();

  function onFilterChange(key: keyof TeamViewFilters, value: string | null) {
    setFilters((f) => ({ ...f, [key]: (value ?? undefined) as (string & TrainingStatus) | undefined }));
    setPage(1);
  }

  function onExport() {
    download.mutate(query, {
      onSuccess: (fileName) => notifySuccess(t('teamPage.exportReady'), t('teamPage.exportReadyMessage', { fileName })),
      onError: (error) => notifyFailure(t('teamPage.exportFailed'), errorDescription(error, t('teamPage.tryAgain'))),
    });
  }

  return (
    <TeamView
      data={team.data}
      loading={team.isPending}
      error={team.isError ? errorDescription(team.error, t('teamPage.loadFailed')) : null}
      filters={filters}
      onFilterChange={onFilterChange}
      search={search}
      onSearchChange={(value) => {
        setSearch(value);
        setPage(1);
      }}
      page={page}
      onPageChange={setPage}
      onExport={onExport}
      exporting={download.isPending}
    />
  );
}
