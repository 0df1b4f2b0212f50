// The course editor's "Dates" of a session module: each date with its London time range, venue or
// online link, places taken of capacity and status; adding and changing a date (SessionDialog) and
// cancelling one with a reason, after confirmation.
import { useState } from 'react';
import { Button, Card, Group, Loader, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ClassroomSession } from '@shared/sessions.ts';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCancelSession, useModuleSessions } from '../api/sessions';
import { sessionSpan } from '../lib/london';
import { SessionDialog } from './SessionDialog';
import { SessionStatusBadge } from './SessionStatusBadge';

type Editing = { session?: ClassroomSession } | null;

export function SessionDatesPanel({ moduleId, moduleTitle }: { moduleId: string; moduleTitle: string }) {
  const { t } = useTranslation('sessions');
  const sessions = useModuleSessions(moduleId);
  const cancel = useCancelSession();
  const [editing, setEditing] = useState<Editing>(null);
  const [cancelling, setCancelling] = useState<ClassroomSession | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);

  function confirmCancel() {
    if (!cancelling) return;
    if (!reason.trim()) {
      setReasonError(t('dates.reasonNeeded'));
      return;
    }
    cancel.mutate({ id: cancelling.id, reason: reason.trim() }, {
      onSuccess: (s) => {
        notifySuccess(t('dates.cancelled'), sessionSpan(s.startsAt, s.endsAt));
        setCancelling(null);
      },
      onError: (error) => notifyFailure(t('dates.cancelFailed'), errorDescription(error, t('tryAgain'))),
    });
  }

  // The editor runs the module: its answer is the managing view, every date (a learner's view lists none here).
  const list = sessions.data?.view === 'manage' ? sessions.data.sessions : [];
  return (
    <Stack gap="sm" data-testid="session-dates">
      <Group justify="space-between">
        <Title order={3} size="h4">{t('dates.title', { title: moduleTitle })}</Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing({})}>
          {t('dates.add')}
        </Button>
      </Group>
      {sessions.isPending ? (
        <Group role="status" gap="xs"><Loader size="xs" aria-hidden /><Text size="sm">{t('loading')}</Text></Group>
      ) : sessions.isError ? (
        <Text c="red.8">{errorDescription(sessions.error, t('loadFailed'))}</Text>
      ) : list.length === 0 ? (
        <Text size="sm">{t('dates.none')}</Text>
      ) : (
        <Stack component="ul" gap="xs" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('dates.list')}>
          {list.map((s) => {
            const when = sessionSpan(s.startsAt, s.endsAt);
            return (
              <Card component="li" key={s.id} withBorder padding="sm" data-testid="session-date">
                <Group justify="space-between" align="flex-start" gap="xs">
                  <Stack gap={2}>
                    <Text fw={700}>{when}</Text>
                    <Text size="sm">{s.venueName ? [s.venueName, s.venueAddress].filter(Boolean).join(', ') : t('online')}</Text>
                    <Text size="sm">{t('dates.places', { taken: s.placesTaken, capacity: s.capacity })}</Text>
                    {s.cancelledReason ? <Text size="sm">{t('dates.cancelledBecause', { reason: s.cancelledReason })}</Text> : null}
                  </Stack>
                  <SessionStatusBadge session={s} />
                </Group>
                {s.canManage && !s.cancelledAt ? (
                  <Group gap="xs" mt="xs">
                    <Button size="xs" variant="default" onClick={() => setEditing({ session: s })} aria-label={t('dates.editFor', { when })}>
                      {t('dates.edit')}
                    </Button>
                    <Button size="xs" variant="default" color="red.9" onClick={() => { setReason(''); setReasonError(null); setCancelling(s); }}
                      aria-label={t('dates.cancelFor', { when })}>
                      {t('dates.cancel')}
                    </Button>
                  </Group>
                ) : null}
              </Card>
            );
          })}
        </Stack>
      )}
      {editing ? <SessionDialog moduleId={moduleId} session={editing.session} onClose={() => setEditing(null)} /> : null}
      <Modal opened={cancelling !== null} onClose={() => setCancelling(null)} title={t('dates.cancelTitle')} centered closeButtonProps={{ 'aria-label': t('closeDialog') }}>
        <Stack>
          <Text size="sm">{cancelling ? t('dates.cancelConfirm', { when: sessionSpan(cancelling.startsAt, cancelling.endsAt) }) : null}</Text>
          <Textarea label={t('dates.reason')} required value={reason} error={reasonError} data-autofocus
            onChange={(e) => { setReason(e.currentTarget.value); setReasonError(null); }} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setCancelling(null)}>{t('dates.keep')}</Button>
            <Button color="red.9" loading={cancel.isPending} onClick={confirmCancel}>{t('dates.cancelButton')}</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
