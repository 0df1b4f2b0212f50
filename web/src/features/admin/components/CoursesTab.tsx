// Courses tab: search (title, description), service filter, Create Full Course,
// Quick Add / Quick Edit (the admin quick form, status default ACTIVE shown as Published), Full Edit,
// Delete with confirmation (a course with learner records is archived instead), Restore for an
// archived course.
import { useEffect, useEffectEvent, useState } from 'react';
import { Badge, Button, Group, Modal, NumberInput, Pagination, Select, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { Link } from 'react-router';
import { adminQuickCourseSchema, COURSE_DESCRIPTION_MIN, type AdminQuickCourseValues } from '@shared/authoring.ts';
import { COURSE_LEVEL_LABELS, COURSE_LEVELS, COURSE_STATUS_LABELS, COURSE_STATUSES, type CourseLevel, type CourseStatus } from '@shared/domain.ts';
import { SERVICE_CODES, serviceLabel, type ServiceCode } from '@shared/services.ts';
import { ServiceBadge } from '@/components/ServiceBadge';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { type AdminCourse, COURSES_PAGE_SIZE, useAdminCourses, useQuickCreateCourse, useQuickUpdateCourse } from '../api/courses';
import { formatDate } from '@/lib/format';
import { DeleteCourseDialog } from '@/components/DeleteCourseDialog';
import { useRestoreCourse } from '@/lib/course-removal';
import { useTranslation } from 'react-i18next';
import { serviceFilterData } from './UsersTab';

const statusData = COURSE_STATUSES.map((status) => ({ value: status, label: COURSE_STATUS_LABELS[status] }));
const levelData = COURSE_LEVELS.map((level) => ({ value: level, label: COURSE_LEVEL_LABELS[level] }));
const serviceData = SERVICE_CODES.map((code) => ({ value: code, label: serviceLabel(code) }));

function StatusBadge({ status }: { status: string }) {
  const label = COURSE_STATUS_LABELS[status as CourseStatus] ?? status;
  // Published (ACTIVE) stands out in the filled style; drafts and archived courses are secondary.
  return status === 'ACTIVE'
    ? <Badge variant="filled" color="blue.8" radius="sm">{label}</Badge>
    : <Badge variant="outline" color="dark.6" radius="sm" c="var(--mantine-color-text)">{label}</Badge>;
}

const blank: AdminQuickCourseValues = { title: '', description: '', service: 'MISC', level: 'BEGINNER', duration: 1, status: 'ACTIVE' };

function QuickCourseDialog({ course, opened, onClose }: { course: AdminCourse | null; opened: boolean; onClose: () => void }) {
  const create = useQuickCreateCourse();
  const update = useQuickUpdateCourse();
  const form = useForm<AdminQuickCourseValues>({
    mode: 'controlled',
    initialValues: blank,
    validate: zod4Resolver(adminQuickCourseSchema, { errorPriority: 'first' }),
  });
  const resetForm = useEffectEvent(() => {
    if (!opened) return;
    form.setValues(course
      ? { title: course.title, description: course.description, service: course.service as ServiceCode, level: (course.level ?? 'BEGINNER') as CourseLevel, duration: course.duration, status: course.status as CourseStatus }
      : blank);
    form.clearErrors();
  });
  // Only when the dialog opens or shows another course: a refetch must not reset what is typed.
  useEffect(() => resetForm(), [opened, course?.id]);

  const submit = form.onSubmit((values) => {
    const handlers = (title: string, failure: string) => ({
      onSuccess: () => {
        notifySuccess(title, `${values.title} has been saved.`);
        onClose();
      },
      onError: (error: Error) => {
        if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
        notifyFailure(failure, errorDescription(error, failure));
      },
    });
    if (course) update.mutate({ id: course.id, values }, handlers('Course updated', 'Failed to update course'));
    else create.mutate(values, handlers('Course created', 'Failed to create course'));
  });

  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={opened} onClose={onClose} title={course ? 'Quick Edit Course' : 'Quick Add Course'} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Title" required {...form.getInputProps('title')} />
          <Textarea label="Description" description={`At least ${COURSE_DESCRIPTION_MIN} characters`} required autosize minRows={3} {...form.getInputProps('description')} />
          <Select label="Service" required data={serviceData} allowDeselect={false} {...form.getInputProps('service')} />
          <Select label="Level" required data={levelData} allowDeselect={false} {...form.getInputProps('level')} />
          <NumberInput label="Duration (hours)" required min={1} allowDecimal={false} {...form.getInputProps('duration')} />
          <Select label="Status" required data={statusData} allowDeselect={false} {...form.getInputProps('status')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={create.isPending || update.isPending}>{course ? 'Save Changes' : 'Create Course'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function CoursesTab() {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [service, setService] = useState('ALL');
  const [page, setPage] = useState(1);
  const [quick, setQuick] = useState<{ course: AdminCourse | null } | null>(null);
  const [deleting, setDeleting] = useState<AdminCourse | null>(null);
  const { data, isPending, isError, error } = useAdminCourses({ search: debounced, service: service === 'ALL' ? null : service, page });
  const restore = useRestoreCourse();

  // An archived course comes back as a draft, to be published again when it is ready.
  function restoreCourse(course: AdminCourse) {
    restore.mutate(course.id, {
      onSuccess: () => notifySuccess('Course restored', `${course.title} is a draft again.`),
      onError: (e) => notifyFailure('Failed to restore course', errorDescription(e, 'Failed to restore course')),
    });
  }

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput label="Search courses" placeholder="Title or description" value={search}
            onChange={(e) => { setSearch(e.currentTarget.value); setPage(1); }} />
          <Select label="Service" data={serviceFilterData(t)} value={service} allowDeselect={false}
            onChange={(value) => { setService(value ?? 'ALL'); setPage(1); }} />
        </Group>
        <Group>
          <Button component={Link} to="/course/create" variant="default">Create Full Course</Button>
          <Button onClick={() => setQuick({ course: null })}>Quick Add Course</Button>
        </Group>
      </Group>
      {isError ? <Text c="red.8">{errorDescription(error, 'Failed to load courses')}</Text> : null}
      {isPending ? <Text>Loading courses…</Text> : null}
      {data && data.items.length === 0 ? <Text ta="center" py="xl" fw={600}>No courses found</Text> : null}
      {data && data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={800}>
          <Table striped highlightOnHover aria-label="Courses">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Course</Table.Th>
                <Table.Th>Service</Table.Th>
                <Table.Th>Duration (hrs)</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((course) => (
                <Table.Tr key={course.id}>
                  <Table.Td maw={360}>
                    <Text fw={500}>{course.title}</Text>
                    <Text size="sm" c="dimmed" lineClamp={1}>{course.description}</Text>
                  </Table.Td>
                  <Table.Td><ServiceBadge code={course.service} /></Table.Td>
                  <Table.Td>{course.duration}</Table.Td>
                  <Table.Td><StatusBadge status={course.status} /></Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(course.createdAt)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setQuick({ course })} aria-label={`Quick Edit ${course.title}`}>Quick Edit</Button>
                      <Button size="xs" variant="default" component={Link} to={`/course/edit/${course.id}`} aria-label={`Full Edit ${course.title}`}>Full Edit</Button>
                      {course.status === 'ARCHIVED' ? (
                        <Button size="xs" variant="default" onClick={() => restoreCourse(course)} aria-label={`Restore ${course.title}`}>Restore</Button>
                      ) : null}
                      <Button size="xs" color="red.9" onClick={() => setDeleting(course)} aria-label={`Delete ${course.title}`}>Delete</Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {data && data.total > COURSES_PAGE_SIZE ? (
        <Group justify="flex-end">
          <Pagination total={Math.ceil(data.total / COURSES_PAGE_SIZE)} value={page} onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
        </Group>
      ) : null}
      <QuickCourseDialog opened={quick !== null} course={quick?.course ?? null} onClose={() => setQuick(null)} />
      <DeleteCourseDialog course={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
