// The course manager's create and edit dialog: the shared courseManagerSchema (the same rules and
// messages as the server); status offered as Published / Draft / Archived; server field errors land on the fields.
import { useEffect, useEffectEvent } from 'react';
import { Button, Checkbox, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { useTranslation } from 'react-i18next';
import { COURSE_DESCRIPTION_MIN, courseCreateSchema, courseManagerSchema, type CourseManagerValues } from '@shared/authoring.ts';
import { COURSE_LEVELS, type CourseLevel, type CourseStatus } from '@shared/domain.ts';
import { SERVICE_CODES, type ServiceCode } from '@shared/services.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { labelOf } from '@/lib/i18n/labels';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import type { ManagedCourse } from '../api/get-managed-courses';
import { useCreateCourse, useUpdateCourse } from '../api/save-course';

const STATUS_CHOICES: CourseStatus[] = ['ACTIVE', 'DRAFT', 'ARCHIVED'];

/** The manager's rules with the course's Welsh title and description (optional, the API's rules). */
const dialogSchema = courseManagerSchema.extend({
  titleCy: courseCreateSchema.shape.titleCy,
  descriptionCy: courseCreateSchema.shape.descriptionCy,
});

/** The form's values: the Welsh fields are text, empty when there is no Welsh version. */
type DialogValues = CourseManagerValues & { titleCy: string; descriptionCy: string };

/** A Welsh field's value for the API: blank is null (none; on an update it clears the saved one). */
const welshOrNull = (text: string | null | undefined) => (text == null || text.trim() === '' ? null : text);

export interface CourseFormDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The course to edit; absent to create one. */
  course?: ManagedCourse | null;
  /** Services the caller may create courses in (all for admins). */
  services: readonly string[];
}

function valuesOf(course: ManagedCourse | null | undefined, services: readonly string[]): DialogValues {
  if (course) {
    return {
      title: course.title,
      description: course.description,
      titleCy: course.titleCy ?? '',
      descriptionCy: course.descriptionCy ?? '',
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
    titleCy: '',
    descriptionCy: '',
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
  const { t } = useTranslation('course-manager');
  const editing = Boolean(course);
  const form = useForm<DialogValues>({
    mode: 'controlled',
    initialValues: valuesOf(course, services),
    validate: translatedResolver(dialogSchema, { errorPriority: 'first' }),
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
    notifyFailure(t('form.error'), errorDescription(error, fallback));
  }

  function submit(raw: DialogValues) {
    const parsed = dialogSchema.parse(raw);
    const values = { ...parsed, titleCy: welshOrNull(parsed.titleCy), descriptionCy: welshOrNull(parsed.descriptionCy) };
    if (course) {
      update.mutate(
        { id: course.id, values },
        {
          onSuccess: () => {
            notifySuccess(t('form.updated'), t('form.updatedMessage', { title: values.title }));
            onClose();
          },
          onError: (error) => onError(error, t('form.updateFailed')),
        },
      );
    } else {
      create.mutate(values, {
        onSuccess: () => {
          notifySuccess(t('form.created'), t('form.createdMessage', { title: values.title }));
          onClose();
        },
        onError: (error) => onError(error, t('form.createFailed')),
      });
    }
  }

  // Each field's props, worked out before the JSX (whose strings are all words people read).
  const fields = {
    title: form.getInputProps('title'),
    description: form.getInputProps('description'),
    titleCy: form.getInputProps('titleCy'),
    descriptionCy: form.getInputProps('descriptionCy'),
    service: form.getInputProps('service'),
    duration: form.getInputProps('duration'),
    level: form.getInputProps('level'),
    status: form.getInputProps('status'),
    featured: form.getInputProps('featured', { type: 'checkbox' }),
    requiresEnrollment: form.getInputProps('requiresEnrollment', { type: 'checkbox' }),
  };
  return (
    <Modal closeButtonProps={{ 'aria-label': t('form.closeDialog') }} opened={opened} onClose={onClose} title={editing ? t('form.editTitle') : t('form.createTitle')} size="lg">
      <form noValidate onSubmit={form.onSubmit(submit)} aria-label={editing ? t('form.editForm') : t('form.createForm')}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('form.title')} required withAsterisk={false} key={form.key('title')} {...fields.title} />
            <TextInput label={t('form.titleCy')} description={t('form.welshHint')} lang="cy" key={form.key('titleCy')} {...fields.titleCy} />
            <Textarea
              label={t('form.description')}
              description={t('form.descriptionHint', { min: COURSE_DESCRIPTION_MIN })}
              required
              withAsterisk={false}
              autosize
              minRows={3}
              key={form.key('description')}
              {...fields.description}
            />
            <Textarea
              label={t('form.descriptionCy')}
              description={t('form.descriptionHint', { min: COURSE_DESCRIPTION_MIN })}
              lang="cy"
              autosize
              minRows={3}
              key={form.key('descriptionCy')}
              {...fields.descriptionCy}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('form.service')}
              allowDeselect={false}
              data={serviceChoices
                .filter((code) => (SERVICE_CODES as readonly string[]).includes(code))
                .map((code) => ({ value: code, label: labelOf('service', code) }))}
              key={form.key('service')}
              {...fields.service}
            />
            <NumberInput
              label={t('form.duration')}
              min={1}
              allowDecimal={false}
              key={form.key('duration')}
              {...fields.duration}
            />
            <Select
              label={t('form.level')}
              allowDeselect={false}
              data={COURSE_LEVELS.map((level) => ({ value: level, label: labelOf('courseLevel', level) }))}
              key={form.key('level')}
              {...fields.level}
            />
            <Select
              label={t('form.status')}
              allowDeselect={false}
              data={STATUS_CHOICES.map((status) => ({ value: status, label: labelOf('courseStatus', status) }))}
              key={form.key('status')}
              {...fields.status}
            />
          </SimpleGrid>
          <Checkbox label={t('form.featured')} key={form.key('featured')} {...fields.featured} />
          <Checkbox
            label={t('form.requiresEnrolment')}
            key={form.key('requiresEnrollment')}
            {...fields.requiresEnrollment}
          />
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={onClose}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {editing ? t('form.update') : t('form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
