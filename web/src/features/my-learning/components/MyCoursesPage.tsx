// My Courses: 'In Progress (n)' and 'Completed (n)' tabs of enrolment cards.
import { Alert, Button, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { type Enrollment, useEnrollments } from '../api/get-enrollments';
import { useUnenrol } from '../api/unenrol';
import { summarise } from '../lib/summary';
import { CompletedCard, InProgressCard, useEnrolmentTitle } from './EnrollmentCards';
import { EmptyState } from './EmptyState';
import { useTranslation } from 'react-i18next';

export function MyCoursesPage({ userId }: { userId: string }) {
  const { t } = useTranslation('my-learning');
  const query = useEnrollments(userId);
  const [tab, setTab] = useState<string>('in-progress');
  const unenrol = useUnenrol(userId);
  const titleOf = useEnrolmentTitle();
  const withdraw = (e: Enrollment) =>
    unenrol.mutate(e.id, {
      onSuccess: () => notifySuccess(
          t('myCoursesPage.withdrawnTitle'),
          e.course ? t('myCoursesPage.withdrawnMessage', { course: titleOf(e).text }) : t('myCoursesPage.withdrawnMessageNoTitle'),
        ),
      onError: (error) => notifyFailure(t('myCoursesPage.withdrawFailed'), errorDescription(error, t('shared.retryFallback'))),
    });

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('myCoursesPage.heading')}</Title>
        <Text c="dimmed">{t('myCoursesPage.intro')}</Text>
      </div>
      {query.isPending ? (
        <PageSpinner label={t('myCoursesPage.loading')} />
      ) : query.isError ? (
        <Alert color="red" title={t('myCoursesPage.loadFailed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorDescription(query.error, t('shared.retryFallback'))}</Text>
            <Button size="xs" variant="default" onClick={() => query.refetch()}>
              {t('shared.tryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <MyCoursesTabs
          summary={summarise(query.data)}
          tab={tab}
          onTab={setTab}
          onWithdraw={withdraw}
          withdrawingId={unenrol.isPending ? unenrol.variables : undefined}
        />
      )}
    </Stack>
  );
}

interface TabsProps {
  summary: ReturnType<typeof summarise>;
  tab: string;
  onTab: (t: string) => void;
  onWithdraw: (e: Enrollment) => void;
  withdrawingId: string | undefined;
}

function MyCoursesTabs({ summary, tab, onTab, onWithdraw, withdrawingId }: TabsProps) {
  const { t } = useTranslation('my-learning');
  return (
    <Tabs value={tab} onChange={(v) => v && onTab(v)}>
      <Tabs.List mb="md">
        <Tabs.Tab value="in-progress">{t('myCoursesPage.inProgressTab', { number: summary.inProgress.length })}</Tabs.Tab>
        <Tabs.Tab value="completed">{t('myCoursesPage.completedTab', { number: summary.completed.length })}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="in-progress">
        {summary.inProgress.length === 0 ? (
          <EmptyState title={t('shared.noInProgressTitle')} text={t('shared.noInProgressText')} />
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {summary.inProgress.map((e) => (
              <InProgressCard key={e.id} enrollment={e} headingOrder={2} onWithdraw={onWithdraw} withdrawing={withdrawingId === e.id} />
            ))}
          </SimpleGrid>
        )}
      </Tabs.Panel>
      <Tabs.Panel value="completed">
        {summary.completed.length === 0 ? (
          <EmptyState title={t('shared.noCompletedTitle')} text={t('shared.noCompletedText')} />
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {summary.completed.map((e) => (
              <CompletedCard key={e.id} enrollment={e} headingOrder={2} />
            ))}
          </SimpleGrid>
        )}
      </Tabs.Panel>
    </Tabs>
  );
}
