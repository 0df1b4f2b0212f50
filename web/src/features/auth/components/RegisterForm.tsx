// Register form: @mantine/form with the shared registerSchema (the server checks the same rules);
// server field errors (e.g. a taken username) land under the fields.
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { visibilityToggleProps as TOGGLE_PROPS } from './password-toggle';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { PRODUCT_NAME } from '@shared/domain.ts';
import { registerSchema, type RegisterInput } from '@shared/schemas.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useRegister } from '../api/register';

export function RegisterForm({ onSuccess }: { onSuccess?: () => void }) {
  const form = useForm<RegisterInput>({
    mode: 'controlled',
    initialValues: { username: '', email: '', name: '', password: '', confirmPassword: '' },
    validate: translatedResolver(registerSchema, { errorPriority: 'first' }),
  });
  const register = useRegister({
    onSuccess: (user) => {
      notifySuccess('Registration successful', `Welcome to ${PRODUCT_NAME}, ${user.name}`, { action: 'auth' });
      onSuccess?.();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      notifyFailure('Registration failed', errorDescription(error, 'Please check your information and try again'), { action: 'auth' });
    },
  });

  return (
    <form
      noValidate
      aria-label="Register"
      onSubmit={form.onSubmit((values) => register.mutate(registerSchema.parse(values)))}
    >
      <Stack gap="md">
        <TextInput label="Username" autoComplete="username" required withAsterisk={false} key={form.key('username')} {...form.getInputProps('username')} />
        <TextInput label="Email" type="email" autoComplete="email" required withAsterisk={false} key={form.key('email')} {...form.getInputProps('email')} />
        <TextInput label="Full name" autoComplete="name" required withAsterisk={false} key={form.key('name')} {...form.getInputProps('name')} />
        <PasswordInput
          visibilityToggleButtonProps={TOGGLE_PROPS}
          label="Password"
          description="At least 6 characters"
          autoComplete="new-password"
          required withAsterisk={false}
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <PasswordInput
          visibilityToggleButtonProps={TOGGLE_PROPS}
          label="Confirm password"
          autoComplete="new-password"
          required withAsterisk={false}
          key={form.key('confirmPassword')}
          {...form.getInputProps('confirmPassword')}
        />
        <Button type="submit" fullWidth loading={register.isPending}>
          Register
        </Button>
      </Stack>
    </form>
  );
}
