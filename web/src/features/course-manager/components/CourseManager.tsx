// The course manager: status tabs over the caller's courses (every course for an
// admin), a table with view / edit / delete, and the create and edit dialogs.
import { useState } from 'react';
import { ActionIcon, Badge, Button, Center, Group, Loader, Pagination, Stack, Table, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { IconArchiveOff, IconEdit, IconEye, IconPlus, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { COURSE_LEVEL_LABELS, COURSE_STATUS_LABELS, type CourseLevel, type CourseStatus } from '@shared/domain.ts';
import { errorDescription } from '@/lib/api-client';
import { ServiceBadge } from '@/components/ServiceBadge';
import { MANAGER_PAGE_SIZE, type ManagedCourse, useManagedCourses } from '../api/get-managed-courses';
import { CourseFormDialog } from './CourseFormDialog';
import { DeleteCourseDialog } from '@/components/DeleteCourseDialog';
import { useRestoreCourse } from '@/lib/course-removal';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { PageMeta } from '@/lib/page/page-meta';

const FILTERS = {
  all: { label: 'All', status: undefined, word: '' },
  published: { label: 'Published', status: 'ACTIVE', word: 'published' },
  drafts: { label: 'Drafts', status: 'DRAFT', word: 'draft' },
  archived: { label: 'Archived', status: 'ARCHIVED', word: 'archived' },
} as const;
type Filter = keyof typeof FILTERS;

// White text on these shades keeps 4.5:1 (WCAG 2.2 AA).
const STATUS_COLOURS: Record<CourseStatus, string> = { ACTIVE: 'blue.8', DRAFT: 'gray.7', ARCHIVED: 'red.9' };

function hours(n: number) {
  return `${n} ${n === 1 ? 'hour' : 'hours'}`;
}

export function CourseManager({ isAdmin, services }: { isAdmin: boolean; services: readonly string[] }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ManagedCourse | null>(null);
  const [deleting, setDeleting] = useState<ManagedCourse | null>(null);
  const courses = useManagedCourses({ status: FILTERS[filter].status, mine: !isAdmin, page });
  const data = courses.data;
  const restore = useRestoreCourse();

  // An archived course comes back as a draft: its author publishes it again when it is ready.
  function restoreCourse(course: ManagedCourse) {
    restore.mutate(course.id, {
      onSuccess: () => notifySuccess('Course restored', `${course.title} is a draft again.`),
      onError: (error) => notifyFailure('Error', errorDescription(error, 'Failed to restore course')),
    });
  }

  return (
    <Stack gap="md">
      <PageMeta title="Course Manager" description="Create, edit and publish courses." />
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Course Manager</Title>
          <Text c="dimmed">{isAdmin ? 'Create, edit and delete every course.' : 'Create, edit and delete your courses.'}</Text>
        </div>
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setCreating(true)}>
          Create Course
        </Button>
      </Group>

      <Tabs
        value={filter}
        onChange={(value) => {
          if (!value) return;
          setFilter(value as Filter);
          setPage(1);
        }}
      >
        <Tabs.List>
          {(Object.keys(FILTERS) as Filter[]).map((key) => (
            <Tabs.Tab key={key} value={key}>
              {FILTERS[key].label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>

      {courses.isError && <Text c="red.8">{errorDescription(courses.error, 'Could not load the courses.')}</Text>}
      {courses.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading courses" />
        </Center>
      )}
      {data && data.items.length === 0 && (
        <Stack align="center" py="xl" gap="xs">
          <Title order={2} size="h4">
            No courses found
          </Title>
          <Text c="dimmed">
            {filter === 'all' ? 'Create your first course to get started.' : `No ${FILTERS[filter].word} courses available.`}
          </Text>
        </Stack>
      )}
      {data && data.items.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover aria-label="Courses">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Title</Table.Th>
                <Table.Th scope="col">Service</Table.Th>
                <Table.Th scope="col">Duration</Table.Th>
                <Table.Th scope="col">Level</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((course) => (
                <Table.Tr key={course.id} data-course={course.id}>
                  <Table.Th scope="row" fw={500}>
                    {course.title}
                  </Table.Th>
                  <Table.Td>
                    <ServiceBadge code={course.service} />
                  </Table.Td>
                  <Table.Td>{hours(course.duration)}</Table.Td>
                  <Table.Td>{COURSE_LEVEL_LABELS[course.level as CourseLevel] ?? course.level}</Table.Td>
                  <Table.Td>
                    <Badge variant="filled" radius="sm" color={STATUS_COLOURS[course.status as CourseStatus] ?? 'gray.7'}>
                      {COURSE_STATUS_LABELS[course.status as CourseStatus] ?? course.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Tooltip label="View">
                        <ActionIcon component={Link} to={`/course/${course.id}`} variant="subtle" aria-label={`View ${course.title}`}>
                          <IconEye size={18} aria-hidden="true" />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Edit">
                        <ActionIcon variant="subtle" onClick={() => setEditing(course)} aria-label={`Edit ${course.title}`}>
                          <IconEdit size={18} aria-hidden="true" />
                        </ActionIcon>
                      </Tooltip>
                      {course.status === 'ARCHIVED' && (
                        <Tooltip label="Restore as draft">
                          <ActionIcon variant="subtle" onClick={() => restoreCourse(course)} aria-label={`Restore ${course.title}`}>
                            <IconArchiveOff size={18} aria-hidden="true" />
                          </ActionIcon>
                        </Tooltip>
                      )}
                      <Tooltip label="Delete">
                        <ActionIcon variant="subtle" color="red.9" onClick={() => setDeleting(course)} aria-label={`Delete ${course.title}`}>
                          <IconTrash size={18} aria-hidden="true" />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {data && data.total > MANAGER_PAGE_SIZE && (
        <Pagination
          total={Math.ceil(data.total / MANAGER_PAGE_SIZE)}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
        />
      )}

      <CourseFormDialog opened={creating} onClose={() => setCreating(false)} services={services} />
      <CourseFormDialog opened={editing !== null} onClose={() => setEditing(null)} course={editing} services={services} />
      <DeleteCourseDialog course={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
