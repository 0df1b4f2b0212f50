// Register form: @mantine/form with the shared registerSchema (the server checks the same rules);
// server field errors (e.g. a taken username) land under the fields.
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { visibilityToggleProps } from './password-toggle';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { PRODUCT_NAME } from '@shared/domain.ts';
import { registerSchema, type RegisterInput } from '@shared/schemas.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useRegister } from '../api/register';

export function RegisterForm({ onSuccess }: { onSuccess?: () => void }) {
  const { t } = useTranslation('auth');
  const form = useForm<RegisterInput>({
    mode: 'controlled',
    initialValues: { username: '', email: '', name: '', password: '', confirmPassword: '' },
    validate: translatedResolver(registerSchema, { errorPriority: 'first' }),
  });
  const register = useRegister({
    onSuccess: (user) => {
      notifySuccess(t('registerForm.successTitle'), t('registerForm.successMessage', { product: PRODUCT_NAME, name: user.name }), { action: 'auth' });
      onSuccess?.();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      notifyFailure(t('registerForm.failureTitle'), errorDescription(error, t('registerForm.failureFallback')), { action: 'auth' });
    },
  });

  // Each field's props (value, onChange, error), taken before the JSX.
  const inputs = {
    username: form.getInputProps('username'),
    email: form.getInputProps('email'),
    name: form.getInputProps('name'),
    password: form.getInputProps('password'),
    confirmPassword: form.getInputProps('confirmPassword'),
  };
  return (
    <form
      noValidate
      aria-label={t('registerForm.formLabel')}
      onSubmit={form.onSubmit((values) => register.mutate(registerSchema.parse(values)))}
    >
      <Stack gap="md">
        <TextInput label={t('registerForm.username')} autoComplete="username" required withAsterisk={false} key={form.key('username')} {...inputs.username} />
        <TextInput label={t('registerForm.email')} type="email" autoComplete="email" required withAsterisk={false} key={form.key('email')} {...inputs.email} />
        <TextInput label={t('registerForm.fullName')} autoComplete="name" required withAsterisk={false} key={form.key('name')} {...inputs.name} />
        <PasswordInput
          visibilityToggleButtonProps={visibilityToggleProps(t)}
          label={t('registerForm.password')}
          description={t('registerForm.passwordDescription')}
          autoComplete="new-password"
          required withAsterisk={false}
          key={form.key('password')}
          {...inputs.password}
        />
        <PasswordInput
          visibilityToggleButtonProps={visibilityToggleProps(t)}
          label={t('registerForm.confirmPassword')}
          autoComplete="new-password"
          required withAsterisk={false}
          key={form.key('confirmPassword')}
          {...inputs.confirmPassword}
        />
        <Button type="submit" fullWidth loading={register.isPending}>
          {t('registerForm.submit')}
        </Button>
      </Stack>
    </form>
  );
}
