// The course manager's create and edit dialog: the shared courseManagerSchema (the same rules and
// messages as the server); status offered as Published / Draft / Archived; server field errors land on the fields.
import { useEffect, useEffectEvent } from 'react';
import { Button, Checkbox, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { COURSE_DESCRIPTION_MIN, courseManagerSchema, type CourseManagerValues } from '@shared/authoring.ts';
import { COURSE_LEVEL_LABELS, COURSE_LEVELS, COURSE_STATUS_LABELS, type CourseLevel, type CourseStatus } from '@shared/domain.ts';
import { SERVICE_CODES, serviceLabel, type ServiceCode } from '@shared/services.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import type { ManagedCourse } from '../api/get-managed-courses';
import { useCreateCourse, useUpdateCourse } from '../api/save-course';

const STATUS_CHOICES: CourseStatus[] = ['ACTIVE', 'DRAFT', 'ARCHIVED'];

export interface CourseFormDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The course to edit; absent to create one. */
  course?: ManagedCourse | null;
  /** Services the caller may create courses in (all for admins). */
  services: readonly string[];
}

function valuesOf(course: ManagedCourse | null | undefined, services: readonly string[]): CourseManagerValues {
  if (course) {
    return {
      title: course.title,
      description: course.description,
      service: course.service as ServiceCode,
      modules: Math.max(1, course.modules),
      duration: course.duration,
      level: course.level as CourseLevel,
      status: course.status as CourseStatus,
      featured: course.featured,
      requiresEnrollment: course.requiresEnrollment,
    };
  }
  return {
    title: '',
    description: '',
    service: (services[0] ?? 'MISC') as ServiceCode,
    modules: 1,
    duration: 1,
    level: 'BEGINNER',
    status: 'DRAFT',
    featured: false,
    requiresEnrollment: true,
  };
}

export function CourseFormDialog({ opened, onClose, course, services }: CourseFormDialogProps) {
  const editing = Boolean(course);
  const form = useForm<CourseManagerValues>({
    mode: 'controlled',
    initialValues: valuesOf(course, services),
    validate: zod4Resolver(courseManagerSchema, { errorPriority: 'first' }),
  });
  const create = useCreateCourse();
  const update = useUpdateCourse();

  const resetForm = useEffectEvent(() => {
    if (opened) {
      form.setValues(valuesOf(course, services));
      form.resetDirty();
      form.clearErrors();
    }
  });
  // Each opening starts from the course being edited (or a blank form).
  // Only when the dialog opens or shows another course: a refetch must not reset what is typed.
  useEffect(() => resetForm(), [opened, course?.id]);

  // An edited course may sit in a service the instructor no longer holds: keep it selectable.
  const serviceChoices = Array.from(new Set([...services, ...(course ? [course.service] : [])])) as string[];

  function onError(error: Error, fallback: string) {
    if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
    notifyFailure('Error', errorDescription(error, fallback));
  }

  function submit(raw: CourseManagerValues) {
    const values = courseManagerSchema.parse(raw);
    if (course) {
      update.mutate(
        { id: course.id, values },
        {
          onSuccess: () => {
            notifySuccess('Course updated', `${values.title} has been updated.`);
            onClose();
          },
          onError: (error) => onError(error, 'Failed to update course'),
        },
      );
    } else {
      create.mutate(values, {
        onSuccess: () => {
          notifySuccess('Course created', `${values.title} has been created.`);
          onClose();
        },
        onError: (error) => onError(error, 'Failed to create course'),
      });
    }
  }

  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={opened} onClose={onClose} title={editing ? 'Edit Course' : 'Create Course'} size="lg">
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label={editing ? 'Edit course' : 'Create course'}>
        <Stack gap="sm">
          <TextInput label="Title" required withAsterisk={false} key={form.key('title')} {...form.getInputProps('title')} />
          <Textarea
            label="Description"
            description={`At least ${COURSE_DESCRIPTION_MIN} characters`}
            required
            withAsterisk={false}
            autosize
            minRows={3}
            key={form.key('description')}
            {...form.getInputProps('description')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Service"
              allowDeselect={false}
              data={serviceChoices
                .filter((code) => (SERVICE_CODES as readonly string[]).includes(code))
                .map((code) => ({ value: code, label: serviceLabel(code) }))}
              key={form.key('service')}
              {...form.getInputProps('service')}
            />
            <NumberInput
              label="Duration (hours)"
              min={1}
              allowDecimal={false}
              key={form.key('duration')}
              {...form.getInputProps('duration')}
            />
            <Select
              label="Level"
              allowDeselect={false}
              data={COURSE_LEVELS.map((level) => ({ value: level, label: COURSE_LEVEL_LABELS[level] }))}
              key={form.key('level')}
              {...form.getInputProps('level')}
            />
            <Select
              label="Status"
              allowDeselect={false}
              data={STATUS_CHOICES.map((status) => ({ value: status, label: COURSE_STATUS_LABELS[status] }))}
              key={form.key('status')}
              {...form.getInputProps('status')}
            />
          </SimpleGrid>
          <Checkbox label="Featured course" key={form.key('featured')} {...form.getInputProps('featured', { type: 'checkbox' })} />
          <Checkbox
            label="Requires enrolment"
            key={form.key('requiresEnrollment')}
            {...form.getInputProps('requiresEnrollment', { type: 'checkbox' })}
          />
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {editing ? 'Update Course' : 'Create Course'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
