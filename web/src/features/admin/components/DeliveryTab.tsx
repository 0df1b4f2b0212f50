// Delivery tab: the notification emails of the people this administrator administers
// (all for a national one, their organisation's for the others; the database decides), newest
// first, by status, paged on the server, with each one's attempts and last error. A sent or failed
// email can be sent again: the row stays where it is (even under a status filter) and its button
// stays focused, now saying it is queued.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Group, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import {
  type Delivery,
  type DeliveryPage,
  EMAIL_STATUS_LABELS,
  EMAIL_STATUSES,
  type EmailStatus,
  NOTIFICATION_KIND_NAMES,
} from '@shared/notifications.ts';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { formatDateTime } from '@/lib/format';
import { adminKeys } from '@/lib/query-keys';
import { DELIVERY_PAGE_SIZE, useDeliveries, useResendDelivery } from '../api/deliveries';

const STATUS_OPTIONS = [
  { value: 'ALL', label: 'Every status' },
  ...EMAIL_STATUSES.map((value) => ({ value, label: EMAIL_STATUS_LABELS[value] })),
];

function StatusText({ delivery }: { delivery: Delivery }) {
  const retrying = delivery.status === 'queued' && delivery.attempts > 0 && delivery.nextAttemptAt;
  return (
    <Stack gap={2}>
      <Text size="sm" fw={700}>{EMAIL_STATUS_LABELS[delivery.status]}</Text>
      <Text size="sm">{delivery.attempts === 1 ? '1 attempt' : `${delivery.attempts} attempts`}</Text>
      {retrying ? <Text size="sm">Next try {formatDateTime(delivery.nextAttemptAt)}</Text> : null}
    </Stack>
  );
}

export function DeliveryTab() {
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
        notifySuccess('Email queued', `The email to ${delivery.recipient.name} will be sent again shortly.`, { action: 'delivery-resend' });
      },
      onError: (e) => notifyFailure('Could not send again', errorDescription(e, 'Please try again.'), { action: 'delivery-resend' }),
    });
  }

  return (
    <Stack>
      <Text>Notification emails to the people you administer: what was sent, what is waiting to be retried, and what failed.</Text>
      <Group align="flex-end" wrap="wrap">
        <Select
          label="Status"
          data={STATUS_OPTIONS}
          value={status}
          allowDeselect={false}
          onChange={(value) => {
            setStatus(value ?? 'ALL');
            setPage(1);
          }}
        />
      </Group>

      {isError ? <Text c="red.8">{errorDescription(error, 'Failed to load the emails')}</Text> : null}
      {isPending ? <Text>Loading emails…</Text> : null}
      {data && data.items.length === 0 ? (
        <Text ta="center" py="xl">{statusFilter ? 'No emails with this status.' : 'No notification emails yet.'}</Text>
      ) : null}
      {data && data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={900}>
          <Table striped aria-label="Notification emails">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Recipient</Table.Th>
                <Table.Th>Notice</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Last error</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Sent</Table.Th>
                <Table.Th>Action</Table.Th>
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
                      <Text size="sm">{delivery.recipient.email || 'No email address'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600}>{NOTIFICATION_KIND_NAMES[delivery.kind] ?? delivery.kind}</Text>
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
                            ? `Queued to send again to ${delivery.recipient.name}: ${delivery.title}`
                            : `Send again to ${delivery.recipient.name}: ${delivery.title}`}
                          onClick={() => onResend(delivery)}
                        >
                          {queuedAgain ? 'Queued' : 'Resend'}
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
          <Text size="sm">{data.total} emails</Text>
          <Pagination total={Math.ceil(data.total / DELIVERY_PAGE_SIZE)} value={page} onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })} />
        </Group>
      ) : null}
    </Stack>
  );
}
