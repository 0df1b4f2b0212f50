// A new password from a recovery link's session: the same rules and messages as the profile's
// password change (passwordRecoverySchema shares its fields), without the current password.
import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { type PasswordRecoveryInput, passwordRecoverySchema } from '@shared/profile.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useTranslation } from 'react-i18next';
import { useSetRecoveredPassword } from '../api/recovery';

export interface ResetPasswordFormProps {
  onChanged: () => void;
  /** The session is not a recovery link's (used, expired or opened over an hour ago). */
  onLinkRefused: () => void;
}

export function ResetPasswordForm({ onChanged, onLinkRefused }: ResetPasswordFormProps) {
  const { t } = useTranslation('auth');
  const form = useForm<PasswordRecoveryInput>({
    mode: 'controlled',
    initialValues: { newPassword: '', confirmPassword: '' },
    validate: translatedResolver(passwordRecoverySchema, { errorPriority: 'first' }),
  });
  const change = useSetRecoveredPassword({
    onSuccess: () => {
      notifySuccess(t('resetPasswordForm.changedTitle'), t('resetPasswordForm.changedMessage'), { action: 'password' });
      onChanged();
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        onLinkRefused();
        return;
      }
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      notifyFailure(t('resetPasswordForm.failedTitle'), errorDescription(error, t('resetPasswordForm.failedFallback')), { action: 'password' });
    },
  });

  // Each field's props (value, onChange, error), taken before the JSX.
  const inputs = {
    newPassword: form.getInputProps('newPassword'),
    confirmPassword: form.getInputProps('confirmPassword'),
  };
  return (
    <form noValidate aria-label={t('resetPasswordForm.formLabel')} onSubmit={form.onSubmit((values) => change.mutate(values))}>
      <Stack gap="md">
        <PasswordInput
          label={t('resetPasswordForm.newPassword')}
          description={t('resetPasswordForm.newPasswordDescription')}
          autoComplete="new-password"
          // Toggle names avoid the word "password" so each field's label stays the only one that says it.
          visibilityToggleButtonProps={{ 'aria-label': t('passwordToggle.labelNew') }}
          required
          withAsterisk={false}
          key={form.key('newPassword')}
          {...inputs.newPassword}
        />
        <PasswordInput
          label={t('resetPasswordForm.confirmPassword')}
          autoComplete="new-password"
          visibilityToggleButtonProps={{ 'aria-label': t('passwordToggle.labelConfirmation') }}
          required
          withAsterisk={false}
          key={form.key('confirmPassword')}
          {...inputs.confirmPassword}
        />
        <Button type="submit" fullWidth loading={change.isPending}>
          {t('resetPasswordForm.submit')}
        </Button>
      </Stack>
    </form>
  );
}
