// My Courses: 'In Progress (n)' and 'Completed (n)' tabs of enrolment cards.
import { Alert, Button, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { type Enrollment, useEnrollments } from '../api/get-enrollments';
import { useUnenrol } from '../api/unenrol';
import { summarise } from '../lib/summary';
import { CompletedCard, InProgressCard } from './EnrollmentCards';
import { EmptyState } from './EmptyState';

export function MyCoursesPage({ userId }: { userId: string }) {
  const query = useEnrollments(userId);
  const [tab, setTab] = useState<string>('in-progress');
  const unenrol = useUnenrol(userId);
  const withdraw = (e: Enrollment) =>
    unenrol.mutate(e.id, {
      onSuccess: () => notifySuccess('Request withdrawn', `You are no longer waiting to join ${e.course?.title ?? 'the course'}.`),
      onError: (error) => notifyFailure('Failed to withdraw request', errorDescription(error, 'Please try again.')),
    });

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>My Courses</Title>
        <Text c="dimmed">Track your progress and continue learning</Text>
      </div>
      {query.isPending ? (
        <PageSpinner label="Loading your courses" />
      ) : query.isError ? (
        <Alert color="red" title="Your courses could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorDescription(query.error, 'Please try again.')}</Text>
            <Button size="xs" variant="default" onClick={() => query.refetch()}>
              Try again
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
  return (
    <Tabs value={tab} onChange={(v) => v && onTab(v)}>
      <Tabs.List mb="md">
        <Tabs.Tab value="in-progress">In Progress ({summary.inProgress.length})</Tabs.Tab>
        <Tabs.Tab value="completed">Completed ({summary.completed.length})</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="in-progress">
        {summary.inProgress.length === 0 ? (
          <EmptyState title="No courses in progress" text="You haven't started any courses yet." />
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
          <EmptyState title="No completed courses" text="You haven't completed any courses yet." />
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
