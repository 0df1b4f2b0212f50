// A new password from a recovery link's session: the same rules and messages as the profile's
// password change (passwordRecoverySchema shares its fields), without the current password.
import { Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { type PasswordRecoveryInput, passwordRecoverySchema } from '@shared/profile.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useSetRecoveredPassword } from '../api/recovery';

// Toggle names avoid the word "password" so each field's label stays the only one that says it.
const toggle = (which: string) => ({ 'aria-label': `Show or hide the characters typed (${which})` });

export interface ResetPasswordFormProps {
  onChanged: () => void;
  /** The session is not a recovery link's (used, expired or opened over an hour ago). */
  onLinkRefused: () => void;
}

export function ResetPasswordForm({ onChanged, onLinkRefused }: ResetPasswordFormProps) {
  const form = useForm<PasswordRecoveryInput>({
    mode: 'controlled',
    initialValues: { newPassword: '', confirmPassword: '' },
    validate: translatedResolver(passwordRecoverySchema, { errorPriority: 'first' }),
  });
  const change = useSetRecoveredPassword({
    onSuccess: () => {
      notifySuccess('Password changed', 'You are signed in with your new password.', { action: 'password' });
      onChanged();
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        onLinkRefused();
        return;
      }
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      notifyFailure('Failed to change password', errorDescription(error, 'Please try again.'), { action: 'password' });
    },
  });

  return (
    <form noValidate aria-label="Choose a new password" onSubmit={form.onSubmit((values) => change.mutate(values))}>
      <Stack gap="md">
        <PasswordInput
          label="New password"
          description="At least 6 characters"
          autoComplete="new-password"
          visibilityToggleButtonProps={toggle('new')}
          required
          withAsterisk={false}
          key={form.key('newPassword')}
          {...form.getInputProps('newPassword')}
        />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          visibilityToggleButtonProps={toggle('confirmation')}
          required
          withAsterisk={false}
          key={form.key('confirmPassword')}
          {...form.getInputProps('confirmPassword')}
        />
        <Button type="submit" fullWidth loading={change.isPending}>
          Set new password
        </Button>
      </Stack>
    </form>
  );
}
