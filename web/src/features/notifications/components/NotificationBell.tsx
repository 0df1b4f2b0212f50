// The bell in the header: the unread count on the button ("Notifications, 3 unread" to
// assistive technology) and, on opening, the newest notices with a link to the thing each is about,
// "Mark as read" for each unread one and "Mark all as read". The popover traps focus while open,
// closes on Escape and gives focus back to the bell.
import { ActionIcon, Anchor, Box, Button, Group, Popover, Text, Title } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { NotificationPage } from '@shared/notifications.ts';
import { i18n } from '@/lib/i18n/i18n';
import { useMarkAllRead, useMarkRead, useNotifications } from '../api/notifications';
import { NotificationItem } from './NotificationItem';

/** The bell's accessible name: "Notifications, 3 unread", or "Notifications, none unread". */
export function bellLabel(unread: number): string {
  return unread === 0
    ? i18n.t('bell.labelNone', { ns: 'notifications' })
    : i18n.t('bell.label', { ns: 'notifications', count: unread });
}

export interface NotificationBellViewProps {
  page: NotificationPage | undefined;
  loading?: boolean;
  onMarkRead: (id: string) => void;
  onMarkAllRead: () => void;
  markingAll?: boolean;
}

export function NotificationBellView({ page, loading = false, onMarkRead, onMarkAllRead, markingAll = false }: NotificationBellViewProps) {
  const { t } = useTranslation('notifications');
  const [opened, setOpened] = useState(false);
  // "Mark all as read" is disabled once nothing is unread: focus moves to the heading, not to the page.
  const heading = useRef<HTMLHeadingElement>(null);
  const unread = page?.unreadCount ?? 0;
  const items = page?.items ?? [];
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={360}
      trapFocus
      returnFocus
      withinPortal
      shadow="md"
    >
      <Popover.Target>
        {/* The target gets aria-haspopup, aria-expanded and aria-controls from the popover. */}
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={bellLabel(unread)}
          onClick={() => setOpened((o) => !o)}
          data-testid="notification-bell"
          style={{ position: 'relative', overflow: 'visible' }}
        >
          <IconBell size={18} aria-hidden="true" />
          {unread > 0 ? (
            // The count, for sighted people (the button's name says it to everyone else): white on
            // red 9, 5.6:1 in both colour schemes.
            <Box
              component="span"
              aria-hidden="true"
              data-testid="notification-count"
              style={{
                position: 'absolute',
                top: -7,
                right: -7,
                minWidth: 18,
                height: 18,
                padding: '0 4px',
                borderRadius: 9,
                background: 'var(--mantine-color-red-9)',
                color: 'var(--mantine-color-white)',
                fontSize: 11,
                fontWeight: 700,
                lineHeight: '18px',
                textAlign: 'center',
              }}
            >
              {unread > 99 ? '99+' : unread}
            </Box>
          ) : null}
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p="sm" role="dialog" aria-labelledby="notifications-heading">
        <Group justify="space-between" mb="xs" wrap="nowrap">
          <Title order={2} size="h4" id="notifications-heading" ref={heading} tabIndex={-1}>
            {t('notices.heading')}
          </Title>
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => {
              onMarkAllRead();
              heading.current?.focus();
            }}
            disabled={unread === 0}
            loading={markingAll}
          >
            {t('notices.markAllRead')}
          </Button>
        </Group>
        {loading && !page ? (
          <Text size="sm">{t('notices.loading')}</Text>
        ) : items.length === 0 ? (
          <Text size="sm">{t('notices.empty')}</Text>
        ) : (
          <Box component="ul" m={0} p={0} style={{ listStyle: 'none', maxHeight: '60vh', overflowY: 'auto' }} aria-label={t('bell.listLabel')}>
            {items.map((n) => (
              <NotificationItem key={n.id} notice={n} onMarkRead={onMarkRead} onFollow={() => setOpened(false)} />
            ))}
          </Box>
        )}
        <Group justify="space-between" mt="xs" gap="xs">
          <Text size="xs" c="dimmed">
            {page && page.total > items.length ? t('bell.showing', { shown: items.length, total: page.total }) : ''}
          </Text>
          <Anchor component={Link} to="/notifications" size="sm" onClick={() => setOpened(false)}>
            {t('bell.seeAll')}
          </Anchor>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

/** The bell for a signed-in person (nothing for a visitor). */
export function NotificationBell({ userId }: { userId: string | null | undefined }) {
  const { data, isPending } = useNotifications(userId);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  if (!userId) return null;
  return (
    <NotificationBellView
      page={data}
      loading={isPending}
      onMarkRead={(id) => markRead.mutate(id)}
      onMarkAllRead={() => markAll.mutate()}
      markingAll={markAll.isPending}
    />
  );
}
