// /notifications: the signed-in person's notices, all of them, paged; the bell in the
// header shows the newest ten and links here.
import { Stack, Text, Title } from '@mantine/core';
import { useUser } from '@/lib/auth/user';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';
import { NotificationList } from '@/features/notifications/components/NotificationList';

export function NotificationsRoute() {
  const { data: user } = useUser();
  if (!user) return <PageSpinner label="Loading your notifications" />;
  return (
    <Stack gap="lg">
      <PageMeta title="Notifications" description="Your reminders and notices about your training and certificates." />
      <div>
        <Title order={1}>Notifications</Title>
        <Text c="dimmed">Reminders and notices about your training, your certificates and the people you manage.</Text>
      </div>
      <NotificationList userId={user.id} />
    </Stack>
  );
}
