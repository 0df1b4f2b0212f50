// My team: the reports' classroom bookings waiting for the line manager's approval, each approved or
// declined (with an optional reason, which the learner is told). Nothing shows when none wait.
import { useState } from 'react';
import { Button, Card, Group, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionRequest } from '@shared/sessions.ts';
import { errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useBookingAction, useBookingRequests, useRefuseBooking } from '../api/sessions';
import { sessionSpan } from '../lib/london';

export function BookingRequests() {
  const { t } = useTranslation('sessions');
  const requests = useBookingRequests();
  const approve = useBookingAction();
  const refuse = useRefuseBooking();
  const [declining, setDeclining] = useState<SessionRequest | null>(null);
  const [reason, setReason] = useState('');
  const failed = (error: unknown) => notifyFailure(t('requests.failed'), errorDescription(error, t('tryAgain')));

  if (requests.isError) return <Text c="red.8">{errorDescription(requests.error, t('loadFailed'))}</Text>;
  const list = requests.data ?? [];
  if (list.length === 0) return null;

  return (
    <Stack gap="sm" component="section" aria-labelledby="booking-requests-heading">
      <Title order={2} size="h3" id="booking-requests-heading">{t('requests.title', { count: list.length })}</Title>
      <Stack component="ul" gap="sm" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {list.map((r) => {
          const when = sessionSpan(r.startsAt, r.endsAt);
          return (
            <Card component="li" key={r.bookingId} withBorder padding="md" data-testid="booking-request">
              <Text fw={700}>{r.learnerName}</Text>
              <Text size="sm">{r.courseTitle} · {r.moduleTitle}</Text>
              <Text size="sm">{when} · {r.venueName ?? t('online')}</Text>
              <Text size="sm">{t('requests.askedOn', { date: formatDate(r.requestedAt) })}</Text>
              <Group gap="sm" mt="xs">
                <Button size="sm" loading={approve.isPending && approve.variables?.bookingId === r.bookingId}
                  aria-label={t('requests.approveFor', { name: r.learnerName, when })}
                  onClick={() => approve.mutate({ bookingId: r.bookingId, action: 'approve' }, {
                    onSuccess: () => notifySuccess(t('requests.approved'), t('requests.approvedMessage', { name: r.learnerName, when })),
                    onError: failed,
                  })}>
                  {t('requests.approve')}
                </Button>
                <Button size="sm" variant="default" aria-label={t('requests.declineFor', { name: r.learnerName, when })}
                  onClick={() => { setReason(''); setDeclining(r); }}>
                  {t('requests.decline')}
                </Button>
              </Group>
            </Card>
          );
        })}
      </Stack>
      <Modal opened={declining !== null} onClose={() => setDeclining(null)} title={t('requests.declineTitle')} centered closeButtonProps={{ 'aria-label': t('closeDialog') }}>
        <Stack>
          <Text size="sm">{declining ? t('requests.declineConfirm', { name: declining.learnerName, when: sessionSpan(declining.startsAt, declining.endsAt) }) : null}</Text>
          <Textarea label={t('requests.reason')} description={t('requests.reasonHint')} value={reason} maxLength={500} data-autofocus
            onChange={(e) => setReason(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeclining(null)}>{t('cancel')}</Button>
            <Button color="red.9" loading={refuse.isPending} onClick={() => declining && refuse.mutate({ bookingId: declining.bookingId, reason }, {
              onSuccess: () => {
                notifySuccess(t('requests.declined'), t('requests.declinedMessage', { name: declining.learnerName }));
                setDeclining(null);
              },
              onError: failed,
            })}>
              {t('requests.declineButton')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

export default BookingRequests;
