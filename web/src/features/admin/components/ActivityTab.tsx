// Activity tab: the audit trail (who, when, what changed), newest first, paged on the server.
import { useState } from 'react';
import { Code, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import type { AuditEvent } from '@shared/admin.ts';
import { errorDescription } from '@/lib/api-client';
import { AUDIT_PAGE_SIZE, useAudit } from '../api/audit';
import { formatDateTime } from '@/lib/format';

const ACTION_LABELS: Record<string, string> = {
  'user.created': 'User created',
  'user.deleted': 'User deleted',
  'user.permissions_changed': 'Role or services changed',
  'users.permissions_changed': 'Services changed for a role',
  'users.imported': 'Users imported',
  'settings.updated': 'Settings updated',
  'course.deleted': 'Course deleted',
  'certificate.revoked': 'Certificate revoked',
  'certificate.reissued': 'Certificate reissued',
  'password.reset': 'Password reset',
};

function describe(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(describe).join(', ');
  if (value && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function Changes({ event }: { event: AuditEvent }) {
  const keys = Array.from(new Set([...Object.keys(event.oldData ?? {}), ...Object.keys(event.newData ?? {})]));
  if (keys.length === 0) return <Text size="sm">-</Text>;
  return (
    <Stack gap={2}>
      {keys.map((key) => {
        const before = event.oldData?.[key];
        const after = event.newData?.[key];
        return (
          <Text key={key} size="sm">
            <Code>{key}</Code>{' '}
            {before !== undefined && after !== undefined ? `${describe(before)} → ${describe(after)}` : describe(after ?? before)}
          </Text>
        );
      })}
    </Stack>
  );
}

export function ActivityTab() {
  const [page, setPage] = useState(1);
  const { data, isPending, isError, error } = useAudit(page);
  if (isPending) return <Text>Loading activity…</Text>;
  if (isError) return <Text c="red.8">{errorDescription(error, 'Failed to load activity')}</Text>;
  if (data.items.length === 0) return <Text ta="center" py="xl">No activity recorded yet.</Text>;
  return (
    <Stack>
      <Table.ScrollContainer minWidth={800}>
        <Table striped aria-label="Activity">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th>Target</Table.Th>
              <Table.Th>Changes</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((event) => (
              <Table.Tr key={event.id} data-action={event.action}>
                <Table.Td>{formatDateTime(event.occurredAt)}</Table.Td>
                <Table.Td>{event.actor?.name ? `${event.actor.name} (@${event.actor.username})` : 'System'}</Table.Td>
                <Table.Td>{ACTION_LABELS[event.action] ?? event.action}</Table.Td>
                <Table.Td>{event.targetLabel ?? '-'}</Table.Td>
                <Table.Td><Changes event={event} /></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data.total > AUDIT_PAGE_SIZE ? (
        <Group justify="flex-end">
          <Pagination total={Math.ceil(data.total / AUDIT_PAGE_SIZE)} value={page} onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
        </Group>
      ) : null}
    </Stack>
  );
}
