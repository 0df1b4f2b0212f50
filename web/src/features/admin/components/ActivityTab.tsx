// Activity tab: the audit trail (who, when, what changed), newest first, filtered and paged on the
// server. Each event reads as a sentence ("Jordan Hughes published 'Radio procedure'"); its before
// and after values open in a details row. The CSV export takes the same filters.
import { Fragment, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Code, Group, Pagination, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { AuditEvent, UserList } from '@shared/admin.ts';
import { AUDIT_KINDS, auditSentence } from '@shared/audit.ts';
import { api, errorDescription } from '@/lib/api-client';
import { notifyFailure } from '@/lib/notify';
import { AUDIT_PAGE_SIZE, type AuditFilterValues, useAudit, useExportAudit } from '../api/audit';
import { adminKeys } from '@/lib/query-keys';
import { formatDateTime } from '@/lib/format';

const KIND_OPTIONS = [
  { value: 'ALL', label: 'Everything' },
  ...Object.entries(AUDIT_KINDS).map(([value, label]) => ({ value, label })),
];

function describe(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(describe).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Field names as words: 'dueWithinDays' -> 'Due within days', 'site_name' -> 'Site name'. */
function fieldLabel(key: string): string {
  const words = key.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function Changes({ event }: { event: AuditEvent }) {
  const keys = Array.from(new Set([...Object.keys(event.oldData ?? {}), ...Object.keys(event.newData ?? {})]));
  if (keys.length === 0) return <Text size="sm">No values were recorded for this event.</Text>;
  return (
    <Table withTableBorder aria-label="Before and after" maw={720}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Field</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((key) => (
          <Table.Tr key={key}>
            <Table.Td>{fieldLabel(key)}</Table.Td>
            <Table.Td><Code>{describe(event.oldData?.[key])}</Code></Table.Td>
            <Table.Td><Code>{describe(event.newData?.[key])}</Code></Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The people who can act in the app (admins and instructors), for the "Who" filter. */
function useActors() {
  return useQuery({
    queryKey: adminKeys.actors(),
    queryFn: async () => {
      const [admins, instructors] = await Promise.all(['ADMIN', 'INSTRUCTOR'].map((role) =>
        api.get<UserList>(`/users?role=${role}&pageSize=100`)));
      return [...admins.items, ...instructors.items].sort((a, b) => a.name.localeCompare(b.name, 'en-GB'));
    },
  });
}

export function ActivityTab() {
  const [page, setPage] = useState(1);
  const [actor, setActor] = useState('ALL');
  const [action, setAction] = useState('ALL');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const filters: AuditFilterValues = {
    actor: actor === 'ALL' ? null : actor,
    action: action === 'ALL' ? null : action,
    from,
    to,
    search: debounced,
  };
  const { data, isPending, isError, error } = useAudit(page, filters);
  const actors = useActors();
  const exportCsv = useExportAudit();
  const filtered = Boolean(filters.actor || filters.action || from || to || debounced.trim());
  const badRange = Boolean(from && to && from > to);

  const onFilter = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPage(1);
  };
  function toggle(id: string) {
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Search activity"
          placeholder="Name, username or item"
          value={search}
          onChange={(e) => onFilter(setSearch)(e.currentTarget.value)}
        />
        <Select
          label="Who"
          data={[{ value: 'ALL', label: 'Anyone' }, ...(actors.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (@${u.username})` }))]}
          value={actor}
          allowDeselect={false}
          searchable
          onChange={(value) => onFilter(setActor)(value ?? 'ALL')}
        />
        <Select
          label="What"
          data={KIND_OPTIONS}
          value={action}
          allowDeselect={false}
          searchable
          onChange={(value) => onFilter(setAction)(value ?? 'ALL')}
        />
        <TextInput type="date" label="From" value={from} onChange={(e) => onFilter(setFrom)(e.currentTarget.value)} />
        <TextInput
          type="date"
          label="To"
          value={to}
          error={badRange ? 'The end date is before the start date' : undefined}
          onChange={(e) => onFilter(setTo)(e.currentTarget.value)}
        />
        <Button
          variant="default"
          loading={exportCsv.isPending}
          disabled={badRange}
          onClick={() => exportCsv.mutate(filters, {
            onError: (e) => notifyFailure('Export failed', errorDescription(e, 'Export failed')),
          })}
        >
          Export CSV
        </Button>
      </Group>

      {isError && !badRange ? <Text c="red.8">{errorDescription(error, 'Failed to load activity')}</Text> : null}
      {isPending ? <Text>Loading activity…</Text> : null}
      {data && data.items.length === 0 ? (
        <Text ta="center" py="xl">{filtered ? 'No activity matches these filters.' : 'No activity recorded yet.'}</Text>
      ) : null}
      {data && data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={800}>
          <Table striped aria-label="Activity">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>What happened</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Details</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((event) => {
                const expanded = open.has(event.id);
                const detailsId = `activity-details-${event.id}`;
                const sentence = auditSentence(event);
                return (
                  <Fragment key={event.id}>
                    <Table.Tr data-action={event.action}>
                      <Table.Td>{formatDateTime(event.occurredAt)}</Table.Td>
                      <Table.Td>{sentence}</Table.Td>
                      <Table.Td>{AUDIT_KINDS[event.action] ?? event.action}</Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="default"
                          aria-expanded={expanded}
                          aria-controls={detailsId}
                          aria-label={`${expanded ? 'Hide' : 'Show'} details: ${sentence}`}
                          onClick={() => toggle(event.id)}
                        >
                          {expanded ? 'Hide details' : 'Show details'}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                    {expanded ? (
                      <Table.Tr id={detailsId} data-details-for={event.action}>
                        <Table.Td colSpan={4}>
                          <Changes event={event} />
                        </Table.Td>
                      </Table.Tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {data && data.total > AUDIT_PAGE_SIZE ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">{data.total} events</Text>
          <Pagination total={Math.ceil(data.total / AUDIT_PAGE_SIZE)} value={page} onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
        </Group>
      ) : null}
    </Stack>
  );
}
