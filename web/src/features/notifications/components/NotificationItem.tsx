// One notice, in the bell's list and on /notifications: its title linking to the thing it is about
// (following it marks it read), its text, its date (22 November 2026), and "Mark as read" while unread.
import { Anchor, Box, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Notification } from '@shared/notifications.ts';
import { formatDate } from '@/lib/format';

export function NotificationItem({ notice, onMarkRead, onFollow }: {
  notice: Notification;
  onMarkRead: (id: string) => void;
  /** After following the link (the bell closes itself). */
  onFollow?: () => void;
}) {
  const { t } = useTranslation('notifications');
  const unread = !notice.readAt;
  return (
    <Box component="li" py="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} data-unread={unread ? 'true' : undefined}>
      <Stack gap={2}>
        {notice.linkPath ? (
          <Anchor
            component={Link}
            to={notice.linkPath}
            fw={unread ? 700 : 400}
            size="sm"
            onClick={() => {
              if (unread) onMarkRead(notice.id);
              onFollow?.();
            }}
          >
            {notice.title}
          </Anchor>
        ) : (
          <Text fw={unread ? 700 : 400} size="sm">{notice.title}</Text>
        )}
        {notice.body ? <Text size="sm">{notice.body}</Text> : null}
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs" c="dimmed">
            {unread ? t('item.unreadOn', { date: formatDate(notice.createdAt) }) : formatDate(notice.createdAt)}
          </Text>
          {unread ? (
            <Button size="compact-xs" variant="subtle" onClick={() => onMarkRead(notice.id)} aria-label={t('item.markReadLabel', { title: notice.title })}>
              {t('item.markRead')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Box>
  );
}
