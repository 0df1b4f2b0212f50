// One session for those who run it: who has a place (and their marks), who waits for a manager's
// approval, the waiting list in order with any place offered and until when; the register's link and
// the bookings as CSV. A dialog over the calendar (the whole screen on a phone).
import { Anchor, Button, Group, Modal, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RegisterEntry } from '@shared/sessions.ts';
import { errorDescription } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { usePhoneLayout } from '@/lib/use-phone-layout';
import { downloadSessionCsv, useSession } from '../api/sessions';
import { sessionSpan } from '../lib/london';

function People({ title, entries, extra }: { title: string; entries: RegisterEntry[]; extra: (entry: RegisterEntry, index: number) => string }) {
  const { t } = useTranslation('sessions');
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">{t('drawer.heading', { title, count: entries.length })}</Title>
      {entries.length === 0 ? <Text size="sm">{t('drawer.nobody')}</Text> : (
        <Table>
          <Table.Tbody>
            {entries.map((entry, index) => (
              <Table.Tr key={entry.bookingId}>
                <Table.Td>{entry.name}</Table.Td>
                <Table.Td>{extra(entry, index)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

export function SessionDrawer({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const { t } = useTranslation('sessions');
  const session = useSession(sessionId);
  const phone = usePhoneLayout();
  const download = useMutation({ mutationFn: () => downloadSessionCsv(sessionId) });
  const s = session.data;
  const register = s?.register ?? [];
  const waiting = register.filter((r) => r.status === 'waiting' || r.status === 'offered');

  return (
    <Modal opened onClose={onClose} size="lg" fullScreen={phone} title={s ? sessionSpan(s.startsAt, s.endsAt) : t('loading')}
      closeButtonProps={{ 'aria-label': t('closeDialog') }}>
      {session.isPending ? (
        <Group role="status" gap="xs"><Loader size="xs" aria-hidden /><Text size="sm">{t('loading')}</Text></Group>
      ) : session.isError ? (
        <Text c="red.8">{errorDescription(session.error, t('loadFailed'))}</Text>
      ) : (
        <Stack gap="md">
          <div>
            <Text fw={600}>{session.data.courseTitle} · {session.data.moduleTitle}</Text>
            <Text size="sm">{session.data.venueName ?? t('online')}</Text>
            <Text size="sm">{t('dates.places', { taken: session.data.placesTaken, capacity: session.data.capacity })}</Text>
            {session.data.cancelledReason ? <Text size="sm">{t('dates.cancelledBecause', { reason: session.data.cancelledReason })}</Text> : null}
          </div>
          {session.data.keepsRegister ? (
            <Group>
              <Button component={Link} to={`/sessions/${sessionId}/register`}>{t('drawer.register')}</Button>
              <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} loading={download.isPending}
                onClick={() => download.mutate(undefined, {
                  onSuccess: (name) => notifySuccess(t('drawer.downloaded'), name),
                  onError: (error) => notifyFailure(t('drawer.downloadFailed'), errorDescription(error, t('tryAgain'))),
                })}>
                {t('drawer.csv')}
              </Button>
            </Group>
          ) : null}
          <People title={t('drawer.booked')} entries={register.filter((r) => r.status === 'booked')}
            extra={(r) => [r.attendance ? t(`attendance.${r.attendance}`) : t('drawer.notMarked'), r.walkIn ? t('register.walkIn') : ''].filter(Boolean).join(' · ')} />
          <People title={t('drawer.requested')} entries={register.filter((r) => r.status === 'requested')}
            extra={(r) => t('drawer.requestedOn', { date: formatDate(r.bookedAt) })} />
          <People title={t('drawer.waiting')} entries={waiting}
            extra={(r, i) => r.status === 'offered'
              ? t('drawer.offered', { position: i + 1, until: formatDateTime(r.offeredUntil) })
              : t('drawer.position', { position: i + 1, since: formatDateTime(r.waitingSince) })} />
          <Anchor component={Link} to={`/course/${session.data.courseId}/module/${session.data.moduleId}`} size="sm">{t('drawer.module')}</Anchor>
        </Stack>
      )}
    </Modal>
  );
}
