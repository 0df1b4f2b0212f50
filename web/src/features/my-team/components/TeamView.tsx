// "My team" as the screen shows it: a summary of the manager's reports (how many, how
// many overdue or due soon, certificates expiring, sessions booked, practicals due and overdue), the
// filters (unit, status, search), the people grouped by unit with their required-training status,
// expiring certificates, last activity, next session and practicals (Competence.tsx), a
// link to each person's record, Export CSV and paging. On a phone the table becomes stacked cards
// with every field. Who is on the team is decided by the server only.
import { Anchor, Button, Center, Group, Loader, Pagination, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { COUNTED_STATUSES, type TrainingStatus } from '@shared/compliance.ts';
import { TEAM_SEARCH_MAX, type TeamMember, type TeamPage } from '@shared/team.ts';
import { TrainingStatusBadge } from '@/components/TrainingStatusBadge';
import { Field, FieldList } from '@/components/FieldList';
import { formatDate } from '@/lib/format';
import { labelOf } from '@/lib/i18n/labels';
import { usePhoneLayout } from '@/lib/use-phone-layout';
import { CompetenceFigures, NextSessionText, PracticalsText } from './Competence';
import { Figure } from './TeamFigure';

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

/** The person's required training: a badge and count per status they have; a line when nothing is required. */
export function StatusCounts({ counts }: { counts: TeamMember['counts'] }) {
  const { t } = useTranslation('my-team');
  const present = COUNT_KEYS.filter((c) => counts[c.key] > 0);
  if (present.length === 0) return <Text size="sm" c="dimmed">{t('teamView.nothingRequired')}</Text>;
  return (
    <Group gap={8}>
      {present.map(({ status, key }) => (
        <Group key={status} gap={4} wrap="nowrap" data-count={status}>
          <TrainingStatusBadge status={status} />
          <Text size="sm">{t('teamView.courses', { count: counts[key] })}</Text>
        </Group>
      ))}
    </Group>
  );
}

/** A person's certificates expiring soon, in words. */
function ExpiringText({ member: m }: { member: TeamMember }) {
  const { t } = useTranslation('my-team');
  if (m.expiringCertificates === 0) return t('teamView.noneExpiring');
  return t('teamView.expiring', { number: m.expiringCertificates, date: formatDate(m.nextExpiry) });
}

function LastActivityText({ member: m }: { member: TeamMember }) {
  const { t } = useTranslation('my-team');
  return m.lastActivityAt ? formatDate(m.lastActivityAt) : t('teamView.noActivity');
}

function PersonLink({ member }: { member: TeamMember }) {
  return (
    <Anchor component={Link} to={`/team/${member.user.id}`} fw={600} c="blue.9">
      {member.user.name}
    </Anchor>
  );
}

function PersonDetail({ member: m }: { member: TeamMember }) {
  const { t } = useTranslation('my-team');
  return m.direct ? t('teamView.detailDirect', { username: m.user.username }) : t('teamView.detailThroughTeam', { username: m.user.username });
}

/** The page's people in their units, in the server's order (by unit, then name); `noUnit` names the people of none. */
function groups(items: TeamMember[], noUnit: string): { key: string; name: string; members: TeamMember[] }[] {
  const out: { key: string; name: string; members: TeamMember[] }[] = [];
  for (const m of items) {
    const key = m.unit?.id ?? 'none';
    const last = out.at(-1);
    if (last && last.key === key) last.members.push(m);
    else out.push({ key, name: m.unit?.name ?? noUnit, members: [m] });
  }
  return out;
}

function TeamTable({ items }: { items: TeamMember[] }) {
  const { t } = useTranslation('my-team');
  return (
    <Table.ScrollContainer minWidth={1120}>
      <Table aria-label={t('teamView.tableLabel')} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('teamView.person')}</Table.Th>
            <Table.Th scope="col">{t('teamView.requiredTraining')}</Table.Th>
            <Table.Th scope="col">{t('teamView.certificatesExpiring')}</Table.Th>
            <Table.Th scope="col">{t('teamView.lastActivity')}</Table.Th>
            <Table.Th scope="col">{t('competence.nextSession')}</Table.Th>
            <Table.Th scope="col">{t('competence.practicals')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        {groups(items, t('teamView.noUnit')).map((g) => (
          <Table.Tbody key={g.key} data-unit={g.key}>
            <Table.Tr bg="var(--mantine-color-default-hover)">
              <Table.Th scope="colgroup" colSpan={6}>
                {g.name}
              </Table.Th>
            </Table.Tr>
            {g.members.map((m) => (
              <Table.Tr key={m.user.id} data-user={m.user.id}>
                <Table.Td>
                  <PersonLink member={m} />
                  <Text size="sm" c="dimmed"><PersonDetail member={m} /></Text>
                </Table.Td>
                <Table.Td>
                  <StatusCounts counts={m.counts} />
                </Table.Td>
                <Table.Td><ExpiringText member={m} /></Table.Td>
                <Table.Td><LastActivityText member={m} /></Table.Td>
                <Table.Td><NextSessionText member={m} /></Table.Td>
                <Table.Td><PracticalsText member={m} /></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        ))}
      </Table>
    </Table.ScrollContainer>
  );
}

function TeamCards({ items }: { items: TeamMember[] }) {
  const { t } = useTranslation('my-team');
  return (
    <Stack gap="lg">
      {groups(items, t('teamView.noUnit')).map((g) => (
        <Stack key={g.key} gap="xs" component="section" aria-labelledby={`team-unit-${g.key}`} data-unit={g.key}>
          <Title order={3} size="h5" id={`team-unit-${g.key}`}>{g.name}</Title>
          <Stack gap="xs" component="ul" aria-label={t('teamView.peopleIn', { unit: g.name })} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {g.members.map((m) => (
              <Paper key={m.user.id} component="li" withBorder p="sm" radius="md" data-user={m.user.id}>
                <PersonLink member={m} />
                <Text size="sm" c="dimmed" mb="xs"><PersonDetail member={m} /></Text>
                <FieldList cols={1}>
                  <Field label={t('teamView.requiredTraining')}><StatusCounts counts={m.counts} /></Field>
                  <Field label={t('teamView.certificatesExpiring')}><ExpiringText member={m} /></Field>
                  <Field label={t('teamView.lastActivity')}><LastActivityText member={m} /></Field>
                  <Field label={t('competence.nextSession')}><NextSessionText member={m} /></Field>
                  <Field label={t('competence.practicals')}><PracticalsText member={m} /></Field>
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
  const { t } = useTranslation('my-team');
  const phone = usePhoneLayout();
  const summary = data?.summary;
  const filtered = Boolean(filters.unitId || filters.status || search.trim());
  const noTeam = summary !== undefined && summary.people === 0;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  if (noTeam) {
    return (
      <Paper withBorder p="xl" radius="md">
        <Stack align="center" gap="xs">
          <Title order={2} size="h4">{t('teamView.noTeamTitle')}</Title>
          <Text c="dimmed" ta="center">
            {t('teamView.noTeamText')}
          </Text>
        </Stack>
      </Paper>
    );
  }

  return (
    <Stack gap="lg">
      {summary && (
        <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} component="section" aria-label={t('teamView.summary')}>
          <Figure name="people" label={t('teamView.people')} value={summary.people} detail={t('teamView.directly', { number: summary.direct })} />
          <Figure name="overdue" label={t('teamView.overdue')} value={summary.overdue} detail={t('teamView.overdueDetail')} />
          <Figure name="due-soon" label={t('teamView.dueSoon')} value={summary.dueSoon} detail={t('teamView.dueSoonDetail')} />
          <Figure name="certificates-expiring" label={t('teamView.certificatesExpiring')} value={summary.expiring} detail={t('teamView.expiringDetail')} />
          <CompetenceFigures summary={summary} />
        </SimpleGrid>
      )}

      <Group align="flex-end" justify="space-between" gap="sm">
        <Group align="flex-end" gap="sm" style={{ flex: 1 }}>
          <Select
            label={t('teamView.unit')}
            placeholder={t('teamView.allUnits')}
            clearable
            searchable
            data={(data?.units ?? []).map((u) => ({ value: u.id, label: u.name }))}
            value={filters.unitId ?? null}
            onChange={(v) => onFilterChange('unitId', v)}
            w={{ base: '100%', xs: 240 }}
          />
          <Select
            label={t('teamView.status')}
            placeholder={t('teamView.everyStatus')}
            clearable
            data={COUNTED_STATUSES.map((s) => ({ value: s, label: labelOf('trainingStatus', s) }))}
            value={filters.status ?? null}
            onChange={(v) => onFilterChange('status', v)}
            w={{ base: '100%', xs: 180 }}
          />
          <TextInput
            label={t('teamView.search')}
            placeholder={t('teamView.searchPlaceholder')}
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            value={search}
            maxLength={TEAM_SEARCH_MAX}
            onChange={(e) => onSearchChange(e.currentTarget.value)}
            w={{ base: '100%', xs: 240 }}
          />
        </Group>
        <Button leftSection={<IconDownload size={16} aria-hidden="true" />} onClick={onExport} loading={exporting} variant="default">
          {t('teamView.exportCsv')}
        </Button>
      </Group>

      {error && <Text c="red.9" role="alert">{error}</Text>}
      {loading && !data && (
        <Center py="xl">
          <Loader aria-label={t('teamView.loading')} />
        </Center>
      )}
      {data && data.items.length === 0 && (
        <Text c="dimmed" py="md">{filtered ? t('teamView.noMatch') : t('teamView.nobody')}</Text>
      )}
      {data && data.items.length > 0 && (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {pages > 1
              ? t('teamView.countOnPage', { people: t(filtered ? 'teamView.matching' : 'teamView.total', { count: data.total }), page: data.page, pages })
              : t(filtered ? 'teamView.matching' : 'teamView.total', { count: data.total })}
          </Text>
          {phone ? <TeamCards items={data.items} /> : <TeamTable items={data.items} />}
        </>
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={onPageChange} aria-label={t('teamView.pages')} getControlProps={(control) => ({ 'aria-label': t(`teamView.page.${control}`) })} />}
    </Stack>
  );
}
