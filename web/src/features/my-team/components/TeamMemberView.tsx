// One report's record as their manager sees it: their required training (status, due
// date, progress), the courses they completed and their certificates. Never their CPD entries or
// reflections: the server does not send them.
import { Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { TeamMemberRecord } from '@shared/team.ts';
import { CertificateStateBadge } from '@/components/CertificateValidity';
import { Field, FieldList } from '@/components/FieldList';
import { TrainingStatusBadge } from '@/components/TrainingStatusBadge';
import { formatDate } from '@/lib/format';
import { usePhoneLayout } from '@/lib/use-phone-layout';

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
  const phone = usePhoneLayout();
  return (
    <Stack gap="xl">
      <Text c="dimmed">
        @{record.user.username} · {record.unit?.name ?? 'No unit'} · {record.direct ? 'Reports to you' : 'Reports through your team'}
      </Text>

      <Section id="member-required" title="Required training" count={record.required.length} empty="No course is required of them.">
        {phone ? (
          <Cards label="Required training">
            {record.required.map((r) => (
              <Paper key={r.course.id} component="li" withBorder p="sm" radius="md">
                <Text fw={600} mb="xs">{r.course.title}</Text>
                <FieldList>
                  <Field label="Status"><TrainingStatusBadge status={r.status} /></Field>
                  <Field label="Due">{r.dueAt ? formatDate(r.dueAt) : 'Not due'}</Field>
                  <Field label="Progress">{r.progress}%</Field>
                </FieldList>
              </Paper>
            ))}
          </Cards>
        ) : (
          <Table.ScrollContainer minWidth={600}>
            <Table aria-labelledby="member-required">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Course</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Due</Table.Th>
                  <Table.Th scope="col">Progress</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {record.required.map((r) => (
                  <Table.Tr key={r.course.id}>
                    <Table.Td>{r.course.title}</Table.Td>
                    <Table.Td><TrainingStatusBadge status={r.status} /></Table.Td>
                    <Table.Td>{r.dueAt ? formatDate(r.dueAt) : 'Not due'}</Table.Td>
                    <Table.Td>{r.progress}%</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>

      <Section id="member-completions" title="Completed courses" count={record.completions.length} empty="No course completed yet.">
        {phone ? (
          <Cards label="Completed courses">
            {record.completions.map((c) => (
              <Paper key={c.course.id} component="li" withBorder p="sm" radius="md">
                <Text fw={600} mb="xs">{c.course.title}</Text>
                <FieldList cols={1}>
                  <Field label="Completed">{formatDate(c.completedAt)}</Field>
                </FieldList>
              </Paper>
            ))}
          </Cards>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table aria-labelledby="member-completions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Course</Table.Th>
                  <Table.Th scope="col">Completed</Table.Th>
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

      <Section id="member-certificates" title="Certificates" count={record.certificates.length} empty="No certificate yet.">
        {phone ? (
          <Cards label="Certificates">
            {record.certificates.map((c) => (
              <Paper key={c.id} component="li" withBorder p="sm" radius="md">
                <Group justify="space-between" mb="xs" wrap="nowrap" align="flex-start">
                  <Text fw={600}>{c.course.title}</Text>
                  <CertificateStateBadge state={c.state} />
                </Group>
                <FieldList>
                  <Field label="Issued">{formatDate(c.issuedAt)}</Field>
                  <Field label="Expires">{c.expiresAt ? formatDate(c.expiresAt) : 'Never'}</Field>
                </FieldList>
              </Paper>
            ))}
          </Cards>
        ) : (
          <Table.ScrollContainer minWidth={600}>
            <Table aria-labelledby="member-certificates">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Course</Table.Th>
                  <Table.Th scope="col">Issued</Table.Th>
                  <Table.Th scope="col">Expires</Table.Th>
                  <Table.Th scope="col">State</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {record.certificates.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>{c.course.title}</Table.Td>
                    <Table.Td>{formatDate(c.issuedAt)}</Table.Td>
                    <Table.Td>{c.expiresAt ? formatDate(c.expiresAt) : 'Never'}</Table.Td>
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
