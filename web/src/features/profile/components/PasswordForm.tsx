// Password change: the current password is checked by the server (400 on currentPassword if wrong).
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { type PasswordChangeInput, passwordChangeSchema } from '@shared/profile.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useTranslation } from 'react-i18next';
import { useChangePassword } from '../api/change-password';

const EMPTY: PasswordChangeInput = { currentPassword: '', newPassword: '', confirmPassword: '' };

export interface PasswordFormProps {
  /** Called after the password has changed (the choose-a-new-password screen moves on). */
  onChanged?: () => void;
  /** A hint under "Current password" (the temporary password the person was given). */
  currentDescription?: string;
}

export function PasswordForm({ onChanged, currentDescription }: PasswordFormProps = {}) {
  const { t } = useTranslation('profile');
  const form = useForm<PasswordChangeInput>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: translatedResolver(passwordChangeSchema, { errorPriority: 'first' }),
  });
  const change = useChangePassword({
    onSuccess: () => {
      form.setValues(EMPTY);
      form.clearErrors();
      notifySuccess(t('passwordForm.changed'), t('passwordForm.changedMessage'), { action: 'password' });
      onChanged?.();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      notifyFailure(t('passwordForm.changeFailed'), errorDescription(error, t('passwordForm.tryAgain')), { action: 'password' });
    },
  });

  // Toggle names avoid the word "password" so each field's label stays the only one that says it.
  const toggles = {
    current: { 'aria-label': t('passwordForm.toggleCurrent') },
    new: { 'aria-label': t('passwordForm.toggleNew') },
    confirmation: { 'aria-label': t('passwordForm.toggleConfirmation') },
  };
  // Each field's props and key, worked out before the JSX (their names are keys, not text).
  const fields = {
    currentPassword: form.getInputProps('currentPassword'),
    newPassword: form.getInputProps('newPassword'),
    confirmPassword: form.getInputProps('confirmPassword'),
  };
  const keys = { currentPassword: form.key('currentPassword'), newPassword: form.key('newPassword'), confirmPassword: form.key('confirmPassword') };

  return (
    <form noValidate aria-label={t('passwordForm.formLabel')} onSubmit={form.onSubmit((values) => change.mutate(values))}>
      <Stack gap="md">
        <PasswordInput
          label={t('passwordForm.current')}
          description={currentDescription}
          autoComplete="current-password"
          visibilityToggleButtonProps={toggles.current}
          required
          withAsterisk={false}
          key={keys.currentPassword}
          {...fields.currentPassword}
        />
        <PasswordInput
          label={t('passwordForm.new')}
          autoComplete="new-password"
          visibilityToggleButtonProps={toggles.new}
          required
          withAsterisk={false}
          key={keys.newPassword}
          {...fields.newPassword}
        />
        <PasswordInput
          label={t('passwordForm.confirm')}
          autoComplete="new-password"
          visibilityToggleButtonProps={toggles.confirmation}
          required
          withAsterisk={false}
          key={keys.confirmPassword}
          {...fields.confirmPassword}
        />
        <Group>
          <Button type="submit" loading={change.isPending}>
            {t('passwordForm.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
