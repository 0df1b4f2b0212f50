// /learning-record: the signed-in learner's own record (CPD activities editable), or, for an admin
// opening ?user=<id> from the Users tab, that learner's record read-only.
import { useState } from 'react';
import { Alert, Anchor, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { CpdEntry } from '@shared/cpd.ts';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDeleteCpdEntry, useDownloadLearningRecord, useLearningRecord } from '../api/learning-record';
import { CpdEntryDialog } from './CpdEntryDialog';
import { LearningRecordView } from './LearningRecordView';

export function LearningRecordPage({ userId }: { userId: string | null }) {
  const own = userId === null;
  const query = useLearningRecord(userId);
  const download = useDownloadLearningRecord();
  const remove = useDeleteCpdEntry();
  const [editing, setEditing] = useState<CpdEntry | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<CpdEntry | null>(null);

  const title = own ? 'My learning record' : query.data ? `Learning record: ${query.data.learner.name}` : 'Learning record';

  function confirmDelete() {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notifySuccess('CPD activity deleted', `${deleting.activity} has been removed from your learning record.`);
        setDeleting(null);
      },
      onError: (error) => {
        notifyFailure('The activity could not be deleted', errorDescription(error, 'Please try again.'));
        setDeleting(null);
      },
    });
  }

  return (
    <Stack gap="lg">
      <div>
        {!own ? (
          <Anchor component={Link} to="/admin" size="sm">Back to the Admin Dashboard</Anchor>
        ) : null}
        <Title order={1}>{title}</Title>
      </div>
      {query.isPending ? (
        <PageSpinner label="Loading the learning record" />
      ) : query.isError ? (
        <Alert color="red" title="The learning record could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorDescription(query.error, 'Please try again.')}</Text>
            <Button size="xs" variant="default" onClick={() => query.refetch()}>Try again</Button>
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
                onSuccess: (fileName) => notifySuccess('Learning record downloaded', `${fileName} is downloading.`),
                onError: (error) => notifyFailure('Download failed', errorDescription(error, 'The learning record could not be downloaded.')),
              },
            )
          }
        />
      )}
      {own ? (
        <>
          <CpdEntryDialog opened={adding || editing !== null} entry={editing} onClose={() => { setAdding(false); setEditing(null); }} />
          <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete this CPD activity?" centered>
            <Text mb="lg">
              {deleting ? `This permanently deletes "${deleting.activity}" from your learning record.` : ''}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>Cancel</Button>
              <Button color="red.9" loading={remove.isPending} onClick={confirmDelete}>Delete</Button>
            </Group>
          </Modal>
        </>
      ) : null}
    </Stack>
  );
}
