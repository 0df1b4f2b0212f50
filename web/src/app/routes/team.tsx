// /team: a line manager's "My team", for anyone signed in. A person with no reports sees
// an empty team; the server decides who is on it.
import { lazy, Suspense } from 'react';
import { Stack, Text, Title } from '@mantine/core';
import { TeamPage } from '@/features/my-team/components/TeamPage';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

// The reports' classroom bookings waiting for this manager's approval (shown only when there are some).
const BookingRequests = lazy(() => import('@/features/sessions/components/BookingRequests'));

export function TeamRoute() {
  const { t } = useTranslation('pages');
  return (
    <Stack gap="md">
      <PageMeta title={t('team.title')} description={t('team.description')} />
      <div>
        <Title order={1}>{t('team.title')}</Title>
        <Text c="dimmed">
          {t('team.intro')}
        </Text>
      </div>
      <Suspense fallback={null}>
        <BookingRequests />
      </Suspense>
      <TeamPage />
    </Stack>
  );
}
