// Analytics: per-course figures from the server (enrolments, completion rate, average progress,
// quiz pass rate) as a bar chart and, for every reader, the same figures in a table.
import '@mantine/charts/styles.css';
import { useState } from 'react';
import { BarChart } from '@mantine/charts';
import { Alert, Center, Loader, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { errorDescription } from '@/lib/api-client';
import { ANALYTICS_PAGE_SIZE, useInstructorAnalytics } from '../api/get-instructor-analytics';

export const ANALYTICS_OFF = 'Analytics are turned off in the system settings.';

/** Chart labels stay short; the table beside the chart carries the full titles. */
function shortTitle(title: string): string {
  return title.length > 24 ? `${title.slice(0, 23)}…` : title;
}

export function AnalyticsTab() {
  const [page, setPage] = useState(1);
  const analytics = useInstructorAnalytics(page);

  if (analytics.isError) {
    return <Alert color="red" title="Could not load analytics">{errorDescription(analytics.error, 'Please try again.')}</Alert>;
  }
  if (analytics.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading analytics" />
      </Center>
    );
  }
  const data = analytics.data;
  if (!data.enabled) {
    return (
      <Alert color="gray" title="Analytics">
        {ANALYTICS_OFF}
      </Alert>
    );
  }
  if (data.items.length === 0) {
    return <Text c="dimmed">There are no courses to analyse yet.</Text>;
  }

  const chartData = data.items.map((course) => ({
    course: shortTitle(course.title),
    'Completion rate': course.completionRate,
    'Average progress': course.averageProgress,
    // No bar, rather than a 0 that nobody scored, when the course's quizzes have no attempts.
    'Quiz pass rate': course.quizPassRate,
  }));

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="md" id="analytics-chart-title">
          Course performance (%)
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
              { name: 'Completion rate', color: 'blue.8' },
              { name: 'Average progress', color: 'teal.8' },
              { name: 'Quiz pass rate', color: 'orange.8' },
            ]}
          />
          <figcaption>
            <Text size="sm" c="dimmed" mt="xs">
              The table below lists the same figures for each course.
            </Text>
          </figcaption>
        </figure>
      </Paper>

      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-label="Course analytics">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Course</Table.Th>
              <Table.Th scope="col">Enrolments</Table.Th>
              <Table.Th scope="col">Pending</Table.Th>
              <Table.Th scope="col">Completion rate</Table.Th>
              <Table.Th scope="col">Average progress</Table.Th>
              <Table.Th scope="col">Quiz pass rate</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((course) => (
              <Table.Tr key={course.courseId} data-course={course.courseId}>
                <Table.Th scope="row" fw={500}>
                  {course.title}
                </Table.Th>
                <Table.Td>{course.enrollments}</Table.Td>
                <Table.Td>{course.pending}</Table.Td>
                <Table.Td>{course.completionRate}%</Table.Td>
                <Table.Td>{course.averageProgress}%</Table.Td>
                <Table.Td>
                  {course.quizPassRate === null
                    ? 'No attempts'
                    : `${course.quizPassRate}% (${course.quizPassed} of ${course.quizAttempts})`}
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
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
        />
      )}
    </Stack>
  );
}
