// "My team" as the screen shows it: a summary of the manager's reports (how many, how
// many overdue or due soon, certificates expiring), the filters (unit, status, search), the people
// grouped by unit with their required-training status, expiring certificates and last activity, a
// link to each person's record, Export CSV and paging. On a phone the table becomes stacked cards
// with every field. Who is on the team is decided by the server only.
import { Anchor, Button, Center, Group, Loader, Pagination, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { TRAINING_STATUS_LABELS, TRAINING_STATUSES, type TrainingStatus } from '@shared/compliance.ts';
import { TEAM_SEARCH_MAX, type TeamMember, type TeamPage } from '@shared/team.ts';
import { TrainingStatusBadge } from '@/components/TrainingStatusBadge';
import { Field, FieldList } from '@/components/FieldList';
import { formatDate } from '@/lib/format';
import { usePhoneLayout } from '@/lib/use-phone-layout';

export interface TeamViewFilters {
  unitId?: string;
  status?: TrainingStatus;
}

export interface TeamViewProps {
  data: TeamPage | undefined;
  loading: boolean;
  error: string | null;
  filters: TeamViewFilters;
  onFilterChange: (key: keyof TeamViewFilters, value: string | null) => void;
  search: string;
  onSearchChange: (value: string) => void;
  page: number;
  onPageChange: (page: number) => void;
  onExport: () => void;
  exporting: boolean;
}

const COUNT_KEYS: { status: TrainingStatus; key: keyof TeamMember['counts'] }[] = [
  { status: 'overdue', key: 'overdue' },
  { status: 'due-soon', key: 'dueSoon' },
  { status: 'in-progress', key: 'inProgress' },
  { status: 'done', key: 'done' },
];

const NO_UNIT = 'No unit';

function Figure({ label, value, detail }: { label: string; value: number; detail?: string }) {
  const id = `team-figure-${label.replace(/\s+/g, '-').toLowerCase()}`;
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed" id={id}>{label}</Text>
      <Text fz={28} fw={700} aria-labelledby={id} data-testid={id}>{value}</Text>
      {detail && <Text size="sm" c="dimmed">{detail}</Text>}
    </Paper>
  );
}

function courses(n: number) {
  return `${n} ${n === 1 ? 'course' : 'courses'}`;
}

/** The person's required training: a badge and count per status they have; a line when nothing is required. */
export function StatusCounts({ counts }: { counts: TeamMember['counts'] }) {
  const present = COUNT_KEYS.filter((c) => counts[c.key] > 0);
  if (present.length === 0) return <Text size="sm" c="dimmed">Nothing required</Text>;
  return (
    <Group gap={8}>
      {present.map(({ status, key }) => (
        <Group key={status} gap={4} wrap="nowrap" data-count={status}>
          <TrainingStatusBadge status={status} />
          <Text size="sm">{courses(counts[key])}</Text>
        </Group>
      ))}
    </Group>
  );
}

function expiringText(m: TeamMember) {
  if (m.expiringCertificates === 0) return 'None';
  return `${m.expiringCertificates}, the first on ${formatDate(m.nextExpiry)}`;
}

function lastActivityText(m: TeamMember) {
  return m.lastActivityAt ? formatDate(m.lastActivityAt) : 'No activity yet';
}

function PersonLink({ member }: { member: TeamMember }) {
  return (
    <Anchor component={Link} to={`/team/${member.user.id}`} fw={600} c="blue.9">
      {member.user.name}
    </Anchor>
  );
}

function personDetail(m: TeamMember) {
  return `@${m.user.username} · ${m.direct ? 'Reports to you' : 'Reports through your team'}`;
}

/** The page's people in their units, in the server's order (by unit, then name). */
function groups(items: TeamMember[]): { key: string; name: string; members: TeamMember[] }[] {
  const out: { key: string; name: string; members: TeamMember[] }[] = [];
  for (const m of items) {
    const key = m.unit?.id ?? 'none';
    const last = out.at(-1);
    if (last && last.key === key) last.members.push(m);
    else out.push({ key, name: m.unit?.name ?? NO_UNIT, members: [m] });
  }
  return out;
}

function TeamTable({ items }: { items: TeamMember[] }) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table aria-label="Your team by unit" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Person</Table.Th>
            <Table.Th scope="col">Required training</Table.Th>
            <Table.Th scope="col">Certificates expiring</Table.Th>
            <Table.Th scope="col">Last activity</Table.Th>
          </Table.Tr>
        </Table.Thead>
        {groups(items).map((g) => (
          <Table.Tbody key={g.key} data-unit={g.key}>
            <Table.Tr bg="var(--mantine-color-default-hover)">
              <Table.Th scope="colgroup" colSpan={4}>
                {g.name}
              </Table.Th>
            </Table.Tr>
            {g.members.map((m) => (
              <Table.Tr key={m.user.id} data-user={m.user.id}>
                <Table.Td>
                  <PersonLink member={m} />
                  <Text size="sm" c="dimmed">{personDetail(m)}</Text>
                </Table.Td>
                <Table.Td>
                  <StatusCounts counts={m.counts} />
                </Table.Td>
                <Table.Td>{expiringText(m)}</Table.Td>
                <Table.Td>{lastActivityText(m)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        ))}
      </Table>
    </Table.ScrollContainer>
  );
}

function TeamCards({ items }: { items: TeamMember[] }) {
  return (
    <Stack gap="lg">
      {groups(items).map((g) => (
        <Stack key={g.key} gap="xs" component="section" aria-labelledby={`team-unit-${g.key}`} data-unit={g.key}>
          <Title order={3} size="h5" id={`team-unit-${g.key}`}>{g.name}</Title>
          <Stack gap="xs" component="ul" aria-label={`People in ${g.name}`} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {g.members.map((m) => (
              <Paper key={m.user.id} component="li" withBorder p="sm" radius="md" data-user={m.user.id}>
                <PersonLink member={m} />
                <Text size="sm" c="dimmed" mb="xs">{personDetail(m)}</Text>
                <FieldList cols={1}>
                  <Field label="Required training"><StatusCounts counts={m.counts} /></Field>
                  <Field label="Certificates expiring">{expiringText(m)}</Field>
                  <Field label="Last activity">{lastActivityText(m)}</Field>
                </FieldList>
              </Paper>
            ))}
          </Stack>
        </Stack>
      ))}
    </Stack>
  );
}

export function TeamView(props: TeamViewProps) {
  const { data, loading, error, filters, onFilterChange, search, onSearchChange, page, onPageChange, onExport, exporting } = props;
  const phone = usePhoneLayout();
  const summary = data?.summary;
  const filtered = Boolean(filters.unitId || filters.status || search.trim());
  const noTeam = summary !== undefined && summary.people === 0;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  if (noTeam) {
    return (
      <Paper withBorder p="xl" radius="md">
        <Stack align="center" gap="xs">
          <Title order={2} size="h4">Nobody reports to you yet</Title>
          <Text c="dimmed" ta="center">
            When people in your organisation have you as their line manager, they appear here with their required
            training, certificates and last activity.
          </Text>
        </Stack>
      </Paper>
    );
  }

  return (
    <Stack gap="lg">
      {summary && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} component="section" aria-label="Summary">
          <Figure label="People" value={summary.people} detail={`${summary.direct} reporting to you directly`} />
          <Figure label="Overdue" value={summary.overdue} detail="people with overdue training" />
          <Figure label="Due soon" value={summary.dueSoon} detail="people with training due soon" />
          <Figure label="Certificates expiring" value={summary.expiring} detail="people, within 60 days" />
        </SimpleGrid>
      )}

      <Group align="flex-end" justify="space-between" gap="sm">
        <Group align="flex-end" gap="sm" style={{ flex: 1 }}>
          <Select
            label="Unit"
            placeholder="All units"
            clearable
            searchable
            data={(data?.units ?? []).map((u) => ({ value: u.id, label: u.name }))}
            value={filters.unitId ?? null}
            onChange={(v) => onFilterChange('unitId', v)}
            w={{ base: '100%', xs: 240 }}
          />
          <Select
            label="Status"
            placeholder="Every status"
            clearable
            data={TRAINING_STATUSES.map((s) => ({ value: s, label: TRAINING_STATUS_LABELS[s] }))}
            value={filters.status ?? null}
            onChange={(v) => onFilterChange('status', v)}
            w={{ base: '100%', xs: 180 }}
          />
          <TextInput
            label="Search"
            placeholder="Name or username"
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            value={search}
            maxLength={TEAM_SEARCH_MAX}
            onChange={(e) => onSearchChange(e.currentTarget.value)}
            w={{ base: '100%', xs: 240 }}
          />
        </Group>
        <Button leftSection={<IconDownload size={16} aria-hidden="true" />} onClick={onExport} loading={exporting} variant="default">
          Export CSV
        </Button>
      </Group>

      {error && <Text c="red.9" role="alert">{error}</Text>}
      {loading && !data && (
        <Center py="xl">
          <Loader aria-label="Loading your team" />
        </Center>
      )}
      {data && data.items.length === 0 && (
        <Text c="dimmed" py="md">{filtered ? 'No one in your team matches these filters.' : 'Nobody to show.'}</Text>
      )}
      {data && data.items.length > 0 && (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {data.total} {data.total === 1 ? 'person' : 'people'}
            {filtered ? ' match' : ''}
            {pages > 1 ? `, page ${data.page} of ${pages}` : ''}
          </Text>
          {phone ? <TeamCards items={data.items} /> : <TeamTable items={data.items} />}
        </>
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={onPageChange} aria-label="Team pages" getControlProps={(control) => ({ 'aria-label': `${control} page` })} />}
    </Stack>
  );
}
