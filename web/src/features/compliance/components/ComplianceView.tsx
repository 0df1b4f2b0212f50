// The Compliance view, for admins (everyone) and instructors (the people of their
// services): per service and required course, how many people are compliant, due soon, overdue or
// in progress; a count opens the people behind it; Export CSV downloads what is on screen, produced
// on the server under the caller's rights. Administrators also filter by organisation
// and unit and see the breakdown "By unit": per organisation (national administrators), then per
// unit of one level, the share of people compliant per course, opening the units below and the
// people of each.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Center, Group, Loader, Pagination, Paper, Select, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useOrganisationOptions, useUnitOptions } from '@/lib/organisation-options';
import { ComplianceByUnit, type UnitGroup } from './ComplianceByUnit';
import { CompliancePracticals } from './CompliancePracticals';
import { IconDownload } from '@tabler/icons-react';
import { ROLES, type Role } from '@shared/domain.ts';
import { SERVICE_CODES } from '@shared/services.ts';
import { TRAINING_STATUSES, type ComplianceSummaryRow, type TrainingStatus } from '@shared/compliance.ts';
import { ServiceBadge } from '@/components/ServiceBadge';
import { errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { labelOf } from '@/lib/i18n/labels';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { TrainingStatusBadge } from '@/components/TrainingStatusBadge';
import { RecognisedFrom } from '@/components/RecognisedFrom';
import {
  type ComplianceFilters,
  PEOPLE_PAGE_SIZE,
  SUMMARY_PAGE_SIZE,
  useCompliancePeople,
  useComplianceSummary,
  useComplianceUnits,
  useDownloadComplianceCsv,
} from '../api/compliance';

interface DrillDown {
  service: string | null;
  courseId?: string;
  /** What the people list is of: a course, or a unit / organisation of the breakdown. */
  title: string;
  status: TrainingStatus | null;
  organisationId?: string;
  unitId?: string;
}

/** The count columns; each one's heading and its buttons' names are complianceView.columns.<key> and complianceView.show.<key>. */
const COUNT_COLUMNS: { key: keyof Pick<ComplianceSummaryRow, 'compliant' | 'dueSoon' | 'overdue' | 'inProgress'>; status: TrainingStatus }[] = [
  { key: 'compliant', status: 'done' },
  { key: 'dueSoon', status: 'due-soon' },
  { key: 'overdue', status: 'overdue' },
  { key: 'inProgress', status: 'in-progress' },
];

export function ComplianceView({
  isAdmin,
  services,
  organisation = null,
}: {
  isAdmin: boolean;
  services: readonly string[];
  /** An organisation's administrator: their organisation (fixed); null for a national one. */
  organisation?: { id: string; name: string } | null;
}) {
  const { t } = useTranslation('compliance');
  const national = isAdmin && organisation === null;
  const [filters, setFilters] = useState<ComplianceFilters>({});
  const organisationId = organisation?.id ?? filters.organisationId;
  const organisations = useOrganisationOptions(national);
  const units = useUnitOptions(isAdmin ? organisationId : null);
  const unitLabel = (id: string | undefined) => units.data?.find((u) => u.value === id)?.label;
  const breakdown = useComplianceUnits(isAdmin ? filters : null);
  const [page, setPage] = useState(1);
  const [drill, setDrill] = useState<DrillDown | null>(null);
  const [peoplePage, setPeoplePage] = useState(1);
  const summary = useComplianceSummary(filters, page);
  // The course filter offers every required course the caller can see (the unfiltered first page).
  const everything = useComplianceSummary({}, 1);
  const courseOptions = useMemo(() => {
    const seen = new Map<string, string>();
    for (const row of everything.data?.items ?? []) seen.set(row.course.id, row.course.title);
    return [...seen].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
  }, [everything.data]);
  const serviceOptions = (isAdmin ? SERVICE_CODES : SERVICE_CODES.filter((s) => services.includes(s))).map((s) => ({ value: s, label: labelOf('service', s) }));

  const drillFilters = drill
    ? {
        service: drill.service ?? filters.service,
        role: filters.role,
        courseId: drill.courseId ?? filters.courseId,
        status: drill.status ?? undefined,
        organisationId: drill.organisationId ?? filters.organisationId,
        unitId: drill.unitId ?? filters.unitId,
      }
    : null;
  const people = useCompliancePeople(drillFilters, peoplePage);
  const download = useDownloadComplianceCsv();

  function setFilter(key: keyof ComplianceFilters, value: string | null) {
    // Another organisation: its units are not this one's.
    setFilters((f) => ({ ...f, [key]: value ?? undefined, ...(key === 'organisationId' ? { unitId: undefined } : {}) }));
    setPage(1);
    setDrill(null);
  }

  function open(row: ComplianceSummaryRow, status: TrainingStatus | null) {
    setDrill({ service: row.service, courseId: row.course.id, title: row.course.title, status });
    setPeoplePage(1);
  }

  function openGroup(group: UnitGroup) {
    if (national && !filters.organisationId) setFilters((f) => ({ ...f, organisationId: group.organisationId ?? undefined, unitId: undefined }));
    else setFilters((f) => ({ ...f, unitId: group.unitId ?? undefined }));
    setPage(1);
    setDrill(null);
  }

  function peopleOf(group: UnitGroup) {
    setDrill({
      service: null,
      title: group.name,
      status: null,
      organisationId: group.organisationId ?? undefined,
      unitId: group.unitId ?? undefined,
    });
    setPeoplePage(1);
  }

  function onExport() {
    download.mutate(drillFilters ?? filters, {
      onSuccess: (fileName) => notifySuccess(t('complianceView.exportReady'), t('complianceView.exportReadyMessage', { fileName })),
      onError: (error) => notifyFailure(t('complianceView.exportFailed'), errorDescription(error, t('complianceView.tryAgain'))),
    });
  }

  /** What the breakdown is of, as one sentence. */
  function byUnitDescription(): string {
    if (filters.unitId) {
      const unit = unitLabel(filters.unitId);
      return unit ? t('complianceView.byUnitBelow', { unit }) : t('complianceView.byUnitBelowThis');
    }
    if (organisationId) {
      const name = organisation?.name ?? organisations.data?.find((o) => o.value === organisationId)?.label;
      return name ? t('complianceView.byUnitTopOf', { organisation: name }) : t('complianceView.byUnitTopOfTheOrganisation');
    }
    return t('complianceView.byUnitEveryOrganisation');
  }

  /** The people list's service, and its role when one is chosen. */
  function peopleDescription(): string {
    const code = drill?.service ?? filters.service;
    const service = code ? labelOf('service', code) : t('complianceView.everyService');
    return filters.role ? t('complianceView.serviceAndRoles', { service, roles: t(`complianceView.rolesPlural.${filters.role as Role}`) }) : service;
  }

  const data = summary.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / SUMMARY_PAGE_SIZE)) : 1;
  const peopleData = people.data;
  const peoplePages = peopleData ? Math.max(1, Math.ceil(peopleData.total / PEOPLE_PAGE_SIZE)) : 1;

  return (
    <Stack gap="md">
      <Group align="flex-end" justify="space-between">
        <Group align="flex-end">
          <Select
            label={t('complianceView.service')}
            placeholder={t('complianceView.allServices')}
            clearable
            data={serviceOptions}
            value={filters.service ?? null}
            onChange={(v) => setFilter('service', v)}
            w={260}
          />
          <Select
            label={t('complianceView.role')}
            placeholder={t('complianceView.allRoles')}
            clearable
            data={ROLES.map((r) => ({ value: r, label: labelOf('role', r) }))}
            value={filters.role ?? null}
            onChange={(v) => setFilter('role', v)}
            w={180}
          />
          <Select
            label={t('complianceView.course')}
            placeholder={t('complianceView.allRequiredCourses')}
            clearable
            searchable
            data={courseOptions}
            value={filters.courseId ?? null}
            onChange={(v) => setFilter('courseId', v)}
            w={320}
          />
          {national && (
            <Select
              label={t('complianceView.organisation')}
              placeholder={t('complianceView.allOrganisations')}
              clearable
              searchable
              data={organisations.data ?? []}
              value={filters.organisationId ?? null}
              onChange={(v) => setFilter('organisationId', v)}
              w={260}
            />
          )}
          {isAdmin && organisationId && (
            <Select
              label={t('complianceView.unit')}
              placeholder={organisation ? t('complianceView.allOf', { name: organisation.name }) : t('complianceView.allUnits')}
              clearable
              searchable
              data={units.data ?? []}
              value={filters.unitId ?? null}
              onChange={(v) => setFilter('unitId', v)}
              w={320}
            />
          )}
        </Group>
        <Button leftSection={<IconDownload size={16} aria-hidden="true" />} onClick={onExport} loading={download.isPending} variant="default">
          {t('complianceView.exportCsv')}
        </Button>
      </Group>

      {summary.isError && <Text c="red.9">{errorDescription(summary.error, t('complianceView.loadFailed'))}</Text>}
      {summary.isPending && (
        <Center py="xl">
          <Loader aria-label={t('complianceView.loading')} />
        </Center>
      )}
      {data && data.items.length === 0 && (
        <Stack align="center" py="xl" gap="xs">
          <Text fw={600}>{t('complianceView.nothingToReport')}</Text>
          <Text c="dimmed">
            {filters.service || filters.role || filters.courseId ? t('complianceView.noMatch') : t('complianceView.noneRequired')}
          </Text>
        </Stack>
      )}
      {data && data.items.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table striped aria-label={t('complianceView.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('complianceView.service')}</Table.Th>
                <Table.Th scope="col">{t('complianceView.requiredCourse')}</Table.Th>
                <Table.Th scope="col">{t('complianceView.people')}</Table.Th>
                {COUNT_COLUMNS.map((c) => (
                  <Table.Th scope="col" key={c.key}>
                    {t(`complianceView.columns.${c.key}`)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((row) => {
                const where = row.service
                  ? t('complianceView.where', { service: labelOf('service', row.service), course: row.course.title })
                  : t('complianceView.whereNoService', { course: row.course.title });
                return (
                  <Table.Tr key={`${row.service ?? 'none'}-${row.course.id}`} data-service={row.service ?? 'none'} data-course={row.course.id}>
                    <Table.Td>{row.service ? <ServiceBadge code={row.service} /> : <Text size="sm">{t('complianceView.noService')}</Text>}</Table.Td>
                    <Table.Td>{row.course.title}</Table.Td>
                    <Table.Td>
                      <UnstyledButton onClick={() => open(row, null)} aria-label={t('complianceView.showAll', { number: row.people, where })} td="underline">
                        {row.people}
                      </UnstyledButton>
                    </Table.Td>
                    {COUNT_COLUMNS.map((c) => (
                      <Table.Td key={c.key} data-count={c.status}>
                        <UnstyledButton
                          onClick={() => open(row, c.status)}
                          aria-label={t(`complianceView.show.${c.key}`, { number: row[c.key], where })}
                          td="underline"
                          fw={c.status === 'overdue' && row[c.key] > 0 ? 700 : undefined}
                        >
                          {row[c.key]}
                        </UnstyledButton>
                      </Table.Td>
                    ))}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} aria-label={t('complianceView.summaryPages')}
        getControlProps={(control) => ({ 'aria-label': t(`complianceView.summaryPage.${control}`) })} />}

      {isAdmin && (
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="compliance-units-title">
          <Stack gap="sm">
            <Group justify="space-between" align="flex-end">
              <div>
                <Title order={2} size="h4" id="compliance-units-title">
                  {t('complianceView.byUnit')}
                </Title>
                <Text size="sm" c="dimmed">
                  {byUnitDescription()}
                </Text>
              </div>
              <Group gap="xs">
                {filters.unitId && (
                  <Button variant="default" onClick={() => setFilter('unitId', null)}>
                    {t('complianceView.topLevel')}
                  </Button>
                )}
                {national && filters.organisationId && (
                  <Button variant="default" onClick={() => setFilter('organisationId', null)}>
                    {t('complianceView.allOrganisations')}
                  </Button>
                )}
              </Group>
            </Group>
            {breakdown.isError && <Text c="red.9">{errorDescription(breakdown.error, t('complianceView.unitsLoadFailed'))}</Text>}
            {breakdown.isPending && (
              <Center py="md">
                <Loader aria-label={t('complianceView.unitsLoading')} />
              </Center>
            )}
            {breakdown.data && (
              <ComplianceByUnit
                rows={breakdown.data.items}
                level={national && !filters.organisationId ? 'organisation' : 'unit'}
                currentUnitId={filters.unitId}
                onOpen={openGroup}
                onPeople={peopleOf}
              />
            )}
          </Stack>
        </Paper>
      )}

      {isAdmin && <CompliancePracticals organisationId={organisationId} unitId={filters.unitId} national={national} />}

      {drill && (
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="compliance-people-title">
          <Stack gap="sm">
            <Group justify="space-between" align="flex-end">
              <div>
                <Title order={2} size="h4" id="compliance-people-title">
                  {t('complianceView.peopleTitle', { title: drill.title })}
                </Title>
                <Text size="sm" c="dimmed">
                  {peopleDescription()}
                </Text>
              </div>
              <Group align="flex-end">
                <Select
                  label={t('complianceView.status')}
                  placeholder={t('complianceView.everyStatus')}
                  clearable
                  data={TRAINING_STATUSES.map((s) => ({ value: s, label: labelOf('trainingStatus', s) }))}
                  value={drill.status}
                  onChange={(v) => {
                    setDrill({ ...drill, status: (v as TrainingStatus | null) ?? null });
                    setPeoplePage(1);
                  }}
                  w={180}
                />
                <Button variant="default" onClick={() => setDrill(null)}>
                  {t('complianceView.close')}
                </Button>
              </Group>
            </Group>
            {people.isError && <Text c="red.9">{errorDescription(people.error, t('complianceView.peopleLoadFailed'))}</Text>}
            {people.isPending && (
              <Center py="md">
                <Loader aria-label={t('complianceView.peopleLoading')} />
              </Center>
            )}
            {peopleData && peopleData.items.length === 0 && <Text c="dimmed">{t('complianceView.nobody')}</Text>}
            {peopleData && peopleData.items.length > 0 && (
              // Wider than a phone: the sideways-scrolling region takes the focus (WCAG 2.1.1).
              <Table.ScrollContainer minWidth={640} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': t('complianceView.peopleTable') } }}>
                <Table aria-labelledby="compliance-people-title">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">{t('complianceView.name')}</Table.Th>
                      <Table.Th scope="col">{t('complianceView.role')}</Table.Th>
                      <Table.Th scope="col">{t('complianceView.status')}</Table.Th>
                      <Table.Th scope="col">{t('complianceView.due')}</Table.Th>
                      <Table.Th scope="col">{t('complianceView.validUntil')}</Table.Th>
                      <Table.Th scope="col">{t('complianceView.progress')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {peopleData.items.map((p) => (
                      <Table.Tr key={`${p.user.id}-${p.course.id}`} data-user={p.user.id}>
                        <Table.Td>
                          <Text fw={500}>{p.user.name}</Text>
                          <Text size="sm" c="dimmed">
                            @{p.user.username}
                            {p.user.email ? ` · ${p.user.email}` : ''}
                          </Text>
                        </Table.Td>
                        <Table.Td>{labelOf('role', p.role)}</Table.Td>
                        <Table.Td>
                          <TrainingStatusBadge status={p.status} />
                          {p.recognised ? <RecognisedFrom origin={p.recognised} /> : null}
                        </Table.Td>
                        <Table.Td>{p.dueAt ? formatDate(p.dueAt) : '-'}</Table.Td>
                        <Table.Td>{p.validUntil ? formatDate(p.validUntil) : '-'}</Table.Td>
                        <Table.Td>{p.progress}%</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {peoplePages > 1 && <Pagination total={peoplePages} value={peoplePage} onChange={setPeoplePage} aria-label={t('complianceView.peoplePages')}
              getControlProps={(control) => ({ 'aria-label': t(`complianceView.peoplePage.${control}`) })} />}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
