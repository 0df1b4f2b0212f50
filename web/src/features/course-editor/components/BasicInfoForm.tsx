// Basic Information: the editor's course fields with the shared schema (spec §5 "Course editor form").
// Instructors may choose only their own services; admins any.
import { useEffect, useEffectEvent, useId } from 'react';
import { useNavigate } from 'react-router';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { useTranslation } from 'react-i18next';
import {
  APPROVAL_CHOICES, COURSE_DESCRIPTION_MIN, approvalChoiceOf, courseCreateSchema, courseEditorSchema, requiresApprovalOf, type CourseEditorValues,
} from '@shared/authoring.ts';
import { COURSE_LEVELS, COURSE_STATUSES, type CourseStatus, type User } from '@shared/domain.ts';
import { SERVICE_CODES } from '@shared/services.ts';
import type { Course } from '@shared/catalogue.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { labelOf } from '@/lib/i18n/labels';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCreateCourse, useUpdateCourse } from '../api/course';
import { welshOrNull } from '../lib/welsh';

export function allowedServices(user: User): string[] {
  return user.role === 'ADMIN' ? [...SERVICE_CODES] : SERVICE_CODES.filter((code) => user.services.includes(code));
}

/** The editor's schema with the course's Welsh title and description (optional, the API's rules). */
const basicInfoSchema = courseEditorSchema.extend({
  titleCy: courseCreateSchema.shape.titleCy,
  descriptionCy: courseCreateSchema.shape.descriptionCy,
});

/** The form's values: the Welsh fields are text, empty when there is no Welsh version. */
type BasicInfoValues = CourseEditorValues & { titleCy: string; descriptionCy: string };

function valuesOf(course: Course | undefined, services: string[]): BasicInfoValues {
  return {
    title: course?.title ?? '',
    description: course?.description ?? '',
    titleCy: course?.titleCy ?? '',
    descriptionCy: course?.descriptionCy ?? '',
    service: (course?.service ?? services[0] ?? '') as CourseEditorValues['service'],
    level: (course?.level ?? 'BEGINNER') as CourseEditorValues['level'],
    duration: course?.duration ?? 1,
    status: (course?.status ?? 'DRAFT') as CourseEditorValues['status'],
    certificateValidMonths: course?.certificateValidMonths ?? null,
    requiresApproval: course?.requiresApproval ?? null,
    sessionsNeedManagerApproval: course?.sessionsNeedManagerApproval ?? false,
  };
}

export function BasicInfoForm({
  user,
  course,
  onCreated,
  onStatusChange,
}: {
  user: User;
  course?: Course;
  onCreated: (course: Course) => void;
  onStatusChange: (status: CourseStatus) => void;
}) {
  const { t } = useTranslation('course-editor');
  const navigate = useNavigate();
  const services = allowedServices(user);
  // An admin-set service outside the instructor's list still shows on their own course.
  const serviceOptions = [...new Set([...services, ...(course ? [course.service] : [])])].map((code) => ({
    value: code,
    label: t('basicInfo.serviceOption', { name: labelOf('service', code), code }),
  }));
  const form = useForm<BasicInfoValues>({
    mode: 'controlled',
    initialValues: valuesOf(course, services),
    validate: translatedResolver(basicInfoSchema, { errorPriority: 'first' }),
    onValuesChange: (values) => onStatusChange(values.status),
  });
  const create = useCreateCourse();
  const update = useUpdateCourse(course?.id ?? '');
  const sessionApprovalHintId = useId();

  // The saved course replaces the form's values when it changes on the server (e.g. after create).
  const courseKey = course ? `${course.id}:${course.updatedAt}` : 'new';
  const resetForm = useEffectEvent(() => {
    form.setValues(valuesOf(course, services));
    form.resetDirty();
  });
  // Only when the saved course changes (courseKey), not when the form object or services do.
  useEffect(() => resetForm(), [courseKey]);

  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
    notifyFailure(t('basicInfo.saveError'), errorDescription(error, course ? t('basicInfo.updateFailed') : t('basicInfo.createFailed')));
  };

  // Each field's props, worked out before the JSX (whose strings are all words people read).
  const fields = {
    title: form.getInputProps('title'),
    description: form.getInputProps('description'),
    titleCy: form.getInputProps('titleCy'),
    descriptionCy: form.getInputProps('descriptionCy'),
    service: form.getInputProps('service'),
    level: form.getInputProps('level'),
    duration: form.getInputProps('duration'),
    status: form.getInputProps('status'),
    certificateValidMonths: form.getInputProps('certificateValidMonths'),
  };
  return (
    <form
      noValidate
      aria-label={t('basicInfo.form')}
      onSubmit={form.onSubmit((raw) => {
        const parsed = basicInfoSchema.parse(raw);
        // An empty Welsh field is sent as null: on an update that clears a Welsh version.
        const values = { ...parsed, titleCy: welshOrNull(parsed.titleCy), descriptionCy: welshOrNull(parsed.descriptionCy) };
        if (course) {
          update.mutate(values, {
            onSuccess: () => notifySuccess(t('basicInfo.updated'), t('basicInfo.updatedMessage')),
            onError,
          });
        } else {
          create.mutate(values, { onSuccess: onCreated, onError });
        }
      })}
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('basicInfo.title')} required withAsterisk={false} key={form.key('title')} {...fields.title} />
          <TextInput label={t('basicInfo.titleCy')} description={t('welsh.hint')} lang="cy" key={form.key('titleCy')} {...fields.titleCy} />
          <Textarea
            label={t('basicInfo.description')}
            description={t('basicInfo.descriptionHint', { min: COURSE_DESCRIPTION_MIN })}
            required withAsterisk={false}
            autosize
            minRows={4}
            key={form.key('description')}
            {...fields.description}
          />
          <Textarea
            label={t('basicInfo.descriptionCy')}
            description={t('basicInfo.descriptionHint', { min: COURSE_DESCRIPTION_MIN })}
            lang="cy"
            autosize
            minRows={4}
            key={form.key('descriptionCy')}
            {...fields.descriptionCy}
          />
        </SimpleGrid>
        <Group grow align="flex-start">
          <Select
            label={t('basicInfo.service')}
            required withAsterisk={false}
            data={serviceOptions}
            allowDeselect={false}
            key={form.key('service')}
            {...fields.service}
          />
          <Select
            label={t('basicInfo.level')}
            required withAsterisk={false}
            data={COURSE_LEVELS.map((value) => ({ value, label: labelOf('courseLevel', value) }))}
            allowDeselect={false}
            key={form.key('level')}
            {...fields.level}
          />
        </Group>
        <Group grow align="flex-start">
          <NumberInput
            label={t('basicInfo.duration')}
            required withAsterisk={false}
            min={1}
            allowDecimal={false}
            key={form.key('duration')}
            {...fields.duration}
          />
          <Select
            label={t('basicInfo.status')}
            required withAsterisk={false}
            data={COURSE_STATUSES.map((value) => ({ value, label: labelOf('courseStatus', value) }))}
            allowDeselect={false}
            key={form.key('status')}
            {...fields.status}
          />
        </Group>
        <NumberInput
          label={t('basicInfo.certificateMonths')}
          description={t('basicInfo.certificateMonthsHint')}
          min={1}
          max={120}
          // Out of range is explained by the field's message rather than silently changed.
          clampBehavior="none"
          allowDecimal={false}
          allowNegative={false}
          key={form.key('certificateValidMonths')}
          {...fields.certificateValidMonths}
          value={form.getValues().certificateValidMonths ?? ''}
        />
        <Select
          label={t('basicInfo.approval')}
          description={t('basicInfo.approvalHint')}
          data={APPROVAL_CHOICES.map(({ value }) => ({ value, label: t(`basicInfo.approvalChoice.${value}`) }))}
          allowDeselect={false}
          key={form.key('requiresApproval')}
          value={approvalChoiceOf(form.getValues().requiresApproval)}
          onChange={(choice) => form.setFieldValue('requiresApproval', requiresApprovalOf(choice))}
          error={form.errors.requiresApproval}
        />
        {/* The hint outside the switch's label, so that the label alone names it and the hint describes it. */}
        <Stack gap={4}>
          <Switch
            label={t('basicInfo.sessionApproval')}
            aria-describedby={sessionApprovalHintId}
            key={form.key('sessionsNeedManagerApproval')}
            {...form.getInputProps('sessionsNeedManagerApproval', { type: 'checkbox' })}
          />
          <Text id={sessionApprovalHintId} size="xs" c="dimmed">{t('basicInfo.sessionApprovalHint')}</Text>
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate('/admin')}>
            {t('basicInfo.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {course ? t('basicInfo.update') : t('basicInfo.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
