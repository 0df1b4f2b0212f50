// What the import did: how many users were created and skipped, the one-time passwords (to read
// here and to download as CSV), and every skipped row with the reason.
import { forwardRef } from 'react';
import { Alert, Button, Code, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ImportResult, SkippedRow } from '@shared/user-import.ts';
import { formatNumber } from '@/lib/format';
import { labelOf } from '@/lib/i18n/labels';
import { downloadText, passwordsCsv, passwordsFileName } from '../lib/passwords-csv';
import { PageControls, usePage } from './PagedTable';
import { ProblemList, READABLE_TITLE } from './ProblemList';

export interface ImportResultViewProps {
  result: ImportResult;
  /** Rows skipped before sending (problems in the preview). */
  skippedBefore: SkippedRow[];
  /** Rows never sent because the import stopped. */
  notSent: number;
  error: string | null;
}

function CreatedTable({ result }: { result: ImportResult }) {
  const { t } = useTranslation('user-import');
  const { page, pages, setPage, visible } = usePage(result.created, result.created.length);
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={800}>
        <Table striped aria-label={t('importResultView.createdTable')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('columns.line')}</Table.Th>
              <Table.Th scope="col">{t('columns.username')}</Table.Th>
              <Table.Th scope="col">{t('columns.email')}</Table.Th>
              <Table.Th scope="col">{t('columns.name')}</Table.Th>
              <Table.Th scope="col">{t('columns.role')}</Table.Th>
              <Table.Th scope="col">{t('columns.temporaryPassword')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {visible.map((user) => (
              <Table.Tr key={user.id} data-created={user.username}>
                <Table.Td>{user.line}</Table.Td>
                <Table.Td>{user.username}</Table.Td>
                <Table.Td>{user.email}</Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-line' }}>{user.name}</Table.Td>
                <Table.Td>{labelOf('role', user.role)}</Table.Td>
                <Table.Td><Code>{user.temporaryPassword}</Code></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <PageControls page={page} pages={pages} total={result.created.length} noun="users" onChange={setPage} label={t('importResultView.createdPages')} />
    </Stack>
  );
}

function SkippedTable({ rows }: { rows: SkippedRow[] }) {
  const { t } = useTranslation('user-import');
  const { page, pages, setPage, visible } = usePage(rows, rows.length);
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={800}>
        <Table striped aria-label={t('importResultView.skippedTable')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('columns.line')}</Table.Th>
              <Table.Th scope="col">{t('columns.username')}</Table.Th>
              <Table.Th scope="col">{t('columns.email')}</Table.Th>
              <Table.Th scope="col">{t('columns.why')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {visible.map((row) => (
              <Table.Tr key={row.line} data-skipped={row.line}>
                <Table.Td>{row.line}</Table.Td>
                <Table.Td>{row.username || '-'}</Table.Td>
                <Table.Td>{row.email || '-'}</Table.Td>
                <Table.Td><ProblemList problems={row.problems} /></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <PageControls page={page} pages={pages} total={rows.length} noun="rows" onChange={setPage} label={t('importResultView.skippedPages')} />
    </Stack>
  );
}

export const ImportResultView = forwardRef<HTMLHeadingElement, ImportResultViewProps>(function ImportResultView(
  { result, skippedBefore, notSent, error },
  headingRef,
) {
  const { t } = useTranslation('user-import');
  const skipped = [...skippedBefore, ...result.skipped].sort((a, b) => a.line - b.line);
  const created = result.created.length;
  return (
    <Stack>
      <Title order={2} ref={headingRef} tabIndex={-1}>
        {error ? t('importResultView.stopped') : t('importResultView.finished')}
      </Title>
      <Alert styles={READABLE_TITLE} color={error ? 'red' : 'teal'} variant="light" title={error ? t('importResultView.notEverySent') : undefined}>
        <Text data-testid="import-outcome">
          {t(notSent > 0 ? 'importResultView.outcomeNotSent' : 'importResultView.outcome', {
            count: created,
            created: formatNumber(created),
            skipped: formatNumber(skipped.length),
            notSent: formatNumber(notSent),
          })}
        </Text>
        {error ? <Text mt="xs">{t('importResultView.rolledBack', { error })}</Text> : null}
      </Alert>
      {created > 0 ? (
        <Alert styles={READABLE_TITLE} color="yellow" variant="light" title={t('importResultView.passwordsOnce')}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{t('importResultView.passwordsAdvice')}</Text>
            <Button
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => downloadText(passwordsCsv(result.created), passwordsFileName())}
            >
              {t('importResultView.downloadPasswords')}
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {created > 0 ? (
        <>
          <Title order={3}>{t('importResultView.created', { n: formatNumber(created) })}</Title>
          <CreatedTable result={result} />
        </>
      ) : null}
      {skipped.length > 0 ? (
        <>
          <Title order={3}>{t('importResultView.skipped', { n: formatNumber(skipped.length) })}</Title>
          <SkippedTable rows={skipped} />
        </>
      ) : null}
    </Stack>
  );
});
