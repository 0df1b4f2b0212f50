// The learner dashboard's 'Required training' list: every course the user must take, most
// urgent first, with its due date and status (overdue, due soon, in progress, done - valid until).
// Shown only when something is required. The header notice links here (#required-training).
import { Alert, Anchor, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { RequiredTrainingItem } from '@shared/compliance.ts';
import { ServiceBadge } from '@/components/ServiceBadge';
import { errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useMyRequiredTraining } from '../api/required-training';
import { TrainingStatusBadge } from '@/components/TrainingStatusBadge';

function dueText(item: RequiredTrainingItem): string {
  if (item.status === 'done') return item.validUntil ? `Valid until ${formatDate(item.validUntil)}` : 'Done (does not expire)';
  if (item.dueAt === null) return 'No due date';
  if (item.certified && item.status === 'due-soon') return `Renew by ${formatDate(item.dueAt)}`;
  if (item.status === 'overdue') return `Was due ${formatDate(item.dueAt)}`;
  return `Due ${formatDate(item.dueAt)}`;
}

export function RequiredTrainingSection({ userId }: { userId: string }) {
  const query = useMyRequiredTraining(userId);
  if (query.isError) {
    return (
      <Alert color="red" title="Your required training could not be loaded">
        {errorDescription(query.error, 'Please try again.')}
      </Alert>
    );
  }
  const data = query.data;
  if (!data || data.items.length === 0) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" id="required-training" aria-labelledby="required-training-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h3" id="required-training-title">
            Required training
          </Title>
          <Text size="sm" c="dimmed">
            Courses your role or service must complete, with when each is due.
          </Text>
        </div>
        <Table.ScrollContainer minWidth={560}>
          <Table aria-labelledby="required-training-title" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Course</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Due</Table.Th>
                <Table.Th scope="col">Progress</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((item) => (
                <Table.Tr key={item.course.id} data-course={item.course.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/course/${item.course.id}`} fw={500}>
                      {item.course.title}
                    </Anchor>{' '}
                    <ServiceBadge code={item.course.service} size="sm" />
                  </Table.Td>
                  <Table.Td>
                    <TrainingStatusBadge status={item.status} />
                  </Table.Td>
                  <Table.Td>{dueText(item)}</Table.Td>
                  <Table.Td>{item.progress}%</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Paper>
  );
}
