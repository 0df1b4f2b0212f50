// My Courses: the caller's own courses in any status, searched by title or description on the server.
import { useState } from 'react';
import { Button, Card, Center, Group, Loader, Pagination, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorDescription } from '@/lib/api-client';
import { ServiceBadge } from '@/components/ServiceBadge';
import { MY_COURSES_PAGE_SIZE, useMyCourses } from '../api/get-my-courses';
import { formatHours } from '@/lib/format';
import { StatusBadge } from './StatusBadge';

export function MyCoursesTab() {
  const { t } = useTranslation('instructor');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const courses = useMyCourses(debounced, page);
  const data = courses.data;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <TextInput
          label={t('myCourses.search')}
          placeholder={t('myCourses.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: 1, maxWidth: 420 }}
        />
        <Button component={Link} to="/course-creator">
          {t('myCourses.create')}
        </Button>
      </Group>

      {courses.isError && <Text c="red.8">{errorDescription(courses.error, t('myCourses.loadError'))}</Text>}
      {courses.isPending && (
        <Center py="xl">
          <Loader aria-label={t('myCourses.loading')} />
        </Center>
      )}

      {data && data.items.length === 0 && (
        <Stack align="center" py="xl" gap="xs">
          <Title order={3}>{t('myCourses.noneTitle')}</Title>
          <Text c="dimmed">
            {debounced ? t('myCourses.noMatch', { search: debounced }) : t('myCourses.none')}
          </Text>
        </Stack>
      )}

      {data && data.items.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {data.items.map((course) => (
            <Card key={course.id} withBorder radius="md" padding="md" component="article" aria-label={course.title}>
              <Group justify="space-between" mb="xs" wrap="nowrap" align="flex-start">
                <Title order={3} size="h5">
                  {course.title}
                </Title>
                <StatusBadge status={course.status} />
              </Group>
              <Text size="sm" c="dimmed" lineClamp={3} mb="sm">
                {course.description}
              </Text>
              <Group justify="space-between" mb="md">
                <Text size="sm">{formatHours(course.duration)}</Text>
                <ServiceBadge code={course.service} />
              </Group>
              <Group grow mt="auto">
                <Button component={Link} to={`/course/${course.id}`} variant="default" aria-label={t('myCourses.viewFor', { title: course.title })}>
                  {t('myCourses.view')}
                </Button>
                <Button component={Link} to={`/course/edit/${course.id}`} aria-label={t('myCourses.editFor', { title: course.title })}>
                  {t('myCourses.edit')}
                </Button>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}

      {data && data.total > MY_COURSES_PAGE_SIZE && (
        <Pagination
          total={Math.ceil(data.total / MY_COURSES_PAGE_SIZE)}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
          getItemProps={(n) => ({ 'aria-label': t('pagination.page', { number: n }) })}
        />
      )}
    </Stack>
  );
}
