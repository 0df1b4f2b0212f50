// The signed-in person's offline state, under the header: "Offline: your progress will be saved
// when you are back online" with how many items wait, the replay of the queue when the connection
// is back (on start, on the 'online' event, on focus, and when Background Sync asks), and what the
// server answered to each replayed item: saved, a quiz's score, a completed course's certificate,
// or why it was refused.
import { Alert, Anchor, Button, List, Stack, Text } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { certificatePath } from '@/lib/certificates';
import type { Outcome } from '@/lib/offline/device-store';
import { useDismissOutcomes, useOfflineOutcomes, useOfflineQueue, useReplayQueue } from '@/lib/offline/hooks';
import { useOnline } from '@/lib/offline/network';
import { CONTROLLING_EVENT, REPLAY_EVENT } from '@/lib/offline/sw-events';

function OutcomeLine({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation();
  if (outcome.refusal) {
    const reason = outcome.refusal.reason ? t(`offline.refusal.${outcome.refusal.reason}`) : outcome.refusal.message;
    return <Text size="sm">{t('offline.outcomeRefused', { reason })}</Text>;
  }
  const accepted = outcome.accepted;
  if (!accepted) return null;
  const line = accepted.quiz
    ? t(accepted.quiz.passed ? 'offline.outcomeQuizPassed' : 'offline.outcomeQuizFailed', { score: accepted.quiz.score, maxScore: accepted.quiz.maxScore })
    : accepted.kind === 'scorm-sitting'
      ? t('offline.outcomeScorm')
      : t('offline.outcomeModule');
  return (
    <Stack gap={2}>
      <Text size="sm">{line}</Text>
      {accepted.courseCompleted && accepted.certificateId && !accepted.replayed ? (
        <Text size="sm">
          {t('offline.outcomeCourseCompleted')}{' '}
          <Anchor component={Link} to={certificatePath(accepted.certificateId)} size="sm" c="var(--mantine-color-text)" underline="always">
            {t('offline.viewCertificate')}
          </Anchor>
        </Text>
      ) : null}
    </Stack>
  );
}

export function OfflineStatus({ personId }: { personId: string }) {
  const { t } = useTranslation();
  const online = useOnline();
  const queue = useOfflineQueue(personId);
  const outcomes = useOfflineOutcomes(personId);
  const replay = useReplayQueue();
  const dismiss = useDismissOutcomes(personId);
  const waiting = queue.data?.length ?? 0;
  const { mutate } = replay;
  const queryClient = useQueryClient();

  // The service worker's first control of the page: what is on screen is asked again through it, so
  // the person's answers are kept for offline use from this first visit on.
  useEffect(() => {
    const askAgain = () => void queryClient.invalidateQueries();
    window.addEventListener(CONTROLLING_EVENT, askAgain);
    return () => window.removeEventListener(CONTROLLING_EVENT, askAgain);
  }, [queryClient]);

  // Replayed when the app starts online, when the connection comes back, on focus, and when the
  // service worker's Background Sync asks.
  useEffect(() => {
    const send = () => {
      if (navigator.onLine) mutate(personId);
    };
    send();
    window.addEventListener('online', send);
    window.addEventListener('focus', send);
    window.addEventListener(REPLAY_EVENT, send);
    return () => {
      window.removeEventListener('online', send);
      window.removeEventListener('focus', send);
      window.removeEventListener(REPLAY_EVENT, send);
    };
  }, [personId, mutate]);

  // Something queued while online (the connection failed mid-request): sent as soon as it is queued.
  useEffect(() => {
    if (online && waiting > 0) mutate(personId);
  }, [online, waiting, personId, mutate]);

  const seen = outcomes.data ?? [];
  if (online && waiting === 0 && seen.length === 0) return null;
  return (
    <Stack gap="sm" mb="md" data-testid="offline-status">
      {!online ? (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconCloudOff size={20} aria-hidden="true" color="var(--mantine-color-text)" />}
          title={t('offline.banner')}
          role="status"
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          {waiting > 0 ? <Text size="sm">{t('offline.waiting', { count: waiting })}</Text> : null}
        </Alert>
      ) : waiting > 0 ? (
        <Alert color="blue" variant="light" role="status">
          <Text size="sm">{t('offline.sending', { count: waiting })}</Text>
        </Alert>
      ) : null}
      {seen.length > 0 ? (
        <Alert color="green" variant="light" title={t('offline.outcomesTitle')} data-testid="offline-outcomes" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          <Stack gap="xs" align="flex-start">
            <List spacing={4}>
              {seen.map((outcome) => (
                <List.Item key={outcome.key}>
                  <OutcomeLine outcome={outcome} />
                </List.Item>
              ))}
            </List>
            <Button size="xs" variant="default" onClick={() => dismiss.mutate()} loading={dismiss.isPending}>
              {t('offline.dismiss')}
            </Button>
          </Stack>
        </Alert>
      ) : null}
    </Stack>
  );
}
