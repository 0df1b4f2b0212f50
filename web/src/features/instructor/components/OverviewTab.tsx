// Overview: the figures (completion rate and average progress, each named; pending requests with a link to approve them) (computed by the server from the caller's courses and enrolments), the
// three most recently updated courses and the quick actions.
import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorDescription } from '@/lib/api-client';
import { ServiceBadge } from '@/components/ServiceBadge';
import { useInstructorStats } from '../api/get-instructor-stats';
import { formatDate, formatNumber } from '@/lib/format';
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

export function OverviewTab({ onShowTab }: { onShowTab: (tab: 'students' | 'analytics') => void }) {
  const { t } = useTranslation('instructor');
  const stats = useInstructorStats();
  const navigate = useNavigate();

  if (stats.isError) {
    return <Alert color="red" title={t('overview.loadError')}>{errorDescription(stats.error, t('tryAgain'))}</Alert>;
  }
  const data = stats.data;

  return (
    <Stack gap="lg">
      {data ? (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
          <StatCard label={t('overview.totalCourses')} value={formatNumber(data.totalCourses)} />
          <StatCard label={t('overview.totalStudents')} value={formatNumber(data.totalStudents)} />
          <StatCard label={t('overview.totalHours')} value={formatNumber(data.totalCourseHours)} />
          <StatCard
            label={t('overview.completionRate')}
            value={`${data.completionRate}%`}
            note={t('overview.completedOf', { count: data.totalEnrolments, completed: formatNumber(data.completedEnrolments), total: formatNumber(data.totalEnrolments) })}
          />
          <StatCard label={t('overview.averageProgress')} value={`${data.averageProgress}%`} note={t('overview.averageProgressNote')} />
          <StatCard
            label={t('overview.pending')}
            value={formatNumber(data.pendingRequests)}
            note={
              data.pendingRequests > 0 ? (
                <Anchor component={Link} to="?tab=students&status=pending" data-testid="approve-requests">
                  {t('overview.review', { count: data.pendingRequests, number: formatNumber(data.pendingRequests) })}
                </Anchor>
              ) : (
                t('overview.noPending')
              )
            }
          />
        </SimpleGrid>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} aria-busy="true" aria-label={t('overview.loading')}>
          {[0, 1, 2, 3, 4, 5].map((n) => <Skeleton key={n} height={96} radius="md" />)}
        </SimpleGrid>
      )}

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md" radius="md">
          <Title order={2} size="h4" mb="sm">
            {t('overview.recent')}
          </Title>
          {data && data.recentlyUpdated.length === 0 && <Text c="dimmed">{t('overview.noCourses')}</Text>}
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
                      {t('overview.updated', { date: formatDate(course.updatedAt) })}
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
            {t('overview.quickActions')}
          </Title>
          <SimpleGrid cols={2}>
            <Button component={Link} to="/course/create">
              {t('overview.newCourse')}
            </Button>
            <Button component={Link} to="/course-manager" variant="default">
              {t('overview.manageCourses')}
            </Button>
            <Button variant="default" onClick={() => onShowTab('students')}>
              {t('overview.viewStudents')}
            </Button>
            <Button variant="default" onClick={() => onShowTab('analytics')}>
              {t('overview.analytics')}
            </Button>
          </SimpleGrid>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
