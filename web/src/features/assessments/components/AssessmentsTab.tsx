// The instructor dashboard's "Assessments" tab: the records waiting for the caller (drafts to sign
// off, signatures waiting for a verifier) and those signed, filtered by state, paged by the server,
// each opened on its assess page; "Download (CSV)" gives the same filter, every page.
import { useState } from 'react';
import { Anchor, Button, Group, Pagination, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { QUEUE_STATES, type QueueState, type QueuedAssessment } from '@shared/assessments.ts';
import { errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { notifyFailure } from '@/lib/notify';
import { ASSESSMENT_PAGE_SIZE, downloadAssessmentQueue, useAssessmentQueue } from '../api/assessments';
import { OutcomeBadge } from './RecordSummary';

export function queueStateOf(row: Pick<QueuedAssessment, 'signedAt' | 'verifiedAt' | 'needsVerifier' | 'supersededAt'>): QueueState | 'superseded' {
  if (row.supersededAt) return 'superseded';
  if (!row.signedAt) return 'awaiting-sign-off';
  return row.needsVerifier && !row.verifiedAt ? 'awaiting-verification' : 'signed';
}

export function AssessmentsTab() {
  const { t } = useTranslation('assessments');
  // The server shows one state at a time, the records waiting for a signature first.
  const [state, setState] = useState<QueueState>('awaiting-sign-off');
  const [page, setPage] = useState(1);
  const [downloading, setDownloading] = useState(false);
  const queue = useAssessmentQueue(state, page);
  const items = queue.data?.items ?? [];
  const pages = Math.max(1, Math.ceil((queue.data?.total ?? 0) / ASSESSMENT_PAGE_SIZE));

  async function download() {
    setDownloading(true);
    try {
      await downloadAssessmentQueue(state);
    } catch (error) {
      notifyFailure(t('queue.downloadError'), errorDescription(error, t('tryAgain')));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h3">
          {t('queue.title')}
        </Title>
        <Group align="flex-end">
          <Select
            label={t('queue.filter')}
            data={QUEUE_STATES.map((value) => ({ value, label: t(`queueState.${value}`) }))}
            value={state}
            onChange={(value) => {
              setState((value ?? 'awaiting-sign-off') as QueueState);
              setPage(1);
            }}
            allowDeselect={false}
            w={240}
          />
          <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} loading={downloading} onClick={download}>
            {t('queue.download')}
          </Button>
        </Group>
      </Group>
      {queue.isError ? <Text c="red.8">{errorDescription(queue.error, t('loadFailed'))}</Text> : null}
      {queue.isPending ? (
        <Text role="status">{t('loading')}</Text>
      ) : items.length === 0 ? (
        <Text>{t('queue.none')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped>
            <Table.Caption>{t('queue.caption', { count: queue.data?.total ?? 0 })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('queue.learner')}</Table.Th>
                <Table.Th scope="col">{t('queue.module')}</Table.Th>
                <Table.Th scope="col">{t('queue.outcome')}</Table.Th>
                <Table.Th scope="col">{t('queue.state')}</Table.Th>
                <Table.Th scope="col">{t('queue.dates')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((row) => (
                <Table.Tr key={row.recordId} data-testid="queue-row">
                  <Table.Td>
                    <Anchor component={Link} to={`/instructor/assessments/records/${row.recordId}`} aria-label={t('queue.openFor', { name: row.learnerName, module: row.moduleTitle })}>
                      {row.learnerName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{row.moduleTitle}</Text>
                    <Text size="xs" c="dimmed">{row.courseTitle}</Text>
                  </Table.Td>
                  <Table.Td>
                    <OutcomeBadge outcome={row.outcome} />
                  </Table.Td>
                  <Table.Td>{t(`queueState.${queueStateOf(row)}`)}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{row.signedAt ? t('queue.signed', { date: formatDate(row.signedAt), name: row.assessorName ?? '' }) : t('queue.started', { date: formatDate(row.createdAt) })}</Text>
                    {row.verifiedAt ? <Text size="sm">{t('queue.verified', { date: formatDate(row.verifiedAt), name: row.verifierName ?? '' })}</Text> : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': t(`queue.pager.${control}`) })} /> : null}
    </Stack>
  );
}
