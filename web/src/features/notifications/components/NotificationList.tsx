// /notifications: every notice of the signed-in person, newest first, 20 a page, with "Unread only",
// "Mark all as read" and, per notice, its link and "Mark as read" (the bell shows the newest ten).
import { Alert, Box, Button, Card, Group, Pagination, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationPage } from '@shared/notifications.ts';
import { LIST_PAGE_SIZE, useMarkAllRead, useMarkRead, useNotifications } from '../api/notifications';
import { NotificationItem } from './NotificationItem';

export interface NotificationListViewProps {
  data: NotificationPage | undefined;
  loading: boolean;
  failed?: boolean;
  unreadOnly: boolean;
  onUnreadOnly: (value: boolean) => void;
  page: number;
  onPage: (page: number) => void;
  onMarkRead: (id: string) => void;
  onMarkAllRead: () => void;
}

export function NotificationListView(props: NotificationListViewProps) {
  const { t } = useTranslation('notifications');
  const { data, loading, failed = false, unreadOnly, page } = props;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <Card withBorder padding="lg" radius="md">
      <Group justify="space-between" mb="sm">
        <Switch label={t('list.unreadOnly')} checked={unreadOnly} onChange={(e) => props.onUnreadOnly(e.currentTarget.checked)} />
        <Group gap="sm">
          <Text size="sm" aria-live="polite">
            {data ? (data.unreadCount === 0 ? t('list.noneUnread') : t('list.unreadCount', { count: data.unreadCount })) : ''}
          </Text>
          <Button size="compact-sm" variant="light" onClick={props.onMarkAllRead} disabled={!data || data.unreadCount === 0}>
            {t('notices.markAllRead')}
          </Button>
        </Group>
      </Group>
      {failed ? (
        <Alert color="red" title={t('list.loadFailed')}>{t('list.tryLater')}</Alert>
      ) : loading && !data ? (
        <Text size="sm">{t('notices.loading')}</Text>
      ) : !data || data.items.length === 0 ? (
        <Text size="sm">{unreadOnly ? t('list.emptyUnread') : t('notices.empty')}</Text>
      ) : (
        <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('list.listLabel')}>
          {data.items.map((n) => (
            <NotificationItem key={n.id} notice={n} onMarkRead={props.onMarkRead} />
          ))}
        </Box>
      )}
      {pages > 1 ? (
        <Group justify="center" mt="md">
          <Pagination
            total={pages}
            value={page}
            onChange={props.onPage}
            getItemProps={(n) => ({ 'aria-label': t('list.page', { page: n }), 'aria-current': n === page ? 'page' : undefined })}
            getControlProps={(control) => ({ 'aria-label': t(`list.control.${control}`) })}
          />
        </Group>
      ) : null}
    </Card>
  );
}

export function NotificationList({ userId }: { userId: string }) {
  const [page, setPage] = useState(1);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const { data, isPending, isError } = useNotifications(userId, page, LIST_PAGE_SIZE, unreadOnly);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  return (
    <NotificationListView
      data={data}
      loading={isPending}
      failed={isError}
      unreadOnly={unreadOnly}
      onUnreadOnly={(value) => {
        setUnreadOnly(value);
        setPage(1);
      }}
      page={page}
      onPage={setPage}
      onMarkRead={(id) => markRead.mutate(id)}
      onMarkAllRead={() => markAll.mutate()}
    />
  );
}
