// /notifications: the signed-in person's notices, all of them, paged; the bell in the
// header shows the newest ten and links here.
import { Stack, Text, Title } from '@mantine/core';
import { useUser } from '@/lib/auth/user';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';
import { NotificationList } from '@/features/notifications/components/NotificationList';
import { useTranslation } from 'react-i18next';

export function NotificationsRoute() {
  const { t } = useTranslation('pages');
  const { data: user } = useUser();
  if (!user) return <PageSpinner label={t('notifications.loading')} />;
  return (
    <Stack gap="lg">
      <PageMeta title={t('notifications.title')} description={t('notifications.description')} />
      <div>
        <Title order={1}>{t('notifications.title')}</Title>
        <Text c="dimmed">{t('notifications.intro')}</Text>
      </div>
      <NotificationList userId={user.id} />
    </Stack>
  );
}
