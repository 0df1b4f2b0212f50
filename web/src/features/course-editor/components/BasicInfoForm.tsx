// Basic Information: the editor's course fields with the shared schema (spec §5 "Course editor form").
// Instructors may choose only their own services; admins any.
import { useEffect, useEffectEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, Group, NumberInput, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { APPROVAL_CHOICES, COURSE_DESCRIPTION_MIN, approvalChoiceOf, courseEditorSchema, requiresApprovalOf, type CourseEditorValues } from '@shared/authoring.ts';
import { COURSE_LEVEL_LABELS, COURSE_LEVELS, COURSE_STATUS_LABELS, COURSE_STATUSES, type CourseStatus, type User } from '@shared/domain.ts';
import { SERVICE_CODES, serviceLabel } from '@shared/services.ts';
import type { Course } from '@shared/catalogue.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCreateCourse, useUpdateCourse } from '../api/course';

export function allowedServices(user: User): string[] {
  return user.role === 'ADMIN' ? [...SERVICE_CODES] : SERVICE_CODES.filter((code) => user.services.includes(code));
}

function valuesOf(course: Course | undefined, services: string[]): CourseEditorValues {
  return {
    title: course?.title ?? '',
    description: course?.description ?? '',
    service: (course?.service ?? services[0] ?? '') as CourseEditorValues['service'],
    level: (course?.level ?? 'BEGINNER') as CourseEditorValues['level'],
    duration: course?.duration ?? 1,
    status: (course?.status ?? 'DRAFT') as CourseEditorValues['status'],
    certificateValidMonths: course?.certificateValidMonths ?? null,
    requiresApproval: course?.requiresApproval ?? null,
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
  const navigate = useNavigate();
  const services = allowedServices(user);
  // An admin-set service outside the instructor's list still shows on their own course.
  const serviceOptions = [...new Set([...services, ...(course ? [course.service] : [])])].map((code) => ({
    value: code,
    label: `${serviceLabel(code)} (${code})`,
  }));
  const form = useForm<CourseEditorValues>({
    mode: 'controlled',
    initialValues: valuesOf(course, services),
    validate: zod4Resolver(courseEditorSchema, { errorPriority: 'first' }),
    onValuesChange: (values) => onStatusChange(values.status),
  });
  const create = useCreateCourse();
  const update = useUpdateCourse(course?.id ?? '');

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
    notifyFailure('Error saving course', errorDescription(error, course ? 'Failed to update course' : 'Failed to create course'));
  };

  return (
    <form
      noValidate
      aria-label="Basic Information"
      onSubmit={form.onSubmit((raw) => {
        const values = courseEditorSchema.parse(raw);
        if (course) {
          update.mutate(values, {
            onSuccess: () => notifySuccess('Course updated', 'Your changes have been saved.'),
            onError,
          });
        } else {
          create.mutate(values, { onSuccess: onCreated, onError });
        }
      })}
    >
      <Stack gap="md">
        <TextInput label="Course Title" required withAsterisk={false} key={form.key('title')} {...form.getInputProps('title')} />
        <Textarea
          label="Description"
          description={`At least ${COURSE_DESCRIPTION_MIN} characters`}
          required withAsterisk={false}
          autosize
          minRows={4}
          key={form.key('description')}
          {...form.getInputProps('description')}
        />
        <Group grow align="flex-start">
          <Select
            label="Service"
            required withAsterisk={false}
            data={serviceOptions}
            allowDeselect={false}
            key={form.key('service')}
            {...form.getInputProps('service')}
          />
          <Select
            label="Difficulty Level"
            required withAsterisk={false}
            data={COURSE_LEVELS.map((value) => ({ value, label: COURSE_LEVEL_LABELS[value] }))}
            allowDeselect={false}
            key={form.key('level')}
            {...form.getInputProps('level')}
          />
        </Group>
        <Group grow align="flex-start">
          <NumberInput
            label="Duration (hours)"
            required withAsterisk={false}
            min={1}
            allowDecimal={false}
            key={form.key('duration')}
            {...form.getInputProps('duration')}
          />
          <Select
            label="Status"
            required withAsterisk={false}
            data={COURSE_STATUSES.map((value) => ({ value, label: COURSE_STATUS_LABELS[value] }))}
            allowDeselect={false}
            key={form.key('status')}
            {...form.getInputProps('status')}
          />
        </Group>
        <NumberInput
          label="Certificate valid for (months)"
          description="Leave empty if the certificate never expires. Learners can recertify from 60 days before it expires."
          min={1}
          max={120}
          // Out of range is explained by the field's message rather than silently changed.
          clampBehavior="none"
          allowDecimal={false}
          allowNegative={false}
          key={form.key('certificateValidMonths')}
          {...form.getInputProps('certificateValidMonths')}
          value={form.getValues().certificateValidMonths ?? ''}
        />
        <Select
          label="Enrolment approval"
          description="Whether an instructor must approve each enrolment on this course. The site setting applies unless you choose otherwise."
          data={APPROVAL_CHOICES.map(({ value, label }) => ({ value, label }))}
          allowDeselect={false}
          key={form.key('requiresApproval')}
          value={approvalChoiceOf(form.getValues().requiresApproval)}
          onChange={(choice) => form.setFieldValue('requiresApproval', requiresApprovalOf(choice))}
          error={form.errors.requiresApproval}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate('/admin')}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {course ? 'Update Course' : 'Save Course'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
