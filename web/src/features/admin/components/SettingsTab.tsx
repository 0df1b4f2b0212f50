// Settings tab: the settings record with 'Reset to Defaults' (fills the
// form, saves nothing) and 'Save Settings'. Under "Notifications" the default intervals of
// the notices; day lists are typed as "14, 3" and checked by the same schema as the API's. Under
// "SCORM packages" the largest package authors may upload; under "Classroom sessions" how long a
// place offered from a waiting list is held.
import { useEffect, useEffectEvent } from 'react';
import { Button, Group, NumberInput, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { DEFAULT_SETTINGS, settingsSchema, type SettingsInput } from '@shared/admin.ts';
import { formatDayList } from '@shared/schemas.ts';
import { SCORM_UPLOAD_LIMIT_MB } from '@shared/scorm.ts';
import { SESSION_OFFER_HOURS } from '@shared/sessions.ts';
import { CERTIFICATE_TEMPLATES, COURSE_ACCESS_OPTIONS } from '@shared/domain.ts';
import { useTranslation } from 'react-i18next';
import { labelOf } from '@/lib/i18n/labels';
import { formatNumber } from '@/lib/format';
import { settingsQueryOptions } from '@/lib/site-settings/get-settings';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useSaveSettings } from '../api/settings';

const accessData = () => COURSE_ACCESS_OPTIONS.map((value) => ({ value, label: labelOf('courseAccess', value) }));
const templateData = () => CERTIFICATE_TEMPLATES.map((value) => ({ value, label: labelOf('certificateTemplate', value) }));

/** The form's values: the day lists as typed text, the single days as the number fields hold them. */
type SettingsForm = Omit<SettingsInput, 'dueSoonDays' | 'expiryWarningDays' | 'overdueRepeatDays' | 'escalationDays' | 'scormMaxUploadMb' | 'sessionOfferHours'> & {
  dueSoonDays: string;
  expiryWarningDays: string;
  overdueRepeatDays: number | string;
  escalationDays: number | string;
  scormMaxUploadMb: number | string;
  sessionOfferHours: number | string;
};

const DEFAULT_FORM: SettingsForm = {
  ...DEFAULT_SETTINGS,
  dueSoonDays: formatDayList(DEFAULT_SETTINGS.dueSoonDays as number[]),
  expiryWarningDays: formatDayList(DEFAULT_SETTINGS.expiryWarningDays as number[]),
  overdueRepeatDays: DEFAULT_SETTINGS.overdueRepeatDays as number,
  escalationDays: DEFAULT_SETTINGS.escalationDays as number,
  scormMaxUploadMb: DEFAULT_SETTINGS.scormMaxUploadMb as number,
  sessionOfferHours: DEFAULT_SETTINGS.sessionOfferHours as number,
};

export function SettingsTab({ currentUserId }: { currentUserId: string }) {
  const { t } = useTranslation('admin');
  const { data, isPending, isError, error } = useQuery(settingsQueryOptions(currentUserId));
  const save = useSaveSettings();
  const form = useForm<SettingsForm>({
    mode: 'controlled',
    initialValues: DEFAULT_FORM,
    validate: translatedResolver(settingsSchema, { errorPriority: 'first' }),
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
      sessionOfferHours: data.sessionOfferHours,
    });
    form.resetDirty();
  });
  // Only when the saved settings change on the server, not on every refetch of the same ones.
  useEffect(() => resetForm(), [data?.updatedAt]);

  const submit = form.onSubmit((values) => {
    // Validated by the resolver: parsing gives the day lists as numbers, largest first.
    save.mutate(settingsSchema.parse(values), {
      onSuccess: () => notifySuccess(t('settingsTab.updated'), t('settingsTab.updatedMessage')),
      onError: (e) => {
        if (e instanceof ApiError && e.fields) form.setErrors(e.fields);
        notifyFailure(t('settingsTab.updateFailed'), errorDescription(e, t('settingsTab.updateFailed')));
      },
    });
  });

  function reset() {
    form.setValues(DEFAULT_FORM);
    form.clearErrors();
    notifySuccess(t('settingsTab.reset'), t('settingsTab.resetMessage'));
  }

  // Each field's props, worked out before the JSX (its names are keys, not text).
  const fields = {
    siteName: form.getInputProps('siteName'),
    adminEmail: form.getInputProps('adminEmail'),
    courseAccess: form.getInputProps('courseAccess'),
    certificateTemplate: form.getInputProps('certificateTemplate'),
    footerText: form.getInputProps('footerText'),
    enableAnalytics: form.getInputProps('enableAnalytics', { type: 'checkbox' }),
    autoEnrollment: form.getInputProps('autoEnrollment', { type: 'checkbox' }),
    dueSoonDays: form.getInputProps('dueSoonDays'),
    expiryWarningDays: form.getInputProps('expiryWarningDays'),
    overdueRepeatDays: form.getInputProps('overdueRepeatDays'),
    escalationDays: form.getInputProps('escalationDays'),
    scormMaxUploadMb: form.getInputProps('scormMaxUploadMb'),
    sessionOfferHours: form.getInputProps('sessionOfferHours'),
  };

  if (isPending) return <Text>{t('settingsTab.loading')}</Text>;
  if (isError) return <Text c="red.8">{errorDescription(error, t('settingsTab.loadFailed'))}</Text>;

  return (
    <form onSubmit={submit} noValidate aria-label={t('settingsTab.formLabel')}>
      <Stack maw={640}>
        <TextInput label={t('settingsTab.siteName')} required {...fields.siteName} />
        <TextInput label={t('settingsTab.adminEmail')} type="email" required
          description={t('settingsTab.adminEmailDescription')} {...fields.adminEmail} />
        <Select label={t('settingsTab.courseAccess')} data={accessData()} allowDeselect={false} {...fields.courseAccess} />
        <Select label={t('settingsTab.certificateTemplate')} data={templateData()} allowDeselect={false} {...fields.certificateTemplate} />
        <Textarea label={t('settingsTab.footerText')} autosize minRows={2} {...fields.footerText} />
        <Switch label={t('settingsTab.enableAnalytics')} {...fields.enableAnalytics} />
        <Switch label={t('settingsTab.autoEnrolment')}
          {...fields.autoEnrollment} />
        <Title order={2} size="h4" mt="md">{t('settingsTab.notifications')}</Title>
        <Text size="sm">{t('settingsTab.notificationsIntro')}</Text>
        <TextInput label={t('settingsTab.dueSoonDays')} required inputMode="numeric"
          description={t('settingsTab.dueSoonDaysDescription')} {...fields.dueSoonDays} />
        <TextInput label={t('settingsTab.expiryWarningDays')} required inputMode="numeric"
          description={t('settingsTab.expiryWarningDaysDescription')} {...fields.expiryWarningDays} />
        <NumberInput label={t('settingsTab.overdueRepeatDays')} required min={1} max={365} allowDecimal={false}
          description={t('settingsTab.overdueRepeatDaysDescription')} {...fields.overdueRepeatDays} />
        <NumberInput label={t('settingsTab.escalationDays')} required min={1} max={365} allowDecimal={false}
          {...fields.escalationDays} />
        <Title order={2} size="h4" mt="md">{t('settingsTab.scorm')}</Title>
        <NumberInput label={t('settingsTab.scormMaxUploadMb')} required min={SCORM_UPLOAD_LIMIT_MB.min} max={SCORM_UPLOAD_LIMIT_MB.max}
          allowDecimal={false} allowNegative={false} clampBehavior="none"
          description={t('settingsTab.scormMaxUploadMbDescription', {
            min: formatNumber(SCORM_UPLOAD_LIMIT_MB.min),
            max: formatNumber(SCORM_UPLOAD_LIMIT_MB.max),
            usual: formatNumber(SCORM_UPLOAD_LIMIT_MB.default),
          })}
          {...fields.scormMaxUploadMb} />
        <Title order={2} size="h4" mt="md">{t('settingsTab.sessions')}</Title>
        <NumberInput label={t('settingsTab.sessionOfferHours')} required min={SESSION_OFFER_HOURS.min} max={SESSION_OFFER_HOURS.max}
          allowDecimal={false} allowNegative={false} clampBehavior="none"
          description={t('settingsTab.sessionOfferHoursDescription', {
            min: formatNumber(SESSION_OFFER_HOURS.min),
            max: formatNumber(SESSION_OFFER_HOURS.max),
            usual: formatNumber(SESSION_OFFER_HOURS.default),
          })}
          {...fields.sessionOfferHours} />
        <Group justify="flex-end">
          <Button variant="default" onClick={reset}>{t('settingsTab.resetToDefaults')}</Button>
          <Button type="submit" loading={save.isPending}>{t('settingsTab.save')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
