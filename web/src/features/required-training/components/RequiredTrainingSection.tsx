// The learner dashboard's 'Required training' list: every course the user must take, most
// urgent first, with its due date and status (overdue, due soon, in progress, done - valid until).
// Shown only when something is required. The header notice links here (#required-training).
// Each course's title in the reader's language: English shown to a Welsh reader is in lang="en-GB",
// marked "Ddim ar gael yn Gymraeg" once in its row.
import { Alert, Anchor, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { RequiredTrainingItem } from '@shared/compliance.ts';
import { NotInWelsh, useLocalise } from '@/components/Localised';
import { ServiceBadge } from '@/components/ServiceBadge';
import { errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useMyRequiredTraining } from '../api/required-training';
import { TrainingStatusBadge } from '@/components/TrainingStatusBadge';
import { RecognisedFrom } from '@/components/RecognisedFrom';

function dueText(item: RequiredTrainingItem, t: TFunction): string {
  if (item.status === 'done') {
    return item.validUntil ? t('requiredTrainingSection.validUntil', { date: formatDate(item.validUntil) }) : t('requiredTrainingSection.doneNoExpiry');
  }
  if (item.dueAt === null) return t('requiredTrainingSection.noDueDate');
  if (item.certified && item.status === 'due-soon') return t('requiredTrainingSection.renewBy', { date: formatDate(item.dueAt) });
  if (item.status === 'overdue') return t('requiredTrainingSection.wasDue', { date: formatDate(item.dueAt) });
  return t('requiredTrainingSection.dueOn', { date: formatDate(item.dueAt) });
}

export function RequiredTrainingSection({ userId }: { userId: string }) {
  const { t } = useTranslation('required-training');
  const query = useMyRequiredTraining(userId);
  const localise = useLocalise();
  if (query.isError) {
    return (
      <Alert color="red" title={t('requiredTrainingSection.loadFailed')}>
        {errorDescription(query.error, t('requiredTrainingSection.tryAgain'))}
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
            {t('requiredTrainingSection.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('requiredTrainingSection.intro')}
          </Text>
        </div>
        <Table.ScrollContainer minWidth={560}>
          <Table aria-labelledby="required-training-title" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('requiredTrainingSection.course')}</Table.Th>
                <Table.Th scope="col">{t('requiredTrainingSection.status')}</Table.Th>
                <Table.Th scope="col">{t('requiredTrainingSection.dueColumn')}</Table.Th>
                <Table.Th scope="col">{t('requiredTrainingSection.progress')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((item) => {
                const title = localise(item.course.title, item.course.titleCy);
                return (
                  <Table.Tr key={item.course.id} data-course={item.course.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/course/${item.course.id}`} fw={500} lang={title.lang}>
                        {title.text}
                      </Anchor>{' '}
                      <ServiceBadge code={item.course.service} size="sm" />
                      {title.fallback ? (
                        <>
                          {' '}
                          <NotInWelsh />
                        </>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <TrainingStatusBadge status={item.status} />
                      {item.recognised ? <RecognisedFrom origin={item.recognised} /> : null}
                    </Table.Td>
                    <Table.Td>{dueText(item, t)}</Table.Td>
                    <Table.Td>{item.progress}%</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Paper>
  );
}
