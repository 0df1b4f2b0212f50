// Delivery tab: the notification emails of the people this administrator administers
// (all for a national one, their organisation's for the others; the database decides), newest
// first, by status, paged on the server, with each one's attempts and last error. A sent or failed
// email can be sent again: the row stays where it is (even under a status filter) and its button
// stays focused, now saying it is queued.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Group, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import { type Delivery, type DeliveryPage, EMAIL_STATUSES, type EmailStatus } from '@shared/notifications.ts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { labelOf } from '@/lib/i18n/labels';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { formatDateTime } from '@/lib/format';
import { adminKeys } from '@/lib/query-keys';
import { DELIVERY_PAGE_SIZE, useDeliveries, useResendDelivery } from '../api/deliveries';
import { pagerControlLabel } from './UsersTab';

const statusOptions = (t: TFunction<'admin'>) => [
  { value: 'ALL', label: t('deliveryTab.everyStatus') },
  ...EMAIL_STATUSES.map((value) => ({ value, label: labelOf('emailStatus', value) })),
];

function StatusText({ delivery }: { delivery: Delivery }) {
  const { t } = useTranslation('admin');
  const retrying = delivery.status === 'queued' && delivery.attempts > 0 && delivery.nextAttemptAt;
  return (
    <Stack gap={2}>
      <Text size="sm" fw={700}>{labelOf('emailStatus', delivery.status)}</Text>
      <Text size="sm">{t('deliveryTab.attempts', { count: delivery.attempts })}</Text>
      {retrying ? <Text size="sm">{t('deliveryTab.nextTry', { date: formatDateTime(delivery.nextAttemptAt) })}</Text> : null}
    </Stack>
  );
}

export function DeliveryTab() {
  const { t } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('ALL');
  const [resent, setResent] = useState<Set<string>>(new Set());
  const statusFilter = status === 'ALL' ? null : (status as EmailStatus);
  const { data, isPending, isError, error } = useDeliveries(page, statusFilter);
  const resend = useResendDelivery();
  const queryClient = useQueryClient();

  function onResend(delivery: Delivery) {
    if (resent.has(delivery.id) || resend.isPending) return;
    resend.mutate(delivery.id, {
      onSuccess: (updated) => {
        setResent((current) => new Set(current).add(delivery.id));
        // The row is replaced where it is, so it (and the focused button) stays on this page.
        queryClient.setQueryData<DeliveryPage>(adminKeys.deliveries({ status: statusFilter, page }), (current) =>
          current ? { ...current, items: current.items.map((d) => (d.id === updated.id ? updated : d)) } : current);
        notifySuccess(t('deliveryTab.queuedToast'), t('deliveryTab.queuedMessage', { name: delivery.recipient.name }), { action: 'delivery-resend' });
      },
      onError: (e) => notifyFailure(t('deliveryTab.resendFailed'), errorDescription(e, t('deliveryTab.tryAgain')), { action: 'delivery-resend' }),
    });
  }

  return (
    <Stack>
      <Text>{t('deliveryTab.intro')}</Text>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('deliveryTab.status')}
          data={statusOptions(t)}
          value={status}
          allowDeselect={false}
          onChange={(value) => {
            setStatus(value ?? 'ALL');
            setPage(1);
          }}
        />
      </Group>

      {isError ? <Text c="red.8">{errorDescription(error, t('deliveryTab.loadFailed'))}</Text> : null}
      {isPending ? <Text>{t('deliveryTab.loading')}</Text> : null}
      {data && data.items.length === 0 ? (
        <Text ta="center" py="xl">{statusFilter ? t('deliveryTab.noneWithStatus') : t('deliveryTab.none')}</Text>
      ) : null}
      {data && data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={900}>
          <Table striped aria-label={t('deliveryTab.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('deliveryTab.columns.recipient')}</Table.Th>
                <Table.Th>{t('deliveryTab.columns.notice')}</Table.Th>
                <Table.Th>{t('deliveryTab.columns.status')}</Table.Th>
                <Table.Th>{t('deliveryTab.columns.lastError')}</Table.Th>
                <Table.Th>{t('deliveryTab.columns.created')}</Table.Th>
                <Table.Th>{t('deliveryTab.columns.sent')}</Table.Th>
                <Table.Th>{t('deliveryTab.columns.action')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((delivery) => {
                const queuedAgain = resent.has(delivery.id);
                const canResend = delivery.status === 'sent' || delivery.status === 'failed';
                return (
                  <Table.Tr key={delivery.id} data-delivery-status={delivery.status}>
                    <Table.Td>
                      <Text size="sm" fw={600}>{delivery.recipient.name}</Text>
                      <Text size="sm">{delivery.recipient.email || t('deliveryTab.noEmail')}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600}>{t(`deliveryTab.kinds.${delivery.kind}`, { defaultValue: delivery.kind })}</Text>
                      <Text size="sm">{delivery.title}</Text>
                    </Table.Td>
                    <Table.Td><StatusText delivery={delivery} /></Table.Td>
                    <Table.Td><Text size="sm">{delivery.lastError ?? '-'}</Text></Table.Td>
                    <Table.Td><Text size="sm">{formatDateTime(delivery.createdAt)}</Text></Table.Td>
                    <Table.Td><Text size="sm">{delivery.sentAt ? formatDateTime(delivery.sentAt) : '-'}</Text></Table.Td>
                    <Table.Td>
                      {canResend || queuedAgain ? (
                        // aria-disabled, not disabled (nor Mantine's loading, which disables): a disabled button loses the focus.
                        <Button
                          size="xs"
                          variant="default"
                          aria-disabled={queuedAgain || undefined}
                          aria-busy={(resend.isPending && resend.variables === delivery.id) || undefined}
                          aria-label={queuedAgain
                            ? t('deliveryTab.queuedLabel', { name: delivery.recipient.name, title: delivery.title })
                            : t('deliveryTab.resendLabel', { name: delivery.recipient.name, title: delivery.title })}
                          onClick={() => onResend(delivery)}
                        >
                          {queuedAgain ? t('deliveryTab.queued') : t('deliveryTab.resend')}
                        </Button>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {data && data.total > DELIVERY_PAGE_SIZE ? (
        <Group justify="space-between">
          <Text size="sm">{t('deliveryTab.total', { count: data.total })}</Text>
          <Pagination total={Math.ceil(data.total / DELIVERY_PAGE_SIZE)} value={page} onChange={setPage}
            getControlProps={pagerControlLabel(t)}
            getItemProps={(item) => ({ 'aria-label': t('pagination.page', { page: item }) })} />
        </Group>
      ) : null}
    </Stack>
  );
}
