// Analytics: per-course figures from the server (enrolments, completion rate, average progress,
// quiz pass rate) as a bar chart and, for every reader, the same figures in a table.
import '@mantine/charts/styles.css';
import { useState } from 'react';
import { BarChart } from '@mantine/charts';
import { Alert, Center, Loader, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorDescription } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { ANALYTICS_PAGE_SIZE, useInstructorAnalytics } from '../api/get-instructor-analytics';

/** Chart labels stay short; the table beside the chart carries the full titles. */
function shortTitle(title: string): string {
  return title.length > 24 ? `${title.slice(0, 23)}…` : title;
}

export function AnalyticsTab() {
  const { t } = useTranslation('instructor');
  const [page, setPage] = useState(1);
  const analytics = useInstructorAnalytics(page);

  if (analytics.isError) {
    return <Alert color="red" title={t('analytics.loadError')}>{errorDescription(analytics.error, t('tryAgain'))}</Alert>;
  }
  if (analytics.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('analytics.loading')} />
      </Center>
    );
  }
  const data = analytics.data;
  if (!data.enabled) {
    return (
      <Alert color="gray" title={t('analytics.title')}>
        {t('analytics.off')}
      </Alert>
    );
  }
  if (data.items.length === 0) {
    return <Text c="dimmed">{t('analytics.none')}</Text>;
  }

  // The series' names are the chart's keys and its legend, in the page's language.
  const completion = t('analytics.completionRate');
  const progress = t('analytics.averageProgress');
  const passRate = t('analytics.quizPassRate');
  const chartData = data.items.map((course) => ({
    course: shortTitle(course.title),
    [completion]: course.completionRate,
    [progress]: course.averageProgress,
    // No bar, rather than a 0 that nobody scored, when the course's quizzes have no attempts.
    [passRate]: course.quizPassRate,
  }));

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="md" id="analytics-chart-title">
          {t('analytics.chartTitle')}
        </Title>
        <figure aria-labelledby="analytics-chart-title" style={{ margin: 0 }}>
          <BarChart
            // Horizontal bars: course titles read along the axis instead of overlapping.
            orientation="vertical"
            h={Math.max(200, chartData.length * 60)}
            data={chartData}
            dataKey="course"
            withLegend
            xAxisProps={{ domain: [0, 100] }}
            yAxisProps={{ width: 190, interval: 0 }}
            series={[
              { name: completion, color: 'blue.8' },
              { name: progress, color: 'teal.8' },
              { name: passRate, color: 'orange.8' },
            ]}
          />
          <figcaption>
            <Text size="sm" c="dimmed" mt="xs">
              {t('analytics.caption')}
            </Text>
          </figcaption>
        </figure>
      </Paper>

      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-label={t('analytics.table')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('analytics.column.course')}</Table.Th>
              <Table.Th scope="col">{t('analytics.column.enrolments')}</Table.Th>
              <Table.Th scope="col">{t('analytics.column.pending')}</Table.Th>
              <Table.Th scope="col">{completion}</Table.Th>
              <Table.Th scope="col">{progress}</Table.Th>
              <Table.Th scope="col">{passRate}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((course) => (
              <Table.Tr key={course.courseId} data-course={course.courseId}>
                <Table.Th scope="row" fw={500}>
                  {course.title}
                </Table.Th>
                <Table.Td>{formatNumber(course.enrollments)}</Table.Td>
                <Table.Td>{formatNumber(course.pending)}</Table.Td>
                <Table.Td>{course.completionRate}%</Table.Td>
                <Table.Td>{course.averageProgress}%</Table.Td>
                <Table.Td>
                  {course.quizPassRate === null
                    ? t('analytics.noAttempts')
                    : t('analytics.passRate', { rate: course.quizPassRate, passed: formatNumber(course.quizPassed), attempts: formatNumber(course.quizAttempts) })}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data.total > ANALYTICS_PAGE_SIZE && (
        <Pagination
          total={Math.ceil(data.total / ANALYTICS_PAGE_SIZE)}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
          getItemProps={(n) => ({ 'aria-label': t('pagination.page', { number: n }) })}
        />
      )}
    </Stack>
  );
}
