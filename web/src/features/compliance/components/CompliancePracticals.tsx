// Practical assessments beside the required training in compliance (administrators): per
// organisation or unit, as the breakdown above groups them, how many practicals are overdue (validity
// ended or never signed off), due (ending within 60 days), awaiting sign-off and valid. The states are
// the server's (private.practical_states). Overdue and due counts carry a badge (at least 4.5:1).
import { Badge, Center, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CompliancePracticalsRow } from '@shared/competence.ts';
import { errorDescription } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { useCompliancePracticals } from '../api/practicals';

function Count({ value, state }: { value: number; state: 'overdue' | 'due' | null }) {
  if (value === 0 || state === null) return <>{formatNumber(value)}</>;
  const style = state === 'overdue'
    ? { backgroundColor: 'var(--mantine-color-red-9)', color: '#fff' }
    : { backgroundColor: 'var(--mantine-color-yellow-3)', color: '#000' };
  return <Badge variant="filled" radius="sm" data-state={state} style={{ ...style, minWidth: 'max-content' }}>{formatNumber(value)}</Badge>;
}

export function CompliancePracticalsTable({ rows, national }: { rows: CompliancePracticalsRow[]; national: boolean }) {
  const { t } = useTranslation('compliance');
  if (rows.length === 0) return <Text c="dimmed">{t('practicals.none')}</Text>;
  const nameOf = (r: CompliancePracticalsRow) => r.name ?? (national ? t('complianceByUnit.noOrganisation') : t('complianceByUnit.notInUnit'));
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table aria-labelledby="compliance-practicals-title">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{national ? t('practicals.organisation') : t('practicals.unit')}</Table.Th>
            <Table.Th scope="col">{t('practicals.people')}</Table.Th>
            <Table.Th scope="col">{t('practicals.overdue')}</Table.Th>
            <Table.Th scope="col">{t('practicals.due')}</Table.Th>
            <Table.Th scope="col">{t('practicals.awaiting')}</Table.Th>
            <Table.Th scope="col">{t('practicals.valid')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.unitId ?? r.organisationId ?? 'none'} data-group={r.unitId ?? r.organisationId ?? 'none'}>
              <Table.Th scope="row">{nameOf(r)}</Table.Th>
              <Table.Td>{formatNumber(r.people)}</Table.Td>
              <Table.Td><Count value={r.overdue} state="overdue" /></Table.Td>
              <Table.Td><Count value={r.due} state="due" /></Table.Td>
              <Table.Td><Count value={r.awaiting} state={null} /></Table.Td>
              <Table.Td><Count value={r.valid} state={null} /></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function CompliancePracticals({ organisationId, unitId, national }: { organisationId?: string; unitId?: string; national: boolean }) {
  const { t } = useTranslation('compliance');
  const practicals = useCompliancePracticals({ organisationId, unitId });
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="compliance-practicals-title">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={2} size="h4" id="compliance-practicals-title">{t('practicals.title')}</Title>
            <Text size="sm" c="dimmed">{t('practicals.description')}</Text>
          </div>
        </Group>
        {practicals.isError && <Text c="red.9">{errorDescription(practicals.error, t('practicals.loadFailed'))}</Text>}
        {practicals.isPending && (
          <Center py="md">
            <Loader aria-label={t('practicals.loading')} />
          </Center>
        )}
        {practicals.data && <CompliancePracticalsTable rows={practicals.data.items} national={national && !organisationId} />}
      </Stack>
    </Paper>
  );
}
