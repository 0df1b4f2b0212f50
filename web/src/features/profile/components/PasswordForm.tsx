// Password change: the current password is checked by the server (400 on currentPassword if wrong).
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { type PasswordChangeInput, passwordChangeSchema } from '@shared/profile.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useChangePassword } from '../api/change-password';

// Toggle names avoid the word "password" so each field's label stays the only one that says it.
const toggle = (which: string) => ({ 'aria-label': `Show or hide the characters typed (${which})` });
const EMPTY: PasswordChangeInput = { currentPassword: '', newPassword: '', confirmPassword: '' };

export interface PasswordFormProps {
  /** Called after the password has changed (the choose-a-new-password screen moves on). */
  onChanged?: () => void;
  /** A hint under "Current password" (the temporary password the person was given). */
  currentDescription?: string;
}

export function PasswordForm({ onChanged, currentDescription }: PasswordFormProps = {}) {
  const form = useForm<PasswordChangeInput>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: zod4Resolver(passwordChangeSchema, { errorPriority: 'first' }),
  });
  const change = useChangePassword({
    onSuccess: () => {
      form.setValues(EMPTY);
      form.clearErrors();
      notifySuccess('Password changed', 'Use your new password the next time you sign in.', { action: 'password' });
      onChanged?.();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      notifyFailure('Failed to change password', errorDescription(error, 'Please try again.'), { action: 'password' });
    },
  });

  return (
    <form noValidate aria-label="Change password" onSubmit={form.onSubmit((values) => change.mutate(values))}>
      <Stack gap="md">
        <PasswordInput
          label="Current password"
          description={currentDescription}
          autoComplete="current-password"
          visibilityToggleButtonProps={toggle('current')}
          required
          withAsterisk={false}
          key={form.key('currentPassword')}
          {...form.getInputProps('currentPassword')}
        />
        <PasswordInput
          label="New password"
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
        <Group>
          <Button type="submit" loading={change.isPending}>
            Change Password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
