// Courses tab: search (title, description), service filter, Create Full Course,
// Quick Add / Quick Edit (the admin quick form, status default ACTIVE shown as Published), Full Edit,
// Delete with confirmation (a course with learner records is archived instead), Restore for an
// archived course.
import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { Badge, Button, Group, Modal, NumberInput, Pagination, Select, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { Link } from 'react-router';
import { adminQuickCourseSchema, COURSE_DESCRIPTION_MIN, type AdminQuickCourseValues } from '@shared/authoring.ts';
import { COURSE_LEVELS, COURSE_STATUSES, type CourseLevel, type CourseStatus } from '@shared/domain.ts';
import { SERVICE_CODES, type ServiceCode } from '@shared/services.ts';
import { labelOf } from '@/lib/i18n/labels';
import { ServiceBadge } from '@/components/ServiceBadge';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { type AdminCourse, COURSES_PAGE_SIZE, useAdminCourses, useQuickCreateCourse, useQuickUpdateCourse } from '../api/courses';
import { formatDate } from '@/lib/format';
import { DeleteCourseDialog } from '@/components/DeleteCourseDialog';
import { useRestoreCourse } from '@/lib/course-removal';
import { useTranslation } from 'react-i18next';
import { pagerControlLabel, serviceFilterData } from './UsersTab';

// Made at each render, in the page's language.
const statusData = () => COURSE_STATUSES.map((status) => ({ value: status, label: labelOf('courseStatus', status) }));
const levelData = () => COURSE_LEVELS.map((level) => ({ value: level, label: labelOf('courseLevel', level) }));
const serviceData = () => SERVICE_CODES.map((code) => ({ value: code, label: labelOf('service', code) }));

function StatusBadge({ status }: { status: string }) {
  useTranslation('admin');
  const label = labelOf('courseStatus', status as CourseStatus);
  // Published (ACTIVE) stands out in the filled style; drafts and archived courses are secondary.
  return status === 'ACTIVE'
    ? <Badge variant="filled" color="blue.8" radius="sm">{label}</Badge>
    : <Badge variant="outline" color="dark.6" radius="sm" c="var(--mantine-color-text)">{label}</Badge>;
}

/** A course's named assessors of practical assessments, handed in by the route (features/assessments). */
export type AssessorsDialogSlot = (props: { course: { id: string; title: string }; onClose: () => void }) => ReactNode;

const blank: AdminQuickCourseValues = { title: '', description: '', service: 'MISC', level: 'BEGINNER', duration: 1, status: 'ACTIVE' };

function QuickCourseDialog({ course, opened, onClose }: { course: AdminCourse | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const create = useQuickCreateCourse();
  const update = useQuickUpdateCourse();
  const form = useForm<AdminQuickCourseValues>({
    mode: 'controlled',
    initialValues: blank,
    validate: translatedResolver(adminQuickCourseSchema, { errorPriority: 'first' }),
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
        notifySuccess(title, t('coursesTab.savedMessage', { title: values.title }));
        onClose();
      },
      onError: (error: Error) => {
        if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
        notifyFailure(failure, errorDescription(error, failure));
      },
    });
    if (course) update.mutate({ id: course.id, values }, handlers(t('coursesTab.updated'), t('coursesTab.updateFailed')));
    else create.mutate(values, handlers(t('coursesTab.created'), t('coursesTab.createFailed')));
  });
  const fields = {
    title: form.getInputProps('title'),
    description: form.getInputProps('description'),
    service: form.getInputProps('service'),
    level: form.getInputProps('level'),
    duration: form.getInputProps('duration'),
    status: form.getInputProps('status'),
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('userDialogs.closeDialog') }}
      opened={opened}
      onClose={onClose}
      title={course ? t('coursesTab.quickEditTitle') : t('coursesTab.quickAddTitle')}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t('coursesTab.title')} required {...fields.title} />
          <Textarea label={t('coursesTab.description')} description={t('coursesTab.descriptionHint', { min: COURSE_DESCRIPTION_MIN })} required autosize minRows={3} {...fields.description} />
          <Select label={t('coursesTab.service')} required data={serviceData()} allowDeselect={false} {...fields.service} />
          <Select label={t('coursesTab.level')} required data={levelData()} allowDeselect={false} {...fields.level} />
          <NumberInput label={t('coursesTab.durationHours')} required min={1} allowDecimal={false} {...fields.duration} />
          <Select label={t('coursesTab.status')} required data={statusData()} allowDeselect={false} {...fields.status} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('userDialogs.cancel')}</Button>
            <Button type="submit" loading={create.isPending || update.isPending}>{course ? t('userDialogs.saveChanges') : t('coursesTab.createCourse')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** assessorsDialog: where given, each course offers its named assessors. */
export function CoursesTab({ assessorsDialog }: { assessorsDialog?: AssessorsDialogSlot } = {}) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [service, setService] = useState('ALL');
  const [page, setPage] = useState(1);
  const [quick, setQuick] = useState<{ course: AdminCourse | null } | null>(null);
  const [deleting, setDeleting] = useState<AdminCourse | null>(null);
  const [assessorsFor, setAssessorsFor] = useState<AdminCourse | null>(null);
  const { data, isPending, isError, error } = useAdminCourses({ search: debounced, service: service === 'ALL' ? null : service, page });
  const restore = useRestoreCourse();

  // An archived course comes back as a draft, to be published again when it is ready.
  function restoreCourse(course: AdminCourse) {
    restore.mutate(course.id, {
      onSuccess: () => notifySuccess(t('coursesTab.restored'), t('coursesTab.restoredMessage', { title: course.title })),
      onError: (e) => notifyFailure(t('coursesTab.restoreFailed'), errorDescription(e, t('coursesTab.restoreFailed'))),
    });
  }

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput label={t('coursesTab.search')} placeholder={t('coursesTab.searchPlaceholder')} value={search}
            onChange={(e) => { setSearch(e.currentTarget.value); setPage(1); }} />
          <Select label={t('coursesTab.service')} data={serviceFilterData(t)} value={service} allowDeselect={false}
            onChange={(value) => { setService(value ?? 'ALL'); setPage(1); }} />
        </Group>
        <Group>
          <Button component={Link} to="/course/create" variant="default">{t('coursesTab.createFull')}</Button>
          <Button onClick={() => setQuick({ course: null })}>{t('coursesTab.quickAddTitle')}</Button>
        </Group>
      </Group>
      {isError ? <Text c="red.8">{errorDescription(error, t('coursesTab.loadFailed'))}</Text> : null}
      {isPending ? <Text>{t('coursesTab.loading')}</Text> : null}
      {data && data.items.length === 0 ? <Text ta="center" py="xl" fw={600}>{t('coursesTab.noCourses')}</Text> : null}
      {data && data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={800}>
          <Table striped highlightOnHover aria-label={t('coursesTab.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('coursesTab.columns.course')}</Table.Th>
                <Table.Th>{t('coursesTab.columns.service')}</Table.Th>
                <Table.Th>{t('coursesTab.columns.duration')}</Table.Th>
                <Table.Th>{t('coursesTab.columns.status')}</Table.Th>
                <Table.Th>{t('coursesTab.columns.created')}</Table.Th>
                <Table.Th>{t('coursesTab.columns.actions')}</Table.Th>
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
                      <Button size="xs" variant="default" onClick={() => setQuick({ course })} aria-label={t('coursesTab.quickEditName', { title: course.title })}>{t('coursesTab.quickEdit')}</Button>
                      <Button size="xs" variant="default" component={Link} to={`/course/edit/${course.id}`} aria-label={t('coursesTab.fullEditName', { title: course.title })}>{t('coursesTab.fullEdit')}</Button>
                      {assessorsDialog ? <Button size="xs" variant="default" onClick={() => setAssessorsFor(course)} aria-label={t('coursesTab.assessorsName', { title: course.title })}>{t('coursesTab.assessors')}</Button> : null}
                      {course.status === 'ARCHIVED' ? (
                        <Button size="xs" variant="default" onClick={() => restoreCourse(course)} aria-label={t('coursesTab.restoreName', { title: course.title })}>{t('coursesTab.restore')}</Button>
                      ) : null}
                      <Button size="xs" color="red.9" onClick={() => setDeleting(course)} aria-label={t('coursesTab.deleteName', { title: course.title })}>{t('usersTab.delete')}</Button>
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
            getControlProps={pagerControlLabel(t)} />
        </Group>
      ) : null}
      <QuickCourseDialog opened={quick !== null} course={quick?.course ?? null} onClose={() => setQuick(null)} />
      <DeleteCourseDialog course={deleting} onClose={() => setDeleting(null)} />
      {assessorsFor ? assessorsDialog?.({ course: assessorsFor, onClose: () => setAssessorsFor(null) }) : null}
    </Stack>
  );
}
