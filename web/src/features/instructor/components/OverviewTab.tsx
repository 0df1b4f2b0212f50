// Overview: the figures (completion rate and average progress, each named; pending requests with a link to approve them) (computed by the server from the caller's courses and enrolments), the
// three most recently updated courses and the quick actions.
import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorDescription } from '@/lib/api-client';
import { ServiceBadge } from '@/components/ServiceBadge';
import { useInstructorStats } from '../api/get-instructor-stats';
import { formatDate } from '@/lib/format';
import { StatusBadge } from './StatusBadge';

function StatCard({ label, value, note }: { label: string; value: string; note?: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={label}>
      <Text size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fz={32} fw={700} data-stat={label}>
        {value}
      </Text>
      {note ? (
        <Text size="sm" c="dimmed">
          {note}
        </Text>
      ) : null}
    </Paper>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function OverviewTab({ onShowTab }: { onShowTab: (tab: 'students' | 'analytics') => void }) {
  const stats = useInstructorStats();
  const navigate = useNavigate();

  if (stats.isError) {
    return <Alert color="red" title="Could not load your figures">{errorDescription(stats.error, 'Please try again.')}</Alert>;
  }
  const data = stats.data;

  return (
    <Stack gap="lg">
      {data ? (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
          <StatCard label="Total Courses" value={String(data.totalCourses)} />
          <StatCard label="Total Students" value={String(data.totalStudents)} />
          <StatCard label="Total Course Hours" value={String(data.totalCourseHours)} />
          <StatCard
            label="Completion Rate"
            value={`${data.completionRate}%`}
            note={`${data.completedEnrolments} of ${plural(data.totalEnrolments, 'enrolment', 'enrolments')} completed`}
          />
          <StatCard label="Average Progress" value={`${data.averageProgress}%`} note="Mean progress across your enrolments" />
          <StatCard
            label="Pending Requests"
            value={String(data.pendingRequests)}
            note={
              data.pendingRequests > 0 ? (
                <Anchor component={Link} to="?tab=students&status=pending" data-testid="approve-requests">
                  Review and approve {plural(data.pendingRequests, 'request', 'requests')}
                </Anchor>
              ) : (
                'No enrolments waiting for approval'
              )
            }
          />
        </SimpleGrid>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} aria-busy="true" aria-label="Loading your figures">
          {[0, 1, 2, 3, 4, 5].map((n) => <Skeleton key={n} height={96} radius="md" />)}
        </SimpleGrid>
      )}

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md" radius="md">
          <Title order={2} size="h4" mb="sm">
            Recently Updated
          </Title>
          {data && data.recentlyUpdated.length === 0 && <Text c="dimmed">You have no courses yet.</Text>}
          <Stack gap="xs">
            {data?.recentlyUpdated.map((course) => (
              <UnstyledButton
                key={course.id}
                onClick={() => navigate(`/course/edit/${course.id}`)}
                p="xs"
                style={{ borderRadius: 'var(--mantine-radius-sm)', border: '1px solid var(--mantine-color-default-border)' }}
              >
                <Group justify="space-between" wrap="nowrap" gap="sm">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600} truncate>
                      {course.title}
                    </Text>
                    <Text size="sm" c="dimmed">
                      Updated {formatDate(course.updatedAt)}
                    </Text>
                  </Stack>
                  <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
                    <ServiceBadge code={course.service} />
                    <StatusBadge status={course.status} />
                  </Group>
                </Group>
              </UnstyledButton>
            ))}
          </Stack>
        </Paper>

        <Paper withBorder p="md" radius="md">
          <Title order={2} size="h4" mb="sm">
            Quick Actions
          </Title>
          <SimpleGrid cols={2}>
            <Button component={Link} to="/course/create">
              New Course
            </Button>
            <Button component={Link} to="/course-manager" variant="default">
              Manage Courses
            </Button>
            <Button variant="default" onClick={() => onShowTab('students')}>
              View Students
            </Button>
            <Button variant="default" onClick={() => onShowTab('analytics')}>
              Analytics
            </Button>
          </SimpleGrid>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
