// /learning-record: the signed-in learner's own record (CPD activities editable), or, for an admin
// opening ?user=<id> from the Users tab, that learner's record read-only.
import { useState } from 'react';
import { Alert, Anchor, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CpdEntry } from '@shared/cpd.ts';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDeleteCpdEntry, useDownloadLearningRecord, useLearningRecord } from '../api/learning-record';
import { CpdEntryDialog } from './CpdEntryDialog';
import { LearningRecordView } from './LearningRecordView';

export function LearningRecordPage({ userId }: { userId: string | null }) {
  const { t } = useTranslation('learning-record');
  const own = userId === null;
  const query = useLearningRecord(userId);
  const download = useDownloadLearningRecord();
  const remove = useDeleteCpdEntry();
  const [editing, setEditing] = useState<CpdEntry | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<CpdEntry | null>(null);

  const title = own ? t('page.ownTitle') : query.data ? t('page.learnerTitle', { name: query.data.learner.name }) : t('page.title');

  function confirmDelete() {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notifySuccess(t('page.deleted'), t('page.deletedMessage', { activity: deleting.activity }));
        setDeleting(null);
      },
      onError: (error) => {
        notifyFailure(t('page.deleteFailed'), errorDescription(error, t('page.tryAgainSentence')));
        setDeleting(null);
      },
    });
  }

  return (
    <Stack gap="lg">
      <div>
        {!own ? (
          <Anchor component={Link} to="/admin" size="sm">{t('page.backToAdmin')}</Anchor>
        ) : null}
        <Title order={1}>{title}</Title>
      </div>
      {query.isPending ? (
        <PageSpinner label={t('page.loading')} />
      ) : query.isError ? (
        <Alert color="red" title={t('page.loadFailed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorDescription(query.error, t('page.tryAgainSentence'))}</Text>
            <Button size="xs" variant="default" onClick={() => query.refetch()}>{t('page.tryAgain')}</Button>
          </Stack>
        </Alert>
      ) : (
        <LearningRecordView
          record={query.data}
          editable={own}
          onAdd={() => setAdding(true)}
          onEdit={setEditing}
          onDelete={setDeleting}
          downloading={download.isPending ? download.variables?.format ?? null : null}
          onDownload={(format) =>
            download.mutate(
              { userId, format },
              {
                onSuccess: (fileName) => notifySuccess(t('page.downloaded'), t('page.downloadedMessage', { fileName })),
                onError: (error) => notifyFailure(t('page.downloadFailed'), errorDescription(error, t('page.downloadFailedMessage'))),
              },
            )
          }
        />
      )}
      {own ? (
        <>
          <CpdEntryDialog opened={adding || editing !== null} entry={editing} onClose={() => { setAdding(false); setEditing(null); }} />
          <Modal
            closeButtonProps={{ 'aria-label': t('page.closeDialog') }}
            opened={deleting !== null}
            onClose={() => setDeleting(null)}
            title={t('page.deleteTitle')}
            centered
          >
            <Text mb="lg">
              {deleting ? t('page.deleteMessage', { activity: deleting.activity }) : ''}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>{t('page.cancel')}</Button>
              <Button color="red.9" loading={remove.isPending} onClick={confirmDelete}>{t('page.delete')}</Button>
            </Group>
          </Modal>
        </>
      ) : null}
    </Stack>
  );
}
