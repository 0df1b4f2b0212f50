// Learner dashboard: Overview (figures from the enrolments and certificates),
// Progress (each course's modules and last activity), My Courses (All / In Progress / Completed)
// and Certificates (supplied by the route, which composes the certificates and required-training
// features).
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { ServiceBadge } from '@/components/ServiceBadge';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { type Enrollment, useEnrollments } from '../api/get-enrollments';
import { formatDate } from '@/lib/format';
import { usePhoneLayout } from '@/lib/use-phone-layout';
import { Field, FieldList } from '@/components/FieldList';
import { type LearningSummary, summarise } from '../lib/summary';
import { CompletedCard, InProgressCard } from './EnrollmentCards';
import { EmptyState } from './EmptyState';

export interface LearnerDashboardProps {
  userId: string;
  name: string;
  /** Number of the learner's certificates (undefined while loading). */
  certificateCount: number | undefined;
  certificatesPanel: ReactNode;
  /** The learner's required training, shown above their courses (from the required-training feature). */
  requiredTraining: ReactNode;
}

const OVERVIEW_IN_PROGRESS = 3;

export function LearnerDashboard({ userId, name, certificateCount, certificatesPanel, requiredTraining }: LearnerDashboardProps) {
  const query = useEnrollments(userId);
  const [tab, setTab] = useState('overview');
  const [courseTab, setCourseTab] = useState('all');

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>Welcome, {name}</Title>
        <Group gap="xs">
          <Button component={Link} to="/learning-record" variant="default">
            My learning record
          </Button>
          <Button component={Link} to="/" variant="default">
            Browse Courses
          </Button>
        </Group>
      </Group>
      {requiredTraining}
      {query.isPending ? (
        <PageSpinner label="Loading your dashboard" />
      ) : query.isError ? (
        <Alert color="red" title="Your learning could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorDescription(query.error, 'Please try again.')}</Text>
            <Button size="xs" variant="default" onClick={() => query.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Tabs value={tab} onChange={(v) => v && setTab(v)}>
          <Tabs.List mb="md">
            <Tabs.Tab value="overview">Overview</Tabs.Tab>
            <Tabs.Tab value="progress">Progress</Tabs.Tab>
            <Tabs.Tab value="courses">My Courses</Tabs.Tab>
            <Tabs.Tab value="certificates">Certificates</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="overview">
            <Overview
              summary={summarise(query.data)}
              certificateCount={certificateCount}
              onViewAll={() => {
                setCourseTab('in-progress');
                setTab('courses');
              }}
            />
          </Tabs.Panel>
          <Tabs.Panel value="progress">
            <ProgressTable enrollments={query.data} />
          </Tabs.Panel>
          <Tabs.Panel value="courses">
            <CoursesTab summary={summarise(query.data)} tab={courseTab} onTab={setCourseTab} />
          </Tabs.Panel>
          <Tabs.Panel value="certificates">{certificatesPanel}</Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}

function Stat({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed" id={`stat-${label.replace(/\s+/g, '-').toLowerCase()}`}>
        {label}
      </Text>
      <Text fz={32} fw={700} aria-labelledby={`stat-${label.replace(/\s+/g, '-').toLowerCase()}`} data-testid={`stat-${label}`}>
        {value ?? '…'}
      </Text>
    </Paper>
  );
}

function Overview({ summary, certificateCount, onViewAll }: { summary: LearningSummary; certificateCount: number | undefined; onViewAll: () => void }) {
  const shown = summary.inProgress.slice(0, OVERVIEW_IN_PROGRESS);
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Stat label="Total Courses" value={summary.total} />
        <Stat label="In Progress" value={summary.inProgress.length} />
        <Stat label="Completed" value={summary.completed.length} />
        <Stat label="Certificates" value={certificateCount} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder padding="lg" radius="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              Overall Progress
            </Title>
            <Group justify="space-between">
              <Text size="sm">Average progress across your courses</Text>
              <Text fw={700} data-testid="overall-progress">
                {summary.overallProgress}%
              </Text>
            </Group>
            <Progress value={summary.overallProgress} aria-label={`Overall progress: ${summary.overallProgress}%`} />
            {shown.length === 0 ? (
              <Text size="sm" c="dimmed">
                No courses in progress.
              </Text>
            ) : (
              <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {shown.map((e) => (
                  <li key={e.id}>
                    <Group justify="space-between" wrap="nowrap">
                      {e.course ? (
                        <Anchor component={Link} to={`/course/${e.courseId}`} size="sm" lineClamp={1}>
                          {e.course.title}
                        </Anchor>
                      ) : (
                        <Text size="sm">Course no longer available</Text>
                      )}
                      <Text size="sm">{e.status === 'PENDING' ? 'Awaiting approval' : `${e.progress}%`}</Text>
                    </Group>
                  </li>
                ))}
              </Stack>
            )}
            {summary.inProgress.length > 0 ? (
              <Anchor component="button" type="button" size="sm" onClick={onViewAll} style={{ alignSelf: 'flex-start' }}>
                View all courses in progress ({summary.inProgress.length})
              </Anchor>
            ) : null}
          </Stack>
        </Card>
        <Card withBorder padding="lg" radius="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              Services
            </Title>
            {summary.services.length === 0 ? (
              <Text size="sm" c="dimmed">
                You're not enrolled in any services yet.
              </Text>
            ) : (
              <Group gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {summary.services.map((code) => (
                  <li key={code}>
                    <ServiceBadge code={code} full />
                  </li>
                ))}
              </Group>
            )}
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

function progressCell(e: Enrollment, title: string) {
  return e.status === 'PENDING' ? (
    'Awaiting approval'
  ) : (
    <Group gap="xs" wrap="nowrap">
      <Progress value={e.progress} w={100} aria-label={`${title}: ${e.progress}%`} />
      <Text size="sm" span>{e.progress}%</Text>
    </Group>
  );
}

const modulesCell = (e: Enrollment) => (e.course && e.course.modules > 0 ? `${e.completedModules} of ${e.course.modules}` : '—');

/** The progress on a phone (a table would be cut off at 390 px): one card per course. */
function ProgressCards({ enrollments }: { enrollments: Enrollment[] }) {
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Your progress in each course">
      {enrollments.map((e) => {
        const title = e.course?.title ?? 'Course no longer available';
        return (
          <Paper component="li" withBorder p="md" radius="md" key={e.id} data-progress-card={e.id}>
            <Stack gap="sm">
              <Text fw={600} size="sm">
                {e.course ? <Anchor component={Link} to={`/course/${e.courseId}`} inherit>{title}</Anchor> : title}
              </Text>
              <FieldList>
                <Field label="Progress" span>{progressCell(e, title)}</Field>
                <Field label="Modules">{modulesCell(e)}</Field>
                <Field label="Last activity">{formatDate(e.lastActivityAt)}</Field>
              </FieldList>
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

function ProgressTable({ enrollments }: { enrollments: Enrollment[] }) {
  const phone = usePhoneLayout();
  if (enrollments.length === 0) {
    return <EmptyState title="No courses yet" text="Enrol in a course to see your progress here." />;
  }
  if (phone) return <ProgressCards enrollments={enrollments} />;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped>
        <Table.Caption>Your progress in each course</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Course</Table.Th>
            <Table.Th scope="col">Progress</Table.Th>
            <Table.Th scope="col">Modules</Table.Th>
            <Table.Th scope="col">Last activity</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {enrollments.map((e) => {
            const title = e.course?.title ?? 'Course no longer available';
            return (
              <Table.Tr key={e.id}>
                <Table.Td>{e.course ? <Anchor component={Link} to={`/course/${e.courseId}`}>{title}</Anchor> : title}</Table.Td>
                <Table.Td miw={160}>{progressCell(e, title)}</Table.Td>
                <Table.Td>{modulesCell(e)}</Table.Td>
                <Table.Td>{formatDate(e.lastActivityAt)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function CoursesTab({ summary, tab, onTab }: { summary: LearningSummary; tab: string; onTab: (t: string) => void }) {
  const grid = (items: Enrollment[]) => (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      {items.map((e) =>
        e.completed ? (
          <CompletedCard key={e.id} enrollment={e} reviewButton />
        ) : (
          <InProgressCard key={e.id} enrollment={e} continueLabel="Continue Learning" />
        ),
      )}
    </SimpleGrid>
  );
  const all = [...summary.inProgress, ...summary.completed];
  return (
    <Tabs value={tab} onChange={(v) => v && onTab(v)} variant="pills">
      <Tabs.List mb="md" aria-label="Filter your courses">
        <Tabs.Tab value="all">All Courses</Tabs.Tab>
        <Tabs.Tab value="in-progress">In Progress</Tabs.Tab>
        <Tabs.Tab value="completed">Completed</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="all">
        {all.length === 0 ? <EmptyState title="No courses yet" text="You haven't enrolled in any courses yet." headingOrder={3} /> : grid(all)}
      </Tabs.Panel>
      <Tabs.Panel value="in-progress">
        {summary.inProgress.length === 0 ? (
          <EmptyState title="No courses in progress" text="You haven't started any courses yet." headingOrder={3} />
        ) : (
          grid(summary.inProgress)
        )}
      </Tabs.Panel>
      <Tabs.Panel value="completed">
        {summary.completed.length === 0 ? (
          <EmptyState title="No completed courses" text="You haven't completed any courses yet." headingOrder={3} />
        ) : (
          grid(summary.completed)
        )}
      </Tabs.Panel>
    </Tabs>
  );
}
