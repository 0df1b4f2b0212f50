// The preview: how many rows are ready and how many have problems, and every row (paged), with a
// filter to see only the rows with problems or only the ready ones.
import { useMemo, useState } from 'react';
import { Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ImportPreview } from '@shared/user-import.ts';
import type { Role } from '@shared/domain.ts';
import { ServiceBadge } from '@/components/ServiceBadge';
import { formatNumber } from '@/lib/format';
import { labelOf } from '@/lib/i18n/labels';
import { PageControls, usePage } from './PagedTable';
import { ProblemList } from './ProblemList';

type Show = 'all' | 'problems' | 'ready';

export function ImportSummary({ preview }: { preview: ImportPreview }) {
  const { t } = useTranslation('user-import');
  return (
    <Text fw={500} data-testid="import-summary">
      {t('importPreviewTable.summary', {
        count: preview.total,
        total: formatNumber(preview.total),
        ready: formatNumber(preview.valid),
        problems: formatNumber(preview.invalid),
      })}
    </Text>
  );
}

export function ImportPreviewTable({ preview }: { preview: ImportPreview }) {
  const { t } = useTranslation('user-import');
  const [show, setShow] = useState<Show>(preview.invalid > 0 ? 'problems' : 'all');
  const rows = useMemo(
    () => preview.rows.filter((row) => show === 'all' || (show === 'problems') === (row.problems.length > 0)),
    [preview, show],
  );
  const { page, pages, setPage, visible } = usePage(rows, `${show}:${preview.total}`);
  // Organisation, unit and manager columns only when the file places someone.
  const placed = useMemo(() => preview.rows.some((row) => row.organisation || row.unit || row.manager), [preview]);

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <ImportSummary preview={preview} />
        <SegmentedControl
          aria-label={t('importPreviewTable.rowsToShow')}
          value={show}
          onChange={(value) => setShow(value as Show)}
          data={[
            { value: 'all', label: t('importPreviewTable.showAll', { n: formatNumber(preview.total) }) },
            { value: 'problems', label: t('importPreviewTable.showProblems', { n: formatNumber(preview.invalid) }) },
            { value: 'ready', label: t('importPreviewTable.showReady', { n: formatNumber(preview.valid) }) },
          ]}
        />
      </Group>
      {rows.length === 0 ? (
        <Text c="dimmed">{show === 'problems' ? t('importPreviewTable.noProblems') : t('importPreviewTable.noneReady')}</Text>
      ) : (
        // With the organisation, unit and manager columns the table is wider than the page: the
        // region that scrolls sideways takes the focus, so it scrolls from the keyboard too (WCAG 2.1.1).
        <Table.ScrollContainer
          minWidth={900}
          scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': t('importPreviewTable.region') } }}
        >
          <Table striped aria-label={t('importPreviewTable.table')} data-testid="preview-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('columns.line')}</Table.Th>
                <Table.Th scope="col">{t('columns.username')}</Table.Th>
                <Table.Th scope="col">{t('columns.email')}</Table.Th>
                <Table.Th scope="col">{t('columns.name')}</Table.Th>
                <Table.Th scope="col">{t('columns.role')}</Table.Th>
                <Table.Th scope="col">{t('columns.services')}</Table.Th>
                {placed ? (
                  <>
                    <Table.Th scope="col">{t('columns.organisation')}</Table.Th>
                    <Table.Th scope="col">{t('columns.unit')}</Table.Th>
                    <Table.Th scope="col">{t('columns.manager')}</Table.Th>
                  </>
                ) : null}
                <Table.Th scope="col">{t('columns.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {visible.map((row) => (
                <Table.Tr key={row.line} data-line={row.line}>
                  <Table.Td>{row.line}</Table.Td>
                  <Table.Td>{row.username || '-'}</Table.Td>
                  <Table.Td>{row.email || '-'}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'pre-line' }}>{row.name || '-'}</Table.Td>
                  <Table.Td>{row.role ? labelOf('role', row.role as Role) : '-'}</Table.Td>
                  <Table.Td>
                    {row.services.length === 0 ? '-' : (
                      <Group gap={4}>{row.services.map((code) => <ServiceBadge key={code} code={code} />)}</Group>
                    )}
                  </Table.Td>
                  {placed ? (
                    <>
                      <Table.Td>{row.organisation || '-'}</Table.Td>
                      <Table.Td>{row.unit || '-'}</Table.Td>
                      <Table.Td>{row.manager || '-'}</Table.Td>
                    </>
                  ) : null}
                  <Table.Td><ProblemList problems={row.problems} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <PageControls page={page} pages={pages} total={rows.length} noun="rows" onChange={setPage} label={t('importPreviewTable.pages')} />
    </Stack>
  );
}
