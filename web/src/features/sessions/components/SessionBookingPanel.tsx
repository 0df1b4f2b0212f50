// A session module as the learner sees it: the dates (London date and time, venue or online link,
// trainers, places left) and the learner's booking, with what they may do next: book a date, join its
// waiting list, move to another date, cancel (until booking closes, after confirmation), accept or
// decline an offered place. The module completes when the register says attended, never by a button.
// After an action the focus moves to the booking's status line, which says what happened. A learner
// gets the next dates first; "Show later dates" asks for more and moves the focus to the first added.
import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { LIVE_BOOKING_STATUSES, type ModuleSessions, SESSION_DATES_LIMIT, type SessionBooking, type SessionDate } from '@shared/sessions.ts';
import { errorDescription } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { type BookingAction, useBook, useBookingAction, useModuleSessions } from '../api/sessions';
import { sessionSpan } from '../lib/london';
import { SessionStatusBadge } from './SessionStatusBadge';

/** A date of the list as the panel shows it, from either view of the answer (a learner keeps no register). */
type ListedDate = SessionDate & { keepsRegister: boolean };

function listedDates(data: ModuleSessions): ListedDate[] {
  return data.view === 'learner'
    ? data.sessions.map((s) => ({ ...s, keepsRegister: false }))
    : data.sessions.map((s) => ({ ...s, trainers: s.trainers.map((p) => p.name) }));
}

/** What the learner's booking says, in one line. */
function bookingLine(t: TFunction<'sessions'>, booking: SessionBooking, session: ListedDate | undefined) {
  const when = session ? sessionSpan(session.startsAt, session.endsAt) : '';
  if (booking.attendance === 'attended') return t('learner.attended', { date: session ? formatDate(session.startsAt) : '' });
  switch (booking.status) {
    case 'booked': return t('learner.booked', { when });
    case 'requested': return t('learner.requested', { when });
    case 'waiting': return t('learner.waiting', { when });
    case 'offered': return t('learner.offered', { when, until: formatDateTime(booking.offeredUntil) });
    case 'cancelled': return t('learner.cancelledBooking');
    case 'declined': return t('learner.declined');
    case 'lapsed': return t('learner.lapsed');
  }
}

export function SessionBookingPanel({ moduleId, enrolled }: { moduleId: string; enrolled: boolean }) {
  const { t } = useTranslation('sessions');
  const [limit, setLimit] = useState<number>(SESSION_DATES_LIMIT.default);
  const sessions = useModuleSessions(moduleId, limit);
  const book = useBook(moduleId);
  const act = useBookingAction();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  // The index of the first date "Show later dates" adds: it takes the focus once shown.
  const firstAdded = useRef<number | null>(null);
  const booking = sessions.data?.myBooking ?? null;
  const shown = sessions.data ? sessions.data.sessions.length : 0;

  useEffect(() => {
    if (firstAdded.current === null) return;
    const heading = listRef.current?.querySelectorAll<HTMLElement>('[data-date-heading]')[firstAdded.current];
    if (!heading) return;
    firstAdded.current = null;
    heading.focus();
  }, [shown]);

  if (sessions.isPending) {
    return <Group role="status" gap="xs"><Loader size="xs" aria-hidden /><Text size="sm">{t('loading')}</Text></Group>;
  }
  if (sessions.isError) return <Text c="red.8">{errorDescription(sessions.error, t('loadFailed'))}</Text>;

  const list = listedDates(sessions.data).filter((s) => !s.cancelledAt || s.id === booking?.sessionId);
  const more = sessions.data.view === 'learner' && sessions.data.more && limit < SESSION_DATES_LIMIT.max;
  const live = booking && LIVE_BOOKING_STATUSES.includes(booking.status) ? booking : null;
  const attended = booking?.attendance === 'attended' ? booking : null;
  const mine = booking ? list.find((s) => s.id === booking.sessionId) : undefined;
  const busy = book.isPending || act.isPending;

  // Runs once the refreshed booking is on screen: the focus goes to the line that says it (the
  // pressed button may be gone), after any dialog has closed.
  function done(message: string) {
    notifySuccess(t('learner.saved'), message);
    setTimeout(() => statusRef.current?.focus(), 0);
  }
  const failed = (error: unknown) => notifyFailure(t('learner.failed'), errorDescription(error, t('tryAgain')));

  function showLater() {
    firstAdded.current = list.length;
    setLimit((n) => Math.min(n + SESSION_DATES_LIMIT.default, SESSION_DATES_LIMIT.max));
  }

  function bookDate(session: ListedDate) {
    book.mutate({ sessionId: session.id, bookingId: live?.id }, {
      onSuccess: (b) => done(bookingLine(t, b, session)),
      onError: failed,
    });
  }

  function answer(action: BookingAction) {
    if (!live) return;
    act.mutate({ bookingId: live.id, action }, {
      onSuccess: (b) => {
        setConfirmCancel(false);
        done(bookingLine(t, b, mine));
      },
      onError: failed,
    });
  }

  return (
    <Stack gap="md" component="section" aria-labelledby="session-dates-heading" data-testid="session-booking-panel">
      <Title order={2} size="h3" id="session-dates-heading">{t('learner.title')}</Title>
      {attended ? (
        <Alert color="green" variant="light" icon={<IconCircleCheck size={20} aria-hidden color="var(--mantine-color-green-9)" />}>
          <Text fw={700} ref={statusRef} tabIndex={-1} data-testid="session-status">{bookingLine(t, attended, mine)}</Text>
        </Alert>
      ) : booking ? (
        <Alert color={booking.status === 'offered' ? 'orange' : 'blue'} variant="light">
          <Stack gap="xs">
            <Text fw={700} ref={statusRef} tabIndex={-1} data-testid="session-status">{bookingLine(t, booking, mine)}</Text>
            {live?.status === 'offered' ? (
              <Group gap="sm">
                <Button onClick={() => answer('accept')} loading={act.isPending}>{t('learner.accept')}</Button>
                <Button variant="default" onClick={() => answer('decline')} disabled={busy}>{t('learner.decline')}</Button>
              </Group>
            ) : live && (!mine || mine.bookingOpen) ? (
              <Group>
                <Button variant="default" color="red.9" onClick={() => setConfirmCancel(true)} disabled={busy}>
                  {live.status === 'waiting' ? t('learner.leaveWaitingList') : t('learner.cancelBooking')}
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Alert>
      ) : (
        <Text ref={statusRef} tabIndex={-1} data-testid="session-status">{enrolled ? t('learner.choose') : t('learner.enrolToBook')}</Text>
      )}
      <Text size="sm">{t('learner.completesByRegister')}</Text>
      {list.length === 0 ? (
        <Text>{t('learner.noDates')}</Text>
      ) : (
        <Stack component="ul" ref={listRef} gap="sm" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('learner.list')}>
          {list.map((s) => {
            const when = sessionSpan(s.startsAt, s.endsAt);
            const isMine = s.id === live?.sessionId;
            const full = s.placesLeft === 0;
            const label = live ? t('learner.move') : full ? t('learner.join') : t('learner.book');
            return (
              <Card component="li" key={s.id} withBorder padding="md" data-testid="learner-session">
                <Group justify="space-between" align="flex-start" gap="xs">
                  <Stack gap={4} style={{ minWidth: 0 }}>
                    <Text fw={700} tabIndex={-1} data-date-heading>{when}</Text>
                    {s.venueName ? (
                      <Text size="sm">{[s.venueName, s.venueAddress].filter(Boolean).join(', ')}</Text>
                    ) : s.onlineUrl ? (
                      <Text size="sm">
                        {t('online')}{' · '}
                        <Anchor href={s.onlineUrl} target="_blank" rel="noreferrer">{t('learner.joinLink')}</Anchor>
                      </Text>
                    ) : null}
                    {s.trainers.length > 0 ? <Text size="sm">{t('learner.trainers', { names: s.trainers.join(', ') })}</Text> : null}
                    {s.note ? <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{s.note}</Text> : null}
                    <Text size="sm">{full ? t('learner.full') : t('learner.placesLeft', { count: s.placesLeft })}</Text>
                  </Stack>
                  <Group gap="xs">
                    {isMine ? <Badge variant="filled" color="blue.9">{t('learner.yourDate')}</Badge> : null}
                    <SessionStatusBadge session={s} />
                  </Group>
                </Group>
                <Group gap="sm" mt="sm">
                  {enrolled && !attended && !isMine && s.bookingOpen && !s.cancelledAt && live?.status !== 'offered' ? (
                    <Button onClick={() => bookDate(s)} disabled={busy} aria-label={`${label}: ${when}`}>{label}</Button>
                  ) : null}
                  {s.keepsRegister ? (
                    <Anchor component={Link} to={`/sessions/${s.id}/register`} size="sm">{t('learner.openRegister')}</Anchor>
                  ) : null}
                </Group>
              </Card>
            );
          })}
        </Stack>
      )}
      {more ? (
        <Group>
          <Button variant="default" onClick={showLater} loading={sessions.isPlaceholderData && sessions.isFetching}>{t('learner.showLater')}</Button>
        </Group>
      ) : null}
      <Modal opened={confirmCancel} onClose={() => setConfirmCancel(false)} title={t('learner.cancelTitle')} centered closeButtonProps={{ 'aria-label': t('closeDialog') }}>
        <Stack>
          <Text size="sm">{mine ? t('learner.cancelConfirm', { when: sessionSpan(mine.startsAt, mine.endsAt) }) : null}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmCancel(false)}>{t('learner.keepBooking')}</Button>
            <Button color="red.9" loading={act.isPending} onClick={() => answer('cancel')}>{t('learner.confirmCancel')}</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

export default SessionBookingPanel;
