// One report's record as their manager sees it: their required training (status, due
// date, progress), their upcoming sessions and practical assessments (Competence.tsx), the courses
// they completed and their certificates. Never their CPD entries or
// reflections: the server does not send them.
import { Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TeamMemberRecord } from '@shared/team.ts';
import { CertificateStateBadge } from '@/components/CertificateValidity';
import { Field, FieldList } from '@/components/FieldList';
import { TrainingStatusBadge } from '@/components/TrainingStatusBadge';
import { RecognisedFrom } from '@/components/RecognisedFrom';
import { formatDate } from '@/lib/format';
import { usePhoneLayout } from '@/lib/use-phone-layout';
import { MemberPracticals, MemberSessions } from './Competence';

function Section({ id, title, empty, children, count }: { id: string; title: string; empty: string; count: number; children: React.ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>{title}</Title>
      {count === 0 ? <Text c="dimmed">{empty}</Text> : children}
    </Stack>
  );
}

function Cards({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap="xs" component="ul" aria-label={label} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {children}
    </Stack>
  );
}

export function TeamMemberView({ record }: { record: TeamMemberRecord }) {
  const { t } = useTranslation('my-team');
  const phone = usePhoneLayout();
  const detail = { username: record.user.username, unit: record.unit?.name ?? t('teamMemberView.noUnit') };
  const notDue = t('teamMemberView.notDue');
  const never = t('teamMemberView.never');
  return (
    <Stack gap="xl">
      <Text c="dimmed">
        {record.direct ? t('teamMemberView.detailDirect', detail) : t('teamMemberView.detailThroughTeam', detail)}
      </Text>

      <Section id="member-required" title={t('teamMemberView.required')} count={record.required.length} empty={t('teamMemberView.requiredEmpty')}>
        {phone ? (
          <Cards label={t('teamMemberView.required')}>
            {record.required.map((r) => (
              <Paper key={r.course.id} component="li" withBorder p="sm" radius="md">
                <Text fw={600} mb="xs">{r.course.title}</Text>
                <FieldList>
                  <Field label={t('teamMemberView.status')}>
                    <TrainingStatusBadge status={r.status} />
                    {r.recognised ? <RecognisedFrom origin={r.recognised} /> : null}
                  </Field>
                  <Field label={t('teamMemberView.due')}>{r.dueAt ? formatDate(r.dueAt) : notDue}</Field>
                  <Field label={t('teamMemberView.progress')}>{r.progress}%</Field>
                </FieldList>
              </Paper>
            ))}
          </Cards>
        ) : (
          <Table.ScrollContainer minWidth={600}>
            <Table aria-labelledby="member-required">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('teamMemberView.course')}</Table.Th>
                  <Table.Th scope="col">{t('teamMemberView.status')}</Table.Th>
                  <Table.Th scope="col">{t('teamMemberView.due')}</Table.Th>
                  <Table.Th scope="col">{t('teamMemberView.progress')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {record.required.map((r) => (
                  <Table.Tr key={r.course.id}>
                    <Table.Td>{r.course.title}</Table.Td>
                    <Table.Td>
                      <TrainingStatusBadge status={r.status} />
                      {r.recognised ? <RecognisedFrom origin={r.recognised} /> : null}
                    </Table.Td>
                    <Table.Td>{r.dueAt ? formatDate(r.dueAt) : notDue}</Table.Td>
                    <Table.Td>{r.progress}%</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>

      <MemberSessions sessions={record.sessions} />
      <MemberPracticals practicals={record.practicals} />

      <Section id="member-completions" title={t('teamMemberView.completions')} count={record.completions.length} empty={t('teamMemberView.completionsEmpty')}>
        {phone ? (
          <Cards label={t('teamMemberView.completions')}>
            {record.completions.map((c) => (
              <Paper key={c.course.id} component="li" withBorder p="sm" radius="md">
                <Text fw={600} mb="xs">{c.course.title}</Text>
                <FieldList cols={1}>
                  <Field label={t('teamMemberView.completed')}>{formatDate(c.completedAt)}</Field>
                </FieldList>
              </Paper>
            ))}
          </Cards>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table aria-labelledby="member-completions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('teamMemberView.course')}</Table.Th>
                  <Table.Th scope="col">{t('teamMemberView.completed')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {record.completions.map((c) => (
                  <Table.Tr key={c.course.id}>
                    <Table.Td>{c.course.title}</Table.Td>
                    <Table.Td>{formatDate(c.completedAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>

      <Section id="member-certificates" title={t('teamMemberView.certificates')} count={record.certificates.length} empty={t('teamMemberView.certificatesEmpty')}>
        {phone ? (
          <Cards label={t('teamMemberView.certificates')}>
            {record.certificates.map((c) => (
              <Paper key={c.id} component="li" withBorder p="sm" radius="md">
                <Group justify="space-between" mb="xs" wrap="nowrap" align="flex-start">
                  <Text fw={600}>{c.course.title}</Text>
                  <CertificateStateBadge state={c.state} />
                </Group>
                <FieldList>
                  <Field label={t('teamMemberView.issued')}>{formatDate(c.issuedAt)}</Field>
                  <Field label={t('teamMemberView.expires')}>{c.expiresAt ? formatDate(c.expiresAt) : never}</Field>
                </FieldList>
              </Paper>
            ))}
          </Cards>
        ) : (
          <Table.ScrollContainer minWidth={600}>
            <Table aria-labelledby="member-certificates">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('teamMemberView.course')}</Table.Th>
                  <Table.Th scope="col">{t('teamMemberView.issued')}</Table.Th>
                  <Table.Th scope="col">{t('teamMemberView.expires')}</Table.Th>
                  <Table.Th scope="col">{t('teamMemberView.state')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {record.certificates.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>{c.course.title}</Table.Td>
                    <Table.Td>{formatDate(c.issuedAt)}</Table.Td>
                    <Table.Td>{c.expiresAt ? formatDate(c.expiresAt) : never}</Table.Td>
                    <Table.Td><CertificateStateBadge state={c.state} /></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>
    </Stack>
  );
}
