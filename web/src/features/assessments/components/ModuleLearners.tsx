// /instructor/assessments/module/:moduleId: the learners an assessor may assess on a practical
// assessment module, with where each stands (filtered by the server), and the way to their record:
// "Assess" starts a draft, "Open" shows a draft or signed record.
import { useState } from 'react';
import { Badge, Button, Group, Pagination, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LEARNER_STATES, type AssessmentLearner, type LearnerState } from '@shared/assessments.ts';
import { useLocalise } from '@/components/Localised';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { notifyFailure } from '@/lib/notify';
import { PageMeta } from '@/lib/page/page-meta';
import { ASSESSMENT_PAGE_SIZE, useAssessmentLearners, useModuleTitle, useStartRecord } from '../api/assessments';

function LearnerAction({ moduleId, learner }: { moduleId: string; learner: AssessmentLearner }) {
  const { t } = useTranslation('assessments');
  const navigate = useNavigate();
  const start = useStartRecord(moduleId);
  const open = learner.recordId ? (
    <Button component={Link} size="xs" variant="default" to={`/instructor/assessments/records/${learner.recordId}`} aria-label={t('learners.openFor', { name: learner.name })}>
      {t('learners.open')}
    </Button>
  ) : null;
  // A new record where there is none yet, or after "not yet competent" (a new attempt).
  const canStart = learner.state === 'not-assessed' || learner.state === 'not-yet-competent';
  return (
    <Group gap="xs" wrap="nowrap">
      {open}
      {canStart ? (
        <Button
          size="xs"
          loading={start.isPending}
          aria-label={t('learners.assessFor', { name: learner.name })}
          onClick={() =>
            start.mutate({ learnerId: learner.learnerId }, {
              onSuccess: (record) => navigate(`/instructor/assessments/records/${record.id}`),
              onError: (error) => notifyFailure(t('learners.startError'), errorDescription(error, t('tryAgain'))),
            })
          }
        >
          {t('learners.assess')}
        </Button>
      ) : null}
    </Group>
  );
}

export function ModuleLearners({ moduleId }: { moduleId: string }) {
  const { t } = useTranslation('assessments');
  const localise = useLocalise();
  const { module, isPending } = useModuleTitle(moduleId);
  const [status, setStatus] = useState<LearnerState | null>(null);
  const [page, setPage] = useState(1);
  const learners = useAssessmentLearners(moduleId, status, page);
  if (isPending) return <PageSpinner label={t('loading')} />;
  const moduleTitle = module ? localise(module.title, module.titleCy) : null;
  const title = moduleTitle ? t('learners.title', { module: moduleTitle.text }) : t('learners.titlePlain');
  const items = learners.data?.items ?? [];
  const pages = Math.max(1, Math.ceil((learners.data?.total ?? 0) / ASSESSMENT_PAGE_SIZE));

  return (
    <Stack gap="md">
      <PageMeta title={title} description={t('learners.description')} />
      <Group>
        <Button component={Link} to="/instructor?tab=assessments" variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t('page.back')}
        </Button>
      </Group>
      <Title order={1}>{title}</Title>
      <Select
        label={t('learners.filter')}
        data={LEARNER_STATES.map((value) => ({ value, label: t(`learnerState.${value}`) }))}
        value={status}
        onChange={(value) => {
          setStatus(value as LearnerState | null);
          setPage(1);
        }}
        clearable
        placeholder={t('learners.allStates')}
        maw={300}
      />
      {learners.isError ? <Text c="red.8">{errorDescription(learners.error, t('loadFailed'))}</Text> : null}
      {learners.isPending ? (
        <Text role="status">{t('loading')}</Text>
      ) : items.length === 0 ? (
        <Text>{t('learners.none')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped>
            <Table.Caption>{t('learners.caption', { count: learners.data?.total ?? 0 })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('learners.name')}</Table.Th>
                <Table.Th scope="col">{t('learners.state')}</Table.Th>
                <Table.Th scope="col">{t('learners.signed')}</Table.Th>
                <Table.Th scope="col">{t('learners.action')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((learner) => (
                <Table.Tr key={learner.learnerId} data-testid="learner-row">
                  <Table.Td>
                    <Text size="sm" fw={600}>{learner.name}</Text>
                    <Text size="xs" c="dimmed">{learner.username}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <Text size="sm">{t(`learnerState.${learner.state}`)}</Text>
                      {learner.reassessmentRequested ? <Badge color="red.9" variant="filled">{t('learners.reassessmentRequested')}</Badge> : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>{learner.signedAt ? formatDate(learner.signedAt) : t('learners.notSigned')}</Table.Td>
                  <Table.Td>
                    <LearnerAction moduleId={moduleId} learner={learner} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': t(`queue.pager.${control}`) })} /> : null}
    </Stack>
  );
}
