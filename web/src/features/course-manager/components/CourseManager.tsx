// The course manager: status tabs over the caller's courses (every course for an
// admin), a table with view / edit / delete, and the create and edit dialogs.
import { useState } from 'react';
import { ActionIcon, Badge, Button, Center, Group, Loader, Pagination, Stack, Table, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { IconArchiveOff, IconEdit, IconEye, IconPlus, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CourseLevel, CourseStatus } from '@shared/domain.ts';
import { errorDescription } from '@/lib/api-client';
import { formatHours } from '@/lib/format';
import { labelOf } from '@/lib/i18n/labels';
import { ServiceBadge } from '@/components/ServiceBadge';
import { MANAGER_PAGE_SIZE, type ManagedCourse, useManagedCourses } from '../api/get-managed-courses';
import { CourseFormDialog } from './CourseFormDialog';
import { DeleteCourseDialog } from '@/components/DeleteCourseDialog';
import { useRestoreCourse } from '@/lib/course-removal';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { PageMeta } from '@/lib/page/page-meta';

/** The status tabs; each one's name and empty message are manager.filter.<key> and manager.none.<key>. */
const FILTERS = {
  all: { status: undefined },
  published: { status: 'ACTIVE' },
  drafts: { status: 'DRAFT' },
  archived: { status: 'ARCHIVED' },
} as const;
type Filter = keyof typeof FILTERS;

// White text on these shades keeps 4.5:1 (WCAG 2.2 AA).
const STATUS_COLOURS: Record<CourseStatus, string> = { ACTIVE: 'blue.8', DRAFT: 'gray.7', ARCHIVED: 'red.9' };
/** The Welsh status's "Available in Welsh": white on this green keeps 4.5:1 or more. */
const AVAILABLE_IN_WELSH = '#1b5e20';

export function CourseManager({ isAdmin, services }: { isAdmin: boolean; services: readonly string[] }) {
  const { t } = useTranslation('course-manager');
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
      onSuccess: () => notifySuccess(t('manager.restored'), t('manager.restoredMessage', { title: course.title })),
      onError: (error) => notifyFailure(t('manager.error'), errorDescription(error, t('manager.restoreFailed'))),
    });
  }

  return (
    <Stack gap="md">
      <PageMeta title={t('manager.title')} description={t('manager.description')} />
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t('manager.title')}</Title>
          <Text c="dimmed">{isAdmin ? t('manager.introAdmin') : t('manager.intro')}</Text>
        </div>
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setCreating(true)}>
          {t('manager.create')}
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
              {t(`manager.filter.${key}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>

      {courses.isError && <Text c="red.8">{errorDescription(courses.error, t('manager.loadError'))}</Text>}
      {courses.isPending && (
        <Center py="xl">
          <Loader aria-label={t('manager.loading')} />
        </Center>
      )}
      {data && data.items.length === 0 && (
        <Stack align="center" py="xl" gap="xs">
          <Title order={2} size="h4">
            {t('manager.noneTitle')}
          </Title>
          <Text c="dimmed">
            {t(`manager.none.${filter}`)}
          </Text>
        </Stack>
      )}
      {data && data.items.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover aria-label={t('manager.table')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('manager.column.title')}</Table.Th>
                <Table.Th scope="col">{t('manager.column.service')}</Table.Th>
                <Table.Th scope="col">{t('manager.column.duration')}</Table.Th>
                <Table.Th scope="col">{t('manager.column.level')}</Table.Th>
                <Table.Th scope="col">{t('manager.column.status')}</Table.Th>
                <Table.Th scope="col">{t('manager.column.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((course) => (
                <Table.Tr key={course.id} data-course={course.id}>
                  <Table.Th scope="row" fw={500}>
                    <Stack gap={4} align="flex-start">
                      <span>{course.title}</span>
                      {course.availableInWelsh ? (
                        <Badge variant="filled" radius="sm" style={{ backgroundColor: AVAILABLE_IN_WELSH, color: '#fff' }}>
                          {t('manager.welsh.available')}
                        </Badge>
                      ) : (
                        <Badge variant="outline" radius="sm" color="gray.8">
                          {t('manager.welsh.englishOnly')}
                        </Badge>
                      )}
                    </Stack>
                  </Table.Th>
                  <Table.Td>
                    <ServiceBadge code={course.service} />
                  </Table.Td>
                  <Table.Td>{formatHours(course.duration)}</Table.Td>
                  <Table.Td>{labelOf('courseLevel', course.level as CourseLevel)}</Table.Td>
                  <Table.Td>
                    <Badge variant="filled" radius="sm" color={STATUS_COLOURS[course.status as CourseStatus] ?? 'gray.7'}>
                      {labelOf('courseStatus', course.status as CourseStatus)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Tooltip label={t('manager.view')}>
                        <ActionIcon component={Link} to={`/course/${course.id}`} variant="subtle" aria-label={t('manager.viewFor', { title: course.title })}>
                          <IconEye size={18} aria-hidden="true" />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('manager.edit')}>
                        <ActionIcon variant="subtle" onClick={() => setEditing(course)} aria-label={t('manager.editFor', { title: course.title })}>
                          <IconEdit size={18} aria-hidden="true" />
                        </ActionIcon>
                      </Tooltip>
                      {course.status === 'ARCHIVED' && (
                        <Tooltip label={t('manager.restore')}>
                          <ActionIcon variant="subtle" onClick={() => restoreCourse(course)} aria-label={t('manager.restoreFor', { title: course.title })}>
                            <IconArchiveOff size={18} aria-hidden="true" />
                          </ActionIcon>
                        </Tooltip>
                      )}
                      <Tooltip label={t('manager.delete')}>
                        <ActionIcon variant="subtle" color="red.9" onClick={() => setDeleting(course)} aria-label={t('manager.deleteFor', { title: course.title })}>
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
          getControlProps={(control) => ({ 'aria-label': t(`manager.pagination.${control}`) })}
          getItemProps={(n) => ({ 'aria-label': t('manager.pagination.page', { number: n }) })}
        />
      )}

      <CourseFormDialog opened={creating} onClose={() => setCreating(false)} services={services} />
      <CourseFormDialog opened={editing !== null} onClose={() => setEditing(null)} course={editing} services={services} />
      <DeleteCourseDialog course={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
