// Settings tab: the settings record with 'Reset to Defaults' (fills the
// form, saves nothing) and 'Save Settings'.
import { useEffect } from 'react';
import { Button, Group, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { DEFAULT_SETTINGS, settingsSchema, type SettingsInput } from '@shared/admin.ts';
import { CERTIFICATE_TEMPLATE_LABELS, CERTIFICATE_TEMPLATES, COURSE_ACCESS_LABELS, COURSE_ACCESS_OPTIONS } from '@shared/domain.ts';
import { settingsQueryOptions } from '@/lib/site-settings/get-settings';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useSaveSettings } from '../api/settings';

const accessData = COURSE_ACCESS_OPTIONS.map((value) => ({ value, label: COURSE_ACCESS_LABELS[value] }));
const templateData = CERTIFICATE_TEMPLATES.map((value) => ({ value, label: CERTIFICATE_TEMPLATE_LABELS[value] }));

export function SettingsTab({ currentUserId }: { currentUserId: string }) {
  const { data, isPending, isError, error } = useQuery(settingsQueryOptions(currentUserId));
  const save = useSaveSettings();
  const form = useForm<SettingsInput>({
    mode: 'controlled',
    initialValues: DEFAULT_SETTINGS,
    validate: zod4Resolver(settingsSchema, { errorPriority: 'first' }),
  });
  useEffect(() => {
    if (!data) return;
    form.setValues({
      siteName: data.siteName,
      adminEmail: data.adminEmail ?? '',
      courseAccess: data.courseAccess,
      certificateTemplate: data.certificateTemplate,
      footerText: data.footerText,
      enableAnalytics: data.enableAnalytics,
      autoEnrollment: data.autoEnrollment,
    });
    form.resetDirty();
    // Only when the saved settings change on the server, not on every refetch of the same ones.
  }, [data?.updatedAt]);

  const submit = form.onSubmit((values) => {
    save.mutate(values, {
      onSuccess: () => notifySuccess('Settings updated', 'System settings have been updated successfully.'),
      onError: (e) => {
        if (e instanceof ApiError && e.fields) form.setErrors(e.fields);
        notifyFailure('Failed to update settings', errorDescription(e, 'Failed to update settings'));
      },
    });
  });

  function reset() {
    form.setValues(DEFAULT_SETTINGS);
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
        <Group justify="flex-end">
          <Button variant="default" onClick={reset}>Reset to Defaults</Button>
          <Button type="submit" loading={save.isPending}>Save Settings</Button>
        </Group>
      </Stack>
    </form>
  );
}
