// Settings tab: the settings record with 'Reset to Defaults' (fills the
// form, saves nothing) and 'Save Settings'. Under "Notifications" the default intervals of
// the notices; day lists are typed as "14, 3" and checked by the same schema as the API's. Under
// "SCORM packages" the largest package authors may upload.
import { useEffect, useEffectEvent } from 'react';
import { Button, Group, NumberInput, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { DEFAULT_SETTINGS, settingsSchema, type SettingsInput } from '@shared/admin.ts';
import { formatDayList } from '@shared/schemas.ts';
import { SCORM_UPLOAD_LIMIT_MB } from '@shared/scorm.ts';
import { CERTIFICATE_TEMPLATE_LABELS, CERTIFICATE_TEMPLATES, COURSE_ACCESS_LABELS, COURSE_ACCESS_OPTIONS } from '@shared/domain.ts';
import { settingsQueryOptions } from '@/lib/site-settings/get-settings';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useSaveSettings } from '../api/settings';

const accessData = COURSE_ACCESS_OPTIONS.map((value) => ({ value, label: COURSE_ACCESS_LABELS[value] }));
const templateData = CERTIFICATE_TEMPLATES.map((value) => ({ value, label: CERTIFICATE_TEMPLATE_LABELS[value] }));

/** The form's values: the day lists as typed text, the single days as the number fields hold them. */
type SettingsForm = Omit<SettingsInput, 'dueSoonDays' | 'expiryWarningDays' | 'overdueRepeatDays' | 'escalationDays' | 'scormMaxUploadMb'> & {
  dueSoonDays: string;
  expiryWarningDays: string;
  overdueRepeatDays: number | string;
  escalationDays: number | string;
  scormMaxUploadMb: number | string;
};

const DEFAULT_FORM: SettingsForm = {
  ...DEFAULT_SETTINGS,
  dueSoonDays: formatDayList(DEFAULT_SETTINGS.dueSoonDays as number[]),
  expiryWarningDays: formatDayList(DEFAULT_SETTINGS.expiryWarningDays as number[]),
  overdueRepeatDays: DEFAULT_SETTINGS.overdueRepeatDays as number,
  escalationDays: DEFAULT_SETTINGS.escalationDays as number,
  scormMaxUploadMb: DEFAULT_SETTINGS.scormMaxUploadMb as number,
};

export function SettingsTab({ currentUserId }: { currentUserId: string }) {
  const { data, isPending, isError, error } = useQuery(settingsQueryOptions(currentUserId));
  const save = useSaveSettings();
  const form = useForm<SettingsForm>({
    mode: 'controlled',
    initialValues: DEFAULT_FORM,
    validate: zod4Resolver(settingsSchema, { errorPriority: 'first' }),
  });
  const resetForm = useEffectEvent(() => {
    if (!data) return;
    form.setValues({
      siteName: data.siteName,
      adminEmail: data.adminEmail ?? '',
      courseAccess: data.courseAccess,
      certificateTemplate: data.certificateTemplate,
      footerText: data.footerText,
      enableAnalytics: data.enableAnalytics,
      autoEnrollment: data.autoEnrollment,
      dueSoonDays: formatDayList(data.dueSoonDays),
      expiryWarningDays: formatDayList(data.expiryWarningDays),
      overdueRepeatDays: data.overdueRepeatDays,
      escalationDays: data.escalationDays,
      scormMaxUploadMb: data.scormMaxUploadMb,
    });
    form.resetDirty();
  });
  // Only when the saved settings change on the server, not on every refetch of the same ones.
  useEffect(() => resetForm(), [data?.updatedAt]);

  const submit = form.onSubmit((values) => {
    // Validated by the resolver: parsing gives the day lists as numbers, largest first.
    save.mutate(settingsSchema.parse(values), {
      onSuccess: () => notifySuccess('Settings updated', 'System settings have been updated successfully.'),
      onError: (e) => {
        if (e instanceof ApiError && e.fields) form.setErrors(e.fields);
        notifyFailure('Failed to update settings', errorDescription(e, 'Failed to update settings'));
      },
    });
  });

  function reset() {
    form.setValues(DEFAULT_FORM);
    form.clearErrors();
    notifySuccess('Settings reset', 'Settings have been reset to default values. Click Save Settings to apply.');
  }

  if (isPending) return <Text>Loading settings…</Text>;
  if (isError) return <Text c="red.8">{errorDescription(error, 'Failed to load settings')}</Text>;

  return (
    <form onSubmit={submit} noValidate aria-label="System settings">
      <Stack maw={640}>
        <TextInput label="Site name" required {...form.getInputProps('siteName')} />
        <TextInput label="Administrator email" type="email" required
          description="Shown to signed-in users as the contact address." {...form.getInputProps('adminEmail')} />
        <Select label="Course access" data={accessData} allowDeselect={false} {...form.getInputProps('courseAccess')} />
        <Select label="Certificate template" data={templateData} allowDeselect={false} {...form.getInputProps('certificateTemplate')} />
        <Textarea label="Footer text" autosize minRows={2} {...form.getInputProps('footerText')} />
        <Switch label="Enable analytics" {...form.getInputProps('enableAnalytics', { type: 'checkbox' })} />
        <Switch label="Automatic enrolment of new users in featured courses"
          {...form.getInputProps('autoEnrollment', { type: 'checkbox' })} />
        <Title order={2} size="h4" mt="md">Notifications</Title>
        <Text size="sm">
          When people are reminded about required training and certificates. A required-training rule may set its own
          reminder days and when the line manager is told. Line managers get a weekly summary of their team on Mondays
          from 07:00.
        </Text>
        <TextInput label="Due soon reminders (days before the due date)" required inputMode="numeric"
          description="Up to 5 numbers separated by commas, e.g. 14, 3" {...form.getInputProps('dueSoonDays')} />
        <TextInput label="Certificate expiry reminders (days before expiry)" required inputMode="numeric"
          description="Up to 5 numbers separated by commas, e.g. 60, 30, 7" {...form.getInputProps('expiryWarningDays')} />
        <NumberInput label="Repeat overdue reminders every (days)" required min={1} max={365} allowDecimal={false}
          description="The first goes on the due date" {...form.getInputProps('overdueRepeatDays')} />
        <NumberInput label="Tell the line manager after (days overdue)" required min={1} max={365} allowDecimal={false}
          {...form.getInputProps('escalationDays')} />
        <Title order={2} size="h4" mt="md">SCORM packages</Title>
        <NumberInput label="Largest SCORM package (MB)" required min={SCORM_UPLOAD_LIMIT_MB.min} max={SCORM_UPLOAD_LIMIT_MB.max}
          allowDecimal={false} allowNegative={false} clampBehavior="none"
          description={`Authors cannot upload a package (.zip) larger than this. ${SCORM_UPLOAD_LIMIT_MB.min} to ${SCORM_UPLOAD_LIMIT_MB.max.toLocaleString('en-GB')} MB; the default is ${SCORM_UPLOAD_LIMIT_MB.default} MB.`}
          {...form.getInputProps('scormMaxUploadMb')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={reset}>Reset to Defaults</Button>
          <Button type="submit" loading={save.isPending}>Save Settings</Button>
        </Group>
      </Stack>
    </form>
  );
}
